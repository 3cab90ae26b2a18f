/* test_exec_runtime.c - the run-time half of the kernel ABI: stacks, tensor
 * allocation, views, restride, resize, geometry helpers, the CPU device's
 * guard page, and calling a kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tensoralias/device.h"
#include "tensoralias/exec.h"
#include "exec/runtime/exec_internal.h"

static void test_stack_values(void **state)
{
    (void)state;
    ta_stack *st;
    assert_int_equal(ta_stack_create(&st), TA_OK);
    assert_int_equal(ta_stack_size(st), 0);
    assert_null(ta_stack_at(st, 0));

    ta_value v = {.tag = TA_VAL_INT};
    v.u.i = 7;
    assert_int_equal(ta_stack_push(st, v), TA_OK);
    v = (ta_value){.tag = TA_VAL_SCALAR, .scalar_kind = TA_SCALAR_FLOAT};
    v.u.f = 2.5;
    assert_int_equal(ta_stack_push(st, v), TA_OK);
    int64_t items[3] = {1, 2, 3};
    v = (ta_value){.tag = TA_VAL_INT_LIST};
    v.u.ints.items = items;
    v.u.ints.n = 3;
    assert_int_equal(ta_stack_push(st, v), TA_OK);
    items[0] = 99; /* the stack holds a copy */
    v = (ta_value){.tag = TA_VAL_NONE};
    assert_int_equal(ta_stack_push(st, v), TA_OK);
    v = (ta_value){.tag = TA_VAL_BOOL};
    v.u.b = true;
    assert_int_equal(ta_stack_push(st, v), TA_OK);

    assert_int_equal(ta_stack_size(st), 5);
    assert_int_equal(ta_stack_int(st, 0, -1), 7);
    assert_true(ta_stack_double(st, 0, 0) == 7.0);
    assert_true(ta_stack_double(st, 1, 0) == 2.5);
    assert_int_equal(ta_stack_int(st, 1, -1), -1); /* a float Scalar is not an int */
    assert_int_equal(ta_stack_at(st, 2)->u.ints.items[0], 1);
    assert_int_equal(ta_stack_at(st, 2)->u.ints.n, 3);
    assert_true(ta_stack_is_none(st, 3));
    assert_false(ta_stack_is_none(st, 0));
    assert_int_equal(ta_stack_int(st, 4, -1), 1);
    assert_null(ta_stack_tensor(st, 0));
    assert_int_equal(ta_stack_int(st, 10, -5), -5);

    /* A list read before clear can be pushed back after it. */
    ta_value keep = *ta_stack_at(st, 2);
    ta_stack_clear(st);
    assert_int_equal(ta_stack_size(st), 0);
    assert_int_equal(ta_stack_push(st, keep), TA_OK);
    assert_int_equal(ta_stack_at(st, 0)->u.ints.items[2], 3);
    ta_stack_reset(st);
    assert_int_equal(ta_stack_size(st), 0);
    for (int i = 0; i < 100; i++) assert_int_equal(ta_stack_push(st, v), TA_OK);
    assert_int_equal(ta_stack_size(st), 100);
    ta_stack_destroy(st);
}

static void test_geometry(void **state)
{
    (void)state;
    float buf[12];
    for (int i = 0; i < 12; i++) buf[i] = (float)i;
    int64_t shape[2] = {3, 4}, tstrides[2] = {1, 3};
    DLTensor t = {.data = buf, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = shape};
    assert_int_equal(ta_numel(&t), 12);
    assert_int_equal(ta_dtype_size(t.dtype), 4);
    assert_int_equal(ta_dtype_size(TA_DTYPE_BOOL), 1);
    assert_true(ta_is_contiguous(&t));
    assert_true(*(float *)ta_elem_ptr(&t, 5) == 5.0f);
    /* Transposed view of a 4x3 buffer: element (i, j) is buf[i + 3 j]. */
    t.strides = tstrides;
    assert_false(ta_is_contiguous(&t));
    assert_true(*(float *)ta_elem_ptr(&t, 1) == 3.0f);  /* (0,1) */
    assert_true(*(float *)ta_elem_ptr(&t, 4) == 1.0f);  /* (1,0) */
    assert_true(*(float *)ta_elem_ptr(&t, 11) == 11.0f); /* (2,3) */
    uint64_t lo, hi;
    ta_tensor_byte_range(&t, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 48);
    t.byte_offset = 8;
    int64_t s1[2] = {2, 2}, st1[2] = {4, 1};
    t.shape = s1;
    t.strides = st1;
    ta_tensor_byte_range(&t, &lo, &hi);
    assert_int_equal(lo, 8);
    assert_int_equal(hi, 8 + 4 * (4 + 1 + 1));
    /* 0-dim: one element. */
    DLTensor z = {.data = buf, .ndim = 0, .dtype = TA_DTYPE_F32};
    assert_int_equal(ta_numel(&z), 1);
    assert_ptr_equal(ta_elem_ptr(&z, 0), buf);
    /* empty */
    int64_t e[2] = {0, 5};
    DLTensor em = {.data = buf, .ndim = 2, .dtype = TA_DTYPE_F32, .shape = e};
    assert_int_equal(ta_numel(&em), 0);
    ta_tensor_byte_range(&em, &lo, &hi);
    assert_int_equal(lo, hi);
    int64_t so[2];
    em.shape = shape;
    ta_strides_of(&em, so);
    assert_int_equal(so[0], 4);
    assert_int_equal(so[1], 1);
    assert_string_equal(ta_dtype_name(TA_DTYPE_I64), "int64");
    assert_string_equal(ta_dtype_name(TA_DTYPE_BOOL), "bool");
}

static void test_alloc_view_restride_resize(void **state)
{
    (void)state;
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    ta_kernel_ctx *ctx = ta_exec_kernel_ctx(x);
    assert_int_equal(ta_kernel_device(ctx).device_type, kDLCPU);
    int64_t shape[2] = {3, 4};
    DLTensor *a;
    assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_F32, 2, shape, &a), TA_OK);
    assert_non_null(a->strides);
    assert_int_equal(a->strides[0], 4);
    assert_int_equal(a->byte_offset, 0);
    uint32_t sa = ta_exec_storage_of(x, a);
    assert_int_not_equal(sa, 0);
    ta_storage_info si;
    assert_true(ta_exec_storage_get(x, sa, &si));
    assert_int_equal(si.bytes, 48);
    assert_ptr_equal(si.base, a->data);
    assert_int_equal(ta_exec_storage_at(x, (char *)a->data + 47), sa);
    assert_int_equal(ta_exec_storage_at(x, (char *)a->data + 48), 0);
    for (int i = 0; i < 12; i++) *(float *)ta_elem_ptr(a, i) = (float)i;

    /* A transposed view shares the storage. */
    int64_t tshape[2] = {4, 3}, tstr[2] = {1, 4};
    DLTensor *t;
    assert_int_equal(ta_kernel_view(ctx, a, 2, tshape, tstr, 0, &t), TA_OK);
    assert_int_equal(ta_exec_storage_of(x, t), sa);
    assert_true(*(float *)ta_elem_ptr(t, 1) == 4.0f);
    /* A view reaching past the storage is refused. */
    int64_t big[1] = {13};
    DLTensor *none = (DLTensor *)1;
    assert_int_equal(ta_kernel_view(ctx, a, 1, big, NULL, 0, &none), TA_ERR_INVALID);
    assert_null(none);
    int64_t row[1] = {4};
    assert_int_equal(ta_kernel_view(ctx, a, 1, row, NULL, 36, &none), TA_ERR_INVALID);
    DLTensor *last;
    assert_int_equal(ta_kernel_view(ctx, a, 1, row, NULL, 32, &last), TA_OK);
    assert_true(*(float *)ta_elem_ptr(last, 0) == 8.0f);
    /* A foreign tensor is not a base. */
    DLTensor foreign = *a;
    assert_int_equal(ta_kernel_view(ctx, &foreign, 1, row, NULL, 0, &none), TA_ERR_INVALID);
    assert_int_equal(ta_exec_storage_of(x, &foreign), 0);

    /* restride in place (transpose_). */
    assert_int_equal(ta_kernel_restride(ctx, t, 2, shape, (int64_t[]){1, 3}, 0), TA_OK);
    assert_int_equal(t->shape[0], 3);
    assert_int_equal(t->strides[1], 3);
    assert_int_not_equal(ta_kernel_restride(ctx, t, 1, big, NULL, 0), TA_OK);

    /* resize within the storage keeps it; beyond it moves to a larger one with the old bytes. */
    assert_int_equal(ta_kernel_resize(ctx, t, 1, row), TA_OK);
    assert_int_equal(ta_exec_storage_of(x, t), sa);
    int64_t grow[1] = {20};
    assert_int_equal(ta_kernel_resize(ctx, t, 1, grow), TA_OK);
    uint32_t sb = ta_exec_storage_of(x, t);
    assert_int_not_equal(sb, sa);
    assert_true(ta_exec_storage_get(x, sb, &si));
    assert_int_equal(si.bytes, 80);
    assert_true(*(float *)ta_elem_ptr(t, 11) == 11.0f);
    assert_int_equal(((unsigned char *)ta_elem_ptr(t, 19))[0], 0xA5);
    assert_true(ta_is_contiguous(t));

    /* 0-dim and empty tensors. */
    DLTensor *z;
    assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_F64, 0, NULL, &z), TA_OK);
    assert_int_equal(ta_numel(z), 1);
    *(double *)ta_elem_ptr(z, 0) = 1.5;
    int64_t eshape[2] = {0, 3};
    DLTensor *e;
    assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_I64, 2, eshape, &e), TA_OK);
    assert_int_equal(ta_numel(e), 0);
    assert_int_not_equal(ta_exec_storage_of(x, e), 0);

    DLTensor **arr;
    assert_int_equal(ta_kernel_tensor_array(ctx, 3, &arr), TA_OK);
    assert_null(arr[2]);
    arr[0] = a;

    assert_int_equal(ta_kernel_error(ctx, "bad %d", 3), TA_ERR_KERNEL);

    size_t nst = ta_exec_storage_count(x);
    assert_true(nst >= 4);
    ta_exec_reset(x);
    assert_int_equal(ta_exec_storage_count(x), 0);
    /* Records are reused after a reset. */
    for (int i = 0; i < 100; i++) assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_I32, 2, shape, &z), TA_OK);
    ta_exec_destroy(x);
}

/* The CPU device puts a PROT_NONE page right after every allocation. */
static void test_guard_page(void **state)
{
    (void)state;
    const ta_device_ops *cpu = ta_exec_device_cpu();
    assert_string_equal(cpu->name, "cpu");
    char err[128];
    assert_int_equal(cpu->available(err, sizeof err), 0);
    size_t sizes[] = {0, 1, 4, 12, 4096, 4095, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            signal(SIGSEGV, SIG_DFL); /* cmocka catches it otherwise */
            char *p = cpu->alloc(sizes[k], NULL, 0);
            if (!p) _exit(3);
            if (sizes[k]) memset(p, 1, sizes[k]); /* in bounds: fine */
            ((volatile char *)p)[sizes[k] + (sizes[k] % 4 ? 4 - sizes[k] % 4 : 0)] = 1;
            _exit(0);
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGSEGV);
    }
    /* copy / compare */
    char *a = cpu->alloc(1000, err, sizeof err), *b = cpu->alloc(1000, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    memset(a, 7, 1000);
    assert_int_equal(cpu->copy(b, a, 1000, err, sizeof err), 0);
    size_t first;
    assert_int_equal(cpu->compare(a, b, 1000, &first, err, sizeof err), 0);
    assert_true(first == SIZE_MAX);
    b[777] = 8;
    assert_int_equal(cpu->compare(a, b, 1000, &first, err, sizeof err), 0);
    assert_int_equal(first, 777);
    cpu->release(a);
    cpu->release(b);
}

/* Front allocations start right after a PROT_NONE page: one byte before
 * the data faults. A back allocation's header catches a write just before
 * the data, and release then leaves the mapping alone instead of crashing. */
static void test_front_guard_and_header(void **state)
{
    (void)state;
    size_t sizes[] = {0, 1, 4, 12, 4096, 4095, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        fflush(NULL);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            signal(SIGSEGV, SIG_DFL);
            char *p = ta_cpu_alloc_at(sizes[k], true, NULL, 0);
            if (!p || ((uintptr_t)p & 4095)) _exit(3);
            if (sizes[k]) memset(p, 1, sizes[k]);
            ((volatile char *)p)[-1] = 1;
            _exit(0);
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        assert_int_equal(WTERMSIG(status), SIGSEGV);
    }
    const ta_device_ops *cpu = ta_exec_device_cpu();
    float *f = ta_cpu_alloc_at(12, false, NULL, 0);
    assert_non_null(f);
    assert_true(ta_cpu_header_intact(f));
    f[-1] = 0.0f;
    assert_false(ta_cpu_header_intact(f));
    cpu->release(f); /* leaks the mapping, does not crash */
}

/* A storage a reset released is reused for the context's next storage of
 * its size and layout: zeroed as a fresh one, its guard pages in place. */
static void test_released_mapping_reused(void **state)
{
    (void)state;
    size_t sizes[] = {12, 4095, 4096, 100000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        for (int front = 0; front < 2; front++) {
            ta_exec *x;
            assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
            x->placement = front ? ~(uint64_t)0 : 0;
            ta_storage_info a, b;
            uint32_t id;
            assert_int_equal(ta_exec_storage_new(x, sizes[k], &id), TA_OK);
            assert_true(ta_exec_storage_get(x, id, &a));
            memset(a.base, 0xA5, sizes[k]);
            ta_exec_reset(x);
            assert_int_equal(ta_exec_storage_new(x, sizes[k], &id), TA_OK);
            assert_true(ta_exec_storage_get(x, id, &b));
            assert_ptr_equal(b.base, a.base); /* the same mapping */
            char *q = b.base;
            for (size_t i = 0; i < sizes[k]; i++)
                if (q[i]) fail_msg("byte %zu of a reused %zu-byte storage is %d", i, sizes[k], q[i]);
            bool at_front = ((uintptr_t)q & 4095) == 0;
            if (!at_front) assert_true(ta_cpu_header_intact(q));
            fflush(NULL);
            pid_t pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                signal(SIGSEGV, SIG_DFL);
                size_t end = sizes[k] + (sizes[k] % 4 ? 4 - sizes[k] % 4 : 0);
                ((volatile char *)q)[at_front ? -1 : (ptrdiff_t)end] = 1;
                _exit(0);
            }
            int status;
            assert_int_equal(waitpid(pid, &status, 0), pid);
            assert_true(WIFSIGNALED(status));
            assert_int_equal(WTERMSIG(status), SIGSEGV);
            ta_exec_destroy(x); /* unmaps what it kept */
        }
}

/* resize_ to the shape a tensor has leaves its geometry alone, as torch's does. */
static void test_resize_same_shape(void **state)
{
    (void)state;
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    uint32_t sid;
    assert_int_equal(ta_exec_storage_new(x, 8 * 4, &sid), TA_OK);
    int64_t three = 3, two = 2, four = 4;
    DLTensor *t;
    assert_int_equal(ta_exec_tensor(x, sid, TA_DTYPE_F32, 1, &three, &two, 4, &t), TA_OK);
    ta_kernel_ctx *ctx = ta_exec_kernel_ctx(x);
    assert_int_equal(ta_kernel_resize(ctx, t, 1, &three), TA_OK);
    assert_int_equal(t->strides[0], 2);
    assert_int_equal(t->byte_offset, 4);
    assert_int_equal(ta_kernel_resize(ctx, t, 1, &four), TA_OK);
    assert_int_equal(t->strides[0], 1);
    ta_exec_destroy(x);
}

static ta_status k_sum(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    if (!x) return ta_kernel_error(ctx, "sum: no tensor");
    double s = 0;
    for (int64_t i = 0; i < ta_numel(x); i++) s += *(float *)ta_elem_ptr(x, i);
    DLTensor *y;
    assert_int_equal(ta_kernel_empty(ctx, TA_DTYPE_F64, 0, NULL, &y), TA_OK);
    *(double *)y->data = s * *(double *)ta_kernel_user_data(ctx);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, y);
}

static void test_call(void **state)
{
    (void)state;
    ta_exec *x;
    assert_int_equal(ta_exec_create(ta_exec_device_cpu(), &x), TA_OK);
    int64_t shape[1] = {5};
    DLTensor *a;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, shape, &a), TA_OK);
    for (int i = 0; i < 5; i++) ((float *)a->data)[i] = (float)i;
    ta_stack *st = ta_exec_stack(x);
    assert_int_equal(ta_stack_push_tensor(st, a), TA_OK);
    double scale = 2.0;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_exec_call(x, k_sum, &scale, d), TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    assert_int_equal(ta_stack_size(st), 1);
    DLTensor *y = ta_stack_tensor(st, 0);
    assert_true(*(double *)y->data == 20.0);
    assert_int_equal(y->ndim, 0);
    ta_stack_clear(st);
    assert_int_equal(ta_exec_call(x, k_sum, &scale, d), TA_ERR_KERNEL);
    assert_int_equal(ta_diags_count(d), 1);
    assert_string_equal(ta_diags_get(d, 0)->rule, "kernel-error");
    assert_string_equal(ta_diags_get(d, 0)->message, "sum: no tensor");
    ta_diags_destroy(d);
    ta_exec_destroy(x);
}

static void test_protect(void **state)
{
    (void)state;
    ta_exec *x;
    assert_int_equal(ta_exec_create(NULL, &x), TA_OK);
    int64_t shape[1] = {100};
    DLTensor *a;
    assert_int_equal(ta_exec_empty(x, TA_DTYPE_F32, 1, shape, &a), TA_OK);
    uint32_t s = ta_exec_storage_of(x, a);
    assert_int_equal(ta_exec_protect(x, s, true), TA_OK);
    float v = *(float *)ta_elem_ptr(a, 3); /* reading is fine */
    (void)v;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        *(volatile float *)ta_elem_ptr(a, 3) = 1.0f;
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(ta_exec_protect(x, s, false), TA_OK);
    *(float *)ta_elem_ptr(a, 3) = 1.0f;
    assert_int_equal(ta_exec_protect(x, s, true), TA_OK);
    ta_exec_destroy(x); /* releases read-only storage too */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stack_values),
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_alloc_view_restride_resize),
        cmocka_unit_test(test_guard_page),
        cmocka_unit_test(test_front_guard_and_header),
        cmocka_unit_test(test_released_mapping_reused),
        cmocka_unit_test(test_resize_same_shape),
        cmocka_unit_test(test_call),
        cmocka_unit_test(test_protect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
