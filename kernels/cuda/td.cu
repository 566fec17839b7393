/* CUDA shim for the single-source tridiagonal kernels of kernels/common:
 * the dialect macros, then the kernel bodies. Compiled at run time by NVRTC
 * with -DPSCR_COMPLEX=0|1 and the tuning parameters as -D macros. */
#define KERNEL extern "C" __global__
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

#include "common/td_scalar.h"
#include "common/td_rows.h"
#include "common/td_cr.h"
#include "common/td_part.h"
#include "common/td_smem.h"
#include "common/td_spike.h"
#include "common/td_tile.h"
#include "common/td_gspike.h"
