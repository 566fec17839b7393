#!/usr/bin/env bash
# P+PT phase profile on the device host: static libpscr built with
# -DPSCR_PT_PROFILE=1, with and without non-temporal stores (-DPSCR_PT_NT=1),
# then tools/hostprobe/ptprof.c over THREADS x LEVELS x TILES, for each of
# SPLITS (ranges per thread). Logs under $OUT.
set -u
OUT=${OUT:-./host-pt}; mkdir -p "$OUT"
for v in plain nt; do
  B=build-pt-$v; f="-DPSCR_PT_PROFILE=1"; [ $v = nt ] && f="$f -DPSCR_PT_NT=1"
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_CUDA=OFF -DPSCR_WITH_OPENCL=OFF \
    -DCMAKE_C_FLAGS="$f" > "$OUT/build-$v.log" 2>&1 &&
    cmake --build $B -j"$(nproc)" --target pscr_static >> "$OUT/build-$v.log" 2>&1 &&
    gcc -O2 -fopenmp tools/hostprobe/ptprof.c -Iinclude $B/libpscr.a -llapacke -lopenblas -lm \
      -o $B/ptprof >> "$OUT/build-$v.log" 2>&1 || { tail -20 "$OUT/build-$v.log"; exit 1; }
done
for v in ${VARIANTS:-plain nt}; do
  for k in ${SPLITS:-4}; do for f in ${NOFUSES:-0}; do
    echo "== $v, PSCR_PT_SPLIT=$k NOFUSE=$f"
    [ "$f" = 1 ] && export NOFUSE=1 || unset NOFUSE
    PSCR_PT_SPLIT=$k OPENBLAS_NUM_THREADS=1 timeout ${TMAX:-200} build-pt-$v/ptprof ${LOG:-25} \
      ${REPS:-5} "${THREADS:-16}" "${LEVELS:-2,3,4}" "${TILES:-8192}" 2>&1 | tee -a "$OUT/pt-$v.txt"
  done; done
done
