/* cmd_groups.c - `tensoralias groups`: the operator families torchgen forms
 * from a native_functions.yaml (after deriving its autogen variants): kinds
 * groups (functional / inplace / mutable / out sharing a signature) and view
 * groups (view, view_copy, view_inplace), one per line. */
#include <stdbool.h>
#include <string.h>

#include "cli.h"
#include "torchgen_cli.h"

static const char *member(const ta_torchgen *tg, int32_t i)
{
    return i >= 0 ? ta_torchgen_get(tg, (size_t)i)->name : NULL;
}

static void json_member(FILE *out, const char *key, const char *name, bool last)
{
    fprintf(out, "\"%s\": ", key);
    if (name) ta_cli_json_str(out, name);
    else fputs("null", out);
    fputs(last ? "}\n" : ", ", out);
}

/* key=name, space-separated; absent members are left out */
static void text_member(FILE *out, const char *key, const char *name, bool first)
{
    if (name) fprintf(out, "%s%s=%s", first ? "" : " ", key, name);
}

static void usage(FILE *out)
{
    fputs("usage: tensoralias groups [--tags FILE] [--format text|json] [FILE.yaml]\n"
          "\n"
          "Prints the groups torchgen 1.13.1 forms from a native_functions.yaml (the\n"
          "bundled one when FILE is omitted), its autogen variants derived first:\n"
          "  kinds<TAB>SIGNATURE<TAB>functional=.. inplace=.. mutable=.. out=..\n"
          "  view<TAB>VIEW<TAB>view=.. view_copy=.. view_inplace=..\n"
          "(a kinds group: the variants sharing torchgen's signature; a view group: a\n"
          "view op with its _copy and inplace variants; absent members left out).\n"
          "JSON: one object per line, {\"group\": \"kinds\", \"signature\", \"functional\",\n"
          "\"inplace\", \"mutable\", \"out\"} or {\"group\": \"view\", \"view\", \"view_copy\",\n"
          "\"view_inplace\"}; absent members are null.\n"
          "--notes (or -v) shows the loader's notes as well as its errors and warnings.\n"
          "\n"
          "Exit status: 0 listed, 1 the yaml has errors (on stderr; what could be grouped\n"
          "is still printed), 2 usage or I/O error.\n",
          out);
}

int ta_cmd_groups(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", NULL};
    int format = 0;
    const char *path, *tags;
    bool notes;
    int exit_code = ta_cli_torchgen_args("groups", argc, argv, usage, formats, &format, &path, &tags, &notes);
    if (exit_code >= 0) return exit_code;
    bool json = format == 1;
    ta_native_file *nf;
    ta_torchgen *tg;
    int rc = ta_cli_load_torchgen("groups", path, tags, notes, &nf, &tg);
    if (!tg) return rc;
    for (size_t i = 0; i < ta_torchgen_group_count(tg); i++) {
        const ta_tg_group *g = ta_torchgen_group_get(tg, i);
        if (g->kind == TA_GROUP_KINDS && json) {
            fputs("{", stdout);
            json_member(stdout, "functional", member(tg, g->functional), false);
            fputs("\"group\": \"kinds\", ", stdout);
            json_member(stdout, "inplace", member(tg, g->inplace), false);
            json_member(stdout, "mutable", member(tg, g->mutable_fn), false);
            json_member(stdout, "out", member(tg, g->out), false);
            json_member(stdout, "signature", g->signature, true);
        } else if (json) {
            fputs("{\"group\": \"view\", ", stdout);
            json_member(stdout, "view", member(tg, g->view), false);
            json_member(stdout, "view_copy", member(tg, g->view_copy), false);
            json_member(stdout, "view_inplace", member(tg, g->view_inplace), true);
        } else if (g->kind == TA_GROUP_KINDS) {
            printf("kinds\t%s\t", g->signature);
            text_member(stdout, "functional", member(tg, g->functional), true);
            text_member(stdout, "inplace", member(tg, g->inplace), false);
            text_member(stdout, "mutable", member(tg, g->mutable_fn), false);
            text_member(stdout, "out", member(tg, g->out), false);
            fputc('\n', stdout);
        } else {
            printf("view\t%s\t", member(tg, g->view));
            text_member(stdout, "view", member(tg, g->view), true);
            text_member(stdout, "view_copy", member(tg, g->view_copy), false);
            text_member(stdout, "view_inplace", member(tg, g->view_inplace), false);
            fputc('\n', stdout);
        }
    }
    ta_torchgen_destroy(tg);
    ta_native_destroy(nf);
    return rc;
}
