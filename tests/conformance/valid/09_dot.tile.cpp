// dot with each element type (half, bfloat16, float fp32, float tf32, int8_t), with and without acc,
// minimal and non-square shapes, transposed operands, several num_warps.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int M, int N, int K>
TILECC_KERNEL(num_warps = 4)
void dot_once(const T* a, const T* b, float* c) {
  auto A = load(a + col(arange<M>()) * K + row(arange<K>()));
  auto B = load(b + col(arange<K>()) * N + row(arange<N>()));
  store(c + col(arange<M>()) * N + row(arange<N>()), dot(A, B));
}
template void dot_once<half, 16, 16, 16>(const half*, const half*, float*);
template void dot_once<bfloat16, 16, 16, 16>(const bfloat16*, const bfloat16*, float*);
template void dot_once<float, 16, 16, 16>(const float*, const float*, float*);
template void dot_once<half, 32, 64, 16>(const half*, const half*, float*);
template void dot_once<bfloat16, 128, 16, 32>(const bfloat16*, const bfloat16*, float*);
template void dot_once<float, 64, 32, 128>(const float*, const float*, float*);

// int8 x int8 -> int, with accumulator, in a loop with masks on K.
TILECC_KERNEL(num_warps = 4)
void dot_int8(const int8_t* a, const int8_t* b, int* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<32>();
  auto acc = zeros<int, 64, 64>();
  for (int k = 0; k < K; k += 32) {
    auto A = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0);
    auto B = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0);
    acc = dot(A, B, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}

// tf32 and fp32 float dots in a loop; num_warps = 8.
template <bool TF32>
TILECC_KERNEL(num_warps = 8, num_stages = 2)
void dot_float(const float* a, const float* b, float* c, int M, int N, int K) {
  auto rm = program_id(0) * 64 + arange<64>();
  auto rn = program_id(1) * 64 + arange<64>();
  auto rk = arange<16>();
  auto acc = zeros<float, 64, 64>();
  for (int k = 0; k < K; k += 16) {
    auto A = load(a + col(rm) * K + row(k + rk), col(rm < M) & row(k + rk < K), 0.0f);
    auto B = load(b + col(k + rk) * N + row(rn), col(k + rk < K) & row(rn < N), 0.0f);
    if constexpr (TF32) acc = dot<precision::tf32>(A, B, acc);
    else acc = dot(A, B, acc);
  }
  store(c + col(rm) * N + row(rn), acc, col(rm < M) & row(rn < N));
}
template void dot_float<true>(const float*, const float*, float*, int, int, int);
template void dot_float<false>(const float*, const float*, float*, int, int, int);

// A^T B: the A tile is loaded [K, M] and transposed; result cast to bfloat16; num_warps = 1 and 2.
template <int W>
TILECC_KERNEL(num_warps = W)
void dot_trans(const bfloat16* at, const bfloat16* b, bfloat16* c, int K) {
  auto acc = zeros<float, 32, 32>();
  for (int k = 0; k < K; k += 16) {
    auto AT = load(at + col(k + arange<16>()) * 32 + row(arange<32>()));     // [16, 32]
    auto B = load(b + col(k + arange<16>()) * 32 + row(arange<32>()));      // [16, 32]
    acc = dot(trans(AT), B, acc);
  }
  store(c + col(arange<32>()) * 32 + row(arange<32>()), cast<bfloat16>(acc));
}
template void dot_trans<1>(const bfloat16*, const bfloat16*, bfloat16*, int);
template void dot_trans<2>(const bfloat16*, const bfloat16*, bfloat16*, int);

// Two chained dots (dot of a dot result cast back to half), as in attention.
TILECC_KERNEL(num_warps = 4)
void dot_chain(const half* q, const half* k, const half* v, half* o) {
  auto i16 = arange<16>();
  auto i64 = arange<64>();
  auto Q = load(q + col(i64) * 16 + row(i16));     // [64, 16]
  auto Kt = load(k + col(i64) * 16 + row(i16));    // [64, 16]
  auto V = load(v + col(i64) * 16 + row(i16));     // [64, 16]
  auto s = dot(Q, trans(Kt));                       // [64, 64]
  auto p = cast<half>(s * 0.125f);
  store(o + col(i64) * 16 + row(i16), cast<half>(dot(p, V)));
}
