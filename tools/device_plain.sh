#!/usr/bin/env bash
# One device call for the lane engine's plain kernel (pscr_lane_plain): build, the cuda PSCR
# engine suite, then 3D Poisson solve times with the lanes at PSCR_LANE_R = 16 / 8 / 32 and with
# the tiles. Logs under $OUT; table last. Usage: OUT=$OUT bash tools/device_plain.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr"; source tools/device_env.sh
PSCR_TEST_SMALL=2 timeout 120 $B/tests/cuda_test_cuda_pscr > "$OUT/test.log" 2>&1
echo "cuda_test_cuda_pscr (engine suite) rc $?"; tail -2 "$OUT/test.log"
run() { # run LABEL TUNE [defines]
  PSCR_KERNEL_DEFINES="$3" timeout ${T_ROW:-120} stdbuf -oL $B/bench_pscr_gpu --backends cuda \
    --problems ${PROBLEMS:-poisson3d} --min-n3 ${N3:-127} --max-n3 ${M3:-511} --reps 7 --xfer-reps 0 \
    --tune "$2" > "$OUT/$1.jsonl" 2>> "$OUT/bench.log"
}
run r16 pscr_lane=1
run r8 pscr_lane=1 -DPSCR_LANE_R=8
run r32 pscr_lane=1 -DPSCR_LANE_R=32
run tile pscr_lane=0
[ -n "${EXTRA:-}" ] && eval "$EXTRA"
python3 - "$OUT" <<'PY'
import json, sys, os
out = sys.argv[1]
def rows(f):
    r = {}
    p = os.path.join(out, f + '.jsonl')
    for line in open(p) if os.path.exists(p) else []:
        try: j = json.loads(line)
        except Exception: continue
        if 'solve_ms' in j: r[(j.get('problem'), j.get('n'))] = j
    return r
L = {k: rows(k) for k in ('r16', 'r8', 'r32', 'tile')}
print("| problem | n | plain R=16 ms | R=8 | R=32 | tiles ms | tiles / R=16 | residual R=16 | residual tiles |")
print("|---|---|---|---|---|---|---|---|---|")
for k in sorted(set(L['r16']) | set(L['tile'])):
    g = lambda t, f='solve_ms': L[t].get(k, {}).get(f, '-')
    sp = g('tile') / g('r16') if g('r16') != '-' and g('tile') != '-' else 0
    print(f"| {k[0]} | {k[1]} | {g('r16')} | {g('r8')} | {g('r32')} | {g('tile')} | {sp:.2f} | {g('r16','rel_residual')} | {g('tile','rel_residual')} |")
PY
