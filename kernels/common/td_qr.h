/* The g-Spike block solver (seed 000 Alg. 1 step 2; the same math as
 * src/tridiag/gspike_tmpl.c): Givens QR without pivoting of one block of m
 * rows, R of bandwidth 3, applied to f and the two coupling columns, with
 * the singular-block modification of sec. 2.2. Included twice (no guard):
 * TD_QR_NAME / TD_QR_SP name the function and the address space of its
 * arrays (local memory for the tile and level kernels, global memory for the
 * one-partition fallback).
 *
 * In: rows k = 0..m-1 in dl, d, du, f (dl[0] and du[m-1] are not read); the
 * left coupling (cl0, cl1) in rows 0, 1 and the right one (cr0, cr1) in rows
 * m-2, m-1, present if left / right; mode 0: a SPIKE block, 1: the whole
 * system (exact singularity only), 2: a reduced system solved directly.
 * Out, in place: f = Y = R~^{-1} Q^T f, w = W, v = V (the spikes; U for a
 * special block), d = 1 / R_kk. Returns TD_QR_OK, TD_QR_SPECIAL (singular
 * last block: R~ = diag(R_lead, 1), *db = R_mm) or TD_QR_FAILED (a block
 * near singular but not mendable is solved unmodified: TD_QR_OK); *zeta is the
 * welcome fill-in factor (0 if the block was not modified). */
DEVICE int TD_QR_NAME(TD_QR_SP scalar *dl, TD_QR_SP scalar *d, TD_QR_SP scalar *du,
                      TD_QR_SP scalar *f, TD_QR_SP scalar *w, TD_QR_SP scalar *v, TD_QR_I m,
                      scalar cl0, scalar cl1, scalar cr0, scalar cr1, int left, int right,
                      int mode, scalar *zeta, scalar *db) {
  /* R: r0 (diagonal) over d, r1 over du, r2 over dl; y over f */
  *zeta = S_ZERO;
  *db = S_ONE;
  scalar a = d[0], bs = m > 1 ? du[0] : S_ZERO;
  scalar cy = f[0], cw = left ? cl0 : S_ZERO, cv = right ? (m == 1 ? cr1 : (m == 2 ? cr0 : S_ZERO)) : S_ZERO;
  double scale = td_max(S_ABS1(a), S_ABS1(bs)), rmin = TD_DBL_MAX;
  /* row k + 1 is read one step ahead (nb, nd, nu, nf), so its loads do not
   * wait for step k's stores (the arrays may alias, to the compiler) */
  scalar nb = S_ZERO, nd = S_ZERO, nu = S_ZERO, nf = S_ZERO;
#define TD_QR_NEXT(j) /* row j's inputs to the sweep */                                            \
  do {                                                                                             \
    nb = dl[j];                                                                                    \
    nd = d[j];                                                                                     \
    nu = (j) + 1 < m ? du[j] : S_ZERO;                                                             \
    nf = f[j];                                                                                     \
  } while (0)
  if (m > 1) TD_QR_NEXT(1);
  for (TD_QR_I k = 0; k + 1 < m; k++) {
    double c;
    scalar s, ri, r1, r2, bk = nb, dk = nd, un = nu, fk = nf;
    if (k + 2 < m) TD_QR_NEXT(k + 2);
    td_qr_step(&a, &bs, bk, dk, un, &scale, &rmin, &c, &s, &ri, &r1, &r2);
    d[k] = ri; /* 1 / R_kk */
    du[k] = r1;
    dl[k] = r2;
    f[k] = td_qr_rot(c, s, &cy, fk);
    if (left) w[k] = td_qr_rot(c, s, &cw, k == 0 ? cl1 : S_ZERO);
    if (right) v[k] = td_qr_rot(c, s, &cv, k + 2 == m ? cr1 : (k + 3 == m ? cr0 : S_ZERO));
  }
  f[m - 1] = cy;
  if (left) w[m - 1] = cw;
  if (right) v[m - 1] = cv;

  /* singularity detection (sec. 2.2), as gspike_tmpl.c */
  if (scale == 0) scale = 1; /* the zero block: every test fails */
  double rmm = S_ABS(a);
  int st = td_qr_mend(&a, right ? v[m - 1] : S_ZERO, rmin, scale, m, right, mode, zeta);
  if (st == TD_QR_FAILED) return st;
  if (!S_ISZERO(*zeta)) {
    du[m - 2] = S_FMA(du[m - 2], *zeta, v[m - 2]);
    if (m >= 3) dl[m - 3] = S_FMA(dl[m - 3], *zeta, v[m - 3]);
  }
  int special = st == TD_QR_SPECIAL;
  TD_QR_I mb = m;
  double amax = 0;
  if (special) { /* R~ = diag(R_lead, 1): U = R_lead^{-1} R(1:m-1, m) in v */
    *db = a;
    for (TD_QR_I k = 0; k + 1 < m; k++) v[k] = S_ZERO;
    v[m - 2] = du[m - 2];
    if (m >= 3) v[m - 3] = dl[m - 3];
    v[m - 1] = S_ZERO;
    mb = m - 1;
    amax = td_acc(S_ABS1(f[m - 1]), left ? S_ABS1(w[m - 1]) : 0.0);
    right = 1; /* back-substitute U */
  }
  if (!special) d[m - 1] = S_RCP(a);
  /* R x = z for z = y, w, v (the three at once); rows k + 1, k + 2 of the
   * solution carried in registers (y1, y2, ...), row k's inputs read a step
   * ahead */
  scalar y1 = S_ZERO, y2 = S_ZERO, w1 = S_ZERO, w2 = S_ZERO, v1 = S_ZERO, v2 = S_ZERO;
  scalar ny = S_ZERO, nw = S_ZERO, nv = S_ZERO, ndu = S_ZERO, ndl = S_ZERO, ndd = S_ZERO;
#define TD_QR_BACK(j) /* row j's inputs to the back-substitution */                                \
  do {                                                                                             \
    ny = f[j];                                                                                     \
    nw = left ? w[j] : S_ZERO;                                                                     \
    nv = right ? v[j] : S_ZERO;                                                                    \
    ndu = du[j];                                                                                   \
    ndl = dl[j];                                                                                   \
    ndd = d[j];                                                                                    \
  } while (0)
  if (mb > 0) TD_QR_BACK(mb - 1);
  for (TD_QR_I k = mb - 1; k >= 0; k--) {
    scalar yk = ny, wk = nw, vk = nv, uk = ndu, lk = ndl, dk = ndd;
    if (k > 0) TD_QR_BACK(k - 1);
    if (k + 1 < mb) {
      yk = S_FMS(yk, uk, y1);
      if (left) wk = S_FMS(wk, uk, w1);
      if (right) vk = S_FMS(vk, uk, v1);
    }
    if (k + 2 < mb) {
      yk = S_FMS(yk, lk, y2);
      if (left) wk = S_FMS(wk, lk, w2);
      if (right) vk = S_FMS(vk, lk, v2);
    }
    yk = S_MUL(yk, dk);
    f[k] = yk;
    amax = td_acc(amax, S_ABS1(yk));
    y2 = y1;
    y1 = yk;
    if (left) {
      wk = S_MUL(wk, dk);
      w[k] = wk;
      amax = td_acc(amax, S_ABS1(wk));
      w2 = w1;
      w1 = wk;
    }
    if (right) {
      vk = S_MUL(vk, dk);
      v[k] = vk;
      amax = td_acc(amax, S_ABS1(vk));
      v2 = v1;
      v1 = vk;
    }
  }
  /* NaN (kept by td_acc) fails too; the whole system only needs finite
   * values; a reduced system solved directly must not be near-singular */
  if (!(amax <= (mode == 1 ? TD_DBL_MAX : TD_SPIKE_BIG))) return TD_QR_FAILED;
  if (mode == 2 && !(td_min(rmin, rmm) > TD_SPIKE_DELTA * scale)) return TD_QR_FAILED;
  return st;
}
#undef TD_QR_NEXT
#undef TD_QR_BACK
