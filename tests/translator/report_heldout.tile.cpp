// The held-out ports (tests/bench/heldout/tutorials.tile.cpp: Triton's tutorials as a user would
// port them, timed on the GPU by heldout.py) keep, on sm_90a, the forms their measured speed
// depends on: the GEMMs warp-specialised on a persistent grid, tutorial 09's own tile loop run by
// both roles, the attention's dots overlapped (its causal form's two loops on one ring, the
// queries both read staged once: a TMA box, or in the persistent form a cp.async ring across
// tiles), and Triton's persistent attention warp-specialised around its loop.
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
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations{{$}}
// CHECK-NEXT: one ring for 2 TMA loops in a row: the producer copies their boxes in one stream
// CHECK: shared memory:
// CHECK-NEXT: pipeline: 2 stages of the 3 num_stages asks for
// CHECK-NEXT: q_ring at {{[0-9]+}}, 65536 bytes ({{.*}}): ring filled by cp.async, num_stages - 1 iterations ahead
// CHECK-NOT: q_smem_1 at
// CHECK: dots:
// CHECK-LABEL: kernel tut_attn_persist_64_128_128_1_8_3_sm90a_tma (
// CHECK-NEXT: variant:
// CHECK-NEXT: warp-specialised: a producer warp group of 4 warps issues the TMA copies; both roles run the loop at line {{[0-9]+}}, the ring carried over its iterations; the loop's two dots overlap across iterations{{$}}
// CHECK-LABEL: kernel tut_attn_persist_64_128_128_3_8_3_sm90a_tma (
// CHECK: shared memory:
// CHECK-NEXT: q_ring at {{[0-9]+}}, 49152 bytes ({{.*}}): ring filled by cp.async, num_stages - 1 iterations ahead
// CHECK-NOT: q_smem_1 at
// CHECK: dots:
