#!/usr/bin/env python3
"""Instruction mix of one kernel from `ncu --page source --csv --print-source sass`:
executed warp instructions by opcode and by barrier-delimited region (the
phases of a tile kernel), with the stall samples of each region.
Usage: sass_mix.py FILE.csv [N: also the N lines with the most stall samples]"""
import csv, sys, collections

rows = list(csv.reader(open(sys.argv[1])))
hi = [i for i, r in enumerate(rows) if 'Source' in r and any(c.startswith('Instructions Executed') for c in r)]
if not hi:
    print('no sass table'); sys.exit()
h = rows[hi[0]]; rows = [r for r in rows[hi[0] + 1:] if len(r) == len(h)]
si = h.index('Source')
ei = [i for i, c in enumerate(h) if c.startswith('Instructions Executed')][0]
ci = [i for i, c in enumerate(h) if c.startswith('Warp Stall Sampling (All')]
ci = ci[0] if ci else None
num = lambda v: float(v.replace(',', '') or 0)
ops, regions, lines = collections.Counter(), [], []
cur = [0, 0.0, 0.0, '']
for r in rows:
    src = r[si].strip()
    op = src.split()[0] if src else '?'
    if op.startswith('@'): op = src.split()[1]
    e = num(r[ei]); s = num(r[ci]) if ci is not None else 0
    ops[op.split('.')[0]] += e
    cur[1] += e; cur[2] += s
    lines.append((s, e, cur[0], src))
    if op.startswith('BAR') or op == 'EXIT':
        cur[3] = src[:40]; regions.append(cur); cur = [len(regions), 0.0, 0.0, '']
regions.append(cur)
tot = sum(ops.values()); stot = sum(x[2] for x in regions) or 1
print(f'executed warp instructions {tot:.4g}')
for k, v in ops.most_common(18):
    print(f'  {k:10s} {v:12.4g} {100 * v / tot:5.1f}%')
print('regions (ending at a barrier): warp instr, share, stall share')
for i, e, s, end in regions:
    if e > 0.005 * tot:
        print(f'  {i:3d} {e:12.4g} {100 * e / tot:5.1f}% {100 * s / stot:5.1f}%  -> {end}')
top = int(sys.argv[2]) if len(sys.argv) > 2 else 0
if top:
    print('hottest lines: stall share, warp instr, region')
    for s_, e, reg, src in sorted(lines, key=lambda x: -x[0])[:top]:
        print(f'  {100 * s_ / stot:5.1f}% {e:10.3g} r{reg:<3d} {src[:70]}')
