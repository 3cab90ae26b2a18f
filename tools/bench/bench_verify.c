/* bench_verify.c - verification throughput and observation overhead.
 *
 * 1. Cases per second with process isolation: 16 operators (a functional
 *    copy, an out= copy, an inplace op) verified with fork per operator,
 *    small synthesized tensors, 1 and 2 jobs.
 * 2. Observation overhead on 1 MB and 64 MB float32 tensors: a case's time
 *    minus building its inputs minus the bare kernel, against the bare
 *    kernel, for a functional and an out= kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/observe/observe.h"
#include "tensoralias/exec.h"

#include "benchlib.h"

/* y = |x|, any float layout (contiguous fast path). */
static void abs_into(DLTensor *y, const DLTensor *x)
{
    int64_t n = ta_numel(x);
    if (ta_is_contiguous(x) && ta_is_contiguous(y) && x->dtype.code == kDLFloat && x->dtype.bits == 32) {
        const float *a = (const float *)((char *)x->data + x->byte_offset);
        float *b = (float *)((char *)y->data + y->byte_offset);
        for (int64_t i = 0; i < n; i++) b[i] = fabsf(a[i]);
        return;
    }
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0; i < n; i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
}

static ta_status k_abs(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK) return ta_kernel_error(ctx, "oom");
    abs_into(y, x);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static ta_status k_abs_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!ta_dtype_eq(x->dtype, out->dtype)) return ta_kernel_error(ctx, "dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK) return ta_kernel_error(ctx, "resize");
    abs_into(out, x);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, out);
}

static ta_status k_touch_(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    DLTensor *x = ta_stack_tensor(st, 0);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, x);
}

static void throughput(uint32_t jobs)
{
    ta_registry *reg;
    BENCH_OK(ta_registry_create(&reg));
    char names[16][64];
    const char *ops[16];
    for (int i = 0; i < 16; i++) {
        char schema[160];
        int kind = i % 3;
        const char *suffix = kind == 1 ? ".out" : kind == 2 ? "_" : "";
        snprintf(names[i], sizeof names[i], "bench::op%d%s", i, suffix);
        snprintf(schema, sizeof schema, "bench::op%d%s%s", i, suffix,
                 kind == 0 ? "(Tensor self) -> Tensor"
                 : kind == 1 ? "(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
                             : "(Tensor(a!) self) -> Tensor(a!)");
        ta_register_op(reg, schema, TA_KEY_CPU, kind == 0 ? k_abs : kind == 1 ? k_abs_out : k_touch_, NULL);
        ops[i] = names[i];
    }
    ta_verify_opts o = {.seed = 1, .cases = 2000, .jobs = jobs};
    ta_verify_report *r;
    double t0 = bench_now();
    ta_verify(reg, ops, 16, &o, &r, NULL);
    double t = bench_now() - t0;
    size_t errors = 0;
    for (size_t i = 0; i < r->nops; i++) errors += r->ops[i].severity == TA_SEV_ERROR;
    printf("isolated verification, %u job(s): %llu cases in %.3f s = %.0f cases/s (16 operators, fork per operator; %zu with errors)\n",
           jobs, (unsigned long long)r->total_cases, t, (double)r->total_cases / t, errors);
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
}

typedef struct big {
    int64_t n;
    bool out;
} big;

static ta_status big_builder(void *ud, ta_exec *x, const ta_schema *s, const ta_decl *d, uint64_t seed,
                             ta_case *c)
{
    (void)s;
    (void)d;
    (void)seed;
    const big *b = ud;
    c->nargs = c->nslots = 0;
    DLTensor *t;
    if (ta_exec_empty(x, TA_DTYPE_F32, 1, &b->n, &t) != TA_OK) return TA_ERR_NOMEM;
    for (int64_t i = 0; i < b->n; i++) ((float *)t->data)[i] = (float)(i % 7) - 3.0f;
    ta_value v = {.tag = TA_VAL_TENSOR};
    v.u.tensor = t;
    ta_case_push(c, x, v);
    ta_case_add_slot(c, x, 0, -1, t, false);
    if (b->out) {
        DLTensor *o;
        if (ta_exec_empty(x, TA_DTYPE_F32, 1, &b->n, &o) != TA_OK) return TA_ERR_NOMEM;
        memset(o->data, 0xA5, (size_t)b->n * 4);
        v.u.tensor = o;
        ta_case_push(c, x, v);
        ta_case_add_slot(c, x, 1, -1, o, true);
    }
    return TA_OK;
}

/* The time of a case with observation against the same case without it
 * (reset, build the inputs, call the kernel): best of several runs each. */
static void overhead(size_t bytes, bool out, size_t protect_min)
{
    const char *text = out ? "bench::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"
                           : "bench::abs(Tensor self) -> Tensor";
    ta_arena *a;
    BENCH_OK(ta_arena_create(&a));
    ta_schema *s;
    ta_decl *d;
    ta_schema_parse(a, text, strlen(text), NULL, &s, NULL);
    ta_decl_build(a, s, &d);
    ta_exec *x;
    BENCH_OK(ta_exec_create(NULL, &x));
    big b = {(int64_t)(bytes / 4), out};
    ta_kernel_fn fn = out ? k_abs_out : k_abs;
    int reps = bytes > (8u << 20) ? 7 : 60;
    double t_build = 1e9, t_kernel = 1e9, t_case = 1e9;
    ta_case c;
    ta_observer *ck = ta_observer_create(x, s, d, fn, NULL, 0, NULL, NULL);
    ta_observer_set_protect_min(ck, protect_min);
    ta_case_source from = {big_builder, &b, true, false};
    for (int r = 0; r < reps; r++) {
        ta_exec_reset(x);
        double t0 = bench_now();
        big_builder(&b, x, s, d, 0, &c);
        double t1 = bench_now();
        ta_exec_call(x, fn, NULL, NULL);
        double t2 = bench_now();
        if (t1 - t0 < t_build) t_build = t1 - t0;
        if (t2 - t1 < t_kernel) t_kernel = t2 - t1;
        ta_exec_reset(x); /* freeing the last case's storage is not observation */
        t0 = bench_now();
        ta_observer_run(ck, 0, &from);
        t1 = bench_now();
        if (t1 - t0 < t_case) t_case = t1 - t0;
    }
    double obs = t_case - t_build - t_kernel;
    if (obs < 0) obs = 0;
    printf("observation overhead, %-14s %5.1f MB, %-22s kernel %8.3f ms, observation %8.3f ms = %.2fx the kernel\n",
           out ? "out= abs," : "functional abs,", (double)bytes / (1 << 20),
           protect_min ? "read-only pages (child):" : "byte snapshots:", t_kernel * 1e3, obs * 1e3, obs / t_kernel);
    ta_observer_destroy(ck);
    ta_exec_destroy(x);
    ta_arena_destroy(a);
}

/* `bench_verify throughput`: the first part only (for a profiler or perf stat). */
int main(int argc, char **argv)
{
    throughput(1);
    throughput(2);
    if (argc > 1 && !strcmp(argv[1], "throughput")) return 0;
    size_t sizes[2] = {1u << 20, 64u << 20};
    for (int k = 0; k < 2; k++)
        for (int out = 0; out < 2; out++) {
            overhead(sizes[k], out, 0);
            overhead(sizes[k], out, 64 << 10); /* what verify's children do */
        }
    return 0;
}
