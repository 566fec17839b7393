#!/bin/sh
# Installs what a fresh Debian/Ubuntu machine lacks to build and test libpscr (run as root).
set -e
pkgs="build-essential cmake pkg-config clang liblapacke-dev libopenblas-dev libpng-dev
      ocl-icd-opencl-dev opencl-headers pocl-opencl-icd"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing
fi
