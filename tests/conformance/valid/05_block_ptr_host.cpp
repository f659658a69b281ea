#include "05_block_ptr.tile.cpp"
#include <vector>
#include <cstdio>
int main() {
  int n = 1000;
  std::vector<float> x(n, 1.0f), y(n);
  tilecc::host::launch(2, bp_rank1, x.data(), y.data(), n);
  int rows = 50, cols = 100; int64_t ld = 100;
  std::vector<half> a(rows * cols, half(1.0f)); std::vector<float> out(rows);
  tilecc::host::launch(2, bp_rank2_rowsum, a.data(), out.data(), rows, cols, ld);
  std::vector<int> ai(40 * 70, 1), bi(40 * 70);
  tilecc::host::launch({2, 3}, bp_transpose, ai.data(), bi.data(), 40, 70);
  std::vector<float> x3(3 * 5 * 20, 1.0f), y3(3 * 5 * 20);
  tilecc::host::launch(2, bp_rank3, x3.data(), y3.data(), 3, 5, 20);
  int M = 70, N = 50, K = 40;
  std::vector<half> A(M * K, half(1.0f)), B(K * N, half(1.0f)); std::vector<float> C(M * N);
  tilecc::host::launch({2, 1}, bp_matmul, A.data(), B.data(), C.data(), M, N, K);
  std::printf("%f %f %d %f %f\n", y[999], out[49], bi[5], y3[99], C[M * N - 1]);
  return (y[999] == 2.0f && out[49] == 100.0f && C[M * N - 1] == 40.0f) ? 0 : 1;
}
