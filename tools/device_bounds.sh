#!/usr/bin/env bash
# NVIDIA's OpenCL: do the kernels' register bounds (gpu_bounds.c) take? For each of CASES
# (what:n:batch[:alg[:matrix[:c128]]], as device_vs.sh) one `bench_tridiag_gpu vs` with no disk
# cache, every program it builds dumped (PSCR_OPENCL_DUMP: the PTX the driver ran, bounds
# written in); ptxas then reports, per program, the td_reg.h kernels' registers and spills and
# the `.maxntid` directives, next to the vs line of the last solve's program (the driver's
# CL_KERNEL_WORK_GROUP_SIZE). The driver's own build log (-cl-nv-verbose) is cut off after a
# few kernels, hence ptxas. Usage: OUT=$OUT [CASES=...] bash tools/device_bounds.sh
OCL=ON TARGETS=bench_tridiag_gpu source tools/device_env.sh
CASES=${CASES:-"shifted:8192:8192 batch:4096:4096"}
for c in $CASES; do
  IFS=: read -r what n batch alg mat dt <<< "$c"
  d="$OUT/dump/${c//:/_}"
  mkdir -p "$d"
  PSCR_CACHE_DIR= PSCR_OPENCL_DUMP="$d" timeout ${TMO:-300} $B/bench_tridiag_gpu vs $what $n \
    $batch ${alg:-cr_pcr_thomas} ${mat:-dominant} ${dt:-} > "$d/vs.log" 2>&1
  echo "== $c (rc $?)"
  grep '^# opencl program' "$d/vs.log"
  for f in "$d"/ocl-*.bin; do
    [ -f "$f" ] || continue
    tr -d '\000' < "$f" > "${f%.bin}.ptx" # the driver ends its PTX in NULs
    arch=$(grep -o '^\.target sm_[0-9]*' "${f%.bin}.ptx" | cut -c9-)
    echo "  $(basename "$f"): $(grep -c '^\.maxntid' "${f%.bin}.ptx") .maxntid;" \
      "$(tr '\n' ' ' < "${f%.bin}.txt" | grep -o -- '-DTD_[A-Z_]*=[0-9]*' | tr '\n' ' ')"
    ptxas -arch=${arch:-sm_90} -v -o /dev/null "${f%.bin}.ptx" 2>&1 | python3 -c '
import re, sys
cur, spill = None, "0"
for l in sys.stdin:
    m = re.search(r"entry function .(\w+).", l)
    if m: cur, spill = m.group(1), "0"
    m = re.search(r"(\d+) bytes spill stores", l)
    if m: spill = m.group(1)
    m = re.search(r"Used (\d+) registers", l)
    if m and cur and cur.startswith(("td_reg_", "td_tile_solve")):
        print("    %-20s %4s registers, %s bytes spilled" % (cur, m.group(1), spill))'
  done
done
