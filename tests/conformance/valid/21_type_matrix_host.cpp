#include "21_type_matrix.tile.cpp"
#include <vector>
#include <cstdio>
#include <memory>
template <class T> struct buf { std::unique_ptr<T[]> p; buf(size_t n, T v) : p(new T[n]) { for (size_t i = 0; i < n; ++i) p[i] = v; } T* data() { return p.get(); } };
template <class T> void run_all() {
  std::vector<T> x(8192, T(1)), y(8192, T(0)), z(8192, T(0)), sc(8192, T(0));
  std::vector<int> am(128);
  tilecc::host::launch(1, moves<T>, x.data(), y.data(), z.data(), 1500);
  tilecc::host::launch(1, reductions<T>, x.data(), y.data(), am.data(), sc.data());
}
template <class T> void run_casts() {
  buf<T> x(64, T(1)), back(64, T(0));
  std::vector<int8_t> a(64); std::vector<uint8_t> b(64); std::vector<int> c(64); std::vector<uint32_t> d(64);
  std::vector<int64_t> e(64); std::vector<float> f(64); std::vector<half> g(64, half(0.0f)); std::vector<bfloat16> h(64, bfloat16(0.0f));
  bool k[64];
  tilecc::host::launch(1, casts_from<T>, x.data(), a.data(), b.data(), c.data(), d.data(), e.data(), f.data(), g.data(), h.data(), k, back.data());
}
template <class T, class S> void run_sums() {
  buf<T> x(2048, T(1)); std::vector<S> s(256, S(0)), c(8192, S(0));
  tilecc::host::launch(1, sums<T, S>, x.data(), s.data(), c.data());
}
int main() {
  run_all<int8_t>(); run_all<uint8_t>(); run_all<int>(); run_all<uint32_t>(); run_all<int64_t>(); run_all<float>();
  run_all<half>(); run_all<bfloat16>();
  run_sums<int8_t, int>(); run_sums<uint8_t, int>(); run_sums<bool, int>(); run_sums<int, int>(); run_sums<uint32_t, uint32_t>();
  run_sums<int64_t, int64_t>(); run_sums<float, float>(); run_sums<half, float>(); run_sums<bfloat16, float>();
  run_casts<int8_t>(); run_casts<uint8_t>(); run_casts<int>(); run_casts<uint32_t>(); run_casts<int64_t>(); run_casts<float>();
  run_casts<half>(); run_casts<bfloat16>(); run_casts<bool>();
  std::puts("ok");
  return 0;
}
