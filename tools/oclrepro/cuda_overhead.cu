/* The CUDA counterpart of overhead.c: host cost of a launch of a tiny kernel
 * of 9 pointer and 3 scalar arguments, and "solve-like" rounds (4 launches,
 * then a 28-byte copy to the host that waits for them).
 * nvcc -O2 -arch=sm_90 cuda_overhead.cu && ./a.out */
#include <cstdio>
#include <ctime>

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__global__ void k(double *a0, double *a1, double *a2, double *a3, double *a4, double *a5,
                  double *a6, double *a7, double *a8, long n, long m, int w) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a0[i] += a1[i] * (double)(m + w);
}

int main() {
  double *b;
  if (cudaMalloc(&b, 1 << 20) != cudaSuccess) return printf("no CUDA device\n"), 77;
  for (int r = 0; r < 100; r++) k<<<1, 64>>>(b, b, b, b, b, b, b, b, b, 32, 1, 2);
  cudaDeviceSynchronize();
  int L = 2000;
  double t = now();
  for (int r = 0; r < L; r++) k<<<1, 64>>>(b, b, b, b, b, b, b, b, b, 32, 1, 2);
  double te = now() - t;
  cudaDeviceSynchronize();
  double tf = now() - t;
  printf("cuda: launch %7.3f us (host), %7.3f us a kernel to drain\n", 1e6 * te / L, 1e6 * tf / L);
  int fl[7], S = 500;
  double best = 1e9, sum = 0;
  for (int r = 0; r < S; r++) {
    double t0 = now();
    for (int j = 0; j < 4; j++) k<<<1, 64>>>(b, b, b, b, b, b, b, b, b, 32, 1, 2);
    cudaMemcpy(fl, b, sizeof fl, cudaMemcpyDeviceToHost);
    double dt = now() - t0;
    sum += dt;
    if (dt < best) best = dt;
  }
  printf("cuda: 4 launches + waiting 28-byte read: mean %7.2f us, best %7.2f\n", 1e6 * sum / S,
         1e6 * best);
  return 0;
}
