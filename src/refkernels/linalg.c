/* linalg.c - matrix products: mm and bmm, with out=.
 *
 * Both operands must share one dtype (PyTorch does not promote here) and an
 * out= tensor must have it too. Products accumulate in double (floating
 * types) or wrapping int64, reading operands through their strides.
 */
#include "rk.h"

/* mm (rank 2) and bmm (rank 3), functional or out=. */
static ta_status matmul(ta_kernel_ctx *ctx, ta_stack *st, int rank, rk_mode mode)
{
    bool batched = rank == 3, out = mode == RK_OUT;
    const char *name = batched ? "bmm" : "mm";
    DLTensor *a = ta_stack_tensor(st, 0), *b = ta_stack_tensor(st, 1);
    if (!rk_check_tensor(ctx, name, "self", a) || !rk_check_tensor(ctx, name, "mat2", b)) return TA_ERR_KERNEL;
    int want = batched ? 3 : 2;
    if (a->ndim != want || b->ndim != want)
        return ta_kernel_error(ctx, "%s: expected %dD tensors, got %dD and %dD", name, want, a->ndim, b->ndim);
    rk_dtype d = rk_dtype_of(a->dtype);
    if (rk_dtype_of(b->dtype) != d)
        return ta_kernel_error(ctx, "%s: expected scalar type %s but found %s", name, rk_name(d),
                               rk_name(rk_dtype_of(b->dtype)));
    if (d == RK_BOOL) return ta_kernel_error(ctx, "%s: not implemented for 'Bool'", name);
    int o = batched ? 1 : 0; /* first matrix dim */
    int64_t batch = batched ? a->shape[0] : 1, n = a->shape[o], k = a->shape[o + 1], m = b->shape[o + 1];
    if (batched && b->shape[0] != batch)
        return ta_kernel_error(ctx, "bmm: batch1 and batch2 must have same number of batches, got %lld and %lld",
                               (long long)batch, (long long)b->shape[0]);
    if (b->shape[o] != k)
        return ta_kernel_error(ctx, "%s: mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", name,
                               (long long)n, (long long)k, (long long)b->shape[o], (long long)m);
    int64_t shape[3] = {batch, n, m};
    const int64_t *oshape = batched ? shape : shape + 1;
    DLTensor *given = NULL;
    if (out) {
        given = ta_stack_tensor(st, ta_stack_size(st) - 1);
        if (!rk_check_tensor(ctx, name, "out", given)) return TA_ERR_KERNEL;
        if (rk_dtype_of(given->dtype) != d)
            return ta_kernel_error(ctx, "%s: Expected out tensor to have dtype %s, but got %s instead", name,
                                   rk_name(d), rk_name(rk_dtype_of(given->dtype)));
    }
    DLTensor *y = rk_output(ctx, name, out ? RK_OUT : RK_FUNC, given, d, want, oshape);
    if (!y) return TA_ERR_KERNEL;
    int64_t as[3], bs[3], ys[3];
    rk_get_strides(a, as);
    rk_get_strides(b, bs);
    rk_get_strides(y, ys);
    size_t es = rk_size(d);
    char *pa = rk_base(a), *pb = rk_base(b), *py = rk_base(y);
    bool f = rk_is_float(d);
    for (int64_t q = 0; q < batch; q++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++) {
                double sf = 0;
                uint64_t si = 0;
                for (int64_t l = 0; l < k; l++) {
                    const char *x = pa + (int64_t)es * ((batched ? q * as[0] : 0) + i * as[o] + l * as[o + 1]);
                    const char *z = pb + (int64_t)es * ((batched ? q * bs[0] : 0) + l * bs[o] + j * bs[o + 1]);
                    if (f) sf += rk_loadf(d, x) * rk_loadf(d, z);
                    else si += (uint64_t)rk_loadi(d, x) * (uint64_t)rk_loadi(d, z);
                }
                char *p = py + (int64_t)es * ((batched ? q * ys[0] : 0) + i * ys[o] + j * ys[o + 1]);
                if (f) rk_storef(d, p, sf);
                else rk_storei(d, p, (int64_t)si);
            }
    return rk_return1(st, y);
}

static ta_status k_mm(ta_kernel_ctx *c, ta_stack *s) { return matmul(c, s, 2, RK_FUNC); }
static ta_status k_mm_out(ta_kernel_ctx *c, ta_stack *s) { return matmul(c, s, 2, RK_OUT); }
static ta_status k_bmm(ta_kernel_ctx *c, ta_stack *s) { return matmul(c, s, 3, RK_FUNC); }
static ta_status k_bmm_out(ta_kernel_ctx *c, ta_stack *s) { return matmul(c, s, 3, RK_OUT); }

static const rk_entry ENTRIES[] = {
    {"mm", k_mm, NULL}, {"mm.out", k_mm_out, NULL}, {"bmm", k_bmm, NULL}, {"bmm.out", k_bmm_out, NULL},
    {NULL, NULL, NULL},
};

ta_status rk_register_linalg(ta_registry *reg) { return rk_reg_table(reg, ENTRIES); }
