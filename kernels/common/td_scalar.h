/* Scalar arithmetic for the tridiagonal kernels, one spelling for real
 * (double) and complex (double2) data: PSCR_COMPLEX = 0 or 1 at compile time.
 * The dialect shim (in kernels/cuda and kernels/opencl) defines first:
 *   KERNEL (kernel qualifier), KERNEL_BOUNDED(W, B) (one of exactly W work-items
 *   a group, registers capped for B groups a compute unit where the dialect can),
 *   KERNEL_MAXW(W) (at most W work-items a group, registers capped to fit where
 *   the dialect can), GLOBAL (global address space), LOCAL (a
 *   local-memory variable), LOCAL_P (what a pointer into local memory points
 *   to), BARRIER(), LOCAL_ID(), GROUP_ID(), LOCAL_SIZE() (as long),
 *   DEVICE (helper function qualifier), MAKE_Z(re, im) (a double2 value),
 *   LOCAL_ARRAY(type, name, count) (the kernel's one local-memory buffer),
 *   ATOMIC_ADD(p, v) and ATOMIC_MAX(p, v) (32-bit integer add on global
 *   memory, max on global or local memory: atomicAdd / atomic_add,
 *   atomicMax / atomic_max; the g-Spike kernels of td_gspike.h and
 *   pscr_slab128's tree), GLOBAL_FENCE() (the work-item's global writes seen
 *   by the launch's other groups before its later ones: __threadfence, PTX's
 *   membar.gl on NVIDIA's OpenCL, else mem_fence), TD_NUM_GROUPS() (the
 *   launch's groups),
 *   D_AS_LONG(x) / D_OF_LONG(l) (a double's bits as a 64-bit integer and
 *   back: __double_as_longlong / as_long; td_gspike.h's row scaling),
 *   GPTR(T, p) / GPTR_AT(T, p) (a kernel's pointer parameter p to GLOBAL T
 *   and, first in the kernel's body, its offset applied: OpenCL passes every
 *   pointer as a buffer and a byte offset, CUDA as the pointer itself),
 *   PKBASE(T, b) / PKBASE_AT(T, b) and PKPTR(T, p) / PKPTR_AT(T, p, b)
 *   (pointers into one buffer of the plan's constants, b: OpenCL, whose
 *   enqueue costs per buffer argument, takes b once and each p as an offset
 *   in T from it, -1 for null; CUDA takes each p as the pointer and no b.
 *   PKBASE(T, b) ends with its comma where it expands to anything),
 *   XBASE and XPTR(T, p) / XPTR_AT(T, p) (a kernel whose parameters start
 *   with XBASE takes every pointer as an XPTR: on OpenCL a buffer and a byte
 *   offset as GPTR, or no buffer and the offset from the base buffer the
 *   host picked for the launch, -1 for null; the host's pieces of one buffer,
 *   opencl_backend.c, then cost the enqueue no buffer argument each. CUDA:
 *   the pointers themselves, XBASE empty).
 * Optional: TD_SHFL_DOWN_D(x, s) / TD_SHFL_UP_D(x, s) (a double from lane
 * + s / - s of a warp of 32 work-items in local-id order: CUDA, NVIDIA's
 * OpenCL; without them td_tile.h's record merges take the local-memory tree),
 * TD_ASM (inline PTX) with TD_PTX_CC (10 x the compute capability),
 * TD_SHARED_ADDR(p) (a local pointer's .shared address, for cp.async):
 * CUDA and NVIDIA's OpenCL, which then get the PTX below.
 * Only what OpenCL C 1.2 also accepts is used here. */
#ifndef PSCR_TD_SCALAR_H
#define PSCR_TD_SCALAR_H

#ifndef PSCR_COMPLEX
#define PSCR_COMPLEX 0
#endif

#if PSCR_COMPLEX
typedef double2 scalar;
DEVICE scalar s_add(scalar a, scalar b) { return MAKE_Z(a.x + b.x, a.y + b.y); }
DEVICE scalar s_sub(scalar a, scalar b) { return MAKE_Z(a.x - b.x, a.y - b.y); }
DEVICE scalar s_mul(scalar a, scalar b) {
  return MAKE_Z(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
DEVICE scalar s_neg(scalar a) { return MAKE_Z(-a.x, -a.y); }
/* Smith's division: no overflow of |b|^2 for large b. */
DEVICE scalar s_div(scalar a, scalar b) {
  if (fabs(b.x) >= fabs(b.y)) {
    double r = b.y / b.x, den = b.x + b.y * r;
    return MAKE_Z((a.x + a.y * r) / den, (a.y - a.x * r) / den);
  }
  double r = b.x / b.y, den = b.y + b.x * r;
  return MAKE_Z((a.x * r + a.y) / den, (a.y * r - a.x) / den);
}
DEVICE double s_abs1(scalar a) { return fabs(a.x) + fabs(a.y); }
DEVICE double s_abs(scalar a) { return hypot(a.x, a.y); }
DEVICE int s_isfinite(scalar a) { return isfinite(a.x) && isfinite(a.y); }
DEVICE int s_iszero(scalar a) { return a.x == 0.0 && a.y == 0.0; }
DEVICE scalar s_conj(scalar a) { return MAKE_Z(a.x, -a.y); }
DEVICE scalar s_scale(double r, scalar a) { return MAKE_Z(r * a.x, r * a.y); }
DEVICE scalar s_real(double r) { return MAKE_Z(r, 0.0); }
DEVICE double s_re(scalar a) { return a.x; }
#define S_ZERO MAKE_Z(0.0, 0.0)
#define S_ONE MAKE_Z(1.0, 0.0)
#else
typedef double scalar;
#define s_add(a, b) ((a) + (b))
#define s_sub(a, b) ((a) - (b))
#define s_mul(a, b) ((a) * (b))
#define s_neg(a) (-(a))
#define s_div(a, b) ((a) / (b))
#define s_abs1(a) fabs(a)
#define s_abs(a) fabs(a)
#define s_isfinite(a) isfinite(a)
#define s_iszero(a) ((a) == 0.0)
#define s_conj(a) (a)
#define s_scale(r, a) ((r) * (a))
#define s_real(r) ((double)(r))
#define s_re(a) (a)
#define S_ZERO 0.0
#define S_ONE 1.0
#endif

#define S_ADD(a, b) s_add(a, b)
#define S_SUB(a, b) s_sub(a, b)
#define S_MUL(a, b) s_mul(a, b)
#define S_DIV(a, b) s_div(a, b)
#define S_NEG(a) s_neg(a)
#define S_ABS(a) s_abs(a)
#define S_ABS1(a) s_abs1(a)
#define S_ISFINITE(a) s_isfinite(a)
#define S_ISZERO(a) s_iszero(a)
#define S_CONJ(a) s_conj(a)
/* real r times a, and the scalar of real value r */
#define S_SCALE(r, a) s_scale(r, a)
#define S_REAL(r) s_real(r)
#define S_REAL_PART(a) s_re(a)
/* 1 / a for a pivot. Where the dialect compiles inline PTX (TD_ASM: CUDA,
 * NVIDIA's OpenCL), from the hardware's approximate reciprocal r
 * (MUFU.RCP64H, about 20 bits): r (1 + e + e^2) with e = 1 - a r, an error
 * of about e^3, below an ulp, in four instructions; IEEE division adds a residual test and
 * a branch to a slow path, which splits unrolled rows into separate blocks.
 * Complex: conj(a) / |a|^2 with a scaled by a power of 2 that brings its
 * larger part to [2, 4), so |a|^2 neither overflows nor underflows: one
 * reciprocal in the dependent chain where Smith's scaling takes two in a row
 * (H100, shifted C128 4096 x 4096 2.61-2.63x floor against 2.66-2.68, 16384
 * x 512 2.02 against 2.06). Over 10^7 random a of modulus 1e-150 .. 1e150,
 * a quarter with |Re| = |Im| (a C model with a 20-bit reciprocal), the
 * normwise error is 1.51 eps at worst, Smith's 1.09. Zero, subnormal and
 * non-finite pivots give NaN (the scale is infinite or zero), which the
 * callers' finiteness checks report as SINGULAR. Else the division (also
 * with -DPSCR_EXACT_RCP, for A/B runs through PSCR_KERNEL_DEFINES).
 * TD_RCP_APPROX(x) is that approximate reciprocal: PTX's through TD_ASM, or a
 * model of it defined by the includer (the CUDA emulator, tools/cuda_emu). */
#if defined(TD_ASM) && !defined(TD_RCP_APPROX)
DEVICE double td_rcp_approx(double x) {
  double r;
  TD_ASM("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  return r;
}
#define TD_RCP_APPROX(x) td_rcp_approx(x)
#endif
/* PTX both dialects compile (CUDA, NVIDIA's OpenCL). cp.async (sm_80+):
 * one scalar from global to local memory without a register, so a tile's
 * rows are all in flight at once (td_tile_load, td_reg.h's f, g-Spike's
 * phase 0). H100, OpenCL / CUDA with and without it on NVIDIA's OpenCL:
 * SPIKE_DIAG_PIVOT 8192 x 8192 1.03 against 1.46, one 2^26 random 1.20
 * against 1.53. -DTD_NO_CP (PSCR_KERNEL_DEFINES) for A/B. */
#if defined(TD_PTX_CC) && TD_PTX_CC >= 80 && defined(TD_SHARED_ADDR) && !defined(TD_NO_CP)
#define TD_CP_ASYNC(dst, src)                                                                      \
  TD_ASM volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(TD_SHARED_ADDR(dst)),         \
                  "l"(src), "n"(sizeof(scalar))                                                    \
                  : "memory")
#define TD_CP_WAIT() TD_ASM volatile("cp.async.wait_all;" ::: "memory")
#endif
/* sm_90: a hint, bytes (a multiple of 16) from address a (an integer,
 * 16-byte aligned) into L2, no register written (td_reg.h's TD_REG_PF), and
 * the SMs (TD_NSM) */
#if defined(TD_PTX_CC) && TD_PTX_CC >= 90 && defined(TD_NUM_GROUPS)
#define TD_PREFETCH_L2(a, bytes)                                                                   \
  TD_ASM volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(a), "r"((unsigned)(bytes))    \
                  : "memory")
DEVICE long td_nsm(void) {
  unsigned n;
  TD_ASM("mov.u32 %0, %%nsmid;" : "=r"(n));
  return (long)n;
}
#define TD_NSM() td_nsm()
#endif

#if !defined(TD_RCP_APPROX) || defined(PSCR_EXACT_RCP)
#define S_RCP(a) s_div(S_ONE, a)
#define D_RCP(x) (1.0 / (x))
#else
DEVICE double td_rcp(double x) {
  double r = TD_RCP_APPROX(x), e = fma(-x, r, 1.0);
  return fma(r, fma(e, e, e), r);
}
#define D_RCP(x) td_rcp(x) /* 1 / x for real x */
#if PSCR_COMPLEX
DEVICE scalar td_zrcp(scalar a) {
  double m = fmax(fabs(a.x), fabs(a.y)); /* 2^e <= m < 2^(e+1): sc = 2^(1 - e) */
  double sc = D_OF_LONG(0x7ff0000000000000L - (D_AS_LONG(m) & 0x7ff0000000000000L));
  double xs = a.x * sc, ys = a.y * sc, t = td_rcp(fma(xs, xs, ys * ys)) * sc;
  return MAKE_Z(xs * t, -ys * t);
}
#define S_RCP(a) td_zrcp(a)
#else
#define S_RCP(a) td_rcp(a)
#endif
#endif
/* 1 / sqrt(x) for real x > 0 away from overflow and underflow: from the
 * hardware's approximate reciprocal square root y (rsqrt.approx.ftz.f64,
 * about 20 bits; TD_RSQRT_APPROX, PTX's through TD_ASM or the emulator's
 * model) two Newton steps y (1 + e / 2), e = 1 - x y^2, about an ulp, in nine
 * instructions, for sqrt.rn (with its slow-path test and branch) and D_RCP's
 * reciprocal before (td_gspike.h's Givens rotations: GSPIKE one 2^26 rows
 * 3.39 -> 3.25x floor on the H100). Else (or with -DPSCR_EXACT_RCP) 1 / sqrt. */
#if defined(TD_ASM) && !defined(TD_RSQRT_APPROX)
DEVICE double td_rsqrt_approx(double x) {
  double y;
  TD_ASM("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}
#define TD_RSQRT_APPROX(x) td_rsqrt_approx(x)
#endif
#if defined(TD_RSQRT_APPROX) && !defined(PSCR_EXACT_RCP)
DEVICE double td_rsqrt(double x) {
  double y = TD_RSQRT_APPROX(x), e = fma(-x * y, y, 1.0);
  y = fma(0.5 * y, e, y);
  e = fma(-x * y, y, 1.0);
  return fma(0.5 * y, e, y);
}
#define D_RSQRT(x) td_rsqrt(x)
#else
#define D_RSQRT(x) (1.0 / sqrt(x))
#endif
/* a + b c and a - b c */
#define S_FMA(a, b, c) s_add(a, s_mul(b, c))
/* z with v's NaN/Inf folded in, part by part: v * 0 is NaN exactly for
 * NaN/Inf v (the kernels' input and output checks). Complex: two FMAs, where
 * S_FMA(z, v, 0) took a complex product and sum (six). Written as a sum, not
 * fma(v, 0.0, z): with fma ptxas scheduled the real td_reg_solve_s* with 29
 * more loads (2D Poisson 4095^2 3 % slower on the H100). */
#if PSCR_COMPLEX
#define S_NF(z, v) MAKE_Z((z).x + (v).x * 0.0, (z).y + (v).y * 0.0)
#else
#define S_NF(z, v) ((z) + (v) * 0.0)
#endif
#define S_FMS(a, b, c) s_sub(a, s_mul(b, c))

/* Status words shared by every tridiagonal kernel (read back by the host). */
#define TD_FLAG_NONFINITE 0
#define TD_FLAG_SINGULAR 1
#define TD_FLAG_NOT_DOMINANT 2
#define TD_FLAG_FALLBACK 3 /* g-Spike: a block it cannot solve, redo as one partition */
#define TD_FLAG_MODIFIED 4 /* g-Spike: count of modified (singular) partitions */
#define TD_FLAG_REFINE 5   /* g-Spike: a residual window failed: solve its residual in full */
#define TD_FLAG_CONFIG 6   /* a kernel's compile-time sizes do not fit its buffers */
#define TD_FLAG_SPECIAL0 7 /* g-Spike: a special (singular last) partition at level 0 */
#define TD_FLAG_WORDS 8    /* words the host clears and reads */

#define TD_GID() ((long)GROUP_ID() * (long)LOCAL_SIZE() + (long)LOCAL_ID())

#endif
