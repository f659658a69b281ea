// Runtime support of the generated GPU batch harness (tests/fuzz/gpu_batch.py): for each
// generated kernel and run, fills its buffers from a seed, runs the host twin
// (tilecc::host::launch) and the translated kernel (its generated launcher), and compares every
// output buffer the way the generator said it may be compared:
//   bits   bit for bit (any NaN equals any NaN)
//   value  by value (+0 == -0, NaN == NaN)
//   tol    |gpu - twin| <= tol (infinities equal, NaN == NaN)
// Elements the twin left untouched (the poison pattern) must be untouched on the GPU as well.
//
// Without FUZZ_GPU the "device" is a file: --dump FILE writes the twin's outputs, --against
// FILE compares this binary's twin with them (a second build against a perturbed twin checks
// the generator's comparison modes on a machine without a GPU).
#pragma once

#include <tilecc/tile.hpp>

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#ifdef FUZZ_GPU
#include <cuda_runtime_api.h>
#endif

namespace fz {

enum Role { IN = 0, OUT = 1, ACC = 2 };
enum Mode { BITS = 0, VALUE = 1, TOL = 2 };
enum Elem { E_BOOL, E_I8, E_U8, E_I32, E_U32, E_I64, E_F32, E_F16, E_BF16 };

inline const char* elem_name(int e) {
  static const char* n[] = {"bool", "i8", "u8", "i32", "u32", "i64", "f32", "f16", "bf16"};
  return n[e];
}
inline std::size_t elem_size(int e) {
  static const std::size_t s[] = {1, 1, 1, 4, 4, 8, 4, 2, 2};
  return s[e];
}
inline bool is_float(int e) { return e >= E_F32; }

struct rng {
  std::uint64_t s;
  explicit rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uni() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  long long range(long long lo, long long hi) { return lo + static_cast<long long>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
};

// Poison: NaNs with a payload no computation produces; an integer pattern.
inline void poison(int e, unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char* q = p + i * elem_size(e);
    if (e == E_F32) {
      const std::uint32_t v = 0x7fe5a5a5u;
      std::memcpy(q, &v, 4);
    } else if (e == E_F16) {
      const std::uint16_t v = 0x7e5au;
      std::memcpy(q, &v, 2);
    } else if (e == E_BF16) {
      const std::uint16_t v = 0x7fe5u;
      std::memcpy(q, &v, 2);
    } else if (e == E_BOOL) {
      q[0] = 0xa5;
    } else {
      std::memset(q, 0xa5, elem_size(e));
    }
  }
}

inline double to_double(int e, const unsigned char* q) {
  switch (e) {
    case E_BOOL: return q[0];
    case E_I8: return static_cast<std::int8_t>(q[0]);
    case E_U8: return q[0];
    case E_I32: { std::int32_t v; std::memcpy(&v, q, 4); return v; }
    case E_U32: { std::uint32_t v; std::memcpy(&v, q, 4); return v; }
    case E_I64: { std::int64_t v; std::memcpy(&v, q, 8); return static_cast<double>(v); }
    case E_F32: { float v; std::memcpy(&v, q, 4); return v; }
    case E_F16: { std::uint16_t v; std::memcpy(&v, q, 2); return static_cast<float>(tilecc::half::from_bits(v)); }
    default: { std::uint16_t v; std::memcpy(&v, q, 2); return static_cast<float>(tilecc::bfloat16::from_bits(v)); }
  }
}

inline void store_double(int e, unsigned char* q, double d) {
  switch (e) {
    case E_BOOL: q[0] = d != 0; break;
    case E_I8: { std::int8_t v = static_cast<std::int8_t>(d); std::memcpy(q, &v, 1); break; }
    case E_U8: { std::uint8_t v = static_cast<std::uint8_t>(d); std::memcpy(q, &v, 1); break; }
    case E_I32: { std::int32_t v = static_cast<std::int32_t>(d); std::memcpy(q, &v, 4); break; }
    case E_U32: { std::uint32_t v = static_cast<std::uint32_t>(d); std::memcpy(q, &v, 4); break; }
    case E_I64: { std::int64_t v = static_cast<std::int64_t>(d); std::memcpy(q, &v, 8); break; }
    case E_F32: { float v = static_cast<float>(d); std::memcpy(q, &v, 4); break; }
    case E_F16: { tilecc::half v(static_cast<float>(d)); std::memcpy(q, &v.bits, 2); break; }
    default: { tilecc::bfloat16 v(static_cast<float>(d)); std::memcpy(q, &v.bits, 2); break; }
  }
}

// Input distributions (the generator's dist strings): small, full, pos, bool, intlike:K,
// real:R, pos:R, special.
inline void fill(int e, unsigned char* p, std::size_t n, const char* dist, std::uint64_t seed) {
  rng r(seed);
  const std::string d = dist ? dist : "small";
  const auto colon = d.find(':');
  const std::string kind = d.substr(0, colon);
  const double arg = colon == std::string::npos ? 0 : std::atof(d.c_str() + colon + 1);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char* q = p + i * elem_size(e);
    if (e == E_BOOL) {
      q[0] = static_cast<unsigned char>(r.next() & 1);
      continue;
    }
    if (!is_float(e)) {
      if (kind == "full") {
        const std::uint64_t v = r.next();
        std::memcpy(q, &v, elem_size(e));
        if (r.uni() < 0.05) {  // extremes and zero
          const int pick = static_cast<int>(r.next() % 4);
          std::memset(q, 0, elem_size(e));
          if (pick == 1) std::memset(q, 0xff, elem_size(e));
          if (pick >= 2) {
            const bool sign = e == E_I8 || e == E_I32 || e == E_I64;
            std::memset(q, pick == 2 ? 0xff : 0x00, elem_size(e));
            unsigned char& top = q[elem_size(e) - 1];
            if (sign) top = pick == 2 ? 0x7f : 0x80;
          }
        }
        continue;
      }
      long long lo = -8, hi = 8;
      if (e == E_U8) lo = 0, hi = 15;
      if (e == E_I32 || e == E_I64) lo = -100, hi = 100;
      if (e == E_U32) lo = 0, hi = 100;
      if (kind == "pos") lo = 0;
      store_double(e, q, static_cast<double>(r.range(lo, hi)));
      continue;
    }
    double v = 0;
    if (kind == "intlike") {
      v = static_cast<double>(r.range(-static_cast<long long>(arg), static_cast<long long>(arg)));
    } else if (kind == "real") {
      v = std::round((r.uni() * 2 - 1) * arg * 256) / 256;  // a few mantissa bits: exact in every type
      if (r.uni() < 0.3) v = (r.uni() * 2 - 1) * arg;       // and full float mantissas
      if (e == E_F32) v = static_cast<float>(v);
    } else if (kind == "pos") {
      v = 0.125 + r.uni() * (arg - 0.125);
    } else if (kind == "special") {
      static const double sp[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-40, -1e-40, 3e38, -3e38, 65504, 1.0, -2.5, 6e-8};
      v = r.uni() < 0.5 ? sp[r.next() % (sizeof sp / sizeof sp[0])] : (r.uni() * 2 - 1) * 4;
    } else {
      v = static_cast<double>(r.range(-4, 4));
    }
    store_double(e, q, v);
  }
}

/// Exactly sized, 64-byte aligned memory (AddressSanitizer sees every byte past the end).
struct Mem {
  unsigned char* p = nullptr;
  Mem() = default;
  explicit Mem(std::size_t bytes)
      : p(static_cast<unsigned char*>(::operator new(bytes ? bytes : 1, std::align_val_t(64)))) {
    std::memset(p, 0, bytes ? bytes : 1);
  }
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
  ~Mem() {
    if (p) ::operator delete(p, std::align_val_t(64));
  }
};

/// One buffer of one run: the initial contents, the twin's copy and (GPU builds) the device's.
struct Buffer {
  std::string name;
  int elem, role, mode;
  double tol;
  std::size_t n, mis;
  Mem init_m, twin_m, gpu_m;
  unsigned char* init_p;
  unsigned char* twin_p;
  unsigned char* gpu_p;  // host copy of the device's result
  void* dev = nullptr;   // device allocation (256-byte aligned)

  std::size_t bytes() const { return (n + mis) * elem_size(elem); }

  Buffer(const char* nm, int e, int r, std::size_t count, std::size_t misalign, const char* dist, int md, double t,
         std::uint64_t seed)
      : name(nm), elem(e), role(r), mode(md), tol(t), n(count), mis(misalign),
        init_m((count + misalign) * elem_size(e)), twin_m((count + misalign) * elem_size(e)),
        gpu_m((count + misalign) * elem_size(e)), init_p(init_m.p), twin_p(twin_m.p), gpu_p(gpu_m.p) {
    if (role == OUT)
      poison(elem, init_p, n + mis);
    else
      fill(elem, init_p, n + mis, dist, seed);
    std::memcpy(twin_p, init_p, bytes());
  }
  template <class T>
  T* twin() {
    return reinterpret_cast<T*>(twin_p + mis * elem_size(elem));
  }
  template <class D>
  D* device() {
    return reinterpret_cast<D*>(static_cast<unsigned char*>(dev) + mis * elem_size(elem));
  }
};

struct Options {
  bool dump = false, against = false, verbose = false;
  std::FILE* file = nullptr;
  int max_report = 4;
};
Options& options();

struct Totals {
  int kernels = 0, runs = 0, ok = 0, mismatch = 0, twin_error = 0, gpu_error = 0, skipped = 0;
};
Totals& totals();

/// A kernel's runs: buffers are created, the twin and the GPU (or the file) run, and
/// finish() compares.
class Run {
 public:
  Run(const char* kernel, int run) : kernel_(kernel), run_(run) {}
  Buffer* buffer(const char* name, int elem, int role, std::size_t n, std::size_t mis, const char* dist, int mode,
                 double tol, std::uint64_t seed) {
    bufs_.push_back(std::make_unique<Buffer>(name, elem, role, n, mis, dist, mode, tol, seed));
    return bufs_.back().get();
  }
  template <class F>
  void twin(F f) {
    try {
      f();
    } catch (const tilecc::contract_violation& e) {
      twin_error_ = e.what();
    }
  }
#ifdef FUZZ_GPU
  template <class F>
  void gpu(F launch) {
    if (!twin_error_.empty()) return;
    for (auto& b : bufs_) {
      if (cudaMalloc(&b->dev, b->bytes() + 256) != cudaSuccess) return device_failure("cudaMalloc");
      if (cudaMemcpy(b->dev, b->init_p, b->bytes(), cudaMemcpyHostToDevice) != cudaSuccess)
        return device_failure("cudaMemcpy to device");
    }
    const cudaError_t le = launch();
    if (le != cudaSuccess) {
      launch_error_ = std::string("launcher returned ") + cudaGetErrorString(le);
      cudaGetLastError();
    } else {
      const cudaError_t se = cudaDeviceSynchronize();
      if (se != cudaSuccess) return device_failure(cudaGetErrorString(se));
    }
    for (auto& b : bufs_) {
      if (cudaMemcpy(b->gpu_p, b->dev, b->bytes(), cudaMemcpyDeviceToHost) != cudaSuccess)
        return device_failure("cudaMemcpy to host");
      cudaFree(b->dev);
      b->dev = nullptr;
    }
    have_gpu_ = true;
  }
  void device_failure(const char* what) {
    std::printf("GPU-ERROR %s run %d: %s (the context is lost; the runner restarts after this kernel)\n", kernel_,
                run_, what);
    std::fflush(stdout);
    std::_Exit(4);
  }
#endif
  /// Compares; returns 0 (ok), 1 (mismatch), 2 (twin error: a generator bug).
  int finish();

 private:
  const char* kernel_;
  int run_;
  std::vector<std::unique_ptr<Buffer>> bufs_;
  std::string twin_error_, launch_error_;
  bool have_gpu_ = false;
  bool compare(Buffer& b, std::string& why);
};

/// Registry of generated kernels (each harness file adds its own).
struct Entry {
  const char* name;
  int (*fn)();
};
std::vector<Entry>& registry();
struct Register {
  Register(const char* name, int (*fn)()) { registry().push_back({name, fn}); }
};

int main(int argc, char** argv);

}  // namespace fz
