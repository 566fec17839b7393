#!/usr/bin/env bash
# The twelfth session's final call: CUDA 3D rows with cuFFT and the CPU (all
# cores) at 255^3, 1023^3, the CUDA tests, compute-sanitizer on the dense
# level, then OpenCL (NVIDIA) against CUDA on 3D and the OpenCL PSCR test.
# Usage: OUT=$OUT bash tools/device_final3d.sh
OCL=ON TARGETS="bench_pscr_gpu bench_fft_poisson_gpu cuda_test_cuda_pscr cuda_test_cuda_status cuda_test_cuda_tridiag opencl_test_opencl_pscr" \
  source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
B3() { timeout 300 $B/bench_pscr_gpu --problems poisson3d,helmholtz3d --reps ${REPS:-7} --xfer-reps 1 "$@"; }
B3 --backends cuda --min-n3 127 > "$OUT/cuda3d.jsonl" 2>> "$OUT/err.log"
B3 --backends cpu --cpu-threads 0 --min-n3 255 --max-n3 255 --problems poisson3d > "$OUT/cpu3d.jsonl" 2>> "$OUT/err.log"
timeout 120 $B/bench_fft_poisson_gpu 3d nobig reps=${REPS:-7} > "$OUT/fft.jsonl" 2> "$OUT/fft.err"
timeout 200 $B/bench_pscr_gpu --backends cuda --problems poisson3d --big-only --reps 3 --xfer-reps 0 \
  > "$OUT/big.jsonl" 2>> "$OUT/err.log"
python3 - "$OUT" <<'PY'
import json, sys, os
o = sys.argv[1]
def load(f):
    try: return [json.loads(l) for l in open(os.path.join(o, f)) if l.startswith("{")]
    except OSError: return []
fft = {r["n"]: r["median_ms"] for r in load("fft.jsonl") if r.get("dim") == 3 and "median_ms" in r}
cpu = {r["n"]: r["solve_ms"] for r in load("cpu3d.jsonl") if r.get("status") == "ok"}
print("problem      n      cuda ms  floor  resid     xfer ms  cuFFT ms  cuda/fft  cpu16T ms  cpu/cuda")
for r in load("cuda3d.jsonl") + load("big.jsonl"):
    if r.get("status") != "ok" or "solve_ms" not in r: continue
    n, ms = r["n"], r["solve_ms"]
    f = fft.get(n) if r["problem"] == "poisson3d" else None
    c = cpu.get(n) if r["problem"] == "poisson3d" else None
    print("%-11s %5d %9.3f %6.1f %9.2e %8.2f %9s %8s %10s %8s" % (r["problem"], n, ms, r["floor_ratio"],
          r["rel_residual"], r.get("transfer_ms", -1), "%.3f" % f if f else "-", "%.2f" % (ms / f) if f else "-",
          "%.1f" % c if c else "-", "%.1f" % (c / ms) if c else "-"))
PY
for t in cuda_test_cuda_pscr cuda_test_cuda_status cuda_test_cuda_tridiag; do
  timeout 300 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
SB="$B/bench_pscr_gpu --backends cuda --problems poisson3d,helmholtz3d --min-n3 40 --max-n3 63 --reps 3 --xfer-reps 0"
timeout 300 compute-sanitizer --tool memcheck $SB > "$OUT/memcheck.log" 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
timeout 300 compute-sanitizer --tool racecheck --kernel-name kns=pscr_gemm $SB > "$OUT/racecheck.log" 2>&1
echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck.log" | tail -1)"
OUT=$OUT bash "$(dirname "$0")/device_ocl3d.sh" # OpenCL against CUDA on 3D, the OpenCL test
