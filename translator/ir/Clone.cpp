#include "ir/Clone.h"

#include "ir/InternalError.h"

namespace tilecc::ir {

void copyAttributes(const Op& from, Op& to) {
  to.kind = from.kind;
  to.loc = from.loc;
  to.axis = from.axis;
  to.binop = from.binop;
  to.unop = from.unop;
  to.reduce = from.reduce;
  to.cmp = from.cmp;
  to.hint = from.hint;
  to.intValue = from.intValue;
  to.floatValue = from.floatValue;
  to.tf32 = from.tf32;
  to.access = from.access;
  to.offset = from.offset;
  to.transposed = from.transposed;
  to.transposedA = from.transposedA;
  to.count = from.count;
  to.sync = from.sync;
  to.barrierId = from.barrierId;
  to.barrierThreads = from.barrierThreads;
  to.instr = from.instr;
  to.firstWarp = from.firstWarp;
  to.numWarps = from.numWarps;
  to.regs = from.regs;
  to.increase = from.increase;
  to.note = from.note;
}

namespace {

Value* mapped(ValueMap& map, const Value* v) {
  auto it = map.find(v);
  return it == map.end() ? const_cast<Value*>(v) : it->second;
}

void cloneBlockInto(Builder& b, const Block& from, Block& to, ValueMap& map) {
  for (const Value* a : from.args) {
    Value* c = b.kernel.newValue(a->type, a->name);
    c->hint = a->hint;
    c->layout = a->layout;
    c->owner = &to;
    to.args.push_back(c);
    map[a] = c;
  }
  Builder inner{b.kernel, &to, b.loc, b.hint, -1};
  for (const auto& op : from.ops) cloneOp(inner, *op, map);
}

}  // namespace

Op* cloneOp(Builder& b, const Op& op, ValueMap& map) {
  std::vector<Value*> operands;
  for (const Value* v : op.operands) operands.push_back(mapped(map, v));
  std::vector<Type> types;
  for (const Value* r : op.results) types.push_back(r->type);
  Op* c = b.create(op.kind, operands, types);
  copyAttributes(op, *c);
  for (std::size_t i = 0; i < op.results.size(); ++i) {
    c->results[i]->name = op.results[i]->name;
    c->results[i]->hint = op.results[i]->hint;
    c->results[i]->layout = op.results[i]->layout;
    map[op.results[i]] = c->results[i];
  }
  for (const auto& r : op.regions) cloneBlockInto(b, *r, *b.addRegion(c), map);
  return c;
}

std::unique_ptr<Kernel> clone(const Kernel& k) {
  auto c = std::make_unique<Kernel>();
  c->name = k.name;
  c->sourceName = k.sourceName;
  c->loc = k.loc;
  c->numWarps = k.numWarps;
  c->numStages = k.numStages;
  c->stagesAsked = k.stagesAsked;
  c->stagedStores = k.stagedStores;
  c->stageStores = k.stageStores;
  c->warpSpecialize = k.warpSpecialize;
  c->minPrograms = k.minPrograms;
  c->tune = k.tune;
  c->producerWarps = k.producerWarps;
  c->persistent = k.persistent;
  c->level = k.level;
  c->target = k.target;
  c->assumed = k.assumed;
  c->gridChecks = k.gridChecks;
  c->specialised = k.specialised;
  c->paramInfo = k.paramInfo;
  c->tensorMaps = k.tensorMaps;
  c->layouts = k.layouts;
  c->sharedBytes = k.sharedBytes;
  // Values keep their ids (names and output stay identical); ops are rebuilt over them.
  ValueMap map;
  for (const auto& v : k.values) {
    Value* n = c->newValue(v->type, v->name);
    n->hint = v->hint;
    n->layout = v->layout;
    map[v.get()] = n;
  }
  for (const Value* p : k.params) c->params.push_back(map.at(p));
  struct Rebuild {
    Kernel& k;
    ValueMap& map;
    void block(const Block& from, Block& to) {
      for (const Value* a : from.args) {
        Value* n = map.at(a);
        n->owner = &to;
        to.args.push_back(n);
      }
      for (const auto& op : from.ops) {
        auto o = std::make_unique<Op>();
        copyAttributes(*op, *o);
        o->parent = &to;
        for (const Value* v : op->operands) o->operands.push_back(map.at(v));
        for (const Value* r : op->results) {
          Value* n = map.at(r);
          n->def = o.get();
          o->results.push_back(n);
        }
        for (const auto& r : op->regions) {
          o->regions.push_back(std::make_unique<Block>());
          o->regions.back()->parent = o.get();
          block(*r, *o->regions.back());
        }
        to.ops.push_back(std::move(o));
      }
    }
  };
  Rebuild{*c, map}.block(*k.body, *c->body);
  return c;
}

}  // namespace tilecc::ir
