#!/usr/bin/env bash
# OpenCL (NVIDIA's platform) against CUDA on the tridiagonal engine: `bench_tridiag_gpu vs` on
# each of CASES (what:n:batch[:alg[:matrix[:c128]]], what = shifted or batch; batch 1 is one
# system; the table names systems x rows), REPS processes a case (default 2), one after another;
# per case and form the median ms and floor ratio of each backend and the per-process OpenCL /
# CUDA ratios. VARIANTS: settings timed alternating, label[@-DX=1,...][%tune=v,...] (defines
# through PSCR_KERNEL_DEFINES, tuning through PSCR_BENCH_TUNE, both backends; default "new").
# WARM=1 first runs every case and variant once, in parallel, to build the programs into the
# disk cache (NVIDIA's OpenCL: 15-30 s a program). DUMP=1: the OpenCL programs of the first
# variant's warm runs go to $OUT/dump, and the L2 prefetches and cp.async in their PTX are
# counted.
# Usage: OUT=$OUT [CASES=...] [VARIANTS=...] [WARM=1] bash tools/device_vs.sh
OCL=ON TARGETS=${TARGETS:-bench_tridiag_gpu} source tools/device_env.sh
CASES=${CASES:-"shifted:512:16384 shifted:4096:4096 shifted:16384:1024 shifted:8192:8192"}
VARIANTS=${VARIANTS:-new}
vs() { # variant case [reps file]
  IFS=: read -r what n batch alg mat dt <<< "$2"
  PSCR_KERNEL_DEFINES="$(defs_of "$1")" PSCR_BENCH_TUNE="$(tune_of "$1")" timeout ${TMO:-240} \
    $B/bench_tridiag_gpu vs $what $n $batch ${alg:-cr_pcr_thomas} ${mat:-dominant} ${dt:-}
}
if [ "${WARM:-0}" = 1 ]; then
  first=${VARIANTS%% *}
  for v in $VARIANTS; do for c in $CASES; do
    d=""; [ "${DUMP:-0}" = 1 ] && [ "$v" = "$first" ] && d=$OUT/dump/${c//:/_} && mkdir -p "$d"
    PSCR_OPENCL_DUMP=$d vs "$v" "$c" > /dev/null 2>> "$OUT/warm.err" &
  done; done
  wait
  [ "${DUMP:-0}" = 1 ] && for d in "$OUT"/dump/*; do
    echo "$(basename "$d"): $(ls "$d"/*.bin 2>/dev/null | wc -l) programs," \
      "$(cat "$d"/*.bin 2>/dev/null | grep -c 'cp.async.bulk.prefetch.L2') prefetch lines," \
      "$(cat "$d"/*.bin 2>/dev/null | grep -c 'cp.async.ca.shared') cp.async lines"
  done
fi
for rep in $(seq ${REPS:-2}); do for c in $CASES; do for v in $VARIANTS; do
  vs "$v" "$c" 2>> "$OUT/vs.err" | grep -v '"copy"' | sed "s/^{/{\"variant\":\"${v%%[@%]*}\",\"rep\":$rep,/" \
    >> "$OUT/vs.jsonl"
done; done; done
[ -s "$OUT/vs.jsonl" ] || exit 0 # REPS=0: the warm-up alone
python3 - "$OUT/vs.jsonl" <<'PY'
import json, sys, statistics as st
r = {}
for l in open(sys.argv[1]):
    j = json.loads(l)
    k = (j['what'], j['batch'], j['n'], j['dtype'], j['alg'], j['matrix'], j['variant'])
    r.setdefault(k, {}).setdefault(j['impl'], {})[j['rep']] = j
print("| case | variant | form | CUDA ms | OpenCL ms | CUDA floor | OpenCL floor | OpenCL / CUDA | err |")
print("|---|---|---|---|---|---|---|---|---|")
for k in r:
    for q in ('', '-queued'):
        c, o = r[k].get('cuda' + q, {}), r[k].get('opencl' + q, {})
        reps = [i for i in sorted(c) if i in o]
        if not reps: continue
        f = lambda d, key: ' '.join('%.3f' % d[i][key] if key == 'median_ms' else '%.2f' % d[i][key] for i in reps)
        ratio = [o[i]['median_ms'] / c[i]['median_ms'] for i in reps]
        err = max(max(d[i]['backward_error'] for i in reps) for d in (c, o))
        case = f"{k[0]} {k[1]}x{k[2]} {k[3]} {k[4]} {k[5]}"
        print(f"| {case} | {k[6]} | {'queued' if q else 'waiting'} | {f(c, 'median_ms')} | {f(o, 'median_ms')} | "
              f"{f(c, 'floor_ratio')} | {f(o, 'floor_ratio')} | {' '.join('%.2f' % x for x in ratio)} "
              f"({st.median(ratio):.2f}) | {err:.1e} |")
PY
