/* cpp_macro.c - macro definitions and the headers they come from (see
 * cpp_pp.h): a #define's tokens turned into a macro, the -D macros and -I
 * directories of the set, where a quoted #include is found, and each header
 * read once for the whole set as the list of what it defines, undefines and
 * includes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/grow.h"
#include "base/map.h"
#include "extract/cpp_pp.h"

/* ---- a definition ---------------------------------------------------------- */

static bool is_punct(const xtok *t, char c) { return t->kind == XT_PUNCT && t->punct == (uint16_t)(unsigned char)c; }

static bool spelled(const xfile *f, const xtok *t, const char *w)
{
    size_t n = strlen(w);
    return t->len == n && !memcmp(f->s + t->off, w, n);
}

/* "..." (three '.' tokens) at t[i]. */
static bool ellipsis(const xtok *t, uint32_t i, uint32_t n)
{
    return i + 2 < n && is_punct(&t[i], '.') && is_punct(&t[i + 1], '.') && is_punct(&t[i + 2], '.') &&
           t[i + 1].off == t[i].off + 1 && t[i + 2].off == t[i].off + 2;
}

/* The parameter list after "NAME(": names into params, returns the index
 * past ")" or 0 when malformed. */
static uint32_t parameters(const xtok *t, uint32_t n, uint32_t i, const xtok **params, uint16_t *np,
                           bool *variadic)
{
    *np = 0;
    *variadic = false;
    if (i < n && is_punct(&t[i], ')')) return i + 1;
    for (;;) {
        if (ellipsis(t, i, n)) {
            *variadic = true;
            i += 3;
        } else if (i < n && t[i].kind == XT_IDENT && *np < 256) {
            params[(*np)++] = &t[i++];
            if (ellipsis(t, i, n)) { /* GNU: NAME... */
                *variadic = true;
                i += 3;
            }
        } else {
            return 0;
        }
        if (i < n && is_punct(&t[i], ')')) return i + 1;
        if (*variadic || i >= n || !is_punct(&t[i], ',')) return 0;
        i++;
    }
}

static int16_t param_of(const xfile *f, const xtok *b, const xtok *const *params, uint16_t np,
                        bool variadic, bool named_va)
{
    if (b->kind != XT_IDENT) return -1;
    for (uint16_t p = 0; p < np; p++)
        if (b->len == params[p]->len && !memcmp(f->s + b->off, f->s + params[p]->off, b->len)) return (int16_t)p;
    if (variadic && !named_va && spelled(f, b, "__VA_ARGS__")) return (int16_t)np;
    return -1;
}

const xmacro *xm_parse(xfile *f, ta_arena *a, const xtok *t, uint32_t n, bool copy, uint32_t lo,
                       uint32_t hi, uint32_t id)
{
    if (!n || t[0].kind != XT_IDENT) return NULL;
    const xtok *params[256];
    uint16_t np = 0;
    bool variadic = false, fnlike = n > 1 && is_punct(&t[1], '(') && !(t[1].pp & XP_SPACE);
    uint32_t body = 1;
    if (fnlike && !(body = parameters(t, n, 2, params, &np, &variadic))) return NULL;
    /* GNU's NAME... names the variable arguments; C's ... calls them __VA_ARGS__ */
    bool named_va = variadic && np && ellipsis(t, (uint32_t)(params[np - 1] - t) + 1, n);
    xmacro *m = ta_arena_alloc(a, sizeof *m);
    uint32_t nb = n - body;
    xtok *bt = ta_arena_alloc(a, (nb ? nb : 1) * sizeof *bt);
    int16_t *pm = ta_arena_alloc(a, (nb ? nb : 1) * sizeof *pm);
    char *name = ta_arena_strndup(a, f->s + t[0].off, t[0].len);
    char *text = copy ? ta_arena_strndup(a, f->s + lo, hi - lo) : NULL;
    if (!m || !bt || !pm || !name || (copy && !text)) {
        f->st = TA_ERR_NOMEM;
        return NULL;
    }
    for (uint32_t k = 0; k < nb; k++) {
        bt[k] = t[body + k];
        pm[k] = fnlike ? param_of(f, &bt[k], params, np, variadic, named_va) : -1;
        if (copy) bt[k].off -= lo;
    }
    if (nb) bt[0].pp &= (uint8_t)~XP_SPACE; /* the replacement starts where the invocation is */
    m->name = name;
    m->name_len = t[0].len;
    m->text = text;
    m->body = bt;
    m->param = pm;
    m->nbody = nb;
    m->nparams = (uint16_t)(np + (variadic && !named_va ? 1 : 0));
    m->fnlike = fnlike;
    m->variadic = variadic;
    m->id = id;
    return m;
}

/* ---- the set's side ---------------------------------------------------------- */

struct xpp_shared {
    ta_arena *arena;
    uint32_t next_id;
    const xmacro **defines;
    uint32_t ndefines;
    const char **include_dirs; /* NULL-terminated */
    bool no_includes;
    ta_map resolved;           /* "dir\1name" -> path, or "" when not found */
    ta_map headers;            /* path -> xheader, or NULL when unreadable */
};

uint32_t xs_next_id(xpp_shared *s) { return ++s->next_id; }
ta_arena *xs_arena(xpp_shared *s) { return s->arena; }
const xmacro *const *xs_defines(const xpp_shared *s, uint32_t *n)
{
    *n = s->ndefines;
    return s->defines;
}
const char *const *xs_include_dirs(const xpp_shared *s) { return s->include_dirs; }
bool xs_reads_includes(const xpp_shared *s) { return !s->no_includes; }

const xmacro *xs_parse_define(xpp_shared *s, const char *d, size_t len, ta_status *st)
{
    const char *eq = memchr(d, '=', len);
    size_t nlen = eq ? (size_t)(eq - d) : len;
    const char *val = eq ? eq + 1 : "1";
    size_t vlen = eq ? len - nlen - 1 : 1;
    char *text = ta_arena_alloc(s->arena, nlen + 1 + vlen + 1);
    if (!text) {
        *st = TA_ERR_NOMEM;
        return NULL;
    }
    memcpy(text, d, nlen);
    text[nlen] = ' ';
    memcpy(text + nlen + 1, val, vlen);
    text[nlen + 1 + vlen] = '\0';
    xfile f = {0};
    f.s = text;
    f.n = (uint32_t)(nlen + 1 + vlen);
    xtoks v = {0};
    ta_xcpp_lex_range(&f, 0, f.n, false, &v);
    const xmacro *m = f.st == TA_OK ? xm_parse(&f, s->arena, v.v, v.n, true, 0, f.n, xs_next_id(s)) : NULL;
    free(v.v);
    if (f.st != TA_OK) *st = f.st;
    return f.st == TA_OK ? m : NULL;
}

/* One -D of the command line, appended to the set's. */
static ta_status add_define(xpp_shared *s, const char *d)
{
    ta_status st = TA_OK;
    const xmacro *m = xs_parse_define(s, d, strlen(d), &st);
    if (!m) return st; /* not a name: ignored, as a compiler would reject it */
    const xmacro **nd = ta_arena_alloc(s->arena, (s->ndefines + 1) * sizeof *nd);
    if (!nd) return TA_ERR_NOMEM;
    if (s->ndefines) memcpy(nd, s->defines, s->ndefines * sizeof *nd);
    nd[s->ndefines++] = m;
    s->defines = nd;
    return TA_OK;
}

ta_status xs_create(ta_arena *a, const char *const *defines, const char *const *include_dirs,
                    bool no_includes, xpp_shared **out)
{
    xpp_shared *s = *out = ta_arena_alloc(a, sizeof *s);
    if (!s) return TA_ERR_NOMEM;
    s->arena = a;
    s->no_includes = no_includes;
    ta_map_init(&s->resolved, NULL);
    ta_map_init(&s->headers, NULL);
    size_t ni = 0;
    while (include_dirs && include_dirs[ni]) ni++;
    s->include_dirs = ta_arena_alloc(a, (ni + 1) * sizeof *s->include_dirs);
    if (!s->include_dirs) return TA_ERR_NOMEM;
    for (size_t i = 0; i < ni; i++)
        if (!(s->include_dirs[i] = ta_arena_strndup(a, include_dirs[i], strlen(include_dirs[i]))))
            return TA_ERR_NOMEM;
    ta_status st = TA_OK;
    for (const char *const *d = defines; d && *d && st == TA_OK; d++) st = add_define(s, *d);
    return st;
}

void xs_destroy(xpp_shared *s)
{
    if (!s) return;
    ta_map_clear(&s->resolved);
    ta_map_clear(&s->headers);
}

/* ---- finding a header ------------------------------------------------------------- */

static bool regular_file(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* dir[0..dlen)/name into buf (cap bytes): false when it does not fit. */
static bool joined(char *buf, size_t cap, const char *dir, size_t dlen, const char *name)
{
    size_t nlen = strlen(name), k = dlen;
    if (dlen + 1 + nlen + 1 > cap) return false;
    memcpy(buf, dir, dlen);
    if (dlen && dir[dlen - 1] != '/') buf[k++] = '/';
    memcpy(buf + k, name, nlen + 1);
    return true;
}

/* Whether directory prefix [dir, dir + dlen) lies under root. */
static bool under(const char *dir, size_t dlen, const char *root)
{
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/') rl--;
    if (rl == 1 && root[0] == '.') return !dlen || dir[0] != '/';
    return dlen >= rl && !memcmp(dir, root, rl) && (dlen == rl || dir[rl] == '/');
}

/* Whether dir[0..dlen)/name is a regular file (its path in buf). */
static bool probe(char *buf, size_t cap, const char *dir, size_t dlen, const char *name)
{
    return joined(buf, cap, dir, dlen, name) && regular_file(buf);
}

static bool search(xpp_shared *s, const char *dir, const char *name, const char *root,
                   const char *const *extra, char *buf, size_t cap)
{
    size_t dlen = strlen(dir);
    if (probe(buf, cap, dir, dlen, name)) return true;
    for (int pass = 0; pass < 2; pass++)
        for (const char *const *i = pass ? s->include_dirs : extra; i && *i; i++)
            if (probe(buf, cap, *i, strlen(*i), name)) return true;
    /* the includer's parents, as a project's -I of its source root would */
    while (root && dlen && under(dir, dlen, root)) {
        while (dlen && dir[dlen - 1] == '/') dlen--;
        while (dlen && dir[dlen - 1] != '/') dlen--;
        if (!under(dir, dlen, root)) break;
        if (probe(buf, cap, dir, dlen, name)) return true;
    }
    return false;
}

const char *xs_resolve(xpp_shared *s, const char *dir, const char *name, const char *root,
                       const char *const *extra, ta_status *st)
{
    if (s->no_includes || !name[0] || name[0] == '/') return NULL;
    char key[4096], path[4096];
    size_t dl = strlen(dir), nl = strlen(name);
    if (dl + 1 + nl + 1 > sizeof key) return NULL;
    memcpy(key, dir, dl);
    key[dl] = '\1';
    memcpy(key + dl + 1, name, nl + 1);
    ta_map_entry *e = extra ? NULL : ta_map_find(&s->resolved, key, dl + 1 + nl);
    if (e) return *(const char *)e->value.ptr ? e->value.ptr : NULL;
    bool found = search(s, dir, name, root, extra, path, sizeof path);
    char *p = ta_arena_strndup(s->arena, found ? path : "", found ? strlen(path) : 0);
    char *k = extra ? key : ta_arena_strndup(s->arena, key, dl + 1 + nl);
    /* a file's own -I make the answer its own: cached only without them */
    if (!p || !k || (!extra && ta_map_add(&s->resolved, k, dl + 1 + nl, ta_map_ptr(p), NULL) != TA_OK)) {
        *st = TA_ERR_NOMEM;
        return NULL;
    }
    return found ? p : NULL;
}

/* ---- reading a header --------------------------------------------------------------- */

typedef struct hbuild {
    xfile *f;      /* the header as a file */
    ta_arena *a;
    xhevent *ev;
    uint32_t nev;
    size_t cap;
    /* #if 0 regions: how deep the open conditionals are, and from which
     * depth on everything is dead (0: nothing) */
    uint32_t depth, dead_from;
    uint8_t mode[XPP_MAX_DEPTH]; /* per level: 0 both ways, 1 #if 0, 2 #if 1 */
} hbuild;

static void add_event(hbuild *b, xhevent e)
{
    if (TA_GROW_ONE(b->ev, b->nev, b->cap, 16) != TA_OK) {
        b->f->st = TA_ERR_NOMEM;
        return;
    }
    b->ev[b->nev++] = e;
}

/* The mode of "#if EXPR": 1 when EXPR is 0, 2 when it is 1, else 0. */
static uint8_t if_mode(const xfile *f, const xtok *t, uint32_t n)
{
    if (n != 2 || t[1].kind != XT_NUMBER) return 0;
    return spelled(f, &t[1], "0") ? 1 : spelled(f, &t[1], "1") ? 2 : 0;
}

uint8_t xm_conditional(const xfile *f, const xtok *t, uint32_t n, uint32_t *depth, uint32_t *dead_from,
                       uint8_t *mode)
{
    if (!n || t[0].kind != XT_IDENT) return 0;
    bool open = spelled(f, &t[0], "if") || spelled(f, &t[0], "ifdef") || spelled(f, &t[0], "ifndef");
    bool next = spelled(f, &t[0], "elif") || spelled(f, &t[0], "else") ||
                spelled(f, &t[0], "elifdef") || spelled(f, &t[0], "elifndef");
    bool close = spelled(f, &t[0], "endif");
    if (open) {
        uint8_t md = spelled(f, &t[0], "if") ? if_mode(f, t, n) : 0;
        if (*depth < XPP_MAX_DEPTH) mode[*depth] = md;
        (*depth)++;
        if (md == 1 && !*dead_from) *dead_from = *depth;
        return 1;
    }
    if (next && *depth) {
        uint8_t md = *depth <= XPP_MAX_DEPTH ? mode[*depth - 1] : 0;
        if (md == 1 && *dead_from == *depth) *dead_from = 0;
        if (md == 2 && !*dead_from) *dead_from = *depth;
        return 2;
    }
    if (close && *depth) {
        if (*dead_from == *depth) *dead_from = 0;
        (*depth)--;
        return 3;
    }
    return 0;
}

/* One directive of a header. */
static void header_directive(hbuild *b, xpp_shared *s, const xtok *d, xtoks *scratch)
{
    xfile *f = b->f;
    scratch->n = 0;
    ta_xcpp_lex_range(f, d->off + 1, d->off + d->len, false, scratch);
    const xtok *t = scratch->v;
    uint32_t n = scratch->n;
    if (f->st != TA_OK || xm_conditional(f, t, n, &b->depth, &b->dead_from, b->mode) || b->dead_from || n < 2)
        return;
    if (spelled(f, &t[0], "define")) {
        const xmacro *m = xm_parse(f, b->a, t + 1, n - 1, true, t[1].off, d->off + d->len, xs_next_id(s));
        if (m) add_event(b, (xhevent){XH_DEFINE, m, NULL, 0});
    } else if (spelled(f, &t[0], "undef") && t[1].kind == XT_IDENT) {
        char *name = ta_arena_strndup(b->a, f->s + t[1].off, t[1].len);
        if (!name) f->st = TA_ERR_NOMEM;
        else add_event(b, (xhevent){XH_UNDEF, NULL, name, t[1].len});
    } else if (spelled(f, &t[0], "include") && t[1].kind == XT_STRING && !t[1].flags &&
               f->s[t[1].off] == '"' && t[1].len >= 2) {
        char *name = ta_arena_strndup(b->a, f->s + t[1].off + 1, t[1].len - 2);
        if (!name) f->st = TA_ERR_NOMEM;
        else add_event(b, (xhevent){XH_INCLUDE, NULL, name, t[1].len - 2});
    }
}

/* Reads, lexes and walks the directives of the header at path. */
static xheader *read_header(xpp_shared *s, const char *path, ta_status *st)
{
    static const ta_file_rules rules = {.max_bytes = 16u << 20, .regular_only = true};
    char *buf = NULL;
    size_t cap = 0, len = 0;
    int err = ta_file_read(path, &rules, &buf, &cap, &len);
    if (err) {
        if (err == ENOMEM) *st = TA_ERR_NOMEM;
        free(buf);
        return NULL;
    }
    xfile f = {0};
    f.name = path;
    f.s = buf;
    f.n = (uint32_t)len;
    ta_xcpp_lex(&f);
    hbuild b = {&f, s->arena, NULL, 0, 0, 0, 0, {0}};
    xtoks scratch = {0};
    for (uint32_t i = 0; i < f.ntok && f.st == TA_OK; i++)
        if (f.tok[i].kind == XT_DIRECTIVE) header_directive(&b, s, &f.tok[i], &scratch);
    xheader *h = ta_arena_alloc(s->arena, sizeof *h);
    const char *slash = strrchr(path, '/');
    char *dir = ta_arena_strndup(s->arena, path, slash ? (size_t)(slash - path) : 0);
    xhevent *ev = b.nev ? ta_arena_alloc(s->arena, b.nev * sizeof *ev) : NULL;
    if (f.st != TA_OK || !h || !dir || (b.nev && !ev)) {
        *st = TA_ERR_NOMEM;
        h = NULL;
    } else {
        if (b.nev) memcpy(ev, b.ev, b.nev * sizeof *ev);
        *h = (xheader){path, dir, ev, b.nev};
    }
    free(scratch.v);
    free(b.ev);
    free(f.tok);
    free(buf);
    return h;
}

const xheader *xs_header(xpp_shared *s, xfile *f, const char *path)
{
    ta_map_entry *e = ta_map_find(&s->headers, path, strlen(path));
    if (e) return e->value.ptr;
    ta_status st = TA_OK;
    xheader *h = read_header(s, path, &st);
    if (st == TA_OK && ta_map_add(&s->headers, path, strlen(path), ta_map_ptr(h), NULL) != TA_OK)
        st = TA_ERR_NOMEM;
    if (st != TA_OK) f->st = st;
    return st == TA_OK ? h : NULL;
}
