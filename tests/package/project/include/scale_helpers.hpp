// Included by scale.tile.cpp only: editing it must regenerate scale.cu and nothing else.
#pragma once
#ifndef SCALE_BLOCK
#error "SCALE_BLOCK must come from target_compile_definitions(user_kernels ...)"
#endif
#define SCALE_FACTOR 2.0f

template <class Tile>
Tile scaled(Tile v) {
  return v * SCALE_FACTOR;
}
