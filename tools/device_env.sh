# Sourced by the tools/device_*.sh profilers: the toolkit on PATH, $OUT, and a
# CUDA-only Release build in $B (default build-lane) holding bench_pscr_gpu.
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
OUT=${OUT:-./device-out}; B=${B:-build-lane}; mkdir -p "$OUT"
[ -x $B/bench_pscr_gpu ] || { cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DPSCR_WITH_OPENCL=OFF -DPSCR_BUILD_EXAMPLES=OFF && cmake --build $B -j16 --target bench_pscr_gpu; } \
  > "$OUT/bench-build.log" 2>&1
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
