// A broken invariant inside tilecc (a bug), as opposed to an error in the user's kernel.
#pragma once

#include <stdexcept>
#include <string>

namespace tilecc {

struct InternalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void internalError(const std::string& what) { throw InternalError(what); }

}  // namespace tilecc
