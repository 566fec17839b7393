/* PCR + Thomas for one large system on a multicore CPU (seed 002).
 *
 * SP steps of PCR (strides 1, 2, ..., 2^(SP-1)) split the system into
 * P = 2^SP independent interleaved systems (rows s, s+P, s+2P, ...: seed 002
 * Sec. III), each solved by Thomas. Unlike the paper, the SP steps are fused:
 * a tile of rows plus a halo of H = P-1 rows on each side is reduced through
 * all SP levels in cache, so the PCR stage reads the input once instead of
 * 2 SP times; and the steps are division-free (pcr_kernels.h), the only
 * division per row being the Thomas pivot's. Two variants of the Thomas stage:
 *
 * P+TO (overlapped, Sec. IV-A): no Thomas-Copy at all. The rows are cut in
 * chunks; the threads reduce chunk k (by rows) into a cached chunk buffer,
 * then each runs the Thomas forward sweep of ITS lanes (systems) over that
 * chunk (by lanes: several independent recurrences per thread hide the
 * division latency) before the next chunk is reduced. Only the sweep's
 * (c', y') go to memory; back substitution writes x straight into b.
 * F64 traffic: 32 bytes/row read, 16 written and read back, 8 written (the
 * floor is 40).
 *
 * SP+T (shuffled, Sec. IV-B): the last level writes each reduced row at its
 * place in the shuffled layout (system s contiguous, so no Thomas-Copy),
 * each system is solved by the shared td_thomas, and the unshuffle copies x
 * back into b (Thomas-Copy-Back).
 *
 * P+PT (partitioned Thomas, ours; the default): the rows are cut in
 * contiguous ranges of whole row groups (P rows), a few per thread, handed
 * out dynamically, so nothing crosses cores but a small reduced system. A
 * thread reduces its range tile by tile (the first level straight from the
 * input arrays: the input streams in while the step computes) and, while the
 * tile is in cache, sweeps ALL P systems forward over it in lockstep (row
 * group j is P consecutive rows, one step of every system: the loop over
 * systems is a SIMD loop and hides the pivot division's latency). Its first
 * step of each system couples to X, the system's last unknown in the
 * previous range, so the sweep carries that coupling as a spike w:
 *   x_k = y'_k - c'_k x_{k+1} - w'_k X,  w'_{-1} = -1, w'_k = -a_k w'_{k-1} / piv_k,
 * and sums the relation of the range's first unknown to X and its last,
 *   x_0 = alpha + beta X + gamma x_{M-1}  (alpha = sum pi_k y'_k,
 *   beta = -sum pi_k w'_k over k < M-1, gamma = pi_{M-1}, pi_{k+1} = -c'_k pi_k).
 * Per system, the last unknowns E_t of the ranges then solve a tridiagonal
 * system of one row per range (gtsv), and back substitution, again in
 * lockstep, writes x. The first pass is also the input scan. F64 traffic:
 * 32 bytes/row read, 16 written and read back (w' only until it has decayed
 * to zero), 8 written: 2x the floor.
 *
 * b is written only after every pivot was checked (td.h contract). */
#include <lapacke.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clones.h"
#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/pcr_kernels.h"
#include "tridiag/pcr_thomas.h"
#include "tridiag/td.h"

#if defined(__GNUC__)
#define PT_INLINE inline __attribute__((always_inline))
#else
#define PT_INLINE inline
#endif

#ifndef PT_TILE_BYTES
#define PT_TILE_BYTES 65536
#endif
#define PT_TILE (PT_TILE_BYTES / sizeof(T)) /* rows a thread reduces per chunk (8 x 64 KB of tile) */
#define PT_MAX_LEVELS 10            /* halo 1023 rows: more levels only add work */
#define PT_ALIGN 8                  /* per-thread regions padded to 8 scalars (no false sharing) */
#define SK TD_SKEW(T)               /* between arrays carved from one block (td.h) */

typedef struct {
  size_t n;
  const T *dl, *d, *du;
  T *b;
  int sp, nt, variant;
  size_t P, H;    /* 2^sp systems; halo 2^sp - 1 rows */
  size_t C, part; /* chunk rows (multiple of P, P+TO) and rows per thread and tile */
  size_t m;       /* rows of the longest system: ceil(n / P) */
  size_t wmax;    /* most lanes (systems) a thread owns */
  size_t per;     /* scalars of workspace per thread */
  T *ws;          /* per-thread workspaces */
  T *buf;         /* P+TO: two chunk buffers (a, b, c, y); SP+T: the shuffled system */
  T *cc, *yy;     /* P+TO: the forward sweep, lanes of thread t at [s0(t) m, s1(t) m) */
  T *ww;          /* P+PT: the spike (c' in cc, y' in yy, all three by row) */
  T *red;         /* P+PT: per range and system alpha, beta, gamma, eta, omega, kappa, E */
  size_t nq;      /* P+PT: ranges (a few per thread, each >= 1 row group) ... */
  size_t *jw;     /* ... the first group of each from which w' is zero ... */
  size_t next[2]; /* ... and the next range of each pass to hand out */
  int nts, ntb;   /* P+PT: non-temporal stores of c', y', w' and of x */
  int bad;        /* shared count of bad pivots */
} FN(pt_plan);

static size_t pt_round(size_t x) { return (x + PT_ALIGN - 1) / PT_ALIGN * PT_ALIGN; }

/* ---- the PCR stage: all sp levels of rows lo..hi-1 in cache ---------------------- */

/* Rows lo-H .. hi+H-1 through sp division-free steps (pcr_kernels.h),
 * ping-ponging between two split sets of 4 arrays of len rows; level l is
 * valid on a window shrunk by 2^(l-1) on each side, so the last one exactly
 * covers lo..hi-1 and goes to oa, ob, oc, oy[0 .. hi-lo). The first step
 * reads the input arrays itself where every row it needs is interior;
 * otherwise (the matrix's first and last tiles) the rows are first loaded,
 * scaled, into set 0, the identity row outside 0..n-1. Returns 1 on a bad
 * diagonal or pivot, hence on a NaN or Inf in dl, d, du of rows lo..hi-1:
 * each such row is a first-level row, and an entry of it enters its pivot
 * through a product with a b of [1, 2) (Inf times 0 is NaN). */
PSCR_CLONES static int FN(pt_tile)(const FN(pt_plan) *p, size_t lo, size_t hi, double *w, T *oa,
                                 T *ob, T *oc, T *oy) {
  size_t H = p->H, len = hi - lo + 2 * H;
  double *s[2][4][PK_NPART]; /* [set][a, b, c, y][real, imaginary part] */
  for (size_t q = 0; q < 2 * 4 * PK_NPART; q++)
    s[q / (4 * PK_NPART)][q / PK_NPART % 4][q % PK_NPART] = w + q * len;
  double *(*in)[PK_NPART] = s[0];
  ptrdiff_t g0 = (ptrdiff_t)lo - (ptrdiff_t)H, g1 = g0 + (ptrdiff_t)len, nn = (ptrdiff_t)p->n;
  ptrdiff_t f0 = g0 > 1 ? g0 : 1, f1 = g1 < nn - 1 ? g1 : nn - 1;
  int bad = 0, l = 1;
  size_t v0 = 0, v1 = len; /* the window of the last level done */
  if (g0 >= 1 && g1 <= nn - 1) { /* level 1 from the input */
    double *(*o)[PK_NPART] = s[1];
#if !PSCR_Z
    if (p->sp == 1)
      bad |= pk_step_input((size_t)g0 + 1, (size_t)g1 - 1, p->dl, p->d, p->du, p->b, oa, ob, oc,
                           oy);
    else
#endif
      bad |= pk_step_input((size_t)g0 + 1, (size_t)g1 - 1, p->dl, p->d, p->du, p->b,
                           PK_PARTS(o[0], 1), PK_PARTS(o[1], 1), PK_PARTS(o[2], 1),
                           PK_PARTS(o[3], 1));
    l = 2, v0 = 1, v1 = len - 1;
  }
  for (ptrdiff_t g = g0; g < g1 && l == 1; g++) {
    size_t t = (size_t)(g - g0);
    if (g == f0 && f0 < f1) { /* the interior rows at once */
      bad |= pk_load_split((size_t)f0, (size_t)f1, p->dl, p->d, p->du, p->b, PK_PARTS(in[0], t),
                           PK_PARTS(in[1], t), PK_PARTS(in[2], t), PK_PARTS(in[3], t));
      g = f1 - 1;
    } else if (g >= 0 && g < nn) {
      bad |= PK_FAILED(pk_load_one(p->n, (size_t)g, p->dl, p->d, p->du, p->b, PK_PARTS(in[0], 0),
                                   PK_PARTS(in[1], 0), PK_PARTS(in[2], 0), PK_PARTS(in[3], 0), t));
    } else { /* identity row: a = c = y = 0, b = 1 */
      for (int q = 0; q < 4 * PK_NPART; q++) in[q / PK_NPART][q % PK_NPART][t] = q == PK_NPART;
    }
  }
  for (; l <= p->sp; l++) {
    size_t k = (size_t)1 << (l - 1);
    v0 += k, v1 -= k;
    double *(*i)[PK_NPART] = s[(l - 1) & 1], *(*o)[PK_NPART] = s[l & 1];
#if !PSCR_Z /* the last level straight to the caller's arrays */
    if (l == p->sp) {
      bad |= pk_step_split(v0, v1, k, H, PK_PARTS(i[0], 0), PK_PARTS(i[1], 0), PK_PARTS(i[2], 0),
                           PK_PARTS(i[3], 0), oa, ob, oc, oy);
      break;
    }
#endif
    bad |= pk_step_split(v0, v1, k, 0, PK_PARTS(i[0], 0), PK_PARTS(i[1], 0), PK_PARTS(i[2], 0),
                         PK_PARTS(i[3], 0), PK_PARTS(o[0], 0), PK_PARTS(o[1], 0), PK_PARTS(o[2], 0),
                         PK_PARTS(o[3], 0));
  }
#if PSCR_Z /* interleave the parts of rows lo..hi-1 of the last level */
  T *out[4] = {oa, ob, oc, oy};
  for (int q = 0; q < 4; q++) {
    const double *re = s[p->sp & 1][q][0] + H, *im = s[p->sp & 1][q][1] + H;
    for (size_t t = 0; t < hi - lo; t++) out[q][t] = CMPLX(re[t], im[t]);
  }
#endif
  return bad;
}

/* ---- P+TO: Thomas sweeps over interleaved lanes ---------------------------------- */

/* Forward sweep of WB (a constant after inlining) lanes over `rows` row
 * groups: a, b, c, y step by P (the chunk buffer), cc, yy by W (the thread's
 * region). The recurrences live in registers; cp, yp carry them between chunks. */
static PT_INLINE int FN(pt_fwd)(size_t WB, size_t rows, size_t P, size_t W, const T *a, const T *b,
                                const T *c, const T *y, T *restrict cp, T *restrict yp,
                                T *restrict cc, T *restrict yy) {
  T cr[8], yr[8];
  uint64_t acc = 0;
  for (size_t w = 0; w < WB; w++) cr[w] = cp[w], yr[w] = yp[w];
  for (size_t j = 0; j < rows; j++) {
    const T *aj = a + j * P, *bj = b + j * P, *cj = c + j * P, *yj = y + j * P;
    for (size_t w = 0; w < WB; w++) {
      T piv = bj[w] - PK_MUL(aj[w], cr[w]);
      T r = PK_RECIP(piv);
      acc |= PK_FLAG(piv);
      cr[w] = PK_MUL(cj[w], r);
      yr[w] = PK_MUL(yj[w] - PK_MUL(aj[w], yr[w]), r);
      cc[j * W + w] = cr[w];
      yy[j * W + w] = yr[w];
    }
  }
  for (size_t w = 0; w < WB; w++) cp[w] = cr[w], yp[w] = yr[w];
  return PK_FAILED(acc);
}

/* The first nl of the thread's W lanes (from s0) over row groups j0..j1-1 of
 * the chunk starting at row R0, in blocks of <= 8 lanes. (No AVX2 clone: it
 * measured slower than SSE2 here.) */
static int FN(pt_fwd_lanes)(const FN(pt_plan) *p, size_t s0, size_t nl, size_t W, size_t j0,
                            size_t j1, size_t R0, T *const *bu, T *cp, T *yp, T *cc, T *yy) {
  int bad = 0;
  size_t rows = j1 - j0, o = j0 * p->P + s0 - R0;
  for (size_t w = 0; w < nl;) {
    size_t wb = nl - w >= 8 ? 8 : nl - w >= 4 ? 4 : nl - w >= 2 ? 2 : 1;
    const T *a = bu[0] + o + w, *b = bu[1] + o + w, *c = bu[2] + o + w, *y = bu[3] + o + w;
    T *pc = cc + j0 * W + w, *py = yy + j0 * W + w;
    switch (wb) {
    case 8: bad |= FN(pt_fwd)(8, rows, p->P, W, a, b, c, y, cp + w, yp + w, pc, py); break;
    case 4: bad |= FN(pt_fwd)(4, rows, p->P, W, a, b, c, y, cp + w, yp + w, pc, py); break;
    case 2: bad |= FN(pt_fwd)(2, rows, p->P, W, a, b, c, y, cp + w, yp + w, pc, py); break;
    default: bad |= FN(pt_fwd)(1, rows, p->P, W, a, b, c, y, cp + w, yp + w, pc, py); break;
    }
    w += wb;
  }
  return bad;
}

/* Back substitution of the thread's lanes s0..s0+W-1, x written into b. */
PSCR_CLONES static void FN(pt_back)(const FN(pt_plan) *p, size_t s0, size_t W, const T *cc,
                                  const T *yy, T *restrict xn) {
  size_t P = p->P, n = p->n;
  for (size_t w = 0; w < W; w++) xn[w] = 0;
  for (size_t j = p->m; j-- > 0;) {
    size_t i0 = j * P + s0, wj = i0 >= n ? 0 : n - i0 < W ? n - i0 : W;
    const T *cj = cc + j * W, *yj = yy + j * W;
    T *restrict xb = p->b + i0;
    for (size_t w = 0; w < wj; w++) {
      T x = yj[w] - PK_MUL(cj[w], xn[w]);
      xn[w] = x;
      xb[w] = x;
    }
  }
}

/* One thread of P+TO; tid < nt. With nt == 1 no barrier is met. */
static void FN(pt_overlapped)(FN(pt_plan) *p, int tid) {
  size_t P = p->P, n = p->n, C = p->C, H = p->H;
  size_t s0 = (size_t)tid * P / (size_t)p->nt, s1 = (size_t)(tid + 1) * P / (size_t)p->nt;
  size_t W = s1 - s0;
  T *w = p->ws + (size_t)tid * p->per, *cp = w + 8 * pt_round(p->part + 2 * H);
  double *tile = (double *)w; /* 8 split arrays (pcr_kernels.h) in the room of 8 of T */
  T *yp = cp + p->wmax, *xn = yp + p->wmax;
  T *cc = p->cc + s0 * p->m, *yy = p->yy + s0 * p->m;
  for (size_t q = 0; q < W; q++) cp[q] = yp[q] = 0;
  int bad = 0;
  size_t nchunks = (n + C - 1) / C;
  for (size_t k = 0; k < nchunks; k++) {
    size_t R0 = k * C, R1 = R0 + C < n ? R0 + C : n;
    T *bu[4], *base = p->buf + (k & 1) * 4 * (C + SK);
    for (int q = 0; q < 4; q++) bu[q] = base + (size_t)q * (C + SK);
    size_t lo = R0 + (size_t)tid * p->part, hi = lo + p->part < R1 ? lo + p->part : R1;
    if (lo < hi)
      bad |= FN(pt_tile)(p, lo, hi, tile, bu[0] + (lo - R0), bu[1] + (lo - R0), bu[2] + (lo - R0),
                         bu[3] + (lo - R0));
    if (p->nt > 1) {
#pragma omp barrier
    }
    if (W == 0) continue;
    /* full row groups of this chunk, then the last partial one (end of the matrix) */
    size_t j0 = R0 / P, jf = R1 / P;
    if (j0 < jf) bad |= FN(pt_fwd_lanes)(p, s0, W, W, j0, jf, R0, bu, cp, yp, cc, yy);
    if (jf * P < R1 && jf * P + s0 < n) {
      size_t wl = n - (jf * P + s0) < W ? n - (jf * P + s0) : W;
      bad |= FN(pt_fwd_lanes)(p, s0, wl, W, jf, jf + 1, R0, bu, cp, yp, cc, yy);
    }
  }
  if (p->nt > 1) {
#pragma omp atomic
    p->bad += bad;
#pragma omp barrier
#pragma omp atomic read
    bad = p->bad;
  } else {
    p->bad = bad;
  }
  if (bad == 0 && W > 0) FN(pt_back)(p, s0, W, cc, yy, xn);
}

/* ---- SP+T: shuffled systems, solved by td_thomas --------------------------------- */

/* Row i = j P + s sits at off(s) + j in the shuffled layout. */
static size_t FN(pt_off)(const FN(pt_plan) *p, size_t s) {
  size_t q = p->n / p->P, rem = p->n % p->P;
  return s * q + (s < rem ? s : rem);
}

/* One thread of SP+T: reduce its tiles and scatter them shuffled, solve its
 * systems, then unshuffle its row groups into b. */
static void FN(pt_shuffled)(FN(pt_plan) *p, int tid) {
  size_t n = p->n, P = p->P, S = p->part, H = p->H, nt = (size_t)p->nt, t = (size_t)tid;
  T *w = p->ws + t * p->per, *o = w + 8 * pt_round(S + 2 * H), *th = o + 4 * pt_round(S);
  T *sa = p->buf, *sb = sa + n + SK, *sc = sb + n + SK, *sy = sc + n + SK;
  int bad = 0;
  size_t ntiles = (n + S - 1) / S;
  for (size_t q = t * ntiles / nt; q < (t + 1) * ntiles / nt; q++) {
    size_t lo = q * S, hi = lo + S < n ? lo + S : n, len = hi - lo;
    T *oa = o, *ob = o + S, *oc = o + 2 * S, *oy = o + 3 * S;
    bad |= FN(pt_tile)(p, lo, hi, (double *)w, oa, ob, oc, oy);
    /* the reduced rows, shuffled (Fig. 4): lo is a multiple of P (so is S),
     * tile row s + P j is row lo / P + j of system s */
    for (size_t s = 0; s < P && s < len; s++) {
      size_t dst = FN(pt_off)(p, s) + lo / P;
      for (size_t i = s; i < len; i += P, dst++)
        sa[dst] = oa[i], sb[dst] = ob[i], sc[dst] = oc[i], sy[dst] = oy[i];
    }
  }
  if (nt > 1) {
#pragma omp barrier
  }
  td_ctl one = {.threads = 1, .work = th, .work_bytes = 2 * p->m * sizeof(T)};
  for (size_t s = t * P / nt; s < (t + 1) * P / nt; s++) { /* Thomas-Compute */
    size_t off = FN(pt_off)(p, s), ms = FN(pt_off)(p, s + 1) - off;
    bad += FN(td_thomas)(ms, sa + off, sb + off, sc + off, sy + off, &one) != PSCR_OK;
  }
  if (nt > 1) {
#pragma omp atomic
    p->bad += bad;
#pragma omp barrier
#pragma omp atomic read
    bad = p->bad;
  } else {
    p->bad = bad;
  }
  if (bad) return;
  /* Thomas-Copy-Back: unshuffle row groups j0..j1-1, 256 at a time (cache-sized) */
  size_t m = p->m, j0 = t * m / nt, j1 = (t + 1) * m / nt;
  for (size_t jb = j0; jb < j1; jb += 256) {
    size_t je = jb + 256 < j1 ? jb + 256 : j1;
    for (size_t s = 0; s < P; s++) {
      const T *x = sy + FN(pt_off)(p, s);
      for (size_t j = jb; j < je && j * P + s < n; j++) p->b[j * P + s] = x[j];
    }
  }
}

/* ---- P+PT: partitioned Thomas over lockstep systems -------------------------------- */

#if PSCR_Z
#define PP_GTSV LAPACKE_zgtsv_work
#define PP_LT lapack_complex_double
#else
#define PP_GTSV LAPACKE_dgtsv_work
#define PP_LT double
#endif

#define PP_SPLIT 16 /* ranges per thread, handed out dynamically */
#define PP_TILE (16384 / sizeof(T)) /* rows per tile: its 8 split arrays stay in L1/L2 */
enum { PP_ALPHA, PP_BETA, PP_GAMMA, PP_ETA, PP_OMEGA, PP_KAPPA, PP_E, PP_NRED };

/* Stores of the sweeps' outputs (c', y', w' read again only after all
 * ranges were swept; x not read again): with nt, non-temporal where the
 * arrays outgrow the caches (no read for ownership, no cache pollution: the
 * 2^25-row solve moves a quarter fewer bytes). 16-byte units, so dst must
 * then be 16-byte aligned; the writer fences (pp_fence) before others read. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define PP_HAVE_NT 1
static PT_INLINE void pp_fence(void) { _mm_sfence(); }
#else
#define PP_HAVE_NT 0
static PT_INLINE void pp_fence(void) {}
#endif
#define PP_NT_BYTES ((size_t)64 << 20) /* c' and y' together this large: streamed */
static PT_INLINE void pp_put(void *dst, const void *src, size_t bytes, int nt) {
#if PP_HAVE_NT
  if (nt) {
    for (size_t q = 0; q < bytes; q += 16)
      _mm_stream_pd((double *)((char *)dst + q),
                    _mm_loadu_pd((const double *)((const char *)src + q)));
    return;
  }
#endif
  (void)nt;
  memcpy(dst, src, bytes);
}

#if PSCR_Z /* x / y as x times y's reciprocal ry (C's complex '/' calls __divdc3) */
#define PP_DIV(x, y, ry) PK_MUL(x, ry)
#else
#define PP_DIV(x, y, ry) ((x) / (y))
#endif
/* One forward step of one lane: a system, or a SIMD vector of systems (the
 * lane type's operations MUL, RCP, DIV, FLAG, FLUSH). The pivot's bits go to
 * acc; w' decays like a product, pi too, so both are flushed. c' is c / piv
 * itself where DIV divides (real): the recurrence's latency is then one
 * division, not a reciprocal and a product. */
#define PP_STEP(TY, a, b, c, y, cp, yp, wp, pi, as, bs, acc, SUM, W, MUL, RCP, DIV, FLAG, FLUSH)   \
  do {                                                                                             \
    TY piv_ = (b) - MUL(a, cp), r_ = RCP(piv_);                                                    \
    acc |= FLAG(piv_);                                                                             \
    cp = DIV(c, piv_, r_);                                                                         \
    yp = MUL((y) - MUL(a, yp), r_);                                                                \
    if (W) wp = FLUSH(-MUL(MUL(a, wp), r_));                                                       \
    if (SUM) {                                                                                     \
      as += MUL(pi, yp);                                                                           \
      if (W) bs += MUL(pi, wp);                                                                    \
      pi = FLUSH(-MUL(cp, pi));                                                                    \
    }                                                                                              \
  } while (0)

/* Forward sweep of all P systems over g row groups of a reduced tile (a, b,
 * c, y by row), c', y', w' stored by row in cc, yy, ww. st holds the
 * recurrences between calls: c', y', w' of the last step, pi and the two
 * sums, P each. SUM is 0 for a range's last group, whose unknown is E
 * itself; W is 0 once every w' is zero (it stays zero: w'_k is a product),
 * and then w' is neither formed nor stored. With P, SUM and W constants
 * (pp_fwd_any) the recurrences stay in registers. Returns a PK_FAILED
 * accumulator. */
#define PP_REG 16 /* most systems swept from registers */
static PT_INLINE uint64_t FN(pp_fwd)(size_t P, size_t g, int SUM, int W, int NT,
                                     const T *restrict a, const T *restrict b,
                                     const T *restrict c, const T *restrict y, T *restrict cc,
                                     T *restrict yy, T *restrict ww, T *st) {
  T cp[PP_REG], yp[PP_REG], wp[PP_REG], pi[PP_REG], as[PP_REG], bs[PP_REG];
  for (size_t s = 0; s < P; s++)
    cp[s] = st[s], yp[s] = st[P + s], wp[s] = st[2 * P + s], pi[s] = st[3 * P + s],
    as[s] = st[4 * P + s], bs[s] = st[5 * P + s];
  uint64_t acc = 0;
  for (size_t j = 0; j < g; j++, a += P, b += P, c += P, y += P, cc += P, yy += P, ww += P) {
    for (size_t s = 0; s < P; s++)
      PP_STEP(T, a[s], b[s], c[s], y[s], cp[s], yp[s], wp[s], pi[s], as[s], bs[s], acc, SUM, W,
              PK_MUL, PK_RECIP, PP_DIV, PK_FLAG, PK_FLUSH);
    pp_put(cc, cp, P * sizeof(T), NT);
    pp_put(yy, yp, P * sizeof(T), NT);
    if (W) pp_put(ww, wp, P * sizeof(T), NT);
  }
  for (size_t s = 0; s < P; s++)
    st[s] = cp[s], st[P + s] = yp[s], st[2 * P + s] = wp[s], st[3 * P + s] = pi[s],
    st[4 * P + s] = as[s], st[5 * P + s] = bs[s];
  return acc;
}

#if !PSCR_Z && defined(__GNUC__)
/* The same sweep with explicit SIMD lanes of PP_VL real systems (GNU vector
 * types; compilers left the scalar form unvectorized, its recurrences in
 * stack slots): P = K PP_VL systems, K vectors per step. */
#define PP_VL 4
typedef double pp_vd __attribute__((vector_size(8 * PP_VL)));
typedef int64_t pp_vi __attribute__((vector_size(8 * PP_VL)));
typedef uint64_t pp_vu __attribute__((vector_size(8 * PP_VL)));
#define PP_VMUL(x, y) ((x) * (y))
#define PP_VRCP(x) (1.0 / (x))
#define PP_VDIV(x, y, ry) ((x) / (y))
/* PK_FLAG and PK_FLUSH per lane (macros: without AVX, passing a 32-byte
 * vector by value changes the ABI) */
#define PP_VFLAG(p) (((((pp_vu)(p) >> 52) - 1) & 0x7ff) + 2)
#define PP_VFLUSH(x)                                                                               \
  ((pp_vd)((pp_vi)(x) & (pp_vi)((pp_vd)((pp_vu)(x) & 0x7fffffffffffffffu) >= PK_TINY)))

static PT_INLINE uint64_t pp_fwd_v(size_t K, size_t g, int SUM, int W, int NT,
                                   const double *restrict a, const double *restrict b,
                                   const double *restrict c, const double *restrict y,
                                   double *restrict cc,
                                   double *restrict yy, double *restrict ww, double *st) {
  size_t P = K * PP_VL;
  pp_vd cp[PP_REG / PP_VL], yp[PP_REG / PP_VL], wp[PP_REG / PP_VL], pi[PP_REG / PP_VL],
      as[PP_REG / PP_VL], bs[PP_REG / PP_VL];
  pp_vu acc = {0};
  for (size_t k = 0; k < K; k++) {
    size_t o = k * PP_VL;
    memcpy(&cp[k], st + o, sizeof cp[k]), memcpy(&yp[k], st + P + o, sizeof yp[k]);
    memcpy(&wp[k], st + 2 * P + o, sizeof wp[k]), memcpy(&pi[k], st + 3 * P + o, sizeof pi[k]);
    memcpy(&as[k], st + 4 * P + o, sizeof as[k]), memcpy(&bs[k], st + 5 * P + o, sizeof bs[k]);
  }
  for (size_t j = 0; j < g; j++, a += P, b += P, c += P, y += P, cc += P, yy += P, ww += P)
    for (size_t k = 0; k < K; k++) {
      size_t o = k * PP_VL;
      pp_vd va, vb, vc, vy;
      memcpy(&va, a + o, sizeof va), memcpy(&vb, b + o, sizeof vb);
      memcpy(&vc, c + o, sizeof vc), memcpy(&vy, y + o, sizeof vy);
      PP_STEP(pp_vd, va, vb, vc, vy, cp[k], yp[k], wp[k], pi[k], as[k], bs[k], acc, SUM, W, PP_VMUL,
              PP_VRCP, PP_VDIV, PP_VFLAG, PP_VFLUSH);
      pp_put(cc + o, &cp[k], sizeof cp[k], NT);
      pp_put(yy + o, &yp[k], sizeof yp[k], NT);
      if (W) pp_put(ww + o, &wp[k], sizeof wp[k], NT);
    }
  for (size_t k = 0; k < K; k++) {
    size_t o = k * PP_VL;
    memcpy(st + o, &cp[k], sizeof cp[k]), memcpy(st + P + o, &yp[k], sizeof yp[k]);
    memcpy(st + 2 * P + o, &wp[k], sizeof wp[k]), memcpy(st + 3 * P + o, &pi[k], sizeof pi[k]);
    memcpy(st + 4 * P + o, &as[k], sizeof as[k]), memcpy(st + 5 * P + o, &bs[k], sizeof bs[k]);
  }
  uint64_t r = 0;
  for (int l = 0; l < PP_VL; l++) r |= acc[l];
  return r;
}
#define PP_FWD_4(W, NT) pp_fwd_v(1, g, 1, W, NT, PP_FWD_ARGS)
#define PP_FWD_8(W, NT) pp_fwd_v(2, g, 1, W, NT, PP_FWD_ARGS)
#define PP_FWD_16(W, NT) pp_fwd_v(4, g, 1, W, NT, PP_FWD_ARGS)
#endif

/* The same for P > PP_REG: blocks of PP_REG systems, one group at a time. */
static uint64_t FN(pp_fwd_mem)(size_t P, size_t g, int sum, int w, const T *a, const T *b,
                               const T *c, const T *y, T *cc, T *yy, T *ww, T *st) {
  uint64_t acc = 0;
  size_t B = P < PP_REG ? P : PP_REG;
  for (size_t s0 = 0; s0 < P; s0 += B) {
    T sub[6 * PP_REG]; /* the recurrences of one block of B systems */
    for (int q = 0; q < 6; q++) memcpy(sub + q * B, st + q * P + s0, B * sizeof(T));
    for (size_t j = 0; j < g; j++) {
      size_t o = j * P + s0;
      acc |= FN(pp_fwd)(B, 1, sum, w, 0, a + o, b + o, c + o, y + o, cc + o, yy + o, ww + o, sub);
    }
    for (int q = 0; q < 6; q++) memcpy(st + q * P + s0, sub + q * B, B * sizeof(T));
  }
  return acc;
}

#define PP_FWD_ARGS a, b, c, y, cc, yy, ww, st
#define PP_FWD_2(W, NT) FN(pp_fwd)(2, g, 1, W, NT, PP_FWD_ARGS)
#ifndef PP_VL /* no SIMD form: the scalar one */
#define PP_FWD_4(W, NT) FN(pp_fwd)(4, g, 1, W, NT, PP_FWD_ARGS)
#define PP_FWD_8(W, NT) FN(pp_fwd)(8, g, 1, W, NT, PP_FWD_ARGS)
#define PP_FWD_16(W, NT) FN(pp_fwd)(16, g, 1, W, NT, PP_FWD_ARGS)
#endif
/* F(W, NT) with the flags w, nt as constants */
#define PP_FLAGS(F) (nt ? (w ? F(1, 1) : F(0, 1)) : (w ? F(1, 0) : F(0, 0)))
static PT_INLINE uint64_t FN(pp_fwd_any)(size_t P, size_t g, int sum, int w, int nt, const T *a,
                                         const T *b, const T *c, const T *y, T *cc, T *yy, T *ww,
                                         T *st) {
  if (!sum) return FN(pp_fwd_mem)(P, g, 0, w, PP_FWD_ARGS);
  switch (P) { /* constant P: the SIMD loop unrolled, the recurrences in registers */
  case 2: return PP_FLAGS(PP_FWD_2);
  case 4: return PP_FLAGS(PP_FWD_4);
  case 8: return PP_FLAGS(PP_FWD_8);
  case 16: return PP_FLAGS(PP_FWD_16);
  default: return FN(pp_fwd_mem)(P, g, 1, w, PP_FWD_ARGS);
  }
}

/* Back substitution of P systems over row groups j1-1 down to j0, x to b
 * (rows below n only): xn carries x_{k+1}, X is each system's coupling (W:
 * through w', which is zero from group jw on). */
static PT_INLINE void FN(pp_back_k)(size_t P, int W, int NT, size_t n, size_t j0, size_t j1,
                                    const T *cc, const T *yy, const T *ww, const T *restrict X0,
                                    T *restrict xn0, T *b) {
  T X[PP_REG], xn[PP_REG], x[PP_REG];
  for (size_t s = 0; s < P; s++) X[s] = X0[s], xn[s] = xn0[s];
  for (size_t j = j1; j-- > j0;) {
    size_t i0 = j * P;
    const T *restrict c = cc + i0, *restrict y = yy + i0, *restrict w = ww + i0;
    for (size_t s = 0; s < P; s++)
      x[s] = xn[s] = (W ? y[s] - PK_MUL(w[s], X[s]) : y[s]) - PK_MUL(c[s], xn[s]);
    if (i0 + P <= n)
      pp_put(b + i0, x, P * sizeof(T), NT);
    else /* the last group, cut by n */
      for (size_t s = 0; i0 + s < n; s++) b[i0 + s] = x[s];
  }
  for (size_t s = 0; s < P; s++) xn0[s] = xn[s];
}

PSCR_CLONES static void FN(pp_back)(size_t P, int nt, size_t n, size_t j0, size_t jw, size_t j1,
                                  const T *cc, const T *yy, const T *ww, const T *X, T *xn, T *b) {
#define PP_BACK_NT(P, NT)                                                                          \
  FN(pp_back_k)(P, 0, NT, n, jw, j1, cc, yy, ww, X, xn, b);                                        \
  FN(pp_back_k)(P, 1, NT, n, j0, jw, cc, yy, ww, X, xn, b);                                        \
  return
#define PP_BACK(P)                                                                                 \
  if (nt) {                                                                                        \
    PP_BACK_NT(P, 1);                                                                              \
  }                                                                                                \
  PP_BACK_NT(P, 0)
  switch (P) {
  case 2: PP_BACK(2);
  case 4: PP_BACK(4);
  case 8: PP_BACK(8);
  case 16: PP_BACK(16);
  default: /* blocks of PP_REG systems, one group at a time */
    for (size_t j = j1; j-- > j0;)
      for (size_t s0 = 0; s0 < P; s0 += PP_REG) {
        T x[PP_REG];
        size_t i0 = j * P + s0;
        FN(pp_back_k)(PP_REG, j < jw, 0, SIZE_MAX, 0, 1, cc + i0, yy + i0, ww + i0, X + s0,
                      xn + s0, x);
        for (size_t s = 0; s < PP_REG && i0 + s < n; s++) b[i0 + s] = x[s];
      }
  }
#undef PP_BACK
#undef PP_BACK_NT
}

#ifdef PSCR_PT_PROFILE /* diagnostic builds: seconds per phase of the last P+PT solve */
#include <omp.h>
#if PSCR_Z
extern double td_pt_phase[64][4];
#else
double td_pt_phase[64][4];
#endif
#define PP_TICK(t, q, t0)                                                                          \
  do {                                                                                             \
    double t1_ = omp_get_wtime();                                                                  \
    if ((t) < 64) td_pt_phase[t][q] += t1_ - (t0);                                                 \
    (t0) = t1_;                                                                                    \
  } while (0)
#else
#define PP_TICK(t, q, t0) ((void)(t), (void)(t0))
#endif

/* The thread's reduced tiles swept forward; returns 1 on a bad pivot or
 * input, and in *jw the first row group from which every w' is zero. */
PSCR_CLONES static int FN(pp_sweep)(const FN(pt_plan) *p, size_t j0, size_t j1, T *w, T *o, T *st,
                                  T *red, size_t *jw, int tid) {
  size_t P = p->P, S = p->part;
  for (size_t s = 0; s < P; s++)
    st[s] = st[P + s] = 0, st[2 * P + s] = -1, st[3 * P + s] = 1, st[4 * P + s] = st[5 * P + s] = 0;
  int bad = 0, wz = 0;
  uint64_t acc = 0;
  double t0 = 0;
#ifdef PSCR_PT_PROFILE
  t0 = omp_get_wtime();
#endif
  *jw = j1;
  for (size_t lo = j0 * P, end = j1 * P; lo < end; lo += S) {
    size_t hi = lo + S < end ? lo + S : end, g = (hi - lo) / P, gs = g - (hi == end), q = gs * P;
    T *oa = o, *ob = o + S, *oc = o + 2 * S, *oy = o + 3 * S;
    bad |= FN(pt_tile)(p, lo, hi, (double *)w, oa, ob, oc, oy); /* also the input scan */
    PP_TICK(tid, 0, t0);
    if (!wz) { /* every w' zero from here on? */
      wz = 1;
      for (size_t s = 0; s < P; s++) wz &= S_ABS1(st[2 * P + s]) == 0;
      if (wz) *jw = lo / P;
    }
    acc |= FN(pp_fwd_any)(P, gs, 1, !wz, p->nts, oa, ob, oc, oy, p->cc + lo, p->yy + lo,
                          p->ww + lo, st);
    if (gs < g) /* the range's last group */
      acc |= FN(pp_fwd_any)(P, 1, 0, !wz, 0, oa + q, ob + q, oc + q, oy + q, p->cc + lo + q,
                            p->yy + lo + q, p->ww + lo + q, st);
    PP_TICK(tid, 1, t0);
  }
  if (p->nts) pp_fence(); /* the streamed rows visible to the other threads' reads */
  for (size_t s = 0; s < P; s++) {
    red[PP_ALPHA * P + s] = st[4 * P + s], red[PP_BETA * P + s] = -st[5 * P + s];
    red[PP_GAMMA * P + s] = st[3 * P + s], red[PP_ETA * P + s] = st[P + s];
    red[PP_OMEGA * P + s] = st[2 * P + s], red[PP_KAPPA * P + s] = st[s];
  }
  return bad | PK_FAILED(acc);
}

/* Per system s, the last unknowns E_t of the ranges: eliminating the next
 * range's first unknown F_{t+1} = alpha + beta E_t + gamma E_{t+1} from
 * E_t = eta - omega E_{t-1} - kappa F_{t+1} gives one tridiagonal row
 *   omega E_{t-1} + (1 + kappa beta') E_t + kappa gamma' E_{t+1} = eta - kappa alpha'
 * (primes: range t+1). Solved with partial pivoting; returns 1 on failure. */
static int FN(pp_reduced)(const FN(pt_plan) *p) {
  size_t P = p->P, nq = p->nq, R = PP_NRED * P;
  T *l = p->red + nq * R, *d = l + nq, *u = d + nq, *x = u + nq;
  int bad = 0;
  for (size_t s = 0; s < P; s++) {
    for (size_t t = 0; t < nq; t++) {
      const T *r = p->red + t * R + s, *r1 = r + R;
      T kap = r[PP_KAPPA * P];
      int nx = t + 1 < nq;
      if (t > 0) l[t - 1] = r[PP_OMEGA * P];
      d[t] = 1 + (nx ? PK_MUL(kap, r1[PP_BETA * P]) : 0);
      u[t] = nx ? PK_MUL(kap, r1[PP_GAMMA * P]) : 0;
      x[t] = r[PP_ETA * P] - (nx ? PK_MUL(kap, r1[PP_ALPHA * P]) : 0);
    }
    lapack_int info = PP_GTSV(LAPACK_COL_MAJOR, (lapack_int)nq, 1, (PP_LT *)l, (PP_LT *)d,
                              (PP_LT *)u, (PP_LT *)x, (lapack_int)nq);
    for (size_t t = 0; t < nq; t++) {
      p->red[t * R + PP_E * P + s] = x[t];
      bad |= !(S_ABS1(x[t]) < INFINITY); /* NaN too */
    }
    bad |= info != 0;
  }
  return bad;
}

/* The next range of a pass for this thread (dynamic: ranges are cut equal,
 * but cores do not stream memory equally fast), or p->nq when none is left. */
static size_t FN(pp_take)(FN(pt_plan) *p, int pass) {
  size_t q;
#pragma omp atomic capture
  q = p->next[pass]++;
  return q < p->nq ? q : p->nq;
}

/* One thread of P+PT: forward sweeps of ranges as they come, the reduced
 * system (thread 0), back substitutions, the latest swept range first (its
 * c', y' may still be in the last-level cache). */
static void FN(pt_partitioned)(FN(pt_plan) *p, int tid) {
  size_t P = p->P, G = p->m, t = (size_t)tid, nq = p->nq, R = PP_NRED * P;
  T *w = p->ws + t * p->per, *o = w + 8 * pt_round(p->part + 2 * p->H);
  T *st = o + 4 * pt_round(p->part), *X = st + 6 * pt_round(P), *xn = X + pt_round(P);
  double t0 = 0;
#ifdef PSCR_PT_PROFILE
  if (t < 64) td_pt_phase[t][0] = td_pt_phase[t][1] = td_pt_phase[t][2] = td_pt_phase[t][3] = 0;
#endif
  int bad = 0;
  for (size_t q; (q = FN(pp_take)(p, 0)) < nq;)
    bad |= FN(pp_sweep)(p, q * G / nq, (q + 1) * G / nq, w, o, st, p->red + q * R, p->jw + q, tid);
#ifdef PSCR_PT_PROFILE
  t0 = omp_get_wtime();
#endif
  if (p->nt > 1) {
#pragma omp atomic
    p->bad += bad;
#pragma omp barrier
  } else {
    p->bad = bad;
  }
  if (tid == 0 && p->bad == 0 && FN(pp_reduced)(p)) p->bad = 1;
  if (p->nt > 1) {
#pragma omp barrier
#pragma omp atomic read
    bad = p->bad;
  } else {
    bad = p->bad;
  }
  PP_TICK(t, 2, t0);
  if (bad) return;
  for (size_t r; (r = FN(pp_take)(p, 1)) < nq;) {
    size_t q = nq - 1 - r;
    const T *red = p->red + q * R;
    for (size_t s = 0; s < P; s++) {
      X[s] = q > 0 ? red[PP_E * P + s - R] : 0;
      if (q + 1 < nq) { /* F_{q+1} */
        const T *r1 = red + R;
        xn[s] = r1[PP_ALPHA * P + s] + PK_MUL(r1[PP_BETA * P + s], red[PP_E * P + s]) +
                PK_MUL(r1[PP_GAMMA * P + s], r1[PP_E * P + s]);
      } else {
        xn[s] = 0;
      }
    }
    FN(pp_back)(P, p->ntb, p->n, q * G / nq, p->jw[q], (q + 1) * G / nq, p->cc, p->yy, p->ww, X,
                xn, p->b);
  }
  if (p->ntb) pp_fence(); /* x visible once the team ends */
  PP_TICK(t, 3, t0);
}

/* ---- driver ------------------------------------------------------------------------ */

/* Overrides from the environment (pcr_thomas.h): the value if it is an
 * integer in lo..hi, else `unset`. */
static int FN(pt_env)(const char *name, int lo, int hi, int unset) {
  const char *s = getenv(name);
  if (s == NULL || *s == 0) return unset;
  char *end;
  long v = strtol(s, &end, 10);
  return *end == 0 && v >= lo && v <= hi ? (int)v : unset;
}

/* Sizes for nt threads; returns the scalars of memory needed. */
static size_t FN(pt_setup)(FN(pt_plan) *p, int nt) {
  size_t P = p->P, H = p->H, ntz = (size_t)nt;
  size_t S = PT_TILE > 4 * P ? PT_TILE : 4 * P;
  p->nt = nt;
  p->m = (p->n + P - 1) / P;
  p->wmax = (P + ntz - 1) / ntz;
  if (p->variant == TD_PT_PARTITIONED) {
    int tile = FN(pt_env)("PSCR_PT_TILE", 1, INT_MAX, 0);
    int nt_env = FN(pt_env)("PSCR_PT_NT", 0, 1, -1);
    S = tile > 0 ? (size_t)tile / P * P : PP_TILE;
    if (S < P) S = P;
    p->part = S;
    size_t k = ntz == 1 ? 1 : (size_t)FN(pt_env)("PSCR_PT_SPLIT", 1, INT_MAX, PP_SPLIT);
    p->nq = p->m < k * ntz ? p->m : k * ntz;
    p->per = 8 * pt_round(S + 2 * H) + 4 * pt_round(S) + 8 * pt_round(P);
    p->nts = PP_HAVE_NT && (nt_env >= 0 ? nt_env : 2 * P * p->m * sizeof(T) >= PP_NT_BYTES);
    p->ntb = p->nts && (uintptr_t)p->b % 16 == 0;
    /* jw: nq size_t in as many scalars (sizeof(T) >= 8) */
    return ntz * p->per + p->nq * (PP_NRED * P + 5) + 3 * (P * p->m + SK);
  }
  if (p->variant == TD_PT_SHUFFLED) {
    p->part = S;
    p->per = 8 * pt_round(S + 2 * H) + 4 * pt_round(S) + 2 * pt_round(p->m);
    return ntz * p->per + 4 * (p->n + SK);
  }
  size_t C = (ntz * S + P - 1) / P * P, Cn = (p->n + P - 1) / P * P;
  p->C = C < Cn ? C : Cn;
  p->part = (p->C + ntz - 1) / ntz;
  p->per = 8 * pt_round(p->part + 2 * H) + 3 * pt_round(p->wmax);
  return ntz * p->per + 8 * (p->C + SK) + 2 * (P * p->m + SK);
}

static T *FN(pt_alloc)(td_ctl *ctl, size_t count) {
  return count > SIZE_MAX / sizeof(T) ? NULL : td_scratch(ctl, count * sizeof(T));
}

static void FN(pt_carve)(FN(pt_plan) *p, T *mem) {
  p->ws = mem;
  if (p->variant == TD_PT_PARTITIONED) {
    size_t P = p->P, len = P * p->m + SK;
    p->cc = mem + (size_t)p->nt * p->per, p->yy = p->cc + len, p->ww = p->yy + len;
    p->red = p->ww + len;
    p->jw = (size_t *)(p->red + p->nq * (PP_NRED * P + 4));
    return;
  }
  p->buf = mem + (size_t)p->nt * p->per;
  p->cc = p->buf + 8 * (p->C + SK);
  p->yy = p->cc + p->P * p->m + SK;
}

static void FN(pt_thread)(FN(pt_plan) *p, int tid) {
  if (p->variant == TD_PT_PARTITIONED)
    FN(pt_partitioned)(p, tid);
  else if (p->variant == TD_PT_SHUFFLED)
    FN(pt_shuffled)(p, tid);
  else
    FN(pt_overlapped)(p, tid);
}

pscr_status FN(td_pcr_thomas_run)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl,
                                  int levels) {
  int nt = ctl && ctl->threads > 1 ? ctl->threads : 1;
  int variant = ctl && ctl->variant ? ctl->variant : td_pcr_thomas_default_variant();
  if (variant < TD_PT_OVERLAPPED || variant > TD_PT_PARTITIONED) return PSCR_ERR_INVALID_ARGUMENT;
  int sp = levels >= 0                       ? levels
           : variant == TD_PT_PARTITIONED ? td_pcr_thomas_lanes(n)
                                          : td_pcr_thomas_levels(n, nt);
  if (sp > PT_MAX_LEVELS) sp = PT_MAX_LEVELS;
  while (sp > 0 && ((size_t)1 << sp) > n) sp--;
  /* the input scan, unless P+PT's first pass does it */
  int scan = ctl && ctl->unscanned;
  if (scan && (sp == 0 || variant != TD_PT_PARTITIONED) &&
      !FN(td_scan)(n, 1, n, dl, d, du, nt, NULL))
    return PSCR_ERR_NONFINITE;
  if (sp == 0) return FN(td_thomas)(n, dl, d, du, b, ctl);
  FN(pt_plan) p = {.n = n, .dl = dl, .d = d, .du = du, .b = b, .sp = sp, .variant = variant};
  p.P = (size_t)1 << sp;
  p.H = p.P - 1;
  T *mem = NULL;
  int oom = 0;
  if (nt == 1) {
    mem = FN(pt_alloc)(ctl, FN(pt_setup)(&p, 1));
    if (mem == NULL) return PSCR_ERR_OUT_OF_MEMORY;
    FN(pt_carve)(&p, mem);
    FN(pt_thread)(&p, 0);
  } else {
#pragma omp parallel num_threads(nt)
    {
      /* sized for the team actually granted (it may be smaller than asked) */
#pragma omp single
      {
        mem = FN(pt_alloc)(ctl, FN(pt_setup)(&p, pscr_num_threads()));
        oom = mem == NULL;
        if (!oom) FN(pt_carve)(&p, mem);
      }
      if (!oom) FN(pt_thread)(&p, pscr_thread_id());
    }
  }
  td_scratch_free(ctl, mem);
  if (oom) return PSCR_ERR_OUT_OF_MEMORY;
  if (p.bad && scan && variant == TD_PT_PARTITIONED && !FN(td_scan)(n, 1, n, dl, d, du, nt, NULL))
    return PSCR_ERR_NONFINITE; /* a failure of P+PT: bad input or a bad pivot? */
  return p.bad ? PSCR_ERR_SINGULAR : PSCR_OK;
}

pscr_status FN(td_pcr_thomas)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  td_ctl c = ctl ? *ctl : (td_ctl){.threads = 1};
  if (c.variant == 0) c.variant = FN(pt_env)("PSCR_PCR_THOMAS_VARIANT", 1, 3, 0);
  return FN(td_pcr_thomas_run)(n, dl, d, du, b, &c,
                               FN(pt_env)("PSCR_PCR_THOMAS_LEVELS", 0, PT_MAX_LEVELS, -1));
}

#if !PSCR_Z
int td_pcr_thomas_default_variant(void) { return TD_PT_PARTITIONED; }

/* P+PT's levels: P = 2^sp systems fill the SIMD loop of its sweeps (their
 * number does not depend on the cores; 4 = one AVX2 vector measured fastest
 * at 2^25 rows on 16 cores: a third level costs more than the wider sweep
 * saves); fewer where n is short. */
int td_pcr_thomas_lanes(size_t n) {
  int sp = 2;
  while (sp > 0 && ((size_t)8 << sp) > n) sp--;
  return sp;
}

/* The switch point model of seed 002 Sec. III-A. The paper counts
 *   cost(SP) = 12 n SP / p + 8 (n / 2^SP) ceil(2^SP / p)
 * (SP PCR levels shared by p cores, then 2^SP Thomas systems of n / 2^SP
 * rows, a core solving ceil(2^SP / p) of them) and takes the SP of least
 * cost. We keep that form, with the costs of our kernels (ns per row on one
 * core, F64, measured on a Xeon with AVX2; only their ratios matter) and two
 * terms the paper leaves out:
 *  - a core sweeps its W = ceil(2^SP / p) systems interleaved, so W steps
 *    cost max(LAT, W THR): LAT is the latency of one step of the recurrence
 *    (a division), THR its throughput; likewise for back substitution;
 *  - a fixed cost FORK (team, scratch, barriers) so that small n stays on
 *    plain Thomas (SP = 0, SEQ n), and the chunk barriers BAR per row.
 * With LOAD = BAR = FORK = 0, PCR = 12, THR = 8, the others 0, it is the
 * paper's formula. For p = 16 it picks SP = 6 (4 systems per core). */
#define PTM_SEQ 8.5      /* plain Thomas (td_thomas) */
#define PTM_LOAD 2.0     /* reading and scaling one row into a tile */
#define PTM_PCR 1.25     /* one fused PCR level */
#define PTM_LAT 6.4      /* forward step of one system: the recurrence's latency */
#define PTM_THR 1.65     /* forward step when a core sweeps many systems */
#define PTM_BLAT 3.0     /* back substitution, one system ... */
#define PTM_BTHR 0.85    /* ... and many systems */
#define PTM_BAR 0.4      /* chunk barriers (p > 1) */
#define PTM_FORK 20000.0 /* team start, scratch, setup */
int td_pcr_thomas_levels(size_t n, int cores) {
  if (cores < 1) cores = 1;
  double nn = (double)n, p = cores, best = PTM_SEQ * nn;
  int arg = 0;
  for (int sp = 1; sp <= PT_MAX_LEVELS && ((size_t)1 << sp) <= n; sp++) {
    size_t Pz = (size_t)1 << sp, tile = 65536 / sizeof(double);
    double P = (double)Pz, W = (double)((Pz + (size_t)cores - 1) / (size_t)cores);
    double halo = 1 + 2 * (P - 1) / (double)(tile > 4 * Pz ? tile : 4 * Pz);
    double fwd = PTM_LAT > W * PTM_THR ? PTM_LAT : W * PTM_THR;
    double back = PTM_BLAT > W * PTM_BTHR ? PTM_BLAT : W * PTM_BTHR;
    double cost = PTM_FORK + nn / p * (PTM_LOAD + (cores > 1 ? PTM_BAR : 0) + sp * PTM_PCR * halo) +
                  nn / P * (fwd + back);
    if (cost < best) best = cost, arg = sp;
  }
  return arg;
}
#endif
