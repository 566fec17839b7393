#!/usr/bin/env bash
# Builds a CUDA driver emulator (libcuda.so.1 on the CPU, emu.cpp) so that the
# CUDA backend and its tests run without a GPU: kernels of kernels/common are
# compiled for the host (emu_kernels.cpp; list every entry point in
# emu_list.h and every tuning macro in emu_params.h). Rebuild it after any
# kernel change. $1 = output dir (default /tmp/cuda_emu). Use:
#   LD_PRELOAD=$out/libcuda.so.1 build/tests/cuda_test_cuda_tridiag
#   EMU_ORDER=random|reverse   work-item order between barriers (shows races)
#   ASAN=1 (then LD_PRELOAD="$(g++ -print-file-name=libasan.so) $out/libcuda.so.1"),
#   OPT=0, EXTRA="-D..." for debugging.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/cuda_emu}
mkdir -p "$out"
flags="-std=c++17 -O${OPT:-1} -g -fPIC -I$here -I$here/../../kernels -I/usr/local/cuda/include -Wall -Wno-unused-function -Wno-unknown-pragmas"
flags="$flags ${EXTRA:-}"
[ -n "${ASAN:-}" ] && flags="$flags -fsanitize=address -fno-omit-frame-pointer"
rm -f "$out"/*.o # never link an object a failed build left behind
pids=
g++ $flags -DPSCR_COMPLEX=0 -c "$here/emu_kernels.cpp" -o "$out/k_d.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=1 -c "$here/emu_kernels.cpp" -o "$out/k_z.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=0 -DTD_RQ=16 -DEMU_TABLE=emu_kernels_d16 \
  -c "$here/emu_kernels.cpp" -o "$out/k_d16.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=1 -DTD_RQ=8 -DEMU_TABLE=emu_kernels_z8 \
  -c "$here/emu_kernels.cpp" -o "$out/k_z8.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=1 -DTD_RQ=16 -DEMU_TABLE=emu_kernels_z16 \
  -c "$here/emu_kernels.cpp" -o "$out/k_z16.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=1 -DTD_RQ=16 -DTD_REG_PH=2 -DTD_REG_SLIM=1 -DEMU_TABLE=emu_kernels_z16s \
  -c "$here/emu_kernels.cpp" -o "$out/k_z16s.o" & pids="$pids $!"
g++ $flags -DPSCR_COMPLEX=0 -DTD_RQ=16 -DTD_REG_PH=2 -DTD_REG_SLIM=1 -DEMU_TABLE=emu_kernels_d16s \
  -c "$here/emu_kernels.cpp" -o "$out/k_d16s.o" & pids="$pids $!"
g++ $flags -c "$here/emu.cpp" -o "$out/emu.o"
for p in $pids; do wait "$p"; done # set -e: a kernel build's failure stops here
g++ $flags -shared -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1" "$out/emu.o" "$out/k_d.o" \
  "$out/k_z.o" "$out/k_d16.o" "$out/k_z8.o" "$out/k_z16.o" "$out/k_z16s.o" "$out/k_d16s.o" -ldl
echo "$out/libcuda.so.1"
