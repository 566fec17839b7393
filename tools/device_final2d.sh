#!/usr/bin/env bash
# One device call for the 2D Poisson bars, most important first so that a cut
# run keeps them: CUDA rows N2..X2 with the cuFFT DST solver in the same run,
# then EXTRA rows (problem:n:tune[:defines], as device_reg.sh), the CUDA PSCR
# test, OpenCL (NVIDIA) and CPU (all cores) rows, the OpenCL PSCR test.
# Usage: OUT=$OUT [N2=1023] [X2=8191] [EXTRA="..."] bash tools/device_final2d.sh
OCL=ON TARGETS="bench_pscr_gpu bench_fft_poisson_gpu cuda_test_cuda_pscr opencl_test_opencl_pscr" \
  source tools/device_env.sh
rows() { # backends file
  timeout 300 $B/bench_pscr_gpu --backends $1 --cpu-threads 0 --problems poisson2d \
    --min-n ${N2:-1023} --max-n ${X2:-8191} --reps ${REPS:-11} --xfer-reps 1 > "$OUT/$2" 2>> "$OUT/pscr.err"
}
table() {
  python3 - "$OUT/cuda.jsonl" "$OUT/fft.jsonl" "$OUT/other.jsonl" <<'PY'
import json, sys
rows, fft = {}, {}
def load(f):
    try: return [json.loads(l) for l in open(f) if l.startswith("{")]
    except OSError: return []
for r in load(sys.argv[1]) + load(sys.argv[3]):
    if r.get("status") == "ok": rows.setdefault(r["n"], {})[r["backend"]] = r
for r in load(sys.argv[2]):
    if r.get("dim") == 2 and "median_ms" in r: fft[r["n"]] = r["median_ms"]
nan = float("nan")
print("n      cuda ms  floor   resid     opencl ms  ocl/cuda  cpu16T ms  cpu/cuda  cuFFT ms  cuda/fft")
for n in sorted(rows):
    c, o, p = rows[n].get("cuda"), rows[n].get("opencl"), rows[n].get("cpu")
    g = lambda r, k: r[k] if r else nan
    cm = g(c, "solve_ms")
    print("%-5d %8.3f %6.1f %9.2e %9.3f %8.2f %10.2f %8.1f %9.3f %8.2f" % (n, cm, g(c, "floor_ratio"),
          g(c, "rel_residual"), g(o, "solve_ms"), g(o, "solve_ms") / cm, g(p, "solve_ms"),
          g(p, "solve_ms") / cm, fft.get(n, nan), cm / fft.get(n, nan)))
PY
}
rows cuda cuda.jsonl
timeout 120 $B/bench_fft_poisson_gpu 2d nobig reps=${REPS:-11} > "$OUT/fft.jsonl" 2> "$OUT/fft.err"
table
tuned_rows "${EXTRA:-}" ${REPS:-11}
for t in ${TESTS-cuda_test_cuda_pscr}; do
  timeout 240 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
rows opencl,cpu other.jsonl
table
for t in ${TESTS2-opencl_test_opencl_pscr}; do
  timeout 240 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
