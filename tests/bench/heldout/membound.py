"""Held-out check of speed, memory-bound: the tutorial ports of membound.tile.cpp against torch
(and torch.compile's Triton kernels), fp16 rows of 4096, timed by triton.testing.do_bench (median)
in one process, two rounds with the order reversed; outputs checked first.
Usage: python3 membound.py path/to/libmembound.so"""
import ctypes
import sys

import torch
import torch.nn.functional as F
from triton.testing import do_bench

lib = ctypes.CDLL(sys.argv[1])
vp, i32 = ctypes.c_void_p, ctypes.c_int
lib.hb_softmax.argtypes = [vp, vp, i32, i32, i32, vp]
lib.hb_layernorm.argtypes = [vp, vp, vp, vp, vp, vp, i32, i32, vp]
lib.hb_rmsnorm.argtypes = [vp, vp, vp, vp, i32, i32, vp]
st = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
sms = torch.cuda.get_device_properties(0).multi_processor_count


def timed(name, runs, nbytes):
    res = {who: [] for who, _ in runs}
    for rnd in range(2):
        for who, fn in (runs if rnd == 0 else runs[::-1]):
            res[who].append(nbytes / do_bench(fn, warmup=50, rep=200, return_mode='median') / 1e6)
    best = max(max(v) for who, v in res.items() if who != 'tilecc')
    for who, r in res.items():
        print(f'{name:34s} {who:22s} {r[0]:7.0f} {r[1]:7.0f} GB/s  {max(r) / best:5.2f}x', flush=True)


for rows in (4096, 16384):
    cols = 4096
    x = torch.randn(rows, cols, device='cuda', dtype=torch.float16)
    y = torch.empty_like(x)
    w = torch.randn(cols, device='cuda', dtype=torch.float16)
    b = torch.randn(cols, device='cuda', dtype=torch.float16)
    mean = torch.empty(rows, device='cuda')
    rstd = torch.empty(rows, device='cuda')
    nb = 2 * rows * cols * 2
    for programs in (min(rows, sms * 4), rows):
        assert lib.hb_softmax(y.data_ptr(), x.data_ptr(), rows, cols, programs, st) == 0
        torch.cuda.synchronize()
        assert (y.float() - torch.softmax(x.float(), -1)).abs().max().item() < 1e-3
    sm_c = torch.compile(lambda t: torch.softmax(t, -1))
    timed(f'softmax {rows}x{cols}', [('torch', lambda: torch.softmax(x, -1)), ('torch.compile', lambda: sm_c(x)),
                                     ('tilecc', lambda: lib.hb_softmax(y.data_ptr(), x.data_ptr(), rows, cols, min(rows, sms * 4), st))], nb)
    assert lib.hb_layernorm(x.data_ptr(), y.data_ptr(), w.data_ptr(), b.data_ptr(), mean.data_ptr(), rstd.data_ptr(), rows, cols, st) == 0
    torch.cuda.synchronize()
    ref = F.layer_norm(x.float(), (cols,), w.float(), b.float(), 1e-5)
    assert (y.float() - ref).abs().max().item() < 2e-2
    ln_c = torch.compile(lambda t: F.layer_norm(t, (cols,), w, b, 1e-5))
    timed(f'layernorm {rows}x{cols}', [('torch', lambda: F.layer_norm(x, (cols,), w, b, 1e-5)), ('torch.compile', lambda: ln_c(x)),
                                       ('tilecc', lambda: lib.hb_layernorm(x.data_ptr(), y.data_ptr(), w.data_ptr(), b.data_ptr(),
                                                                            mean.data_ptr(), rstd.data_ptr(), rows, cols, st))], nb)
    assert lib.hb_rmsnorm(y.data_ptr(), x.data_ptr(), w.data_ptr(), rstd.data_ptr(), rows, cols, st) == 0
    torch.cuda.synchronize()
    ref = F.rms_norm(x.float(), (cols,), w.float(), 1e-6)
    assert (y.float() - ref).abs().max().item() < 2e-2
    rms_c = torch.compile(lambda t: F.rms_norm(t, (cols,), w, 1e-6))
    timed(f'rmsnorm {rows}x{cols}', [('torch', lambda: F.rms_norm(x, (cols,), w, 1e-6)), ('torch.compile', lambda: rms_c(x)),
                                     ('tilecc', lambda: lib.hb_rmsnorm(y.data_ptr(), x.data_ptr(), w.data_ptr(), rstd.data_ptr(), rows,
                                                                        cols, st))], nb)
