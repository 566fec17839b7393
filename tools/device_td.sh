#!/usr/bin/env bash
# The GPU tridiagonal engine on the device: the bar cases of issue 4 (bench_tridiag_gpu
# case ...) for each tuning in TUNES (PSCR_BENCH_TUNE values; "-" = defaults), then, with
# NCU=1, one launch of each kernel:case of NCU_CASES under ncu (stall reasons).
# Usage: OUT=$OUT [CASES="shifted:512:16384 ..."] [TUNES="- tile_reg=0"] [NCU=1] bash tools/device_td.sh
TARGETS=${TARGETS:-bench_tridiag_gpu} . "$(dirname "$0")/device_env.sh"
CASES=${CASES:-"batch:512:16384 batch:4096:4096 batch:16384:1024 batch:8192:8192 shifted:512:16384 shifted:4096:4096 shifted:8192:8192 shifted:16384:1024 one:16777216:1 one:67108864:1"}
for tune in ${TUNES:--}; do
echo "== tuning $tune"
for c in $CASES; do
  IFS=: read -r what n batch alg mat <<< "$c"
  PSCR_BENCH_TUNE=${tune#-} timeout 120 $B/bench_tridiag_gpu case $what $n $batch ${alg:-cr_pcr_thomas} ${mat:-dominant} \
    2>> "$OUT/td-err.log" | grep -v '"copy"' | tee -a "$OUT/td.jsonl" |
    python3 "$(dirname "$0")/td_table.py"
done
done
[ "${NCU:-0}" = 1 ] || exit 0
NCU_CASES=${NCU_CASES:-"td_reg_solve:shifted:512:16384 td_reg_solve:batch:4096:4096"}
for c in $NCU_CASES; do
  IFS=: read -r k what n batch <<< "$c"
  timeout 200 ncu -k $k --launch-skip 3 --launch-count 1 --set full --import-source no -o "$OUT/ncu-$k-$what" \
    $B/bench_tridiag_gpu case $what $n $batch > /dev/null 2>&1
  ncu -i "$OUT/ncu-$k-$what.ncu-rep" --print-details all > "$OUT/ncu-$k-$what.txt" 2>&1
  ncu -i "$OUT/ncu-$k-$what.ncu-rep" --page source --csv --print-source sass > "$OUT/sass-$k-$what.csv" 2>&1
  rm -f "$OUT/ncu-$k-$what.ncu-rep"
  echo "== $k $what $n x $batch"
  grep -E "^ *(Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|Issued Ipc|Executed Instructions  |Memory Throughput|DRAM Throughput|Dynamic Shared Memory Per|L1/TEX Hit)" "$OUT/ncu-$k-$what.txt" | sed 's/  */ /g' | head -24
  grep -E "Stall|stall" "$OUT/ncu-$k-$what.txt" | grep -oE "(on|by) [a-z ]+ [a-z]*[^.]*(cycles|%)[^.]*" | head -6
  python3 "$(dirname "$0")/sass_mix.py" "$OUT/sass-$k-$what.csv"
done
