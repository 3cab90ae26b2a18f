/* test_torchgen_autogen.c - torchgen's derivation rules on small yamls made
 * for each rule: out= from inplace, mutable and functional bases, naming
 * (out, <overload>_out, out0..N, _functional), fresh alias letters, return
 * conventions, the plans, and every refusal or mismatch reported with its
 * rule id (and, through the check pass, at the autogen item's position). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

typedef struct fixture {
    ta_native_file *nf;
    ta_torchgen *tg;
    ta_diags *diags;
} fixture;

static void load(fixture *fx, const char *yaml)
{
    assert_int_equal(ta_diags_create(&fx->diags), TA_OK);
    ta_status st = ta_native_load_buffer(yaml, strlen(yaml), "t.yaml", NULL, 0, NULL, &fx->nf,
                                         fx->diags);
    for (size_t i = 0; i < ta_diags_count(fx->diags); i++)
        ta_diag_render(ta_diags_get(fx->diags, i), stderr);
    assert_int_equal(st, TA_OK);
    assert_int_equal(ta_torchgen_from_native(fx->nf, &fx->tg, fx->diags), TA_OK);
}

static void unload(fixture *fx)
{
    ta_torchgen_destroy(fx->tg);
    ta_native_destroy(fx->nf);
    ta_diags_destroy(fx->diags);
}

static const ta_tg_function *derived(const fixture *fx, const char *name)
{
    int32_t i = ta_torchgen_find(fx->tg, name);
    if (i < 0) {
        fprintf(stderr, "no function %s\n", name);
        return NULL;
    }
    const ta_tg_function *f = ta_torchgen_get(fx->tg, (size_t)i);
    return f->generated ? f : NULL;
}

static size_t count_rule(const fixture *fx, const char *rule, ta_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; i < ta_diags_count(fx->diags); i++) {
        const ta_diag *d = ta_diags_get(fx->diags, i);
        if (!strcmp(d->rule, rule) && d->severity == sev) n++;
    }
    return n;
}

static void test_out_and_functional_from_inplace(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "- func: foo_.Scalar(Tensor(a!) self, Scalar other, *, Scalar alpha=1) -> Tensor(a!)\n"
              "  dispatch:\n    CPU: foo_\n"
              "  autogen: foo.Scalar, foo.Scalar_out\n");
    assert_int_equal(ta_torchgen_count_derived(fx.tg), 2);
    const ta_tg_function *o = derived(&fx, "foo.Scalar_out");
    const ta_tg_function *f = derived(&fx, "foo.Scalar");
    assert_non_null(o);
    assert_non_null(f);
    /* torchgen's order: the out= variant first, then the functional one */
    assert_true(o->index < f->index);
    assert_string_equal(o->func, "foo.Scalar_out(Tensor self, Scalar other, *, Scalar alpha=1, "
                                 "Tensor(a!) out) -> Tensor(a!)");
    assert_string_equal(f->func, "foo.Scalar(Tensor self, Scalar other, *, Scalar alpha=1) -> Tensor");
    assert_int_equal(o->kind, TA_KIND_OUT);
    assert_int_equal(f->kind, TA_KIND_FUNCTIONAL);
    assert_string_equal(o->signature, f->signature);
    assert_int_equal(o->line, 1);
    assert_int_equal(o->ntags, 1);
    assert_string_equal(o->tags[0], "generated");
    assert_true(o->has_composite_explicit_autograd_kernel);
    assert_false(o->has_composite_implicit_autograd_kernel);
    /* the printed model is the model: kwarg marker, out flags */
    assert_int_equal(o->schema->kwarg_marker, 2);
    assert_true(o->schema->args[3].is_out);
    /* plan of the functional: clone self, call foo_, return the clone */
    const ta_autogen_plan *p = f->plan;
    assert_non_null(p);
    assert_string_equal(ta_torchgen_get(fx.tg, p->callee)->name, "foo_.Scalar");
    assert_int_equal(p->nclone, 1);
    assert_int_equal(p->clone[0], 0);
    assert_int_equal(p->nrets, 1);
    assert_int_equal(p->ret_src[0].kind, TA_AG_CLONED_ARG);
    assert_int_equal(p->ret_src[0].index, 0);
    assert_int_equal(p->arg_from[2], 2);
    /* plan of the out=: call the functional, copy its return 0 into out, return out */
    p = o->plan;
    assert_string_equal(ta_torchgen_get(fx.tg, p->callee)->name, "foo.Scalar");
    assert_int_equal(p->nouts, 1);
    assert_int_equal(p->out_args[0], 3);
    assert_int_equal(p->out_from[0], 0);
    assert_int_equal(p->ret_src[0].kind, TA_AG_OWN_ARG);
    assert_int_equal(p->ret_src[0].index, 3);
    assert_int_equal(ta_diags_count_severity(fx.diags, TA_SEV_ERROR), 0);
    /* groups: one kinds group holding all three */
    assert_int_equal(ta_torchgen_group_count(fx.tg), 1);
    const ta_tg_group *g = ta_torchgen_group_get(fx.tg, 0);
    assert_int_equal(g->kind, TA_GROUP_KINDS);
    assert_int_equal(g->inplace, 0);
    assert_int_equal(g->out, (int32_t)o->index);
    assert_int_equal(g->functional, (int32_t)f->index);
    unload(&fx);
}

static void test_mutable_base(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "- func: bar(Tensor self, Tensor(a!) running, Tensor(b!) other, float m) -> (Tensor output, Tensor mask)\n"
              "  dispatch:\n    CPU: bar\n"
              "  tags: nondeterministic_seeded\n"
              "  autogen: bar_functional, bar.out\n");
    const ta_tg_function *o = derived(&fx, "bar.out");
    const ta_tg_function *f = derived(&fx, "bar_functional");
    assert_non_null(o);
    assert_non_null(f);
    /* fresh letters skip a and b; the written arguments stay written */
    assert_string_equal(o->func, "bar.out(Tensor self, Tensor(a!) running, Tensor(b!) other, float m, "
                                 "*, Tensor(c!) out0, Tensor(d!) out1) -> (Tensor(c!), Tensor(d!))");
    assert_string_equal(f->func, "bar_functional(Tensor self, Tensor running, Tensor other, float m) -> "
                                 "(Tensor output, Tensor mask, Tensor running_out, Tensor other_out)");
    assert_int_equal(o->ntags, 2);
    assert_string_equal(o->tags[1], "nondeterministic_seeded");
    const ta_autogen_plan *p = f->plan;
    assert_int_equal(p->nclone, 2);
    assert_int_equal(p->nrets, 4);
    assert_int_equal(p->ret_src[0].kind, TA_AG_CALLEE_RETURN);
    assert_int_equal(p->ret_src[1].kind, TA_AG_CALLEE_RETURN);
    assert_int_equal(p->ret_src[2].kind, TA_AG_CLONED_ARG);
    assert_int_equal(p->ret_src[2].index, 1);
    assert_int_equal(p->ret_src[3].index, 2);
    p = o->plan;
    assert_string_equal(ta_torchgen_get(fx.tg, p->callee)->name, "bar_functional");
    assert_int_equal(p->nouts, 2);
    assert_int_equal(p->out_from[1], 1);
    assert_int_equal(p->nwritten, 2);
    assert_int_equal(p->written_args[0], 1);
    assert_int_equal(p->writeback[0], 2);
    assert_int_equal(p->writeback[1], 3);
    assert_int_equal(ta_diags_count_severity(fx.diags, TA_SEV_ERROR), 0);
    const ta_tg_group *g = ta_torchgen_group_get(fx.tg, 0);
    assert_int_equal(g->mutable_fn, 0);
    unload(&fx);
}

static void test_functional_base_returns(void **state)
{
    (void)state;
    fixture fx;
    load(&fx, "- func: baz(Tensor[] xs, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> (Tensor, Tensor[])\n"
              "  dispatch:\n    CPU: baz\n"
              "  autogen: baz.out\n"
              "- func: qux.mode(Tensor self, str mode) -> (Tensor, int)\n"
              "  dispatch:\n    CPU: qux\n"
              "  autogen: qux.mode_out\n");
    const ta_tg_function *o = derived(&fx, "baz.out");
    assert_non_null(o);
    /* TensorOptions dropped; not all plain Tensors: the outs are not returned */
    assert_string_equal(o->func, "baz.out(Tensor[] xs, *, Tensor(a!) out0, Tensor(b!)[] out1) -> ()");
    /* the functional exists: nothing else derived for baz */
    assert_null(derived(&fx, "baz"));
    const ta_tg_function *q = derived(&fx, "qux.mode_out");
    assert_non_null(q);
    assert_string_equal(q->func, "qux.mode_out(Tensor self, str mode, *, Tensor(a!) out0) -> int");
    assert_int_equal(q->plan->ret_src[0].kind, TA_AG_CALLEE_RETURN);
    assert_int_equal(q->plan->ret_src[0].index, 1);
    assert_int_equal(ta_diags_count_severity(fx.diags, TA_SEV_ERROR), 0);
    unload(&fx);
}

static void test_refusals(void **state)
{
    (void)state;
    fixture fx;
    load(&fx,
         /* 1: no tensor-like return */
         "- func: count(Tensor self) -> int\n"
         "  dispatch:\n    CPU: count\n"
         "  autogen: count.out\n"
         /* 5: composite implicit: torchgen skips it silently */
         "- func: comp(Tensor self) -> Tensor\n"
         "  autogen: comp.out\n"
         /* 7: a view */
         "- func: look(Tensor(a) self) -> Tensor(a)\n"
         "  dispatch:\n    CPU: look\n"
         "  autogen: look.out\n"
         /* 11: out= with no other variant */
         "- func: lone.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
         "  dispatch:\n    CPU: lone_out\n"
         "  autogen: lone\n"
         /* 15: a name torchgen does not give it */
         "- func: wrong_(Tensor(a!) self) -> Tensor(a!)\n"
         "  dispatch:\n    CPU: wrong_\n"
         "  autogen: wrong.other_out\n"
         /* 19: something the yaml already has */
         "- func: dup(Tensor self) -> Tensor\n"
         "  dispatch:\n    CPU: dup\n"
         "  autogen: dup.out\n"
         "- func: dup.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
         "  dispatch:\n    CPU: dup_out\n"
         /* 26: derived without being asked (inplace + out, no functional) */
         "- func: unasked_(Tensor(a!) self) -> Tensor(a!)\n"
         "  dispatch:\n    CPU: unasked_\n"
         "- func: unasked.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
         "  dispatch:\n    CPU: unasked_out\n");
    assert_int_equal(count_rule(&fx, "autogen-no-out-variant", TA_SEV_ERROR), 1);
    assert_int_equal(count_rule(&fx, "autogen-ignored", TA_SEV_NOTE), 2);
    assert_int_equal(count_rule(&fx, "autogen-lone-out", TA_SEV_ERROR), 1);
    /* wrong.other_out is not derived; wrong.out and wrong are, unasked */
    assert_int_equal(count_rule(&fx, "autogen-name-mismatch", TA_SEV_ERROR), 3);
    /* count.out, lone, dup.out */
    assert_int_equal(count_rule(&fx, "autogen-underivable", TA_SEV_ERROR), 3);
    assert_int_equal(count_rule(&fx, "autogen-missing", TA_SEV_ERROR), 1);
    for (size_t i = 0; i < ta_diags_count(fx.diags); i++) {
        const ta_diag *d = ta_diags_get(fx.diags, i);
        if (!strcmp(d->rule, "autogen-name-mismatch") && strstr(d->message, "autogen names"))
            assert_int_equal(d->line, 18); /* the autogen: line of wrong_ */
        if (!strcmp(d->rule, "autogen-missing")) assert_int_equal(d->line, 26);
        assert_non_null(d->message);
    }
    /* what torchgen derived anyway */
    assert_non_null(derived(&fx, "wrong.out"));
    assert_non_null(derived(&fx, "wrong"));
    assert_non_null(derived(&fx, "unasked"));
    assert_null(derived(&fx, "count.out"));
    assert_int_equal(ta_torchgen_count_derived(fx.tg), 3);
    unload(&fx);
}

static void test_check_pass_positions(void **state)
{
    (void)state;
    const char *yaml = "- func: w_(Tensor(a!) self) -> Tensor(a!)\n"
                       "  dispatch:\n    CPU: w_\n"
                       "  autogen: w, w.bad_out\n";
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_native_file *nf;
    assert_int_equal(ta_native_load_buffer(yaml, strlen(yaml), "p.yaml", NULL, 0, NULL, &nf, d),
                     TA_OK);
    ta_status st = ta_native_check_with(nf, &ta_torchgen_pass, 1, d);
    assert_int_equal(st, TA_ERR_PARSE);
    bool seen = false;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        if (strcmp(g->rule, "autogen-name-mismatch") || !strstr(g->message, "w.bad_out")) continue;
        /* at "w.bad_out" on line 4: "  autogen: w, w.bad_out" */
        assert_int_equal(g->line, 4);
        assert_int_equal(g->col, 15);
        assert_string_equal(g->source, "p.yaml");
        seen = true;
    }
    assert_true(seen);
    ta_native_destroy(nf);
    ta_diags_destroy(d);
}

/* Inputs the fuzzer (tests/fuzz/fuzz_autogen.c) found crashing. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    fixture fx;
    /* "_copy" loses its whole name to the view signature: an empty name */
    load(&fx, "- func: _copy(Tensor self) -> int\n  dispatch:\n    CPU: count\n");
    assert_int_equal(ta_torchgen_count(fx.tg), 1);
    assert_string_equal(ta_torchgen_get(fx.tg, 0)->signature, "_copy(Tensor self) -> int");
    unload(&fx);
    /* "_" is an inplace op with an empty name: nothing can be derived from it */
    load(&fx, "- func: _(Tensor(a!) self) -> Tensor(a!)\n  dispatch:\n    CPU: u\n"
              "  autogen: out\n");
    assert_int_equal(ta_torchgen_count_derived(fx.tg), 0);
    assert_int_equal(count_rule(&fx, "autogen-underivable", TA_SEV_ERROR), 1);
    unload(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_out_and_functional_from_inplace),
        cmocka_unit_test(test_mutable_base),
        cmocka_unit_test(test_functional_base_returns),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_check_pass_positions),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
