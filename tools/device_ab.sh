#!/usr/bin/env bash
# A/B of the GPU tridiagonal engine in one device call: bench_tridiag_gpu's bar
# cases on this tree and on base trees (TREES="new=. base=ab-base ...", each made
# here by `git archive COMMIT | tar -x -C DIR`), alternating, same machine.
# With PCASES="problem:n ...", bench_pscr_gpu rows too (CUDA solve ms, residual).
# CASES: what:n:batch[:alg[:matrix[:c128]]] ...
# Usage: OUT=$OUT [CASES=...] [PCASES=...] bash tools/device_ab.sh
TARGETS=${TARGETS:-"bench_tridiag_gpu bench_pscr_gpu"} . "$(dirname "$0")/device_env.sh"
# The default cases take every engine a shared kernel header reaches: td_reg
# (CR_PCR_THOMAS, shifted) and td_tile (SPIKE_DIAG_PIVOT: one change to
# td_rows.h helped the first and cost the second 13-25 %, unseen for a session)
CASES=${CASES:-"batch:512:16384 batch:4096:4096 batch:16384:1024 batch:8192:8192 shifted:512:16384 shifted:4096:4096 shifted:8192:8192 shifted:16384:1024 one:67108864:1 one:67108864:1:spike_diag_pivot batch:8192:8192:spike_diag_pivot batch:1024:1024:spike_diag_pivot:random"}
# TREES: label=dir[@-DX=1,-DY=2][%name=v,...] (module defines through
# PSCR_KERNEL_DEFINES, tuning through PSCR_BENCH_TUNE), this tree first; every
# other dir is built here
TREES=${TREES:-"new=. base=ab-base"}
dir_of() { local d=${1#*=}; d=${d%%%*}; echo "${d%%@*}"; }
for tr in $TREES; do
  d=$(dir_of "$tr")
  [ "$d" = . ] || [ ! -d "$d" ] ||
    (cd "$d" && B=build-lane OUT="$OUT/${tr%%=*}" TARGETS="bench_tridiag_gpu bench_pscr_gpu" . tools/device_env.sh) ||
    echo "$d BUILD FAILED"
done
row() { # tree label case
  IFS=: read -r what n batch alg mat dt <<< "$3" # dt: c128 for complex rows
  LD_LIBRARY_PATH=$1/build-lane PSCR_KERNEL_DEFINES="$DEFS" PSCR_BENCH_TUNE="$TUNE" timeout 120 $1/build-lane/bench_tridiag_gpu case $what $n $batch ${alg:-cr_pcr_thomas} ${mat:-dominant} ${dt:-} \
    2>> "$OUT/ab-err.log" | grep -v '"copy"' | tee -a "$OUT/ab-$2.jsonl" |
    python3 "$(dirname "$0")/td_table.py" "$2"
}
for c in $CASES; do
  for tr in $TREES; do d=$(dir_of "$tr"); [ -d "$d" ] && DEFS=$(defs_of "$tr") TUNE=$(tune_of "$tr") row "$d" "${tr%%=*}" "$c"; done
done
prow() { # tree label problem:n
  IFS=: read -r pb n <<< "$3"
  LD_LIBRARY_PATH=$1/build-lane PSCR_KERNEL_DEFINES="$DEFS" timeout 200 $1/build-lane/bench_pscr_gpu --backends cuda --problems $pb \
    --min-n $n --max-n $n --min-n3 $n --max-n3 $n --reps ${PREPS:-11} --xfer-reps 0 ${TUNE:+--tune "$TUNE"} 2>> "$OUT/ab-err.log" |
    grep '"solve_ms"' | tee -a "$OUT/ab-p$2.jsonl" | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("%-5s %-12s %6d %9.3f ms  residual %.2e" % (sys.argv[1], r["problem"], r["n"], r["solve_ms"], r["rel_residual"]))' "$2"
}
for c in ${PCASES:-}; do
  for tr in $TREES; do d=$(dir_of "$tr"); [ -d "$d" ] && DEFS=$(defs_of "$tr") TUNE=$(tune_of "$tr") prow "$d" "${tr%%=*}" "$c"; done
done
