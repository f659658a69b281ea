// The relative error every tilecc check uses, ||out - ref|| / ||ref||, in C++17 so that both the
// host-twin test helpers (<tilecc/testing.hpp>, C++20) and the tuner (<tilecc/tune.hpp>, built
// by nvcc as C++17) measure alike.
#pragma once

#include <cmath>
#include <limits>

namespace tilecc::testing {

/// ||out - ref|| / ||ref|| over the elements added (||out - ref|| where ref is all zeros); any
/// NaN or infinity in out gives infinity.
struct error_meter {
  double diff2 = 0, ref2 = 0;
  bool bad = false;
  void add(double out, double ref) {
    if (!std::isfinite(out)) bad = true;
    diff2 += (out - ref) * (out - ref);
    ref2 += ref * ref;
  }
  double value() const {
    if (bad) return std::numeric_limits<double>::infinity();
    return ref2 == 0 ? std::sqrt(diff2) : std::sqrt(diff2 / ref2);
  }
};

}  // namespace tilecc::testing
