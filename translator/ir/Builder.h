// Creates ops at the end of a block, with the current source location.
#pragma once

#include "ir/IR.h"

namespace tilecc::ir {

struct Builder {
  Kernel& kernel;
  Block* block;
  Loc loc;

  Op* create(OpKind kind, std::vector<Value*> operands, std::vector<Type> resultTypes, int sub = 0) {
    auto op = std::make_unique<Op>();
    op->kind = kind;
    op->sub = sub;
    op->operands = std::move(operands);
    op->parent = block;
    op->loc = loc;
    for (auto& t : resultTypes) {
      Value* v = kernel.newValue(t);
      v->def = op.get();
      op->results.push_back(v);
    }
    block->ops.push_back(std::move(op));
    return block->ops.back().get();
  }

  Value* one(OpKind kind, std::vector<Value*> operands, Type t, int sub = 0) {
    return create(kind, std::move(operands), {std::move(t)}, sub)->result();
  }

  Value* intConst(std::int64_t v, ElemType e = ElemType::of(Scalar::I32)) {
    Op* op = create(OpKind::Constant, {}, {Type::scalar(e)});
    op->i = v;
    return op->result();
  }
  Value* floatConst(double v, ElemType e = ElemType::of(Scalar::F32)) {
    Op* op = create(OpKind::Constant, {}, {Type::scalar(e)});
    op->f = v;
    return op->result();
  }

  Block* addRegion(Op* op) {
    op->regions.push_back(std::make_unique<Block>());
    op->regions.back()->parent = op;
    return op->regions.back().get();
  }
  Value* addArg(Block* b, Type t, std::string name = {}) {
    Value* v = kernel.newValue(std::move(t), std::move(name));
    v->owner = b;
    b->args.push_back(v);
    return v;
  }
};

}  // namespace tilecc::ir
