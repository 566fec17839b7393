#!/usr/bin/env bash
# One device call for the lane engine's plain kernel (pscr_lane_plain): build, the cuda PSCR
# engine suite (default, and 16 rows a chunk), then 3D Poisson solve times for kernel variants
# (VARIANTS: "label:defines" with defines comma-separated) and the tiles. Logs under $OUT;
# table last. Usage: OUT=$OUT bash tools/device_plain.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr"; source tools/device_env.sh
for v in "1:" "2:-DPSCR_LANE_R=16"; do # the small suite, then the engine suite of a variant
  sm=${v%%:*}; d=${v#*:}; log="$OUT/test-$sm.log"
  PSCR_KERNEL_DEFINES="$d" PSCR_TEST_SMALL=$sm timeout 200 $B/tests/cuda_test_cuda_pscr > "$log" 2>&1
  echo "cuda_test_cuda_pscr (PSCR_TEST_SMALL=$sm) '$d' rc $?: $(tail -2 "$log" | tr '\n' ' ')"
done
run() { # run LABEL TUNE [defines]
  PSCR_KERNEL_DEFINES="$3" timeout ${T_ROW:-120} stdbuf -oL $B/bench_pscr_gpu --backends cuda \
    --problems ${PROBLEMS:-poisson3d} --min-n3 ${N3:-255} --max-n3 ${M3:-511} --reps 5 --xfer-reps 0 \
    --tune "$2" > "$OUT/$1.jsonl" 2>> "$OUT/bench.log"
}
VARIANTS=${VARIANTS:-"default: f0g16:-DPSCR_LANE_PLAIN_GROUPS=16 r16g8:-DPSCR_LANE_R=16,-DPSCR_LANE_PLAIN_GROUPS=8"}
labels=""
for v in $VARIANTS; do
  l=${v%%:*}; d=${v#*:}; labels="$labels $l"
  run $l pscr_lane=1 "${d//,/ }"
done
run tile pscr_lane=0
[ -n "${EXTRA:-}" ] && eval "$EXTRA"
python3 tools/variant_table.py "$OUT" $labels tile
