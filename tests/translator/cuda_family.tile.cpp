// A kernel family: instantiations that differ in the `tune` parameters share a launcher that
// computes the grid for the configuration it picks, from the tuning table's entries for the
// family (entries of other families are skipped); without entries, the first instantiation.
// ARGS: -o - --tuning-table %S/inputs/cuda_family.tune
#include <tilecc/tile.hpp>
using namespace tilecc;

template <class T, int BLOCK, int WARPS>
TILECC_KERNEL(num_warps = WARPS, tune = (BLOCK, WARPS), tune_key = (n, rows), grid = (cdiv(n, BLOCK), rows, 1 + (n - n) % 7))
void scale(const T* x, T* out, int n, int64_t rows) {
  auto offs = program_id(0) * BLOCK + arange<BLOCK>();
  const int64_t r = program_id(1);
  store(out + r * n + offs, load(x + r * n + offs, offs < n) * T(2), offs < n);
}

template void scale<float, 256, 4>(const float*, float*, int, int64_t);
template void scale<float, 1024, 8>(const float*, float*, int, int64_t);
template void scale<float, 512, 4>(const float*, float*, int, int64_t);
template void scale<int, 256, 4>(const int*, int*, int, int64_t);
template void scale<int, 512, 4>(const int*, int*, int, int64_t);

// CHECK: // Family scale_float: scale<float, BLOCK, WARPS>
// CHECK-NEXT: //   0: BLOCK=256,WARPS=4 (the default)
// CHECK-NEXT: //   1: BLOCK=1024,WARPS=8
// CHECK-NEXT: //   2: BLOCK=512,WARPS=4
// CHECK-NEXT: int scale_float_choose(int n, int64_t rows) {
// CHECK: static const tilecc::TuneEntry tilecc_entries[] = {
// CHECK-NEXT: {90, 1, {1000000ll, 8ll}},  // BLOCK=1024,WARPS=8, 0.0210 ms
// CHECK-NEXT: {90, 0, {4096ll, 1ll}},  // BLOCK=256,WARPS=4
// CHECK-NEXT: {80, 2, {1000000ll, 8ll}},  // BLOCK=512,WARPS=4
// CHECK-NEXT: };
// CHECK-NEXT: const long long tilecc_key[] = {static_cast<long long>(n), static_cast<long long>(rows)};
// CHECK-NEXT: static thread_local tilecc::TuneCache tilecc_last;
// CHECK-NEXT: return tilecc::choose_config(tilecc_last, tilecc_entries, 3, tilecc_key, 2, tilecc::device_compute_capability(), 0);
// CHECK: cudaError_t launch_scale_float_config(int tilecc_config, cudaStream_t stream, const float* x, float* out, int n, int64_t rows) {
// CHECK: case 1: {  // BLOCK=1024,WARPS=8
// CHECK-NEXT: const dim3 grid(tilecc::grid_dim(tilecc::grid_cdiv(n, 1024)), tilecc::grid_dim(rows), tilecc::grid_dim(1 + tilecc::grid_rem(static_cast<long long>(n) - static_cast<long long>(n), 7)));
// CHECK-NEXT: return launch_scale_float_1024_8(grid, stream, x, out, n, rows);
// CHECK: cudaError_t launch_scale_float(cudaStream_t stream, const float* x, float* out, int n, int64_t rows) {
// CHECK-NEXT: return launch_scale_float_config(scale_float_choose(n, rows), stream, x, out, n, rows);
// CHECK: // Family scale_int: scale<int, BLOCK, WARPS>
// CHECK: {90, 0, {64ll, 1ll}},  // BLOCK=256,WARPS=4
// CHECK: return launch_scale_int_512_4(
