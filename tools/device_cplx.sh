#!/usr/bin/env bash
# 2D Helmholtz (C128) on the CUDA backend with AUTO against CR_PCR_THOMAS
# (pscr_reg.h's kernels, no pivoting), same call: solve ms and residual.
# Usage: OUT=$OUT [NS="1023 4095"] [ALGS="auto cr_pcr_thomas"] [TUNE=...] bash tools/device_cplx.sh
TARGETS="bench_pscr_gpu" source tools/device_env.sh
for n in ${NS:-1023 2047 4095}; do
  for alg in ${ALGS:-auto cr_pcr_thomas}; do
    a=(); [ -n "${TUNE:-}" ] && a=(--tune "$TUNE")
    timeout 200 $B/bench_pscr_gpu --backends cuda --problems ${PB:-helmholtz2d} --min-n $n --max-n $n \
      --reps ${REPS:-7} --xfer-reps 0 --innermost $alg "${a[@]}" 2>> "$OUT/err.log" | grep '"solve_ms"' |
      python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("%-12s %5d %-14s %9.3f ms  residual %.2e" % (r["problem"], r["n"], sys.argv[1], r["solve_ms"], r["rel_residual"]))' $alg
  done
done
