#include "40_tut_attention.tile.cpp"
#include "audit2_common.hpp"

// Q, V, O: [Z, H, N, D]; K: [Z, N, H, D] (a different layout, through the strides).
template <int STAGE>
void run(const char* name, int Z, int H, int N) {
  constexpr int D = 64, BM = 128;
  const float sm_scale = 0.125f;
  auto q = a2::randn<half>(size_t(Z) * H * N * D), k = a2::randn<half>(size_t(Z) * H * N * D),
       v = a2::randn<half>(size_t(Z) * H * N * D);
  std::vector<half> o(q.size(), half(NAN));
  std::vector<float> m(size_t(Z) * H * N, NAN);
  const int64_t sqz = int64_t(H) * N * D, sqh = int64_t(N) * D, sqm = D, sqk = 1;
  const int64_t skz = int64_t(N) * H * D, skh = D, skn = int64_t(H) * D, skk = 1;
  tilecc::host::launch({cdiv(N, BM), Z * H}, a2_attn_fwd<D, BM, 64, STAGE>, q.data(), k.data(), v.data(), sm_scale,
                       m.data(), o.data(), sqz, sqh, sqm, sqk, skz, skh, skn, skk, sqz, sqh, sqm, sqk, sqz, sqh, sqm, sqk,
                       Z, H, N);
  std::vector<double> ro(o.size()), go(o.size()), rm(m.size());
  std::vector<double> s(N);
  for (int z = 0; z < Z; ++z)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < N; ++i) {
        const int jend = STAGE == 3 ? i + 1 : N;
        double mx = -INFINITY;
        for (int j = 0; j < jend; ++j) {
          double acc = 0;
          for (int d = 0; d < D; ++d)
            acc += a2::d(q[z * sqz + h * sqh + i * sqm + d]) * a2::d(k[z * skz + h * skh + j * skn + d]);
          s[j] = acc * sm_scale;
          mx = std::max(mx, s[j]);
        }
        double l = 0;
        for (int j = 0; j < jend; ++j) l += std::exp(s[j] - mx);
        rm[(z * H + h) * N + i] = (mx + std::log(l)) / std::log(2.0);
        for (int d = 0; d < D; ++d) {
          double acc = 0;
          for (int j = 0; j < jend; ++j) acc += std::exp(s[j] - mx) * a2::d(v[z * sqz + h * sqh + j * sqm + d]);
          ro[z * sqz + h * sqh + i * sqm + d] = acc / l;
          go[z * sqz + h * sqh + i * sqm + d] = a2::d(o[z * sqz + h * sqh + i * sqm + d]);
        }
      }
  std::printf("%s\n", name);
  a2::check("  O", go, ro, 5e-3);
  a2::check("  M (log2-sum-exp)", m, rm, 1e-4);
}
int main() {
  run<1>("attention fwd non-causal Z=2 H=3 N=200 D=64", 2, 3, 200);
  run<3>("attention fwd causal Z=1 H=2 N=333 D=64", 1, 2, 333);
  return a2::finish("40_tut_attention");
}
