#!/usr/bin/env bash
# Device-host probe (one short call): CPU topology, THP, then the CPU tridiagonal
# benchmark at n = 2^25 under both OpenMP wait policies, and the OpenCL tests on
# NVIDIA's platform. Logs under $OUT.
set -u
OUT=${OUT:-./host-diag}; B=${BUILD:-./build-diag}; mkdir -p "$OUT"
{ lscpu; numactl -H 2>&1 | head -8; cat /sys/kernel/mm/transparent_hugepage/enabled; nproc; } > "$OUT/host.txt" 2>&1
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/build.log" 2>&1 &&
  cmake --build "$B" -j"$(nproc)" >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
export OPENBLAS_NUM_THREADS=1 LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
for pol in ${POL:-active passive}; do
  echo "== OMP_WAIT_POLICY=$pol" >> "$OUT/td.jsonl"
  OMP_WAIT_POLICY=$pol timeout 150 "$B/bench_tridiag_cpu" --min-log 25 --max-log 25 --dtype f64 \
    --big-runs 3 ${TD_LEVELS:+--levels $TD_LEVELS} >> "$OUT/td.jsonl" 2>&1
done
[ "${PSCR:-1}" = 1 ] && timeout 120 "$B/bench_pscr_gpu" --backends cpu --problems poisson3d,poisson2d --min-n 4095 --max-n 4095 \
  --min-n3 255 --max-n3 255 --cpu-threads 1,0 --cpu-max-s 20 --cpu-budget 4 > "$OUT/pscr_cpu.jsonl" 2>&1
[ "${PSCR:-1}" = 1 ] && grep -o '"problem":"[a-z0-9]*","n":[0-9]*\|"threads":[0-9]*\|"plan_s":[^,]*\|"solve_ms":[^,]*' "$OUT/pscr_cpu.jsonl" | paste -sd' ' | sed 's/"problem"/\n&/g'
if [ "${OCL:-1}" = 1 ]; then
  (cd "$B" && PSCR_OPENCL_PLATFORM=NVIDIA timeout 200 ctest -L opencl --output-on-failure > "$OUT/ocl_tests.log" 2>&1)
  tail -15 "$OUT/ocl_tests.log"
fi
grep -E "Model name|^CPU\(s\)|Thread|Socket|NUMA node|MHz|\[" "$OUT/host.txt"
python3 - "$OUT/td.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    if l.startswith("=="): print(l.strip()); continue
    try: r = json.loads(l)
    except Exception: continue
    if "median_ms" in r: print(f"{r['alg']:16s} {r.get('variant',''):8s} T={r['threads']:2d} L={r.get('levels','-')} {r['median_ms']:9.1f} ms floor x{r['floor_ratio']:.1f}")
    elif "gbps" in r: print("copy GB/s", r["gbps"])
PY
