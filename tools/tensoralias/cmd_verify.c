/* cmd_verify.c - `tensoralias verify`: run kernels on synthesized inputs and
 * compare what they do to memory with what their schemas declare.
 *
 * Schemas come from a native_functions.yaml (the bundled one by default),
 * from kernel plugins, and from --schemas files; kernels from the reference
 * kernel library (unless --no-default-kernels) and --kernels plugins. */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exec/device.h"
#include "report_verify.h"
#include "verify_derived.h"
#include "tensoralias/exec.h"
#include "tensoralias/native.h"

static const char *const CMD = "verify";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias verify [FILE.yaml] [options]\n"
            "\n"
            "Runs kernels on synthesized inputs, each operator in a child process, and reports\n"
            "what they did to memory that their schema does not declare.\n"
            "\n"
            "options:\n"
            "  --kernels LIB.so      load a kernel library (repeatable)\n"
            "  --no-default-kernels  do not load the reference kernels\n"
            "  --compose-derived     run autogen-derived operators by composing their base\n"
            "                        kernel even where a library implements them itself\n"
            "  --schemas FILE        extra schemas (one per line, '- func: ...' or '- \"...\"')\n"
            "  --samples FILE.json   exact arguments per operator (with --kernels torch: PyTorch\n"
            "                        1.13.1's OpInfo samples, unless --no-default-samples)\n"
            "  --ops GLOB            operators to verify (fnmatch on 'aten::abs.out'; repeatable)\n"
            "  --seed N              base seed (default 0)\n"
            "  --case-seed S         run only the case with this seed (from a finding)\n"
            "  --cases N             synthesized cases per operator (default 40; 0: samples only)\n"
            "  --timeout S           seconds per case before the kernel is killed (default 10)\n"
            "  --jobs N              operators verified in parallel (default 1)\n"
            "  --trap-writes         read-only pages on inputs that may not be written\n"
            "  --device cpu|cuda     where kernels run (default cpu)\n"
            "  --format text|json|sarif|junit\n"
            "  --baseline FILE       a previous JSON report: its findings do not fail the run\n"
            "  -o FILE               write the report to FILE\n"
            "\n"
            "Exit status: 0 no new error findings, 1 new error findings, 2 usage or I/O error.\n");
}

/* ---- the yaml's schemas, by operator name ------------------------------ */

typedef struct yaml_index {
    char **names;   /* "aten::abs.out" */
    char **schemas; /* "aten::abs.out(Tensor self, ...) -> ..." */
    size_t n, cap;
} yaml_index;

static void index_add(yaml_index *ix, const char *ns, const char *func, size_t len)
{
    while (len && (func[len - 1] == ' ' || func[len - 1] == '\r')) len--;
    if (len >= 2 && (func[0] == '"' || func[0] == '\'') && func[len - 1] == func[0]) {
        func++;
        len -= 2;
    }
    if (!len) return;
    if (ix->n == ix->cap) {
        size_t cap = ix->cap ? ix->cap * 2 : 1024;
        char **a = realloc(ix->names, cap * sizeof *a), **b;
        if (!a) return;
        ix->names = a;
        if (!(b = realloc(ix->schemas, cap * sizeof *b))) return;
        ix->schemas = b;
        ix->cap = cap;
    }
    bool has_ns = memchr(func, ':', strcspn(func, "(")) != NULL;
    size_t total = (has_ns ? 0 : strlen(ns) + 2) + len + 1;
    char *s = malloc(total);
    if (!s) return;
    snprintf(s, total, "%s%s%.*s", has_ns ? "" : ns, has_ns ? "" : "::", (int)len, func);
    char name[512];
    ta_op_name_of(s, name, sizeof name);
    ix->names[ix->n] = strdup(name);
    ix->schemas[ix->n++] = s;
}

/* Every entry of a native_functions.yaml, through the loader; the file
 * stays loaded (*out) for the autogen derivation. */
static int index_yaml(yaml_index *ix, const char *path, ta_native_file **out, ta_diags *diags)
{
    ta_native_file *f = NULL;
    ta_status st = ta_native_load_path(path, NULL, &f, diags);
    if (st == TA_ERR_IO || st == TA_ERR_NOMEM || !f) {
        ta_native_destroy(f);
        return -1;
    }
    for (size_t i = 0; i < ta_native_count(f); i++) {
        const ta_native_func *fn = ta_native_get(f, i);
        if (fn->func.s) index_add(ix, fn->ns ? fn->ns : "aten", fn->func.s, fn->func.len);
    }
    *out = f;
    /* Entries the loader could not read are reported by check, not here. */
    ta_diags_clear(diags);
    return 0;
}

static const char *index_lookup(void *ud, const char *name)
{
    yaml_index *ix = ud;
    for (size_t i = 0; i < ix->n; i++)
        if (!strcmp(ix->names[i], name)) return ix->schemas[i];
    return NULL;
}

static void index_free(yaml_index *ix)
{
    for (size_t i = 0; i < ix->n; i++) {
        free(ix->names[i]);
        free(ix->schemas[i]);
    }
    free(ix->names);
    free(ix->schemas);
}

/* --schemas: a native_functions.yaml (through the loader; namespaces as
 * written, aten otherwise), or a list of schemas: "- ns::op(...)", quoted or
 * not, or one bare schema per line. */
static int load_schemas(ta_registry *reg, const char *path, ta_diags *diags)
{
    char *buf;
    size_t len;
    if (ta_cli_read_file(path, &buf, &len) != 0) return -1;
    ta_registry_set_origin(reg, path);
    if (strstr(buf, "func:")) {
        ta_native_file *f = NULL;
        ta_diags *ld = ta_diags_create();
        ta_status st = ta_native_load_buffer(buf, len, path, NULL, 0, NULL, &f, ld);
        if (f && st != TA_ERR_NOMEM && ta_native_count(f) > 0) {
            for (size_t i = 0; i < ta_native_count(f); i++) {
                const ta_native_func *fn = ta_native_get(f, i);
                if (!fn->func.s) continue;
                char *schema = malloc(fn->func.len + 64);
                if (!schema) continue;
                bool has_ns = memchr(fn->func.s, ':', strcspn(fn->func.s, "(")) != NULL;
                sprintf(schema, "%s%s%s", has_ns ? "" : (fn->ns ? fn->ns : "aten"), has_ns ? "" : "::",
                        fn->func.s);
                ta_register_op(reg, schema, TA_KEY_CATCHALL, NULL, NULL);
                free(schema);
            }
            ta_diags_move(diags, ld);
            ta_diags_destroy(ld);
            ta_native_destroy(f);
            free(buf);
            ta_registry_take_diags(reg, diags);
            return 0;
        }
        ta_diags_destroy(ld);
        ta_native_destroy(f);
    }
    for (char *p = buf; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = '\0';
        char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '-') q++;
        while (*q == ' ') q++;
        if (!strncmp(q, "func:", 5)) q += 5;
        while (*q == ' ') q++;
        size_t l = strlen(q);
        while (l && (q[l - 1] == ' ' || q[l - 1] == '\r')) q[--l] = '\0';
        if (l >= 2 && (q[0] == '"' || q[0] == '\'') && q[l - 1] == q[0]) {
            q[l - 1] = '\0';
            q++;
        }
        if (*q && *q != '#' && strchr(q, '(')) ta_register_op(reg, q, TA_KEY_CATCHALL, NULL, NULL);
        p = nl ? nl + 1 : NULL;
    }
    free(buf);
    ta_registry_take_diags(reg, diags);
    return 0;
}

/* A file next to the executable, or in $PREFIX/lib. */
static const char *find_lib(const char *name, char *buf, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, cap, "%s/%s", exe, name);
            if (access(buf, R_OK) == 0) return buf;
            snprintf(buf, cap, "%s/../lib/%s", exe, name);
            if (access(buf, R_OK) == 0) return buf;
        }
    }
    snprintf(buf, cap, "%s/../../lib/%s", TA_DATADIR, name);
    return access(buf, R_OK) == 0 ? buf : NULL;
}

/* ATen's own kernels (--kernels torch) come with PyTorch's OpInfo samples
 * (tools/torch/export_opinfo_samples.py): inputs its kernels accept. A
 * sample they reject is a rejected case there, not a finding: the corpus
 * was made with torch 1.13.1 and the yaml may be another version's. */
static bool wants_opinfo_samples(char **kernels, int nkernels)
{
    for (int i = 0; i < nkernels; i++)
        if (!strcmp(kernels[i], "torch")) return true;
    return false;
}

/* An aten operator's line in the yaml it came from. */
struct locate_ctx {
    const ta_native_file *f;
    const char *path;
};

static bool locate_op(void *ud, const char *op, const char **file, unsigned *line)
{
    const struct locate_ctx *lc = ud;
    if (!lc->f || strncmp(op, "aten::", 6)) return false;
    const ta_native_func *fn = ta_native_find(lc->f, op);
    if (!fn || !fn->pos.line) return false;
    *file = lc->path;
    *line = fn->pos.line;
    return true;
}

static void progress(void *ud, size_t done, size_t total, const char *op)
{
    (void)ud;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, op);
    if (done == total) fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static int render_diags(ta_diags *d)
{
    int errors = 0;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        ta_diag_render(g, stderr);
        if (g->severity == TA_SEV_ERROR) errors++;
    }
    ta_diags_clear(d);
    return errors;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end) return false;
    *out = v;
    return true;
}

typedef struct names {
    const char **v;
    size_t n, cap;
} names;

static void names_add(names *ns, const char *s)
{
    for (size_t i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], s)) return;
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? ns->cap * 2 : 256;
        const char **v = realloc(ns->v, cap * sizeof *v);
        if (!v) return;
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n++] = s;
}

static bool matches(const char *name, char **globs, int nglobs)
{
    for (int i = 0; i < nglobs; i++)
        if (fnmatch(globs[i], name, 0) == 0) return true;
    return false;
}

int ta_cmd_verify(int argc, char **argv)
{
    const char *yaml = NULL, *samples_path = NULL, *baseline_path = NULL, *outpath = NULL;
    const char *device = "cpu";
    char *kernels[64], *schemas[64], *globs[64];
    int nkernels = 0, nschemas = 0, nglobs = 0;
    bool no_default = false, compose = false, no_default_samples = false;
    ta_vformat fmt = TA_VFMT_TEXT;
    ta_verify_opts o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE() \
    do { \
        if (!v) return ta_cli_usage_error(CMD, "%s needs a value", a); \
        i++; \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TA_EXIT_CLEAN;
        } else if (!strcmp(a, "--kernels")) {
            NEED_VALUE();
            if (nkernels < 64) kernels[nkernels++] = argv[i];
        } else if (!strcmp(a, "--schemas")) {
            NEED_VALUE();
            if (nschemas < 64) schemas[nschemas++] = argv[i];
        } else if (!strcmp(a, "--ops")) {
            NEED_VALUE();
            if (nglobs < 64) globs[nglobs++] = argv[i];
        } else if (!strcmp(a, "--no-default-kernels")) {
            no_default = true;
        } else if (!strcmp(a, "--compose-derived")) {
            compose = true;
        } else if (!strcmp(a, "--no-default-samples")) {
            no_default_samples = true;
        } else if (!strcmp(a, "--samples")) {
            NEED_VALUE();
            samples_path = argv[i];
        } else if (!strcmp(a, "--baseline")) {
            NEED_VALUE();
            baseline_path = argv[i];
        } else if (!strcmp(a, "-o")) {
            NEED_VALUE();
            outpath = argv[i];
        } else if (!strcmp(a, "--seed")) {
            NEED_VALUE();
            if (!parse_u64(argv[i], &o.seed)) return ta_cli_usage_error(CMD, "bad --seed '%s'", argv[i]);
        } else if (!strcmp(a, "--case-seed")) {
            NEED_VALUE();
            if (!parse_u64(argv[i], &o.case_seed))
                return ta_cli_usage_error(CMD, "bad --case-seed '%s'", argv[i]);
            o.has_case_seed = true;
        } else if (!strcmp(a, "--cases")) {
            NEED_VALUE();
            uint64_t n;
            if (!parse_u64(argv[i], &n) || n > 1000000)
                return ta_cli_usage_error(CMD, "bad --cases '%s'", argv[i]);
            o.cases = (uint32_t)n;
            o.samples_only = n == 0;
        } else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
            NEED_VALUE();
            uint64_t n;
            if (!parse_u64(argv[i], &n) || n == 0 || n > 1024)
                return ta_cli_usage_error(CMD, "bad --jobs '%s'", argv[i]);
            o.jobs = (uint32_t)n;
        } else if (!strcmp(a, "--timeout")) {
            NEED_VALUE();
            char *end;
            o.timeout = strtod(argv[i], &end);
            if (*end || !(o.timeout > 0)) return ta_cli_usage_error(CMD, "bad --timeout '%s'", argv[i]);
        } else if (!strcmp(a, "--trap-writes")) {
            o.trap_writes = true;
        } else if (!strcmp(a, "--device")) {
            NEED_VALUE();
            device = argv[i];
            if (strcmp(device, "cpu") && strcmp(device, "cuda"))
                return ta_cli_usage_error(CMD, "--device is cpu or cuda, not '%s'", device);
        } else if (!strcmp(a, "--format")) {
            NEED_VALUE();
            if (!strcmp(argv[i], "text")) fmt = TA_VFMT_TEXT;
            else if (!strcmp(argv[i], "json")) fmt = TA_VFMT_JSON;
            else if (!strcmp(argv[i], "sarif")) fmt = TA_VFMT_SARIF;
            else if (!strcmp(argv[i], "junit")) fmt = TA_VFMT_JUNIT;
            else return ta_cli_usage_error(CMD, "unknown --format '%s'", argv[i]);
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error(CMD, "unknown option '%s'", a);
        } else if (!yaml) {
            yaml = a;
        } else {
            return ta_cli_usage_error(CMD, "one yaml file at most ('%s')", a);
        }
#undef NEED_VALUE
    }

    int rc = TA_EXIT_USAGE;
    yaml_index ix = {0};
    ta_registry *reg = ta_registry_create();
    ta_diags *diags = ta_diags_create();
    ta_samples *samples = NULL;
    ta_vbaseline *baseline = NULL;
    ta_verify_report *rep = NULL;
    void *devlib = NULL;
    names sel = {0};
    FILE *out = stdout;
    ta_native_file *native = NULL;
    ta_vderived *derived = NULL;
    if (!reg || !diags) goto done;

    if (!yaml) yaml = ta_cli_bundled("native_functions.yaml");
    if (!yaml) {
        fprintf(stderr, "tensoralias verify: the bundled native_functions.yaml is missing\n");
        goto done;
    }
    if (index_yaml(&ix, yaml, &native, diags) != 0) {
        render_diags(diags);
        fprintf(stderr, "tensoralias verify: cannot load %s\n", yaml);
        goto done;
    }
    ta_registry_set_schema_lookup(reg, index_lookup, &ix);

    char cuda_path[PATH_MAX + 64];
    const char *cuda_lib = NULL;
    if (!strcmp(device, "cuda")) {
        char err[512] = "";
        const char *lib = cuda_lib = find_lib("libtensoralias_cuda.so", cuda_path, sizeof cuda_path);
        o.dev = lib ? ta_exec_device_load(lib, &devlib, err, sizeof err) : NULL;
        if (!o.dev) {
            if (!strncmp(err, "no CUDA device is available", 27))
                fprintf(stderr, "tensoralias verify: %s\n", err);
            else
                fprintf(stderr, "tensoralias verify: no CUDA device is available%s%s\n",
                        err[0] ? ": " : "", err);
            goto done;
        }
    }

    /* autogen's derived operators: schemas now, composed kernels after the libraries. */
    derived = ta_vderived_register_schemas(native, reg);
    for (int i = 0; i < nschemas; i++)
        if (load_schemas(reg, schemas[i], diags) != 0) {
            fprintf(stderr, "tensoralias verify: %s: %s\n", schemas[i], strerror(errno));
            goto done;
        }
    if (!no_default) {
        char path[PATH_MAX + 64];
        const char *ref = find_lib("libtensoralias_refkernels.so", path, sizeof path);
        if (ref && ta_registry_load_plugin(reg, ref, diags) != TA_OK) {
            render_diags(diags);
            goto done;
        }
        /* The CUDA reference kernels live in the device library itself. */
        if (cuda_lib && ta_registry_load_plugin(reg, cuda_lib, diags) != TA_OK) {
            render_diags(diags);
            goto done;
        }
    }
    for (int i = 0; i < nkernels; i++) {
        /* dlopen searches the library path for names without a slash. */
        char path[PATH_MAX + 2];
        snprintf(path, sizeof path, "%s%s", strchr(kernels[i], '/') ? "" : "./", kernels[i]);
        if (ta_registry_load_plugin(reg, path, diags) != TA_OK) {
            render_diags(diags);
            goto done;
        }
    }
    if (render_diags(diags)) goto done;
    ta_vderived_add_kernels(derived, reg, compose);
    bool opinfo = !samples_path && !no_default_samples && wants_opinfo_samples(kernels, nkernels);
    if (opinfo && !(samples_path = ta_cli_bundled("opinfo-samples.json")))
        fprintf(stderr, "tensoralias verify: warning: the bundled opinfo-samples.json is missing; "
                        "synthesized cases only\n");
    if (samples_path && ta_samples_load(samples_path, &samples, diags) != TA_OK) {
        render_diags(diags);
        goto done;
    }
    if (render_diags(diags)) goto done;
    ta_samples_set_strict(samples, !opinfo);
    if (baseline_path) {
        char err[512];
        if (!(baseline = ta_vbaseline_load(baseline_path, err, sizeof err))) {
            fprintf(stderr, "tensoralias verify: %s\n", err);
            goto done;
        }
    }

    /* What to run: operators with a kernel; with --ops, whatever matches
     * (an operator without a kernel then gets a no-kernel result). */
    for (size_t i = 0; i < ta_registry_count(reg); i++) {
        const ta_registry_op *op = ta_registry_at(reg, i);
        if (nglobs ? matches(op->name, globs, nglobs) : ta_registry_has_kernel(op))
            names_add(&sel, op->name);
    }
    if (nglobs)
        for (size_t i = 0; i < ix.n; i++)
            if (matches(ix.names[i], globs, nglobs)) names_add(&sel, ix.names[i]);

    if (outpath && !(out = fopen(outpath, "w"))) {
        fprintf(stderr, "tensoralias verify: %s: %s\n", outpath, strerror(errno));
        out = stdout;
        goto done;
    }
    o.samples = samples;
    if (isatty(STDERR_FILENO)) o.progress = progress;
    if (ta_verify(reg, sel.v, sel.n, &o, &rep, diags) != TA_OK) {
        render_diags(diags);
        fprintf(stderr, "tensoralias verify: out of memory\n");
        goto done;
    }
    struct locate_ctx lc = {native, yaml};
    ta_vreport_write(out, fmt, rep, baseline, locate_op, &lc);
    rc = TA_EXIT_CLEAN;
    for (size_t i = 0; i < rep->nops; i++)
        for (size_t k = 0; k < rep->ops[i].nfindings; k++) {
            const ta_finding *f = &rep->ops[i].findings[k];
            if (f->severity == TA_VSEV_ERROR &&
                !ta_vbaseline_has(baseline, rep->ops[i].op, ta_verdict_kind_str(f->kind), f->argument))
                rc = TA_EXIT_FINDINGS;
        }
done:
    if (out != stdout) fclose(out);
    ta_verify_report_destroy(rep);
    ta_vbaseline_destroy(baseline);
    ta_samples_destroy(samples);
    free(sel.v);
    ta_registry_destroy(reg);
    ta_diags_destroy(diags);
    index_free(&ix);
    ta_vderived_destroy(derived);
    ta_native_destroy(native);
    ta_exec_device_unload(devlib);
    return rc;
}
