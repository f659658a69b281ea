// More operation variants: atomics on 2-D pointer tiles with broadcast masks, tf32/int8 dots without acc,
// reductions/scans of half and bfloat16 along axes, scalar casts, reductions feeding loop bounds.
#include <tilecc/tile.hpp>
#include <cmath>
using namespace tilecc;

// 2-D atomic_add with a [1, N] mask and a scalar value; [M, 1] value tile broadcast.
TILECC_KERNEL(num_warps = 4)
void atomics_2d(int* counts, float* acc, const float* v, int cols) {
  auto r = col(arange<16>());
  auto c = row(arange<32>());
  auto old = atomic_add(counts + r * 32 + c, 1, c < cols);
  atomic_add(acc + r * 32 + c, load(v + r), c < cols);         // [16, 1] values
  store(counts + 512 + r * 32 + c, old);
}

// dot<precision::tf32>(a, b) and int8 dot without acc, [16, 64] x [64, 32].
TILECC_KERNEL(num_warps = 4)
void dots_no_acc(const float* a, const float* b, const int8_t* a8, const int8_t* b8, float* c, int* ci) {
  auto A = load(a + col(arange<16>()) * 64 + row(arange<64>()));
  auto B = load(b + col(arange<64>()) * 32 + row(arange<32>()));
  store(c + col(arange<16>()) * 32 + row(arange<32>()), dot<precision::tf32>(A, B));
  auto A8 = load(a8 + col(arange<16>()) * 64 + row(arange<64>()));
  auto B8 = load(b8 + col(arange<64>()) * 32 + row(arange<32>()));
  store(ci + col(arange<16>()) * 32 + row(arange<32>()), dot(A8, B8));
}

// half/bfloat16 reductions and scans along axes: max<1> of half -> half, cumsum<0> of bfloat16 -> float,
// sum<0> of int8 -> int, argmin<0> of int8, round on half.
TILECC_KERNEL(num_warps = 4)
void low_reduce(const half* h, const bfloat16* b, const int8_t* i8, half* oh, float* of, int* oi) {
  auto idx = col(arange<32>()) * 16 + row(arange<16>());
  auto H = load(h + idx);
  auto B = load(b + idx);
  auto I = load(i8 + idx);
  store(oh + arange<32>(), max<1>(H) + min<1>(H));
  store(oh + 32 + idx, round(H));
  store(of + idx, cumsum<0>(B));
  store(oi + arange<16>(), sum<0>(I) + argmin<0>(I) + argmax<0>(B));
}

// Scalar casts and std:: scalar math; a loop bound read from memory; a data-dependent if.
TILECC_KERNEL(num_warps = 4)
void data_dependent(const int* lens, const float* x, float* y, float thr) {
  const int64_t r = program_id(0);
  const int n = load(lens + r);
  auto acc = zeros<float, 128>();
  for (unsigned c = 0; c < static_cast<unsigned>(n); c += 128u) {
    auto cc = cast<int>(c) + arange<128>();
    acc += load(x + r * 1024 + cc, cc < n, 0.0f);
  }
  const float total = sum(acc);
  if (std::fabs(total) > thr) {
    acc = acc / total;
  }
  const half h = cast<half>(total);
  const int t = cast<int>(total * 0.5f);
  store(y + r * 128 + arange<128>(), acc + static_cast<float>(h) + static_cast<float>(t) + std::fmax(thr, 0.0f));
}

// Batched GEMM: batch from program_id(2), early return for out-of-range tiles, num_warps = 8.
TILECC_KERNEL(num_warps = 8, num_stages = 4)
void batched_gemm(const half* a, const half* b, half* c, int M, int N, int K, int64_t sa, int64_t sb, int64_t sc) {
  const int64_t batch = program_id(2);
  if (program_id(0) * 64 >= M) return;
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 128 + arange<128>();
  auto rk = arange<32>();
  auto pa = a + batch * sa + col(rm) * K + row(rk);
  auto pb = b + batch * sb + col(rk) * N + row(rn);
  auto acc = zeros<float, 64, 128>();
  for (int k = 0; k < K; k += 32) {
    acc = dot(load(pa, col(rm < M) & row(rk < K - k), 0.0f), load(pb, col(rk < K - k) & row(rn < N), 0.0f), acc);
    pa += 32;
    pb += 32 * N;
  }
  store(c + batch * sc + col(rm) * N + row(rn), cast<half>(acc), col(rm < M) & row(rn < N));
}
