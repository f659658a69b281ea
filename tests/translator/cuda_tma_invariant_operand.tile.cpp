// A load before a TMA-pipelined loop whose value only fills a buffer that the loop's wgmma read
// (attention's queries) is a TMA box too, on an mbarrier of its own that is waited on once,
// before the loop: warp-specialised, the producer copies it before its loop's first boxes and the
// consumers only wait; otherwise one thread copies it, the ring's first boxes go out behind it,
// and every thread waits before the loop. A mask that is not a box keeps the load in the threads.
// ARGS: --arch sm_90a -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: ---- attention<128, 128, 128, false> -> attention_128_128_128_false_tma ----
// CHECK: // TMA: descriptors k_tile_desc, v_tile_desc, q_tile_desc (128B swizzle, zero fill)
// CHECK: //   q_tile_smem at {{[0-9]+}}, 32768 bytes ([128][128] f16, 256-byte rows, 128B swizzle): box copied by TMA at line [[#Q:]]
// CHECK: //   q_tile_full at {{[0-9]+}}, 8 bytes (1 mbarrier): the TMA box at line [[#Q]] has landed (filled once: waited on with parity 0)
// CHECK: if (warp < 8) {  // warps 0..7
// CHECK-NOT: reinterpret_cast<uint4*>(q_tile_smem
// CHECK: tilecc::mbarrier_wait(q_tile_full, 0);
// CHECK: tilecc::mbarrier_wait(start_n_full, 0);
// CHECK: } else {  // warps 8..11
// CHECK: if (threadIdx.x == 256) tilecc::mbarrier_arrive_expect_tx(q_tile_full, 32768);
// CHECK-NEXT: if (threadIdx.x == 256) tilecc::tma_load_3d(q_tile_smem, &q_tile_desc, q_tile_full, 0,
// CHECK-NEXT: if (threadIdx.x == 256) tilecc::tma_load_3d(q_tile_smem + 16384, &q_tile_desc, q_tile_full, 64,
// CHECK: for (int start_n_1 = 0; start_n_1 < seq_len; start_n_1 += 128) {
// CHECK-LABEL: ---- attention<128, 128, 64, false> -> attention_128_128_64_false_tma ----
// CHECK-NOT: producer warp group
// CHECK: if (threadIdx.x == 0) tilecc::mbarrier_arrive_expect_tx(q_tile_full, 16384);
// CHECK-NEXT: if (threadIdx.x == 0) tilecc::tma_load_3d(q_tile_smem, &q_tile_desc, q_tile_full, 0,
// CHECK: tilecc::tma_load_3d(k_tile_ring_slot, &k_tile_desc
// CHECK: tilecc::mbarrier_wait(q_tile_full, 0);
// CHECK: for (int start_n = 0; start_n < seq_len; start_n += 128) {
// CHECK-LABEL: ---- attention<128, 128, 128, true> -> attention_128_128_128_true_tma ----
// CHECK: // TMA: descriptors k_tile_desc, v_tile_desc (128B swizzle, zero fill)
// CHECK-NOT: q_tile_full
// CHECK: reinterpret_cast<uint4*>(q_tile_smem
template <int BM, int BN, int HEAD_DIM, bool ODD_ROWS>
TILECC_KERNEL(num_warps = 8, num_stages = 3)
void attention(const half* q, const half* k, const half* v, half* out, int seq_len, float sm_scale, int64_t stride_head,
               int64_t stride_row) {
  const int start_m = program_id(0) * BM;
  const int64_t head_offset = program_id(1) * stride_head;
  auto offs_m = start_m + arange<BM>();
  auto offs_d = arange<HEAD_DIM>();
  // ODD_ROWS: every other query row only, not a box.
  auto q_rows = (col(offs_m) < seq_len) & ((col(offs_m) % 2 == 1) | !ODD_ROWS);
  auto q_tile = load(q + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), q_rows, 0.0f);
  auto m_i = full<float, BM>(-INFINITY);
  auto l_i = zeros<float, BM>();
  auto acc = zeros<float, BM, HEAD_DIM>();
  for (int start_n = 0; start_n < seq_len; start_n += BN) {
    auto offs_n = start_n + arange<BN>();
    auto kv = head_offset + cast<int64_t>(col(offs_n)) * stride_row + cast<int64_t>(row(offs_d));
    auto k_tile = load(k + kv, col(offs_n) < seq_len, 0.0f);
    auto v_tile = load(v + kv, col(offs_n) < seq_len, 0.0f);
    auto qk = where(row(offs_n) < seq_len, dot(q_tile, trans(k_tile)), -INFINITY);
    auto m_new = maximum(m_i, max<1>(qk) * sm_scale);
    auto alpha = fast_exp2(m_i - m_new);
    auto p = fast_exp2(qk * sm_scale - col(m_new));
    l_i = l_i * alpha + sum<1>(p);
    acc = dot(cast<half>(p), v_tile, acc * col(alpha));
    m_i = m_new;
  }
  store(out + head_offset + cast<int64_t>(col(offs_m)) * stride_row + row(offs_d), cast<half>(acc / col(l_i)), col(offs_m) < seq_len);
}

template void attention<128, 128, 128, false>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 64, false>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
template void attention<128, 128, 128, true>(const half*, const half*, const half*, half*, int, float, int64_t, int64_t);
