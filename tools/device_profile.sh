#!/usr/bin/env bash
# One device call: CUDA and NVIDIA's OpenCL rows of bench_pscr_gpu, each
# problem:n[:tune[:backends]] (tune: name=value,... ("-" none); backends
# default cuda,opencl), with (PROF=1, the default) per-kernel device time a
# solve (--profile: each launch timed alone, after the timed medians).
# Usage: OUT=$OUT ROWS="poisson2d:2047 helmholtz2d:511:pscr_lines=0 poisson2d:31:flush=1:opencl" bash tools/device_profile.sh
OCL=ON TARGETS="bench_pscr_gpu" source "$(dirname "$0")/device_env.sh"
i=0
for r in ${ROWS:-poisson2d:2047 helmholtz2d:2047}; do
  IFS=: read -r pb n tune bks <<< "$r"
  a=(); [ -n "$tune" ] && [ "$tune" != - ] && a=(--tune "$tune")
  [ "${PROF:-1}" = 1 ] && a+=(--profile)
  f="$OUT/row$((i++))-$pb-$n.txt"
  timeout 200 $B/bench_pscr_gpu --backends ${bks:-cuda,opencl} --problems $pb --min-n $n --max-n $n \
    --min-n3 $n --max-n3 $n --reps ${REPS:-9} --xfer-reps 0 --no-residual "${a[@]}" > "$f" 2>> "$OUT/err.log"
  echo "== $pb $n ${tune:-} ${bks:-}"
  grep '^# profile' "$f" | sed 's/^# profile //'
  grep '"solve_ms"' "$f" | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("  %-7s %9.3f ms (wall %.3f) %s" % (r["backend"], r["solve_ms"], r["wall_ms"], r["status"]))'
done
