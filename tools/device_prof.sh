#!/usr/bin/env bash
# Per-kernel GPU time of PSCR solves (ncu, gpu__time_duration only: one pass
# per kernel), to see which stage a solve's time goes to. Logs under $OUT.
# Usage: OUT=$OUT bash tools/device_prof.sh; CASES="problem:n:tune ..." picks rows
# (tune - for the defaults).
. "$(dirname "$0")/device_env.sh"
for c in ${CASES:-poisson2d:2047:- poisson2d:2047:pscr_lane=0 poisson3d:255:- poisson3d:255:pscr_lane=0}; do
  IFS=: read -r pb n tune <<< "$c"
  a=(); [ "$tune" != - ] && a=(--tune "$tune")
  f="$OUT/prof-$pb-$n-${tune//[=,]/_}.csv"
  timeout ${T_PROF:-120} ncu --metrics gpu__time_duration.sum --csv --print-units base \
    $B/bench_pscr_gpu --backends cuda --problems $pb --min-n $n --max-n $n --min-n3 $n --max-n3 $n \
    --reps 3 --xfer-reps 0 --no-residual "${a[@]}" > "$f" 2> "$f.err"
  echo "== $pb $n $tune (rc $?)"
  python3 - "$f" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
rows = rows[[i for i, r in enumerate(rows) if 'Kernel Name' in r][0]:] if rows else []
if not rows: sys.exit()
h = rows[0]; ki, vi = h.index('Kernel Name'), h.index('Metric Value')
tot, cnt = collections.Counter(), collections.Counter()
for r in rows[1:]:
    try: v = float(r[vi].replace(',', ''))
    except ValueError: continue
    k = r[ki].split('(')[0]; tot[k] += v; cnt[k] += 1
all_ = sum(tot.values())
for k, v in tot.most_common(12):
    print(f"  {k:36s} {cnt[k]:6d} launches {v/1e6:9.3f} ms {100*v/all_:5.1f}%")
print(f"  total {all_/1e6:.3f} ms over {sum(cnt.values())} launches (all reps and the plan)")
PY
done
