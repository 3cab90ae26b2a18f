/* signature.c - torchgen's spelling of a schema (FunctionSchema.__str__) and
 * its signature() normalization, plus the helpers that build schemas in an
 * arena (signatures here, derived variants in autogen.c).
 *
 * A built schema fills the model the parser fills (names, args, types,
 * alias annotations, defaults); its `text` is torchgen's spelling of it and
 * its spans are zero, so ta_schema_print_canonical or
 * ta_schema_print_torchgen print it, not ta_schema_print. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "alias/torchgen/internal.h"

/* ---- printing as torchgen does ---------------------------------------- */

static void print_set(ta_strbuf *b, const ta_str *set, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i) ta_strbuf_puts(b, "|");
        ta_strbuf_str(b, set[i]);
    }
}

static void print_alias(ta_strbuf *b, const ta_alias *a)
{
    if (a->bare_write) {
        ta_strbuf_puts(b, "!");
        return;
    }
    ta_strbuf_puts(b, "(");
    print_set(b, a->before, a->nbefore);
    if (a->write) ta_strbuf_puts(b, "!");
    if (a->has_arrow && a->nafter) {
        ta_strbuf_puts(b, " -> ");
        print_set(b, a->after, a->nafter);
    }
    ta_strbuf_puts(b, ")");
}

/* The annotation follows the type it is written on: Tensor(a!)? keeps it on
 * Tensor, t[](a!) on the list, exactly as torchgen and the schema language
 * spell them. Without `annotations` the type prints as signature() strips
 * it (every level). */
/* Whether a type is printed with its alias annotations. */
typedef enum spelling { PLAIN, ANNOTATED } spelling;

static void print_type_as(ta_strbuf *b, const ta_type *t, spelling how)
{
    bool annotations = how == ANNOTATED;
    switch (t->kind) {
    case TA_TYPE_NAME:
        ta_strbuf_str(b, t->name);
        break;
    case TA_TYPE_OPTIONAL:
        print_type_as(b, t->elems[0], how);
        ta_strbuf_put(b, "?", 1);
        break;
    case TA_TYPE_LIST:
        print_type_as(b, t->elems[0], how);
        ta_strbuf_put(b, "[", 1);
        if (t->fixed_size > 0) {
            /* "%d" by hand: this runs for every int[2] of every schema */
            char num[12];
            size_t k = sizeof num;
            for (uint32_t v = (uint32_t)t->fixed_size; v; v /= 10) num[--k] = (char)('0' + v % 10);
            ta_strbuf_put(b, num + k, sizeof num - k);
        }
        ta_strbuf_put(b, "]", 1);
        break;
    case TA_TYPE_TUPLE:
    case TA_TYPE_APPLY:
        if (t->kind == TA_TYPE_APPLY) ta_strbuf_str(b, t->name);
        ta_strbuf_put(b, "(", 1);
        for (uint32_t i = 0; i < t->nelems; i++) {
            if (i) ta_strbuf_put(b, ", ", 2);
            print_type_as(b, t->elems[i], how);
        }
        ta_strbuf_put(b, ")", 1);
        break;
    }
    if (annotations && t->alias) print_alias(b, t->alias);
}

static void print_type(ta_strbuf *b, const ta_type *t) { print_type_as(b, t, ANNOTATED); }

void tg_print_name(ta_strbuf *b, const ta_schema *s)
{
    ta_strbuf_str(b, s->name);
    if (s->overload.len) {
        ta_strbuf_puts(b, ".");
        ta_strbuf_str(b, s->overload);
    }
}

void tg_print_schema(ta_strbuf *b, const ta_schema *s)
{
    tg_print_name(b, s);
    ta_strbuf_puts(b, "(");
    bool star = false;
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        if (i) ta_strbuf_puts(b, ", ");
        if (a->kwarg_only && !star) {
            ta_strbuf_puts(b, "*, ");
            star = true;
        }
        print_type(b, a->type);
        ta_strbuf_puts(b, " ");
        ta_strbuf_str(b, a->name);
        if (a->def.kind != TA_DEFAULT_NONE_GIVEN) {
            ta_strbuf_puts(b, "=");
            ta_strbuf_str(b, a->def.text);
        }
    }
    ta_strbuf_puts(b, ") -> ");
    if (s->nrets != 1) ta_strbuf_puts(b, "(");
    for (uint32_t i = 0; i < s->nrets; i++) {
        if (i) ta_strbuf_puts(b, ", ");
        print_type(b, s->rets[i].type);
        if (s->rets[i].name.len) {
            ta_strbuf_puts(b, " ");
            ta_strbuf_str(b, s->rets[i].name);
        }
    }
    if (s->nrets != 1) ta_strbuf_puts(b, ")");
}

size_t ta_schema_print_torchgen(const ta_schema *s, char *buf, size_t cap)
{
    ta_strbuf b;
    ta_strbuf_init(&b);
    tg_print_schema(&b, s);
    size_t n = b.failed ? 0 : b.len;
    if (cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        if (k) memcpy(buf, b.p, k);
        buf[k] = '\0';
    }
    ta_strbuf_free(&b);
    return n;
}

/* ---- building schemas ------------------------------------------------- */

ta_str tg_arena_str(ta_arena *a, const char *s, size_t n)
{
    ta_str r = {NULL, 0};
    if (n == 0) return r;
    char *p = ta_arena_strndup(a, s, n);
    if (p) {
        r.ptr = p;
        r.len = (uint32_t)n;
    }
    return r;
}

/* A copy of t without any annotation, at any depth. */
static ta_type *copy_type_plain(ta_arena *a, const ta_type *t)
{
    ta_type *n = ta_arena_zalloc(a, sizeof *n);
    if (!n) return NULL;
    *n = *t;
    n->alias = NULL;
    if (t->nelems) {
        n->elems = ta_arena_zalloc(a, t->nelems * sizeof *n->elems);
        if (!n->elems) return NULL;
        for (uint32_t i = 0; i < t->nelems; i++)
            if (!(n->elems[i] = copy_type_plain(a, t->elems[i]))) return NULL;
    }
    return n;
}

static bool has_alias(const ta_type *t)
{
    if (t->alias) return true;
    for (uint32_t i = 0; i < t->nelems; i++)
        if (has_alias(t->elems[i])) return true;
    return false;
}

ta_type *tg_type_strip(ta_arena *a, const ta_type *t)
{
    return has_alias(t) ? copy_type_plain(a, t) : (ta_type *)t;
}

ta_type *tg_type_annotate(ta_arena *a, const ta_type *t, ta_alias *ann)
{
    ta_type *n = copy_type_plain(a, t);
    if (!n) return NULL;
    ta_type *at = n;
    while ((at->kind == TA_TYPE_OPTIONAL || at->kind == TA_TYPE_LIST) && at->nelems == 1)
        at = at->elems[0];
    at->alias = ann;
    return n;
}

bool tg_schema_set_name(ta_arena *a, ta_schema *s, ta_str ns, const char *name,
                        const char *overload)
{
    s->ns = ns;
    s->name = tg_arena_str(a, name, strlen(name));
    s->overload = tg_arena_str(a, overload, strlen(overload));
    ta_strbuf b;
    ta_strbuf_init(&b);
    if (ns.len) {
        ta_strbuf_str(&b, ns);
        ta_strbuf_puts(&b, "::");
    }
    ta_strbuf_puts(&b, name);
    bool ok = !b.failed;
    if (ok) {
        s->full_name = tg_arena_str(a, b.p, b.len);
        ok = s->full_name.len == b.len;
    }
    ta_strbuf_free(&b);
    return ok && s->name.len == strlen(name) && s->overload.len == strlen(overload);
}

void tg_schema_finish_shape(ta_schema *s)
{
    s->kwarg_marker = -1;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (s->args[i].kwarg_only) {
            s->kwarg_marker = (int32_t)i;
            break;
        }
    s->rets_parenthesized = s->nrets != 1;
}

bool tg_schema_finish(ta_arena *a, ta_schema *s)
{
    s->kwarg_marker = -1;
    for (uint32_t i = 0; i < s->nargs; i++)
        if (s->args[i].kwarg_only) {
            s->kwarg_marker = (int32_t)i;
            break;
        }
    s->rets_parenthesized = s->nrets != 1;
    ta_strbuf b;
    ta_strbuf_init(&b);
    tg_print_schema(&b, s);
    bool ok = !b.failed;
    if (ok) {
        s->text = ta_arena_strndup(a, b.p, b.len);
        s->text_len = (uint32_t)b.len;
        ok = s->text != NULL;
    }
    ta_strbuf_free(&b);
    return ok;
}

/* ---- signature() ------------------------------------------------------ */

/* signature()'s operator name: the base name (no overload, no inplace "_",
 * no "_functional"), dunders kept, view-copy names stripped on request. */
static void signature_name(ta_strbuf *b, const tg_opname *op, unsigned flags)
{
    if (op->dunder) ta_strbuf_puts(b, "__");
    if ((flags & TA_SIG_STRIP_VIEW_COPY_NAME) && op->base.len >= 5 &&
        memcmp(op->base.ptr + op->base.len - 5, "_copy", 5) == 0) {
        /* torchgen uses str.replace: every "_copy" goes, not only the last */
        for (uint32_t i = 0; i < op->base.len;) {
            if (i + 5 <= op->base.len && memcmp(op->base.ptr + i, "_copy", 5) == 0) {
                i += 5;
            } else {
                ta_strbuf_put(b, op->base.ptr + i, 1);
                i++;
            }
        }
    } else if ((flags & TA_SIG_STRIP_VIEW_COPY_NAME) && op->base.len >= 8 &&
               memcmp(op->base.ptr + op->base.len - 8, "_scatter", 8) == 0) {
        /* later torchgen pairs x_scatter with the view x_inverse (every
         * "scatter" becomes "inverse"); 1.13.1 has no *_inverse views */
        for (uint32_t i = 0; i < op->base.len;) {
            if (i + 7 <= op->base.len && memcmp(op->base.ptr + i, "scatter", 7) == 0) {
                ta_strbuf_puts(b, "inverse");
                i += 7;
            } else {
                ta_strbuf_put(b, op->base.ptr + i, 1);
                i++;
            }
        }
    } else {
        ta_strbuf_str(b, op->base);
    }
    if (op->dunder) ta_strbuf_puts(b, "__");
}

/* How much of the signature schema to build: all of it (named, its text
 * printed), or only its arguments (with room for out_room more) and, when
 * asked, its returns, for a caller that completes it itself (the derived
 * variants): nothing is built twice, or built to be dropped. */
typedef struct sig_build {
    bool complete;
    bool returns;
    uint32_t out_room;
} sig_build;

static ta_status build_signature(ta_arena *arena, const ta_schema *s, unsigned flags,
                                 sig_build what, ta_schema **out);

ta_status ta_schema_signature(ta_arena *arena, const ta_schema *s,
                              unsigned flags, ta_schema **out)
{
    return build_signature(arena, s, flags, (sig_build){true, true, 0}, out);
}

ta_status tg_signature_build(ta_arena *arena, const ta_schema *s, unsigned flags,
                             uint32_t out_room, bool with_returns, ta_schema **out)
{
    return build_signature(arena, s, flags, (sig_build){false, with_returns, out_room}, out);
}

/* A written input signature() adds as a return: its annotation is written and
 * no return carries the same one. */
static bool extra_return(const ta_schema *s, uint32_t i)
{
    const ta_alias *ann = tg_annotation(s->args[i].type);
    if (!tg_alias_is_write(ann)) return false;
    for (uint32_t j = 0; j < s->nrets; j++)
        if (tg_alias_eq(ann, tg_annotation(s->rets[j].type))) return false;
    return true;
}

/* arguments: all but out and TensorOptions, annotations stripped (and the
 * defaults, with TA_SIG_STRIP_DEFAULT) */
static ta_status signature_args(ta_arena *arena, const ta_schema *s, const tg_args *sp,
                                unsigned flags, uint32_t out_room, ta_schema *g)
{
    g->args = ta_arena_zalloc(arena, ((size_t)s->nargs + 1 + out_room) * sizeof *g->args);
    if (!g->args) return TA_ERR_NOMEM;
    bool bernoulli_p = ta_str_eq(s->name, "bernoulli") && ta_str_eq(s->overload, "p");
    for (uint32_t i = 0; i < sp->first_out; i++) {
        if (sp->tensor_options >= 0 && i >= (uint32_t)sp->tensor_options &&
            i < (uint32_t)sp->tensor_options + 4)
            continue;
        ta_arg *a = &g->args[g->nargs++];
        *a = s->args[i];
        a->is_out = false;
        if (!(a->type = tg_type_strip(arena, s->args[i].type))) return TA_ERR_NOMEM;
        if (flags & TA_SIG_STRIP_DEFAULT) memset(&a->def, 0, sizeof a->def);
        /* Note [bernoulli.p schema]: torchgen gives p its inplace default */
        if (bernoulli_p && ta_str_eq(a->name, "p") && a->type->kind == TA_TYPE_NAME &&
            ta_str_eq(a->type->name, "float") && a->def.kind == TA_DEFAULT_NONE_GIVEN) {
            a->def.kind = TA_DEFAULT_FLOAT;
            a->def.text = tg_arena_str(arena, "0.5", 3);
        }
    }
    return TA_OK;
}

/* "<arg>_out": the name a written input takes as a return. */
static ta_status extra_return_name(ta_arena *arena, ta_str arg, ta_str *out)
{
    ta_strbuf rn;
    ta_strbuf_init(&rn);
    ta_strbuf_str(&rn, arg);
    ta_strbuf_puts(&rn, "_out");
    if (!rn.failed) *out = tg_arena_str(arena, rn.p, rn.len);
    bool bad = rn.failed || !out->ptr;
    ta_strbuf_free(&rn);
    return bad ? TA_ERR_NOMEM : TA_OK;
}

/* returns: the original ones, then the written inputs not returned (self,
 * the out arguments, the positional ones after self), names kept only
 * with TA_SIG_KEEP_RETURN_NAMES */
static ta_status signature_returns(ta_arena *arena, const ta_schema *s, const tg_args *sp,
                                   unsigned flags, ta_schema *g)
{
    bool keep_names = flags & TA_SIG_KEEP_RETURN_NAMES;
    g->rets = ta_arena_zalloc(arena, (s->nrets + s->nargs + 1) * sizeof *g->rets);
    if (!g->rets) return TA_ERR_NOMEM;
    for (uint32_t i = 0; i < s->nrets; i++) {
        ta_ret *r = &g->rets[g->nrets++];
        *r = s->rets[i];
        if (!keep_names) r->name = (ta_str){NULL, 0};
        if (!(r->type = tg_type_strip(arena, s->rets[i].type))) return TA_ERR_NOMEM;
    }
    uint32_t order[3][2] = {
        {sp->self >= 0 ? (uint32_t)sp->self : 0, sp->self >= 0 ? (uint32_t)sp->self + 1 : 0},
        {sp->first_out, s->nargs},
        {(uint32_t)(sp->self + 1), sp->npos}};
    for (int k = 0; k < 3; k++)
        for (uint32_t i = order[k][0]; i < order[k][1]; i++) {
            if (!extra_return(s, i)) continue;
            ta_ret *r = &g->rets[g->nrets++];
            memset(r, 0, sizeof *r);
            if (!(r->type = tg_type_strip(arena, s->args[i].type))) return TA_ERR_NOMEM;
            if (keep_names && extra_return_name(arena, s->args[i].name, &r->name) != TA_OK)
                return TA_ERR_NOMEM;
        }
    return TA_OK;
}

static ta_status build_signature(ta_arena *arena, const ta_schema *s, unsigned flags,
                                 sig_build what, ta_schema **out)
{
    *out = NULL;
    tg_args sp;
    tg_args_split(s, &sp);
    ta_schema *g = ta_arena_zalloc(arena, sizeof *g);
    if (!g) return TA_ERR_NOMEM;
    if (what.complete) {
        tg_opname op = tg_opname_parse(s->name);
        ta_strbuf name;
        ta_strbuf_init(&name);
        signature_name(&name, &op, flags);
        bool named = !name.failed && tg_schema_set_name(arena, g, s->ns, name.p ? name.p : "", "");
        ta_strbuf_free(&name);
        if (!named) return TA_ERR_NOMEM;
    }
    g->source = s->source;
    g->base_line = s->base_line;
    g->base_col = s->base_col;
    ta_status st = signature_args(arena, s, &sp, flags, what.out_room, g);
    if (st == TA_OK && what.returns) st = signature_returns(arena, s, &sp, flags, g);
    if (st == TA_OK && what.complete && !tg_schema_finish(arena, g)) st = TA_ERR_NOMEM;
    if (st == TA_OK) *out = g;
    return st;
}

/* ---- signature() printed directly ---------------------------------------
 * The family model needs only the text of a signature (to group by it), for
 * every function of a yaml: printing it straight from the schema, without
 * building the signature schema in an arena first, is what keeps the model
 * cheap. The text is byte for byte tg_print_schema of ta_schema_signature
 * (tests/unit/test_tg_signature_text.c compares the two on both corpora). */


void tg_print_signature(ta_strbuf *b, const ta_schema *s, unsigned flags)
{
    tg_args sp;
    tg_args_split(s, &sp);
    tg_opname op = tg_opname_parse(s->name);
    tg_print_signature_of(b, s, &sp, &op, flags);
}

void tg_print_signature_of(ta_strbuf *b, const ta_schema *s, const tg_args *sp,
                           const tg_opname *op, unsigned flags)
{
    bool keep_names = flags & TA_SIG_KEEP_RETURN_NAMES;
    signature_name(b, op, flags);
    ta_strbuf_put(b, "(", 1);
    bool bernoulli_p = TA_STR_IS(s->name, "bernoulli") && TA_STR_IS(s->overload, "p");
    bool star = false;
    uint32_t n = 0;
    for (uint32_t i = 0; i < sp->first_out; i++) {
        if (sp->tensor_options >= 0 && i >= (uint32_t)sp->tensor_options &&
            i < (uint32_t)sp->tensor_options + 4)
            continue;
        const ta_arg *a = &s->args[i];
        if (n++) ta_strbuf_put(b, ", ", 2);
        if (a->kwarg_only && !star) {
            ta_strbuf_put(b, "*, ", 3);
            star = true;
        }
        print_type_as(b, a->type, PLAIN);
        ta_strbuf_put(b, " ", 1);
        ta_strbuf_str(b, a->name);
        bool has_def = !(flags & TA_SIG_STRIP_DEFAULT) && a->def.kind != TA_DEFAULT_NONE_GIVEN;
        if (has_def) {
            ta_strbuf_put(b, "=", 1);
            ta_strbuf_str(b, a->def.text);
        } else if (bernoulli_p && TA_STR_IS(a->name, "p") && a->type->kind == TA_TYPE_NAME &&
                   TA_STR_IS(a->type->name, "float")) {
            ta_strbuf_put(b, "=0.5", 4); /* Note [bernoulli.p schema], as ta_schema_signature */
        }
    }
    /* returns: the original ones, then written inputs not returned, in the
     * order self, the out arguments, the positional ones after self (each
     * argument's test made once: the first 64 are remembered) */
    uint32_t order[3][2] = {
        {sp->self >= 0 ? (uint32_t)sp->self : 0, sp->self >= 0 ? (uint32_t)sp->self + 1 : 0},
        {sp->first_out, s->nargs},
        {(uint32_t)(sp->self + 1), sp->npos}};
    uint64_t extra = 0;
    uint32_t nrets = s->nrets;
    for (int k = 0; k < 3; k++)
        for (uint32_t i = order[k][0]; i < order[k][1]; i++)
            if (extra_return(s, i)) {
                nrets++;
                if (i < 64) extra |= (uint64_t)1 << i;
            }
    ta_strbuf_put(b, ") -> ", 5);
    if (nrets != 1) ta_strbuf_put(b, "(", 1);
    for (uint32_t i = 0; i < s->nrets; i++) {
        if (i) ta_strbuf_put(b, ", ", 2);
        print_type_as(b, s->rets[i].type, PLAIN);
        if (keep_names && s->rets[i].name.len) {
            ta_strbuf_put(b, " ", 1);
            ta_strbuf_str(b, s->rets[i].name);
        }
    }
    uint32_t r = s->nrets;
    for (int k = 0; k < 3; k++)
        for (uint32_t i = order[k][0]; i < order[k][1]; i++) {
            if (i < 64 ? !(extra >> i & 1) : !extra_return(s, i)) continue;
            if (r++) ta_strbuf_put(b, ", ", 2);
            print_type_as(b, s->args[i].type, PLAIN);
            if (keep_names) {
                ta_strbuf_put(b, " ", 1);
                ta_strbuf_str(b, s->args[i].name);
                ta_strbuf_put(b, "_out", 4);
            }
        }
    if (nrets != 1) ta_strbuf_put(b, ")", 1);
}
