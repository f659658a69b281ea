#include "attention/attention.tile.cpp"
#include "attention.h"

#include "gpu_check.hpp"

#include <cmath>
#include <string>

template <int D, bool CAUSAL, int BN = 64, int STAGES = 2, class L>
void run(sample::report& rep, sample::rng& r, int heads, int seq, L launch) {
  constexpr int BM = 128;
  const int64_t stride_row = D, stride_head = static_cast<int64_t>(seq) * D;
  const std::size_t n = static_cast<std::size_t>(heads) * stride_head;
  auto q = sample::random_vector<tilecc::half>(r, n), k = sample::random_vector<tilecc::half>(r, n),
       v = sample::random_vector<tilecc::half>(r, n);
  std::vector<tilecc::half> out(n, sample::poison<tilecc::half>());
  auto twin = out;
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  host::launch({cdiv(seq, BM), heads}, attention<BM, BN, D, CAUSAL, STAGES>, q.data(), k.data(), v.data(), twin.data(), seq, scale,
               stride_head, stride_row);
  gpu::buffer<tilecc::half> dq(q), dk(k), dv(v), dout(out);
  GPU_CHECK(launch(dim3(cdiv(seq, BM), heads), nullptr, dq.as<const __half>(), dk.as<const __half>(), dv.as<const __half>(),
                   dout.as<__half>(), seq, scale, stride_head, stride_row));
  gpu::sync();
  rep.compare_outputs("d=" + std::to_string(D) + (CAUSAL ? " causal" : "") + " bn=" + std::to_string(BN) + " stages=" + std::to_string(STAGES) + " heads=" + std::to_string(heads) + " seq=" + std::to_string(seq),
             dout.get(), twin, 5e-3);
}

int main() {
  gpu::require_gpu();
  sample::report rep("attention (GPU vs host twin)");
  sample::rng r;
  // Blocks of 256 keys, two stages: one block, two (a ragged second), a multiple of the block.
  for (int seq : {256, 100 + r.range(1, 150), 300 + r.range(1, 200), 512}) {
    run<64, false, 256, 2>(rep, r, 2, seq, launch_attention_128_256_64_false_2);
    run<64, true, 256, 2>(rep, r, 3, seq, launch_attention_128_256_64_true_2);
  }
  for (int seq : {1, 64, 384, 100 + r.range(1, 300)}) {
    run<128, false, 128, 3>(rep, r, 2, seq, launch_attention_128_128_128_false_3);
    run<128, true, 128, 3>(rep, r, 2, seq, launch_attention_128_128_128_true_3);
  }
  // Three stages, blocks of 128 keys: on sm_90a the two dots overlap across iterations
  // (prologue and epilogue alone for one block of keys, one loop iteration for two, ragged ends).
  for (int seq : {1, 128, 256, 200 + r.range(1, 300)}) {
    run<64, false, 128, 3>(rep, r, 2, seq, launch_attention_128_128_64_false_3);
    run<64, true, 128, 3>(rep, r, 2, seq, launch_attention_128_128_64_true_3);
  }
  return rep.finish();
}
