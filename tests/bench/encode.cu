// Host cost of a launcher's TMA descriptor (README, "Descriptors"): tilecc::tensor_map with the
// arguments of the previous call (the cache) and with a new base pointer each call (an encode),
// for the matmul sample's A operand at 4096^3.
#include <tilecc/cuda/tilecc.cuh>

#include <chrono>

double tensorMapMicros(bool sameArguments) {
  static __half buffers[2][64] __attribute__((aligned(16)));
  tilecc::TensorMapCache cache;
  const uint64_t dims[] = {4096, 4096};
  const uint64_t strides[] = {4096 * 2};
  const uint32_t box[] = {64, 128};
  const int n = 20000;
  int ok = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    ok += tilecc::tensor_map(cache, buffers[sameArguments ? 0 : i % 2], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, dims, strides, box, 128) != nullptr;
  const auto t1 = std::chrono::steady_clock::now();
  return ok == n ? std::chrono::duration<double, std::micro>(t1 - t0).count() / n : -1;
}
