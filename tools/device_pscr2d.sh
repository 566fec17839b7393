#!/usr/bin/env bash
# One device call: the CUDA and OpenCL (NVIDIA) PSCR tests, then 2D Poisson rows N2..X2 on
# CUDA, OpenCL and the CPU backend (all host cores) with the cuFFT DST solver in the same run;
# a table last. Usage: OUT=$OUT [N2=1023] [X2=8191] bash tools/device_pscr2d.sh
OCL=ON TARGETS="bench_pscr_gpu bench_fft_poisson_gpu cuda_test_cuda_pscr opencl_test_opencl_pscr" \
  source tools/device_env.sh
for t in ${TESTS-cuda_test_cuda_pscr opencl_test_opencl_pscr}; do
  timeout 240 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst' "$OUT/$t.log" | tr '\n' ' ')"
done
timeout 300 $B/bench_pscr_gpu --backends cuda,opencl,cpu --cpu-threads 0 --problems poisson2d \
  --min-n ${N2:-1023} --max-n ${X2:-8191} --reps ${REPS:-11} --xfer-reps 1 ${BARGS:-} \
  > "$OUT/pscr.jsonl" 2> "$OUT/pscr.err"
timeout 120 $B/bench_fft_poisson_gpu 2d nobig reps=${REPS:-11} > "$OUT/fft.jsonl" 2> "$OUT/fft.err"
python3 - "$OUT/pscr.jsonl" "$OUT/fft.jsonl" <<'PY'
import json, sys
rows, fft = {}, {}
for l in open(sys.argv[1]):
    try: r = json.loads(l)
    except ValueError: continue
    if r.get("status") == "ok": rows.setdefault(r["n"], {})[r["backend"]] = r
for l in open(sys.argv[2]):
    try: r = json.loads(l)
    except ValueError: continue
    if r.get("dim") == 2 and "median_ms" in r: fft[r["n"]] = r["median_ms"]
print("n      cuda ms  floor   resid     opencl ms  ocl/cuda  cpu16T ms  cpu/cuda  cuFFT ms  cuda/fft")
for n in sorted(rows):
    c, o, p = rows[n].get("cuda"), rows[n].get("opencl"), rows[n].get("cpu")
    g = lambda r, k: r[k] if r else float("nan")
    cm = g(c, "solve_ms")
    print("%-5d %8.3f %6.1f %9.2e %9.3f %8.2f %10.2f %8.1f %9.3f %8.2f" % (n, cm, g(c, "floor_ratio"),
          g(c, "rel_residual"), g(o, "solve_ms"), g(o, "solve_ms") / cm, g(p, "solve_ms"),
          g(p, "solve_ms") / cm, fft.get(n, float("nan")), cm / fft.get(n, float("nan"))))
PY
