# Sourced by the tools/device_*.sh scripts: the toolkit on PATH, $OUT, and a
# Release build in $B of $TARGETS (default bench_pscr_gpu), brought up to date on
# every call (a warm machine keeps $B): CUDA only in build-lane, or with OCL=ON
# CUDA and OpenCL in build-ocl, NVIDIA's OpenCL platform picked.
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
[ "${OCL:-OFF}" = ON ] && export PSCR_OPENCL_PLATFORM=NVIDIA
OUT=${OUT:-./device-out}; mkdir -p "$OUT"
[ "${OCL:-OFF}" = ON ] && B=${B:-build-ocl} || B=${B:-build-lane}
{ [ -f $B/CMakeCache.txt ] || cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=${OCL:-OFF} -DPSCR_BUILD_EXAMPLES=OFF; } \
  > "$OUT/build.log" 2>&1 &&
  cmake --build $B -j16 --target ${TARGETS:-bench_pscr_gpu} >> "$OUT/build.log" 2>&1 ||
  { tail -20 "$OUT/build.log"; echo BUILD FAILED; }
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
