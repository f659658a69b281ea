#include "31_docs_examples.tile.cpp"
#include <vector>
int main() {
  std::vector<float> x(256, 1.0f), y(1280), f(308); std::vector<int> o(128);
  tilecc::host::launch(1, docs_combine, x.data(), y.data());
  tilecc::host::launch(1, docs_shapes, o.data(), f.data());
  return (y[255] == 256.0f && f[300] == 2.0f) ? 0 : 1;
}
