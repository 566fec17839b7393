/* The tiled SPIKE engine (kernels/common/td_tile.h) behind CR_PCR_THOMAS
 * (pivot = 0: Thomas partitions) and SPIKE_DIAG_PIVOT (pivot = 1: diagonal
 * pivoting partitions). A system that fits one tile (W work-items x q rows
 * in local memory) is one pass, td_tile_solve; a larger one is split into
 * tiles of T = W q rows: td_tile_fwd writes one record per tile, the records'
 * reduced system is merged up and down in groups of 2 merge_w records
 * (td_tile_gup / td_tile_gdown, one launch per level), and td_tile_bwd solves
 * every tile with its outside values. */
#include "backend/cuda/cuda_td.h"

/* Local memory of a tile of W work-items x 2^lq rows (td_tile.h). */
static size_t tile_bytes(const td_job *j, int W, int lq) {
  return (size_t)(4 * ((1 << lq) + 1) + 16) * (size_t)W * j->esize;
}

static int log2i(int v) {
  int l = 0;
  while ((1 << (l + 1)) <= v) l++;
  return l;
}

static int pow2_at_least(long long v) {
  int p = 1;
  while (p < v && p < (1 << 30)) p *= 2;
  return p;
}

/* One tile per system when it fits: smallest power-of-2 group (>= 32) for
 * q rows per work-item, q doubled while the group would exceed 1024 or the
 * local memory. Returns 0 if no single tile fits. */
static int single_shape(const td_job *j, long long n, int *W, int *lq) {
  size_t limit = td_smem_limit(j);
  for (int l = log2i(j->s->tile_q); l <= 6; l++) {
    long long need = (n + (1 << l) - 1) >> l;
    int w = pow2_at_least(need);
    if (w < 32) w = 32;
    if (w > 1024) continue;
    if (tile_bytes(j, w, l) <= limit) {
      *W = w;
      *lq = l;
      return 1;
    }
  }
  return 0;
}

pscr_status cuda_td_solve_tiled(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b,
                           int pivot) {
  pscr_status st = PSCR_OK;
  CUdeviceptr flags = j->s->flags;
  int W, lq;
  if (single_shape(j, n, &W, &lq)) {
    void *args[] = {SRC_ARGS(src), &n, &lq, &pivot, &b, &flags};
    j->partitions = (int)((n + (1 << lq) - 1) >> lq);
    return td_launch(j, "td_tile_solve", (size_t)batch * (size_t)W, W, tile_bytes(j, W, lq),
                     args);
  }
  /* several tiles per system */
  W = j->s->tile_w;
  lq = log2i(j->s->tile_q);
  while (W > 32 && tile_bytes(j, W, lq) > td_smem_limit(j)) W /= 2;
  while (lq > 1 && tile_bytes(j, W, lq) > td_smem_limit(j)) lq--;
  long long T = (long long)W << lq, nt = (n + T - 1) / T;
  int MW = j->s->merge_w;
  while (MW > 32 && (size_t)(32 * MW) * j->esize > td_smem_limit(j)) MW /= 2;
  long long C = 2 * (long long)MW;
  long long Pc[48], cnt[48];
  int levels = 0;
  Pc[0] = nt;
  cnt[0] = batch * nt;
  while (Pc[levels] > 1 && levels < 46) {
    Pc[levels + 1] = (Pc[levels] + C - 1) / C;
    cnt[levels + 1] = batch * Pc[levels + 1];
    levels++;
  }
  size_t es = j->esize, rec_total = 0, out_total = 0;
  for (int l = 0; l <= levels; l++) {
    rec_total += td_align(6 * (size_t)cnt[l] * es);
    out_total += td_align(2 * (size_t)cnt[l] * es);
  }
  CUdeviceptr w, recs[48], outs[48];
  TRY(cuda_work(j->ctx, rec_total + out_total, &w));
  recs[0] = w;
  outs[0] = w + rec_total;
  for (int l = 1; l <= levels; l++) {
    recs[l] = recs[l - 1] + td_align(6 * (size_t)cnt[l - 1] * es);
    outs[l] = outs[l - 1] + td_align(2 * (size_t)cnt[l - 1] * es);
  }
  size_t tb = tile_bytes(j, W, lq), mb = (size_t)(32 * MW) * es;
  {
    void *args[] = {SRC_ARGS(src), &n, &lq, &pivot, &T, &nt, &cnt[0], &b, &recs[0], &flags};
    TRY(td_launch(j, "td_tile_fwd", (size_t)cnt[0] * (size_t)W, W, tb, args));
  }
  for (int l = 0; l < levels; l++) {
    void *args[] = {&Pc[l], &cnt[l], &recs[l], &Pc[l + 1], &cnt[l + 1], &recs[l + 1], &flags};
    TRY(td_launch(j, "td_tile_gup", (size_t)cnt[l + 1] * (size_t)MW, MW, mb, args));
  }
  TRY(cuda_status(j->s->drv.cuMemsetD8Async(outs[levels], 0, 2 * (size_t)cnt[levels] * es,
                                            j->s->stream)));
  for (int l = levels - 1; l >= 0; l--) {
    void *args[] = {&Pc[l], &cnt[l], &recs[l], &outs[l], &Pc[l + 1], &cnt[l + 1], &outs[l + 1]};
    TRY(td_launch(j, "td_tile_gdown", (size_t)cnt[l + 1] * (size_t)MW, MW, mb, args));
  }
  {
    void *args[] = {SRC_ARGS(src), &n, &lq, &pivot, &T, &nt, &cnt[0], &outs[0], &b, &flags};
    TRY(td_launch(j, "td_tile_bwd", (size_t)cnt[0] * (size_t)W, W, tb, args));
  }
  j->partitions = (int)((n + (1 << lq) - 1) >> lq);
cleanup:
  return st;
}
