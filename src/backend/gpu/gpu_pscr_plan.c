/* The GPU part of a PSCR plan: guiding data (block tables, rows D,
 * eigenpair -> block maps, tasks, row updates) uploaded once, the innermost
 * level's workspace, and a warm-up solve that builds the kernel module and
 * sizes the context's tridiagonal work buffer, so that a solve allocates
 * nothing (gpu_pscr.h). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_pscr.h"
#include "eigen/eigen_impl.h"

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t nout(const pscr_block *b) { return b->nd > 2 ? b->nd : 2; }
/* Innermost algorithms the fused kernels take (choose_fused); the others
 * solve a right-hand-side array with gpu_td_solve. */
static int fusable(pscr_td_algorithm a) { return a == PSCR_TD_AUTO || a == PSCR_TD_CR_PCR_THOMAS; }

/* 3D: the 2D subproblems solved together. Each holds about
 * 1.1 + 2/q1 + (q0+1)/(q0-1) vectors of n2 n3: its y (1), partial sums (0.1),
 * vbuf (2/q1: two rows per block of level 1's step 1) and block slots
 * ((q0+1)/(q0-1) at level 0's step 1; the dense step's n0 + 2 slot rows
 * instead are one fixed set), and innermost systems R (1) where the innermost
 * algorithm is not fused (neither AUTO nor CR_PCR_THOMAS) or level 1 is one
 * dense step (then without vbuf). Together they stay
 * within the option workspace_bytes, by default max(4 |f|, 1 GiB): 1023^3
 * (|f| = 8.6 GB) takes all 1023 subproblems of its dense step at once, about
 * 22 GB besides f and the plan's copy of f, and so does 511^3 with both
 * levels dense (3.3 GB; 3 |f| held 484 of its 511). Fewer at once cost time
 * (H100, dense step, one group against two: 3D Poisson 361^3 9.5 against
 * 11.6 ms, 511^3 25.6 against 27.1; 3D Helmholtz 361^3 52.2 against 58.0). */
size_t gpu_pscr_outer_batch(const pscr_plan *p) {
  if (p->ndim != 3) return 1;
  double e = (double)pscr_dtype_size(p->dtype), len = (double)p->n[1] * (double)p->n[2];
  double q0 = (double)p->lev[0].radix, q1 = (double)p->lev[1].radix, n0 = (double)p->n[0];
  int dense1 = q1 > (double)p->n[1]; /* gemm_step: R of all its systems, no vbuf */
  double per = (1.1 + (fusable(p->innermost) && !dense1 ? 0 : 1) + (dense1 ? 0 : 2 / q1)) * len * e;
  double fixed = 0;
  if (q0 > n0)
    fixed = (n0 + 2) * len * e;
  else
    per += (q0 + 1) / (q0 - 1) * len * e;
  double budget = 4.0 * (double)p->total * e;
  if (budget < 1073741824.0) budget = 1073741824.0;
  if (p->workspace > 0) budget = (double)p->workspace;
  double bt = (budget - fixed) / per;
  if (bt > n0) bt = n0;
  return bt < 1 ? 1 : (size_t)bt;
}

/* The radix of gpu_pscr_level_radix's two steps: above the one-step sizes, up
 * to pscr_steps2 (real) or pscr_steps2z (complex), 2D's level 0 takes two
 * steps of radix q = ceil(sqrt(n0 + 1)) whose sums are products too
 * (gemm_step of gpu_pscr.c): blocks of about q rows, then one block with
 * q - 1 rows D, then the blocks again, so three passes over the lines instead
 * of one, and about 8 q n0 len flops (32 complex) instead of 4 n0^2 len (2D
 * Helmholtz 4095^2: 1.1 TFLOP in one step, 35 GFLOP in two). */
static int steps2_radix(size_t n) {
  size_t q = 2;
  while (q * q < n + 1) q++;
  return (int)q;
}

/* A level in one step where pscr_gemm runs: 3D's level 0 up to n0 =
 * pscr_dense (its two products cost 4 n0^2 n1 n2 flops at GEMM speed and n0
 * 2D solves, against 2 log_q(n0) n0 2D solves in PSCR's steps; H100:
 * bench/RESULTS.md, "The dense outer level"), and the innermost level up
 * to n = pscr_dense_in (2D, real), pscr_dense_inz (2D, complex) or
 * pscr_dense_in3 (3D): 4 n^2 len flops (16 complex) and n tridiagonal
 * systems a vector, against about 2 log_q(n) n ("The dense innermost
 * level"). */
int gpu_pscr_level_radix(const pscr_plan *p, int L) {
  gpu_device g;
  int inner = L == p->ndim - 2;
  if (gpu_pscr_device(p, &g) != PSCR_OK) return p->radix;
  int top = !inner              ? g.tune.pscr_dense
            : p->ndim == 3        ? g.tune.pscr_dense_in3
            : p->dtype == PSCR_F64 ? g.tune.pscr_dense_in
                                   : g.tune.pscr_dense_inz;
  int top2 = !inner || p->ndim == 3 ? 0
             : p->dtype == PSCR_F64 ? g.tune.pscr_steps2
                                    : g.tune.pscr_steps2z;
  size_t n = p->n[L];
  int fits = g.max_wg >= PSCR_GPU_PD_WG &&
             gpu_kernel_cap(&g, 1024, "pscr_gemm", NULL) >= PSCR_GPU_PD_WG;
  if (!fits || n < PSCR_GPU_DENSE_MIN) return p->radix;
  if (n <= (size_t)top) return (int)n + 1;
  return n <= (size_t)top2 ? steps2_radix(n) : p->radix;
}

/* The innermost level's steps run as products (gpu_pscr_level_radix): one
 * dense step, or 2D's two steps. */
static int product_innermost(const pscr_plan *p) {
  const pscr_level *in = &p->lev[p->ndim - 2];
  if (in->n < PSCR_GPU_DENSE_MIN) return 0;
  if (in->nsteps == 1) return (size_t)in->radix > in->n;
  return p->ndim == 2 && in->nsteps == 2 && in->radix == steps2_radix(in->n) &&
         gpu_pscr_level_radix(p, 0) == in->radix;
}

/* Block b of step st as a run of products would take it (gpu_pscr_run):
 * its rows D evenly spaced, and, where it has boundary terms (28), its first
 * and last rows among them (pscr_bsub); 0 where it is not so. */
static int run_block(const pscr_step *st, size_t b, size_t lev_n, gpu_pscr_run *r) {
  const pscr_block *bl = &st->blocks[b];
  const size_t *dp = st->dpos + bl->d;
  if (bl->nd == 0 || bl->m == 0) return 0;
  *r = (gpu_pscr_run){b, 1, bl->m, bl->nd, dp[0], bl->nd > 1 ? dp[1] - dp[0] : 1, 0};
  for (size_t k = 1; k < bl->nd; k++)
    if (dp[k] != dp[0] + k * r->dd) return 0;
  if (bl->s > 0 && dp[0] != 0) return 0;
  if (bl->s + bl->m < lev_n && dp[bl->nd - 1] != bl->m - 1) return 0;
  return 1;
}

/* The runs of a step run as products (into runs, when not NULL); their
 * count, 0 where a block does not fit. */
static size_t step_runs(const pscr_step *st, size_t lev_n, gpu_pscr_run *runs) {
  size_t nrun = 0;
  gpu_pscr_run cur = {0}, r;
  for (size_t b = 0; b < st->nblocks; b++) {
    if (!run_block(st, b, lev_n, &r)) return 0;
    const pscr_block *bl = &st->blocks[b], *pr = b ? &st->blocks[b - 1] : NULL;
    int joins = nrun > 0 && r.m == cur.m && r.nd == cur.nd && r.d0 == cur.d0 && r.dd == cur.dd &&
                bl->comp == pr->comp + (2 + pr->nd) * pr->m && bl->eig == pr->eig + pr->m &&
                bl->e0 == pr->e0 + pr->m && (cur.nb == 1 || bl->s - pr->s == cur.bstep);
    if (joins) {
      cur.bstep = bl->s - pr->s, cur.nb++;
    } else {
      if (nrun > 0 && runs) runs[nrun - 1] = cur;
      cur = r, nrun++;
    }
  }
  if (nrun > 0 && runs) runs[nrun - 1] = cur;
  return nrun;
}

/* A growing host array of the kernels' 64-bit longs (the guide before upload). */
typedef struct {
  int64_t *v;
  size_t n, cap;
} longs;

static int push(longs *a, int64_t x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 1024;
    int64_t *v = realloc(a->v, cap * sizeof *v);
    if (v == NULL) return 0;
    a->v = v, a->cap = cap;
  }
  a->v[a->n++] = x;
  return 1;
}

/* Eigenpairs per task of an innermost step: at most cmax (PSCR_GPU_CHUNK),
 * fewer (down to PSCR_GPU_CHUNK_MIN) until the step has target
 * (PSCR_GPU_TASKS) tasks over the batch, times tiles work-groups a task. A
 * task is one work-group of the fused kernels solving its eigenpairs'
 * systems one after another: 32 per task left the H100 with
 * 512 work-groups at 2D 4095^2 (a wave and a third); more, shorter tasks
 * cost only more partial sums (stage_y2b). */
static size_t task_chunk(const pscr_step *st, size_t batch, size_t tiles, size_t target,
                         size_t cmax) {
  size_t c = cmax;
  for (; c > PSCR_GPU_CHUNK_MIN; c /= 2) {
    size_t tasks = 0;
    for (size_t b = 0; b < st->nblocks; b++) tasks += ceil_div(st->blocks[b].m, c);
    if (tasks * (batch ? batch : 1) * tiles >= target) break;
  }
  return c;
}

/* Partial sums of an innermost block: its tasks of at most chunk eigenpairs
 * (tile engine), or the lane engine's work-groups of chunk consecutive
 * eigenpairs of the step that it touches. */
static size_t block_parts(const pscr_block *bl, size_t chunk, int lane) {
  if (lane) return bl->m ? (bl->e0 + bl->m - 1) / chunk - bl->e0 / chunk + 1 : 1;
  return ceil_div(bl->m, chunk);
}

/* One step's guiding data appended to g; innermost: tasks of at most
 * task_chunk eigenpairs (lane engine: its work-groups), blocks of several
 * get partial-sum slots. tiles: work-groups per task (pscr_reg.h's tiles of
 * a system, which share a task's rows among its eigenpairs: it counts groups,
 * not tasks, up to target), 0: tasks. */
static pscr_status guide_step(const pscr_step *st, int inner, int lane, size_t batch,
                              size_t tiles, size_t target, size_t cmax, longs *g,
                              gpu_pscr_step *gs) {
  size_t chunk = lane    ? PSCR_GPU_LANE_W
                 : inner ? task_chunk(st, batch, tiles ? tiles : 1, target, cmax)
                         : PSCR_GPU_CHUNK;
  size_t dpos = g->n,
         nd_total =
             st->nblocks ? st->blocks[st->nblocks - 1].d + st->blocks[st->nblocks - 1].nd : 0;
  int ok = 1;
  for (size_t r = 0; r < nd_total; r++) ok &= push(g, (int64_t)st->dpos[r]);
  gs->blk = g->n;
  size_t nacc = 0, nmb = 0, ntask = 0;
  for (size_t b = 0; b < st->nblocks && ok; b++) {
    const pscr_block *bl = &st->blocks[b];
    size_t nt = inner ? block_parts(bl, chunk, lane) : 0;
    int64_t f[GB_N];
    f[GB_S] = (int64_t)bl->s, f[GB_M] = (int64_t)bl->m, f[GB_ND] = (int64_t)bl->nd;
    f[GB_D] = (int64_t)(dpos + bl->d), f[GB_EIG] = (int64_t)bl->eig, f[GB_COMP] = (int64_t)bl->comp;
    f[GB_E0] = (int64_t)bl->e0;
    f[GB_VS] = inner ? (int64_t)(2 * b) : (int64_t)bl->slot;
    f[GB_BS] = inner ? (int64_t)(2 * b) : (int64_t)(bl->slot + nout(bl));
    f[GB_NT] = (int64_t)nt, f[GB_ACC0] = nt > 1 ? (int64_t)nacc : -1;
    if (nt > 1) nacc += nt, nmb++;
    ntask += nt;
    for (int k = 0; k < GB_N; k++) ok &= push(g, f[k]);
  }
  gs->eblk = g->n;
  for (size_t b = 0; b < st->nblocks && ok; b++)
    for (size_t l = 0; l < st->blocks[b].m; l++) ok &= push(g, (int64_t)b);
  gs->upd = g->n;
  for (size_t u = 0; u < st->nupd && ok; u++)
    ok &= push(g, (int64_t)st->upd[u].row) && push(g, st->upd[u].left) && push(g, st->upd[u].right);
  if (!ok) return PSCR_ERR_OUT_OF_MEMORY;
  gs->nacc = nacc, gs->ntask = ntask, gs->nmb = nmb, gs->tmax = 0;
  for (size_t b = 0; b < st->nblocks; b++)
    if (st->blocks[b].m > gs->tmax) gs->tmax = st->blocks[b].m < chunk ? st->blocks[b].m : chunk;
  if (!inner) return PSCR_OK;
  gs->task = g->n;
  gs->tofs = malloc((st->nblocks + 1) * sizeof *gs->tofs);
  gs->mb = malloc((nmb ? nmb : 1) * sizeof *gs->mb);
  if (gs->tofs == NULL || gs->mb == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  nacc = nmb = ntask = 0;
  for (size_t b = 0; b < st->nblocks && ok; b++) {
    size_t m = st->blocks[b].m, nt = block_parts(&st->blocks[b], chunk, lane);
    gs->tofs[b] = ntask;
    for (size_t t = 0; t < nt; t++) /* balanced slices l0 .. l1 - 1 */
      ok &= push(g, (int64_t)b) && push(g, (int64_t)(m * t / nt)) &&
            push(g, (int64_t)(m * (t + 1) / nt)) && push(g, nt > 1 ? (int64_t)(nacc + t) : -1);
    if (nt > 1) nacc += nt, gs->mb[nmb++] = b;
    ntask += nt;
  }
  gs->tofs[st->nblocks] = ntask;
  gs->mblk = g->n;
  for (size_t k = 0; k < nmb && ok; k++) ok &= push(g, (int64_t)gs->mb[k]);
  return ok ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
}

/* Device memory of the plan: `bytes`, counted in the plan's device_bytes. */
static pscr_status alloc_bytes(pscr_plan *p, size_t bytes, void **out) {
  pscr_status st = pscr_alloc_internal(p->ctx, bytes ? bytes : 1, out);
  if (st != PSCR_OK)
    *out = NULL;
  else
    p->bytes += bytes ? bytes : 1;
  return st;
}

static pscr_status upload(pscr_plan *p, const void *host, size_t bytes, void **out) {
  pscr_status st = alloc_bytes(p, bytes, out);
  if (st == PSCR_OK && bytes > 0) st = p->ctx->ops->write(p->ctx, *out, 0, host, bytes);
  return st;
}

/* The unfused solves' A and M in td_reg.h's tile order, made by the first
 * solve that takes those kernels and kept (gpu_td_perm, gpu_tile.c's
 * reg_perm): six diagonals of at most max(2 n + 32, 512) rows, each aligned.
 * One tile rounds n / q up to a power of 2 of at least 32 work-items of
 * q <= 16 rows; several tiles of T < n rows make nt T < 2 n. A shape that
 * does not fit (a larger lone tile) takes the work area, as without. */
static pscr_status perm_cache(pscr_plan *p, size_t n, size_t e) {
  gpu_pscr *s = p->impl;
  void *buf = NULL;
  size_t rows = 2 * n + 32 > 512 ? 2 * n + 32 : 512;
  size_t cap = 6 * (rows * e + 4096);
  s->perm = calloc(1, sizeof *s->perm);
  if (s->perm == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  pscr_status st = alloc_bytes(p, cap, &buf);
  if (st == PSCR_OK) *s->perm = (gpu_td_perm){.buf = {buf, 0, 0}, .cap = cap};
  return st;
}

/* sub[i] = off[i-1], sub[0] = 0: gpu_td_src's sub-diagonal from the symmetric off-diagonal. */
static pscr_status upload_sub(pscr_plan *p, const void *off, size_t n, void **out) {
  size_t e = pscr_dtype_size(p->dtype);
  char *h = calloc(n, e);
  if (h == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  if (n > 1 && off) memcpy(h + e, off, (n - 1) * e);
  pscr_status st = upload(p, h, n * e, out);
  free(h);
  return st;
}

static int pow2_at_least(size_t v) {
  int w = 1;
  while ((size_t)w < v && w < (1 << 30)) w *= 2;
  return w;
}

static size_t tile_need(const gpu_pscr *s, int w, int lq, size_t rows) {
  size_t q = (size_t)1 << lq, ex = (size_t)s->ex; /* PSCR_EX_FIELDS of pscr_tile.h */
  return (4 * (q + 1) + 2 * (8 + 2 * ex)) * (size_t)w + s->accq * rows; /* + accumulators */
}

/* The row excess of A_last and M_last (2 n scalars of dtype t into x, with
 * the signs of A_last's off-diagonal; zero: n zeros for a diagonal M). */
static void row_excess(pscr_dtype t, const pscr_factor *f, const void *zero, void *x) {
  size_t n = f->n;
  const void *mo = f->m_off ? f->m_off : zero;
  if (t == PSCR_F64) {
    eigen_row_excess_d(n, f->a_diag, f->a_off, f->a_off, x);
    eigen_row_excess_d(n, f->m_diag, mo, f->a_off, (double *)x + n);
  } else {
    eigen_row_excess_z(n, f->a_diag, f->a_off, f->a_off, x);
    eigen_row_excess_z(n, f->m_diag, mo, f->a_off, (double complex *)x + n);
  }
}

/* sub[0] in the excess form of the fused kernels (PSCR_TILE_LQ of
 * pscr_tile.h) for complex problems (Helmholtz: shifts c + lambda that make
 * the innermost systems indefinite; gpu_pscr_plan_init):
 * A_last's sub-diagonal, then the row excess of A_last and of M_last
 * (eigen_row_excess, with the signs k of A_last's off-diagonal, as the CPU
 * backend's Thomas sweep) and the row signs g (g_0 = 1, g_i+1 = -k_i g_i) that
 * give every edge the sign k = -1; 4 n scalars (C128). */
static pscr_status upload_sub_excess(pscr_plan *p, const pscr_factor *f, void **out) {
  size_t n = f->n;
  double complex *h = calloc(5 * n + 1, sizeof *h), *x = h + n;
  if (h == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  const double complex *ao = f->a_off;
  if (n > 1) memcpy(h + 1, ao, (n - 1) * sizeof *h);
  row_excess(PSCR_C128, f, h + 4 * n, x);
  x[2 * n] = 1;
  for (size_t i = 0; i + 1 < n; i++) /* g_i+1 = -k_i g_i */
    x[2 * n + i + 1] = creal(ao[i]) < 0 ? x[2 * n + i] : -x[2 * n + i];
  pscr_status st = upload(p, h, 4 * n * sizeof *h, out);
  free(h);
  return st;
}

/* The tiles' record merge (td_tile_gup / td_tile_gdown) of sys systems of
 * s->ntile tiles: its groups of 2 merge_w records, levels and buffers
 * (tw: the module's TD_TW where local arrays are static); fused = 2 where
 * it fits, else it stays 0. */
static pscr_status record_merge(pscr_plan *p, gpu_device *g, int tw, size_t sys) {
  gpu_pscr *s = p->impl;
  size_t e = pscr_dtype_size(p->dtype);
  int maxw = g->max_wg < 1024 ? (int)g->max_wg : 1024;
  maxw = gpu_kernel_cap(g, maxw, "td_tile_gup", "td_tile_gdown");
  int mw = g->static_local ? tw : g->tune.merge_w;
  if (!g->static_local)
    while (mw > 32 && (mw > maxw || (size_t)(32 * mw) * e > g->local_bytes)) mw /= 2;
  if (mw < 1 || mw > maxw) return PSCR_OK;
  if (s->ex) mw /= 2; /* td_tile_gup / gdown in excess form: 10 fields x 4 mw within 32 TD_TW */
  if (mw < 1) return PSCR_OK;
  gpu_merge_shape(mw, s->ntile, g->static_local, g->tune.merge_multi, &mw, &s->merge_spg);
  s->merge_w = mw;
  s->merge_local = g->static_local ? 0 : (size_t)((s->ex ? 40 : 32) * mw) * e;
  s->pc[0] = s->ntile, s->levels = 0;
  while (s->pc[s->levels] > 1 && s->levels < PSCR_GPU_LEVELS - 1) {
    s->pc[s->levels + 1] = (s->pc[s->levels] + 2 * mw - 1) / (2 * mw);
    s->levels++;
  }
  pscr_status st = PSCR_OK;
  for (int l = 0; l <= s->levels && st == PSCR_OK; l++) {
    st = alloc_bytes(p, (s->ex ? 8 : 6) * sys * (size_t)s->pc[l] * e, &s->recs[l]);
    if (st == PSCR_OK) st = alloc_bytes(p, 2 * sys * (size_t)s->pc[l] * e, &s->outs[l]);
  }
  if (st == PSCR_OK) s->fused = 2;
  return st;
}

/* The fused multi-tile shape (tuned pscr_tw x pscr_tq rows, halved to fit: on
 * the H100 32 work-items beat 128 by 15-25 % at 2D 4095^2 and 8191^2,
 * Poisson and Helmholtz, as more tiles are in flight; complex: q = 4 beat 8
 * by 16 % on Helmholtz 2047^2 .. 8191^2 (C128: 40 KB a tile at q = 8, 5
 * groups an SM); real: q = 8 (q = 4: CUDA 1-4 % faster, OpenCL 24 % slower)),
 * then the record merge; fused stays 0 where none fits. */
static pscr_status choose_multi(pscr_plan *p, gpu_device *g, size_t cap, int tw, size_t sys) {
  gpu_pscr *s = p->impl;
  size_t e = pscr_dtype_size(p->dtype), n = p->n[p->ndim - 1];
  int maxw = g->max_wg < 1024 ? (int)g->max_wg : 1024, w = g->tune.pscr_tw, lq = 1;
  int tmax = gpu_kernel_cap(g, maxw, "pscr_tile_fwd", "pscr_tile_bwd");
  int tq = g->tune.pscr_tq ? g->tune.pscr_tq : p->dtype == PSCR_C128 ? 4 : 8;
  while ((1 << (lq + 1)) <= tq) lq++;
  while (w > tmax) w /= 2;
  while (w > 32 && tile_need(s, w, lq, (size_t)w << lq) > cap) w /= 2;
  while (lq > 1 && tile_need(s, w, lq, (size_t)w << lq) > cap) lq--;
  if (tile_need(s, w, lq, (size_t)w << lq) > cap) return PSCR_OK;
  s->tile_w = w, s->tile_lq = lq;
  s->tile_t = (int64_t)w << lq, s->ntile = ((int64_t)n + s->tile_t - 1) / s->tile_t;
  s->tile_local = g->static_local ? 0 : tile_need(s, w, lq, (size_t)s->tile_t) * e;
  return record_merge(p, g, tw, sys);
}

/* pscr_reg.h's local scalars for E sub-groups of sw: PR_F = 6 +
 * PSCR_GPU_REG_RD fields of sw (8 + 1), then the node area of 8 x 2 E sw. */
size_t gpu_pscr_reg_need(int sw, int E) {
  return (size_t)(6 + PSCR_GPU_REG_RD) * (PSCR_GPU_REG_Q + 1) * (size_t)sw +
         16 * (size_t)sw * (size_t)E;
}

/* The local scalars of pscr_reg.h's lane kernels in groups of wg: the tile
 * (PR_F S2 with S2 = 9 PSCR_GPU_REG_TSW) for pscr_reg_fwdl; for
 * pscr_reg_bwdl (bwd = 1, its comment) also the sums PR_RD S2, the chunk's
 * x PR_BR (wg + 1), the weights and parts 2 PR_RD wg. */
size_t gpu_pscr_reg_local(int wg, int bwd) {
  size_t br = PSCR_GPU_REG_BR, w = (size_t)wg;
  size_t s2 = (PSCR_GPU_REG_Q + 1) * PSCR_GPU_REG_TSW, tile = gpu_pscr_reg_need(PSCR_GPU_REG_TSW, 0);
  if (!bwd) return tile;
  return tile + (size_t)PSCR_GPU_REG_RD * s2 + br * (w + 1) + 2 * PSCR_GPU_REG_RD * w;
}

int gpu_pscr_lane_wg(size_t tmax, int lo, int hi) {
  int w = lo < hi ? lo : hi;
  while (w < hi && (size_t)w < tmax) w *= 2;
  return w;
}

/* pscr_reg_bwdl's checkpoints (2 T / PR_BR a work-item) for the largest of
 * the innermost steps that take it (batch B); without room for them pass 3
 * keeps the sub-groups. */
static pscr_status reg_checkpoints(pscr_plan *p, size_t B) {
  gpu_pscr *s = p->impl;
  const pscr_level *in = &p->lev[p->ndim - 2];
  size_t lanes = 0, per = 2 * PSCR_GPU_REG_Q * PSCR_GPU_REG_TSW / PSCR_GPU_REG_BR;
  for (int i = 0; i < in->nsteps && s->reg_bwdl > 0; i++) {
    const gpu_pscr_step *gs = &s->steps[p->ndim - 2][i];
    size_t v = gs->ntask * (size_t)gpu_pscr_lane_wg(gs->tmax, 64, s->reg_blwg);
    if (gs->tmax >= (size_t)s->reg_bwdl && v > lanes) lanes = v;
  }
  if (lanes == 0) return PSCR_OK;
  pscr_status st = alloc_bytes(p, per * lanes * (size_t)s->ntile * B * pscr_dtype_size(p->dtype),
                               &s->ckp);
  if (st == PSCR_ERR_OUT_OF_MEMORY) s->reg_bwdl = 0, st = PSCR_OK;
  return st;
}

/* pscr_reg.h's comment: A_last, M_last (4 PR_MS, PR_MS = PR_MR + 1), then a
 * task's rows PR_MX = (PR_RD + 2) PR_MS and its field offsets (PR_RD + 2, a
 * scalar each); pass 3 adds the outputs' offsets (PR_RD), the checkpoints
 * (2 T / PR_MR wg), the chunk's x (PR_MR (wg + 1)) and the weights (PR_RD wg). */
size_t gpu_pscr_reg_mlocal(int G, int wg, int bwd) {
  size_t ms = PSCR_GPU_REG_MR + 1, nf = PSCR_GPU_REG_RD + 2, w = (size_t)wg, rd = PSCR_GPU_REG_RD;
  size_t T = PSCR_GPU_REG_Q * PSCR_GPU_REG_TSW, v = 4 * ms + (size_t)G * (nf * ms + nf);
  if (bwd) v += (size_t)G * rd + 2 * (T / PSCR_GPU_REG_MR) * w + PSCR_GPU_REG_MR * (w + 1) + rd * w;
  return v;
}

/* The work-items per system of pscr_reg.h's tiles: one tile where n <= 8
 * pscr_rsw rows, else tiles of 8 PSCR_GPU_REG_TSW (its 2^PR_TLSW). */
static int reg_sw(const pscr_plan *p, const gpu_device *g) {
  size_t n = p->n[p->ndim - 1];
  int sw = g->tune.pscr_rsw;
  return n <= PSCR_GPU_REG_Q * (size_t)sw ? pow2_at_least(ceil_div(n, PSCR_GPU_REG_Q))
                                         : PSCR_GPU_REG_TSW;
}

/* pscr_reg.h's shape within the kernels' limits and cap local scalars (cap1
 * in a module of the plan's own, where local arrays are static): one tile
 * (fused = 1) or several and the record merge (fused = 2); fused stays 0
 * where none fits. */
static pscr_status choose_reg(pscr_plan *p, gpu_device *g, size_t cap, size_t cap1, int tw,
                              size_t sys) {
  gpu_pscr *s = p->impl;
  size_t e = pscr_dtype_size(p->dtype), n = p->n[p->ndim - 1];
  int sw = reg_sw(p, g), wg = g->tune.pscr_rwg, lsw = 0;
  int maxw = g->max_wg < 1024 ? (int)g->max_wg : 1024;
  maxw = gpu_kernel_cap(g, maxw, "pscr_reg_fwd", "pscr_reg_bwd");
  maxw = gpu_kernel_cap(g, maxw, "pscr_reg_task", NULL);
  if (wg > maxw) wg = maxw;
  if (wg < sw) wg = sw;
  while (wg > sw && gpu_pscr_reg_need(sw, wg / sw) > cap) wg /= 2;
  if (wg > maxw || gpu_pscr_reg_need(sw, wg / sw) > cap) return PSCR_OK;
  while ((1 << lsw) < sw) lsw++;
  s->reg_lsw = lsw, s->reg_wg = wg, s->tile_w = sw, s->tile_lq = 3;
  s->tile_local = g->static_local ? 0 : gpu_pscr_reg_need(sw, wg / sw) * e;
  s->tile_t = (int64_t)sw * PSCR_GPU_REG_Q, s->ntile = ((int64_t)n + s->tile_t - 1) / s->tile_t;
  if (s->ntile == 1) {
    s->fused = 1;
    return PSCR_OK;
  }
  /* static local arrays sized per module (OpenCL on GPUs): the default
   * module's hold one sub-group's tile (NVIDIA: 3328 scalars, so one
   * sub-group a group and no pass 3 on the lanes); a module of the plan's
   * own holds the tuned groups and pass 3's lanes in groups of 64 */
  size_t want = gpu_pscr_reg_need(sw, g->tune.pscr_rwg / sw);
  if (gpu_pscr_reg_local(64, 1) > want) want = gpu_pscr_reg_local(64, 1);
  want = ceil_div(want, 512) * 512 < cap1 ? ceil_div(want, 512) * 512 : cap1;
  if (g->static_local && want > cap) {
    s->mod_local = want, cap = want;
    pscr_status st = gpu_pscr_device(p, g);
    if (st != PSCR_OK) return st;
    for (wg = g->tune.pscr_rwg < maxw ? g->tune.pscr_rwg : maxw; wg > sw; wg /= 2)
      if (gpu_pscr_reg_need(sw, wg / sw) <= cap) break;
    s->reg_wg = wg;
  }
  /* the lane passes: pass 1 needs the tile alone (it fits, as above); pass 3
   * where its local memory fits groups of 64 work-items or more (fewer only
   * where pscr_rlwg asks: unmeasured, e.g. OpenCL's 48 KiB on NVIDIA) */
  int lw = g->tune.pscr_rlwg, lmax = gpu_kernel_cap(g, 1024, "pscr_reg_fwdl", "pscr_reg_bwdl");
  if (lmax > (int)g->max_wg) lmax = (int)g->max_wg;
  while (lw > 32 && lw > lmax) lw /= 2;
  s->reg_fwdl = s->reg_bwdl = 0;
  if (lw <= lmax) {
    s->reg_lwg = lw, s->reg_fwdl = g->tune.pscr_rfwdl;
    while (lw > 64 && gpu_pscr_reg_local(lw, 1) > cap) lw /= 2;
    if (gpu_pscr_reg_local(lw, 1) <= cap) s->reg_blwg = lw, s->reg_bwdl = g->tune.pscr_rbwdl;
  }
  /* several tasks a group (pscr_reg_fwdm / bwdm; the launch fits G to cap) */
  int mw = g->tune.pscr_rmwg, mmax = gpu_kernel_cap(g, 1024, "pscr_reg_fwdm", "pscr_reg_bwdm");
  if (mmax > (int)g->max_wg) mmax = (int)g->max_wg;
  while (mw > 32 && mw > mmax) mw /= 2;
  s->reg_fwdm = s->reg_bwdm = 0, s->reg_mwg = mw, s->reg_cap = cap;
  if (mw <= mmax && gpu_pscr_reg_mlocal(1, 1, 0) <= cap) s->reg_fwdm = g->tune.pscr_rfwdm;
  if (mw <= mmax && gpu_pscr_reg_mlocal(1, 1, 1) <= cap) s->reg_bwdm = g->tune.pscr_rbwdm;
  return record_merge(p, g, tw, sys);
}

/* The fused innermost kernels (pscr_tile.h) with AUTO and CR_PCR_THOMAS: one
 * tile per system where it fits (W work-items, a power of 2 from 32 to the
 * tuned pscr_w, x q rows, q from 4 up to 64), else several
 * (choose_multi); local memory for the tile and the accumulators within the
 * device's (a static local array: the module's TD_TILE_LOCAL, read by
 * pscr_probe). */
static pscr_status choose_fused(pscr_plan *p, gpu_device *g, size_t sys) {
  gpu_pscr *s = p->impl;
  size_t e = pscr_dtype_size(p->dtype), n = p->n[p->ndim - 1], cap;
  int tw = 0;
  if (!fusable(p->innermost)) return PSCR_OK; /* unfused: gpu_td_solve's algorithms */
  s->pivot = p->innermost == PSCR_TD_AUTO ? -1 : 0;
  if (g->static_local) {
    double probe[4] = {0, 0, 0, 0};
    gpu_arg args[] = {GPU_PTR(((gpu_ptr){s->probe, 0, 0}))};
    pscr_status st = g->launch(g, "pscr_probe", 1, 1, 0, 1, args);
    if (st == PSCR_OK) st = p->ctx->ops->read(p->ctx, s->probe, 0, probe, 2 * e);
    if (st != PSCR_OK) return st;
    cap = probe[0] > 0 ? (size_t)probe[0] : 0;
    double t = p->dtype == PSCR_C128 ? probe[2] : probe[1];
    tw = t > 0 && t < 65536 ? (int)t : 0;
  } else {
    cap = g->local_bytes > 64 ? (g->local_bytes - 64) / e : 0; /* room for the kernel's ints */
  }
  /* One tile: q rows per work-item (at most the tuned tile_q) and as many
   * work-items as that takes, up to the kernel's limit. The fused kernel
   * solves its task's systems one after another, so its latency is the
   * per-item chain (q rows) and the merge. H100 sweeps (bench/RESULTS.md):
   * 2D, few systems per level: q = 4 and wide tiles (2047^2: W = 512 beat
   * 128 by 1.8x); 3D, n^2 systems per level: q = 8, 10-20 % faster than
   * q = 4 at Poisson 180^3 .. 511^3 and 4-6 % at Helmholtz 180^3, 361^3
   * (15 % slower at Helmholtz 255^3). */
  /* static local arrays sized per module (OpenCL on GPUs): a one-tile shape
   * may use the device's local memory, in a module of its own (mod_local);
   * with the default module's arrays, 3D 361^3 .. 511^3 fell to the slower
   * multi-tile path (H100: OpenCL 2.1-2.3x CUDA's time) */
  size_t cap1 = cap;
  if (g->static_local && g->shrink_local && g->local_bytes > 256) cap1 = (g->local_bytes - 256) / e;
  if (g->tune.pscr_local > 0) { /* the tuned cap, as OpenCL's module reserve */
    size_t lim = ((size_t)g->tune.pscr_local - 256) / e;
    cap = cap < lim ? cap : lim, cap1 = cap1 < lim ? cap1 : lim;
  }
  if (s->reg) { /* pscr_reg.h where it fits, else the tiles below */
    pscr_status st = choose_reg(p, g, cap, cap1, tw, sys);
    if (st != PSCR_OK || s->fused) return st;
    s->reg = 0;
  }
  int maxw = g->max_wg < 1024 ? (int)g->max_wg : 1024, lq0 = 1;
  maxw = gpu_kernel_cap(g, maxw, "pscr_tile_task", NULL);
  int lqmax = p->ndim == 3 ? 3 : 2;
  while ((1 << (lq0 + 1)) <= g->tune.tile_q && lq0 < lqmax) lq0++;
  for (int lq = lq0; lq <= 6; lq++) {
    size_t q = (size_t)1 << lq;
    int w = pow2_at_least((n + q - 1) / q);
    if (w < 32) w = 32;
    size_t need = tile_need(s, w, lq, n);
    if (w > maxw || w > g->tune.pscr_w || need > cap1) continue;
    s->fused = 1, s->tile_w = w, s->tile_lq = lq;
    s->tile_local = g->static_local ? 0 : need * e;
    if (need <= cap) return PSCR_OK;
    /* the plan's own module, current from here on (sizes rounded: shared by plans) */
    s->mod_local = ceil_div(need, 512) * 512 < cap1 ? ceil_div(need, 512) * 512 : cap1;
    return gpu_pscr_device(p, g);
  }
  return choose_multi(p, g, cap, tw, sys);
}

/* Unfused: builds the module and grows the context's work buffer to this plan's
 * largest solve (a zero right-hand side: a singular or non-finite answer is
 * of no concern here, every other failure is). */
static pscr_status warm_up(pscr_plan *p, size_t sys) {
  gpu_pscr *s = p->impl;
  gpu_device g;
  size_t e = pscr_dtype_size(p->dtype), n = p->n[p->ndim - 1];
  pscr_status st = gpu_pscr_device(p, &g);
  if (st == PSCR_OK) st = g.zero(&g, (gpu_ptr){s->r, 0, 0}, sys * n * e);
  if (st == PSCR_OK) st = g.zero(&g, (gpu_ptr){s->rshift, 0, 0}, sys * e);
  pscr_td_algorithm algs[2] = {p->innermost, p->innermost};
  if (p->innermost == PSCR_TD_AUTO) /* both of AUTO's choices */
    algs[0] = PSCR_TD_CR_PCR_THOMAS, algs[1] = PSCR_TD_SPIKE_DIAG_PIVOT;
  for (int k = 0; k < 2 && st == PSCR_OK; k++) {
    st = gpu_pscr_solve_inner(p, &g, 0, sys, s->queued ? PSCR_TD_CR_PCR_THOMAS : algs[k],
                              s->queued);
    if (st == PSCR_ERR_SINGULAR || st == PSCR_ERR_NONFINITE) st = PSCR_OK;
  }
  return st;
}

/* The routes of a step's systems from their classes (cls[k] = 1: a row not
 * strictly dominant): runs of one class, dominant ones shorter than
 * PSCR_GPU_ROUTE_MIN joined to their SPIKE_DIAG_PIVOT neighbours; more
 * than PSCR_GPU_ROUTE_MAX routes become one. Returns their count (r: ne). */
static size_t make_routes(const int *cls, size_t ne, gpu_pscr_route *r) {
  size_t nr = 0;
  int any = 0;
  for (size_t k = 0, e; k < ne; k = e) {
    for (e = k; e < ne && cls[e] == cls[k];) e++;
    int pivot = cls[k] || e - k < PSCR_GPU_ROUTE_MIN;
    pscr_td_algorithm alg = pivot ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
    any |= pivot;
    if (nr > 0 && r[nr - 1].alg == alg)
      r[nr - 1].n += e - k;
    else
      r[nr++] = (gpu_pscr_route){k, e - k, alg};
  }
  if (nr > PSCR_GPU_ROUTE_MAX) /* one solve, pivoting if a system needs it */
    r[0] = (gpu_pscr_route){0, ne, any ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS}, nr = 1;
  return nr;
}

/* 2D steps run as products on the tridiagonal engine under AUTO: its test
 * made once, here, system by system from the step's shifts c + lambda_e (into
 * rshift), and the systems routed: a solve enqueues CR_PCR_THOMAS for the runs
 * of dominant systems and SPIKE_DIAG_PIVOT for the others, without the scan
 * and the wait for it (H100, 2D Helmholtz 4095^2: three scans of 0.15 ms, and
 * one system not dominant sent its whole step to SPIKE's tiles). */
static pscr_status route_auto(pscr_plan *p, const pscr_problem *pb) {
  gpu_pscr *s = p->impl;
  const pscr_level *lev = &p->lev[0];
  size_t e = pscr_dtype_size(p->dtype), ne = 0;
  for (int i = 0; i < lev->nsteps; i++)
    if (lev->steps[i].neig > ne) ne = lev->steps[i].neig;
  gpu_device g;
  void *dcls = NULL;
  pscr_status st = gpu_pscr_device(p, &g);
  char *lam = malloc((lev->neig + 1) * e), *sh = malloc((ne + 1) * e);
  int *cls = malloc((ne + 1) * sizeof *cls);
  if (lam == NULL || sh == NULL || cls == NULL) st = PSCR_ERR_OUT_OF_MEMORY;
  if (st == PSCR_OK) st = pscr_alloc_internal(p->ctx, (ne + 1) * sizeof *cls, &dcls);
  if (st == PSCR_OK) st = p->ctx->ops->read(p->ctx, lev->lambda, 0, lam, lev->neig * e);
  for (int i = 0; i < lev->nsteps && st == PSCR_OK; i++) {
    const pscr_step *stp = &lev->steps[i];
    gpu_pscr_step *gs = &s->steps[0][i];
    size_t eig0 = stp->nblocks ? stp->blocks[0].eig : 0; /* the step's lambdas run on */
    for (size_t k = 0; k < stp->neig; k++) {
      if (p->dtype == PSCR_F64) {
        ((double *)sh)[k] = pb->c_re + ((const double *)lam)[eig0 + k];
      } else {
        const double *l = (const double *)lam + 2 * (eig0 + k);
        ((double *)sh)[2 * k] = pb->c_re + l[0], ((double *)sh)[2 * k + 1] = pb->c_im + l[1];
      }
    }
    st = p->ctx->ops->write(p->ctx, s->rshift, 0, sh, stp->neig * e);
    if (st == PSCR_OK) st = gpu_pscr_scan_systems(p, &g, stp->neig, dcls);
    if (st == PSCR_OK) st = p->ctx->ops->read(p->ctx, dcls, 0, cls, stp->neig * sizeof *cls);
    gs->routes = st == PSCR_OK ? malloc((stp->neig + 1) * sizeof *gs->routes) : NULL;
    if (st == PSCR_OK && gs->routes == NULL) st = PSCR_ERR_OUT_OF_MEMORY;
    if (st == PSCR_OK) gs->nroute = make_routes(cls, stp->neig, gs->routes);
  }
  if (dcls) p->ctx->ops->release(p->ctx, dcls);
  free(lam), free(sh), free(cls);
  return st;
}

/* Every innermost matrix of a real AUTO plan provably positive definite. */
static int real_definite(const pscr_plan *p, const pscr_problem *pb) {
  const pscr_factor *f = &pb->dim[p->ndim - 1];
  const double *ad = f->a_diag, *ao = f->a_off, *md = f->m_diag, *mo = f->m_off;
  double ga = INFINITY, amax = 0, mlo = INFINITY, mhi = 0;
  for (size_t i = 0; i < f->n; i++) {
    double ra = 0, rm = 0;
    if (i > 0) ra += fabs(ao[i - 1]), rm += mo ? fabs(mo[i - 1]) : 0;
    if (i + 1 < f->n) ra += fabs(ao[i]), rm += mo ? fabs(mo[i]) : 0;
    ga = fmin(ga, ad[i] - ra), amax = fmax(amax, fabs(ad[i]) + ra);
    mlo = fmin(mlo, md[i] - rm), mhi = fmax(mhi, md[i] + rm);
  }
  if (!(mlo > 0)) return 0;
  double bound = ga >= 0 ? ga / mhi : ga / mlo, smin = pb->c_re; /* bound <= lambda_min */
  for (int L = 0; L < p->ndim - 1; L++) smin += p->lev[L].lambda_min;
  return smin + bound > 64 * DBL_EPSILON * (fabs(smin) + amax / mlo);
}

/* pscr_reg.h's kernels (no pivoting): real data with CR_PCR_THOMAS, or AUTO
 * where every innermost matrix is provably definite (real_definite), and
 * blocks of at most PSCR_GPU_REG_RD rows D. Complex data stays on the tiles,
 * whose excess form keeps Helmholtz accurate (H100, 2D Helmholtz 4095^2 with
 * CR_PCR_THOMAS on these kernels: 19.3 ms at residual 1.7e-10, against
 * 43.5 ms at 5.3e-13 on the tiles with AUTO). */
static int reg_engine(const pscr_plan *p, const pscr_problem *pb, const gpu_device *g) {
  if (!g->tune.pscr_reg || p->dtype != PSCR_F64) return 0;
  if (p->innermost == PSCR_TD_AUTO ? !real_definite(p, pb)
                                   : p->innermost != PSCR_TD_CR_PCR_THOMAS)
    return 0;
  const pscr_level *in = &p->lev[p->ndim - 2];
  for (int i = 0; i < in->nsteps; i++)
    if (in->steps[i].max_nd > PSCR_GPU_REG_RD) return 0;
  return 1;
}

/* Which innermost engine: 0 the tiles, 1 the lane engine (kernels/common/
 * pscr_lane.h) with Thomas throughout, 2 the lane engine with the per-system
 * test and diagonal pivoting where it fails. 1: CR_PCR_THOMAS (no pivoting
 * asked for), and AUTO on real data where every
 * innermost matrix A_last + s M_last, s = c + lambda (+ lambda of level 0 in
 * 3D), is provably positive definite, so that Thomas is backward stable (1):
 * s_min + (a lower bound of the pencil's smallest eigenvalue, from
 * Gershgorin discs of A_last and M_last) > 0 with a margin for rounding.
 * Poisson's factors pass (s_min >= lambda_min(A_0, M_0) > 0). Other AUTO
 * problems (complex Helmholtz, indefinite real) take it with the test (2):
 * every system is tested in its forward sweep, and those that fail are
 * solved with diagonal pivoting in their lane. */
static int lane_engine(const pscr_plan *p, const pscr_problem *pb, const gpu_device *g) {
  if (!g->tune.pscr_lane) return 0;
  /* a lines plan (a dense step's systems, complex or not proven definite):
   * with many lines a lane a line, in excess form (pscr_lane_task's lines
   * mode; AUTO tests and pivots). H100, 3D Helmholtz: 361^3 20.0 against
   * 24.6 ms on the tiles, 255^3 5.4 / 6.1, 127^3 (16129 lines) 0.68 / 0.63;
   * 2D's few lines leave the lanes latency-bound (4095^2: 39.0 / 30.9). */
  if (p->lines) {
    if (g->tune.pscr_lane == 3 && p->lines < PSCR_GPU_LANE_LINES) return 0;
    return p->innermost == PSCR_TD_AUTO || g->tune.pscr_lane == 2 ? 2 : 1;
  }
  /* H100 (bench/RESULTS.md, "lane engine"): with one system a work-item, a
   * 2D step fills a few dozen warps, each bound by its instruction latency
   * (the tiles: 3x-17x faster); 3D steps fill the GPU, and the lanes beat the
   * tiles on complex Helmholtz (1.1x-1.6x) and, with the plain kernel, on
   * real data proven definite (3D Poisson 255^3-511^3: 1.5x-1.7x) */
  int measured = g->tune.pscr_lane == 3, lanes;
  if (measured && p->ndim != 3) return 0;
  if (p->innermost == PSCR_TD_CR_PCR_THOMAS)
    lanes = 1;
  else if (p->innermost != PSCR_TD_AUTO)
    return 0;
  else
    lanes = p->dtype != PSCR_F64 || !real_definite(p, pb) ? 2 : 1;
  /* real 3D: the plain kernel (pscr_lane_plain) beats the tiles from n = 127
   * on (H100, Poisson: 127^3 5.6 vs 6.0 ms, 180^3 9.0 vs 13.6; 90^3 3.7 vs
   * 3.3), the test and pivoting kernel nowhere; pscr_reg.h's one-tile kernel
   * beats the plain lanes where it takes the system (n <= 8 pscr_rsw; H100,
   * Poisson, tenth session: 127^3 2.49 vs 3.93 ms, 180^3 6.46 vs 7.03, 255^3
   * 13.0 vs 15.9); as two tiles where they are nearly full (eleventh session:
   * 511^3 147 vs 167 ms; 361^3, 70 % full, 74 vs 68; 1023^3 not measured) */
  size_t n = p->n[p->ndim - 1], T = PSCR_GPU_REG_Q * PSCR_GPU_REG_TSW;
  int reg = measured && p->dtype == PSCR_F64 && lanes == 1 && reg_engine(p, pb, g);
  if (reg && (n <= PSCR_GPU_REG_Q * (size_t)g->tune.pscr_rsw || (n <= 2 * T && 8 * n >= 14 * T)))
    return 0;
  if (measured && p->dtype == PSCR_F64 && (lanes == 2 || n < PSCR_GPU_LANE_MIN_N)) return 0;
  return lanes;
}

size_t gpu_pscr_lane_rows(void) {
  long v = gpu_define_of(getenv("PSCR_KERNEL_DEFINES"), "PSCR_LANE_R", 0);
  return v >= 2 && v <= 64 ? (size_t)v : 8;
}

/* Whether a slab kernel can take the innermost level (slab_fits of
 * gpu_pscr.c but for the tuning and the step's shape). */
static int slab_may_fit(const pscr_plan *p) {
  const gpu_pscr *s = p->impl;
  const pscr_level *in = &p->lev[p->ndim - 2];
  int z = p->dtype == PSCR_C128;
  int fits = in->n * in->len <= PSCR_GPU_PD_SLAB || PSCR_GPU_SLAB64_SHAPE(z, in->n, in->len) ||
             PSCR_GPU_SLAB128_SHAPE(z, p->ndim, in->n, in->len);
  return s->dense && s->queued && !s->lines && in->nsteps == 1 && fits && s->sub[0] &&
         (s->m_diag || s->sub[1]);
}

/* gpu_pscr.slab_scr where pscr_slab128 may take the level: zeros (its
 * tickets). */
static pscr_status slab_scratch(pscr_plan *p) {
  gpu_pscr *s = p->impl;
  const pscr_level *in = &p->lev[p->ndim - 2];
  if (!slab_may_fit(p) ||
      !PSCR_GPU_SLAB128_SHAPE(p->dtype == PSCR_C128, p->ndim, in->n, in->len))
    return PSCR_OK;
  size_t bytes = PSCR_GPU_SLAB128_BYTES(in->n);
  char *h = calloc(bytes, 1);
  pscr_status st = h ? upload(p, h, bytes, &s->slab_scr) : PSCR_ERR_OUT_OF_MEMORY;
  free(h);
  return st;
}

/* gpu_pscr.slab_pk where a slab can fit (slab_may_fit) and the device takes
 * packs (OpenCL): the device arrays read back and uploaded as one (plan time;
 * the innermost level of at most 128 x 128 makes them small but for level 0's
 * lambda, n0 scalars). */
static pscr_status slab_pack(pscr_plan *p) {
  gpu_pscr *s = p->impl;
  int nlev = p->ndim - 1, d = p->ndim - 1;
  const pscr_level *in = &p->lev[nlev - 1];
  if (!slab_may_fit(p)) return PSCR_OK;
  size_t n = p->n[d], e = pscr_dtype_size(p->dtype);
  gpu_ptr c[6];
  gpu_pscr_last_diags(p, c);
  struct {
    const void *mem;
    size_t count;
    long long *at;
  } part[] = {{in->comp, in->ncomp, &s->pk_w},
              {in->lambda, in->neig, &s->pk_lambda},
              {c[0].mem, n, &s->pk_diag[0]},
              {c[1].mem, n, &s->pk_diag[1]},
              {c[2].mem, n, &s->pk_diag[2]},
              {c[3].mem, n, &s->pk_diag[3]},
              {c[4].mem, n, &s->pk_diag[4]},
              {c[5].mem, n, &s->pk_diag[5]},
              {p->c, 1, &s->pk_c},
              {nlev == 2 ? p->lev[0].lambda : NULL, p->lev[0].neig, &s->pk_lambda0}};
  size_t total = 0, al = 256 / e; /* each part on 256 bytes, as allocations are */
  for (size_t k = 0; k < sizeof part / sizeof *part; k++) {
    *part[k].at = part[k].mem ? (long long)total : -1;
    if (part[k].mem) total += ceil_div(part[k].count, al) * al;
  }
  char *h = calloc(total, e);
  pscr_status st = h ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
  for (size_t k = 0; k < sizeof part / sizeof *part && st == PSCR_OK; k++)
    if (part[k].mem)
      st = p->ctx->ops->read(p->ctx, part[k].mem, 0, h + (size_t)*part[k].at * e,
                             part[k].count * e);
  if (st == PSCR_OK) st = upload(p, h, total * e, &s->slab_pk);
  free(h);
  return st;
}

/* exa, exm of the lane engine's excess form (pscr_lane.h): the row excess
 * of A_last and M_last with the signs of A_last's off-diagonal. */
static pscr_status upload_excess(pscr_plan *p, const pscr_factor *f, void **out) {
  size_t n = f->n, e = pscr_dtype_size(p->dtype);
  char *h = calloc(3 * n + 1, e);
  if (h == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  row_excess(p->dtype, f, h + 2 * n * e, h);
  pscr_status st = upload(p, h, 2 * n * e, out);
  free(h);
  return st;
}

pscr_status gpu_pscr_plan_init(pscr_plan *p, const pscr_problem *pb) {
  if (p->innermost == PSCR_TD_LAPACK) return PSCR_ERR_UNSUPPORTED; /* CPU reference only */
  gpu_pscr *s = calloc(1, sizeof *s);
  if (s == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  p->impl = s;
  int nlev = p->ndim - 1;
  longs gd = {0};
  gpu_device g;
  pscr_status st = gpu_pscr_device(p, &g);
  s->dense = product_innermost(p);
  for (int i = 0; s->dense && i < p->lev[nlev - 1].nsteps; i++)
    s->dense = step_runs(&p->lev[nlev - 1].steps[i], p->lev[nlev - 1].n, NULL) > 0;
  int lane = st == PSCR_OK && !s->dense ? lane_engine(p, pb, &g) : 0;
  s->reg = st == PSCR_OK && !lane && !s->dense && reg_engine(p, pb, &g);
  /* pscr_reg.h: tiles of 8 sw rows a system, each a work-group of its task */
  size_t tiles = s->reg ? ceil_div(p->n[p->ndim - 1], PSCR_GPU_REG_Q * (size_t)reg_sw(p, &g)) : 0;
  s->lane_check = lane == 2 ? (g.tune.pscr_lane == 2 ? 2 : 1) : 0; /* 2: pivoting everywhere (tests) */
  for (int L = 0; L < nlev && st == PSCR_OK; L++) {
    s->steps[L] = calloc((size_t)p->lev[L].nsteps, sizeof *s->steps[L]);
    if (s->steps[L] == NULL) st = PSCR_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < p->lev[L].nsteps && st == PSCR_OK; i++)
      st = guide_step(&p->lev[L].steps[i], p->lev[L].innermost, lane && p->lev[L].innermost,
                      p->lev[L].batch_max, tiles,
                      s->reg ? (size_t)g.tune.pscr_rgroups : PSCR_GPU_TASKS,
                      s->reg ? (size_t)g.tune.pscr_rchunk : PSCR_GPU_CHUNK, &gd, &s->steps[L][i]);
  }
  for (int i = 0; s->dense && st == PSCR_OK && i < p->lev[nlev - 1].nsteps; i++) {
    const pscr_step *stp = &p->lev[nlev - 1].steps[i];
    gpu_pscr_step *gs = &s->steps[nlev - 1][i];
    gs->nrun = step_runs(stp, p->lev[nlev - 1].n, NULL);
    gs->runs = malloc(gs->nrun * sizeof *gs->runs);
    if (gs->runs == NULL) st = PSCR_ERR_OUT_OF_MEMORY;
    else step_runs(stp, p->lev[nlev - 1].n, gs->runs);
  }
  if (st == PSCR_OK) st = upload(p, gd.v, gd.n * sizeof *gd.v, &s->guide);
  free(gd.v);
  if (st != PSCR_OK) return st;
  /* the innermost level's workspace, for its largest step and batch */
  const pscr_level *in = &p->lev[nlev - 1];
  size_t e = pscr_dtype_size(p->dtype), n = p->n[p->ndim - 1], B = in->batch_max;
  size_t ne = 0, nb = 0;
  s->accq = 2;
  for (int i = 0; i < in->nsteps; i++) {
    const pscr_step *stp = &in->steps[i];
    if (stp->neig > ne) ne = stp->neig;
    if (stp->nblocks > nb) nb = stp->nblocks;
    if (stp->max_nd > s->accq) s->accq = stp->max_nd;
    if (s->steps[nlev - 1][i].nacc > s->nacc_max) s->nacc_max = s->steps[nlev - 1][i].nacc;
  }
  s->vrows = 2 * nb;
  s->ex = pb->dtype == PSCR_C128 && !lane; /* the tiles' excess form: complex modules only */
  if (st == PSCR_OK && lane) {
    s->fused = 3;
    s->nch = ceil_div(n, gpu_pscr_lane_rows());
    st = alloc_bytes(p, 4 * s->nch * B * ne * e, &s->ckp);
    if (st == PSCR_OK) st = upload_excess(p, &pb->dim[p->ndim - 1], &s->exc);
  }
  if (s->dense) { /* gemm_step: R and the shifts; no partial sums; vbuf where two steps */
    s->nacc_max = 0;
    if (in->nsteps == 1) s->vrows = 0;
    s->queued = p->dtype == PSCR_F64 && (p->innermost == PSCR_TD_CR_PCR_THOMAS ||
                                         (p->innermost == PSCR_TD_AUTO && real_definite(p, pb)));
    int lines = in->nsteps == 1 ? g.tune.pscr_lines >= 1 : g.tune.pscr_lines == 2;
    if (st == PSCR_OK && !s->queued && fusable(p->innermost) && lines) {
      st = pscr_plan_lines(p->ctx, pb, p->innermost, p->threads, B * ne, &s->lines);
      /* by default the lines plan only where its fused kernels take a line in
       * one tile: over several (NVIDIA's OpenCL, 48 KB: complex lines from
       * 256 rows) the engine was faster (H100, 2D Helmholtz 511^2 0.188
       * against 0.229 ms) */
      const gpu_pscr *ls = st == PSCR_OK ? s->lines->impl : NULL;
      if (ls && g.tune.pscr_lines == 1 && ls->fused == 2) {
        pscr_plan_destroy(s->lines);
        s->lines = NULL;
      }
      if (st == PSCR_OK && s->lines) p->bytes += s->lines->bytes;
    }
  }
  for (int i = 0; s->dense && i < in->nsteps; i++) { /* the chunks of split products (27) */
    const gpu_pscr_step *gs = &s->steps[nlev - 1][i];
    for (size_t k = 0; k < gs->nrun; k++) {
      const gpu_pscr_run *r = &gs->runs[k];
      size_t S = gpu_pscr_ksplit(&g, p->dtype, r->nd, n, r->m, B > 1 ? B : r->nb);
      if (S > 1 && S * r->nd * n <= p->total && S * r->nd * n > s->ksum_len)
        s->ksum_len = S * r->nd * n;
    }
  }
  if (st == PSCR_OK && s->ksum_len) st = alloc_bytes(p, s->ksum_len * e, &s->ksum);
  if (p->n[nlev - 1] == 1) s->vrows = 0; /* a level of one row: no boundary terms (28) */
  if (st == PSCR_OK && !lane && !s->dense) /* choose_fused's probe */
    st = alloc_bytes(p, 4 * e, &s->probe);
  if (st == PSCR_OK && !lane && !s->dense) st = choose_fused(p, &g, B * ne);
  if (st == PSCR_OK && s->reg && s->fused == 2) st = reg_checkpoints(p, B);
  if (!s->fused) s->ex = 0; /* the unfused solves take the plain rows */
  if (st == PSCR_OK && !s->fused) st = alloc_bytes(p, B * ne * e, &s->rshift);
  if (st == PSCR_OK && !s->fused) st = alloc_bytes(p, B * ne * n * e, &s->r);
  if (st == PSCR_OK) st = alloc_bytes(p, B * s->nacc_max * s->accq * n * e, &s->acc);
  if (st == PSCR_OK) st = alloc_bytes(p, B * s->vrows * n * e, &s->vbuf);
  const pscr_factor *f = &pb->dim[p->ndim - 1];
  s->m_diag = f->m_off == NULL;
  if (st == PSCR_OK && !lane) /* the tiles' and the unfused solves' sub-diagonals */
    st = s->ex ? upload_sub_excess(p, f, &s->sub[0]) : upload_sub(p, f->a_off, n, &s->sub[0]);
  if (st == PSCR_OK && !lane) st = upload_sub(p, f->m_off, n, &s->sub[1]);
  if (st == PSCR_OK && !lane && !s->fused) st = perm_cache(p, p->n[p->ndim - 1], e);
  if (st == PSCR_OK && g.pack_args) st = slab_pack(p);
  if (st == PSCR_OK) st = slab_scratch(p);
  if (st == PSCR_OK && !s->fused && !s->lines) st = warm_up(p, B * ne);
  if (st == PSCR_OK && s->dense && !s->queued && !s->lines && p->innermost == PSCR_TD_AUTO &&
      p->ndim == 2)
    st = route_auto(p, pb);
  return st;
}

void gpu_pscr_plan_fini(pscr_plan *p) {
  gpu_pscr *s = p->impl;
  if (s == NULL) return;
  pscr_plan_destroy(s->lines);
  pscr_context *ctx = p->ctx;
  void *bufs[] = {s->guide, s->r,      s->rshift, s->acc, s->vbuf,
                  s->sub[0], s->sub[1], s->probe,  s->exc, s->ckp, s->ksum, s->slab_pk, s->slab_scr};
  for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++)
    if (bufs[k]) ctx->ops->release(ctx, bufs[k]);
  if (s->perm && s->perm->buf.mem) ctx->ops->release(ctx, s->perm->buf.mem);
  free(s->perm);
  for (int l = 0; l < PSCR_GPU_LEVELS; l++) {
    if (s->recs[l]) ctx->ops->release(ctx, s->recs[l]);
    if (s->outs[l]) ctx->ops->release(ctx, s->outs[l]);
  }
  for (int L = 0; L < PSCR_MAX_LEVELS; L++) {
    for (int i = 0; s->steps[L] && i < p->lev[L].nsteps; i++)
      free(s->steps[L][i].mb), free(s->steps[L][i].tofs), free(s->steps[L][i].runs),
          free(s->steps[L][i].routes);
    free(s->steps[L]);
  }
  free(s);
  p->impl = NULL;
}
