#!/usr/bin/env python3
"""Markdown table of GPU PSCR solve times, one column per variant: reads OUT/LABEL.jsonl
(bench_pscr_gpu lines) for each LABEL. Usage: variant_table.py OUT LABEL..."""
import json
import os
import sys

out, labels = sys.argv[1], sys.argv[2:]


def rows(label):
    r = {}
    p = os.path.join(out, label + '.jsonl')
    for line in open(p) if os.path.exists(p) else []:
        try:
            j = json.loads(line)
        except Exception:
            continue
        if 'solve_ms' in j:
            r[(j.get('problem'), j.get('n'))] = j
    return r


L = {k: rows(k) for k in labels}
keys = sorted(set().union(*[set(v) for v in L.values()]))
print("| problem | n | " + " | ".join(f"{l} ms" for l in labels) + " | worst residual |")
print("|---|---|" + "---|" * (len(labels) + 1))
for k in keys:
    cells = [str(L[l].get(k, {}).get('solve_ms', '-')) for l in labels]
    res = max([float(L[l][k]['rel_residual']) for l in labels
               if k in L[l] and 'rel_residual' in L[l][k]] or [0])
    print(f"| {k[0]} | {k[1]} | " + " | ".join(cells) + f" | {res:.2e} |")
