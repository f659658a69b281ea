#include "36_tut_vector_add.tile.cpp"
#include "audit2_common.hpp"
int main() {
  for (int n : {1, 1023, 1025, 98432 + a2::irange(1, 500)}) {
    auto x = a2::randn<float>(n), y = a2::randn<float>(n);
    std::vector<float> out(n + 5, NAN);
    tilecc::host::launch(cdiv(n, 1024), a2_add<float, 1024>, x.data(), y.data(), out.data(), n);
    std::vector<double> ref(n);
    for (int i = 0; i < n; ++i) ref[i] = double(x[i]) + y[i];
    a2::check("add fp32", out, ref, 1e-7);
    bool tail = true;
    for (int i = n; i < n + 5; ++i) tail &= std::isnan(out[i]);
    a2::expect("add fp32: tail untouched", tail);
    auto xh = a2::randn<half>(n), yh = a2::randn<half>(n);
    std::vector<half> oh(n, half(0.0f));
    tilecc::host::launch(cdiv(n, 2048), a2_add<half, 2048>, xh.data(), yh.data(), oh.data(), n);
    std::vector<double> rh(n);
    for (int i = 0; i < n; ++i) rh[i] = a2::d(half(float(a2::d(xh[i]) + a2::d(yh[i]))));
    a2::check("add fp16", oh, rh, 1e-3);
  }
  return a2::finish("36_tut_vector_add");
}
