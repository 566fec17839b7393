#!/usr/bin/env bash
# One device call: GPU PSCR solve times under tuning choices, CUDA and NVIDIA's OpenCL from one
# OpenCL-enabled build. TUNES: "label:backend:name=value,...[:-DX,-DY]" (tuning and kernel
# defines, through PSCR_KERNEL_DEFINES, may be empty); rows
# PROBLEMS (default poisson2d,helmholtz2d) at 2D n N2 .. N2MAX and 3D n N3 .. N3MAX (default
# 2D 255 .. 2047, no 3D). Logs under $OUT; table last (tools/variant_table.py).
# Usage: OUT=$OUT TUNES="cuda:cuda: ocl:opencl: cuda48k:cuda:pscr_local=49152" bash tools/device_tunes.sh
OCL=ON source tools/device_env.sh
labels=""
for v in ${TUNES:-"cuda:cuda: ocl:opencl:"}; do
  l=${v%%:*}; r=${v#*:}; bk=${r%%:*}; t=${r#*:}; d=""; labels="$labels $l"
  case $t in *:*) d=${t#*:}; t=${t%%:*};; esac
  PSCR_KERNEL_DEFINES="${d//,/ }" timeout ${T_ROW:-200} stdbuf -oL $B/bench_pscr_gpu --backends $bk --problems ${PROBLEMS:-poisson2d,helmholtz2d} \
    --min-n ${N2:-255} --max-n ${N2MAX:-2047} --min-n3 ${N3:-0} --max-n3 ${N3MAX:-0} --reps ${REPS:-7} \
    --xfer-reps 0 ${t:+--tune $t} > "$OUT/$l.jsonl" 2>> "$OUT/bench.log"
  echo "$l done ($(grep -c solve_ms "$OUT/$l.jsonl") rows)"
done
python3 tools/variant_table.py "$OUT" $labels
