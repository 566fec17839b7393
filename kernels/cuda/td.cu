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
#define LOCAL_ID() ((long)threadIdx.x)
#define GROUP_ID() ((long)blockIdx.x)
#define LOCAL_SIZE() ((long)blockDim.x)
#define DEVICE static __device__ __forceinline__
#define MAKE_Z(re, im) make_double2(re, im)
/* The kernel's one local buffer: dynamic shared memory (may exceed 48 KiB). */
#define LOCAL_ARRAY(type, name, count) extern __shared__ __align__(16) type name[]
#define ATOMIC_ADD(p, v) atomicAdd(p, v)
typedef unsigned char uchar;
/* MUFU.RCP64H: 1 / x to about 20 bits, refined by td_scalar.h's S_RCP */
#if (!defined(PSCR_COMPLEX) || !PSCR_COMPLEX) && !defined(PSCR_EXACT_RCP) /* else unused */
static __device__ __forceinline__ double td_rcp_approx(double x) {
  double r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  return r;
}
#define TD_RCP_APPROX(x) td_rcp_approx(x)
#endif
/* the FP64 tensor cores' c += a b on TD_DMMA_M x 8 x 4 fragments (pscr_dense.h):
 * sm_90's m16n8k4 (twice the m8n8k4's work an instruction on the H100) */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && \
    !defined(PSCR_NO_DMMA) /* -DPSCR_NO_DMMA: the portable products, for A/B runs */
#if __CUDA_ARCH__ >= 900 && !defined(PSCR_DMMA8)
#define TD_DMMA_M 16
#define TD_DMMA(c, a, b)                                                                           \
  asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "        \
      "{%0, %1, %2, %3};"                                                                          \
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])                                             \
      : "d"(a[0]), "d"(a[1]), "d"(b))
#else
#define TD_DMMA_M 8
#define TD_DMMA(c, a, b)                                                                           \
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"           \
      : "+d"(c[0]), "+d"(c[1])                                                                     \
      : "d"(a[0]), "d"(b))
#endif
#endif
#endif

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
