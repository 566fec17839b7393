#!/usr/bin/env bash
# The rows a time-limited bench/device.sh call leaves out: CUDA + OpenCL build, the cuda and
# opencl test labels, bench_pscr_gpu on CUDA and NVIDIA OpenCL (PROBLEMS, from N2 / N3), the
# cuFFT DST solver. Logs under $OUT; a short table last. Usage: OUT=$OUT bash tools/device_rest.sh
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1 PSCR_OPENCL_PLATFORM=NVIDIA
OUT=${OUT:-./device-out}; B=${B:-build-rest}; mkdir -p "$OUT"; t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=ON \
    -DPSCR_BUILD_EXAMPLES=OFF && cmake --build $B -j16; } > "$OUT/build.log" 2>&1 || echo BUILD FAILED
echo "build $(( $(date +%s) - t0 )) s"
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
timeout ${T_TESTS:-200} ctest --test-dir $B -L "cuda|opencl" -j4 --timeout 190 > "$OUT/tests.log" 2>&1
echo "tests rc $?: $(grep -E 'tests passed|tests failed' "$OUT/tests.log")"; grep -E "\*\*\*|Failed" "$OUT/tests.log" | head
timeout ${T_PSCR:-260} stdbuf -oL $B/bench_pscr_gpu --backends cuda,opencl \
  --problems ${PROBLEMS:-helmholtz2d,poisson3d,helmholtz3d} --min-n ${N2:-1023} --min-n3 ${N3:-63} \
  --reps 7 --xfer-reps 1 > "$OUT/pscr.jsonl" 2>> "$OUT/bench.log"; echo "pscr rc $?"
timeout 60 $B/bench_fft_poisson_gpu nobig > "$OUT/fft.jsonl" 2>> "$OUT/bench.log"; echo "fft rc $?"
python3 - "$OUT" <<'PY'
import json, sys, os
r = {}
for line in open(os.path.join(sys.argv[1], 'pscr.jsonl')):
    try: j = json.loads(line)
    except Exception: continue
    if 'solve_ms' in j: r[(j['problem'], j['n'], j['backend'])] = j
print("| problem | n | CUDA ms | OpenCL ms | OpenCL/CUDA | CUDA residual |")
for k in sorted({(a, b) for a, b, c in r}):
    c, o = r.get(k + ('cuda',), {}), r.get(k + ('opencl',), {})
    q = o['solve_ms'] / c['solve_ms'] if c and o else 0
    print(f"| {k[0]} | {k[1]} | {c.get('solve_ms', '-')} | {o.get('solve_ms', '-')} | {q:.2f} | {c.get('rel_residual', '-')} |")
PY
