/* GSPIKE on GPUs (kernels/common/td_gspike.h, seed 000): level 0 is
 * td_gs_tile (Givens-QR partitions of gs_q rows, gs_w per tile, phase 0 up,
 * phase 1 down); the reduced system of pairs is solved by g-Spike again,
 * blocks of gs_gp pairs per work-item (td_gs_level up, td_gs_recover down),
 * until at most TD_GS_DIRECT pairs per system remain (td_gs_direct). A block
 * that no level can solve (the CPU's BLOCK_FAILED) leaves b alone and raises
 * TD_FLAG_FALLBACK; every system is then solved as one partition
 * (td_gs_whole), whose verdict is final, as spike_tmpl.c does. Sizes as the
 * CUDA backend's cuda_gspike.c. */
#include "backend/gpu/gpu_td.h"

#define GS_DIRECT 64   /* TD_GS_DIRECT */
#define GS_DIRECT_WG 8 /* work-items (systems) per group of td_gs_direct */
#define GS_SLOT_WG 64  /* most work-items of td_gs_level / td_gs_recover (their local arrays) */
#define GS_FIELDS 12   /* TD_PR_FIELDS */
#define GS_LEVELS 40

/* Work-items per group for `rows` rows x `arrays` arrays per work-item. */
static int slot_group(const td_job *j, int rows, int arrays, int want) {
  int w = want;
  while (w > 1 && ((size_t)w > j->g->max_wg ||
                   (size_t)arrays * (size_t)w * (size_t)(rows + 1) * j->esize > j->limit))
    w /= 2;
  return w;
}

/* The level-0 tile: q = 2^lq rows per partition, W partitions. */
static void tile_shape(const td_job *j, int *lq, int *W) {
  *lq = td_log2i(j->g->tune.gs_q);
  *W = slot_group(j, 1 << *lq, 6, j->g->tune.gs_w);
}

void gpu_td_gspike_params(td_job *j) {
  if (!j->g->static_local) return;
  int lq, W;
  tile_shape(j, &lq, &W);
  j->par.gq = 1 << lq;
  j->par.gw = W;
  j->par.gp = j->g->tune.gs_gp;
}

static pscr_status whole(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  pscr_status st = PSCR_OK;
  gpu_ptr w;
  size_t bytes = 6 * (size_t)n * (size_t)batch * j->esize;
  TRY(j->g->work(j->g, bytes, &w));
  gpu_arg args[] = {SRC_ARGS(src),   GPU_LONG(n),
                    GPU_LONG(batch), GPU_PTR(gpu_sub(w, 0, bytes)),
                    GPU_PTR(b),      GPU_PTR(j->g->flags)};
  TRY(td_launch(j, "td_gs_whole", (size_t)batch, 32, 0, NARGS(args), args));
  j->partitions = 1;
cleanup:
  return st;
}

pscr_status gpu_td_solve_gspike(td_job *j, gpu_td_src src, long long n, long long batch,
                                gpu_ptr b) {
  pscr_status st = PSCR_OK;
  gpu_ptr flags = j->g->flags;
  int lq, W;
  tile_shape(j, &lq, &W);
  int q = 1 << lq;
  long long GP = j->g->tune.gs_gp;
  long long P = (n + q - 1) / q, nt = (P + W - 1) / W;
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
    total += td_align(j, GS_FIELDS * (size_t)cnt[l] * es);
    off_yb[l] = total;
    if (l < top) total += td_align(j, 6 * (size_t)cnt[l] * es); /* Y, W, V of 2 rows per pair */
  }
  gpu_ptr w, pr[GS_LEVELS], yb[GS_LEVELS];
  TRY(j->g->work(j->g, total, &w));
  for (int l = 0; l <= top; l++) {
    pr[l] = gpu_sub(w, off_pr[l], GS_FIELDS * (size_t)cnt[l] * es);
    if (l < top) yb[l] = gpu_sub(w, off_yb[l], 6 * (size_t)cnt[l] * es);
  }
  size_t tb = 6 * (size_t)W * (size_t)(q + 1) * es;
  {
    /* sh = 0 (grid not shifted), xout = null (no refinement): td_gspike.h */
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),    GPU_LONG(0),      GPU_INT(lq),
                      GPU_LONG(P),   GPU_LONG(nt),   GPU_INT(0),       GPU_PTR(pr[0]),
                      GPU_LONG(cnt[0]), GPU_PTR(b),  GPU_PTR(((gpu_ptr){0})), GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_tile", (size_t)(batch * nt) * (size_t)W, W, tb, NARGS(args), args));
  }
  int LW = slot_group(j, 2 * (int)GP, 6, GS_SLOT_WG),
      RW = slot_group(j, 2 * (int)GP, 3, GS_SLOT_WG);
  for (int l = 0; l < top; l++) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    gpu_arg args[] = {GPU_LONG(np[l]), GPU_LONG(GP),     GPU_LONG(G),        GPU_LONG(blocks),
                      GPU_PTR(pr[l]),  GPU_LONG(cnt[l]), GPU_PTR(pr[l + 1]), GPU_LONG(cnt[l + 1]),
                      GPU_PTR(yb[l]),  GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_level", (size_t)blocks, LW, 6 * (size_t)LW * (size_t)(2 * GP + 1) * es,
                  NARGS(args), args));
  }
  {
    int DW = slot_group(j, 2 * GS_DIRECT, 6, GS_DIRECT_WG);
    gpu_arg args[] = {GPU_LONG(np[top]), GPU_LONG(batch), GPU_PTR(pr[top]), GPU_LONG(cnt[top]),
                      GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_direct", (size_t)batch, DW, 6 * (size_t)DW * (2 * GS_DIRECT + 1) * es,
                  NARGS(args), args));
  }
  for (int l = top - 1; l >= 0; l--) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    gpu_arg args[] = {GPU_LONG(np[l]),    GPU_LONG(GP),         GPU_LONG(G),
                      GPU_LONG(blocks),   GPU_PTR(pr[l]),       GPU_LONG(cnt[l]),
                      GPU_PTR(pr[l + 1]), GPU_LONG(cnt[l + 1]), GPU_PTR(yb[l])};
    TRY(td_launch(j, "td_gs_recover", (size_t)blocks, RW,
                  3 * (size_t)RW * (size_t)(2 * GP + 1) * es, NARGS(args), args));
  }
  {
    /* sh = 0 (grid not shifted), xout = null (no refinement): td_gspike.h */
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),    GPU_LONG(0),      GPU_INT(lq),
                      GPU_LONG(P),   GPU_LONG(nt),   GPU_INT(1),       GPU_PTR(pr[0]),
                      GPU_LONG(cnt[0]), GPU_PTR(b),  GPU_PTR(((gpu_ptr){0})), GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_tile", (size_t)(batch * nt) * (size_t)W, W, tb, NARGS(args), args));
  }
  j->partitions = (int)(P < 0x7fffffff ? P : 0x7fffffff);
  int fl[GPU_TD_FLAG_WORDS];
  TRY(j->g->flags_read(j->g, fl));
  j->modified_blocks = fl[TD_FLAG_MODIFIED];
  if (fl[TD_FLAG_FALLBACK] && !fl[0] && !fl[1]) {
    j->modified_blocks = 0;
    TRY(whole(j, src, n, batch, b));
  }
cleanup:
  return st;
}
