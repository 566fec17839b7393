/* GSPIKE on the GPU (kernels/common/td_gspike.h, seed 000): level 0 is
 * td_gs_tile (Givens-QR partitions of gs_q rows, gs_w per tile, phase 0 up,
 * phase 1 down); the reduced system of pairs is solved by g-Spike again,
 * blocks of gs_gp pairs per work-item (td_gs_level up, td_gs_recover down),
 * until at most TD_GS_DIRECT pairs per system remain (td_gs_direct). A block
 * that no level can solve (the CPU's BLOCK_FAILED) leaves b alone and raises
 * TD_FLAG_FALLBACK; the solve is then repeated on the partition grid shifted
 * by gs_q / 2 rows, and if that fails too every system is solved as one
 * partition (td_gs_whole), whose verdict is final, as spike_tmpl.c does. */
#include <string.h>

#include "backend/cuda/cuda_td.h"

#define GS_DIRECT 64   /* TD_GS_DIRECT */
#define GS_DIRECT_WG 8 /* work-items (systems) per group of td_gs_direct */
#define GS_FIELDS 12   /* TD_PR_FIELDS */
#define GS_LEVELS 40

static int log2i(int v) {
  int l = 0;
  while ((1 << (l + 1)) <= v) l++;
  return l;
}

/* Work-items per group for `rows` rows x `arrays` arrays per work-item. */
static int slot_group(const td_job *j, int rows, int arrays, int want) {
  int w = want;
  while (w > 1 && (size_t)arrays * (size_t)w * (size_t)(rows + 1) * j->esize >
                      td_smem_limit(j))
    w /= 2;
  return w;
}

static pscr_status whole(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b) {
  pscr_status st = PSCR_OK;
  CUdeviceptr scr;
  TRY(cuda_work(j->ctx, 6 * (size_t)n * (size_t)batch * j->esize, &scr));
  void *args[] = {SRC_ARGS(src), &n, &batch, &scr, &b, &j->s->flags};
  TRY(td_launch(j, "td_gs_whole", (size_t)batch, 32, 0, args));
  j->partitions = 1;
cleanup:
  return st;
}

/* One g-Spike solve of b in place, then reads the status words into fl.
 * keep: when partitions were modified, the solution goes to *xout (compact,
 * xbytes after the work areas) and b keeps the right-hand side. */
static pscr_status gs_pass(td_job *j, td_src src, long long n, long long sh, long long batch,
                           CUdeviceptr b, int keep, size_t xbytes, CUdeviceptr *xout, int *fl) {
  pscr_status st = PSCR_OK;
  CUdeviceptr flags = j->s->flags;
  int lq = log2i(j->s->gs_q), q = 1 << lq;
  int W = slot_group(j, q, 6, j->s->gs_w);
  long long GP = j->s->gs_gp;
  long long P = (n + sh + q - 1) / q, nt = (P + W - 1) / W;
  /* levels: np[l] pairs per system, cnt[l] = batch np[l] */
  long long np[GS_LEVELS], cnt[GS_LEVELS];
  int top = 0;
  np[0] = P;
  cnt[0] = batch * P;
  while (np[top] > GS_DIRECT && top + 1 < GS_LEVELS) {
    np[top + 1] = (np[top] + GP - 1) / GP;
    cnt[top + 1] = batch * np[top + 1];
    top++;
  }
  size_t es = j->esize, total = 0, off_pr[GS_LEVELS], off_yb[GS_LEVELS];
  for (int l = 0; l <= top; l++) {
    off_pr[l] = total;
    total += td_align(GS_FIELDS * (size_t)cnt[l] * es);
    off_yb[l] = total;
    if (l < top) total += td_align(6 * (size_t)cnt[l] * es); /* Y, W, V of 2 rows per pair */
  }
  CUdeviceptr w;
  /* xout (if any) right after the work areas: a second pass on the same
   * shape uses the same areas and leaves it alone */
  TRY(cuda_work(j->ctx, total + xbytes, &w));
  CUdeviceptr none = 0, xo = keep ? w + total : 0;
  *xout = xo;
  int zero = 0, one = 1;
  size_t tb = 6 * (size_t)W * (size_t)(q + 1) * es;
  {
    void *args[] = {SRC_ARGS(src), &n, &sh, &lq, &P, &nt, &zero, &(CUdeviceptr){w + off_pr[0]},
                    &cnt[0], &b, &none, &flags};
    TRY(td_launch(j, "td_gs_tile", (size_t)(batch * nt) * (size_t)W, W, tb, args));
  }
  int LW = slot_group(j, 2 * (int)GP, 6, 64), RW = slot_group(j, 2 * (int)GP, 3, 64);
  for (int l = 0; l < top; l++) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    CUdeviceptr pr = w + off_pr[l], nx = w + off_pr[l + 1], yb = w + off_yb[l];
    void *args[] = {&np[l], &GP, &G, &blocks, &pr, &cnt[l], &nx, &cnt[l + 1], &yb, &flags};
    TRY(td_launch(j, "td_gs_level", (size_t)blocks, LW, 6 * (size_t)LW * (2 * GP + 1) * es, args));
  }
  {
    int DW = slot_group(j, 2 * GS_DIRECT, 6, GS_DIRECT_WG);
    CUdeviceptr pr = w + off_pr[top];
    void *args[] = {&np[top], &batch, &pr, &cnt[top], &flags};
    TRY(td_launch(j, "td_gs_direct", (size_t)batch, DW, 6 * (size_t)DW * (2 * GS_DIRECT + 1) * es,
                  args));
  }
  for (int l = top - 1; l >= 0; l--) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    CUdeviceptr pr = w + off_pr[l], nx = w + off_pr[l + 1], yb = w + off_yb[l];
    void *args[] = {&np[l], &GP, &G, &blocks, &pr, &cnt[l], &nx, &cnt[l + 1], &yb};
    TRY(td_launch(j, "td_gs_recover", (size_t)blocks, RW, 3 * (size_t)RW * (2 * GP + 1) * es,
                  args));
  }
  {
    void *args[] = {SRC_ARGS(src), &n, &sh, &lq, &P, &nt, &one, &(CUdeviceptr){w + off_pr[0]},
                    &cnt[0], &b, &xo, &flags};
    TRY(td_launch(j, "td_gs_tile", (size_t)(batch * nt) * (size_t)W, W, tb, args));
  }
  j->partitions = (int)(P < 0x7fffffff ? P : 0x7fffffff);
  TRY(cuda_td_flags_read(j, fl));
cleanup:
  return st;
}

/* x += A^{-1} (b - A x) once when partitions were modified (the CPU's
 * spike_tmpl.c does the same: the rank-1 correction costs a few digits) or a
 * near-singular block was kept unmodified (TD_QR_WEAK, td_qr.h). */
pscr_status cuda_td_solve_gspike(td_job *j, td_src src, long long n, long long batch,
                                 CUdeviceptr b) {
  pscr_status st = PSCR_OK;
  int fl[TD_FLAG_WORDS];
  size_t xbytes = td_align((size_t)n * (size_t)batch * j->esize);
  CUdeviceptr x;
  long long sh = 0;
  TRY(gs_pass(j, src, n, sh, batch, b, 1, xbytes, &x, fl));
  if (fl[TD_FLAG_FALLBACK] && !fl[0] && !fl[1]) { /* again on the shifted grid */
    sh = j->s->gs_q / 2;
    TRY(cuda_status(j->s->drv.cuMemsetD32Async(j->s->flags, 0, TD_FLAG_WORDS, j->s->stream)));
    TRY(gs_pass(j, src, n, sh, batch, b, 1, xbytes, &x, fl));
  }
  j->modified_blocks = fl[TD_FLAG_MODIFIED];
  if (fl[0] || fl[1]) goto cleanup;
  if (fl[TD_FLAG_FALLBACK]) {
    j->modified_blocks = 0;
    TRY(whole(j, src, n, batch, b));
    goto cleanup;
  }
  if (fl[TD_FLAG_MODIFIED] == 0 && fl[TD_FLAG_REFINE] == 0) goto cleanup;
  {
    long long total = n * batch;
    int f2[TD_FLAG_WORDS];
    CUdeviceptr none;
    void *ra[] = {SRC_ARGS(src), &n, &total, &x, &b, &j->s->flags};
    TRY(td_launch(j, "td_gs_resid", (size_t)total, TD_LINE_WG, 0, ra));
    TRY(cuda_status(j->s->drv.cuMemsetD32Async(j->s->flags + 3 * sizeof(int), 0,
                                               TD_FLAG_WORDS - 3, j->s->stream)));
    TRY(gs_pass(j, src, n, sh, batch, b, 0, xbytes, &none, f2));
    int add = !(f2[0] || f2[1] || f2[TD_FLAG_FALLBACK]);
    void *aa[] = {SRC_ARGS(src), &n, &total, &x, &add, &b};
    TRY(td_launch(j, "td_gs_addx", (size_t)total, TD_LINE_WG, 0, aa));
    /* the status is the first pass's (OK) */
    TRY(cuda_status(j->s->drv.cuMemsetD32Async(j->s->flags, 0, TD_FLAG_WORDS, j->s->stream)));
  }
cleanup:
  return st;
}
