// Helpers with non-const reference parameters (in-out, the C++ spelling of Triton's
// tuple-returning helpers such as _attn_fwd_inner): the caller's variables take the parameters'
// last values, and a loop that calls the helper carries them. Such a helper may return only at
// its end (diag_reference_params.tile.cpp); its argument must be a local variable.
#include <tilecc/tile.hpp>
using namespace tilecc;

template <int B>
void online_update(tile<float, 64>& m, tile<float, 64>& l, const tile<float, 64, B>& s) {
  auto m_new = maximum(m, max<1>(s));
  l = l * exp2(m - m_new) + sum<1>(exp2(s - col(m_new)));
  m = m_new;
}

// CHECK-LABEL: kernel @online_stats
// CHECK: for %c = %{{.*}} lt %n step %{{.*}} iter(%[[M:m_[0-9]+]] = %m, %[[L:l_[0-9]+]] = %l) -> (%[[MOUT:m_[0-9]+]]: tile<64xf32>, %[[LOUT:l_[0-9]+]]: tile<64xf32>) {
// CHECK: %[[MNEW:m_new]] = binary.max %[[M]], %{{.*}} : tile<64xf32>
// CHECK: binary.mul %[[L]], %{{.*}} : tile<64xf32>
// CHECK: yield %[[MNEW]], %{{l_[0-9]+}}
// CHECK: store %{{.*}}, %[[MOUT]]
// CHECK: store %{{.*}}, %[[LOUT]]
TILECC_KERNEL(num_warps = 4)
void online_stats(const float* x, float* out_m, float* out_l, int n) {
  auto rows = program_id(0) * 64 + arange<64>();
  auto m = full<float, 64>(-INFINITY);
  auto l = zeros<float, 64>();
  for (int c = 0; c < n; c += 32) {
    auto cols = c + arange<32>();
    auto s = load(x + col(rows) * n + row(cols), row(cols) < n, -INFINITY);
    online_update<32>(m, l, s);
  }
  store(out_m + rows, m);
  store(out_l + rows, l);
}
