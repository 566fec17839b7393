/* CUDA shim for the single-source tridiagonal kernels of kernels/common:
 * the dialect macros, then the kernel bodies. Compiled at run time by NVRTC
 * with -DPSCR_COMPLEX=0|1 (src/backend/cuda/cuda_program.c); local arrays are
 * dynamic shared memory sized by each launch, so no size is compiled in.
 * The CUDA emulator (tools/cuda_emu) includes this file with its own dialect
 * (PSCR_KERNEL_DIALECT), so the list of kernel files below is kept once. */
#ifndef PSCR_KERNEL_DIALECT
#define KERNEL extern "C" __global__
/* a kernel of W work-items a group, B groups an SM: registers capped to fit */
#define KERNEL_BOUNDED(W, B) extern "C" __global__ __launch_bounds__(W, B)
/* a kernel of at most W work-items a group: registers capped to fit */
#define KERNEL_MAXW(W) extern "C" __global__ __launch_bounds__(W)
#define GLOBAL
#define LOCAL __shared__
#define LOCAL_P
#define BARRIER() __syncthreads()
/* a double from lane + s / lane - s of the warp (td_tile.h's record merges;
 * -DTD_NO_SHFL through PSCR_KERNEL_DEFINES keeps the merge tree alone, for A/B) */
#ifndef TD_NO_SHFL
#define TD_SHFL_DOWN_D(x, s) __shfl_down_sync(0xffffffffu, (x), (s))
#define TD_SHFL_UP_D(x, s) __shfl_up_sync(0xffffffffu, (x), (s))
#endif
#define LOCAL_ID() ((long)threadIdx.x)
#define GROUP_ID() ((long)blockIdx.x)
#define LOCAL_SIZE() ((long)blockDim.x)
#define TD_NUM_GROUPS() ((long)gridDim.x)
#define DEVICE static __device__ __forceinline__
#define MAKE_Z(re, im) make_double2(re, im)
/* The kernel's one local buffer: dynamic shared memory (may exceed 48 KiB). */
#define LOCAL_ARRAY(type, name, count) extern __shared__ __align__(16) type name[]
#define ATOMIC_ADD(p, v) atomicAdd(p, v)
#define ATOMIC_MAX(p, v) atomicMax(p, v)
#define GLOBAL_FENCE() __threadfence()
#define D_AS_LONG(x) __double_as_longlong(x)
#define D_OF_LONG(l) __longlong_as_double(l)
typedef unsigned char uchar;
/* inline PTX (TD_ASM) for this compute capability (x 10): td_scalar.h's
 * reciprocal, cp.async and L2 prefetch, pscr_dense.h's tensor-core product */
#ifdef __CUDA_ARCH__
#define TD_PTX_CC (__CUDA_ARCH__ / 10)
#define TD_ASM asm
/* a local pointer's .shared address (td_scalar.h's cp.async) */
#define TD_SHARED_ADDR(p) ((unsigned)__cvta_generic_to_shared(p))
#if __CUDA_ARCH__ >= 900
/* thread-block clusters (sm_90+): a barrier of the cluster's groups (split
 * into arrive and wait), and loads from a group's shared memory by its rank
 * in the cluster (td_reg.h's one-pass multi-tile solve) */
#define TD_CLUSTER_ARRIVE() asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory")
#define TD_CLUSTER_WAIT() asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory")
#define TD_CLUSTER_SYNC()                                                                          \
  do {                                                                                             \
    TD_CLUSTER_ARRIVE();                                                                           \
    TD_CLUSTER_WAIT();                                                                             \
  } while (0)
static __device__ __forceinline__ unsigned td_cluster_addr(const void *p, int rank) {
  unsigned a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(a)
               : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank));
  return a;
}
static __device__ __forceinline__ double td_cluster_ld_d(const double *p, int rank) {
  double v;
  asm volatile("ld.shared::cluster.f64 %0, [%1];"
               : "=d"(v)
               : "r"(td_cluster_addr(p, rank))
               : "memory");
  return v;
}
static __device__ __forceinline__ int td_cluster_ld_i(const int *p, int rank) {
  int v;
  asm volatile("ld.shared::cluster.s32 %0, [%1];"
               : "=r"(v)
               : "r"(td_cluster_addr(p, rank))
               : "memory");
  return v;
}
#define TD_CLUSTER_LD_D(p, rank) td_cluster_ld_d((p), (rank))
#define TD_CLUSTER_LD_I(p, rank) td_cluster_ld_i((p), (rank))
#endif
#endif
#endif

/* Pointer parameters, here and in the emulator: the pointers themselves (the
 * host passes each with its offset; PKBASE and XBASE are no parameters). */
#define GPTR(T, p) GLOBAL T *p
#define GPTR_AT(T, p) (void)0
#define PKBASE(T, b)
#define PKBASE_AT(T, b) (void)0
#define PKPTR(T, p) GLOBAL T *p
#define PKPTR_AT(T, p, b) (void)0
#define XBASE
#define XPTR(T, p) GLOBAL T *p
#define XPTR_AT(T, p) (void)0

#include "common/td_scalar.h"
#include "common/td_rows.h"
#include "common/td_cr.h"
#include "common/td_thomas.h"
#include "common/td_tile.h"
#include "common/td_reg.h"
#include "common/td_gspike.h"
#include "common/pscr_stages.h"
#include "common/pscr_tile.h"
#include "common/pscr_reg.h"
#include "common/pscr_lane.h"
#include "common/pscr_dense.h"
