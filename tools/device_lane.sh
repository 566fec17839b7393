#!/usr/bin/env bash
# One device call for the PSCR lane engine (kernels/common/pscr_lane.h): build, the cuda PSCR
# test, then CUDA solve times with the lane engine and with the tiles (pscr_lane=0) for 2D and
# 3D Poisson, the cuFFT DST solver on the same grids, compute-sanitizer memcheck and racecheck
# over the small PSCR suite. Logs under $OUT; table last.
# Usage: OUT=$OUT PART=1 bash tools/device_lane.sh, then PART=2 on the same warm machine (each
# part fits one 10-minute call): 1 = build, test, lane vs tiles vs cuFFT; 2 = the PSCR_LANE_R
# sweep and the sanitizers. N2 / N3: smallest 2D / 3D n, EXTRA: more steps.
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
OUT=${OUT:-./device-out}; B=build-lane; mkdir -p "$OUT"
t0=$(date +%s)
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=OFF \
    -DPSCR_BUILD_EXAMPLES=OFF && cmake --build $B -j16 --target bench_pscr_gpu bench_fft_poisson_gpu \
    cuda_test_cuda_pscr; } > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; echo BUILD FAILED; }
echo "build $(( $(date +%s) - t0 )) s"
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
PART=${PART:-1}
if [ "$PART" = 1 ]; then
  timeout 120 $B/tests/cuda_test_cuda_pscr > "$OUT/test.log" 2>&1; echo "cuda_test_cuda_pscr rc $?"
  tail -3 "$OUT/test.log"
fi
run() { # run LABEL TUNE: the rows of bench_pscr_gpu into $OUT/LABEL.jsonl
  local a=(); [ "$2" != - ] && a=(--tune "$2")
  timeout ${T_ROW:-150} stdbuf -oL $B/bench_pscr_gpu --backends cuda --problems ${PROBLEMS:-poisson2d,poisson3d,helmholtz2d,helmholtz3d} \
    --min-n ${N2:-1023} --min-n3 ${N3:-127} --reps 9 --xfer-reps 1 "${a[@]}" > "$OUT/$1.jsonl" 2>> "$OUT/bench.log"
}
if [ "$PART" = 1 ]; then
  run lane pscr_lane=1
  run tile pscr_lane=0
  timeout 60 $B/bench_fft_poisson_gpu nobig > "$OUT/fft.jsonl" 2>> "$OUT/bench.log"
else
  # rows between checkpoints: registers (occupancy) against reductions and checkpoint traffic
  PSCR_KERNEL_DEFINES="-DPSCR_LANE_R=8" PROBLEMS=poisson3d,helmholtz3d run lane_r8 pscr_lane=1
  PSCR_KERNEL_DEFINES="-DPSCR_LANE_R=4" PROBLEMS=poisson3d,helmholtz3d run lane_r4 pscr_lane=1
  # the sanitizers over the small PSCR suite (lane engine, pivoting everywhere, tiles)
  for tool in memcheck racecheck; do
    PSCR_TEST_SMALL=$([ $tool = racecheck ] && echo 2 || echo 1) timeout ${T_SAN:-150} compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
      $B/tests/cuda_test_cuda_pscr > "$OUT/$tool.log" 2>&1
    echo "compute-sanitizer $tool rc $? ($(grep -c 'ERROR SUMMARY: 0' "$OUT/$tool.log") clean summaries)"
  done
fi
[ -n "${EXTRA:-}" ] && eval "$EXTRA"
mkdir -p $B/lane-rows && cp "$OUT"/*.jsonl $B/lane-rows/ 2> /dev/null # for the other part's table
python3 - "$OUT" $B/lane-rows <<'PY'
import json, sys, os
out, kept = sys.argv[1], sys.argv[2]
def rows(f):
    r = {}
    p = os.path.join(out, f)
    if not os.path.exists(p): p = os.path.join(kept, f)
    if not os.path.exists(p): return r
    for line in open(p):
        try: j = json.loads(line)
        except Exception: continue
        if 'solve_ms' in j: r[(j.get('problem'), j.get('n'))] = j
    return r
lane, tile = rows('lane.jsonl'), rows('tile.jsonl')
r8, r4 = rows('lane_r8.jsonl'), rows('lane_r4.jsonl')
fft = {}
fp = os.path.join(out if os.path.exists(os.path.join(out, 'fft.jsonl')) else kept, 'fft.jsonl')
for line in open(fp) if os.path.exists(fp) else []:
    try: j = json.loads(line)
    except Exception: continue
    if 'median_ms' in j: fft[(j.get('dim'), j.get('n'))] = j['median_ms']
print("| problem | n | lane ms | lane R=8 ms | lane R=4 ms | tile ms | speedup | lane residual | tile residual | cuFFT ms |")
print("|---|---|---|---|---|---|---|---|---|---|")
for k in sorted(set(lane) | set(tile), key=lambda k: (k[0], k[1])):
    l, t = lane.get(k, {}), tile.get(k, {})
    d = 3 if '3d' in k[0] else 2
    f = fft.get((d, k[1]), '-')
    sp = t.get('solve_ms', 0) / l['solve_ms'] if l.get('solve_ms') and t.get('solve_ms') else 0
    a8, a4 = r8.get(k, {}).get('solve_ms', '-'), r4.get(k, {}).get('solve_ms', '-')
    print(f"| {k[0]} | {k[1]} | {l.get('solve_ms','-')} | {a8} | {a4} | {t.get('solve_ms','-')} | {sp:.2f} | {l.get('rel_residual','-')} | {t.get('rel_residual','-')} | {f} |")
PY
