/* Every variant of the single-source tridiagonal kernels compiles with NVRTC
 * to PTX (no GPU needed) and holds every kernel entry point. Skipped (77)
 * in builds without CUDA. */
#include <stdlib.h>
#include <string.h>

#include "testing.h"

/* Defined by the CUDA backend only: a weak reference is NULL without it. */
pscr_status pscr_cuda_compile_ptx(int complex_, int wg, int smem_n, int d_max, char **ptx,
                                  size_t *size, char **log) __attribute__((weak));

static const char *const entries[] = {"td_gen",        "td_put",      "td_scan",
                                      "td_cr_reduce",  "td_cr_backsub", "td_pcr_step",
                                      "td_part_fwd",   "td_part_bwd", "td_crpcr",
                                      "td_spike_up",   "td_spike_down", "td_tile_solve",
                                      "td_tile_fwd",   "td_tile_bwd", "td_tile_gup",
                                      "td_tile_gdown", "td_gs_tile",  "td_gs_level",
                                      "td_gs_recover", "td_gs_direct", "td_gs_whole",
                                      "td_gs_resid",   "td_gs_addx"};

int main(void) {
  if (pscr_cuda_compile_ptx == NULL) return PT_SKIP;
  /* (work-group, local rows, stage D switch): the defaults and the extremes */
  const int variants[][3] = {{256, 4096, 64}, {256, 2048, 64}, {64, 256, 32}, {512, 8192, 512}};
  for (int z = 0; z < 2; z++)
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
      char *ptx = NULL, *log = NULL;
      size_t size = 0;
      pscr_status st =
          pscr_cuda_compile_ptx(z, variants[v][0], variants[v][1], variants[v][2], &ptx, &size, &log);
      PT_CHECK(st == PSCR_OK, "complex=%d wg=%d smem=%d dmax=%d: %s\n%s", z, variants[v][0],
               variants[v][1], variants[v][2], pscr_status_string(st), log ? log : "");
      PT_CHECK(log == NULL || strstr(log, "warning") == NULL, "NVRTC warnings:\n%s", log);
      for (size_t e = 0; st == PSCR_OK && e < sizeof entries / sizeof entries[0]; e++) {
        char name[64];
        snprintf(name, sizeof name, ".entry %s(", entries[e]);
        PT_CHECK(ptx != NULL && size > 0 && strstr(ptx, name) != NULL, "PTX lacks %s", name);
      }
      free(ptx);
      free(log);
    }
  return pt_exit("kernels_nvrtc");
}
