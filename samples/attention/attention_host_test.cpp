#include "attention.tile.cpp"

#include "common/host_check.hpp"

#include <string>

template <int D, bool CAUSAL>
void run(sample::report& rep, sample::rng& r, int heads, int seq) {
  constexpr int BM = 128;
  const int64_t stride_row = D, stride_head = static_cast<int64_t>(seq) * D;
  const std::size_t n = static_cast<std::size_t>(heads) * stride_head;
  auto q = sample::random_vector<half>(r, n), k = sample::random_vector<half>(r, n), v = sample::random_vector<half>(r, n);
  std::vector<half> out(n, sample::poison<half>());
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  host::launch({cdiv(seq, BM), heads}, attention<BM, 64, D, CAUSAL>, q.data(), k.data(), v.data(), out.data(), seq,
               scale, stride_head, stride_row);
  sample::error_meter err;
  std::vector<double> s(seq);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < seq; ++i) {
      const auto at = [&](const std::vector<half>& t, int row, int d) { return sample::to_double(t[h * stride_head + row * D + d]); };
      const int last = CAUSAL ? i : seq - 1;
      double mx = -INFINITY, total = 0;
      for (int j = 0; j <= last; ++j) {
        double dotp = 0;
        for (int d = 0; d < D; ++d) dotp += at(q, i, d) * at(k, j, d);
        s[j] = dotp * scale;
        mx = std::max(mx, s[j]);
      }
      for (int j = 0; j <= last; ++j) total += (s[j] = std::exp(s[j] - mx));
      for (int d = 0; d < D; ++d) {
        double o = 0;
        for (int j = 0; j <= last; ++j) o += s[j] * at(v, j, d);
        err.add(at(out, i, d), o / total);
      }
    }
  const std::string what = "D=" + std::to_string(D) + (CAUSAL ? " causal" : " full") + " heads=" + std::to_string(heads) +
                           " seq=" + std::to_string(seq);
  rep.check(what.c_str(), err.value(), 1e-2);
}

int main() {
  sample::report rep("attention (host twin)");
  sample::rng r;
  run<64, false>(rep, r, 2, 256);
  run<64, true>(rep, r, 2, 256);
  run<64, false>(rep, r, 3, 100 + r.range(1, 200));
  run<64, true>(rep, r, 3, 100 + r.range(1, 200));
  run<128, true>(rep, r, 1, 1 + r.range(1, 150));
  run<128, false>(rep, r, 1, 1);
  return rep.finish();
}
