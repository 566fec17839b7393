#!/usr/bin/env bash
# pscr_slab64 on the device in one call (forty-fifth session): issue 6's launch-bound PSCR
# rows (2D Poisson 31-255, 3D Poisson 31-90) timed on both backends with pscr_slab64 on (the
# default) and off, then the CUDA dense suite and the OpenCL PSCR test on NVIDIA's platform:
# tools/device_slab128.sh's steps with these rows.
# Usage: OUT=$OUT [REPS=5] bash tools/device_slab64.sh
PROBLEMS=${PROBLEMS:-poisson2d,poisson3d} N2=${N2:-31} N2MAX=${N2MAX:-255} N3=${N3:-31} \
  N3MAX=${N3MAX:-90} TUNES=${TUNES:-"- pscr_slab64=0"} DEADLINE=${DEADLINE:-400} \
  STEPS=${STEPS:-"time suites"} exec bash tools/device_slab128.sh
