// f32 → f16 / bf16 tiles convert two registers at a time (one cvt.rn.f16x2.f32 / bf16x2, each
// element rounded as alone): ptxas pairs single conversions only where nothing separates them. A
// thread with one register converts it alone.
// ARGS: --arch sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: void __launch_bounds__(128) to_half(
// CHECK: for (int reg = 0; reg < 8; reg += 2) tilecc::cvt_f16x2(store_mul[reg], store_mul[reg + 1], store_cvt[reg], store_cvt[reg + 1]);
TILECC_KERNEL(num_warps = 4)
void to_half(const float* x, half* y) {
  auto i = program_id(0) * 1024 + arange<1024>();
  auto v = load(x + i);
  store(y + i, cast<half>(v * 2.0f));
}

// CHECK-LABEL: void __launch_bounds__(128) rows_to_bf16(
// CHECK: for (int reg = 0; reg < 16; reg += 2) tilecc::cvt_bf16x2(store_add[reg], store_add[reg + 1], store_cvt[reg], store_cvt[reg + 1]);
TILECC_KERNEL(num_warps = 4)
void rows_to_bf16(const float* x, bfloat16* y) {
  auto r = arange<64>();
  auto c = arange<32>();
  auto s = load(x + r);
  store(y + col(r) * 32 + row(c), cast<bfloat16>(col(s) + zeros<float, 64, 32>()));
}

// CHECK-LABEL: void __launch_bounds__(32) one_register(
// CHECK-NOT: cvt_f16x2
// CHECK: store_cvt[0] = tilecc::cvt_f16(store_load[0]);
// CHECK-LABEL: void __launch_bounds__(32) one_register_aligned(
TILECC_KERNEL(num_warps = 1)
void one_register(const float* x, half* y) {
  auto i = arange<32>();
  store(y + i, cast<half>(load(x + i)));
}
