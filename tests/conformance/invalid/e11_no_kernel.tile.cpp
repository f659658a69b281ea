#include <tilecc/tile.hpp>  // HERE: a file-level error, at the file's start
using namespace tilecc;
template <int N>
tile<float, N> helper(tile<float, N> x) { return x * 2.0f; }
