/* extract.c - the set of operator declarations found in sources (see
 * tensoralias/extract.h): scanning one text, keeping each declaration with
 * the source lines it was written on, qualifying it with its namespace,
 * parsing it, and mapping schema offsets back to file positions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/grow.h"
#include "base/map.h"
#include "extract/cpp_pp.h"
#include "extract/extract_internal.h"
#include "extract/py_internal.h"

/* A decoded run located in the source. */
typedef struct lseg {
    uint32_t dec, line, col, src_len;
    bool verbatim;
} lseg;

typedef struct xop {
    ta_extract_op pub;
    lseg *seg;
    uint32_t nseg;
    uint32_t first_line;  /* line of lines[0] */
    const char **lines;   /* the source lines the segments point into */
    uint32_t *line_len;
    uint32_t nlines;
    uint32_t *cond;       /* xdecl's preprocessor branches */
    uint32_t ncond;
    const char *defer;    /* xdecl's: the namespace is resolved at finish */
} xop;

/* One source of a deferred namespace (xf_add_link): a namespace, or
 * another key; counted only when requires (if any) has a source itself. */
typedef struct xlink {
    const char *ns;       /* NULL: from, or an unknown namespace */
    const char *from;
    const char *requires;
    const char *file;     /* where the link was made, for notes */
    uint32_t line;
    struct xlink *next;
} xlink;

struct ta_extract {
    ta_arena *arena;
    xop *ops;
    size_t n, cap;
    /* Keys and values are arena strings (the map borrows them). */
    ta_map kernels;  /* "ns::name" or "name" -> 1: a kernel is registered */
    ta_map links;    /* deferred-namespace key -> xlink list */
    xpp_shared *pp;  /* the C++ preprocessor's macros and headers */
    xpy_shared *py;  /* the Python helpers read so far */
    const char *root; /* the directory being walked (ta_extract_path), or NULL */
    bool no_git;
    /* compile_commands.json: the one given (opts), read on the first
     * ta_extract_path; else the first found at the top of a directory
     * walked or in its build/ */
    const char *cdb_path;
    bool cdb_read;
    ta_map cdb;      /* a file's real path -> xcdb_entry */
    size_t nfiles;
    uint64_t nbytes;
    size_t finished; /* 1 + the operator count ta_extract_finish last saw */
};

static const ta_extract_rule rules[] = {
    {XR_SYNTAX, TA_SEV_ERROR, "the schema does not parse as PyTorch's schema parser reads it"},
    {XR_NAMESPACE, TA_SEV_ERROR,
     "a schema names a namespace other than its TORCH_LIBRARY block's or Library's (torch refuses to register it)"},
    {XR_DUPLICATE, TA_SEV_WARNING,
     "one file defines the same operator and overload twice (torch refuses the second when both are built)"},
    {"extract-io", TA_SEV_ERROR, "a source file or directory cannot be read"},
    {XR_LITERAL, TA_SEV_WARNING, "a string literal that declares a schema is not terminated"},
    {XR_UNRESOLVED, TA_SEV_NOTE,
     "a schema or namespace is spelled with a macro, variable or f-string the scanner does not resolve"},
    {XR_INFERRED, TA_SEV_NOTE,
     "the schema is inferred at registration (from a C++ kernel or Python type hints) and is not in the source"},
    {XR_CONDITIONAL, TA_SEV_NOTE,
     "operators declared in one branch of an #if exist only in the builds that compile that branch"},
};

const ta_extract_rule *ta_extract_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

const char *ta_extract_how_name(ta_extract_how how)
{
    switch (how) {
    case TA_HOW_DEF: return "def";
    case TA_HOW_FRAGMENT: return "fragment";
    case TA_HOW_DEF_FUNCTION: return "def-function";
    case TA_HOW_REGISTER: return "register";
    case TA_HOW_SELECTIVE: return "selective";
    case TA_HOW_PY_LIBRARY: return "python-library";
    case TA_HOW_PY_DEFINE: return "python-define";
    case TA_HOW_PY_CUSTOM_OP: return "custom-op";
    }
    return "unknown";
}

ta_extract_lang ta_extract_lang_of(const char *path)
{
    static const char *const cpp[] = {".cpp", ".cc", ".cu", ".cxx", ".c++", ".cuh", ".h",
                                      ".hh", ".hpp", ".hxx", ".mm"};
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/')) return TA_LANG_NONE;
    if (!strcmp(dot, ".py") || !strcmp(dot, ".pyi")) return TA_LANG_PYTHON;
    for (size_t i = 0; i < sizeof cpp / sizeof cpp[0]; i++)
        if (!strcmp(dot, cpp[i])) return TA_LANG_CPP;
    return TA_LANG_NONE;
}

/* ---- the set ------------------------------------------------------------ */


ta_status ta_extract_create(const ta_extract_opts *opts, ta_extract **out)
{
    ta_extract *x = *out = ta_calloc(1, sizeof *x);
    if (!x || ta_arena_create(&x->arena) != TA_OK) {
        free(x);
        *out = NULL;
        return TA_ERR_NOMEM;
    }
    ta_map_init(&x->kernels, NULL);
    ta_map_init(&x->links, NULL);
    x->no_git = opts && opts->no_git;
    ta_map_init(&x->cdb, NULL);
    if (opts && opts->compile_commands &&
        !(x->cdb_path = ta_arena_strndup(x->arena, opts->compile_commands, strlen(opts->compile_commands)))) {
        ta_extract_destroy(x);
        *out = NULL;
        return TA_ERR_NOMEM;
    }
    ta_status st = xs_create(x->arena, opts ? opts->defines : NULL, opts ? opts->include_dirs : NULL,
                             opts && opts->no_includes, &x->pp);
    if (st == TA_OK) st = xpy_shared_create(x->arena, &x->py);
    if (st != TA_OK) {
        ta_extract_destroy(x);
        *out = NULL;
    }
    return st;
}

void ta_extract_destroy(ta_extract *x)
{
    if (!x) return;
    xs_destroy(x->pp);
    xpy_shared_free(x->py);
    ta_arena_destroy(x->arena);
    free(x->ops);
    ta_map_clear(&x->kernels);
    ta_map_clear(&x->links);
    ta_map_clear(&x->cdb);
    free(x);
}

size_t ta_extract_count(const ta_extract *x) { return x ? x->n : 0; }
const ta_extract_op *ta_extract_get(const ta_extract *x, size_t i)
{
    return x && i < x->n ? &x->ops[i].pub : NULL;
}
size_t ta_extract_nfiles(const ta_extract *x) { return x ? x->nfiles : 0; }
uint64_t ta_extract_nbytes(const ta_extract *x) { return x ? x->nbytes : 0; }
bool ta_extract_no_git(const ta_extract *x) { return x->no_git; }

xpp_shared *xs_pp(ta_extract *x) { return x->pp; }
xpy_shared *xs_py(ta_extract *x) { return x->py; }
const char *xf_root(const ta_extract *x) { return x->root; }
void xf_set_root(ta_extract *x, const char *root) { x->root = root; }

ta_status xf_read_compile_db(ta_extract *x, const char *dir, ta_diags *diags)
{
    if (x->cdb_read || !xs_reads_includes(x->pp)) return TA_OK;
    if (x->cdb_path) {
        x->cdb_read = true;
        return xcdb_load(x->pp, &x->cdb, x->cdb_path, diags);
    }
    if (!dir) return TA_OK;
    static const char *const where[] = {"compile_commands.json", "build/compile_commands.json"};
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        size_t dl = strlen(dir), wl = strlen(where[i]);
        char *path = ta_arena_alloc(x->arena, dl + 1 + wl + 1);
        if (!path) return TA_ERR_NOMEM;
        memcpy(path, dir, dl);
        path[dl] = '/';
        memcpy(path + dl + 1, where[i], wl + 1);
        if (access(path, R_OK)) continue;
        x->cdb_read = true;
        ta_status st = xcdb_load(x->pp, &x->cdb, path, diags);
        return st == TA_ERR_IO ? TA_OK : st; /* noted; the walk goes on */
    }
    return TA_OK;
}

/* ---- positions ----------------------------------------------------------- */

void xf_pos(const xfile *f, uint32_t off, uint32_t *line, uint32_t *col)
{
    uint32_t lo = 0, hi = f->nlines; /* the last line starting at or before off */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->lines[mid] <= off) lo = mid;
        else hi = mid;
    }
    *line = lo + 1;
    *col = off - (f->nlines ? f->lines[lo] : 0) + 1;
}

static uint32_t line_end(const xfile *f, uint32_t start)
{
    const char *nl = memchr(f->s + start, '\n', f->n - start);
    uint32_t e = nl ? (uint32_t)(nl - f->s) : f->n;
    if (e > start && f->s[e - 1] == '\r') e--;
    return e;
}

void xf_report(xfile *f, ta_severity sev, uint32_t off, uint32_t len, const char *rule,
               const char *hint, const char *fmt, ...)
{
    if (off > f->n) off = f->n;
    uint32_t line, col;
    xf_pos(f, off, &line, &col);
    uint32_t start = off - (col - 1), end = line_end(f, start);
    if (len == 0) len = 1;
    if (off + len > end) len = end > off ? end - off : 1;
    ta_loc loc = {f->name, line, col, len, f->s + start, end - start};
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_diag_vemit(f->diags, sev, &loc, rule, fmt, ap);
    va_end(ap);
    if (st == TA_OK && hint) st = ta_diag_hint(f->diags, "%s", hint);
    if (st != TA_OK && f->st == TA_OK) f->st = st;
}

/* ---- declarations ------------------------------------------------------- */

/* The operator name a schema starts with: [start, end) of s, blanks
 * skipped; *sep is the offset of "::" in it or UINT32_MAX. */
static void name_span(const char *s, uint32_t n, uint32_t *start, uint32_t *end, uint32_t *sep)
{
    uint32_t a = 0;
    while (a < n && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n' || s[a] == '\r')) a++;
    uint32_t b = a;
    *sep = UINT32_MAX;
    while (b < n && s[b] != '(' && s[b] != ' ' && s[b] != '\t' && s[b] != '\n') {
        if (s[b] == ':' && b + 1 < n && s[b + 1] == ':' && *sep == UINT32_MAX) *sep = b;
        b++;
    }
    *start = a;
    *end = b;
}

/* Locates the segments of t in f and keeps them, with the source lines
 * they point into, in op. When the block's namespace was inserted (shift
 * bytes at decoded offset at), the bytes after it move and the namespace
 * maps to where the operator name is written. */
static void keep_map(xfile *f, xop *op, const xtext *t, uint32_t at, uint32_t shift)
{
    ta_arena *a = f->x->arena;
    uint32_t nseg = t->nseg + (shift ? 1 : 0);
    op->seg = ta_arena_alloc(a, (nseg ? nseg : 1) * sizeof *op->seg);
    if (!op->seg) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    uint32_t lo = UINT32_MAX, hi = 0;
    bool inserted = !shift;
    for (uint32_t i = 0; i <= t->nseg; i++) {
        const xseg *g = i < t->nseg ? &t->seg[i] : NULL;
        if (!inserted && (!g || g->dec >= at)) {
            /* the namespace: at the source of the name's first byte */
            lseg *l = &op->seg[op->nseg++];
            const xseg *name = g ? g : i ? &t->seg[i - 1] : NULL;
            if (name) xf_pos(f, name->src + (name->verbatim && at > name->dec ? at - name->dec : 0), &l->line, &l->col);
            else l->line = op->pub.line, l->col = op->pub.col;
            l->dec = at;
            l->src_len = 1;
            l->verbatim = false;
            inserted = true;
        }
        if (!g) break;
        lseg *l = &op->seg[op->nseg++];
        xf_pos(f, g->src, &l->line, &l->col);
        l->dec = g->dec + (g->dec >= at ? shift : 0);
        l->src_len = g->src_len;
        l->verbatim = g->verbatim;
        if (l->line < lo) lo = l->line;
        if (l->line > hi) hi = l->line;
    }
    if (lo == UINT32_MAX) lo = hi = op->pub.line;
    op->first_line = lo;
    op->nlines = hi - lo + 1;
    op->lines = ta_arena_alloc(a, op->nlines * sizeof *op->lines);
    op->line_len = ta_arena_alloc(a, op->nlines * sizeof *op->line_len);
    if (!op->lines || !op->line_len) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    for (uint32_t k = 0; k < op->nlines; k++) {
        uint32_t ln = lo + k;
        if (ln == 0 || ln > f->nlines) continue;
        uint32_t start = f->lines[ln - 1], end = line_end(f, start);
        op->lines[k] = ta_arena_strndup(a, f->s + start, end - start);
        op->line_len[k] = end - start;
        if (!op->lines[k]) f->st = TA_ERR_NOMEM;
    }
}

/* s[0..n) with "ns::" inserted at offset at. */
static char *qualified(ta_arena *a, const char *ns, uint32_t ns_len, const char *s, uint32_t n,
                       uint32_t at)
{
    char *q = ta_arena_alloc(a, (size_t)ns_len + 2 + n + 1);
    if (!q) return NULL;
    memcpy(q, s, at);
    memcpy(q + at, ns, ns_len);
    memcpy(q + at + ns_len, "::", 2);
    memcpy(q + at + ns_len + 2, s + at, n - at);
    q[ns_len + 2 + n] = '\0';
    return q;
}

static ta_status parse_op(ta_extract *x, size_t index, ta_diags *diags);

/* The source offset of decoded byte k of t. */
static uint32_t source_of(const xtext *t, uint32_t k, uint32_t fallback)
{
    uint32_t off = t->nseg ? t->seg[0].src : fallback;
    for (uint32_t i = 0; i < t->nseg; i++)
        if (t->seg[i].dec <= k) off = t->seg[i].src + (t->seg[i].verbatim ? k - t->seg[i].dec : 0);
    return off;
}

/* A Jinja template (FBGEMM generates sources from them): "{{ x }}" in the
 * schema. A note; the generated source is the one to check. */
static bool template_text(xfile *f, const xdecl *d)
{
    const xtext *t = d->text;
    const char *o = memmem(t->s, t->n, "{{", 2);
    if (!o || !memmem(o, t->n - (size_t)(o - t->s), "}}", 2)) return false;
    xf_report(f, TA_SEV_NOTE, source_of(t, (uint32_t)(o - t->s), d->anchor), 2, XR_UNRESOLVED, NULL,
              "the schema holds a template placeholder; check the generated source instead");
    return true;
}

/* The namespace of the declaration: written in the schema (which must be
 * the block's, when there is a block) or supplied by the block, then
 * inserted before the name (*shift bytes). a is where the name starts,
 * sep its "::" or UINT32_MAX. */
static void resolve_namespace(xfile *f, const xdecl *d, uint32_t a, uint32_t sep, const char **ns,
                              uint32_t *ns_len, uint32_t *shift)
{
    const xtext *t = d->text;
    *ns = NULL;
    *ns_len = *shift = 0;
    if (sep == UINT32_MAX) {
        if (d->ns) {
            *ns = d->ns;
            *ns_len = d->ns_len;
            *shift = d->ns_len + 2;
        }
        return;
    }
    *ns = t->s + a;
    *ns_len = sep - a;
    if (d->ns && (d->ns_len != *ns_len || memcmp(d->ns, *ns, *ns_len)))
        xf_report(f, TA_SEV_ERROR, source_of(t, a, d->anchor), *ns_len, XR_NAMESPACE,
                  "drop the namespace from the schema; the block supplies it",
                  "schema names namespace '%.*s' inside the '%.*s' library; torch refuses to register it",
                  (int)*ns_len, *ns, (int)d->ns_len, d->ns);
}

void xf_add_op(xfile *f, const xdecl *d)
{
    ta_extract *x = f->x;
    const xtext *t = d->text;
    if (t->oom || TA_GROW_ONE(x->ops, x->n, x->cap, 16) != TA_OK) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    if (!t->s || template_text(f, d)) return; /* (no s: nothing was read) */
    xop *op = &x->ops[x->n];
    memset(op, 0, sizeof *op);
    ta_extract_op *p = &op->pub;
    p->file = f->name;
    p->how = d->how;
    p->inferred = d->inferred;
    p->has_kernel = d->has_kernel;
    xf_pos(f, t->nseg && !d->expanded ? t->seg[0].src : d->anchor, &p->line, &p->col);
    uint32_t a, b, sep, ns_len, shift;
    const char *ns;
    name_span(t->s, t->n, &a, &b, &sep);
    resolve_namespace(f, d, a, sep, &ns, &ns_len, &shift);
    ta_arena *ar = x->arena;
    if (d->name_only) {
        p->name = shift ? qualified(ar, ns, ns_len, t->s + a, b - a, 0)
                        : ta_arena_strndup(ar, t->s + a, b - a);
    } else {
        char *s = shift ? qualified(ar, ns, ns_len, t->s, t->n, a) : ta_arena_strndup(ar, t->s, t->n);
        p->schema = s;
        p->schema_len = t->n + shift;
        p->name = s ? ta_arena_strndup(ar, s + a, b - a + shift) : NULL;
    }
    p->ns = ns ? ta_arena_strndup(ar, ns, ns_len) : NULL;
    if (!p->name || (!d->name_only && !p->schema) || (ns && !p->ns)) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    keep_map(f, op, t, a, d->name_only ? 0 : shift);
    if (d->ncond && (op->cond = ta_arena_alloc(ar, 2 * d->ncond * sizeof *op->cond))) {
        memcpy(op->cond, d->cond, 2 * d->ncond * sizeof *op->cond);
        op->ncond = d->ncond;
    } else if (d->ncond) {
        f->st = TA_ERR_NOMEM;
    }
    if (d->defer && !ns && !(op->defer = ta_arena_strndup(ar, d->defer, strlen(d->defer))))
        f->st = TA_ERR_NOMEM;
    if (f->st != TA_OK) return;
    x->n++;
    if (d->has_kernel) xf_add_kernel(f, NULL, 0, p->name, (uint32_t)strlen(p->name));
    if (p->schema && !op->defer) {
        ta_status st = parse_op(x, x->n - 1, f->diags);
        if (st != TA_OK) f->st = st;
    }
}

void xf_add_link(xfile *f, const char *key, const char *ns, uint32_t ns_len, const char *from)
{
    xf_add_link_if(f, key, ns, ns_len, from, NULL);
}

void xf_add_link_if(xfile *f, const char *key, const char *ns, uint32_t ns_len, const char *from,
                    const char *requires)
{
    ta_extract *x = f->x;
    ta_arena *a = x->arena;
    xlink *l = ta_arena_alloc(a, sizeof *l);
    char *k = ta_arena_strndup(a, key, strlen(key));
    ta_map_entry *e = NULL;
    if (!l || !k || (ns && !(l->ns = ta_arena_strndup(a, ns, ns_len))) ||
        (from && !(l->from = ta_arena_strndup(a, from, strlen(from)))) ||
        (requires && !(l->requires = ta_arena_strndup(a, requires, strlen(requires)))) ||
        ta_map_add(&x->links, k, strlen(k), ta_map_ptr(NULL), &e) != TA_OK) {
        f->st = TA_ERR_NOMEM;
        return;
    }
    l->file = f->name;
    l->next = e->value.ptr;
    e->value = ta_map_ptr(l);
}

void xf_add_kernel(xfile *f, const char *ns, uint32_t ns_len, const char *name, uint32_t name_len)
{
    ta_extract *x = f->x;
    bool qualified_name = memchr(name, ':', name_len) != NULL;
    const char *k = ns && !qualified_name ? qualified(x->arena, ns, ns_len, name, name_len, 0)
                                          : ta_arena_strndup(x->arena, name, name_len);
    if (!k || ta_map_add(&x->kernels, k, strlen(k), ta_map_int(1), NULL) != TA_OK)
        f->st = TA_ERR_NOMEM;
}

/* ---- mapping back ------------------------------------------------------- */

/* The segment holding decoded byte off (the last one starting at or
 * before it). */
static const lseg *seg_at(const xop *op, uint32_t off)
{
    uint32_t lo = 0, hi = op->nseg;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (op->seg[mid].dec <= off) lo = mid;
        else hi = mid;
    }
    return &op->seg[lo];
}

/* Line and column of decoded byte off, and the column just past the
 * source bytes it came from. */
static void byte_pos(const xop *op, uint32_t off, uint32_t *line, uint32_t *col, uint32_t *end)
{
    const lseg *g = seg_at(op, off);
    *line = g->line;
    if (g->verbatim && off >= g->dec && off - g->dec < g->src_len) {
        *col = g->col + (off - g->dec);
        *end = *col + 1;
    } else {
        *col = g->col;
        *end = g->col + g->src_len;
    }
}

bool ta_extract_locate(const ta_extract *x, size_t i, uint32_t off, uint32_t len, ta_loc *loc)
{
    if (!x || i >= x->n || !x->ops[i].pub.schema) return false;
    const xop *op = &x->ops[i];
    const ta_extract_op *p = &op->pub;
    memset(loc, 0, sizeof *loc);
    loc->file = p->file;
    if (!op->nseg) {
        loc->line = p->line;
        loc->col = p->col;
        loc->length = 1;
        return true;
    }
    bool past_end = off >= p->schema_len;
    if (past_end) off = p->schema_len ? p->schema_len - 1 : 0;
    if (len == 0) len = 1;
    if (off + len > p->schema_len) len = p->schema_len > off ? p->schema_len - off : 1;
    uint32_t line, col, end, line2, col2, end2;
    byte_pos(op, off, &line, &col, &end);
    byte_pos(op, off + len - 1, &line2, &col2, &end2);
    if (past_end) col = end; /* just after the last byte */
    loc->line = line;
    loc->col = col;
    /* the span's end on the same line and after its start; otherwise (a
     * span that continues on another line, or pieces out of source order,
     * as a custom_op's type before its name) the first piece alone */
    loc->length = !past_end && line2 == line && end2 > col ? end2 - col : past_end ? 1 : end - col;
    uint32_t k = line - op->first_line;
    if (k < op->nlines && op->lines[k]) {
        loc->line_text = op->lines[k];
        loc->line_len = op->line_len[k];
        if (loc->col > loc->line_len + 1) loc->col = loc->line_len + 1;
        if (loc->col + loc->length > loc->line_len + 1)
            loc->length = loc->line_len + 1 > loc->col ? loc->line_len + 1 - loc->col : 1;
    }
    return true;
}

/* Byte offset of 1-based line and column in s (as the parser counted them
 * with no base position). */
static uint32_t offset_of(const char *s, uint32_t n, uint32_t line, uint32_t col)
{
    uint32_t off = 0;
    for (uint32_t l = 1; l < line && off < n; off++)
        if (s[off] == '\n') l++;
    off += col ? col - 1 : 0;
    return off > n ? n : off;
}

static ta_status parse_op(ta_extract *x, size_t index, ta_diags *diags)
{
    ta_extract_op *p = &x->ops[index].pub;
    ta_diags *tmp;
    if (ta_diags_create(&tmp) != TA_OK) return TA_ERR_NOMEM;
    ta_schema *s = NULL;
    ta_status st = ta_schema_parse(x->arena, p->schema, p->schema_len, NULL, &s, tmp), res = TA_OK;
    if (st == TA_ERR_NOMEM) res = st;
    p->parsed = st == TA_OK ? s : NULL;
    for (size_t i = 0; i < ta_diags_count(tmp) && res == TA_OK; i++) {
        const ta_diag *g = ta_diags_get(tmp, i);
        ta_loc loc;
        uint32_t off = offset_of(p->schema, p->schema_len, g->line, g->col);
        ta_extract_locate(x, index, off, g->length, &loc);
        res = ta_diag_emit(diags, g->severity, &loc, g->rule, "%s", g->message);
        if (res == TA_OK && g->hint) res = ta_diag_hint(diags, "%s", g->hint);
    }
    ta_diags_destroy(tmp);
    return res;
}

/* ---- scanning ------------------------------------------------------------ */

/* Whether a Python file has an arrow that may belong to a schema text (a
 * constant another file's define() uses): any "->" but a return annotation,
 * whose line ends with the ':' of a def (a trailing comment aside). Most
 * Python files have annotations and no schema: they are not lexed. */
static bool py_schema_arrow(const char *s, size_t n)
{
    const char *e = s + n;
    for (const char *p = s; (p = memmem(p, (size_t)(e - p), "->", 2)); p += 2) {
        const char *eol = memchr(p, '\n', (size_t)(e - p));
        if (!eol) eol = e;
        const char *hash = memchr(p, '#', (size_t)(eol - p));
        const char *end = hash ? hash : eol;
        while (end > p + 2 && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
        if (end[-1] != ':') return true;
    }
    return false;
}

/* Cheap tests that a file may declare something, so that the common file
 * (no registration at all) costs a few memmem calls and no lexing. */
static bool worth_lexing(const char *s, size_t n, ta_extract_lang lang)
{
    static const char *const cpp[] = {"TORCH_LIBRARY", "TORCH_SELECTIVE", "def(", "def (", ".op(",
                                      "RegisterOperators"};
    static const char *const py[] = {"define(", "Library", "custom_op", "triton_op", "impl("};
    const char *const *needles = lang == TA_LANG_CPP ? cpp : py;
    size_t k = lang == TA_LANG_CPP ? sizeof cpp / sizeof cpp[0] : sizeof py / sizeof py[0];
    for (size_t i = 0; i < k; i++)
        if (memmem(s, n, needles[i], strlen(needles[i]))) return true;
    return lang == TA_LANG_PYTHON && py_schema_arrow(s, n);
}

const char *xf_intern(ta_extract *x, const char *file)
{
    const char *name = file ? file : "<string>";
    return ta_arena_strndup(x->arena, name, strlen(name));
}

bool xf_index_lines(xfile *f)
{
    uint32_t cap = 1;
    for (const char *p = f->s, *e = f->s + f->n; (p = memchr(p, '\n', (size_t)(e - p))); p++) cap++;
    f->lines = ta_malloc((size_t)cap * sizeof *f->lines);
    if (!f->lines) return false;
    f->lines[0] = 0;
    f->nlines = 1;
    for (const char *p = f->s, *e = f->s + f->n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        f->lines[f->nlines++] = (uint32_t)(p - f->s) + 1;
    return true;
}

ta_status ta_extract_scan(ta_extract *x, const char *file, ta_extract_lang lang,
                          const char *text, size_t len, ta_diags *diags)
{
    if (!x || lang == TA_LANG_NONE || (!text && len)) return TA_ERR_INVALID;
    if (len >= UINT32_MAX / 2) {
        ta_loc loc = {file, 0, 0, 0, NULL, 0};
        ta_diag_error(diags, &loc, "extract-io", "file larger than 2 GiB, not scanned");
        return TA_ERR_INVALID;
    }
    x->nfiles++;
    x->nbytes += len;
    if (!len || !worth_lexing(text, len, lang)) return TA_OK;
    xfile f = {0};
    f.x = x;
    f.name = xf_intern(x, file);
    f.s = text;
    f.n = (uint32_t)len;
    f.diags = diags;
    if (!f.name || !xf_index_lines(&f)) return TA_ERR_NOMEM;
    f.root = x->root;
    const xcdb_entry *cdb = lang == TA_LANG_CPP ? xcdb_find(&x->cdb, file) : NULL;
    if (cdb) {
        f.defines = cdb->defines;
        f.ndefines = cdb->ndefines;
        f.include_dirs = cdb->include_dirs;
    }
    if (lang == TA_LANG_CPP) {
        ta_xcpp_lex(&f);
        if (f.st == TA_OK) ta_xcpp_preprocess(&f);
        if (f.st == TA_OK) ta_xcpp_scan(&f);
    } else {
        ta_xpy_lex(&f);
        if (f.st == TA_OK) ta_xpy_scan(&f);
    }
    free(f.tok);
    free(f.lines);
    free(f.buf);
    return f.st;
}

/* ---- the whole set -------------------------------------------------------- */

static bool has_kernel_named(const ta_extract *x, const char *name)
{
    return ta_map_find_str(&x->kernels, name) != NULL;
}

/* ns::op.overload -> ns::op and op.overload -> op (in buf). */
static const char *without_overload(const char *name, char *buf, size_t cap)
{
    const char *sep = strstr(name, "::");
    const char *dot = strchr(sep ? sep + 2 : name, '.');
    if (!dot || (size_t)(dot - name) >= cap) return NULL;
    memcpy(buf, name, (size_t)(dot - name));
    buf[dot - name] = '\0';
    return buf;
}

static bool kernel_for(const ta_extract *x, const ta_extract_op *p)
{
    char buf[512];
    const char *base = without_overload(p->name, buf, sizeof buf);
    const char *sep = strstr(p->name, "::");
    const char *bare = sep ? sep + 2 : p->name;
    if (has_kernel_named(x, p->name) || (base && has_kernel_named(x, base)) ||
        has_kernel_named(x, bare))
        return true;
    const char *bsep = base ? strstr(base, "::") : NULL;
    return bsep && has_kernel_named(x, bsep + 2);
}

/* Whether a and b sit in different branches of one #if. */
static bool exclusive(const xop *a, const xop *b)
{
    for (uint32_t i = 0; i < a->ncond; i++)
        for (uint32_t k = 0; k < b->ncond; k++)
            if (a->cond[2 * i] == b->cond[2 * k] && a->cond[2 * i + 1] != b->cond[2 * k + 1])
                return true;
    return false;
}

/* One file defining the same name twice (across files, two definitions are
 * usually alternative builds: a stable-ABI binding next to the classic one,
 * a Python registration next to the C++ one). */
static ta_status report_duplicates(ta_extract *x, ta_diags *diags)
{
    ta_map seen; /* name -> index of its latest definition */
    ta_map_init(&seen, NULL);
    ta_status st = TA_OK;
    for (size_t i = 0; i < x->n && st == TA_OK; i++) {
        const ta_extract_op *dup = &x->ops[i].pub;
        if (!dup->ns || !dup->schema) continue;
        ta_map_entry *e = NULL;
        st = ta_map_add(&seen, dup->name, strlen(dup->name), ta_map_int((int64_t)i), &e);
        if (st != TA_OK || (size_t)e->value.i == i) continue;
        size_t prev = (size_t)e->value.i;
        const ta_extract_op *first = &x->ops[prev].pub;
        e->value = ta_map_int((int64_t)i);
        if (first->file != dup->file || exclusive(&x->ops[prev], &x->ops[i])) continue;
        ta_loc loc;
        ta_extract_locate(x, i, 0, (uint32_t)strcspn(dup->schema, "("), &loc);
        st = ta_diag_warning(diags, &loc, XR_DUPLICATE, "operator '%s' is already defined at %s:%u",
                             dup->name, first->file, first->line);
        if (st == TA_OK)
            st = ta_diag_hint(diags, "give one of them an overload name, or keep the two apart with the preprocessor");
    }
    ta_map_clear(&seen);
    return st;
}

/* ---- deferred namespaces ------------------------------------------------- */

/* The namespaces a key stands for, gathered through its links. */
typedef struct nsset {
    const char *v[8];
    int n;
    bool unknown;                 /* a source whose namespace is not known */
    const void *visited[256];
    int nvisited;
} nsset;

static const xlink *links_of(const ta_extract *x, const char *key)
{
    const ta_map_entry *e = ta_map_find_str(&x->links, key);
    return e ? e->value.ptr : NULL;
}

static void gather(const ta_extract *x, const char *key, nsset *r)
{
    const xlink *head = links_of(x, key);
    if (!head) return;
    for (int k = 0; k < r->nvisited; k++)
        if (r->visited[k] == head) return;
    if (r->nvisited == 256) {
        r->unknown = true;
        return;
    }
    r->visited[r->nvisited++] = head;
    for (const xlink *l = head; l; l = l->next) {
        if (l->requires && !links_of(x, l->requires)) continue;
        if (l->from) {
            gather(x, l->from, r);
        } else if (!l->ns) {
            r->unknown = true;
        } else {
            bool seen = false;
            for (int k = 0; k < r->n && !seen; k++) seen = !strcmp(r->v[k], l->ns);
            if (!seen && r->n < 8) r->v[r->n++] = l->ns;
        }
    }
}

/* Op i's namespace found at last: inserted before its name, the map of
 * its bytes shifted (a verbatim run split where the name starts). */
static ta_status qualify_late(ta_extract *x, xop *op, const char *ns)
{
    ta_extract_op *p = &op->pub;
    ta_arena *ar = x->arena;
    uint32_t nl = (uint32_t)strlen(ns), a = 0, b, sep;
    if (p->schema) {
        name_span(p->schema, p->schema_len, &a, &b, &sep);
        char *q = qualified(ar, ns, nl, p->schema, p->schema_len, a);
        if (!q || !(p->name = ta_arena_strndup(ar, q + a, b - a + nl + 2))) return TA_ERR_NOMEM;
        p->schema = q;
        p->schema_len += nl + 2;
        lseg *seg = ta_arena_alloc(ar, (op->nseg + 2) * sizeof *seg);
        if (!seg) return TA_ERR_NOMEM;
        uint32_t n = 0;
        bool inserted = false;
        for (uint32_t k = 0; k <= op->nseg; k++) {
            lseg g = k < op->nseg ? op->seg[k] : (lseg){0};
            bool split = k < op->nseg && g.verbatim && g.dec < a && a < g.dec + g.src_len;
            if (split) { /* [dec, a) stays, [a, end) follows the namespace */
                seg[n] = g;
                seg[n++].src_len = a - g.dec;
                g.col += a - g.dec;
                g.src_len -= a - g.dec;
                g.dec = a;
            }
            if (!inserted && (k == op->nseg || g.dec >= a)) {
                const lseg *at = k < op->nseg ? &g : n ? &seg[n - 1] : NULL;
                seg[n++] = (lseg){a, at ? at->line : p->line, at ? at->col : p->col, 1, false};
                inserted = true;
            }
            if (k == op->nseg) break;
            if (g.dec >= a) g.dec += nl + 2;
            seg[n++] = g;
        }
        op->seg = seg;
        op->nseg = n;
    } else if (!(p->name = qualified(ar, ns, nl, p->name, (uint32_t)strlen(p->name), 0))) {
        return TA_ERR_NOMEM;
    }
    return (p->ns = ta_arena_strndup(ar, ns, nl)) ? TA_OK : TA_ERR_NOMEM;
}

/* Why a deferred namespace stays unknown, once per file and key. */
static ta_status note_unresolved(ta_extract *x, size_t i, const nsset *r, ta_map *noted, ta_diags *diags)
{
    const xop *op = &x->ops[i];
    char key[512];
    snprintf(key, sizeof key, "%s\1%s", op->pub.file, op->defer);
    ta_map_entry *e = NULL;
    char *k = ta_arena_strndup(x->arena, key, strlen(key));
    if (!k || ta_map_add(noted, k, strlen(k), ta_map_int(1), &e) != TA_OK) return TA_ERR_NOMEM;
    if (e->key != k || r->unknown) return TA_OK; /* noted already; an unknown block was noted where it is */
    ta_loc loc;
    if (op->pub.schema) ta_extract_locate(x, i, 0, 1, &loc);
    else loc = (ta_loc){op->pub.file, op->pub.line, op->pub.col, 1, NULL, 0};
    const char *what = op->defer + 2;
    int wl = (int)strcspn(what, "#@");
    if (r->n > 1)
        return ta_diag_note(diags, &loc, XR_UNRESOLVED,
                            "the library of '%.*s' comes from several namespaces ('%s', '%s'%s); its operators are listed without one",
                            wl, what, r->v[0], r->v[1], r->n > 2 ? ", ..." : "");
    return ta_diag_note(diags, &loc, XR_UNRESOLVED,
                        op->defer[0] == 'c'
                            ? "'%.*s' is given its torch::Library by its callers, and no TORCH_LIBRARY block in the sources passes one; its operators are listed without a namespace"
                            : "the library '%.*s' is not one the sources make with a namespace written out; its operators are listed without one",
                        wl, what);
}

static ta_status resolve_deferred(ta_extract *x, ta_diags *diags)
{
    ta_map noted;
    ta_map_init(&noted, NULL);
    ta_status st = TA_OK;
    for (size_t i = 0; i < x->n && st == TA_OK; i++) {
        xop *op = &x->ops[i];
        if (!op->defer) continue;
        nsset *r = ta_calloc(1, sizeof *r);
        if (!r) {
            st = TA_ERR_NOMEM;
            break;
        }
        gather(x, op->defer, r);
        if (r->n == 1 && !r->unknown) st = qualify_late(x, op, r->v[0]);
        else st = note_unresolved(x, i, r, &noted, diags);
        free(r);
        op->defer = NULL;
        if (st == TA_OK && op->pub.schema) st = parse_op(x, i, diags);
    }
    ta_map_clear(&noted);
    return st;
}

ta_status ta_extract_finish(ta_extract *x, ta_diags *diags)
{
    if (!x) return TA_ERR_INVALID;
    if (x->finished == x->n + 1) return TA_OK; /* nothing new since the last call */
    x->finished = x->n + 1;
    ta_status st = resolve_deferred(x, diags);
    if (st != TA_OK) return st;
    for (size_t i = 0; i < x->n; i++)
        if (!x->ops[i].pub.has_kernel) x->ops[i].pub.has_kernel = kernel_for(x, &x->ops[i].pub);
    return report_duplicates(x, diags);
}
