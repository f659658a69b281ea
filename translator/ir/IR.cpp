#include "ir/IR.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

#include <algorithm>
#include <cstring>

namespace tilecc::ir {

bool within(const Block* b, const Block& outer) {
  for (; b; b = b->parent ? b->parent->parent : nullptr)
    if (b == &outer) return true;
  return false;
}

int issuedVec(const Access& a, int spt, int elemBytes) {
  if (a.vec <= 1 || a.axis < 0 || elemBytes > 8) return 1;
  return std::max(1, std::min(a.vec, spt & -spt));
}

Op* yieldOf(const Block& b) {
  if (b.ops.empty() || b.ops.back()->kind != OpKind::Yield) return nullptr;
  return b.ops.back().get();
}

std::size_t carriedIndex(const Op& loop, const Value* arg) {
  const auto& args = loop.regions[0]->args;
  return static_cast<std::size_t>(std::find(args.begin(), args.end(), arg) - args.begin()) - 1;
}

Value* addCarried(Kernel& k, Op& loop, Value* init, const std::string& name) {
  Block& body = *loop.regions[0];
  loop.operands.push_back(init);
  Value* arg = k.newValue(init->type, name);
  arg->owner = &body;
  body.args.push_back(arg);
  Value* res = k.newValue(init->type, name);
  res->def = &loop;
  loop.results.push_back(res);
  yieldOf(body)->operands.push_back(arg);
  return arg;
}

const Value* carriedStep(const Block& body, const Value* arg) {
  const Op* y = yieldOf(body);
  const auto j = static_cast<std::size_t>(std::find(body.args.begin(), body.args.end(), arg) - body.args.begin());
  if (!y || j == 0 || j >= body.args.size()) return nullptr;
  const Op* d = y->operands[j - 1]->def;
  if (!d) return nullptr;
  if (d->kind == OpKind::AddPtr && d->operands[0] == arg) return d->operands[1];
  if (d->kind == OpKind::Binary && d->binop == BinOp::Add)
    return d->operands[0] == arg ? d->operands[1] : d->operands[1] == arg ? d->operands[0] : nullptr;
  return nullptr;
}

bool isZeroConstant(const Value* v) {
  while (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::Broadcast || v->def->kind == OpKind::Convert))
    v = v->def->operands[0];
  if (!v->def || v->def->kind != OpKind::Constant) return false;
  std::uint64_t bits;
  std::memcpy(&bits, &v->def->floatValue, sizeof bits);
  return v->def->intValue == 0 && bits == 0;
}

const Op* scalarConstant(const Value* v) {
  while (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::ExpandDims || v->def->kind == OpKind::Broadcast ||
                    v->def->kind == OpKind::Reshape || v->def->kind == OpKind::Trans))
    v = v->def->operands[0];
  return v->def && v->def->kind == OpKind::Constant && !v->type.isTile() ? v->def : nullptr;
}

std::string computes(const Value* v) {
  const Op* d = v->def;
  if (!d) return "arg";
  switch (d->kind) {
    case OpKind::Binary: return name(d->binop);
    case OpKind::Unary: return name(d->unop);
    case OpKind::Reduce: return name(d->reduce);
    case OpKind::Scan: return std::string("cum") + name(d->reduce);
    case OpKind::Constant: return "c";
    case OpKind::ProgramId: return "pid";
    case OpKind::NumPrograms: return "nprog";
    case OpKind::Arange: return "range";
    case OpKind::Broadcast: return "bcast";
    case OpKind::ExpandDims: return "dims";
    case OpKind::Select: return "sel";
    case OpKind::Convert:
    case OpKind::ConvertLayout: return "cvt";
    case OpKind::AddPtr: return "ptr";
    case OpKind::AtomicAdd: return "old";
    case OpKind::Dot:
    case OpKind::Mma:
    case OpKind::Wgmma: return "dot";
    case OpKind::LocalAlloc: return "smem";
    case OpKind::SharedSlot: return "slot";
    case OpKind::SharedLoad: return "shared";
    default: return name(d->kind);
  }
}

const Value* sharedRoot(const Value* buf) {
  while (buf->def && buf->def->kind == OpKind::SharedSlot) buf = buf->def->operands[0];
  return buf;
}

std::map<const Value*, std::vector<Op*>> collectUsers(Block& b) {
  std::map<const Value*, std::vector<Op*>> users;
  walk(b, [&](Op& o) {
    for (const Value* v : o.operands) users[v].push_back(&o);
  });
  return users;
}

void replaceAllUses(Block& b, const Value* from, Value* to) {
  walk(b, [&](Op& o) {
    for (Value*& v : o.operands)
      if (v == from) v = to;
  });
}

void erase(Op& op) {
  Block& b = *op.parent;
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it)
    if (it->get() == &op) {
      b.ops.erase(it);
      return;
    }
  internalError("erase: the op is not in its block");
}

void moveBefore(Op& op, Op& anchor) {
  Block& from = *op.parent;
  const auto it = std::find_if(from.ops.begin(), from.ops.end(), [&](const auto& o) { return o.get() == &op; });
  if (it == from.ops.end()) internalError("moveBefore: the op is not in its block");
  std::unique_ptr<Op> owned = std::move(*it);
  from.ops.erase(it);
  Block& to = *anchor.parent;
  const auto at = std::find_if(to.ops.begin(), to.ops.end(), [&](const auto& o) { return o.get() == &anchor; });
  owned->parent = &to;
  to.ops.insert(at, std::move(owned));
}

Value* splatScalar(const Value* v) {
  return v->def && v->def->kind == OpKind::Splat && !v->def->operands[0]->type.isTile() ? v->def->operands[0] : nullptr;
}

bool insideLoop(const Op& op) {
  for (const Block* b = op.parent; b && b->parent; b = b->parent->parent)
    if (b->parent->kind == OpKind::For) return true;
  return false;
}

int Kernel::internLayout(const Layout& l) {
  for (std::size_t i = 0; i < layouts.size(); ++i)
    if (layouts[i] == l) return static_cast<int>(i);
  layouts.push_back(l);
  return static_cast<int>(layouts.size()) - 1;
}

}  // namespace tilecc::ir
