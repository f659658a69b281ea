// Device helpers included by tilecc's generated code: conversions, integer division and
// shifts, atomics and half/bfloat16 arithmetic with exactly the host twin's semantics
// (runtime/include/tilecc/tile.hpp). Plain inline functions, no templates: nvcc time matters.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "mma.cuh"
#include "sm90.cuh"

namespace tilecc {

/// A failed assert() of the kernel source: CUDA's device assert with the source's text and place
/// (it prints them with the block and thread, and the launch fails with cudaErrorAssert).
__device__ __forceinline__ void assert_fail(const char* condition, const char* file, int line) {
// glibc declares __assert_fail (which nvcc maps to the device assert) only without NDEBUG;
// generated calls are compiled only without NDEBUG too.
#if !defined(NDEBUG) && defined(__GNUC__) && !defined(__CUDACC_RTC__) && !defined(_WIN32)
  __assert_fail(condition, file, static_cast<unsigned>(line), "kernel");
#else
  printf("%s:%d: assertion `%s' failed\n", file, line, condition);
  __trap();
#endif
}

// ---- conversions (float → int truncates and saturates, NaN → 0; narrowing floats RNE) ----
/// fast_exp2 / fast_exp of the language: MUFU.EX2 alone (2 ulp; subnormal results flushed to 0).
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float fast_exp(float x) { return fast_exp2(x * 1.44269504088896341f); }
__device__ __forceinline__ float cvt_f32(float x) { return x; }
__device__ __forceinline__ float cvt_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ float cvt_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float cvt_f32(bool x) { return x ? 1.0f : 0.0f; }
__device__ __forceinline__ float cvt_f32(int8_t x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(uint8_t x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(int x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(unsigned x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(long long x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(long x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(unsigned long long x) { return static_cast<float>(x); }
__device__ __forceinline__ float cvt_f32(unsigned long x) { return static_cast<float>(x); }

__device__ __forceinline__ __half cvt_f16(float x) { return __float2half_rn(x); }
__device__ __forceinline__ __nv_bfloat16 cvt_bf16(float x) { return __float2bfloat16_rn(x); }
/// Two conversions in one instruction (cvt.rn.f16x2.f32 / bf16x2), each rounded as cvt_f16 /
/// cvt_bf16 rounds it alone.
__device__ __forceinline__ void cvt_f16x2(float a, float b, __half& lo, __half& hi) {
  const __half2 h = __floats2half2_rn(a, b);
  lo = __low2half(h);
  hi = __high2half(h);
}
__device__ __forceinline__ void cvt_bf16x2(float a, float b, __nv_bfloat16& lo, __nv_bfloat16& hi) {
  const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
  lo = __low2bfloat16(h);
  hi = __high2bfloat16(h);
}
/// Two 16-bit values in one 32-bit register, the first in the low half (a register operand of
/// mma/wgmma).
__device__ __forceinline__ unsigned pack2(__half lo, __half hi) {
  return static_cast<unsigned>(__half_as_ushort(lo)) | (static_cast<unsigned>(__half_as_ushort(hi)) << 16);
}
__device__ __forceinline__ unsigned pack2(__nv_bfloat16 lo, __nv_bfloat16 hi) {
  return static_cast<unsigned>(__bfloat16_as_ushort(lo)) | (static_cast<unsigned>(__bfloat16_as_ushort(hi)) << 16);
}

__device__ __forceinline__ int cvt_i32(float x) { return __float2int_rz(x); }  // saturates, NaN → 0
__device__ __forceinline__ unsigned cvt_u32(float x) { return __float2uint_rz(x); }
__device__ __forceinline__ long long cvt_i64(float x) { return __float2ll_rz(x); }
__device__ __forceinline__ unsigned long long cvt_u64(float x) { return __float2ull_rz(x); }
__device__ __forceinline__ int8_t cvt_i8(float x) {
  const int v = __float2int_rz(x);
  return static_cast<int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
}
__device__ __forceinline__ uint8_t cvt_u8(float x) {
  const int v = __float2int_rz(x);
  return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

// ---- integer division and shifts: never trap, as the host twin; signed tile arithmetic wraps ----
// (the contract's two's complement; C++'s signed overflow is undefined, and nvcc optimises on it:
// `(x + 128 < 0 ? -(x + 128) : x + 128)` became `x < -128 ? ...`, wrong where x + 128 wraps)
#define TILECC_SIGNED_OPS(T, UT, BITS)                                                                   \
  __device__ __forceinline__ T wrap_add(T a, T b) { return static_cast<T>(static_cast<UT>(a) + static_cast<UT>(b)); } \
  __device__ __forceinline__ T wrap_sub(T a, T b) { return static_cast<T>(static_cast<UT>(a) - static_cast<UT>(b)); } \
  __device__ __forceinline__ T wrap_mul(T a, T b) { return static_cast<T>(static_cast<UT>(a) * static_cast<UT>(b)); } \
  __device__ __forceinline__ T wrap_neg(T a) { return static_cast<T>(static_cast<UT>(0) - static_cast<UT>(a)); }     \
  __device__ __forceinline__ T div(T a, T b) {                                                           \
    return b == 0 ? static_cast<T>(0) : b == -1 ? wrap_neg(a) : static_cast<T>(a / b);                  \
  }                                                                                                      \
  __device__ __forceinline__ T rem(T a, T b) { return (b == 0 || b == -1) ? static_cast<T>(0) : static_cast<T>(a % b); } \
  __device__ __forceinline__ T shl(T a, T b) {                                                           \
    return (b < 0 || b >= BITS) ? static_cast<T>(0) : static_cast<T>(static_cast<UT>(a) << static_cast<int>(b)); \
  }                                                                                                      \
  __device__ __forceinline__ T shr(T a, T b) {                                                           \
    return (b < 0 || b >= BITS) ? static_cast<T>(a < 0 ? -1 : 0) : static_cast<T>(a >> static_cast<int>(b)); \
  }
#define TILECC_UNSIGNED_OPS(T, BITS)                                                                              \
  __device__ __forceinline__ T div(T a, T b) { return b == 0 ? static_cast<T>(0) : static_cast<T>(a / b); }       \
  __device__ __forceinline__ T rem(T a, T b) { return b == 0 ? static_cast<T>(0) : static_cast<T>(a % b); }       \
  __device__ __forceinline__ T shl(T a, T b) { return b >= BITS ? static_cast<T>(0) : static_cast<T>(a << static_cast<int>(b)); } \
  __device__ __forceinline__ T shr(T a, T b) { return b >= BITS ? static_cast<T>(0) : static_cast<T>(a >> static_cast<int>(b)); }
TILECC_SIGNED_OPS(int8_t, unsigned, 32)  // int8 arithmetic is printed in int, narrowed back: no wrap_* needed
TILECC_SIGNED_OPS(int, unsigned, 32)
TILECC_SIGNED_OPS(long long, unsigned long long, 64)
TILECC_SIGNED_OPS(long, unsigned long, 64)
TILECC_UNSIGNED_OPS(uint8_t, 32)
TILECC_UNSIGNED_OPS(unsigned, 32)
#undef TILECC_SIGNED_OPS
#undef TILECC_UNSIGNED_OPS
// x compared with the index i0 + k (0 <= i0 + k < n) is index_relative(x, i0, n) compared with k:
// x - i0, with x raised to INT_MIN + n first so the difference cannot wrap (such an x is below
// every index either way). The printer compares a tile with an arange this way: the thread's part
// i0 once per row, each element's k a constant, so no register holds the index of each element.
__device__ __forceinline__ int index_relative(int x, int i0, int n) {
  const int floor = static_cast<int>(-2147483647 - 1) + n;
  return (x < floor ? floor : x) - i0;
}
// |MIN| wraps to MIN. `a < 0 ? wrap_neg(a) : a`, the xor-subtract form and PTX's abs.s32 all
// reach ptxas as an absolute value it takes to be >= 0 (CUDA 13.0, H100: `abs(x) >= 0` guarding an
// atomic became true for x = MIN; GPU fuzz seed 55, 20 lines in
// tests/fuzz/results/2026-11-27-h100-gpu-batch-seed55.txt); a negate and a select in inline PTX
// keep MIN.
__device__ __forceinline__ int wrap_abs(int a) {
  int r;
  asm("{\n\t.reg .s32 n;\n\t.reg .pred p;\n\tneg.s32 n, %1;\n\tsetp.lt.s32 p, %1, 0;\n\tselp.s32 %0, n, %1, p;\n\t}" : "=r"(r) : "r"(a));
  return r;
}
__device__ __forceinline__ long long wrap_abs(long long a) {
  long long r;
  asm("{\n\t.reg .s64 n;\n\t.reg .pred p;\n\tneg.s64 n, %1;\n\tsetp.lt.s64 p, %1, 0;\n\tselp.s64 %0, n, %1, p;\n\t}" : "=l"(r) : "l"(a));
  return r;
}
__device__ __forceinline__ long wrap_abs(long a) { return static_cast<long>(wrap_abs(static_cast<long long>(a))); }

// ---- atomics ----
__device__ __forceinline__ float atomic_add(float* p, float v) { return atomicAdd(p, v); }
__device__ __forceinline__ int atomic_add(int* p, int v) { return atomicAdd(p, v); }
__device__ __forceinline__ unsigned atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
__device__ __forceinline__ long long atomic_add(long long* p, long long v) {
  return static_cast<long long>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}
__device__ __forceinline__ long atomic_add(long* p, long v) {
  return static_cast<long>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}
__device__ __forceinline__ __half atomic_add(__half* p, __half v) { return atomicAdd(p, v); }
__device__ __forceinline__ __nv_bfloat16 atomic_add(__nv_bfloat16* p, __nv_bfloat16 v) { return atomicAdd(p, v); }

// ---- reductions that ignore NaN and keep the first index (argmax/argmin) ----
__device__ __forceinline__ bool better_max(float v, int i, float bv, int bi) {
  if (v != v) return false;
  return bv != bv || v > bv || (v == bv && i < bi);
}
__device__ __forceinline__ bool better_min(float v, int i, float bv, int bi) {
  if (v != v) return false;
  return bv != bv || v < bv || (v == bv && i < bi);
}
#define TILECC_ARG_INT(T)                                                                                       \
  __device__ __forceinline__ bool better_max(T v, int i, T bv, int bi) { return v > bv || (v == bv && i < bi); } \
  __device__ __forceinline__ bool better_min(T v, int i, T bv, int bi) { return v < bv || (v == bv && i < bi); }
TILECC_ARG_INT(int8_t)
TILECC_ARG_INT(uint8_t)
TILECC_ARG_INT(int)
TILECC_ARG_INT(unsigned)
TILECC_ARG_INT(long long)
TILECC_ARG_INT(long)
#undef TILECC_ARG_INT

__device__ __forceinline__ float inf() { return __int_as_float(0x7f800000); }
__device__ __forceinline__ float nan() { return __int_as_float(0x7fc00000); }

}  // namespace tilecc

namespace tilecc {

/// The compute capability launchers choose a kernel variant by (80 for 8.0, 90 for 9.0), read
/// once per device; TILECC_FORCE_SM80=1 in the environment gives 80 on any device, so that an
/// H100 can test the sm_80 path.
static inline int device_compute_capability() {
  static int cached[64];
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64) return 80;
  if (cached[device] == 0) {
    int major = 8, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    const char* force = std::getenv("TILECC_FORCE_SM80");
    cached[device] = force && force[0] == '1' ? 80 : major * 10 + minor;
  }
  return cached[device];
}

/// TILECC_LOG_LAUNCH=1 in the environment: each launcher writes to stderr which variant it
/// launches whenever that changes (per launcher and thread), so that a slow run can be traced to
/// an argument, a grid or a device that took a less specialised variant. Read once per process.
static inline void log_launch(const char* launcher, const char* variant) {
  static const bool on = [] {
    const char* v = std::getenv("TILECC_LOG_LAUNCH");
    return v && v[0] == '1';
  }();
  if (!on) return;
  thread_local const char* last_launcher = "";
  thread_local const char* last_variant = "";
  if (std::strcmp(launcher, last_launcher) == 0 && std::strcmp(variant, last_variant) == 0) return;
  last_launcher = launcher, last_variant = variant;  // string literals of the generated launchers
  std::fprintf(stderr, "tilecc: %s launches %s\n", launcher, variant);
}

/// Multiprocessors of the current device (a persistent kernel's programs), read once per device.
static inline unsigned sm_count() {
  static unsigned cached[64];
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= 64) return 1;
  if (cached[device] == 0) {
    int n = 1;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n < 1) n = 1;
    cached[device] = static_cast<unsigned>(n);
  }
  return cached[device];
}

/// Programs of a persistent launch over `tiles` tiles: as many rounds as one program per SM
/// needs, with the tiles spread evenly over them (512 tiles on 132 SMs: 128 programs, 4 rounds;
/// 561: 113 programs, 5 rounds). The rounds are the same as with one program per SM, and the
/// idle SMs leave the busy ones the power budget: fp16 GEMM +5.5% at 4104^3 and +4.2% at 3072^3,
/// where the last round was mostly idle; within noise where it was nearly full (4096^3, 8192^3)
/// (H100; README, twenty-seventh run).
static inline unsigned persistent_programs(unsigned long long tiles, unsigned sms) {
  if (tiles == 0 || sms == 0) return 1;
  const unsigned long long rounds = (tiles + sms - 1) / sms;
  return static_cast<unsigned>((tiles + rounds - 1) / rounds);
}

// ---- checks over the grid (the facts a specialised variant assumes in every program) ----

/// The values a program-uniform integer of a kernel takes over a launch: an interval, from the
/// program ids (0 to the grid's size - 1) and the arguments through the kernel's arithmetic, or
/// unknown where that arithmetic may leave what the device computes (a result outside its 32-
/// or 64-bit type would wrap; a divisor that may be 0 or -1). The launcher picks a variant only
/// where the bound proves what it assumes: `(range).nonnegative()`.
struct Range {
  long long lo = 0, hi = 0;
  bool known = true;
  bool wide = false;  // a 64-bit value (else 32-bit)
  Range(long long v) : lo(v), hi(v) {}  // NOLINT: constants and arguments convert implicitly
  Range(long long l, long long h, bool k, bool w) : lo(l), hi(h), known(k), wide(w) {}
  bool nonnegative() const { return known && lo >= 0; }
};
static inline Range range_unknown(bool wide) { return Range(0, 0, false, wide); }
/// Operands within 2^31 in magnitude: their sums, differences, products and shifts by up to 31
/// bits are exact in 64 bits (larger 64-bit operands give unknown, conservatively).
static inline bool range_small(const Range& a, const Range& b) {
  const long long m = 1ll << 31;
  return a.known && b.known && a.lo >= -m && a.hi <= m && b.lo >= -m && b.hi <= m;
}
/// The result [lo, hi] of an operation on `a` and `b`, unknown outside its type.
static inline Range range_of(const Range& a, const Range& b, long long lo, long long hi) {
  const bool wide = a.wide || b.wide;
  if (!wide && (lo < -(1ll << 31) || hi > (1ll << 31) - 1)) return range_unknown(wide);
  return Range(lo, hi, true, wide);
}
/// Bounds of a function monotone in each operand: the extremes of the four corners.
template <class F>
static inline Range range_corners(const Range& a, const Range& b, F f) {
  const long long c[4] = {f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)};
  long long lo = c[0], hi = c[0];
  for (const long long v : c) lo = v < lo ? v : lo, hi = v > hi ? v : hi;
  return range_of(a, b, lo, hi);
}
/// Program ids along an axis of `n` programs; the grid size itself is Range(n).
static inline Range program_ids(unsigned n) { return Range(0, static_cast<long long>(n) - 1, n > 0, false); }
static inline Range range64(Range a) { return a.wide = true, a; }
/// The elements of a tile from arange: 0 to N - 1.
static inline Range range(long long lo, long long hi) { return Range(lo, hi, true, false); }
static inline Range operator+(const Range& a, const Range& b) {
  return range_small(a, b) ? range_of(a, b, a.lo + b.lo, a.hi + b.hi) : range_unknown(a.wide || b.wide);
}
static inline Range operator-(const Range& a, const Range& b) {
  return range_small(a, b) ? range_of(a, b, a.lo - b.hi, a.hi - b.lo) : range_unknown(a.wide || b.wide);
}
static inline Range operator-(const Range& a) { return Range(0, 0, true, a.wide) - a; }
static inline Range operator*(const Range& a, const Range& b) {
  if (!range_small(a, b)) return range_unknown(a.wide || b.wide);
  return range_corners(a, b, [](long long x, long long y) { return x * y; });
}
/// Truncating division is monotone in each operand while the divisor keeps its sign (and is
/// not -1, where the device negates with wrap-around).
static inline Range operator/(const Range& a, const Range& b) {
  if (!range_small(a, b) || !(b.lo > 0 || b.hi < -1)) return range_unknown(a.wide || b.wide);
  return range_corners(a, b, [](long long x, long long y) { return x / y; });
}
/// The remainder takes the dividend's sign and is smaller than the largest divisor's magnitude.
static inline Range operator%(const Range& a, const Range& b) {
  if (!range_small(a, b) || !(b.lo > 0 || b.hi < -1)) return range_unknown(a.wide || b.wide);
  const long long m = (b.lo > 0 ? b.hi : -b.lo) - 1;
  const long long lo = a.lo >= 0 ? 0 : (a.lo > -m ? a.lo : -m);
  const long long hi = a.hi <= 0 ? 0 : (a.hi < m ? a.hi : m);
  return range_of(a, b, lo, hi);
}
static inline Range operator<<(const Range& a, const Range& b) {
  if (!range_small(a, b) || b.lo < 0 || b.hi > 31) return range_unknown(a.wide || b.wide);
  return range_corners(a, b, [](long long x, long long y) { return x * (1ll << y); });
}
static inline Range operator>>(const Range& a, const Range& b) {
  if (!range_small(a, b) || b.lo < 0 || b.hi > 31) return range_unknown(a.wide || b.wide);
  return range_corners(a, b, [](long long x, long long y) { return x >> y; });
}
/// x & y lies in [0, y] for y >= 0, whatever x.
static inline Range operator&(const Range& a, const Range& b) {
  if (!a.known || !b.known || (a.lo < 0 && b.lo < 0)) return range_unknown(a.wide || b.wide);
  const long long hi = a.lo >= 0 && b.lo >= 0 ? (a.hi < b.hi ? a.hi : b.hi) : a.lo >= 0 ? a.hi : b.hi;
  return range_of(a, b, 0, hi);
}
static inline Range range_min(const Range& a, const Range& b) {
  if (!a.known || !b.known) return range_unknown(a.wide || b.wide);
  return range_of(a, b, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
}
static inline Range range_max(const Range& a, const Range& b) {
  if (!a.known || !b.known) return range_unknown(a.wide || b.wide);
  return range_of(a, b, a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

// ---- kernel families (the launchers translated from tune / tune_key / grid options) ----

/// The grid expressions of a family, in 64-bit integers: C++'s / and % (0 for a zero divisor),
/// cdiv rounding up, min and max; a dimension is clamped to [0, 2^31 - 1].
static inline long long grid_div(long long a, long long b) { return b == 0 ? 0 : a / b; }
static inline long long grid_rem(long long a, long long b) { return b == 0 ? 0 : a % b; }
static inline long long grid_cdiv(long long a, long long b) { return b <= 0 ? 0 : a <= 0 ? 0 : (a + b - 1) / b; }
static inline long long grid_min(long long a, long long b) { return a < b ? a : b; }
static inline long long grid_max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned grid_dim(long long v) { return v <= 0 ? 0u : v > 0x7fffffffll ? 0x7fffffffu : static_cast<unsigned>(v); }

/// One tuned shape of a family: the architecture it was tuned on (90 for sm_90), the
/// configuration's index, the key's values.
struct TuneEntry {
  int arch;
  int config;
  long long key[8];
};

/// The last choice of a family launcher (per thread): a launch with the same shape on the same
/// architecture skips the search.
struct TuneCache {
  long long key[8];
  int cc = -1;
  int choice = -1;
};

/// The family dispatch: among the entries of the largest architecture not above `cc`, the
/// one whose key is nearest in log2 distance (sum over the key of |log2 a - log2 b|, values
/// below 1 taken as 1); `fallback` where no entry applies. Ties keep the earlier entry.
static inline int choose_config(const TuneEntry* e, int n, const long long* key, int nkey, int cc, int fallback);
static inline int choose_config(TuneCache& cache, const TuneEntry* e, int n, const long long* key, int nkey, int cc, int fallback) {
  bool same = cache.cc == cc;
  for (int j = 0; same && j < nkey; ++j) same = cache.key[j] == key[j];
  if (same) return cache.choice;
  const int choice = choose_config(e, n, key, nkey, cc, fallback);
  for (int j = 0; j < nkey; ++j) cache.key[j] = key[j];
  cache.cc = cc;
  cache.choice = choice;
  return choice;
}
static inline int choose_config(const TuneEntry* e, int n, const long long* key, int nkey, int cc, int fallback) {
  int arch = -1;
  for (int i = 0; i < n; ++i)
    if (e[i].arch <= cc && e[i].arch > arch) arch = e[i].arch;
  if (arch < 0) return fallback;
  auto lg = [](long long v) { return std::log2(static_cast<double>(v < 1 ? 1 : v)); };
  double best = 0;
  int choice = -1;
  for (int i = 0; i < n; ++i) {
    if (e[i].arch != arch) continue;
    double d = 0;
    for (int j = 0; j < nkey; ++j) d += std::fabs(lg(key[j]) - lg(e[i].key[j]));
    if (choice < 0 || d < best) best = d, choice = e[i].config;
  }
  return choice < 0 ? fallback : choice;
}

}  // namespace tilecc

/// Launchers report a broken parameter promise this way (and return cudaErrorInvalidValue).
static inline cudaError_t tilecc_broken_promise(const char* kernel, const char* what, long long value) {
  std::fprintf(stderr, "tilecc: %s: broken promise %s (got %lld)\n", kernel, what, value);
  return cudaErrorInvalidValue;
}
