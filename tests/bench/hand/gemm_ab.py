#!/usr/bin/env python3
"""Builds of the GEMM shim (tests/bench/shim.cu with a sample's generated matmul.cu, base and
variants) and cuBLAS, the fp16 and bf16 128x256 kernels at 4096^3 and 8192^3, timed the way
peers.py times cuBLAS (triton.testing.do_bench, medians) in one process, three rounds with the
order alternating; every build checked against torch's fp32 product first.

  gemm_ab.py NAME=path/to/libshim.so [NAME=...]"""
import ctypes
import sys

import torch
from triton.testing import do_bench

libs = [(n, ctypes.CDLL(p)) for n, p in (a.split('=', 1) for a in sys.argv[1:])]
for _, lib in libs:
    lib.tilecc_shim_gemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                     ctypes.c_void_p]
for s in (4096, 8192):
    for dt in (torch.float16, torch.bfloat16):
        a = torch.randn(s, s, device='cuda', dtype=dt)
        b = torch.randn(s, s, device='cuda', dtype=dt)
        c = torch.empty(s, s, device='cuda', dtype=dt)
        ref = a.float() @ b.float()
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        runs = [('cuBLAS', lambda: a @ b)]
        for name, lib in libs:
            def ours(lib=lib):
                return lib.tilecc_shim_gemm(int(dt == torch.bfloat16), 1, a.data_ptr(), b.data_ptr(), c.data_ptr(), s, stream)
            c.zero_()
            assert ours() == 0
            torch.cuda.synchronize()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            assert err < 1e-2, f'{name} {dt} {s}: rel err {err}'
            runs.append((name, ours))
        for rnd in range(3):
            for name, fn in (runs if rnd % 2 == 0 else runs[::-1]):
                ms = do_bench(fn, warmup=50, rep=200, return_mode='median')
                print(f'{str(dt)[6:]:9s} {s} {name:10s} round {rnd} {ms:8.4f} ms {2 * s**3 / ms / 1e9:7.1f} TFLOP/s', flush=True)
