// version-masks distributes `x + where(m, zero, c)` over the select, as `where(m, y, y + c)` with
// y = x + zero, also where the zero reaches the select through expand_dims and a broadcast
// (`col(zeros<float, 16>())`): ir::scalarConstant walks every op that only places a value. The
// select then reads the loaded values, not two constants.
// ARGS: --emit=gpu-ir --arch=sm_80 -o -
#include <tilecc/tile.hpp>
using namespace tilecc;

// CHECK-LABEL: kernel @band
// CHECK: if %m_all -> (%acc_if: tile<16x32xf32> #L{{[0-9]+}}) [note="m is true in every element: the select is skipped"] {
// CHECK-NEXT: %acc_add = binary.add %v{{(_1)?}}, %acc_bcast
// CHECK-NOT: select %m, %acc_bcast
// CHECK: %acc_add_1 = binary.add %v{{(_1)?}}, %acc_bcast
// CHECK: %acc_add_2 = binary.add %acc_add_1, %{{.*}}
// CHECK-NEXT: %acc_sel = select %m, %acc_add_1, %acc_add_2
TILECC_KERNEL(num_warps = 4)
void band(const float* x, float* out, int cols, int start) {
  const int row0 = program_id(0) * 16;
  auto r = row0 + arange<16>();
  auto acc = zeros<float, 16>();
  for (int c = 0; c < cols; c += 32) {
    auto cc = c + arange<32>();
    auto v = load(x + col(r) * cols + row(cc));
    auto m = col(r) >= start + row(cc);
    acc += sum<1>(v + where(m, col(zeros<float, 16>()), -1.0e6f));
  }
  store(out + r, acc);
}
