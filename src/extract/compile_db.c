/* compile_db.c - compile_commands.json: the -D and -I the build gives each
 * file it compiles.
 *
 * CMake-built extensions (vLLM, TransformerEngine, ...) give
 * TORCH_EXTENSION_NAME and their include directories on the compiler's
 * command line only; the compile database CMake writes is where extraction
 * finds them. Each entry's "arguments" (or its "command", split as a shell
 * would) is read for -DNAME[=VALUE], -D NAME, -IDIR, -I DIR and -iquote DIR;
 * relative directories and files are taken from its "directory". Files are
 * matched by their real path; the first entry of a file wins. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "extract/cpp_pp.h"

/* The words of a shell command line (quotes and backslashes as sh reads
 * them), appended to a json array. */
static bool split_command(const char *c, json_t *out)
{
    size_t n = strlen(c);
    char *w = malloc(n + 1);
    if (!w) return false;
    size_t k = 0;
    bool in_word = false, ok = true;
    for (size_t i = 0; i <= n && ok; i++) {
        char ch = c[i];
        if (ch == '\0' || ch == ' ' || ch == '\t' || ch == '\n') {
            if (in_word) ok = !json_array_append_new(out, json_stringn(w, k));
            k = 0;
            in_word = false;
        } else if (ch == '\'' || ch == '"') {
            in_word = true;
            for (i++; i < n && c[i] != ch; i++) {
                if (ch == '"' && c[i] == '\\' && i + 1 < n && strchr("\"\\$`", c[i + 1])) i++;
                w[k++] = c[i];
            }
        } else {
            in_word = true;
            if (ch == '\\' && i + 1 < n) ch = c[++i];
            w[k++] = ch;
        }
    }
    free(w);
    return ok;
}

/* dir/p in the arena (p as is when absolute). */
static char *under_dir(ta_arena *a, const char *dir, const char *p)
{
    if (p[0] == '/' || !dir || !dir[0]) return ta_arena_strndup(a, p, strlen(p));
    size_t dl = strlen(dir), pl = strlen(p);
    char *s = ta_arena_alloc(a, dl + 1 + pl + 1);
    if (!s) return NULL;
    memcpy(s, dir, dl);
    s[dl] = '/';
    memcpy(s + dl + 1, p, pl + 1);
    return s;
}

/* The value of flag opt in args[*i] ("-DX") or args[*i + 1] ("-D X"). */
static const char *flag_value(json_t *args, size_t *i, const char *opt)
{
    const char *a = json_string_value(json_array_get(args, *i));
    size_t ol = strlen(opt);
    if (!a || strncmp(a, opt, ol)) return NULL;
    if (a[ol]) return a + ol;
    if (*i + 1 >= json_array_size(args)) return NULL;
    return json_string_value(json_array_get(args, ++*i));
}

/* One entry: its file's real path mapped to the macros and directories. */
static ta_status add_entry(xpp_shared *s, ta_map *db, json_t *e)
{
    ta_arena *a = xs_arena(s);
    const char *dir = json_string_value(json_object_get(e, "directory"));
    const char *file = json_string_value(json_object_get(e, "file"));
    if (!file) return TA_OK;
    json_t *args = json_object_get(e, "arguments"), *split = NULL;
    if (!json_is_array(args)) {
        const char *cmd = json_string_value(json_object_get(e, "command"));
        if (!cmd) return TA_OK;
        if (!(split = json_array()) || !split_command(cmd, split)) {
            json_decref(split);
            return TA_ERR_NOMEM;
        }
        args = split;
    }
    ta_status st = TA_OK;
    char real[PATH_MAX];
    char *path = under_dir(a, dir, file);
    if (!path) st = TA_ERR_NOMEM;
    else if (realpath(path, real) && !ta_map_find_str(db, real)) {
        size_t n = json_array_size(args);
        xcdb_entry *en = ta_arena_zalloc(a, sizeof *en);
        const xmacro **defs = ta_arena_alloc(a, (n + 1) * sizeof *defs);
        const char **incs = ta_arena_alloc(a, (n + 1) * sizeof *incs);
        char *key = ta_arena_strndup(a, real, strlen(real));
        if (!en || !defs || !incs || !key) st = TA_ERR_NOMEM;
        uint32_t nd = 0, ni = 0;
        for (size_t i = 0; i < n && st == TA_OK; i++) {
            const char *v;
            if ((v = flag_value(args, &i, "-D"))) {
                const xmacro *m = xs_parse_define(s, v, strlen(v), &st);
                if (m) defs[nd++] = m;
            } else if ((v = flag_value(args, &i, "-iquote")) || (v = flag_value(args, &i, "-I"))) {
                if (!(incs[ni++] = under_dir(a, dir, v))) st = TA_ERR_NOMEM;
            }
        }
        if (st == TA_OK) {
            incs[ni] = NULL;
            en->defines = defs;
            en->ndefines = nd;
            en->include_dirs = incs;
            st = ta_map_add(db, key, strlen(key), ta_map_ptr(en), NULL);
        }
    }
    json_decref(split);
    return st;
}

ta_status xcdb_load(xpp_shared *s, ta_map *db, const char *path, ta_diags *d)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!json_is_array(root)) {
        ta_loc loc = {path, (uint32_t)(err.line > 0 ? err.line : 0), 0, 0, NULL, 0};
        ta_diag_error(d, &loc, "extract-io", "cannot read the compile database: %s",
                      root ? "not a JSON array" : err.text);
        json_decref(root);
        return TA_ERR_IO;
    }
    ta_status st = TA_OK;
    for (size_t i = 0; i < json_array_size(root) && st == TA_OK; i++) st = add_entry(s, db, json_array_get(root, i));
    json_decref(root);
    return st;
}

const xcdb_entry *xcdb_find(const ta_map *db, const char *file)
{
    char real[PATH_MAX];
    if (!db->n || !realpath(file, real)) return NULL;
    const ta_map_entry *e = ta_map_find_str(db, real);
    return e ? e->value.ptr : NULL;
}
