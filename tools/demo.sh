#!/bin/sh
# Installs missing packages, builds everything and runs the main demo.
set -e
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] && sh tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
./build/poisson --dim 2 --n 1023
