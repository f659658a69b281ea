// load/store forms, mask and other broadcasting, scalar memory forms, atomics, barrier.
#include <tilecc/tile.hpp>
using namespace tilecc;

// [1, N] mask and [M, 1] `other` tile broadcast to [M, N] pointers; non-power-of-two runtime shape.
TILECC_KERNEL(num_warps = 4)
void load_bcast(const float* x, const float* pad, float* out, int rows, int cols, int64_t ld) {
  auto r = program_id(0) * 32 + arange<32>();
  auto c = arange<64>();
  auto ptrs = x + col(cast<int64_t>(r)) * ld + row(c);
  auto other = col(load(pad + arange<32>()));             // [32, 1]
  auto v = load(ptrs, row(c < cols), other);               // [1, 64] mask
  store(out + col(cast<int64_t>(r)) * ld + row(c), v, col(r < rows) & row(c < cols));
}

// Scalar memory forms and storing a scalar through a tile of pointers.
TILECC_KERNEL(num_warps = 4)
void scalar_mem(const float* x, float* y, half* h, int n) {
  const float a = load(x);
  const float b = load(x + 1, n > 1, -1.0f);
  store(y, a + b);
  store(y + 1, a * b, n > 2);
  auto i = arange<128>();
  store(y + 2 + i, 0.0f, i < n - 2);
  store(h + i, 1.5f, i < n);                 // scalar converts to half
  store(h + 128 + i, load(h + i));
}

// Loads and stores of int8, uint8, bool, int64, uint32 tiles with masks and other.
TILECC_KERNEL(num_warps = 2)
void typed_mem(const int8_t* a, const uint8_t* b, const bool* c, const int64_t* d, const uint32_t* e, int8_t* oa,
               uint8_t* ob, bool* oc, int64_t* od, uint32_t* oe, int n) {
  auto i = arange<64>();
  auto m = i < n;
  store(oa + i, load(a + i, m, -1), m);
  store(ob + i, load(b + i, m, 255), m);
  store(oc + i, load(c + i, m, true), m);
  store(od + i, load(d + i, m, int64_t{-1}), m);
  store(oe + i, load(e + i, m, 7u), m);
}

// atomic_add for every allowed type, tile and scalar forms, using the returned old values.
TILECC_KERNEL(num_warps = 4)
void atomics(float* f, int* i32, uint32_t* u32, int64_t* i64, half* h, bfloat16* bf, int* old_out, int n) {
  auto i = arange<128>();
  auto m = i < n;
  auto bins = i % 8;
  auto old = atomic_add(i32 + bins, 1, m);
  store(old_out + i, old, m);
  atomic_add(f + bins, load(f + 8 + i, m, 0.0f), m);
  atomic_add(u32 + i, 3u);
  atomic_add(i64 + i, cast<int64_t>(i), m);
  atomic_add(h + i, full<half, 128>(1.0f), m);
  atomic_add(bf + i, 2.0f, m);
  const int prev = atomic_add(i32 + 8, 5);
  atomic_add(f + 100, 1.0f);
  store(old_out + 200, prev);
}

// store then barrier then load of the same addresses (reverse through memory).
TILECC_KERNEL(num_warps = 4)
void reverse_via_memory(const float* x, float* scratch, float* out) {
  const int64_t base = program_id(0) * 256;
  auto i = arange<256>();
  store(scratch + base + i, load(x + base + i));
  barrier();
  store(out + base + i, load(scratch + base + 255 - i));
}

// A grid-stride histogram: a loop over blocks with atomic_add into a shared histogram.
TILECC_KERNEL(num_warps = 8)
void histogram(const uint8_t* x, int* hist, int n) {
  for (int start = program_id(0) * 1024; start < n; start += num_programs(0) * 1024) {
    auto i = start + arange<1024>();
    auto m = i < n;
    auto v = load(x + i, m);
    atomic_add(hist + cast<int>(v), 1, m);
  }
}
