// Examples from docs/language.md §9 (combine functions) and §5/§6 written as kernels.
#include <tilecc/tile.hpp>
using namespace tilecc;

float add(float a, float b) { return a + b; }
template <class T>
T larger(T a, T b) { return a < b ? b : a; }
struct mul {
  float operator()(float a, float b) const { return a * b; }
};

TILECC_KERNEL(num_warps = 4)
void docs_combine(const float* x, float* y) {
  auto t = load(x + arange<256>());
  store(y + arange<256>(), scan(t, [](float a, float b) { return a + b; }));
  store(y + 256 + arange<256>(), scan(t, [](auto a, auto b) { return a * b; }));
  store(y + 512 + arange<256>(), scan(t, add));
  store(y + 768 + arange<256>(), scan(t, larger));          // function template by name (docs)
  store(y + 1024 + arange<256>(), scan(t, mul{}));
}

TILECC_KERNEL(num_warps = 4)
void docs_shapes(int* out, float* fout) {
  auto r = arange<4>();
  auto c = col(r);
  auto w = row(arange<8>());
  auto grid = c * 8 + w;
  auto e = expand_dims<0>(c);
  auto b = broadcast_to<4, 8>(w);
  auto b2 = broadcast_to<4, 8>(arange<8>());
  auto s = broadcast_to<16>(1.5f);
  auto m = reshape<2, 16>(grid);
  auto t = trans(grid);
  store(out + col(arange<4>()) * 8 + row(arange<8>()), grid + b + b2);
  store(out + 32 + expand_dims<0>(col(arange<4>())), e);
  store(out + 64 + col(arange<2>()) * 16 + row(arange<16>()), m);
  store(out + 96 + col(arange<8>()) * 4 + row(arange<4>()), t);
  store(fout + arange<16>(), s);
  auto o = full<half, 16, 16>(1.0f);
  auto p = zeros<const float*, 8>();
  store(fout + 16 + col(arange<16>()) * 16 + row(arange<16>()), cast<float>(o));
  store(fout + 300 + arange<8>(), load(p, arange<8>() < 0, 2.0f));
}
