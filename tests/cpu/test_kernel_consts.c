/* The host's mirrors of kernel constants (src/backend/gpu/gpu_pscr.h: shapes
 * of pscr_reg.h and pscr_lane.h, the fields PB_* of a block in the guiding
 * data, PSCR_QG) hold the values of the #defines in the embedded kernel
 * sources: a kernel change the host misses sizes local memory or reads
 * guiding data wrongly. Skipped (77) in builds without a GPU backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_pscr.h"
#include "testing.h"

const char *pscr_gpu_kernel_source(const char *path) __attribute__((weak));
int pscr_gpu_kernel_bounds(const char *name, const char *defines, int *maxw, int *minb)
    __attribute__((weak));
char *pscr_gpu_ptx_bounds(const char *ptx, const char *defines, int *added) __attribute__((weak));
unsigned char *pscr_gpu_binary_bounds(const unsigned char *bin, size_t len, const char *defines,
                                      size_t *out_len, int *added) __attribute__((weak));

/* The integer of "#define name <int>" in kernels/<path>; -1 if absent. */
static long kernel_define(const char *path, const char *name) {
  const char *s = pscr_gpu_kernel_source(path);
  size_t len = strlen(name);
  for (const char *p = s ? strstr(s, "#define ") : NULL; p; p = strstr(p + 8, "#define ")) {
    const char *q = p + 8;
    if (strncmp(q, name, len) == 0 && (q[len] == ' ' || q[len] == '\t')) {
      char *end;
      long v = strtol(q + len, &end, 10);
      return end > q + len ? v : -1;
    }
  }
  return -1;
}

#define SAME(path, name, host)                                                                     \
  do {                                                                                             \
    long k_ = kernel_define(path, name);                                                           \
    PT_CHECK(k_ == (long)(host), "%s: %s = %ld, the host's %s = %ld", path, name, k_, #host,       \
             (long)(host));                                                                        \
  } while (0)

int main(void) {
  /* a strong reference to the library first: with only weak ones the linker
   * may drop it (--as-needed) and pscr_gpu_kernel_source reads NULL */
  PT_CHECK(pscr_backend_available(PSCR_BACKEND_CPU) == 1, "the CPU backend is available");
  if (pscr_gpu_kernel_source == NULL) return pt_failures ? pt_exit("kernel_consts") : PT_SKIP;
  PT_CHECK(pscr_gpu_kernel_source("common/pscr_reg.h") != NULL, "kernels/common/pscr_reg.h embedded");
  SAME("common/pscr_reg.h", "PR_RD", PSCR_GPU_REG_RD);
  SAME("common/pscr_reg.h", "PR_BR", PSCR_GPU_REG_BR);
  PT_CHECK(1L << kernel_define("common/pscr_reg.h", "PR_LQ") == PSCR_GPU_REG_Q,
           "pscr_reg.h: 2^PR_LQ = PSCR_GPU_REG_Q = %d", PSCR_GPU_REG_Q);
  PT_CHECK(1L << kernel_define("common/pscr_reg.h", "PR_TLSW") == PSCR_GPU_REG_TSW,
           "pscr_reg.h: 2^PR_TLSW = PSCR_GPU_REG_TSW = %d", PSCR_GPU_REG_TSW);
  SAME("common/pscr_lane.h", "PSCR_LANE_W", PSCR_GPU_LANE_W);
  SAME("common/pscr_stages.h", "PSCR_QG", PSCR_GPU_QG);
  SAME("common/pscr_reg.h", "PR_MR", PSCR_GPU_REG_MR);
  SAME("common/pscr_stages.h", "PSCR_EPW", PSCR_GPU_EPW);
  SAME("common/pscr_dense.h", "PD_BM", PSCR_GPU_PD_BM);
  SAME("common/pscr_dense.h", "PD_WG", PSCR_GPU_PD_WG);
  SAME("common/pscr_dense.h", "PD_SWG", PSCR_GPU_PD_SWG);
  SAME("common/pscr_dense.h", "PD_S64", PSCR_GPU_PD_S64);
  SAME("common/pscr_dense.h", "PD_S128", PSCR_GPU_PD_S128);
  SAME("common/pscr_dense.h", "PD_SE", PSCR_GPU_PD_SE);
  char slab[64]; /* PD_SLAB's real value, the host's */
  snprintf(slab, sizeof slab, ": %d)", PSCR_GPU_PD_SLAB);
  const char *sd = pscr_gpu_kernel_source("common/pscr_dense.h");
  sd = sd ? strstr(sd, "#define PD_SLAB ") : NULL;
  PT_CHECK(sd && strstr(sd, slab) && strstr(sd, slab) < strchr(sd, '\n'), "pscr_dense.h: PD_SLAB%s",
           slab);
  /* pscr_kron's bounds: PD_SK PD_SWG outputs of a pd_slab_product (PD_SLAB's values
   * real and complex) and twice that, as the host's */
  char slabz[64];
  snprintf(slabz, sizeof slabz, "(PSCR_COMPLEX ? %d : %d)", PSCR_GPU_PD_SLAB / 2, PSCR_GPU_PD_SLAB);
  PT_CHECK(sd && strstr(sd, slabz) && strstr(sd, slabz) < strchr(sd, '\n'), "pscr_dense.h: PD_SLAB %s",
           slabz);
  for (int z = 0; z < 2; z++) {
    long sk = (PSCR_GPU_PD_SLAB / (z ? 2 : 1) + PSCR_GPU_PD_SWG - 1) / PSCR_GPU_PD_SWG;
    PT_CHECK(PSCR_GPU_PD_KT(z) == sk * PSCR_GPU_PD_SWG && PSCR_GPU_PD_KCAP(z) == 2 * PSCR_GPU_PD_KT(z),
             "PSCR_GPU_PD_KT(%d) = %d: PD_SK %ld x PD_SWG", z, PSCR_GPU_PD_KT(z), sk);
  }
  const char *dense = pscr_gpu_kernel_source("common/pscr_dense.h");
  PT_CHECK(dense && strstr(dense, "#define PD_SK ((PD_SLAB + PD_SWG - 1) / PD_SWG)") &&
               strstr(dense, "#define PD_KT (PD_SK * PD_SWG)") &&
               strstr(dense, "#define PD_KCAP (2 * PD_KT)") &&
               strstr(dense, "#define PD_KS (PD_KT - 128)"),
           "pscr_dense.h: PD_SK, PD_KT, PD_KCAP, PD_KS as the host's mirrors assume");
  PT_CHECK(PSCR_GPU_PD_KS(0) == PSCR_GPU_PD_KT(0) - 128 && PSCR_GPU_PD_KS(1) == PSCR_GPU_PD_KT(1) - 128,
           "PSCR_GPU_PD_KS = PD_KT - 128");
  /* PD_BN's two values, real then complex, as the host's */
  char bn[64];
  snprintf(bn, sizeof bn, "(PSCR_COMPLEX ? %d : %d)", PSCR_GPU_PD_BN(1), PSCR_GPU_PD_BN(0));
  const char *def = dense ? strstr(dense, "#define PD_BN ") : NULL;
  PT_CHECK(def && strncmp(def + 14, bn, strlen(bn)) == 0, "pscr_dense.h: PD_BN %s", bn);
  static const char *pb[] = {"PB_S",  "PB_M",  "PB_ND", "PB_D",   "PB_EIG", "PB_COMP",
                             "PB_E0", "PB_VS", "PB_BS", "PB_NT",  "PB_ACC0", "PB_N"};
  static const int gb[] = {GB_S,  GB_M,  GB_ND, GB_D,  GB_EIG,  GB_COMP,
                           GB_E0, GB_VS, GB_BS, GB_NT, GB_ACC0, GB_N};
  for (size_t i = 0; i < sizeof pb / sizeof *pb; i++) SAME("common/pscr_stages.h", pb[i], gb[i]);
  /* the register-bound table's defaults (gpu_bounds.c; NVRTC's PTX checks the
   * rest in test_kernels_nvrtc, where CUDA is built) and its PTX writer */
  int w, m;
  SAME("common/pscr_reg.h", "PSCR_REG_MAXW",
       pscr_gpu_kernel_bounds("pscr_reg_fwd", "-DPSCR_COMPLEX=0", &w, &m) ? w : 0);
  SAME("common/pscr_lane.h", "PSCR_LANE_PLAIN_GROUPS",
       pscr_gpu_kernel_bounds("pscr_lane_plain", "", &w, &m) ? m : 0);
  const char *reg = pscr_gpu_kernel_source("common/td_reg.h");
  def = reg ? strstr(reg, "#define TD_REG_MAXW ") : NULL;
  int wz = 0, wr = 0;
  pscr_gpu_kernel_bounds("td_reg_solve_s", "-DPSCR_COMPLEX=1", &wz, &m);
  pscr_gpu_kernel_bounds("td_reg_solve_s", "-DPSCR_COMPLEX=0", &wr, &m);
  snprintf(bn, sizeof bn, "(PSCR_COMPLEX ? %d : %d)", wz, wr);
  PT_CHECK(def && strncmp(def + 20, bn, strlen(bn)) == 0, "td_reg.h: TD_REG_MAXW %s", bn);
  PT_CHECK(pscr_gpu_kernel_bounds("td_reg_solve_s", "-DPSCR_COMPLEX=0 -DTD_RQ=16 -DTD_REG_MAXW=512",
                                  &w, &m) &&
               w == 512 && m == 0,
           "td_reg_solve_s: the module's TD_REG_MAXW 512 (%d, %d)", w, m);
  PT_CHECK(!pscr_gpu_kernel_bounds("td_reg_bwd_s", "-DTD_RQ=16 -DTD_REG_MAXW=512 -DTD_REG_FREE=1",
                                   &w, &m),
           "td_reg_bwd_s: no bounds in a TD_REG_FREE module");
  PT_CHECK(!pscr_gpu_kernel_bounds("td_reg_perm", "", &w, &m) &&
               !pscr_gpu_kernel_bounds("td_tile_solve", "", &w, &m),
           "td_reg_perm and td_tile_solve declare no bounds");
  const char *ptx = "//\n.visible .entry td_tile_solve(\n\t.param .u64 a\n)\n{\n\tret;\n}\n"
                    ".visible .entry pscr_gemm(\n\t.param .u64 a\n)\n.reqntid 256, 1, 1\n{\n}\n"
                    ".visible .entry td_reg_solve_s()\n{\n}\n";
  const char *want = "//\n.visible .entry td_tile_solve(\n\t.param .u64 a\n)\n{\n\tret;\n}\n"
                     ".visible .entry pscr_gemm(\n\t.param .u64 a\n)\n.minnctapersm 2\n"
                     ".reqntid 256, 1, 1\n{\n}\n"
                     ".visible .entry td_reg_solve_s()\n.maxntid 640, 1, 1\n{\n}\n";
  int added = 0;
  char *out = pscr_gpu_ptx_bounds(ptx, "-DPSCR_COMPLEX=0", &added);
  PT_CHECK(out && strcmp(out, want) == 0 && added == 2, "pscr_gpu_ptx_bounds:\n%s", out);
  free(out);
  /* text it cannot read (an entry cut short) comes back as it was */
  static const char *cut[] = {".entry pscr_gemm(\n\t.param .u64 a", ".entry pscr_gemm(a)\n.reqntid",
                              ".entry ", ""};
  for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
    out = pscr_gpu_ptx_bounds(cut[i], "", &added);
    PT_CHECK(out && strcmp(out, cut[i]) == 0 && added == 0, "pscr_gpu_ptx_bounds('%s')", cut[i]);
    free(out);
  }
  /* a program binary: PTX and NVIDIA's two trailing NULs, kept; a NUL inside: none */
  static const char bin[] = ".visible .entry pscr_slab()\n{\n}\n\0"; /* and the literal's */
  static const char bwant[] = ".visible .entry pscr_slab()\n.maxntid 512, 1, 1\n"
                              ".minnctapersm 1\n{\n}\n\0";
  size_t blen = 0;
  unsigned char *bout = pscr_gpu_binary_bounds((const unsigned char *)bin, sizeof bin, "",
                                               &blen, &added);
  PT_CHECK(bout && blen == sizeof bwant && memcmp(bout, bwant, blen) == 0 && added == 1,
           "pscr_gpu_binary_bounds: PTX with two trailing NULs (%zu bytes, %d added)", blen, added);
  free(bout);
  static const char cubin[] = "\x7f" "ELF\0.entry pscr_slab()\n{\n}\n";
  bout = pscr_gpu_binary_bounds((const unsigned char *)cubin, sizeof cubin, "", &blen, &added);
  PT_CHECK(bout == NULL && blen == 0 && added == 0,
           "pscr_gpu_binary_bounds: a binary with a NUL inside");
  free(bout);
  /* the parser itself: a name that is no #define */
  PT_CHECK(kernel_define("common/pscr_reg.h", "PR_NO_SUCH") == -1, "absent #define found");
  return pt_exit("kernel_consts");
}
