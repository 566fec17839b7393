#!/usr/bin/env bash
# Runs on the GPU machine in ONE call: builds the project (unless BUILD holds
# a prebuilt tree whose programs load there), runs the cuda tests and the
# NVRTC compile test, compute-sanitizer over the status test, and the GPU
# benchmark; everything goes to a few files under $OUT (default ./device-out):
#   tests.log      every test's output, then the sanitizer logs
#   bench.jsonl    the benchmark's JSON lines (sweep.jsonl: the sweep)
#   RESULTS.md     the markdown table of bench.jsonl
# Each stage has its own time limit (seconds) so that the call ends in time:
#   T_TESTS (120), T_MEMCHECK (90), T_RACECHECK (0 = skipped), T_SWEEP (0 =
#   no sweep), T_F64 (150), T_C128 (120; 0 = skipped). QUICK=1: small sizes.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/device-out}
BUILD=${BUILD:-$here/build-device}
mkdir -p "$OUT"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
# The toolkit, the driver, the pip-installed CUDA libraries, then the build tree.
libs="/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/nvidia/lib64"
libs="$libs:$(python3 -c 'import nvidia, os; print(":".join(os.path.join(p, x, "lib") for p in nvidia.__path__ for x in os.listdir(p)))' 2>/dev/null)"
export LD_LIBRARY_PATH="$BUILD:$libs:${LD_LIBRARY_PATH:-}"
if ! "$BUILD/tests/cpu_test_kernels_nvrtc" > /dev/null 2>&1 || [ ! -x "$BUILD/bench_tridiag_gpu" ]; then
  stamp "building (the carried tree did not run here)"
  BUILD=$here/build-device-fresh
  export LD_LIBRARY_PATH="$BUILD:$libs"
  cmake -S "$here" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_OPENCL=OFF \
    -DPSCR_BUILD_EXAMPLES=OFF > "$OUT/tests.log" 2>&1 &&
    cmake --build "$BUILD" -j"$(nproc)" >> "$OUT/tests.log" 2>&1 || { tail -30 "$OUT/tests.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader 2>&1
status=0

# The cuda tests and the NVRTC compile test, within T_TESTS seconds together.
end=$(($(date +%s) + ${T_TESTS:-120}))
for t in "$BUILD"/tests/cuda_test_* "$BUILD"/tests/cpu_test_kernels_nvrtc; do
  [ -x "$t" ] || continue
  left=$((end - $(date +%s)))
  [ "$left" -gt 5 ] || { stamp "no time left for $(basename "$t")"; status=1; continue; }
  start=$(date +%s%N)
  { echo "=== $(basename "$t")"; timeout "$left" "$t"; echo "rc=$?"; } >> "$OUT/tests.log" 2>&1
  rc=$(tail -1 "$OUT/tests.log")
  stamp "$(printf '%-28s %s %6d ms  %s' "$(basename "$t")" "$rc" \
    "$((($(date +%s%N) - start) / 1000000))" "$(tail -2 "$OUT/tests.log" | head -1)")"
  [ "$rc" = "rc=0" ] || status=1
done

# compute-sanitizer over the status test (small systems, every algorithm).
for tool in memcheck racecheck; do
  [ "$tool" = memcheck ] && lim=${T_MEMCHECK:-90} || lim=${T_RACECHECK:-0}
  [ "$lim" -gt 0 ] && command -v compute-sanitizer > /dev/null || continue
  { echo "=== compute-sanitizer $tool"; timeout "$lim" compute-sanitizer --tool "$tool" \
    --error-exitcode 9 "$BUILD/tests/cuda_test_cuda_status"; echo "rc=$?"; } > "$OUT/san.tmp" 2>&1
  stamp "compute-sanitizer $tool $(tail -1 "$OUT/san.tmp") $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.tmp" | tail -1)"
  head -c 200000 "$OUT/san.tmp" >> "$OUT/tests.log"
  rm -f "$OUT/san.tmp"
done

# Benchmarks: JSON lines (flushed per line: a stage cut by its limit keeps them).
if [ "${T_SWEEP:-0}" -gt 0 ]; then
  timeout "$T_SWEEP" "$BUILD/bench_tridiag_gpu" sweep > "$OUT/sweep.jsonl" 2>> "$OUT/tests.log"
  stamp "sweep rc=$? ($(grep -c median "$OUT/sweep.jsonl") rows)"
fi
: > "$OUT/bench.jsonl"
for dt in f64 c128; do
  [ "$dt" = f64 ] && lim=${T_F64:-150} || lim=${T_C128:-120}
  [ "$lim" -gt 0 ] || continue
  timeout "$lim" "$BUILD/bench_tridiag_gpu" ${QUICK:+quick} $dt >> "$OUT/bench.jsonl" 2>> "$OUT/tests.log"
  stamp "bench $dt rc=$? ($(grep -c median "$OUT/bench.jsonl") rows in all)"
done
python3 - "$OUT/bench.jsonl" > "$OUT/RESULTS.md" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
dev = [r for r in rows if r["what"] == "copy"]
rows = [r for r in rows if "median_ms" in r]
if dev:
    print(f"Device: {dev[0]['device']}, measured copy bandwidth {dev[0]['gbps']:.0f} GB/s (read + write)\n")
print("| what | n | batch | dtype | matrix | impl | algorithm | median ms | GB/s | floor ratio | backward error |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    be = "" if r["backward_error"] < 0 else f"{r['backward_error']:.1e}"
    print(f"| {r['what']} | {r['n']} | {r['batch']} | {r['dtype']} | {r['matrix']} | {r['impl']} | "
          f"{r['alg']} | {r['median_ms']:.3f} | {r['gbps']:.0f} | {r['floor_ratio']:.2f} | {be} |")
PY
grep "pscr" "$OUT/RESULTS.md" | awk -F'|' '{printf "%-7s %9s %6s %-4s %-8s %-16s %8s %6s %s\n", $2, $3, $4, $5, $6, $8, $9, $11, $12}'
stamp "done, status $status"
exit $status
