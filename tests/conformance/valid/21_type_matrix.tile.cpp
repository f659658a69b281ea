// One set of operations instantiated for every numeric element type: shape moves (trans, reshape,
// broadcast), where, maximum/minimum, reductions and scans on both axes, combine functions, casts.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T>
T add_t(T a, T b) { return static_cast<T>(static_cast<float>(a) + static_cast<float>(b)); }
template <class T>
T max_t(T a, T b) { return static_cast<float>(a) < static_cast<float>(b) ? b : a; }

// Shape moves through shared memory: trans, reshape, where with a scalar, maximum/minimum.
template <class T>
TILECC_KERNEL(num_warps = 4)
void moves(const T* x, T* y, T* z, int n) {
  auto idx = col(arange<32>()) * 64 + row(arange<64>());
  auto m = idx < n;
  auto v = load(x + idx, m);
  store(y + col(arange<64>()) * 32 + row(arange<32>()), trans(v));
  auto r = reshape<64, 32>(v);
  auto w = where(m, maximum(v, minimum(v, v)), load(x));
  store(z + idx, w);
  store(z + 2048 + col(arange<64>()) * 32 + row(arange<32>()), r);
}

// Reductions along both axes and scans; sum/cumsum result types per the contract.
template <class T>
TILECC_KERNEL(num_warps = 4)
void reductions(const T* x, T* mx, int* am, T* sc) {
  auto idx = col(arange<32>()) * 64 + row(arange<64>());
  auto v = load(x + idx);
  store(mx + arange<64>(), max<0>(v));
  store(mx + 64 + arange<32>(), min<1>(v));
  store(am + arange<64>(), argmax<0>(v));
  store(am + 64 + arange<32>(), argmin<1>(v));
  store(sc + idx, scan<1>(v, max_t<T>));
  store(sc + 2048 + idx, scan<0>(v, max_t<T>));
  store(sc + 4096 + arange<64>(), reduce<0>(v, max_t<T>));
}

// Sum/cumsum/cumprod of each type (result types: float for half/bf16, int for 8-bit).
template <class T, class S>
TILECC_KERNEL(num_warps = 8)
void sums(const T* x, S* s, S* c) {
  auto idx = col(arange<16>()) * 128 + row(arange<128>());
  auto v = load(x + idx);
  store(s + arange<128>(), sum<0>(v));
  store(s + 128 + arange<16>(), sum<1>(v));
  store(c + idx, cumsum<1>(v));
  store(c + 2048 + idx, cumsum<0>(v));
  store(c + 4096 + idx, cumprod<1>(v));
}

// Casts from T to every type and back.
template <class T>
TILECC_KERNEL(num_warps = 2)
void casts_from(const T* x, int8_t* a, uint8_t* b, int* c, uint32_t* d, int64_t* e, float* f, half* g, bfloat16* h,
                bool* k, T* back) {
  auto i = arange<64>();
  auto v = load(x + i);
  store(a + i, cast<int8_t>(v));
  store(b + i, cast<uint8_t>(v));
  store(c + i, cast<int>(v));
  store(d + i, cast<uint32_t>(v));
  store(e + i, cast<int64_t>(v));
  store(f + i, cast<float>(v));
  store(g + i, cast<half>(v));
  store(h + i, cast<bfloat16>(v));
  store(k + i, cast<bool>(v));
  store(back + i, cast<T>(cast<float>(v)));
}

template void moves<int8_t>(const int8_t*, int8_t*, int8_t*, int);
template void moves<uint8_t>(const uint8_t*, uint8_t*, uint8_t*, int);
template void moves<int>(const int*, int*, int*, int);
template void moves<uint32_t>(const uint32_t*, uint32_t*, uint32_t*, int);
template void moves<int64_t>(const int64_t*, int64_t*, int64_t*, int);
template void moves<float>(const float*, float*, float*, int);
template void moves<half>(const half*, half*, half*, int);
template void moves<bfloat16>(const bfloat16*, bfloat16*, bfloat16*, int);
template void reductions<int8_t>(const int8_t*, int8_t*, int*, int8_t*);
template void reductions<uint8_t>(const uint8_t*, uint8_t*, int*, uint8_t*);
template void reductions<int>(const int*, int*, int*, int*);
template void reductions<uint32_t>(const uint32_t*, uint32_t*, int*, uint32_t*);
template void reductions<int64_t>(const int64_t*, int64_t*, int*, int64_t*);
template void reductions<float>(const float*, float*, int*, float*);
template void reductions<half>(const half*, half*, int*, half*);
template void reductions<bfloat16>(const bfloat16*, bfloat16*, int*, bfloat16*);
template void sums<int8_t, int>(const int8_t*, int*, int*);
template void sums<uint8_t, int>(const uint8_t*, int*, int*);
template void sums<bool, int>(const bool*, int*, int*);
template void sums<int, int>(const int*, int*, int*);
template void sums<uint32_t, uint32_t>(const uint32_t*, uint32_t*, uint32_t*);
template void sums<int64_t, int64_t>(const int64_t*, int64_t*, int64_t*);
template void sums<float, float>(const float*, float*, float*);
template void sums<half, float>(const half*, float*, float*);
template void sums<bfloat16, float>(const bfloat16*, float*, float*);
template void casts_from<int8_t>(const int8_t*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, int8_t*);
template void casts_from<uint8_t>(const uint8_t*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, uint8_t*);
template void casts_from<int>(const int*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, int*);
template void casts_from<uint32_t>(const uint32_t*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, uint32_t*);
template void casts_from<int64_t>(const int64_t*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, int64_t*);
template void casts_from<float>(const float*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, float*);
template void casts_from<half>(const half*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, half*);
template void casts_from<bfloat16>(const bfloat16*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, bfloat16*);
template void casts_from<bool>(const bool*, int8_t*, uint8_t*, int*, uint32_t*, int64_t*, float*, half*, bfloat16*, bool*, bool*);
