#!/usr/bin/env bash
# GSPIKE on the H100 in one call: the A/B of this tree against base trees
# (tools/device_ab.sh), gs_q / gs_w tunings of this tree, per-kernel times
# (ncu, one solve) and the cuda tridiagonal and stability suites.
# Usage: OUT=$OUT [TREES="new=. base=ab-base"] [TUNES="gs_q=8 ..."] bash tools/device_gspike.sh
export OUT=${OUT:-./device-out}
G="one:67108864:1:gspike:dominant one:67108864:1:gspike:random batch:4096:4096:gspike:dominant"
G="$G batch:1024:1024:gspike:random one:16777216:1:gspike:dominant:c128"
CASES=${CASES:-$G} PCASES= bash "$(dirname "$0")/device_ab.sh"
B=build-lane
for t in ${TUNES:-gs_q=8 gs_q=8,gs_w=64 gs_w=64 gs_w=256}; do
  for c in one:67108864:1:dominant one:67108864:1:random batch:1024:1024:random; do
    IFS=: read -r what n batch mat <<< "$c"
    PSCR_BENCH_TUNE=$t timeout 60 $B/bench_tridiag_gpu case $what $n $batch gspike $mat 2>> "$OUT/err.log" |
      grep -v '"copy"' | python3 "$(dirname "$0")/td_table.py" "$t"
  done
done
export PATH=/usr/local/cuda/bin:$PATH
for m in dominant random; do
  timeout 120 ncu --metrics gpu__time_duration.sum -k regex:td_gs --launch-skip 30 --launch-count 30 \
    $B/bench_tridiag_gpu case one 16777216 1 gspike $m > "$OUT/ncu-$m.log" 2>&1
  echo "== ncu 2^24 $m (us)"; python3 - "$OUT/ncu-$m.log" <<'PY'
import re, sys
k = None; t = {}
for l in open(sys.argv[1]):
    m = re.match(r'\s*(td_\w+)', l)
    if m: k = m.group(1)
    m = re.search(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)', l)
    if m and k:
        v = float(m.group(2).replace(',', '')) * {'ns': 1e-3, 'usecond': 1, 'us': 1, 'msecond': 1e3, 'ms': 1e3}.get(m.group(1), 1)
        t.setdefault(k, []).append(v)
for k, v in t.items(): print("  %-14s %3d launches, %9.1f us each" % (k, len(v), sum(v) / len(v)))
PY
done
cmake --build $B -j16 --target cuda_test_cuda_tridiag cuda_test_cuda_stability > "$OUT/tb.log" 2>&1
for t in tridiag stability; do
  timeout 150 $B/tests/cuda_test_cuda_$t > "$OUT/t_$t.log" 2>&1
  echo "cuda_$t rc $? $(tail -1 "$OUT/t_$t.log")"
done
