// Kernels whose identifiers collide with generated and library names (kernels/names_kernels):
// they build, and compute what the host twin computes.
#include "kernels/names_kernels.tile.cpp"
#include "names_kernels.h"

#include "gpu_check.hpp"

int main() {
  gpu::require_gpu();
  sample::report rep("names (GPU vs host twin)");
  sample::rng r;
  auto x = sample::random_vector<float>(r, 512);
  {
    std::vector<int> out(1, -1), t_out(1, -1);
    host::launch(1, static_cast<void (*)(const float*, int*)>(exp), x.data(), t_out.data());  // exp is overloaded
    gpu::buffer<float> dx(x);
    gpu::buffer<int> dout(out);
    GPU_CHECK(launch_exp(dim3(1), nullptr, dx.p, dout.p));
    gpu::sync();
    rep.expect("a kernel named exp (argmax)", dout.get() == t_out);
  }
  {
    std::vector<float> out(128, 0), t_out(128, 0);
    host::launch(1, static_cast<void (*)(const float*, float*)>(expf), x.data(), t_out.data());
    gpu::buffer<float> dx(x), dout(out);
    GPU_CHECK(launch_expf(dim3(1), nullptr, dx.p, dout.p));
    gpu::sync();
    rep.compare_outputs("a kernel named expf, locals named fmaxf, lane, L0_t0", dout.get(), t_out, 1e-6);
  }
  {
    std::vector<float> out(512, 0), t_out(512, 0);
    host::launch(1, launcher_names, x.data(), t_out.data(), 3, 4, 5, int64_t{6});
    gpu::buffer<float> dx(x), dout(out);
    GPU_CHECK(launch_launcher_names(dim3(1), nullptr, dx.p, dout.p, 3, 4, 5, 6));
    gpu::sync();
    rep.compare_outputs("parameters named stream, grid, uintptr_t, cudaSuccess, status and the kernel", dout.get(), t_out, 0);
  }
  {
    std::vector<float> y(128, 0), t_y(128, 0), z(128, 0), t_z(128, 0);
    host::launch(1, k, x.data(), t_y.data());
    host::launch(1, k_aligned, x.data(), t_z.data());
    gpu::buffer<float> dx(x), dy(y), dz(z);
    GPU_CHECK(launch_k(dim3(1), nullptr, dx.p, dy.p));
    GPU_CHECK(launch_k_aligned(dim3(1), nullptr, dx.p, dz.p));
    gpu::sync();
    rep.expect("k and a kernel named k_aligned", dy.get() == t_y && dz.get() == t_z);
  }
  {
    std::vector<float> out(1, 0), t_out(1, 0);
    host::launch(1, uninitialised, t_out.data(), 5);
    gpu::buffer<float> dout(out);
    GPU_CHECK(launch_uninitialised(dim3(1), nullptr, dout.p, 5));
    gpu::sync();
    rep.expect("a scalar declared without an initializer", dout.get() == t_out);
  }
  return rep.finish();
}
