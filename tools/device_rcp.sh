#!/usr/bin/env bash
# One device call: the fast pivot reciprocal (S_RCP) against the exact division
# (-DPSCR_EXACT_RCP through PSCR_KERNEL_DEFINES), same build, same run: solve times of 3D
# Poisson (plain lanes), 2D Poisson and 2D Helmholtz (tiles), then the cuda tridiag test and
# the PSCR small suite. Logs under $OUT; table last. Usage: OUT=$OUT bash tools/device_rcp.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr cuda_test_cuda_tridiag"; source tools/device_env.sh
run() { # run LABEL [defines]
  for p in "poisson3d --min-n3 ${N3:-255} --max-n3 511 --max-n 0" \
           "poisson2d --min-n ${N2:-4095} --max-n 8191 --max-n3 0" \
           "helmholtz2d --min-n 4095 --max-n 4095 --max-n3 0"; do
    PSCR_KERNEL_DEFINES="$2" timeout ${T_ROW:-100} stdbuf -oL $B/bench_pscr_gpu --backends cuda \
      --problems $p --reps 9 --xfer-reps 0 >> "$OUT/$1.jsonl" 2>> "$OUT/bench.log"
  done
}
run fast ""
run exact "-DPSCR_EXACT_RCP"
for t in "cuda_test_cuda_tridiag:" "cuda_test_cuda_pscr:1" ; do
  x=${t%%:*}; sm=${t#*:}; log="$OUT/$x-$sm.log"
  PSCR_TEST_SMALL=$sm timeout ${T_TEST:-150} $B/tests/$x > "$log" 2>&1
  echo "$x (PSCR_TEST_SMALL=$sm) rc $?: $(tail -2 "$log" | tr '\n' ' ')"
done

python3 - "$OUT" fast exact <<'PY'
import json, sys, os
out, labels = sys.argv[1], sys.argv[2:]
def rows(f):
    r = {}
    p = os.path.join(out, f + '.jsonl')
    for line in open(p) if os.path.exists(p) else []:
        try: j = json.loads(line)
        except Exception: continue
        if 'solve_ms' in j: r[(j.get('problem'), j.get('n'))] = j
    return r
L = {k: rows(k) for k in labels}
keys = sorted(set().union(*[set(v) for v in L.values()]))
print("| problem | n | " + " | ".join(f"{l} ms" for l in labels) + " | residuals |")
print("|---|---|" + "---|" * (len(labels) + 1))
for k in keys:
    cells = [str(L[l].get(k, {}).get('solve_ms', '-')) for l in labels]
    res = " / ".join(f"{float(L[l][k]['rel_residual']):.1e}" for l in labels if k in L[l] and 'rel_residual' in L[l][k])
    print(f"| {k[0]} | {k[1]} | " + " | ".join(cells) + f" | {res} |")
PY
