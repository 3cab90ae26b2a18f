/* test_exec_derived.c - operators derived by autogen plans run by composing
 * their base kernel: a functional variant of an inplace op (clone, call,
 * return the clone), an out= variant of a functional op (call, resize,
 * copy, return out), and a wrong plan (no clone) caught by verification;
 * then the library's set-up from a yaml: its schemas as the registry's
 * source, the derived operators in their base's namespace, their composed
 * kernels, and the selection of what to verify. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/exec.h"

static ta_status double_(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!x || x->dtype.code != kDLFloat || x->dtype.bits != 32) return ta_kernel_error(ctx, "float32 only");
    for (int64_t i = 0; i < ta_numel(x); i++) *(float *)ta_elem_ptr(x, i) *= 2.0f;
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, x);
}

static ta_status twice(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!x || x->dtype.code != kDLFloat || x->dtype.bits != 32) return ta_kernel_error(ctx, "float32 only");
    DLTensor *y;
    assert_int_equal(ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y), TA_OK);
    for (int64_t i = 0; i < ta_numel(x); i++) *(float *)ta_elem_ptr(y, i) = 2.0f * *(float *)ta_elem_ptr(x, i);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static ta_registry *setup(bool clone)
{
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::double_(Tensor(a!) self) -> Tensor(a!)", TA_KEY_CPU, double_, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::twice(Tensor self) -> Tensor", TA_KEY_CPU, twice, NULL), TA_OK);
    static const int32_t from0[1] = {0};
    static const uint32_t clone0[1] = {0};
    static const ta_ag_src cloned[1] = {{TA_AG_CLONED_ARG, 0}};
    static const ta_ag_src callee_ret[1] = {{TA_AG_CALLEE_RETURN, 0}};
    ta_autogen_plan fn = {.kind = TA_KIND_FUNCTIONAL, .arg_from = from0, .ncallee_args = 1,
                          .clone = clone0, .nclone = clone ? 1 : 0,
                          .ret_src = clone ? cloned : callee_ret, .nrets = 1};
    assert_int_equal(ta_registry_add_derived(reg, "mylib::double(Tensor self) -> Tensor", &fn,
                                             "mylib::double_"),
                     TA_OK);
    static const uint32_t out_args[1] = {1}, out_from[1] = {0};
    static const ta_ag_src own1[1] = {{TA_AG_OWN_ARG, 1}};
    ta_autogen_plan out = {.kind = TA_KIND_OUT, .arg_from = from0, .ncallee_args = 1,
                           .ret_src = own1, .nrets = 1, .out_args = out_args, .out_from = out_from, .nouts = 1};
    assert_int_equal(ta_registry_add_derived(reg, "mylib::twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
                                             &out, "mylib::twice"),
                     TA_OK);
    return reg;
}

static void test_run_derived(void **state)
{
    (void)state;
    ta_registry *reg = setup(true);
    const ta_registry_op *op = ta_registry_find(reg, "mylib::double");
    assert_non_null(op);
    assert_true(ta_registry_is_derived(op));
    assert_false(ta_registry_is_derived(ta_registry_find(reg, "mylib::twice")));
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    int64_t n = 3;
    DLTensor *a;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, &n, &a), TA_OK);
    for (int i = 0; i < 3; i++) ((float *)a->data)[i] = (float)i + 1;
    ta_stack_push_tensor(ta_exec_stack(x), a);
    void *ud;
    ta_kernel_fn kfn = ta_registry_kernel_for(op, kDLCPU, &ud);
    assert_int_equal(ta_exec_call(x, kfn, ud, NULL), TA_OK);
    DLTensor *y = ta_stack_tensor(ta_exec_stack(x), 0);
    assert_true(((float *)y->data)[2] == 6.0f);
    assert_true(((float *)a->data)[2] == 3.0f); /* the input was cloned, not written */

    /* out=: out starts empty and is resized. */
    ta_exec_reset(x);
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, &n, &a), TA_OK);
    for (int i = 0; i < 3; i++) ((float *)a->data)[i] = (float)i + 1;
    int64_t zero = 0;
    DLTensor *o;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, &zero, &o), TA_OK);
    ta_stack_push_tensor(ta_exec_stack(x), a);
    ta_stack_push_tensor(ta_exec_stack(x), o);
    op = ta_registry_find(reg, "mylib::twice.out");
    kfn = ta_registry_kernel_for(op, kDLCPU, &ud);
    assert_int_equal(ta_exec_call(x, kfn, ud, NULL), TA_OK);
    assert_ptr_equal(ta_stack_tensor(ta_exec_stack(x), 0), o);
    assert_int_equal(o->shape[0], 3);
    assert_true(((float *)o->data)[1] == 4.0f);
    ta_exec_destroy(x);

    /* An operator with a kernel of its own keeps it. */
    assert_int_equal(ta_registry_add_derived(reg, "mylib::twice(Tensor self) -> Tensor",
                                             &(ta_autogen_plan){.kind = TA_KIND_FUNCTIONAL},
                                             "mylib::double_"),
                     TA_OK);
    assert_false(ta_registry_is_derived(ta_registry_find(reg, "mylib::twice")));
    ta_registry_destroy(reg);
}

static ta_verify_report *verify_ops(ta_registry *reg, const char *const *ops, size_t n)
{
    ta_verify_opts o = {.seed = 3, .cases = 40, .in_process = true};
    ta_verify_report *r;
    assert_int_equal(ta_verify(reg, ops, n, &o, &r, NULL), TA_OK);
    return r;
}

static ta_verify_report *verify(ta_registry *reg)
{
    const char *ops[2] = {"mylib::double", "mylib::twice.out"};
    return verify_ops(reg, ops, 2);
}

static void test_verify_derived(void **state)
{
    (void)state;
    ta_registry *reg = setup(true);
    ta_verify_report *r = verify(reg);
    assert_int_equal(r->ops[0].verdict, TA_V_OK);
    assert_int_equal(r->ops[1].verdict, TA_V_OK);
    assert_true(r->ops[0].derived);
    assert_true(r->ops[1].derived);
    assert_true(r->ops[0].exercised > 0);
    assert_true(r->ops[1].exercised > 0);
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
    /* Without the clone the derived functional writes its input. */
    reg = setup(false);
    r = verify(reg);
    assert_int_equal(r->ops[0].verdict, TA_V_UNDECLARED_MUTATION);
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
}

/* A yaml outside aten: the derived operators live in its namespace. */
static const char yaml[] =
    "- func: custom::foo_(Tensor(a!) self) -> Tensor(a!)\n"
    "  dispatch:\n"
    "    CPU: foo_\n"
    "  autogen: foo, foo.out\n"
    "- func: bar(Tensor self) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: bar\n";

static void test_setup_from_yaml(void **state)
{
    (void)state;
    ta_native_file *f = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_native_load_buffer(yaml, sizeof yaml - 1, "t.yaml", NULL, 0, NULL, &f, d), TA_OK);
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_int_equal(ta_registry_use_native(reg, f), TA_OK);
    assert_int_equal(ta_registry_add_autogen_schemas(reg, f), TA_OK);
    const ta_registry_op *foo = ta_registry_find(reg, "custom::foo");
    const ta_registry_op *foo_out = ta_registry_find(reg, "custom::foo.out");
    assert_non_null(foo);
    assert_non_null(foo_out);
    assert_null(ta_registry_find(reg, "aten::foo"));
    assert_string_equal(foo->schema, "custom::foo(Tensor self) -> Tensor");
    assert_false(ta_registry_has_kernel(foo));

    /* A kernel for the base, by name: its schema comes from the yaml. */
    assert_int_equal(ta_register_op(reg, "custom::foo_", TA_KEY_CPU, double_, NULL), TA_OK);
    assert_string_equal(ta_registry_find(reg, "custom::foo_")->schema,
                        "custom::foo_(Tensor(a!) self) -> Tensor(a!)");
    size_t added = 0;
    assert_int_equal(ta_registry_add_autogen_kernels(reg, TA_COMPOSE_MISSING, &added), TA_OK);
    assert_int_equal(added, 2); /* foo from foo_, then foo.out from foo */
    assert_true(ta_registry_is_derived(ta_registry_find(reg, "custom::foo")));
    assert_true(ta_registry_is_derived(ta_registry_find(reg, "custom::foo.out")));

    /* Without globs: what has a kernel; with them, the yaml's names too. */
    const char **names;
    size_t n;
    assert_int_equal(ta_registry_select(reg, NULL, 0, &names, &n), TA_OK);
    assert_int_equal(n, 3);
    free(names);
    const char *globs[] = {"aten::*", "custom::foo_"};
    assert_int_equal(ta_registry_select(reg, globs, 2, &names, &n), TA_OK);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "custom::foo_");
    assert_string_equal(names[1], "aten::bar");
    free(names);
    ta_verify_report *r = verify_ops(reg, (const char *[]){"custom::foo", "custom::foo.out"}, 2);
    assert_int_equal(r->ops[0].verdict, TA_V_OK);
    assert_int_equal(r->ops[1].verdict, TA_V_OK);
    ta_verify_report_destroy(r);
    ta_registry_destroy(reg);
    ta_native_destroy(f);
    ta_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_derived),
        cmocka_unit_test(test_verify_derived),
        cmocka_unit_test(test_setup_from_yaml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
