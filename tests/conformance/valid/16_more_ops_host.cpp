#include "16_more_ops.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  std::vector<int> counts(1024); std::vector<float> acc(512), v(16, 1.0f);
  tilecc::host::launch(1, atomics_2d, counts.data(), acc.data(), v.data(), 20);
  std::vector<float> a(64 * 64, 1.0f), c(16 * 32); std::vector<int8_t> a8(64 * 64, 1); std::vector<int> ci(16 * 32);
  tilecc::host::launch(1, dots_no_acc, a.data(), a.data(), a8.data(), a8.data(), c.data(), ci.data());
  std::vector<half> h(512, half(1.0f)), oh(32 + 512, half(0.0f)); std::vector<bfloat16> b(512, bfloat16(1.0f));
  std::vector<float> of(512); std::vector<int> oi(16);
  tilecc::host::launch(1, low_reduce, h.data(), b.data(), a8.data(), oh.data(), of.data(), oi.data());
  std::vector<int> lens = {100, 300, 1000}; std::vector<float> x(3 * 1024, 1.0f), y(3 * 128);
  tilecc::host::launch(3, data_dependent, lens.data(), x.data(), y.data(), 10.0f);
  int M = 100, N = 150, K = 70; int64_t sa = M * K, sb = K * N, sc = M * N;
  std::vector<half> A(2 * sa, half(1.0f)), B(2 * sb, half(1.0f)), C(2 * sc, half(0.0f));
  tilecc::host::launch({2, 2, 2}, batched_gemm, A.data(), B.data(), C.data(), M, N, K, sa, sb, sc);
  std::printf("%d %f %d %f %f %f\n", counts[0], c[0], ci[0], of[511], y[0], static_cast<float>(C[2 * sc - 1]));
  return (ci[0] == 64 && static_cast<float>(C[2 * sc - 1]) == 70.0f) ? 0 : 1;
}
