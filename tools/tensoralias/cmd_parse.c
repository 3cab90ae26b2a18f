/* cmd_parse.c - "tensoralias parse": parse schemas and print them back, or
 * describe each as one JSON object per line (ta_cli_schema_json). Input
 * order is kept: line N of the output answers schema N of the input. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "tensoralias/alias.h"
#include "tensoralias/schema.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias parse [--json [--max-pairs N]] [SCHEMA ... | -]\n"
            "\n"
            "Parses operator schemas and prints each back, one per line, in input\n"
            "order. With '-', reads one schema per line from standard input.\n"
            "\n"
            "options:\n"
            "  --json     one JSON object per schema: name, overload, args and returns\n"
            "             with their types, alias annotations (as torch reports them),\n"
            "             kwarg_only, is_out and defaults; a schema that does not parse\n"
            "             gives {\"schema\": ..., \"error\": {\"line\", \"col\", \"message\"}}\n"
            "  --max-pairs N  list at most N pairs in may_alias and in may_contain_alias\n"
            "             (default 10000; 0: all): a schema with n slots has up to\n"
            "             n(n-1)/2 of them; a cut list adds \"pairs_truncated\": true\n"
            "  -h, --help this text\n"
            "\n"
            "Diagnostics go to standard error. Exit status: 0 when every schema parses,\n"
            "1 when any does not (the others are still printed), 2 on usage errors.\n"
            "\n"
            "examples:\n"
            "  tensoralias parse 'aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)'\n"
            "  tensoralias parse --json 'mylib::op(Tensor(a) x, int y=3) -> Tensor(a)'\n"
            "  grep -h '^- func:' native_functions.yaml | cut -c9- | tensoralias parse -\n");
}

/* ---- JSON ------------------------------------------------------------- */

static json_t *str_json(ta_str v) { return ta_cli_json_bytes(v.ptr, v.len); }

static json_t *sets_json(const ta_str *v, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++) json_array_append_new(a, str_json(v[i]));
    return a;
}

/* Index of a bare "!" among the schema's bare annotations in text order:
 * torch names them $0, $1, ... as it meets them. */
static int bare_index(const ta_schema *s, const ta_alias *al);

static json_t *alias_sets_json(const ta_schema *s, const ta_alias *al)
{
    json_t *o = json_object();
    if (al->bare_write) {
        char name[16];
        snprintf(name, sizeof name, "$%d", bare_index(s, al));
        json_t *b = json_array();
        json_array_append_new(b, json_string(name));
        json_object_set_new(o, "before", b);
        json_object_set_new(o, "after", json_array());
    } else {
        json_object_set_new(o, "before", sets_json(al->before, al->nbefore));
        json_object_set_new(o, "after", sets_json(al->after, al->nafter));
    }
    json_object_set_new(o, "write", json_boolean(al->write));
    return o;
}

/* Adds "alias" (and "elem_alias" for annotated list elements) the way torch
 * reports them: see ta_type_alias_view. */
static void add_alias(json_t *o, const ta_schema *s, const ta_type *t)
{
    ta_alias_view v;
    ta_type_alias_view(t, &v);
    if (!v.present) {
        json_object_set_new(o, "alias", json_null());
        return;
    }
    if (v.set) {
        json_object_set_new(o, "alias", alias_sets_json(s, v.set));
    } else {
        json_t *a = json_object();
        json_object_set_new(a, "before", json_array());
        json_object_set_new(a, "after", json_array());
        json_object_set_new(a, "write", json_boolean(v.write));
        json_object_set_new(o, "alias", a);
    }
    if (v.elem) json_object_set_new(o, "elem_alias", alias_sets_json(s, v.elem));
}

static json_t *type_json(const ta_type *t)
{
    char small[256];
    size_t n = ta_type_print_plain(t, small, sizeof small);
    if (n < sizeof small) return ta_cli_json_bytes(small, n);
    char *big = malloc(n + 1);
    if (!big) return json_string("");
    ta_type_print_plain(t, big, n + 1);
    json_t *j = ta_cli_json_bytes(big, n);
    free(big);
    return j;
}

typedef struct bare_walk {
    uint32_t off;
    int count;
} bare_walk;

static void count_bare(const ta_type *t, bare_walk *w, unsigned depth)
{
    if (!t || depth > 1024) return;
    if (t->alias && t->alias->bare_write && t->alias->span.off < w->off) w->count++;
    for (uint32_t i = 0; i < t->nelems; i++) count_bare(t->elems[i], w, depth + 1);
}

static int bare_index(const ta_schema *s, const ta_alias *al)
{
    bare_walk w = {al->span.off, 0};
    for (uint32_t i = 0; i < s->nargs; i++) count_bare(s->args[i].type, &w, 0);
    for (uint32_t i = 0; i < s->nrets; i++) count_bare(s->rets[i].type, &w, 0);
    return w.count;
}

json_t *ta_cli_schema_json(const ta_schema *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "schema", ta_cli_json_bytes(s->text, s->text ? s->text_len : 0));
    json_object_set_new(o, "name", str_json(s->full_name));
    json_object_set_new(o, "overload", str_json(s->overload));
    json_t *args = json_array();
    for (uint32_t i = 0; i < s->nargs; i++) {
        const ta_arg *a = &s->args[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", str_json(a->name));
        json_object_set_new(j, "type", type_json(a->type));
        add_alias(j, s, a->type);
        json_object_set_new(j, "kwarg_only", json_boolean(a->kwarg_only));
        json_object_set_new(j, "is_out", json_boolean(a->is_out));
        if (a->def.kind != TA_DEFAULT_NONE_GIVEN)
            json_object_set_new(j, "default", str_json(a->def.text));
        json_array_append_new(args, j);
    }
    json_object_set_new(o, "args", args);
    json_t *rets = json_array();
    for (uint32_t i = 0; i < s->nrets; i++) {
        const ta_ret *r = &s->rets[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", str_json(r->name));
        json_object_set_new(j, "type", type_json(r->type));
        add_alias(j, s, r->type);
        json_array_append_new(rets, j);
    }
    json_object_set_new(o, "returns", rets);
    if (s->vararg) json_object_set_new(o, "vararg", json_true());
    if (s->varret) json_object_set_new(o, "varret", json_true());
    return o;
}

enum { JSON_FLAGS = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII };

static void print_json(json_t *j)
{
    json_dumpf(j, stdout, JSON_FLAGS);
    putchar('\n');
    json_decref(j);
}

/* ---- the command ------------------------------------------------------ */

typedef struct run {
    bool json;
    size_t max_pairs; /* per pair list of --json; 0: no limit */
    ta_arena *arena;
    ta_diags *diags;
    char *buf;
    size_t cap;
    int failures;
} run;

/* One schema's line of --json: its description, then torch's SchemaInfo
 * answers (src/alias) written straight out, since their pair lists grow
 * with the square of the slots. */
static void print_schema_json(const run *r, const ta_schema *s, const char *source, uint32_t line)
{
    json_t *o = ta_cli_schema_json(s);
    char *head = o ? json_dumps(o, JSON_FLAGS) : NULL;
    json_decref(o);
    if (!head) {
        fprintf(stderr, "%s:%u: error: out of memory\n", source, line);
        return;
    }
    fwrite(head, 1, strlen(head) - 1, stdout); /* the object, still open */
    free(head);
    ta_alias_query *q = NULL;
    if (ta_alias_query_create(s, &q, NULL) == TA_OK) {
        bool cut = false;
        putchar(',');
        ta_alias_query_write_json(q, stdout, r->max_pairs, &cut);
        ta_alias_query_destroy(q);
        if (cut) {
            fputs(",\"pairs_truncated\":true", stdout);
            fprintf(stderr, "%s:%u: warning: may_alias lists cut at %zu pairs (--max-pairs)\n",
                    source, line, r->max_pairs);
        }
    }
    fputs("}\n", stdout);
}

static void one(run *r, const char *text, size_t len, const char *source,
                uint32_t line)
{
    ta_parse_opts opts = {source, line, 1};
    ta_schema *s = NULL;
    ta_status st = ta_schema_parse(r->arena, text, len, &opts, &s, r->diags);
    if (st == TA_OK) {
        if (r->json) {
            print_schema_json(r, s, source, line);
        } else {
            fwrite(s->text, 1, s->text_len, stdout);
            putchar('\n');
        }
    } else {
        r->failures++;
        const ta_diag *g = ta_diags_get(r->diags, 0);
        if (r->json) {
            json_t *o = json_object();
            json_object_set_new(o, "schema", ta_cli_json_bytes(text, len));
            json_t *e = json_object();
            json_object_set_new(e, "line", json_integer(g ? g->line : 0));
            json_object_set_new(e, "col", json_integer(g ? g->col : 0));
            const char *m = g ? g->message : ta_status_str(st);
            json_object_set_new(e, "message", ta_cli_json_bytes(m, strlen(m)));
            json_object_set_new(o, "error", e);
            print_json(o);
        } else {
            putchar('\n'); /* keep output lines aligned with input lines */
        }
        fflush(stdout);
        for (size_t i = 0; i < ta_diags_count(r->diags); i++)
            ta_cli_render(ta_diags_get(r->diags, i), stderr);
        if (!g) fprintf(stderr, "%s:%u: error: %s\n", source, line, ta_status_str(st));
    }
    ta_diags_clear(r->diags);
    ta_arena_reset(r->arena);
}

int ta_cmd_parse(int argc, char **argv)
{
    run r = {.max_pairs = 10000};
    const char *v;
    bool from_stdin = false, options_done = false;
    int nschemas = 0;
    char **schemas = calloc((size_t)argc + 1, sizeof *schemas);
    if (!schemas) return TA_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || a[0] != '-') {
            schemas[nschemas++] = argv[i];
        } else if (!strcmp(a, "--")) {
            options_done = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(schemas);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(a, "--json")) {
            r.json = true;
        } else if ((v = ta_cli_opt_value(argc, argv, &i, "--max-pairs"))) {
            int64_t n;
            if (!ta_str_to_int((ta_str){v, (uint32_t)strlen(v)}, &n) || n < 0) {
                free(schemas);
                return ta_cli_usage_error("parse", "--max-pairs wants a count, not '%s'", v);
            }
            r.max_pairs = (size_t)n;
        } else if (!strcmp(a, "-")) {
            from_stdin = true;
        } else {
            free(schemas);
            return ta_cli_usage_error("parse", "unknown option '%s'", a);
        }
    }
    if (from_stdin == (nschemas > 0)) {
        free(schemas);
        return ta_cli_usage_error("parse", from_stdin
                                               ? "give schemas as arguments or '-', not both"
                                               : "no schema given");
    }

    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    if (ta_arena_create(&r.arena) != TA_OK || ta_diags_create(&r.diags) != TA_OK) {
        fprintf(stderr, "tensoralias parse: out of memory\n");
        free(schemas);
        ta_arena_destroy(r.arena);
        ta_diags_destroy(r.diags);
        return TA_EXIT_USAGE;
    }
    int rc = TA_EXIT_CLEAN;
    if (from_stdin) {
        char *buf;
        size_t len;
        if (ta_cli_read_file("-", &buf, &len) != 0) {
            perror("tensoralias parse: reading standard input");
            rc = TA_EXIT_USAGE;
        } else {
            size_t pos = 0;
            uint32_t line = 1;
            while (pos < len) {
                const char *nl = memchr(buf + pos, '\n', len - pos);
                size_t end = nl ? (size_t)(nl - buf) : len;
                size_t l = end - pos;
                if (l && buf[pos + l - 1] == '\r') l--; /* CRLF input */
                one(&r, buf + pos, l, "<stdin>", line);
                pos = end + 1;
                line++;
            }
            free(buf);
        }
    } else {
        for (int i = 0; i < nschemas; i++) {
            char src[32];
            snprintf(src, sizeof src, "<arg %d>", i + 1);
            one(&r, schemas[i], strlen(schemas[i]), src, 1);
        }
    }
    fflush(stdout);
    free(schemas);
    ta_arena_destroy(r.arena);
    ta_diags_destroy(r.diags);
    if (rc == TA_EXIT_CLEAN && r.failures) rc = TA_EXIT_FINDINGS;
    return rc;
}
