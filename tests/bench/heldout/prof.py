"""Causal attention, the tutorial port (variant 0) and the sample (8), two launches each, for ncu
(results 2026-11-28-h100-heldout.txt, section 7): ncu -k regex:\"tut_attn|attention_128\" ... python3 prof.py [D]
(head dimension 128 by default, or 64)."""
import ctypes
import sys

import torch
lib = ctypes.CDLL('./libheldout.so')
lib.heldout_attention.argtypes = [ctypes.c_int] * 3 + [ctypes.c_void_p] * 5 + [ctypes.c_int] * 3 + [ctypes.c_float, ctypes.c_void_p]
st = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
Z, H, S, d = 4, 32, 4096, int(sys.argv[1]) if len(sys.argv) > 1 else 128
q = torch.randn(Z, H, S, d, device='cuda', dtype=torch.float16); k = torch.randn_like(q); v = torch.randn_like(q); o = torch.empty_like(q)
lse = torch.empty(Z * H, S, device='cuda')
for var in (0, 8):
    for _ in range(2):
        assert lib.heldout_attention(var, d, 1, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), lse.data_ptr(), Z, H, S, d ** -0.5, st) == 0
torch.cuda.synchronize()
