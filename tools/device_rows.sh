#!/usr/bin/env bash
# The rows one device.sh call cannot fit: 3D Poisson 1023^3 (CUDA), 3D Helmholtz 361^3 (CUDA,
# OpenCL), CPU 3D Poisson 255^3 at 1 and 16 threads, memcheck over the PSCR tests, the OpenCL
# PSCR tests on NVIDIA. Usage (device tool): OUT=$OUT bash tools/device_rows.sh
export PATH=/usr/local/cuda/bin:$PATH OPENBLAS_NUM_THREADS=1
B=build-f; cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DPSCR_WITH_OPENCL=ON -DPSCR_BUILD_EXAMPLES=OFF > /dev/null 2>&1 && cmake --build $B -j16 > /dev/null 2>&1 || echo BUILD FAILED
export LD_LIBRARY_PATH=$B:$LD_LIBRARY_PATH PSCR_OPENCL_PLATFORM=NVIDIA
G="$B/bench_pscr_gpu"
timeout 220 $G --backends cuda --problems poisson3d --big-only --reps 3 --xfer-reps 1 > $OUT/big.jsonl 2>&1
timeout 60 $G --backends cuda,opencl --problems helmholtz3d --min-n3 361 --max-n3 361 --reps 5 --xfer-reps 1 > $OUT/h3.jsonl 2>&1
timeout 70 $G --backends cpu --problems poisson3d --min-n3 255 --max-n3 255 --cpu-threads 1,16 --cpu-budget 1 --cpu-max-s 20 > $OUT/c3.jsonl 2>&1
PSCR_TEST_SMALL=1 timeout 60 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 $B/tests/cuda_test_cuda_pscr > $OUT/memcheck.log 2>&1; echo "memcheck-pscr rc $?"
(cd $B && timeout 120 ctest -L opencl -R "pscr|tridiag_z" --output-on-failure > $OUT/ocl.log 2>&1; echo "ocl rc $?"; grep "Test #" $OUT/ocl.log)
tail -3 $OUT/memcheck.log
for f in big h3 c3; do grep -o '"problem":"[a-z0-9]*","n":[0-9]*\|"backend":"[a-z]*"\|"threads":[0-9]*\|"status":"[^"]*"\|"plan_s":[^,]*\|"solve_ms":[^,]*\|"transfer_ms":[^,]*\|"rel_residual":[^,]*\|"device_bytes":[^,]*' $OUT/$f.jsonl | paste -sd' ' | sed 's/"problem"/\n&/g'; echo; done
