/* CUDA driver emulator for developing kernels without a GPU (see README). */
#ifndef PSCR_CUDA_EMU_H
#define PSCR_CUDA_EMU_H
#include <stddef.h>

struct emu_kernel {
  const char *name;
  void (*run)(void **args);
  int barrier; /* uses BARRIER(): run work-items as fibers */
};

extern int emu_tid, emu_gid, emu_wg, emu_rank; /* emu_rank: the group's in its cluster */
extern int emu_groups; /* the launch's */
void emu_barrier(void);
void emu_cluster_arrive(void);
void emu_cluster_wait(void);
const void *emu_cluster_map(const void *p, int rank);
void *emu_local(size_t bytes);
long emu_param(int index, long def);
int emu_atomic_add(int *p, int v);
int emu_atomic_max(int *p, int v);
#endif
