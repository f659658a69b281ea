#include "38_tut_matmul.tile.cpp"
#include "audit2_common.hpp"

// C = act(A·B + bias) in double from the rounded inputs; a_t: A is stored column-major.
template <class T>
std::vector<double> ref_mm(const std::vector<T>& a, const std::vector<T>& b, const std::vector<float>& bias, int M, int N,
                           int K, int sam, int sak, int sbk, int sbn, bool act) {
  std::vector<double> c(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = bias[j];
      for (int k = 0; k < K; ++k) s += a2::d(a[size_t(i) * sam + size_t(k) * sak]) * a2::d(b[size_t(k) * sbk + size_t(j) * sbn]);
      c[size_t(i) * N + j] = act && s < 0 ? 0.01 * s : s;
    }
  return c;
}
template <class T>
std::vector<double> as_d(const std::vector<T>& v) {
  std::vector<double> o(v.size());
  for (size_t i = 0; i < v.size(); ++i) o[i] = a2::d(v[i]);
  return o;
}
int main() {
  {  // fp16, 128x128x64 tiles, group 8, leaky_relu; A row-major, B row-major; ragged everything.
    const int M = 300, N = 200, K = 100;
    auto a = a2::randn<half>(size_t(M) * K), b = a2::randn<half>(size_t(K) * N);
    auto bias = a2::randn<float>(N);
    std::vector<half> c(size_t(M) * N, half(NAN));
    const int grid = cdiv(M, 128) * cdiv(N, 128);
    tilecc::host::launch(grid, a2_matmul<half, 128, 128, 64, 8, true>, a.data(), b.data(), c.data(), bias.data(), M, N, K,
                         K, 1, N, 1, N, 1);
    a2::check("matmul fp16 300x200x100 +bias leaky_relu", as_d(c), ref_mm(a, b, bias, M, N, K, K, 1, N, 1, true), 2e-3);
  }
  {  // bf16, 64x64x32, group 4, no activation, A column-major (stride_am = 1), B transposed storage.
    const int M = 129, N = 77, K = 95;
    auto a = a2::randn<bfloat16>(size_t(M) * K), b = a2::randn<bfloat16>(size_t(K) * N);
    auto bias = a2::randn<float>(N);
    std::vector<bfloat16> c(size_t(M) * N, bfloat16(NAN));
    const int grid = cdiv(M, 64) * cdiv(N, 64);
    tilecc::host::launch(grid, a2_matmul<bfloat16, 64, 64, 32, 4, false>, a.data(), b.data(), c.data(), bias.data(), M, N,
                         K, 1, M, 1, K, N, 1);
    a2::check("matmul bf16 129x77x95 col-major A, K-major B", as_d(c), ref_mm(a, b, bias, M, N, K, 1, M, 1, K, false), 1e-2);
  }
  {  // block pointers
    const int M = 190, N = 260, K = 70;
    auto a = a2::randn<half>(size_t(M) * K), b = a2::randn<half>(size_t(K) * N);
    auto bias = a2::randn<float>(N);
    std::vector<half> c(size_t(M) * N, half(NAN));
    const int grid = cdiv(M, 64) * cdiv(N, 128);
    tilecc::host::launch(grid, a2_matmul_bp<64, 128, 32, 4>, a.data(), b.data(), c.data(), bias.data(), M, N, K,
                         int64_t{K}, int64_t{1}, int64_t{N}, int64_t{1}, int64_t{N}, int64_t{1});
    a2::check("matmul block ptr fp16 190x260x70 leaky_relu", as_d(c), ref_mm(a, b, bias, M, N, K, K, 1, N, 1, true), 2e-3);
  }
  return a2::finish("38_tut_matmul");
}
