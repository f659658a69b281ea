// Block-sparse attention (a key block skipped where a mask in memory says so, the dots and the
// loads of K and V under an `if` in the key loop): K and V are copied ahead (hoist-guarded-loads),
// and the loop-invariant queries are staged once, before the loop, not in every block the `if`
// takes (hoist-shared-stores; user campaign 3, finding 3).
// ARGS: --emit=gpu-ir --arch sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;
template <int BM, int BN, int D>
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void bs_attn(const half* q, const half* k, const half* v, const uint8_t* kmask, half* out, int S, float scale) {
  const int pid = program_id(0), bh = program_id(1);
  auto rm = pid * BM + arange<BM>();
  auto rd = arange<D>();
  const int64_t base = int64_t{bh} * S * D;
  auto qt = load(q + base + col(rm) * D + row(rd), col(rm < S), 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, D>();
  const int nb = cdiv(S, BN);
  for (int j = 0; j < nb; ++j) {
    if (load(kmask + pid * nb + j) != 0) {
      auto rn = j * BN + arange<BN>();
      auto kt = load(k + base + col(rd) + row(rn) * D, row(rn < S), 0.0f);
      auto s = dot(qt, kt) * scale;
      s = where(row(rn < S), s, -INFINITY);
      auto m_new = maximum(m_i, max<1>(s));
      auto p = exp(s - col(m_new));
      auto alpha = exp(m_i - m_new);
      l_i = l_i * alpha + sum<1>(p);
      auto vt = load(v + base + col(rn) * D + row(rd), col(rn < S), 0.0f);
      acc = acc * col(alpha) + dot(cast<half>(p), vt);
      m_i = m_new;
    }
  }
  store(out + base + col(rm) * D + row(rd), cast<half>(acc / col(l_i)), col(rm < S));
}
template void bs_attn<64, 64, 64>(const half*, const half*, const half*, const uint8_t*, half*, int, float);

// CHECK-LABEL: kernel @bs_attn_64_64_64_aligned
// CHECK: shared_store %qt, %qt_smem
// CHECK: for %j =
// CHECK-NOT: shared_store %qt
// CHECK: async_copy
// CHECK-NOT: shared_store %qt
// CHECK: kernel @bs_attn_64_64_64 "
