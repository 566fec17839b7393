/* Partition sets J_i for any n and radix q (seed 003 section 3.2) and the
 * schedule of every step: blocks (10), their rows D, tasks, groups and the
 * row updates of (24). Plan time only. */
#include <stdint.h>
#include <stdlib.h>

#include "pscr/pscr_internal.h"

int pscr_partition_levels(size_t n, int q, int *lev) {
  if (n == 0 || q < 2 || lev == NULL) return 0;
  for (size_t j = 0; j < n; j++) lev[j] = 0;
  size_t count = n, uq = (size_t)q;
  int k = 0;
  while (count > 0) { /* J_{k+1} = every q-th element of J_k */
    size_t c = 0, next = 0;
    for (size_t j = 0; j < n; j++) {
      if (lev[j] < k) continue;
      if (c % uq == uq - 1) lev[j] = k + 1, next++;
      c++;
    }
    k++;
    count = next;
  }
  return k;
}

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t nout(const pscr_block *b) { return b->nd > 2 ? b->nd : 2; }

/* Blocks of step i: maximal runs of rows not in J_i holding rows of J_{i-1}. */
static pscr_status step_blocks(pscr_level *lev, const int *levels, int i, pscr_step *st,
                               size_t *eig, size_t *comp) {
  size_t n = lev->n, nb = 0, nd = 0;
  for (size_t j = 0; j < n;) {
    if (levels[j] >= i) {
      j++;
      continue;
    }
    size_t e = j, d = 0;
    while (e < n && levels[e] < i) d += levels[e] == i - 1, e++;
    nb += d > 0, nd += d;
    j = e;
  }
  st->blocks = calloc(nb ? nb : 1, sizeof *st->blocks);
  st->dpos = malloc((nd ? nd : 1) * sizeof *st->dpos);
  if (st->blocks == NULL || st->dpos == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  st->nblocks = nb;
  nb = nd = 0;
  for (size_t j = 0; j < n;) {
    if (levels[j] >= i) {
      j++;
      continue;
    }
    size_t e = j, d0 = nd;
    for (; e < n && levels[e] < i; e++)
      if (levels[e] == i - 1) st->dpos[nd++] = e - j;
    if (nd > d0) {
      pscr_block *b = &st->blocks[nb++];
      b->s = j, b->m = e - j, b->nd = nd - d0, b->d = d0;
      b->eig = *eig, b->comp = *comp, b->e0 = st->neig;
      *eig += b->m, *comp += b->m * (2 + b->nd), st->neig += b->m;
      if (b->nd > st->max_nd) st->max_nd = b->nd;
    }
    j = e;
  }
  return PSCR_OK;
}

/* (24) row updates for the blocks b0..b1-1 that close in group g. */
static void group_rows(const pscr_level *lev, pscr_step *st, pscr_group *g, size_t b0, size_t b1) {
  g->r0 = st->nupd;
  for (size_t b = b0; b < b1; b++) {
    const pscr_block *bl = &st->blocks[b];
    if (bl->s > 0) {
      pscr_row_update *last = st->nupd > g->r0 ? &st->upd[st->nupd - 1] : NULL;
      if (last && last->row == bl->s - 1)
        last->right = (long)b;
      else
        st->upd[st->nupd++] = (pscr_row_update){bl->s - 1, -1, (long)b};
    }
    if (bl->s + bl->m < lev->n) st->upd[st->nupd++] = (pscr_row_update){bl->s + bl->m, (long)b, -1};
  }
  g->r1 = st->nupd;
}

/* Innermost: a large block's eigenpairs split into tasks of about `chunk`,
 * small blocks packed into one task of at most PSCR_INNER_LANES eigenpairs;
 * a group is a run of whole blocks with about `target` tasks (partial sums per task). */
static pscr_status inner_schedule(const pscr_level *lev, pscr_step *st, size_t target,
                                  size_t *max_tasks, size_t *max_blocks, size_t *max_tb) {
  size_t lanes = PSCR_INNER_LANES, chunk = target == SIZE_MAX ? lanes : ceil_div(st->neig, target);
  if (chunk < lanes) chunk = lanes;
  size_t nt = 0;
  for (size_t b = 0; b < st->nblocks; b++) nt += ceil_div(st->blocks[b].m, chunk);
  st->tasks = malloc((nt ? nt : 1) * sizeof *st->tasks);
  st->groups = malloc((st->nblocks ? st->nblocks : 1) * sizeof *st->groups);
  st->upd = malloc((2 * st->nblocks + 1) * sizeof *st->upd);
  if (!st->tasks || !st->groups || !st->upd) return PSCR_ERR_OUT_OF_MEMORY;
  for (size_t b = 0; b < st->nblocks;) {
    pscr_block *bl = &st->blocks[b];
    if (2 * bl->m <= lanes) { /* pack following small blocks into one chunk */
      size_t b1 = b, e = 0;
      while (b1 < st->nblocks && 2 * st->blocks[b1].m <= lanes && e + st->blocks[b1].m <= lanes)
        e += st->blocks[b1].m, st->blocks[b1].t0 = st->ntasks, st->blocks[b1++].nt = 1;
      st->tasks[st->ntasks++] = (pscr_task){b, b1 - b, 0, e}; /* nb == 1: l0..l1 of b */
      if (b1 - b > *max_tb) *max_tb = b1 - b;
      b = b1;
      continue;
    }
    size_t k = ceil_div(bl->m, chunk);
    bl->t0 = st->ntasks, bl->nt = k;
    for (size_t t = 0; t < k; t++)
      st->tasks[st->ntasks++] = (pscr_task){b, 1, bl->m * t / k, bl->m * (t + 1) / k};
    b++;
  }
  for (size_t t = 0; t < st->ntasks;) { /* groups end at block ends */
    pscr_group *g = &st->groups[st->ngroups++];
    size_t t1 = t;
    do t1++;
    while (t1 < st->ntasks && (t1 - t < target || (st->tasks[t1].nb == 1 && st->tasks[t1].l0 > 0)));
    size_t b0 = st->tasks[t].b0, b1 = st->tasks[t1 - 1].b0 + st->tasks[t1 - 1].nb;
    *g = (pscr_group){.b0 = b0, .b1 = b1, .e0 = st->blocks[b0].e0, .t0 = t, .t1 = t1};
    g->e1 = st->blocks[b1 - 1].e0 + st->blocks[b1 - 1].m;
    group_rows(lev, st, g, b0, b1);
    if (t1 - t > *max_tasks) *max_tasks = t1 - t;
    if (b1 - b0 > *max_blocks) *max_blocks = b1 - b0;
    t = t1;
  }
  return PSCR_OK;
}

/* Outer: a group is a run of whole blocks with at most `batch` eigenpairs
 * (the subproblems solved together), or a part of one larger block; block
 * accumulators (max(2,#D) sums + 2 boundary terms of (28)) live in slots. */
static pscr_status outer_schedule(const pscr_level *lev, pscr_step *st, size_t batch,
                                  size_t *max_slots) {
  size_t ng = 0;
  for (size_t b = 0; b < st->nblocks; b++) ng += ceil_div(st->blocks[b].m, batch);
  st->groups = malloc((ng ? ng : 1) * sizeof *st->groups);
  st->upd = malloc((2 * st->nblocks + 1) * sizeof *st->upd);
  if (!st->groups || !st->upd) return PSCR_ERR_OUT_OF_MEMORY;
  for (size_t b = 0; b < st->nblocks;) {
    pscr_block *bl = &st->blocks[b];
    if (bl->m > batch) { /* one large block over several groups */
      size_t parts = ceil_div(bl->m, batch);
      bl->slot = 0;
      for (size_t p = 0; p < parts; p++) {
        pscr_group *g = &st->groups[st->ngroups++];
        *g = (pscr_group){.b0 = b,
                          .b1 = b + 1,
                          .e0 = bl->e0 + bl->m * p / parts,
                          .e1 = bl->e0 + bl->m * (p + 1) / parts};
        g->r0 = g->r1 = st->nupd;
        if (p + 1 == parts) group_rows(lev, st, g, b, b + 1);
      }
      if (nout(bl) + 2 > *max_slots) *max_slots = nout(bl) + 2;
      b++;
      continue;
    }
    size_t b1 = b, eigs = 0, slots = 0;
    while (b1 < st->nblocks && st->blocks[b1].m <= batch && eigs + st->blocks[b1].m <= batch) {
      st->blocks[b1].slot = slots;
      slots += nout(&st->blocks[b1]) + 2;
      eigs += st->blocks[b1++].m;
    }
    pscr_group *g = &st->groups[st->ngroups++];
    *g = (pscr_group){.b0 = b, .b1 = b1, .e0 = bl->e0, .e1 = bl->e0 + eigs};
    group_rows(lev, st, g, b, b1);
    if (slots > *max_slots) *max_slots = slots;
    b = b1;
  }
  return PSCR_OK;
}

pscr_status pscr_level_schedule(pscr_level *lev, const int *levels, int radix, int threads,
                                size_t *max_tasks, size_t *max_blocks, size_t *max_slots,
                                size_t *max_task_blocks) {
  lev->nsteps = 0;
  for (size_t j = 0; j < lev->n; j++)
    if (levels[j] + 1 > lev->nsteps) lev->nsteps = levels[j] + 1;
  (void)radix;
  lev->steps = calloc((size_t)lev->nsteps, sizeof *lev->steps);
  if (lev->steps == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  size_t eig = 0, comp = 0;
  /* threads <= 0 (devices): one group per step at the innermost level */
  size_t target = threads > 0 ? ceil_div(4 * (size_t)threads, lev->batch_max) : SIZE_MAX;
  for (int i = 1; i <= lev->nsteps; i++) {
    pscr_step *st = &lev->steps[i - 1];
    pscr_status s = step_blocks(lev, levels, i, st, &eig, &comp);
    if (s == PSCR_OK)
      s = lev->innermost ? inner_schedule(lev, st, target, max_tasks, max_blocks, max_task_blocks)
                         : outer_schedule(lev, st, lev->batch_max, max_slots);
    if (s != PSCR_OK) return s;
  }
  lev->neig = eig, lev->ncomp = comp;
  return PSCR_OK;
}

void pscr_level_free_schedule(pscr_level *lev) {
  if (lev->steps == NULL) return;
  for (int i = 0; i < lev->nsteps; i++) {
    pscr_step *st = &lev->steps[i];
    free(st->blocks), free(st->tasks), free(st->groups), free(st->upd), free(st->dpos);
  }
  free(lev->steps);
  lev->steps = NULL;
}
