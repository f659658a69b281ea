// Where Clang's own headers (stddef.h, ...) live for the parser inside tilecc.
#pragma once

#include <string>

namespace tilecc {

/// The resource directory: `override` when not empty, else $TILECC_RESOURCE_DIR, else the one
/// of the Clang binary baked in at configure time. Returns an empty string and fills `error`
/// when the directory lacks include/stddef.h.
std::string findResourceDir(const std::string& override, std::string& error);

}  // namespace tilecc
