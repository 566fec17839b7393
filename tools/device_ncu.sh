#!/usr/bin/env bash
# One kernel launch (COUNT of them) under ncu in detail: stall reasons and the hottest SASS.
# Usage: OUT=$OUT K=pscr_lane_task SKIP=11 PB=poisson2d N=2047 bash tools/device_ncu.sh
#    or: OUT=$OUT K=td_gs_up SKIP=4 COUNT=2 TD="one 16777216 1 gspike dominant" bash tools/device_ncu.sh
[ -n "${TD:-}" ] && TARGETS=bench_tridiag_gpu
. "$(dirname "$0")/device_env.sh"
args=(--backends cuda --problems ${PB:-poisson2d} --min-n ${N:-2047} --max-n ${N:-2047} --min-n3 ${N:-2047}
      --max-n3 ${N:-2047} --reps 3 --xfer-reps 0 --no-residual ${BARGS:-})
cmd=($B/bench_pscr_gpu "${args[@]}")
[ -n "${TD:-}" ] && cmd=($B/bench_tridiag_gpu case $TD)
timeout 300 ncu -k ${K:-pscr_lane_task} --launch-skip ${SKIP:-11} --launch-count ${COUNT:-1} --set full -f \
  --import-source no -o "$OUT/ncu" "${cmd[@]}" > "$OUT/ncu-run.log" 2>&1
echo "ncu rc $?"
ncu -i "$OUT/ncu.ncu-rep" --print-details all > "$OUT/ncu-details.txt" 2>&1
ncu -i "$OUT/ncu.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu-sass.csv" 2>&1
grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles Per Issued|Issued Ipc|Issue Slots Busy|Eligible Warps|No Eligible|L1/TEX Hit|L2 Hit|DRAM Throughput|Executed Instructions  |Block Limit|Shared Memory Configuration Size|Dynamic Shared|Local Memory Spill" "$OUT/ncu-details.txt" | head -${LINES_MAX:-40}
python3 - "$OUT/ncu-sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hi = [i for i, r in enumerate(rows) if 'Source' in r and any('Sampl' in c for c in r)]
if not hi: print('no sass table'); sys.exit()
h = rows[hi[0]]; rows = rows[hi[0] + 1:]
si = h.index('Source'); ci = [i for i, c in enumerate(h) if c.startswith('Warp Stall Sampling (All')][0]
tot = sum(float(r[ci] or 0) for r in rows if len(r) > ci)
print('hottest SASS (share of stall samples):')
for r in sorted(rows, key=lambda r: -float(r[ci] or 0) if len(r) > ci else 0)[:25]:
    print(f"  {100*float(r[ci] or 0)/tot:5.1f}%  {r[si][:90]}")
PY
