/* rules_schema.c - the alias rules that need only the schema.
 *
 * Errors are what torchgen (torchgen/model.py: Annotation.parse,
 * Arguments._preparse, FunctionSchema.__post_init__) or the
 * native_functions.yaml guide require of annotations; warnings are legal
 * patterns that usually mean a mistake. Each rule reports at the narrowest
 * span that shows the problem, with a fix-it hint when one is obvious. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "schema/parser.h"
#include "alias/rules_internal.h"

const ta_alias *ta_rule_first_annotation(const ta_type *t)
{
    if (!t) return NULL;
    if (t->alias) return t->alias;
    for (uint32_t i = 0; i < t->nelems; i++) {
        const ta_alias *a = ta_rule_first_annotation(t->elems[i]);
        if (a) return a;
    }
    return NULL;
}

static bool str_lists_eq(const ta_str *a, uint32_t na, const ta_str *b, uint32_t nb)
{
    if (na != nb) return false;
    for (uint32_t i = 0; i < na; i++)
        if (!ta_str_eq_str(a[i], b[i])) return false;
    return true;
}

bool ta_rule_same_annotation(const ta_alias *a, const ta_alias *b)
{
    if (!a || !b) return a == b;
    if (a->write != b->write || a->has_arrow != b->has_arrow || a->bare_write != b->bare_write)
        return false;
    if (!str_lists_eq(a->before, a->nbefore, b->before, b->nbefore)) return false;
    return !a->has_arrow || str_lists_eq(a->after, a->nafter, b->after, b->nafter);
}

bool ta_rule_is_inplace_name(ta_str n)
{
    static const char *const aug[] = {"add", "sub", "mul", "div", "mod", "pow", "lshift",
                                      "rshift", "and", "xor", "or", "matmul", "truediv",
                                      "floordiv"};
    if (n.len > 4 && !memcmp(n.ptr, "__", 2) && !memcmp(n.ptr + n.len - 2, "__", 2)) {
        if (n.ptr[2] != 'i') return false;
        for (size_t k = 0; k < sizeof aug / sizeof aug[0]; k++)
            if (strlen(aug[k]) == n.len - 5 && !memcmp(n.ptr + 3, aug[k], n.len - 5)) return true;
        return false;
    }
    return n.len > 0 && n.ptr[n.len - 1] == '_';
}

/* ---- helpers ------------------------------------------------------------ */

typedef struct rc {
    const ta_schema *s;
    const ta_alias_query *q;
    ta_rule_sink *k;
    ta_status st;
    int self_ix; /* the positional "self", or -1 */
    /* ta_rule_first_annotation of each argument and return, found once: the rules
     * ask for them again and again */
    const ta_alias **arg_ann, **ret_ann;
} rc;

static void report(rc *c, const char *id, ta_span sp, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void report(rc *c, const char *id, ta_span sp, const char *hint, const char *fmt, ...)
{
    if (c->st != TA_OK) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ta_rule_info *r = ta_alias_rule_get(id);
    if (r) c->st = c->k->emit(c->k, r, sp.off, sp.len ? sp.len : 1, hint, msg);
}

#define NAMEF(x) (int)(x).len, (x).ptr

static bool is_out_name(ta_str n, int *num)
{
    *num = -1;
    if (n.len < 3 || memcmp(n.ptr, "out", 3)) return false;
    if (n.len == 3) return true;
    int v = 0;
    for (uint32_t i = 3; i < n.len; i++) {
        if (!isdigit((unsigned char)n.ptr[i]) || v > 100000) return false;
        v = v * 10 + (n.ptr[i] - '0');
    }
    *num = v;
    return true;
}

/* torchgen's out= overload names: "out", "<something>_out" */
static bool out_overload(ta_str o)
{
    return TA_STR_IS(o, "out") || (o.len > 4 && !memcmp(o.ptr + o.len - 4, "_out", 4));
}

static bool plain_tensor(const ta_type *t)
{
    return t && t->kind == TA_TYPE_NAME && TA_STR_IS(t->name, "Tensor");
}

static bool written_ann(const ta_alias *a) { return a && a->write; }

/* ---- torchgen's annotation grammar -------------------------------------- */

static bool letter_set(ta_str n) { return n.len == 1 && islower((unsigned char)n.ptr[0]); }

static void check_form_type(rc *c, const ta_type *t)
{
    if (!t) return;
    const ta_alias *a = t->alias;
    if (a) {
        bool ok = !a->bare_write && a->nbefore > 0;
        for (uint32_t i = 0; ok && i < a->nbefore; i++) ok = letter_set(a->before[i]);
        if (ok && a->has_arrow) {
            bool wild = a->nafter == 1 && ta_alias_str_is_wildcard(a->after[0]);
            for (uint32_t i = 0; !wild && ok && i < a->nafter; i++) ok = letter_set(a->after[i]);
        }
        if (!ok)
            report(c, "alias-annotation-form", a->span,
                   "name sets with single lower-case letters: (a), (a!), (a|b), (a -> *)",
                   "alias annotation torchgen cannot read: sets are single letters, '*' only after '->'");
        else if (a->write && a->nbefore > 1)
            report(c, "alias-annotation-form", a->span, "write through one set: (a!)",
                   "a written annotation names %u sets; torchgen allows one", a->nbefore);
        else if (a->has_arrow && a->nbefore > 1 && a->nafter > 1)
            report(c, "alias-annotation-form", a->span, NULL,
                   "sets both before and after '->' name more than one set");
    }
    for (uint32_t i = 0; i < t->nelems; i++) check_form_type(c, t->elems[i]);
}

static void rule_annotation_form(rc *c)
{
    /* a slot without any annotation (most) has nothing to check */
    for (uint32_t i = 0; i < c->s->nargs; i++)
        if (c->arg_ann[i]) check_form_type(c, c->s->args[i].type);
    for (uint32_t i = 0; i < c->s->nrets; i++)
        if (c->ret_ann[i]) check_form_type(c, c->s->rets[i].type);
}

/* ---- out= arguments ------------------------------------------------------ */

/* Each argument named or placed like an out= argument: a written
 * positional "out" (torchgen reads the operator as mutable), an unwritten
 * keyword "out", a keyword argument after the out= ones. Counts the out=
 * arguments (written keyword-only ones) and finds the first. */
static void check_out_placement(rc *c, uint32_t *nout, uint32_t *first_out)
{
    const ta_schema *s = c->s;
    *nout = 0;
    *first_out = UINT32_MAX;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        int num;
        bool named = is_out_name(a->name, &num);
        bool w = written_ann(c->arg_ann[i]);
        if (w && !a->kwarg_only && (int)i != c->self_ix && named && !out_overload(s->overload))
            report(c, "alias-out-positional", a->span,
                   "put a '*' before it to make the operator an out= variant, or rename it",
                   "written positional argument '%.*s' is named like an out= argument, but torchgen reads the operator as mutable, not out=",
                   NAMEF(a->name));
        if (named && a->kwarg_only && !w && ta_type_is_tensor_like(a->type))
            report(c, "alias-out-not-written", a->span, "annotate it Tensor(a!)",
                   "keyword argument '%.*s' is named like an out= argument but is not written",
                   NAMEF(a->name));
        if (a->kwarg_only && w) {
            if (*first_out == UINT32_MAX) *first_out = i;
            (*nout)++;
        } else if (a->kwarg_only && *first_out != UINT32_MAX) {
            report(c, "alias-out-order", a->span, "move it before the out= arguments",
                   "keyword argument '%.*s' follows the out= arguments; torchgen requires them last",
                   NAMEF(a->name));
        }
    }
}

/* An out= overload whose only written arguments are positional: torchgen
 * sees a mutable operator (running_mean-style positional writes next to
 * keyword out= arguments are fine). */
static void check_out_overload_mutable(rc *c)
{
    const ta_schema *s = c->s;
    if (!out_overload(s->overload)) return;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (!s->args[i].kwarg_only && (int)i != c->self_ix && written_ann(c->arg_ann[i])) {
            report(c, "alias-out-positional", s->args[i].span, "put a '*' before the outputs it writes",
                   "out= overload '%.*s' writes positional argument '%.*s' and no keyword-only one; torchgen reads it as a mutable operator",
                   NAMEF(s->overload), NAMEF(s->args[i].name));
            return;
        }
}

/* Numbered out= names count from 0 in order, and only when there are
 * several; a single one is "out". */
static void check_out_names(rc *c, uint32_t nout, uint32_t first_out)
{
    const ta_schema *s = c->s;
    uint32_t k = 0;
    for (uint32_t i = first_out; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (!a->kwarg_only || !written_ann(c->arg_ann[i])) continue;
        int num;
        if (is_out_name(a->name, &num) && num >= 0) {
            char hint[64];
            snprintf(hint, sizeof hint, nout == 1 ? "name it 'out'" : "name it 'out%u'", k);
            if (nout == 1)
                report(c, "alias-out-name", a->span, hint,
                       "a single out= argument is named 'out', not '%.*s'", NAMEF(a->name));
            else if ((uint32_t)num != k)
                report(c, "alias-out-name", a->span, hint,
                       "out= argument %u is named '%.*s'; numbered out= arguments run out0, out1, ...",
                       k, NAMEF(a->name));
        }
        k++;
    }
}

/* The returns alias the out= arguments, in order: one return each when
 * all are plain Tensors (scratch ones excepted), none otherwise. */
static void check_out_returns(rc *c, uint32_t nout, uint32_t first_out)
{
    const ta_schema *s = c->s;
    bool all_plain = true;
    uint32_t nscratch = 0, k = 0;
    for (uint32_t i = first_out; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (!a->kwarg_only || !written_ann(c->arg_ann[i])) continue;
        if (!plain_tensor(a->type)) all_plain = false;
        if (a->name.len >= 9 && !memcmp(a->name.ptr, "_scratch_", 9)) nscratch++;
        if (k < s->nrets && !ta_rule_same_annotation(c->arg_ann[i], c->ret_ann[k]))
            report(c, "alias-out-return-mismatch", s->rets[k].span,
                   "annotate the i-th return like the i-th out= argument",
                   "return %u does not carry the annotation of out= argument '%.*s'", k,
                   NAMEF(a->name));
        k++;
    }
    if (!all_plain && s->nrets != 0)
        report(c, "alias-out-return-count", s->rets_span, "return ()",
               "out= arguments that are not plain Tensors (lists, optionals) are not returned");
    else if (all_plain && s->nrets != nout - nscratch)
        report(c, "alias-out-return-count", s->rets_span, NULL,
               "%u out= arguments but %u returns; return each out= argument once, in order",
               nout - nscratch, s->nrets);
}

static void rule_out_args(rc *c)
{
    uint32_t nout, first_out;
    check_out_placement(c, &nout, &first_out);
    if (!nout) {
        check_out_overload_mutable(c);
        return;
    }
    check_out_names(c, nout, first_out);
    check_out_returns(c, nout, first_out);
}

/* ---- inplace ------------------------------------------------------------- */

static void rule_inplace(rc *c)
{
    const ta_schema *s = c->s;
    if (!ta_rule_is_inplace_name(s->name)) return;
    if (c->self_ix < 0) {
        report(c, "alias-inplace-self", s->name_span, "take the written input as 'Tensor(a!) self'",
               "inplace operator '%.*s' has no positional 'self' argument", NAMEF(s->name));
        return;
    }
    const ta_arg *self = &s->args[c->self_ix];
    const ta_alias *sa = c->arg_ann[c->self_ix];
    if (!sa || !sa->write) {
        report(c, "alias-inplace-self", self->span, "annotate it 'Tensor(a!) self'",
               "inplace operator '%.*s' does not write 'self'", NAMEF(s->name));
        return;
    }
    /* a Tensor-list self marks the multi-tensor family (_foreach, fused
     * optimizers), which updates several lists by design */
    bool list_self = self->type->kind == TA_TYPE_LIST;
    for (uint32_t i = 0; i < s->nargs && !list_self; i++)
        if ((int)i != c->self_ix && written_ann(c->arg_ann[i])) {
            report(c, "alias-inplace-writes-more", s->args[i].span,
                   "make it a mutable operator (no trailing '_'), or keep the write and document it",
                   "inplace operator '%.*s' also writes '%.*s'; its name promises that only self is written",
                   NAMEF(s->name), NAMEF(s->args[i].name));
        }
    if (plain_tensor(self->type)) {
        if (s->nrets != 1 || !ta_rule_same_annotation(c->ret_ann[0], sa))
            report(c, "alias-inplace-return", s->nrets ? s->rets_span : s->args_span,
                   "return 'Tensor(a!)' in the set of self",
                   "inplace operator '%.*s' must return 'self' (one return, annotated like it)",
                   NAMEF(s->name));
    } else if (s->nrets != 0) {
        report(c, "alias-inplace-return", s->rets_span, "return ()",
               "inplace operator '%.*s' on a non-Tensor self returns nothing", NAMEF(s->name));
    }
}

/* ---- written returns ----------------------------------------------------- */

static void rule_returns(rc *c)
{
    const ta_schema *s = c->s;
    uint32_t nmut = 0, nimm = 0;
    for (uint32_t j = 0; j < s->nrets; j++) {
        if (written_ann(c->ret_ann[j])) nmut++;
        else nimm++;
    }
    if (nmut && nimm)
        report(c, "alias-mixed-returns", s->rets_span, "do not return the written argument",
               "returns mix written and fresh values; torchgen allows only one kind");
    for (uint32_t j = 0; j < s->nrets; j++) {
        const ta_alias *ra = c->ret_ann[j];
        if (!ra || !ra->write) continue;
        bool bound = false;
        int positional = -1;
        for (uint32_t i = 0; i < s->nargs && !bound; i++) {
            const ta_arg *a = &s->args[i];
            if (!ta_rule_same_annotation(c->arg_ann[i], ra)) continue;
            if (a->kwarg_only || (int)i == c->self_ix) bound = true;
            else positional = (int)i;
        }
        if (bound) continue;
        if (positional >= 0)
            report(c, "alias-out-kwarg-only", s->rets[j].span,
                   "make the written argument keyword-only (after '*'), or name it self",
                   "written return %u aliases positional argument '%.*s'; torchgen binds written returns to out= arguments or self",
                   j, NAMEF(s->args[positional].name));
        else
            report(c, "alias-return-write-unbound", s->rets[j].span,
                   "annotate the argument it returns with the same (x!)",
                   "written return %u is in a set no argument writes", j);
    }
    /* post-self positional written arguments are not returned */
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (a->kwarg_only || (c->self_ix >= 0 && (int)i <= c->self_ix)) continue;
        const ta_alias *aa = c->arg_ann[i];
        if (!aa || !aa->write) continue;
        for (uint32_t j = 0; j < s->nrets; j++)
            if (ta_rule_same_annotation(c->ret_ann[j], aa)) {
                report(c, "alias-positional-mutable-returned", s->rets[j].span,
                       "return nothing for it (the caller already holds it)",
                       "written positional argument '%.*s' is also returned", NAMEF(a->name));
                break;
            }
    }
}

/* ---- one set, one access mode -------------------------------------------- */

typedef struct set_use {
    int n, nwritten, nread;
    int first_read, first_written; /* slot numbers (inputs then outputs) */
    bool read_in_input, written_in_input, read_in_return;
    bool arrow;
    ta_span read_span, written_span;
} set_use;

static void note_set_uses(rc *c, const ta_type *t, uint32_t slot, bool input, set_use *u,
                          uint64_t *seen)
{
    if (!t) return;
    const ta_alias *a = t->alias;
    if (a) {
        for (uint32_t i = 0; i < a->nbefore; i++) {
            int k = ta_alias_set_index(c->q, a->before[i]);
            if (k < 0) continue;
            set_use *x = &u[k];
            if (!(*seen >> k & 1)) x->n++;
            *seen |= (uint64_t)1 << k;
            if (a->has_arrow) x->arrow = true;
            if (a->write) {
                if (!x->nwritten++) { x->first_written = (int)slot; x->written_span = a->span; }
                if (input) x->written_in_input = true;
            } else {
                if (!x->nread++) { x->first_read = (int)slot; x->read_span = a->span; }
                if (input) x->read_in_input = true;
                else x->read_in_return = true;
            }
        }
        for (uint32_t i = 0; i < a->nafter; i++) {
            int k = ta_alias_set_index(c->q, a->after[i]);
            if (k < 0) continue;
            if (!(*seen >> k & 1)) u[k].n++;
            *seen |= (uint64_t)1 << k;
        }
    }
    for (uint32_t i = 0; i < t->nelems; i++) note_set_uses(c, t->elems[i], slot, input, u, seen);
}

static void rule_sets(rc *c)
{
    const ta_schema *s = c->s;
    set_use u[TA_MAX_SETS];
    memset(u, 0, c->q->nsets * sizeof *u); /* note_set_uses touches no other */
    for (uint32_t i = 0; i < s->nargs + s->nrets; i++) {
        bool input = i < s->nargs;
        uint64_t seen = 0;
        if (input ? c->arg_ann[i] : c->ret_ann[i - s->nargs]) /* else no set is used */
            note_set_uses(c, input ? s->args[i].type : s->rets[i - s->nargs].type, i, input, u,
                          &seen);
    }
    for (uint32_t k = 0; k < c->q->nsets; k++) {
        set_use *x = &u[k];
        ta_str name = c->q->sets[k];
        if (x->nwritten && x->nread) {
            if (x->written_in_input && !x->read_in_input && x->read_in_return)
                report(c, "alias-view-of-written", x->read_span,
                       "annotate the return (x!) if it is the written tensor",
                       "returns a read-only view in set '%.*s', which the operator writes",
                       NAMEF(name));
            else
                report(c, "alias-write-inconsistent", x->read_span, "write it everywhere (x!) or nowhere",
                       "alias set '%.*s' is written in one place and read-only here", NAMEF(name));
        }
        if (x->n == 1 && !x->nwritten && !x->arrow)
            report(c, "alias-set-once", x->read_span,
                   "drop the annotation, or annotate the slot it aliases with the same set",
                   "alias set '%.*s' appears only once, so it aliases nothing", NAMEF(name));
    }
}

/* ---- kinds ----------------------------------------------------------------- */

static void rule_kinds(rc *c)
{
    const ta_schema *s = c->s;
    bool any_write = false, self_written = false;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (written_ann(c->arg_ann[i])) {
            any_write = true;
            if ((int)i == c->self_ix) self_written = true;
        }
    /* "functional" in an overload name marks torchgen's functional variant */
    const char *ov = s->overload.ptr;
    bool functional_ov = false;
    for (uint32_t i = 0; i + 10 <= s->overload.len; i++)
        if (!memcmp(ov + i, "functional", 10)) functional_ov = true;
    if (functional_ov && any_write)
        report(c, "alias-functional-overload", s->name_span, "rename the overload",
               "overload '%.*s' says functional but the operator writes an argument",
               NAMEF(s->overload));
    /* torchgen's kind(): an operator is inplace or out=, never both */
    if (ta_rule_is_inplace_name(s->name))
        for (uint32_t i = 0; i < s->nargs; i++)
            if (s->args[i].kwarg_only && written_ann(c->arg_ann[i])) {
                report(c, "alias-inplace-out", s->args[i].span,
                       "drop the trailing '_' for an out= variant, or the out= argument",
                       "inplace operator '%.*s' has a written keyword argument '%.*s' (an out= "
                       "argument); torchgen asserts an operator is not both", NAMEF(s->name),
                       NAMEF(s->args[i].name));
                break;
            }
    /* torchgen asserts that only functional operators (factories) take them */
    int to = any_write ? ta_schema_tensor_options_at(s) : -1;
    if (to >= 0)
        report(c, "alias-tensor-options-kind", s->args[to].span,
               "drop dtype, layout, device and pin_memory, or make the operator functional",
               "'%.*s' writes an argument but takes tensor options (dtype, layout, device, "
               "pin_memory), which torchgen allows on functional operators only",
               NAMEF(s->name));
    /* a mutable (not inplace, not out=) operator returning the self it writes */
    bool out_fn = false;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (s->args[i].kwarg_only && written_ann(c->arg_ann[i])) out_fn = true;
    if (self_written && !out_fn && !ta_rule_is_inplace_name(s->name)) {
        const ta_alias *sa = c->arg_ann[c->self_ix];
        for (uint32_t j = 0; j < s->nrets; j++)
            if (ta_rule_same_annotation(c->ret_ann[j], sa)) {
                report(c, "alias-mutable-returns-self", s->rets[j].span,
                       "name it with a trailing '_' if it is the inplace variant",
                       "'%.*s' writes self and returns it like an inplace operator, but its name has no trailing '_'",
                       NAMEF(s->name));
                break;
            }
    }
}

ta_status ta_alias_rules_schema(const ta_schema *s, const ta_alias_query *q, ta_rule_sink *k)
{
    rc c = {s, q, k, TA_OK, -1, NULL, NULL};
    const ta_alias *small[64], **ann = small;
    size_t n = (size_t)s->nargs + s->nrets;
    if (n > sizeof small / sizeof small[0] && !(ann = ta_malloc(n * sizeof *ann))) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < s->nargs; i++) ann[i] = ta_rule_first_annotation(s->args[i].type);
    for (uint32_t j = 0; j < s->nrets; j++) ann[s->nargs + j] = ta_rule_first_annotation(s->rets[j].type);
    c.arg_ann = ann;
    c.ret_ann = ann + s->nargs;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (!s->args[i].kwarg_only && TA_STR_IS(s->args[i].name, "self")) {
            c.self_ix = (int)i;
            break;
        }
    rule_annotation_form(&c);
    rule_out_args(&c);
    rule_inplace(&c);
    rule_returns(&c);
    rule_sets(&c);
    rule_kinds(&c);
    if (ann != small) free(ann);
    return c.st;
}
