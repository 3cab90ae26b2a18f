/* verify.c - ta_verify: the entry point, and each operator's result.
 *
 * Each operator named becomes a job (op_job, verify_internal.h): its
 * kernel, its parsed schema and declaration, how many cases it runs and
 * the seed of each. Its cases run in child processes (verify_parent.c
 * schedules them, verify_child.c runs them), or one job after another in
 * this process (tests, benchmarks). Either way findings reach the result
 * through verify_add_finding, and once an operator's cases are done its
 * verdict is decided here from them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "exec/registry/registry_internal.h"
#include "exec/synth/samples.h"
#include "exec/verify/verify_internal.h"

double verify_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* A synthesized case's seed: never below TA_SAMPLE_SEEDS, which name
 * samples; its low byte is the case's index (modulo 256), which
 * synthesis reads to give the first cases of every operator its covering
 * rows, special values and large shapes (synth.c). */
static uint64_t case_seed(const ta_verify_opts *o, const char *op, uint32_t c)
{
    if (o->has_case_seed) return o->case_seed;
    uint64_t s = ta_mix64(o->seed ^ fnv1a(op) ^ ((uint64_t)c * 0x9e3779b97f4a7c15ull));
    s = (s & ~0xffull) | (c & 0xff);
    return s < TA_SAMPLE_SEEDS ? s | TA_SAMPLE_SEEDS : s;
}

uint64_t verify_seed_of_case(const op_job *j, const ta_verify_opts *o, uint32_t c, bool *sample)
{
    *sample = c < j->nsamples;
    return *sample ? (uint64_t)j->first_sample + c : case_seed(o, j->name, c - j->nsamples);
}

/* ---- results ----------------------------------------------------------- */

/* A write of an argument torch's SchemaInfo only special-cases as written
 * (training mode) is a finding of its own: the annotation debt stays
 * visible, as a warning (an error when strict). f is rewritten in place. */
static void special_case(const op_job *j, ta_finding *f)
{
    if (f->kind != TA_V_UNDECLARED_MUTATION || !j->decl) return;
    for (int i = 0; i < j->decl->nargs; i++) {
        const ta_decl_slot *a = &j->decl->args[i];
        if (!a->special_write || strcmp(a->name, f->argument)) continue;
        char was[720];
        snprintf(was, sizeof was, "%.*s", (int)sizeof was - 1, f->message);
        f->kind = TA_V_SPECIAL_CASE_WRITE;
        f->severity = j->strict ? TA_SEV_ERROR : ta_verdict_kind_severity(f->kind);
        snprintf(f->message, sizeof f->message,
                 "torch's SchemaInfo special-cases '%s' as written in training mode, but the schema "
                 "does not declare it written: %s", a->name, was);
        return;
    }
}

void verify_add_finding(op_job *j, const ta_finding *given)
{
    ta_op_result *r = j->res;
    ta_finding copy = *given, *f = &copy;
    special_case(j, f);
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == f->kind && !strcmp(r->findings[i].argument, f->argument)) return;
    if (TA_GROW_ONE(r->findings, r->nfindings, j->capfindings, 4) != TA_OK) return;
    r->findings[r->nfindings++] = *f;
}

void verify_add_simple(op_job *j, ta_verdict_kind k, uint64_t seed, const char *fmt, ...)
{
    ta_finding f = {.kind = k, .severity = ta_verdict_kind_severity(k), .seed = seed};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    verify_add_finding(j, &f);
}

/* Worst severity first, then most specific kind, else in the order found. */
static bool finding_before(const ta_finding *a, const ta_finding *b)
{
    if (a->severity != b->severity) return a->severity > b->severity;
    return ta_verdict_kind_rank(a->kind) < ta_verdict_kind_rank(b->kind);
}

static void sort_findings(ta_op_result *r)
{
    for (size_t i = 1; i < r->nfindings; i++) {
        ta_finding f = r->findings[i];
        size_t k = i;
        for (; k > 0 && finding_before(&f, &r->findings[k - 1]); k--) r->findings[k] = r->findings[k - 1];
        r->findings[k] = f;
    }
}

void verify_cannot_run(op_job *j, const char *why)
{
    if (!j->cannot_run++) snprintf(j->cannot_run_why, sizeof j->cannot_run_why, "%.255s", why);
}

void verify_finish_result(op_job *j)
{
    ta_op_result *r = j->res;
    if (r->verdict != TA_V_NO_KERNEL) {
        bool serious = false;
        for (size_t i = 0; i < r->nfindings; i++)
            if (r->findings[i].severity == TA_SEV_ERROR) serious = true;
        /* Not runnable only on evidence from every case: one refused
         * otherwise (or not made) might have had an input that runs. */
        if (r->exercised == 0 && !serious && j->cannot_run && j->cannot_run == r->cases)
            verify_add_simple(j, TA_V_NOT_RUNNABLE, 0, "no input can run it here (all %u cases refused so): %s",
                              r->cases, j->cannot_run_why);
        else if (r->exercised == 0 && !serious)
            verify_add_simple(j, TA_V_NOT_EXERCISED, 0, "no case was accepted (%u tried)%s%s", r->cases,
                       r->note[0] ? ": " : "", r->note);
        r->verdict = TA_V_OK;
    }
    r->severity = ta_verdict_kind_severity(r->verdict);
    sort_findings(r);
    /* The first finding is the worst and, among the worst, the most
     * specific: it names the verdict (any finding is worse than ok). */
    if (r->nfindings && (r->verdict == TA_V_OK || r->findings[0].severity > r->severity)) {
        r->verdict = r->findings[0].kind;
        r->severity = r->findings[0].severity;
    }
}

/* ---- the entry point --------------------------------------------------- */

/* The kernel that runs op on the run's device; false (with a no-kernel
 * result) when there is none. */
static bool find_kernel(op_job *j, const ta_registry_op *op, const char *name,
                        const ta_verify_opts *o)
{
    if (!op || !ta_registry_has_kernel(op)) {
        j->res->verdict = TA_V_NO_KERNEL;
        verify_add_simple(j, TA_V_NO_KERNEL, 0, "no kernel is registered for %s", name);
        return false;
    }
    j->fn = ta_registry_kernel_for(op, o->dev->type, &j->ud);
    j->res->derived = ta_registry_is_derived(op);
    if (j->fn) return true;
    j->res->verdict = TA_V_NO_KERNEL;
    verify_add_simple(j, TA_V_NO_KERNEL, 0, "no kernel for device %s is registered for %s", o->dev->name,
               name);
    return false;
}

/* The parsed schema of op and its declaration, in the job's arena; false
 * (with a kernel-error result) when they cannot be had. */
static bool read_declaration(op_job *j, const ta_registry_op *op, const char *name)
{
    ta_diags *pd = NULL;
    bool made = ta_arena_create(&j->arena) == TA_OK && ta_diags_create(&pd) == TA_OK;
    if (!op->schema) {
        verify_add_simple(j, TA_V_KERNEL_ERROR, 0, "%s has a kernel but no schema", name);
    } else if (!made ||
               ta_schema_parse(j->arena, op->schema, strlen(op->schema), NULL, &j->schema, pd) != TA_OK) {
        const ta_diag *g = pd && ta_diags_count(pd) ? ta_diags_get(pd, 0) : NULL;
        verify_add_simple(j, TA_V_KERNEL_ERROR, 0, "the schema of %s does not parse: %s", name,
                   g ? g->message : "out of memory");
    } else if (ta_decl_build(j->arena, j->schema, &j->decl) != TA_OK) {
        verify_add_simple(j, TA_V_KERNEL_ERROR, 0, "out of memory");
    }
    ta_diags_destroy(pd);
    if (j->decl) return true;
    ta_arena_destroy(j->arena);
    j->arena = NULL;
    return false;
}

/* How many cases j runs: its samples, then the synthesized ones; with a
 * case seed, the one case it names (a sample when below the count). */
static void plan_cases(op_job *j, const ta_verify_opts *o, size_t nsamples)
{
    if (o->has_case_seed) {
        j->nsamples = o->case_seed < nsamples ? 1 : 0;
        j->first_sample = j->nsamples ? (uint32_t)o->case_seed : 0;
        j->total = 1;
        return;
    }
    j->nsamples = (uint32_t)(nsamples < UINT32_MAX / 2 ? nsamples : UINT32_MAX / 2);
    j->total = j->nsamples + (o->samples_only ? 0 : o->cases);
}

/* A job for operator ops[i] into *j; false when its result is final
 * already (no kernel, no usable schema). */
static bool prepare_job(op_job *j, ta_op_result *r, const ta_registry *reg, const char *name,
                        const ta_verify_opts *o)
{
    snprintf(r->op, sizeof r->op, "%s", name);
    *j = (op_job){.name = r->op, .res = r, .strict = o->strict};
    const ta_registry_op *op = ta_registry_find(reg, name);
    if (!find_kernel(j, op, name, o) || !read_declaration(j, op, name)) {
        verify_finish_result(j);
        return false;
    }
    j->screen = registry_screen(reg, name, &j->screen_ud);
    const char *mismatch = registry_mismatch(reg, name);
    if (mismatch) verify_add_simple(j, TA_V_SCHEMA_MISMATCH, 0, "%s", mismatch);
    j->nprep = r->nfindings;
    plan_cases(j, o, ta_samples_count(o->samples, name));
    return true;
}

/* Runs every job: in children, or one after the other in this process;
 * false when out of memory before any ran. */
static bool run_jobs(op_job *run, size_t nrun, const ta_verify_opts *o, const ta_registry *reg,
                     ta_verify_stats *stats)
{
    if (!o->in_process) return verify_run_parallel(run, nrun, o, reg, stats);
    for (size_t i = 0; i < nrun; i++) {
        verify_run_cases(&run[i], 0, NULL, o, -1, RUN_IN_PROCESS);
        verify_finish_result(&run[i]);
        if (o->progress) o->progress(o->progress_ud, i + 1, nrun, run[i].name);
    }
    return true;
}

ta_status ta_verify(const ta_registry *reg, const char *const *ops, size_t nops,
                    const ta_verify_opts *opts, ta_verify_report **out, ta_diags *diags)
{
    (void)diags;
    ta_verify_opts o = *opts;
    if (!o.cases) o.cases = 40;
    if (o.timeout <= 0) o.timeout = 10.0;
    if (!o.dev) o.dev = ta_exec_device_cpu();
    ta_verify_report *rep = ta_calloc(1, sizeof *rep);
    op_job *jobs = ta_calloc(nops ? nops : 1, sizeof *jobs);
    if (rep) rep->ops = ta_calloc(nops ? nops : 1, sizeof *rep->ops);
    if (!rep || !jobs || !rep->ops) {
        if (rep) free(rep->ops);
        free(rep);
        free(jobs);
        return TA_ERR_NOMEM;
    }
    rep->nops = nops;
    /* Small runs trap writes to read-only inputs: only read-only pages see
     * a kernel that writes an input and puts the old bytes back. */
    if (!o.in_process && o.dev->type == kDLCPU && (uint64_t)nops * o.cases <= TA_VERIFY_TRAP_AUTO)
        o.trap_writes = true;
    double t0 = verify_now();
    size_t nrun = 0; /* jobs that need cases run, packed at the front */
    for (size_t i = 0; i < nops; i++)
        if (prepare_job(&jobs[nrun], &rep->ops[i], reg, ops[i], &o)) nrun++;
    bool ran = run_jobs(jobs, nrun, &o, reg, &rep->stats);
    for (size_t i = 0; i < nrun; i++) {
        rep->total_cases += jobs[i].res->cases;
        ta_arena_destroy(jobs[i].arena);
    }
    free(jobs);
    rep->seconds = verify_now() - t0;
    if (!ran) {
        ta_verify_report_destroy(rep);
        return TA_ERR_NOMEM;
    }
    *out = rep;
    return TA_OK;
}

void ta_verify_report_destroy(ta_verify_report *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nops; i++) free(r->ops[i].findings);
    free(r->ops);
    free(r);
}
