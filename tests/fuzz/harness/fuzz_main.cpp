// Driver of the generated GPU batch harness: runs every registered kernel (or a range), one
// line per kernel, and a summary. Exit status: 0 all equal, 1 a mismatch or an error.
//
//   fuzz_batch [--from I] [--to J] [--only NAME] [--verbose]           (GPU build)
//   fuzz_twin --dump FILE | --against FILE [--from I] ...              (twin-only builds)
#include "fuzz_harness.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <thread>

namespace fz {

Options& options() {
  static Options o;
  return o;
}
Totals& totals() {
  static Totals t;
  return t;
}
std::vector<Entry>& registry() {
  static std::vector<Entry> r;
  return r;
}

namespace {
std::map<std::string, std::vector<unsigned char>>& against_data() {
  static std::map<std::string, std::vector<unsigned char>> m;
  return m;
}

void load_against(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  }
  for (;;) {
    std::uint32_t klen;
    if (std::fread(&klen, 4, 1, f) != 1) break;
    std::string key(klen, '\0');
    std::uint64_t n;
    if (std::fread(key.data(), 1, klen, f) != klen || std::fread(&n, 8, 1, f) != 1) break;
    std::vector<unsigned char> v(n);
    if (n && std::fread(v.data(), 1, n, f) != n) break;
    against_data()[key] = std::move(v);
  }
  std::fclose(f);
}

std::string describe(int e, const unsigned char* q) {
  char buf[96];
  const double d = to_double(e, q);
  if (is_float(e)) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, q, elem_size(e));
    std::snprintf(buf, sizeof buf, "%.9g (0x%llx)", d, static_cast<unsigned long long>(bits));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f", d);
  }
  return buf;
}

std::atomic<long long> watchdog_start{0};
std::atomic<const char*> watchdog_kernel{nullptr};
int watchdog_seconds = 60;

void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const long long s = watchdog_start.load();
    if (!s) continue;
    const long long now = std::chrono::steady_clock::now().time_since_epoch().count();
    if (now - s > static_cast<long long>(watchdog_seconds) * 1000000000ll) {
      const char* k = watchdog_kernel.load();
      std::printf("HANG %s: no result after %d s (the runner restarts after this kernel)\n", k ? k : "?",
                  watchdog_seconds);
      std::fflush(stdout);
      std::_Exit(3);
    }
  }
}
}  // namespace

bool Run::compare(Buffer& b, std::string& why) {
  const std::size_t es = elem_size(b.elem);
  const unsigned char* t = b.twin_p + b.mis * es;
  const unsigned char* g = b.gpu_p + b.mis * es;
  std::vector<unsigned char> pz(es);
  poison(b.elem, pz.data(), 1);
  static const bool strict = std::getenv("FUZZ_STRICT") != nullptr;  // self-test: every mode is bits
  if (strict) b.mode = BITS;
  int bad = 0;
  std::size_t first = 0;
  double worst = 0;
  for (std::size_t i = 0; i < b.n; ++i) {
    const unsigned char* ti = t + i * es;
    const unsigned char* gi = g + i * es;
    if (std::memcmp(ti, gi, es) == 0) continue;
    bool ok = false;
    const bool twinPoison = b.role == OUT && std::memcmp(ti, pz.data(), es) == 0;
    const bool gpuPoison = b.role == OUT && std::memcmp(gi, pz.data(), es) == 0;
    if (!twinPoison && !gpuPoison && is_float(b.elem)) {
      const double x = to_double(b.elem, ti), y = to_double(b.elem, gi);
      if (std::isnan(x) && std::isnan(y)) ok = true;
      else if (b.mode >= VALUE && x == y) ok = true;
      else if (b.mode == TOL && std::isfinite(x) && std::isfinite(y) && std::fabs(x - y) <= b.tol) {
        ok = true;
        worst = std::max(worst, std::fabs(x - y));
      }
    }
    if (!ok) {
      if (bad++ == 0) first = i;
      if (bad <= options().max_report) {
        char line[512];
        std::snprintf(line, sizeof line, "\n    %s[%zu] (%s, %s%s): gpu %s, twin %s%s", b.name.c_str(), i,
                      elem_name(b.elem), b.mode == BITS ? "bits" : b.mode == VALUE ? "value" : "tol ",
                      b.mode == TOL ? std::to_string(b.tol).c_str() : "", describe(b.elem, gi).c_str(),
                      describe(b.elem, ti).c_str(),
                      twinPoison ? " (untouched by the twin)" : gpuPoison ? " (not written on the GPU)" : "");
        why += line;
      }
    }
  }
  if (bad > options().max_report) why += "\n    ... " + std::to_string(bad - options().max_report) + " more in " + b.name;
  (void)first;
  return bad == 0;
}

int Run::finish() {
  auto& tot = totals();
  ++tot.runs;
  if (!twin_error_.empty()) {
    std::printf("TWIN-ERROR %s run %d: %s\n", kernel_, run_, twin_error_.c_str());
    ++tot.twin_error;
    return 2;
  }
  auto& o = options();
  if (o.verbose) {
    for (auto& b : bufs_) {
      if (b->role == IN) continue;
      const std::size_t es = elem_size(b->elem);
      std::size_t changed = 0;
      for (std::size_t i = 0; i < b->n + b->mis; ++i)
        changed += std::memcmp(b->twin_p + i * es, b->init_p + i * es, es) != 0;
      std::printf("  %s run %d %s: %s[%zu] %s, %zu changed by the twin\n", kernel_, run_, b->name.c_str(),
                  elem_name(b->elem), b->n, b->mode == BITS ? "bits" : b->mode == VALUE ? "value" : "tol", changed);
    }
  }
  if (o.dump) {
    for (auto& b : bufs_) {
      if (b->role == IN) continue;
      const std::string key = std::string(kernel_) + "/" + std::to_string(run_) + "/" + b->name;
      const std::uint32_t klen = static_cast<std::uint32_t>(key.size());
      const std::uint64_t n = b->bytes();
      std::fwrite(&klen, 4, 1, o.file);
      std::fwrite(key.data(), 1, klen, o.file);
      std::fwrite(&n, 8, 1, o.file);
      std::fwrite(b->twin_p, 1, n, o.file);
    }
    return 0;
  }
  if (o.against) {
    for (auto& b : bufs_) {
      if (b->role == IN) continue;
      const std::string key = std::string(kernel_) + "/" + std::to_string(run_) + "/" + b->name;
      auto it = against_data().find(key);
      if (it == against_data().end() || it->second.size() != b->bytes()) {
        std::printf("MISSING %s in the reference file\n", key.c_str());
        return 1;
      }
      std::memcpy(b->gpu_p, it->second.data(), b->bytes());
    }
    have_gpu_ = true;
  }
  if (!launch_error_.empty()) {
    std::printf("MISMATCH %s run %d: %s\n", kernel_, run_, launch_error_.c_str());
    return 1;
  }
  if (!have_gpu_) return 0;
  std::string why;
  bool all = true;
  for (auto& b : bufs_) {
    if (b->role == IN) continue;
    all &= compare(*b, why);
  }
  if (!all) {
    std::printf("MISMATCH %s run %d:%s\n", kernel_, run_, why.c_str());
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  auto& o = options();
  long from = 0, to = -1;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--from") from = std::atol(next());
    else if (a == "--to") to = std::atol(next());
    else if (a == "--only") only = next();
    else if (a == "--verbose") o.verbose = true;
    else if (a == "--timeout") watchdog_seconds = std::atoi(next());
    else if (a == "--dump") {
      o.dump = true;
      o.file = std::fopen(next(), from > 0 ? "ab" : "wb");  // the runner restarts with --from after a crash
      if (!o.file) return 2;
    } else if (a == "--against") {
      o.against = true;
      load_against(next());
    } else {
      std::fprintf(stderr, "usage: %s [--from I] [--to J] [--only NAME] [--timeout S] [--dump F | --against F]\n", argv[0]);
      return 2;
    }
  }
#ifdef FUZZ_GPU
  if (!o.dump && !o.against) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
      std::printf("no CUDA device: nothing to compare (use a twin-only build with --dump/--against)\n");
      return 2;
    }
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  }
#endif
  std::thread(watchdog).detach();
  auto& reg = registry();
  std::sort(reg.begin(), reg.end(), [](const Entry& a, const Entry& b) { return std::strcmp(a.name, b.name) < 0; });
  auto& tot = totals();
  const long end = to < 0 ? static_cast<long>(reg.size()) : std::min<long>(to, static_cast<long>(reg.size()));
  std::printf("kernels %zu, running [%ld, %ld)\n", reg.size(), from, end);
  for (long i = from; i < end; ++i) {
    const Entry& e = reg[static_cast<std::size_t>(i)];
    if (only && std::strcmp(only, e.name) != 0) continue;
    std::printf("BEGIN %ld %s\n", i, e.name);
    std::fflush(stdout);
    watchdog_kernel = e.name;
    watchdog_start = std::chrono::steady_clock::now().time_since_epoch().count();
    const int r = e.fn();
    watchdog_start = 0;
    ++tot.kernels;
    if (r == 0) {
      ++tot.ok;
      std::printf("OK %ld %s\n", i, e.name);
    } else if (r == 2) {
      std::printf("ERROR %ld %s (the host twin failed: a generator bug)\n", i, e.name);
    } else {
      ++tot.mismatch;
      std::printf("FAIL %ld %s\n", i, e.name);
    }
    std::fflush(stdout);
  }
  if (o.file) std::fclose(o.file);
  std::printf("SUMMARY kernels %d, runs %d: ok %d, mismatch %d, twin-error %d\n", tot.kernels, tot.runs, tot.ok,
              tot.mismatch, tot.twin_error);
  return (tot.mismatch || tot.twin_error) ? 1 : 0;
}

}  // namespace fz

int main(int argc, char** argv) { return fz::main(argc, argv); }
