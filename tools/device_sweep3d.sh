#!/usr/bin/env bash
# Tuning rows at 3D Poisson (ROWS, as device_reg.sh) and 2D Helmholtz at
# radices RADS (same call). Usage: OUT=$OUT [ROWS=...] [RADS="4 8 16"] bash tools/device_sweep3d.sh
TARGETS="bench_pscr_gpu" source tools/device_env.sh
tuned_rows "${ROWS:-}" ${REPS:-7}
for q in ${RADS:-}; do
  timeout 200 $B/bench_pscr_gpu --backends cuda --problems helmholtz2d --min-n ${HN:-4095} \
    --max-n ${HN:-4095} --reps 5 --xfer-reps 0 --radix $q 2>> "$OUT/err.log" | grep '"solve_ms"' |
    python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("helmholtz2d %5d radix %-3d %9.3f ms  residual %.2e" % (r["n"], r["radix"], r["solve_ms"], r["rel_residual"]))'
done
