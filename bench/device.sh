#!/usr/bin/env bash
# ONE device call (about 7 minutes, 10 at most): configure + build (Release, sm_90), the cuda
# and opencl tests, the GPU benchmarks (pscr_gpu, fft_poisson_gpu,
# tridiag_gpu), compute-sanitizer memcheck and racecheck, then the CPU ones on the 16-core host (pscr_gpu --backends cpu, tridiag_cpu at
# n = 2^25, pscr_cpu, stability at n = 2^20, eigen_block). Every step runs under `timeout`
# (its own limit, cut to what is left of T_TOTAL), a failing step is marked and the script goes
# on; the summary (steps, then the issues' bars) is printed LAST. Files under $OUT (8 at most
# come back from the device): build.log tests.log bench.log pscr_gpu.jsonl fft.jsonl
# tridiag_gpu.jsonl cpu.jsonl RESULTS.md.
#
# Environment: OUT (default ./device-out), BUILD (default ./build-device), T_TOTAL (seconds for
# everything, default 450), PSCR_BENCH_QUICK=1 (small sizes and short limits: a smoke test that
# also runs on a machine without a GPU, where the GPU steps are marked), PSCR_DEVICE_OPENCL
# (ON/OFF, default OFF), PSCR_BENCH_BIG (1 = the 16383^2 / 1023^3 PSCR rows, default 1),
# per-step limits T_BUILD T_TESTS T_MEMCHECK T_PSCR_GPU T_PSCR_BIG T_FFT T_TD_GPU T_PSCR_CPUROWS
# T_PSCR_CPUROWS_H T_TD_CPU T_PSCR_CPU T_STAB T_EIGEN.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/device-out}
BUILD=${BUILD:-$here/build-device}
QUICK=${PSCR_BENCH_QUICK:-0}
mkdir -p "$OUT"
t0=$(date +%s)
if [ "$QUICK" = 1 ]; then TOTAL=${T_TOTAL:-400}; else TOTAL=${T_TOTAL:-450}; fi
NP=$(nproc)
: > "$OUT/build.log"; : > "$OUT/tests.log"; : > "$OUT/bench.log"
: > "$OUT/pscr_gpu.jsonl"; : > "$OUT/fft.jsonl"; : > "$OUT/tridiag_gpu.jsonl"; : > "$OUT/cpu.jsonl"
STEPS=$(mktemp) # name|status|seconds, one line per step (kept out of $OUT: 8 files come back)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }

# The toolkit (nvcc, compute-sanitizer), the driver's and pip's CUDA libraries, the build.
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc > /dev/null && export CUDACXX=${CUDACXX:-$(command -v nvcc)}
libs="/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/nvidia/lib64"
libs="$libs:$(python3 -c 'import nvidia, os; print(":".join(os.path.join(p, x, "lib") for p in nvidia.__path__ for x in os.listdir(p)))' 2> /dev/null)"
export LD_LIBRARY_PATH="$BUILD:$libs:${LD_LIBRARY_PATH:-}"
export OPENBLAS_NUM_THREADS=1 PYTHONUNBUFFERED=1 # OpenMP waits actively: passive cost the CPU rows 10-40 %
SB=(stdbuf -oL) # line-buffered: a step cut by its limit keeps its rows
command -v stdbuf > /dev/null || SB=()
GPU=0
nvidia-smi -L > /dev/null 2>&1 && GPU=1
# OpenCL on the GPU machine means NVIDIA's platform (PoCL may be listed first)
[ "$GPU" = 1 ] && export PSCR_OPENCL_PLATFORM=${PSCR_OPENCL_PLATFORM:-NVIDIA}
{
  echo "date: $(date -u '+%F %T') UTC, host: $(uname -n), $NP cores, quick=$QUICK"
  git -C "$here" log -1 --format='commit: %h %s' 2> /dev/null
  git -C "$here" status --short 2> /dev/null | head -40
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader 2>&1
  nvcc --version 2>&1 | tail -2
} >> "$OUT/build.log"

# step NAME LIMIT STDOUT STDERR CMD...: runs CMD under timeout, records NAME|status|seconds.
step() {
  local name=$1 lim=$2 out=$3 err=$4 left
  shift 4
  left=$((TOTAL - ($(date +%s) - t0) - 10)) # 10 s kept for the summary
  [ "$lim" -gt "$left" ] && lim=$left
  if [ "$lim" -lt 5 ]; then
    echo "$name|SKIPPED (no time left)|0" >> "$STEPS"
    stamp "$name: skipped, no time left"
    return 0
  fi
  if [ ! -x "$1" ] && ! command -v "$1" > /dev/null; then
    echo "$name|MISSING ($(basename "$1"))|0" >> "$STEPS"
    stamp "$name: $(basename "$1") missing"
    return 0
  fi
  echo "=== $name (limit $lim s): $*" >> "$err"
  local s rc st
  s=$(date +%s)
  timeout -k 5 "$lim" "${SB[@]}" "$@" >> "$out" 2>> "$err"
  rc=$?
  case $rc in
    0) st=ok ;;
    77) st="skipped (no device)" ;;
    124 | 137) st="TIMEOUT after $lim s (rows so far kept)" ;;
    *) st="FAILED rc=$rc" ;;
  esac
  echo "=== $name: $st" >> "$err"
  echo "$name|$st|$(($(date +%s) - s))" >> "$STEPS"
  stamp "$name: $st"
}

lim() { # lim NAME FULL QUICK: the step's limit (env T_NAME overrides)
  local v
  eval "v=\${T_$1:-}"
  if [ -n "$v" ]; then echo "$v"; elif [ "$QUICK" = 1 ]; then echo "$3"; else echo "$2"; fi
}

# ---- build ----
build() {
  cmake -S "$here" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DPSCR_WITH_OPENCL="${PSCR_DEVICE_OPENCL:-OFF}" -DPSCR_BUILD_EXAMPLES=OFF &&
    cmake --build "$BUILD" -j"$NP"
}
export -f build
export here BUILD NP
step build "$(lim BUILD 170 300)" "$OUT/build.log" "$OUT/build.log" bash -c build
B=$BUILD

# ---- cuda tests, compute-sanitizer ----
labels=cuda
[ "${PSCR_DEVICE_OPENCL:-OFF}" = ON ] && labels="cuda|opencl"
step gpu-tests "$(lim TESTS 70 60)" "$OUT/tests.log" "$OUT/tests.log" \
  ctest --test-dir "$B" -L "$labels" --output-on-failure --timeout 100 -j4
# ---- compute-sanitizer (after the benchmarks: they come first when time is short) ----
sanitize() {
  if [ "$GPU" = 1 ] && command -v compute-sanitizer > /dev/null; then
    step memcheck "$(lim MEMCHECK 30 30)" "$OUT/tests.log" "$OUT/tests.log" compute-sanitizer \
      --tool memcheck --error-exitcode 9 "$B/tests/cuda_test_cuda_status"
    step memcheck-pscr "$(lim MEMCHECK_PSCR 40 30)" "$OUT/tests.log" "$OUT/tests.log" env \
      PSCR_TEST_SMALL=1 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
      "$B/tests/cuda_test_cuda_pscr"
    step racecheck "$(lim RACECHECK 40 30)" "$OUT/tests.log" "$OUT/tests.log" compute-sanitizer \
      --tool racecheck --error-exitcode 9 "$B/tests/cuda_test_cuda_status"
  else
    echo "sanitizers|SKIPPED (no GPU or no compute-sanitizer)|0" >> "$STEPS"
  fi
}

# ---- GPU benchmarks ----
if [ "$QUICK" = 1 ]; then
  step pscr-gpu "$(lim PSCR_GPU 100 30)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
    "$B/bench_pscr_gpu" --quick --backends cuda,opencl
  step fft-poisson "$(lim FFT 60 30)" "$OUT/fft.jsonl" "$OUT/bench.log" \
    "$B/bench_fft_poisson_gpu" quick nobig
  step tridiag-gpu "$(lim TD_GPU 40 30)" "$OUT/tridiag_gpu.jsonl" "$OUT/bench.log" \
    "$B/bench_tridiag_gpu" quick
else
  # 9 device solves a row keep the whole table (CUDA and OpenCL) inside one call
  step pscr-gpu "$(lim PSCR_GPU 130 30)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
    "$B/bench_pscr_gpu" --backends cuda,opencl --reps 9 --xfer-reps 3
  [ "${PSCR_BENCH_FFT:-0}" = 1 ] &&
    step fft-poisson "$(lim FFT 60 30)" "$OUT/fft.jsonl" "$OUT/bench.log" "$B/bench_fft_poisson_gpu"
  # 3D Poisson 1023^3 (issue 5's residual bar); 16383^2 with PSCR_BENCH_BIG=2
  big=poisson3d
  [ "${PSCR_BENCH_BIG:-1}" = 2 ] && big=poisson2d,poisson3d
  [ "${PSCR_BENCH_BIG:-1}" != 0 ] &&
    step pscr-gpu-big "$(lim PSCR_BIG 200 30)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
      "$B/bench_pscr_gpu" --backends cuda --problems "$big" --big-only --reps 3 --xfer-reps 1
fi

# ---- CPU benchmarks (the 16-core host) ----
if [ "$QUICK" = 1 ]; then
  step pscr-cpu-rows "$(lim PSCR_CPUROWS 60 40)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
    "$B/bench_pscr_gpu" --quick --backends cpu --cpu-budget 0.5
  step tridiag-cpu "$(lim TD_CPU 60 30)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
    "$B/bench_tridiag_cpu" --min-log 18 --max-log 18 --dtype f64 --runs 3
  step pscr-cpu "$(lim PSCR_CPU 80 40)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
    "$B/bench_pscr_cpu" --quick --problems poisson2d,poisson3d --budget 0.5
  step stability "$(lim STAB 40 30)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
    "$B/bench_stability" --n 4096 --json
  step eigen-block "$(lim EIGEN 25 20)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
    "$B/bench_eigen_block" 1023 1
  sanitize
else
  # Poisson at 1 and all threads: the 20x bar (2D 8191^2, 3D 255^3) and issue 3's 1T / 16T
  step pscr-cpu-rows "$(lim PSCR_CPUROWS 90 40)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
    "$B/bench_pscr_gpu" --backends cpu --problems poisson2d,poisson3d --cpu-threads "1,$NP" \
    --cpu-budget 1 --cpu-max-s 8
  step tridiag-cpu "$(lim TD_CPU 50 30)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
    "$B/bench_tridiag_cpu" --min-log 25 --max-log 25 --dtype f64 --big-runs 3 --threads "$NP"
  sanitize
  if [ "${PSCR_BENCH_ALL:-0}" = 1 ]; then # the rest of the tables (a second call)
    step pscr-cpu-rows-h "$(lim PSCR_CPUROWS_H 35 30)" "$OUT/pscr_gpu.jsonl" "$OUT/bench.log" \
      "$B/bench_pscr_gpu" --backends cpu --problems helmholtz2d,helmholtz3d \
      --cpu-threads "1,$NP" --cpu-budget 1.5 --cpu-max-s 3
    step pscr-cpu "$(lim PSCR_CPU 80 40)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
      "$B/bench_pscr_cpu" --problems poisson2d,poisson3d --threads "$NP" --budget 2
    step tridiag-gpu "$(lim TD_GPU 40 30)" "$OUT/tridiag_gpu.jsonl" "$OUT/bench.log" \
      "$B/bench_tridiag_gpu" quick
    step stability "$(lim STAB 40 30)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
      "$B/bench_stability" --n 1048576 --json
    step eigen-block "$(lim EIGEN 25 20)" "$OUT/cpu.jsonl" "$OUT/bench.log" \
      "$B/bench_eigen_block" 4095 1
  fi
fi

# ---- summary, printed last ----
if command -v python3 > /dev/null; then
  python3 "$here/bench/device_summary.py" "$OUT" "$STEPS" "$((TOTAL))" "$NP"
else
  column -t -s'|' "$STEPS" 2> /dev/null || cat "$STEPS"
fi
rm -f "$STEPS"
stamp "done"
exit 0
