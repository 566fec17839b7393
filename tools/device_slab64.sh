#!/usr/bin/env bash
# pscr_slab64 on the device in one call: issue 6's launch-bound PSCR rows (2D Poisson 31-255,
# 3D Poisson 31-90) timed on both backends with pscr_slab64 on (the default) and off
# (tools/device_issue6.sh, TUNES alternating), then the dense suite on CUDA (its DMMA path
# against the CPU) and the OpenCL PSCR test on NVIDIA's platform, each within a timeout.
# Usage: OUT=$OUT [REPS=5] bash tools/device_slab64.sh
set -u
T0=$(date +%s)
PHASES="warm pscr" PROBLEMS=${PROBLEMS:-poisson2d,poisson3d} N2MAX=${N2MAX:-255} \
  N3MAX=${N3MAX:-90} TUNES="- pscr_slab64=0" REPS=${REPS:-5} DEADLINE=${DEADLINE:-400} \
  RESERVE=${RESERVE:-120} bash tools/device_issue6.sh > "$OUT/issue6.txt" 2>&1
B=build-ocl
export PSCR_OPENCL_PLATFORM=NVIDIA PSCR_CACHE_DIR=$PWD/.pscr-cache CUDA_CACHE_PATH=$PWD/.nv-cache
export LD_LIBRARY_PATH=$B:${LD_LIBRARY_PATH:-}
cmake --build $B -j16 --target cuda_test_cuda_pscr opencl_test_opencl_pscr > "$OUT/tests_build.log" 2>&1
left=$((${TLIMIT:-570} - ($(date +%s) - T0)))
PSCR_TEST_SMALL=3 timeout $((left / 2)) $B/tests/cuda_test_cuda_pscr > "$OUT/cuda_dense.txt" 2>&1
echo "cuda dense suite rc=$?" >> "$OUT/cuda_dense.txt"
left=$((${TLIMIT:-570} - ($(date +%s) - T0)))
timeout $((left - 10)) $B/tests/opencl_test_opencl_pscr > "$OUT/opencl_pscr.txt" 2>&1
echo "opencl pscr rc=$?" >> "$OUT/opencl_pscr.txt"
grep -E "FAIL|checks|rc=" "$OUT/cuda_dense.txt" "$OUT/opencl_pscr.txt" | head -20
grep '^|\|^# ' "$OUT/issue6.txt" | tail -40
