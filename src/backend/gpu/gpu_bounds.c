/* The register bounds the kernels declare, KERNEL_BOUNDED(W, B) and
 * KERNEL_MAXW(W) (CUDA's __launch_bounds__), for the one OpenCL platform that
 * can take them: OpenCL C has no spelling for them, and NVIDIA's compiler
 * then takes registers freely. H100, driver 580: pscr_gemm 192 registers
 * (its build log) where CUDA caps it at 128, one group an SM instead of two;
 * td_reg_solve_s of 16 rows 176 for 128 by ptxas on NVRTC's PTX without the
 * bounds, half the groups. --profile, 2D Poisson 8191^2: pscr_gemm 3973 us,
 * 3404-3431 with the bounds, CUDA's 3168; 2047^2: td_reg_solve_s 179, 145,
 * CUDA's 117-127. On NVIDIA's platform the host writes the bounds into the
 * program's PTX (.maxntid, .minnctapersm) and builds that (opencl_program.c);
 * a module the host marks TD_REG_FREE gets none for td_reg.h's kernels
 * (gpu_tile.c's reg_module).
 * The table mirrors the kernels' macros; test_kernels_nvrtc holds it to the
 * directives of NVRTC's PTX, which come from the kernels' own qualifiers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_pscr.h"
#include "backend/gpu/gpu_tridiag.h"

long gpu_define_of(const char *defines, const char *name, long dflt) {
  size_t len = strlen(name);
  for (const char *p = defines ? strstr(defines, "-D") : NULL; p; p = strstr(p + 2, "-D"))
    if (strncmp(p + 2, name, len) == 0 && p[2 + len] == '=') return strtol(p + 3 + len, NULL, 10);
  return dflt;
}

/* The int of -Dname=<int> (the kernels' bounds and dtype) */
static int define_of(const char *defines, const char *name, int dflt) {
  return (int)gpu_define_of(defines, name, dflt);
}

int pscr_gpu_kernel_bounds(const char *name, const char *defines, int *maxw, int *minb) {
  int z = define_of(defines, "PSCR_COMPLEX", 0);
  *maxw = *minb = 0; /* KERNEL_MAXW: no groups an SM */
  if (strncmp(name, "td_reg_", 7) == 0 && strcmp(name, "td_reg_perm") != 0) { /* TD_REG_KERNEL */
    if (!define_of(defines, "TD_REG_FREE", 0)) /* the host's choice: gpu_tile.c */
      *maxw = define_of(defines, "TD_REG_MAXW", z ? 384 : 640);
  } else if (strncmp(name, "pscr_reg_", 9) == 0)
    *maxw = define_of(defines, "PSCR_REG_MAXW", 512); /* PSCR_REG_KERNEL */
  else if (strcmp(name, "pscr_tile_fwd") == 0 || strcmp(name, "pscr_tile_bwd") == 0)
    *maxw = z ? 256 : 512; /* PSCR_TILE_KERNEL */
  else if (strcmp(name, "pscr_lane_plain") == 0 || strcmp(name, "pscr_lane_plain_back") == 0) {
    *maxw = PSCR_GPU_LANE_W;
    *minb = define_of(defines, "PSCR_LANE_PLAIN_GROUPS", 12);
  } else if (strcmp(name, "pscr_gemm") == 0) {
    *maxw = PSCR_GPU_PD_WG;
    *minb = define_of(defines, "PD_MINB", z ? 1 : 2);
  } else if (strcmp(name, "pscr_slab") == 0 || strcmp(name, "pscr_slab64") == 0 ||
             strcmp(name, "pscr_slab128") == 0 || strcmp(name, "pscr_kron") == 0) {
    *maxw = PSCR_GPU_PD_SWG;
    *minb = 1;
  }
  return *maxw > 0;
}

/* Whether [b, e) holds the string s. */
static int holds(const char *b, const char *e, const char *s) {
  size_t n = strlen(s);
  for (; b + n <= e; b++)
    if (memcmp(b, s, n) == 0) return 1;
  return 0;
}

char *pscr_gpu_ptx_bounds(const char *ptx, const char *defines, int *added) {
  size_t len = strlen(ptx), cap = len + 1, k = 0;
  *added = 0;
  for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 7, ".entry "))
    cap += 64; /* two directives at most an entry */
  char *out = malloc(cap);
  if (out == NULL) return NULL;
  const char *p = ptx;
  for (const char *e = strstr(p, ".entry "); e; e = strstr(p, ".entry ")) {
    const char *b = e + 7, *end, *lp, *rp, *body;
    while (*b == ' ') b++;
    for (end = b; *end && *end != '(' && *end != ' ' && *end != '\n';) end++;
    if ((lp = strchr(end, '(')) == NULL || (rp = strchr(lp, ')')) == NULL ||
        (body = strchr(rp, '{')) == NULL)
      break;
    memcpy(out + k, p, (size_t)(rp + 1 - p));
    k += (size_t)(rp + 1 - p);
    p = rp + 1;
    char name[128];
    int w, m;
    if (end - b >= (long)sizeof name) continue;
    memcpy(name, b, (size_t)(end - b));
    name[end - b] = '\0';
    if (!pscr_gpu_kernel_bounds(name, defines, &w, &m)) continue;
    /* what the compiler wrote stays: .reqntid (reqd_work_group_size) or .maxntid */
    int n0 = (int)k;
    if (!holds(rp, body, ".maxntid") && !holds(rp, body, ".reqntid"))
      k += (size_t)snprintf(out + k, cap - k, "\n.maxntid %d, 1, 1", w);
    if (m > 0 && !holds(rp, body, ".minnctapersm"))
      k += (size_t)snprintf(out + k, cap - k, "\n.minnctapersm %d", m);
    *added += (int)k > n0;
  }
  memcpy(out + k, p, len - (size_t)(p - ptx) + 1);
  return out;
}

unsigned char *pscr_gpu_binary_bounds(const unsigned char *bin, size_t len, const char *defines,
                                      size_t *out_len, int *added) {
  size_t t = len;
  *added = 0;
  *out_len = 0;
  while (t > 0 && bin[t - 1] == '\0') t--; /* NVIDIA's driver ends its PTX in two NULs */
  if (t == 0 || memchr(bin, '\0', t) != NULL) return NULL; /* a cubin, say: no PTX text */
  char *ptx = malloc(t + 1);
  if (ptx == NULL) return NULL;
  memcpy(ptx, bin, t);
  ptx[t] = '\0';
  char *patched = pscr_gpu_ptx_bounds(ptx, defines, added);
  free(ptx);
  size_t plen = patched ? strlen(patched) : 0;
  char *out = patched ? realloc(patched, plen + (len - t) + 1) : NULL;
  if (out == NULL) {
    free(patched);
    *added = 0;
    return NULL;
  }
  memset(out + plen, '\0', len - t + 1); /* the NULs as given */
  *out_len = plen + (len - t);
  return (unsigned char *)out;
}
