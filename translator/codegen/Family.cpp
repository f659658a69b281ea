// Family launchers and the tuning table (see Family.h). The dispatch is printed as plain code:
// a static array of the table's entries for the family and one call of tilecc::choose_config
// (runtime/include/tilecc/cuda/tilecc.cuh), then a switch over the configurations.
#include "codegen/Family.h"

#include <map>
#include <sstream>

namespace tilecc {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> w;
  std::istringstream in(line);
  for (std::string t; in >> t;) w.push_back(t);
  return w;
}

bool parseInt(const std::string& s, std::int64_t& v) {
  if (s.empty()) return false;
  std::size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - 9) / 10) return false;
    v = v * 10 + (s[i] - '0');
  }
  if (s[0] == '-') v = -v;
  return true;
}

// The grid expression as host C++ over the launcher's parameter names, in 64-bit integers: an
// operand of + − × is widened first (int × int could overflow), one of tilecc's grid functions
// converts by itself; parentheses only inside.
std::string gridExpr(const ir::GridExpr& e, const LauncherPlan& p, bool top = true, bool widen = true) {
  using K = ir::GridExpr::Kind;
  auto bin = [&](const char* op) {
    const std::string s = gridExpr(e.args[0], p, false, true) + " " + op + " " + gridExpr(e.args[1], p, false, true);
    return top ? s : "(" + s + ")";
  };
  auto call = [&](const char* f) {
    return std::string(f) + "(" + gridExpr(e.args[0], p, true, false) + ", " + gridExpr(e.args[1], p, true, false) + ")";
  };
  switch (e.kind) {
    case K::Const: return std::to_string(e.value);
    case K::Param: {
      const std::string& n = p.params[static_cast<std::size_t>(e.param)].name;
      return widen ? "static_cast<long long>(" + n + ")" : n;
    }
    case K::Add: return bin("+");
    case K::Sub: return bin("-");
    case K::Mul: return bin("*");
    case K::Div: return call("tilecc::grid_div");
    case K::Rem: return call("tilecc::grid_rem");
    case K::Cdiv: return call("tilecc::grid_cdiv");
    case K::Min: return call("tilecc::grid_min");
    case K::Max: return call("tilecc::grid_max");
    default: break;  // the kinds of checks over the grid (GridCheck) never appear in a family's grid
  }
  return "0";
}

std::string params(const LauncherPlan& p, bool types) {
  std::string s;
  for (const auto& a : p.params) s += ", " + (types ? a.type + " " : std::string()) + a.name;
  return s;
}

}  // namespace

bool parseTuningTable(const std::string& text, const std::string& path, TuningTable& out, std::string& error) {
  out.paths.push_back(path);
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string where = path + ":" + std::to_string(n);
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    const std::vector<std::string> w = words(line);
    if (w.empty()) continue;
    auto bad = [&](const std::string& m) {
      error = where + ": " + m + " (a line reads: <family> sm_<arch> <key>=<value>... -> <config> [<median ms>])";
      return false;
    };
    TuningEntry e;
    e.where = where;
    e.family = w[0];
    if (w.size() < 4) return bad("too few fields");
    std::int64_t arch = 0;
    std::string a = w[1];
    if (a.size() > 3 && a.back() == 'a') a.pop_back();
    if (a.compare(0, 3, "sm_") != 0 || !parseInt(a.substr(3), arch) || arch < 10 || arch > 1000) return bad("'" + w[1] + "' is not an architecture such as sm_90");
    e.arch = static_cast<int>(arch);
    std::size_t i = 2;
    for (; i < w.size() && w[i] != "->"; ++i) {
      const std::size_t eq = w[i].find('=');
      std::int64_t v = 0;
      if (eq == std::string::npos || eq == 0 || !parseInt(w[i].substr(eq + 1), v)) return bad("'" + w[i] + "' is not <key>=<integer>");
      e.key.push_back({w[i].substr(0, eq), v});
    }
    if (i + 1 >= w.size()) return bad("no '-> <config>'");
    e.config = w[i + 1];
    if (i + 2 < w.size()) e.ms = w[i + 2];
    if (i + 3 < w.size()) return bad("unexpected '" + w[i + 3] + "'");
    out.entries.push_back(std::move(e));
  }
  return true;
}

std::vector<FamilyPlan> planFamilies(const std::vector<LauncherPlan>& launchers) {
  std::vector<FamilyPlan> fams;
  std::map<std::string, std::size_t> index;
  for (const LauncherPlan& l : launchers) {
    if (!l.tune) continue;
    auto [it, fresh] = index.emplace(l.tune->family, fams.size());
    if (fresh) fams.push_back({l.tune->family, l.tune->familySource, {}});
    fams[it->second].members.push_back(&l);
  }
  return fams;
}

bool printFamily(const FamilyPlan& f, const TuningTable& table, std::string& cu, std::string& header, std::string& error) {
  const LauncherPlan& first = *f.members[0];
  const ir::TuneInfo& t0 = *first.tune;
  for (const LauncherPlan* m : f.members) {
    bool same = m->params.size() == first.params.size() && m->tune->key == t0.key;
    for (std::size_t i = 0; same && i < m->params.size(); ++i) same = m->params[i].type == first.params[i].type && m->params[i].name == first.params[i].name;
    if (!same) {
      error = "the instantiations of family " + f.name + " (" + first.sourceName + ", " + m->sourceName + ") differ in their parameters or tune_key";
      return false;
    }
    for (const LauncherPlan* o : f.members)
      if (o != m && o->tune->config == m->tune->config) {
        error = "family " + f.name + " has two instantiations with the configuration " + m->tune->config;
        return false;
      }
  }
  std::vector<std::string> keyNames;
  for (int k : t0.key) keyNames.push_back(first.params[static_cast<std::size_t>(k)].name);
  if (keyNames.size() > 8) {
    error = "family " + f.name + ": tune_key names at most 8 parameters";
    return false;
  }

  // The table's entries for this family, checked against it.
  std::vector<std::pair<const TuningEntry*, int>> used;
  for (const TuningEntry& e : table.entries) {
    if (e.family != f.name) continue;
    int config = -1;
    std::string known;
    for (std::size_t i = 0; i < f.members.size(); ++i) {
      known += (i ? ", " : "") + f.members[i]->tune->config;
      if (f.members[i]->tune->config == e.config) config = static_cast<int>(i);
    }
    if (config < 0) {
      error = e.where + ": family " + f.name + " has no configuration " + e.config + " (it has " + known + "): the table is stale, re-tune";
      return false;
    }
    bool keyOk = e.key.size() == keyNames.size();
    for (std::size_t i = 0; keyOk && i < keyNames.size(); ++i) keyOk = e.key[i].first == keyNames[i];
    if (!keyOk) {
      std::string want;
      for (const auto& n : keyNames) want += (want.empty() ? "" : " ") + n + "=<value>";
      error = e.where + ": family " + f.name + "'s key is " + (want.empty() ? "empty" : want) + ", in this order";
      return false;
    }
    used.push_back({&e, config});
  }

  std::ostringstream h, c;
  const std::string keyList = [&] {
    std::string s;
    for (const auto& n : keyNames) s += (s.empty() ? "" : ", ") + n;
    return s;
  }();
  std::string keyParams;
  for (int k : t0.key) keyParams += (keyParams.empty() ? "" : ", ") + first.params[static_cast<std::size_t>(k)].type + " " + first.params[static_cast<std::size_t>(k)].name;
  h << "/// Family " << f.name << ": " << f.source << ", configurations in " << f.name << "_configs (the first is the\n"
    << "/// default); the launcher computes the grid and picks the configuration for the device and the shape ("
    << (keyList.empty() ? "no key" : keyList) << ").\n";
  h << "cudaError_t launch_" << f.name << "(cudaStream_t stream" << params(first, true) << ");\n";
  h << "/// One configuration by index, its grid computed (tuners, tests).\n";
  h << "cudaError_t launch_" << f.name << "_config(int tilecc_config, cudaStream_t stream" << params(first, true) << ");\n";
  h << "/// The configuration launch_" << f.name << " picks for this shape on the current device.\n";
  h << "int " << f.name << "_choose(" << keyParams << ");\n";
  h << "inline constexpr int " << f.name << "_config_count = " << f.members.size() << ";\n";
  h << "inline constexpr const char* " << f.name << "_configs[] = {";
  for (std::size_t i = 0; i < f.members.size(); ++i) h << (i ? ", " : "") << "\"" << f.members[i]->tune->config << "\"";
  h << "};\n\n";

  c << "// Family " << f.name << ": " << f.source << "\n";
  for (std::size_t i = 0; i < f.members.size(); ++i)
    c << "//   " << i << ": " << f.members[i]->tune->config << (i == 0 ? " (the default)" : "") << "\n";
  c << "int " << f.name << "_choose(" << keyParams << ") {\n";
  if (used.empty()) {
    for (const auto& n : keyNames) c << "  (void)" << n << ";\n";
    c << "  return 0;  // no tuning table entries for this family: the default\n";
  } else {
    c << "  // The tuning table's entries (" ;
    for (std::size_t i = 0; i < table.paths.size(); ++i) {
      const std::size_t slash = table.paths[i].find_last_of('/');  // names only: the same in every checkout
      c << (i ? ", " : "") << (slash == std::string::npos ? table.paths[i] : table.paths[i].substr(slash + 1));
    }
    c << "): the largest architecture up to the device's, then the entry nearest in log2 of the key.\n";
    c << "  static const tilecc::TuneEntry tilecc_entries[] = {\n";
    for (const auto& [e, config] : used) {
      c << "      {" << e->arch << ", " << config << ", {";
      for (std::size_t i = 0; i < e->key.size(); ++i) c << (i ? ", " : "") << e->key[i].second << "ll";
      c << "}},  // " << e->config << (e->ms.empty() ? "" : ", " + e->ms + " ms") << "\n";
    }
    c << "  };\n";
    c << "  const long long tilecc_key[] = {";
    for (std::size_t i = 0; i < keyNames.size(); ++i) c << (i ? ", " : "") << "static_cast<long long>(" << keyNames[i] << ")";
    if (keyNames.empty()) c << "0";
    c << "};\n";
    c << "  static thread_local tilecc::TuneCache tilecc_last;  // the previous launch's shape and choice\n";
    c << "  return tilecc::choose_config(tilecc_last, tilecc_entries, " << used.size() << ", tilecc_key, " << keyNames.size()
      << ", tilecc::device_compute_capability(), 0);\n";
  }
  c << "}\n\n";
  c << "cudaError_t launch_" << f.name << "_config(int tilecc_config, cudaStream_t stream" << params(first, true) << ") {\n";
  c << "  switch (tilecc_config) {\n";
  for (std::size_t i = 0; i < f.members.size(); ++i) {
    const LauncherPlan& m = *f.members[i];
    std::string dims;
    for (const ir::GridExpr& g : m.tune->grid) dims += (dims.empty() ? "" : ", ") + ("tilecc::grid_dim(" + gridExpr(g, m, true, false) + ")");
    c << "    case " << i << ": {  // " << m.tune->config << "\n";
    c << "      const dim3 grid(" << dims << ");\n";
    c << "      return " << m.name << "(grid, stream" << params(m, false) << ");\n    }\n";
  }
  c << "    default: return cudaErrorInvalidValue;\n  }\n}\n\n";
  c << "cudaError_t launch_" << f.name << "(cudaStream_t stream" << params(first, true) << ") {\n";
  c << "  return launch_" << f.name << "_config(" << f.name << "_choose(" << keyList << "), stream" << params(first, false) << ");\n}\n\n";
  cu = c.str();
  header = h.str();
  return true;
}

}  // namespace tilecc
