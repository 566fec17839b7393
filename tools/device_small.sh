#!/usr/bin/env bash
# OpenCL against CUDA on small PSCR solves, where process-to-process noise is large: REPS
# processes (default 3) per setting, alternating, each timing both backends; per row the
# per-process ratios and their median. Settings: TUNES, space-separated --tune values ("-" =
# the defaults; default "- pscr_slab=0"). Rows: PROBLEMS, 2D N2..N2MAX, 3D N3..N3MAX; BREPS
# solves a row (41), TMO seconds a process (120). WARM=1 first builds every program the rows
# take, one process per problem and backend in parallel, into the disk cache (NVIDIA's OpenCL
# builds a program in 15-30 s: a whole sweep's first process spent 250-560 s in them).
# PINS: space-separated CPU lists each process is pinned to by taskset ("-" = unpinned, the
# default); the table's tune column then reads pin@tune.
# BASE=dir: also a base tree (made here by `git archive COMMIT | tar -x -C dir`), built on the
# device and timed alternating with this one; the table's tune column then reads tree:tune.
# GAP: seconds of sleep after each process (default 0).
# Usage: OUT=$OUT [BASE=ab-base] bash tools/device_small.sh
[ -n "${BASE:-}" ] && (cd "$BASE" && OCL=ON OUT=$OUT/base TARGETS=bench_pscr_gpu \
  bash -c 'source tools/device_env.sh') &
OCL=ON TARGETS=${TARGETS:-bench_pscr_gpu} source tools/device_env.sh
wait
ROOT=$PWD TREES=". ${BASE:-}"
bench() { # tree, then bench_pscr_gpu's arguments: run in the tree, with its own disk cache
  (cd "$ROOT" && cd "$1" && export PSCR_CACHE_DIR=$PWD/.pscr-cache \
    LD_LIBRARY_PATH=$PWD/$B:$LD_LIBRARY_PATH && $PWD/$B/bench_pscr_gpu "${@:2}")
}
label() { [ "$1" = . ] && echo new || echo base; }
PROBLEMS=${PROBLEMS:-poisson2d,poisson3d} TUNES=${TUNES:-- pscr_slab=0}
sizes=(--min-n ${N2:-31} --max-n ${N2MAX:-127} --min-n3 ${N3:-31} --max-n3 ${N3MAX:-63} --xfer-reps 0)
tune_args() { a=(); [ "$1" != - ] && a=(--tune "$1"); } # "-": the defaults
if [ "${WARM:-0}" = 1 ]; then
  for tr in $TREES; do for tune in $TUNES; do for bk in cuda opencl; do
    for pb in ${PROBLEMS//,/ }; do
      tune_args "$tune"
      timeout ${WARM_S:-300} bash -c "$(declare -f bench); B=$B ROOT=$ROOT bench \"\$@\"" _ $tr \
        --backends $bk --problems $pb "${sizes[@]}" --reps 3 --no-residual "${a[@]}" \
        > /dev/null 2>> "$OUT/warm.err" &
    done
  done; done; done
  wait
fi
pin_cmd() { pc=(); [ "$1" != - ] && pc=(taskset -c "$1"); }
for rep in $(seq ${REPS:-3}); do for pin in ${PINS:--}; do for tune in $TUNES; do for tr in $TREES; do
  tune_args "$tune"
  pin_cmd "$pin"
  t=$tune; [ -n "${BASE:-}" ] && t=$(label $tr):$tune
  [ "${PINS:--}" != - ] && t=$pin@$t
  timeout ${TMO:-120} "${pc[@]}" bash -c "$(declare -f bench); B=$B ROOT=$ROOT bench \"\$@\"" _ $tr \
    --backends cuda,opencl --problems $PROBLEMS "${sizes[@]}" --reps ${BREPS:-41} "${a[@]}" \
    2>> "$OUT/bench.err" | grep '"solve_ms"' | sed "s/^{/{\"tune\":\"$t\",\"rep\":$rep,/" \
    >> "$OUT/small.jsonl"
  sleep ${GAP:-0} # seconds between processes (the driver's teardown of the last one)
done; done; done; done
python3 - "$OUT/small.jsonl" <<'PY'
import json, sys, statistics as st
r = {}
for l in open(sys.argv[1]):
    j = json.loads(l)
    r.setdefault((j['problem'], j['n'], j['tune']), {}).setdefault(j['rep'], {})[j['backend']] = j
# solve_ms is CUDA's device time (events around the launches) against OpenCL's host time
# (first enqueue to status read); wall_ms is the host's clock around pscr_solve_array on both
print("| problem | n | tune | CUDA ms | OpenCL ms | OpenCL / CUDA (median) | wall: CUDA ms | OpenCL ms "
      "| OpenCL / CUDA (median) | residual CUDA / OpenCL |")
print("|---|---|---|---|---|---|---|---|---|---|")
def ratio(v, both, key): # a column's CUDA and OpenCL figures and their per-process ratios
    c, o = ([v[i][b][key] for i in both] for b in ('cuda', 'opencl'))
    q = [a / b for a, b in zip(o, c)]
    return (f"{' '.join('%.4f' % x for x in c)} | {' '.join('%.4f' % x for x in o)} | "
            f"{' '.join('%.2f' % x for x in q)} ({st.median(q) if q else 0:.2f})")
for k in sorted(r):
    v = r[k]
    both = [i for i in sorted(v) if 'cuda' in v[i] and 'opencl' in v[i]]
    res = [v[both[0]][b]['rel_residual'] if both else float('nan') for b in ('cuda', 'opencl')]
    print(f"| {k[0]} | {k[1]} | {k[2]} | {ratio(v, both, 'solve_ms')} | "
          f"{ratio(v, both, 'wall_ms')} | {res[0]:.1e} / {res[1]:.1e} |")
PY
