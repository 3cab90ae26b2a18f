/* native_load.c - turns the yaml node tree of native_functions.yaml into
 * typed ta_native_func entries, as torchgen's NativeFunction.from_yaml reads
 * them: every key, its type, its default, and the derived composite-kernel
 * flags. Problems that make an entry unreadable are reported here (shape,
 * unknown keys, wrong types, illegal values, schema syntax); cross-entry and
 * policy rules are rule passes (native_passes.c). Also reads tags.yaml.
 * The same loader fills the window of a streaming check (native_stream.c),
 * handing it over each time it is full. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "base/arena.h"
#include "base/file.h"
#include "schema/native_internal.h"
#include "schema/parser.h"

typedef struct loader {
    ta_native_file *f;
    const ta_yaml_src *src; /* the file being interpreted */
    ta_diags *diags;
    ta_status st;           /* TA_ERR_NOMEM sticks */
    size_t errors;
    ta_diags *tmp;          /* the parser's diagnostics, before re-homing */
    ta_type_pool *types;    /* the types the file's schemas share */
    ta_native_extra extra;  /* the entry being read's rare keys, kept when written */
} loader;

/* The rare keys of every entry that writes none of them. */
static const ta_native_extra no_extra;

static void lreport(loader *L, ta_severity sev, const char *rule,
                    ta_native_pos pos, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void lreport(loader *L, ta_severity sev, const char *rule,
                    ta_native_pos pos, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_yaml_vreport(L->src, L->diags, sev, rule, pos, hint, fmt, ap);
    va_end(ap);
    if (st != TA_OK) L->st = st;
    if (sev == TA_SEV_ERROR) L->errors++;
}

static void *lalloc(loader *L, size_t size)
{
    void *p = ta_arena_zalloc(L->f->arena, size ? size : 1);
    if (!p) L->st = TA_ERR_NOMEM;
    return p;
}

/* A scalar kept in the file: the reader's text only lives for one entry. */
static ta_native_str node_str(loader *L, const ynode *n)
{
    ta_native_str s = {ta_arena_strndup(L->f->arena, n->text, n->len), n->len, n->pos};
    if (!s.s) L->st = TA_ERR_NOMEM;
    return s;
}

/* Position of text[from, from+len) inside a scalar, when it can be known
 * (a one-line scalar); the scalar's own position otherwise. */
static ta_native_pos sub_pos(const ynode *n, uint32_t from, uint32_t len)
{
    ta_native_pos p = n->pos;
    uint32_t quote = n->plain ? 0 : 1;
    /* Only a one-line scalar whose bytes are the value (plus quotes). */
    if (p.len && p.len == n->len + 2 * quote && !memchr(n->text, '\\', n->len)) {
        p.col += from + quote;
        p.off += from + quote;
        p.len = len;
    } else if (n->plain && p.len == n->len) {
        p.col += from;
        p.off += from;
        p.len = len;
    }
    return p;
}

static void wrong_type(loader *L, const char *key, const ynode *v,
                       const char *want, const char *hint)
{
    lreport(L, TA_SEV_ERROR, "entry-wrong-type", v->pos, hint,
            "'%s' must be %s, not %s", key, want, ta_yaml_type_name(v));
}

static bool is_str(const ynode *v)
{
    return v->kind == YN_SCALAR && v->type == YT_STR;
}

static bool is_null(const ynode *v)
{
    return v->kind == YN_SCALAR && v->type == YT_NULL;
}

/* A string value; null reads as absent when the key's default is None. */
/* A string value; null means absent. */
static void get_opt_str(loader *L, const char *key, const ynode *v, ta_native_str *out)
{
    if (is_str(v)) *out = node_str(L, v);
    else if (is_null(v)) memset(out, 0, sizeof *out);
    else wrong_type(L, key, v, "a string", NULL);
}

static void get_bool(loader *L, const char *key, const ynode *v, bool *out)
{
    if (v->kind == YN_SCALAR && v->type == YT_BOOL) *out = v->bval;
    else wrong_type(L, key, v, "True or False", "write True or False");
}

/* Splits a string at ", " the way torchgen's str.split(", ") does. */
static ta_native_str *split_list(loader *L, const ynode *v, uint32_t *n)
{
    uint32_t count = 1;
    for (const char *p = v->text; (p = strstr(p, ", ")); p += 2) count++;
    ta_native_str *out = lalloc(L, count * sizeof *out);
    if (!out) return NULL;
    const char *s = v->text, *end = v->text + v->len;
    for (uint32_t i = 0; i < count; i++) {
        const char *e = strstr(s, ", ");
        if (!e || e > end) e = end;
        uint32_t len = (uint32_t)(e - s);
        out[i].s = ta_arena_strndup(L->f->arena, s, len);
        if (!out[i].s) L->st = TA_ERR_NOMEM;
        out[i].len = len;
        out[i].pos = sub_pos(v, (uint32_t)(s - v->text), len);
        s = e + 2;
    }
    *n = count;
    return out;
}

/* A list of strings (precomputed, cpp_no_default_args). */
static ta_native_str *get_str_seq(loader *L, const char *key, const ynode *v,
                                  uint32_t *n)
{
    *n = 0;
    if (v->kind != YN_SEQ) {
        wrong_type(L, key, v, "a list of strings", NULL);
        return NULL;
    }
    ta_native_str *out = lalloc(L, v->n * sizeof *out);
    if (!out) return NULL;
    for (const ynode *c = v->first; c; c = c->next) {
        if (!is_str(c)) {
            wrong_type(L, key, c, "a list of strings", NULL);
            continue;
        }
        out[(*n)++] = node_str(L, c);
    }
    return out;
}

/* Whether part[0..len) as a C string (up to a NUL in it) is lit. */
static bool part_is(const char *part, uint32_t len, const char *lit)
{
    size_t n = strlen(lit);
    return strnlen(part, len) == n && !memcmp(part, lit, n);
}

/* The variants, a string split at ", " as split_list splits it, read in
 * place: only their bits are kept. */
static void read_variants(loader *L, ta_native_func *fn, const ynode *v)
{
    if (!is_str(v)) {
        wrong_type(L, "variants", v, "a string", "write 'function', 'method' or 'function, method'");
        return;
    }
    fn->variants = 0;
    const char *s = v->text, *end = v->text + v->len;
    for (;;) {
        const char *e = strstr(s, ", ");
        if (!e || e > end) e = end;
        uint32_t len = (uint32_t)(e - s);
        if (part_is(s, len, "function")) fn->variants |= TA_VARIANT_FUNCTION;
        else if (part_is(s, len, "method")) fn->variants |= TA_VARIANT_METHOD;
        else
            lreport(L, TA_SEV_ERROR, "entry-bad-value", sub_pos(v, (uint32_t)(s - v->text), len),
                    "variants are 'function' and 'method', separated by ', '",
                    "illegal variant '%.*s'", (int)strnlen(s, len), s);
        if (e == end) break;
        s = e + 2;
    }
}

static void read_tags(loader *L, ta_native_func *fn, const ynode *v)
{
    fn->tags = NULL;
    fn->ntags = 0;
    if (is_str(v)) {
        if (v->len) fn->tags = split_list(L, v, &fn->ntags);
        return;
    }
    if (v->kind == YN_SEQ) {
        fn->tags = get_str_seq(L, "tags", v, &fn->ntags);
        return;
    }
    wrong_type(L, "tags", v, "a string or a list of strings", NULL);
}

/* The key node equal to k before it in mapping v, or NULL. Small mappings
 * (dispatch tables have a few keys) are compared pairwise; larger ones go
 * through *seen, built on first use. */
static const ynode *earlier_key(loader *L, const ynode *v, const ynode *k, ta_map *seen)
{
    if (v->n <= 16) {
        for (const ynode *e = v->first; e && e != k && e->next; e = e->next->next)
            if (is_str(e) && e->len == k->len && !memcmp(e->text, k->text, k->len)) return e;
        return NULL;
    }
    ta_map_entry *e;
    if (ta_map_add(seen, k->text, k->len, ta_map_ptr((void *)k), &e) != TA_OK) {
        L->st = TA_ERR_NOMEM;
        return NULL;
    }
    return e->value.ptr == (void *)k ? NULL : e->value.ptr;
}

/* torchgen's yaml loader refuses a mapping that has a key twice (an
 * assertion, in every mapping of the file): an error at the second. */
static void check_duplicate_keys(loader *L, const char *what, const ynode *v)
{
    ta_map seen;
    ta_map_init(&seen, NULL);
    for (const ynode *k = v->first; k && k->next && L->st == TA_OK; k = k->next->next) {
        const ynode *first = is_str(k) ? earlier_key(L, v, k, &seen) : NULL;
        if (!first) continue;
        char hint[64];
        snprintf(hint, sizeof hint, "first written on line %u", first->pos.line);
        lreport(L, TA_SEV_ERROR, "entry-duplicate-key", k->pos, hint,
                "%s key '%s' is written twice; torchgen's yaml loader refuses duplicate keys", what,
                k->text);
    }
    ta_map_clear(&seen);
}

/* A key written twice: the last value wins (as in PyYAML), so each reader
 * starts from an empty field. */
static void read_dispatch(loader *L, ta_native_func *fn, const ynode *v)
{
    fn->dispatch = NULL;
    fn->ndispatch = 0;
    fn->has_dispatch = false;
    if (is_null(v)) return; /* torchgen: same as no dispatch table */
    if (v->kind != YN_MAP) {
        wrong_type(L, "dispatch", v, "a mapping of dispatch keys to kernels", NULL);
        return;
    }
    fn->has_dispatch = true;
    check_duplicate_keys(L, "dispatch", v);
    uint32_t count = 0;
    for (const ynode *k = v->first; k && k->next; k = k->next->next)
        if (is_str(k)) {
            count++;
            for (uint32_t i = 0; i < k->len; i++) count += k->text[i] == ',';
        }
    fn->dispatch = lalloc(L, count * sizeof *fn->dispatch);
    if (!fn->dispatch) return;
    for (const ynode *k = v->first; k && k->next; k = k->next->next) {
        const ynode *val = k->next;
        if (!is_str(k)) {
            wrong_type(L, "dispatch", k, "keyed by dispatch key names", NULL);
            continue;
        }
        if (!is_str(val)) {
            wrong_type(L, "dispatch", val, "a kernel name for each key", NULL);
            continue;
        }
        /* "CPU, CUDA: f" is one kernel for each key; they share its text,
         * and a key torchgen knows is the library's own spelling of it */
        ta_native_str kernel = node_str(L, val);
        const char *end = k->text + k->len;
        for (const char *s = k->text;;) {
            const char *e = memchr(s, ',', (size_t)(end - s));
            if (!e) e = end;
            const char *a = s, *b = e;
            while (a < b && (*a == ' ' || *a == '\t')) a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
            ta_native_dispatch *d = &fn->dispatch[fn->ndispatch++];
            const char *known = ta_dispatch_key_name(a, (size_t)(b - a));
            d->key.s = known ? known : ta_arena_strndup(L->f->arena, a, (size_t)(b - a));
            if (!d->key.s) L->st = TA_ERR_NOMEM;
            d->key.len = (uint32_t)(b - a);
            d->key.pos = sub_pos(k, (uint32_t)(a - k->text), d->key.len);
            d->kernel = kernel;
            d->known = known != NULL;
            if (e == end) break;
            s = e + 1;
        }
    }
}

static void read_ufunc(loader *L, ta_native_extra *x, const ynode *v)
{
    x->ufunc_inner_loop = NULL;
    x->nufunc_inner_loop = 0;
    if (is_str(v)) {
        x->ufunc_inner_loop = lalloc(L, sizeof *x->ufunc_inner_loop);
        if (!x->ufunc_inner_loop) return;
        x->ufunc_inner_loop[0].key.s = "Generic";
        x->ufunc_inner_loop[0].key.len = 7;
        x->ufunc_inner_loop[0].key.pos = v->pos;
        x->ufunc_inner_loop[0].value = node_str(L, v);
        x->nufunc_inner_loop = 1;
        return;
    }
    if (v->kind != YN_MAP) {
        wrong_type(L, "ufunc_inner_loop", v, "a string or a mapping", NULL);
        return;
    }
    check_duplicate_keys(L, "ufunc_inner_loop", v);
    x->ufunc_inner_loop = lalloc(L, v->n * sizeof *x->ufunc_inner_loop);
    if (!x->ufunc_inner_loop) return;
    for (const ynode *k = v->first; k && k->next; k = k->next->next) {
        if (!is_str(k) || !is_str(k->next)) {
            wrong_type(L, "ufunc_inner_loop", is_str(k) ? k->next : k,
                       "a mapping of strings to strings", NULL);
            continue;
        }
        ta_native_ufunc *u = &x->ufunc_inner_loop[x->nufunc_inner_loop++];
        u->key = node_str(L, k);
        u->value = node_str(L, k->next);
    }
}

/* Sets fn's full_name "ns::name[.overload]" (ns "aten" when nslen is 0),
 * its ns and its name (the tail of full_name). */
static void set_names(loader *L, ta_native_func *fn, const char *ns, size_t nslen,
                      const char *name, size_t len, const char *overload, size_t olen)
{
    if (!nslen) {
        ns = "aten";
        nslen = 4;
    }
    size_t n = nslen + 2 + len + (olen ? 1 + olen : 0);
    char *full = lalloc(L, n + 1), *p = full;
    if (!full) return;
    memcpy(p, ns, nslen);
    memcpy(p += nslen, "::", 2);
    memcpy(p += 2, name, len);
    if (olen) {
        p[len] = '.';
        memcpy(p + len + 1, overload, olen);
    }
    full[n] = '\0';
    fn->full_name = full;
    fn->name = full + nslen + 2;
    fn->ns = nslen == 4 && !memcmp(ns, "aten", 4) ? "aten" : ta_arena_strndup(L->f->arena, ns, nslen);
    if (!fn->ns) L->st = TA_ERR_NOMEM;
}

/* The name without a namespace, when the schema did not parse: what stands
 * before the "(", which is what torchgen's name would be. */
static void lexical_name(loader *L, ta_native_func *fn)
{
    const char *t = fn->func.s, *e = strchr(t, '(');
    if (!e) e = t + fn->func.len;
    while (t < e && *t == ' ') t++;
    while (e > t && e[-1] == ' ') e--;
    const char *sep = NULL;
    for (const char *p = t; p + 1 < e; p++)
        if (p[0] == ':' && p[1] == ':') sep = p;
    const char *name = sep ? sep + 2 : t;
    set_names(L, fn, t, sep ? (size_t)(sep - t) : 0, name, (size_t)(e - name), NULL, 0);
}

static void parse_func(loader *L, ta_native_func *fn, const ynode *v)
{
    ta_parse_opts opts = {L->src->source, v->pos.line, v->pos.col + (v->plain ? 0 : 1)};
    if ((!L->tmp && ta_diags_create(&L->tmp) != TA_OK) ||
        (!L->types && !(L->types = ta_type_pool_create()))) {
        L->st = TA_ERR_NOMEM;
        return;
    }
    ta_diags *tmp = L->tmp;
    /* the source name is the file's, which outlives its schemas */
    ta_status st = ta_schema_parse_kept(L->f->arena, fn->func.s, fn->func.len, &opts, L->types,
                                        &fn->schema, tmp);
    if (st == TA_ERR_NOMEM) L->st = st;
    if (st != TA_OK) fn->schema = NULL;
    /* Re-home the parser's diagnostics on the yaml's own line, so the caret
     * is drawn under the yaml text (the parser only saw the schema). */
    for (size_t i = 0; i < ta_diags_count(tmp); i++) {
        const ta_diag *g = ta_diags_get(tmp, i);
        ta_native_pos pos = {g->line, g->col, 0, g->length};
        if (g->line == v->pos.line && g->col >= v->pos.col) {
            pos.off = v->pos.off + (g->col - v->pos.col);
            if (pos.off > L->src->len) pos.off = (uint32_t)L->src->len;
            lreport(L, g->severity, g->rule, pos, g->hint, "%s", g->message);
        } else {
            ta_status s2 = ta_diags_append(L->diags, g);
            if (s2 != TA_OK) L->st = s2;
            if (g->severity == TA_SEV_ERROR) L->errors++;
        }
    }
    ta_diags_clear(tmp);
    if (!fn->schema) {
        lexical_name(L, fn);
        return;
    }
    const ta_schema *s = fn->schema;
    set_names(L, fn, s->ns.ptr, s->ns.len, s->name.ptr, s->name.len, s->overload.ptr,
              s->overload.len);
}

/* torchgen: the dispatch keys an entry ends up with, and what follows. */
static void derive(ta_native_func *fn)
{
    bool cia = false, ciant = false, cea = false, ceanf = false;
    size_t other = fn->extra->nufunc_inner_loop ? 1 : 0; /* a ufunc adds CPU and CUDA */
    for (uint32_t i = 0; i < fn->ndispatch; i++) {
        const char *k = fn->dispatch[i].key.s;
        if (!k) continue;
        if (k[0] != 'C' || strncmp(k, "Composite", 9)) {
            other++;
            continue;
        }
        k += 9;
        if (!strcmp(k, "ImplicitAutograd")) cia = true;
        else if (!strcmp(k, "ImplicitAutogradNestedTensor")) ciant = true;
        else if (!strcmp(k, "ExplicitAutograd")) cea = true, other++;
        else if (!strcmp(k, "ExplicitAutogradNonFunctional")) ceanf = true, other++;
        else other++;
    }
    /* No dispatch table, not structured, no delegate: an implicit composite. */
    if (!fn->has_dispatch && !fn->structured && !fn->structured_delegate.s) cia = true;
    fn->has_composite_implicit_autograd_kernel = cia;
    fn->has_composite_implicit_autograd_nested_tensor_kernel = ciant;
    fn->has_composite_explicit_autograd_kernel = cea;
    fn->has_composite_explicit_autograd_non_functional_kernel = ceanf;
    /* Abstract unless its only kernels are implicit composites. */
    fn->is_abstract = fn->structured_delegate.s || other || (!cia && !ciant);
}

/* The key k of an entry, as a ta_native_key; -1 (reported) when it is not
 * a string or no key torchgen knows. A key written twice is a warning: the
 * last one wins. */
static int entry_key(loader *L, const ta_native_func *fn, const ynode *k)
{
    if (!is_str(k)) {
        lreport(L, TA_SEV_ERROR, "entry-wrong-type", k->pos, NULL,
                "an entry's keys must be strings, not %s", ta_yaml_type_name(k));
        return -1;
    }
    int id = ta_native_key_id(k->text);
    if (id < 0) {
        const char *near = ta_native_closest_key(k->text, k->len);
        char hint[96];
        if (near) snprintf(hint, sizeof hint, "did you mean '%s'?", near);
        lreport(L, TA_SEV_ERROR, "entry-unknown-key", k->pos, near ? hint : NULL,
                "unknown key '%s'", k->text);
        return -1;
    }
    if (ta_native_has_key(fn, (ta_native_key)id)) {
        char hint[64];
        snprintf(hint, sizeof hint, "first written on line %u",
                 ta_native_key_pos(fn, (ta_native_key)id).line);
        lreport(L, TA_SEV_ERROR, "entry-duplicate-key", k->pos, hint,
                "'%s' is written twice; torchgen's yaml loader refuses duplicate keys", k->text);
    }
    return id;
}

static void read_autogen(loader *L, ta_native_func *fn, const char *key, const ynode *v)
{
    fn->autogen = NULL;
    fn->nautogen = 0;
    if (!is_str(v)) wrong_type(L, key, v, "a string", "separate operator names with ', '");
    else if (v->len) fn->autogen = split_list(L, v, &fn->nautogen);
}

static void read_device_check(loader *L, ta_native_func *fn, const char *key, const ynode *v)
{
    if (is_null(v)) {
        fn->device_check = TA_DEVICE_CHECK_EXACT_SAME;
    } else if (!is_str(v)) {
        wrong_type(L, key, v, "a string", NULL);
    } else {
        bool no_check = !strcmp(v->text, "NoCheck");
        fn->device_check = no_check ? TA_DEVICE_CHECK_NO_CHECK : TA_DEVICE_CHECK_EXACT_SAME;
        if (!no_check && strcmp(v->text, "ExactSame"))
            lreport(L, TA_SEV_ERROR, "entry-bad-value", v->pos, "write NoCheck or ExactSame",
                    "illegal device_check '%s'", v->text);
    }
}

/* The value v of key `id` into fn; *func gets the func node (parsed once
 * the whole entry is read). */
static void read_value(loader *L, ta_native_func *fn, ta_native_key id, const char *key,
                       const ynode *v, const ynode **func)
{
    ta_native_extra *x = &L->extra;
    switch (id) {
    case TA_NK_FUNC:
        if (is_str(v)) *func = v;
        else wrong_type(L, key, v, "a string", "write the operator schema");
        break;
    case TA_NK_VARIANTS: read_variants(L, fn, v); break;
    case TA_NK_DISPATCH: read_dispatch(L, fn, v); break;
    case TA_NK_AUTOGEN: read_autogen(L, fn, key, v); break;
    case TA_NK_STRUCTURED: get_bool(L, key, v, &fn->structured); break;
    case TA_NK_STRUCTURED_DELEGATE: get_opt_str(L, key, v, &fn->structured_delegate); break;
    case TA_NK_STRUCTURED_INHERITS: get_opt_str(L, key, v, &x->structured_inherits); break;
    case TA_NK_PRECOMPUTED:
        x->precomputed = NULL;
        x->nprecomputed = 0;
        if (!is_null(v)) x->precomputed = get_str_seq(L, key, v, &x->nprecomputed);
        break;
    case TA_NK_TAGS: read_tags(L, fn, v); break;
    case TA_NK_DEVICE_GUARD: get_bool(L, key, v, &fn->device_guard); break;
    case TA_NK_DEVICE_CHECK: read_device_check(L, fn, key, v); break;
    case TA_NK_PYTHON_MODULE: get_opt_str(L, key, v, &x->python_module); break;
    case TA_NK_CATEGORY_OVERRIDE: get_opt_str(L, key, v, &x->category_override); break;
    case TA_NK_MANUAL_KERNEL_REGISTRATION: get_bool(L, key, v, &fn->manual_kernel_registration); break;
    case TA_NK_MANUAL_CPP_BINDING: get_bool(L, key, v, &fn->manual_cpp_binding); break;
    case TA_NK_USE_CONST_REF_FOR_MUTABLE_TENSORS:
        get_bool(L, key, v, &fn->use_const_ref_for_mutable_tensors);
        break;
    case TA_NK_CPP_NO_DEFAULT_ARGS:
        x->cpp_no_default_args = get_str_seq(L, key, v, &x->ncpp_no_default_args);
        break;
    case TA_NK_UFUNC_INNER_LOOP: read_ufunc(L, x, v); break;
    case TA_NK_COUNT: break;
    }
}

/* func, parsed from the reader's text; the entry keeps the parser's copy
 * of it when the parser has one. */
static void read_func(loader *L, ta_native_func *fn, const ynode *func)
{
    fn->func = (ta_native_str){func->text, func->len, func->pos};
    parse_func(L, fn, func);
    if (fn->schema && fn->schema->text_len == func->len)
        fn->func.s = fn->schema->text;
    else
        fn->func = node_str(L, func);
}

/* fn->extra: the rare keys read into L->extra, kept when one was written. */
static void keep_extra(loader *L, ta_native_func *fn)
{
    const ta_native_extra *x = &L->extra;
    fn->extra = &no_extra;
    if (!x->structured_inherits.s && !x->python_module.s &&
        !x->category_override.s && !x->precomputed && !x->cpp_no_default_args &&
        !x->ufunc_inner_loop)
        return;
    ta_native_extra *kept = lalloc(L, sizeof *kept);
    if (!kept) return;
    *kept = *x;
    fn->extra = kept;
}

/* One "- func:" entry: every key, then the schema, then what torchgen
 * derives from the dispatch table. */
static void read_entry(loader *L, ta_native_func *fn, const ynode *m)
{
    fn->file = L->f;
    fn->pos = m->pos;
    fn->pos.len = 1;
    fn->variants = TA_VARIANT_FUNCTION;
    fn->device_guard = true;
    fn->extra = &no_extra;
    memset(&L->extra, 0, sizeof L->extra);
    const ynode *func = NULL;
    ta_native_keyval *keys = m->n ? ta_arena_zalloc(L->f->arena, m->n * sizeof *keys) : NULL;
    if (m->n && !keys) {
        L->st = TA_ERR_NOMEM;
        return;
    }
    fn->keys = keys;
    for (const ynode *k = m->first; k && k->next; k = k->next->next) {
        int id = entry_key(L, fn, k);
        if (id < 0) continue;
        uint32_t i = 0;
        while (i < fn->nkeys && keys[i].key != (ta_native_key)id) i++;
        keys[i] = (ta_native_keyval){k->pos.off, k->next->pos.off, k->next->pos.len,
                                     (uint16_t)(k->pos.len > UINT16_MAX ? 0 : k->pos.len),
                                     (uint8_t)id};
        if (i == fn->nkeys) fn->nkeys++;
        read_value(L, fn, (ta_native_key)id, k->text, k->next, &func);
    }
    if (func) read_func(L, fn, func);
    keep_extra(L, fn);
    derive(fn);
}

static ta_status funcs_other_root(void *ctx, const ynode *root)
{
    loader *L = ctx;
    ta_native_pos pos = root ? root->pos : (ta_native_pos){1, 1, 0, 1};
    lreport(L, TA_SEV_ERROR, "yaml-not-sequence", pos,
            "native_functions.yaml is a list of '- func: ...' entries",
            "the document must be a list of mappings, not %s",
            root ? ta_yaml_type_name(root) : "empty");
    return L->st;
}

/* Room for about as many entries as lines that start with "- ". */
static ta_status funcs_begin(void *ctx, const ynode *seq)
{
    (void)seq;
    loader *L = ctx;
    ta_native_file *f = L->f;
    /* Room for the entries, guessed from the size: PyTorch's entries take
     * over 200 bytes each, so 128 a piece leaves margin, and (unless the
     * kernel gives it huge pages) pages of the array never written are
     * never touched. (Counting the "\n- " lines
     * instead was a tenth of a millisecond.) More entries just grow it. */
    size_t guess = f->stream ? ta_native_stream_window(f->stream) : 16 + f->src.len / 128;
    if (guess > (size_t)1 << 15) guess = (size_t)1 << 15; /* a huge file grows instead */
    if (guess > UINT32_MAX / 2) guess = UINT32_MAX / 2;
    size_t bytes = guess * sizeof *f->funcs;
    f->funcs = ta_malloc_pages(&bytes); /* each is cleared when read */
    ta_status st = f->stream ? ta_native_stream_reserve(f->stream, f->src.text, f->src.len)
                             : ta_native_index_reserve(f, guess);
    if (!f->funcs || st != TA_OK) return L->st = TA_ERR_NOMEM;
    f->funcs_cap = (uint32_t)(bytes / sizeof *f->funcs);
    return TA_OK;
}

static ta_status funcs_item(void *ctx, const ynode *e)
{
    loader *L = ctx;
    ta_native_file *f = L->f;
    if (e->kind != YN_MAP) {
        lreport(L, TA_SEV_ERROR, "yaml-not-sequence", e->pos,
                "each entry is a mapping that starts with 'func:'",
                "an entry must be a mapping, not %s", ta_yaml_type_name(e));
        return L->st;
    }
    /* (a window is flushed before it is full) */
    if (TA_GROW_ONE(f->funcs, f->nfuncs, f->funcs_cap, 1) != TA_OK) return L->st = TA_ERR_NOMEM;
    ta_native_func *fn = &f->funcs[f->nfuncs];
    memset(fn, 0, sizeof *fn);
    read_entry(L, fn, e);
    if (!fn->func.s) {
        /* Without func there is no function: report it and drop it. */
        if (L->st == TA_OK && !ta_native_has_key(fn, TA_NK_FUNC))
            lreport(L, TA_SEV_ERROR, "entry-no-func", e->pos,
                    "add 'func: name.overload(args) -> returns'",
                    "entry has no 'func' key");
        return L->st;
    }
    if (L->st != TA_OK) return L->st; /* out of memory: the entry is incomplete */
    uint32_t i = f->nfuncs++;
    fn->index = f->base + i;
    if (ta_native_index_add(f, i) != TA_OK) L->st = TA_ERR_NOMEM;
    if (L->st == TA_OK && f->stream && f->nfuncs == ta_native_stream_window(f->stream)) {
        /* a window's worth: checked and dropped, with the types its
         * schemas share (they live in its arena) */
        L->st = ta_native_stream_flush(f->stream, f, L->diags);
        ta_type_pool_destroy(L->types);
        L->types = NULL;
    }
    return L->st;
}

/* tags.yaml: a list of {tag: name, desc: text}; torchgen wants both. */
static ta_status tags_other_root(void *ctx, const ynode *root)
{
    loader *L = ctx;
    ta_native_pos pos = root ? root->pos : (ta_native_pos){1, 1, 0, 1};
    lreport(L, TA_SEV_ERROR, "yaml-not-sequence", pos, NULL,
            "tags.yaml must be a list of mappings, not %s",
            root ? ta_yaml_type_name(root) : "empty");
    return L->st;
}

static ta_status tags_begin(void *ctx, const ynode *seq)
{
    (void)seq;
    (void)ctx;
    return TA_OK;
}

static ta_status tags_item(void *ctx, const ynode *e)
{
    loader *L = ctx;
    ta_native_file *f = L->f;
    if (e->kind != YN_MAP) {
        lreport(L, TA_SEV_ERROR, "yaml-not-sequence", e->pos, NULL,
                "a tags.yaml entry must be a mapping, not %s", ta_yaml_type_name(e));
        return L->st;
    }
    const ynode *tag = NULL, *desc = NULL;
    for (const ynode *k = e->first; k && k->next; k = k->next->next) {
        if (!is_str(k)) continue;
        if (!strcmp(k->text, "tag")) tag = k->next;
        else if (!strcmp(k->text, "desc")) desc = k->next;
    }
    if (!tag || !is_str(tag) || !tag->len) {
        lreport(L, TA_SEV_ERROR, "tag-no-name", tag ? tag->pos : e->pos,
                "write 'tag: name'", "tags.yaml entry without a tag name");
        return L->st;
    }
    if (!desc || !is_str(desc) || !desc->len)
        lreport(L, TA_SEV_ERROR, "tag-no-desc", desc ? desc->pos : e->pos,
                "add 'desc: what the tag means'", "tag '%s' has no description",
                tag->text);
    if (ta_grow((void **)&f->tags, &f->tags_cap, (size_t)f->ntags + 1, sizeof *f->tags, 32, f->fixed) != TA_OK)
        return L->st = TA_ERR_NOMEM;
    f->tags[f->ntags] = ta_arena_strndup(f->fixed, tag->text, tag->len);
    if (!f->tags[f->ntags++]) L->st = TA_ERR_NOMEM;
    return L->st;
}

typedef enum yaml_file { NATIVE_FUNCTIONS_YAML, TAGS_YAML } yaml_file;

/* A NUL byte in the first 8 KB makes a file binary (git's test): it gets
 * one error saying so, not a yaml error printing a line of its bytes. */
static bool is_binary(const ta_yaml_src *src)
{
    return memchr(src->text, '\0', src->len < 8192 ? src->len : 8192) != NULL;
}

static ta_status load_one(loader *L, const ta_yaml_src *src, yaml_file which)
{
    bool tags = which == TAGS_YAML;
    L->src = src;
    if (is_binary(src)) {
        ta_loc at = {.file = src->source};
        L->errors++;
        return ta_diag_error(L->diags, &at, "yaml-binary", "a binary file, not yaml");
    }
    ta_yaml_handler h = {L, tags ? tags_begin : funcs_begin, tags ? tags_item : funcs_item,
                         tags ? tags_other_root : funcs_other_root};
    ta_status st = ta_yaml_read(src, &h, L->diags);
    if (st == TA_ERR_PARSE) L->errors++;
    return st == TA_ERR_PARSE ? TA_OK : st;
}

static const char *copy_text(ta_arena *a, const char *text, size_t len)
{
    return ta_arena_strndup(a, text ? text : "", text ? len : 0);
}

/* An "io" error for a text past TA_MAX_INPUT_BYTES. */
static bool too_large(const char *source, size_t len, ta_diags *diags)
{
    if (len <= TA_MAX_INPUT_BYTES) return false;
    ta_loc at = {.file = source ? source : "<string>"};
    ta_diag_error(diags, &at, "io", "%zu bytes: more than the %zu MiB the loader reads", len,
                  TA_MAX_INPUT_BYTES >> 20);
    return true;
}

/* src's text: the caller's buffer when the file may keep it (kept, which
 * ta_native_destroy frees), else an arena copy. */
static bool set_src(ta_native_file *f, ta_yaml_src *src, const char *text, size_t len,
                    const char *source, char *kept)
{
    if (kept) f->kept[f->nkept++] = kept;
    src->text = kept ? kept : copy_text(f->fixed, text, len);
    src->len = text ? len : 0;
    src->source = ta_arena_strndup(f->fixed, source, strlen(source));
    return src->text && src->source;
}

/* A file to load into: a whole one, or (stream not NULL) a window view
 * whose entries have an arena of their own. */
static ta_native_file *file_create(ta_native_stream *stream)
{
    ta_native_file *f = ta_calloc(1, sizeof *f);
    if (!f || ta_arena_create(&f->arena) != TA_OK) {
        free(f);
        return NULL;
    }
    f->fixed = f->arena;
    f->stream = stream;
    if (stream && ta_arena_create(&f->fixed) != TA_OK) {
        ta_arena_destroy(f->arena);
        free(f);
        return NULL;
    }
    return f;
}

/* ta_native_load_buffer, keeping text and tags_text when they are given as
 * kept_text and kept_tags (malloc'd; freed with the file, or here on
 * failure); into a window of stream when it is not NULL. */
static ta_status load(const char *text, size_t len, const char *source, const char *tags_text,
                      size_t tags_len, const char *tags_source, char *kept_text, char *kept_tags,
                      ta_native_stream *stream, ta_native_file **out, ta_diags *diags)
{
    *out = NULL;
    ta_native_file *f = file_create(stream);
    if (!f) {
        free(kept_text);
        free(kept_tags);
        return TA_ERR_NOMEM;
    }
    loader L = {.f = f, .diags = diags};
    ta_status st = TA_OK;
    /* entries, schemas, their strings and the name index take about 5
     * times the text (a window's entries about 2 KB each) */
    if (stream) {
        /* no more than a whole load of the text would take: a yaml that
         * fits in one window (PyTorch's) then gets its arena in huge pages
         * as a whole load does (ta_malloc_pages: up to 8 MB), not 4 KB
         * pages faulted in one by one */
        size_t window = (size_t)ta_native_stream_window(stream) * 2048;
        ta_arena_expect(f->fixed, kept_text ? 0 : len);
        ta_arena_expect(f->arena, len * 6 < window ? len * 6 : window);
    } else {
        ta_arena_expect(f->arena, (kept_text ? 0 : len) + len * 6);
    }
    ta_map_init_in(&f->index, NULL, f->arena);
    if (!set_src(f, &f->src, text, len, source ? source : "<string>", kept_text)) st = TA_ERR_NOMEM;
    if (tags_text) {
        f->has_tags = true;
        if (!set_src(f, &f->tags_src, tags_text, tags_len, tags_source ? tags_source : "<tags>",
                     kept_tags))
            st = TA_ERR_NOMEM;
        else if (st == TA_OK)
            st = load_one(&L, &f->tags_src, TAGS_YAML);
    } else {
        free(kept_tags);
    }
    if (st == TA_OK) st = load_one(&L, &f->src, NATIVE_FUNCTIONS_YAML);
    ta_diags_destroy(L.tmp);
    ta_type_pool_destroy(L.types);
    if (st != TA_OK) {
        ta_native_destroy(f);
        return st;
    }
    *out = f;
    return L.errors ? TA_ERR_PARSE : TA_OK;
}

/* ta_native_load_buffer into a window of stream, or a whole file (NULL). */
static ta_status load_buffer(const char *text, size_t len, const char *source,
                             const char *tags_text, size_t tags_len, const char *tags_source,
                             ta_native_stream *stream, ta_native_file **out, ta_diags *diags)
{
    *out = NULL;
    if (too_large(source, len, diags) || too_large(tags_source, tags_len, diags))
        return TA_ERR_INVALID;
    return load(text, len, source, tags_text, tags_len, tags_source, NULL, NULL, stream, out,
                diags);
}

/* ta_native_load_path into a window of stream, or a whole file (NULL). */
static ta_status load_path(const char *path, const char *tags_path, ta_native_stream *stream,
                           ta_native_file **out, ta_diags *diags)
{
    *out = NULL;
    char *text = NULL, *tags = NULL;
    size_t len = 0, tags_len = 0;
    ta_status st = ta_read_file(path, &text, &len, diags);
    if (st == TA_OK && tags_path) st = ta_read_file(tags_path, &tags, &tags_len, diags);
    if (st != TA_OK) {
        free(text);
        free(tags);
        return st;
    }
    /* The file keeps the texts it read rather than a copy of them. */
    return load(text, len, path, tags, tags_len, tags_path, text, tags, stream, out, diags);
}

ta_status ta_native_load_buffer(const char *text, size_t len, const char *source,
                                const char *tags_text, size_t tags_len,
                                const char *tags_source, ta_native_file **out,
                                ta_diags *diags)
{
    return load_buffer(text, len, source, tags_text, tags_len, tags_source, NULL, out, diags);
}

ta_status ta_native_load_path(const char *path, const char *tags_path,
                              ta_native_file **out, ta_diags *diags)
{
    return load_path(path, tags_path, NULL, out, diags);
}

ta_status ta_native_load_window_buffer(const char *text, size_t len, const char *source,
                                       const char *tags_text, size_t tags_len,
                                       const char *tags_source, ta_native_stream *stream,
                                       ta_native_file **out, ta_diags *diags)
{
    return load_buffer(text, len, source, tags_text, tags_len, tags_source, stream, out, diags);
}

ta_status ta_native_load_window_path(const char *path, const char *tags_path,
                                     ta_native_stream *stream, ta_native_file **out,
                                     ta_diags *diags)
{
    return load_path(path, tags_path, stream, out, diags);
}

static const ta_native_keyval *keyval(const ta_native_func *fn, ta_native_key k)
{
    for (uint32_t i = 0; fn && i < fn->nkeys; i++)
        if (fn->keys[i].key == k) return &fn->keys[i];
    return NULL;
}

bool ta_native_has_key(const ta_native_func *fn, ta_native_key k) { return keyval(fn, k) != NULL; }

/* The position of byte off of fn's entry: counted from the entry's start,
 * which every key and value of it follow (from the file's start otherwise). */
static ta_native_pos entry_pos(const ta_native_func *fn, uint32_t off, uint32_t len)
{
    ta_native_pos from = fn->pos;
    if (off < from.off) from = (ta_native_pos){1, 1, 0, 0};
    return ta_yaml_pos_from(&fn->file->src, from, off, len);
}

ta_native_pos ta_native_key_pos(const ta_native_func *fn, ta_native_key k)
{
    const ta_native_keyval *kv = keyval(fn, k);
    return kv ? entry_pos(fn, kv->key_off, kv->key_len) : (ta_native_pos){0, 0, 0, 0};
}

ta_native_pos ta_native_val_pos(const ta_native_func *fn, ta_native_key k)
{
    const ta_native_keyval *kv = keyval(fn, k);
    return kv ? entry_pos(fn, kv->val_off, kv->val_len) : (ta_native_pos){0, 0, 0, 0};
}

void ta_native_destroy(ta_native_file *f)
{
    if (!f) return;
    free(f->funcs);
    ta_map_clear(&f->index);
    free(f->dups);
    for (int i = 0; i < f->nkept; i++) free(f->kept[i]);
    if (f->fixed != f->arena) ta_arena_destroy(f->fixed);
    ta_arena_destroy(f->arena);
    free(f);
}
