#!/usr/bin/env bash
# One device call: bench_tridiag_gpu cases under tuning choices (PSCR_BENCH_TUNE), the
# defaults ("-") first and last so drift shows. CASES: what:n:batch:alg:matrix[:c128];
# TUNES: "name=value,..." or "-". Rows to $OUT/tunes.txt as they come; printed last.
# Usage: OUT=$OUT CASES="one:67108864:1:spike_diag_pivot:dominant" TUNES="- tile_w=64 -" bash tools/device_td_tunes.sh
TARGETS=bench_tridiag_gpu . "$(dirname "$0")/device_env.sh"
for t in ${TUNES:-- tile_w=64 -}; do
  for c in $CASES; do
    IFS=: read -r what n batch alg mat dt <<< "$c"
    tv=$t; [ "$t" = - ] && tv=
    PSCR_BENCH_TUNE=$tv timeout ${T_ROW:-60} $B/bench_tridiag_gpu case $what $n $batch $alg $mat ${dt:-} \
      2>> "$OUT/err.log" | grep -v '"copy"' | python3 "$(dirname "$0")/td_table.py" "$t" >> "$OUT/tunes.txt"
  done
done
cat "$OUT/tunes.txt"
