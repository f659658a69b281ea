// Helpers for the samples' host tests: the installed <tilecc/testing.hpp> (fresh random
// inputs with a printed seed, TILECC_SEED reproduces a run; relative errors; poisoned outputs;
// a report), under the name the samples' tests use.
#pragma once

#include <tilecc/testing.hpp>

namespace sample {
using namespace tilecc::testing;
}  // namespace sample
