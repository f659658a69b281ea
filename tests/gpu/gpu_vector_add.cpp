#include "vector_add/vector_add.tile.cpp"
#include "vector_add.h"

#include "gpu_check.hpp"

int main() {
  gpu::require_gpu();
  sample::report rep("vector_add (GPU vs host twin)");
  sample::rng r;
  for (int n : {1, 1000, 1024, 4097, 1 << 20, (1 << 22) + r.range(1, 5000)})
    for (int shift : {0, 1, 3}) {
      auto x = sample::random_vector<float>(r, n + shift), y = sample::random_vector<float>(r, n + shift);
      std::vector<float> out(n + shift + 3, sample::poison<float>());
      auto twin = out;
      host::launch(cdiv(n, 1024), vector_add, x.data() + shift, y.data() + shift, twin.data() + shift, n);
      gpu::buffer<float> dx(x), dy(y), dout(out);
      GPU_CHECK(launch_vector_add(dim3(cdiv(n, 1024)), nullptr, dx.as<const float>(shift), dy.as<const float>(shift),
                                  dout.as<float>(shift), n));
      gpu::sync();
      rep.compare_outputs("n=" + std::to_string(n) + " shift=" + std::to_string(shift), dout.get(), twin, 0.0);
    }
  return rep.finish();
}
