#!/usr/bin/env bash
# PCR_THOMAS tile size x levels x variant on the device host (n = 2^25, random data, all threads).
for T in 16384 32768 65536; do
  B=build-t$T
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_CUDA=OFF -DPSCR_WITH_OPENCL=OFF \
    -DCMAKE_C_FLAGS=-DPT_TILE_BYTES=$T > /dev/null 2>&1 && cmake --build $B -j16 --target pscr > /dev/null 2>&1 &&
    gcc -O2 -fopenmp -Iinclude tools/hostprobe/libprobe.c -o /tmp/lp$T -L$B -lpscr -Wl,-rpath,$PWD/$B || echo "build $T failed"
done
for T in 16384 32768 65536; do for L in ${LEVELS:-5 6 7}; do for V in 1 2; do
  echo "tile $T L $L var $V: $(PSCR_PCR_THOMAS_LEVELS=$L PSCR_PCR_THOMAS_VARIANT=$V DATA=1 ONLY=2 /tmp/lp$T)"
done; done; done
