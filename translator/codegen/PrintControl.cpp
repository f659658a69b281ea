// Control flow and barriers: loops and ifs with carried values in variables declared before
// them; barriers where insertBarriers (or the user) put them.
#include "codegen/KernelPrinter.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <cstdio>

namespace tilecc::codegen {

namespace {

// A C string literal of `s`: quotes, backslashes and control characters escaped.
std::string cString(const std::string& s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      q += buf;
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

}  // namespace

bool KernelPrinter::block(const Block& b) {
  for (const auto& o : b.ops) {
    if (o->kind == OpKind::Yield || o->kind == OpKind::Constant) continue;  // handled by the parent / inline
    mark(o->loc);
    op(*o);
    if (o->kind == OpKind::Return) return true;
  }
  return false;
}

void KernelPrinter::op(const Op& o) {
  switch (traits(o.kind).family) {
    case Family::Scalar:
    case Family::Shape:
    case Family::Elementwise: return elementwise(o);
    case Family::Memory: return memory(o);
    case Family::Reduce:
      if (o.kind == OpKind::Scan || o.reduce == ReduceKind::Custom || o.reduce == ReduceKind::Prod) return scan(o);
      return reduce(o);
    case Family::Control: return control(o);
    case Family::Shared: return shared(o);
    case Family::Mma: return mma(o);
    case Family::Async: return async(o);
    case Family::Hopper: return hopper(o);
    case Family::TileOnly: internalError(std::string(name(o.kind)) + " reached the CUDA printer in " + k_.name);
  }
}

void KernelPrinter::assignCarried(const std::vector<const Value*>& targets, const std::vector<const Value*>& values) {
  // Copies through temporaries when one carried value feeds another (a swap).
  std::set<std::string> targetNames;
  for (const Value* t : targets) targetNames.insert(names_.of(t));
  bool hazard = false;
  for (std::size_t j = 0; j < values.size(); ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    if (v->type.isTile()) {
      const View& w = view(v);
      if (targetNames.count(w.base) && w.base != names_.of(targets[j])) hazard = true;
    } else if (targetNames.count(scalar(v)) && scalar(v) != names_.of(targets[j])) {
      hazard = true;
    }
  }
  std::vector<std::string> src(values.size());
  for (std::size_t j = 0; j < values.size() && hazard; ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    const std::string tmp = names_.fresh(names_.of(targets[j]) + "_next");
    if (v->type.isTile()) {
      const Geo g = geo(targets[j]);
      line(type(v->type.elem) + " " + tmp + "[" + std::to_string(g.n) + "];");
      loop(g.n, tmp + "[reg] = " + el(v, "reg") + ";");
      src[j] = tmp + "[reg]";
    } else {
      line(constDecl(v->type.elem, tmp) + " = " + scalar(v) + ";");
      src[j] = tmp;
    }
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    const Value* v = values[j];
    if (v == targets[j]) continue;
    const std::string t = names_.of(targets[j]);
    if (v->type.isTile()) {
      const std::string s = hazard ? src[j] : el(v, "reg");
      if (s == t + "[reg]") continue;
      loop(geo(targets[j]).n, t + "[reg] = " + s + ";");
    } else {
      const std::string s = hazard ? src[j] : scalar(v);
      if (s != t) line(t + " = " + s + ";");
    }
  }
}

void KernelPrinter::control(const Op& o) {
  switch (o.kind) {
    case OpKind::Return: line("return;"); return;
    case OpKind::Assert:  // NDEBUG when nvcc builds this file turns it off, as it would the source's
      if (o.count) {  // the translator's own check, an assumption of this variant: a trap, no call
        line("if (!" + scalar(o.operands[0]) + ") __trap();  // " + o.note);
        return;
      }
      line("#ifndef NDEBUG");
      line("if (!" + scalar(o.operands[0]) + ") tilecc::assert_fail(" + cString(o.note) + ", " +
           cString(o.loc.file.substr(o.loc.file.find_last_of('/') + 1)) + ", " + std::to_string(o.loc.line) + ");");
      line("#else");
      line("(void)" + scalar(o.operands[0]) + ";");  // the condition stays computed: no unused-variable warning
      line("#endif");
      return;
    case OpKind::Yield: return;
    case OpKind::Barrier: {
      const std::string why = o.note.empty() ? "" : "  // " + o.note;
      if (o.sync == Sync::Cta) line(ctaSync_ + ";" + (o.note.empty() ? std::string("  // barrier()") : why));
      else if (o.sync == Sync::Warp) line("__syncwarp();" + why);
      else if (o.sync == Sync::TurnWait || o.sync == Sync::TurnPass) {
        // The warp group's index among the consumers picks its barrier (see takeTurns).
        const std::string g = "(" + warp() + " >> 2)";
        const std::string next = o.count == 2 ? "(" + g + " ^ 1)" : "((" + g + " + 1) % " + std::to_string(o.count) + ")";
        const std::string id = std::to_string(o.barrierId) + " + " + (o.sync == Sync::TurnWait ? g : next);
        line(std::string(o.sync == Sync::TurnWait ? "tilecc::named_barrier_sync(" : "tilecc::named_barrier_arrive(") + id + ", " +
             std::to_string(o.barrierThreads) + ");" + why);
        return;
      } else line("tilecc::named_barrier_sync(" + std::to_string(o.barrierId) + ", " + std::to_string(o.barrierThreads) + ");" + why);
      barriers_.push_back(std::string(o.sync == Sync::Cta ? "CTA" : o.sync == Sync::Warp ? "warp" : "named") + " barrier at line " +
                          std::to_string(o.loc.line) + (o.note.empty() ? ": barrier() in the source" : ": " + o.note));
      return;
    }
    case OpKind::If: {
      std::vector<const Value*> results(o.results.begin(), o.results.end());
      for (const Value* r : results) {
        if (r->type.isTile()) array(r, "if result");
        else line(type(r->type.elem) + " " + names_.of(r) + ";");
      }
      line("if (" + scalar(o.operands[0]) + ") {" + (o.note.empty() ? std::string() : "  // " + o.note));
      for (int b = 0; b < 2; ++b) {
        const Block& blk = *o.regions[static_cast<std::size_t>(b)];
        if (b == 1) {
          if (blk.ops.size() == 1 && blk.ops.back()->kind == OpKind::Yield && results.empty()) break;
          mark(o.loc);
          line("} else {");
        }
        ++indent_;
        const bool returned = block(blk);
        if (const Op* y = yieldOf(blk); y && !returned) assignCarried(results, std::vector<const Value*>(y->operands.begin(), y->operands.end()));
        --indent_;
      }
      line("}");
      return;
    }
    case OpKind::For: {
      const Block& body = *o.regions[0];
      const Value* iv = body.args[0];
      const std::vector<const Value*> carried(body.args.begin() + 1, body.args.end());
      // Carried values live in variables declared before the loop; results are those variables.
      for (std::size_t j = 0; j < carried.size(); ++j) {
        const Value* a = carried[j];
        const Value* init = o.operands[j + 3];
        if (a->type.isTile()) {
          const Geo g = geo(a);
          const std::string n = array(a, "carried");
          loop(g.n, n + "[reg] = " + el(init, "reg") + ";");
          // A wgmma accumulator starting from a constant holds it before the loop: where nvcc
          // can bound the loop to one iteration it peels it and moves the zeros next to the
          // wgmma, after its fence (ptxas then injects a wait there: C7519).
          const bool accumulates = std::any_of(body.ops.begin(), body.ops.end(), [&](const auto& x) {
            return x->kind == OpKind::Wgmma && x->operands.size() == 3 && x->operands[2] == a;
          });
          if (accumulates && scalarConstant(init)) loop(g.n, "tilecc::fence_operand(" + n + "[reg]);");
        } else {
          line(type(a->type.elem) + " " + names_.of(a) + " = " + scalar(init) + ";");
        }
        names_.alias(o.results[j], a);
        if (a->type.isTile()) views_[o.results[j]->id] = views_.at(a->id);
      }
      static const char* cmp[] = {"<", "<=", ">", ">=", "!="};
      const std::string ivn = names_.of(iv);
      const std::string step = scalar(o.operands[2]);
      const std::string inc = step == "1" ? "++" + ivn : step == "(-1)" ? "--" + ivn : ivn + " += " + step;
      line("for (" + type(iv->type.elem) + " " + ivn + " = " + scalar(o.operands[0]) + "; " + ivn + " " +
           cmp[static_cast<int>(o.cmp)] + " " + scalar(o.operands[1]) + "; " + inc + ") {");
      ++indent_;
      const bool returned = block(body);
      mark(o.loc);  // the back edge belongs to the loop statement
      if (const Op* y = yieldOf(body); y && !returned) assignCarried(carried, std::vector<const Value*>(y->operands.begin(), y->operands.end()));
      --indent_;
      line("}");
      return;
    }
    default: internalError(std::string("no control printing for ") + name(o.kind));
  }
}

}  // namespace tilecc::codegen
