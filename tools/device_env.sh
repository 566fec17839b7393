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
# compiled modules kept between processes (NVRTC: 10-15 s a module), and the
# driver's JIT of their PTX (NVIDIA's OpenCL programs' too, it is said), both in
# the tree: a call on a fresh machine may take them back as `carry` paths
# (tar them into $OUT at the end of a call; 64 MiB at most). Forty-second
# session: with .pscr-cache alone a fresh machine still took ~45 s a
# `bench_tridiag_gpu vs` process at first, against ~8 warm; .nv-cache untried.
export PSCR_CACHE_DIR=${PSCR_CACHE_DIR:-$PWD/.pscr-cache}; mkdir -p "$PSCR_CACHE_DIR"
export CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-$PWD/.nv-cache}

# A variant spec label[@-DX=1,...][%name=v,...] (device_ab.sh, device_vs.sh): its
# module defines (space-separated, for PSCR_KERNEL_DEFINES) and its tuning (for
# PSCR_BENCH_TUNE)
defs_of() { local d=${1%%%*}; case $d in *@*) echo "${d#*@}" | tr , ' ';; esac; }
tune_of() { case $1 in *%*) echo "${1#*%}";; esac; }

# One CUDA bench_pscr_gpu line per ROW problem:n:tune[:defines] (tune "-" = the
# defaults; defines comma-separated, through PSCR_KERNEL_DEFINES): solve ms and
# residual. Usage: tuned_rows "ROW ..." [reps]
tuned_rows() {
  for r in $1; do
    IFS=: read -r pb n tune defs <<< "$r"
    a=(); [ "$tune" != - ] && a=(--tune "$tune")
    PSCR_KERNEL_DEFINES="${defs//,/ }" timeout 120 $B/bench_pscr_gpu --backends cuda --problems $pb \
      --min-n $n --max-n $n --min-n3 $n --max-n3 $n --reps ${2:-7} --xfer-reps 0 "${a[@]}" 2>> "$OUT/err.log" |
      grep '"solve_ms"' | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("%-12s %5d %-36s %-16s %9.3f ms  residual %.2e" % (r["problem"], r["n"], sys.argv[1], sys.argv[2], r["solve_ms"], r["rel_residual"]))' "$tune" "$defs"
  done
}

# The --big-only 3D Poisson row (1023^3) on CUDA into $OUT/big.jsonl, and its line.
big_row() {
  timeout 240 $B/bench_pscr_gpu --backends cuda --problems poisson3d --big-only --reps 3 \
    --xfer-reps 0 > "$OUT/big.jsonl" 2>> "$OUT/err.log"
  grep '"solve_ms"' "$OUT/big.jsonl" | python3 -c 'import json,sys
for l in sys.stdin:
  r=json.loads(l); print("big %-10s %5d %9.3f ms plan %.2f s residual %.2e" % (r["problem"], r["n"], r["solve_ms"], r.get("plan_s", -1), r["rel_residual"]))'
}
