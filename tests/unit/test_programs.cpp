// §1, §2, §5, §6: programs, kernels, control flow, helpers, the launcher; scalar helpers.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <vector>

using namespace tilecc;

TILECC_KERNEL(num_warps = 2)
void record_ids(int* out) {
  const int linear = program_id(0) + num_programs(0) * (program_id(1) + num_programs(1) * program_id(2));
  store(out + linear * 3 + arange<4>(), where(arange<4>() == 0, program_id(0), where(arange<4>() == 1, program_id(1), program_id(2))),
        arange<4>() < 3);
}

TEST_CASE("launch runs every program once with program_id/num_programs, int and {x,y,z} grids") {
  std::vector<int> out(2 * 3 * 4 * 3 + 1, -1);
  host::launch({2, 3, 4}, record_ids, out.data());
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 2; ++x) {
        const int l = x + 2 * (y + 3 * z);
        CHECK(out[l * 3 + 0] == x);
        CHECK(out[l * 3 + 1] == y);
        CHECK(out[l * 3 + 2] == z);
      }
  std::vector<int> one(3 * 5 + 1, -1);
  host::launch(5, record_ids, one.data());
  CHECK(one[4 * 3] == 4);
  CHECK(one[4 * 3 + 1] == 0);
  host::launch(0, record_ids, one.data());  // an empty grid runs nothing
}

TEST_CASE("program_id outside a launch is a contract violation") {
  CHECK_THROWS_AS(program_id(0), contract_violation);
  CHECK_THROWS_AS(num_programs(1), contract_violation);
}

// A helper library function: inlined by the translator, a plain call on the host.
template <int N>
tile<float, N> scale_by(tile<float, N> t, float s) {
  return t * s;
}

template <int BLOCK>
TILECC_KERNEL()
void loop_kernel(const float* x, float* out, int n) {
  auto acc = zeros<float, BLOCK>();
  for (int i = 0; i < n; i += BLOCK) {  // acc carried across iterations
    auto offs = i + arange<BLOCK>();
    acc += load(x + offs, offs < n, 0.0f);
  }
  if (n > 2 * BLOCK) {
    store(out, sum(scale_by(acc, 2.0f)));
    return;  // early return
  } else {
    store(out, sum(acc));
  }
  store(out + 1, -1.0f);
}
template void loop_kernel<4>(const float*, float*, int);

TEST_CASE("loops carry tiles, if/else, early return, helpers") {
  std::vector<float> x(10, 1.0f), out(2, 0.0f);
  host::launch(1, loop_kernel<4>, x.data(), out.data(), 10);
  CHECK(out[0] == 20.0f);
  CHECK(out[1] == 0.0f);
  host::launch(1, loop_kernel<4>, x.data(), out.data(), 6);
  CHECK(out[0] == 6.0f);
  CHECK(out[1] == -1.0f);
}

TILECC_KERNEL(num_warps = 4, num_stages = 2)
void promised(TILECC_ALIGNED(16) const float* a, TILECC_MULTIPLE_OF(16) int lda, float* out) {
  store(out, load(a) + static_cast<float>(lda));
  barrier();
}

TEST_CASE("kernel options and parameter promises compile away on the host") {
  alignas(16) float a = 1.0f;
  float out = 0;
  host::launch(1, promised, &a, 16, &out);
  CHECK(out == 17.0f);
}

// Kernel options may be template parameters; warp_specialize is an option (contract v1). For
// Clang the options become one annotation string the translator reads; for GCC, nothing.
template <int W, bool SPECIALIZE>
TILECC_KERNEL(num_warps = W, num_stages = 2, warp_specialize = SPECIALIZE)
void optioned(const float* x, float* out) {
  store(out + arange<4>(), load(x + arange<4>()) * static_cast<float>(W));
}
template void optioned<8, true>(const float*, float*);

TILECC_KERNEL(warp_specialize = false)
void plain_options(float* out) { store(out, 1.0f); }

TILECC_KERNEL(num_warps = 2, warp_specialize = true)
void literal_options(float* out) { store(out, 2.0f); }

TEST_CASE("kernel options: template parameters and warp_specialize compile and run on the host") {
  float x[4] = {1, 2, 3, 4}, out[4] = {};
  host::launch(1, optioned<8, true>, x, out);
  CHECK(out[3] == 32.0f);
  host::launch(1, plain_options, out);
  CHECK(out[0] == 1.0f);
  host::launch(1, literal_options, out);
  CHECK(out[0] == 2.0f);
}

TEST_CASE("cdiv, scalar min/max") {
  CHECK(cdiv(10, 4) == 3);
  CHECK(cdiv(int64_t{8}, 4) == 2);
  CHECK(tilecc::min(3, 5) == 3);
  CHECK(tilecc::max(3, int64_t{5}) == 5);
  CHECK(tilecc::max(1.0f, std::numeric_limits<float>::quiet_NaN()) == 1.0f);
}
