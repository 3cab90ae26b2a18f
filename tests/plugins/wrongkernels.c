/* wrongkernels.c - a kernel library that is wrong on purpose, one kernel per
 * verdict kind, each under a custom operator with its own schema. The
 * verifier must catch every one (tests/cli/verify_wrong.sh), and the two
 * correct kernels (mylib::good, mylib::good_out.out) must come out clean. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tensoralias/kernel.h>

/* A new contiguous copy of x (any dtype, any layout). */
static DLTensor *copy_of(ta_kernel_ctx *ctx, const DLTensor *x)
{
    DLTensor *y;
    if (ta_kernel_empty(ctx, x->dtype, x->ndim, x->shape, &y) != TA_OK) return NULL;
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) memcpy(ta_elem_ptr(y, i), ta_elem_ptr(x, i), es);
    return y;
}

static ta_status ret1(ta_stack *st, DLTensor *t)
{
    ta_stack_clear(st);
    return ta_stack_push_tensor(st, t);
}

/* Correct: mylib::good(Tensor self) -> Tensor */
static ta_status good(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *y = copy_of(ctx, ta_stack_tensor(st, 0));
    return y ? ret1(st, y) : ta_kernel_error(ctx, "good: out of memory");
}

/* Correct: mylib::good_out.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
static ta_status good_out(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (!x || !out) return ta_kernel_error(ctx, "good_out: expected two tensors");
    if (memcmp(&x->dtype, &out->dtype, sizeof x->dtype))
        return ta_kernel_error(ctx, "good_out: out has another dtype");
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK)
        return ta_kernel_error(ctx, "good_out: cannot resize out");
    size_t es = ta_dtype_size(x->dtype);
    for (int64_t i = 0, n = ta_numel(x); i < n; i++) memcpy(ta_elem_ptr(out, i), ta_elem_ptr(x, i), es);
    return ret1(st, out);
}

/* undeclared-mutation: a functional op that writes its input. */
static ta_status writes_input(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    DLTensor *y = copy_of(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    if (ta_numel(x) > 0) memset(ta_elem_ptr(x, 0), 0x7f, ta_dtype_size(x->dtype));
    return ret1(st, y);
}

/* undeclared-alias: returns its input for an unannotated return. */
static ta_status returns_input(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    return ret1(st, ta_stack_tensor(st, 0));
}

/* view-returned-copy: a view op that returns a copy. */
static ta_status view_copy(ta_kernel_ctx *ctx, ta_stack *st)
{
    return good(ctx, st);
}

/* out-not-returned: an out= kernel that allocates and returns a new tensor. */
static ta_status out_new(ta_kernel_ctx *ctx, ta_stack *st)
{
    return good(ctx, st);
}

/* out-not-written: an out= kernel that sizes out but never writes it. */
static ta_status out_unwritten(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0), *out = ta_stack_tensor(st, 1);
    if (ta_kernel_resize(ctx, out, x->ndim, x->shape) != TA_OK)
        return ta_kernel_error(ctx, "cannot resize out");
    return ret1(st, out);
}

/* inplace-not-self: an inplace kernel that returns a new tensor. */
static ta_status inplace_new(ta_kernel_ctx *ctx, ta_stack *st)
{
    return good(ctx, st);
}

/* undeclared-metadata-mutation: changes its (read-only) input's strides. */
static ta_status restrides(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    DLTensor *y = copy_of(ctx, x);
    if (!y) return ta_kernel_error(ctx, "out of memory");
    /* Flatten x in place: one dimension over its first element count. */
    int64_t n = ta_numel(x), one = 1;
    int64_t shape[1] = {n == 0 ? 0 : 1};
    if (ta_kernel_restride(ctx, x, 1, shape, &one, x->byte_offset) != TA_OK)
        return ta_kernel_error(ctx, "restride refused");
    return ret1(st, y);
}

/* crash: a segmentation fault. */
static ta_status segfault(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    volatile uintptr_t addr = 16; /* through a volatile so the compiler cannot see it */
    *(volatile int *)addr = 1;
    return TA_OK;
}

/* timeout: never returns. */
static ta_status hang(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    for (volatile unsigned long i = 0;; i++) {}
    return TA_OK;
}

/* crash: abort(), after saying why on stderr (as glibc's "free(): invalid
 * pointer" does), which the crash's finding quotes. */
static ta_status aborts(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    fputs("frame #0: somewhere\naborts: the heap is corrupt\n", stderr);
    abort();
}

/* crash: frees a block twice, so glibc aborts with its own message
 * ("free(): double free detected in tcache 2"), which glibc writes to the
 * terminal (/dev/tty) unless LIBC_FATAL_STDERR_ is set (Debian's writes it
 * to stderr either way): the finding must quote it instead. It prints the
 * variable first, so the quote shows it set. glibc's own allocator
 * functions, so that a sanitizer build's allocator does not catch the
 * double free first. */
void *__libc_malloc(size_t n);
void __libc_free(void *p);
static ta_status double_free(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    (void)st;
    const char *fatal = getenv("LIBC_FATAL_STDERR_");
    fprintf(stderr, "LIBC_FATAL_STDERR_=%s\n", fatal ? fatal : "(unset)");
    fflush(stderr);
    void *volatile p = __libc_malloc(24);
    __libc_free(p);
    __libc_free(p);
    return TA_OK;
}

/* out-of-bounds: writes one element past the end of its output. */
static ta_status past_end(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *y = copy_of(ctx, ta_stack_tensor(st, 0));
    if (!y) return ta_kernel_error(ctx, "out of memory");
    size_t es = ta_dtype_size(y->dtype);
    memset((char *)y->data + y->byte_offset + (size_t)ta_numel(y) * es, 0, es);
    return ret1(st, y);
}

/* out-of-bounds: what a bridge reports when the framework's kernel left
 * its argument viewing bytes past its storage's end (the engine would not
 * restride it there, so the kernel says so itself). */
static ta_status left_past_end(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *x = ta_stack_tensor(st, 0);
    return ta_kernel_bad_geometry(ctx, x, "left_past_end: self now ends %d bytes past its storage", 4);
}

/* undeclared-output-alias: returns one new tensor twice. */
static ta_status two_same(ta_kernel_ctx *ctx, ta_stack *st)
{
    DLTensor *y = copy_of(ctx, ta_stack_tensor(st, 0));
    if (!y) return ta_kernel_error(ctx, "out of memory");
    ta_stack_clear(st);
    ta_stack_push_tensor(st, y);
    return ta_stack_push_tensor(st, y);
}

/* kernel-error: returns nothing for a schema that returns a tensor. */
static ta_status no_return(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)ctx;
    ta_stack_clear(st);
    return TA_OK;
}

/* not-exercised: rejects every input. */
static ta_status rejects(ta_kernel_ctx *ctx, ta_stack *st)
{
    (void)st;
    /* as torchvision 0.29's stable ABI does for every check that fails */
    fputs("rejects: a backtrace on stderr\nframe #0: somewhere\n", stderr);
    return ta_kernel_error(ctx, "rejects: this kernel accepts nothing");
}

ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version);
ta_status tensoralias_register(ta_registry *reg, uint32_t abi_version)
{
    if (abi_version != TA_KERNEL_ABI_VERSION) return TA_ERR_UNSUPPORTED;
    static const struct {
        const char *schema;
        ta_kernel_fn fn;
    } ops[] = {
        {"mylib::good(Tensor self) -> Tensor", good},
        {"mylib::good_out.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", good_out},
        {"mylib::writes_input(Tensor self) -> Tensor", writes_input},
        {"mylib::returns_input(Tensor self) -> Tensor", returns_input},
        {"mylib::view_copy(Tensor(a) self) -> Tensor(a)", view_copy},
        {"mylib::out_new.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_new},
        {"mylib::out_unwritten.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", out_unwritten},
        {"mylib::inplace_new_(Tensor(a!) self) -> Tensor(a!)", inplace_new},
        {"mylib::restrides(Tensor self) -> Tensor", restrides},
        {"mylib::segfault(Tensor self) -> Tensor", segfault},
        {"mylib::hang(Tensor self) -> Tensor", hang},
        {"mylib::aborts(Tensor self) -> Tensor", aborts},
        {"mylib::double_free(Tensor self) -> Tensor", double_free},
        {"mylib::past_end(Tensor self) -> Tensor", past_end},
        {"mylib::left_past_end_(Tensor(a!) self) -> Tensor(a!)", left_past_end},
        {"mylib::two_same(Tensor self) -> (Tensor, Tensor)", two_same},
        {"mylib::no_return(Tensor self) -> Tensor", no_return},
        {"mylib::rejects(Tensor self) -> Tensor", rejects},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        ta_status s = ta_register_op(reg, ops[i].schema, TA_KEY_CPU, ops[i].fn, NULL);
        if (s != TA_OK) return s;
    }
    /* An operator with a schema and no kernel. */
    return ta_register_op(reg, "mylib::no_kernel(Tensor self) -> Tensor", TA_KEY_CATCHALL, NULL, NULL);
}
