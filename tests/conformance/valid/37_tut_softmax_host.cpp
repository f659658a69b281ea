#include "37_tut_softmax.tile.cpp"
#include "audit2_common.hpp"

template <class T, int B, int W>
void run(const char* name, int rows, int cols, int stride, int programs, double tol) {
  auto x = a2::randn<T>(size_t(rows) * stride, 3.0f);
  std::vector<T> out(size_t(rows) * stride, T(NAN));
  tilecc::host::launch(programs, a2_softmax<T, B, W>, out.data(), x.data(), stride, stride, rows, cols);
  std::vector<double> ref(out.size()), got(out.size());
  bool pad = true;
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c) m = std::max(m, a2::d(x[r * stride + c]));
    for (int c = 0; c < cols; ++c) s += std::exp(a2::d(x[r * stride + c]) - m);
    for (int c = 0; c < stride; ++c) {
      if (c < cols) ref[r * stride + c] = std::exp(a2::d(x[r * stride + c]) - m) / s, got[r * stride + c] = a2::d(out[r * stride + c]);
      else pad &= std::isnan(a2::d(out[r * stride + c]));
    }
  }
  a2::check(name, got, ref, tol);
  a2::expect("  padding columns untouched", pad);
}
int main() {
  run<float, 1024, 4>("softmax fp32 781 cols, 37 rows, 5 programs", 37, 781, 800, 5, 1e-6);
  run<float, 1024, 4>("softmax fp32 1024 cols, 3 rows, 8 programs (idle ones)", 3, 1024, 1031, 8, 1e-6);
  run<half, 4096, 8>("softmax fp16 3001 cols, 9 rows, 4 programs", 9, 3001, 3008, 4, 2e-3);
  run<bfloat16, 256, 2>("softmax bf16 129 cols, 50 rows, 7 programs", 50, 129, 133, 7, 1e-2);
  return a2::finish("37_tut_softmax");
}
