#!/bin/bash
# For each invalid kernel: tilecc must exit 1 (not 0, not 3/crash), print file:line:col: error: at the
# line marked HERE (or, for a runtime header's check, an error in the header and a diagnostic
# line naming the marked line), and write neither the .cu nor the .h. Prints "ok" only where all
# of that holds, else the reasons.
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
R=$REPO/runtime/include
TILECC=${TILECC:-$REPO/build/translator/tilecc}
A=$HERE
O=${OUT:-/tmp/tilecc-conformance}
for src in $A/invalid/*.tile.cpp; do
  n=$(basename $src .tile.cpp)
  o=$O/out/invalid/$n; rm -rf $o; mkdir -p $o
  want=$(grep -n '// HERE' $src | head -1 | cut -d: -f1)
  $TILECC $src -o $o/$n.cu --arch sm_80 --arch sm_90a -- -I $R >$o/tilecc.txt 2>&1; rc=$?
  first=$(grep -m1 -E ': error: ' $o/tilecc.txt)
  loc=$(echo "$first" | grep -oE '^[^ ]+:[0-9]+:[0-9]+: error' )
  inkernelfile=$(echo "$first" | grep -c "^$src:")
  line=$(echo "$first" | sed -E 's/^[^:]+:([0-9]+):.*/\1/')
  files=$(ls $o | grep -v tilecc.txt | tr '\n' ' ')
  verdict=""
  [ $rc -ne 1 ] && verdict="BAD_RC($rc)"
  [ -z "$loc" ] && verdict="$verdict NO_LOCATED_ERROR"
  [ -n "$files" ] && verdict="$verdict WROTE($files)"
  [ "$inkernelfile" = 1 ] && [ "$line" != "$want" ] && verdict="$verdict LINE($line!=$want)"
  [ "$inkernelfile" != 1 ] && ! grep -q "^$src:$want:" $o/tilecc.txt && verdict="$verdict NOT_NOTED_AT_LINE($want)"
  echo "$n: rc=$rc ${verdict:-ok} | ${first:0:200}"
done
