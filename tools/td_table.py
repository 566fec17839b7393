#!/usr/bin/env python3
"""bench_tridiag_gpu's JSON lines (stdin) as table rows, each led by LABEL if given.
Usage: ... | td_table.py [LABEL]"""
import json, sys

label = sys.argv[1] + " " if len(sys.argv) > 1 else ""
for line in sys.stdin:
    r = json.loads(line)
    impl = "" if r.get("impl", "pscr") == "pscr" else " (" + r["impl"] + ")"
    print("%s%-8s %9d x %6d %-16s %-8s %-4s %8.4f ms  %7.1f GB/s  floor x %5.2f  be %.1e%s" % (
        label, r["what"], r["n"], r["batch"], r["alg"], r["matrix"], r.get("dtype", ""),
        r["median_ms"], r["gbps"], r["floor_ratio"], r.get("backward_error", -1), impl))
