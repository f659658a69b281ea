#!/bin/bash
# Builds gpu_audit2: translates valid/36_* .. valid/53_* with tilecc (sm_80 + sm_90a), builds
# each .cu with nvcc for both architectures (-Werror all-warnings, as check_valid.sh does), and
# links them with gpu_audit2.cpp (host twins + launchers; C++20 host code).
#   bash tests/conformance/gpu/build.sh            # -> $OUT/gpu_audit2 (default /tmp/audit2/gpu_audit2)
#   TILECC=... OUT=... NVCC=... JOBS=1 to change the defaults. Objects are reused while newer
#   than their .cu (delete $OUT/gpu_build to start over).
# Run on the GPU:  /tmp/audit2/gpu_audit2   and   TILECC_FORCE_SM80=1 /tmp/audit2/gpu_audit2
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
R=$REPO/runtime/include
V=$HERE/../valid
TILECC=${TILECC:-$REPO/build/translator/tilecc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
OUT=${OUT:-/tmp/audit2}
B=$OUT/gpu_build
mkdir -p $B
ARCH="-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a"
KERNELS="36_tut_vector_add 37_tut_softmax 38_tut_matmul 39_tut_layernorm 40_tut_attention 41_rmsnorm 42_rope 43_gelu
         44_cross_entropy 45_argmax 46_gemv 47_bmm 48_int8_gemm 49_colsum 50_histogram 51_prefix_sum
         52_persistent_matmul 53_dropout"
objs=""
for n in $KERNELS; do
  # tilecc rewrites its outputs only when they change (--check), so that objects stay fresh.
  if ! $TILECC $V/$n.tile.cpp -o $B/$n.cu --arch sm_80 --arch sm_90a --check -- -I $R >/dev/null 2>&1; then
    $TILECC $V/$n.tile.cpp -o $B/$n.cu --arch sm_80 --arch sm_90a -- -I $R
  fi
  if [ ! -f $B/$n.o ] || [ $B/$n.cu -nt $B/$n.o ]; then
    echo "nvcc $n.cu"
    $NVCC -std=c++17 -Werror all-warnings $ARCH -I $R -I $B -c $B/$n.cu -o $B/$n.o
  fi
  objs="$objs $B/$n.o"
done
echo "nvcc gpu_audit2.cpp"
$NVCC -std=c++20 $ARCH -Xcompiler -Wall,-Wextra -I $R -I $B -I $V $HERE/gpu_audit2.cpp $objs -o $OUT/gpu_audit2
echo "built $OUT/gpu_audit2"
