#include "attention/attention.tile.cpp"
#include "attention.h"

#include "gpu_check.hpp"

#include <cmath>
#include <string>

template <int D, bool CAUSAL, class L>
void run(sample::report& rep, sample::rng& r, int heads, int seq, L launch) {
  constexpr int BM = 128;
  const int64_t stride_row = D, stride_head = static_cast<int64_t>(seq) * D;
  const std::size_t n = static_cast<std::size_t>(heads) * stride_head;
  auto q = sample::random_vector<tilecc::half>(r, n), k = sample::random_vector<tilecc::half>(r, n),
       v = sample::random_vector<tilecc::half>(r, n);
  std::vector<tilecc::half> out(n, sample::poison<tilecc::half>());
  auto twin = out;
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  host::launch({cdiv(seq, BM), heads}, attention<BM, 64, D, CAUSAL>, q.data(), k.data(), v.data(), twin.data(), seq, scale,
               stride_head, stride_row);
  gpu::buffer<tilecc::half> dq(q), dk(k), dv(v), dout(out);
  GPU_CHECK(launch(dim3(cdiv(seq, BM), heads), nullptr, dq.as<const __half>(), dk.as<const __half>(), dv.as<const __half>(),
                   dout.as<__half>(), seq, scale, stride_head, stride_row));
  gpu::sync();
  gpu::check(rep, "d=" + std::to_string(D) + (CAUSAL ? " causal" : "") + " heads=" + std::to_string(heads) + " seq=" + std::to_string(seq),
             dout.get(), twin, 5e-3);
}

int main() {
  gpu::requireGpu();
  sample::report rep("attention (GPU vs host twin)");
  sample::rng r;
  run<64, false>(rep, r, 2, 256, launch_attention_128_64_64_false);
  run<64, true>(rep, r, 2, 256, launch_attention_128_64_64_true);
  run<64, false>(rep, r, 3, 100 + r.range(1, 300), launch_attention_128_64_64_false);
  run<64, true>(rep, r, 3, 100 + r.range(1, 300), launch_attention_128_64_64_true);
  run<128, true>(rep, r, 2, 1 + r.range(1, 300), launch_attention_128_64_128_true);
  run<128, false>(rep, r, 2, 384, launch_attention_128_64_128_false);
  run<128, false>(rep, r, 1, 1, launch_attention_128_64_128_false);
  return rep.finish();
}
