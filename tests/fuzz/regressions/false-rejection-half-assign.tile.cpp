// tilecc fuzz finding: false-rejection-003.tile.cpp
// Class: false rejection (exit 1 with a located error on a valid kernel)
// Signature: reject: this operator is not supported on tiles
// Command: tilecc false-rejection-003.tile.cpp -o out.cu
// Observed:
//   false-rejection-003.tile.cpp:6:3: error: this operator is not supported on tiles
//   1 error generated.
// Found by tests/fuzz/fuzz.py (campaign seed 1, file 112567654448909, generator v1); minimised by tests/fuzz/minimize.py.
// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)
#include <tilecc/tile.hpp>
using namespace tilecc;
TILECC_KERNEL()
void k0() {
  auto a = cast<half>(0);
  a = cast<half>(0);
}
