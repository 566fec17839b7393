#!/usr/bin/env bash
# One device call for the dense level 0 of 3D plans (pscr_dense.h): CUDA 3D
# rows with the default (dense) and pscr_dense=0 (PSCR's steps) in the same
# run, the cuFFT DST solver in 3D, 1023^3, then the CUDA PSCR test.
# Usage: OUT=$OUT [ROWS="..."] [REPS=7] bash tools/device_dense.sh
TARGETS="bench_pscr_gpu bench_fft_poisson_gpu cuda_test_cuda_pscr" source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
tuned_rows "${ROWS:-poisson3d:127:- poisson3d:255:- poisson3d:255:pscr_dense=0 poisson3d:361:-
  poisson3d:361:pscr_dense=0 poisson3d:511:- poisson3d:511:pscr_dense=0 helmholtz3d:127:-
  helmholtz3d:255:- helmholtz3d:361:- helmholtz3d:361:pscr_dense=0}" ${REPS:-7}
timeout 120 $B/bench_fft_poisson_gpu 3d nobig reps=${REPS:-7} > "$OUT/fft.jsonl" 2> "$OUT/fft.err"
grep -h '"dim": *3' "$OUT/fft.jsonl" | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("cuFFT 3D %4d %9.3f ms" % (r["n"], r["median_ms"]))' 2>/dev/null
if [ -n "${BIG-1}" ]; then
  big_row
fi
for t in ${TESTS-cuda_test_cuda_pscr}; do
  timeout 300 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
