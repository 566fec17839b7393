#!/usr/bin/env bash
# OpenCL on NVIDIA's platform against CUDA: build, the opencl test label, PSCR solve
# times of both backends in one bench_pscr_gpu process (rows printed as they
# come, so a timeout keeps the finished ones). Logs under $OUT.
# Usage: OUT=$OUT bash tools/device_opencl.sh
# (PROBLEMS, N2 / N2MAX, N3 / N3MAX: the bench rows; default 3D Poisson 255^3 .. 511^3 and
# 2D 4095^2; REPS (5), T_BENCH (150 s), ARGS (more bench options, e.g. --no-residual);
# TESTS=0 skips the PTX probe and the tests, with TARGETS=bench_pscr_gpu a shorter build).
# First, whether NVIDIA's compiler takes td.cl's inline PTX (tools/oclrepro/ptx.c).
OCL=ON TARGETS=${TARGETS:-all} source tools/device_env.sh
if [ "${TESTS:-1}" = 1 ]; then
  cc -O2 -o $B/ptx_probe tools/oclrepro/ptx.c -lOpenCL -lm && $B/ptx_probe | tee "$OUT/ptx.log"
  (cd $B && timeout ${T_TEST:-200} ctest -L opencl --output-on-failure > "$OUT/tests.log" 2>&1)
  grep -E "tests passed|Failed|Passed" "$OUT/tests.log" | tail -8
fi
timeout ${T_BENCH:-150} stdbuf -oL $B/bench_pscr_gpu --backends cuda,opencl \
  --problems ${PROBLEMS:-poisson3d,poisson2d} --min-n ${N2:-4095} --max-n ${N2MAX:-${N2:-4095}} \
  --min-n3 ${N3:-255} --max-n3 ${N3MAX:-511} --reps ${REPS:-5} --xfer-reps 0 ${ARGS:-} \
  > "$OUT/ocl.jsonl" 2>> "$OUT/bench.log"
python3 - "$OUT/ocl.jsonl" <<'PY'
import json, sys
r = {}
for line in open(sys.argv[1]):
    try: j = json.loads(line)
    except Exception: continue
    if 'solve_ms' in j: r.setdefault((j['problem'], j['n']), {})[j['backend']] = j
print("| problem | n | CUDA ms | OpenCL ms | OpenCL / CUDA | residual CUDA / OpenCL |")
print("|---|---|---|---|---|---|")
for k, v in r.items():
    c, o = v.get('cuda', {}), v.get('opencl', {})
    ratio = o['solve_ms'] / c['solve_ms'] if 'solve_ms' in o and 'solve_ms' in c else 0
    print(f"| {k[0]} | {k[1]} | {c.get('solve_ms','-')} | {o.get('solve_ms','-')} | {ratio:.2f} | "
          f"{c.get('rel_residual','-')} / {o.get('rel_residual','-')} |")
PY
