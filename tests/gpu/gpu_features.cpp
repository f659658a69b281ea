// The feature kernels (kernels/feature_kernels.tile.cpp) on the GPU against the host twin.
#include "kernels/feature_kernels.tile.cpp"
#include "feature_kernels.h"

#include "gpu_check.hpp"

#include <cstdint>
#include <cstring>

template <class T>
std::vector<T> ints(sample::rng& r, std::size_t n, int lo, int hi) {
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(r.range(lo, hi));
  return v;
}

int main() {
  gpu::require_gpu();
  sample::report rep("features (GPU vs host twin)");
  sample::rng r;
  {  // int_ops
    auto a = ints<int>(r, 256, -1000000, 1000000), b = ints<int>(r, 256, -3, 40);
    a[0] = std::numeric_limits<int>::min();
    b[0] = -1;
    auto c = ints<int8_t>(r, 256, -128, 127);
    auto d = ints<int64_t>(r, 256, -2000000000, 2000000000);
    std::vector<int> out(1024, -7);
    std::vector<int8_t> out8(256, 0);
    std::vector<int64_t> out64(256, 0);
    auto t_out = out;
    auto t_out8 = out8;
    auto t_out64 = out64;
    host::launch(1, int_ops, a.data(), b.data(), t_out.data(), c.data(), t_out8.data(), d.data(), t_out64.data());
    gpu::buffer<int> da(a), db(b), dout(out);
    gpu::buffer<int8_t> dc(c), dout8(out8);
    gpu::buffer<int64_t> dd(d), dout64(out64);
    GPU_CHECK(launch_int_ops(dim3(1), nullptr, da.p, db.p, dout.p, dc.p, dout8.p, dd.p, dout64.p));
    gpu::sync();
    rep.expect("int_ops: int32 / % << >> & | ^ ~ abs", dout.get() == t_out);
    rep.expect("int_ops: int8 wrapping", dout8.get() == t_out8);
    rep.expect("int_ops: int64", dout64.get() == t_out64);
  }
  {  // float_ops
    auto x = sample::random_vector<float>(r, 512, 3.0f);
    x[0] = NAN;
    x[1] = 1e10f;
    x[2] = -1e10f;
    auto h = sample::random_vector<tilecc::half>(r, 512, 2.0f);
    std::vector<float> out(2048, 0);
    std::vector<tilecc::half> hout(512, tilecc::half(0.0f));
    std::vector<int> iout(512, 0);
    std::vector<tilecc::bfloat16> bout(512, tilecc::bfloat16(0.0f));
    std::vector<uint8_t> u8(512, 0);
    auto t_out = out;
    auto t_hout = hout;
    auto t_iout = iout;
    auto t_bout = bout;
    auto t_u8 = u8;
    host::launch(1, float_ops, x.data(), h.data(), t_out.data(), t_hout.data(), t_iout.data(), t_bout.data(), t_u8.data());
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<tilecc::half> dh(h), dhout(hout);
    gpu::buffer<int> diout(iout);
    gpu::buffer<tilecc::bfloat16> dbout(bout);
    gpu::buffer<uint8_t> du8(u8);
    GPU_CHECK(launch_float_ops(dim3(1), nullptr, dx.p, dh.as<const __half>(), dout.p, dhout.as<__half>(), diout.p,
                               dbout.as<__nv_bfloat16>(), du8.p));
    gpu::sync();
    auto g = dout.get();
    // NaN propagates identically (element 0): compare the rest with a tolerance for libm ulps.
    bool nanSame = true;
    for (std::size_t i = 0; i < g.size(); ++i) nanSame &= std::isnan(g[i]) == std::isnan(t_out[i]);
    rep.expect("float_ops: NaN in the same places", nanSame);
    for (auto* v : {&g, &t_out})
      for (auto& e : *v)
        if (std::isnan(e)) e = 0;
    rep.compare_outputs("float_ops: math functions", g, t_out, 1e-5);
    auto gh = dhout.get();
    bool hsame = true;
    for (std::size_t i = 0; i < gh.size(); ++i) hsame &= gh[i].bits == t_hout[i].bits;
    rep.expect("float_ops: half arithmetic bit-exact", hsame);
    rep.expect("float_ops: float->int saturates, NaN->0", diout.get() == t_iout);
    rep.expect("float_ops: float->uint8 saturates", du8.get() == t_u8);
    auto gb = dbout.get();
    bool bsame = true;
    for (std::size_t i = 0; i < gb.size(); ++i) bsame &= gb[i].bits == t_bout[i].bits;
    rep.expect("float_ops: bfloat16 rounding bit-exact", bsame);
  }
  {  // reductions
    auto x = sample::random_vector<float>(r, 2048);
    auto h = sample::random_vector<tilecc::half>(r, 2048);
    auto c = ints<int8_t>(r, 2048, -3, 3);
    std::vector<float> out(520, NAN);
    std::vector<int> iout(170, -5);
    auto t_out = out;
    auto t_iout = iout;
    host::launch(1, reductions, x.data(), h.data(), c.data(), t_out.data(), t_iout.data());
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<tilecc::half> dh(h);
    gpu::buffer<int8_t> dc(c);
    gpu::buffer<int> diout(iout);
    GPU_CHECK(launch_reductions(dim3(1), nullptr, dx.p, dh.as<const __half>(), dc.p, dout.p, diout.p));
    gpu::sync();
    rep.compare_outputs("reductions: sum/max/min along each axis, rank 3", dout.get(), t_out, 1e-5);
    rep.expect("reductions: argmax/argmin (first index on ties), int8 sums", diout.get() == t_iout);
  }
  {  // shapes
    auto x = sample::random_vector<float>(r, 2048);
    std::vector<float> out(4352 + 2048 + 1, NAN);
    auto t_out = out;
    host::launch(1, shapes, x.data(), t_out.data());
    gpu::buffer<float> dx(x), dout(out);
    GPU_CHECK(launch_shapes(dim3(1), nullptr, dx.p, dout.p));
    gpu::sync();
    rep.compare_outputs("shapes: trans 32x64, reshape, broadcast_to, rank-3 expand/sum", dout.get(), t_out, 0.0);
  }
  {  // control
    const int rows = 37;
    auto x = sample::random_vector<float>(r, rows * 1024 + 1);
    auto lens = ints<int>(r, rows, 0, 1024);
    lens[3] = 0;
    lens[5] = 1024;
    std::vector<float> out(rows + 1, NAN);
    auto t_out = out;
    host::launch(rows, control, x.data(), lens.data(), t_out.data(), rows, 5);
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<int> dl(lens);
    GPU_CHECK(launch_control(dim3(rows), nullptr, dx.p, dl.p, dout.p, rows, 5));
    gpu::sync();
    rep.compare_outputs("control: loops, if/else, early return, &&, ?:, helpers", dout.get(), t_out, 1e-5);
  }
  {  // memory
    const int rows = 70 + r.range(0, 40), cols = 100 + r.range(0, 100), programs = (rows + 31) / 32;
    auto a = sample::random_vector<float>(r, static_cast<std::size_t>(std::max(rows * cols, programs * 128)));
    std::vector<float> b(rows * cols + 5, NAN);
    std::vector<int> hist(16, 0), counter(1, 0), olds(100000 + programs + 1, 0);
    std::vector<float> fsum(4, 0.0f);
    auto t_b = b;
    auto t_hist = hist;
    auto t_counter = counter;
    auto t_olds = olds;
    auto t_fsum = fsum;
    host::launch(programs, memory, a.data(), t_b.data(), rows, cols, t_hist.data(), t_counter.data(), t_fsum.data(), t_olds.data());
    gpu::buffer<float> da(a), db(b), dfsum(fsum);
    gpu::buffer<int> dhist(hist), dcounter(counter), dolds(olds);
    GPU_CHECK(launch_memory(dim3(programs), nullptr, da.p, db.p, rows, cols, dhist.p, dcounter.p, dfsum.p, dolds.p));
    gpu::sync();
    rep.compare_outputs("memory: block pointers with ragged edges", db.get(), t_b, 0.0);
    rep.expect("memory: atomic_add histogram", dhist.get() == t_hist);
    rep.expect("memory: scalar atomic_add", dcounter.get() == t_counter);
    rep.expect("memory: atomic old values reach every copy", dolds.get() == t_olds);
    rep.compare_outputs("memory: masked float atomics", dfsum.get(), t_fsum, 1e-5);
  }
  {  // masked_loop: versioned selects, at sizes where the masks hold in all, some or no blocks
    const int sizes[][3] = {{37, 100, 0}, {64, 256, 0}, {5, 31, 0}, {40, 33, 3}, {48, 200, 2147483647 - 100}, {16, 70, -2147483647},
                            {40, 90, 2147483647 - 10}, {33, 65, -2147483647 - 1}};
    for (const auto& s : sizes) {
      const int rows = s[0], cols = s[1], shift = s[2], programs = (rows + 15) / 16;
      auto x = sample::random_vector<float>(r, static_cast<std::size_t>(rows * cols));
      std::vector<float> out(programs * 16 + 3, NAN);
      auto t_out = out;
      host::launch(programs, masked_loop, x.data(), t_out.data(), rows, cols, shift);
      gpu::buffer<float> dx(x), dout(out);
      GPU_CHECK(launch_masked_loop(dim3(programs), nullptr, dx.p, dout.p, rows, cols, shift));
      gpu::sync();
      rep.compare_outputs("masked_loop " + std::to_string(rows) + "x" + std::to_string(cols) + " shift " + std::to_string(shift) +
                          ": selects skipped where the mask holds", dout.get(), t_out, 1e-5);
    }
  }
  {  // masked_identity: the distributed selects (f16 and f32; +, -, *) where the mask holds, fails or mixes
    const int sizes[][3] = {{37, 100, 0}, {64, 256, 40}, {5, 31, -1000}, {40, 33, 1000}, {48, 200, 2147483647 - 100},
                            {33, 65, -2147483647 - 1}};
    for (const auto& s : sizes) {
      const int rows = s[0], cols = s[1], start = s[2], programs = (rows + 15) / 16;
      auto xf = sample::random_vector<float>(r, static_cast<std::size_t>(rows * cols));
      auto xh = sample::random_vector<tilecc::half>(r, xf.size(), 2.0f);
      std::vector<float> out(programs * 16 + 3, NAN);
      auto t_out = out;
      host::launch(programs, masked_identity, xh.data(), xf.data(), t_out.data(), rows, cols, start);
      gpu::buffer<tilecc::half> dxh(xh);
      gpu::buffer<float> dxf(xf), dout(out);
      GPU_CHECK(launch_masked_identity(dim3(programs), nullptr, dxh.as<const __half>(), dxf.p, dout.p, rows, cols, start));
      gpu::sync();
      rep.compare_outputs("masked_identity " + std::to_string(rows) + "x" + std::to_string(cols) + " start " +
                              std::to_string(start) + ": x + where(m, 0, c) and x * where(m, 1, c), f16 and f32",
                          dout.get(), t_out, 1e-5);
    }
  }
  {  // reduce_broadcast
    auto in = ints<int>(r, 16, -1000, 1000);
    std::vector<int64_t> out(128, -1);
    std::vector<float> fout(64, NAN);
    auto t_out = out;
    auto t_fout = fout;
    host::launch(1, reduce_broadcast, in.data(), t_out.data(), t_fout.data());
    gpu::buffer<int> din(in);
    gpu::buffer<int64_t> dout(out);
    gpu::buffer<float> dfout(fout);
    GPU_CHECK(launch_reduce_broadcast(dim3(1), nullptr, din.p, dout.p, dfout.p));
    gpu::sync();
    rep.expect("reduce_broadcast: sum over a broadcast axis (int64)", dout.get() == t_out);
    rep.compare_outputs("reduce_broadcast: max and sum along a broadcast axis", dfout.get(), t_fout, 1e-6);
  }
  {  // reduce_rank3
    auto in = ints<int8_t>(r, 8 * 1024, -100, 100);
    std::vector<int> out(1024, -1), idx(1024, -1);
    auto t_out = out;
    auto t_idx = idx;
    host::launch(1, reduce_rank3, in.data(), t_out.data(), t_idx.data());
    gpu::buffer<int8_t> din(in);
    gpu::buffer<int> dout(out), didx(idx);
    GPU_CHECK(launch_reduce_rank3(dim3(1), nullptr, din.p, dout.p, didx.p));
    gpu::sync();
    rep.expect("reduce_rank3: sum along axis 0 of 8x16x64 int8, across warps", dout.get() == t_out);
    rep.expect("reduce_rank3: argmax along axis 0 of 8x16x64 int8, across warps", didx.get() == t_idx);
  }
  {  // abs_gate: |MIN| = MIN, so `abs(x) >= 0` is false there, on the GPU as in the host twin
    std::vector<int> a(256);
    std::vector<int64_t> b(256);
    for (int k = 0; k < 256; ++k) {
      a[k] = k % 5 == 0 ? INT32_MIN : static_cast<int>(r.range(-1000000, 1000000));
      b[k] = k % 7 == 0 ? INT64_MIN : r.range(-1000000000, 1000000000);
    }
    std::vector<int> hits(8, 0), flags(256, -1);
    auto t_hits = hits;
    auto t_flags = flags;
    host::launch(1, abs_gate, a.data(), b.data(), t_hits.data(), t_flags.data());
    gpu::buffer<int> da(a), dhits(hits), dflags(flags);
    gpu::buffer<int64_t> db(b);
    GPU_CHECK(launch_abs_gate(dim3(1), nullptr, da.p, db.p, dhits.p, dflags.p));
    gpu::sync();
    rep.expect("abs_gate: atomics masked by abs(x) >= 0 skip MIN", dhits.get() == t_hits);
    rep.expect("abs_gate: abs(MIN) < 0", dflags.get() == t_flags);
    rep.expect("abs_gate: the twin counts 256 - 52 and 256 - 37 hits", t_hits[0] + t_hits[1] + t_hits[2] + t_hits[3] == 256 - 52 &&
                                                                            t_hits[4] + t_hits[5] + t_hits[6] + t_hits[7] == 256 - 37);
  }
  {  // wrapping: signed int32/int64 tiles near their limits wrap as in the host twin
    std::vector<int> a(256);
    std::vector<int64_t> b(256);
    for (int k = 0; k < 256; ++k) {
      const int64_t near = r.range(0, 300);
      a[k] = k % 4 == 0 ? static_cast<int>(INT32_MAX - near) : k % 4 == 1 ? static_cast<int>(INT32_MIN + near) : static_cast<int>(r.range(-1000000, 1000000));
      b[k] = k % 4 == 0 ? INT64_MAX - near : k % 4 == 1 ? INT64_MIN + near : r.range(-1000000000, 1000000000);
    }
    std::vector<int> out(512, -1);
    std::vector<int64_t> out64(768, -1);
    auto t_out = out;
    auto t_out64 = out64;
    host::launch(1, wrapping, a.data(), b.data(), t_out.data(), t_out64.data());
    gpu::buffer<int> da(a), dout(out);
    gpu::buffer<int64_t> db(b), dout64(out64);
    GPU_CHECK(launch_wrapping(dim3(1), nullptr, da.p, db.p, dout.p, dout64.p));
    gpu::sync();
    rep.expect("wrapping: int32 + - * abs neg sum cumsum near INT32_MIN/MAX", dout.get() == t_out);
    rep.expect("wrapping: int64 + - * abs neg fma max min near INT64_MIN/MAX", dout64.get() == t_out64);
  }
  // online_stats: a helper's reference parameters carried by the loop (one block, ragged, many).
  for (const int n : {32, 77, 300}) {
    const int rows = 100;
    auto x = sample::random_vector<float>(r, std::size_t(rows) * n);
    std::vector<float> m(rows + 3, NAN), l(rows + 3, NAN);
    auto t_m = m, t_l = l;
    host::launch(2, online_stats, x.data(), t_m.data(), t_l.data(), rows, n);
    gpu::buffer<float> dx(x), dm(m), dl(l);
    GPU_CHECK(launch_online_stats(dim3(2), nullptr, dx.p, dm.p, dl.p, rows, n));
    gpu::sync();
    rep.compare_outputs("reference parameters: running max, n = " + std::to_string(n), dm.get(), t_m, 1e-6);
    rep.compare_outputs("reference parameters: running sum, n = " + std::to_string(n), dl.get(), t_l, 1e-5);
  }
  // half_atomics: 8 programs add small integers into 256 sums, pairs at once where n is even.
  for (const int n : {256, 200, 201}) {
    auto run = [&](auto zero, auto launch, auto kernel, const char* what, auto cast) {
      using T = decltype(zero);
      std::vector<T> x(8 * 256), sum(256, T(0.0f));
      for (auto& e : x) e = T(float(r.range(0, 8) - 4));
      auto twin = sum;
      host::launch(8, kernel, x.data(), twin.data(), n);
      gpu::buffer<T> dx(x), dsum(sum);
      GPU_CHECK(launch(dim3(8), nullptr, dx.template as<const decltype(cast)>(), dsum.template as<decltype(cast)>(), n));
      gpu::sync();
      rep.compare_outputs(std::string("atomics on ") + what + " pairs, n = " + std::to_string(n), dsum.get(), twin, 0.0);
    };
    run(tilecc::half(0.0f), launch_half_atomics_half, half_atomics<tilecc::half>, "f16", __half());
    run(tilecc::bfloat16(0.0f), launch_half_atomics_bfloat16, half_atomics<tilecc::bfloat16>, "bf16", __nv_bfloat16());
  }
  {  // subnormal_atomics: every pair of {0, -0, ±subnormal, ±FLT_MIN, 1, a sum that lands subnormal}
    const float kinds[8] = {0.0f, -0.0f, 1e-40f, -3e-39f, 1.17549435e-38f, -1.17549435e-38f, 1.0f, -1.5e-38f};
    std::vector<float> x(130), acc(130), old(130, NAN);
    for (int i = 0; i < 128; ++i) {
      x[i] = kinds[i % 8];
      acc[i] = kinds[(i / 8) % 8] * (i < 64 ? 1.0f : 2.0f);
    }
    x[128] = 1e-40f, acc[128] = 2e-38f, x[129] = -1.5e-38f, acc[129] = 2e-38f;
    auto t_acc = acc, t_old = old;
    host::launch(2, subnormal_atomics, x.data(), t_acc.data(), t_old.data());
    gpu::buffer<float> dx(x), dacc(acc), dold(old);
    GPU_CHECK(launch_subnormal_atomics(dim3(2), nullptr, dx.p, dacc.p, dold.p));
    gpu::sync();
    auto bits = [](const std::vector<float>& v) {
      std::vector<std::uint32_t> b(v.size());
      std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
      return b;
    };
    rep.expect("float atomics flush subnormals as the GPU does (sums, bit for bit)", bits(dacc.get()) == bits(t_acc));
    rep.expect("float atomics return the old values unflushed (bit for bit)", bits(dold.get()) == bits(t_old));
  }
  {  // cmath_scalars: <cmath>'s float functions, braced run-time values
    const int programs = 37;
    std::vector<float> p(2 * programs);
    for (int i = 0; i < programs; ++i) {
      p[2 * i] = r.normal(3.0f);
      p[2 * i + 1] = 1.9f * std::tanh(r.normal());
    }
    p[0] = NAN;  // the classification tests see a NaN and an infinity
    p[3] = INFINITY;
    std::vector<float> out(programs * 32 + 3, NAN);
    auto t_out = out;
    host::launch(programs, cmath_scalars, p.data(), t_out.data());
    gpu::buffer<float> dp(p), dout(out);
    GPU_CHECK(launch_cmath_scalars(dim3(programs), nullptr, dp.p, dout.p));
    gpu::sync();
    rep.compare_outputs("<cmath> scalar functions, braced values", dout.get(), t_out, 1e-5);
  }
  {  // pointer_tiles: tiles of pointers read back from shared memory
    const int rows = 5, cols = 100 + r.range(0, 60);
    auto x = sample::random_vector<float>(r, 1024);
    std::vector<float> y(1024 + 3, NAN), z(1024 + 3, 0.0f), t(64 * 32 + 3, NAN);
    std::vector<tilecc::half> h(4096);
    for (auto& e : h) e = tilecc::half(float(r.range(-8, 8)) * 0.25f);
    auto xi = ints<int>(r, std::size_t(rows) * cols, -1000, 1000);
    std::vector<int> sums(2, -1);
    auto t_y = y, t_z = z, t_t = t;
    auto t_sums = sums;
    host::launch(1, pointer_tiles, x.data(), t_y.data(), t_z.data(), h.data(), t_t.data(), xi.data(), rows, cols, t_sums.data());
    gpu::buffer<float> dx(x), dy(y), dz(z), dt(t);
    gpu::buffer<tilecc::half> dh(h);
    gpu::buffer<int> dxi(xi), dsums(sums);
    GPU_CHECK(launch_pointer_tiles(dim3(1), nullptr, dx.p, dy.p, dz.p, dh.as<const __half>(), dt.p, dxi.p, rows, cols, dsums.p));
    gpu::sync();
    rep.compare_outputs("pointer tiles: a reshaped const pointer tile", dy.get(), t_y, 0.0);
    rep.compare_outputs("pointer tiles: a reshaped pointer tile stored through", dz.get(), t_z, 0.0);
    rep.compare_outputs("pointer tiles: carried, loaded transposed", dt.get(), t_t, 0.0);
    rep.expect("pointer tiles: carried by nested loops", dsums.get() == t_sums);
  }
  {  // helper_loop_return: a helper returning from inside its loop, per row
    const int rows = 37, n = 300 + r.range(0, 200);
    auto x = sample::random_vector<float>(r, std::size_t(rows) * n);
    for (int i = 0; i < rows; ++i)  // row i's first value above 10 in block i % 7 (some rows: none)
      if (i % 7 != 6) x[std::size_t(i) * n + std::min(n - 1, (i % 7) * 64 + r.range(0, 63))] = 20.0f;
    std::vector<int> out(rows + 2, -7), t_out = out;
    host::launch(rows, helper_loop_return, x.data(), t_out.data(), n, 10.0f);
    gpu::buffer<float> dx(x);
    gpu::buffer<int> dout(out);
    GPU_CHECK(launch_helper_loop_return(dim3(rows), nullptr, dx.p, dout.p, n, 10.0f));
    gpu::sync();
    rep.expect("a helper's return inside its loop", dout.get() == t_out);
  }
  return rep.finish();
}
