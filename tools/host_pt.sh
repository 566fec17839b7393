#!/usr/bin/env bash
# P+PT phase profile on the device host: a static libpscr built with
# -DPSCR_PT_PROFILE=1, then tools/hostprobe/ptprof.c over THREADS x LEVELS x
# TILES, for each of SPLITS (ranges per thread) and NTS (PSCR_PT_NT: 0 plain
# stores, 1 streaming). Logs under $OUT.
set -u
OUT=${OUT:-./host-pt}; mkdir -p "$OUT"
B=build-pt
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_CUDA=OFF -DPSCR_WITH_OPENCL=OFF \
  -DCMAKE_C_FLAGS="-DPSCR_PT_PROFILE=1" > "$OUT/build.log" 2>&1 &&
  cmake --build $B -j"$(nproc)" --target pscr_static >> "$OUT/build.log" 2>&1 &&
  gcc -O2 -fopenmp tools/hostprobe/ptprof.c -Iinclude $B/libpscr.a -llapacke -lopenblas -lm \
    -o $B/ptprof >> "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
for nt in ${NTS:-0 1}; do
  for k in ${SPLITS:-16}; do
    echo "== PSCR_PT_NT=$nt PSCR_PT_SPLIT=$k"
    PSCR_PT_NT=$nt PSCR_PT_SPLIT=$k OPENBLAS_NUM_THREADS=1 timeout ${TMAX:-200} $B/ptprof \
      ${LOG:-25} ${REPS:-5} "${THREADS:-16}" "${LEVELS:-2}" "${TILES:-2048}" 2>&1 | tee -a "$OUT/pt.txt"
  done
done
