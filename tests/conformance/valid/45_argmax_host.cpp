#include "45_argmax.tile.cpp"
#include "audit2_common.hpp"
int main() {
  {
    const int rows = 13, n = 3000;
    const int64_t stride = 3001;
    auto x = a2::randn<float>(size_t(rows) * stride);
    x[5 * stride + 2999] = 100.0f;               // the last column
    x[6 * stride + 10] = 50.0f, x[6 * stride + 2000] = 50.0f;  // a tie across chunks: the first
    std::vector<int> idx(rows, -1);
    std::vector<float> val(rows, NAN);
    tilecc::host::launch(rows, a2_argmax_long<512>, x.data(), stride, idx.data(), val.data(), n);
    bool ok = true;
    std::vector<double> rv(rows);
    for (int r = 0; r < rows; ++r) {
      int bi = 0;
      for (int c = 1; c < n; ++c)
        if (x[r * stride + c] > x[r * stride + bi]) bi = c;
      ok &= idx[r] == bi;
      rv[r] = x[r * stride + bi];
    }
    a2::expect("argmax long rows fp32 13x3000: indices", ok);
    a2::check("argmax long rows fp32: values", val, rv, 0);
  }
  {
    const int rows = 70, n = 100;
    const int64_t stride = 104;
    std::vector<bfloat16> x(size_t(rows) * stride);
    for (auto& e : x) e = bfloat16(float(a2::irange(-20, 20)) / 4.0f);  // many ties
    std::vector<int> idx(rows + 2, -1);
    std::vector<bfloat16> val(rows + 2, bfloat16(NAN));
    tilecc::host::launch(cdiv(rows, 16), a2_argmax_rows<16, 128>, x.data(), stride, idx.data(), val.data(), rows, n);
    bool ok = true, vok = true;
    for (int r = 0; r < rows; ++r) {
      int bi = 0;
      for (int c = 1; c < n; ++c)
        if (a2::d(x[r * stride + c]) > a2::d(x[r * stride + bi])) bi = c;
      ok &= idx[r] == bi;
      vok &= val[r].bits == x[r * stride + bi].bits;
    }
    a2::expect("argmax<1> bf16 70x100 with ties: first index", ok);
    a2::expect("max<1> bf16: values", vok);
    a2::expect("rows past n_rows untouched", idx[rows] == -1 && std::isnan(a2::d(val[rows + 1])));
  }
  return a2::finish("45_argmax");
}
