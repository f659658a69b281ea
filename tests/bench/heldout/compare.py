"""Several builds of libheldout.so against cuBLAS / cuDNN in one process (heldout.py's method:
triton.testing.do_bench medians, two rounds with the order reversed, every output checked first),
for before/after measurements of a translator change.
Usage: python3 compare.py attention|gemm base.so new.so [more.so ...]"""
import ctypes
import sys

import torch
from triton.testing import do_bench

what, paths = sys.argv[1], sys.argv[2:]
libs = []
for p in paths:
    lib = ctypes.CDLL(p)
    lib.heldout_gemm.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_void_p]
    lib.heldout_attention.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_float, ctypes.c_void_p]
    libs.append((p.split('/')[-1], lib))
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


def timed(name, peer, runs, flops):
    runs = [peer] + runs
    res = {who: [] for who, _ in runs}
    for rnd in range(2):
        for who, fn in (runs if rnd == 0 else runs[::-1]):
            res[who].append(flops / do_bench(fn, warmup=50, rep=200, return_mode='median') / 1e9)
    best = max(res[peer[0]])
    for who, r in res.items():
        print(f'{name:24s} {who:16s} {r[0]:7.1f} {r[1]:7.1f} TFLOP/s  {max(r) / best:5.3f}x', flush=True)


if what == 'gemm':  # heldout.py's variants: 0 tutorial 128x256, 6 block pointers, 7 persistent, 8 sample; bf16 2, 9
    variants = {torch.float16: (0, 6, 7, 8), torch.bfloat16: (2, 9)}
    for M, N, K in [(4096, 4096, 4096), (8192, 8192, 8192)]:
        for dt in (torch.float16, torch.bfloat16):
            a, b = torch.randn(M, K, device='cuda', dtype=dt), torch.randn(K, N, device='cuda', dtype=dt)
            c = torch.empty(M, N, device='cuda', dtype=dt)
            ref = a.float() @ b.float()
            runs = []
            for name, lib in libs:
                for v in variants[dt]:
                    c.fill_(float('nan'))
                    assert lib.heldout_gemm(v, a.data_ptr(), b.data_ptr(), c.data_ptr(), M, N, K, stream) == 0
                    torch.cuda.synchronize()
                    err = ((c.float() - ref).norm() / ref.norm()).item()
                    assert err < 1e-2, f'{name} variant {v}: rel err {err}'
                    runs.append((f'{name}:{v}', lambda lib=lib, v=v: lib.heldout_gemm(v, a.data_ptr(), b.data_ptr(), c.data_ptr(),
                                                                                       M, N, K, stream)))
            timed(f'matmul {str(dt)[6:]} {M}^3', ('cuBLAS', lambda: a @ b), runs, 2.0 * M * N * K)
else:  # variants: 0 tutorial BN128, 1 tutorial BN64, 2 the persistent port, 8 the sample
    from torch.nn.attention import SDPBackend, sdpa_kernel
    for d in (128, 64):
        for causal in (False, True):
            Z, H, S = 4, 32, 4096
            q = torch.randn(Z, H, S, d, device='cuda', dtype=torch.float16)
            k, v = torch.randn_like(q), torch.randn_like(q)
            o, lse = torch.empty_like(q), torch.empty(Z * H, S, device='cuda', dtype=torch.float32)
            scale = 1.0 / d**0.5

            def cudnn():
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)

            ref = cudnn().float()
            runs = []
            for name, lib in libs:
                for var in (0, 1, 2, 8):
                    o.fill_(float('nan'))
                    args = (var, d, int(causal), q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), Z, H, S,
                            scale, stream)
                    assert lib.heldout_attention(*args) == 0
                    torch.cuda.synchronize()
                    err = ((o.float() - ref).norm() / ref.norm()).item()
                    assert err < 1e-2, f'{name} variant {var}: rel err {err}'
                    runs.append((f'{name}:{var}', lambda lib=lib, args=args: lib.heldout_attention(*args)))
            timed(f'attention D{d} causal={int(causal)}', ('cuDNN', cudnn), runs, 4.0 * Z * H * S * S * d * (0.5 if causal else 1))
