#include "ir/Verifier.h"

#include "ir/InternalError.h"

#include <set>

namespace tilecc::ir {

namespace {

struct Verifier {
  const Kernel& k;
  std::set<const Value*> defined;

  [[noreturn]] void fail(const Op& o, const std::string& what) {
    internalError("verifier: kernel " + k.name + ", op '" + name(o.kind) + "' at " + o.loc.file + ":" +
                  std::to_string(o.loc.line) + ": " + what);
  }

  void block(const Block& b) {
    for (const Value* a : b.args) defined.insert(a);
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
      const Op& o = *b.ops[i];
      const bool terminator = o.kind == OpKind::Yield || o.kind == OpKind::Return;
      if (terminator && i + 1 != b.ops.size()) fail(o, "a terminator must end its block");
      op(o);
      for (const Value* r : o.results) defined.insert(r);
    }
  }

  void sameShape(const Op& o) {
    for (const Value* v : o.operands)
      if (v->type.isTile() && v->type.shape != o.result()->type.shape) fail(o, "operand shapes must equal the result's");
  }

  void op(const Op& o) {
    for (const Value* v : o.operands) {
      if (!v) fail(o, "null operand");
      if (!defined.count(v)) fail(o, "operand used before its definition");
    }
    switch (o.kind) {
      case OpKind::Binary:
        if (o.operands.size() != 2) fail(o, "two operands");
        if (o.operands[0]->type.elem != o.operands[1]->type.elem && o.binop() != BinOp::Shl && o.binop() != BinOp::Shr)
          fail(o, "operands of one element type");
        sameShape(o);
        if (isComparison(o.binop()) && !o.result()->type.elem.isBool()) fail(o, "comparisons give bool");
        break;
      case OpKind::Unary:
      case OpKind::Convert:
      case OpKind::ConvertLayout:
        if (o.operands.size() != 1) fail(o, "one operand");
        sameShape(o);
        break;
      case OpKind::Select:
        if (o.operands.size() != 3 || !o.operands[0]->type.elem.isBool()) fail(o, "(bool, a, b)");
        sameShape(o);
        break;
      case OpKind::AddPtr:
        if (!o.operands[0]->type.elem.isPtr() || !o.operands[1]->type.elem.isInt()) fail(o, "(pointer, integer)");
        sameShape(o);
        break;
      case OpKind::Load:
        if (!o.operands[0]->type.elem.isPtr()) fail(o, "loads take pointers");
        if (o.operands[0]->type.shape != o.result()->type.shape) fail(o, "result shape is the pointers' shape");
        for (std::size_t i = 1; i < o.operands.size(); ++i)
          if (o.operands[i]->type.shape != o.result()->type.shape) fail(o, "mask and other have the pointers' shape");
        break;
      case OpKind::Store:
      case OpKind::AtomicAdd:
        if (o.operands.size() < 2 || !o.operands[0]->type.elem.isPtr()) fail(o, "(pointers, values [, mask])");
        if (o.operands[1]->type.elem != o.operands[0]->type.elem.pointeeType()) fail(o, "values have the pointee type");
        for (const Value* v : o.operands)
          if (v->type.shape != o.operands[0]->type.shape) fail(o, "operands have the pointers' shape");
        break;
      case OpKind::Broadcast: {
        const auto& from = o.operands[0]->type.shape;
        const auto& to = o.result()->type.shape;
        if (from.size() != to.size()) fail(o, "broadcast keeps the rank");
        for (std::size_t d = 0; d < to.size(); ++d)
          if (from[d] != to[d] && from[d] != 1) fail(o, "broadcast only from extent 1");
        break;
      }
      case OpKind::Splat:
        if (o.operands[0]->type.isTile()) fail(o, "splat takes a scalar");
        break;
      case OpKind::For: {
        const Block& body = *o.regions.at(0);
        if (body.args.size() != o.operands.size() - 2) fail(o, "one block argument per carried value plus the iv");
        if (o.results.size() != o.operands.size() - 3) fail(o, "one result per carried value");
        for (std::size_t j = 0; j < o.results.size(); ++j)
          if (o.results[j]->type != o.operands[j + 3]->type || body.args[j + 1]->type != o.results[j]->type)
            fail(o, "carried types must match");
        yields(o, body);
        break;
      }
      case OpKind::If:
        if (o.regions.size() != 2) fail(o, "then and else regions");
        for (auto& r : o.regions) yields(o, *r);
        break;
      default: break;
    }
    for (const auto& r : o.regions) block(*r);
  }

  void yields(const Op& o, const Block& b) {
    if (b.ops.empty()) fail(o, "an empty region needs a terminator");
    const Op& t = *b.ops.back();
    if (t.kind == OpKind::Return) return;
    if (t.kind != OpKind::Yield) fail(o, "regions end with yield or return");
    if (t.operands.size() != o.results.size()) fail(o, "yield one value per result");
    for (std::size_t j = 0; j < o.results.size(); ++j)
      if (t.operands[j]->type != o.results[j]->type) fail(o, "yielded types must match the results");
  }
};

}  // namespace

void verify(const Kernel& k) {
  Verifier v{k, {}};
  for (const Value* p : k.params) v.defined.insert(p);
  v.block(*k.body);
}

}  // namespace tilecc::ir
