#!/usr/bin/env bash
# Phase (b) of the tilecc GPU fuzz batch: build the translated kernels with nvcc and the
# harness with the host C++ compiler, then run every kernel against its host twin.
#
#   bash build_and_run.sh                 # build (-j = nproc) and run; writes results.txt
#   bash build_and_run.sh --build-only    # build only (works without a GPU)
#   bash build_and_run.sh --twin-check    # no GPU: host twin vs the perturbed twin (validates the harness)
#
# Environment: CUDA_HOME (default /usr/local/cuda), CXX (default g++), JOBS (default nproc),
# ARCHS (default "80 90a"), TWIN_OPT (the sanitised twin's optimisation, default -O1: -O0
# compiles in half the time and finds the same errors, but runs a large batch slower).
set -euo pipefail
cd "$(dirname "$0")"
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
CXX=${CXX:-g++}
JOBS=${JOBS:-$(nproc)}
ARCHS=${ARCHS:-"80 90a"}
TWIN_OPT=${TWIN_OPT:--O1}
mode=${1:-run}

if [ -f kernels.tar.gz ] && [ ! -d kernels ]; then tar xzf kernels.tar.gz; fi
mkdir -p obj
gencode=""
for a in $ARCHS; do gencode="$gencode -gencode=arch=compute_${a},code=sm_${a}"; done

if [ "$mode" = "--twin-check" ]; then
  # Without a GPU: the twin (AddressSanitizer, UBSan) dumps its outputs, a build against the
  # perturbed twin (noisy/: other summation orders, math off by ulps, reversed stores, atomics
  # and programs) compares with them using the same comparison modes as on the GPU.
  ls harness/*.cpp | xargs -P "$JOBS" -I{} sh -c "$CXX -std=c++20 $TWIN_OPT -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -Iinclude -Iharness -Ikernels -c {} -o obj/\$(basename {} .cpp).twin.o"
  ls harness/*.cpp | xargs -P "$JOBS" -I{} sh -c "$CXX -std=c++20 -O1 -Inoisy -Iharness -Ikernels -c {} -o obj/\$(basename {} .cpp).noisy.o"
  $CXX -fsanitize=address,undefined obj/*.twin.o -pthread -o fuzz_twin
  $CXX obj/*.noisy.o -pthread -o fuzz_noisy
  ASAN_OPTIONS=detect_leaks=0 python3 run.py --binary ./fuzz_twin --results twin-results.txt -- --dump twin.bin
  exec python3 run.py --binary ./fuzz_noisy --results noisy-results.txt -- --against twin.bin
fi

echo "nvcc: $(ls kernels/*.cu | wc -l) files, $JOBS jobs, archs $ARCHS"
ls kernels/*.cu | xargs -P "$JOBS" -I{} sh -c "$NVCC -std=c++17 -Werror all-warnings $gencode -Iinclude -Ikernels -c {} -o obj/\$(basename {} .cu).cu.o || echo 'nvcc failed: {}' >&2"
echo "$CXX: harness"
ls harness/*.cpp | xargs -P "$JOBS" -I{} sh -c "$CXX -std=c++20 -O1 -DFUZZ_GPU -Iinclude -Iharness -Ikernels -I$CUDA_HOME/include -c {} -o obj/\$(basename {} .cpp).o"
$CXX obj/*.cu.o $(ls obj/*.o | grep -v -e '\.cu\.o$' -e '\.twin\.o$' -e '\.noisy\.o$') -L"$CUDA_HOME/lib64" -lcudart -pthread -o fuzz_batch
echo "built ./fuzz_batch ($(ls kernels/*.cu | wc -l) kernel files)"
if [ "$mode" = "--build-only" ]; then exit 0; fi
exec python3 run.py
