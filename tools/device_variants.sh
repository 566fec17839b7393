#!/usr/bin/env bash
# One device call: GPU PSCR solve times of kernel variants built from the same sources in the
# same run (VARIANTS: "label:defines", defines comma-separated, passed through
# PSCR_KERNEL_DEFINES; default: the fast pivot reciprocal S_RCP against the exact division),
# for ROWS (default 3D Poisson 255-511 on the plain lanes, 2D Poisson 4095-8191 and 2D Helmholtz
# 4095 on the tiles); then (TESTS=1, default) the cuda tridiag test and the PSCR small suite.
# Logs under $OUT; table last. Usage: OUT=$OUT [VARIANTS=...] [ROWS=3d] bash tools/device_variants.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr cuda_test_cuda_tridiag"; source tools/device_env.sh
VARIANTS=${VARIANTS:-"fast: exact:-DPSCR_EXACT_RCP"}
rows=("poisson3d --min-n3 ${N3:-255} --max-n3 ${M3:-511} --max-n 0")
[ "${ROWS:-all}" = all ] && rows+=("poisson2d --min-n ${N2:-4095} --max-n 8191 --max-n3 0"
                                  "helmholtz2d --min-n 4095 --max-n 4095 --max-n3 0")
labels=""
for v in $VARIANTS; do
  l=${v%%:*}; d=${v#*:}; labels="$labels $l"
  for p in "${rows[@]}"; do
    PSCR_KERNEL_DEFINES="${d//,/ }" timeout ${T_ROW:-100} stdbuf -oL $B/bench_pscr_gpu \
      --backends cuda --problems $p --reps 9 --xfer-reps 0 >> "$OUT/$l.jsonl" 2>> "$OUT/bench.log"
  done
done
[ "${TESTS:-1}" = 1 ] && for t in "cuda_test_cuda_tridiag:" "cuda_test_cuda_pscr:1" ; do
  x=${t%%:*}; sm=${t#*:}; log="$OUT/$x-$sm.log"
  PSCR_TEST_SMALL=$sm timeout ${T_TEST:-150} $B/tests/$x > "$log" 2>&1
  echo "$x (PSCR_TEST_SMALL=$sm) rc $?: $(tail -2 "$log" | tr '\n' ' ')"
done
python3 tools/variant_table.py "$OUT" $labels
