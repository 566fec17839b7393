/* OpenCL shim for the single-source tridiagonal kernels of kernels/common:
 * the dialect macros (listed in common/td_scalar.h), then the kernel bodies.
 * Built at run time by clBuildProgram with -cl-std=CL1.2, -DPSCR_COMPLEX=0|1
 * and the tuning parameters as -D macros (src/backend/opencl). The
 * #include lines are resolved by the host from the embedded table. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define KERNEL __kernel
#define KERNEL_BOUNDED(W, B) __kernel __attribute__((reqd_work_group_size(W, 1, 1)))
#define KERNEL_MAXW(W) __kernel
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_P __local
/* __syncthreads() orders both local and global memory within a group. */
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define LOCAL_ID() ((long)get_local_id(0))
#define GROUP_ID() ((long)get_group_id(0))
#define LOCAL_SIZE() ((long)get_local_size(0))
#define DEVICE static inline
/* A pointer argument: a buffer and a byte offset into it (the host's regions
 * of its work buffer). Sub-buffers instead cost NVIDIA's driver (580, H100)
 * ~0.008 us an enqueue for every sub-buffer of an argument's buffer, and it
 * crashes releasing some (tools/oclrepro/enqcost.c, repro.c). */
#define GPTR(T, p) GLOBAL T *p, long p##_at
#define GPTR_AT(T, p) p = (GLOBAL T *)((GLOBAL const char *)p + p##_at)
/* Pointers into one buffer of the plan's constants, b: each an offset in T
 * from b (-1: null). An enqueue costs NVIDIA's driver about 0.45 us a buffer
 * argument (tools/oclrepro/argcost.c), a long 0.07. */
#define PKBASE(T, b) GPTR(T, b),
#define PKBASE_AT(T, b) GPTR_AT(T, b)
#define PKPTR(T, p) long p##_pk
#define PKPTR_AT(T, p, b) GLOBAL T *p = p##_pk < 0 ? 0 : (b) + p##_pk
/* Pointers that may lie in the launch's base buffer xb_ (td_scalar.h): with
 * no buffer, the byte offset from xb_ (-1: null). A null buffer argument
 * costs the enqueue about a sixth of a buffer (argcost.c). */
#define XBASE GLOBAL const char *xb_,
#define XPTR(T, p) GLOBAL T *p, long p##_at
#define XPTR_AT(T, p)                                                                              \
  p = p##_at < 0 ? 0 : (GLOBAL T *)((p ? (GLOBAL const char *)p : xb_) + p##_at)
#define MAKE_Z(re, im) ((double2)((re), (im)))
/* The kernel's one local buffer: OpenCL C has no dynamic local arrays inside
 * a kernel, so `count` (from the -D parameters) sizes it at compile time. */
#define LOCAL_ARRAY(type, name, count) __local type name[count]
/* 32-bit integer add on global memory (OpenCL 1.2 core) */
#define ATOMIC_ADD(p, v) atomic_add(p, v)
/* 32-bit integer max on global or local memory (OpenCL 1.1 core) */
#define ATOMIC_MAX(p, v) atomic_max(p, v)
/* the work-item's global writes seen by other groups before its later ones:
 * NVIDIA's platform gets PTX's membar.gl (CUDA's __threadfence), since
 * OpenCL 1.2's mem_fence orders them only within the group */
#ifdef PSCR_OCL_PTX
#define GLOBAL_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
#define TD_NUM_GROUPS() ((long)get_num_groups(0))
/* a double's bits as a long and back */
#define D_AS_LONG(x) as_long(x)
#define D_OF_LONG(l) as_double(l)
/* NVIDIA's platform: the host adds -DPSCR_OCL_PTX = 10 x the compute
 * capability (1 where its query fails); inline PTX (TD_ASM) for it, as in
 * CUDA's shim (td_scalar.h's reciprocal, pscr_dense.h's products) */
#ifdef PSCR_OCL_PTX
#define TD_PTX_CC PSCR_OCL_PTX
#define TD_ASM __asm__
#endif
/* A double from lane + s / lane - s of the warp by PTX's shfl.sync (sm_70+),
 * as CUDA's shim (td_tile.h's record merges): NVIDIA runs a 1D group's
 * work-items 32 to a warp in order, as CUDA does a block's threads.
 * -DTD_NO_SHFL (PSCR_KERNEL_DEFINES) keeps the merge tree alone, for A/B. */
#if defined(PSCR_OCL_PTX) && PSCR_OCL_PTX >= 70 && !defined(TD_NO_SHFL)
static inline double td_shfl_d(double x, int s, int up) {
  int2 v = as_int2(x), r;
  if (up) {
    __asm__ volatile("shfl.sync.up.b32 %0, %1, %2, 0, -1;" : "=r"(r.x) : "r"(v.x), "r"(s));
    __asm__ volatile("shfl.sync.up.b32 %0, %1, %2, 0, -1;" : "=r"(r.y) : "r"(v.y), "r"(s));
  } else {
    __asm__ volatile("shfl.sync.down.b32 %0, %1, %2, 31, -1;" : "=r"(r.x) : "r"(v.x), "r"(s));
    __asm__ volatile("shfl.sync.down.b32 %0, %1, %2, 31, -1;" : "=r"(r.y) : "r"(v.y), "r"(s));
  }
  return as_double(r);
}
#define TD_SHFL_DOWN_D(x, s) td_shfl_d((x), (s), 0)
#define TD_SHFL_UP_D(x, s) td_shfl_d((x), (s), 1)
#endif
/* td_scalar.h's cp.async and L2 prefetch (sm_80+, sm_90): a __local
 * pointer's value is its .shared address here, which cp.async takes. A
 * build that fails with sm_90's PTX retries as PSCR_OCL_PTX = 89
 * (opencl_program.c). */
#ifdef PSCR_OCL_PTX
#define TD_SHARED_ADDR(p) ((uint)(size_t)(p))
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
