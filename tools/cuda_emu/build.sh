#!/usr/bin/env bash
# Builds the CUDA driver emulator: $1 = output dir (default /tmp/cuda_emu).
# Use: LD_PRELOAD=$out/libcuda.so.1 ./tests/cuda_test_cuda_tridiag
# (ASAN=1: instrumented; then LD_PRELOAD="$(g++ -print-file-name=libasan.so) $out/libcuda.so.1").
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/cuda_emu}
mkdir -p "$out"
flags="-std=c++17 -O1 -g -fPIC -I$here -I$here/../../kernels -I/usr/local/cuda/include -Wall -Wno-unused-function"
flags="$flags ${EXTRA:-}"
[ -n "${ASAN:-}" ] && flags="$flags -fsanitize=address -fno-omit-frame-pointer"
g++ $flags -DPSCR_COMPLEX=0 -c "$here/emu_kernels.cpp" -o "$out/k_d.o" &
g++ $flags -DPSCR_COMPLEX=1 -c "$here/emu_kernels.cpp" -o "$out/k_z.o" &
g++ $flags -c "$here/emu.cpp" -o "$out/emu.o"
wait
g++ $flags -shared -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1" "$out/emu.o" "$out/k_d.o" "$out/k_z.o" -ldl
echo "$out/libcuda.so.1"
