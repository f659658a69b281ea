#include "51_prefix_sum.tile.cpp"
#include "audit2_common.hpp"
int main() {
  {
    const int rows = 9, n = 1000;
    const int64_t stride = 1003;
    auto x = a2::randn<float>(rows * stride);
    std::vector<float> inc(x.size(), NAN), exc(x.size(), NAN);
    tilecc::host::launch(rows, a2_cumsum_row<1024>, x.data(), inc.data(), exc.data(), n, stride);
    std::vector<double> ri, re, gi, ge;
    for (int r = 0; r < rows; ++r) {
      double s = 0;
      for (int c = 0; c < n; ++c) {
        re.push_back(s), ge.push_back(exc[r * stride + c]);
        s += x[r * stride + c];
        ri.push_back(s), gi.push_back(inc[r * stride + c]);
      }
    }
    a2::check("cumsum rows fp32 9x1000 inclusive", gi, ri, 1e-5);
    a2::check("cumsum rows fp32 exclusive (c - v)", ge, re, 1e-5);
    a2::expect("  padding untouched", std::isnan(inc[1000]) && std::isnan(exc[1002]));
  }
  {
    const int rows = 5, n = 3333;
    const int64_t stride = 3333;
    std::vector<int> x(rows * stride);
    for (auto& e : x) e = a2::irange(-2000000000, 2000000000);
    std::vector<int64_t> y(x.size(), -1);
    tilecc::host::launch(rows, a2_cumsum_long<512>, x.data(), y.data(), n, stride);
    bool ok = true;
    for (int r = 0; r < rows; ++r) {
      int64_t s = 0;
      for (int c = 0; c < n; ++c) ok &= y[r * stride + c] == (s += x[r * stride + c]);
    }
    a2::expect("cumsum long int32 -> int64 5x3333, carried total, exact", ok);
  }
  {
    const int rows = 20, n = 200;
    const int64_t stride = 256;
    auto x = a2::randn<float>(rows * stride);
    std::vector<float> out(x.size(), NAN);
    std::vector<int> cnt(rows, -1);
    tilecc::host::launch(rows, a2_compact<256>, x.data(), out.data(), cnt.data(), n, stride, 0.5f);
    bool ok = true;
    for (int r = 0; r < rows; ++r) {
      int k = 0;
      for (int c = 0; c < n; ++c)
        if (x[r * stride + c] > 0.5f) ok &= out[r * stride + k++] == x[r * stride + c];
      ok &= cnt[r] == k;
      for (int c = k; c < stride; ++c) ok &= std::isnan(out[r * stride + c]);
    }
    a2::expect("stream compaction cumsum(mask)-1 scatter, 20x200", ok);
  }
  {
    const int rows = 30, n = 50;
    auto x = a2::randn<float>(rows * n);
    std::vector<float> y(x.size(), NAN);
    tilecc::host::launch(cdiv(rows, 8), a2_running_max<8, 64>, x.data(), y.data(), rows, n);
    bool ok = true;
    for (int r = 0; r < rows; ++r) {
      float m = -INFINITY;
      for (int c = 0; c < n; ++c) ok &= y[r * n + c] == (m = std::max(m, x[r * n + c]));
    }
    a2::expect("running max scan<1> with a lambda, 30x50", ok);
  }
  return a2::finish("51_prefix_sum");
}
