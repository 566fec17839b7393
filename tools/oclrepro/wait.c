/* How a small solve should wait on NVIDIA's OpenCL: host microseconds of
 * L launches of a tiny kernel followed by a 28-byte status read, for several
 * ways of reading and waiting (blocking read to the stack or to pinned memory,
 * a non-blocking read then clFinish / clWaitForEvents / a spin on the event's
 * status, a blocking map of a host-allocated buffer the kernel wrote), and two
 * that bypass the driver's completion: a non-blocking read to pinned memory
 * prefilled with a sentinel, then a spin until every word has lost it; the
 * kernel writing a sequence number straight into the mapped host buffer,
 * then a spin on that word (a spin gives up after 0.1 s, and the way after
 * its first such: "never").
 * H100, driver 580, one launch: 16.1 us blocking to the stack, 14.1 to pinned
 * memory, 12.1-12.4 non-blocking to pinned memory then waiting (the library's
 * way since 71c538c, dev_flags_read).
 * cc -O2 wait.c -lOpenCL && ./a.out  (exit 77 without an NVIDIA platform) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

#include "nvidia.h"

static const char *src = "__kernel void k(__global int *f, __global double *a, long n, int seq) {"
                         " size_t i = get_global_id(0); if (i < n) a[i] += 1.0;"
                         " if (i == 0) f[0] = seq; }";

enum { BLOCK_STACK, BLOCK_PINNED, ASYNC_FINISH, ASYNC_WAIT, ASYNC_SPIN, MAP, SENTINEL, HOSTWRITE,
       NWAYS };
static const char *names[NWAYS] = {"blocking read, stack",      "blocking read, pinned",
                                   "async read + clFinish",     "async read + clWaitForEvents",
                                   "async read + spin on event", "kernel writes, blocking map",
                                   "async read + spin on sentinel",
                                   "kernel writes host, spin"};
enum { SENT = 0x5A5A5A5A };

/* Spins until every word of w[0 .. nw-1] differs from SENT (want < 0) or w[0]
 * equals want; 0 after 0.1 s without it. */
static int spin(volatile int *w, int nw, int want) {
  double t0 = now();
  for (long it = 0;; it++) {
    int ok = 1;
    for (int i = 0; i < nw; i++) ok &= want < 0 ? w[i] != SENT : w[i] == want;
    if (ok) return 1;
    if ((it & 1023) == 0 && now() - t0 > 0.1) return 0;
  }
}

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  clBuildProgram(pr, 1, &d, "", NULL, NULL);
  cl_kernel k = clCreateKernel(pr, "k", &e);
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 16, NULL, &e);
  cl_mem flags = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e);
  cl_mem host = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64, NULL, &e);
  int *pinned = clEnqueueMapBuffer(q, host, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64, 0, NULL,
                                   NULL, &e);
  cl_long n = 64;
  size_t g = 64;
  clSetKernelArg(k, 1, sizeof a, &a);
  clSetKernelArg(k, 2, sizeof n, &n);
  int zero[16] = {0}, seq = 0, never = 0;
  setvbuf(stdout, NULL, _IOLBF, 0);
  clEnqueueWriteBuffer(q, flags, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
  printf("%-30s %8s %8s %8s\n", "way (median us of 400)", "1 launch", "4", "16");
  for (int w = 0; w < NWAYS; w++) {
    printf("%-30s", names[w]);
    for (int L = 1; L <= 16; L *= 4) {
      double t[400];
      for (int r = 0; r < 450 && !never; r++) {
        int st[7];
        cl_event ev = NULL;
        cl_mem f = w == MAP || w == HOSTWRITE ? host : flags;
        int sq = w == HOSTWRITE ? ++seq : 0;
        clSetKernelArg(k, 0, sizeof f, &f);
        clSetKernelArg(k, 3, sizeof sq, &sq);
        if (w == SENTINEL)
          for (int i = 0; i < 7; i++) pinned[i] = SENT;
        double t0 = now();
        for (int j = 0; j < L; j++) clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
        switch (w) {
        case BLOCK_STACK:
          clEnqueueReadBuffer(q, flags, CL_TRUE, 0, sizeof st, st, 0, NULL, NULL);
          break;
        case BLOCK_PINNED:
          clEnqueueReadBuffer(q, flags, CL_TRUE, 0, sizeof st, pinned, 0, NULL, NULL);
          break;
        case ASYNC_FINISH:
          clEnqueueReadBuffer(q, flags, CL_FALSE, 0, sizeof st, pinned, 0, NULL, NULL);
          clFinish(q);
          break;
        case ASYNC_WAIT:
          clEnqueueReadBuffer(q, flags, CL_FALSE, 0, sizeof st, pinned, 0, NULL, &ev);
          clWaitForEvents(1, &ev);
          break;
        case ASYNC_SPIN: {
          clEnqueueReadBuffer(q, flags, CL_FALSE, 0, sizeof st, pinned, 0, NULL, &ev);
          clFlush(q);
          cl_int s = CL_QUEUED;
          while (s > CL_COMPLETE)
            clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
          break;
        }
        case MAP: {
          clEnqueueUnmapMemObject(q, host, pinned, 0, NULL, NULL);
          pinned = clEnqueueMapBuffer(q, host, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64, 0,
                                      NULL, NULL, &e);
          break;
        }
        case SENTINEL:
          clEnqueueReadBuffer(q, flags, CL_FALSE, 0, sizeof st, pinned, 0, NULL, NULL);
          clFlush(q);
          never += !spin(pinned, 7, -1);
          break;
        case HOSTWRITE:
          clFlush(q);
          never += !spin(pinned, 1, sq);
          break;
        }
        double dt = now() - t0;
        if (ev) clReleaseEvent(ev);
        if (r >= 50) t[r - 50] = dt;
      }
      clFinish(q);
      if (never) break;
      printf(" %8.2f", 1e6 * median(t, 400));
    }
    if (never) printf(" never"), never = 0;
    printf("\n");
  }
  return 0;
}
