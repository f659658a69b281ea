"""Peers at shapes shared/bench/peers.py does not time. Same method as peers.py
(triton.testing.do_bench, median).
Usage: python3 peers_extra.py            cuBLAS (through torch, fp16 in and out) at the split-K
                                         benchmark's shapes, beside `tilecc_bench splitk`;
       python3 peers_extra.py --ragged   cuBLAS and peers.py's Triton tutorial GEMM (its four
                                         autotuned configurations) at ragged square fp16 sizes,
                                         beside `tilecc_bench ragged`."""
import sys

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


def rec(name, peer, ms, flops):
    print(f'{name:28s} {peer:22s} {ms:9.4f} ms  {flops / ms / 1e9:8.1f} TFLOP/s', flush=True)


@triton.autotune(configs=[
    triton.Config({'BM': 128, 'BN': 256, 'BK': 64, 'G': 8}, num_stages=3, num_warps=8),
    triton.Config({'BM': 128, 'BN': 128, 'BK': 64, 'G': 8}, num_stages=4, num_warps=4),
    triton.Config({'BM': 128, 'BN': 256, 'BK': 64, 'G': 8}, num_stages=4, num_warps=8),
    triton.Config({'BM': 256, 'BN': 128, 'BK': 64, 'G': 8}, num_stages=3, num_warps=8),
], key=['M', 'N', 'K'])
@triton.jit
def mm_k(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
         G: tl.constexpr):
    # shared/bench/peers.py's tutorial kernel, unchanged.
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM); npn = tl.cdiv(N, BN)
    gid = pid // (G * npn); fm = gid * G; gs = min(npm - fm, G)
    pm = fm + ((pid % (G * npn)) % gs); pn = (pid % (G * npn)) // gs
    rm = (pm * BM + tl.arange(0, BM)) % M; rn = (pn * BN + tl.arange(0, BN)) % N; rk = tl.arange(0, BK)
    a = A + rm[:, None] * sam + rk[None, :] * sak
    b = B + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc = tl.dot(tl.load(a, mask=rk[None, :] < K - k * BK, other=0.), tl.load(b, mask=rk[:, None] < K - k * BK, other=0.), acc)
        a += BK * sak; b += BK * sbk
    cm = pm * BM + tl.arange(0, BM); cn = pn * BN + tl.arange(0, BN)
    tl.store(C + cm[:, None] * scm + cn[None, :] * scn, acc.to(C.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


if '--ragged' in sys.argv:
    for S in [4104, 4000, 4092, 4097]:
        A = torch.randn(S, S, device='cuda', dtype=torch.float16)
        B = torch.randn(S, S, device='cuda', dtype=torch.float16)
        C = torch.empty(S, S, device='cuda', dtype=torch.float16)
        fl = 2.0 * S ** 3
        rec(f'matmul float16 {S}^3', 'torch/cuBLAS', do_bench(lambda: A @ B, warmup=50, rep=200, return_mode='median'), fl)
        g = lambda META: (triton.cdiv(S, META['BM']) * triton.cdiv(S, META['BN']),)
        run = lambda: mm_k[g](A, B, C, S, S, S, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1))
        rec(f'matmul float16 {S}^3', 'triton tutorial', do_bench(run, warmup=50, rep=200, return_mode='median'), fl)
        ref = (A.float() @ B.float())
        print('  rel err triton', ((C.float() - ref).norm() / ref.norm()).item(), flush=True)
else:
    for M, N, K in [(1024, 1024, 16384), (4096, 4096, 4096)]:
        a = torch.randn(M, K, device='cuda', dtype=torch.float16)
        b = torch.randn(K, N, device='cuda', dtype=torch.float16)
        rec('matmul %dx%dx%d' % (M, N, K), 'torch/cuBLAS', do_bench(lambda: a @ b, warmup=50, rep=200, return_mode='median'),
            2.0 * M * N * K)
