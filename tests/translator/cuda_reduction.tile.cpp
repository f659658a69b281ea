// The CUDA of a row reduction: in-thread, lane shuffles, a cross-warp step through shared
// memory between barriers; the header comment states layouts and the shared-memory plan.
// ARGS: -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK: // ---- rowmax -> rowmax ----
// CHECK: // 8 warps (256 threads) per program, for sm_80.
// CHECK: //   L0 = compose<spatial<8>, spatial<32>>{{$}}
// CHECK: // Shared memory: 32 bytes (static), one buffer:
// CHECK: //   [[BUF:.*]] at 0, 32 bytes ([32] u8, 32-byte rows): partial results of the max across warps at line 24
// CHECK: __global__ void __launch_bounds__(256) rowmax(const float* x, float* out, int n)
// CHECK: __shared__ __align__(16) unsigned char smem[32];
// CHECK: __shfl_xor_sync(0xffffffffu, {{.*}}, 16)
// CHECK: __syncthreads();  // every warp's partial results are written
// CHECK: fmaxf
// CHECK: if (threadIdx.x == 0) *
// CHECK: cudaError_t launch_rowmax(dim3 grid, cudaStream_t stream, const float* x, float* out, int n) {
// CHECK: rowmax<<<grid, 256, 0, stream>>>(x, out, n);
TILECC_KERNEL(num_warps = 8)
void rowmax(const float* x, float* out, int n) {
  auto cols = arange<1024>();
  auto v = load(x + program_id(0) * n + cols, cols < n, -INFINITY);
  store(out + program_id(0), max(v));
}
