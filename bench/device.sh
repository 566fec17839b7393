#!/usr/bin/env bash
# Runs on the GPU machine in ONE call: builds the project (unless BUILD holds
# a prebuilt tree), runs the cuda tests, compute-sanitizer (memcheck and
# racecheck) over one cuda test, and every GPU benchmark; writes the JSON
# lines and a markdown table to $OUT (default ./device-out).
#   BUILD=dir   prebuilt build tree (its lib/ may hold carried shared libraries)
#   QUICK=1     the benchmark's small sizes only
#   SWEEP=1     also the tuning-parameter sweep (sweep.jsonl)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/device-out}
BUILD=${BUILD:-$here/build-device}
mkdir -p "$OUT"
# Carried libraries, the toolkit, the driver, and the pip-installed CUDA libraries.
libs="$BUILD:$BUILD/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/nvidia/lib64"
libs="$libs:$(python3 -c 'import nvidia, os; print(":".join(os.path.join(p, x, "lib") for p in nvidia.__path__ for x in os.listdir(p)))' 2>/dev/null)"
export LD_LIBRARY_PATH="$libs:${LD_LIBRARY_PATH:-}"
if [ ! -x "$BUILD/bench_tridiag_gpu" ]; then
  cmake -S "$here" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_OPENCL=OFF \
    -DPSCR_BUILD_EXAMPLES=OFF > "$OUT/build.log" 2>&1 &&
    cmake --build "$BUILD" -j"$(nproc)" >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

status=0
# The cuda tests and the NVRTC compile test.
for t in "$BUILD"/tests/cuda_test_* "$BUILD"/tests/cpu_test_kernels_nvrtc; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  start=$(date +%s%N)
  timeout 300 "$t" > "$OUT/$name.log" 2>&1
  rc=$?
  printf '%-32s rc=%d  %d ms  %s\n' "$name" "$rc" "$((($(date +%s%N) - start) / 1000000))" \
    "$(tail -1 "$OUT/$name.log")" | tee -a "$OUT/tests.txt"
  [ "$rc" = 0 ] || status=1
done

# compute-sanitizer over the status test (small systems, every algorithm).
if command -v compute-sanitizer > /dev/null; then
  for tool in memcheck racecheck; do
    timeout ${SANITIZER_TIMEOUT:-240} compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$BUILD/tests/cuda_test_cuda_status" > "$OUT/sanitizer_$tool.log" 2>&1
    echo "compute-sanitizer $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.log" | tail -1)" |
      tee -a "$OUT/tests.txt"
  done
fi

# Benchmarks: JSON lines, then the table.
timeout ${BENCH_TIMEOUT:-420} "$BUILD/bench_tridiag_gpu" ${QUICK:+quick} > "$OUT/bench_tridiag_gpu.jsonl" 2> "$OUT/bench_tridiag_gpu.err"
echo "bench_tridiag_gpu rc=$?" | tee -a "$OUT/tests.txt"
if [ -n "${SWEEP:-}" ]; then # the parameter sweep (developer runs)
  timeout ${SWEEP_TIMEOUT:-300} "$BUILD/bench_tridiag_gpu" sweep > "$OUT/sweep.jsonl" 2>> "$OUT/bench_tridiag_gpu.err"
  echo "sweep rc=$?"
fi
python3 - "$OUT/bench_tridiag_gpu.jsonl" > "$OUT/RESULTS.md" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
rows = [r for r in rows if "median_ms" in r or r["what"] == "copy"]
dev = [r for r in rows if r["what"] == "copy"]
if dev:
    print(f"Device: {dev[0]['device']}, measured copy bandwidth {dev[0]['gbps']:.0f} GB/s (read + write)\n")
print("| what | n | batch | dtype | matrix | impl | algorithm | median ms | GB/s | floor ratio | backward error |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    if r["what"] == "copy":
        continue
    be = "" if r["backward_error"] < 0 else f"{r['backward_error']:.1e}"
    print(f"| {r['what']} | {r['n']} | {r['batch']} | {r['dtype']} | {r['matrix']} | {r['impl']} | "
          f"{r['alg']} | {r['median_ms']:.3f} | {r['gbps']:.0f} | {r['floor_ratio']:.2f} | {be} |")
PY
cat "$OUT/RESULTS.md"
exit $status
