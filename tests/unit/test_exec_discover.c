/* test_exec_discover.c - input discovery's parts, on models made by hand:
 * the condition language (C++ spellings read, printed back canonical,
 * evaluated with unknowns, one atom solved), what the learner reads from
 * messages (templates, quoted conditions with the kernel's own names,
 * words, expected and got numbers, guesses last and marked so), and the
 * hints (the discovery path read and printed back, applied to a case, a
 * contradicted fact dropped). The search itself runs in
 * tests/cli/verify_discovery.sh against kernels that say what they want. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/discover/cond.h"
#include "exec/discover/hints.h"
#include "exec/discover/learn.h"
#include "exec/discover/model.h"
#include "tensoralias/exec.h"

typedef struct env {
    ta_arena *arena;
    ta_decl *decl;
    ta_schema *schema;
    dsc_model *m;
} env;

static void env_open(env *e, const char *schema)
{
    assert_int_equal(ta_arena_create(&e->arena), TA_OK);
    assert_int_equal(ta_schema_parse(e->arena, schema, strlen(schema), NULL, &e->schema, NULL), TA_OK);
    assert_int_equal(ta_decl_build(e->arena, e->schema, &e->decl), TA_OK);
    e->m = calloc(1, sizeof *e->m);
    assert_non_null(e->m);
    e->m->d = e->decl;
    e->m->nargs = e->decl->nargs;
    for (int i = 0; i < e->decl->nargs; i++) {
        dsc_arg *a = &e->m->args[i];
        a->present = true;
        switch (e->decl->args[i].type) {
        case TA_DT_TENSOR: a->kind = DSC_K_TENSOR; break;
        case TA_DT_TENSOR_LIST: a->kind = DSC_K_LIST; break;
        case TA_DT_INT: a->kind = DSC_K_INT; break;
        case TA_DT_BOOL: a->kind = DSC_K_BOOL; break;
        default: a->kind = DSC_K_OTHER; break;
        }
    }
}

static void env_close(env *e)
{
    free(e->m);
    ta_arena_destroy(e->arena);
}

static int arg_of(const env *e, const char *name)
{
    for (int i = 0; i < e->decl->nargs; i++)
        if (!strcmp(e->decl->args[i].name, name)) return i;
    fail_msg("no argument %s", name);
    return -1;
}

/* Tensor argument name of the given shape, float32, contiguous. */
static void set_tensor(env *e, const char *name, int ndim, const int64_t *shape)
{
    dsc_tensor *t = &e->m->args[arg_of(e, name)].t;
    memset(t, 0, sizeof *t);
    t->defined = true;
    t->ndim = ndim;
    if (ndim) memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    t->dtype = TA_DTYPE_F32;
    t->contig = true;
}

static void parse(env *e, dsc_cond *c, const char *text)
{
    if (!dsc_cond_parse(c, text, strlen(text), e->decl)) fail_msg("does not parse: %s", text);
}

static void assert_prints(env *e, const char *text, const char *canonical)
{
    dsc_cond c;
    char buf[512];
    parse(e, &c, text);
    dsc_cond_print(&c, c.root, e->decl, NULL, buf, sizeof buf);
    assert_string_equal(buf, canonical);
}

static void cond_reads_cpp(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor input, Tensor rois, Tensor[] lst, int groups, bool flag) -> Tensor");
    assert_prints(&e, "input.ndimension() == 4", "input.dim() == 4");
    assert_prints(&e, "input.sizes().size() == rois.sizes()[1]", "input.dim() == rois.size(1)");
    assert_prints(&e, "static_cast<uint64_t>(rois.numel()) == lst.size()", "rois.numel() == lst.size()");
    assert_prints(&e, "(input.dtype() == torch::kFloat32 || input.scalar_type() == at::ScalarType::Double)",
                  "input.dtype() == kFloat || input.dtype() == kDouble");
    assert_prints(&e, "lst[i].ndimension() == 1 && groups > 0", "lst[i].dim() == 1 && groups > 0");
    assert_prints(&e, "input.size(-1) + (rois.size(0) - 1) * 2 == 5", "input.size(-1) + (rois.size(0) - 1) * 2 == 5");
    assert_prints(&e, "!flag || input.device().is_cpu()", "!flag || true");
    dsc_cond c;
    assert_false(dsc_cond_parse(&c, "input.dim() ==", 14, e.decl));
    assert_false(dsc_cond_parse(&c, "x.size(0) > 1.5", 15, e.decl)); /* no floats */
    parse(&e, &c, "input_c.dim() == 4 && weight_h > 0");
    assert_int_equal(c.nfree, 2); /* the kernel's own names */
    assert_string_equal(c.free[0], "input_c");
    env_close(&e);
}

static void cond_evaluates_and_solves(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor a, Tensor b, Tensor[] lst, int n) -> Tensor");
    int64_t a[] = {2, 3}, b[] = {4}, item[] = {5, 5};
    set_tensor(&e, "a", 2, a);
    set_tensor(&e, "b", 1, b);
    dsc_arg *l = &e.m->args[arg_of(&e, "lst")];
    l->n = 2;
    for (int i = 0; i < 2; i++) l->items[i] = (dsc_tensor){.defined = true, .ndim = 2, .shape = {5, 5}, .dtype = TA_DTYPE_F32};
    (void)item;
    e.m->args[arg_of(&e, "n")].i = 3;
    dsc_cond c;
    parse(&e, &c, "a.size(1) == n && b.numel() == 4");
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), 1);
    parse(&e, &c, "a.size(0) + b.size(0) - 1 == 7");
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), 0);
    parse(&e, &c, "a.size(5) == 2 || nowhere > 1"); /* past the rank, a free name: unknown */
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), -1);
    parse(&e, &c, "a.size(5) == 2 || n == 3"); /* one true disjunct is enough */
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), 1);
    parse(&e, &c, "lst[i].dim() == 2");
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), 1);
    e.m->args[arg_of(&e, "lst")].items[1].ndim = 1;
    assert_int_equal(dsc_cond_eval(&c, e.m, NULL), 0); /* every item */

    /* Solving adjusts the atom named, to the nearest value that works. */
    parse(&e, &c, "a.size(0) + b.size(0) - 1 == 7");
    int atoms[8], na = dsc_cond_atoms(&c, e.m, NULL, atoms, 8);
    assert_int_equal(na, 2);
    assert_true(dsc_cond_solve(&c, atoms[1], e.m, NULL)); /* b.size(0) */
    assert_int_equal(e.m->args[arg_of(&e, "b")].t.shape[0], 6);
    assert_true(e.m->args[arg_of(&e, "b")].changed);
    parse(&e, &c, "b.dim() >= 3");
    assert_true(dsc_cond_solve(&c, c.n[c.root].a, e.m, NULL));
    assert_int_equal(e.m->args[arg_of(&e, "b")].t.ndim, 3);
    assert_int_equal(e.m->args[arg_of(&e, "b")].t.shape[2], 6); /* new dimensions in front */
    parse(&e, &c, "a.dtype() == kLong");
    assert_true(dsc_cond_solve(&c, c.n[c.root].a, e.m, NULL));
    assert_true(ta_dtype_eq(e.m->args[arg_of(&e, "a")].t.dtype, TA_DTYPE_I64));
    parse(&e, &c, "lst[i].dim() == 3");
    assert_true(dsc_cond_solve(&c, c.n[c.root].a, e.m, NULL));
    assert_int_equal(e.m->args[arg_of(&e, "lst")].items[0].ndim, 3);
    assert_int_equal(e.m->args[arg_of(&e, "lst")].items[1].ndim, 3);
    parse(&e, &c, "a.numel() == 1000000"); /* too large a tensor: not solvable */
    assert_false(dsc_cond_solve(&c, c.n[c.root].a, e.m, NULL));
    env_close(&e);
}

/* Whether the learner offers text (informed or guessed, as asked). */
static bool offers(const dsc_cands *c, const char *text, bool informed)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->text[i], text) && c->informed[i] == informed) return true;
    return false;
}

/* The position of text among c's candidates, or -1. */
static int position(const dsc_cands *c, const char *text)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->text[i], text)) return i;
    return -1;
}

static void dump(const dsc_cands *c)
{
    for (int i = 0; i < c->n; i++) print_message("  %s%s\n", c->text[i], c->informed[i] ? "" : " (guess)");
}

#define ASSERT_OFFERS(c, text, informed)                                     \
    do {                                                                      \
        if (!offers(c, text, informed)) {                                     \
            dump(c);                                                          \
            fail_msg("not offered%s: %s", (informed) ? "" : " as a guess", text); \
        }                                                                     \
    } while (0)

static void learns_templates(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor input, Tensor rois, Tensor index) -> Tensor");
    int64_t i1[] = {3}, r2[] = {3, 4};
    set_tensor(&e, "input", 1, i1);
    set_tensor(&e, "rois", 2, r2);
    set_tensor(&e, "index", 1, i1);
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    dsc_learn("Dimension out of range (expected to be in range of [-1, 0], but got 1)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "input.dim() >= 2 @ input.dim()", true);
    assert_false(offers(c, "rois.dim() >= 2 @ rois.dim()", true)); /* 2-D already */
    dsc_learn("TensorAccessor expected 2 dims but tensor has 1", e.m, e.decl, c);
    ASSERT_OFFERS(c, "input.dim() == 2 @ input.dim()", true);
    ASSERT_OFFERS(c, "index.dim() == 2 @ index.dim()", true);
    dsc_learn("rois must have shape as Tensor[K, 5]", e.m, e.decl, c);
    ASSERT_OFFERS(c, "rois.size(1) == 5 @ rois.size(1)", true);
    dsc_learn("expected scalar type Long but found Float", e.m, e.decl, c);
    ASSERT_OFFERS(c, "input.dtype() == kLong @ input.dtype()", true);
    dsc_learn("Expected tensor for argument #3 'index' to have one of the following scalar types: Long, Int; "
              "but got CPUFloatType instead (while checking arguments for op)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "index.dtype() == kLong @ index.dtype()", true);
    assert_false(offers(c, "input.dtype() == kLong @ input.dtype()", true));
    dsc_learn("\"op_cpu\" not implemented for 'Float'", e.m, e.decl, c);
    ASSERT_OFFERS(c, "input.dtype() == kLong @ input.dtype()", true); /* the other kind first */
    assert_true(position(c, "input.dtype() == kLong @ input.dtype()") <
                position(c, "input.dtype() == kDouble @ input.dtype()"));
    /* a float tensor named as an index (learn_prior.c) before input */
    assert_string_equal(c->text[0], "index.dtype() == kLong @ index.dtype()");
    dsc_learn("The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1", e.m, e.decl, c);
    ASSERT_OFFERS(c, "rois.size(1) == input.size(0) @ rois.size(1)", true);
    dsc_learn("a Tensor with 12 elements cannot be converted to Scalar", e.m, e.decl, c);
    ASSERT_OFFERS(c, "rois.numel() == 1 @ rois.numel()", true);
    e.m->args[arg_of(&e, "index")].t.dtype = TA_DTYPE_I64;
    e.m->args[arg_of(&e, "index")].t.ranged = true;
    e.m->args[arg_of(&e, "index")].t.lo = -2;
    e.m->args[arg_of(&e, "index")].t.hi = 7;
    dsc_learn("index 7 is out of bounds for dimension 0 with size 3", e.m, e.decl, c);
    ASSERT_OFFERS(c, "index.max() < input.size(0) @ index.max()", true);
    ASSERT_OFFERS(c, "index.min() >= 0 @ index.min()", true);
    /* the stable ABI spells a dtype with its namespaces */
    dsc_learn("const_data_ptr<int>, tensor_inl.h:72, expected scalar type torch::headeronly::ScalarType::Int "
              "but found Float", e.m, e.decl, c);
    ASSERT_OFFERS(c, "input.dtype() == kInt @ input.dtype()", true);
    free(c);
    env_close(&e);
}

/* torchvision 0.29's roi backward checks: a shape spelled with the
 * schema's names, "the same shape as", values "in [0, batch_size)". */
static void learns_shape_words_and_ranges(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor grad, Tensor rois, Tensor argmax, int channels, int batch_size) -> Tensor");
    int64_t g[] = {3, 4}, r[] = {6, 5}, a[] = {2};
    set_tensor(&e, "grad", 2, g);
    set_tensor(&e, "rois", 2, r);
    set_tensor(&e, "argmax", 1, a);
    e.m->args[arg_of(&e, "channels")].i = 2;
    e.m->args[arg_of(&e, "batch_size")].i = 3;
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    dsc_learn("roi_backward, roi_kernel.cpp:225, grad should have shape [K, channels]", e.m, e.decl, c);
    ASSERT_OFFERS(c, "grad.size(1) == channels @ grad.size(1)", true);
    ASSERT_OFFERS(c, "grad.size(0) == rois.size(0) @ grad.size(0)", true);
    dsc_learn("argmax should have the same shape as grad", e.m, e.decl, c);
    ASSERT_OFFERS(c, "argmax.dim() == grad.dim() @ argmax.dim()", true);
    ASSERT_OFFERS(c, "argmax.size(0) == grad.size(0) @ argmax.size(0)", true);
    /* a float tensor's values as read: .max() and .min() are known */
    dsc_tensor *t = &e.m->args[arg_of(&e, "rois")].t;
    t->seen = true;
    t->vlo = -4;
    t->vhi = 4;
    dsc_learn("rois batch index must be in [0, batch_size)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "rois.max() < batch_size @ rois.max()", true);
    ASSERT_OFFERS(c, "rois.min() >= 0 @ rois.min()", true);
    free(c);
    env_close(&e);
}

/* torchvision 0.29's ps_roi_pool backward: a shape whose sizes are
 * expressions of the schema's ints. */
static void learns_shape_expressions(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor grad, Tensor rois, int pooled_height, int pooled_width, int channels) -> Tensor");
    int64_t g[] = {3, 4, 5, 6}, r[] = {6, 5};
    set_tensor(&e, "grad", 4, g);
    set_tensor(&e, "rois", 2, r);
    e.m->args[arg_of(&e, "pooled_height")].i = 2;
    e.m->args[arg_of(&e, "pooled_width")].i = 3;
    e.m->args[arg_of(&e, "channels")].i = 12;
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    dsc_learn("ps_roi_pool_kernel.cpp:264, grad should have shape [K, channels / (pooled_height * pooled_width), "
              "pooled_height, pooled_width]", e.m, e.decl, c);
    ASSERT_OFFERS(c, "grad.size(1) == channels / (pooled_height * pooled_width) @ grad.size(1)", true);
    ASSERT_OFFERS(c, "grad.size(2) == pooled_height @ grad.size(2)", true);
    ASSERT_OFFERS(c, "grad.size(3) == pooled_width @ grad.size(3)", true);
    /* a size that names no argument says only the rank */
    dsc_learn("grad should have shape [K, C / (H * W)]", e.m, e.decl, c);
    ASSERT_OFFERS(c, "grad.dim() == 2 @ grad.dim()", true);
    for (int i = 0; i < c->n; i++) assert_null(strstr(c->text[i], "grad.size(1) =="));
    free(c);
    env_close(&e);
}

static void learns_conditions_words_numbers(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor input, Tensor offset, Tensor weight, int groups) -> Tensor");
    int64_t in[] = {2, 2, 4, 4}, off[] = {2, 2, 3, 3}, w[] = {1, 2, 2, 2};
    set_tensor(&e, "input", 4, in);
    set_tensor(&e, "offset", 4, off);
    set_tensor(&e, "weight", 4, w);
    e.m->args[arg_of(&e, "groups")].i = 1;
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    /* A quoted condition, in the kernel's own names. */
    dsc_learn("Expected weight_c.size(0) * groups == input_c.size(1) to be true, but got false.  (Could this "
              "error message be improved?  If so, please report an enhancement request to PyTorch.)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "weight.size(0) * groups == input.size(1) @ weight.size(0)", true);
    ASSERT_OFFERS(c, "weight.size(0) * groups == input.size(1) @ input.size(1)", true);
    ASSERT_OFFERS(c, "weight.size(0) * groups == input.size(1) @ groups", true);
    assert_string_equal(c->text[c->n - 1], "weight.size(0) * groups == input.size(1) @ groups"); /* values last */
    /* A spelled atom with the value got and the one expected. */
    dsc_learn("offset.shape[1] is not valid: got: 2 expected: 18", e.m, e.decl, c);
    assert_string_equal(c->text[0], "offset.size(1) == 18 @ offset.size(1)");
    /* Two lists, one of them a run of a named tensor's sizes. */
    dsc_learn("offset output dims: (3, 3) - computed output dims: (4, 2)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "offset.size(2) == 4 @ offset.size(2)", true);
    ASSERT_OFFERS(c, "offset.size(3) == 2 @ offset.size(3)", true);
    /* Words: a named tensor's rank, and what it got is not what it wants. */
    dsc_learn("weight should be a 3d tensor, got 4D", e.m, e.decl, c);
    ASSERT_OFFERS(c, "weight.dim() == 3 @ weight.dim()", true);
    assert_false(offers(c, "weight.dim() == 4 @ weight.dim()", true));
    /* Nothing understood: guesses, marked so. */
    dsc_learn("op_kernel, /src/op_kernel.cpp:12, ", e.m, e.decl, c);
    assert_true(c->n > 0);
    for (int i = 0; i < c->n; i++) assert_false(c->informed[i]);
    ASSERT_OFFERS(c, "input.dim() == 5 @ input.dim()", false);
    free(c);
    env_close(&e);
}

/* FBGEMM's checks: a count of a kernel's own (T, outer_dense_size) whose
 * value the message gives, read as the case's quantity of that value; what
 * is wanted spelled out at length before what was got, with alternatives. */
static void learns_locals_and_far_numbers(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor[] weights, Tensor D_offsets, Tensor y, Tensor[] x_offsets, int max_D) -> Tensor");
    int64_t one[] = {1}, y[] = {4, 2};
    set_tensor(&e, "D_offsets", 1, one);
    set_tensor(&e, "y", 2, y);
    dsc_arg *w = &e.m->args[arg_of(&e, "weights")], *xo = &e.m->args[arg_of(&e, "x_offsets")];
    w->n = 2;
    for (int i = 0; i < 2; i++) w->items[i] = e.m->args[arg_of(&e, "y")].t;
    xo->n = 1;
    xo->items[0] = e.m->args[arg_of(&e, "y")].t;
    xo->items[0].ndim = 1;
    xo->items[0].shape[0] = 4;
    e.m->args[arg_of(&e, "max_D")].i = 3;
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    dsc_learn("[F1128 11:30:34.977815836 gen_embedding_backward_adagrad_split_cpu.cpp:470] Check failed: T > 0 "
              "(0 vs. 0). ", e.m, e.decl, c);
    ASSERT_OFFERS(c, "D_offsets.numel() - 1 > 0 @ D_offsets.numel()", true);
    dsc_learn("outer_dense_size, 4 != x_offsets[0].numel() - 1, 3", e.m, e.decl, c);
    ASSERT_OFFERS(c, "y.size(0) == x_offsets[0].numel() - 1 @ x_offsets[0].numel()", true);
    dsc_learn("CPU weights must be size 3 [host, placements, offsets] or 5 [dev-or-host, placements, offsets, uvm, "
              "lxu_cache], got 2", e.m, e.decl, c);
    ASSERT_OFFERS(c, "weights.size() == 3 @ weights.size()", true);
    ASSERT_OFFERS(c, "weights.size() == 5 @ weights.size()", true);
    /* A count named by a constant: the list of the length got, longer or shorter. */
    dsc_learn("weights must contain AUX_TENSOR_BWD_SIZE tensor(s), got 2", e.m, e.decl, c);
    ASSERT_OFFERS(c, "weights.size() == 3 @ weights.size()", true);
    ASSERT_OFFERS(c, "weights.size() == 1 @ weights.size()", true);
    /* .item() of a tensor of many elements: the one whose name says it holds a number first */
    env_close(&e);
    env_open(&e, "t::op(Tensor grad, Tensor learning_rate_tensor) -> Tensor");
    int64_t seven[] = {7};
    set_tensor(&e, "grad", 1, seven);
    set_tensor(&e, "learning_rate_tensor", 1, seven);
    dsc_learn("a Tensor with 7 elements cannot be converted to Scalar", e.m, e.decl, c);
    assert_string_equal(c->text[0], "learning_rate_tensor.numel() == 1 @ learning_rate_tensor.numel()");
    ASSERT_OFFERS(c, "grad.numel() == 1 @ grad.numel()", true);
    env_close(&e);
    env_open(&e, "t::op(Tensor[] weights, Tensor D_offsets, Tensor y, Tensor[] x_offsets, int max_D) -> Tensor");
    /* FBGEMM's short dtype names */
    set_tensor(&e, "y", 2, y);
    e.m->args[arg_of(&e, "y")].t.dtype = (DLDataType){kDLFloat, 64, 1};
    dsc_learn("y dtype is double(!= I64)", e.m, e.decl, c);
    ASSERT_OFFERS(c, "y.dtype() == kLong @ y.dtype()", true);
    free(c);
    env_close(&e);
}

/* A demand the message makes of no tensor it names (an accessor's dtype or
 * rank): the tensors whose names say they hold indices, offsets or counts
 * first for an integer dtype or one dimension, the others first for a
 * floating dtype; every candidate still offered, a check's own condition
 * first whatever the names. */
static void orders_unnamed_demands_by_names(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor grad_output, Tensor host_weights, Tensor D_offsets, Tensor indices) -> Tensor");
    int64_t two[] = {2, 3}, one[] = {4};
    set_tensor(&e, "grad_output", 2, two);
    set_tensor(&e, "host_weights", 2, two);
    set_tensor(&e, "D_offsets", 2, two);
    set_tensor(&e, "indices", 2, two);
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    dsc_learn("expected scalar type Int but found Float", e.m, e.decl, c);
    assert_string_equal(c->text[0], "D_offsets.dtype() == kInt @ D_offsets.dtype()");
    assert_string_equal(c->text[1], "indices.dtype() == kInt @ indices.dtype()");
    ASSERT_OFFERS(c, "grad_output.dtype() == kInt @ grad_output.dtype()", true);
    dsc_learn("TensorAccessor expected 1 dims but tensor has 2", e.m, e.decl, c);
    assert_string_equal(c->text[0], "D_offsets.dim() == 1 @ D_offsets.dim()");
    ASSERT_OFFERS(c, "host_weights.dim() == 1 @ host_weights.dim()", true);
    set_tensor(&e, "D_offsets", 1, one);
    e.m->args[arg_of(&e, "D_offsets")].t.dtype = (DLDataType){kDLInt, 64, 1};
    dsc_learn("expected scalar type Float but found Long", e.m, e.decl, c);
    assert_string_equal(c->text[0], "D_offsets.dtype() == kFloat @ D_offsets.dtype()");
    dsc_learn("Check failed: host_weights.dim() == 1 (2 vs. 1). ", e.m, e.decl, c);
    assert_string_equal(c->text[0], "host_weights.dim() == 1 @ host_weights.dim()");
    env_close(&e);
    env_open(&e, "t::op(Tensor x_values, Tensor[] x_offsets, Tensor y) -> Tensor");
    int64_t yv[] = {1, 3, 3, 4}, xv[] = {4, 3, 4};
    set_tensor(&e, "y", 4, yv);
    set_tensor(&e, "x_values", 3, xv);
    dsc_arg *xo = &e.m->args[arg_of(&e, "x_offsets")];
    xo->n = 1;
    xo->items[0] = e.m->args[arg_of(&e, "y")].t;
    xo->items[0].ndim = 1;
    xo->items[0].shape[0] = 24;
    xo->items[0].dtype = (DLDataType){kDLInt, 64, 1};
    dsc_learn("outer_dense_size, 1 != x_offsets[0].numel() - 1, 23", e.m, e.decl, c);
    ASSERT_OFFERS(c, "y.size(0) == x_offsets[0].numel() - 1 @ x_offsets[0].numel()", true);
    /* a local's value that no quantity of the case has: the value itself */
    e.m->args[arg_of(&e, "y")].t.shape[0] = 2;
    xo->n = 2;
    xo->items[1] = xo->items[0];
    dsc_learn("outer_dense_size, 1 != x_offsets[0].numel() - 1, 23", e.m, e.decl, c);
    ASSERT_OFFERS(c, "1 == x_offsets[0].numel() - 1 @ x_offsets[0].numel()", true);
    env_close(&e);
    /* settings spelled name=value: the one wanted, the one blamed */
    env_open(&e, "t::op(Tensor input, bool scale_bias_last, bool quant_padding_float_type) -> Tensor");
    e.m->args[arg_of(&e, "scale_bias_last")].i = 1;
    e.m->args[arg_of(&e, "scale_bias_last")].present = true;
    e.m->args[arg_of(&e, "quant_padding_float_type")].present = true;
    dsc_learn("2-byte padding (quant_padding_float_type=false) only works with scale_bias_last=false", e.m, e.decl, c);
    assert_string_equal(c->text[0], "scale_bias_last == 0 @ scale_bias_last");
    ASSERT_OFFERS(c, "quant_padding_float_type != 0 @ quant_padding_float_type", true);
    env_close(&e);
    /* a size spelled as another tensor's rows */
    env_open(&e, "t::op(Tensor weight, Tensor rowwise_min_max) -> Tensor");
    int64_t w2[] = {5, 8}, r1[] = {3};
    set_tensor(&e, "weight", 2, w2);
    set_tensor(&e, "rowwise_min_max", 1, r1);
    dsc_learn("'rowwise_min_max' must be a 2D tensor with shape [num_rows(weight), 2].", e.m, e.decl, c);
    ASSERT_OFFERS(c, "rowwise_min_max.dim() == 2 @ rowwise_min_max.dim()", true);
    ASSERT_OFFERS(c, "rowwise_min_max.size(0) == weight.size(0) @ rowwise_min_max.size(0)", true);
    free(c);
    env_close(&e);
}

static void inferred_names_bind_positionally(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor _0, Tensor _1, Tensor _2) -> ()");
    int64_t a[] = {2, 3}, b[] = {4}, o[] = {2, 5};
    set_tensor(&e, "_0", 2, a);
    set_tensor(&e, "_1", 1, b);
    set_tensor(&e, "_2", 2, o);
    dsc_cands *c = calloc(1, sizeof *c);
    assert_non_null(c);
    /* The kernel's names are none of the schema's (an inferred schema):
     * every binding the rejected case makes false is offered. */
    dsc_learn("Expected input_signal_windows.size(1) + a_coeff_flipped.size(0) - 1 == "
              "padded_output_waveform.size(1) to be true, but got false.", e.m, e.decl, c);
    ASSERT_OFFERS(c, "_0.size(1) + _1.size(0) - 1 == _2.size(1) @ _2.size(1)", true);
    free(c);
    env_close(&e);
}

static void hints_round_trip_and_apply(void **state)
{
    (void)state;
    env e;
    env_open(&e, "t::op(Tensor input, Tensor rois) -> Tensor");
    int64_t in[] = {3}, r[] = {3, 4};
    set_tensor(&e, "input", 1, in);
    set_tensor(&e, "rois", 2, r);
    dsc_hints *h = calloc(1, sizeof *h);
    assert_non_null(h);
    const char *path = "rois.size(1) == 5 @ rois.size(1); input.dim() >= 4 @ input.dim(); "
                       "input.size(0) == rois.size(0) @ input.size(0)";
    assert_true(dsc_hints_parse(h, e.decl, path));
    assert_int_equal(h->n, 3);
    assert_string_equal(h->path, path);
    dsc_model *m = malloc(sizeof *m);
    assert_non_null(m);
    *m = *e.m;
    assert_true(dsc_hints_consistent(h, m));
    assert_int_equal(m->args[1].t.shape[1], 5);
    assert_int_equal(m->args[0].t.ndim, 4);
    assert_int_equal(m->args[0].t.shape[0], 3);
    assert_true(m->args[0].changed && m->args[1].changed);
    /* A later fact on the same atom that contradicts an earlier one. */
    assert_true(dsc_hints_push_text(h, "rois.size(1) == 4 @ rois.size(1)"));
    *m = *e.m;
    assert_false(dsc_hints_consistent(h, m));
    dsc_hints_drop_same_atom(h);
    assert_int_equal(h->n, 3);
    assert_string_equal(h->path, "input.dim() >= 4 @ input.dim(); input.size(0) == rois.size(0) @ input.size(0); "
                                 "rois.size(1) == 4 @ rois.size(1)");
    *m = *e.m;
    assert_true(dsc_hints_consistent(h, m));
    assert_false(dsc_hints_parse(h, e.decl, "nothere.dim() == 2 @ nothere.dim()"));
    assert_false(dsc_hints_parse(h, e.decl, "rois.dim() == 2"));
    assert_int_equal(h->n, 0);
    free(m);
    free(h);
    env_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cond_reads_cpp),
        cmocka_unit_test(cond_evaluates_and_solves),
        cmocka_unit_test(learns_templates),
        cmocka_unit_test(learns_shape_words_and_ranges),
        cmocka_unit_test(learns_shape_expressions),
        cmocka_unit_test(learns_conditions_words_numbers),
        cmocka_unit_test(learns_locals_and_far_numbers),
        cmocka_unit_test(orders_unnamed_demands_by_names),
        cmocka_unit_test(inferred_names_bind_positionally),
        cmocka_unit_test(hints_round_trip_and_apply),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
