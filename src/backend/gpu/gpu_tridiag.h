/* Internal, shared by the GPU backends: which tridiagonal kernels of
 * kernels/common/td_*.h run, in which order, on which sizes, for every
 * algorithm, plain batches and shifted systems alike. A backend supplies a
 * small device interface (gpu_device: buffers, launches, status words);
 * everything else - layouts of the work arrays, level loops, tile shapes,
 * AUTO, the status words -> pscr_status mapping - lives once here
 * (gpu_tridiag.c, gpu_tile.c, gpu_gspike.c). The adapters are
 * src/backend/cuda/cuda_device.c (gpu_arg -> void *args[], gpu_ptr ->
 * CUdeviceptr + off) and src/backend/opencl/opencl_tridiag.c (cl_mem and
 * the byte offset, two arguments); both fill a gpu_device through the backend-table hook `gpu`. */
#ifndef PSCR_BACKEND_GPU_TRIDIAG_H
#define PSCR_BACKEND_GPU_TRIDIAG_H

#include <stddef.h>

#include "core/context.h"

/* A device address: a native buffer (CUdeviceptr cast, or cl_mem) plus a byte
 * offset into it; len > 0 bounds a sub-array of the work buffer (OpenCL checks
 * that it lies inside). {NULL, 0, 0} is the null pointer of the kernels. */
typedef struct {
  void *mem;
  size_t off, len;
} gpu_ptr;

/* The sub-array of `len` bytes at byte `off` of the work buffer w. */
static inline gpu_ptr gpu_sub(gpu_ptr w, size_t off, size_t len) {
  w.off += off;
  w.len = len;
  return w;
}

/* Kernel arguments: `long` and `int` of the kernels, and pointers; a
 * kernel's PKBASE / PKPTR parameters (td_scalar.h) take GPU_PKBASE(the pack)
 * and GPU_PKPTR(the pointer, its offset in scalars in the pack or -1): the
 * device's pack_args says which of the two it passes. A kernel that starts
 * with XBASE takes GPU_XBASE() and its pointers as GPU_XPTR (gpu_launch_x
 * makes them): the device's launch picks the base. */
typedef enum {
  GPU_ARG_PTR,
  GPU_ARG_LONG,
  GPU_ARG_INT,
  GPU_ARG_PKBASE,
  GPU_ARG_PKPTR,
  GPU_ARG_XBASE,
  GPU_ARG_XPTR
} gpu_arg_kind;
typedef struct {
  gpu_arg_kind kind;
  gpu_ptr p;
  long long l;
  int i;
} gpu_arg;
#define GPU_PTR(x) ((gpu_arg){.kind = GPU_ARG_PTR, .p = (x)})
#define GPU_LONG(x) ((gpu_arg){.kind = GPU_ARG_LONG, .l = (long long)(x)})
#define GPU_INT(x) ((gpu_arg){.kind = GPU_ARG_INT, .i = (int)(x)})
#define GPU_PKBASE(x) ((gpu_arg){.kind = GPU_ARG_PKBASE, .p = (x)})
#define GPU_PKPTR(x, at) ((gpu_arg){.kind = GPU_ARG_PKPTR, .p = (x), .l = (long long)(at)})
#define GPU_XBASE() ((gpu_arg){.kind = GPU_ARG_XBASE})
#define GPU_XPTR(x) ((gpu_arg){.kind = GPU_ARG_XPTR, .p = (x)})

/* The compile-time parameters of one kernel module (-D macros). The local
 * array sizes (tile_local .. gdw) are set only for devices whose LOCAL_ARRAY
 * is sized at compile time (static_local: OpenCL); 0 leaves them out, and the
 * module then depends on the dtype alone (CUDA). */
typedef struct {
  int complex_;      /* PSCR_COMPLEX */
  int tile_local;    /* TD_TILE_LOCAL: scalars of the tile kernels' local array */
  int tw;            /* TD_TW: work-items of the tile-record merge (td_tile_gup/gdown) */
  int gq, gw, gp;    /* TD_GQ, TD_GW, TD_GP: g-Spike partition rows, tile and block sizes */
  int glw, grw, gdw; /* TD_GS_LW, TD_GS_RW, TD_GS_DW: g-Spike reduced-level groups */
  int reg_ph;        /* TD_REG_PH where > 1: parts td_reg.h stages its tile in */
  int reg_q;         /* TD_RQ where set: rows a work-item of td_reg.h (0: 8 real, 4 complex) */
  int reg_ysm;       /* TD_REG_YSM: one-tile shifted td_reg.h solves keep y in local memory
                      * (1), the shifted second pass too (2: tune.pass_ysm) */
  int reg_free;      /* TD_REG_FREE: no register bounds written for td_reg.h's kernels
                      * where the host writes them (NVIDIA's OpenCL: gpu_bounds.c) */
  int reg_slim;      /* TD_REG_SLIM: td_reg.h's one tile merged by shuffles, x stored in parts */
} gpu_td_params;

/* Work-items a group of td_reg.h's kernels at most (TD_REG_MAXW: their registers' cap). */
int gpu_td_reg_maxw(const gpu_td_params *p);

/* gpu_device.warp_shfl: 1 where the dialect gives the kernels shuffles and
 * $PSCR_KERNEL_DEFINES does not take them away (-DTD_NO_SHFL, for A/B). */
int gpu_kernel_shfl(int dialect);

/* Writes the -D options of p ("-DPSCR_COMPLEX=1 -DTD_TILE_LOCAL=6656 ...") into buf. */
void gpu_td_params_defines(const gpu_td_params *p, char *buf, size_t size);

/* Launch-time tuning of a context (defaults from gpu_td_tuning_default). */
typedef struct {
  int thomas_wg; /* work-group of the THOMAS kernels (one work-item per system) */
  int tile_q;    /* rows per work-item of the tiled engine (power of 2) */
  int tile_mq, tile_mw; /* rows a work-item and work-items of SPIKE_DIAG_PIVOT's real
                         * multi-tile passes (H100, tiles loaded by cp.async: 8 x 64 took one
                         * system 2^26 from 2.94 to 2.75x floor, random 3.22 to 3.11, batch
                         * 16384 x 1024 3.06 to 2.95, 8192 x 8192 2.90 to 2.74, against 4 x
                         * 128; before cp.async 4 x 128 won) */
  int tile_w;    /* work-items per tile of the multi-tile passes */
  int tile_mqz, tile_wz; /* rows a work-item and work-items of SPIKE_DIAG_PIVOT's complex
                          * multi-tile passes (H100, shifted C128 batches: 64 x 8 took
                          * 4096 x 4096 from 2.04 to 1.88 ms and 8192 x 8192 from 7.98 to
                          * 7.33 against 128 x 4; plain batches within 1 %) */
  int merge_w;   /* work-items of the tile-record merge (2x records each) */
  int merge_multi; /* 1 (default): the merge takes several whole systems a group (gpu_merge_shape) */
  int merge_self; /* 1 (default): td_tile_bwd merges a system of nt <= W tiles itself (td_merge_self) */
  int gs_q;      /* g-Spike rows per level-0 partition (power of 2) */
  int gs_w;      /* g-Spike partitions per tile */
  int gs_gp;     /* g-Spike pairs per reduced-level block */
  int gs_fix_k;  /* g-Spike: rows a residual window reaches past its junctions (td_gs_fix) */
  int gs_fix_tau; /* g-Spike: the residual check mends terms above 2^-gs_fix_tau ||A|| ||x|| */
  int pscr_w;    /* work-items of a fused PSCR tile of one system, at most */
  int pscr_tw;   /* work-items per tile of the fused PSCR multi-tile passes */
  int pscr_tq;   /* rows per work-item of those tiles, at most (0, the default: 8 real,
                  * 4 complex) */
  int profile;    /* 1: every launch timed alone and added to the kernel stats (benchmarks'
                   * --profile; each launch then waits for the device) */
  int pscr_local; /* bytes of local memory a fused PSCR tile may take, at most (0: the
                   * device's; 49152 on CUDA: OpenCL's shapes on NVIDIA, for A/B runs) */
  int reg_q, reg_ph; /* td_reg.h's rows a work-item and the parts its tile is staged in
                      * (0, the default: gpu_tile.c's choice by dtype, source and size, and
                      * the fewest parts that fit) */
  int tile_reg;  /* 1 (default): one-tile CR_PCR_THOMAS systems with their rows in registers
                  * (td_reg.h), 0: on the local-memory tiles (td_tile.h) */
  int reg_min;   /* one-pass td_reg.h solves only for batches of reg_min rows in all, or
                  * more (else td_tile.h's, one launch where td_reg.h's take two): 0
                  * (default), 2^18 on OpenCL GPUs, whose driver takes 6-11 us of
                  * host time an enqueue (sources with a gpu_td_perm cache, PSCR
                  * plans', take td_reg.h's at every size) */
  int reg_slim;  /* shifted complex lines too long for one td_reg.h tile in local memory:
                  * 1 (default) one slim tile (TD_REG_SLIM) where the kernels have warp
                  * shuffles, 0 the two passes, 2 the slim tile wherever it is allowed,
                  * real lines of 16-row partitions too (tests: CUDA's memory would take
                  * the usual tile; trials) */
  int reg_wspec; /* 1 (default): shifted one-tile systems on td_reg_solve_s of their group
                  * size W (td_reg_solve_s32 .. s256, td_reg_clu_s128), 0 the generic one */
  int tile_clu;  /* td_reg.h's systems of 2 .. tile_clu tiles in one pass, a cluster of
                  * groups a system (td_reg_clu), where the device has clusters (default
                  * 8; 0: never, the two passes) */
  int clu_w;     /* work-items of td_reg_clu's tiles, at least (default 128) */
  int pass_ysm;  /* 1: the shifted second pass (td_reg_bwd_s*) keeps y in local memory
                  * where it fits; 0 (default) in registers (trials: RESULTS.md, thirty-
                  * eighth session) */
  int pass_two;  /* 1 (default): the shifted first pass of 64 work-items takes two systems
                  * a group (td_reg_fwd2_s64) where the batch has two or more; 0: one */
  int wait_spin; /* OpenCL: microseconds a solve's status read spins on its words in
                  * pinned memory before the driver's sleeping wait (clFinish); 0: no
                  * spin. 2000 on GPUs (H200, cltrace: NVIDIA's clFinish returned 14-23 us
                  * after a small solve's last kernel ended; RESULTS.md, forty-third
                  * session), 0 on PoCL, whose workers share the host's cores */
  int wg_cap;    /* groups of gpu_kernel_cap's kernels no larger than the driver's largest
                  * for the kernel (kernel_wg): 1 (default); 0: not asked; a multiple of
                  * 32: asked, and at most that many work-items (NVIDIA's OpenCL reports
                  * 256 for every td.cl kernel, yet runs td_reg_solve_s in groups of 512:
                  * tests take that report anywhere, trials take 0; RESULTS.md, fortieth
                  * session) */
  int pscr_reg;  /* 1 (default): real PSCR innermost systems that need no pivoting on the
                  * fused kernels with rows in registers (pscr_reg.h), 0: pscr_tile.h's */
  int pscr_rsw;  /* pscr_reg.h: work-items per system (sub-group; x 8 rows: a tile) */
  int pscr_rwg;  /* pscr_reg.h: work-items a group (pscr_rwg / pscr_rsw systems side by side) */
  int pscr_rgroups; /* pscr_reg.h: work-groups a step should have (tasks of fewer eigenpairs
                     * until then, down to PSCR_GPU_CHUNK_MIN) */
  int pscr_rchunk;  /* pscr_reg.h: eigenpairs a task, at most. H100, 2D Poisson, against 8192
                     * and 32: 1024 and 128 took 8191^2 from 17.1 to 16.5 ms, 4095^2 from
                     * 5.18 to 4.12, 2047^2 from 1.95 to 1.40 (the tile's rows loaded once
                     * serve more eigenpairs) */
  int pscr_rfwdl; /* pscr_reg.h: pass 1 of multi-tile systems with one eigenpair a work-item
                   * (pscr_reg_fwdl) in the steps whose largest task holds at least this many
                   * eigenpairs; 0: never. H100, 2D Poisson 8191^2, tasks of 15: 360 us a
                   * launch, 261 on pscr_reg_fwdm (tasks of 63: 167) */
  int pscr_rbwdl; /* the same for pass 3 (pscr_reg_bwdl) */
  int pscr_rlwg;  /* pscr_reg.h: work-items (eigenpairs) of those lane groups, at most */
  int pscr_rfwdm; /* pscr_reg.h: pass 1 with one eigenpair a work-item and several tasks a
                   * group (pscr_reg_fwdm) in the steps whose largest task holds at least this
                   * many eigenpairs and fewer than pscr_rfwdl; 0: never */
  int pscr_rbwdm; /* the same for pass 3 (pscr_reg_bwdm, below pscr_rbwdl). H100, 2D Poisson
                   * 8191^2, a launch against the sub-groups: tasks of 15 eigenpairs 646
                   * against 819 us, of 3 (21 tasks a group) 1683 against 1061 */
  int pscr_rmwg;  /* work-items of pscr_reg_fwdm's / bwdm's groups, at most */
  int pscr_rmmin; /* pscr_reg_fwdm / bwdm only where they have this many groups or more (H100
                   * 2D Poisson 4095^2: 512 took 2.84 to 2.56 ms against 2048; a
                   * group streams its tile alone: few groups leave the GPU idle) */
  int pscr_rfit;  /* 1 (default): pscr_reg.h's groups of sub-groups take no more sub-groups
                   * than a step's largest task has eigenpairs (3 of 4 at radix 4's first
                   * level), 0: always pscr_rwg work-items */
  int pscr_dense; /* 3D: level 0 in one step (radix n0 + 1, pscr_dense.h's products) for
                   * n0 up to this (0: never; the default 2048 bounds the components,
                   * n0 (n0 + 2) scalars) */
  int pscr_dense_in;  /* real data: 2D's level 0 in one step as well, for n0 up to this
                       * (0: never): two products and one shifted tridiagonal solve of all
                       * its n0 systems (H100, Poisson: faster to 1023^2) */
  int pscr_dense_inz; /* the same for complex data (H100, Helmholtz: as fast as two steps
                       * at 1023^2) */
  int pscr_dense_in3; /* the same for 3D's level 1 and n1 (H100, Poisson: faster to 511^3,
                       * slower at 1023^3; Helmholtz 361^3 2x faster) */
  int pscr_steps2;  /* real data: 2D's level 0 above pscr_dense_in, up to n0 = this, in two
                     * steps of radix ceil(sqrt(n0 + 1)) whose sums are products as well
                     * (gpu_pscr.c, gemm_step): three passes over the lines and about
                     * 8 n0^1.5 len flops (0: never; H100, Poisson: faster than one step
                     * from 2047^2, than PSCR's radix 4 at 4095^2 and 8191^2) */
  int pscr_steps2z; /* the same for complex data above pscr_dense_inz (H100, Helmholtz:
                     * 2047^2 1.9 against 4.7 ms in one step, 4095^2 9.2 against 30.5) */
  int pscr_lines;   /* the systems of steps run as products, where complex or not proven
                     * definite: 1 (default) on a lines plan (the fused kernels: excess
                     * form, AUTO's pivoting) in one dense step where they take a line
                     * in one tile (else the engine), on the tridiagonal engine
                     * with the plan's innermost algorithm in two steps (H100, 2D Helmholtz
                     * 4095^2: 9.2 against 14.5 ms, residual 4.8e-13 against 1.0e-13);
                     * 0: the engine in both; 2: the lines plan in both */
  int pscr_slab;    /* a dense innermost level of real systems proven definite runs whole
                     * in one launch, a group a vector (pscr_slab; 0: never), where its
                     * n * len is at most this (and PSCR_GPU_PD_SLAB) */
  int pscr_slab64;  /* ... and past PSCR_GPU_PD_SLAB, with n, len <= PSCR_GPU_PD_S64, in
                     * pscr_slab64 where n * len is at most this (0: never) */
  int pscr_slab128; /* ... and 2D's past that, with n, len <= PSCR_GPU_PD_S128, in
                     * pscr_slab128 where n * len is at most this (0: never) */
  int pscr_kron;    /* 3D with both levels dense and no slab: each pair of products
                     * (28), (27) in one launch (pscr_kron) where n0 n1 is at most this
                     * (and PSCR_GPU_PD_KCAP), else four pscr_gemm (0: always; H200,
                     * Helmholtz: 31^3 48 against 53 us, 44^3 80 against 73) */
  int pscr_ksplit;  /* products (27) of steps run as products with fewer groups than this
                     * (0: never) are split along their inner index into a batch of
                     * chunks, added up after (the default: two groups for each of the
                     * H100's 132 SMs) */
  int pscr_lane; /* PSCR innermost systems: 0 the tiles, 1 the lane engine (pscr_lane.h),
                  * 2 the lane engine with diagonal pivoting in every tested system (tests),
                  * 3 (default) the engine measured faster: lanes in 3D (complex data;
                  * real data proven definite from innermost n = PSCR_GPU_LANE_MIN_N) */
} gpu_td_tuning;
void gpu_td_tuning_default(gpu_td_tuning *t);
/* Sets one parameter by its field name; INVALID_ARGUMENT for an unknown name
 * or a value out of range. */
pscr_status gpu_td_tune(gpu_td_tuning *t, const char *name, int value);

/* Launches and device time per kernel name: the OpenCL tests check that every
 * kernel ran; with tuning `profile` set both backends time each launch. */
typedef struct {
  char *name;
  unsigned long count;
  double seconds;
} gpu_kstat;
typedef struct {
  gpu_kstat *v;
  size_t n;
} gpu_kstats;
/* Counts one launch of `name` that took `seconds` (0 when not timed). */
pscr_status gpu_kstats_add(gpu_kstats *t, const char *name, double seconds);
/* Entry i (name, launches, seconds); INVALID_ARGUMENT past the last. */
pscr_status gpu_kstats_get(const gpu_kstats *t, size_t i, const char **name,
                           unsigned long *count, double *seconds);
void gpu_kstats_free(gpu_kstats *t);

/* Status words of kernels/common/td_scalar.h (TD_FLAG_*). */
#define GPU_TD_FLAG_WORDS 8

typedef struct gpu_device gpu_device;
struct gpu_device {
  void *impl;         /* the backend's state */
  size_t align;       /* alignment of sub-arrays of the work buffer (bytes) */
  size_t local_bytes; /* local memory one work-group may use */
  size_t max_wg;      /* largest work-group */
  /* 1: LOCAL_ARRAY is sized at compile time by the -D sizes of gpu_td_params
   * (OpenCL); 0: by the launch (CUDA dynamic shared memory). */
  int static_local;
  /* with static_local, 1: modules sized for the request (GPUs, where an
   * oversized local array costs occupancy); 0: one module sized for the
   * largest request (CPU devices emulate local memory) */
  int shrink_local;
  gpu_td_tuning tune;
  /* Makes the module of p current (compiled on first use, cached). */
  pscr_status (*module)(gpu_device *g, const gpu_td_params *p);
  /* Launches `name` of the current module on ceil(items / wg) groups of wg,
   * with `local_bytes` of local memory (dynamic where not static_local). */
  pscr_status (*launch)(gpu_device *g, const char *name, size_t items, int wg, size_t local_bytes,
                        int nargs, const gpu_arg *args);
  /* The same in clusters of `cluster` groups that read each other's local
   * memory (td_reg_clu; ceil(items / wg) a multiple of cluster), where
   * cluster_max > 1: NULL elsewhere. UNSUPPORTED where the device cannot
   * place such a cluster (its groups' registers or local memory). */
  pscr_status (*launch_cluster)(gpu_device *g, const char *name, size_t items, int wg,
                                size_t local_bytes, int cluster, int nargs, const gpu_arg *args);
  int cluster_max; /* groups a cluster may have (CUDA sm_90+: 8); 0: no clusters */
  int warp_shfl;   /* the kernels merge by warp shuffles (TD_SHFL_DOWN_D: CUDA, NVIDIA's OpenCL) */
  int pack_args;   /* PKPTR parameters are offsets into the PKBASE pack (OpenCL), else pointers */
  /* The largest work-group kernel `name` of the current module can launch
   * with (its registers bound it: a fused PSCR kernel cannot run 1024 items
   * on the H100); 0 when unknown. */
  int (*kernel_wg)(gpu_device *g, const char *name);
  /* Scratch of at least `bytes`, kept by the context (valid until the next call). */
  pscr_status (*work)(gpu_device *g, size_t bytes, gpu_ptr *w);
  pscr_status (*zero)(gpu_device *g, gpu_ptr p, size_t bytes);
  /* The status words: cleared; read back after the queue drained. */
  gpu_ptr flags;
  pscr_status (*flags_clear)(gpu_device *g);
  pscr_status (*flags_read)(gpu_device *g, int out[GPU_TD_FLAG_WORDS]);
  /* Device time of the solve: start before the first launch, stop after the
   * last (without waiting), seconds once the queue drained (flags_read). One
   * wait a solve: the status words' read drains the queue for both. */
  pscr_status (*timer_start)(gpu_device *g);
  pscr_status (*timer_stop)(gpu_device *g);
  pscr_status (*timer_seconds)(gpu_device *g, double *seconds);
};

/* g->launch of a kernel whose parameters start with XBASE (td_scalar.h):
 * GPU_XBASE() first, then args with every GPU_PTR as a GPU_XPTR. */
pscr_status gpu_launch_x(gpu_device *g, const char *name, size_t items, int wg,
                         size_t local_bytes, int nargs, const gpu_arg *args);

/* maxw, or less where kernel k1's or k2's registers (kernel_wg of the current
 * module; k2 may be NULL) allow fewer work-items: a larger group fails to launch;
 * and no more than tune.wg_cap where that is a group size. */
int gpu_kernel_cap(gpu_device *g, int maxw, const char *k1, const char *k2);
/* The record merge's groups (td_tile_gup / gdown) for systems of nt records,
 * mw work-items (2 mw records) at most: *w work-items and *spg systems a
 * group. Where nt is a power of 2 below 2 mw (and multi set), whole systems
 * side by side: spg = 2 w / nt, w = 64 (fixed: w = mw, static local arrays);
 * else one system a group, in the narrowest power-of-2 group from 32 up that
 * still merges it in one level, as mw does (fewer idle work-items). */
void gpu_merge_shape(int mw, long long nt, int fixed, int multi, int *w, int *spg);
/* The record merge between a multi-tile solve's two passes (td_tile.h), over
 * levels of records: level l has pc[l] records a system, cnt[l] in all, at
 * recs[l] (field f from f cnt[l]); its outside values go to outs[l] (xr from
 * cnt[l]). td_tile_gup below the top level, then td_tile_gdown from the top
 * down (the top's parents: zero). mw work-items and spg systems a group
 * (gpu_merge_shape), ex: excess form, local: bytes of local memory. */
pscr_status gpu_merge_records(gpu_device *g, int levels, const long long *pc,
                              const long long *cnt, const gpu_ptr *recs, const gpu_ptr *outs,
                              int mw, int spg, int ex, size_t local);

/* td_reg_perm's copies of a shifted source's A and M kept between solves,
 * for diagonals that never change (a PSCR plan's innermost): buf of cap
 * bytes, holding n rows in tiles of W x q rows, len rows a diagonal, scalars
 * of esize bytes (len 0: nothing yet). */
typedef struct {
  gpu_ptr buf;
  size_t cap, esize;
  long long n, len;
  int W, q;
} gpu_td_perm;

/* Where the rows come from (kernels/common/td_rows.h): the user's diagonals
 * (shift null) or A + shift[s] M (shift set; mdl/mdu may be null). */
typedef struct {
  gpu_ptr dl, d, du, mdl, md, mdu, shift;
  long long sstride, rstep;
  long long sys0;    /* the first system (td_rows.h): a solve of part of a set */
  gpu_td_perm *perm; /* NULL, or the cache of A and M in tile order (gpu_tile.c's reg_perm) */
} gpu_td_src;

/* The sources of the backend-table requests (array natives as gpu_ptr). */
gpu_td_src gpu_td_src_plain(const pscr_td_request *r);
gpu_td_src gpu_td_src_shifted(const pscr_td_shifted_request *r);

/* Solves `batch` systems of order n read through src, b overwritten by x
 * (untouched on NONFINITE / SINGULAR). @return UNSUPPORTED for LAPACK. */
pscr_status gpu_td_solve(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                         size_t batch, gpu_td_src src, gpu_ptr b, pscr_td_report *rep);
/* Same where b is the caller's scratch: on NONFINITE / SINGULAR it may hold
 * anything. Saves the copy of b that keeping it costs a one-pass batch solve
 * (the host API's uploaded b, work arrays of the PSCR stages). */
pscr_status gpu_td_solve_scratch(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                                 size_t batch, gpu_td_src src, gpu_ptr b, pscr_td_report *rep);
/* CR_PCR_THOMAS, PCR_THOMAS or SPIKE_DIAG_PIVOT on scratch b, only
 * enqueued: no wait and no report; a failure raises the device's status
 * words, which the caller clears before and reads after (the PSCR stages'
 * begin / finish). @return UNSUPPORTED for the other algorithms. */
pscr_status gpu_td_solve_queued(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                                size_t batch, gpu_td_src src, gpu_ptr b);
/* The backends' tridiag_queued and finish (core/context.h) on any GPU context
 * (ctx->ops->gpu): a plain request queued by gpu_td_solve_queued with status
 * words of its own (ctx->qflags[ctx->queued]: a multi-tile pass skips its
 * stores when its solve's words are raised, and must not see another
 * solve's); finish reads the words used (NONFINITE before SINGULAR) and
 * clears those raised. */
pscr_status gpu_td_queue(pscr_context *ctx, const pscr_td_request *req);
/* The same for a shifted request (tridiag_shifted_queued). */
pscr_status gpu_td_queue_shifted(pscr_context *ctx, const pscr_td_shifted_request *req);
/* A solve's status from its status words: NONFINITE before SINGULAR, else OK. */
pscr_status gpu_td_flags_status(const int fl[GPU_TD_FLAG_WORDS]);
pscr_status gpu_td_finish(pscr_context *ctx);
/* out[k] (ints, device) = 1 where system k of src has a row that is not
 * strictly dominant or not finite, else 0: AUTO's test (td_scan) system by
 * system, for a plan to route systems fixed at plan time. */
pscr_status gpu_td_scan_systems(gpu_device *g, pscr_dtype dtype, size_t n, size_t batch,
                                gpu_td_src src, gpu_ptr out);

/* Makes the default module of dtype current (every kernel of kernels/common;
 * gpu_td_solve may switch modules, so call it again after a solve). */
pscr_status gpu_td_module(gpu_device *g, pscr_dtype dtype);
/* The same with local arrays of at least tile_local scalars where they are
 * static and sized per request (shrink_local): a PSCR plan's one-tile shape
 * larger than the default module's (0: the default module). */
pscr_status gpu_td_module_local(gpu_device *g, pscr_dtype dtype, size_t tile_local);

/* For tests (gpu_kernel_names.c): the names of the KERNEL functions of
 * kernels/common, read from the embedded sources, into names (at most max);
 * returns how many there are (-1: out of memory). */
int pscr_gpu_kernel_names(char (*names)[64], int max);
/* The embedded text of kernels/<path> ("common/pscr_reg.h"), NULL if none
 * (for the test that holds the host's mirrors of kernel constants to them). */
const char *pscr_gpu_kernel_source(const char *path);
/* The integer of -Dname=<integer> in a module's options (or $PSCR_KERNEL_DEFINES), else dflt. */
long gpu_define_of(const char *defines, const char *name, long dflt);
/* The register bounds kernel `name` declares (KERNEL_BOUNDED(*maxw, *minb),
 * KERNEL_MAXW(*maxw) with *minb = 0) in a module built with `defines`
 * (-Dname=value ...); 0 where it declares none (gpu_bounds.c). */
int pscr_gpu_kernel_bounds(const char *name, const char *defines, int *maxw, int *minb);
/* ptx with those bounds written into each bounded entry that lacks them
 * (.maxntid unless it has .maxntid or .reqntid; .minnctapersm where minb > 0),
 * malloc'ed (NULL: out of memory); *added: the entries changed. */
char *pscr_gpu_ptx_bounds(const char *ptx, const char *defines, int *added);
/* A program binary (len bytes) of PTX text and its trailing NULs, through
 * pscr_gpu_ptx_bounds with the NULs kept: malloc'ed, *out_len bytes. NULL
 * (*added = 0) where it is no PTX text (a NUL inside) or memory runs out. */
unsigned char *pscr_gpu_binary_bounds(const unsigned char *bin, size_t len, const char *defines,
                                      size_t *out_len, int *added);

#endif
