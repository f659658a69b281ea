// A row mask that masks both a K loop's load and the store after the loop is wanted in two
// layouts; its conversion for the loop is read once, before it (hoist-shared-stores), so the
// load is still copied ahead by cp.async (user report: vLLM-style gathered-row GEMM, whose A
// operand lost its ring, and read the mask back from shared memory every iteration).
// ARGS: --emit=report --arch sm_80
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel gathered_rows_aligned (gathered_rows), 4 warps, for sm_80
// CHECK: load at line [[@LINE+12]]: 8 x f16 = 16 bytes per access, copied to shared memory ahead by cp.async
// CHECK: x_ring at {{[0-9]+}}, 15360 bytes ([64][32] f16, 80-byte rows, 3 stages of 5120 bytes): ring filled by cp.async
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void gathered_rows(const half* a, const half* w, const int* sorted_ids, half* c, int N, int K, int num_tokens) {
  auto offs = program_id(0) * 64 + arange<64>();
  auto tok = load(sorted_ids + offs);
  auto tmask = tok < num_tokens;
  auto rn = arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto x = load(a + cast<int64_t>(col(tok)) * K + row(k + rk), col(tmask) & row(k + rk < K), 0.0f);
    auto y = load(w + cast<int64_t>(col(k + rk)) * N + row(rn), col(k + rk < K), 0.0f);
    acc = dot(x, y, acc);
  }
  store(c + cast<int64_t>(col(offs)) * N + row(rn), cast<half>(acc), col(tmask));
}
