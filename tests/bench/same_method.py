"""The GEMM sample (128x128 and 128x256 tiles, through build/tests/bench/libtilecc_bench_shim.so)
and cuBLAS (through torch), timed the same way in one process: triton.testing.do_bench, median,
as shared/bench/peers.py times every peer. Rounds alternate the order. Each result is checked
against torch's product (fp32 reference from the same inputs). With --idle SECONDS, the GPU rests
that long before each timing (each then starts from a cool GPU, as the first peer of a command
does) and only the 4096^3 shapes run.
Usage: python3 same_method.py [path/to/libtilecc_bench_shim.so] [--idle SECONDS]"""
import argparse
import ctypes
import time

import torch
from triton.testing import do_bench

ap = argparse.ArgumentParser()
ap.add_argument('lib', nargs='?', default='libtilecc_bench_shim.so')
ap.add_argument('--idle', type=float, default=0.0)
args = ap.parse_args()
lib = ctypes.CDLL(args.lib)
lib.tilecc_shim_gemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                 ctypes.c_void_p]


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
        for rnd in range(2):
            runs = [('torch/cuBLAS', lambda: a @ b), ('tilecc 128x128', lambda: ours(dt, 0, a, b, c, s)),
                    ('tilecc 128x256', lambda: ours(dt, 1, a, b, c, s))]
            if rnd:
                runs.reverse()
            for who, fn in runs:
                if args.idle:
                    torch.cuda.synchronize()
                    time.sleep(args.idle)
                rest = f' after {args.idle:.0f} s idle' if args.idle else ''
                ms = do_bench(fn, warmup=50, rep=200, return_mode='median')
                print(f'{name:24s} {who:16s} round {rnd + 1}{rest} {ms:9.4f} ms {2.0 * s**3 / ms / 1e9:8.1f} TFLOP/s', flush=True)
