#!/usr/bin/env bash
# One device call: OpenCL / CUDA solve time (issue 6's bar) for PB's problems
# over MIN..MAX (2D) in one bench_pscr_gpu process (one kernel build per
# backend), rows printed as they come. Usage: OUT=$OUT [PB=poisson2d,helmholtz2d]
# [MIN=31] [MAX=4095] [REPS=11] [T=200] bash tools/device_ocl_ratio.sh
OCL=ON TARGETS="bench_pscr_gpu" source "$(dirname "$0")/device_env.sh"
timeout ${T:-200} stdbuf -oL $B/bench_pscr_gpu --backends cuda,opencl --problems ${PB:-poisson2d,helmholtz2d} \
  --min-n ${MIN:-31} --max-n ${MAX:-4095} --min-n3 ${MIN3:-1000000} --max-n3 ${MAX3:-0} --reps ${REPS:-11} \
  --xfer-reps 0 ${ARGS:-} > "$OUT/ratio.jsonl" 2>> "$OUT/err.log"
python3 - "$OUT/ratio.jsonl" <<'PY'
import json, sys
rows = {}
for l in open(sys.argv[1]):
    try: r = json.loads(l)
    except Exception: continue
    if "solve_ms" in r: rows.setdefault((r["problem"], r["n"]), {})[r["backend"]] = r
print("| problem | n | CUDA ms | OpenCL ms | OpenCL / CUDA | residual CUDA / OpenCL |")
print("|---|---|---|---|---|---|")
for (pb, n), b in rows.items():
    c, o = b.get("cuda"), b.get("opencl")
    if c and o:
        print("| %s | %d | %.3f | %.3f | %.2f | %.1e / %.1e |" % (pb, n, c["solve_ms"], o["solve_ms"], o["solve_ms"] / c["solve_ms"], c["rel_residual"], o["rel_residual"]))
PY
