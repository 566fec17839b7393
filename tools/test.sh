#!/bin/sh
# Builds and runs all tests: a -Werror build with every label (GPU tests skip
# without a device), an ASan/UBSan build with the cpu tests, and 60 s of fuzzing.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] && sh tools/deps.sh
jobs=$(nproc)

cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DPSCR_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
# every label: cpu, cuda (skips without a GPU), opencl (PoCL from tools/deps.sh)
ctest --test-dir build-test --output-on-failure -j"$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPSCR_WERROR=ON \
      -DPSCR_SANITIZE=address,undefined -DPSCR_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan -L cpu -E install --output-on-failure -j"$jobs"

CC=clang cmake -S . -B build-fuzz -DPSCR_BUILD_FUZZ=ON -DPSCR_SANITIZE=address,undefined \
      -DPSCR_WITH_OPENMP=OFF -DPSCR_WITH_CUDA=OFF -DPSCR_WITH_OPENCL=OFF -DPSCR_BUILD_TESTS=OFF \
      -DPSCR_BUILD_BENCH=OFF -DPSCR_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_tridiag fuzz_pscr
for f in tridiag pscr; do
  mkdir -p build-fuzz/corpus-$f
  ./build-fuzz/tests/fuzz/fuzz_$f -max_total_time=60 -max_len=4096 -print_final_stats=1 \
        build-fuzz/corpus-$f 2>&1 | tail -n 3
done
echo "all tests passed"
