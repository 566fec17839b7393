#!/usr/bin/env bash
# One device call: per-kernel device time a solve (bench_pscr_gpu --profile,
# each launch timed alone) on CUDA and on NVIDIA's OpenCL for each ROW
# problem:n[:tune] (tune: name=value,... for both backends; "-" none), after
# the plain timed medians of both. Usage: OUT=$OUT ROWS="poisson2d:2047 ..." bash tools/device_profile.sh
OCL=ON TARGETS="bench_pscr_gpu" source "$(dirname "$0")/device_env.sh"
for r in ${ROWS:-poisson2d:2047 helmholtz2d:2047}; do
  IFS=: read -r pb n tune <<< "$r"
  a=(); [ -n "$tune" ] && [ "$tune" != - ] && a=(--tune "$tune")
  timeout 200 $B/bench_pscr_gpu --backends cuda,opencl --problems $pb --min-n $n --max-n $n \
    --min-n3 $n --max-n3 $n --reps ${REPS:-9} --xfer-reps 0 --no-residual --profile "${a[@]}" \
    > "$OUT/profile-$pb-$n.txt" 2>> "$OUT/err.log"
  echo "== $pb $n ${tune:-}"
  grep '^# profile' "$OUT/profile-$pb-$n.txt" | sed 's/^# profile //'
  grep '"solve_ms"' "$OUT/profile-$pb-$n.txt" | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("  %-7s %9.3f ms (timed without profiling)" % (r["backend"], r["solve_ms"]))'
done
