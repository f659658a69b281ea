// Convolution inputs read as users write them: a tile whose row i is pixel m = m0 + i of a
// channels-last tensor (NHWC, or NWC / NDHWC), taken apart into digits by `/` and `%` with the
// spatial extents (x = m % W, y = m / W % H, n = m / (H * W), in any spelling that means the
// same digits), moved by offsets of the iteration (a filter tap: y + dy, x + dx), its columns
// consecutive channels c0 + j, and a mask that keeps exactly the pixels inside the tensor
// (0 <= y + dy < H, ...) and the channels below C. That is TMA's im2col mode: the hardware walks
// the pixels in the same order, adds the offsets and fills the padding with zeros.
#pragma once

#include "analysis/StructuredAccess.h"

namespace tilecc::ir {

struct Im2colBox {
  int baseParam = -1;            // the pointer parameter the tensor starts at
  Poly rowStart;                 // m0: program ids, parameters and constants (never negative)
  std::vector<Poly> extents;     // spatial extents, outermost first (H, W): parameters
  std::vector<Poly> offsets;     // per spatial axis, the shift of the iteration (dy, dx)
  Poly images;                   // N: parameters, or kUnboundedDim where nothing bounds it
  Poly channelStart;             // c0 of the iteration
  Poly channels;                 // C, the channel mask's bound: parameters
  Poly pixelStride;              // elements from one pixel to the next: parameters
  int rows = 0, cols = 0;        // the tile: pixels, channels
};

/// The im2col box a load of loop `loop` reads, when its pointers and mask are exactly that. Atoms
/// of the offsets and the channel start are scalars defined in the loop or before it (the
/// caller recomputes them for a later iteration).
std::optional<Im2colBox> im2colBox(const Kernel& k, const Op& loop, const Op& load);

}  // namespace tilecc::ir
