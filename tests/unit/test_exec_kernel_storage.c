/* test_exec_kernel_storage.c - the kernel ABI's storage-level calls (what a
 * bridge such as the libtorch one uses): storages by tensor and by address,
 * new marker-filled storages, tensors over a given storage, moving an
 * argument onto another storage; plugin options, and a bridge's
 * schema-mismatch and special-case-write findings as verify reports them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tensoralias/exec.h"

static void test_storages(void **state)
{
    (void)state;
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    ta_kernel_ctx *ctx = ta_exec_kernel_ctx(x);
    ta_kernel_storage a, b, at;
    assert_int_equal(ta_kernel_storage_new(ctx, 48, &a), TA_OK);
    assert_int_equal(ta_kernel_storage_new(ctx, 0, &b), TA_OK);
    assert_int_not_equal(a.id, b.id);
    assert_int_equal(a.bytes, 48);
    for (size_t i = 0; i < a.bytes; i++) assert_int_equal(((unsigned char *)a.base)[i], 0xA5);
    /* An address inside a storage names it; one outside names none. */
    assert_true(ta_kernel_storage_at(ctx, (char *)a.base + 47, &at));
    assert_int_equal(at.id, a.id);
    assert_true(ta_kernel_storage_at(ctx, b.base, &at));
    assert_int_equal(at.id, b.id);
    int local;
    assert_false(ta_kernel_storage_at(ctx, &local, &at));

    int64_t shape[2] = {2, 3}, strides[2] = {1, 2};
    DLTensor *t;
    assert_int_equal(ta_kernel_tensor_on(ctx, a.id, TA_DTYPE_F32, 2, shape, strides, 8, &t), TA_OK);
    assert_ptr_equal(t->data, a.base);
    assert_true(ta_kernel_storage_of(ctx, t, &at));
    assert_int_equal(at.id, a.id);
    int64_t big[1] = {13};
    DLTensor *none = (DLTensor *)1;
    assert_int_equal(ta_kernel_tensor_on(ctx, a.id, TA_DTYPE_F32, 1, big, NULL, 0, &none), TA_ERR_INVALID); /* 52 bytes > 48 */
    assert_null(none);
    DLTensor foreign = *t;
    assert_false(ta_kernel_storage_of(ctx, &foreign, &at));

    /* Rebinding: onto a storage the geometry fits, else nothing changes. */
    ta_kernel_storage c;
    assert_int_equal(ta_kernel_storage_new(ctx, 96, &c), TA_OK);
    int64_t grown[1] = {24};
    assert_int_equal(ta_kernel_rebind(ctx, t, c.id, 1, grown, NULL, 0), TA_OK);
    assert_ptr_equal(t->data, c.base);
    assert_int_equal(t->ndim, 1);
    assert_true(ta_kernel_storage_of(ctx, t, &at));
    assert_int_equal(at.id, c.id);
    assert_int_equal(ta_kernel_rebind(ctx, t, a.id, 1, grown, NULL, 0), TA_ERR_INVALID);
    assert_ptr_equal(t->data, c.base);
    assert_true(ta_kernel_storage_of(ctx, t, &at));
    assert_int_equal(at.id, c.id);
    assert_int_equal(ta_kernel_rebind(ctx, &foreign, c.id, 1, grown, NULL, 0), TA_ERR_INVALID);
    assert_int_equal(ta_kernel_rebind(ctx, t, 999, 1, grown, NULL, 0), TA_ERR_INVALID);
    ta_exec_destroy(x);
}

/* ---- what a bridge reports, as verify shows it ---- */

/* Adds 1 to the first element of argument `arg` (a float32 tensor, when
 * given), and returns a fresh empty tensor when the schema returns one. */
static ta_status bump(ta_kernel_ctx *ctx, ta_stack *st, size_t arg, bool returns)
{
    DLTensor *t = ta_stack_tensor(st, arg);
    if (t && ta_numel(t) > 0 && t->dtype.code == kDLFloat && t->dtype.bits == 32)
        *(float *)ta_elem_ptr(t, 0) += 1.0f;
    ta_stack_clear(st);
    if (!returns) return TA_OK;
    int64_t zero = 0;
    DLTensor *out;
    assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_F32, 1, &zero, &out), TA_OK);
    return out ? ta_stack_push_tensor(st, out) : ta_kernel_error(ctx, "out of memory");
}

static ta_status bump_running_mean(ta_kernel_ctx *ctx, ta_stack *st) { return bump(ctx, st, 3, true); }
static ta_status bump_first(ta_kernel_ctx *ctx, ta_stack *st) { return bump(ctx, st, 0, false); }

static const ta_finding *finding(const ta_op_result *r, ta_verdict_kind k)
{
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].kind == k) return &r->findings[i];
    return NULL;
}

static void test_options_and_bridge_findings(void **state)
{
    (void)state;
    ta_registry *reg;
    assert_int_equal(ta_registry_create(&reg), TA_OK);
    assert_null(ta_registry_option(reg, "torch.library"));
    assert_int_equal(ta_registry_set_option(reg, "torch.library", "./libx.so"), TA_OK);
    assert_int_equal(ta_registry_set_option(reg, "torch.library", "./liby.so"), TA_OK);
    assert_string_equal(ta_registry_option(reg, "torch.library"), "./libx.so"); /* the first value */

    /* batch_norm's running_mean: SchemaInfo's special case, undeclared by the schema. */
    const char *bn = "aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
                     "Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor";
    assert_int_equal(ta_register_op(reg, bn, TA_KEY_CPU, bump_running_mean, NULL), TA_OK);
    assert_int_equal(ta_register_op(reg, "mylib::f(Tensor(a!) a) -> ()", TA_KEY_CPU, bump_first, NULL), TA_OK);
    assert_int_equal(ta_registry_schema_mismatch(reg, "mylib::f", "it is written otherwise"), TA_OK);
    const char *ops[2] = {"aten::batch_norm", "mylib::f"};
    for (int strict = 0; strict < 2; strict++) {
        ta_verify_opts o = {.in_process = true, .cases = 20, .strict = strict};
        ta_verify_report *r;
        assert_int_equal(ta_verify(reg, ops, 2, &o, &r, NULL), TA_OK);
        const ta_finding *f = finding(&r->ops[0], TA_V_SPECIAL_CASE_WRITE);
        assert_non_null(f);
        assert_string_equal(f->argument, "running_mean");
        assert_int_equal(f->severity, strict ? TA_SEV_ERROR : TA_SEV_WARNING);
        assert_null(finding(&r->ops[0], TA_V_UNDECLARED_MUTATION));
        f = finding(&r->ops[1], TA_V_SCHEMA_MISMATCH);
        assert_non_null(f);
        assert_string_equal(f->message, "it is written otherwise");
        assert_int_equal(r->ops[1].verdict, TA_V_SCHEMA_MISMATCH);
        ta_verify_report_destroy(r);
    }
    ta_registry_destroy(reg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storages),
        cmocka_unit_test(test_options_and_bridge_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
