#!/usr/bin/env bash
# OpenCL (NVIDIA) against CUDA on every 3D row, same call, then the OpenCL
# PSCR test on NVIDIA. Usage: OUT=$OUT [PBS=poisson3d,helmholtz3d] [X3=511] bash tools/device_ocl3d.sh
OCL=ON TARGETS="bench_pscr_gpu opencl_test_opencl_pscr ${TARGETS2:-}" source tools/device_env.sh
timeout 400 $B/bench_pscr_gpu --backends cuda,opencl --problems ${PBS:-poisson3d,helmholtz3d} \
  --min-n3 ${N3:-0} --max-n3 ${X3:-511} --reps ${REPS:-5} --xfer-reps 0 \
  > "$OUT/rows.jsonl" 2>> "$OUT/err.log"
python3 - "$OUT/rows.jsonl" <<'PY'
import json, sys
rows = {}
for l in open(sys.argv[1]):
    if not l.startswith("{"): continue
    r = json.loads(l)
    if r.get("status") == "ok": rows.setdefault((r["problem"], r["n"]), {})[r["backend"]] = r
print("problem      n     cuda ms  opencl ms  ocl/cuda  resid cuda / ocl")
for k in sorted(rows):
    c, o = rows[k].get("cuda"), rows[k].get("opencl")
    if c and o:
        print("%-11s %4d %9.3f %10.3f %8.2f   %.1e / %.1e" % (k[0], k[1], c["solve_ms"], o["solve_ms"],
              o["solve_ms"] / c["solve_ms"], c["rel_residual"], o["rel_residual"]))
PY
for t in ${TESTS-opencl_test_opencl_pscr}; do
  timeout 400 $B/tests/$t > "$OUT/$t.log" 2>&1
  echo "$t rc $?: $(grep -E ' checks|worst|FAIL' "$OUT/$t.log" | head -5 | tr '\n' ' ')"
done
