"""Peers at shapes shared/bench/peers.py does not time: cuBLAS (through torch, fp16 in and out)
on the split-K benchmark's shapes. Same method as peers.py (triton.testing.do_bench, median).
Usage: python3 peers_extra.py, in the same command as `tilecc_bench splitk`."""
import torch
from triton.testing import do_bench

for M, N, K in [(1024, 1024, 16384), (4096, 4096, 4096)]:
    a = torch.randn(M, K, device='cuda', dtype=torch.float16)
    b = torch.randn(K, N, device='cuda', dtype=torch.float16)
    ms = do_bench(lambda: a @ b, warmup=50, rep=200, return_mode='median')
    print(f'{"matmul %dx%dx%d" % (M, N, K):28s} {"torch/cuBLAS":22s} {ms:9.4f} ms  {2.0 * M * N * K / ms / 1e9:8.1f} TFLOP/s', flush=True)
