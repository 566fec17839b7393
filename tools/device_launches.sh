#!/usr/bin/env bash
# Per-launch GPU time and grid of the kernels matching K (a regex) over one
# PSCR solve (ncu), for each define set of DEFS ("-DX=1 -DY=2;-DX=0"; "" = none).
# Usage: OUT=$OUT K=pscr_reg PB=poisson2d N=8191 DEFS="..." bash tools/device_launches.sh
. "$(dirname "$0")/device_env.sh"
IFS=';' read -r -a sets <<< "${DEFS:-}"; [ ${#sets[@]} = 0 ] && sets=("")
for d in "${sets[@]}"; do
  f="$OUT/launches-${d//[^A-Za-z0-9]/_}.csv"
  PSCR_KERNEL_DEFINES="$d" timeout 200 ncu -k "regex:${K:-pscr_reg}" --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size \
    --csv --print-units base $B/bench_pscr_gpu --backends cuda --problems ${PB:-poisson2d} --min-n ${N:-8191} --max-n ${N:-8191} \
    --min-n3 ${N:-8191} --max-n3 ${N:-8191} --reps 3 --xfer-reps 0 --no-residual ${BARGS:-} > "$f" 2> "$f.err"
  echo "== defines '$d' (rc $?)"
  python3 "$(dirname "$0")/launch_table.py" "$f"
: <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: sys.exit()
h = rows[0]; ki, mi, vi, ii = h.index('Kernel Name'), h.index('Metric Name'), h.index('Metric Value'), h.index('ID')
L = collections.OrderedDict()
for r in rows[1:]:
    L.setdefault(r[ii], {'k': r[ki].split('(')[0]})[r[mi]] = float(r[vi].replace(',', ''))
L = list(L.values()); key = [(x['k'], x['launch__grid_size']) for x in L]
per = next((q for q in range(1, len(L) // 2 + 1) if key[-q:] == key[-2 * q:-q]), len(L))  # one solve
tot = sum(x['gpu__time_duration.sum'] for x in L[-per:]) / 1e3
print(f"  one solve: {per} launches, {tot:.1f} us")
for x in L[-per:]:
    print(f"  {x['k']:16s} grid {int(x['launch__grid_size']):8d} x {int(x['launch__block_size']):4d}  {x['gpu__time_duration.sum']/1e3:9.1f} us")
PY
done
