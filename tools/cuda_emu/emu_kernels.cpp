/* The single-source tridiagonal kernels compiled for the host, for the CUDA
 * driver emulator (emu.cpp): one work-group at a time, work-items as fibers
 * that switch at BARRIER(). Compiled twice, -DPSCR_COMPLEX=0 and 1. Tuning
 * macros read the -D options NVRTC got for the module being run. */
#include <math.h>
#include <stddef.h>
#include <utility>

#include <stdio.h>
#include "emu.h"

struct double2 {
  double x, y;
};
static inline double2 make_double2(double x, double y) { return {x, y}; }

#define KERNEL static
#define KERNEL_BOUNDED(W, B) static
#define KERNEL_MAXW(W) static
#define GLOBAL
#define LOCAL static
#define LOCAL_P
#define BARRIER() emu_barrier()
#define LOCAL_ID() ((long)emu_tid)
#define GROUP_ID() ((long)emu_gid)
#define LOCAL_SIZE() ((long)emu_wg)
#define DEVICE static inline
#define MAKE_Z(re, im) make_double2(re, im)
#define LOCAL_ARRAY(type, name, count) type *name = (type *)emu_local(sizeof(type) * (size_t)(count))
#define ATOMIC_ADD(p, v) emu_atomic_add(p, v)
#define ATOMIC_MAX(p, v) emu_atomic_max(p, v)
#define GLOBAL_FENCE() ((void)0) /* one group at a time */
#define TD_NUM_GROUPS() ((long)emu_groups)
#define D_AS_LONG(x) emu_as_long(x)
#define D_OF_LONG(l) emu_of_long(l)
typedef unsigned char uchar;
#include "emu_params.h"

/* PTX's approximate rcp / rsqrt (.ftz.f64) modeled for td_scalar.h's fast
 * reciprocals and reciprocal square roots (they run here as on the GPU):
 * the exact value cut to its top 20 mantissa bits; rcp also flushes
 * subnormal input and output to zero. */
#include <float.h>
#include <string.h>
static inline double emu_top20(double r) {
  unsigned long long u;
  memcpy(&u, &r, sizeof u);
  if (isfinite(r)) u &= ~((1ull << 32) - 1);
  memcpy(&r, &u, sizeof r);
  return r;
}
static inline double emu_rcp_approx(double x) {
  if (fabs(x) < DBL_MIN) return copysign(INFINITY, x);
  double r = 1.0 / x;
  return fabs(r) < DBL_MIN ? copysign(0.0, r) : emu_top20(r);
}
static inline long emu_as_long(double x) {
  long l;
  memcpy(&l, &x, sizeof l);
  return l;
}
static inline double emu_of_long(long l) {
  double x;
  memcpy(&x, &l, sizeof x);
  return x;
}
#define TD_RCP_APPROX(x) emu_rcp_approx(x)
static inline double emu_rsqrt_approx(double x) { return emu_top20(1.0 / sqrt(x)); }
#define TD_RSQRT_APPROX(x) emu_rsqrt_approx(x)
/* cp.async (sm_80+): the copy lands at once here; work-items switch only at
 * barriers, so the kernels' wait-then-barrier order is all that matters */
#define TD_CP_ASYNC(dst, src) (*(dst) = *(src))
#define TD_CP_WAIT() ((void)0)

/* __shfl_down_sync / __shfl_up_sync of a double over warps of 32 work-items
 * (td_tile.h's record merges): every work-item of the group calls them at the
 * same points, so two group barriers exchange the values through one slot a
 * work-item (the groups of one cluster at a time, on one thread) */
static inline double emu_shfl(double x, int s, int up) {
  static double slots[8][1024]; /* a cluster's groups run together */
  double *slot = slots[emu_rank];
  int lane = emu_tid & 31, src = up ? lane - s : lane + s;
  slot[emu_tid] = x;
  emu_barrier();
  double y = src >= 0 && src < 32 && emu_tid - lane + src < emu_wg ? slot[emu_tid - lane + src] : x;
  emu_barrier();
  return y;
}
#define TD_SHFL_DOWN_D(x, s) emu_shfl((x), (s), 0)
#define TD_SHFL_UP_D(x, s) emu_shfl((x), (s), 1)

/* thread-block clusters (td_reg.h's td_reg_clu): the cluster's groups run
 * together as fibers (emu.cpp); a load from another group's local memory
 * maps the address into that group's buffer */
#define TD_CLUSTER_ARRIVE() emu_cluster_arrive()
#define TD_CLUSTER_WAIT() emu_cluster_wait()
#define TD_CLUSTER_SYNC() (emu_cluster_arrive(), emu_cluster_wait())
#define TD_CLUSTER_LD_D(p, rank) (*(const double *)emu_cluster_map((p), (rank)))
#define TD_CLUSTER_LD_I(p, rank) (*(const int *)emu_cluster_map((p), (rank)))

/* the kernel files, as NVRTC sees them (td.cu skips its dialect) */
#define PSCR_KERNEL_DIALECT 1
#include "cuda/td.cu"

template <typename... A, size_t... I>
static void call_impl(void (*f)(A...), void **args, std::index_sequence<I...>) {
  f(*(A *)args[I]...);
}
template <typename... A> static void call(void (*f)(A...), void **args) {
  call_impl(f, args, std::index_sequence_for<A...>{});
}

#define EMU_ENTRY(name, barrier) {#name, [](void **a) { call(name, a); }, barrier},
#if defined(EMU_TABLE) /* a variant of compile-time macros (build.sh) */
extern const emu_kernel EMU_TABLE[];
const emu_kernel EMU_TABLE[] = {
#elif PSCR_COMPLEX
extern const emu_kernel emu_kernels_z[];
const emu_kernel emu_kernels_z[] = {
#else
extern const emu_kernel emu_kernels_d[];
const emu_kernel emu_kernels_d[] = {
#endif
#include "emu_list.h"
    {nullptr, nullptr, 0}};
