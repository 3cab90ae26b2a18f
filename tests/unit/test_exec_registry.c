/* test_exec_registry.c - the kernel registry: registration by schema and by
 * name, the custom-operator rules (one schema per overload, no catch-all
 * next to device kernels, schema-only operators), dispatch, and loading a
 * plugin library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/exec.h"

static ta_status k1(ta_kernel_ctx *c, ta_stack *s) { (void)c; (void)s; return TA_OK; }
static ta_status k2(ta_kernel_ctx *c, ta_stack *s) { (void)c; (void)s; return TA_OK; }

static size_t errors(ta_registry *r)
{
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_registry_take_diags(r, d);
    size_t n = ta_diags_count_severity(d, TA_SEV_ERROR);
    ta_diags_destroy(d);
    return n;
}

static void test_names(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(ta_op_name_of("aten::add.Tensor(Tensor self) -> Tensor", buf, sizeof buf), 16);
    assert_string_equal(buf, "aten::add.Tensor");
    ta_op_name_of("  mylib::f (Tensor x) -> Tensor", buf, sizeof buf);
    assert_string_equal(buf, "mylib::f");
    ta_op_name_of("aten::abs.out", buf, sizeof buf);
    assert_string_equal(buf, "aten::abs.out");
}

static void test_same_schema_rule(void **state)
{
    (void)state;
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    assert_int_equal(ta_register_op(r, "mylib::f(Tensor(a!) x, int y=3) -> Tensor(a!)", TA_KEY_CPU, k1, NULL), TA_OK);
    /* Same schema, other spacing: fine. */
    assert_int_equal(ta_register_op(r, "mylib::f( Tensor(a!)  x, int y = 3 ) ->  Tensor(a!)", TA_KEY_CUDA, k2, NULL), TA_OK);
    assert_int_equal(errors(r), 0);
    /* A different default, or a dropped annotation: refused. */
    assert_int_equal(ta_register_op(r, "mylib::f(Tensor(a!) x, int y=4) -> Tensor(a!)", TA_KEY_CUDA, k2, NULL), TA_ERR_INVALID);
    assert_int_equal(ta_register_op(r, "mylib::f(Tensor x, int y=3) -> Tensor", TA_KEY_CPU, k2, NULL), TA_ERR_INVALID);
    assert_int_equal(errors(r), 2);
    /* A different overload may differ. */
    assert_int_equal(ta_register_op(r, "mylib::f.two(Tensor x, Tensor y) -> Tensor", TA_KEY_CPU, k2, NULL), TA_OK);
    /* By name: takes the known schema. */
    assert_int_equal(ta_register_op(r, "mylib::f.two", TA_KEY_CUDA, k1, NULL), TA_OK);
    const ta_registry_op *op = ta_registry_find(r, "mylib::f.two");
    assert_non_null(op);
    assert_string_equal(op->schema, "mylib::f.two(Tensor x, Tensor y) -> Tensor");
    assert_ptr_equal(op->kernels[TA_KEY_CUDA], k1);
    assert_int_equal(ta_registry_count(r), 2);
    op = ta_registry_find(r, "mylib::f");
    void *ud;
    assert_ptr_equal(ta_registry_kernel_for(op, kDLCPU, &ud), k1);
    assert_ptr_equal(ta_registry_kernel_for(op, kDLCUDA, &ud), k2);
    ta_registry_destroy(r);
}

static void test_catchall_rule(void **state)
{
    (void)state;
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    assert_int_equal(ta_register_op(r, "mylib::g(Tensor x) -> Tensor", TA_KEY_CATCHALL, k1, NULL), TA_OK);
    assert_int_equal(ta_register_op(r, "mylib::g", TA_KEY_CPU, k2, NULL), TA_ERR_INVALID);
    assert_int_equal(errors(r), 1);
    const ta_registry_op *op = ta_registry_find(r, "mylib::g");
    assert_null(op->kernels[TA_KEY_CPU]);
    void *ud;
    assert_ptr_equal(ta_registry_kernel_for(op, kDLCUDA, &ud), k1); /* catch-all serves every device */
    /* And the other way round. */
    assert_int_equal(ta_register_op(r, "mylib::h(Tensor x) -> Tensor", TA_KEY_CUDA, k1, NULL), TA_OK);
    assert_int_equal(ta_register_op(r, "mylib::h(Tensor x) -> Tensor", TA_KEY_CATCHALL, k2, NULL), TA_ERR_INVALID);
    assert_int_equal(errors(r), 1);
    op = ta_registry_find(r, "mylib::h");
    assert_null(ta_registry_kernel_for(op, kDLCPU, &ud));
    /* A second kernel for one key replaces the first, with a warning. */
    assert_int_equal(ta_register_op(r, "mylib::h", TA_KEY_CUDA, k2, NULL), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    ta_registry_take_diags(r, d);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_WARNING), 1);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 0);
    ta_diags_destroy(d);
    assert_ptr_equal(ta_registry_kernel_for(op, kDLCUDA, &ud), k2);
    ta_registry_destroy(r);
}

static void test_schema_only(void **state)
{
    (void)state;
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    assert_int_equal(ta_register_op(r, "mylib::s(Tensor a, Tensor b) -> Tensor", TA_KEY_CATCHALL, NULL, NULL), TA_OK);
    const ta_registry_op *op = ta_registry_find(r, "mylib::s");
    assert_non_null(op);
    assert_false(ta_registry_has_kernel(op));
    /* Without a kernel: the whole schema, and no dispatch key. */
    assert_int_equal(ta_register_op(r, "mylib::t", TA_KEY_CATCHALL, NULL, NULL), TA_ERR_INVALID);
    assert_int_equal(ta_register_op(r, "mylib::u(Tensor a) -> Tensor", TA_KEY_CPU, NULL, NULL), TA_ERR_INVALID);
    assert_int_equal(errors(r), 2);
    /* A kernel added later must match the schema-only registration. */
    assert_int_equal(ta_register_op(r, "mylib::s(Tensor a) -> Tensor", TA_KEY_CPU, k1, NULL), TA_ERR_INVALID);
    assert_int_equal(ta_register_op(r, "mylib::s", TA_KEY_CPU, k1, NULL), TA_OK);
    assert_true(ta_registry_has_kernel(op));
    /* No namespace. */
    assert_int_equal(ta_register_op(r, "f(Tensor a) -> Tensor", TA_KEY_CPU, k1, NULL), TA_ERR_INVALID);
    assert_int_equal(errors(r), 2);
    ta_registry_destroy(r);
}

static const char *lookup(void *ud, const char *name)
{
    (void)ud;
    if (!strcmp(name, "aten::abs.out"))
        return "abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)";
    return NULL;
}

static void test_lookup(void **state)
{
    (void)state;
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    ta_registry_set_schema_lookup(r, lookup, NULL);
    assert_int_equal(ta_register_op(r, "aten::abs.out", TA_KEY_CPU, k1, NULL), TA_OK);
    const ta_registry_op *op = ta_registry_find(r, "aten::abs.out");
    assert_non_null(op->schema);
    assert_string_equal(op->schema_origin, "yaml");
    /* A plugin's own schema for an aten operator must agree with the yaml. */
    assert_int_equal(ta_register_op(r, "aten::abs.out(Tensor self, *, Tensor out) -> Tensor", TA_KEY_CUDA, k1, NULL), TA_ERR_INVALID);
    assert_false(ta_registry_lacks_schema(r, "aten::abs.out"));
    assert_true(ta_registry_lacks_schema(r, "aten::nope"));
    /* Unknown by name: kept without a schema, for a later registration to give it. */
    assert_int_equal(ta_register_op(r, "aten::nope", TA_KEY_CPU, k1, NULL), TA_OK);
    assert_null(ta_registry_find(r, "aten::nope")->schema);
    assert_int_equal(ta_register_op(r, "aten::nope(Tensor x) -> Tensor", TA_KEY_CUDA, k2, NULL), TA_OK);
    assert_non_null(ta_registry_find(r, "aten::nope")->schema);
    assert_false(ta_registry_lacks_schema(r, "aten::nope"));
    ta_registry_destroy(r);
    /* Without a schema source nothing is known to be missing. */
    assert_int_equal(ta_registry_create(&r), TA_OK);
    assert_false(ta_registry_lacks_schema(r, "aten::nope"));
    ta_registry_destroy(r);
}

static void test_plugin(void **state)
{
    (void)state;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512];
    snprintf(path, sizeof path, "%s/tests/plugins/libtwice.so", build);
    ta_registry *r;
    assert_int_equal(ta_registry_create(&r), TA_OK);
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_registry_load_plugin(r, path, d), TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    const ta_registry_op *op = ta_registry_find(r, "mylib::twice");
    assert_non_null(op);
    assert_non_null(op->kernels[TA_KEY_CPU]);
    assert_string_equal(op->kernel_origin[TA_KEY_CPU], path);
    assert_false(ta_registry_has_kernel(ta_registry_find(r, "mylib::later")));

    /* Run the plugin's kernel. */
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    int64_t shape[1] = {3};
    DLTensor *a;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, shape, &a), TA_OK);
    for (int i = 0; i < 3; i++) ((float *)a->data)[i] = (float)i + 1;
    ta_stack_push_tensor(ta_exec_stack(x), a);
    void *ud;
    ta_kernel_fn kfn = ta_registry_kernel_for(op, kDLCPU, &ud);
    assert_int_equal(ta_exec_call(x, kfn, ud, NULL), TA_OK);
    DLTensor *y = ta_stack_tensor(ta_exec_stack(x), 0);
    assert_non_null(y);
    assert_true(((float *)y->data)[2] == 6.0f);
    assert_int_not_equal(ta_exec_storage_of(x, y), ta_exec_storage_of(x, a));
    ta_exec_destroy(x);

    /* Loading it twice: same schemas, kernels replaced with a warning. */
    assert_int_equal(ta_registry_load_plugin(r, path, d), TA_OK);
    assert_int_equal(ta_diags_count_severity(d, TA_SEV_ERROR), 0);
    assert_true(ta_diags_count_severity(d, TA_SEV_WARNING) >= 1);

    /* Missing library, and a library that is not a plugin. */
    ta_diags_clear(d);
    assert_int_equal(ta_registry_load_plugin(r, "/nonexistent/libx.so", d), TA_ERR_IO);
    assert_int_equal(ta_diags_count(d), 1);
    assert_int_equal(ta_registry_load_plugin(r, "libm.so.6", d), TA_ERR_INVALID);
    assert_int_equal(ta_diags_count(d), 2);
    ta_diags_destroy(d);
    ta_registry_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_same_schema_rule),
        cmocka_unit_test(test_catchall_rule),
        cmocka_unit_test(test_schema_only),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_plugin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
