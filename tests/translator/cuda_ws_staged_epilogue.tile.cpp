// A warp-specialised kernel's staged epilogue (AssignLayouts: a 16-bit dot result stored 16 bytes
// per access goes through shared memory) shares the rings' bytes: the producer's copies count as
// uses throughout the consumers' loop that waits on them (AllocateShared), so a buffer used only
// after that loop lies where the rings were. Its first write waits for the other consumer warps'
// last wgmma reads of those bytes. From wgmma's accumulators the conversion is warp-local (each
// warp reads back the rows it wrote), so a warp barrier orders its writes and reads; consumer
// warp groups whose dots overlap (attention at D = 128) stage too.
// ARGS: --arch sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- attention<128, 256, 64, 2> -> attention_128_256_64_2_tma ----
// CHECK: // 8 warps and a producer warp group of 4 (384 threads) per program, for sm_90a.
// CHECK: store at line [[#STORE:]]: 8 x f16 = 16 bytes per access
// CHECK: // Shared memory: 147504 bytes (dynamic); buffers whose lifetimes do not overlap share bytes (mbarriers never do):
// CHECK-NEXT: k_tile_ring at 0, 65536 bytes ([256][64] f16, 128-byte rows, 128B swizzle, 2 stages of 32768 bytes)
// CHECK-NEXT: store_cvt_smem at 0, 18432 bytes ([128][64] f16, 144-byte rows): layout conversion for the store at line [[#STORE]], read back 16 bytes per access
// CHECK-NEXT: v_tile_ring at 65536, 65536 bytes
// CHECK: tilecc::wgmma_wait<0>();
// CHECK: tilecc::named_barrier_sync(1, 256);  // writes after the reads of wgmma (line {{[0-9]+}}) by other warps
// CHECK: *reinterpret_cast<unsigned*>(store_cvt_smem +
// CHECK-NOT: named_barrier_sync
// CHECK: __syncwarp();  // reads after the writes of shared_store (line [[#STORE]]) within each warp
// CHECK: const uint4 word = *reinterpret_cast<const uint4*>(store_cvt_smem +
// CHECK: } else {  // warps 8..11
// CHECK-LABEL: ---- attention<128, 128, 128, 3> -> attention_128_128_128_3_tma ----
// CHECK: store at line [[#STORE]]: 8 x f16 = 16 bytes per access
// CHECK: // Shared memory: 229440 bytes (dynamic); buffers whose lifetimes do not overlap share bytes (mbarriers never do):
// CHECK-NEXT: k_tile_ring at 0, 98304 bytes ([128][128] f16, 256-byte rows, 128B swizzle, 3 stages of 32768 bytes)
// CHECK-NEXT: store_cvt_smem at 0, 34816 bytes ([128][128] f16, 272-byte rows): layout conversion for the store at line [[#STORE]], read back 16 bytes per access
// CHECK-NOT: this warp group's turn
// CHECK: tilecc::named_barrier_sync(1, 256);  // writes after the reads of wgmma (line {{[0-9]+}}) by other warps
// CHECK: *reinterpret_cast<unsigned*>(store_cvt_smem +
// CHECK-NOT: named_barrier_sync
// CHECK: __syncwarp();  // reads after the writes of shared_store (line [[#STORE]]) within each warp
// CHECK: if (q_tile_lt[(reg / 8)]) *reinterpret_cast<uint4*>(store_ptr_2[reg]) = word;
// CHECK: } else {  // warps 8..11
template <int BM, int BN, int HEAD_DIM, int STAGES>
TILECC_KERNEL(num_warps = 8, num_stages = STAGES)
void attention(const half* q, const half* k, const half* v, half* out, int seq_len, float sm_scale,
               int64_t stride_head, int64_t stride_row) {
  const int start_m = program_id(0) * BM;
  const int64_t head_offset = program_id(1) * stride_head;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<HEAD_DIM>();
  auto q_tile = load(q + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), col(offs_m) < seq_len,
                     0.0f);

  const float qk_scale = sm_scale * 1.4426950408889634f;  // scores in log2 units: fast_exp2 is one instruction
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, HEAD_DIM>();
  const int end_n = seq_len;
  for (int start_n = 0; start_n < end_n; start_n += BN) {
    auto offs_n = start_n + arange<BN>();
    auto kv_offsets = head_offset + cast<int64_t>(col(offs_n)) * stride_row + cast<int64_t>(row(offs_d));
    auto k_tile = load(k + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto v_tile = load(v + kv_offsets, col(offs_n) < seq_len, 0.0f);
    auto valid = (row(offs_n) < seq_len);
    auto qk = where(valid, dot(q_tile, trans(k_tile)), -INFINITY);
    // Scaled after the max (qk_scale > 0) and inside the exponent: one FFMA per score.
    auto m_new = maximum(m_i, max<1>(qk) * qk_scale);
    auto alpha = fast_exp2(m_i - m_new);
    auto p = fast_exp2(qk * qk_scale - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), v_tile, acc * col(alpha));
    m_i = m_new;
  }
  store(out + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), cast<half>(acc / col(l_i)),
        col(offs_m) < seq_len);
}
template void attention<128, 256, 64, 2>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 128, 3>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
