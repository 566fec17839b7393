#!/usr/bin/env bash
# One device call after a kernel change: every cuda test (ctest -L cuda), compute-sanitizer
# memcheck and racecheck over the PSCR small suite (lanes and tiles), then the GPU PSCR rows of
# tools/device_variants.sh for the default kernels. Logs under $OUT; summary last.
# Usage: OUT=$OUT bash tools/device_check.sh
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr cuda_test_cuda_tridiag cuda_test_cuda_stability
         cuda_test_cuda_chunked cuda_test_cuda_status"
source tools/device_env.sh
timeout ${T_CTEST:-240} ctest --test-dir $B -L cuda --timeout 200 -j2 > "$OUT/ctest.log" 2>&1
echo "ctest -L cuda rc $?: $(grep -E 'tests passed|tests failed' "$OUT/ctest.log")"
for tool in memcheck racecheck; do
  PSCR_TEST_SMALL=2 timeout ${T_SAN:-120} compute-sanitizer --tool $tool --report-api-errors no \
    --error-exitcode 9 $B/tests/cuda_test_cuda_pscr > "$OUT/$tool.log" 2>&1
  echo "$tool (PSCR engine suite) rc $?: $(tail -3 "$OUT/$tool.log" | tr '\n' ' ')"
done
TESTS=0 VARIANTS="default:" bash tools/device_variants.sh | tail -8
