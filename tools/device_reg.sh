#!/usr/bin/env bash
# One device call for pscr_reg.h (fused PSCR kernels, rows in registers): the CUDA PSCR test,
# memcheck over one solve (2D n = SAN_N, default 1023), then solve ms for each ROW (problem:n:tune[:defines]; tune "-" =
# defaults) of bench_pscr_gpu on CUDA. Usage: OUT=$OUT [ROWS=...] bash tools/device_reg.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr" source tools/device_env.sh
[ "${TEST:-1}" = 1 ] && { timeout ${T_TEST:-200} $B/tests/cuda_test_cuda_pscr > "$OUT/test.log" 2>&1
  echo "cuda_test_cuda_pscr rc $?: $(grep -E 'checks|worst' "$OUT/test.log" | tr '\n' ' ')"; }
for tool in ${SAN-memcheck racecheck}; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/bench_pscr_gpu \
    --backends cuda --problems poisson2d,poisson3d --min-n ${SAN_N:-1023} --max-n ${SAN_N:-1023} --min-n3 63 --max-n3 63 \
    --reps 3 --xfer-reps 0 --tune pscr_lane=0 > "$OUT/$tool.log" 2>&1
  echo "$tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tr '\n' ' ')"
done
tuned_rows "${ROWS:-poisson2d:8191:-}" ${REPS:-7}
