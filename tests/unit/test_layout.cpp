// §4 Layouts (contract v1): task mappings in Hidet's notation — their task shapes and thread
// counts (what the translator reads), with_layout returning its operand, and the shape rule.
#include <doctest/doctest.h>
#include <tilecc/tile.hpp>

#include <vector>

using namespace tilecc;

TEST_CASE("spatial and repeat: task shape, threads, tasks per thread") {
  using S = spatial<4, 8>;
  static_assert(S::rank == 2 && S::task_extent(0) == 4 && S::task_extent(1) == 8);
  static_assert(S::num_threads == 32 && S::tasks_per_thread == 1 && S::valid);
  using R = repeat<2, 16>;
  static_assert(R::rank == 2 && R::task_extent(0) == 2 && R::task_extent(1) == 16);
  static_assert(R::num_threads == 1 && R::tasks_per_thread == 32 && R::valid);
  static_assert(spatial<32>::rank == 1 && spatial<32>::num_threads == 32);
  static_assert(repeat<1, 2, 4>::rank == 3 && repeat<1, 2, 4>::task_extent(2) == 4);
  static_assert(task_mapping<S> && task_mapping<R> && task_mapping<spatial<32>>);
  CHECK(S::task_extent(5) == 0);  // beyond the rank
}

TEST_CASE("compose: task extents multiply per dimension, threads multiply, outermost first") {
  // The contract's example: a [64, 64] tile on 4 warps.
  using M = compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>;
  static_assert(M::rank == 2 && M::valid && task_mapping<M>);
  static_assert(M::task_extent(0) == 4 * 8 * 2 && M::task_extent(1) == 1 * 4 * 16);
  static_assert(M::num_threads == 4 * 32 && M::tasks_per_thread == 32);
  // Nesting a compose in a compose.
  using N = compose<spatial<2, 2>, compose<repeat<2, 1>, spatial<4, 8>>>;
  static_assert(N::valid && N::task_extent(0) == 16 && N::task_extent(1) == 16 && N::num_threads == 128);
  static_assert(N::tasks_per_thread == 2);
  using One = compose<repeat<4>>;
  static_assert(One::valid && One::rank == 1 && One::task_extent(0) == 4 && One::num_threads == 1);
}

TEST_CASE("task_mapping rejects what is not a well-formed mapping") {
  static_assert(!task_mapping<int>);
  static_assert(!task_mapping<tile<float, 4>>);
  static_assert(!task_mapping<spatial<>>);
  static_assert(!task_mapping<spatial<0, 4>>);
  static_assert(!task_mapping<repeat<4, -1>>);
  static_assert(!task_mapping<compose<>>);
  static_assert(!task_mapping<compose<spatial<4>, spatial<2, 2>>>);  // parts of different ranks
  static_assert(!task_mapping<compose<spatial<4>, int>>);
  static_assert(!task_mapping<compose<spatial<4>, compose<spatial<2, 2>>>>);
  CHECK(true);
}

TEST_CASE("with_layout returns its operand, the mapping must cover the tile's shape") {
  using M = compose<spatial<4, 1>, spatial<8, 4>, repeat<2, 16>>;
  auto t = reshape<64, 64>(arange<4096>());
  auto u = with_layout<M>(t);
  static_assert(std::is_same_v<decltype(u), decltype(t)>);
  for (int i = 0; i < t.size; i += 97) CHECK(u.data[i] == t.data[i]);
  static_assert(layout_matches_shape<M, tile<float, 64, 64>>);
  static_assert(!layout_matches_shape<M, tile<float, 64, 32>>);       // extents differ
  static_assert(!layout_matches_shape<M, tile<float, 4096>>);         // ranks differ
  static_assert(!layout_matches_shape<spatial<4, 8>, tile<float, 8, 4>>);
  static_assert(layout_matches_shape<spatial<32>, tile<int, 32>>);
  static_assert(layout_matches_shape<compose<repeat<1, 2, 1>, spatial<2, 2, 8>>, tile<bool, 2, 4, 8>>);
  auto v = with_layout<spatial<32>>(arange<32>() < 5);
  CHECK(v(4));
  CHECK(!v(5));
}

template <int BLOCK>
TILECC_KERNEL(num_warps = 4)
void laid_out(const float* x, float* out) {
  auto offs = col(arange<BLOCK>()) * BLOCK + row(arange<BLOCK>());
  auto v = with_layout<compose<spatial<4, 1>, spatial<8, 4>, repeat<BLOCK / 32, BLOCK / 4>>>(load(x + offs));
  store(out + offs, trans(with_layout<compose<repeat<BLOCK / 32, BLOCK / 4>, spatial<32, 4>>>(v)));
}
template void laid_out<64>(const float*, float*);

TEST_CASE("a kernel with layouts runs in the host twin as without them") {
  std::vector<float> x(64 * 64), out(64 * 64, -1.0f);
  for (int i = 0; i < 64 * 64; ++i) x[i] = static_cast<float>(i);
  host::launch(1, laid_out<64>, x.data(), out.data());
  CHECK(out[3 * 64 + 5] == x[5 * 64 + 3]);
  CHECK(out[63 * 64] == x[63]);
}
