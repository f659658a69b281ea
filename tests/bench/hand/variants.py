#!/usr/bin/env python3
"""Hand-edited variants of generated code, each a question about the code tilecc prints, asked
before changing the translator (README.md here; results in tests/bench/results/).

  variants.py VARIANT IN.cu OUT.cu

Attention (the sample's attention.cu; edits the D = 128 `_sm90a_tma` kernels, causal and not):
  conversion-after-wait   P's conversion to f16 after the wait for the in-flight P.V
  release-after-rowsum    the slot release after that wait also waits for the row sums
  unroll-pingpong         the overlapped loop unrolled by two, P in two register arrays
  four-way-reductions     in-thread max/sum reductions as four independent partial results
GEMM (the sample's matmul.cu; edits the fp16 128x256 `_sm90a_tma` kernel):
  gemm-four-stages        four ring stages, the TMA-store buffer halved (two column halves)
GEMM (the fp16 and bf16 128x256 `_sm90a_tma` kernels):
  gemm-cluster-multicast  clusters of two programs that share B's boxes: each copies half of
                          B's panels to both (TMA multicast), slots released by both programs'
                          consumers (the launcher assumes an even tile count whose pairs of
                          consecutive tiles share B, as the sample's grouped order at 4096^3 does);
                          the launcher prints the clusters it may run at once to stderr
                          (TILECC_HAND_CLUSTERS=n overrides). Peer arrivals release at CTA scope:
                          .release.cluster there cost 30% (results 2026-11-27-h100-cluster-multicast)
  gemm-four-stages-multicast  both (fp16; bf16 multicast only)
Each exits non-zero when the generated code no longer has the shape it edits."""
import re
import sys

ATTENTION = ('attention_128_128_128_false_3_sm90a_tma', 'attention_128_128_128_true_3_sm90a_tma')


def kernel(src, name):
    h = src.index('-> %s ----' % name)
    return h, src.index('\n// ---- ', h)


def main_loop(k, name):
    bound = 'seq_len' if '_false_' in name else 'end_n_min'
    head = '\n    for (int start_n = 128; start_n < %s; start_n += 128) {\n' % bound
    lo = k.index(head)
    return bound, head, lo, lo + len(head), k.index('\n    }\n', lo + len(head))


def conversion_after_wait(k, name):
    _, _, _, bo, be = main_loop(k, name)
    body = k[bo:be]
    m = re.search(r'      __half (acc_cvt_\d+)\[64\];[^\n]*\n      #pragma unroll\n'
                  r'      for \(int reg = 0; reg < 64; \+\+reg\) \1\[reg\] = tilecc::cvt_f16\(\w+\[reg\]\);\n', body)
    wait = '      tilecc::wgmma_wait<0>();\n'
    w = body.index(wait, m.end()) + len(wait)
    return k[:bo] + body[:m.start()] + body[m.end():w] + m.group(0) + body[w:] + k[be:]


def release_after_rowsum(k, name):
    _, _, _, bo, be = main_loop(k, name)
    body = k[bo:be]
    wait = '      tilecc::wgmma_wait<0>();\n'
    w = body.index(wait) + len(wait)
    rowsum = re.findall(r'      float (l_i_\d+)\[2\];', body[:w])[-1]
    arrive = '      if (lane == 0) tilecc::mbarrier_arrive(start_n_empty + 8 * (pipe_read_prev));\n'
    assert body[w:w + len(arrive)] == arrive
    # l >= 0 or NaN: always true, but ptxas cannot hoist the arrive above the row sums.
    late = arrive.replace('if (lane == 0)', 'if (lane == 0 && !(%s[0] < 0.0f))' % rowsum)
    return k[:bo] + body[:w] + late + body[w + len(arrive):] + k[be:]


def unroll_pingpong(k, name):
    bound, head, lo, bo, be = main_loop(k, name)
    body = k[bo:be + 1]
    assert 'continue' not in body and 'break' not in body
    carry = 'for (int reg = 0; reg < 64; ++reg) cvt_prev[reg] = cvt_prev_next[reg];'
    assert body.count(carry) == 1
    other = carry.replace('cvt_prev[reg]', 'cvt_prev2[reg]')
    a = body.replace(carry, other)
    b = body.replace('cvt_prev[', 'cvt_prev2[').replace(other, carry)
    new = ('\n    __half cvt_prev2[64];  // the P fragment of odd iterations' + head + '      {\n' + a + '      }\n'
           '      start_n += 128;\n      if (!(start_n < ' + bound + ')) {\n        #pragma unroll\n'
           '        for (int reg = 0; reg < 64; ++reg) cvt_prev[reg] = cvt_prev2[reg];\n        break;\n      }\n'
           '      {\n' + b + '      }')
    return k[:lo] + new + k[be:]


REDUCTION = re.compile(r'(?P<ind> *)for \(int reg = 0; reg < (?P<rn>\d+); \+\+reg\) \{\n'
                       r' *(?P<p>\w+)\[reg\] = (?P<first>\w+)\[reg \* (?P<n>\d+)\];\n'
                       r' *#pragma unroll\n'
                       r' *for \(int reg2 = 1; reg2 < (?P=n); \+\+reg2\) \{\n'
                       r' *(?P=p)\[reg\] = (?P<comb>.*);\n *\}\n *\}\n')


def four_way_reductions(k, name):
    def rep(m):
        p, x, n, ind = m.group('p'), m.group('first'), int(m.group('n')), m.group('ind')
        a, comb = p + '[reg]', m.group('comb')
        if comb.startswith(('fmaxf(' + a, 'fminf(' + a)):
            f = lambda u, v: '%s(%s, %s)' % (comb[:5], u, v)
        elif comb.startswith(a + ' + '):
            f = lambda u, v: '%s + %s' % (u, v)
        else:
            return m.group(0)
        if n % 4:
            return m.group(0)
        e = lambda i: '%s[reg * %d + %d]' % (x, n, i)
        t = 't_' + p
        s = ind + 'for (int reg = 0; reg < %s; ++reg) {\n' % m.group('rn')
        s += ''.join(ind + '  float %s%d = %s;\n' % (t, q, e(q)) for q in range(4))
        for i in range(4, n, 4):
            s += ''.join(ind + '  %s%d = %s;\n' % (t, q, f('%s%d' % (t, q), e(i + q))) for q in range(4))
        s += ind + '  %s = %s;\n' % (a, f('(' + f(t + '0', t + '1') + ')', '(' + f(t + '2', t + '3') + ')'))
        return s + ind + '}\n'
    out, n = REDUCTION.subn(rep, k)
    assert n > 0
    return out


def gemm_four_stages(src):
    name = 'matmul_half_128_256_64_8_false_none_sm90a_tma'
    h, end = kernel(src, name)
    k = src[h:end]

    def sub(old, new, count=1):
        nonlocal k
        assert k.count(old) == count, old
        k = k.replace(old, new)
    sub('213040 bytes, set by', '229440 bytes, set by')
    sub('smem + 98304;  // [128][256] f16', 'smem + 196608;  // [128][256] f16')
    sub('a_tile_ring = smem + 163840;', 'a_tile_ring = smem + 131072;')
    sub('k_full = smem + 212992;', 'k_full = smem + 229376;')
    sub('k_empty = smem + 213016;', 'k_empty = smem + 229408;')
    sub('for (int i = 0; i < 3; ++i) tilecc::mbarrier_init', 'for (int i = 0; i < 4; ++i) tilecc::mbarrier_init', 2)
    sub('release_eq ? 2 : release_sub;', 'release_eq ? 3 : release_sub;')
    sub('release_eq_1 ? 2 : release_sub_1;', 'release_eq_1 ? 3 : release_sub_1;')
    sub('pipe_read == 2;', 'pipe_read == 3;')
    sub('load_slot == 2;', 'load_slot == 3;')
    i0 = k.index('      // 2 elements (4 bytes) per shared-memory store')
    i1 = k.index('      ring_slot = pipe_read;')
    epi = k[i0:i1]
    ls = epi.index('      #pragma unroll\n      for (int reg = 0; reg < 128; reg += 2) {')
    le = epi.index('      }\n', ls) + len('      }\n')
    loop = epi[ls:le]
    tma = '      if (threadIdx.x == 0) {\n        tilecc::tma_store_2d'
    fence = epi[le:epi.index(tma)]
    stores = epi[epi.index(tma):]
    starts = [m.start() for m in re.finditer(r'      (const int store_add_\d = [^\n]*\n      )?if \(threadIdx.x == 0\) \{\n        tilecc::tma_store_2d', stores)]
    assert len(starts) == 4
    head = 'for (int reg = 0; reg < 128; reg += 2) {'
    first_half = loop.replace(head, head + '\n        if ((reg % 64) >= 32) continue;')
    second_half = loop.replace(head, head + '\n        if ((reg % 64) < 32) continue;').replace(
        '*reinterpret_cast<unsigned*>(store_out + ', '*reinterpret_cast<unsigned*>(store_out - 32768 + ')
    fence2 = fence.replace('store_mul', 'store2_mul').replace('store_add', 'store2_add').replace('store_ge', 'store2_ge')
    mid = ('      if (threadIdx.x == 0) tilecc::tma_store_wait<0>();  // the first half has been read\n'
           '      tilecc::named_barrier_sync(1, 256);\n')
    second = stores[starts[2]:].replace('store_out + 32768', 'store_out').replace('store_out + 49152', 'store_out + 16384')
    k = k[:i0] + epi[:ls] + first_half + fence + stores[:starts[2]] + mid + second_half + fence2 + second + k[i1:]
    src = src[:h] + k + src[end:]
    for old in ('%s, cudaFuncAttributeMaxDynamicSharedMemorySize, 213040)' % name, '%s<<<tilecc_programs, 384, 213040, stream>>>' % name):
        assert src.count(old) == 1, old
        src = src.replace(old, old.replace('213040', '229440'))
    return src


MULTICAST_HELPERS = r"""
// ---- hand edit (tests/bench/hand/variants.py gemm-cluster-multicast): cluster helpers ----
namespace tilecc_hand {
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
// Arrives on the mbarrier at the same shared-memory offset in the cluster's program `rank`.
__device__ __forceinline__ void mbarrier_arrive_cluster(void* bar, unsigned rank) {
  asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
               "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(tilecc::smem_addr(bar)), "r"(rank)
               : "memory");
}
// A box to the same offset of every program in `mask`, each program's mbarrier at `bar`'s offset.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, void* bar, int c0, int c1,
                                                      unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(
          tilecc::smem_addr(dst)),
      "l"(map), "r"(tilecc::smem_addr(bar)), "r"(c0), "r"(c1), "h"(mask)
      : "memory");
}
}  // namespace tilecc_hand
"""


def gemm_cluster_multicast(src):
    first = True
    for ty in ('half', 'bfloat16'):
        name = 'matmul_%s_128_256_64_8_false_none_sm90a_tma' % ty
        h, end = kernel(src, name)
        k = src[h:end]

        def sub(old, new, count=1):
            nonlocal k
            assert k.count(old) == count, (name, old)
            k = k.replace(old, new)
        sub('__launch_bounds__(384, 1) %s(' % name, '__launch_bounds__(384, 1) __cluster_dims__(2, 1, 1) %s(' % name)
        stages = re.search(r'for \(int i = 0; i < (\d+); \+\+i\) tilecc::mbarrier_init\(k_empty \+ 8 \* i, 8\);', k).group(1)
        sub('for (int i = 0; i < %s; ++i) tilecc::mbarrier_init(k_empty + 8 * i, 8);' % stages,
            'for (int i = 0; i < %s; ++i) tilecc::mbarrier_init(k_empty + 8 * i, 16);  // both programs\' consumer warps' % stages)
        sub('  __syncthreads();  // the mbarriers are initialised before either role waits on them\n',
            '  tilecc_hand::cluster_sync();  // both programs\' mbarriers are initialised before any copy or arrival\n'
            '  const unsigned cta_rank = tilecc_hand::cluster_rank();\n')
        for sel in ('release_sel', 'release_sel_1'):
            sub('if (lane == 0) tilecc::mbarrier_arrive(k_empty + 8 * (%s));' % sel,
                'if (lane == 0) { tilecc::mbarrier_arrive(k_empty + 8 * (%s)); '
                'tilecc_hand::mbarrier_arrive_cluster(k_empty + 8 * (%s), cta_rank ^ 1); }' % (sel, sel))
        panels = re.findall(r'if \(threadIdx.x == 256\) tilecc::tma_load_2d\((b_tile_ring_slot_1[^;]*)\);', k)
        assert len(panels) == 4, panels
        for i, args in enumerate(panels):
            sub('if (threadIdx.x == 256) tilecc::tma_load_2d(%s);' % args,
                'if (threadIdx.x == 256 && cta_rank == %d) tilecc_hand::tma_load_2d_multicast(%s, 0x3);' % (i % 2, args))
        tail = '  }\n#endif\n}\n}  // namespace tilecc_kernels\n'
        sub(tail, '  }\n  tilecc_hand::cluster_sync();  // no program leaves while the other may still arrive on its mbarriers\n#endif\n}\n}  // namespace tilecc_kernels\n')
        if first:
            k = k[:k.index('namespace tilecc_kernels {')] + MULTICAST_HELPERS + k[k.index('namespace tilecc_kernels {'):]
            first = False
        src = src[:h] + k + src[end:]
        launcher = 'cudaError_t launch_matmul_%s_128_256_64_8_false_none(' % ty
        lo = src.index(launcher)
        smem = re.search(r'%s, cudaFuncAttributeMaxDynamicSharedMemorySize, (\d+)\)' % name, src[lo:]).group(1)
        old = '        const dim3 tilecc_programs(tilecc_tiles < tilecc_sms ? static_cast<unsigned>(tilecc_tiles) : tilecc_sms);\n'
        at = src.index(old, lo)
        assert at < src.index('\n}\n', lo)
        new = ('        if (tilecc_tiles %% 2 != 0) return cudaErrorInvalidValue;  // hand edit: pairs of tiles only\n'
               '        static int tilecc_clusters = 0;\n'
               '        if (tilecc_clusters == 0) {\n'
               '          cudaFuncSetAttribute(::tilecc_kernels::%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %s);\n'
               '          cudaLaunchConfig_t cfg = {};\n'
               '          cfg.gridDim = dim3(2 * tilecc_sms);\n'
               '          cfg.blockDim = dim3(384);\n'
               '          cfg.dynamicSmemBytes = %s;\n'
               '          if (cudaOccupancyMaxActiveClusters(&tilecc_clusters, ::tilecc_kernels::%s, &cfg) != cudaSuccess || tilecc_clusters == 0)\n'
               '            return cudaErrorInvalidConfiguration;\n'
               '          if (std::getenv("TILECC_HAND_CLUSTERS")) tilecc_clusters = std::atoi(std::getenv("TILECC_HAND_CLUSTERS"));\n'
               '          std::fprintf(stderr, "%s: %%d clusters of 2 at once\\n", tilecc_clusters);\n'
               '        }\n'
               '        const unsigned long long tilecc_cap = 2ull * tilecc_clusters;\n'
               '        (void)tilecc_sms;\n'
               '        const dim3 tilecc_programs(static_cast<unsigned>(tilecc_tiles < tilecc_cap ? tilecc_tiles : tilecc_cap));\n') % (name, smem, smem, name, name)
        src = src[:at] + new + src[at + len(old):]
    return src


def main():
    edits = {'conversion-after-wait': conversion_after_wait, 'release-after-rowsum': release_after_rowsum,
             'unroll-pingpong': unroll_pingpong, 'four-way-reductions': four_way_reductions}
    gemm = {'gemm-four-stages': gemm_four_stages, 'gemm-cluster-multicast': gemm_cluster_multicast,
            'gemm-four-stages-multicast': lambda src: gemm_cluster_multicast(gemm_four_stages(src))}
    if len(sys.argv) != 4 or (sys.argv[1] not in edits and sys.argv[1] not in gemm):
        sys.exit(__doc__)
    src = open(sys.argv[2]).read()
    try:
        if sys.argv[1] in gemm:
            src = gemm[sys.argv[1]](src)
        else:
            for name in ATTENTION:
                h, end = kernel(src, name)
                src = src[:h] + edits[sys.argv[1]](src[h:end], name) + src[end:]
    except (ValueError, AssertionError, AttributeError, IndexError) as e:
        sys.exit('%s: the generated code no longer has the shape this edit expects (%s: %s)' % (sys.argv[1], type(e).__name__, e))
    open(sys.argv[3], 'w').write(src)


if __name__ == '__main__':
    main()
