#include "driver/Output.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <vector>

namespace tilecc {

bool readFile(const std::string& path, std::string& out, std::string* why) {
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) {
    if (why) *why = buf.getError().message();
    return false;
  }
  out = (*buf)->getBuffer().str();
  return true;
}

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> components(const std::string& path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  std::vector<std::string> out;
  for (auto it = llvm::sys::path::begin(abs), e = llvm::sys::path::end(abs); it != e; ++it) out.push_back(it->str());
  return out;
}

std::string escapeForMake(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '$') out += '$';
    else if (c == ' ' || c == '#') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string relativePath(const std::string& path, const std::string& fromDir) {
  const std::vector<std::string> to = components(path), from = components(fromDir.empty() ? "." : fromDir);
  std::size_t common = 0;
  while (common < to.size() && common < from.size() && to[common] == from[common]) ++common;
  std::string out;
  for (std::size_t i = common; i < from.size(); ++i) out += out.empty() ? ".." : "/..";
  for (std::size_t i = common; i < to.size(); ++i) out += (out.empty() ? "" : "/") + to[i];
  return out.empty() ? "." : out;
}

std::string depfileRule(const std::string& target, const std::vector<std::string>& deps) {
  std::string d = escapeForMake(target) + ":";
  for (const auto& f : deps) d += " \\\n  " + escapeForMake(f);
  return d + "\n";
}

bool sameFile(const std::string& a, const std::string& b) {
  bool equal = false;
  if (llvm::sys::fs::exists(a) && llvm::sys::fs::exists(b) && !llvm::sys::fs::equivalent(a, b, equal)) return equal;
  return components(a) == components(b);
}

bool commitOutputs(const std::vector<Output>& outputs) {
  struct Pending {
    std::string path, tmp;
  };
  std::vector<Pending> pending;
  auto discard = [&](std::size_t from) {
    for (std::size_t i = from; i < pending.size(); ++i) llvm::sys::fs::remove(pending[i].tmp);
  };
  for (const Output& out : outputs) {
    if (out.path == "-") continue;
    std::string old;
    if (readFile(out.path, old) && old == out.text) continue;
    if (llvm::sys::fs::is_directory(out.path)) {
      std::fprintf(stderr, "tilecc: error: cannot write '%s': it is a directory\n", out.path.c_str());
      discard(0);
      return false;
    }
    const std::string tmp = out.path + ".tmp-tilecc";
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(tmp, ec);
      if (!ec) {
        os << out.text;
        os.close();
        if (os.has_error()) ec = os.error();
      }
    }
    if (ec) {
      std::fprintf(stderr, "tilecc: error: cannot write '%s': %s\n", out.path.c_str(), ec.message().c_str());
      llvm::sys::fs::remove(tmp);
      discard(0);
      return false;
    }
    pending.push_back({out.path, tmp});
  }
  for (std::size_t i = 0; i < pending.size(); ++i)
    if (auto ec = llvm::sys::fs::rename(pending[i].tmp, pending[i].path)) {
      std::fprintf(stderr, "tilecc: error: cannot write '%s': %s\n", pending[i].path.c_str(), ec.message().c_str());
      discard(i);
      return false;
    }
  for (const Output& out : outputs)
    if (out.path == "-") std::fwrite(out.text.data(), 1, out.text.size(), stdout);
  return true;
}

std::string lineDiff(const std::string& a, const std::string& b, const std::string& nameA, const std::string& nameB) {
  if (a == b) return {};
  const auto x = lines(a), y = lines(b);
  // Trim the common prefix and suffix, then an LCS table over what is left.
  std::size_t pre = 0;
  while (pre < x.size() && pre < y.size() && x[pre] == y[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < x.size() - pre && suf < y.size() - pre && x[x.size() - 1 - suf] == y[y.size() - 1 - suf]) ++suf;
  const std::size_t n = x.size() - pre - suf, m = y.size() - pre - suf;
  std::string out = "--- " + nameA + "\n+++ " + nameB + "\n";
  if (n * m > 25'000'000) {  // too large for the table: show the changed block whole
    out += "@@ -" + std::to_string(pre + 1) + " +" + std::to_string(pre + 1) + " @@\n";
    for (std::size_t i = 0; i < n; ++i) out += "-" + x[pre + i] + "\n";
    for (std::size_t j = 0; j < m; ++j) out += "+" + y[pre + j] + "\n";
    return out;
  }
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = x[pre + i] == y[pre + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  out += "@@ -" + std::to_string(pre + 1) + " +" + std::to_string(pre + 1) + " @@\n";
  if (pre > 0) out += " " + x[pre - 1] + "\n";
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[pre + i] == y[pre + j]) {
      out += " " + x[pre + i] + "\n";
      ++i, ++j;
    } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out += "+" + y[pre + j++] + "\n";
    } else {
      out += "-" + x[pre + i++] + "\n";
    }
  }
  if (suf > 0) out += " " + x[x.size() - suf] + "\n";
  return out;
}

bool checkUpToDate(const std::string& path, const std::string& content) {
  std::string old;
  if (!readFile(path, old)) {
    std::fprintf(stderr, "tilecc: '%s' is missing (stale)\n", path.c_str());
    return false;
  }
  if (old == content) return true;
  std::fprintf(stderr, "tilecc: '%s' is stale:\n%s", path.c_str(),
               lineDiff(old, content, path + " (on disk)", path + " (generated)").c_str());
  return false;
}

}  // namespace tilecc
