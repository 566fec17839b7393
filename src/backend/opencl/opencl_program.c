/* OpenCL programs from the embedded single-source kernels: #include
 * resolution (OpenCL has no include path for in-memory headers), the build
 * cache per context and option set, the build log, and kernel launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl.h"
#include "core/disk_cache.h"

/* ---- a growing string ---- */
typedef struct {
  char *p;
  size_t len, cap;
  int failed;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n) {
  if (b->failed) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (p == NULL) {
      b->failed = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}
static void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

/* ---- #include resolution ---- */
#define MAX_DEPTH 16
#define MAX_ONCE 64

typedef struct {
  const ocl_source_file *files;
  sbuf out;
  const char *once[MAX_ONCE]; /* #pragma once files already inserted */
  int nonce;
} resolver;

static const ocl_source_file *find_file(const ocl_source_file *files, const char *path) {
  for (const ocl_source_file *f = files; f->path != NULL; f++)
    if (strcmp(f->path, path) == 0) return f;
  return NULL;
}

/* `name` seen from the file `from`: its folder first, then the table root;
 * "dir/../" is folded so "../common/x.h" from "opencl/y.cl" finds "common/x.h". */
static const ocl_source_file *find_include(const ocl_source_file *files, const char *from,
                                           const char *name, size_t len) {
  char path[512];
  const char *slash = strrchr(from, '/');
  size_t dir = slash ? (size_t)(slash - from) + 1 : 0;
  if (dir + len < sizeof path) {
    memcpy(path, from, dir);
    memcpy(path + dir, name, len);
    path[dir + len] = '\0';
    char *up;
    while ((up = strstr(path, "/../")) != NULL) {
      char *start = up;
      while (start > path && start[-1] != '/') start--;
      if (up - start == 2 && start[0] == '.' && start[1] == '.') break;
      memmove(start, up + 4, strlen(up + 4) + 1);
    }
    while (strncmp(path, "./", 2) == 0) memmove(path, path + 2, strlen(path + 2) + 1);
    const ocl_source_file *f = find_file(files, path);
    if (f) return f;
  }
  if (len >= sizeof path) return NULL;
  memcpy(path, name, len);
  path[len] = '\0';
  return find_file(files, path);
}

/* If `line` is #include "name", sets *name, *len and returns 1. */
static int parse_include(const char *line, const char **name, size_t *len) {
  const char *p = line;
  while (*p == ' ' || *p == '\t') p++;
  if (*p++ != '#') return 0;
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "include", 7) != 0) return 0;
  p += 7;
  while (*p == ' ' || *p == '\t') p++;
  if (*p++ != '"') return 0;
  const char *end = p;
  while (*end && *end != '"' && *end != '\n') end++;
  if (*end != '"') return 0;
  *name = p;
  *len = (size_t)(end - p);
  return 1;
}

static int is_pragma_once(const char *line) {
  const char *p = line;
  while (*p == ' ' || *p == '\t') p++;
  if (*p++ != '#') return 0;
  while (*p == ' ' || *p == '\t') p++;
  if (strncmp(p, "pragma", 6) != 0) return 0;
  p += 6;
  while (*p == ' ' || *p == '\t') p++;
  return strncmp(p, "once", 4) == 0;
}

static void line_marker(sbuf *b, size_t line, const char *path) {
  char tmp[600];
  snprintf(tmp, sizeof tmp, "#line %zu \"%s\"\n", line, path);
  sb_str(b, tmp);
}

static pscr_status insert_file(resolver *r, const ocl_source_file *f, int depth) {
  if (depth > MAX_DEPTH) return PSCR_ERR_INVALID_ARGUMENT; /* an include cycle */
  for (int i = 0; i < r->nonce; i++)
    if (r->once[i] == f->path) return PSCR_OK;
  line_marker(&r->out, 1, f->path);
  size_t lineno = 1;
  for (const char *line = f->text; *line; lineno++) {
    const char *eol = strchr(line, '\n');
    size_t n = eol ? (size_t)(eol - line) + 1 : strlen(line);
    const char *name;
    size_t len;
    const ocl_source_file *inc;
    if (is_pragma_once(line)) {
      if (r->nonce == MAX_ONCE) return PSCR_ERR_INVALID_ARGUMENT;
      r->once[r->nonce++] = f->path;
      sb_str(&r->out, "\n");
    } else if (parse_include(line, &name, &len) &&
               (inc = find_include(r->files, f->path, name, len)) != NULL) {
      pscr_status st = insert_file(r, inc, depth + 1);
      if (st != PSCR_OK) return st;
      line_marker(&r->out, lineno + 1, f->path);
    } else {
      sb_add(&r->out, line, n);
      if (eol == NULL) sb_str(&r->out, "\n");
    }
    line += n;
  }
  return r->out.failed ? PSCR_ERR_OUT_OF_MEMORY : PSCR_OK;
}

pscr_status ocl_resolve_source(const ocl_source_file *files, const char *root, char **text) {
  const ocl_source_file *f = find_file(files, root);
  if (f == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  resolver r = {.files = files};
  pscr_status st = insert_file(&r, f, 0);
  if (st != PSCR_OK) {
    free(r.out.p);
    return st;
  }
  *text = r.out.p;
  return PSCR_OK;
}

/* ---- the build cache ---- */
static void program_free(ocl_program *p) {
  if (p == NULL) return;
  for (cl_uint k = 0; p->kernels && k < p->nkernels; k++) {
    if (p->kernels[k]) clReleaseKernel(p->kernels[k]);
    if (p->names) free(p->names[k]);
  }
  free(p->kernels);
  free(p->names);
  free(p->local);
  free(p->wg);
  free(p->memo);
  if (p->program) clReleaseProgram(p->program);
  free(p->key);
  free(p);
}

void ocl_cache_free(ocl_state *s) {
  while (s->cache) {
    ocl_program *next = s->cache->next;
    program_free(s->cache);
    s->cache = next;
  }
}

unsigned char *ocl_program_binary(cl_program prog, size_t *len) {
  *len = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL) != CL_SUCCESS ||
      *len == 0)
    return NULL;
  unsigned char *bin = malloc(*len + 1);
  if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
    free(bin);
    bin = NULL;
  }
  if (bin) bin[*len] = '\0';
  return bin;
}

/* With $PSCR_OPENCL_DUMP a directory (a developer's aid, as PSCR_OPENCL_LOG):
 * each built program's binary (PTX on NVIDIA's platform, for ptxas and SASS
 * next to CUDA's) to DIR/ocl-K.bin and its key (root, options) to DIR/ocl-K.txt. */
static void dump_binary(cl_program prog, const char *key) {
  const char *dir = getenv("PSCR_OPENCL_DUMP");
  static int count = 0;
  size_t len = 0;
  unsigned char *bin = dir && dir[0] ? ocl_program_binary(prog, &len) : NULL;
  if (bin) {
    char path[4096];
    int k = count++;
    snprintf(path, sizeof path, "%s/ocl-%d.bin", dir, k);
    FILE *f = fopen(path, "wb");
    if (f) fwrite(bin, 1, len, f), fclose(f);
    snprintf(path, sizeof path, "%s/ocl-%d.txt", dir, k);
    f = fopen(path, "w");
    if (f) fprintf(f, "%s\n", key), fclose(f);
  }
  free(bin);
}

/* The on-disk program cache (core/disk_cache.h): NVIDIA's compiler takes
 * 15-30 s a program, which every process would pay again. The hash covers
 * the platform, the device and its driver, the build options and the whole
 * source text; a file that does not load is built again and replaced. On
 * GPUs (CL_LOCAL local memory) alone, unless $PSCR_OPENCL_CACHE_ANY is set
 * (the tests, on PoCL): PoCL keeps a cache of its own and is slow to hand
 * out binaries (opencl_basics' 20 programs: 1075 s filling our cache, 90 s
 * without it, 1 s from it). */
static int cache_path(ocl_state *s, const char *text, const char *opts, int bounds, char *path,
                      size_t size) {
  const char *any = getenv("PSCR_OPENCL_CACHE_ANY");
  if (!s->local_is_local && !(any && any[0])) return 0;
  char info[4][256] = {{0}};
  clGetPlatformInfo(s->platform, CL_PLATFORM_NAME, sizeof info[0] - 1, info[0], NULL);
  clGetPlatformInfo(s->platform, CL_PLATFORM_VERSION, sizeof info[1] - 1, info[1], NULL);
  clGetDeviceInfo(s->device, CL_DEVICE_VERSION, sizeof info[2] - 1, info[2], NULL);
  clGetDeviceInfo(s->device, CL_DRIVER_VERSION, sizeof info[3] - 1, info[3], NULL);
  unsigned long long h = pscr_fnv_str(PSCR_FNV_SEED, s->device_name);
  for (int i = 0; i < 4; i++) h = pscr_fnv_str(h, info[i]);
  /* "bounds 2": files of 9594195's pass, which wrote no bounds, are not read */
  h = pscr_fnv_str(pscr_fnv_str(pscr_fnv_str(h, opts), text), bounds ? "bounds 2" : "");
  return pscr_disk_cache_path(h, "clbin", path, size);
}

/* The program of the cache file at path, built (NULL where it fails). */
static cl_program cache_load(ocl_state *s, const char *path, const char *opts) {
  size_t len = 0;
  char *bin = pscr_disk_cache_read(path, &len);
  if (bin == NULL) return NULL;
  const unsigned char *b = (const unsigned char *)bin;
  cl_int bs = CL_SUCCESS, err;
  cl_program prog = clCreateProgramWithBinary(s->context, 1, &s->device, &len, &b, &bs, &err);
  free(bin);
  if (err == CL_SUCCESS && bs == CL_SUCCESS)
    err = clBuildProgram(prog, 1, &s->device, opts, NULL, NULL);
  if (prog && (err != CL_SUCCESS || bs != CL_SUCCESS)) {
    clReleaseProgram(prog);
    prog = NULL;
  }
  return prog;
}

/* NVIDIA's platform: *prog (built from source) replaced by its PTX with the
 * kernels' register bounds (gpu_bounds.c), built; kept where that fails. */
static void keep_log(ocl_state *s, cl_program prog, const char *key, int failed);
static void with_bounds(ocl_state *s, cl_program *prog, const char *opts, const char *key) {
  size_t len = 0;
  unsigned char *bin = ocl_program_binary(*prog, &len);
  size_t plen = 0;
  int added = 0;
  unsigned char *patched = bin ? pscr_gpu_binary_bounds(bin, len, opts, &plen, &added) : NULL;
  if (patched && added > 0) {
    const unsigned char *b = patched;
    cl_int bs = CL_SUCCESS, err;
    cl_program np = clCreateProgramWithBinary(s->context, 1, &s->device, &plen, &b, &bs, &err);
    if (err == CL_SUCCESS && bs == CL_SUCCESS)
      err = clBuildProgram(np, 1, &s->device, opts, NULL, NULL);
    if (np) keep_log(s, np, key, 0); /* no error: the program built from source stays */
    if (err == CL_SUCCESS && bs == CL_SUCCESS) {
      clReleaseProgram(*prog);
      *prog = np;
    } else if (np) {
      clReleaseProgram(np);
    }
  }
  free(patched);
  free(bin);
}

/* Keeps the build log (and prints it when $PSCR_OPENCL_LOG is set). */
static void keep_log(ocl_state *s, cl_program prog, const char *key, int failed) {
  size_t len = 0;
  if (clGetProgramBuildInfo(prog, s->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS)
    len = 0;
  char *log = malloc(len + 1);
  if (log == NULL) return;
  if (len == 0 ||
      clGetProgramBuildInfo(prog, s->device, CL_PROGRAM_BUILD_LOG, len, log, NULL) != CL_SUCCESS)
    len = 0;
  log[len] = '\0';
  const char *dev_log = getenv("PSCR_OPENCL_LOG");
  if (dev_log && dev_log[0] && (failed || strspn(log, " \t\r\n") < strlen(log)))
    fprintf(stderr, "pscr opencl build %s [%s]:\n%s\n", failed ? "FAILED" : "log", key, log);
  if (!failed) {
    free(log);
    return;
  }
  sbuf b = {0};
  sb_str(&b, "build of ");
  sb_str(&b, key);
  sb_str(&b, " failed:\n");
  sb_str(&b, log);
  free(log);
  if (b.failed) {
    free(b.p);
    return;
  }
  free(s->log);
  s->log = b.p;
}

static pscr_status create_kernels(ocl_state *s, ocl_program *p) {
  cl_uint n = 0;
  cl_int err = clCreateKernelsInProgram(p->program, 0, NULL, &n);
  if (err != CL_SUCCESS) return ocl_status(err);
  if (n == 0) return PSCR_OK;
  p->kernels = calloc(n, sizeof *p->kernels);
  p->names = calloc(n, sizeof *p->names);
  p->local = calloc(n, sizeof *p->local);
  p->wg = calloc(n, sizeof *p->wg);
  p->memo = calloc((size_t)n * OCL_ARG_CACHED, sizeof *p->memo);
  if (p->kernels == NULL || p->names == NULL || p->local == NULL || p->wg == NULL ||
      p->memo == NULL)
    return PSCR_ERR_OUT_OF_MEMORY;
  err = clCreateKernelsInProgram(p->program, n, p->kernels, NULL);
  if (err != CL_SUCCESS) return ocl_status(err);
  p->nkernels = n;
  for (cl_uint k = 0; k < n; k++) {
    size_t len = 0;
    err = clGetKernelInfo(p->kernels[k], CL_KERNEL_FUNCTION_NAME, 0, NULL, &len);
    if (err != CL_SUCCESS) return ocl_status(err);
    p->names[k] = calloc(len + 1, 1);
    if (p->names[k] == NULL) return PSCR_ERR_OUT_OF_MEMORY;
    err = clGetKernelInfo(p->kernels[k], CL_KERNEL_FUNCTION_NAME, len, p->names[k], NULL);
    if (err == CL_SUCCESS)
      err = clGetKernelWorkGroupInfo(p->kernels[k], s->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                     sizeof p->local[k], &p->local[k], NULL);
    if (err == CL_SUCCESS)
      err = clGetKernelWorkGroupInfo(p->kernels[k], s->device, CL_KERNEL_WORK_GROUP_SIZE,
                                     sizeof p->wg[k], &p->wg[k], NULL);
    if (err != CL_SUCCESS) return ocl_status(err);
  }
  return PSCR_OK;
}

pscr_status ocl_program_get_text(ocl_state *s, const char *root, const char *text,
                                 const char *options, ocl_program **prog) {
  pscr_status st = PSCR_OK;
  sbuf key = {0}, opts = {0};
  sb_str(&key, root);
  sb_str(&key, "\n");
  sb_str(&key, options ? options : "");
  if (key.failed) {
    free(key.p);
    return PSCR_ERR_OUT_OF_MEMORY;
  }
  for (ocl_program *p = s->cache; p; p = p->next)
    if (strcmp(p->key, key.p) == 0) {
      free(key.p);
      *prog = p;
      return PSCR_OK;
    }
  ocl_program *p = calloc(1, sizeof *p);
  if (p == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  p->key = key.p;
  key.p = NULL;
  cl_int err;
  /* OpenCL C 1.2 everywhere: the dialect the kernels are written for. */
  /* NVIDIA's platform: -DPSCR_OCL_PTX=cc; where a build with it fails, the
   * retries take cc = 89 from 90 on (no sm_90 PTX), 1 (no tensor-core PTX),
   * then none */
  char ptx_def[32] = "";
  if (s->ptx) snprintf(ptx_def, sizeof ptx_def, "-DPSCR_OCL_PTX=%-3d ", s->ptx);
  sb_str(&opts, "-cl-std=CL1.2 ");
  size_t ptx_at = opts.len, ptx_len = strlen(ptx_def);
  sb_str(&opts, ptx_def);
  sb_str(&opts, options ? options : "");
  /* developers' build options on top (e.g. NVIDIA's -cl-nv-verbose: the registers
   * of every kernel in the build log, with $PSCR_OPENCL_LOG); the disk cache keys them */
  const char *extra = getenv("PSCR_OPENCL_OPTIONS");
  if (extra && extra[0]) {
    sb_str(&opts, " ");
    sb_str(&opts, extra);
  }
  if (opts.failed) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  char path[1100];
  int cached = cache_path(s, text, opts.p, s->ptx_bounds, path, sizeof path);
  p->program = cached ? cache_load(s, path, opts.p) : NULL;
  if (p->program) goto built;
  p->program = clCreateProgramWithSource(s->context, 1, &text, NULL, &err);
  if (err != CL_SUCCESS) {
    p->program = NULL;
    st = ocl_status(err);
    goto cleanup;
  }
  err = clBuildProgram(p->program, 1, &s->device, opts.p, NULL, NULL);
  while (err == CL_BUILD_PROGRAM_FAILURE && s->ptx) { /* same length: the options stay */
    s->ptx = s->ptx >= 90 ? 89 : s->ptx > 1 ? 1 : 0;
    char retry[32];
    snprintf(retry, sizeof retry, "-DPSCR_OCL_PTX=%-3d ", s->ptx);
    if (!s->ptx) memset(retry, ' ', sizeof retry);
    memcpy(opts.p + ptx_at, retry, ptx_len);
    err = clBuildProgram(p->program, 1, &s->device, opts.p, NULL, NULL);
  }
  keep_log(s, p->program, p->key, err != CL_SUCCESS);
  if (err != CL_SUCCESS) {
    st = err == CL_OUT_OF_HOST_MEMORY ? PSCR_ERR_OUT_OF_MEMORY : PSCR_ERR_DEVICE;
    goto cleanup;
  }
  if (s->ptx_bounds) with_bounds(s, &p->program, opts.p, p->key);
  if (cached) { /* under the options asked for, whatever PTX the retries settled on */
    size_t len = 0;
    unsigned char *bin = ocl_program_binary(p->program, &len);
    if (bin) pscr_disk_cache_write(path, bin, len);
    free(bin);
  }
built:
  dump_binary(p->program, p->key);
  st = create_kernels(s, p);
  if (st != PSCR_OK) goto cleanup;
  p->next = s->cache;
  s->cache = p;
  *prog = p;
  p = NULL;
cleanup:
  program_free(p);
  free(key.p);
  free(opts.p);
  return st;
}

pscr_status ocl_program_get(ocl_state *s, const char *root, const char *options,
                            ocl_program **prog) {
  char key[600];
  snprintf(key, sizeof key, "%s\n%s", root, options ? options : "");
  for (ocl_program *p = s->cache; p; p = p->next) /* hit: no source assembly */
    if (strcmp(p->key, key) == 0) {
      *prog = p;
      return PSCR_OK;
    }
  char *text = NULL;
  pscr_status st = ocl_resolve_source(pscr_opencl_sources(), root, &text);
  if (st == PSCR_OK) st = ocl_program_get_text(s, root, text, options, prog);
  free(text);
  return st;
}

/* ---- launches ---- */
static cl_int set_arg(cl_kernel k, cl_uint i, const ocl_arg *a) {
  switch (a->kind) {
  case OCL_ARG_MEM: return clSetKernelArg(k, i, sizeof a->mem, &a->mem);
  case OCL_ARG_INT: return clSetKernelArg(k, i, sizeof a->i, &a->i);
  case OCL_ARG_LONG: return clSetKernelArg(k, i, sizeof a->l, &a->l);
  case OCL_ARG_DOUBLE: return clSetKernelArg(k, i, sizeof a->x, &a->x);
  case OCL_ARG_BYTES: return clSetKernelArg(k, i, a->size, a->bytes);
  }
  return CL_INVALID_ARG_VALUE;
}

/* Sets argument i unless the memo shows the same scalar already set. */
static cl_int set_arg_memo(cl_kernel k, cl_uint i, const ocl_arg *a, struct ocl_arg_memo *m) {
  unsigned char v[16] = {0};
  size_t len = 0;
  switch (a->kind) {
  case OCL_ARG_INT: memcpy(v, &a->i, len = sizeof a->i); break;
  case OCL_ARG_LONG: memcpy(v, &a->l, len = sizeof a->l); break;
  case OCL_ARG_DOUBLE: memcpy(v, &a->x, len = sizeof a->x); break;
  case OCL_ARG_BYTES:
    if (a->size <= sizeof v) memcpy(v, a->bytes, len = a->size);
    break;
  case OCL_ARG_MEM: break;
  }
  if (m == NULL || len == 0) { /* buffers, wide values: always */
    if (m) m->kind = 0;
    return set_arg(k, i, a);
  }
  if (m->kind == (int)a->kind + 1 && memcmp(m->v, v, sizeof v) == 0) return CL_SUCCESS;
  cl_int err = set_arg(k, i, a);
  m->kind = err == CL_SUCCESS ? (int)a->kind + 1 : 0;
  memcpy(m->v, v, sizeof v);
  return err;
}

cl_uint ocl_kernel_index(ocl_program *prog, const char *name) {
  cl_uint ki = prog->hint < prog->nkernels && strcmp(prog->names[prog->hint], name) == 0
                   ? prog->hint
                   : prog->nkernels;
  for (cl_uint i = 0; i < prog->nkernels && ki == prog->nkernels; i++)
    if (strcmp(prog->names[i], name) == 0) ki = i;
  if (ki < prog->nkernels) prog->hint = ki;
  return ki;
}

pscr_status ocl_launch(ocl_state *s, ocl_program *prog, const char *name, size_t groups,
                       size_t group_size, int nargs, const ocl_arg *args) {
  cl_uint ki = ocl_kernel_index(prog, name);
  if (ki == prog->nkernels) return PSCR_ERR_DEVICE;
  cl_kernel k = prog->kernels[ki];
  /* a device would refuse it (or the build); where local memory is emulated
   * (PoCL) this keeps the sizes honest for the GPUs */
  if (prog->local[ki] > s->local_mem) return PSCR_ERR_UNSUPPORTED;
  if (groups == 0) return PSCR_OK;
  for (int i = 0; i < nargs; i++) {
    struct ocl_arg_memo *m = i < OCL_ARG_CACHED ? &prog->memo[ki * OCL_ARG_CACHED + i] : NULL;
    cl_int err = set_arg_memo(k, (cl_uint)i, &args[i], m);
    if (err != CL_SUCCESS) return ocl_status(err);
  }
  size_t global = groups * group_size, local = group_size;
  cl_event ev = NULL;
  s->flags_clean = 0; /* any kernel may raise a status word */
  /* profiling: an event on every launch, waited for */
  int prof = s->tune.profile;
  cl_int err = clEnqueueNDRangeKernel(s->queue, k, 1, NULL, &global, &local, 0, NULL,
                                      prof ? &ev : NULL);
  if (err != CL_SUCCESS) return ocl_status(err);
  double seconds = 0;
  cl_ulong t0 = 0, t1 = 0;
  if (prof && clWaitForEvents(1, &ev) == CL_SUCCESS &&
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) == CL_SUCCESS &&
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS &&
      t1 >= t0)
    seconds = 1e-9 * (double)(t1 - t0);
  if (ev) clReleaseEvent(ev);
  return gpu_kstats_add(&s->stats, name, seconds);
}
