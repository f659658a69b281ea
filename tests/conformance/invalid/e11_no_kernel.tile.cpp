#include <tilecc/tile.hpp>
using namespace tilecc;
template <int N>
tile<float, N> helper(tile<float, N> x) { return x * 2.0f; }  // HERE
