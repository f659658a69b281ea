// The family dispatch of the generated launchers (tilecc::choose_config in tilecc.cuh): host
// code, run without a GPU. Entries of the largest architecture not above the device's, the
// nearest key in log2 distance, the fallback where none applies, the per-thread cache.
#include <tilecc/cuda/tilecc.cuh>

#include <cstdio>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  std::printf("  %-60s %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}
}  // namespace

int main() {
  const tilecc::TuneEntry e[] = {
      {90, 3, {1024, 1024, 1024}}, {90, 1, {8192, 8192, 8192}}, {90, 5, {16384, 1024, 1024}}, {80, 2, {4096, 4096, 4096}},
  };
  const long long k1[] = {1024, 1024, 1024}, k2[] = {6000, 7000, 9000}, k3[] = {20000, 900, 1100}, k4[] = {0, -5, 1};
  expect(tilecc::choose_config(e, 4, k1, 3, 90, 0) == 3, "an exact shape: its entry");
  expect(tilecc::choose_config(e, 4, k2, 3, 90, 0) == 1, "a shape between entries: the nearest in log2");
  expect(tilecc::choose_config(e, 4, k3, 3, 90, 0) == 5, "a skinny shape: the skinny entry");
  expect(tilecc::choose_config(e, 4, k4, 3, 90, 0) == 3, "keys below 1 count as 1");
  expect(tilecc::choose_config(e, 4, k2, 3, 80, 0) == 2, "sm_80: only sm_80's entries");
  expect(tilecc::choose_config(e, 4, k2, 3, 100, 0) == 1, "a newer device: the largest architecture below it");
  expect(tilecc::choose_config(e, 4, k2, 3, 75, 7) == 7, "no entry at or below the device: the fallback");
  expect(tilecc::choose_config(e, 0, k2, 3, 90, 4) == 4, "no entries: the fallback");
  const tilecc::TuneEntry tie[] = {{90, 1, {1024}}, {90, 2, {4096}}};
  const long long mid[] = {2048};
  expect(tilecc::choose_config(tie, 2, mid, 1, 90, 0) == 1, "a tie keeps the earlier entry");
  tilecc::TuneCache cache;
  expect(tilecc::choose_config(cache, e, 4, k3, 3, 90, 0) == 5, "cached call: the search's answer");
  const tilecc::TuneEntry changed[] = {{90, 6, {1, 1, 1}}};
  expect(tilecc::choose_config(cache, changed, 1, k3, 3, 90, 0) == 5, "the same shape again: the cached answer");
  expect(tilecc::choose_config(cache, changed, 1, k2, 3, 90, 0) == 6, "another shape: a new search");
  expect(tilecc::choose_config(cache, e, 4, k2, 3, 80, 0) == 2, "another architecture: a new search");
  expect(tilecc::grid_cdiv(1000, 128) == 8 && tilecc::grid_cdiv(0, 128) == 0 && tilecc::grid_cdiv(5, 0) == 0, "grid_cdiv");
  expect(tilecc::grid_dim(-3) == 0u && tilecc::grid_dim(1ll << 40) == 0x7fffffffu && tilecc::grid_dim(77) == 77u, "grid_dim clamps");
  expect(tilecc::grid_div(7, 0) == 0 && tilecc::grid_rem(7, 0) == 0 && tilecc::grid_min(3, -4) == -4 && tilecc::grid_max(3, -4) == 3,
         "grid_div, grid_rem, grid_min, grid_max");
  std::printf("dispatch: %d failed\n", failures);
  return failures == 0 ? 0 : 1;
}
