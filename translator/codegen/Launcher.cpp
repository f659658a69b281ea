// Host launchers, printed from a plan: check the parameters' promises, skip empty grids, then
// launch the first variant the device and the arguments allow.
#include "codegen/CudaPrinter.h"
#include "codegen/KernelPrinter.h"
#include "ir/GridExpr.h"

#include <sstream>

namespace tilecc {

LauncherPlan planLauncher(const ir::Kernel& k, const std::vector<LaunchVariant>& variants) {
  LauncherPlan p;
  p.name = "launch_" + k.name;
  p.kernel = k.name;
  p.sourceName = k.sourceName;
  p.variants = variants;
  p.tune = k.tune;
  // The launcher's own identifiers never meet a parameter's name.
  std::set<std::string> reserved = {"grid", "stream", "status", "uintptr_t", "cudaSuccess", "cudaError_t", "cudaStream_t",
                                    "dim3", "tilecc", "tilecc_broken_promise", "cudaGetLastError", "cudaFuncSetAttribute",
                                    "cudaFuncAttributeMaxDynamicSharedMemorySize", "tilecc_cc", "int64_t", "uint64_t",
                                    "int8_t", "uint8_t", "__half", "__nv_bfloat16", "CUtensorMap", p.name,
                                    // family launchers (codegen/Family.cpp) share the parameter names
                                    "tilecc_config", "tilecc_entries", "tilecc_key", "tilecc_last"};
  for (std::size_t i = 0; i < variants.size(); ++i)
    for (std::size_t m = 0; m < variants[i].maps.size(); ++m)
      for (const char* part : {"tilecc_map_", "tilecc_dims_", "tilecc_strides_", "tilecc_box_", "tilecc_desc_"})
        reserved.insert(part + std::to_string(i) + "_" + std::to_string(m));
  for (const auto& v : variants) reserved.insert(v.kernel);
  ir::Names names(reserved);
  for (std::size_t i = 0; i < static_cast<std::size_t>(k.userParams()); ++i) {
    const ir::Value* v = k.params[i];
    LaunchParam lp;
    lp.type = v->type.kind == ir::TypeKind::TensorDesc ? "CUtensorMap" : codegen::ctype(v->type.elem);
    if (v->type.kind == ir::TypeKind::TensorDesc) p.usesTensorMap = true;
    lp.name = names.of(v);
    lp.pointer = v->type.elem.isPtr();
    lp.aligned = k.paramInfo[i].aligned;
    lp.multipleOf = k.paramInfo[i].multipleOf;
    p.params.push_back(lp);
    if (v->type.elem.kind == ir::Scalar::F16 || v->type.elem.pointee == ir::Scalar::F16) p.usesHalf = true;
    if (v->type.elem.kind == ir::Scalar::BF16 || v->type.elem.pointee == ir::Scalar::BF16) p.usesBf16 = true;
  }
  return p;
}

LaunchVariant launchVariantOf(const ir::Kernel& k, const Target& target, const CudaKernel& ck) {
  LaunchVariant lv;
  lv.kernel = ck.name;
  lv.assumed = k.assumed;
  lv.gridChecks = k.gridChecks;
  lv.computeCapability = target.computeCapability;
  lv.threads = ck.threads;
  lv.sharedBytes = ck.sharedBytes;
  lv.dynamicShared = ck.dynamicShared;
  lv.persistent = ck.persistent;
  for (const ir::TensorMapInfo& m : k.tensorMaps) lv.maps.push_back({m, k.params[static_cast<std::size_t>(m.param)]->type.elem});
  return lv;
}

std::string printLauncherDecl(const LauncherPlan& p) {
  std::string d = "cudaError_t " + p.name + "(dim3 grid, cudaStream_t stream";
  for (const auto& a : p.params) d += ", " + a.type + " " + a.name;
  return d + ")";
}

namespace {

// A GridCheck's expression as host C++ over tilecc::Range (tilecc.cuh): the launcher's names
// for the arguments, program ids from the grid.
std::string hostRange(const LauncherPlan& p, const ir::GridExpr& e) {
  using K = ir::GridExpr::Kind;
  auto arg = [&](std::size_t i) { return hostRange(p, e.args[i]); };
  auto bin = [&](const char* op) { return "(" + arg(0) + " " + op + " " + arg(1) + ")"; };
  static const char* const axes[] = {"grid.x", "grid.y", "grid.z"};
  switch (e.kind) {
    case K::Const: return "tilecc::Range(" + std::to_string(e.value) + (e.value == static_cast<int>(e.value) ? "" : "ll") + ")";
    case K::Param: {
      const LaunchParam& a = p.params[static_cast<std::size_t>(e.param)];
      return a.type == "int64_t" ? "tilecc::range64(" + a.name + ")" : "tilecc::Range(" + a.name + ")";
    }
    case K::ProgramId: return std::string("tilecc::program_ids(") + axes[e.value] + ")";
    case K::NumPrograms: return std::string("tilecc::Range(") + axes[e.value] + ")";
    case K::Arange: return "tilecc::range(0, " + std::to_string(e.value - 1) + ")";
    case K::Add: return bin("+");
    case K::Sub: return bin("-");
    case K::Mul: return bin("*");
    case K::Div: return bin("/");
    case K::Rem: return bin("%");
    case K::Shl: return bin("<<");
    case K::Shr: return bin(">>");
    case K::And: return bin("&");
    case K::Min: return "tilecc::range_min(" + arg(0) + ", " + arg(1) + ")";
    case K::Max: return "tilecc::range_max(" + arg(0) + ", " + arg(1) + ")";
    case K::Neg: return "(-" + arg(0) + ")";
    case K::I64: return "tilecc::range64(" + arg(0) + ")";
    case K::Cdiv: break;  // a family's grid only
  }
  return "tilecc::range_unknown(false)";
}

std::string conditionOf(const LauncherPlan& p, const LaunchVariant& v, bool targets) {
  std::string c;
  // An arch-specific kernel (sm_90a) runs on its own compute capability only: a newer device
  // takes the sm_80 path (from its PTX), never a kernel whose image it cannot load.
  if (targets && v.computeCapability > 80) c = "tilecc_cc == " + std::to_string(v.computeCapability);
  for (const auto& [index, value] : v.assumed) {
    const LaunchParam& a = p.params[static_cast<std::size_t>(index)];
    c += (c.empty() ? "" : " && ") + (value == ir::kEqualsOne    ? a.name + " == 1"
                                      : value == ir::kNonNegative ? a.name + " >= 0"
                                      : a.pointer    ? "reinterpret_cast<uintptr_t>(" + a.name + ") % " + std::to_string(value) + " == 0"
                                                     : a.name + " % " + std::to_string(value) + " == 0");
  }
  for (const ir::GridCheck& g : ir::distinctGridChecks(v.gridChecks)) {
    const std::string r = hostRange(p, g.expr);  // parenthesised where it is an operator's
    c += (c.empty() ? "" : " && ") + (r.front() == '(' ? r : "(" + r + ")") + ".nonnegative()";
  }
  return c;
}

std::string hostExpr(const LauncherPlan& p, const ir::HostExpr& e) {
  std::string s;
  for (const ir::HostTerm& t : e) {
    const std::int64_t c = t.coef < 0 ? -t.coef : t.coef;
    std::string term = c == 1 && !t.params.empty() ? "" : std::to_string(c);
    for (int i : t.params)
      term += (term.empty() ? "" : " * ") + ("static_cast<int64_t>(" + p.params[static_cast<std::size_t>(i)].name + ")");
    s += (s.empty() ? (t.coef < 0 ? "-" : "") : (t.coef < 0 ? " - " : " + ")) + term;
  }
  return s.empty() ? "0" : s;
}

std::string launchCall(const LauncherPlan& p, const LaunchVariant& v, const std::string& args, const std::string& indent) {
  const std::string qualified = std::string("::") + kKernelNamespace + "::" + v.kernel;
  std::string s, in = indent, grid = "grid", all = args;
  if (v.persistent) {  // one program per SM, each running the grid's programs in turn
    s += indent + "const unsigned long long tilecc_tiles = 1ull * grid.x * grid.y * grid.z;\n";
    s += indent + "if (tilecc_tiles <= 0x7fffffffull) {  // program indices stay ints\n";
    in += "  ";
    s += in + "// the rounds of one program per SM (the count is cached per device), the tiles spread evenly over them\n";
    s += in + "const dim3 tilecc_programs(tilecc::persistent_programs(tilecc_tiles, tilecc::sm_count()));\n";
    grid = "tilecc_programs";
    all += ", grid";
  }
  if (v.dynamicShared)
    s += in + "if (const cudaError_t status = cudaFuncSetAttribute(" + qualified + ", cudaFuncAttributeMaxDynamicSharedMemorySize, " +
         std::to_string(v.sharedBytes) + "); status != cudaSuccess)\n" + in + "  return status;\n";
  s += in + "tilecc::log_launch(\"" + p.name + "\", \"" + v.kernel + "\");  // TILECC_LOG_LAUNCH=1 traces the choice\n";
  s += in + qualified + "<<<" + grid + ", " + std::to_string(v.threads) + ", " + std::to_string(v.dynamicShared ? v.sharedBytes : 0) +
       ", stream>>>(" + all + ");\n";
  s += in + "return cudaGetLastError();\n";
  return v.persistent ? s + indent + "}\n" : s;
}

std::string launch(const LauncherPlan& p, const LaunchVariant& v, const std::string& indent, int index) {
  std::string args;
  for (std::size_t i = 0; i < p.params.size(); ++i) args += (i ? ", " : "") + p.params[i].name;
  std::string s;
  std::string mapsReady;
  for (std::size_t m = 0; m < v.maps.size(); ++m) {
    const auto& [info, elem] = v.maps[m];
    const std::string id = std::to_string(index) + "_" + std::to_string(m);
    const std::size_t r = info.dims.size();
    // The driver orders axes innermost first; strides in bytes.
    std::string dims, strides;
    const int eb = elem.bytes();
    const std::string dtype = elem.kind == ir::Scalar::F16    ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"
                              : elem.kind == ir::Scalar::BF16 ? "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"
                              : elem.kind == ir::Scalar::F32  ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"
                              : elem.kind == ir::Scalar::I32  ? "CU_TENSOR_MAP_DATA_TYPE_INT32"
                                                              : "CU_TENSOR_MAP_DATA_TYPE_UINT8";
    for (std::size_t a = r; a-- > 0;) {
      dims += std::string(dims.empty() ? "" : ", ") + "static_cast<uint64_t>(" + hostExpr(p, info.dims[a]) + ")";
      if (a + 1 < r) strides += std::string(strides.empty() ? "" : ", ") + "static_cast<uint64_t>(" + hostExpr(p, info.strides[a]) + ") * " + std::to_string(eb);
    }
    s += indent + "static thread_local tilecc::TensorMapCache tilecc_map_" + id + ";  // re-encoded when its arguments change\n";
    s += indent + "const uint64_t tilecc_dims_" + id + "[] = {" + dims + "};\n";
    s += indent + "const uint64_t tilecc_strides_" + id + "[] = {" + strides + "};\n";
    if (info.im2colShift) {  // pixels × channels per copy, windows shifted by −im2colShift
      s += indent + "const CUtensorMap* const tilecc_desc_" + id + " = tilecc::tensor_map_im2col(tilecc_map_" + id + ", " +
           p.params[static_cast<std::size_t>(info.baseParam)].name + ", " + dtype + ", " + std::to_string(r) + ", tilecc_dims_" + id +
           ", tilecc_strides_" + id + ", " + std::to_string(info.box[0]) + "u, " + std::to_string(info.box[1]) + "u, " +
           std::to_string(info.im2colShift) + ", " + std::to_string(info.swizzle) + ");\n";
    } else {
      std::string box;
      for (std::size_t a = r; a-- > 0;) box += (box.empty() ? "" : ", ") + std::to_string(info.box[a]) + "u";
      s += indent + "const uint32_t tilecc_box_" + id + "[] = {" + box + "};\n";
      s += indent + "const CUtensorMap* const tilecc_desc_" + id + " = tilecc::tensor_map(tilecc_map_" + id + ", " +
           p.params[static_cast<std::size_t>(info.baseParam)].name + ", " + dtype + ", " + std::to_string(r) + ", tilecc_dims_" + id +
           ", tilecc_strides_" + id + ", tilecc_box_" + id + ", " + std::to_string(info.swizzle) + ");\n";
    }
    mapsReady += (mapsReady.empty() ? "" : " && ") + ("tilecc_desc_" + id);
    args += ", *tilecc_desc_" + id;
  }
  if (!v.maps.empty()) {
    s += indent + "if (" + mapsReady + ") {\n";
    return s + launchCall(p, v, args, indent + "  ") + indent + "}\n";
  }
  return s + launchCall(p, v, args, indent);
}

}  // namespace

std::string printLauncherBody(const LauncherPlan& p) {
  std::ostringstream s;
  for (const auto& a : p.params) {
    if (a.aligned)
      s << "  if (reinterpret_cast<uintptr_t>(" << a.name << ") % " << a.aligned << " != 0)\n    return tilecc_broken_promise(\""
        << p.kernel << "\", \"TILECC_ALIGNED(" << a.aligned << ") " << a.name << "\", static_cast<long long>(reinterpret_cast<uintptr_t>("
        << a.name << ") % " << a.aligned << "));\n";
    if (a.multipleOf)
      s << "  if (" << a.name << " % " << a.multipleOf << " != 0)\n    return tilecc_broken_promise(\"" << p.kernel
        << "\", \"TILECC_MULTIPLE_OF(" << a.multipleOf << ") " << a.name << "\", static_cast<long long>(" << a.name << "));\n";
  }
  s << "  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return cudaSuccess;\n";
  bool targets = false;
  for (const auto& v : p.variants) targets |= v.computeCapability > 80;
  if (targets) s << "  const int tilecc_cc = tilecc::device_compute_capability();  // cached per device; TILECC_FORCE_SM80=1 gives 80\n";
  for (std::size_t i = 0; i < p.variants.size(); ++i) {
    const LaunchVariant& v = p.variants[i];
    const std::string c = conditionOf(p, v, targets);
    const int index = static_cast<int>(i);
    if (c.empty() && v.maps.empty()) return s.str() + launch(p, v, "  ", index);
    if (c.empty()) s << "  {\n" << launch(p, v, "    ", index) << "  }\n";
    else s << "  if (" << c << ") {\n" << launch(p, v, "    ", index) << "  }\n";
  }
  s << "  return cudaErrorNoKernelImageForDevice;  // no variant was built for this device\n";
  return s.str();
}

}  // namespace tilecc
