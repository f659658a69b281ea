// An operand a tile loop loads for its key loop (Triton's persistent attention's queries) is a
// TMA box of the key loop, copied once per tile into one buffer, its barrier initialised before
// the tile loop and waited on with the parity the tile loop carries. Specialised (the default for
// a kernel that walks its own tiles), the producer copies it after every consumer warp's release;
// not specialised (warp_specialize = false), the consumers copy it themselves, after a CTA
// barrier: the other warps' wgmma of the previous tile read the buffer.
// ARGS: --emit=report --arch sm_90a
#include <tilecc/tile.hpp>
using namespace tilecc;

template <bool WS>
TILECC_KERNEL(num_warps = 8, num_stages = 3, warp_specialize = WS)
void tiles(const half* q, const half* k, const half* v, half* out, int n, int heads) {
  for (int t = program_id(0); t < cdiv(n, 128) * heads; t += num_programs(0)) {
    const int64_t head = int64_t(t / cdiv(n, 128)) * n * 64;
    auto rm = t % cdiv(n, 128) * 128 + arange<128>();
    auto rd = arange<64>();
    auto q_tile = load(q + head + cast<int64_t>(col(rm)) * 64 + row(rd), col(rm) < n, 0.0f);
    auto acc = zeros<float, 128, 64>();
    for (int s = 0; s < n; s += 64) {
      auto rn = s + arange<64>();
      auto k_tile = load(k + head + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
      auto v_tile = load(v + head + cast<int64_t>(col(rn)) * 64 + row(rd), col(rn) < n, 0.0f);
      acc = dot(cast<half>(dot(q_tile, trans(k_tile))), v_tile, acc);
    }
    store(out + head + cast<int64_t>(col(rm)) * 64 + row(rd), cast<half>(acc), col(rm) < n);
  }
}

// CHECK-LABEL: kernel tiles_true_tma (tiles<true>)
// CHECK: warp-specialised: {{.*}}; the operand copied at line 18 is copied once per iteration, into one buffer
// CHECK: q_tile_smem at {{[0-9]+}}, 16384 bytes ({{.*}}): box copied by TMA at line 18
// CHECK: q_tile_full at {{[0-9]+}}, 8 bytes (1 mbarrier): the TMA box at line 18 has landed (filled once per iteration of the loop around: waited on with that iteration's parity)
// CHECK: s_operand_empty at {{[0-9]+}}, 8 bytes (1 mbarrier): every consumer warp is done reading the loop-invariant operand (the producer waits before its next copy)
template void tiles<true>(const half*, const half*, const half*, half*, int, int);

// CHECK-LABEL: kernel tiles_false_tma (tiles<false>)
// CHECK: q_tile_smem at {{[0-9]+}}, 16384 bytes ({{.*}}): box copied by TMA at line 18
// CHECK: q_tile_full at {{[0-9]+}}, 8 bytes (1 mbarrier): the TMA box at line 18 has landed (filled once per iteration of the loop around: waited on with that iteration's parity)
// CHECK-NOT: operand_empty
// CHECK: barriers:
// CHECK: CTA barrier at line 18: writes after the reads of wgmma (line 24) by other warps
template void tiles<false>(const half*, const half*, const half*, half*, int, int);
