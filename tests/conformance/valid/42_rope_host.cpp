#include "42_rope.tile.cpp"
#include "audit2_common.hpp"

template <class T, int BH, int BD>
void run(const char* name, int tokens, int nqh, int nkh, int hd, double tol) {
  const int half_dim = hd / 2;
  // q: [tokens, nqh, hd] contiguous; k: [tokens, nkh, hd] with padded rows (stride hd + 8).
  const int64_t qst = int64_t(nqh) * hd, qsh = hd, ksh = hd + 8, kst = int64_t(nkh) * ksh, css = half_dim + 3;
  auto q = a2::randn<T>(size_t(tokens) * qst), k = a2::randn<T>(size_t(tokens) * kst);
  std::vector<float> cs(size_t(tokens) * css), sn(cs.size());
  for (int t = 0; t < tokens; ++t)
    for (int i = 0; i < half_dim; ++i) {
      const double th = t * std::pow(10000.0, -2.0 * i / hd);
      cs[t * css + i] = float(std::cos(th)), sn[t * css + i] = float(std::sin(th));
    }
  auto q0 = q, k0 = k;
  tilecc::host::launch(tokens, a2_rope<T, BH, BD>, q.data(), k.data(), cs.data(), sn.data(), qst, qsh, kst, ksh, css, nqh,
                       nkh, hd);
  auto ref = [&](const std::vector<T>& x0, const std::vector<T>& x, int nh, int64_t st, int64_t sh, std::vector<double>& r,
                 std::vector<double>& g) {
    for (int t = 0; t < tokens; ++t)
      for (int h = 0; h < nh; ++h)
        for (int i = 0; i < half_dim; ++i) {
          const double a = a2::d(x0[t * st + h * sh + i]), b = a2::d(x0[t * st + h * sh + i + half_dim]);
          const double c = cs[t * css + i], s = sn[t * css + i];
          r.push_back(a * c - b * s), g.push_back(a2::d(x[t * st + h * sh + i]));
          r.push_back(b * c + a * s), g.push_back(a2::d(x[t * st + h * sh + i + half_dim]));
        }
  };
  std::vector<double> rq, gq, rk, gk;
  ref(q0, q, nqh, qst, qsh, rq, gq);
  ref(k0, k, nkh, kst, ksh, rk, gk);
  bool pad = true;  // the padding of k's rows stays as it was
  for (int t = 0; t < tokens; ++t)
    for (int h = 0; h < nkh; ++h)
      for (int i = hd; i < ksh; ++i) pad &= k[t * kst + h * ksh + i].bits == k0[t * kst + h * ksh + i].bits;
  std::printf("%s\n", name);
  a2::check("  q", gq, rq, tol);
  a2::check("  k", gk, rk, tol);
  a2::expect("  k row padding untouched", pad);
}
int main() {
  run<half, 16, 64>("rope fp16 tokens=37 q heads=12 k heads=4 head_dim=96", 37, 12, 4, 96, 2e-3);
  run<bfloat16, 32, 64>("rope bf16 tokens=19 q heads=32 k heads=8 head_dim=128", 19, 32, 8, 128, 1e-2);
  return a2::finish("42_rope");
}
