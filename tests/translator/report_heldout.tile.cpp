// The held-out ports (tests/bench/heldout/tutorials.tile.cpp: Triton's tutorials as a user would
// port them, timed on the GPU by heldout.py) keep, on sm_90a, the forms their measured speed
// depends on: the GEMMs warp-specialised on a persistent grid, tutorial 09's own tile loop run by
// both roles, the attention's dots overlapped (its causal form's two loops on one ring, the
// queries both read staged once, by TMA), and Triton's persistent attention warp-specialised
// around its loop, the producer copying each tile's queries into one buffer (at D = 128 three
// key/value stages fit then, its store direct rather than through a TMA buffer).
// ARGS: --emit=report --arch sm_80,sm_90a
// INPUT: %S/../bench/heldout/tutorials.tile.cpp

// CHECK-LABEL: kernel tut_matmul_half_128_256_64_8_8_3_false_sm90a_tma (
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; persistent grid
// CHECK-LABEL: kernel tut_matmul_bp_128_256_64_8_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; persistent grid
// CHECK-LABEL: kernel tut_matmul_persistent_128_256_64_8_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations{{$}}
// CHECK: store_out at {{[0-9]+}}, 65536 bytes ([128][256] f16, 512-byte rows, 128B swizzle): tile stored by TMA at line
// CHECK-LABEL: kernel tut_attn_fwd_128_128_128_1_8_3_sm90a_tma (
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; the loop's two dots overlap across iterations{{$}}
// CHECK-LABEL: kernel tut_attn_fwd_128_128_128_3_8_3_sm90a_tma (
// CHECK: warp-specialised: a producer warp group of 4 warps issues the TMA copies; the loop's two dots overlap across iterations{{$}}
// CHECK-NEXT: one ring for 2 TMA loops in a row: the producer copies their boxes in one stream
// CHECK: shared memory:
// CHECK-NEXT: k_ring at
// CHECK-NEXT: store_cvt_smem at
// CHECK-NEXT: v_ring at
// CHECK-NEXT: q_smem at {{[0-9]+}}, 32768 bytes ({{.*}}): box copied by TMA at line
// CHECK-NOT: q_smem_1 at
// CHECK: dots:
// CHECK-LABEL: kernel tut_attn_persist_128_128_128_3_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations; the operand copied at line {{[0-9]+}} is copied once per iteration, into one buffer; the loop's two dots overlap across iterations{{$}}
// CHECK-NEXT: one ring for 2 TMA loops in a row: the producer copies their boxes in one stream
// CHECK: shared memory: 229440 bytes
// CHECK-NEXT: k_ring at 0, 98304 bytes ({{.*}}, 3 stages of 32768 bytes): box copied by TMA
// CHECK-NEXT: v_ring at 98304, 98304 bytes ({{.*}}, 3 stages of 32768 bytes): box copied by TMA
// CHECK-NEXT: q_smem at 196608, 32768 bytes ({{.*}}): box copied by TMA at line
// CHECK-NOT: store_out at
// CHECK: dots:
// CHECK-LABEL: kernel tut_attn_persist_64_128_128_1_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations; the operand copied at line {{[0-9]+}} is copied once per iteration, into one buffer; the loop's two dots overlap across iterations{{$}}
// CHECK-LABEL: kernel tut_attn_persist_64_128_128_3_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations; the operand copied at line {{[0-9]+}} is copied once per iteration, into one buffer; the loop's two dots overlap across iterations{{$}}
// CHECK: shared memory:
// CHECK-NEXT: k_ring at
// CHECK-NEXT: v_ring at
// CHECK-NEXT: q_smem at {{[0-9]+}}, 16384 bytes ({{.*}}): box copied by TMA at line
// CHECK-NEXT: store_out at
