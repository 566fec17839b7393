/* The tiled SPIKE engine (kernels/common/td_tile.h) behind CR_PCR_THOMAS
 * (pivot = 0: Thomas partitions) and SPIKE_DIAG_PIVOT (pivot = 1: diagonal
 * pivoting partitions). A system that fits one tile (W work-items x q rows
 * in local memory) is one pass, td_tile_solve; a larger one is split into
 * tiles of T = W q rows: td_tile_fwd writes one record per tile, the records'
 * reduced system is merged up and down in groups of 2 merge_w records
 * (td_tile_gup / td_tile_gdown, one launch per level; a system of at most W
 * local-memory tiles is merged by td_tile_bwd itself), and td_tile_bwd solves
 * every tile with its outside values. Where the device has thread-block
 * clusters (CUDA sm_90), a system of 2 .. 8 td_reg.h tiles is one pass too,
 * td_reg_clu: a cluster a system, the tiles' records merged in its groups'
 * local memory. Where local arrays are sized at compile time (OpenCL) the
 * module gets TD_TILE_LOCAL / TD_TW to match.
 * td_tile_solve writes x over b group by group, so a batch whose b must stay
 * untouched on error has b's rows saved on the way in (j->saved: one more
 * write per row; gpu_tridiag.c puts them back if a flag was raised). The
 * multi-tile passes need no copy: td_tile_bwd runs after every error is known. */
#include <stdio.h>

#include "backend/gpu/gpu_td.h"

#define TD_MAX_LEVELS 48

/* Local memory of a tile of W work-items x 2^lq rows, in scalars (td_tile.h). */
static size_t tile_scalars(int W, int lq) { return (size_t)(4 * ((1 << lq) + 1) + 16) * (size_t)W; }
static size_t tile_bytes(const td_job *j, int W, int lq) { return tile_scalars(W, lq) * j->esize; }

static int pow2_at_least(long long v) {
  int p = 1;
  while (p < v && p < (1 << 30)) p *= 2;
  return p;
}

static int max_group(const td_job *j) { return j->g->max_wg < 1024 ? (int)j->g->max_wg : 1024; }

/* max_group, bounded by the kernels' registers. */
static int kernel_group(const td_job *j, const char *k1, const char *k2) {
  return gpu_kernel_cap(j->g, max_group(j), k1, k2);
}

/* One tile per system when it fits: smallest power-of-2 group (>= 32) for
 * q rows per work-item, q doubled while the group would exceed 1024 or the
 * local memory. Returns 0 if no single tile fits. */
static int single_shape(const td_job *j, long long n, int *W, int *lq) {
  int cap = kernel_group(j, "td_tile_solve", NULL);
  for (int l = td_log2i(j->g->tune.tile_q); l <= 6; l++) {
    long long need = (n + (1 << l) - 1) >> l;
    int w = pow2_at_least(need);
    if (w < 32) w = 32;
    if (w > cap) continue;
    if (tile_bytes(j, w, l) <= j->limit) {
      *W = w;
      *lq = l;
      return 1;
    }
  }
  return 0;
}

/* The multi-tile shape (q rows per work-item at most) and the merge group. */
static void multi_shape(const td_job *j, int pivot, int *W, int *lq, int *MW) {
  const gpu_td_tuning *t = &j->g->tune;
  int z = pivot && j->esize > 8; /* complex pivoting: its own shape */
  *W = z ? t->tile_wz : pivot ? t->tile_mw : t->tile_w;
  *lq = td_log2i(z ? t->tile_mqz : pivot ? t->tile_mq : t->tile_q);
  for (int cap = kernel_group(j, "td_tile_fwd", "td_tile_bwd"); *W > cap;) *W /= 2;
  while (*W > 32 && tile_bytes(j, *W, *lq) > j->limit) *W /= 2;
  while (*lq > 1 && tile_bytes(j, *W, *lq) > j->limit) (*lq)--;
  *MW = j->g->tune.merge_w;
  for (int cap = kernel_group(j, "td_tile_gup", "td_tile_gdown"); *MW > cap;) *MW /= 2;
  while (*MW > 32 && (size_t)(32 * *MW) * j->esize > j->limit) *MW /= 2;
}

void gpu_td_tile_params(td_job *j) {
  if (!j->g->static_local) return;
  int W, lq, MW;
  multi_shape(j, 0, &W, &lq, &MW);
  j->par.tw = MW;
  /* one module for every shape, or (shrink_local) the multi-tile one by default */
  j->par.tile_local = j->g->shrink_local ? (int)tile_scalars(W, lq) : (int)(j->limit / j->esize);
}

/* Where local arrays are sized per shape: the module of a tile of W x 2^lq. */
static pscr_status shape_module(td_job *j, int W, int lq) {
  if (!j->g->static_local || !j->g->shrink_local) return PSCR_OK;
  j->par.tile_local = (int)tile_scalars(W, lq);
  j->par.reg_ph = j->par.reg_q = j->par.reg_free = j->par.reg_slim = j->par.reg_ysm = 0;
  return td_module(j);
}

/* td_reg.h's kernels: q = TD_RQ rows per work-item in registers, local
 * memory for the tile's four arrays, f alone for shifted rows (m (q + 1)
 * scalars a work-item, m = 4 or 1, or m (q / ph + 1) staged in ph parts),
 * x staged for the store (q + 1), the merge tree (16); one-tile shifted
 * solves with y kept (par.reg_ysm, `ykept`: td_reg_solve_s, and td_reg_bwd_s where
 * reg_ysm is 2) the tile and the tree side by side. W at most 512
 * and the kernel's own limit (set by its registers: TD_REG_MAXW, 640 real and
 * 384 complex work-items; 512 at 16 real or 8 complex rows, 256 at 16
 * complex: gpu_td_reg_maxw). */
static int reg_q(const td_job *j) { return j->par.reg_q ? j->par.reg_q : j->par.complex_ ? 4 : 8; }
static size_t reg_scalars(const td_job *j, int sh, int W, int ph, int ykept) {
  int q = reg_q(j), a = (sh ? 1 : 4) * (q / ph + 1);
  if (j->par.reg_ysm && ykept && sh && ph == 1) /* y kept (TD_REG_YL): the tree past it */
    return (size_t)(q + 1 + 16) * (size_t)W;
  if (j->par.reg_slim) /* x stored in the load's parts; the warps' junctions (6 W) and tree */
    return (size_t)(a > 7 ? a : 7) * (size_t)W;
  if (a < q + 1) a = q + 1; /* x staged for the store: W q rows and their pads */
  return (size_t)(a > 16 ? a : 16) * (size_t)W;
}
/* W and the parts ph for a tile of n rows: where local arrays are sized per
 * shape (GPUs' OpenCL), a real tile too large for one part takes two (q / 2 =
 * 4 rows of each partition a part: one load of TD_REG_LOAD_U); tune.reg_ph
 * picks the parts. 0 where no shape fits. */
static int reg_shape(const td_job *j, gpu_td_src src, long long n, int *W, int *ph) {
  int q = reg_q(j), w = pow2_at_least((n + q - 1) / q), lu = j->par.complex_ ? 2 : 4;
  if (w < 32) w = 32;
  if (!j->g->tune.tile_reg || src.rstep != 1 || w > 512 || (q & (q - 1)) || q < lu ||
      w > gpu_td_reg_maxw(&j->par) ||
      w > kernel_group(j, src.shift.mem != NULL ? "td_reg_solve_s" : "td_reg_solve", NULL))
    return 0;
  int sh = src.shift.mem != NULL, p0 = 1;
  int parts = j->g->static_local && j->g->shrink_local && !j->par.complex_ ? 2 : 1;
  /* more rows than the dtype's default: plain rows in two parts (H100: 1 or 4
   * lose), four where two do not fit (plain_four) */
  if (j->par.reg_q > (j->par.complex_ ? 4 : 8)) p0 = 2, parts = 4;
  /* shifted rows in one: with f alone, x's staging ((q + 1) W) sets the size
   * whatever the parts; but in two where x goes out in them too (slim) */
  if (sh) p0 = parts = j->par.reg_slim ? 2 : 1;
  if (j->g->tune.reg_ph) p0 = parts = j->g->tune.reg_ph;
  for (*ph = p0; *ph <= parts; (*ph)++)
    if (q % *ph == 0 && (q / *ph) % lu == 0 &&
        reg_scalars(j, sh, w, *ph, 1) * j->esize <= j->limit) {
      *W = w;
      return 1;
    }
  return 0;
}

/* The td_reg.h kernel of a one-tile solve (clu 0) or a cluster's tile (clu
 * 1) of W work-items into name: for shifted rows the copy of that W where
 * td_reg.h has one (td_reg_solve_s32 .. s256, td_reg_clu_s128) and
 * tune.reg_wspec asks for it, else the generic kernel. */
static void reg_kernel(const td_job *j, int sh, int clu, int W, char *name, size_t size) {
  const char *base = clu ? "td_reg_clu" : "td_reg_solve";
  int own = sh && j->g->tune.reg_wspec &&
            (clu ? W == 128 : W >= 32 && W <= 256);
  if (own)
    snprintf(name, size, "%s_s%d", base, W);
  else
    snprintf(name, size, "%s%s", base, sh ? "_s" : "");
}
/* The same for a pass (td_reg_fwd or td_reg_bwd, shifted or plain): the
 * copy of W = 64 (the passes' W at 48 KB) where tune.reg_wspec asks for it.
 * H200, NVIDIA's OpenCL, against the generic passes in the same call:
 * shifted 8192 x 8192 0.95-0.97 ms against 1.09-1.11 (CUDA's one tile
 * 0.76-0.79), td_reg_fwd_s 362 us against 431 and td_reg_bwd_s 484 against
 * 555; CR_PCR_THOMAS 8192 x 8192 1.35-1.38 ms against 1.45-1.48 (CUDA's
 * clusters 1.09-1.16); shifted 1024 x 16384 0.31-0.34 against 0.36-0.39. */
static void pass_kernel(const td_job *j, int sh, const char *base, int W, char *name,
                        size_t size) {
  snprintf(name, size, "%s%s%s", base, sh ? "_s" : "", j->g->tune.reg_wspec && W == 64 ? "64" : "");
}

/* td_reg_fwd2_s64's local memory (td_reg.h's TD_REG_FWD2_LOCAL). */
static size_t fwd2_bytes(const td_job *j, int W) {
  int q = reg_q(j), a = 2 * (q + 1) > 24 ? 2 * (q + 1) : 24;
  return (size_t)a * (size_t)W * j->esize;
}

/* Where local arrays are sized per shape: the module of td_reg.h's W work-items.
 * There the multi-tile passes (pass) of 16 real rows a work-item take no
 * register bounds (reg_free). NVIDIA's OpenCL, H100, 2D Poisson 8191^2,
 * passes of 64 work-items: td_reg_bwd_s 2307 us with the bounds for 512
 * work-items (and again for 256), 1773 without; td_reg_fwd_s 1100 each way.
 * Real 8 rows and complex ones keep them: 2D Helmholtz 4095^2's complex
 * passes took 2313 us with them, 2600 without. */
static pscr_status reg_module(td_job *j, int sh, int W, int ph, int pass) {
  int fixed = j->g->static_local && j->g->shrink_local;
  j->par.reg_free = fixed && pass && !j->par.complex_ && reg_q(j) > 8;
  if (j->g->static_local) { /* the shifted passes' y in local memory where it fits (pass_ysm) */
    j->par.reg_ysm = 2;
    if (!(pass && sh && ph == 1 && j->g->tune.pass_ysm &&
          reg_scalars(j, sh, W, ph, 1) * j->esize <= j->limit))
      j->par.reg_ysm = 0;
  }
  if (!fixed && ph == 1 && !j->par.reg_q) return PSCR_OK;
  if (fixed) j->par.tile_local = (int)reg_scalars(j, sh, W, ph, 1);
  j->par.reg_ph = ph;
  return td_module(j);
}

/* Shifted td_reg.h kernels read A and M from copies in their tiles' order
 * (td_reg_perm: tiles of W reg_q rows, len rows a diagonal): six arrays
 * (M's null diagonals stay null) of perm_bytes / 6 from the work area w at
 * off, made by one launch; *src points to them. A source with a cache
 * (src->perm: a plan's A and M, which never change) makes them there once
 * for each tile shape and then only points to them. H100, CUDA, three
 * processes each way: 2D Poisson 63^2 0.033-0.037 ms against 0.039-0.044
 * with a td_reg_perm each solve, 255^2 0.062-0.065 against 0.066-0.069,
 * 3D Poisson 63^3 0.066-0.068 against 0.069-0.075. */
static size_t perm_bytes(const td_job *j, long long len) {
  return 6 * td_align(j, (size_t)len * j->esize);
}
static pscr_status reg_perm(td_job *j, gpu_td_src *src, gpu_ptr w, size_t off, long long n,
                            long long len, int W) {
  size_t one = perm_bytes(j, len) / 6;
  long long al = (long long)(one / j->esize); /* every array's rows, len and the alignment's */
  gpu_td_perm *c = src->perm && 6 * one <= src->perm->cap ? src->perm : NULL;
  int q = reg_q(j);
  if (c == NULL || c->len != len || c->n != n || c->W != W || c->q != q || c->esize != j->esize) {
    if (c) { /* into the cache (its shape after the launch) */
      c->len = 0;
      w = c->buf;
      off = 0;
    }
    gpu_arg args[] = {SRC_ARGS(*src), GPU_LONG(n), GPU_LONG(al), GPU_INT(W),
                      GPU_PTR(gpu_sub(w, off, 6 * one))};
    pscr_status st = td_launch(j, "td_reg_perm", (size_t)al, j->line_wg, 0, NARGS(args), args);
    if (st != PSCR_OK) return st;
    if (c) *c = (gpu_td_perm){c->buf, c->cap, j->esize, n, len, W, q};
  } else {
    w = c->buf;
    off = 0;
  }
  src->perm = NULL; /* the copies are not the diagonals they came from */
  gpu_ptr *arr[6] = {&src->dl, &src->d, &src->du, &src->mdl, &src->md, &src->mdu};
  for (int k = 0; k < 6; k++)
    if (arr[k]->mem != NULL) *arr[k] = gpu_sub(w, off + (size_t)k * one, one);
  return PSCR_OK;
}

/* The work area of a one-pass solve (td_reg_solve, td_tile_solve,
 * td_reg_clu): b's saved rows where b must stay untouched on error (*saved;
 * one system writes nothing on error: no copy then), then for shifted
 * td_reg.h tiles of T rows (T > 0) their coefficients in the tiles' order
 * (reg_perm, nt T rows a diagonal; *src points to them). */
static pscr_status one_pass_work(td_job *j, gpu_td_src *src, long long n, long long batch,
                                 long long nt, long long T, int W, gpu_ptr *saved) {
  size_t len = j->keep_b && batch > 1 ? (size_t)n * (size_t)batch * j->esize : 0;
  size_t lperm = T > 0 ? perm_bytes(j, nt * T) : 0;
  gpu_ptr w;
  *saved = (gpu_ptr){0};
  if (len + lperm == 0) return PSCR_OK;
  pscr_status st = j->g->work(j->g, td_align(j, len) + lperm, &w);
  if (st == PSCR_OK && len) *saved = gpu_sub(w, 0, len);
  if (st == PSCR_OK && lperm) st = reg_perm(j, src, w, td_align(j, len), n, nt * T, W);
  return st;
}

/* td_reg_clu's tiles for a system of n rows (a device with clusters): the
 * most (*nt >= 2, at most tune.tile_clu and the device's cluster) of at least
 * tune.clu_w work-items
 * *W each (more groups an SM hide a cluster's waits; H100, against 256 and
 * 512 work-items: shifted C128 8192 x 8192 3.46x floor against 3.57 and
 * 3.75 in 8 tiles of 128, C128 1024 x 16384 4.30x in 8 of 256 against 4.81
 * in 4 of 512, plain F64 1024 x 16384 1.87 against 2.05). 0 where the device
 * has no clusters or no such shape fits. */
static int clu_shape(td_job *j, gpu_td_src src, long long n, int *W, int *ph, long long *nt) {
  int sh = src.shift.mem != NULL, q = reg_q(j);
  int most = j->g->tune.tile_clu < j->g->cluster_max ? j->g->tune.tile_clu : j->g->cluster_max;
  /* the module of q rows current: its kernels' registers set the caps (reg_shape) */
  if (most < 2 || reg_module(j, sh, 32, 1, 0) != PSCR_OK) return 0;
  long long per = (n + most - 1) / most; /* rows a tile, at least */
  if (per < (long long)j->g->tune.clu_w * q) per = (long long)j->g->tune.clu_w * q;
  if (!reg_shape(j, src, per, W, ph) ||
      *W > kernel_group(j, sh ? "td_reg_clu_s" : "td_reg_clu", NULL))
    return 0;
  *nt = (n + (long long)*W * q - 1) / ((long long)*W * q);
  return *nt >= 2 && *nt <= most;
}

/* A system of nt tiles in one pass of td_reg_clu (a cluster of nt groups a
 * system; td_reg.h): b is read once and x written once, b's rows saved on
 * the way in where they must stay on error (as td_reg_solve's). UNSUPPORTED
 * where the cluster does not fit (the caller takes the two passes). */
static pscr_status solve_cluster(td_job *j, gpu_td_src src, long long n, long long batch,
                                 gpu_ptr b, int W, int ph, long long nt) {
  int sh = src.shift.mem != NULL;
  long long T = (long long)W * reg_q(j);
  size_t xoff = reg_scalars(j, sh, W, ph, 0), local = (xoff + 8 + 128) * j->esize; /* td_reg_clu */
  gpu_ptr saved;
  if (local > j->limit) return PSCR_ERR_UNSUPPORTED;
  pscr_status st = reg_module(j, sh, W, ph, 0);
  if (st == PSCR_OK) st = one_pass_work(j, &src, n, batch, nt, sh ? T : 0, W, &saved);
  if (st != PSCR_OK) return st;
  gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),    GPU_LONG(nt),        GPU_LONG((long long)xoff),
                    GPU_PTR(b),    GPU_PTR(saved), GPU_PTR(j->g->flags)};
  char name[32];
  reg_kernel(j, sh, 1, W, name, sizeof name);
  st = j->g->launch_cluster(j->g, name, (size_t)(batch * nt) * (size_t)W, W, local, (int)nt,
                            NARGS(args), args);
  if (st == PSCR_OK) {
    j->saved = saved;
    j->partitions = (int)((n + reg_q(j) - 1) / reg_q(j));
  }
  return st;
}

/* plain_four (gpu_td_solve_tiled): real plain rows where local memory is
 * sized at compile time (OpenCL) in one tile of 16-row partitions (reg_q 16,
 * *ph parts), unless the solve must save b (keep_b, a batch): the save's
 * stores cost more than the two passes' second read. H200, NVIDIA's OpenCL,
 * CR_PCR_THOMAS 4096 x 4096: queued 0.35-0.38 ms against the passes'
 * 0.41-0.44 (CUDA 0.32-0.34); waiting, saving b, 0.43-0.45 against
 * 0.41-0.43. */
static int plain_four(td_job *j, gpu_td_src src, long long n, long long batch, int pivot,
                      int reg_ok, int *W, int *ph) {
  if (!reg_ok || pivot || src.shift.mem != NULL || j->par.complex_ || j->par.reg_q ||
      !j->g->static_local || (j->keep_b && batch > 1))
    return 0;
  j->par.reg_q = 16;
  if (reg_shape(j, src, n, W, ph)) return 1;
  j->par.reg_q = 0;
  return 0;
}

pscr_status gpu_td_solve_tiled(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b,
                               int pivot) {
  pscr_status st = PSCR_OK;
  gpu_ptr flags = j->g->flags;
  int W, lq = 0, MW, ph = 1, reg = 0;
  int sh = src.shift.mem != NULL; /* td_reg.h's kernels of each source */
  /* Shifted systems (f alone in the tile) in tiles of 16 rows a work-item:
   * real ones of more than 1024 rows, complex ones that fit one tile (8 rows
   * where they take several). H100, floor ratio against 8 (complex 4) rows a
   * work-item in the same call: real 1500 x 10000 2.79x against 3.63, 2048 x
   * 8192 2.30 against 2.86, 4096 x 4096 2.57 against 3.19, 8192 x 8192 2.42
   * against 3.15 (tiles of 1024 rows), 16384 x 1024 4.02 against 4.38 (512
   * rows: 2.59 against 2.51); complex 512 x 16384 2.71 against 3.05 (8 rows)
   * and 3.40 (4 rows), 2048 x 8192 2.72 against 5.26 (4 rows: two tiles),
   * 4096 x 4096 3.15 against 4.40 (8 rows) and 5.40, 8192 x 8192 4.09 with 8
   * rows, 4.78 with 16 and 5.15 with 4. The perm arrays' index is an int
   * (td_reg_perm): longer shifted systems take td_tile.h's kernels. */
  int perm_ok = !sh || n < (1LL << 30), many = j->par.complex_ ? 8 : 16;
  /* Small batches on the local-memory tiles where td_reg.h's two launches
   * (td_reg_perm, then the solve) cost the host more than the kernel saves
   * (tune.reg_min). NVIDIA's OpenCL, H100: an enqueue costs 6-11 us of host
   * time (CUDA's launch 3-4); with sub-buffers (before 5fa458c) td_reg.h's
   * cost 31-47, and PSCR on the tiles against td_reg.h took 2D Poisson 31^2
   * 0.045-0.052 ms against 0.087-0.104, 511^2 0.123 against 0.143, 1023^2
   * 0.205 either way, 2047^2 0.78 against 0.62; 3D 31^3 0.062-0.071 against
   * 0.103. With the kernels' register bounds (gpu_bounds.c) td_reg.h gained:
   * 1023^2 0.202-0.208 against 0.220-0.231 on the tiles (CUDA 0.170), 511^2
   * within 3 % (0.112-0.116 against 0.116-0.118): 2^18 (was 2^20) takes
   * 1023^2 and keeps 511^2 (261121 rows) on the one launch. A source with a
   * cache of its reordered A and M (a PSCR plan's) launches td_reg_perm once a
   * plan, so td_reg.h's solve is one launch there too, and faster on the
   * device (H200, --profile: td_reg_solve_s32 8.7 us against td_tile_solve's
   * 10.8-14.4 at 2D Poisson 63^2-255^2, 14.0 against 20.2 at 3D 63^3). */
  int reg_ok = src.perm != NULL || n * batch >= j->g->tune.reg_min;
  j->par.reg_q = j->g->tune.reg_q;
  j->par.reg_free = j->par.reg_slim = 0;
  if (j->g->static_local) j->par.reg_ysm = 0; /* the passes' module may set it (reg_module) */
  int big = reg_ok && !pivot && !j->par.reg_q && sh && perm_ok && (j->par.complex_ || n > 1024);
  if (big) j->par.reg_q = 16;
  reg = reg_ok && !pivot && perm_ok && reg_shape(j, src, n, &W, &ph);
  /* a complex line of 16-row partitions whose tile does not fit: the slim
   * tile where the kernels have shuffles (NVIDIA's OpenCL, 48 KB: 2049-4096
   * rows), which reads f once where the two passes read it twice. H100, 2D
   * Helmholtz 4095^2: td_reg_solve_s slim 1871 us against the passes' 944 +
   * 1344, the solve 4.02 ms against 4.43 (CUDA 3.50). CUDA's own tile takes
   * 1452 us, slim 1800, so tune reg_slim 2 (slim wherever it fits) is for tests
   * and trials. It also takes real lines of 16-row partitions: 4097-8192 rows
   * fit one slim tile of 512 work-items in 48 KB (9 W scalars), where the
   * default takes the two passes. H200, shifted 8192 x 8192, NVIDIA's OpenCL:
   * slim 1.10-1.11 ms, the passes 1.07-1.12 (CUDA's own tile 0.75-0.79, its
   * slim 1.10-1.15); four parts 1.30-1.33; y through b, 1.27 (RESULTS.md, fortieth
   * session). */
  if (big && j->g->warp_shfl &&
      (j->g->tune.reg_slim == 2 ||
       (j->g->tune.reg_slim == 1 && j->par.complex_ && j->g->static_local && !reg))) {
    int W1, ph1;
    j->par.reg_slim = 1;
    if (reg_shape(j, src, n, &W1, &ph1)) {
      reg = 1;
      W = W1;
      ph = ph1;
    } else {
      j->par.reg_slim = 0;
    }
  }
  /* a real plain system too long for one tile of 8-row partitions (NVIDIA's
   * OpenCL, 48 KB: 2049-4096 rows) where b need not be saved as it loads:
   * one tile of 16-row partitions in four parts (40 KB at 256 work-items) */
  if (!reg && plain_four(j, src, n, batch, pivot, reg_ok, &W, &ph)) reg = 1;
  if (!reg && big) { /* no one tile of 16 rows: of the default ones, else several */
    j->par.reg_q = 0;
    reg = reg_shape(j, src, n, &W, &ph);
    if (!reg) j->par.reg_q = many;
  }
  if (reg || single_shape(j, n, &W, &lq)) {
    TRY(reg ? reg_module(j, sh, W, ph, 0) : shape_module(j, W, lq));
    TRY(one_pass_work(j, &src, n, batch, 1, reg && sh ? (long long)W * reg_q(j) : 0, W,
                      &j->saved));
    if (reg) {
      char name[32];
      reg_kernel(j, sh, 0, W, name, sizeof name);
      gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_PTR(b), GPU_PTR(j->saved), GPU_PTR(flags)};
      j->partitions = (int)((n + reg_q(j) - 1) / reg_q(j));
      TRY(td_launch(j, name, (size_t)batch * (size_t)W, W, reg_scalars(j, sh, W, ph, 1) * j->esize,
                    NARGS(args), args));
      goto cleanup;
    }
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),       GPU_INT(lq),   GPU_INT(pivot),
                      GPU_PTR(b),    GPU_PTR(j->saved), GPU_PTR(flags)};
    j->partitions = (int)((n + (1 << lq) - 1) >> lq);
    TRY(td_launch_x(j, "td_tile_solve", (size_t)batch * (size_t)W, W, tile_bytes(j, W, lq),
                  NARGS(args), args));
    goto cleanup;
  }
  /* 2 .. 8 tiles a system in clusters of groups where the device has them;
   * shifted complex rows too in tiles of 16 rows a work-item there (H100,
   * against 8: C128 1024 x 16384 4.00-4.02x floor against 4.26-4.32, 8192 x
   * 8192 3.42 against 3.48) */
  long long nt;
  if (reg_ok && !pivot && perm_ok && j->g->launch_cluster != NULL) {
    int q0 = j->par.reg_q;
    if (big) j->par.reg_q = 16;
    if (clu_shape(j, src, n, &W, &ph, &nt)) {
      st = solve_cluster(j, src, n, batch, b, W, ph, nt);
      if (st != PSCR_ERR_UNSUPPORTED) goto cleanup;
      st = PSCR_OK;
    }
    j->par.reg_q = q0;
    TRY(td_module(j)); /* clu_shape may have made another module current */
  }
  /* several tiles per system: td_reg_fwd / bwd (rows in registers) where they
   * fit, with the local-memory tiles' W (H100, NVIDIA's OpenCL, 2D Helmholtz
   * 2047^2: their 32 complex work-items at 48 KB, 128 rows a tile, took 1.29 ms
   * in td_reg_fwd + bwd; tile_w's 128 took 1.40) */
  multi_shape(j, pivot, &W, &lq, &MW);
  reg = !pivot && perm_ok && reg_shape(j, src, (long long)W * reg_q(j), &W, &ph);
  TRY(reg ? reg_module(j, sh, W, ph, 1) : shape_module(j, W, lq));
  long long T = reg ? (long long)W * reg_q(j) : (long long)W << lq;
  nt = (n + T - 1) / T;
  int spg;
  gpu_merge_shape(MW, nt, j->g->static_local, j->g->tune.merge_multi, &MW, &spg);
  long long C = 2 * (long long)MW;
  long long Pc[TD_MAX_LEVELS], cnt[TD_MAX_LEVELS];
  int levels = 0;
  Pc[0] = nt;
  cnt[0] = batch * nt;
  while (Pc[levels] > 1 && levels < TD_MAX_LEVELS - 2) {
    Pc[levels + 1] = (Pc[levels] + C - 1) / C;
    cnt[levels + 1] = batch * Pc[levels + 1];
    levels++;
  }
  size_t es = j->esize, rec_total = 0, out_total = 0;
  for (int l = 0; l <= levels; l++) {
    rec_total += td_align(j, 6 * (size_t)cnt[l] * es);
    out_total += td_align(j, 2 * (size_t)cnt[l] * es);
  }
  size_t lperm = reg && sh ? perm_bytes(j, nt * T) : 0;
  gpu_ptr w, recs[TD_MAX_LEVELS], outs[TD_MAX_LEVELS];
  TRY(j->g->work(j->g, rec_total + out_total + lperm, &w));
  if (lperm) TRY(reg_perm(j, &src, w, rec_total + out_total, n, nt * T, W));
  size_t off_rec = 0, off_out = rec_total;
  for (int l = 0; l <= levels; l++) {
    recs[l] = gpu_sub(w, off_rec, 6 * (size_t)cnt[l] * es);
    outs[l] = gpu_sub(w, off_out, 2 * (size_t)cnt[l] * es);
    off_rec += td_align(j, 6 * (size_t)cnt[l] * es);
    off_out += td_align(j, 2 * (size_t)cnt[l] * es);
  }
  size_t tb = reg ? reg_scalars(j, sh, W, ph, 0) * es : tile_bytes(j, W, lq);
  size_t tbb = reg ? reg_scalars(j, sh, W, ph, j->par.reg_ysm == 2) * es : tb; /* the bwd pass */
  size_t mb = (size_t)(32 * MW) * es;
  if (reg) {
    gpu_arg args[] = {SRC_ARGS(src),     GPU_LONG(n), GPU_LONG(nt), GPU_LONG(cnt[0]), GPU_PTR(b),
                      GPU_PTR(recs[0]), GPU_PTR(flags)};
    char name[32];
    /* real shifted systems two a group where the pass has W = 64 (td_reg_fwd2_s64:
     * A and M read once for both; H200, NVIDIA's OpenCL, shifted 8192 x 8192:
     * 314 us against td_reg_fwd_s64's 351, the solve 0.95-0.98 ms against
     * 0.98-1.01) */
    int two = sh && !j->par.complex_ && W == 64 && ph == 1 && batch > 1 &&
              j->g->tune.reg_wspec && j->g->tune.pass_two;
    size_t groups = two ? (size_t)((batch + 1) / 2) * (size_t)nt : (size_t)cnt[0];
    if (two)
      snprintf(name, sizeof name, "td_reg_fwd2_s64");
    else
      pass_kernel(j, sh, "td_reg_fwd", W, name, sizeof name);
    TRY(td_launch(j, name, groups * (size_t)W, W, two ? fwd2_bytes(j, W) : tb, NARGS(args),
                  args));
  } else {
    gpu_arg args[] = {SRC_ARGS(src),    GPU_LONG(n),   GPU_INT(lq),      GPU_INT(pivot),
                      GPU_LONG(T),      GPU_LONG(nt),  GPU_LONG(cnt[0]), GPU_PTR(b),
                      GPU_PTR(recs[0]), GPU_PTR(flags)};
    TRY(td_launch(j, "td_tile_fwd", (size_t)cnt[0] * (size_t)W, W, tb, NARGS(args), args));
  }
  /* nt <= W tiles: td_tile_bwd merges its system's records itself (one
   * launch and the outside values' round trip fewer). It finds a singular
   * junction only there, after other systems may have stored x, so not
   * where b must stay untouched on error. Not in td_reg_bwd: there it cost
   * more than the launch (H100, NVIDIA's OpenCL, 2D Helmholtz 2047^2, complex
   * tiles of 128 rows: 1162 against 773 + 47 us) */
  int self = !reg && levels == 1 && nt <= W && j->g->tune.merge_self &&
             !(j->keep_b && batch > 1);
  if (mb > j->limit) return PSCR_ERR_UNSUPPORTED;
  if (!self) TRY(gpu_merge_records(j->g, levels, Pc, cnt, recs, outs, MW, spg, 0, mb));
  gpu_ptr io = self ? recs[0] : outs[0];
  if (reg) {
    gpu_arg args[] = {SRC_ARGS(src),     GPU_LONG(n), GPU_LONG(nt), GPU_LONG(cnt[0]), GPU_PTR(b),
                      GPU_PTR(outs[0]), GPU_PTR(flags)};
    char name[32];
    pass_kernel(j, sh, "td_reg_bwd", W, name, sizeof name);
    TRY(td_launch(j, name, (size_t)cnt[0] * (size_t)W, W, tbb, NARGS(args), args));
  } else {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),   GPU_INT(lq),      GPU_INT(pivot),
                      GPU_LONG(T),   GPU_LONG(nt),  GPU_LONG(cnt[0]), GPU_PTR(io),
                      GPU_INT(self), GPU_PTR(b),    GPU_PTR(flags)};
    TRY(td_launch(j, "td_tile_bwd", (size_t)cnt[0] * (size_t)W, W, tb, NARGS(args), args));
  }
  j->partitions = reg ? (int)((n + reg_q(j) - 1) / reg_q(j)) : (int)((n + (1 << lq) - 1) >> lq);
cleanup:
  return st;
}
