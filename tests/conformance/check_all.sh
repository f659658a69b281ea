#!/bin/bash
# Every valid kernel file (check_valid.sh), then the invalid ones (check_invalid.sh); prints one
# line per file and a count of failures last. Needs tilecc (TILECC, default build/translator/tilecc),
# nvcc, g++ and clang++-19; OUT (default /tmp/tilecc-conformance) gets the outputs and logs.
HERE=$(cd "$(dirname "$0")" && pwd)
bad=0
for f in "$HERE"/valid/*.tile.cpp; do
  line=$(bash "$HERE/check_valid.sh" "$(basename "$f" .tile.cpp)" | tail -1)
  echo "$line"
  case "$line" in *FAIL*) bad=$((bad + 1)) ;; esac
done
while read -r line; do
  echo "$line"
  case "$line" in *": rc=1 ok |"*) ;; *) bad=$((bad + 1)) ;; esac
done < <(bash "$HERE/check_invalid.sh")
echo "conformance: $bad failing files"
[ "$bad" = 0 ]
