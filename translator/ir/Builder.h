// Creates ops in a block (at its end, or before a given op), with the current source
// location and naming hint.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

struct Builder {
  Kernel& kernel;
  Block* block;
  Loc loc;
  /// Results without a source name take this hint (the statement they come from).
  std::string hint;
  /// Insertion point: ops go before this position of `block` (-1: at the end).
  long at = -1;

  Op* create(OpKind kind, std::vector<Value*> operands, std::vector<Type> resultTypes) {
    auto op = std::make_unique<Op>();
    op->kind = kind;
    op->operands = std::move(operands);
    op->parent = block;
    op->loc = loc;
    for (auto& t : resultTypes) {
      Value* v = kernel.newValue(t);
      v->def = op.get();
      v->hint = hint;
      op->results.push_back(v);
    }
    Op* raw = op.get();
    if (at < 0) {
      block->ops.push_back(std::move(op));
    } else {
      block->ops.insert(block->ops.begin() + at, std::move(op));
      ++at;
    }
    return raw;
  }

  Value* one(OpKind kind, std::vector<Value*> operands, Type t) { return create(kind, std::move(operands), {std::move(t)})->result(); }

  Value* binary(BinOp op, Value* a, Value* b, ElemType resultElem) {
    Op* o = create(OpKind::Binary, {a, b}, {a->type.withElem(resultElem)});
    o->binop = op;
    return o->result();
  }
  Value* unary(UnOp op, Value* a) {
    Op* o = create(OpKind::Unary, {a}, {a->type});
    o->unop = op;
    return o->result();
  }

  Value* intConst(std::int64_t v, ElemType e = ElemType::of(Scalar::I32)) {
    Op* op = create(OpKind::Constant, {}, {Type::scalar(e)});
    op->intValue = v;
    return op->result();
  }
  Value* floatConst(double v, ElemType e = ElemType::of(Scalar::F32)) {
    Op* op = create(OpKind::Constant, {}, {Type::scalar(e)});
    op->floatValue = v;
    return op->result();
  }

  /// The translator's own check that scalar `v` is >= 0 in every program: an assert with count
  /// 1 (a trap where it fails; the report lists it), at `where`, saying `note`.
  Op* checkNonNegative(Value* v, const Loc& where, std::string note) {
    Op* a = create(OpKind::Assert, {binary(BinOp::Ge, v, intConst(0, v->type.elem), ElemType::of(Scalar::Bool))}, {});
    a->count = 1;
    a->loc = where;
    a->note = std::move(note);
    return a;
  }

  Block* addRegion(Op* op) {
    op->regions.push_back(std::make_unique<Block>());
    op->regions.back()->parent = op;
    return op->regions.back().get();
  }
  Value* addArg(Block* b, Type t, std::string name = {}) {
    Value* v = kernel.newValue(std::move(t), std::move(name));
    v->owner = b;
    v->hint = hint;
    b->args.push_back(v);
    return v;
  }

  /// Inserts before `op` (in op's block) from now on.
  void setInsertionBefore(const Op& op) {
    block = op.parent;
    at = indexOf(*op.parent, &op);
    loc = op.loc;
  }
  void setInsertionAfter(const Op& op) {
    block = op.parent;
    at = indexOf(*op.parent, &op) + 1;
    loc = op.loc;
  }
  void setInsertionAtEnd(Block* b) {
    block = b;
    at = -1;
  }

  static long indexOf(const Block& b, const Op* op) {
    for (std::size_t i = 0; i < b.ops.size(); ++i)
      if (b.ops[i].get() == op) return static_cast<long>(i);
    return static_cast<long>(b.ops.size());
  }
};

}  // namespace tilecc::ir
