#!/usr/bin/env bash
# Diagnostics on the GPU machine (one device call, ~2.5 min): per-kernel times of one PSCR
# solve (ncu), a GPU PSCR tuning sweep (--tune tile_w/tile_q), a backtrace of the OpenCL
# tests on NVIDIA's platform (cuda-gdb). Logs under $OUT; a per-kernel table and the sweep last.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$here/diag-out}; mkdir -p "$OUT"
B=$here/build-diag
export PATH="/usr/local/cuda/bin:$PATH" CUDACXX=$(command -v nvcc)
export LD_LIBRARY_PATH="$B:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}" OMP_WAIT_POLICY=passive
t0=$(date +%s); st() { echo "[$(($(date +%s)-t0)) s] $*"; }
(cmake -S "$here" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_BUILD_EXAMPLES=OFF \
   && cmake --build "$B" -j16) > "$OUT/build.log" 2>&1; st "build rc=$?"
P="$B/bench_pscr_gpu --backends cuda --reps 5 --xfer-reps 0 --no-residual"
# 1. per-kernel device times at 2D 4095 and 3D 255 (one solve after the plan's warm-up)
NCU="ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv"
timeout 100 $NCU -c 600 $P --problems poisson2d --min-n 4095 --max-n 4095 > "$OUT/ncu2d.csv" 2> "$OUT/ncu2d.err"; st "ncu 2d rc=$?"
timeout 80 $NCU -c 600 $P --problems poisson3d --min-n3 255 --max-n3 255 > "$OUT/ncu3d.csv" 2> "$OUT/ncu3d.err"; st "ncu 3d rc=$?"
# 2. tuning sweep (CUDA)
for w in 128 256 512 1024; do for q in 2 4 8 16; do
  timeout 30 $P --problems poisson2d,poisson3d --min-n 2047 --max-n 8191 --min-n3 127 --max-n3 255 \
    --tune tile_w=$w,tile_q=$q 2>/dev/null | grep '"ok"' | sed "s/^{/{\"tile_w\":$w,\"tile_q\":$q,/" >> "$OUT/sweep.jsonl"
done; st "sweep w=$w"; done
# 3. OpenCL on NVIDIA: where the tests crash
export PSCR_OPENCL_PLATFORM=NVIDIA
for t in opencl_test_opencl_tridiag_d opencl_test_opencl_basics; do
  timeout 60 cuda-gdb -batch -ex run -ex bt -ex "info threads" --args "$B/tests/$t" > "$OUT/gdb_$t.log" 2>&1; st "gdb $t rc=$?"
done
python3 - "$OUT" <<'PY'
import csv, sys, collections, json, os
out = sys.argv[1]
for f in ("ncu2d.csv", "ncu3d.csv"):
    p = os.path.join(out, f)
    tot = collections.defaultdict(float); cnt = collections.Counter()
    try:
        rows = [r for r in csv.reader(open(p)) if len(r) > 10]
        hi = [i for i, r in enumerate(rows) if r[0] == "ID"][0]  # bench output comes first
        h = rows[hi]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
        for r in rows[hi + 1:]:
            v = float(r[vi].replace(",", "")); v *= {"ns": 1e-6, "us": 1e-3, "ms": 1}.get(r[ui], 1)
            tot[r[ki].split("(")[0]] += v; cnt[r[ki].split("(")[0]] += 1
    except Exception as e:
        print(f, "unreadable:", e); continue
    print(f, "total ms over", sum(cnt.values()), "launches:", round(sum(tot.values()), 3))
    for k, v in sorted(tot.items(), key=lambda x: -x[1])[:12]: print("  %-28s %9.3f ms %5d" % (k, v, cnt[k]))
best = {}
for l in open(os.path.join(out, "sweep.jsonl")):
    r = json.loads(l); k = (r["problem"], r["n"])
    print("%-10s %5d w=%4d q=%2d  %8.3f ms" % (r["problem"], r["n"], r["tile_w"], r["tile_q"], r["solve_ms"]))
PY
