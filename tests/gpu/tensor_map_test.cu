// The launcher's TMA descriptor choices that depend on the arguments alone (host code of
// <tilecc/cuda/sm90.cuh>, run without a GPU): which tensors TMA can describe, and the L2
// promotion (256 bytes, 128 where rows start off 32-byte sectors).
#include <tilecc/cuda/tilecc.cuh>

#include <cstdint>
#include <cstdio>

namespace {
int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("  %s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}
const void* at(std::uintptr_t address) { return reinterpret_cast<const void*>(address); }
}  // namespace

int main() {
  using namespace tilecc::detail;
  const std::uint64_t dims[] = {4104, 4104, 3};
  const std::uint64_t aligned[] = {8192, 8192 * 4096}, pitch32[] = {8224, 8224 * 4104}, pitch16[] = {8208, 8208 * 4104},
                      inner16[] = {8192, 8208 * 4097}, odd[] = {8206, 8206 * 4104};
  expect(l2_promotion_bytes(at(0x10000), 3, aligned) == 256, "aligned base and strides: 256-byte promotion");
  expect(l2_promotion_bytes(at(0x10000), 3, pitch32) == 256, "strides of 32-byte sectors: 256-byte promotion");
  expect(l2_promotion_bytes(at(0x10000), 3, pitch16) == 128, "a row pitch of 8208 bytes: 128-byte promotion");
  expect(l2_promotion_bytes(at(0x10000), 3, inner16) == 128, "an outer stride off sectors: 128-byte promotion");
  expect(l2_promotion_bytes(at(0x10010), 3, aligned) == 128, "a base 16 bytes into a sector: 128-byte promotion");
  expect(l2_promotion_bytes(at(0x10010), 1, nullptr) == 128, "rank 1, base off a sector: 128-byte promotion");
  expect(l2_promotion_bytes(at(0x10020), 1, nullptr) == 256, "rank 1, base on a sector: 256-byte promotion");
  expect(tensor_describable(at(0x10010), 3, dims, pitch16), "16-byte base and strides: describable");
  expect(!tensor_describable(at(0x10008), 3, dims, aligned), "8-byte base: not describable");
  expect(!tensor_describable(at(0x10000), 3, dims, odd), "a stride of 8206 bytes: not describable");
  const std::uint64_t empty[] = {4104, 0, 3};
  expect(!tensor_describable(at(0x10000), 3, empty, aligned), "an empty axis: not describable");
  std::printf("%s\n", failures ? "tensor map checks failed" : "all tensor map checks passed");
  return failures ? 1 : 0;
}
