"""Held-out check of speed: Triton's tutorial kernels ported as a user would (tutorials.tile.cpp)
against cuBLAS / cuDNN and the samples' tuned kernels, all timed by triton.testing.do_bench
(median) in one process, two rounds with the order reversed in the second. Every kernel's output
is checked first: GEMMs against torch's fp32 product of the same inputs, attention against
cuDNN's output. Usage: python3 heldout.py path/to/libheldout.so [gemm|attention] (both by default)"""
import ctypes
import sys

import torch
from triton.testing import do_bench

lib = ctypes.CDLL(sys.argv[1])
lib.heldout_gemm.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_void_p]
lib.heldout_attention.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_float, ctypes.c_void_p]
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
rows = []
only = sys.argv[2] if len(sys.argv) > 2 else None


def timed(name, runs, flops):
    res = {who: [] for who, _ in runs}
    for rnd in range(2):
        for who, fn in (runs if rnd == 0 else runs[::-1]):
            res[who].append(flops / do_bench(fn, warmup=50, rep=200, return_mode='median') / 1e9)
    peer = max(res[runs[0][0]])
    for who, r in res.items():
        print(f'{name:28s} {who:32s} {r[0]:7.1f} {r[1]:7.1f} TFLOP/s  {max(r) / peer:5.2f}x', flush=True)
        rows.append((name, who, max(r), max(r) / peer))


GEMMS = [(0, 'tutorial 128x256x64 w8 s3', torch.float16), (1, 'tutorial + leaky_relu', torch.float16),
         (2, 'tutorial bf16 128x256x64', torch.bfloat16), (3, 'tutorial 128x128x64 w8 s3', torch.float16),
         (4, 'tutorial 128x128x32 w4 s4', torch.float16), (5, 'tutorial 64x256x32 w4 s4', torch.float16),
         (6, 'block pointers 128x256x64', torch.float16), (7, 'persistent (09) 128x256x64', torch.float16),
         (8, 'sample 128x256 (tuned)', torch.float16), (9, 'sample bf16 128x256', torch.bfloat16)]
for M, N, K in [(4096, 4096, 4096), (8192, 8192, 8192), (4000, 4000, 4000)] if only in (None, 'gemm') else []:
    for dt in (torch.float16, torch.bfloat16):
        a = torch.randn(M, K, device='cuda', dtype=dt)
        b = torch.randn(K, N, device='cuda', dtype=dt)
        c = torch.empty(M, N, device='cuda', dtype=dt)
        ref = a.float() @ b.float()
        runs = [('torch/cuBLAS', lambda: a @ b)]
        for v, name, vdt in GEMMS:
            if vdt != dt:
                continue
            c.fill_(float('nan'))
            rc = lib.heldout_gemm(v, a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K, stream)
            assert rc == 0, f'{name}: cudaError_t {rc}'
            torch.cuda.synchronize()
            want = torch.where(ref >= 0, ref, 0.01 * ref) if v == 1 else ref
            err = ((c.float() - want).norm() / want.norm()).item()
            assert err < 1e-2, f'{name} {M}x{N}x{K}: rel err {err}'
            runs.append((name, lambda v=v: lib.heldout_gemm(v, a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K, stream)))
        timed(f'matmul {str(dt)[6:]} {M}x{N}x{K}', runs, 2.0 * M * N * K)

from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402

for d in (128, 64) if only in (None, 'attention') else ():
    for causal in (False, True):
        Z, H, S = 4, 32, 4096
        q = torch.randn(Z, H, S, d, device='cuda', dtype=torch.float16)
        k, v = torch.randn_like(q), torch.randn_like(q)
        o = torch.empty_like(q)
        lse = torch.empty(Z * H, S, device='cuda', dtype=torch.float32)
        scale = 1.0 / d**0.5

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

        ref = cudnn().float()
        runs = [('torch/cuDNN', cudnn)]
        names = {0: 'tutorial BM128 BN128 w8 s3', 1: 'tutorial BM128 BN64 ' + ('w8' if d == 128 else 'w4') + ' s3',
                 2: 'persistent BM128 BN128 w8 s3', 8: 'sample (tuned)'}
        for var, name in names.items():
            o.fill_(float('nan'))
            rc = lib.heldout_attention(var, d, int(causal), q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), Z,
                                       H, S, scale, stream)
            assert rc == 0, f'{name}: cudaError_t {rc}'
            torch.cuda.synchronize()
            err = ((o.float() - ref).norm() / ref.norm()).item()
            assert err < 1e-2, f'attention {name} D{d} causal={causal}: rel err {err}'
            if var != 8:  # the ports store M = log2 of each row's sum of exp2(scores), head 0 checked
                s0 = (q[0, 0].float() @ k[0, 0].float().T) * scale
                if causal:
                    s0 = s0.masked_fill(torch.ones(S, S, device='cuda', dtype=torch.bool).triu(1), float('-inf'))
                want = torch.logsumexp(s0, -1) * 1.4426950408889634
                lerr = (lse[0] - want).abs().max().item()
                assert lerr < 1e-2, f'attention {name} D{d} causal={causal}: M off by {lerr}'
            runs.append((name, lambda var=var: lib.heldout_attention(var, d, int(causal), q.data_ptr(), k.data_ptr(), v.data_ptr(),
                                                                     o.data_ptr(), lse.data_ptr(), Z, H, S, scale, stream)))
        timed(f'attention D{d} causal={int(causal)}', runs, 4.0 * Z * H * S * S * d * (0.5 if causal else 1))

print('\nsummary (best of two rounds; ratio to cuBLAS / cuDNN)')
for name, who, tf, ratio in rows:
    print(f'{name:28s} {who:32s} {tf:7.1f} {ratio:5.2f}x')
