// Writing outputs: atomically (a temporary beside the target, then rename), only when the
// content changed (so unchanged outputs do not retrigger builds), or comparing (--check).
#pragma once

#include <string>
#include <vector>

namespace tilecc {

/// One file a run writes; "-" is standard output.
struct Output {
  std::string path;
  std::string text;
};

/// Writes every output or none: each changed file goes to a temporary beside it first, and only
/// when all temporaries are written are they renamed into place (unchanged files are left
/// alone, so they do not retrigger builds); standard output comes last. Returns false (and
/// prints why) on an I/O error, with the temporaries removed.
bool commitOutputs(const std::vector<Output>& outputs);

/// The bytes of file `path`; false (with the reason in `why`, if given) where it cannot be read.
bool readFile(const std::string& path, std::string& out, std::string* why = nullptr);

/// Whether two paths name one file: the same file on disk (links included) when both exist,
/// else the same absolute path once "." and ".." are resolved.
bool sameFile(const std::string& a, const std::string& b);

/// True when the file at `path` holds exactly `content`; otherwise prints a line diff.
bool checkUpToDate(const std::string& path, const std::string& content);

/// `path` as seen from directory `fromDir` ("../kernels/a.tile.cpp"), with '/' separators. Both
/// are made absolute against the working directory first; "." when they are the same.
std::string relativePath(const std::string& path, const std::string& fromDir);

/// A Makefile rule "target: deps..." (one dependency per line), with make's escapes.
std::string depfileRule(const std::string& target, const std::vector<std::string>& deps);

/// A unified-style line diff of a (old) and b (new), empty when equal.
std::string lineDiff(const std::string& a, const std::string& b, const std::string& nameA, const std::string& nameB);

}  // namespace tilecc
