#!/bin/bash
# Usage: check_valid.sh NAME   (valid/NAME.tile.cpp and valid/NAME_host.cpp)
# Translates, builds with nvcc (sm_80 + sm_90a, -Werror all-warnings), builds host twin with
# g++ and clang++-19 (-Wall -Wextra -Werror) and runs it.
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
R=$REPO/runtime/include
TILECC=${TILECC:-$REPO/build/translator/tilecc}
A=$HERE
O=${OUT:-/tmp/tilecc-conformance}
n=$1
src=$A/valid/$n.tile.cpp
o=$O/out/$n; mkdir -p $o; rm -f $o/*
mkdir -p $O/logs; log=$O/logs/$n.log; : > $log
res=""
$TILECC $src -o $o/$n.cu --arch sm_80 --arch sm_90a -- -I $R >$o/tilecc.txt 2>&1; rc=$?
cat $o/tilecc.txt >> $log
if [ $rc -ne 0 ]; then res="$res TILECC_FAIL(rc=$rc)"; else
  /usr/local/cuda/bin/nvcc -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a -I $R -I $o -c $o/$n.cu -o $o/$n.o >$o/nvcc.txt 2>&1; rc=$?
  cat $o/nvcc.txt >> $log
  [ $rc -ne 0 ] && res="$res NVCC_FAIL" || res="$res nvcc_ok"
  echo "#include \"$n.h\"" > $o/hdr_inc.cpp; g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I $R -I $o -I /usr/local/cuda/include $o/hdr_inc.cpp >$o/hdr.txt 2>&1; rc=$?
  cat $o/hdr.txt >> $log
  [ $rc -ne 0 ] && res="$res HDR_GXX_FAIL" || res="$res hdr_ok"
fi
if [ -f $A/valid/${n}_host.cpp ]; then
  g++ -std=c++20 -Wall -Wextra -Werror -I $R -I $A/valid $A/valid/${n}_host.cpp -o $o/host_gcc >$o/gxx.txt 2>&1; rc=$?
  cat $o/gxx.txt >> $log
  if [ $rc -ne 0 ]; then res="$res GXX_FAIL"; else
    res="$res gxx_ok"
    timeout 120 $o/host_gcc >$o/run.txt 2>&1; rc=$?; cat $o/run.txt >> $log
    [ $rc -ne 0 ] && res="$res HOSTRUN_FAIL(rc=$rc)" || res="$res run_ok"
  fi
  clang++-19 -std=c++20 -Wall -Wextra -Werror -I $R -I $A/valid $A/valid/${n}_host.cpp -fsyntax-only >$o/clang.txt 2>&1; rc=$?
  cat $o/clang.txt >> $log
  [ $rc -ne 0 ] && res="$res CLANG_FAIL" || res="$res clang_ok"
fi
echo "$n:$res"
