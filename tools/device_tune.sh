#!/usr/bin/env bash
# GPU PSCR tuning sweep (device tool): 3D Poisson 255^3 and 2D Poisson 8191^2 on CUDA for each
# --tune setting in TUNES (space-separated; "-" = defaults); PROBLEMS, N2..X2 and N3..X3 pick
# other rows. Usage: OUT=$OUT bash tools/device_tune.sh
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
B=build-tune
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=OFF \
  -DPSCR_BUILD_EXAMPLES=OFF > /dev/null 2>&1 && cmake --build $B -j16 --target bench_pscr_gpu > /dev/null 2>&1 || echo BUILD FAILED
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH
for t in ${TUNES:--}; do
  a=(); [ "$t" != - ] && a=(--tune "$t")
  r=$(timeout 60 $B/bench_pscr_gpu --backends cuda --problems ${PROBLEMS:-poisson3d,poisson2d} --min-n3 ${N3:-255} --max-n3 ${X3:-255} \
    --min-n ${N2:-8191} --max-n ${X2:-8191} --reps 5 --xfer-reps 1 --no-residual "${a[@]}" 2>&1 |
    grep -o '"problem":"[a-z0-9]*","n":[0-9]*\|"status":"[^"]*"\|"solve_ms":[^,]*' | paste -sd' ')
  echo "$t: $r"
done
