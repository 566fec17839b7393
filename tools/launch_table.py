#!/usr/bin/env python3
"""Per-launch table of one PSCR solve from an ncu --csv log (device_launches.sh)."""
import csv, io, sys, collections
txt = open(sys.argv[1]).read()
i = txt.find('"ID","Process ID"')
if i < 0: sys.exit('no ncu table')
rows = [r for r in csv.reader(io.StringIO(txt[i:])) if len(r) > 10]
h = rows[0]; ki, mi, vi, ii = (h.index(c) for c in ('Kernel Name', 'Metric Name', 'Metric Value', 'ID'))
L = collections.OrderedDict()
for r in rows[1:]:
    try: L.setdefault(r[ii], {'k': r[ki].split('(')[0]})[r[mi]] = float(r[vi].replace(',', ''))
    except ValueError: pass
L = list(L.values()); key = [(x['k'], x.get('launch__grid_size')) for x in L]
per = next((q for q in range(1, len(L) // 2 + 1) if key[-q:] == key[-2 * q:-q]), len(L))  # one solve
tot = collections.Counter()
for x in L[-per:]:
    tot[x['k']] += x['gpu__time_duration.sum'] / 1e3
    print(f"  {x['k']:16s} grid {int(x['launch__grid_size']):8d} x {int(x['launch__block_size']):4d}  {x['gpu__time_duration.sum']/1e3:9.1f} us")
print("  one solve:", per, "launches;", ", ".join(f"{k} {v:.0f} us" for k, v in tot.items()))
