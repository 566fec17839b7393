#!/usr/bin/env python3
"""Summary of one bench/device.sh call: writes OUT/RESULTS.md (the tables) and prints the
steps and the issues' bars last. usage: device_summary.py OUT STEPS_FILE TOTAL_S THREADS"""
import json
import os
import sys

out_dir, steps_file = sys.argv[1], sys.argv[2]
total_s, nthreads = int(sys.argv[3]), int(sys.argv[4])


def rows(name):
    path = os.path.join(out_dir, name)
    res = []
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            if line.startswith("{"):
                try:
                    res.append(json.loads(line))
                except ValueError:
                    pass
    return res


def f(v, fmt):
    return "-" if v is None or (isinstance(v, (int, float)) and v < 0) else fmt % v


pg, fft, tdg, cpu = rows("pscr_gpu.jsonl"), rows("fft.jsonl"), rows("tridiag_gpu.jsonl"), rows("cpu.jsonl")
ok = [r for r in pg if r.get("status") == "ok"]
P = {(r["problem"], r["n"], r["backend"], r["threads"]): r for r in ok}
F = {(r["dim"], r["n"]): r for r in fft if r.get("status") == "ok"}
cpu_threads = max([r["threads"] for r in ok if r["backend"] == "cpu"] + [nthreads])
md = []
dev = [r for r in pg + fft if r.get("what") == "copy"]
for r in dev:
    md.append(f"- copy bandwidth ({r.get('bench')}, {r.get('backend', 'cuda')}): "
              + ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("bench", "what")))
skips = sorted({(r.get("problem", "-"), r.get("backend"), r.get("status")) for r in pg
                if r.get("status") not in (None, "ok") and not str(r.get("status")).startswith("skipped: pred")})
for s in skips:
    md.append(f"- pscr_gpu: {s[0]} on {s[1]}: {s[2]}")

md.append("\n### PSCR: GPU, CPU and the cuFFT DST solver (same run)\n")
md.append(f"| problem | n | CUDA plan s | CUDA solve ms | wall ms | transfer ms | GB/s | floor ratio "
          f"| rel. residual | OpenCL ms | CPU 1T ms | CPU {cpu_threads}T ms | CPU {cpu_threads}T / CUDA "
          f"| cuFFT ms | CUDA / cuFFT | seed GTX 1080 Ti ms (+ transfer) |")
md.append("|" + "---|" * 16)
keys = []
for r in ok:
    if (r["problem"], r["n"]) not in keys:
        keys.append((r["problem"], r["n"]))
for prob, n in keys:
    c, o = P.get((prob, n, "cuda", 0)), P.get((prob, n, "opencl", 0))
    c1, ca = P.get((prob, n, "cpu", 1)), P.get((prob, n, "cpu", cpu_threads))
    fr = F.get((int(prob[-2]), n)) if prob.startswith("poisson") else None
    any_row = c or o or c1 or ca
    g = any_row.get("seed_gtx1080ti_s", 0) if any_row else 0
    gt = any_row.get("seed_gtx1080ti_transfer_s", 0) if any_row else 0
    md.append(f"| {prob} | {n} | {f(c and c['plan_s'], '%.3f')} | {f(c and c['solve_ms'], '%.3f')} "
              f"| {f(c and c['wall_ms'], '%.3f')} | {f(c and c['transfer_ms'], '%.3f')} "
              f"| {f(c and c['gbps'], '%.0f')} | {f(c and c['floor_ratio'], '%.2f')} "
              f"| {f(c and c['rel_residual'], '%.1e')} | {f(o and o['solve_ms'], '%.3f')} "
              f"| {f(c1 and c1['solve_ms'], '%.3f')} | {f(ca and ca['solve_ms'], '%.3f')} "
              f"| {f(c and ca and ca['solve_ms'] / c['solve_ms'], '%.1f')} "
              f"| {f(fr and fr['median_ms'], '%.3f')} | {f(c and fr and c['solve_ms'] / fr['median_ms'], '%.2f')} "
              f"| {f(g and 1e3 * g, '%.1f')} + {f(gt and 1e3 * gt, '%.1f') if g else '-'} |")

md.append("\n### cuFFT type-I DST fast Poisson (FEM factors of (31), uniform mesh)\n")
md.append("| dim | n | median ms | min ms | GB/s | floor ratio | rel. residual | plan ms | device GB |")
md.append("|---|---|---|---|---|---|---|---|---|")
for r in fft:
    if r.get("status") == "ok":
        md.append(f"| {r['dim']}D | {r['n']} | {r['median_ms']:.3f} | {r['min_ms']:.3f} | {r['gbps']:.0f} "
                  f"| {r['floor_ratio']:.1f} | {r['rel_residual']:.1e} | {r['plan_ms']:.1f} "
                  f"| {r['device_bytes'] / 1e9:.1f} |")
    elif "n" in r:
        md.append(f"| {r['dim']}D | {r['n']} | {r.get('status')} | | | | | | |")

td = [r for r in tdg if "median_ms" in r]
if td:
    md.append("\n### Tridiagonal GPU (bench_tridiag_gpu quick)\n")
    md.append("| what | n | batch | dtype | matrix | impl | algorithm | median ms | floor ratio | backward error |")
    md.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in td:
        md.append(f"| {r['what']} | {r['n']} | {r['batch']} | {r['dtype']} | {r['matrix']} | {r['impl']} "
                  f"| {r['alg']} | {r['median_ms']:.3f} | {r['floor_ratio']:.2f} | {f(r['backward_error'], '%.1e')} |")

tc = [r for r in cpu if r.get("bench") == "tridiag_cpu" and "median_ms" in r]
if tc:
    md.append("\n### Tridiagonal CPU (bench_tridiag_cpu)\n")
    md.append("| n | alg | variant | threads | median ms | GB/s | floor ratio |")
    md.append("|---|---|---|---|---|---|---|")
    for r in tc:
        md.append(f"| {r['n']} | {r['alg']} | {r['variant']} | {r['threads']} | {r['median_ms']:.2f} "
                  f"| {r['gbps']:.1f} | {r['floor_ratio']:.2f} |")

pc = [r for r in cpu if r.get("bench") == "pscr_cpu"]
if pc:
    md.append("\n### PSCR CPU (bench_pscr_cpu)\n")
    md.append("| problem | n | threads | plan s | solve s | rel. residual |")
    md.append("|---|---|---|---|---|---|")
    for r in pc:
        md.append(f"| {r['problem']} | {r['n']} | {r['threads']} | {r['plan_s']:.4f} "
                  f"| {r['solve_s_median']:.4f} | {r['rel_residual']:.1e} |")

st = [r for r in cpu if r.get("bench") == "stability"]
if st:
    by = {}
    for r in st:
        by.setdefault(r["algorithm"], []).append(r)
    md.append(f"\n### Stability (bench_stability --json, n = {st[0].get('n')}): worst per algorithm\n")
    md.append("| algorithm | rows | not OK | max fwd | max nbe |")
    md.append("|---|---|---|---|---|")
    for a, rs in by.items():
        good = [r for r in rs if r.get("status") == "OK"]
        mf = max([r["fwd"] for r in good if isinstance(r.get("fwd"), float)] or [-1])
        mb = max([r["nbe"] for r in good if isinstance(r.get("nbe"), float)] or [-1])
        md.append(f"| {a} | {len(rs)} | {len(rs) - len(good)} | {f(mf, '%.1e')} | {f(mb, '%.1e')} |")

eg = [r for r in cpu if str(r.get("what", "")).startswith("eigen")]
if eg:
    md.append("\n### Eigen blocks (bench_eigen_block, one thread)\n")
    md.append("| what | pair | size | median s |")
    md.append("|---|---|---|---|")
    for r in eg:
        md.append(f"| {r['what']} | {r['pair']} | {r.get('m', r.get('n'))} | {r['median_s']:.3f} |")

# ---- bars ----
bars = []


def bar(issue, what, value, limit, fmt, le=True, note=""):
    if value is None:
        bars.append((issue, what, "n/a", ("<= " if le else ">= ") + fmt % limit, "n/a", note))
        return
    good = value <= limit if le else value >= limit
    bars.append((issue, what, fmt % value, ("<= " if le else ">= ") + fmt % limit,
                 "PASS" if good else "FAIL", note))


def get(prob, n, bk="cuda", th=0, key="solve_ms"):
    r = P.get((prob, n, bk, th))
    return r[key] if r and r.get(key, -1) is not None and r.get(key, -1) >= 0 else None


c8 = get("poisson2d", 8191)
f8 = F.get((2, 8191), {}).get("median_ms")
bar(5, "2D Poisson 8191^2 solve ms", c8, 10, "%.2f", note=f"cuFFT same run: {f(f8, '%.2f')} ms")
bar(5, "2D Poisson 8191^2 CUDA / cuFFT", c8 / f8 if c8 and f8 else None, 1.0, "%.2f")
bar(5, "2D Helmholtz 4095^2 solve ms", get("helmholtz2d", 4095), 10, "%.2f")
bar(5, "2D Helmholtz 4095^2 rel. residual", get("helmholtz2d", 4095, key="rel_residual"), 1e-10, "%.1e")
bar(5, "3D Poisson 511^3 solve ms", get("poisson3d", 511), 60, "%.1f",
    note=f"cuFFT: {f(F.get((3, 511), {}).get('median_ms'), '%.2f')} ms")
bar(5, "3D Helmholtz 361^3 solve ms", get("helmholtz3d", 361), 150, "%.1f")
bar(5, "plan 2D Poisson 8191^2, s (CUDA)", get("poisson2d", 8191, key="plan_s"), 1.0, "%.2f",
    note=f"CPU {cpu_threads}T plan: {f(get('poisson2d', 8191, 'cpu', cpu_threads, 'plan_s'), '%.2f')} s")
for prob, n in (("poisson2d", 8191), ("poisson3d", 255)):
    cc, ca = get(prob, n), get(prob, n, "cpu", cpu_threads)
    bar(5, f"{prob} {n}: CPU {cpu_threads}T / CUDA", ca / cc if cc and ca else None, 20, "%.1f", le=False)
bar(5, "3D Poisson 1023^3 rel. residual", get("poisson3d", 1023, key="rel_residual"), 1e-12, "%.1e",
    note=f"solve {f(get('poisson3d', 1023), '%.1f')} ms")
big = [r for r in tc if r["n"] == 1 << 25 and r["dtype"] == "f64"]
th1 = [r["median_ms"] for r in big if r["alg"] == "thomas" and r["threads"] == 1]
pt = [r for r in big if r["alg"] == "pcr_thomas"]
best = min(pt, key=lambda r: r["median_ms"]) if pt else None
bar(2, "2^25: THOMAS 1T / best PCR_THOMAS", th1[0] / best["median_ms"] if th1 and best else None, 6, "%.2f",
    le=False, note=f"best: {best['variant']} {best['threads']}T {best['median_ms']:.1f} ms" if best else "")
bar(2, "2^25: best PCR_THOMAS floor ratio", best["floor_ratio"] if best else None, 3, "%.2f")
for prob, n in (("poisson2d", 4095), ("poisson3d", 255)):
    one = [r["solve_s_median"] for r in pc if r["problem"] == prob and r["n"] == n and r["threads"] == 1]
    many = [r["solve_s_median"] for r in pc if r["problem"] == prob and r["n"] == n and r["threads"] > 1]
    if not (one and many):  # bench_pscr_cpu not run: the CPU rows of bench_pscr_gpu
        o, m = P.get((prob, n, "cpu", 1)), P.get((prob, n, "cpu", cpu_threads))
        one, many = ([o["solve_ms"]], [m["solve_ms"]]) if o and m else ([], [])
    bar(3, f"pscr {prob} {n} (CPU): 1T / {cpu_threads}T", one[0] / many[0] if one and many else None, 6,
        "%.2f", le=False)

md.append("\n### Bars (issues 2, 3, 5)\n")
md.append("| issue | what | measured | bar | verdict | note |")
md.append("|---|---|---|---|---|---|")
for b in bars:
    md.append("| " + " | ".join(str(x) for x in b) + " |")
with open(os.path.join(out_dir, "RESULTS.md"), "w") as fh:
    fh.write("\n".join(md) + "\n")

steps = [l.rstrip("\n").split("|") for l in open(steps_file) if l.strip()]
print("\n==== steps (limit for all: %d s) ====" % total_s)
for s in steps:
    print(f"  {s[0]:<15} {s[2]:>5} s  {s[1]}")
print("\n==== bars (tables: RESULTS.md) ====")
for b in bars:
    print(f"  #{b[0]} {b[1]:<40} {b[2]:>9} {b[3]:>10}  {b[4]:<4} {b[5]}")
