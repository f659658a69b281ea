// Block pointers of rank 1, 2 and 3, advance in loops, padding at non-power-of-two edges, dot from block pointers.
#include <tilecc/tile.hpp>
using namespace tilecc;

// Rank 1: a grid-stride copy with advance.
TILECC_KERNEL(num_warps = 4)
void bp_rank1(const float* x, float* y, int n) {
  auto src = make_block_ptr<256>(x, {n}, {1}, {program_id(0) * 256});
  auto dst = make_block_ptr<256>(y, {n}, {1}, {program_id(0) * 256});
  for (int s = program_id(0) * 256; s < n; s += num_programs(0) * 256) {
    store(dst, load(src) * 2.0f);
    src = advance(src, {num_programs(0) * 256});
    dst = advance(dst, {num_programs(0) * 256});
  }
}

// Rank 2: row sums over a loop of column blocks (the padding is zero), transposed view via strides.
TILECC_KERNEL(num_warps = 4)
void bp_rank2_rowsum(const half* a, float* out, int rows, int cols, int64_t ld) {
  auto bp = make_block_ptr<32, 64>(a, {rows, cols}, {ld, 1}, {program_id(0) * 32, 0});
  auto acc = zeros<float, 32>();
  for (int k = 0; k < cols; k += 64) {
    acc += sum<1>(cast<float>(load(bp)));
    bp = advance(bp, {0, 64});
  }
  auto r = program_id(0) * 32 + arange<32>();
  store(out + r, acc, r < rows);
}

// Rank 2 stores through a block pointer with column-major strides (a transpose).
TILECC_KERNEL(num_warps = 4)
void bp_transpose(const int* a, int* b, int rows, int cols) {
  auto src = make_block_ptr<32, 32>(a, {rows, cols}, {cols, 1}, {program_id(0) * 32, program_id(1) * 32});
  auto dst = make_block_ptr<32, 32>(b, {cols, rows}, {rows, 1}, {program_id(1) * 32, program_id(0) * 32});
  store(dst, trans(load(src)));
}

// Rank 3 block pointer (documented: rank 1 to 3).
TILECC_KERNEL(num_warps = 4)
void bp_rank3(const float* x, float* y, int d0, int d1, int d2) {
  auto src = make_block_ptr<2, 8, 32>(x, {d0, d1, d2}, {static_cast<int64_t>(d1) * d2, d2, 1}, {program_id(0) * 2, 0, 0});
  auto dst = make_block_ptr<2, 8, 32>(y, {d0, d1, d2}, {static_cast<int64_t>(d1) * d2, d2, 1}, {program_id(0) * 2, 0, 0});
  store(dst, load(src) + 1.0f);
}

// GEMM with block pointers feeding dot (as Triton's block-pointer matmul tutorial).
TILECC_KERNEL(num_warps = 4, num_stages = 3)
void bp_matmul(const half* a, const half* b, float* c, int M, int N, int K) {
  auto ap = make_block_ptr<64, 32>(a, {M, K}, {K, 1}, {program_id(0) * 64, 0});
  auto bp = make_block_ptr<32, 64>(b, {K, N}, {N, 1}, {0, program_id(1) * 64});
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    acc = dot(load(ap), load(bp), acc);
    ap = advance(ap, {0, 32});
    bp = advance(bp, {32, 0});
  }
  auto cp = make_block_ptr<64, 64>(c, {M, N}, {N, 1}, {program_id(0) * 64, program_id(1) * 64});
  store(cp, acc);
}
