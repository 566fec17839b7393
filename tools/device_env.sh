# Sourced by the tools/device_*.sh scripts: the toolkit on PATH, $OUT, and a
# CUDA-only Release build in $B (default build-lane) of $TARGETS (default
# bench_pscr_gpu), brought up to date on every call (a warm machine keeps $B).
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
OUT=${OUT:-./device-out}; B=${B:-build-lane}; mkdir -p "$OUT"
{ [ -f $B/CMakeCache.txt ] || cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=OFF -DPSCR_BUILD_EXAMPLES=OFF; } \
  > "$OUT/build.log" 2>&1 &&
  cmake --build $B -j16 --target ${TARGETS:-bench_pscr_gpu} >> "$OUT/build.log" 2>&1 ||
  { tail -20 "$OUT/build.log"; echo BUILD FAILED; }
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
