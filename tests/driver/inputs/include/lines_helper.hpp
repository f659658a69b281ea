// The helper of lines.tile.cpp (driver tests).
#pragma once

template <class Tile>
Tile twice(Tile v) {
  return v * 2.0f;  // HELPER
}
