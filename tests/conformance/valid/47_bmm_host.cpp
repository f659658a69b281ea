#include "47_bmm.tile.cpp"
#include "audit2_common.hpp"

template <class T, int BM, int BN, int BK>
void run(const char* name, int batch, int M, int N, int K, bool bt, double tol) {
  // A: [batch, M, K] with padded rows; B: [batch, K, N] or stored transposed [batch, N, K].
  const int64_t sam = K + 3, sak = 1, sab = M * sam;
  const int64_t sbk = bt ? 1 : N, sbn = bt ? K : 1, sbb = int64_t(K) * N + 5;
  const int64_t scm = N, scn = 1, scb = int64_t(M) * N;
  auto a = a2::randn<T>(size_t(batch) * sab), b = a2::randn<T>(size_t(batch) * sbb);
  std::vector<T> c(size_t(batch) * scb, T(NAN));
  tilecc::host::launch({cdiv(M, BM) * cdiv(N, BN), batch}, a2_bmm<T, BM, BN, BK>, a.data(), b.data(), c.data(), M, N, K, sab,
                       sam, sak, sbb, sbk, sbn, scb, scm, scn);
  std::vector<double> r, g;
  for (int z = 0; z < batch; ++z)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int k = 0; k < K; ++k) s += a2::d(a[z * sab + i * sam + k * sak]) * a2::d(b[z * sbb + k * sbk + j * sbn]);
        r.push_back(s), g.push_back(a2::d(c[z * scb + i * scm + j * scn]));
      }
  a2::check(name, g, r, tol);
}
int main() {
  run<half, 64, 64, 32>("bmm block ptr fp16 batch=3 100x70x50", 3, 100, 70, 50, false, 2e-3);
  run<half, 64, 64, 32>("bmm block ptr fp16 batch=2 65x129x33, B transposed", 2, 65, 129, 33, true, 2e-3);
  run<bfloat16, 128, 64, 64>("bmm block ptr bf16 batch=4 130x64x200", 4, 130, 64, 200, false, 1e-2);
  {
    const int batch = 5, M = 40, N = 50, K = 60;
    auto a = a2::randn<half>(size_t(batch) * M * K), b = a2::randn<half>(size_t(batch) * K * N);
    std::vector<float> c(size_t(batch) * M * N, NAN);
    tilecc::host::launch({cdiv(M, 32) * cdiv(N, 32), batch}, a2_bmm_ptr<32, 32, 32>, a.data(), b.data(), c.data(), M, N, K, 0.5f);
    std::vector<double> r;
    for (int z = 0; z < batch; ++z)
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
          double s = 0;
          for (int k = 0; k < K; ++k) s += a2::d(a[(z * M + i) * K + k]) * a2::d(b[(z * K + k) * N + j]);
          r.push_back(0.5 * s);
        }
    a2::check("bmm pointer tiles fp16->fp32 batch=5 40x50x60 alpha", c, r, 1e-5);
  }
  return a2::finish("47_bmm");
}
