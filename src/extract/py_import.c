/* py_import.c - string constants another module of the tree defines (see
 * py_internal.h).
 *
 *     from .consts import SCHEMA           lib.define(SCHEMA)
 *     from pkg.consts import OTHER as O    lib.define(O)
 *     from pkg import consts               lib.define(consts.OTHER)
 *     import pkg.consts as c               lib.define(c.OTHER)
 *
 * The module is looked for where Python would find it: ".mod" beside the
 * file (each further dot one folder up), "pkg.mod" in the file's folder or
 * one above it, up to the root of the walk (a package's parent is one of
 * them); as mod.py or mod/__init__.py. It is read from disk once a set and
 * the name's last module-level value evaluated there, through that
 * module's own imports in turn, within the evaluation's bound on names.
 * The string stands, in the schema's map of bytes, for the name where it
 * is used: a diagnostic about the schema points there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/map.h"
#include "extract/py_internal.h"

enum { MAX_MODULE = 256, MAX_UP = 8 };

/* A module read for its constants: its text, tokens and statements. */
typedef struct pymod {
    char *text;
    xfile f;
    pyfile pf;
} pymod;

static void pymod_free(ta_map_value v)
{
    pymod *m = v.ptr;
    if (!m) return;
    xpy_structure_free(&m->pf);
    free(m->f.tok);
    free(m->f.lines);
    free(m->text);
    free(m);
}

static void key_free(void *k) { free(k); }

static const ta_map_type MODULES = {NULL, key_free, pymod_free};

void xpy_modules_init(ta_map *m) { ta_map_init(m, &MODULES); }

/* The spelling of tokens [lo, hi) run together ("..pkg.mod"), at most cap - 1 bytes. */
static bool spell(const xfile *f, uint32_t lo, uint32_t hi, char *out, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = lo; i < hi; i++) {
        const xtok *t = xf_tok(f, i);
        if (n + t->len >= cap) return false;
        memcpy(out + n, f->s + t->off, t->len);
        n += t->len;
    }
    out[n] = '\0';
    return n > 0;
}

static bool regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/a/b.py or dir/a/b/__init__.py for dotted "a.b" (empty: dir/__init__.py). */
static bool module_in(const char *dir, const char *dotted, char *path, size_t cap)
{
    char rel[MAX_MODULE];
    size_t n = strlen(dotted);
    if (n >= sizeof rel) return false;
    for (size_t k = 0; k <= n; k++) rel[k] = dotted[k] == '.' ? '/' : dotted[k];
    int w = n ? snprintf(path, cap, "%s/%s.py", dir, rel) : -1;
    if (w > 0 && (size_t)w < cap && regular_file(path)) return true;
    w = snprintf(path, cap, n ? "%s/%s/__init__.py" : "%s/__init__.py", dir, rel);
    return w > 0 && (size_t)w < cap && regular_file(path);
}

/* How many folders lie between file and the root of the walk (MAX_UP when
 * there is no root, or the file is not under it). */
static int levels_below_root(const xfile *f)
{
    const char *root = f->root;
    size_t rl = root ? strlen(root) : 0;
    if (!rl || strncmp(f->name, root, rl) || (f->name[rl] != '/' && root[rl - 1] != '/')) return MAX_UP;
    int up = 0;
    for (const char *p = f->name + rl + 1; *p; p++) up += *p == '/';
    return up < MAX_UP ? up : MAX_UP;
}

/* The file module mod (leading dots: relative) names, seen from file f. */
static bool find_module(const xfile *f, const char *mod, char *path, size_t cap)
{
    char dir[1024];
    const char *slash = strrchr(f->name, '/');
    int w = slash ? snprintf(dir, sizeof dir, "%.*s", (int)(slash - f->name), f->name)
                  : snprintf(dir, sizeof dir, ".");
    if (w <= 0 || (size_t)w >= sizeof dir) return false;
    size_t dots = strspn(mod, ".");
    for (size_t k = 1; k < dots; k++) { /* ".." : the parent package */
        if (strlen(dir) + 4 >= sizeof dir) return false;
        strcat(dir, "/..");
    }
    if (dots) return module_in(dir, mod + dots, path, cap);
    for (int up = levels_below_root(f); up >= 0; up--) {
        if (module_in(dir, mod, path, cap)) return true;
        if (strlen(dir) + 4 >= sizeof dir) return false;
        strcat(dir, "/..");
    }
    return false;
}

/* The module at path, read and split into statements once a set; NULL when
 * it cannot be read (or memory ran out: f->st says so). */
static pymod *load_module(xfile *from, const char *path)
{
    ta_map *cache = xpy_module_cache(from->x);
    ta_map_entry *e = ta_map_find_str(cache, path);
    if (e) return e->value.ptr;
    static const ta_file_rules rules = {.max_bytes = 16u << 20, .regular_only = true};
    pymod *m = ta_calloc(1, sizeof *m);
    char *key = ta_malloc(strlen(path) + 1);
    size_t cap = 0, len = 0;
    if (!m || !key) goto oom;
    memcpy(key, path, strlen(path) + 1);
    if (ta_file_read(path, &rules, &m->text, &cap, &len) != 0 || len >= UINT32_MAX / 2) {
        pymod_free(ta_map_ptr(m));
        m = NULL; /* remembered as unreadable */
    } else {
        m->f = (xfile){.x = from->x, .name = key, .s = m->text, .n = (uint32_t)len, .root = from->root};
        m->pf.f = &m->f;
        if (!xf_index_lines(&m->f)) goto oom;
        ta_xpy_lex(&m->f);
        if (m->f.st != TA_OK || !xpy_structure(&m->pf)) goto oom;
    }
    if (ta_map_add(cache, key, strlen(key), ta_map_ptr(m), NULL) != TA_OK) goto oom;
    return m;
oom:
    pymod_free(ta_map_ptr(m));
    free(key);
    from->st = TA_ERR_NOMEM;
    return NULL;
}

/* The statement "from M import ... NAME [as local] ..." or "import M as
 * local" / "import local" that binds local (len bytes at name): M's
 * spelling in mod, and the name imported from it in orig ("" for a
 * module imported whole). */
static bool import_of(const pyfile *pf, const char *name, uint32_t len, char *mod, char *orig)
{
    const xfile *f = pf->f;
    for (uint32_t k = 0; k < pf->nst; k++) {
        bool from = xpy_starts(pf, k, "from");
        if (!from && !xpy_starts(pf, k, "import")) continue;
        const pystmt *s = &pf->st[k];
        uint32_t j = s->lo + 1, imp = j;
        while (imp < s->hi && !xf_ident(f, imp, "import")) imp++;
        if (from && (imp >= s->hi || !spell(f, j, imp, mod, MAX_MODULE))) continue;
        for (j = from ? imp + 1 : j; j < s->hi; j++) {
            uint32_t e = j; /* a dotted name [j, e) */
            while (e + 2 <= s->hi && xf_ident(f, e, NULL) && xf_punct(xf_tok(f, e + 1), '.')) e += 2;
            if (!xf_ident(f, e, NULL)) continue;
            e++;
            bool alias = xf_ident(f, e, "as") && xf_ident(f, e + 1, NULL);
            const xtok *t = xf_tok(f, alias ? e + 1 : j);
            bool named = t->len == len && !memcmp(f->s + t->off, name, len) && (alias || from || e == j + 1);
            if (named && from) return e == j + 1 && spell(f, j, j + 1, orig, MAX_MODULE);
            if (named) {
                orig[0] = '\0';
                return spell(f, j, e, mod, MAX_MODULE);
            }
            j = alias ? e + 1 : e;
        }
    }
    return false;
}

bool xpy_eval_import(pyfile *pf, const char *name, uint32_t len, const char *attr, uint32_t alen,
                     uint32_t use_off, uint32_t use_len, xtext *out)
{
    char mod[MAX_MODULE], orig[MAX_MODULE], path[1200];
    if (pf->depth >= XPY_MAX_NAME_DEPTH || !import_of(pf, name, len, mod, orig)) return false;
    const char *want = orig;
    uint32_t wlen = (uint32_t)strlen(orig);
    if (attr) { /* local.attr: local is a module, whole or from a package */
        size_t n = strlen(mod);
        if (orig[0] && snprintf(mod + n, sizeof mod - n, "%s%s", mod[n - 1] == '.' ? "" : ".", orig) >= (int)(sizeof mod - n))
            return false;
        want = attr;
        wlen = alen;
    } else if (!orig[0]) {
        return false; /* a module is not a string */
    }
    if (!find_module(pf->f, mod, path, sizeof path)) return false;
    pymod *m = load_module(pf->f, path);
    if (!m) return false;
    xtext v = {0};
    xt_reset(&v);
    bool ok = xpy_eval_module_value(&m->pf, want, wlen, pf->depth + 1, &v) && !v.oom;
    if (ok) xt_stand(out, v.s, v.n, use_off, use_len);
    if (v.oom) out->oom = true;
    xt_free(&v);
    return ok;
}
