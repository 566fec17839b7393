#!/usr/bin/env bash
# Issue 6's whole table in one call: OpenCL (NVIDIA's platform) against CUDA on every PSCR
# problem and size (tools/device_small.sh) and on the tridiagonal engine's rows
# (tools/device_vs.sh), REPS processes a row, each process timing both backends.
# Phases (PHASES, default "warm pscr vs"; also "profile": each kernel's device time, and
# "trace": NVIDIA's host enqueue spans, cltrace.c, for TRACE rows problem:n): warm builds
# every program a row takes into the disk caches, one process per problem, size and backend, JOBS at a time (NVIDIA's OpenCL
# takes 15-30 s a program, so one process a sweep would spend minutes in them).
# CACHE=1: at the end the caches (.pscr-cache: modules and program binaries; .nv-cache:
# the driver's JIT of their PTX) go to $OUT/cache.txz.* in 15 MB parts, for the next fresh machine:
#   cat cache.txz.* | xz -d | tar x   (here, in the tree), then carry both paths.
# DEADLINE (540 s from the start) bounds every phase, so that the logs and caches come back;
# RESERVE seconds of it are kept from the warm phase for the timed ones.
# $OUT gets at most 8 files (the device tool's limit): the tables, logs.tgz, the cache parts.
# TUNES: --tune settings timed alternating by the pscr phase ("-": the defaults). VS_REPS:
# the vs phase's processes a case (default REPS; 2 took 175 s on the H200).
# Usage: OUT=$OUT [REPS=2] [N2MAX=4095] [N3MAX=255] [CASES=...] bash tools/device_issue6.sh
set -u
FINAL=$OUT W=${W:-/tmp/issue6} T0=$(date +%s)
mkdir -p "$W"
stamp() { echo "# $1: $(($(date +%s) - T0)) s"; }
left() { echo $((${DEADLINE:-540} - ($(date +%s) - T0))); } # seconds to the call's deadline
PHASES=${PHASES:-warm pscr vs}
PROBLEMS=${PROBLEMS:-poisson2d,helmholtz2d,poisson3d,helmholtz3d}
N2=${N2:-31} N2MAX=${N2MAX:-4095} N3=${N3:-31} N3MAX=${N3MAX:-255} TUNES=${TUNES:--}
CASES=${CASES:-"shifted:4096:4096:cr_pcr_thomas:dominant:c128 shifted:8192:8192 \
shifted:512:16384 shifted:16384:512 shifted:4096:4096 batch:4096:4096 batch:8192:8192 \
batch:512:16384 batch:16384:1024 batch:1024:1024:spike_diag_pivot:random \
batch:67108864:1:spike_diag_pivot:random batch:67108864:1:gspike:random"}
export OCL=ON TARGETS="bench_pscr_gpu bench_tridiag_gpu"
OUT=$W/build bash -c 'source tools/device_env.sh'
stamp build
B=build-ocl
export PSCR_OPENCL_PLATFORM=NVIDIA PSCR_CACHE_DIR=$PWD/.pscr-cache CUDA_CACHE_PATH=$PWD/.nv-cache
export LD_LIBRARY_PATH=$B:${LD_LIBRARY_PATH:-} OPENBLAS_NUM_THREADS=1
mkdir -p "$PSCR_CACHE_DIR"
sizes() { # problem: its sizes within the ranges
  python3 -c 'import sys
p, a, b, a3, b3 = sys.argv[1], *map(int, sys.argv[2:])
s = {"2": [31, 63, 127, 255, 511, 1023, 2047, 4095, 8191], "3": [31, 44, 63, 90, 127, 180, 255, 361, 511]}
lo, hi = (a3, b3) if p.endswith("3d") else (a, b)
print(" ".join(str(n) for n in s[p[-2]] if lo <= n <= hi))' "$1" $N2 $N2MAX $N3 $N3MAX
}
case " $PHASES " in *" warm "*)
  # the tridiagonal rows' programs (device_vs.sh's own warm-up) beside the PSCR rows'
  case " $PHASES " in *" vs "*)
    OUT=$W/vs WARM=1 REPS=0 TMO=$(left) CASES="$CASES" bash tools/device_vs.sh &;;
  esac
  for pb in ${PROBLEMS//,/ }; do for n in $(sizes $pb); do for bk in opencl cuda; do
    for t in ${WARM_TUNES:-$TUNES}; do echo "$bk $pb $n $t"; done
  done; done; done |
    timeout $(($(left) - ${RESERVE:-0})) xargs -P ${JOBS:-16} -L 1 bash -c 'a=(); [ "$4" != - ] && a=(--tune "$4")
      timeout ${WARM_S:-300} $0/bench_pscr_gpu --backends $1 --problems $2 --min-n $3 \
      --max-n $3 --min-n3 $3 --max-n3 $3 --reps 3 --xfer-reps 0 --no-residual "${a[@]}" \
      > /dev/null 2>> '"$W"'/warm_pscr.err' $B
  wait
  stamp warm;;
esac
case " $PHASES " in *" profile "*) # each kernel's device time, every launch waited for
  timeout $(left) $B/bench_pscr_gpu --backends cuda,opencl --problems $PROBLEMS --min-n $N2 \
    --max-n $N2MAX --min-n3 $N3 --max-n3 $N3MAX --reps 11 --xfer-reps 0 --no-residual \
    --profile 2>> "$W/profile.err" | grep '^# profile' > "$FINAL/profile.txt"
  stamp profile;;
esac
case " $PHASES " in *" trace "*) # host enqueue spans against the device's (cltrace.c)
  cc -O2 -shared -fPIC -o $B/cltrace.so tools/oclrepro/cltrace.c -ldl &&
    for r in ${TRACE:-poisson2d:63 poisson2d:255}; do
      IFS=: read -r pb n <<< "$r"
      echo "## $pb $n"
      CLTRACE_TL=1 LD_PRELOAD=$PWD/$B/cltrace.so timeout $(left) $B/bench_pscr_gpu \
        --backends opencl --problems $pb --min-n $n --max-n $n --min-n3 $n --max-n3 $n \
        --reps 21 --xfer-reps 0 --no-residual --tune wait_spin=0 2>&1 >/dev/null | tail -40
    done > "$W/trace.txt" 2>&1
  stamp trace;;
esac
case " $PHASES " in *" pscr "*)
  OUT=$W/pscr timeout $(left) env REPS=${REPS:-2} GAP=${GAP:-0} BREPS=${BREPS:-21} TMO=${TMO:-300} TUNES="$TUNES" \
    PROBLEMS=$PROBLEMS N2=$N2 N2MAX=$N2MAX N3=$N3 N3MAX=$N3MAX bash tools/device_small.sh \
    > "$FINAL/pscr.md" 2>&1
  stamp pscr;;
esac
case " $PHASES " in *" vs "*)
  OUT=$W/vs timeout $(left) env REPS=${VS_REPS:-${REPS:-2}} CASES="$CASES" bash tools/device_vs.sh \
    > "$FINAL/vs.md" 2>&1
  stamp vs;;
esac
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$W/gpu.txt" 2>&1
tar czf "$FINAL/logs.tgz" -C "$W" . 2>/dev/null
[ "${CACHE:-0}" = 1 ] && # a whole sweep's: 80 MB compressed, more than a call may carry
  tar cf - .pscr-cache .nv-cache 2>/dev/null | xz -1 -T4 | split -b 15M - "$FINAL/cache.txz."
stamp done
cat "$FINAL/pscr.md" "$FINAL/vs.md" 2>/dev/null | grep '^|'
