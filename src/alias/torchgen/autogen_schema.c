/* autogen_schema.c - the schemas torchgen derives for `autogen:` (its
 * generate_function and the *_to_out_signature helpers of
 * native_function_generation.py), built in an arena:
 *
 *   functional from inplace/mutable:  signature(keep_return_names), renamed
 *       to the base name (+ "_functional" for a mutable base), same overload;
 *   out= from inplace:   self loses its annotation, "out" takes self's type
 *       and annotation, the returns stay;
 *   out= from mutable:   the arguments stay (still written), every
 *       tensor-like return becomes an out argument;
 *   out= from functional: signature() arguments plus the new out arguments.
 *
 * New out arguments are named "out" (one return) or "out<i>" (i the return's
 * position), written through the i-th letter not used by any argument; they
 * are returned only when every return is a plain Tensor. */
#include <string.h>

#include "base/arena.h"
#include "alias/torchgen/autogen_internal.h"

bool tg_type_is_tensor_like(const ta_type *t)
{
    while ((t->kind == TA_TYPE_OPTIONAL || t->kind == TA_TYPE_LIST) && t->nelems == 1)
        t = t->elems[0];
    return t->kind == TA_TYPE_NAME && TA_STR_IS(t->name, "Tensor");
}

static bool type_is_plain_tensor(const ta_type *t)
{
    return t->kind == TA_TYPE_NAME && TA_STR_IS(t->name, "Tensor");
}

bool tg_has_tensor_like_return(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nrets; i++)
        if (tg_type_is_tensor_like(s->rets[i].type)) return true;
    return false;
}

/* "out" for no overload, "<overload>_out" otherwise. */
static void out_overload(ta_strbuf *b, const ta_schema *s)
{
    if (s->overload.len) {
        ta_strbuf_str(b, s->overload);
        ta_strbuf_puts(b, "_out");
    } else {
        ta_strbuf_puts(b, "out");
    }
}

/* The operator name without inplace or functional suffix, dunder kept. */
static void plain_name(ta_strbuf *b, const ta_schema *s, bool functional_suffix)
{
    tg_opname op = tg_opname_parse(s->name);
    if (op.dunder) ta_strbuf_puts(b, "__");
    ta_strbuf_str(b, op.base);
    if (op.dunder) ta_strbuf_puts(b, "__");
    else if (functional_suffix) ta_strbuf_puts(b, "_functional");
}

static bool set_names(ta_arena *a, ta_schema *d, const ta_schema *base, bool functional_suffix,
                      bool out)
{
    ta_strbuf name, ov;
    ta_strbuf_init(&name);
    ta_strbuf_init(&ov);
    plain_name(&name, base, functional_suffix);
    if (out) out_overload(&ov, base);
    else ta_strbuf_str(&ov, base->overload);
    bool ok = !name.failed && !ov.failed &&
              tg_schema_set_name(a, d, base->ns, name.p ? name.p : "", ov.p ? ov.p : "");
    ta_strbuf_free(&name);
    ta_strbuf_free(&ov);
    return ok;
}

static ta_alias *fresh_alias(ta_arena *a, char letter)
{
    ta_alias *al = ta_arena_zalloc(a, sizeof *al);
    ta_str *set = ta_arena_zalloc(a, sizeof *set);
    if (!al || !set) return NULL;
    *set = tg_arena_str(a, &letter, 1);
    if (!set->ptr) return NULL;
    al->before = al->after = set;
    al->nbefore = al->nafter = 1;
    al->write = true;
    return al;
}

/* Sets d's shape fields, and its text unless !text. */
static bool finish(ta_arena *a, ta_schema *d, bool text)
{
    if (text) return tg_schema_finish(a, d);
    tg_schema_finish_shape(d);
    return true;
}

ta_status tg_derive_functional(ta_arena *a, const ta_schema *base, ta_schema_kind bk, bool text,
                               ta_schema **out)
{
    ta_schema *d;
    ta_status st = tg_signature_build(a, base, TA_SIG_KEEP_RETURN_NAMES, 0, true, &d);
    if (st != TA_OK) return st;
    bool mutable_base = bk == TA_KIND_MUTABLE;
    if (!set_names(a, d, base, mutable_base, false) || !finish(a, d, text)) return TA_ERR_NOMEM;
    *out = d;
    return TA_OK;
}

/* generate_out_args_from_schema: appends the new out arguments to d (whose
 * args array has room) and sets d's returns; ret_origin[i] is the base
 * return each new return comes from, out_origin[k] the base return each new
 * out argument comes from. */
static ta_status add_out_args(ta_arena *a, const ta_schema *base, ta_schema *d,
                              uint32_t *ret_origin, uint32_t *out_origin, uint32_t *nouts)
{
    bool used[26] = {false};
    for (uint32_t i = 0; i < base->nargs; i++) {
        const ta_alias *al = tg_annotation(base->args[i].type);
        if (!al) continue;
        for (uint32_t k = 0; k < al->nbefore; k++)
            if (al->before[k].len == 1 && al->before[k].ptr[0] >= 'a' &&
                al->before[k].ptr[0] <= 'z')
                used[al->before[k].ptr[0] - 'a'] = true;
    }
    char valid[26];
    uint32_t nvalid = 0;
    for (int c = 0; c < 26; c++)
        if (!used[c]) valid[nvalid++] = (char)('a' + c);

    bool all_plain = true;
    for (uint32_t i = 0; i < base->nrets; i++)
        if (!type_is_plain_tensor(base->rets[i].type)) all_plain = false;

    d->rets = ta_arena_zalloc(a, (base->nrets + 1) * sizeof *d->rets);
    if (!d->rets) return TA_ERR_NOMEM;
    d->nrets = 0;
    *nouts = 0;
    for (uint32_t i = 0; i < base->nrets; i++) {
        const ta_ret *r = &base->rets[i];
        if (!tg_type_is_tensor_like(r->type)) {
            ret_origin[d->nrets] = i;
            d->rets[d->nrets++] = *r;
            continue;
        }
        if (i >= nvalid) return TA_ERR_UNSUPPORTED; /* out of letters */
        ta_alias *al = fresh_alias(a, valid[i]);
        if (!al) return TA_ERR_NOMEM;
        ta_arg *o = &d->args[d->nargs++];
        memset(o, 0, sizeof *o);
        /* "out", or "out<i>" (written by hand: snprintf costs more than
         * the rest of the argument) */
        char nm[16] = "out";
        size_t nl = 3;
        if (base->nrets != 1) {
            char digits[12];
            size_t nd = 0;
            for (uint32_t v = i; nd == 0 || v; v /= 10) digits[nd++] = (char)('0' + v % 10);
            while (nd) nm[nl++] = digits[--nd];
        }
        o->name = tg_arena_str(a, nm, nl);
        o->type = tg_type_annotate(a, r->type, al);
        o->kwarg_only = true;
        o->is_out = true;
        if (!o->name.ptr || !o->type) return TA_ERR_NOMEM;
        out_origin[(*nouts)++] = i;
        if (all_plain) { /* returned as the out argument it is, type and all */
            ta_ret *nr = &d->rets[d->nrets];
            memset(nr, 0, sizeof *nr);
            nr->type = o->type;
            ret_origin[d->nrets++] = i;
        }
    }
    return TA_OK;
}

ta_status tg_derive_out(ta_arena *a, const ta_schema *base, ta_schema_kind bk, bool text,
                        ta_schema **out, uint32_t *ret_origin, uint32_t *out_origin,
                        uint32_t *nouts)
{
    tg_args sp = {.self = -1};
    /* only an inplace base needs its self found */
    if (bk == TA_KIND_INPLACE) tg_args_split(base, &sp);
    ta_schema *d = NULL;
    ta_status st;
    *nouts = 0;
    if (bk == TA_KIND_FUNCTIONAL) {
        /* the signature's arguments (no annotations, no TensorOptions) with
         * room for the out arguments; add_out_args makes the returns */
        if ((st = tg_signature_build(a, base, 0, base->nrets, false, &d)) != TA_OK) return st;
        /* Arguments.signature() keeps defaults as written: undo the
         * bernoulli.p default that FunctionSchema.signature() adds (the
         * only default it changes; every other is copied as written) */
        if (TA_STR_IS(base->name, "bernoulli") && TA_STR_IS(base->overload, "p"))
            for (uint32_t i = 0; i < d->nargs; i++)
                if (TA_STR_IS(d->args[i].name, "p"))
                    for (uint32_t j = 0; j < base->nargs; j++)
                        if (TA_STR_IS(base->args[j].name, "p")) d->args[i].def = base->args[j].def;
        if ((st = add_out_args(a, base, d, ret_origin, out_origin, nouts)) != TA_OK) return st;
    } else if (bk == TA_KIND_MUTABLE) {
        if (!(d = ta_arena_zalloc(a, sizeof *d))) return TA_ERR_NOMEM;
        d->args = ta_arena_zalloc(a, (base->nargs + base->nrets + 1) * sizeof *d->args);
        if (!d->args) return TA_ERR_NOMEM;
        if (base->nargs) memcpy(d->args, base->args, base->nargs * sizeof *d->args);
        d->nargs = base->nargs;
        if ((st = add_out_args(a, base, d, ret_origin, out_origin, nouts)) != TA_OK) return st;
    } else if (bk == TA_KIND_INPLACE && sp.self >= 0) {
        if (!(d = ta_arena_zalloc(a, sizeof *d))) return TA_ERR_NOMEM;
        d->args = ta_arena_zalloc(a, (base->nargs + 1) * sizeof *d->args);
        if (!d->args) return TA_ERR_NOMEM;
        if (base->nargs) memcpy(d->args, base->args, base->nargs * sizeof *d->args);
        d->nargs = base->nargs;
        const ta_arg *self = &base->args[sp.self];
        if (!(d->args[sp.self].type = tg_type_strip(a, self->type))) return TA_ERR_NOMEM;
        ta_arg *o = &d->args[d->nargs++];
        memset(o, 0, sizeof *o);
        o->name = tg_arena_str(a, "out", 3);
        o->type = (ta_type *)self->type; /* self's type with its annotation */
        o->kwarg_only = true;
        o->is_out = true;
        if (!o->name.ptr) return TA_ERR_NOMEM;
        d->rets = base->rets;
        d->nrets = base->nrets;
        for (uint32_t i = 0; i < d->nrets; i++) ret_origin[i] = i;
        out_origin[0] = 0;
        *nouts = 1;
    } else {
        return TA_ERR_UNSUPPORTED;
    }
    d->source = base->source;
    d->base_line = base->base_line;
    d->base_col = base->base_col;
    if (!set_names(a, d, base, false, true) || !finish(a, d, text)) return TA_ERR_NOMEM;
    *out = d;
    return TA_OK;
}
