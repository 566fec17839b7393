/* A CUDA driver for machines without a GPU: libcuda.so.1 (the entry points the
 * CUDA backend resolves) on host memory, kernels from emu_kernels.cpp. Loaded
 * with LD_PRELOAD, it also wraps nvrtcCompileProgram to learn each module's
 * -D options. Work-groups run one at a time; work-items of kernels that use
 * BARRIER() run as fibers (ucontext), resumed in an order set by EMU_ORDER
 * (forward, reverse, random) so that order-dependent (racy) code shows. */
#define _GNU_SOURCE 1
#include <cuda.h>
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#include <string>
#include <vector>

#include "emu.h"
#include "emu_params.h"

extern const emu_kernel emu_kernels_d[], emu_kernels_z[], emu_kernels_d16[], emu_kernels_z8[],
    emu_kernels_z16[], emu_kernels_z16s[], emu_kernels_d16s[];

int emu_tid, emu_gid, emu_wg, emu_rank, emu_groups;
static char *g_local; /* exactly the launch's dynamic size: ASan sees overflows */
static size_t g_local_limit;

struct module_t {
  long params[EMU_NPARAMS];
  int set[EMU_NPARAMS];
  int complex_;
  int rq, ph, slim; /* TD_RQ, TD_REG_PH, TD_REG_SLIM: compile-time in td_reg.h, so tables of
                     * their own */
};
struct func_t {
  const emu_kernel *k;
  module_t *m;
  int max_dyn;
};
static module_t *g_cur;
static std::string g_last_opts[64];
static int g_nopts, g_fresh; /* g_fresh: a compile since the last module load */

static void die(const char *msg, const char *what) {
  fprintf(stderr, "cuda_emu: %s %s\n", msg, what ? what : "");
  abort();
}

long emu_param(int i, long def) { return g_cur && g_cur->set[i] ? g_cur->params[i] : def; }
int emu_atomic_add(int *p, int v) {
  int o = *p;
  *p = o + v;
  return o;
}
int emu_atomic_max(int *p, int v) {
  int o = *p;
  if (v > o) *p = v;
  return o;
}

/* Local memory: the dynamic buffer first, then each LOCAL_ARRAY call of the
 * kernel gets the same buffer (one per kernel). */
void *emu_local(size_t bytes) {
  (void)bytes; /* CUDA: the launch's size counts, not the declared one */
  return g_local;
}

/* ---- fibers ---- */
/* A launch runs its clusters one at a time (a plain launch: clusters of one
 * group); the work-items of a cluster's groups are fibers, fiber i item
 * i % wg of the cluster's group i / wg, each group with its own local memory. */
struct fiber {
  ucontext_t ctx;
  int state; /* 0 running/ready, 1 at the group's barrier, 2 done, 3 at a cluster wait */
  int arrived, waits; /* cluster barrier phases arrived at, waited for */
  std::vector<char> stack;
};
static std::vector<fiber> g_fib;
static ucontext_t g_sched;
static int g_cur_fiber;
static const emu_kernel *g_kern;
static void **g_args;
static int g_order;      /* 0 forward, 1 reverse, 2 random */
static unsigned g_rng = 12345;
static std::vector<char *> g_locals; /* the cluster's groups' local memory */
static int g_gid0;                    /* the cluster's first group */

void emu_barrier(void) {
  if (g_fib.empty()) die("BARRIER() in a kernel not marked as using barriers:", g_kern->name);
  fiber &f = g_fib[g_cur_fiber];
  f.state = 1;
  swapcontext(&f.ctx, &g_sched);
}
void emu_cluster_arrive(void) {
  if (g_fib.empty())
    die("a cluster barrier in a kernel not marked as using barriers:", g_kern->name);
  g_fib[g_cur_fiber].arrived++;
}
void emu_cluster_wait(void) {
  fiber &f = g_fib[g_cur_fiber];
  if (f.arrived <= f.waits) die("a cluster wait without its arrive in", g_kern->name);
  f.waits++;
  f.state = 3;
  swapcontext(&f.ctx, &g_sched);
}
const void *emu_cluster_map(const void *p, int rank) {
  char *own = g_local;
  size_t off = (size_t)((const char *)p - own);
  if ((const char *)p < own || off >= g_local_limit || rank < 0 || rank >= (int)g_locals.size())
    die("a cluster load outside the group's local memory in", g_kern->name);
  return g_locals[rank] + off;
}

static void fiber_main(void) {
  g_kern->run(g_args);
  g_fib[g_cur_fiber].state = 2;
  swapcontext(&g_fib[g_cur_fiber].ctx, &g_sched);
}

static void resume(int i, int wg) {
  g_cur_fiber = i;
  emu_tid = i % wg;
  emu_rank = i / wg;
  emu_gid = g_gid0 + emu_rank;
  g_local = g_locals[emu_rank];
  swapcontext(&g_sched, &g_fib[i].ctx);
}

static void run_group_fibers(int wg, int groups) {
  const size_t stack = 256 * 1024;
  int nf = wg * groups;
  if ((int)g_fib.size() != nf) {
    g_fib.clear();
    g_fib.resize(nf);
  }
  for (int t = 0; t < nf; t++) {
    fiber &f = g_fib[t];
    if (f.stack.size() != stack) f.stack.resize(stack);
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = f.stack.data();
    f.ctx.uc_stack.ss_size = stack;
    f.ctx.uc_link = NULL;
    makecontext(&f.ctx, fiber_main, 0);
    f.state = 0;
    f.arrived = f.waits = 0;
  }
  std::vector<int> order(nf);
  for (;;) {
    for (int t = 0; t < nf; t++) order[t] = g_order == 1 ? nf - 1 - t : t;
    if (g_order == 2)
      for (int t = nf - 1; t > 0; t--) {
        g_rng = g_rng * 1103515245u + 12345u;
        int k = (int)((g_rng >> 8) % (unsigned)(t + 1));
        std::swap(order[t], order[k]);
      }
    for (int i = 0; i < nf; i++)
      if (g_fib[order[i]].state == 0) resume(order[i], wg);
    /* every fiber waits or is done: release a group at its barrier, the
     * cluster's waiters once every fiber has arrived at their phase */
    int done = 0, released = 0, least = 1 << 30;
    for (int t = 0; t < nf; t++) {
      done += g_fib[t].state == 2;
      if (g_fib[t].arrived < least) least = g_fib[t].arrived;
    }
    if (done == nf) break;
    for (int r = 0; r < groups; r++) {
      int at = 0, gone = 0;
      for (int t = r * wg; t < (r + 1) * wg; t++)
        at += g_fib[t].state == 1, gone += g_fib[t].state == 2;
      if (at > 0 && gone > 0)
        die("divergent BARRIER() (some work-items returned) in", g_kern->name);
      if (at == wg)
        for (int t = r * wg; t < (r + 1) * wg; t++) g_fib[t].state = 0, released++;
    }
    for (int t = 0; t < nf; t++)
      if (g_fib[t].state == 3 && g_fib[t].waits <= least) g_fib[t].state = 0, released++;
    if (released == 0) die("scheduler stuck in", g_kern->name);
  }
  for (int t = 0; t < nf; t++)
    if (g_fib[t].arrived != g_fib[0].arrived)
      die("cluster barriers differ between work-items in", g_kern->name);
}

/* ---- the driver API ---- */
extern "C" {
CUresult cuInit(unsigned) {
  const char *o = getenv("EMU_ORDER");
  g_order = o && !strcmp(o, "reverse") ? 1 : o && !strcmp(o, "random") ? 2 : 0;
  return CUDA_SUCCESS;
}
/* NVRTC looks for a driver too: tell it there is no export table. */
CUresult cuGetExportTable(const void **t, const CUuuid *) {
  *t = NULL;
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult cuDeviceGetCount(int *c) { *c = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *d, int i) { *d = i; return i == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE; }
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) {
  switch (a) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = 232448; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
  default: *v = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) { *c = (CUcontext)0x1; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxPushCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxPopCurrent(CUcontext *c) { if (c) *c = (CUcontext)0x1; return CUDA_SUCCESS; }
CUresult cuStreamCreate(CUstream *s, unsigned) { *s = (CUstream)0x2; return CUDA_SUCCESS; }
CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  void *m = malloc(bytes ? bytes : 1);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
  memset(m, 0xff, bytes); /* NaN garbage: unwritten reads show */
  *p = (CUdeviceptr)(uintptr_t)m;
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) { free((void *)(uintptr_t)p); return CUDA_SUCCESS; }
CUresult cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t b) { memcpy((void *)(uintptr_t)d, h, b); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoH(void *h, CUdeviceptr d, size_t b) { memcpy(h, (void *)(uintptr_t)d, b); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoHAsync(void *h, CUdeviceptr d, size_t b, CUstream) { return cuMemcpyDtoH(h, d, b); }
CUresult cuMemcpyDtoD(CUdeviceptr d, CUdeviceptr s, size_t b) { memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, b); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoDAsync(CUdeviceptr d, CUdeviceptr s, size_t b, CUstream) { return cuMemcpyDtoD(d, s, b); }
CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *h, size_t b, CUstream) { return cuMemcpyHtoD(d, h, b); }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream) {
  unsigned *p = (unsigned *)(uintptr_t)d;
  for (size_t i = 0; i < n; i++) p[i] = v;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream) { memset((void *)(uintptr_t)d, v, n); return CUDA_SUCCESS; }
CUresult cuMemAllocHost(void **p, size_t b) { *p = malloc(b); return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY; }
CUresult cuMemFreeHost(void *p) { free(p); return CUDA_SUCCESS; }
CUresult cuMemGetInfo(size_t *fr, size_t *tot) { *fr = (size_t)8 << 30; *tot = (size_t)80 << 30; return CUDA_SUCCESS; }
/* CUBINs this process's NVRTC made (nvrtcGetCUBIN below): an FNV-1a of the
 * bytes its ELF headers span, and the options of their compile. */
struct image_t {
  unsigned long long hash;
  std::vector<std::string> opts;
};
static std::vector<image_t> g_images;
static unsigned long long elf_hash(const void *image, size_t have) {
  const unsigned char *c = (const unsigned char *)image;
  if (have < 64 || memcmp(c, "\x7f" "ELF", 4) != 0) return 0;
  uint64_t phoff, shoff;
  uint16_t phsz, phn, shsz, shn;
  memcpy(&phoff, c + 0x20, 8), memcpy(&shoff, c + 0x28, 8);
  memcpy(&phsz, c + 0x36, 2), memcpy(&phn, c + 0x38, 2);
  memcpy(&shsz, c + 0x3A, 2), memcpy(&shn, c + 0x3C, 2);
  size_t len = shoff + (size_t)shsz * shn, plen = phoff + (size_t)phsz * phn;
  if (plen > len) len = plen;
  if (len > have) return 0;
  unsigned long long h = 14695981039346656037ull;
  for (size_t i = 0; i < len; i++) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  /* the kernels are the host's, chosen by the options of the NVRTC compile just
   * before, or of the compile that made the image (one the library read back
   * from its disk cache); an image of neither is refused, and the library
   * compiles it again */
  if (image == NULL) return CUDA_ERROR_INVALID_IMAGE;
  if (!g_fresh) {
    unsigned long long h = elf_hash(image, (size_t)1 << 30); /* its headers trusted */
    size_t i = 0;
    while (i < g_images.size() && (h == 0 || g_images[i].hash != h)) i++;
    if (i == g_images.size()) return CUDA_ERROR_INVALID_IMAGE;
    g_nopts = (int)g_images[i].opts.size();
    for (int k = 0; k < g_nopts; k++) g_last_opts[k] = g_images[i].opts[k];
  }
  g_fresh = 0;
  module_t *mod = new module_t();
  static const char *names[] = EMU_PARAM_NAMES;
  for (int i = 0; i < g_nopts; i++) {
    const char *o = g_last_opts[i].c_str();
    if (strncmp(o, "-D", 2)) continue;
    o += 2;
    const char *eq = strchr(o, '=');
    if (!eq) continue;
    std::string nm(o, eq - o);
    long v = atol(eq + 1);
    if (nm == "PSCR_COMPLEX") mod->complex_ = (int)v;
    if (nm == "TD_RQ") mod->rq = (int)v;
    if (nm == "TD_REG_PH") mod->ph = (int)v;
    if (nm == "TD_REG_SLIM") mod->slim = (int)v;
    for (int k = 0; k < EMU_NPARAMS; k++)
      if (nm == names[k]) mod->params[k] = v, mod->set[k] = 1;
  }
  *m = (CUmodule)mod;
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule m) { delete (module_t *)m; return CUDA_SUCCESS; }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  module_t *mod = (module_t *)m;
  const emu_kernel *k = mod->complex_ ? emu_kernels_z : emu_kernels_d;
  /* the variants build.sh compiles: the defaults, and the shifted solves'
   * larger tiles (gpu_tile.c): 16 rows, complex 8 too, in one part; complex
   * and real 16 slim in two (tune reg_slim 2) */
  if (mod->rq == 16 && mod->ph == 2 && mod->slim)
    k = mod->complex_ ? emu_kernels_z16s : emu_kernels_d16s;
  else if (mod->slim) {
    fprintf(stderr, "cuda_emu: no slim kernels of TD_RQ=%d TD_REG_PH=%d\n", mod->rq, mod->ph);
    return CUDA_ERROR_NOT_FOUND;
  } else if (!mod->complex_ && mod->rq == 16 && mod->ph <= 1)
    k = emu_kernels_d16;
  else if (mod->complex_ && mod->rq == 16 && mod->ph <= 1)
    k = emu_kernels_z16;
  else if (mod->complex_ && mod->rq == 8 && mod->ph <= 1)
    k = emu_kernels_z8;
  else if (mod->rq || mod->ph > 1) {
    fprintf(stderr, "cuda_emu: no kernels of TD_RQ=%d TD_REG_PH=%d\n", mod->rq, mod->ph);
    return CUDA_ERROR_NOT_FOUND;
  }
  for (; k->name; k++)
    if (!strcmp(k->name, name)) {
      /* one func per (module, name): kept for the process' life */
      static std::vector<func_t *> funcs;
      for (func_t *fn : funcs)
        if (fn->k == k && fn->m == mod) { *f = (CUfunction)fn; return CUDA_SUCCESS; }
      func_t *fn = new func_t{k, mod, 48 * 1024};
      funcs.push_back(fn);
      *f = (CUfunction)fn;
      return CUDA_SUCCESS;
    }
  fprintf(stderr, "cuda_emu: no kernel %s\n", name);
  return CUDA_ERROR_NOT_FOUND;
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (v > 232448) return CUDA_ERROR_INVALID_VALUE;
    ((func_t *)f)->max_dyn = v;
  }
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction) {
  *v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return CUDA_SUCCESS;
}
/* Groups of gx in clusters of cl (one cluster at a time). */
static CUresult launch(func_t *fn, unsigned gx, unsigned bx, unsigned smem, unsigned cl,
                       void **args) {
  if ((int)smem > fn->max_dyn) {
    fprintf(stderr, "cuda_emu: %s: %u bytes of dynamic shared memory over the limit %d\n",
            fn->k->name, smem, fn->max_dyn);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (cl == 0 || cl > 8 || gx % cl != 0 || (cl > 1 && !fn->k->barrier))
    return CUDA_ERROR_INVALID_VALUE;
  g_cur = fn->m;
  g_kern = fn->k;
  g_args = args;
  emu_wg = (int)bx;
  emu_groups = (int)gx;
  g_local_limit = smem;
  g_locals.assign(cl, NULL);
  for (unsigned r = 0; r < cl; r++) g_locals[r] = (char *)malloc(smem ? smem : 1);
  for (unsigned g = 0; g < gx; g += cl) {
    g_gid0 = (int)g;
    /* fresh garbage in local memory for every group */
    for (unsigned r = 0; r < cl; r++) memset(g_locals[r], 0xfe, smem);
    if (fn->k->barrier) {
      run_group_fibers((int)bx, (int)cl);
    } else {
      g_fib.clear();
      emu_gid = (int)g;
      emu_rank = 0;
      g_local = g_locals[0];
      for (unsigned t = 0; t < bx; t++) {
        emu_tid = (int)t;
        fn->k->run(args);
      }
    }
  }
  g_fib.clear();
  for (char *l : g_locals) free(l);
  g_locals.clear();
  g_local = NULL;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream, void **args, void **) {
  if (gy != 1 || gz != 1 || by != 1 || bz != 1 || bx == 0 || bx > 1024 || gx == 0)
    return CUDA_ERROR_INVALID_VALUE;
  return launch((func_t *)f, gx, bx, smem, 1, args);
}
/* cuLaunchKernelEx: the cluster dimension the one attribute understood */
CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **) {
  unsigned cl = 1;
  for (unsigned i = 0; i < c->numAttrs; i++) {
    if (c->attrs[i].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) return CUDA_ERROR_NOT_SUPPORTED;
    const auto &d = c->attrs[i].value.clusterDim;
    if (d.y != 1 || d.z != 1) return CUDA_ERROR_INVALID_VALUE;
    cl = d.x;
  }
  if (c->gridDimY != 1 || c->gridDimZ != 1 || c->blockDimY != 1 || c->blockDimZ != 1 ||
      c->blockDimX == 0 || c->blockDimX > 1024 || c->gridDimX == 0)
    return CUDA_ERROR_INVALID_VALUE;
  return launch((func_t *)f, c->gridDimX, c->blockDimX, c->sharedMemBytes, cl, args);
}
static double now_ms(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec * 1e3 + tv.tv_usec * 1e-3;
}
CUresult cuEventCreate(CUevent *e, unsigned) { *e = (CUevent) new double(0); return CUDA_SUCCESS; }
CUresult cuEventDestroy(CUevent e) { delete (double *)e; return CUDA_SUCCESS; }
CUresult cuEventRecord(CUevent e, CUstream) { *(double *)e = now_ms(); return CUDA_SUCCESS; }
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  double d = *(double *)b - *(double *)a;
  *ms = (float)(d > 1e-3 ? d : 1e-3);
  return CUDA_SUCCESS;
}

/* Records the options of every NVRTC compile (the next cuModuleLoadData uses them). */
nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int n, const char *const *opts) {
  typedef nvrtcResult (*fn_t)(nvrtcProgram, int, const char *const *);
  static fn_t real = (fn_t)dlsym(RTLD_NEXT, "nvrtcCompileProgram");
  g_nopts = n < 64 ? n : 64;
  for (int i = 0; i < g_nopts; i++) g_last_opts[i] = opts[i];
  g_fresh = 1;
  if (getenv("EMU_SKIP_NVRTC")) return NVRTC_SUCCESS;
  return real(prog, n, opts);
}

/* Remembers the CUBIN with its compile's options (cuModuleLoadData above). */
nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) {
  typedef nvrtcResult (*fn_t)(nvrtcProgram, char *);
  typedef nvrtcResult (*size_t_fn)(nvrtcProgram, size_t *);
  static fn_t real = (fn_t)dlsym(RTLD_NEXT, "nvrtcGetCUBIN");
  static size_t_fn real_size = (size_t_fn)dlsym(RTLD_NEXT, "nvrtcGetCUBINSize");
  nvrtcResult r = real(prog, cubin);
  size_t size = 0;
  if (r == NVRTC_SUCCESS && real_size(prog, &size) == NVRTC_SUCCESS) {
    unsigned long long h = elf_hash(cubin, size);
    if (h) g_images.push_back({h, std::vector<std::string>(g_last_opts, g_last_opts + g_nopts)});
  }
  return r;
}
}
