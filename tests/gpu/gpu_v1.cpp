// The contract-v1 kernels (kernels/v1_kernels.tile.cpp) on the GPU against the host twin: scans
// and combine functions along both axes, round and pow, with_layout, options from template
// parameters. Sums may differ in the last bits (the GPU reassociates); selections, integer
// combines and half results must be exact.
#include "kernels/v1_kernels.tile.cpp"
#include "v1_kernels.h"

#include "gpu_check.hpp"

#include <cmath>
#include <limits>

namespace {

template <class T>
std::vector<T> ints(sample::rng& r, std::size_t n, int lo, int hi) {
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(r.range(lo, hi));
  return v;
}

std::vector<float> poisoned(std::size_t n) { return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()); }

template <int BLOCK, int WARPS, class Launch>
void rowCumsum(sample::report& rep, sample::rng& r, int rows, int n, Launch launch) {
  auto x = sample::random_vector<float>(r, static_cast<std::size_t>(rows) * n);
  auto y = poisoned(x.size() + 64);  // past the end stays untouched
  auto t_y = y;
  host::launch(rows, row_cumsum<BLOCK, WARPS>, x.data(), t_y.data(), n);
  gpu::buffer<float> dx(x), dy(y);
  GPU_CHECK(launch(dim3(static_cast<unsigned>(rows)), nullptr, dx.p, dy.p, n));
  gpu::sync();
  rep.compare_outputs("row_cumsum<" + std::to_string(BLOCK) + ", " + std::to_string(WARPS) + ">, n = " + std::to_string(n), dy.get(), t_y,
             1e-5);
}

}  // namespace

int main() {
  gpu::require_gpu();
  sample::report rep("contract v1 (GPU vs host twin)");
  sample::rng r;
  for (int n : {3001, 4096, 1, 17})
    rowCumsum<1024, 4>(rep, r, 7, n, [](auto... a) { return launch_row_cumsum_1024_4(a...); });
  for (int n : {5000, 8192})
    rowCumsum<4096, 8>(rep, r, 3, n, [](auto... a) { return launch_row_cumsum_4096_8(a...); });
  {  // scans_2d
    auto x = sample::random_vector<float>(r, 2048, 2.0f);
    auto h = sample::random_vector<tilecc::half>(r, 2048, 2.0f);
    auto k = ints<int>(r, 2048, -3, 3);
    auto c = ints<int8_t>(r, 2048, -128, 127);
    auto out = poisoned(12288);
    std::vector<tilecc::half> hout(2048, tilecc::half(0.0f));
    std::vector<int> iout(6144, -7);
    auto t_out = out;
    auto t_hout = hout;
    auto t_iout = iout;
    host::launch(1, scans_2d, x.data(), h.data(), k.data(), c.data(), t_out.data(), t_hout.data(), t_iout.data());
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<tilecc::half> dh(h), dhout(hout);
    gpu::buffer<int> dk(k), diout(iout);
    gpu::buffer<int8_t> dc(c);
    GPU_CHECK(launch_scans_2d(dim3(1), nullptr, dx.p, dh.as<const __half>(), dk.p, dc.p, dout.p, dhout.as<__half>(), diout.p));
    gpu::sync();
    auto g = dout.get();
    auto part = [](const std::vector<float>& v, std::size_t at) { return std::vector<float>(v.begin() + at, v.begin() + at + 2048); };
    rep.compare_outputs("scans_2d: cumsum<1> f32", part(g, 0), part(t_out, 0), 1e-5);
    rep.compare_outputs("scans_2d: cumsum<0> f32", part(g, 2048), part(t_out, 2048), 1e-5);
    rep.compare_outputs("scans_2d: cumsum<0> of half, in float", part(g, 4096), part(t_out, 4096), 1e-5);
    rep.compare_outputs("scans_2d: cumprod<1> f32", part(g, 6144), part(t_out, 6144), 1e-5);
    rep.expect("scans_2d: scan<0> with a function (largest magnitude), exact", part(g, 8192) == part(t_out, 8192));
    rep.expect("scans_2d: scan<1> with a lambda (max), exact", part(g, 10240) == part(t_out, 10240));
    auto gh = dhout.get();
    bool hsame = true;
    for (std::size_t i = 0; i < gh.size(); ++i) hsame &= gh[i].bits == t_hout[i].bits;
    rep.expect("scans_2d: scan<1> of half with float(h) in the lambda, exact", hsame);
    auto gi = diout.get();
    auto ipart = [](const std::vector<int>& v, std::size_t at) { return std::vector<int>(v.begin() + at, v.begin() + at + 2048); };
    rep.expect("scans_2d: scan<0> with a function object (sum mod p)", ipart(gi, 0) == ipart(t_iout, 0));
    rep.expect("scans_2d: cumsum<1> of int8, in int", ipart(gi, 2048) == ipart(t_iout, 2048));
    rep.expect("scans_2d: scan<1> first non-zero (not commutative)", ipart(gi, 4096) == ipart(t_iout, 4096));
  }
  {  // combines
    auto x = sample::random_vector<float>(r, 4096, 2.0f);
    auto k = ints<int>(r, 4096, -2, 2);
    auto out = poisoned(4288);
    std::vector<int> iout(160, -7);
    auto t_out = out;
    auto t_iout = iout;
    host::launch(1, combines, x.data(), k.data(), t_out.data(), t_iout.data());
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<int> dk(k), diout(iout);
    GPU_CHECK(launch_combines(dim3(1), nullptr, dx.p, dk.p, dout.p, diout.p));
    gpu::sync();
    auto g = dout.get();
    rep.expect("combines: reduce<1> with a function, exact", std::vector<float>(g.begin(), g.begin() + 32) ==
                                                                 std::vector<float>(t_out.begin(), t_out.begin() + 32));
    rep.compare_outputs("combines: reduce<0> with a generic lambda (sum)", std::vector<float>(g.begin() + 32, g.begin() + 160),
               std::vector<float>(t_out.begin() + 32, t_out.begin() + 160), 1e-5);
    rep.expect("combines: reduce to a scalar with a template and a lambda, exact", g[160] == t_out[160]);
    rep.compare_outputs("combines: round and pow", std::vector<float>(g.begin() + 192, g.end()),
               std::vector<float>(t_out.begin() + 192, t_out.end()), 1e-5);
    rep.expect("combines: integer reduces (last non-zero; sum mod p)", diout.get() == t_iout);
  }
  for (int n : {64, 50}) {  // layouts
    auto x = sample::random_vector<float>(r, 4096);
    auto out = poisoned(12288);
    auto t_out = out;
    host::launch(1, layouts, x.data(), t_out.data(), n);
    gpu::buffer<float> dx(x), dout(out);
    GPU_CHECK(launch_layouts(dim3(1), nullptr, dx.p, dout.p, n));
    gpu::sync();
    rep.compare_outputs("layouts: with_layout, a scan in a loop, n = " + std::to_string(n), dout.get(), t_out, 1e-5);
  }
  for (int stop : {5, 1000}) {  // early_returns
    const int n = 20;
    auto x = sample::random_vector<float>(r, 128 * n);
    auto out = poisoned(128);
    std::vector<int> iout(8 + n * n + 1, -7);
    auto t_out = out;
    auto t_iout = iout;
    host::launch(1, early_returns, x.data(), t_out.data(), t_iout.data(), n, stop);
    gpu::buffer<float> dx(x), dout(out);
    gpu::buffer<int> diout(iout);
    GPU_CHECK(launch_early_returns(dim3(1), nullptr, dx.p, dout.p, diout.p, n, stop));
    gpu::sync();
    rep.compare_outputs("early_returns: a tile returned from inside a loop, stop = " + std::to_string(stop), dout.get(), t_out, 1e-5);
    rep.expect(("early_returns: scalars and void helpers returning from loops, stop = " + std::to_string(stop)).c_str(),
               diout.get() == t_iout);
  }
  {  // checked_scale: asserts that hold
    const int n = 1000;
    auto x = sample::random_vector<float>(r, n);
    auto y = poisoned(n);
    auto t_y = y;
    host::launch(4, checked_scale, x.data(), t_y.data(), n, 4.0f);
    gpu::buffer<float> dx(x), dy(y);
    GPU_CHECK(launch_checked_scale(dim3(4), nullptr, dx.p, dy.p, n, 4.0f));
    gpu::sync();
    rep.compare_outputs("checked_scale: assert() that holds", dy.get(), t_y, 1e-6);
  }
  return rep.finish();
}
