#include "ir/Verifier.h"

#include "ir/InternalError.h"
#include "ir/OpTraits.h"

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
    for (const Value* a : b.args) {
      defined.insert(a);
      laidOut(a, nullptr);
    }
    for (std::size_t i = 0; i < b.ops.size(); ++i) {
      const Op& o = *b.ops[i];
      if (traits(o.kind).terminator && i + 1 != b.ops.size()) fail(o, "a terminator must end its block");
      op(o);
      for (const Value* r : o.results) {
        defined.insert(r);
        laidOut(r, &o);
      }
    }
  }

  // At the GPU level every tile lives in registers under a layout.
  void laidOut(const Value* v, const Op* o) {
    if (k.level != Level::Gpu || !v->type.isTile()) return;
    if (v->layout < 0 || v->layout >= static_cast<int>(k.layouts.size())) {
      if (o) fail(*o, "a tile result without a layout at the GPU level");
      internalError("verifier: kernel " + k.name + ": a block argument without a layout at the GPU level");
    }
  }

  void sameShape(const Op& o) {
    for (const Value* v : o.operands)
      if (v->type.isTile() && v->type.shape != o.result()->type.shape) fail(o, "operand shapes must equal the result's");
  }

  void shared(const Op& o, std::size_t i, const char* what) {
    if (o.operands.size() <= i || !o.operands[i]->type.isShared()) fail(o, std::string(what) + " must be a shared-memory buffer");
  }

  void op(const Op& o) {
    const OpTraits& t = traits(o.kind);
    if (k.level == Level::Tile && t.level == OpLevel::GpuOnly) fail(o, "a GPU-level op in Tile IR");
    if (k.level == Level::Gpu && t.level == OpLevel::TileOnly) fail(o, "a Tile-level op left at the GPU level");
    for (const Value* v : o.operands) {
      if (!v) fail(o, "null operand");
      if (!defined.count(v)) fail(o, "operand used before its definition");
    }
    switch (o.kind) {
      case OpKind::Binary:
        if (o.operands.size() != 2) fail(o, "two operands");
        if (o.operands[0]->type.elem != o.operands[1]->type.elem && o.binop != BinOp::Shl && o.binop != BinOp::Shr)
          fail(o, "operands of one element type");
        sameShape(o);
        if (isComparison(o.binop) && !o.result()->type.elem.isBool()) fail(o, "comparisons give bool");
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
      case OpKind::Assert:
        if (o.operands.size() != 1 || !o.operands[0]->type.isScalar() || !o.operands[0]->type.elem.isBool())
          fail(o, "assert takes one scalar i1");
        break;
      case OpKind::Scan:
        if (o.result()->type != o.operands[0]->type) fail(o, "a scan keeps its operand's type");
        [[fallthrough]];
      case OpKind::Reduce:
        if (o.operands.empty() || !o.operands[0]->type.isTile()) fail(o, "reduce takes a tile");
        if (o.reduce == ReduceKind::Custom) {
          if (o.regions.size() != 1 || o.regions[0]->args.size() != 2) fail(o, "a custom combine is a region of two operands");
          const Op* y = yieldOf(*o.regions[0]);
          const Type scalar = Type::scalar(o.operands[0]->type.elem);
          if (!y || y->operands.size() != 1 || y->operands[0]->type != scalar) fail(o, "the combine yields one element");
          for (const Value* a : o.regions[0]->args)
            if (a->type != scalar) fail(o, "the combine takes two elements");
          // Isolated and pure: it prints as a capture-less function of its two operands.
          std::set<const Value*> own(o.regions[0]->args.begin(), o.regions[0]->args.end());
          walk(*o.regions[0], [&](const Op& in) {
            if (!traits(in.kind).pure && in.kind != OpKind::Yield && in.kind != OpKind::If && in.kind != OpKind::For)
              fail(in, "a combine has no side effects");
            for (const Value* v : in.operands)
              if (!own.count(v)) fail(in, "a combine uses only its operands and its own values");
            for (const Value* v : in.results) {
              if (v->type.isTile()) fail(in, "a combine works on elements, not tiles");
              own.insert(v);
            }
          });
        } else if (!o.regions.empty()) {
          fail(o, "only a custom combine has a region");
        }
        if (o.operands.size() == 2) shared(o, 1, "the scratch operand");
        if (o.operands.size() > 2 || (o.operands.size() == 2 && k.level != Level::Gpu)) fail(o, "(tile [, scratch])");
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
      case OpKind::WarpGroup:
        if (o.regions.empty() || o.regions.size() > 2) fail(o, "its warps' region, and perhaps the other warps'");
        if (o.numWarps < 1 || o.firstWarp < 0) fail(o, "a range of warps");
        break;
      case OpKind::If:
        if (o.regions.size() != 2) fail(o, "then and else regions");
        for (auto& r : o.regions) yields(o, *r);
        break;
      // ---- GPU level ----
      case OpKind::LocalAlloc:
        if (!o.operands.empty() || o.results.size() != 1 ||
            !(o.result()->type.isShared() || o.result()->type.kind == TypeKind::MBarrier))
          fail(o, "() -> a buffer or mbarriers");
        if (o.result()->type.isShared() && o.result()->type.smem.pitch <= 0) fail(o, "a buffer needs its row pitch");
        break;
      case OpKind::SharedSlot: {
        shared(o, 0, "the ring");
        if (o.operands.size() != 2 || !o.operands[1]->type.isScalar() || !o.operands[1]->type.elem.isInt())
          fail(o, "(ring, integer index)");
        const Type& ring = o.operands[0]->type;
        const Type& slot = o.result()->type;
        if (!slot.isShared() || slot.stages != 1 || slot.shape != ring.shape || slot.elem != ring.elem || !(slot.smem == ring.smem))
          fail(o, "a slot is one stage of the ring's type");
        break;
      }
      case OpKind::SharedStore: {
        shared(o, 1, "the destination");
        const Type& v = o.operands[0]->type;
        const Type& buf = o.operands[1]->type;
        if (v.elem != buf.elem || buf.stages != 1) fail(o, "a value of the buffer's element type into one stage");
        if (v.isTile()) {
          std::vector<int> s = v.shape;
          if (o.transposed) {
            if (s.size() != 2) fail(o, "transposed stores take rank-2 tiles");
            std::swap(s[0], s[1]);
          }
          if (s != buf.shape && v.numel() != buf.numel()) fail(o, "the tile's shape is the buffer's");
        }
        break;
      }
      case OpKind::SharedLoad: {
        shared(o, 0, "the source");
        const Type& buf = o.operands[0]->type;
        const Type& r = o.result()->type;
        if (r.elem != buf.elem || buf.stages != 1) fail(o, "reads the buffer's element type from one stage");
        if (r.isTile() && r.shape != buf.shape && (r.numel() != buf.numel() || buf.smem.pitch != buf.shape.back() * buf.elem.bytes()))
          fail(o, "another shape only from an unpadded buffer of as many elements");
        break;
      }
      case OpKind::AsyncCopy: {
        if (o.operands.size() != 4) fail(o, "(pointers, buffer, mask, predicate)");
        shared(o, 1, "the destination");
        const Type& p = o.operands[0]->type;
        if (!p.isTile() || !p.elem.isPtr() || p.elem.pointeeType() != o.operands[1]->type.elem) fail(o, "pointers to the buffer's elements");
        std::vector<int> s = p.shape;
        if (o.transposed) {
          if (s.size() != 2) fail(o, "transposed copies take rank-2 tiles");
          else std::swap(s[0], s[1]);
        }
        if (s != o.operands[1]->type.shape || o.operands[2]->type.shape != p.shape || !o.operands[2]->type.elem.isBool())
          fail(o, "pointers and mask of the buffer's shape (transposed: [cols][rows])");
        if (!o.operands[3]->type.isScalar() || !o.operands[3]->type.elem.isBool()) fail(o, "a scalar predicate");
        break;
      }
      case OpKind::AsyncWait:
        for (std::size_t i = 0; i < o.operands.size(); ++i) shared(o, i, "what the copies write");
        break;
      case OpKind::Mma:
      case OpKind::Wgmma: {
        if (o.operands.size() != 3) fail(o, "(a, b, acc)");
        shared(o, 1, "b");
        if (o.kind == OpKind::Mma) shared(o, 0, "a");
        if (o.result()->type != o.operands[2]->type) fail(o, "the result has the accumulator's type");
        std::vector<int> a = o.operands[0]->type.shape;
        std::vector<int> b = o.operands[1]->type.shape;
        if (o.transposedA && (a.size() != 2 || !o.operands[0]->type.isShared())) fail(o, "a transposed A lies in shared memory as [K][M]");
        if (o.transposedA) std::swap(a[0], a[1]);
        if (o.transposed) std::swap(b[0], b[1]);
        const auto& c = o.result()->type.shape;
        if (a.size() != 2 || b.size() != 2 || a[0] != c[0] || b[1] != c[1] || a[1] != b[0]) fail(o, "[M,K] x [K,N] -> [M,N]");
        break;
      }
      case OpKind::WgmmaWait:
        if (o.operands.size() != o.results.size()) fail(o, "one result per accumulator");
        break;
      case OpKind::MBarrierInit:
      case OpKind::MBarrierExpectTx:
      case OpKind::MBarrierArrive:
      case OpKind::MBarrierWait:
        if (o.operands.empty() || o.operands[0]->type.kind != TypeKind::MBarrier) fail(o, "takes mbarriers");
        break;
      case OpKind::TmaLoad:
      case OpKind::TmaStore:
        if (o.operands.size() < 3 || o.operands[0]->type.kind != TypeKind::TensorDesc) fail(o, "takes a tensor descriptor");
        shared(o, 1, "the box in shared memory");
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
