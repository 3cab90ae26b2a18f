/* cmd_autogen.c - `tensoralias autogen`: every function torchgen derives for
 * the `autogen:` entries of a native_functions.yaml, as text, JSON (with the
 * plan that runs it) or yaml entries torchgen would accept. */
#include <string.h>

#include "cli.h"
#include "torchgen_cli.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_YAML };

static bool symint_like(const ta_type *t)
{
    while ((t->kind == TA_TYPE_OPTIONAL || t->kind == TA_TYPE_LIST) && t->nelems == 1)
        t = t->elems[0];
    return t->kind == TA_TYPE_NAME && ta_str_eq(t->name, "SymInt");
}

/* torchgen's FunctionSchema.has_symint (arguments other than out=, returns). */
static bool has_symint(const ta_schema *s)
{
    uint32_t first_out = ta_schema_first_out(s);
    for (uint32_t i = 0; i < first_out; i++)
        if (symint_like(s->args[i].type)) return true;
    for (uint32_t i = 0; i < s->nrets; i++)
        if (symint_like(s->rets[i].type)) return true;
    return false;
}

/* The CompositeExplicitAutograd kernel torchgen registers for it. */
static void kernel_name(FILE *out, const ta_tg_function *f, const ta_tg_function *base)
{
    const ta_schema *s = f->schema;
    fprintf(out, "%.*s", (int)s->name.len, s->name.ptr);
    if (f->kind == TA_KIND_OUT && s->overload.len)
        fprintf(out, "_%.*s", (int)s->overload.len, s->overload.ptr);
    if (has_symint(base->schema)) fputs("_symint", out);
}


static void arg_name(FILE *out, const ta_schema *s, uint32_t i)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)s->args[i].name.len, s->args[i].name.ptr);
    ta_cli_json_str(out, buf);
}

/* , "key": [{"field": <argument args[k]>, "from_return": from[k]}, ...] */
static void json_moves(FILE *out, const char *key, const char *field, const ta_schema *s, const uint32_t *args,
                       const uint32_t *from, uint32_t n)
{
    fprintf(out, ", \"%s\": [", key);
    for (uint32_t k = 0; k < n; k++) {
        if (k) fputs(", ", out);
        fprintf(out, "{\"%s\": ", field);
        arg_name(out, s, args[k]);
        fprintf(out, ", \"from_return\": %u}", (unsigned)from[k]);
    }
    fputs("]", out);
}

static void json_plan(FILE *out, const ta_torchgen *tg, const ta_tg_function *f)
{
    const ta_autogen_plan *p = f->plan;
    const ta_tg_function *callee = ta_torchgen_get(tg, p->callee);
    fputs(", \"plan\": {\"call\": ", out);
    ta_cli_json_str(out, callee->name);
    fputs(", \"args\": [", out);
    for (uint32_t j = 0; j < p->ncallee_args; j++) {
        if (j) fputs(", ", out);
        if (p->arg_from[j] >= 0) arg_name(out, f->schema, (uint32_t)p->arg_from[j]);
        else fputs("null", out);
    }
    fputs("]", out);
    if (p->kind == TA_KIND_FUNCTIONAL) {
        fputs(", \"clone\": [", out);
        for (uint32_t k = 0; k < p->nclone; k++) {
            if (k) fputs(", ", out);
            arg_name(out, callee->schema, p->clone[k]);
        }
        fputs("]", out);
    } else {
        json_moves(out, "copy", "out", f->schema, p->out_args, p->out_from, p->nouts);
        if (p->nwritten) json_moves(out, "writeback", "arg", f->schema, p->written_args, p->writeback, p->nwritten);
    }
    fputs(", \"returns\": [", out);
    for (uint32_t i = 0; i < p->nrets; i++) {
        if (i) fputs(", ", out);
        const ta_ag_src *r = &p->ret_src[i];
        if (r->kind == TA_AG_CALLEE_RETURN) {
            fprintf(out, "{\"callee_return\": %u}", (unsigned)r->index);
        } else if (r->kind == TA_AG_CLONED_ARG) {
            fputs("{\"clone_of\": ", out);
            arg_name(out, callee->schema, r->index);
            fputs("}", out);
        } else {
            fputs("{\"arg\": ", out);
            arg_name(out, f->schema, r->index);
            fputs("}", out);
        }
    }
    fputs("]}", out);
}

static void print_one(FILE *out, enum fmt fmt, const ta_torchgen *tg, const ta_tg_function *f)
{
    const ta_tg_function *base = f->plan ? ta_torchgen_get(tg, f->plan->base) : NULL;
    const char *from = base ? base->name : "?";
    if (fmt == FMT_TEXT) {
        fprintf(out, "%s\tfrom %s (line %u)\n", f->func, from, (unsigned)f->line);
    } else if (fmt == FMT_JSON) {
        fputs("{\"func\": ", out);
        ta_cli_json_str(out, f->func);
        fputs(", \"name\": ", out);
        ta_cli_json_str(out, f->name);
        fprintf(out, ", \"kind\": \"%s\", \"from\": ", ta_schema_kind_str(f->kind));
        ta_cli_json_str(out, from);
        fprintf(out, ", \"line\": %u, \"signature\": ", (unsigned)f->line);
        ta_cli_json_str(out, f->signature);
        fputs(", \"tags\": [", out);
        for (uint32_t i = 0; i < f->ntags; i++) {
            if (i) fputs(", ", out);
            ta_cli_json_str(out, f->tags[i]);
        }
        fputs("]", out);
        if (f->plan) json_plan(out, tg, f);
        fputs("}\n", out);
    } else {
        fprintf(out, "- func: %s\n  variants: function\n  dispatch:\n"
                     "    CompositeExplicitAutograd: ",
                f->func);
        if (base) kernel_name(out, f, base);
        fputs("\n  tags: ", out);
        if (f->ntags == 1) fputs(f->tags[0], out);
        else {
            fputs("[", out);
            for (uint32_t i = 0; i < f->ntags; i++) fprintf(out, "%s%s", i ? ", " : "", f->tags[i]);
            fputs("]", out);
        }
        fprintf(out, "\n\n");
    }
}

static void usage(FILE *out)
{
    fputs("usage: tensoralias autogen [--tags FILE] [--format text|json|yaml] [FILE.yaml]\n"
          "\n"
          "Derives the functional and out= variants that the `autogen:` entries of a\n"
          "native_functions.yaml (the bundled one when FILE is omitted) ask for, with\n"
          "torchgen 1.13.1's rules, and prints each one:\n"
          "  text  the derived schema, a tab, \"from <base op> (line N)\"\n"
          "  json  one object per line: func, name, kind, from, line, signature, tags,\n"
          "        and plan (the call that runs it: callee, argument mapping, clones,\n"
          "        out= copies, returns)\n"
          "  yaml  entries torchgen would accept in a native_functions.yaml\n"
          "Autogen entries that cannot be derived as written are reported as errors;\n"
          "those torchgen ignores are notes, shown with --notes (or -v).\n"
          "\n"
          "Exit status: 0 derived, 1 the yaml has errors (on stderr; what could be\n"
          "derived is still printed), 2 usage or I/O error.\n",
          out);
}

int ta_cmd_autogen(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", "yaml", NULL}; /* enum fmt's order */
    int format = FMT_TEXT;
    const char *path, *tags;
    bool notes;
    int exit_code = ta_cli_torchgen_args("autogen", argc, argv, usage, formats, &format, &path, &tags, &notes);
    if (exit_code >= 0) return exit_code;
    enum fmt fmt = (enum fmt)format;
    ta_native_file *nf;
    ta_torchgen *tg;
    int rc = ta_cli_load_torchgen("autogen", path, tags, notes, &nf, &tg);
    if (!tg) return rc;
    size_t n = ta_torchgen_count(tg), nd = ta_torchgen_count_derived(tg);
    for (size_t i = n - nd; i < n; i++) print_one(stdout, fmt, tg, ta_torchgen_get(tg, i));
    ta_torchgen_destroy(tg);
    ta_native_destroy(nf);
    return rc;
}
