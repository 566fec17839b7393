#!/usr/bin/env bash
# pscr_slab128 on the device in one call, in STEPS (default all, in this order):
#   time     2D Poisson 63-255 on both backends with pscr_slab128 on (the default) and off
#            (tools/device_issue6.sh, TUNES alternating; PROBLEMS, N2, N2MAX, REPS)
#   shapes   its edge shapes against the CPU on CUDA and on NVIDIA's OpenCL
#            (tools/slabcheck/slab_shapes.c; SHAPES: n0xn1 or n0xn1xn2 ...)
#   memcheck compute-sanitizer on a CUDA solve of MEMN (127) of MEMPROB (poisson2d)
#   suites   the dense suite on CUDA (its DMMA path against the CPU), then the OpenCL
#            PSCR test on NVIDIA's platform, each within a timeout
# Usage: OUT=$OUT [STEPS="time shapes"] [REPS=5] bash tools/device_slab128.sh
set -u
T0=$(date +%s)
STEPS=" ${STEPS:-time shapes memcheck suites} "
B=build-ocl
case $STEPS in *" time "*)
  PHASES=${PHASES:-warm pscr} PROBLEMS=${PROBLEMS:-poisson2d} N2=${N2:-63} N2MAX=${N2MAX:-255} \
    N3=${N3:-31} N3MAX=${N3MAX:-63} TUNES=${TUNES:-"- pscr_slab128=0"} REPS=${REPS:-5} \
    DEADLINE=${DEADLINE:-330} RESERVE=${RESERVE:-120} bash tools/device_issue6.sh \
    > "$OUT/issue6.txt" 2>&1;;
esac
OCL=ON TARGETS="pscr_testing bench_pscr_gpu"
source tools/device_env.sh
export PSCR_OPENCL_PLATFORM=NVIDIA PSCR_CACHE_DIR=$PWD/.pscr-cache CUDA_CACHE_PATH=$PWD/.nv-cache
export LD_LIBRARY_PATH=$B:${LD_LIBRARY_PATH:-}
case $STEPS in *" shapes "*)
  cc -O2 -D_XOPEN_SOURCE=700 -Isrc -Isrc/testing -Iinclude -Itests -fopenmp -std=c11 \
    tools/slabcheck/slab_shapes.c -o $B/slab_shapes $B/libpscr_testing.a -L$B -lpscr \
    -llapacke -lopenblas -lm
  for bk in cuda opencl; do
    timeout 150 $B/slab_shapes $bk ${SHAPES:-16x128 17x128 100x65 128x100 127x20 128x128 65x65} \
      > "$OUT/shapes_$bk.txt" 2>&1
    echo "shapes $bk rc=$?" >> "$OUT/shapes_$bk.txt"
  done;;
esac
case $STEPS in *" memcheck "*)
  timeout 120 compute-sanitizer --tool memcheck $B/bench_pscr_gpu --backends cuda \
    --problems ${MEMPROB:-poisson2d} --min-n ${MEMN:-127} --max-n ${MEMN:-127} --reps 3 \
    --xfer-reps 0 > "$OUT/memcheck.txt" 2>&1
  echo "memcheck rc=$?" >> "$OUT/memcheck.txt";;
esac
case $STEPS in *" suites "*)
  cmake --build $B -j16 --target cuda_test_cuda_pscr opencl_test_opencl_pscr > "$OUT/tests_build.log" 2>&1
  left=$((${TLIMIT:-570} - ($(date +%s) - T0)))
  PSCR_TEST_SMALL=3 timeout $((left / 2)) $B/tests/cuda_test_cuda_pscr > "$OUT/cuda_dense.txt" 2>&1
  echo "cuda dense suite rc=$?" >> "$OUT/cuda_dense.txt"
  left=$((${TLIMIT:-570} - ($(date +%s) - T0)))
  timeout $((left - 10)) $B/tests/opencl_test_opencl_pscr > "$OUT/opencl_pscr.txt" 2>&1
  echo "opencl pscr rc=$?" >> "$OUT/opencl_pscr.txt";;
esac
cd "$OUT" && grep -h -E "ERROR SUMMARY|FAIL|checks|worst|rc=" memcheck.txt shapes_*.txt cuda_dense.txt \
  opencl_pscr.txt 2>/dev/null | head -30
grep -h '^|\|^# ' issue6.txt 2>/dev/null | tail -40
