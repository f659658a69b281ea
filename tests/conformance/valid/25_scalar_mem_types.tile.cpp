// Scalar memory forms for every element type; atomic_add old values of half/bfloat16/int64/uint32 used;
// atomic_add with a scalar bool mask.
#include <tilecc/tile.hpp>
using namespace tilecc;

TILECC_KERNEL(num_warps = 1)
void scalar_types(const int8_t* a, const uint8_t* b, const bool* c, const int64_t* d, const uint32_t* e, const half* f,
                  const bfloat16* g, float* out, int8_t* oa, bool* oc, half* of, bfloat16* og) {
  const int8_t va = load(a);
  const uint8_t vb = load(b);
  const bool vc = load(c);
  const int64_t vd = load(d);
  const uint32_t ve = load(e);
  const float vf = static_cast<float>(load(f));
  const float vg = static_cast<float>(load(g));
  store(out, static_cast<float>(va) + static_cast<float>(vb) + (vc ? 1.0f : 0.0f) + static_cast<float>(vd) +
                 static_cast<float>(ve) + vf + vg);
  store(oa, va);
  store(oc, !vc);
  store(of, vf * 2.0f);
  store(og, vg * 2.0f, vc);
}

TILECC_KERNEL(num_warps = 4)
void atomic_old(half* h, bfloat16* b, int64_t* l, uint32_t* u, float* out, bool enable) {
  auto i = arange<128>();
  auto oh = atomic_add(h + i, 1.0f, enable);
  auto ob = atomic_add(b + i, full<bfloat16, 128>(1.0f), i < 100);
  auto ol = atomic_add(l + i % 4, int64_t{1} << 35);
  auto ou = atomic_add(u + i, 1u, enable);
  const int64_t first = atomic_add(l + 4, int64_t{7});
  const float hs = static_cast<float>(atomic_add(h + 128, half(1.0f)));
  store(out + i, cast<float>(oh) + cast<float>(ob) + cast<float>(ol) + cast<float>(ou) + static_cast<float>(first) + hs);
}
