/* cuda_test_util.h - helpers the CUDA tests share (header-only, static): finding
 * and loading build/libtensoralias_cuda.so, pushing arguments, and calling a
 * registered CUDA kernel by operator name. */
#ifndef TA_TEST_CUDA_UTIL_H
#define TA_TEST_CUDA_UTIL_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensoralias/device.h"
#include "tensoralias/exec.h"

/* Path of the CUDA library in the build directory under test. */
static inline const char *cuda_lib_path(void)
{
    static char path[512];
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    snprintf(path, sizeof path, "%s/libtensoralias_cuda.so", build);
    return path;
}

/* Opens the CUDA library into *handle. Returns 0, or what main should exit
 * with after printing why: 77 (skipped) when it was not built, 1 when it
 * does not load. */
static inline int cuda_lib_open(void **handle)
{
    if (access(cuda_lib_path(), F_OK) != 0) {
        printf("%s was not built (no nvcc, or make CUDA=0)\n", cuda_lib_path());
        return 77;
    }
    *handle = dlopen(cuda_lib_path(), RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        printf("cannot load %s: %s\n", cuda_lib_path(), dlerror());
        return 1;
    }
    return 0;
}

/* The device table of the library at handle, or NULL. */
static inline const ta_device_ops *cuda_ops_of(void *handle)
{
    void *sym = dlsym(handle, TA_DEVICE_ENTRY);
    ta_device_entry_fn entry;
    if (!sym) return NULL;
    memcpy(&entry, &sym, sizeof entry);
    return entry();
}

static inline void push_int(ta_stack *st, int64_t i)
{
    ta_value v = {.tag = TA_VAL_INT};
    v.u.i = i;
    ta_stack_push(st, v);
}

static inline void push_none(ta_stack *st)
{
    ta_value v = {.tag = TA_VAL_NONE};
    ta_stack_push(st, v);
}

static inline void push_ints(ta_stack *st, const int64_t *items, size_t n)
{
    ta_value v = {.tag = TA_VAL_INT_LIST};
    v.u.ints.items = items;
    v.u.ints.n = n;
    ta_stack_push(st, v);
}

static inline void push_scalar_f(ta_stack *st, double f)
{
    ta_value v = {.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_FLOAT};
    v.u.f = f;
    ta_stack_push(st, v);
}

static inline void push_scalar_i(ta_stack *st, int64_t i)
{
    ta_value v = {.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_INT};
    v.u.i = i;
    ta_stack_push(st, v);
}

/* The CUDA kernels registered, and an engine on dev with its stack: what a
 * kernel test runs on. */
typedef struct cuda_fixture {
    ta_registry *reg;
    ta_exec *x;
    ta_stack *st;
} cuda_fixture;

/* NULL when the kernels do not register. */
static inline cuda_fixture *cuda_fixture_create(const ta_device_ops *dev)
{
    cuda_fixture *f = calloc(1, sizeof *f);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_registry_create(&f->reg), TA_OK);
    ta_status s = ta_registry_load_plugin(f->reg, cuda_lib_path(), d);
    ta_diags_destroy(d);
    if (s != TA_OK) {
        ta_registry_destroy(f->reg);
        free(f);
        return NULL;
    }
    assert_int_equal(ta_exec_create(dev, &f->x), TA_OK);
    f->st = ta_exec_stack(f->x);
    return f;
}

static inline void cuda_fixture_destroy(cuda_fixture *f)
{
    ta_exec_destroy(f->x);
    ta_registry_destroy(f->reg);
    free(f);
}

/* What the last call_cuda_op said when it failed. */
static ta_diags *cuda_call_diags;

static inline const char *cuda_call_error(void)
{
    size_t n = ta_diags_count(cuda_call_diags);
    return n ? ta_diags_get(cuda_call_diags, n - 1)->message : "";
}

/* Runs op's CUDA kernel on x's stack (already holding the arguments). */
static inline ta_status call_cuda_op(ta_registry *reg, ta_exec *x, const char *op)
{
    const ta_registry_op *o = ta_registry_find(reg, op);
    if (!o || !o->kernels[TA_KEY_CUDA]) {
        fprintf(stderr, "no CUDA kernel for %s\n", op);
        return TA_ERR_NOTFOUND;
    }
    if (!cuda_call_diags) assert_int_equal(ta_diags_create(&cuda_call_diags), TA_OK);
    ta_diags_clear(cuda_call_diags);
    return ta_exec_call(x, o->kernels[TA_KEY_CUDA], o->user_data[TA_KEY_CUDA], cuda_call_diags);
}

#endif
