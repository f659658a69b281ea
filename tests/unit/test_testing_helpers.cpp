// <tilecc/testing.hpp>, the installed test helpers: what counts as a match between a kernel's
// output and its reference (untouched poison, infinities, relative error) and the report's verdict.
#include <doctest/doctest.h>
#include <tilecc/testing.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace tt = tilecc::testing;

TEST_CASE("testing: compare measures the relative error and checks that poison stays untouched") {
  const float nan = tt::poison<float>();
  const float inf = std::numeric_limits<float>::infinity();
  bool untouched = false;
  CHECK(tt::compare(std::vector<float>{1, 2, nan, inf}, std::vector<float>{1, 2, nan, inf}, untouched) == 0.0);
  CHECK(untouched);
  // An element the reference leaves as poison but the output wrote.
  tt::compare(std::vector<float>{1, 2, 3}, std::vector<float>{1, 2, nan}, untouched);
  CHECK_FALSE(untouched);
  // An element the output failed to write: infinite error.
  CHECK(std::isinf(tt::compare(std::vector<float>{1, nan}, std::vector<float>{1, 2}, untouched)));
  CHECK(untouched);
  // ||out - ref|| / ||ref||: (0, 0.3) against (3, 4) is 0.3 / 5.
  CHECK(tt::compare(std::vector<float>{3, 4.3f}, std::vector<float>{3, 4}, untouched) == doctest::Approx(0.06).epsilon(1e-5));
  // Outputs of another length never match.
  tt::compare(std::vector<float>{1}, std::vector<float>{1, 2}, untouched);
  CHECK_FALSE(untouched);
}

TEST_CASE("testing: half outputs, poison and random inputs") {
  CHECK(std::isnan(tt::to_double(tt::poison<tilecc::half>())));
  tt::rng r;
  const auto v = tt::random_vector<tilecc::half>(r, 1000, 2.0f);
  double sum2 = 0;
  for (auto x : v) sum2 += tt::to_double(x) * tt::to_double(x);
  CHECK(std::sqrt(sum2 / 1000) == doctest::Approx(2.0).epsilon(0.2));
  for (int i = 0; i < 100; ++i) {
    const int k = r.range(3, 5);
    CHECK((k >= 3 && k <= 5));
  }
}

TEST_CASE("testing: a report fails on any failed check, NaN errors included") {
  tt::report ok("ok");
  ok.check("small", 1e-7, 1e-6);
  ok.compare_outputs("same", std::vector<float>{1, 2}, std::vector<float>{1, 2}, 0.0);
  CHECK(ok.finish() == 0);
  CHECK(ok.checks == 3);
  tt::report bad("bad");
  bad.check("nan", std::nan(""), 1.0);
  CHECK(bad.finish() == 1);
  tt::report written("written");
  written.compare_outputs("poison overwritten", std::vector<float>{1, 2}, std::vector<float>{1, tt::poison<float>()}, 1.0);
  CHECK(written.failures == 1);
}
