#!/usr/bin/env bash
# GSPIKE on the H100 in one call: the A/B of this tree against base trees
# (tools/device_ab.sh: CASES on every tree, RCASES on this tree only, e.g. random
# matrices that an old tree solves as one partition), tunings of this tree
# (TUNES), per-kernel times (ncu, 2^24 rows), compute-sanitizer memcheck and
# racecheck (SAN: one system each) and the cuda tridiagonal and stability
# suites. Lines go to $OUT/gspike.txt as they come; print it last.
# Usage: OUT=$OUT [TREES="new=. base=ab-base"] [TUNES="gs_q=8 ..."] [NCU=dominant] bash tools/device_gspike.sh
# (AB=-, TUNES=-, NCU=-, SAN=- or TESTS=- leave those parts out; without the A/B
# this tree is built alone)
export OUT=${OUT:-./device-out}
here=$(dirname "$0")
G="one:67108864:1:gspike:dominant one:67108864:1:gspike:random batch:4096:4096:gspike:dominant"
G="$G batch:4096:4096:gspike:random batch:1024:1024:gspike:random one:16777216:1:gspike:dominant:c128"
if [ "${AB:-}" = - ]; then
  TARGETS="bench_tridiag_gpu" . $here/device_env.sh >> "$OUT/gspike.txt" 2>&1
else
  CASES=${CASES:-"$G one:16777216:1:gspike:random:c128"} PCASES= bash $here/device_ab.sh >> "$OUT/gspike.txt" 2>&1
fi
[ -n "${RCASES:-}" ] && TREES="new=." CASES=$RCASES PCASES= bash $here/device_ab.sh >> "$OUT/gspike.txt" 2>&1
B=build-lane
for t in ${TUNES:-gs_q=8 gs_q=32 gs_w=64 gs_w=256 gs_gp=8 gs_gp=32 gs_q=8,gs_gp=32}; do
  [ "$t" = - ] && break
  for c in one:67108864:1:dominant one:67108864:1:random batch:1024:1024:random; do
    IFS=: read -r what n batch mat <<< "$c"
    PSCR_BENCH_TUNE=$t timeout 60 $B/bench_tridiag_gpu case $what $n $batch gspike $mat 2>> "$OUT/err.log" |
      grep -v '"copy"' | python3 $here/td_table.py "$t" >> "$OUT/gspike.txt"
  done
done
export PATH=/usr/local/cuda/bin:$PATH
for m in ${NCU:-dominant random}; do
  [ "$m" = - ] && break
  timeout 100 ncu --metrics gpu__time_duration.sum -k regex:td_gs --launch-skip 40 --launch-count 40 \
    $B/bench_tridiag_gpu case one 16777216 1 gspike $m > "$OUT/ncu-$m.log" 2>&1
  echo "== ncu 2^24 $m: kernel (groups) us, in launch order" >> "$OUT/gspike.txt"
  python3 - "$OUT/ncu-$m.log" >> "$OUT/gspike.txt" <<'PY'
import re, sys
k = None; row = []
for l in open(sys.argv[1]):
    m = re.match(r'\s+(td_\w+) \((\d+), 1, 1\)', l)
    if m: k = "%s(%s)" % m.groups()
    m = re.search(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)', l)
    if m and k:
        row.append("%s %.0f" % (k, float(m.group(2).replace(',', '')) * (1e-3 if m.group(1) == 'ns' else 1e3 if m.group(1) == 'ms' else 1)))
        k = None
print("  " + ", ".join(row))
PY
done
# SAN="rows:matrix[:tuning] ...": the sanitizers' cases (random 2^20 rows meet the
# residual check's windows; gs_fix_k=0 makes them fail, so the full solve of
# td_gs_unfixed / td_gs_add runs)
for tool in memcheck racecheck; do
  for c in ${SAN:-20011:dominant 20011:random 1048576:random 1048576:random:gs_fix_k=0}; do
    [ "$c" = - ] && break
    IFS=: read -r sn m tu <<< "$c"
    PSCR_BENCH_TUNE=$tu timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
      $B/bench_tridiag_gpu case one $sn 1 gspike $m > "$OUT/$tool-$m.log" 2>&1
    echo "$tool gspike $sn $m $tu rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool-$m.log" | tail -1)" >> "$OUT/gspike.txt"
  done
done
[ "${TESTS:-}" = - ] || cmake --build $B -j16 --target cuda_test_cuda_tridiag cuda_test_cuda_stability > "$OUT/tb.log" 2>&1
for t in tridiag stability; do
  [ "${TESTS:-}" = - ] && break
  timeout 150 $B/tests/cuda_test_cuda_$t > "$OUT/t_$t.log" 2>&1
  echo "cuda_$t rc $? $(tail -1 "$OUT/t_$t.log") $(grep -m1 seed "$OUT/t_$t.log")" >> "$OUT/gspike.txt"
  grep -B2 -A4 FAIL "$OUT/t_$t.log" | head -40 >> "$OUT/gspike.txt" # the failures themselves
done
cat "$OUT/gspike.txt"
