/* cmd_verify.c - `tensoralias verify`: run kernels on synthesized inputs and
 * compare what they do to memory with what their schemas declare.
 *
 * Schemas come from a native_functions.yaml (the bundled one by default),
 * from kernel plugins, and from --schemas files; kernels from the reference
 * kernel library (unless --no-default-kernels) and --kernels plugins. The
 * set-up and the run are library calls (tensoralias/exec.h); this file
 * parses options, finds the bundled libraries and writes the report. */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report_verify.h"
#include "verify_torch.h"
#include "tensoralias/exec.h"
#include "tensoralias/extract.h"
#include "tensoralias/native.h"

static const char *const CMD = "verify";

/* Operators a batch child runs (--isolate batch): past some 16 the fork a
 * batch saves is a small part of its time (tools/torch/schemacheck_speed.py). */
enum { DEFAULT_BATCH = 32 };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tensoralias verify [FILE.yaml] [options]\n"
            "\n"
            "Runs kernels on synthesized inputs, each operator in a child process, and reports\n"
            "what they did to memory that their schema does not declare.\n"
            "\n"
            "options:\n"
            "  --kernels LIB.so      load a kernel library (repeatable); 'torch': ATen's own\n"
            "                        CPU kernels, through libtorch's dispatcher\n"
            "  --torch-library LIB.so  load a TORCH_LIBRARY extension into libtorch and verify\n"
            "                        the operators it registers, against the schemas the\n"
            "                        dispatcher holds (no yaml needed); repeatable: loaded in\n"
            "                        the order given, each one's dependencies found as the\n"
            "                        dynamic loader finds them (its RUNPATH). It must be built\n"
            "                        for the torch in use (--torch). The CUDA and Python\n"
            "                        libraries it links (libtorch_cuda.so, libc10_cuda.so,\n"
            "                        libtorch.so, libtorch_python.so, libcudart...) are\n"
            "                        replaced by stand-ins made with the C compiler (cc), in\n"
            "                        which every symbol the CPU side lacks aborts if called:\n"
            "                        its CPU kernels are verified\n"
            "  --torch DIR           the torch whose libtorch runs them (default: Debian's\n"
            "                        libtorch-dev): a torch package folder (python3 -c 'import\n"
            "                        torch, os; print(os.path.dirname(torch.__file__))'), a\n"
            "                        libtorch folder, or what tools/install-torch.sh VERSION\n"
            "                        prints; any torch from 1.13 on. Its bridge is built on\n"
            "                        first use (a C++ compiler and the torch's headers are\n"
            "                        needed) into $XDG_CACHE_HOME/tensoralias/torch-bridge, or\n"
            "                        beforehand with `make TORCH=DIR`. Without FILE.yaml the\n"
            "                        operators are that torch's own native_functions.yaml.\n"
            "                        A PyPI torch is a CUDA build: its libtorch_cpu.so needs\n"
            "                        the CUDA runtime wheels (nvidia-cuda-runtime, -cupti)\n"
            "                        beside it; no GPU is needed\n");
    fprintf(out,
            "  --schemas-from SRC    with --torch-library: verify against the schemas the C++ and\n"
            "                        Python sources declare (as `extract` reads them; repeatable),\n"
            "                        each difference from what the library registered a\n"
            "                        schema-mismatch finding\n"
            "  --no-default-kernels  do not load the reference kernels\n"
            "  --compose-derived     run autogen-derived operators by composing their base\n"
            "                        kernel even where a library implements them itself\n"
            "  --schemas FILE        extra schemas (one per line, '- func: ...' or '- \"...\"')\n"
            "  --samples FILE.json   exact arguments per operator (with --kernels torch: PyTorch\n"
            "                        1.13.1's OpInfo samples, unless --no-default-samples)\n"
            "  --ops GLOB            operators to verify (fnmatch on 'aten::abs.out'; repeatable)\n"
            "  --seed N              base seed (default 0)\n"
            "  --case-seed S         run only the case with this seed (from a finding)\n"
            "  --found PATH          with --case-seed: the case's discovery path (a finding's\n"
            "                        '{found: ...}'), for a case input discovery made\n"
            "  --no-discovery        a case the kernel rejects is only rejected; by default the\n"
            "                        rejection is read for what the kernel wants (ranks, sizes,\n"
            "                        dtypes, ...) and the case tried again, while an operator\n"
            "                        has accepted fewer than half of its cases\n"
            "  --cases N             synthesized cases per operator (default 40; 0: samples only)\n"
            "  --timeout S           seconds per case before the kernel is killed (default 10)\n"
            "  --jobs N              operators verified in parallel (default 1)\n"
            "  --isolate operator|batch[:N]\n"
            "                        operator: each operator in a child process of its own;\n"
            "                        batch: a child runs up to N operators (default %d) one\n"
            "                        after another, the process state put back between them,\n"
            "                        and every operator with a finding, a crash or a timeout\n"
            "                        there runs again alone in a fresh child, whose result is\n"
            "                        the one reported (default: batch with --kernels torch and\n"
            "                        --torch-library, operator otherwise)\n"
            "  --trap-writes         read-only pages on inputs that may not be written\n"
            "  --strict              a write of an argument only torch's SchemaInfo counts as\n"
            "                        written in training mode (running_mean...) is an error\n"
            "                        (special-case-write; a warning otherwise)\n"
            "  --device cpu|cuda     where kernels run (default cpu)\n"
            "  --format text|json|sarif|junit\n"
            "  --baseline FILE       a previous JSON report: its findings do not fail the run\n"
            "  -o FILE               write the report to FILE\n"
            "  -v, --verbose         text: every operator's result, not only those with findings;\n"
            "                        and how the run used child processes (standard error)\n"
            "\n"
            "Exit status: 0 no error finding outside the baseline, 1 error findings, 2 usage\n"
            "or I/O error: an input that cannot be read or holds nothing to verify (no native\n"
            "function, no operator selected, no kernel for any), or a report not written.\n",
            DEFAULT_BATCH);
}

/* ---- options ------------------------------------------------------------ */

enum { MAX_LIST = 64 };

typedef struct verify_cli {
    const char *yaml, *samples, *baseline, *outpath, *device, *torch;
    const char *kernels[MAX_LIST], *schemas[MAX_LIST], *sources[MAX_LIST], *libraries[MAX_LIST];
    const char **globs; /* room for every argument: scripts pass one --ops per operator */
    int nkernels, nschemas, nglobs, nsources, nlibraries;
    bool no_default_kernels, no_default_samples, verbose;
    bool isolate_given; /* --isolate: else the kernels choose */
    ta_compose_mode compose;
    ta_vformat fmt;
    ta_verify_opts opts;
} verify_cli;

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end) return false;
    *out = v;
    return true;
}

/* TA_EXIT_CLEAN, or a usage error when the list is full. */
static int add_to(const char **list, int *n, const char *opt, const char *v)
{
    if (*n >= MAX_LIST) return ta_cli_usage_error(CMD, "at most %d %s options", MAX_LIST, opt);
    list[(*n)++] = v;
    return TA_EXIT_CLEAN;
}

/* An option without a value; false when a is none of them. */
static bool parse_flag(verify_cli *c, const char *a)
{
    if (!strcmp(a, "--no-default-kernels")) c->no_default_kernels = true;
    else if (!strcmp(a, "--no-default-samples")) c->no_default_samples = true;
    else if (!strcmp(a, "--compose-derived")) c->compose = TA_COMPOSE_ALL;
    else if (!strcmp(a, "--trap-writes")) c->opts.trap_writes = true;
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) c->verbose = true;
    else if (!strcmp(a, "--strict")) c->opts.strict = true;
    else if (!strcmp(a, "--no-discovery")) c->opts.no_discovery = true;
    else return false;
    return true;
}

/* A number option of the run; -1 when a is none of them, else an exit
 * status (TA_EXIT_CLEAN when v is good). */
static int parse_number(verify_cli *c, const char *a, const char *v)
{
    ta_verify_opts *o = &c->opts;
    uint64_t n;
    char *end;
    if (!strcmp(a, "--seed")) {
        if (!parse_u64(v, &o->seed)) return ta_cli_usage_error(CMD, "bad --seed '%s'", v);
    } else if (!strcmp(a, "--case-seed")) {
        if (!parse_u64(v, &o->case_seed)) return ta_cli_usage_error(CMD, "bad --case-seed '%s'", v);
        o->has_case_seed = true;
    } else if (!strcmp(a, "--cases")) {
        if (!parse_u64(v, &n) || n > 1000000) return ta_cli_usage_error(CMD, "bad --cases '%s'", v);
        o->cases = (uint32_t)n;
        o->samples_only = n == 0;
    } else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
        if (!parse_u64(v, &n) || n == 0 || n > 1024) return ta_cli_usage_error(CMD, "bad --jobs '%s'", v);
        o->jobs = (uint32_t)n;
    } else if (!strcmp(a, "--timeout")) {
        o->timeout = strtod(v, &end);
        if (*end || !(o->timeout > 0)) return ta_cli_usage_error(CMD, "bad --timeout '%s'", v);
    } else {
        return -1;
    }
    return TA_EXIT_CLEAN;
}

/* --isolate operator|batch[:N]. */
static int parse_isolate(verify_cli *c, const char *v)
{
    uint64_t n = DEFAULT_BATCH;
    c->isolate_given = true;
    if (!strcmp(v, "operator")) n = 1;
    else if (strncmp(v, "batch", 5) || (v[5] && (v[5] != ':' || !parse_u64(v + 6, &n) || !n || n > 100000)))
        return ta_cli_usage_error(CMD, "--isolate is operator, batch or batch:N, not '%s'", v);
    c->opts.batch = (uint32_t)n;
    return TA_EXIT_CLEAN;
}

static int parse_format(verify_cli *c, const char *v)
{
    if (!strcmp(v, "text")) c->fmt = TA_VFMT_TEXT;
    else if (!strcmp(v, "json")) c->fmt = TA_VFMT_JSON;
    else if (!strcmp(v, "sarif")) c->fmt = TA_VFMT_SARIF;
    else if (!strcmp(v, "junit")) c->fmt = TA_VFMT_JUNIT;
    else return ta_cli_usage_error(CMD, "unknown --format '%s'", v);
    return TA_EXIT_CLEAN;
}

/* An option with a value; -1 when a is none of them, else an exit status
 * (TA_EXIT_CLEAN when v is good). */
static int parse_valued(verify_cli *c, const char *a, const char *v)
{
    if (!strcmp(a, "--kernels")) return add_to(c->kernels, &c->nkernels, a, v);
    else if (!strcmp(a, "--schemas")) return add_to(c->schemas, &c->nschemas, a, v);
    else if (!strcmp(a, "--ops")) c->globs[c->nglobs++] = v;
    else if (!strcmp(a, "--samples")) c->samples = v;
    else if (!strcmp(a, "--torch-library")) return add_to(c->libraries, &c->nlibraries, a, v);
    else if (!strcmp(a, "--torch")) c->torch = v;
    else if (!strcmp(a, "--schemas-from")) return add_to(c->sources, &c->nsources, a, v);
    else if (!strcmp(a, "--baseline")) c->baseline = v;
    else if (!strcmp(a, "--found")) c->opts.discovered = v;
    else if (!strcmp(a, "-o")) c->outpath = v;
    else if (!strcmp(a, "--format")) return parse_format(c, v);
    else if (!strcmp(a, "--isolate")) return parse_isolate(c, v);
    else if (!strcmp(a, "--device")) {
        c->device = v;
        if (strcmp(v, "cpu") && strcmp(v, "cuda"))
            return ta_cli_usage_error(CMD, "--device is cpu or cuda, not '%s'", v);
    } else {
        return parse_number(c, a, v);
    }
    return TA_EXIT_CLEAN;
}

static bool takes_value(const char *a)
{
    static const char *const with_value[] = {"--kernels", "--schemas", "--ops", "--samples",
                                             "--baseline", "-o", "--format", "--device", "--torch", "--torch-library", "--schemas-from", "--isolate",
                                             "--seed", "--case-seed", "--found", "--cases", "--jobs",
                                             "-j", "--timeout"};
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
        if (!strcmp(a, with_value[i])) return true;
    return false;
}

static int out_of_memory(void)
{
    fprintf(stderr, "tensoralias verify: out of memory\n");
    return TA_EXIT_USAGE;
}

/* Fills c from argv; -1 to go on, else the exit status to end with. */
static int parse_args(verify_cli *c, int argc, char **argv)
{
    *c = (verify_cli){.device = "cpu", .compose = TA_COMPOSE_MISSING, .fmt = TA_VFMT_TEXT};
    if (!(c->globs = calloc((size_t)argc, sizeof *c->globs))) return out_of_memory();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return TA_EXIT_CLEAN;
        }
        if (parse_flag(c, a)) continue;
        if (!strncmp(a, "--isolate=", 10)) {
            int rc = parse_isolate(c, a + 10);
            if (rc != TA_EXIT_CLEAN) return rc;
        } else if (takes_value(a)) {
            if (i + 1 >= argc) return ta_cli_usage_error(CMD, "%s needs a value", a);
            int rc = parse_valued(c, a, argv[++i]);
            if (rc != TA_EXIT_CLEAN) return rc;
        } else if (a[0] == '-' && a[1]) {
            return ta_cli_usage_error(CMD, "unknown option '%s'", a);
        } else if (!c->yaml) {
            c->yaml = a;
        } else {
            return ta_cli_usage_error(CMD, "one yaml file at most ('%s')", a);
        }
    }
    if (c->opts.discovered && !c->opts.has_case_seed)
        return ta_cli_usage_error(CMD, "--found replays one case: give its --case-seed too");
    return -1;
}

/* ---- the run ------------------------------------------------------------ */

typedef struct verify_run {
    ta_registry *reg;
    ta_diags *diags;
    ta_native_file *native;
    void *devlib;
    char cuda_path[PATH_MAX + 64];
    const char *cuda_lib; /* the CUDA device library, for --device cuda */
    ta_samples *samples;
    ta_vbaseline *baseline;
    ta_torch_setup torch; /* the bridge, and the torch it was built for */
} verify_run;

static int render_diags(ta_diags *d)
{
    int errors = 0;
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        ta_cli_render(g, stderr);
        if (g->severity == TA_SEV_ERROR) errors++;
    }
    ta_diags_clear(d);
    return errors;
}

/* Only the loader's errors: a yaml that yields no function at all is not
 * worth its warnings. */
static void render_errors(ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++)
        if (ta_diags_get(d, i)->severity == TA_SEV_ERROR) ta_cli_render(ta_diags_get(d, i), stderr);
    ta_diags_clear(d);
}

/* The yaml's schemas become the registry's schema source. A file that
 * holds no native function (not yaml, empty, another kind of document) is
 * an input error: verifying against it would check nothing. */
static int load_yaml(verify_run *r, const char *yaml)
{
    ta_status st = ta_native_load_path(yaml, NULL, &r->native, r->diags);
    if (st == TA_ERR_IO || st == TA_ERR_NOMEM || !r->native || !ta_native_count(r->native)) {
        render_errors(r->diags);
        fprintf(stderr, "tensoralias verify: %s: %s\n", yaml,
                r->native ? "no native functions in it (is it a native_functions.yaml?)"
                          : "cannot load it");
        return TA_EXIT_USAGE;
    }
    /* Entries the loader could not read are reported by check, not here. */
    ta_diags_clear(r->diags);
    return ta_registry_use_native(r->reg, r->native) == TA_OK ? -1 : out_of_memory();
}

static int open_cuda(verify_run *r, ta_verify_opts *o)
{
    const char *lib = r->cuda_lib = ta_cli_find_lib("libtensoralias_cuda.so", r->cuda_path, sizeof r->cuda_path);
    o->dev = NULL;
    if (lib && ta_exec_device_load(lib, &o->dev, &r->devlib, r->diags) == TA_OK) return -1;
    size_t n = ta_diags_count(r->diags);
    const char *err = n ? ta_diags_get(r->diags, n - 1)->message : "";
    if (!strncmp(err, "no CUDA device is available", 27))
        fprintf(stderr, "tensoralias verify: %s\n", err);
    else
        fprintf(stderr, "tensoralias verify: no CUDA device is available%s%s\n", err[0] ? ": " : "",
                err);
    return TA_EXIT_USAGE;
}

/* --schemas-from: the schemas the sources declare, registered (without
 * kernels) before the bridge, which then verifies the library's kernels
 * against them; -1 when done, else the exit status. */
static int load_source_schemas(verify_run *r, const verify_cli *c)
{
    if (!c->nsources) return -1;
    if (!c->nlibraries) return ta_cli_usage_error(CMD, "--schemas-from needs --torch-library");
    ta_extract *x;
    if (ta_extract_create(NULL, &x) != TA_OK) return out_of_memory();
    ta_status st = TA_OK;
    for (int i = 0; st == TA_OK && i < c->nsources; i++) st = ta_extract_path(x, c->sources[i], r->diags);
    if (st == TA_OK) st = ta_extract_finish(x, r->diags);
    if (st == TA_OK) st = ta_registry_set_origin(r->reg, "--schemas-from");
    for (size_t i = 0; st == TA_OK && i < ta_extract_count(x); i++) {
        const ta_extract_op *op = ta_extract_get(x, i);
        const ta_registry_op *known = op->parsed && op->ns ? ta_registry_find(r->reg, op->name) : NULL;
        /* The first declaration of an operator is the one verified against. */
        if (op->parsed && op->ns && (!known || !known->schema))
            ta_register_op(r->reg, op->schema, TA_KEY_CATCHALL, NULL, NULL);
    }
    ta_extract_destroy(x);
    if (st == TA_OK) st = ta_registry_take_diags(r->reg, r->diags);
    ta_registry_set_origin(r->reg, NULL);
    /* What extraction notes (an unresolved macro) is shown; errors end the run. */
    if (render_diags(r->diags) || st != TA_OK) return st == TA_ERR_NOMEM ? out_of_memory() : TA_EXIT_USAGE;
    return -1;
}

/* The libtorch bridge (`--kernels torch`, `--torch-library`) for the torch
 * of the run (set_up found it); -1 when loaded, else the exit status. */
static int load_torch_bridge(verify_run *r)
{
    return ta_registry_load_plugin(r->reg, r->torch.bridge, r->diags) == TA_OK ? -1 : TA_EXIT_USAGE;
}

/* The --torch-library paths, one a line, for the bridge's option
 * "torch.library"; NULL when out of memory. */
static char *library_list(const verify_cli *c)
{
    size_t n = 1;
    for (int i = 0; i < c->nlibraries; i++) n += strlen(c->libraries[i]) + 3;
    char *list = malloc(n), *at = list;
    for (int i = 0; list && i < c->nlibraries; i++)
        /* dlopen searches the library path for names without a slash. */
        at += sprintf(at, "%s%s%s", i ? "\n" : "", strchr(c->libraries[i], '/') ? "" : "./", c->libraries[i]);
    return list;
}

/* True when libtorch's kernels are verified (--kernels torch, --torch-library). */
static bool uses_torch(const verify_cli *c)
{
    bool torch = c->nlibraries > 0;
    for (int i = 0; i < c->nkernels; i++) torch = torch || !strcmp(c->kernels[i], "torch");
    return torch;
}

/* The reference kernels (CPU, and the CUDA ones inside the device library),
 * then every --kernels library. ATen's own kernels (--kernels torch) come
 * without the reference kernels, which would only stand in for them. */
static int load_kernels(verify_run *r, const verify_cli *c)
{
    char path[PATH_MAX + 64];
    bool torch = uses_torch(c);
    const char *ref = c->no_default_kernels || torch
                          ? NULL
                          : ta_cli_find_lib("libtensoralias_refkernels.so", path, sizeof path);
    if (ref && ta_registry_load_plugin(r->reg, ref, r->diags) != TA_OK) return TA_EXIT_USAGE;
    if (!c->no_default_kernels && r->cuda_lib &&
        ta_registry_load_plugin(r->reg, r->cuda_lib, r->diags) != TA_OK)
        return TA_EXIT_USAGE;
    if (c->nlibraries) {
        char *list = library_list(c);
        ta_status st = list ? ta_registry_set_option(r->reg, "torch.library", list) : TA_ERR_NOMEM;
        free(list);
        if (st != TA_OK || load_torch_bridge(r) >= 0) return TA_EXIT_USAGE;
    }
    for (int i = 0; i < c->nkernels; i++) {
        if (!strcmp(c->kernels[i], "torch")) {
            if (load_torch_bridge(r) >= 0) return TA_EXIT_USAGE;
            continue;
        }
        /* dlopen searches the library path for names without a slash. */
        snprintf(path, sizeof path, "%s%s", strchr(c->kernels[i], '/') ? "" : "./", c->kernels[i]);
        if (ta_registry_load_plugin(r->reg, path, r->diags) != TA_OK) return TA_EXIT_USAGE;
    }
    return -1;
}

/* ATen's own kernels (--kernels torch) come with PyTorch's OpInfo samples
 * (tools/torch/export_opinfo_samples.py): inputs its kernels accept. A
 * sample they reject is a rejected case there, not a finding: the corpus
 * was made with torch 1.13.1 and the yaml may be another version's. */
static bool wants_opinfo_samples(const verify_cli *c)
{
    if (c->samples || c->no_default_samples) return false;
    for (int i = 0; i < c->nkernels; i++)
        if (!strcmp(c->kernels[i], "torch")) return true;
    return false;
}

/* The --samples file, or the bundled OpInfo samples for --kernels torch;
 * -1 when loaded (or none), else the exit status. */
static int load_samples(verify_run *r, verify_cli *c)
{
    bool opinfo = wants_opinfo_samples(c);
    const char *path = opinfo ? ta_cli_bundled("opinfo-samples.json") : c->samples;
    if (opinfo && !path)
        fprintf(stderr, "tensoralias verify: warning: the bundled opinfo-samples.json is missing; "
                        "synthesized cases only\n");
    if (path && ta_samples_load(path, &r->samples, r->diags) != TA_OK) {
        render_diags(r->diags);
        return TA_EXIT_USAGE;
    }
    if (render_diags(r->diags)) return TA_EXIT_USAGE; /* warnings are shown, errors end the run */
    /* A file written for this run names only operators and arguments that
     * exist; the OpInfo corpus may be another version's. */
    if (r->samples && !opinfo && ta_samples_check(r->samples, r->reg, path, r->diags) != TA_OK) {
        render_diags(r->diags);
        return TA_EXIT_USAGE;
    }
    ta_samples_set_strict(r->samples, !opinfo);
    c->opts.samples = r->samples;
    return -1;
}

/* Schemas, devices, kernels, derived operators, samples and baseline;
 * -1 when all is ready, else the exit status. */
/* The yaml verified against: FILE, none for an extension library (it
 * brings its schemas), the --torch torch's own, or the bundled one; NULL
 * after an error message when there is none. */
static const char *default_yaml(const verify_run *r, const verify_cli *c)
{
    if (c->yaml) return c->yaml;
    if (c->nlibraries) return NULL;
    if (c->torch) {
        if (!r->torch.yaml[0])
            fprintf(stderr, "tensoralias verify: torch %s (%s) has no native_functions.yaml of its own "
                            "(torchgen/packaged beside it): name one\n", r->torch.version, c->torch);
        return r->torch.yaml[0] ? r->torch.yaml : NULL;
    }
    const char *yaml = ta_cli_bundled("native_functions.yaml");
    if (!yaml) fprintf(stderr, "tensoralias verify: the bundled native_functions.yaml is missing\n");
    return yaml;
}

static int set_up(verify_run *r, verify_cli *c)
{
    int rc = -1;
    if (c->torch && !uses_torch(c)) return ta_cli_usage_error(CMD, "--torch needs --kernels torch or --torch-library");
    if (uses_torch(c) && (rc = ta_verify_torch_setup(c->torch, &r->torch)) >= 0) return rc;
    const char *yaml = default_yaml(r, c);
    if (!yaml && (c->yaml || !c->nlibraries)) return TA_EXIT_USAGE;
    c->yaml = yaml;
    rc = yaml ? load_yaml(r, yaml) : -1;
    if (rc < 0 && !strcmp(c->device, "cuda")) rc = open_cuda(r, &c->opts);
    if (rc >= 0) return rc;
    /* autogen's derived operators: schemas now, composed kernels after the libraries. */
    if (r->native && ta_registry_add_autogen_schemas(r->reg, r->native) == TA_ERR_NOMEM)
        return out_of_memory();
    for (int i = 0; i < c->nschemas; i++)
        if (ta_registry_load_schemas(r->reg, c->schemas[i], r->diags) != TA_OK) {
            render_diags(r->diags);
            return TA_EXIT_USAGE;
        }
    if ((rc = load_source_schemas(r, c)) >= 0) return rc;
    if (load_kernels(r, c) >= 0) {
        render_diags(r->diags);
        return TA_EXIT_USAGE;
    }
    if (render_diags(r->diags)) return TA_EXIT_USAGE;
    if (ta_registry_add_autogen_kernels(r->reg, c->compose, NULL) != TA_OK) return out_of_memory();
    if ((rc = load_samples(r, c)) >= 0) return rc;
    /* A process that has mapped libtorch takes a millisecond and more to
     * fork and to end, often more than an operator's cases: batches. */
    if (!c->isolate_given) c->opts.batch = uses_torch(c) ? DEFAULT_BATCH : 1;
    if (c->baseline && !(r->baseline = ta_vbaseline_load(c->baseline, r->diags))) {
        size_t n = ta_diags_count(r->diags);
        fprintf(stderr, "tensoralias verify: %s\n", n ? ta_diags_get(r->diags, n - 1)->message : "out of memory");
        return TA_EXIT_USAGE;
    }
    return -1;
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

/* An error finding the baseline does not know of fails the run. */
static int exit_status(const ta_verify_report *rep, const ta_vbaseline *baseline)
{
    for (size_t i = 0; i < rep->nops; i++)
        for (size_t k = 0; k < rep->ops[i].nfindings; k++) {
            const ta_finding *f = &rep->ops[i].findings[k];
            if (f->severity == TA_SEV_ERROR &&
                !ta_vbaseline_has(baseline, rep->ops[i].op, ta_verdict_kind_str(f->kind), f->argument))
                return TA_EXIT_FINDINGS;
        }
    return TA_EXIT_CLEAN;
}

/* Why the selection is empty, as an input error: a gate that selected
 * nothing has checked nothing. */
static int nothing_selected(const verify_cli *c)
{
    if (c->nglobs)
        return ta_cli_usage_error(CMD, "no operator matches --ops '%s'%s", c->globs[0],
                                  c->nglobs > 1 ? " (nor the other --ops)" : "");
    return ta_cli_usage_error(CMD, "no operator has a kernel: nothing to verify%s",
                              c->no_default_kernels && !c->nkernels
                                  ? " (--no-default-kernels without --kernels)" : "");
}

/* True when some selected operator had a kernel to run. */
static bool ran_any(const ta_verify_report *rep)
{
    for (size_t i = 0; i < rep->nops; i++)
        if (rep->ops[i].verdict != TA_V_NO_KERNEL) return true;
    return false;
}

/* Writes the report to c->outpath or standard output; an output that
 * cannot be written is an I/O error (exit 2 with a message). */
static int write_report(verify_run *r, const verify_cli *c, const ta_verify_report *rep)
{
    FILE *out = stdout;
    const char *name = c->outpath ? c->outpath : "standard output";
    if (c->outpath && !(out = fopen(c->outpath, "w"))) {
        fprintf(stderr, "tensoralias verify: %s: %s\n", c->outpath, strerror(errno));
        return TA_EXIT_USAGE;
    }
    struct locate_ctx lc = {r->native, c->yaml};
    ta_vreport_opts ro = {c->fmt, c->verbose, r->baseline, locate_op, &lc};
    int bad = ta_vreport_write(out, &ro, rep);
    bad |= out != stdout ? fclose(out) != 0 : ta_cli_flush_stdout() != 0;
    if (bad) return ta_cli_write_error(CMD, name);
    return -1;
}

/* -v: the child processes a run used, on standard error. */
static void write_isolation(const verify_cli *c, const ta_verify_report *rep)
{
    const ta_verify_stats *s = &rep->stats;
    if (!c->verbose || !s->children) return;
    fprintf(stderr, "isolation: %s", c->opts.batch > 1 ? "batch" : "operator");
    if (c->opts.batch > 1) fprintf(stderr, ":%u", c->opts.batch);
    fprintf(stderr, ", %u child process%s", s->children, s->children == 1 ? "" : "es");
    if (c->opts.batch > 1)
        fprintf(stderr, ", %u operator%s run again alone (%u timed out in a batch), %u batch%s ended "
                        "early (process state changed)", s->reruns, s->reruns == 1 ? "" : "s",
                s->timeouts_rerun, s->cut, s->cut == 1 ? "" : "es");
    fprintf(stderr, "\n");
}

/* -v: what input discovery did, on standard error: its calls and in how
 * many operators, the calls a fake or Meta kernel refused alone, the cases
 * only it got accepted, its time. */
static void write_discovery(const verify_cli *c, const ta_verify_report *rep)
{
    unsigned long long calls = 0, found = 0, screened = 0;
    size_t ops = 0;
    double secs = 0;
    for (size_t i = 0; i < rep->nops; i++) {
        const ta_op_result *o = &rep->ops[i];
        calls += o->discovery_calls;
        found += o->discovered;
        screened += o->screened;
        secs += o->discovery_seconds;
        ops += o->discovery_calls > 0;
    }
    if (!c->verbose || c->opts.no_discovery) return;
    fprintf(stderr, "discovery: %llu call%s in %zu operator%s (%llu screened by fake or Meta kernels), %llu case%s "
                    "accepted only through it, %.2f s\n",
            calls, calls == 1 ? "" : "s", ops, ops == 1 ? "" : "s", screened, found, found == 1 ? "" : "s", secs);
}

/* Verifies the selected operators and writes the report. */
static int run_and_report(verify_run *r, verify_cli *c)
{
    const char **sel = NULL;
    size_t nsel = 0;
    if (ta_registry_select(r->reg, c->globs, (size_t)c->nglobs, &sel, &nsel) != TA_OK)
        return out_of_memory();
    if (!nsel) return nothing_selected(c);
    if (isatty(STDERR_FILENO)) c->opts.progress = progress;
    ta_verify_report *rep = NULL;
    int rc = TA_EXIT_USAGE;
    if (ta_verify(r->reg, sel, nsel, &c->opts, &rep, r->diags) != TA_OK) {
        render_diags(r->diags);
        out_of_memory();
    } else if ((rc = write_report(r, c, rep)) < 0) {
        write_isolation(c, rep);
        write_discovery(c, rep);
        rc = exit_status(rep, r->baseline);
        if (!ran_any(rep))
            rc = ta_cli_usage_error(CMD, "nothing was verified: none of the %zu selected "
                                    "operator%s has a kernel", nsel, nsel == 1 ? "" : "s");
    }
    ta_verify_report_destroy(rep);
    free(sel);
    return rc;
}

int ta_cmd_verify(int argc, char **argv)
{
    verify_cli c;
    int rc = parse_args(&c, argc, argv);
    if (rc >= 0) {
        free(c.globs);
        return rc;
    }
    verify_run r = {.reg = NULL};
    rc = ta_registry_create(&r.reg) != TA_OK || ta_diags_create(&r.diags) != TA_OK ? out_of_memory()
                                                                                  : set_up(&r, &c);
    if (rc < 0) rc = run_and_report(&r, &c);
    ta_vbaseline_destroy(r.baseline);
    ta_samples_destroy(r.samples);
    ta_registry_destroy(r.reg);
    ta_diags_destroy(r.diags);
    ta_native_destroy(r.native);
    ta_exec_device_unload(r.devlib);
    free(c.globs);
    return rc;
}
