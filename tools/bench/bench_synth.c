/* bench_synth.c - input synthesis: cases per second over every operator of a
 * native_functions.yaml, and, with --dump, the cases themselves.
 *
 *   build/bench/bench_synth [FILE.yaml] [--cases N] [--dump FILE.json]
 *
 * Prints how many cases of how many operators were synthesized (and how many
 * could not be, by reason) and the rate, in thread CPU time. --dump writes
 * the cases as a samples file, every tensor's values included, so that
 * tools/torch/synth_acceptance.py can run each in torch and count how many
 * ATen's kernels accept: the measure of how realistic synthesis is. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "exec/synth/synth.h"
#include "tensoralias/exec.h"
#include "tensoralias/native.h"

#include "benchlib.h"

/* ---- a case as a sample ------------------------------------------------- */

static json_t *elem_json(DLDataType dt, const void *p)
{
    if (dt.code == kDLFloat && dt.bits == 32) return json_real(*(const float *)p);
    if (dt.code == kDLFloat && dt.bits == 64) return json_real(*(const double *)p);
    if (dt.code == TA_DL_BOOL) return json_boolean(*(const uint8_t *)p);
    if (dt.code == kDLInt && dt.bits == 64) return json_integer(*(const int64_t *)p);
    if (dt.code == kDLInt && dt.bits == 32) return json_integer(*(const int32_t *)p);
    return NULL;
}

static json_t *tensor_json(const ta_case *c, const DLTensor *t, ta_exec *x, bool fill)
{
    json_t *o = json_object(), *shape = json_array(), *strides = json_array(), *values = json_array();
    int64_t st[TA_CASE_MAX_DIM];
    ta_strides_of(t, st);
    for (int d = 0; d < t->ndim; d++) {
        json_array_append_new(shape, json_integer(t->shape[d]));
        json_array_append_new(strides, json_integer(st[d]));
    }
    json_object_set_new(o, "shape", shape);
    json_object_set_new(o, "strides", strides);
    json_object_set_new(o, "dtype", json_string(ta_dtype_name(t->dtype)));
    size_t es = ta_dtype_size(t->dtype);
    if (t->byte_offset) json_object_set_new(o, "offset", json_integer((json_int_t)(t->byte_offset / es)));
    uint32_t sid = ta_exec_storage_of(x, t);
    int users = 0;
    for (int i = 0; i < c->nslots; i++) users += c->slots[i].storage == sid;
    if (users > 1) json_object_set_new(o, "storage", json_integer(sid));
    ta_storage_info si;
    if (ta_exec_storage_get(x, sid, &si)) json_object_set_new(o, "storage_bytes", json_integer((json_int_t)si.bytes));
    if (fill) {
        json_decref(values);
        return o;
    }
    for (int64_t i = 0; i < ta_numel(t); i++) {
        json_t *e = elem_json(t->dtype, ta_elem_ptr(t, i));
        if (!e) { /* a dtype written nowhere here: values generated instead */
            json_decref(values);
            return o;
        }
        json_array_append_new(values, e);
    }
    json_object_set_new(o, "values", values);
    return o;
}

static bool slot_fill(const ta_case *c, const DLTensor *t)
{
    for (int i = 0; i < c->nslots; i++)
        if (c->slots[i].t == t) return c->slots[i].fill;
    return false;
}

static json_t *value_json(const ta_case *c, const ta_value *v, ta_exec *x)
{
    json_t *a;
    switch (v->tag) {
    case TA_VAL_NONE: return json_null();
    case TA_VAL_TENSOR: return tensor_json(c, v->u.tensor, x, slot_fill(c, v->u.tensor));
    case TA_VAL_TENSOR_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.tensors.n; k++) {
            const DLTensor *t = v->u.tensors.items[k];
            json_array_append_new(a, t ? tensor_json(c, t, x, slot_fill(c, t)) : json_null());
        }
        return a;
    case TA_VAL_INT: return json_integer(v->u.i);
    case TA_VAL_INT_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.ints.n; k++) json_array_append_new(a, json_integer(v->u.ints.items[k]));
        return a;
    case TA_VAL_FLOAT: return json_real(v->u.f);
    case TA_VAL_FLOAT_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.floats.n; k++) json_array_append_new(a, json_real(v->u.floats.items[k]));
        return a;
    case TA_VAL_BOOL: return json_boolean(v->u.b);
    case TA_VAL_BOOL_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.bools.n; k++) json_array_append_new(a, json_boolean(v->u.bools.items[k]));
        return a;
    case TA_VAL_STRING: return json_string(v->u.s);
    case TA_VAL_SCALAR:
        return v->scalar_kind == TA_SCALAR_INT    ? json_integer(v->u.i)
               : v->scalar_kind == TA_SCALAR_BOOL ? json_boolean(v->u.b)
                                                  : json_real(v->u.f);
    case TA_VAL_SCALAR_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.scalars.n; k++) {
            const ta_scalar *s = &v->u.scalars.items[k];
            json_array_append_new(a, s->kind == TA_SCALAR_INT    ? json_integer(s->u.i)
                                     : s->kind == TA_SCALAR_BOOL ? json_boolean(s->u.b)
                                                                 : json_real(s->u.f));
        }
        return a;
    case TA_VAL_DIMNAME: return json_string(v->u.s);
    case TA_VAL_DIMNAME_LIST:
        a = json_array();
        for (size_t k = 0; k < v->u.names.n; k++) json_array_append_new(a, json_string(v->u.names.items[k]));
        return a;
    }
    return json_null();
}

static json_t *case_json(const ta_case *c, const ta_decl *d, ta_exec *x)
{
    json_t *o = json_object();
    for (int i = 0; i < c->nargs && i < d->nargs; i++) json_object_set_new(o, d->args[i].name, value_json(c, &c->args[i], x));
    return o;
}

/* ---- the run ------------------------------------------------------------ */

typedef struct tally {
    uint64_t cases, made, ops, ops_made;
    double seconds;
} tally;

static void run_op(const ta_native_func *fn, uint32_t ncases, ta_exec *x, ta_case *c, tally *t, json_t *dump)
{
    ta_arena *arena;
    BENCH_OK(ta_arena_create(&arena));
    ta_decl *d = NULL;
    if (!arena || !fn->schema || ta_decl_build(arena, fn->schema, &d) != TA_OK) {
        ta_arena_destroy(arena);
        return;
    }
    json_t *list = dump ? json_array() : NULL;
    uint64_t made = 0;
    for (uint32_t k = 0; k < ncases; k++) {
        ta_exec_reset(x);
        double t0 = bench_cpu_now();
        /* Seeds as verify makes them: the low byte is the case's index
         * (covering rows, special values and large shapes follow from it). */
        uint64_t seed = (ta_mix64(k + 1) & ~0xffull) | (k & 0xff) | (1ull << 32);
        ta_status st = ta_synth_case(x, fn->schema, d, seed, c);
        t->seconds += bench_cpu_now() - t0;
        t->cases++;
        if (st != TA_OK) continue;
        made++;
        if (list) json_array_append_new(list, case_json(c, d, x));
    }
    t->made += made;
    t->ops++;
    t->ops_made += made > 0;
    if (list && json_array_size(list)) json_object_set_new(dump, fn->full_name, list);
    else json_decref(list);
    ta_arena_destroy(arena);
}

int main(int argc, char **argv)
{
    const char *yaml = "build/data/corpus/pytorch-1.13.1/native_functions.yaml", *dump_path = NULL;
    uint32_t ncases = 40;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cases") && i + 1 < argc) ncases = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump_path = argv[++i];
        else if (argv[i][0] != '-') yaml = argv[i];
        else {
            fprintf(stderr, "usage: bench_synth [FILE.yaml] [--cases N] [--dump FILE.json]\n");
            return 2;
        }
    }
    ta_diags *diags;
    BENCH_OK(ta_diags_create(&diags));
    ta_native_file *f = NULL;
    if (ta_native_load_path(yaml, NULL, &f, diags) == TA_ERR_IO || !f) {
        fprintf(stderr, "bench_synth: cannot load %s\n", yaml);
        return 1;
    }
    ta_exec *x;
    BENCH_OK(ta_exec_create(NULL, &x));
    ta_case *c = calloc(1, sizeof *c);
    json_t *dump = dump_path ? json_object() : NULL;
    tally t = {0};
    for (size_t i = 0; x && c && i < ta_native_count(f); i++) run_op(ta_native_get(f, i), ncases, x, c, &t, dump);
    printf("bench_synth: %s\n", yaml);
    printf("  %" PRIu64 " operators, %" PRIu64 " with a case; %" PRIu64 " of %" PRIu64 " cases synthesized\n",
           t.ops, t.ops_made, t.made, t.cases);
    printf("  %.0f cases/s (thread CPU time, values included)\n", t.seconds > 0 ? (double)t.cases / t.seconds : 0.0);
    int rc = 0;
    if (dump && json_dump_file(dump, dump_path, JSON_COMPACT) != 0) {
        fprintf(stderr, "bench_synth: cannot write %s\n", dump_path);
        rc = 1;
    }
    json_decref(dump);
    free(c);
    ta_exec_destroy(x);
    ta_native_destroy(f);
    ta_diags_destroy(diags);
    return rc;
}
