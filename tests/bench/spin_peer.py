"""cuBLAS (through torch) on the fp16 4096^3 GEMM back to back for 5 s, without L2 flushes or
host synchronisation between launches: the peer of `tilecc_bench spin`. Sample nvidia-smi beside
both to compare the clock each settles at under the power limit (README "Benchmarks").
Usage: python3 spin_peer.py"""
import time
import torch

S = 4096
a = torch.randn(S, S, device='cuda', dtype=torch.float16)
b = torch.randn(S, S, device='cuda', dtype=torch.float16)
per_launch = []
t0 = time.time()
while time.time() - t0 < 5.0:
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    for _ in range(100):
        c = a @ b
    e1.record()
    e1.synchronize()
    per_launch.append(e0.elapsed_time(e1) / 100)
per_launch.sort()
med = per_launch[len(per_launch) // 2]
print(f'spin matmul float16 4096^3, torch/cuBLAS, back to back 5.0 s: {med:9.4f} ms {2.0 * S**3 / med / 1e9:8.1f} TFLOP/s '
      f'(median of {len(per_launch)} batches of 100)', flush=True)
