/* One tridiagonal system larger than the device, solved by streaming chunks
 * through it (seed 001 section IV-B): SPIKE (seed 001 eqs. (2)-(9)) whose
 * partitions are K contiguous chunks. Chunk j holds rows [s_j, s_j + m_j),
 * A_j is its diagonal block, a_j = dl[s_j] and c_j = du[s_j + m_j - 1] couple
 * it to its neighbours (a_0 = c_{K-1} = 0: the ignored corners).
 * Pass 1, per chunk on the device: A_j [y_j v_j w_j] = [b_j, c_j e_m, a_j e_1]
 * ((7), (3), (4)); only the tips (first and last entries) come back.
 * Reduced system (8)-(9): x_j = y_j - v_j t_{j+1} - w_j s_{j-1} at the tips,
 * t_j / s_j the first / last unknown of chunk j: 2K unknowns, band (2, 2).
 * Pass 2, per chunk on the device: A_j x_j = b_j - a_j s_{j-1} e_1 - c_j
 * t_{j+1} e_m (block row j of A x = b, instead of (5)'s back-substitution,
 * which needs the whole spikes), x_j read back into b.
 * So the spikes are recomputed, not kept: O(K) host memory besides one chunk
 * of zeros. Where a spike grew large (a nearly singular chunk block), b is
 * kept (n more host entries) and x refined once if its backward error is
 * above 2^-50 (refine). On the device: 4 arrays of one chunk (dl, d, du, right-hand
 * side), allocated once and rewritten per chunk, plus the solver's scratch. */
#include <complex.h>
#include <errno.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/threads.h"
#include "core/timer.h"
#include "tridiag/chunked.h"

/* Largest automatic chunk (2 GiB per F64 array): the device engines'
 * per-system counts stay far from 32-bit limits, and the bytes moved hardly
 * depend on the number of chunks. */
#define CHUNK_MAX_ROWS ((size_t)1 << 28)
/* Automatic chunks are halved on OUT_OF_MEMORY down to this many rows. */
#define CHUNK_MIN_ROWS ((size_t)1024)

/* Device scratch of the per-chunk solver, in arrays of the chunk's order
 * (src/backend/gpu: THOMAS 2, CR 4, PCR 8, g-Spike up to 6; the tiled engine
 * a few records per 1024 rows). An underestimate costs one halving. */
static size_t work_arrays(pscr_td_algorithm alg) {
  switch (alg) {
  case PSCR_TD_THOMAS: return 2;
  case PSCR_TD_CR: return 4;
  case PSCR_TD_PCR: return 8;
  case PSCR_TD_GSPIKE: return 6;
  default: return 1;
  }
}

int td_chunk_plan(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                  int dominant, td_chunking *plan) {
  if (alg == PSCR_TD_AUTO) alg = dominant ? PSCR_TD_CR_PCR_THOMAS : PSCR_TD_SPIKE_DIAG_PIVOT;
  *plan = (td_chunking){.alg = alg};
  const char *env = getenv("PSCR_TD_CHUNK_ROWS"); /* tests and CI force chunks with it */
  if (env && *env >= '0' && *env <= '9') {
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(env, &end, 10);
    if (errno == 0 && *end == '\0' && v > 0 && v <= SIZE_MAX) {
      plan->rows = (size_t)v;
      plan->forced = 1;
      return 1;
    }
  }
  size_t free_bytes = 0, total_bytes = 0;
  if (ctx->ops->mem_info == NULL || ctx->ops->mem_info(ctx, &free_bytes, &total_bytes) != PSCR_OK)
    return 0;
  /* the whole solve: 4 arrays + scratch; headroom for what the context holds */
  double per_row = (double)((4 + work_arrays(alg)) * pscr_dtype_size(dtype));
  if (per_row * (double)n <= 0.9 * (double)free_bytes) return 0;
  double rows = 0.75 * (double)free_bytes / per_row;
  plan->rows = rows < (double)CHUNK_MIN_ROWS   ? CHUNK_MIN_ROWS
               : rows > (double)CHUNK_MAX_ROWS ? CHUNK_MAX_ROWS
                                               : (size_t)rows;
  return 1;
}

enum { Y_F, Y_L, V_F, V_L, W_F, W_L, TIPS }; /* tips of y, v, w: first and last entries */

typedef struct {
  pscr_context *ctx;
  pscr_td_algorithm alg;
  pscr_dtype dtype;
  size_t es, n;
  size_t K, base, extra, m; /* chunk j has base + (j < extra) rows; m the most */
  const char *dl, *d, *du;
  char *b;
  pscr_array *arr[4];   /* device: dl, d, du and the right-hand side / solution */
  char *zeros;          /* host: m zeros, the spike right-hand sides */
  double complex *tips; /* TIPS per chunk */
  double complex *x;    /* the 2K reduced unknowns: t_j = x[2j], s_j = x[2j + 1] */
  size_t resident;      /* chunk whose matrix is on the device (K: none) */
  double seconds;
  int modified;
} chunk_job;

static size_t chunk_start(const chunk_job *J, size_t j) {
  return j * J->base + (j < J->extra ? j : J->extra);
}
static size_t chunk_len(const chunk_job *J, size_t j) { return J->base + (j < J->extra); }

/* Tips and reduced unknowns are complex for both dtypes (a real value has a
 * zero imaginary part): 2K unknowns, the cost is irrelevant. */
static double complex load(pscr_dtype t, const void *p, size_t i) {
  if (t == PSCR_F64) return ((const double *)p)[i];
  return ((const double complex *)p)[i];
}
static void store(pscr_dtype t, void *p, size_t i, double complex v) {
  if (t == PSCR_F64)
    ((double *)p)[i] = creal(v);
  else
    ((double complex *)p)[i] = v;
}
static int finite_z(double complex v) { return isfinite(creal(v)) && isfinite(cimag(v)); }

static void job_free(chunk_job *J) {
  for (int i = 0; i < 4; i++) pscr_array_destroy(J->arr[i]);
  memset(J->arr, 0, sizeof J->arr);
  free(J->zeros);
  free(J->tips);
  free(J->x);
  J->zeros = NULL;
  J->tips = J->x = NULL;
}

/* Balanced chunks of at most `rows` rows, their device arrays and host tips. */
static pscr_status job_setup(chunk_job *J, size_t rows) {
  J->K = J->n / rows + (J->n % rows != 0);
  J->base = J->n / J->K;
  J->extra = J->n % J->K;
  J->m = J->base + (J->extra > 0);
  J->resident = J->K;
  J->seconds = 0;
  J->modified = 0;
  if (J->K > INT32_MAX / 2) return PSCR_ERR_UNSUPPORTED; /* LAPACK's int in the reduced solve */
  J->zeros = calloc(J->m, J->es);                        /* untouched pages: no resident memory */
  J->tips = malloc(TIPS * J->K * sizeof *J->tips);
  J->x = malloc(2 * J->K * sizeof *J->x);
  if (J->zeros == NULL || J->tips == NULL || J->x == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  pscr_status st = PSCR_OK;
  for (int i = 0; i < 4 && st == PSCR_OK; i++)
    st = pscr_array_create(J->ctx, J->dtype, J->m, &J->arr[i]);
  return st;
}

static pscr_status put(chunk_job *J, int i, size_t offset, const void *host, size_t count) {
  return J->ctx->ops->write(J->ctx, J->arr[i]->native, offset * J->es, host, count * J->es);
}

/* The three diagonals of chunk j, unless they are on the device already. */
static pscr_status put_matrix(chunk_job *J, size_t j) {
  if (J->resident == j) return PSCR_OK;
  size_t s = chunk_start(J, j), m = chunk_len(J, j), o = s * J->es;
  J->resident = J->K;
  pscr_status st = put(J, 0, 0, J->dl + o, m);
  if (st == PSCR_OK) st = put(J, 1, 0, J->d + o, m);
  if (st == PSCR_OK) st = put(J, 2, 0, J->du + o, m);
  if (st == PSCR_OK) J->resident = j;
  return st;
}

/* The right-hand side coef e_pos of a spike (seed 001 eqs. (3), (4)), m rows. */
static pscr_status put_spike(chunk_job *J, size_t m, size_t pos, double complex coef) {
  store(J->dtype, J->zeros, pos, coef);
  pscr_status st = put(J, 3, 0, J->zeros, m);
  store(J->dtype, J->zeros, pos, 0);
  return st;
}

/* Solves the resident chunk (m rows) for the device right-hand side; with
 * tips != NULL reads x's first and last entries into tips[0], tips[1]. */
static pscr_status solve(chunk_job *J, size_t m, double complex *tips) {
  pscr_td_report rep = {0};
  pscr_status st = pscr_tridiag_solve_arrays(J->ctx, J->alg, J->dtype, m, 1, m, J->arr[0],
                                             J->arr[1], J->arr[2], J->arr[3], &rep);
  J->seconds += rep.seconds;
  if (st != PSCR_OK || tips == NULL) {
    if (st == PSCR_OK) J->modified += rep.modified_blocks;
    return st;
  }
  double complex buf = 0;
  for (int k = 0; k < 2 && st == PSCR_OK; k++) {
    st = J->ctx->ops->read(J->ctx, J->arr[3]->native, (k ? m - 1 : 0) * J->es, &buf, J->es);
    tips[k] = load(J->dtype, &buf, 0);
  }
  return st;
}

/* Pass 1: the tips of y_j, v_j, w_j (a zero coupling has a zero spike);
 * spikes = 0: of y_j alone (the refinement's second right-hand side).
 * Nothing is written to b: a singular chunk returns with b untouched. */
static pscr_status pass1(chunk_job *J, int spikes) {
  pscr_status st = PSCR_OK;
  for (size_t j = 0; j < J->K && st == PSCR_OK; j++) {
    size_t s = chunk_start(J, j), m = chunk_len(J, j);
    double complex *tp = J->tips + TIPS * j;
    double complex a = j > 0 ? load(J->dtype, J->dl, s) : 0;
    double complex c = j + 1 < J->K ? load(J->dtype, J->du, s + m - 1) : 0;
    if (!spikes) a = c = 0;
    else tp[V_F] = tp[V_L] = tp[W_F] = tp[W_L] = 0;
    st = put_matrix(J, j);
    if (st == PSCR_OK) st = put(J, 3, 0, J->b + s * J->es, m);
    if (st == PSCR_OK) st = solve(J, m, tp + Y_F);
    if (st == PSCR_OK && c != 0) st = put_spike(J, m, m - 1, c);
    if (st == PSCR_OK && c != 0) st = solve(J, m, tp + V_F);
    if (st == PSCR_OK && a != 0) st = put_spike(J, m, 0, a);
    if (st == PSCR_OK && a != 0) st = solve(J, m, tp + W_F);
  }
  return st;
}

/* The reduced system in the tips, unknowns ordered t_0, s_0, t_1, s_1, ...:
 *   t_j + w_j,f s_{j-1} + v_j,f t_{j+1} = y_j,f   (columns 2j-1, 2j, 2j+2)
 *   s_j + w_j,l s_{j-1} + v_j,l t_{j+1} = y_j,l   (columns 2j-1, 2j+1, 2j+2)
 * a band matrix with kl = ku = 2, solved by LAPACK gbsv (partial pivoting).
 * Non-finite tips or solution: a numerically singular chunk or reduced system
 * (b was checked finite, so nothing else makes them). */
static pscr_status reduced(chunk_job *J) {
  const lapack_int kl = 2, ku = 2, ldab = 2 * kl + ku + 1;
  size_t N = 2 * J->K;
  for (size_t i = 0; i < TIPS * J->K; i++)
    if (!finite_z(J->tips[i])) return PSCR_ERR_SINGULAR;
  double complex *ab = calloc((size_t)ldab * N, sizeof *ab);
  lapack_int *ipiv = malloc(N * sizeof *ipiv);
  pscr_status st = PSCR_OK;
  if (ab == NULL || ipiv == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
#define AB(i, col) ab[(size_t)(kl + ku) + (i) - (col) + (col) * (size_t)ldab]
  for (size_t j = 0; j < J->K; j++) {
    const double complex *tp = J->tips + TIPS * j;
    size_t t = 2 * j, s = t + 1;
    AB(t, t) = 1;
    AB(s, s) = 1;
    if (j > 0) {
      AB(t, t - 1) = tp[W_F];
      AB(s, t - 1) = tp[W_L];
    }
    if (j + 1 < J->K) {
      AB(t, t + 2) = tp[V_F];
      AB(s, t + 2) = tp[V_L];
    }
    J->x[t] = tp[Y_F];
    J->x[s] = tp[Y_L];
  }
#undef AB
  lapack_int info =
      LAPACKE_zgbsv_work(LAPACK_COL_MAJOR, (lapack_int)N, kl, ku, 1, (lapack_complex_double *)ab,
                         ldab, ipiv, (lapack_complex_double *)J->x, (lapack_int)N);
  if (info != 0) {
    st = info > 0 ? PSCR_ERR_SINGULAR : PSCR_ERR_INVALID_ARGUMENT;
    goto cleanup;
  }
  for (size_t i = 0; i < N; i++)
    if (!finite_z(J->x[i])) st = PSCR_ERR_SINGULAR;
cleanup:
  free(ab);
  free(ipiv);
  return st;
}

/* Pass 2, last chunk first (its matrix is still on the device from pass 1).
 * It solves the same chunk matrices with the same solver as pass 1, and the
 * pivots (diagonal pivoting, Givens, Thomas) depend on the matrix alone, so a
 * chunk that passed pass 1 cannot be SINGULAR here: b is written only after
 * every error the matrix can cause is known. Only a device failure midway
 * leaves b partly solved. */
static pscr_status pass2(chunk_job *J) {
  pscr_status st = PSCR_OK;
  for (size_t j = J->K; j-- > 0 && st == PSCR_OK;) {
    size_t s = chunk_start(J, j), m = chunk_len(J, j);
    st = put_matrix(J, j);
    if (st == PSCR_OK) st = put(J, 3, 0, J->b + s * J->es, m);
    /* b_j - a_j s_{j-1} e_1 - c_j t_{j+1} e_m (both on one entry when m = 1) */
    double complex first = load(J->dtype, J->b, s), last = load(J->dtype, J->b, s + m - 1);
    if (j > 0) first -= load(J->dtype, J->dl, s) * J->x[2 * j - 1];
    if (j + 1 < J->K) {
      double complex cx = load(J->dtype, J->du, s + m - 1) * J->x[2 * j + 2];
      if (m == 1)
        first -= cx;
      else
        last -= cx;
    }
    double complex buf = 0;
    if (st == PSCR_OK && j > 0) {
      store(J->dtype, &buf, 0, first);
      st = put(J, 3, 0, &buf, 1);
    }
    if (st == PSCR_OK && j + 1 < J->K) {
      store(J->dtype, &buf, 0, m == 1 ? first : last);
      st = put(J, 3, m - 1, &buf, 1);
    }
    if (st == PSCR_OK) st = solve(J, m, NULL);
    if (st == PSCR_OK)
      st = J->ctx->ops->read(J->ctx, J->arr[3]->native, 0, J->b + s * J->es, m * J->es);
  }
  return st;
}

/* The largest spike tip: a nearly singular chunk block gives large spikes,
 * and the reduced unknowns carry about eps times them into x. */
static double spike_growth(const chunk_job *J) {
  double g = 0;
  for (size_t j = 0; j < J->K; j++)
    for (int k = V_F; k <= W_L; k++) g = fmax(g, cabs(J->tips[TIPS * j + k]));
  return g;
}

/* r = b - A x over b (inf-norms), and the normwise backward error
 * ||r|| / (||A|| ||x|| + ||b||). */
static double residual(const chunk_job *J, char *r, const char *x, int threads) {
  pscr_dtype t = J->dtype;
  long long n = (long long)J->n;
  double rn = 0, an = 0, xn = 0, bn = 0;
  (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n > 65536)                      \
    reduction(max : rn, an, xn, bn) schedule(static)
  for (long long i = 0; i < n; i++) {
    double complex xi = load(t, x, (size_t)i), ax = load(t, J->d, (size_t)i) * xi;
    double a = cabs(load(t, J->d, (size_t)i));
    if (i > 0) {
      ax += load(t, J->dl, (size_t)i) * load(t, x, (size_t)i - 1);
      a += cabs(load(t, J->dl, (size_t)i));
    }
    if (i + 1 < n) {
      ax += load(t, J->du, (size_t)i) * load(t, x, (size_t)i + 1);
      a += cabs(load(t, J->du, (size_t)i));
    }
    double complex bi = load(t, r, (size_t)i);
    store(t, r, (size_t)i, bi - ax);
    rn = fmax(rn, cabs(bi - ax));
    an = fmax(an, a);
    xn = fmax(xn, cabs(xi));
    bn = fmax(bn, cabs(bi));
  }
  double den = an * xn + bn;
  return den > 0 ? rn / den : 0;
}

/* One refinement step where the spikes grew past CHUNK_GROWTH and the
 * backward error is above CHUNK_BACKWARD (b kept, r = b - A x solved with
 * pass 1's spikes, x += dx). PoCL, random U(-1,1), 10^5 rows in 100 chunks
 * of GSPIKE, seeds 1-400: seed 255 gave 3.0e-13 without it, 2.9e-17 with it. */
#define CHUNK_GROWTH 16.0
#define CHUNK_BACKWARD 0x1p-50
static pscr_status refine(chunk_job *J, char *r, int threads) {
  char *x = J->b;
  if (residual(J, r, x, threads) <= CHUNK_BACKWARD) return PSCR_OK;
  int modified = J->modified; /* the same blocks again: not counted twice */
  J->b = r;
  pscr_status st = pass1(J, 0);
  double t0 = pscr_wtime();
  if (st == PSCR_OK) st = reduced(J);
  J->seconds += pscr_wtime() - t0;
  if (st == PSCR_OK) st = pass2(J);
  J->b = x;
  J->modified = modified;
  for (size_t i = 0; st == PSCR_OK && i < J->n; i++)
    store(J->dtype, x, i, load(J->dtype, x, i) + load(J->dtype, r, i));
  return st;
}

/* 1 if every entry of b is finite. */
static int rhs_finite(pscr_dtype t, size_t n, const void *b, int threads) {
  const double *v = b;
  long long count = (long long)(t == PSCR_C128 ? 2 * n : n);
  int ok = 1;
  (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && count > 65536)                  \
    reduction(&& : ok) schedule(static)
  for (long long i = 0; i < count; i++) ok = ok && isfinite(v[i]);
  return ok;
}

pscr_status td_solve_chunked(pscr_context *ctx, const td_chunking *plan, pscr_dtype dtype, size_t n,
                             const void *dl, const void *d, const void *du, void *b,
                             pscr_td_report *report) {
  if (report) report->used = plan->alg;
  /* refused, so that non-finite tips can only mean a singular chunk */
  if (!rhs_finite(dtype, n, b, pscr_resolve_threads(ctx->threads))) return PSCR_ERR_NONFINITE;
  chunk_job J = {.ctx = ctx,
                 .alg = plan->alg,
                 .dtype = dtype,
                 .es = pscr_dtype_size(dtype),
                 .n = n,
                 .dl = dl,
                 .d = d,
                 .du = du,
                 .b = b};
  size_t rows = plan->rows;
  pscr_status st;
  /* pass 1 writes nothing to b: on OUT_OF_MEMORY, again with half the rows */
  for (;;) {
    st = job_setup(&J, rows);
    if (st == PSCR_OK) st = pass1(&J, 1);
    if (st != PSCR_ERR_OUT_OF_MEMORY || plan->forced || rows <= CHUNK_MIN_ROWS) break;
    job_free(&J);
    rows /= 2;
  }
  double t0 = pscr_wtime();
  if (st == PSCR_OK) st = reduced(&J);
  J.seconds += pscr_wtime() - t0;
  /* b kept for the refinement step (skipped if it does not fit the host) */
  char *b0 = st == PSCR_OK && spike_growth(&J) > CHUNK_GROWTH ? malloc(n * J.es) : NULL;
  if (b0) memcpy(b0, b, n * J.es);
  if (st == PSCR_OK) st = pass2(&J);
  if (st == PSCR_OK && b0) st = refine(&J, b0, pscr_resolve_threads(ctx->threads));
  free(b0);
  if (st == PSCR_OK && report) {
    report->partitions = J.K > INT_MAX ? INT_MAX : (int)J.K;
    report->modified_blocks = J.modified;
    report->seconds = J.seconds;
  }
  job_free(&J);
  return st;
}
