#!/usr/bin/env bash
# One device call: GPU PSCR solve times under tuning choices, CUDA and NVIDIA's OpenCL from one
# OpenCL-enabled build. TUNES: "label:backend:name=value,...[:-DX,-DY]" (tuning and kernel
# defines, through PSCR_KERNEL_DEFINES, may be empty); rows
# PROBLEMS (default poisson2d,helmholtz2d) at 2D n N2 .. N2MAX and 3D n N3 .. N3MAX (default
# 2D 255 .. 2047, no 3D). Logs under $OUT; table last (tools/variant_table.py).
# Usage: OUT=$OUT TUNES="cuda:cuda: ocl:opencl: cuda48k:cuda:pscr_local=49152" bash tools/device_tunes.sh
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1 PSCR_OPENCL_PLATFORM=NVIDIA
OUT=${OUT:-./device-out}; B=build-ocl; mkdir -p "$OUT"
{ [ -f $B/CMakeCache.txt ] || cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=ON -DPSCR_BUILD_EXAMPLES=OFF; } > "$OUT/build.log" 2>&1 &&
  cmake --build $B -j16 --target bench_pscr_gpu >> "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; echo BUILD FAILED; }
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
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
