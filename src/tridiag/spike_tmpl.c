/* The SPIKE driver shared by SPIKE_DIAG_PIVOT (seed 001, section II) and
 * g-Spike (seed 000, Algorithm 1); the block kernel is the only difference.
 *
 *  1. Partition A into p blocks; every block, in parallel: Y = A_j^{-1} f_j and
 *     the spikes V_j, W_j (seed 001 eqs. 3, 4, 7), written to workspace.
 *  2. The reduced system of the block tips (seed 001 eq. 8) in "pair form":
 *       t_j + wt_j b_{j-1} + vt_j t_{j+1} + ut_j b_j = yt_j
 *       db_j b_j + wb_j b_{j-1} + vb_j t_{j+1}       = yb_j
 *     (t_j, b_j: first and last unknown of block j; ut = 0 and db = 1 except for
 *     a g-Spike singular last block). Ordered as in seed 000 Fig. C.1 it is
 *     tridiagonal; small ones are solved directly, large ones recursively by
 *     SPIKE on blocks of pairs whose boundary columns are swapped (seed 000
 *     Appendix C, Fig. C.2c), which makes every block tridiagonal again with
 *     two-entry coupling columns.
 *  3. Recovery x_j = Y_j - V_j t_{j+1} - W_j b_{j-1} (seed 001 eq. 5), in parallel.
 * g-Spike's modification A P_mu (seed 000 Prop. 2.3) changes only the tips: a
 * block j modified by zeta_j adds zeta_j to wt_{j+1}, since
 * A~_{j+1}^{-1} A_{j+1} e_1 = e_1; the recovery x = P_mu x~ then cancels it, so
 * step 3 uses the spikes of the original couplings and the tips t~ as solved.
 * A block the kernel finds numerically singular (and cannot modify) makes that
 * level fall back to one direct solve; a (nearly) singular A, seen in the size
 * of the tips, makes the whole system fall back to one partition, whose
 * verdict is final. b is written only by step 3. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/spike.h"

#define JOB FN(spike_job)
#define KERNEL FN(spike_kernel)

typedef struct {
  size_t np;
  T *wt, *wb, *vt, *vb, *yt, *yb, *ut, *db, *xt, *xb;
} pairs;

typedef struct {
  KERNEL kernel;
  size_t row_bytes; /* kernel scratch per block row */
  int threads;
} ops;

/* Block outcome bits: failed (singular, not finite), special last block, and
 * outputs so large that the recovery must be checked before b is written. */
enum { BLOCK_FAILED = 1, BLOCK_SPECIAL = 2, BLOCK_BIG = 4 };

static void pairs_take(pairs *P, spike_arena *a, size_t np) {
  T **f[] = {&P->wt, &P->wb, &P->vt, &P->vb, &P->yt, &P->yb, &P->ut, &P->db, &P->xt, &P->xb};
  P->np = np;
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) *f[i] = spike_take(a, np * sizeof(T));
}

typedef void (*body_fn)(void *ctx, size_t i, int tid);

/* Runs fn over count items on `threads` threads; no parallel region when 1. */
static void run_loop(int threads, size_t count, body_fn fn, void *ctx) {
  if (threads > 1 && count > 1) {
    long long cnt = (long long)count;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long i = 0; i < cnt; i++) fn(ctx, (size_t)i, pscr_thread_id());
  } else {
    for (size_t i = 0; i < count; i++) fn(ctx, i, 0);
  }
}

/* The tips of a solved block become pair j of the next reduced system. */
static void take_tips(pairs *P, size_t j, const JOB *job) {
  size_t l = job->m - 1;
  P->yt[j] = job->y[0];
  P->yb[j] = job->y[l];
  P->wt[j] = job->left ? job->w[0] : 0;
  P->wb[j] = job->left ? job->w[l] : 0;
  if (job->special) { /* seed 000 sec. 2.2: R~_p = diag(R_lead, 1), U couples t_p to b_p */
    P->vt[j] = P->vb[j] = 0;
    P->ut[j] = job->v[0];
    P->db[j] = job->db;
  } else {
    P->vt[j] = job->right ? job->v[0] : 0;
    P->vb[j] = job->right ? job->v[l] : 0;
    P->ut[j] = 0;
    P->db[j] = 1;
  }
}

/* Pairs a..a+m-1 as one tridiagonal block of order 2m. Rows t_a, b_a, t_{a+1}, ...;
 * columns t_a, t_{a+1}, b_a, t_{a+2}, b_{a+1}, ..., b_{a+m-1}: seed 000 Fig. C.1 with
 * the first and last column swapped back (Fig. C.2c). */
static void build_block(const pairs *P, size_t a, size_t m, T *tdl, T *td, T *tdu, T *tf) {
  for (size_t i = 0; i < m; i++) {
    size_t j = a + i;
    int last = i + 1 == m;
    tdl[2 * i] = i ? 1 : 0; /* row t_j: t_j, b_{j-1}, t_{j+1} (or b_j when last) */
    td[2 * i] = i ? P->wt[j] : 1;
    tdu[2 * i] = last ? P->ut[j] : P->vt[j];
    tf[2 * i] = P->yt[j];
    tdl[2 * i + 1] = i ? P->wb[j] : 0; /* row b_j: b_{j-1}, t_{j+1}, b_j */
    td[2 * i + 1] = last ? P->db[j] : P->vb[j];
    tdu[2 * i + 1] = last ? 0 : P->db[j];
    tf[2 * i + 1] = P->yb[j];
  }
}

/* Local solution of the block of pairs a..a+m-1 (column order above) into xt, xb. */
static void scatter_block(pairs *P, size_t a, size_t m, const T *x) {
  P->xt[a] = x[0];
  for (size_t k = 1; k < m; k++) {
    P->xt[a + k] = x[2 * k - 1];
    P->xb[a + k - 1] = x[2 * k];
  }
  P->xb[a + m - 1] = x[2 * m - 1];
}

/* ---- the reduced system -------------------------------------------------- */

static pscr_status reduced_direct(pairs *P, const ops *o) {
  size_t N = 2 * P->np;
  spike_arena a = {0};
  for (int pass = 0; pass < 2; pass++) {
    a.used = 0;
    T *tdl = spike_take(&a, N * sizeof(T)), *td = spike_take(&a, N * sizeof(T));
    T *tdu = spike_take(&a, N * sizeof(T)), *tf = spike_take(&a, N * sizeof(T));
    T *x = spike_take(&a, N * sizeof(T));
    void *scratch = spike_take(&a, N * o->row_bytes);
    if (pass == 0) {
      if ((a.base = malloc(a.used)) == NULL) return PSCR_ERR_OUT_OF_MEMORY;
      continue;
    }
    build_block(P, 0, P->np, tdl, td, tdu, tf);
    JOB job = {.m = N, .dl = tdl, .d = td, .du = tdu, .f = tf, .direct = 1, .y = x};
    pscr_status st = o->kernel(&job, scratch);
    /* A zero pivot: the caller redoes the whole system with one partition,
     * whose verdict is the one reported (near-singular: see partitioned()). */
    if (st == PSCR_OK && !(isfinite(job.amax) && job.pmin > 0)) st = PSCR_ERR_SINGULAR;
    if (st == PSCR_OK) scatter_block(P, 0, P->np, x);
    free(a.base);
    return st;
  }
  return PSCR_ERR_INVALID_ARGUMENT; /* not reached */
}

/* A split between pairs j-1 and j: one coupling column is zero (seed 000 sec. 3.3). */
static int pairs_split(const pairs *P, size_t j) {
  return (P->wt[j] == 0 && P->wb[j] == 0) || (P->vt[j - 1] == 0 && P->vb[j - 1] == 0);
}

typedef struct {
  pairs *P, *next;
  const size_t *start;
  size_t G;
  T *Y, *V, *W, *zeta;
  unsigned char *flag;
  char *scratch;
  size_t stride, cap; /* per-thread scratch bytes, rows */
  const ops *o;
} level;

static void level_solve(void *ctx, size_t g, int tid) {
  level *L = ctx;
  size_t a = L->start[g], m = L->start[g + 1] - a, M = 2 * m;
  T *tdl = (T *)(L->scratch + (size_t)tid * L->stride);
  T *td = tdl + L->cap, *tdu = td + L->cap, *tf = tdu + L->cap;
  build_block(L->P, a, m, tdl, td, tdu, tf);
  JOB job = {.m = M,
             .dl = tdl,
             .d = td,
             .du = tdu,
             .f = tf,
             .left = g > 0,
             .right = g + 1 < L->G,
             .y = L->Y + 2 * a,
             .w = L->W + 2 * a,
             .v = L->V + 2 * a};
  if (job.left) {
    job.cl[0] = L->P->wt[a];
    job.cl[1] = L->P->wb[a];
  }
  if (job.right) {
    job.cr[0] = L->P->vt[a + m - 1];
    job.cr[1] = L->P->vb[a + m - 1];
  }
  pscr_status st = L->o->kernel(&job, tf + L->cap);
  /* overflow in the recovery shows as non-finite tips at the level below */
  L->flag[g] = st != PSCR_OK || !isfinite(job.amax) ? BLOCK_FAILED
               : job.special                        ? BLOCK_SPECIAL
                                                    : 0;
  L->zeta[g] = job.zeta;
  if (L->flag[g] != BLOCK_FAILED) take_tips(L->next, g, &job);
}

/* x = Y - V t~_{g+1} - W b_{g-1} (U b_g for a special block), back to pair order. */
static void level_recover(void *ctx, size_t g, int tid) {
  (void)tid;
  level *L = ctx;
  size_t a = L->start[g], m = L->start[g + 1] - a, M = 2 * m;
  T *y = L->Y + 2 * a;
  const T *v = L->V + 2 * a, *w = L->W + 2 * a;
  int special = L->flag[g] == BLOCK_SPECIAL;
  T tn = special ? L->next->xb[g] : g + 1 < L->G ? L->next->xt[g + 1] : 0;
  T bp = g > 0 ? L->next->xb[g - 1] : 0;
  int has_v = special || g + 1 < L->G, has_w = g > 0;
  for (size_t k = 0; k < M; k++) {
    T x = y[k];
    if (has_v) x -= v[k] * tn;
    if (has_w) x -= w[k] * bp;
    y[k] = x;
  }
  if (special) y[M - 1] = tn;
  scatter_block(L->P, a, m, y);
}

static pscr_status reduced_solve(pairs *P, const ops *o) {
  size_t np = P->np;
  if (np <= SPIKE_DIRECT_PAIRS) return reduced_direct(P, o);
  size_t G = (np + SPIKE_GROUP_PAIRS - 1) / SPIKE_GROUP_PAIRS, wnd = SPIKE_GROUP_PAIRS / 8;
  size_t cap = 2 * (np / G + 2 + 2 * wnd); /* rows of the largest block */
  int threads = o->threads;
  level L = {.P = P, .G = G, .o = o, .cap = cap};
  pairs next;
  size_t *start = NULL;
  spike_arena a = {0};
  for (int pass = 0; pass < 2; pass++) {
    a.used = 0;
    start = spike_take(&a, (G + 1) * sizeof *start);
    L.Y = spike_take(&a, 2 * np * sizeof(T));
    L.V = spike_take(&a, 2 * np * sizeof(T));
    L.W = spike_take(&a, 2 * np * sizeof(T));
    L.zeta = spike_take(&a, G * sizeof(T));
    L.flag = spike_take(&a, G);
    pairs_take(&next, &a, G);
    L.stride = (4 * cap * sizeof(T) + cap * o->row_bytes + 63) & ~(size_t)63;
    L.scratch = spike_take(&a, (size_t)threads * L.stride);
    if (pass == 0 && (a.base = malloc(a.used)) == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  }
  L.start = start;
  L.next = &next;
  start[0] = 0;
  start[G] = np;
  for (size_t g = 1; g < G; g++) { /* nominal boundary, snapped onto a split nearby */
    size_t q = g * np / G, lo = start[g - 1] + 1, hi = (g + 1) * np / G - wnd - 1;
    start[g] = q;
    for (size_t k = 0; k <= wnd; k++) {
      if (q >= lo + k && pairs_split(P, q - k)) {
        start[g] = q - k;
        break;
      }
      if (q + k <= hi && pairs_split(P, q + k)) {
        start[g] = q + k;
        break;
      }
    }
  }
  run_loop(threads, G, level_solve, &L);
  int failed = 0;
  for (size_t g = 0; g < G; g++) {
    failed |= L.flag[g] == BLOCK_FAILED;
    if (g + 1 < G) next.wt[g + 1] += L.zeta[g];
  }
  pscr_status st;
  if (failed) {
    st = reduced_direct(P, o);
  } else {
    st = reduced_solve(&next, o);
    if (st == PSCR_OK) run_loop(threads, G, level_recover, &L);
  }
  free(a.base);
  return st;
}

/* ---- the original system --------------------------------------------------- */

typedef struct {
  const T *dl, *d, *du;
  T *b;
  size_t p;
  const size_t *start;
  T *Y, *V, *W, *zeta;
  unsigned char *flag;
  double *norm; /* per block: max |a_ij|, max |f_i| */
  pairs *P;
  char *scratch;
  size_t stride;
  KERNEL kernel;
  T *out; /* recovery target: b, or Y when the recovery might overflow */
} top;

static void top_solve(void *ctx, size_t j, int tid) {
  top *c = ctx;
  size_t s = c->start[j], e = c->start[j + 1];
  JOB job = {.m = e - s,
             .dl = c->dl + s,
             .d = c->d + s,
             .du = c->du + s,
             .f = c->b + s,
             .left = j > 0,
             .right = j + 1 < c->p,
             .y = c->Y + s,
             .w = c->W + s,
             .v = c->V + s,
             /* short partitions: modified sooner, so refined (spike.h) */
             .modify = e - s < SPIKE_MIN_ROWS ? SPIKE_MODIFY_SHORT : 0};
  if (job.left) job.cl[0] = c->dl[s];
  if (job.right) job.cr[1] = c->du[e - 1];
  pscr_status st = c->kernel(&job, c->scratch + (size_t)tid * c->stride);
  double fmax = 0;
  for (size_t i = s; i < e; i++) fmax = fmax > S_ABS1(c->b[i]) ? fmax : S_ABS1(c->b[i]);
  c->norm[2 * j] = job.scale;
  c->norm[2 * j + 1] = fmax;
  c->flag[j] = st != PSCR_OK || !isfinite(job.amax)
                   ? BLOCK_FAILED
                   : (job.special ? BLOCK_SPECIAL : 0) | (job.amax <= SPIKE_BIG ? 0 : BLOCK_BIG);
  c->zeta[j] = job.zeta;
  if (c->flag[j] != BLOCK_FAILED) take_tips(c->P, j, &job);
}

static void top_recover(void *ctx, size_t j, int tid) {
  (void)tid;
  top *c = ctx;
  size_t s = c->start[j], m = c->start[j + 1] - s;
  const T *y = c->Y + s, *v = c->V + s, *w = c->W + s;
  T *x = c->out + s;
  T bp = j > 0 ? c->P->xb[j - 1] : 0;
  if (c->flag[j] & BLOCK_SPECIAL) { /* x_k + U_k b_j + W_k b_{j-1} = Y_k, x_{m-1} = b_j */
    T bs = c->P->xb[j];
    for (size_t k = 0; k + 1 < m; k++) x[k] = y[k] - v[k] * bs - w[k] * bp;
    x[m - 1] = bs;
  } else if (j > 0 && j + 1 < c->p) {
    T tn = c->P->xt[j + 1];
    for (size_t k = 0; k < m; k++) x[k] = y[k] - v[k] * tn - w[k] * bp;
  } else if (j > 0) {
    for (size_t k = 0; k < m; k++) x[k] = y[k] - w[k] * bp;
  } else {
    T tn = c->P->xt[j + 1];
    for (size_t k = 0; k < m; k++) x[k] = y[k] - v[k] * tn;
  }
}

/* A split between rows i-1 and i: the matrix is reducible there. */
static int rows_split(const T *dl, const T *du, size_t i) { return dl[i] == 0 || du[i - 1] == 0; }

static pscr_status partitioned(size_t n, const T *dl, const T *d, const T *du, T *b, size_t p,
                               const ops *o, int *fallback, int *modified, int refine,
                               td_ctl *ctl) {
  size_t wnd = n / p / 8, cap = 2 * ((n / 2 + p - 1) / p) + 1 + 2 * wnd;
  int threads = o->threads;
  top c = {.dl = dl, .d = d, .du = du, .b = b, .p = p, .kernel = o->kernel};
  pairs P;
  size_t *start = NULL;
  spike_arena a = {0};
  for (int pass = 0; pass < 2; pass++) {
    a.used = 0;
    c.Y = spike_take(&a, n * sizeof(T));
    c.V = spike_take(&a, n * sizeof(T));
    c.W = spike_take(&a, n * sizeof(T));
    c.zeta = spike_take(&a, p * sizeof(T));
    pairs_take(&P, &a, p);
    start = spike_take(&a, (p + 1) * sizeof *start);
    c.flag = spike_take(&a, p);
    c.norm = spike_take(&a, 2 * p * sizeof(double));
    c.stride = (cap * o->row_bytes + 63) & ~(size_t)63;
    c.scratch = spike_take(&a, (size_t)threads * c.stride);
    if (pass == 0 && (a.base = td_scratch(ctl, a.used)) == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  }
  c.start = start;
  c.P = &P;
  start[0] = 0;
  start[p] = n;
  for (size_t j = 1; j < p; j++) { /* seed 000 Alg. 1 step 1: partition, honouring reducibility */
    size_t q = spike_block_start(n, p, j), lo = start[j - 1] + 2;
    size_t hi = spike_block_start(n, p, j + 1) - wnd - 2;
    start[j] = q;
    for (size_t k = 0; k <= wnd; k++) {
      if (q >= lo + k && rows_split(dl, du, q - k)) {
        start[j] = q - k;
        break;
      }
      if (q + k <= hi && rows_split(dl, du, q + k)) {
        start[j] = q + k;
        break;
      }
    }
  }
  run_loop(threads, p, top_solve, &c);
  pscr_status st = PSCR_OK;
  *modified = 0;
  for (size_t j = 0; j < p; j++) {
    if (c.flag[j] == BLOCK_FAILED) {
      *fallback = 1;
      goto cleanup;
    }
    *modified += (c.flag[j] & BLOCK_SPECIAL) || c.zeta[j] != 0;
    if (j + 1 < p) P.wt[j + 1] += c.zeta[j]; /* W~_{j+1} = W_{j+1} + zeta_j e_1 */
  }
  st = reduced_solve(&P, o);
  if (st == PSCR_ERR_SINGULAR) *fallback = 1;
  if (st != PSCR_OK) goto cleanup;
  /* ||A|| |tips| / ||b|| bounds cond(A) from below (|t~| <= 2 ||x||): a (nearly)
   * singular A, or b = 0, is left to one partition, whose verdict is final. */
  double anorm = 0, bnorm = 0, tips = 0;
  int safe = 1; /* x = Y - V t - W b cannot overflow: |Y|, |V|, |W|, |t|, |b| <= SPIKE_BIG */
  for (size_t j = 0; j < p; j++) {
    double tj = fmax(S_ABS1(P.xt[j]), S_ABS1(P.xb[j]));
    anorm = fmax(anorm, c.norm[2 * j]);
    bnorm = fmax(bnorm, c.norm[2 * j + 1]);
    tips = tj > tips || tj != tj ? tj : tips;
    safe &= !(c.flag[j] & BLOCK_BIG) && tj <= SPIKE_BIG;
  }
  if (!(bnorm > 0 && anorm * tips <= SPIKE_COND * bnorm)) {
    *fallback = 1;
    goto cleanup;
  }
  /* Modified blocks (g-Spike) lose a few digits to the rank-1 correction: keep
   * b for one step of iterative refinement below. */
  refine = refine && *modified > 0;
  if (refine) safe = 0;
  c.out = safe ? b : c.Y; /* else recover in workspace and check before touching b */
  run_loop(threads, p, top_recover, &c);
  if (!safe) {
    for (size_t i = 0; i < n; i++)
      if (!S_ISFINITE(c.Y[i])) { /* let one partition decide */
        *fallback = 1;
        goto cleanup;
      }
    if (refine) { /* x += A^-1 (b - A x), same partitions and modifications */
      T *r = c.V; /* the spikes are no longer needed */
      for (size_t i = 0; i < n; i++)
        r[i] = b[i] - d[i] * c.Y[i] - (i > 0 ? dl[i] * c.Y[i - 1] : 0) -
               (i + 1 < n ? du[i] * c.Y[i + 1] : 0);
      int fb = 0, mod = 0;
      if (partitioned(n, dl, d, du, r, p, o, &fb, &mod, 0, ctl) == PSCR_OK && !fb)
        for (size_t i = 0; i < n; i++) c.Y[i] += r[i];
    }
    memcpy(b, c.Y, n * sizeof *b);
  }
cleanup:
  td_scratch_free(ctl, a.base);
  return st;
}

/* One block covering the whole system (p = 1 or a fallback): solve into
 * workspace, then copy, so that b is untouched when the kernel fails. */
static pscr_status whole(size_t n, const T *dl, const T *d, const T *du, T *b, const ops *o,
                         td_ctl *ctl) {
  size_t need = ((n * sizeof(T) + 63) & ~(size_t)63) + n * o->row_bytes;
  char *w = td_scratch(ctl, need);
  if (w == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *x = (T *)w;
  JOB job = {.m = n, .dl = dl, .d = d, .du = du, .f = b, .direct = 1, .y = x};
  pscr_status st = o->kernel(&job, w + ((n * sizeof(T) + 63) & ~(size_t)63));
  if (st == PSCR_OK && !isfinite(job.amax)) st = PSCR_ERR_SINGULAR;
  if (st == PSCR_OK) memcpy(b, x, n * sizeof *b);
  td_scratch_free(ctl, w);
  return st;
}

pscr_status FN(spike_solve)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl,
                            KERNEL kernel, size_t scratch_row_bytes) {
  int threads = ctl && ctl->threads > 1 ? ctl->threads : 1;
  size_t p = n ? spike_partition_count(n, threads, ctl ? ctl->partitions : 0) : 1;
  ops o = {kernel, scratch_row_bytes, threads};
  int modified = 0, fallback = 0;
  pscr_status st = PSCR_OK;
  if (n == 0) goto done;
  if (p >= 2) {
    st = partitioned(n, dl, d, du, b, p, &o, &fallback, &modified, 1, ctl);
    if (!fallback) goto done;
  }
  p = 1; /* pure kernel on the whole system */
  modified = 0;
  st = whole(n, dl, d, du, b, &o, ctl);
done:
  if (ctl) {
    ctl->partitions = (int)p;
    ctl->modified_blocks = modified;
  }
  return st;
}
