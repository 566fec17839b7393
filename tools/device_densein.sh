#!/usr/bin/env bash
# One device call for the dense innermost level (pscr_dense_in): CUDA 2D and
# 3D Poisson rows with the defaults (innermost level dense up to pscr_dense_in) and as
# PSCR's steps (pscr_dense_in=0) in the same run, the cuFFT DST solver, then
# the CUDA PSCR test. Usage: OUT=$OUT [ROWS="..."] [REPS=7] bash tools/device_densein.sh
# (further options: see the variables below: WROWS, BIG, OCL/OCLP, SAN/SANP/SANT, TESTS)
TARGETS="bench_pscr_gpu bench_fft_poisson_gpu cuda_test_cuda_pscr ${EXTRA_TARGETS:-}" source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
rows=""
for n in ${N2-127 255 511 1023 2047 4095}; do
  rows="$rows poisson2d:$n:pscr_dense_in=0 poisson2d:$n:-"
done
for n in ${N3-63 127 255 361 511}; do
  rows="$rows poisson3d:$n:pscr_dense_in3=0 poisson3d:$n:-"
done
tuned_rows "${ROWS:-$rows}" ${REPS:-7}
# extra CUDA rows: "problem:n:workspace_GB ..." (bench_pscr_gpu --workspace)
for r in ${WROWS-}; do
  IFS=: read -r pb n ws <<< "$r"
  timeout 120 $B/bench_pscr_gpu --backends cuda --problems $pb --min-n $n --max-n $n --min-n3 $n \
    --max-n3 $n --reps ${REPS:-7} --xfer-reps 0 --workspace $ws 2>> "$OUT/err.log" |
    grep '"solve_ms"' | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("%-12s %5d workspace %-6s GB %9.3f ms  residual %.2e" % (r["problem"], r["n"], sys.argv[1], r["solve_ms"], r["rel_residual"]))' "$ws"
done
timeout 120 $B/bench_fft_poisson_gpu nobig reps=${REPS:-7} > "$OUT/fft.jsonl" 2> "$OUT/fft.err"
python3 -c 'import json,sys
for l in open(sys.argv[1]):
  try: r=json.loads(l)
  except Exception: continue
  if "dim" in r: print("cuFFT %dD %5d %9.3f ms" % (r["dim"], r["n"], r["median_ms"]))' "$OUT/fft.jsonl" 2>/dev/null
if [ -n "${BIG-}" ]; then
  big_row
fi
# OpenCL against CUDA at the launch-bound sizes (OCL=ON builds both)
if [ "${OCL:-OFF}" = ON ]; then
  for pb in ${OCLP-poisson2d:31:1023 poisson3d:31:127}; do
    IFS=: read -r p lo hi <<< "$pb"
    timeout 300 $B/bench_pscr_gpu --backends cuda,opencl --problems $p --min-n $lo --max-n $hi \
      --min-n3 $lo --max-n3 $hi --reps ${REPS:-7} --xfer-reps 0 2>> "$OUT/err.log" |
      grep '"solve_ms"' >> "$OUT/ocl.jsonl"
  done
  python3 -c 'import json,sys
rows={}
for l in open(sys.argv[1]):
  r=json.loads(l); rows.setdefault((r["problem"], r["n"]), {})[r["backend"]]=r["solve_ms"]
for (p,n),v in sorted(rows.items()):
  c,o=v.get("cuda"),v.get("opencl")
  print("ocl %-10s %5d cuda %8.3f opencl %8.3f ratio %.2f" % (p, n, c or -1, o or -1, (o/c) if c and o else -1))' "$OUT/ocl.jsonl"
fi
# compute-sanitizer over the dense paths (2D and 3D, both levels dense; SANT: a --tune)
if [ -n "${SAN-}" ]; then
  SB="$B/bench_pscr_gpu --backends cuda --reps 3 --xfer-reps 0 ${SANT:+--tune $SANT}"
  timeout 240 compute-sanitizer --tool memcheck $SB --problems ${SANP:-poisson2d,poisson3d} --min-n 127 \
    --max-n 511 --min-n3 31 --max-n3 63 > "$OUT/memcheck.log" 2>&1
  echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | sort | uniq -c | tr '\n' ' ')"
  timeout 240 compute-sanitizer --tool racecheck $SB --problems ${SANP:-poisson2d,poisson3d} --min-n 255 \
    --max-n 255 --min-n3 44 --max-n3 44 > "$OUT/racecheck.log" 2>&1
  echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck.log" | sort | uniq -c | tr '\n' ' ')"
fi
for t in ${TESTS-cuda_test_cuda_pscr}; do
  timeout 300 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
