// wgmma whose accumulator is read before its wait: ptxas serialises it (C7514).
__global__ void k(float* out, unsigned long long da, unsigned long long db) {
  float d[8] = {};
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, 1, 1, 1, 0, 0;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
               : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  out[threadIdx.x] = d[0];
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 1; i < 8; ++i) out[threadIdx.x + 128 * i] = d[i];
}
