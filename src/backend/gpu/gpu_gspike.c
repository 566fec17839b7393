/* GSPIKE on GPUs (kernels/common/td_gspike.h, seed 000): level 0 is
 * td_gs_up, td_gs_down (Givens-QR partitions of gs_q rows, gs_w per tile);
 * the reduced system of pairs is solved by g-Spike again, blocks of gs_gp
 * pairs per work-item (td_gs_level up, td_gs_recover down),
 * until at most TD_GS_DIRECT pairs per system remain (td_gs_direct). A block
 * that no level can solve (the CPU's BLOCK_FAILED) leaves b alone and raises
 * TD_FLAG_FALLBACK; the solve is then repeated on the partition grid shifted
 * by gs_q / 2 rows, and if that fails too every system is solved as one
 * partition (td_gs_whole, then td_put), whose verdict is final, as
 * spike_tmpl.c does. Where the reduced system costs digits (random
 * matrices: nearly singular partitions, small reduced blocks) b - A x lives
 * on the partitions' end rows; the first pass measures it there and mends
 * each junction above 2^-53 ||A|| ||x|| in a window of rows around it
 * (td_gs_seam, td_gs_fix; kernels/common/td_gspike.h says why that is
 * enough). A window that fails is solved in full instead (td_gs_unfixed,
 * a second g-Spike pass on those residuals, td_gs_add). A special (singular
 * last) partition at level 0 leaves residuals inside it: then x goes to a
 * copy, and one step of iterative refinement follows, as on the CPU, within
 * a second pass (td_gs_up / td_gs_down form b - A x as they load, and
 * td_gs_down adds x as it stores). */
#include "backend/gpu/gpu_td.h"

#define GS_DIRECT 64   /* TD_GS_DIRECT */
#define GS_DIRECT_WG 8 /* most work-items (systems) per group of td_gs_direct */
#define GS_SLOT_WG 64  /* most work-items of td_gs_level / td_gs_recover */
#define GS_FIELDS 12   /* TD_PR_FIELDS */
#define GS_LEVELS 40
#define GS_FIX_WG 32     /* work-items a group of td_gs_unfixed */
#define GS_FIX_GROUP 8   /* of td_gs_fix: a tile, a round's TD_GS_CL windows at once */
#define GS_FIX_ITEMS 2048 /* their work-items, each with a window's scratch */
#define GS_FIX_SPAN 64    /* rows of a cluster of terms, fewer than: one window */

/* Work-items per group for `rows` rows x `arrays` arrays per work-item. */
static int slot_group(const td_job *j, int rows, int arrays, int want) {
  int w = want;
  while (w > 1 && ((size_t)w > j->g->max_wg ||
                   (size_t)arrays * (size_t)w * (size_t)(rows + 1) * j->esize > j->limit))
    w /= 2;
  return w;
}

/* The group sizes of every g-Spike kernel: the level-0 tile (q = 2^lq rows
 * per partition, W partitions), the reduced levels (LW, RW) and the direct
 * solve (DW). Each local array fits j->limit: on devices that size them at
 * compile time every kernel of the module must fit, launched or not. */
typedef struct {
  int lq, W, LW, RW, DW;
} gs_shape;

static gs_shape shape(const td_job *j) {
  gs_shape s;
  int gp = j->g->tune.gs_gp;
  s.lq = td_log2i(j->g->tune.gs_q);
  s.W = slot_group(j, 1 << s.lq, 4, j->g->tune.gs_w); /* td_gs_up / down: 4 arrays */
  s.LW = slot_group(j, 2 * gp, 6, GS_SLOT_WG);
  s.RW = slot_group(j, 2 * gp, 3, GS_SLOT_WG);
  s.DW = slot_group(j, 2 * GS_DIRECT, 6, GS_DIRECT_WG);
  return s;
}

void gpu_td_gspike_params(td_job *j) {
  if (!j->g->static_local) return;
  gs_shape s = shape(j);
  j->par.gq = 1 << s.lq;
  j->par.gw = s.W;
  j->par.gp = j->g->tune.gs_gp;
  j->par.glw = s.LW;
  j->par.grw = s.RW;
  j->par.gdw = s.DW;
}

/* Every system as one partition: x into the scratch, then td_put writes it
 * unless a system was singular (b untouched then). */
static pscr_status whole(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  pscr_status st = PSCR_OK;
  size_t len = (size_t)n * (size_t)batch * j->esize, ld = td_align(j, len);
  long long total = n * batch;
  gpu_ptr w, none = {0};
  TRY(j->g->work(j->g, 6 * ld, &w));
  gpu_ptr scr = gpu_sub(w, 0, 6 * ld), x = gpu_sub(w, 3 * ld, len);
  {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(batch),     GPU_LONG(ld / j->esize),
                      GPU_PTR(scr),  GPU_PTR(b),  GPU_PTR(j->g->flags)};
    TRY(td_launch(j, "td_gs_whole", (size_t)batch, 32, 0, NARGS(args), args));
  }
  {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(total), GPU_PTR(x),
                      GPU_PTR(none), GPU_INT(0),  GPU_PTR(b),      GPU_PTR(j->g->flags)};
    TRY(td_launch(j, "td_put", (size_t)total, j->line_wg, 0, NARGS(args), args));
  }
  j->partitions = 1;
cleanup:
  return st;
}

/* The residual check's areas (td_gspike.h): fx ints, the tiles' slots, and
 * the windows' scratch. */
typedef struct {
  gpu_ptr fx, slot, scr;
  long long nt, tiles, K, WL; /* tiles a system, in all; window reach and length */
} gs_fix;

/* One g-Spike solve of b in place on the grid shifted by sh rows, then reads
 * the status words into fl. keep: if a level-0 partition is special, the
 * solution goes to *xout (right after the work areas, xbytes) and b keeps
 * the right-hand side; a second pass on the same grid uses the same areas
 * and leaves *xout alone. With xin (a refinement step), the right-hand side
 * is b - A xin and b gets xin + the solution. check (first passes): the
 * residual check and its windows, whose areas *fix describes afterwards. */
static pscr_status gs_pass(td_job *j, gpu_td_src src, long long n, long long sh, long long batch,
                           gpu_ptr b, int keep, size_t xbytes, gpu_ptr *xout, gpu_ptr xin,
                           int check, gs_fix *fix, int fl[GPU_TD_FLAG_WORDS]) {
  pscr_status st = PSCR_OK;
  gpu_ptr flags = j->g->flags, none = {0};
  gs_shape s = shape(j);
  int q = 1 << s.lq, W = s.W;
  long long GP = j->g->tune.gs_gp;
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
    total += td_align(j, GS_FIELDS * (size_t)cnt[l] * es);
    off_yb[l] = total;
    if (l < top) total += td_align(j, 6 * (size_t)cnt[l] * es); /* Y, W, V of 2 rows per pair */
  }
  /* the check (td_gspike.h): fx ints, 2 W + 6 slots a tile, 4 WL scalars a
   * work-item of td_gs_fix */
  gs_fix fx = {.nt = nt, .tiles = batch * nt};
  size_t fx_bytes = (size_t)(4 + ((W + 15) / 16 + 2) * fx.tiles + 2 * batch) * sizeof(int);
  size_t slot_bytes = (size_t)fx.tiles * (size_t)(2 * W + 6) * es;
  long long L = (long long)W * q;
  int te = j->g->tune.gs_fix_tau; /* the check's threshold 2^-te ||A|| ||x|| */
  fx.K = j->g->tune.gs_fix_k < (L - 1) / 2 ? j->g->tune.gs_fix_k : (L - 1) / 2; /* 2 K < L */
  fx.WL = GS_FIX_SPAN + 2 * fx.K + 2;
  size_t scr_bytes = (size_t)GS_FIX_ITEMS * 4 * (size_t)fx.WL * es, off_fx = total;
  if (check) total += td_align(j, fx_bytes) + td_align(j, slot_bytes) + td_align(j, scr_bytes);
  gpu_ptr w, pr[GS_LEVELS], yb[GS_LEVELS];
  TRY(j->g->work(j->g, total + xbytes, &w));
  if (check) {
    fx.fx = gpu_sub(w, off_fx, fx_bytes);
    fx.slot = gpu_sub(w, off_fx + td_align(j, fx_bytes), slot_bytes);
    fx.scr = gpu_sub(w, off_fx + td_align(j, fx_bytes) + td_align(j, slot_bytes), scr_bytes);
    TRY(j->g->zero(j->g, fx.fx, fx_bytes));
  }
  if (fix) *fix = fx;
  for (int l = 0; l <= top; l++) {
    pr[l] = gpu_sub(w, off_pr[l], GS_FIELDS * (size_t)cnt[l] * es);
    if (l < top) yb[l] = gpu_sub(w, off_yb[l], 6 * (size_t)cnt[l] * es);
  }
  gpu_ptr xo = keep ? gpu_sub(w, total, xbytes) : none;
  *xout = xo;
  size_t tb = 4 * (size_t)W * (size_t)(q + 1) * es;
  size_t items = (size_t)(batch * nt) * (size_t)W;
  {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),      GPU_LONG(sh), GPU_INT(s.lq),
                      GPU_LONG(P),   GPU_LONG(nt),     GPU_PTR(pr[0]), GPU_LONG(cnt[0]),
                      GPU_PTR(b),    GPU_PTR(xin),     GPU_PTR(fx.fx), GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_up", items, W, tb, NARGS(args), args));
  }
  for (int l = 0; l < top; l++) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    gpu_arg args[] = {GPU_LONG(np[l]), GPU_LONG(GP),     GPU_LONG(G),        GPU_LONG(blocks),
                      GPU_PTR(pr[l]),  GPU_LONG(cnt[l]), GPU_PTR(pr[l + 1]), GPU_LONG(cnt[l + 1]),
                      GPU_PTR(yb[l]),  GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_level", (size_t)blocks, s.LW,
                  6 * (size_t)s.LW * (size_t)(2 * GP + 1) * es, NARGS(args), args));
  }
  {
    gpu_arg args[] = {GPU_LONG(np[top]), GPU_LONG(batch), GPU_PTR(pr[top]), GPU_LONG(cnt[top]),
                      GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_direct", (size_t)batch, s.DW,
                  6 * (size_t)s.DW * (2 * GS_DIRECT + 1) * es, NARGS(args), args));
  }
  for (int l = top - 1; l >= 0; l--) {
    long long G = np[l + 1], blocks = cnt[l + 1];
    gpu_arg args[] = {GPU_LONG(np[l]),    GPU_LONG(GP),         GPU_LONG(G),
                      GPU_LONG(blocks),   GPU_PTR(pr[l]),       GPU_LONG(cnt[l]),
                      GPU_PTR(pr[l + 1]), GPU_LONG(cnt[l + 1]), GPU_PTR(yb[l])};
    TRY(td_launch(j, "td_gs_recover", (size_t)blocks, s.RW,
                  3 * (size_t)s.RW * (size_t)(2 * GP + 1) * es, NARGS(args), args));
  }
  {
    gpu_arg args[] = {SRC_ARGS(src),    GPU_LONG(n),  GPU_LONG(sh),   GPU_INT(s.lq),
                      GPU_LONG(P),      GPU_LONG(nt), GPU_PTR(pr[0]), GPU_LONG(cnt[0]),
                      GPU_PTR(b),       GPU_PTR(xo),  GPU_PTR(xin),   GPU_PTR(fx.fx),
                      GPU_PTR(fx.slot), GPU_INT(te),  GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_down", items, W, tb, NARGS(args), args));
  }
  if (check) {
    gpu_arg args[] = {SRC_ARGS(src),      GPU_LONG(n),  GPU_LONG(sh),      GPU_INT(s.lq),
                      GPU_LONG(nt),       GPU_LONG(fx.tiles), GPU_LONG(W), GPU_PTR(b),
                      GPU_PTR(fx.fx),     GPU_PTR(fx.slot),   GPU_INT(te),     GPU_PTR(flags)};
    TRY(td_launch(j, "td_gs_seam", (size_t)fx.tiles, j->line_wg, 0, NARGS(args), args));
    for (int color = 0; color < 2; color++) { /* tiles by parity: windows never overlap */
      gpu_arg fa[] = {SRC_ARGS(src),    GPU_LONG(n),     GPU_LONG(sh),     GPU_INT(s.lq),
                      GPU_LONG(nt),     GPU_LONG(fx.tiles), GPU_LONG(W),   GPU_INT(color),
                      GPU_LONG(fx.K),   GPU_LONG(GS_FIX_SPAN), GPU_LONG(fx.WL),
                      GPU_LONG(GS_FIX_ITEMS), GPU_PTR(fx.scr),
                      GPU_PTR(b),       GPU_PTR(fx.fx),  GPU_PTR(fx.slot), GPU_INT(te),
                      GPU_PTR(flags)};
      TRY(td_launch(j, "td_gs_fix", GS_FIX_ITEMS, GS_FIX_GROUP, 0, NARGS(fa), fa));
    }
  }
  j->partitions = (int)(P < 0x7fffffff ? P : 0x7fffffff);
  TRY(j->g->flags_read(j->g, fl));
cleanup:
  return st;
}

/* A window of the check failed: z = the failed tiles' residual terms, solved
 * in full (g-Spike on the same grid, no check), added to x in b. z takes the
 * first pass's x area, in b's layout (td_rhs_index). */
static pscr_status unfixed(td_job *j, gpu_td_src src, long long n, long long sh, long long batch,
                           gpu_ptr b, size_t xbytes, gpu_ptr z, const gs_fix *fx) {
  pscr_status st = PSCR_OK;
  int fl[GPU_TD_FLAG_WORDS];
  gpu_ptr unused, none = {0};
  gs_shape s = shape(j);
  long long total = n * batch;
  TRY(j->g->zero(j->g, z, xbytes));
  {
    gpu_arg args[] = {SRC_ARGS(src),   GPU_LONG(n),         GPU_LONG(sh),   GPU_INT(s.lq),
                      GPU_LONG(fx->nt), GPU_LONG(fx->tiles), GPU_LONG(s.W),  GPU_LONG(GS_FIX_ITEMS),
                      GPU_PTR(z),      GPU_PTR(fx->fx),     GPU_PTR(fx->slot)};
    TRY(td_launch(j, "td_gs_unfixed", GS_FIX_ITEMS, GS_FIX_WG, 0, NARGS(args), args));
  }
  TRY(j->g->flags_clear(j->g));
  TRY(gs_pass(j, src, n, sh, batch, z, 0, xbytes, &unused, none, 0, NULL, fl));
  TRY(j->g->flags_clear(j->g)); /* the status is the first pass's (OK) */
  if (!(fl[TD_FLAG_NONFINITE] || fl[TD_FLAG_SINGULAR] || fl[TD_FLAG_FALLBACK])) {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(total), GPU_PTR(z), GPU_PTR(b)};
    TRY(td_launch(j, "td_gs_add", (size_t)total, j->line_wg, 0, NARGS(args), args));
  }
cleanup:
  return st;
}

/* x += A^{-1} (b - A x) once when a level-0 partition was special (the CPU's
 * spike_tmpl.c refines after any modification); else the first pass's
 * residual check has mended x where b - A x was above 2^-53 ||A|| ||x||. */
pscr_status gpu_td_solve_gspike(td_job *j, gpu_td_src src, long long n, long long batch,
                                gpu_ptr b) {
  pscr_status st = PSCR_OK;
  int fl[GPU_TD_FLAG_WORDS];
  /* the first pass's x (keep), or the failed windows' residuals in b's layout */
  long long zlen = (src.sys0 + batch - 1) * src.sstride + n * src.rstep;
  size_t xbytes = td_align(j, (size_t)(zlen > n * batch ? zlen : n * batch) * j->esize);
  gpu_ptr x, none = {0};
  gs_fix fx;
  long long sh = 0;
  TRY(gs_pass(j, src, n, sh, batch, b, 1, xbytes, &x, none, 1, &fx, fl));
  if (fl[TD_FLAG_FALLBACK] && !fl[TD_FLAG_NONFINITE] && !fl[TD_FLAG_SINGULAR]) {
    sh = j->g->tune.gs_q / 2; /* again on the shifted grid */
    TRY(j->g->flags_clear(j->g));
    TRY(gs_pass(j, src, n, sh, batch, b, 1, xbytes, &x, none, 1, &fx, fl));
  }
  j->modified_blocks = fl[TD_FLAG_MODIFIED];
  if (fl[TD_FLAG_NONFINITE] || fl[TD_FLAG_SINGULAR]) goto cleanup;
  if (fl[TD_FLAG_FALLBACK]) {
    j->modified_blocks = 0;
    TRY(whole(j, src, n, batch, b));
    goto cleanup;
  }
  if (fl[TD_FLAG_REFINE] && !fl[TD_FLAG_SPECIAL0]) {
    TRY(unfixed(j, src, n, sh, batch, b, xbytes, x, &fx));
    goto cleanup;
  }
  if (fl[TD_FLAG_SPECIAL0] == 0) goto cleanup;
  {
    int f2[GPU_TD_FLAG_WORDS];
    gpu_ptr unused;
    TRY(j->g->flags_clear(j->g)); /* words 0..2 are clear here: only the g-Spike counts go */
    TRY(gs_pass(j, src, n, sh, batch, b, 0, xbytes, &unused, x, 0, NULL, f2));
    TRY(j->g->flags_clear(j->g)); /* the status is the first pass's (OK) */
    if (f2[TD_FLAG_NONFINITE] || f2[TD_FLAG_SINGULAR] || f2[TD_FLAG_FALLBACK]) {
      long long total = n * batch; /* b untouched: the first pass's x */
      gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),  GPU_LONG(total), GPU_PTR(x),
                        GPU_PTR(none), GPU_INT(0),   GPU_PTR(b),      GPU_PTR(j->g->flags)};
      TRY(td_launch(j, "td_put", (size_t)total, j->line_wg, 0, NARGS(args), args));
    }
  }
cleanup:
  return st;
}
