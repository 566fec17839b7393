#!/usr/bin/env bash
# CPU tridiagonal benchmark on the device host (one short call, no GPU build):
# bench_tridiag_cpu at n = 2^LOG (default 25; or 2^MINLOG .. 2^MAXLOG), DTYPE
# (f64, c128 or all; default f64), with an optional PCR_THOMAS levels sweep
# (LEVELS). Logs under $OUT; a short table last.
set -u
OUT=${OUT:-./host-td}; B=${BUILD:-./build-td}; mkdir -p "$OUT"
{ lscpu; nproc; } > "$OUT/host.txt" 2>&1
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DPSCR_WITH_CUDA=OFF -DPSCR_WITH_OPENCL=OFF \
  > "$OUT/build.log" 2>&1 && cmake --build "$B" -j"$(nproc)" --target bench_tridiag_cpu >> "$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
export OPENBLAS_NUM_THREADS=1
LOG=${LOG:-25}
timeout ${TMAX:-300} "$B/bench_tridiag_cpu" --min-log "${MINLOG:-$LOG}" --max-log "${MAXLOG:-$LOG}" \
  --dtype ${DTYPE:-f64} --runs ${SMALLRUNS:-5} --big-runs ${RUNS:-3} ${LEVELS:+--levels $LEVELS} \
  > "$OUT/td.jsonl" 2>&1
grep -E "Model name|^CPU\(s\)|Thread|MHz|L2|L3" "$OUT/host.txt"
grep -o 'avx512[a-z]*' "$OUT/host.txt" | sort -u | paste -sd' '
python3 - "$OUT/td.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    try: r = json.loads(l)
    except Exception: print(l.strip()); continue
    if "median_ms" in r: print(f"2^{r['n'].bit_length()-1} {r['dtype']:4s} {r['alg']:16s} {r.get('variant',''):8s} T={r['threads']:2d} L={r.get('levels','-')} {r['median_ms']:9.1f} ms floor x{r['floor_ratio']:.2f}")
    elif "gbps" in r: print("copy GB/s", r["gbps"])
    else: print(r)
PY
