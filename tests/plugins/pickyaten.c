/* pickyaten.c - kernels that reject every case until it meets a demand
 * ATen states in a way only its own readings understand (learn_aten.c,
 * learn_locals.c's echoed sides, cond.c's is_complex()), each refused with
 * ATen's own words; tests/cli/verify_discovery_aten.sh checks that
 * discovery finds their cases and that no blind guess would. */
#include <string.h>

#include <tensoralias/kernel.h>

static bool is_complex(const DLTensor *t) { return t->dtype.code == kDLComplex; }

/* A short name of t's dtype as c10 prints it. */
static const char *c10_name(const DLTensor *t)
{
    switch (t->dtype.code) {
    case kDLFloat: return t->dtype.bits == 64 ? "Double" : t->dtype.bits == 32 ? "Float" : "Half";
    case kDLInt: return t->dtype.bits == 64 ? "Long" : t->dtype.bits == 32 ? "Int" : "Short";
    case kDLComplex: return t->dtype.bits == 128 ? "ComplexDouble" : "ComplexFloat";
    default: return "Bool";
    }
}

/* The C++ element type TypeMeta names for t's dtype. */
static const char *cxx_name(const DLTensor *t)
{
    switch (t->dtype.code) {
    case kDLFloat: return t->dtype.bits == 64 ? "double" : t->dtype.bits == 32 ? "float" : "c10::Half";
    case kDLInt: return t->dtype.bits == 64 ? "long int" : t->dtype.bits == 32 ? "int" : "short int";
    case kDLComplex: return t->dtype.bits == 128 ? "c10::complex<double>" : "c10::complex<float>";
    default: return "bool";
    }
}

/* out zeroed, and returned. */
static ta_status give_out(ta_stack *st, DLTensor *out)
{
    size_t es = ((size_t)out->dtype.bits + 7) / 8;
    for (int64_t i = 0, n = ta_numel(out); i < n; i++) memset(ta_elem_ptr(out, i), 0, es);
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, out);
}

/* pickyaten::spectrum(Tensor self, *, Tensor(a!) out): self and out
 * complex, as _fft_c2c and fft_fft.out want them. */
static ta_status spectrum(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *self = ta_stack_tensor(st, 0);
    DLTensor *out = ta_stack_tensor(st, 1);
    if (!is_complex(self)) return ta_kernel_error(ctx, "Only supports complex dtypes, but found: %s", c10_name(self));
    if (!is_complex(out))
        return ta_kernel_error(ctx, "spectrum expects a complex output tensor, but got %s", c10_name(out));
    return give_out(st, out);
}

/* pickyaten::counts(Tensor self, *, Tensor(a!) out): out int16, said as a
 * torchgen out= wrapper says it (C++ element types). */
static ta_status counts(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *out = ta_stack_tensor(st, 1);
    if (out->dtype.code != kDLInt || out->dtype.bits != 16)
        return ta_kernel_error(ctx, "Expected out tensor to have dtype short int, but got %s instead", cxx_name(out));
    return give_out(st, out);
}

/* pickyaten::draw(Tensor self, int low, int high): low < high, refused
 * as random_ refuses it (the values echoed with the comparison that held,
 * under names the schema does not have). */
static ta_status draw(ta_kernel_ctx *ctx, ta_stack *st)
{
    int64_t low = ta_stack_int(st, 1, 0), high = ta_stack_int(st, 2, 0);
    if (low >= high)
        return ta_kernel_error(ctx, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                               (long long)low, (long long)high);
    ta_stack_clear(st);
    return TA_OK;
}

/* pickyaten::realpart(Tensor self): a check quoting is_complex(). */
static ta_status realpart(ta_kernel_ctx *ctx, ta_stack *st)
{
    const DLTensor *self = ta_stack_tensor(st, 0);
    if (!is_complex(self))
        return ta_kernel_error(ctx, "Expected self.is_complex() to be true, but got false.  (Could this error message "
                                    "be improved?  If so, please report an enhancement request to PyTorch.)");
    ta_stack_clear(st);
    return TA_OK;
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"pickyaten::spectrum(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", spectrum},
        {"pickyaten::counts(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", counts},
        {"pickyaten::draw(Tensor self, int low, int high) -> ()", draw},
        {"pickyaten::realpart(Tensor self) -> ()", realpart},
    };
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    return TA_OK;
}
