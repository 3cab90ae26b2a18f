/* rules_custom.c - the rules for custom-operator schemas (ids custom-*).
 *
 * native_functions.yaml follows torchgen's conventions and its rules
 * (rules_schema.c) check them; custom operators, declared in C++ and Python
 * sources, follow few: "-> ()" with written arguments is their usual shape
 * and out= arguments may sit anywhere. What goes wrong there is a write the
 * schema does not declare: a kernel that fills an "out" or a KV cache
 * passed without "!", an inplace-named operator with no "!" at all, a "!"
 * on an int. These rules look for exactly that, judging by names where the
 * schema alone cannot tell (rules_custom_names.c), and keep quiet where a
 * name is ambiguous: precision on real libraries decides what is an error,
 * what a warning and what is left alone. Each finding points at the
 * narrowest span and carries a fix-it hint.
 *
 * Entry points: one bare schema (positions through ta_schema_locate), or
 * every operator extracted from sources (positions in the source files,
 * through ta_extract_locate). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alias/rules_custom_internal.h"
#include "base/strbuf.h"
#include "alias/rules_internal.h"

#define R_DEST "custom-dest-not-written"
#define R_DEST_MAYBE "custom-dest-maybe-not-written"
#define R_OPT_DEST "custom-optional-dest-not-written"
#define R_OPT_OUT "custom-optional-out-not-written"
#define R_CACHE "custom-cache-not-written"
#define R_VOID "custom-void-no-write"
#define R_NAME "custom-mutating-name"
#define R_BANG "custom-write-non-tensor"
#define R_DUP "custom-duplicate-arg"
#define R_SET_ONCE "custom-set-once"
#define R_UNBOUND "custom-return-write-unbound"
#define R_KW_RET "custom-out-not-returned"

static const ta_rule_info rules[] = {
    {R_DEST, TA_SEV_ERROR,
     "a Tensor named like a destination (out, output, dst, result, x_out) is not annotated as written"},
    {R_OPT_DEST, TA_SEV_ERROR,
     "a Tensor? named like a destination is not annotated as written in an operator that writes its outputs"},
    {R_OPT_OUT, TA_SEV_ERROR,
     "a Tensor? named like an out= argument (out, output, x_out) is not annotated as written in an operator that returns a tensor"},
    {R_CACHE, TA_SEV_ERROR,
     "a cache tensor (key_cache, kv_cache, cache_K) is not annotated as written in an operator named for storing into it that declares no other write"},
    {R_NAME, TA_SEV_ERROR,
     "an operator named like a mutation (trailing '_', inplace) or taking an inplace flag declares no write"},
    {R_BANG, TA_SEV_ERROR, "a '!' on a type that cannot be written through (int, float, bool, ...)"},
    {R_DUP, TA_SEV_ERROR, "two arguments share a name"},
    {R_UNBOUND, TA_SEV_ERROR, "a written return is in an alias set no argument writes"},
    {R_DEST_MAYBE, TA_SEV_WARNING,
     "a tensor that looks like a destination (x_out, out_tokens, output_q) is not annotated as written where the operator's results can only be written arguments"},
    {R_VOID, TA_SEV_WARNING,
     "an operator that returns nothing declares no write: it acts only through side effects"},
    {R_SET_ONCE, TA_SEV_WARNING, "a read-only alias set appears on one slot only, so it aliases nothing"},
    {R_KW_RET, TA_SEV_WARNING,
     "a written keyword-only argument is not returned by an operator that returns other values"},
};

const ta_rule_info *ta_alias_custom_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

static const ta_rule_info *rule(const char *id)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].id, id)) return &rules[i];
    return NULL;
}

/* ---- one schema ------------------------------------------------------------ */

typedef struct cc {
    const ta_schema *s;
    const ta_alias_query *q;
    ta_rule_sink *k;
    ta_status st;
    bool any_write;   /* some argument is written */
    bool reported;    /* a write finding was made for this operator */
    bool inferred;    /* the schema comes from a custom_op's type hints */
} cc;

#define NAMEF(x) (int)(x).len, (x).ptr

static void report(cc *c, const char *id, ta_span sp, const char *hint, const char *fmt, ...)
    TA_PRINTF(5, 6);
static void report(cc *c, const char *id, ta_span sp, const char *hint, const char *fmt, ...)
{
    if (c->st != TA_OK) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->st = c->k->emit(c->k, rule(id), sp.off, sp.len ? sp.len : 1, hint, msg);
}

static bool arg_written(const ta_arg *a)
{
    ta_alias_view v;
    ta_type_alias_view(a->type, &v);
    return v.write;
}

static bool annotated(const ta_type *t) { return ta_rule_first_annotation(t) != NULL; }

/* ---- '!' where nothing can be written ----------------------------------------- */

static bool scalar_type(const ta_type *t)
{
    static const char *const names[] = {"int", "SymInt", "float", "SymFloat", "bool", "SymBool",
                                        "str", "Scalar", "ScalarType", "Layout", "Device",
                                        "MemoryFormat", "complex", "Dimname", "DeviceIndex", NULL};
    if (t->kind != TA_TYPE_NAME) return false;
    for (const char *const *n = names; *n; n++)
        if (ta_str_eq(t->name, *n)) return true;
    return false;
}

/* A written annotation on a scalar type at any depth of t (int!?). */
static const ta_type *written_scalar(const ta_type *t)
{
    if (!t) return NULL;
    if (t->alias && t->alias->write) {
        const ta_type *in = t->kind == TA_TYPE_OPTIONAL ? t->elems[0] : t;
        if (scalar_type(in)) return t;
    }
    for (uint32_t i = 0; i < t->nelems; i++) {
        const ta_type *w = written_scalar(t->elems[i]);
        if (w) return w;
    }
    return NULL;
}

static void rule_write_non_tensor(cc *c)
{
    for (uint32_t i = 0; i < c->s->nargs; i++) {
        const ta_arg *a = &c->s->args[i];
        const ta_type *w = written_scalar(a->type);
        if (!w) continue;
        char plain[64];
        ta_type_print_plain(w, plain, sizeof plain);
        report(c, R_BANG, w->alias->span, "drop the '!': the value is passed by value and a write cannot reach the caller",
               "'%s' argument '%.*s' is annotated as written, but only tensors can be written through an alias annotation",
               plain, NAMEF(a->name));
    }
}

/* ---- names ------------------------------------------------------------------- */

static void rule_duplicate_args(cc *c)
{
    const ta_schema *s = c->s;
    for (uint32_t i = 1; i < s->nargs; i++)
        for (uint32_t j = 0; j < i; j++)
            if (s->args[i].name.len && ta_str_eq_str(s->args[i].name, s->args[j].name)) {
                report(c, R_DUP, s->args[i].span, "rename one of them",
                       "argument %u is named '%.*s' like argument %u; a call by keyword cannot tell them apart",
                       i + 1, NAMEF(s->args[i].name), j + 1);
                break;
            }
}

static bool has_tensor_arg(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (ta_type_is_tensor_like(s->args[i].type)) return true;
    return false;
}

/* ---- destinations ------------------------------------------------------------- */

static bool optional_tensor(const ta_type *t)
{
    return t->kind == TA_TYPE_OPTIONAL && t->elems[0]->kind == TA_TYPE_NAME &&
           ta_str_eq(t->elems[0]->name, "Tensor");
}

/* What a write annotation would look like for this argument, for hints
 * (its default kept: "Tensor(a!)? out=None"). */
static void annotated_spelling(const ta_arg *a, char *buf, size_t cap)
{
    const char *type = optional_tensor(a->type) ? "Tensor(a!)?"
                       : a->type->kind == TA_TYPE_LIST ? "Tensor(a!)[]"
                                                        : "Tensor(a!)";
    snprintf(buf, cap, "%s %.*s%s%.*s", type, NAMEF(a->name), a->def.text.len ? "=" : "",
             NAMEF(a->def.text));
}

/* "-> ()" or "-> None": nothing comes back. */
static bool returns_nothing(const ta_schema *s)
{
    if (s->varret) return false;
    if (s->nrets == 0) return true;
    const ta_type *t = s->rets[0].type;
    return s->nrets == 1 && t->kind == TA_TYPE_NAME &&
           (ta_str_eq(t->name, "None") || ta_str_eq(t->name, "NoneType"));
}

/* The fix for an undeclared write of a: an annotation in a written
 * schema, an entry of mutates_args for a custom_op's inferred one. */
static void write_hint(const cc *c, bool sure, const ta_arg *a, char *buf, size_t cap)
{
    if (c->inferred) {
        snprintf(buf, cap, "name %s in the custom_op's mutates_args, e.g. mutates_args=(\"%.*s\",)",
                 sure ? "it" : "the tensor it writes", NAMEF(a->name));
        return;
    }
    char spelled[128];
    annotated_spelling(a, spelled, sizeof spelled);
    snprintf(buf, cap, sure ? "annotate it as written: %s" : "annotate the tensor it writes, e.g. %s",
             spelled);
}

/* Some return is a tensor (Tensor, Tensor?, Tensor[]), as an out=
 * operator returns its out argument. */
static bool returns_tensor(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nrets; i++)
        if (ta_type_is_tensor_like(s->rets[i].type)) return true;
    return false;
}

/* The first argument naming a position to store at, or NULL. */
static const ta_arg *position_arg(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (ta_type_is_tensor_like(s->args[i].type) && ta_custom_position_name(s->args[i].name))
            return &s->args[i];
    return NULL;
}

static const char *returns_what(const ta_schema *s)
{
    return returns_nothing(s) ? "returns nothing" : "returns other values";
}

/* A backward: some argument is a gradient (grad_out, d_out). */
static bool backward_args(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (ta_custom_gradient_name(s->args[i].name)) return true;
    return false;
}

/* An optional tensor named like a destination: the out= pattern, written
 * when the caller passes it. Reports and says so, or says it is as likely
 * an optional input. */
static bool optional_destination(cc *c, const ta_arg *a, ta_dest_kind dk, bool backward,
                                 const char *hint)
{
    const ta_schema *s = c->s;
    if (c->any_write) {
        if (dk == TA_DEST_NONE) return false;
        report(c, dk == TA_DEST_CERTAIN ? R_OPT_DEST : R_DEST_MAYBE, a->span, hint,
               "optional tensor '%.*s' is named like a destination and the operator writes its other outputs, but '%.*s' is not annotated as written",
               NAMEF(a->name), NAMEF(a->name));
        return true;
    }
    /* torch.abs(x, out=y): y is written and returned. An operator named
     * "_grad" may be a grouped GEMM of gradients; only a gradient
     * argument makes "out" the forward output a backward reads. */
    if (backward || !returns_tensor(s) || !ta_custom_out_convention_name(a->name)) return false;
    report(c, R_OPT_OUT, a->span, hint,
           "optional tensor '%.*s' follows the out= convention of an operator that returns a tensor, but is not annotated as written: when a caller passes it, the kernel writes it",
           NAMEF(a->name));
    return true;
}

/* A cache the operator's name says it stores into. */
static bool cache_destination(cc *c, const ta_arg *a, const char *hint)
{
    const ta_schema *s = c->s;
    /* (an operator that declares another write stores into that one) */
    if (c->any_write || !ta_custom_cache_name(a->name)) return false;
    const ta_arg *pos;
    if (ta_custom_stores_op(s->name))
        report(c, R_CACHE, a->span, hint,
               "operator '%.*s' stores into caches by its name, but cache '%.*s' is not annotated as written",
               NAMEF(s->name), NAMEF(a->name));
    else if (ta_custom_transforms_op(s->name) && (pos = position_arg(s)) != NULL)
        /* quantize or rope new keys and values at positions: attention
         * kernels read caches too, but take no verb of storing */
        report(c, R_CACHE, a->span, hint,
               "operator '%.*s' transforms values by its name and takes the positions to store them at ('%.*s'), but cache '%.*s' is not annotated as written",
               NAMEF(s->name), NAMEF(pos->name), NAMEF(a->name));
    else
        return false;
    return true;
}

/* One unannotated tensor argument named like where results go. */
static void destination(cc *c, const ta_arg *a, bool backward, bool silent)
{
    const ta_schema *s = c->s;
    ta_dest_kind dk = ta_custom_dest_name(a->name, s->name);
    if (backward && dk != TA_DEST_NONE && ta_custom_out_name(a->name)) return; /* the forward output */
    char hint[192];
    write_hint(c, true, a, hint, sizeof hint);
    if (optional_tensor(a->type) && (dk != TA_DEST_NONE || ta_custom_out_convention_name(a->name))) {
        if (!optional_destination(c, a, dk, backward, hint)) return;
    } else if (dk == TA_DEST_CERTAIN) {
        report(c, R_DEST, a->span, hint,
               "'%.*s' is named like a destination, but the operator (which %s) does not declare it written",
               NAMEF(a->name), returns_what(s));
    } else if (dk == TA_DEST_LIKELY && silent) {
        report(c, R_DEST_MAYBE, a->span, hint,
               "'%.*s' looks like a destination, and the operator returns nothing and declares no write",
               NAMEF(a->name));
    } else if (!cache_destination(c, a, hint)) {
        return;
    }
    c->reported = true;
}

static void rule_destinations(cc *c)
{
    const ta_schema *s = c->s;
    bool backward = backward_args(s);
    bool silent = returns_nothing(s) && !c->any_write; /* results can only be written */
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (ta_type_is_tensor_like(a->type) && !annotated(a->type)) destination(c, a, backward, silent);
    }
}

/* A name that promises a mutation (a trailing '_', "inplace", a bool
 * "inplace" flag) and no write declared. */
static void rule_mutating_name(cc *c)
{
    const ta_schema *s = c->s;
    if (c->any_write || c->reported || !has_tensor_arg(s)) return;
    const ta_arg *first = NULL, *flag = NULL;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (!first && ta_type_is_tensor_like(a->type)) first = a;
        if (!flag && ta_type_is_name(a->type, "bool") && ta_custom_inplace_flag(a->name)) flag = a;
    }
    char hint[192];
    write_hint(c, false, first, hint, sizeof hint);
    const char *why = ta_custom_mutating_name(s->name);
    if (why)
        report(c, R_NAME, s->name_span, hint,
               "operator '%.*s' is named like a mutation (%s) but declares no write, so callers and torch.compile assume its inputs unchanged",
               NAMEF(s->name), why);
    else if (flag)
        report(c, R_NAME, flag->span, hint,
               "operator '%.*s' takes an '%.*s' flag but declares no write: when it is set, the write is invisible to callers and torch.compile",
               NAMEF(s->name), NAMEF(flag->name));
    else
        return;
    c->reported = true;
}

/* Nothing returned and no "!": the operator can only act through side
 * effects or by writing a tensor it does not declare. */
static void rule_void(cc *c)
{
    const ta_schema *s = c->s;
    if (!returns_nothing(s) || c->any_write || c->reported || !has_tensor_arg(s) ||
        ta_custom_side_effect_op(s->name))
        return;
    /* the candidates: tensors not named like inputs first, in order */
    char list[256];
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, list, sizeof list);
    uint32_t shown = 0, total = 0;
    const ta_arg *first = NULL;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < s->nargs; i++) {
            const ta_arg *a = &s->args[i];
            if (!ta_type_is_tensor_like(a->type) || ta_custom_input_name(a->name) != (pass == 1))
                continue;
            total++;
            if (!first) first = a;
            if (shown < 4) ta_strbuf_printf(&o, "%s'%.*s'", shown++ ? ", " : "", NAMEF(a->name));
        }
    if (total > shown) ta_strbuf_puts(&o, ", ...");
    char hint[192];
    write_hint(c, false, first, hint, sizeof hint);
    report(c, R_VOID, s->rets_span, hint,
           "operator '%.*s' returns nothing and declares no write: unless it acts only through side effects, it writes one of %s undeclared",
           NAMEF(s->name), list);
}

/* ---- alias sets ----------------------------------------------------------------- */

/* The span of the first annotation naming set k in t. */
static bool set_span(const ta_alias_query *q, const ta_type *t, int k, ta_span *sp)
{
    if (!t) return false;
    const ta_alias *a = t->alias;
    for (uint32_t i = 0; a && i < a->nbefore + a->nafter; i++) {
        ta_str n = i < a->nbefore ? a->before[i] : a->after[i - a->nbefore];
        if (ta_alias_set_index(q, n) == k) {
            *sp = a->span;
            return true;
        }
    }
    for (uint32_t i = 0; i < t->nelems; i++)
        if (set_span(q, t->elems[i], k, sp)) return true;
    return false;
}

static void rule_sets(cc *c)
{
    const ta_schema *s = c->s;
    const ta_alias_query *q = c->q;
    uint32_t nslots = s->nargs + s->nrets;
    for (uint32_t k = 0; k < q->nsets; k++) {
        uint64_t bit = (uint64_t)1 << k;
        uint32_t uses = 0, first = 0;
        bool written = false, written_in_arg = false;
        for (uint32_t i = 0; i < nslots; i++) {
            const ta_slot_facts *f = &q->slot[i];
            if ((f->decl_before | f->decl_after) & bit) {
                if (!uses++) first = i;
            }
            if (f->decl_written & bit) {
                written = true;
                if (i < s->nargs) written_in_arg = true;
            }
        }
        const ta_type *t = first < s->nargs ? s->args[first].type : s->rets[first - s->nargs].type;
        ta_span sp = first < s->nargs ? s->args[first].span : s->rets[first - s->nargs].span;
        set_span(q, t, (int)k, &sp);
        /* (labels on the arguments of an operator that returns no tensor
         * leave no alias missing: nothing could share their memory) */
        if (uses == 1 && !written && (first >= s->nargs || returns_tensor(s)))
            report(c, R_SET_ONCE, sp, "drop the annotation, or give the slot it aliases the same set",
                   "alias set '%.*s' appears only here, so it aliases nothing", NAMEF(q->sets[k]));
        if (written && !written_in_arg)
            report(c, R_UNBOUND, sp, "annotate the argument it returns with the same (x!)",
                   "a return is written through set '%.*s', but no argument is in it", NAMEF(q->sets[k]));
    }
}

/* *, Tensor(a!) out while the operator returns other values. */
static void rule_out_returned(cc *c)
{
    const ta_schema *s = c->s;
    if (!s->nrets) return;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (!a->kwarg_only || !arg_written(a)) continue;
        uint32_t in = i;
        bool returned = false;
        for (uint32_t j = 0; j < s->nrets && !returned; j++)
            returned = ta_alias_query_output_aliases_input(c->q, j, in);
        if (!returned)
            report(c, R_KW_RET, a->span, "return it in its set (-> Tensor(a!)), or return nothing",
                   "keyword-only '%.*s' is written like an out= argument, but the operator returns other values instead of it",
                   NAMEF(a->name));
    }
}

static ta_status check(const ta_schema *s, ta_rule_sink *k, bool inferred)
{
    ta_alias_query *q = NULL;
    ta_status st = ta_alias_query_create(s, &q, k->diags);
    if (st == TA_ERR_UNSUPPORTED) return TA_OK; /* reported as alias-limits */
    if (st != TA_OK) return st;
    cc c = {s, q, k, TA_OK, false, false, inferred};
    for (uint32_t i = 0; i < s->nargs; i++)
        if (arg_written(&s->args[i])) c.any_write = true;
    rule_write_non_tensor(&c);
    rule_duplicate_args(&c);
    rule_destinations(&c);
    rule_mutating_name(&c);
    rule_void(&c);
    rule_sets(&c);
    rule_out_returned(&c);
    ta_alias_query_destroy(q);
    return c.st;
}

/* ---- where findings go ------------------------------------------------------------ */

ta_status ta_alias_check_custom(const ta_schema *s, ta_diags *diags)
{
    ta_rule_sink k = {ta_rule_schema_emit, s, diags, NULL};
    return check(s, &k, false);
}

typedef struct xsink {
    const ta_extract *x;
    size_t index;
} xsink;

/* An extracted operator: the position in its source file. */
static ta_status extract_emit(ta_rule_sink *k, const ta_rule_info *r, uint32_t off, uint32_t len,
                              const char *hint, const char *msg)
{
    const xsink *xs = k->ctx;
    ta_loc loc;
    if (!ta_extract_locate(xs->x, xs->index, off, len, &loc)) return TA_ERR_INVALID;
    ta_status st = ta_diag_emit(k->diags, r->severity, &loc, r->id, "%s", msg);
    if (st == TA_OK && hint) st = ta_diag_hint(k->diags, "%s", hint);
    /* the operator's full name, as verify --torch-library reports it */
    char op[512];
    if (st == TA_OK && ta_schema_op_name(k->s, op, sizeof op) < sizeof op)
        st = ta_diag_operator(k->diags, op);
    return st;
}

ta_status ta_alias_check_extracted(const ta_extract *x, ta_diags *diags)
{
    for (size_t i = 0; i < ta_extract_count(x); i++) {
        const ta_extract_op *p = ta_extract_get(x, i);
        if (!p->parsed) continue;
        xsink xs = {x, i};
        ta_rule_sink k = {extract_emit, p->parsed, diags, &xs};
        ta_status st = check(p->parsed, &k, p->inferred);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}
