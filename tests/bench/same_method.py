"""The GEMM sample (128x128 and 128x256 tiles, through build/tests/bench/libtilecc_bench_shim.so)
and cuBLAS (through torch), or with --attention the attention sample and cuDNN (torch's SDPA,
B4 H32 S4096, D 128 and 64, causal and not, as shared/bench/peers.py), timed the same way in one
process: triton.testing.do_bench, median, as peers.py times every peer. Rounds alternate the
order. Each result is checked: the GEMM against torch's fp32 product of the same inputs, attention
against cuDNN's output. With --idle SECONDS, the GPU rests that long before each timing (each then
starts from a cool GPU, as the first peer of a command does); the GEMM then runs 4096^3 only.
Usage: python3 same_method.py [path/to/libtilecc_bench_shim.so] [--idle SECONDS] [--attention]"""
import argparse
import ctypes
import time

import torch
from triton.testing import do_bench

ap = argparse.ArgumentParser()
ap.add_argument('lib', nargs='?', default='libtilecc_bench_shim.so')
ap.add_argument('--idle', type=float, default=0.0)
ap.add_argument('--attention', action='store_true')
args = ap.parse_args()
lib = ctypes.CDLL(args.lib)
lib.tilecc_shim_gemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                 ctypes.c_void_p]
lib.tilecc_shim_attention.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_float, ctypes.c_void_p]


def timed(name, runs, flops, rnd):
    for who, fn in (runs if rnd == 0 else list(reversed(runs))):
        if args.idle:
            torch.cuda.synchronize()
            time.sleep(args.idle)
        rest = f' after {args.idle:.0f} s idle' if args.idle else ''
        ms = do_bench(fn, warmup=50, rep=200, return_mode='median')
        print(f'{name:24s} {who:16s} round {rnd + 1}{rest} {ms:9.4f} ms {flops / ms / 1e9:8.1f} TFLOP/s', flush=True)


def attention():
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for causal, d in [(False, 128), (True, 128), (False, 64), (True, 64)]:
        bz, h, s = 4, 32, 4096
        q = torch.randn(bz, h, s, d, device='cuda', dtype=torch.float16)
        k, v = torch.randn_like(q), torch.randn_like(q)
        o = torch.empty_like(q)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

        def ours():
            rc = lib.tilecc_shim_attention(d, int(causal), q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), s, bz * h,
                                           1.0 / d**0.5, stream)
            if rc:
                raise RuntimeError(f'launch failed: cudaError_t {rc}')

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

        ours()
        ref = cudnn().float()
        err = ((o.float() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, f'tilecc attention D{d} causal={causal}: rel err {err} against cuDNN'
        flops = 4 * bz * h * s * s * d * (0.5 if causal else 1)
        for rnd in range(2):
            timed(f'attention D{d} causal={int(causal)}', [('torch/cuDNN', cudnn), ('tilecc', ours)], flops, rnd)


if args.attention:
    attention()
    raise SystemExit(0)


def ours(dt, wide, a, b, c, s):
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    rc = lib.tilecc_shim_gemm(int(dt == torch.bfloat16), wide, a.data_ptr(), b.data_ptr(), c.data_ptr(), s, stream)
    if rc:
        raise RuntimeError(f'launch failed: cudaError_t {rc}')


for s in (4096,) if args.idle else (4096, 8192):
    for dt in (torch.float16, torch.bfloat16):
        a = torch.randn(s, s, device='cuda', dtype=dt)
        b = torch.randn(s, s, device='cuda', dtype=dt)
        c = torch.empty(s, s, device='cuda', dtype=dt)
        ref = a.float() @ b.float()
        for wide in (0, 1):
            ours(dt, wide, a, b, c, s)
            torch.cuda.synchronize()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            assert err < 1e-2, f'tilecc {dt} {s} wide={wide}: rel err {err}'
        name = f'matmul {str(dt).split(".")[1]} {s}^3'
        runs = [('torch/cuBLAS', lambda: a @ b), ('tilecc 128x128', lambda: ours(dt, 0, a, b, c, s)),
                ('tilecc 128x256', lambda: ours(dt, 1, a, b, c, s))]
        for rnd in range(2):
            timed(name, runs, 2.0 * s**3, rnd)
