#!/usr/bin/env bash
# Quick device round: build, the CUDA PSCR test, bench_pscr_gpu rows (cuda), per-kernel ncu times.
# Usage: OUT=$OUT bash tools/device_quick.sh (BARGS: more bench options, CASES: see device_prof.sh)
TARGETS="bench_pscr_gpu cuda_test_cuda_pscr" . "$(dirname "$0")/device_env.sh"
timeout 100 $B/tests/cuda_test_cuda_pscr 2>&1 | tail -2
timeout 200 $B/bench_pscr_gpu --backends cuda --min-n 1023 --min-n3 127 --reps 7 --xfer-reps 0 ${BARGS:-} > $OUT/lane.jsonl 2>&1
grep -o '"problem":"[a-z0-9]*","n":[0-9]*\|"solve_ms":[0-9.]*\|"rel_residual":[0-9.e+-]*' $OUT/lane.jsonl | paste - - - | sed 's/"problem"://;s/"solve_ms"://;s/"rel_residual"://'
OUT=$OUT CASES="${CASES:-poisson2d:2047:- poisson3d:255:-}" bash "$(dirname "$0")/device_prof.sh" 2>&1 | tail -14
