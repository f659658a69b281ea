#!/usr/bin/env bash
# Runs on the GPU machine over a folder carried from a build (see README, "Benchmarks"):
#   DIR/new/gpu_*          GPU tests of the build under test
#   DIR/new/tilecc_bench   its benchmark;  DIR/base/tilecc_bench (optional) the baseline's
#   DIR/peers.py           torch / Triton / cuDNN peers (shared/bench/peers.py)
# Steps (arguments pick them; default: tests bench): tests, sanitize, bench.
# Logs go to $OUT/logs.tgz, failing tests' logs also to $OUT/failed/ (with a rerun's); a short table
# is printed last.
set -uo pipefail
DIR=${DIR:-.device}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT/logs"
export PATH=/usr/local/cuda/bin:$PATH
steps=${*:-tests bench}
summary=()
# run_test PATH BINARY LOG: the test on the device's own path (native) or the sm_80 path.
run_test() {
  if [[ $1 == sm80 ]]; then TILECC_FORCE_SM80=1 timeout 300 "$2" > "$3" 2>&1
  else timeout 300 "$2" > "$3" 2>&1; fi
}
# A failing test's log is kept apart ($OUT/failed/, few files: the device returns a limited number)
# with its last lines in the table; the test then runs once more (same path, fresh inputs), so an
# intermittent failure is told from a deterministic one without another call.
keep_failed() {
  local log=$1 t=${1%_*} path=${1##*_}
  mkdir -p "$OUT/failed"
  cp "$OUT/logs/$log.log" "$OUT/failed/"
  summary+=("  last lines of $log.log:" "$(tail -n 25 "$OUT/logs/$log.log" | sed 's/^/    /')")
  run_test "$path" "$DIR/new/$t" "$OUT/failed/$log.rerun.log"
  summary+=("  rerun: rc=$? $(grep -E 'checks|passed|failed|FAIL' "$OUT/failed/$log.rerun.log" | tail -1)")
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/logs/gpu.txt"
for step in $steps; do
  case $step in
    tests)
      # Each test on the device's own path (sm_90a on an H100), then on the sm_80 path.
      for path in native sm80; do
        for t in "$DIR"/new/gpu_*; do
          n=$(basename "$t")
          start=$(date +%s)
          run_test "$path" "$t" "$OUT/logs/${n}_$path.log"
          rc=$?
          summary+=("$n ($path): rc=$rc $(( $(date +%s) - start ))s $(grep -E 'checks|passed|failed|FAIL' "$OUT/logs/${n}_$path.log" | tail -1)")
          if [[ $rc != 0 ]]; then keep_failed "${n}_$path"; fi
        done
      done ;;
    sanitize)
      for n in ${SANITIZE:-gpu_dot gpu_matmul gpu_attention gpu_features}; do
        for tool in memcheck racecheck synccheck; do
          start=$(date +%s)
          timeout 400 compute-sanitizer --tool $tool --error-exitcode 9 "$DIR/new/$n" > "$OUT/logs/san_${n}_$tool.log" 2>&1
          rc=$?
          summary+=("sanitize $n $tool: rc=$rc $(( $(date +%s) - start ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/logs/san_${n}_$tool.log" | tail -1)")
        done
      done ;;
    bench)
      ( cd "$DIR" && PYTHONUNBUFFERED=1 OUT="$OUT/logs" python3 peers.py ${PEERS:-vector_add softmax layernorm rowsum transpose matmul attention} ) > "$OUT/logs/peers.log" 2>&1
      for round in 1 2; do
        for b in base new; do
          [[ -x "$DIR/$b/tilecc_bench" ]] || continue
          mkdir -p "$OUT/logs/$b$round"
          OUT="$OUT/logs/$b$round" "$DIR/$b/tilecc_bench" ${BENCH:-} > "$OUT/logs/bench_$b$round.log" 2>&1
        done
      done
      summary+=("peers:" "$(grep -E 'GB/s|TFLOP' "$OUT/logs/peers.log")")
      for f in "$OUT"/logs/bench_*.log; do summary+=("== $(basename "$f")" "$(cat "$f")"); done ;;
  esac
done
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"  # one file back instead of dozens
printf '%s\n' "${summary[@]}"
