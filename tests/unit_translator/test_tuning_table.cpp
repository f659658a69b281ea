// Tuning tables: the text tilecc reads (codegen/Family.h) and, where the CUDA headers are, the
// text <tilecc/tune.hpp> writes (sorted; read back as written).
#include "codegen/Family.h"

#include <doctest/doctest.h>

#if __has_include(<cuda_runtime_api.h>)
#include <tilecc/tune.hpp>
#define TILECC_HAVE_TUNE_HPP 1
#endif

using namespace tilecc;

TEST_CASE("tuning table: lines, comments, sm_90a as sm_90") {
  TuningTable t;
  std::string error;
  REQUIRE(parseTuningTable("# header\n\nmm sm_90 M=1 N=-2 -> BM=64,BN=32 0.5   # why\nmm sm_90a -> BM=128\n", "t.tune", t, error));
  REQUIRE(t.entries.size() == 2);
  CHECK(t.entries[0].family == "mm");
  CHECK(t.entries[0].arch == 90);
  CHECK(t.entries[0].key == std::vector<std::pair<std::string, std::int64_t>>{{"M", 1}, {"N", -2}});
  CHECK(t.entries[0].config == "BM=64,BN=32");
  CHECK(t.entries[0].ms == "0.5");
  CHECK(t.entries[0].where == "t.tune:3");
  CHECK(t.entries[1].arch == 90);
  CHECK(t.entries[1].key.empty());
  CHECK(t.entries[1].ms.empty());
}

TEST_CASE("tuning table: a malformed line is an error at its line") {
  const char* bad[][2] = {{"mm sm_90 M=1 N=2\n", "no '-> <config>'"},
                          {"mm 90 M=1 -> A=1\n", "'90' is not an architecture"},
                          {"mm sm_90 M=x -> A=1\n", "'M=x' is not <key>=<integer>"},
                          {"mm sm_90 -> A=1 0.1 extra\n", "unexpected 'extra'"},
                          {"mm\n", "too few fields"}};
  for (const auto& [text, message] : bad) {
    TuningTable t;
    std::string error;
    CHECK_FALSE(parseTuningTable(std::string("# ok\n") + text, "t.tune", t, error));
    CHECK(error.find("t.tune:2: ") == 0);
    CHECK(error.find(message) != std::string::npos);
  }
}

#ifdef TILECC_HAVE_TUNE_HPP
TEST_CASE("tuning table: what tune.hpp writes, sorted, reads back") {
  auto result = [](const char* family, int arch, long long m, const char* config, double ms) {
    tilecc::tune::shape_result r;
    r.family = family;
    r.arch = arch;
    r.key = {{"M", m}, {"N", 64}};
    r.candidates.push_back({config, true, "", ms, 0});
    r.best = 0;
    return r;
  };
  tilecc::tune::table w;
  w.add(result("mm", 90, 4096, "BM=128", 0.25));
  w.add(result("mm", 90, 1024, "BM=64", 0.125));
  w.add(result("aa", 90, 8, "X=1", 1));
  tilecc::tune::shape_result none = result("mm", 90, 2, "BM=1", 1);
  none.best = -1;  // nothing correct: not written
  w.add(none);
  TuningTable t;
  std::string error;
  REQUIRE(parseTuningTable(w.text(), "w.tune", t, error));
  REQUIRE(t.entries.size() == 3);
  CHECK(t.entries[0].family == "aa");
  CHECK(t.entries[1].key[0].second == 1024);
  CHECK(t.entries[1].config == "BM=64");
  CHECK(t.entries[1].ms == "0.1250");
  CHECK(t.entries[2].key[0].second == 4096);
}
#endif
