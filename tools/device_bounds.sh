#!/usr/bin/env bash
# NVIDIA's OpenCL: do the kernels' register bounds (gpu_bounds.c) take? For each of CASES
# (what:n:batch[:alg[:matrix[:c128]]], as device_vs.sh) one `bench_tridiag_gpu vs` with every
# program built with -cl-nv-verbose and its log kept (PSCR_OPENCL_OPTIONS, PSCR_OPENCL_LOG;
# no disk cache, so that every program is built and logged): the last solve's program line
# (`.maxntid` directives, the td_reg.h kernels' largest groups) and, per kernel, the registers
# and spills ptxas reports in the logs (the build from source, then the one from the patched
# PTX). Logs under $OUT. Usage: OUT=$OUT [CASES=...] bash tools/device_bounds.sh
OCL=ON TARGETS=bench_tridiag_gpu source tools/device_env.sh
CASES=${CASES:-"shifted:8192:8192 shifted:4096:4096 batch:4096:4096"}
for c in $CASES; do
  IFS=: read -r what n batch alg mat dt <<< "$c"
  f="$OUT/bounds-${c//:/_}.log"
  PSCR_CACHE_DIR= PSCR_OPENCL_OPTIONS=-cl-nv-verbose PSCR_OPENCL_LOG=1 PSCR_BENCH_TUNE=profile=1 \
    timeout ${TMO:-300} $B/bench_tridiag_gpu vs $what $n $batch ${alg:-cr_pcr_thomas} \
    ${mat:-dominant} ${dt:-} > "$f" 2>&1
  echo "== $c (rc $?)"
  grep '^# opencl program' "$f"
  python3 - "$f" <<'PY'
import re, sys
# ptxas lines per build: "Compiling entry function 'k'", then "Used N registers", spills
seen = {}
cur = None
for l in open(sys.argv[1], errors='replace'):
    m = re.search(r"Compiling entry function '(\w+)'", l)
    if m: cur = m.group(1); continue
    m = re.search(r"(\d+) bytes spill stores", l)
    if m and cur: seen.setdefault(cur, []).append('spill ' + m.group(1))
    m = re.search(r"Used (\d+) registers", l)
    if m and cur: seen.setdefault(cur, []).append(m.group(1) + ' regs'); cur = None
for k in sorted(seen):
    if k.startswith(('td_reg', 'td_tile_solve')):
        print(f"  {k:24s} {' | '.join(seen[k][-6:])}")
PY
done
