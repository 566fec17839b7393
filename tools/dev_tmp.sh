set -x
OUT=$OUT ROWS="helmholtz2d:2047 helmholtz2d:2047:merge_self=0 poisson2d:31 poisson2d:127 helmholtz2d:511" REPS=21 bash tools/device_profile.sh 2>&1 | tail -n 80
B=build-ocl; cmake --build $B -j16 --target cuda_test_cuda_tridiag opencl_test_opencl_tridiag_d opencl_test_opencl_tridiag_z > $OUT/build2.log 2>&1 || tail -n 20 $OUT/build2.log
export PSCR_OPENCL_PLATFORM=NVIDIA
for t in cuda_test_cuda_tridiag opencl_test_opencl_tridiag_d opencl_test_opencl_tridiag_z; do
  timeout 200 $B/tests/$t > $OUT/$t.log 2>&1; echo "$t rc $?: $(tail -n 1 $OUT/$t.log)"; grep FAIL $OUT/$t.log | head -n 5
done
