// The launchers' checks over the grid (tilecc::Range in tilecc.cuh) and their persistent grid
// sizes: host code, run without a GPU. Each bound must hold for every value it stands for
// (checked by enumerating small grids and arguments), and be unknown where the device's
// arithmetic would wrap or divide by 0 or -1.
#include <tilecc/cuda/tilecc.cuh>

#include <climits>
#include <cstdio>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  std::printf("  %-72s %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}
using tilecc::Range;

// Every value of f over pid in [0, n) and a in [alo, ahi] lies within r (where r is known).
template <class F>
bool encloses(const Range& r, unsigned n, long long alo, long long ahi, F f) {
  if (!r.known) return true;
  for (long long pid = 0; pid < n; ++pid)
    for (long long a = alo; a <= ahi; ++a) {
      const long long v = f(pid, a);
      if (v < r.lo || v > r.hi) return false;
    }
  return true;
}
}  // namespace

int main() {
  // A block index moved by an argument: negative in program 0 for radius > 0.
  for (long long radius : {0ll, 16ll, 48ll}) {
    const Range r = tilecc::program_ids(10) * Range(256) - Range(radius);
    expect(r.known && r.lo == -radius && r.hi == 9 * 256 - radius, "pid * 256 - radius: exact bounds");
    expect(r.nonnegative() == (radius == 0), "pid * 256 - radius >= 0 only for radius 0");
    const Range d = r + tilecc::range(0, 255) + Range(64);
    expect(d.nonnegative() == (radius <= 64), "pid * 256 - radius + arange + n >= 0 for radius <= n");
  }
  // The grouped program order of GEMMs (GROUP_M = 8): pid_m, pid_n >= 0 on the exact grid.
  for (long long m : {1ll, 7ll, 8ll, 33ll})
    for (long long n : {1ll, 5ll, 16ll}) {
      const unsigned grid = static_cast<unsigned>(m * n);
      const Range pid = tilecc::program_ids(grid);
      const Range in_group = Range(8) * Range(n);
      const Range first = (pid / in_group) * Range(8);
      const Range size = tilecc::range_min(Range(m) - first, Range(8));
      const Range pid_m = first + (pid % in_group) % size;
      const Range pid_n = (pid % in_group) / size;
      expect(pid_m.nonnegative() && pid_n.nonnegative(), "grouped order: pid_m, pid_n >= 0 over the exact grid");
      const bool ok = encloses(pid_m, grid, 0, 0, [&](long long p, long long) {
        const long long f = p / (8 * n) * 8, s = std::min(m - f, 8ll);
        return f + (p % (8 * n)) % s;
      });
      expect(ok, "grouped order: every pid_m within its bound");
    }
  // Bounds enclose the values; signs of quotients and remainders.
  for (long long lo = -40; lo <= 40; lo += 20)
    for (long long dl : {-7ll, -4ll, 2ll, 5ll}) {  // divisors [dl, dl + 2]: never 0 or -1
      const Range a(lo, lo + 30, true, false), b(dl, dl + 2, true, false);
      const Range q = a / b, r = a % b, p = a * b, s = a - b, mn = tilecc::range_min(a, b);
      bool ok = q.known && r.known && p.known;
      for (long long x = lo; x <= lo + 30; ++x)
        for (long long y = dl; y <= dl + 2; ++y) {
          ok = ok && x / y >= q.lo && x / y <= q.hi && x % y >= r.lo && x % y <= r.hi && x * y >= p.lo && x * y <= p.hi;
          ok = ok && x - y >= s.lo && x - y <= s.hi && std::min(x, y) >= mn.lo && std::min(x, y) <= mn.hi;
        }
      expect(ok, "/ % * - min: every value within the bounds");
    }
  for (long long x = -9; x <= 9; ++x) {
    const Range a(x, x + 5, true, false), sh(0, 3, true, false), m(0, 15, true, false);
    const Range l = a << sh, rr = a >> sh, an = a & m;
    bool ok = l.known && rr.known && an.known && an.lo >= 0 && an.hi <= 15;
    for (long long v = x; v <= x + 5; ++v)
      for (long long s = 0; s <= 3; ++s) ok = ok && v * (1ll << s) >= l.lo && v * (1ll << s) <= l.hi && (v >> s) >= rr.lo && (v >> s) <= rr.hi;
    expect(ok, "<< >> &: every value within the bounds");
  }
  // Unknown where the device's result differs from the integers'.
  expect(!(Range(0, 1, true, false) / Range(-1, 1, true, false)).known, "a divisor that may be 0: unknown");
  expect(!(Range(5) % Range(-1)).known, "a divisor of -1: unknown (the device gives 0 or wraps)");
  expect(!(tilecc::program_ids(70000) * Range(40000)).known, "a 32-bit product beyond 2^31: unknown (it wraps)");
  expect((tilecc::range64(tilecc::program_ids(70000)) * Range(40000)).nonnegative(), "the same in 64 bits: known");
  expect(!(Range(INT_MAX) + Range(1)).known, "INT_MAX + 1: unknown");
  expect(!(Range(1) << Range(0, 40, true, false)).known, "a shift count beyond 31: unknown");
  expect(!tilecc::program_ids(0).known, "an empty axis: unknown");
  expect(!(tilecc::range_unknown(false) + Range(1)).nonnegative(), "unknown stays unknown");
  // A persistent launch: the rounds of one program per SM, the tiles spread evenly over them.
  bool even = tilecc::persistent_programs(0, 132) == 1 && tilecc::persistent_programs(5, 0) == 1;
  for (unsigned sms : {1u, 7u, 114u, 132u})
    for (unsigned long long tiles = 1; tiles <= 3000; ++tiles) {
      const unsigned long long p = tilecc::persistent_programs(tiles, sms), rounds = (tiles + sms - 1) / sms;
      even = even && p >= 1 && p <= sms && p <= tiles && (tiles + p - 1) / p == rounds;  // no more rounds than one per SM
      even = even && (p == 1 || (tiles + p - 2) / (p - 1) > rounds);                     // and no fewer programs do
    }
  expect(even, "persistent programs: the fewest that keep the rounds of one per SM");
  expect(tilecc::persistent_programs(512, 132) == 128 && tilecc::persistent_programs(561, 132) == 113 &&
             tilecc::persistent_programs(100, 132) == 100 && tilecc::persistent_programs(2048, 132) == 128,
         "persistent programs: 512 -> 128, 561 -> 113, 100 -> 100, 2048 -> 128 on 132 SMs");
  std::printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
