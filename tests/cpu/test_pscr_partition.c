/* Partition sets J_i (seed 003 section 3.2) for every n <= 300 and radix 2..9
 * plus a few large n: the three conditions, the fewest steps
 * k = ceil(log_q(n+1)), (22) when n = q^k - 1; and the schedules built on
 * them: blocks, rows D, tasks, groups and (24) row updates cover everything
 * exactly once. */
#include <stdlib.h>

#include "pscr/pscr_internal.h"
#include "testing.h"

static int min_steps(size_t n, int q) {
  int k = 0;
  for (size_t p = 1; p < n + 1; p *= (size_t)q) k++;
  return k;
}

static void check_sets(size_t n, int q, int *lev) {
  int k = pscr_partition_levels(n, q, lev);
  PT_CHECK(k == min_steps(n, q), "n %zu q %d: k %d, fewest %d", n, q, k, min_steps(n, q));
  int bad = 0;
  for (int i = 1; i <= k; i++) { /* condition 3: #D_l^(i) <= q - 1 */
    size_t run = 0;
    for (size_t j = 0; j <= n; j++) {
      if (j == n || lev[j] >= i) {
        bad += run > (size_t)q - 1;
        run = 0;
      } else if (lev[j] == i - 1) {
        run++;
      }
    }
  }
  for (size_t j = 0; j < n; j++) bad += lev[j] < 0 || lev[j] >= k; /* J_k empty */
  PT_CHECK(bad == 0, "n %zu q %d: %d violations", n, q, bad);
  size_t p = 1;
  int kk = 0;
  while (p < n + 1) p *= (size_t)q, kk++;
  if (p == n + 1) { /* (22): J_i = {j q^i} (1-based) */
    int diff = 0;
    for (size_t j = 1; j <= n; j++) {
      size_t qi = 1;
      int want = 0;
      while (want + 1 < kk && j % (qi * (size_t)q) == 0) qi *= (size_t)q, want++;
      diff += lev[j - 1] != want;
    }
    PT_CHECK(diff == 0, "n %zu q %d: %d rows differ from (22)", n, q, diff);
  }
}

static void check_schedule(size_t n, int q, int threads, size_t batch, int innermost, int *lev) {
  pscr_level L = {.n = n, .len = 1, .innermost = innermost, .batch_max = batch};
  size_t mt = 0, mb = 0, ms = 0, mtb = 1;
  pscr_partition_levels(n, q, lev);
  PT_CHECK_STATUS(pscr_level_schedule(&L, lev, q, threads, &mt, &mb, &ms, &mtb), PSCR_OK);
  int bad = 0;
  size_t *elim = calloc(n, sizeof *elim), eig = 0;
  for (int i = 1; i <= L.nsteps; i++) {
    const pscr_step *st = &L.steps[i - 1];
    size_t e = 0, prev_end = 0;
    for (size_t b = 0; b < st->nblocks; b++) {
      const pscr_block *bl = &st->blocks[b];
      bad += bl->s < prev_end || bl->e0 != e || bl->eig != eig;
      prev_end = bl->s + bl->m, e += bl->m, eig += bl->m;
      bad += (bl->s > 0 && lev[bl->s - 1] < i) || (prev_end < n && lev[prev_end] < i);
      for (size_t r = 0; r < bl->nd; r++) {
        size_t row = bl->s + st->dpos[bl->d + r];
        bad += row >= prev_end || lev[row] != i - 1;
        if (row < n) elim[row]++;
      }
      for (size_t j = bl->s; j < prev_end; j++) bad += lev[j] >= i;
    }
    bad += e != st->neig;
    if (innermost) { /* tasks cover every eigenpair once, packed ones fit in one chunk */
      size_t *cov = calloc(st->neig + 1, sizeof *cov);
      for (size_t t = 0; t < st->ntasks; t++) {
        const pscr_task *tk = &st->tasks[t];
        if (tk->nb > 1) {
          size_t tot = 0;
          for (size_t j = 0; j < tk->nb; j++) {
            const pscr_block *bl = &st->blocks[tk->b0 + j];
            tot += bl->m;
            bad += bl->t0 != t || bl->nt != 1;
            for (size_t l = 0; l < bl->m; l++) cov[bl->e0 + l]++;
          }
          bad += tot > PSCR_INNER_LANES || tk->nb > mtb;
        } else {
          const pscr_block *bl = &st->blocks[tk->b0];
          bad += t < bl->t0 || t >= bl->t0 + bl->nt || tk->l1 > bl->m;
          for (size_t l = tk->l0; l < tk->l1; l++) cov[bl->e0 + l]++;
        }
      }
      for (size_t x = 0; x < st->neig; x++) bad += cov[x] != 1;
      free(cov);
    }
    size_t next_t = 0, next_b = 0, next_e = 0, upd = 0;
    for (size_t g = 0; g < st->ngroups; g++) { /* groups in order, rows of closing blocks */
      const pscr_group *gr = &st->groups[g];
      if (innermost) {
        bad += gr->t0 != next_t || gr->b0 != next_b || gr->t1 - gr->t0 > mt;
        next_t = gr->t1, next_b = gr->b1;
      } else {
        bad += gr->e0 != next_e || gr->e1 - gr->e0 > batch || gr->e1 <= gr->e0;
        next_e = gr->e1;
      }
      for (size_t r = gr->r0; r < gr->r1; r++) {
        const pscr_row_update *u = &st->upd[r];
        bad += lev[u->row] < i;
        if (u->left >= 0) bad += st->blocks[u->left].s + st->blocks[u->left].m != u->row, upd++;
        if (u->right >= 0) bad += st->blocks[u->right].s != u->row + 1, upd++;
      }
    }
    if (innermost)
      bad += next_t != st->ntasks || next_b != st->nblocks;
    else
      bad += next_e != st->neig;
    size_t sides = 0;
    for (size_t b = 0; b < st->nblocks; b++)
      sides += (st->blocks[b].s > 0) + (st->blocks[b].s + st->blocks[b].m < n);
    bad += upd != sides;
  }
  for (size_t j = 0; j < n; j++) bad += elim[j] != 1; /* every row eliminated once */
  PT_CHECK(bad == 0, "schedule n %zu q %d threads %d batch %zu inner %d: %d violations", n, q,
           threads, batch, innermost, bad);
  free(elim);
  pscr_level_free_schedule(&L);
}

int main(void) {
  int *lev = malloc(70000 * sizeof *lev);
  for (int q = 2; q <= 9; q++)
    for (size_t n = 1; n <= 300; n++) check_sets(n, q, lev);
  static const size_t big[] = {1023, 1024, 4095, 4096, 65535, 65536, 59049, 59048};
  for (size_t b = 0; b < sizeof big / sizeof *big; b++)
    for (int q = 2; q <= 5; q++) check_sets(big[b], q, lev);
  PT_CHECK(pscr_partition_levels(0, 4, lev) == 0, "n = 0");
  PT_CHECK(pscr_partition_levels(5, 1, lev) == 0, "q = 1");
  static const size_t ns[] = {1, 2, 3, 5, 15, 16, 17, 63, 64, 65, 100, 257, 1000};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++)
    for (int q = 2; q <= 7; q++) {
      check_schedule(ns[k], q, 1, 1, 1, lev);
      check_schedule(ns[k], q, 16, 1, 1, lev);
      check_schedule(ns[k], q, 4, 8, 1, lev);
      check_schedule(ns[k], q, 1, 2, 0, lev);
      check_schedule(ns[k], q, 16, 16, 0, lev);
    }
  free(lev);
  return pt_exit("test_pscr_partition");
}
