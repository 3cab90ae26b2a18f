/* cmd_verify.c - `tensoralias verify`: run kernels on synthesized inputs and
 * compare what they do to memory with what their schemas declare.
 *
 * The options become a ta_verify_config; what they mean (which yaml, which
 * kernel libraries and torch, samples, isolation, baseline) is the verify
 * session's (tensoralias/verify.h), and so is the report. This file parses
 * the options, prints what the session says, and writes the report where
 * -o asks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tensoralias/verify.h"

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
            "  --schemas FILE        extra schemas: a list, one a line ('#' comments), or a\n"
            "                        native_functions.yaml\n"
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
            TA_VERIFY_BATCH);
}

/* ---- options ------------------------------------------------------------ */

typedef struct verify_cli {
    ta_verify_config c;
    const char **kernels, **schemas, **sources, **libraries, **globs; /* room for every argument */
    const char *outpath;
    bool verbose;
    ta_verify_format fmt;
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

/* An option without a value; false when a is none of them. */
static bool parse_flag(verify_cli *v, const char *a)
{
    ta_verify_config *c = &v->c;
    if (!strcmp(a, "--no-default-kernels")) c->no_default_kernels = true;
    else if (!strcmp(a, "--no-default-samples")) c->no_default_samples = true;
    else if (!strcmp(a, "--compose-derived")) c->compose = TA_COMPOSE_ALL;
    else if (!strcmp(a, "--trap-writes")) c->run.trap_writes = true;
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) v->verbose = true;
    else if (!strcmp(a, "--strict")) c->run.strict = true;
    else if (!strcmp(a, "--no-discovery")) c->run.no_discovery = true;
    else return false;
    return true;
}

/* A number option of the run; -1 when a is none of them, else an exit
 * status (TA_EXIT_CLEAN when v is good). */
static int parse_number(verify_cli *c, const char *a, const char *v)
{
    ta_verify_opts *o = &c->c.run;
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

/* --isolate operator|batch[:N]: the run's batch (0 lets the session choose). */
static int parse_isolate(verify_cli *c, const char *v)
{
    uint64_t n = TA_VERIFY_BATCH;
    if (!strcmp(v, "operator")) n = 1;
    else if (strncmp(v, "batch", 5) || (v[5] && (v[5] != ':' || !parse_u64(v + 6, &n) || !n || n > 100000)))
        return ta_cli_usage_error(CMD, "--isolate is operator, batch or batch:N, not '%s'", v);
    c->c.run.batch = (uint32_t)n;
    return TA_EXIT_CLEAN;
}

static int parse_format(verify_cli *c, const char *v)
{
    if (!strcmp(v, "text")) c->fmt = TA_VERIFY_TEXT;
    else if (!strcmp(v, "json")) c->fmt = TA_VERIFY_JSON;
    else if (!strcmp(v, "sarif")) c->fmt = TA_VERIFY_SARIF;
    else if (!strcmp(v, "junit")) c->fmt = TA_VERIFY_JUNIT;
    else return ta_cli_usage_error(CMD, "unknown --format '%s'", v);
    return TA_EXIT_CLEAN;
}

/* A repeatable option's value, appended to its list. */
static void add_to(const char **list, size_t *n, const char *v) { list[(*n)++] = v; }

/* An option with a value; -1 when a is none of them, else an exit status
 * (TA_EXIT_CLEAN when v is good). */
static int parse_valued(verify_cli *v, const char *a, const char *val)
{
    ta_verify_config *c = &v->c;
    if (!strcmp(a, "--kernels")) add_to(v->kernels, &c->nkernels, val);
    else if (!strcmp(a, "--schemas")) add_to(v->schemas, &c->nschema_files, val);
    else if (!strcmp(a, "--ops")) add_to(v->globs, &c->nops, val);
    else if (!strcmp(a, "--torch-library")) add_to(v->libraries, &c->ntorch_libraries, val);
    else if (!strcmp(a, "--schemas-from")) add_to(v->sources, &c->nschema_sources, val);
    else if (!strcmp(a, "--samples")) c->samples = val;
    else if (!strcmp(a, "--torch")) c->torch_dir = val;
    else if (!strcmp(a, "--baseline")) c->baseline = val;
    else if (!strcmp(a, "--found")) c->run.discovered = val;
    else if (!strcmp(a, "-o")) v->outpath = val;
    else if (!strcmp(a, "--format")) return parse_format(v, val);
    else if (!strcmp(a, "--isolate")) return parse_isolate(v, val);
    else if (!strcmp(a, "--device")) {
        c->cuda = !strcmp(val, "cuda");
        if (strcmp(val, "cpu") && strcmp(val, "cuda"))
            return ta_cli_usage_error(CMD, "--device is cpu or cuda, not '%s'", val);
    } else {
        return parse_number(v, a, val);
    }
    return TA_EXIT_CLEAN;
}

static bool takes_value(const char *a)
{
    static const char *const with_value[] = {"--kernels", "--schemas", "--ops", "--samples",
                                             "--baseline", "-o", "--format", "--device", "--torch",
                                             "--torch-library", "--schemas-from", "--isolate", "--seed",
                                             "--case-seed", "--found", "--cases", "--jobs", "-j", "--timeout"};
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
        if (!strcmp(a, with_value[i])) return true;
    return false;
}

static int out_of_memory(void)
{
    fprintf(stderr, "tensoralias verify: out of memory\n");
    return TA_EXIT_USAGE;
}

/* Room for every argument in each list. */
static bool alloc_lists(verify_cli *v, int argc)
{
    const char ***lists[] = {&v->kernels, &v->schemas, &v->sources, &v->libraries, &v->globs};
    bool ok = true;
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        ok = (*lists[i] = calloc((size_t)argc, sizeof(char *))) != NULL && ok;
    v->c.kernels = v->kernels;
    v->c.schema_files = v->schemas;
    v->c.schema_sources = v->sources;
    v->c.torch_libraries = v->libraries;
    v->c.ops = v->globs;
    return ok;
}

static void free_lists(verify_cli *v)
{
    free(v->kernels);
    free(v->schemas);
    free(v->sources);
    free(v->libraries);
    free(v->globs);
}

/* One argument at argv[*i]; -1 to go on, else the exit status to end with. */
static int parse_arg(verify_cli *v, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        usage(stdout);
        return TA_EXIT_CLEAN;
    }
    if (parse_flag(v, a)) return -1;
    int rc = -1;
    if (!strncmp(a, "--isolate=", 10)) {
        rc = parse_isolate(v, a + 10);
    } else if (takes_value(a)) {
        if (*i + 1 >= argc) return ta_cli_usage_error(CMD, "%s needs a value", a);
        rc = parse_valued(v, a, argv[++*i]);
    } else if (a[0] == '-' && a[1]) {
        return ta_cli_usage_error(CMD, "unknown option '%s'", a);
    } else if (!v->c.yaml) {
        v->c.yaml = a;
    } else {
        return ta_cli_usage_error(CMD, "one yaml file at most ('%s')", a);
    }
    return rc == TA_EXIT_CLEAN ? -1 : rc;
}

/* Fills v from argv; -1 to go on, else the exit status to end with. */
static int parse_args(verify_cli *v, int argc, char **argv)
{
    *v = (verify_cli){.c = {.compose = TA_COMPOSE_MISSING}, .fmt = TA_VERIFY_TEXT};
    if (!alloc_lists(v, argc)) return out_of_memory();
    for (int i = 1; i < argc; i++) {
        int rc = parse_arg(v, argc, argv, &i);
        if (rc >= 0) return rc;
    }
    if (v->c.run.discovered && !v->c.run.has_case_seed)
        return ta_cli_usage_error(CMD, "--found replays one case: give its --case-seed too");
    return -1;
}

/* ---- what the session says ---------------------------------------------- */

/* The bridge's build, as it happens: the session's words with the
 * command's name, torch-config.sh's lines as they are. */
static void log_line(void *ud, bool output, const char *line)
{
    (void)ud;
    fprintf(stderr, output ? "%s\n" : "tensoralias verify: %s\n", line);
}

static void progress(void *ud, size_t done, size_t total, const char *op)
{
    (void)ud;
    fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, op);
    if (done == total) fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

/* The session's diagnostics on standard error: a message about the run as
 * a whole with the command's name (and where to read about the options
 * when they asked for the impossible), the others as a compiler's. Then
 * clears them. */
static void show(ta_diags *d)
{
    for (size_t i = 0; i < ta_diags_count(d); i++) {
        const ta_diag *g = ta_diags_get(d, i);
        bool config = !strcmp(g->rule, "verify-config");
        if (g->line || (!config && strcmp(g->rule, "verify"))) {
            ta_cli_render(g, stderr);
            continue;
        }
        fprintf(stderr, "tensoralias verify: %s%s\n", g->severity == TA_SEV_WARNING ? "warning: " : "", g->message);
        if (config) fprintf(stderr, "(see 'tensoralias verify --help')\n");
    }
    ta_diags_clear(d);
}

/* ---- the run ------------------------------------------------------------ */

/* Writes the report to -o FILE or standard output; an output that cannot
 * be written is an I/O error (exit 2 with a message). -1 when written. */
static int write_report(const ta_verify_session *s, const verify_cli *v)
{
    FILE *out = stdout;
    const char *name = v->outpath ? v->outpath : "standard output";
    if (v->outpath && !(out = fopen(v->outpath, "w"))) {
        fprintf(stderr, "tensoralias verify: %s: %s\n", v->outpath, strerror(errno));
        return TA_EXIT_USAGE;
    }
    bool bad = ta_verify_session_write(s, v->fmt, v->verbose, ta_write_file, out) != TA_OK;
    bad |= out != stdout ? fclose(out) != 0 : ta_cli_flush_stdout() != 0;
    return bad ? ta_cli_write_error(CMD, name) : -1;
}

/* -v: the child processes a run used, on standard error. */
static void write_isolation(const ta_verify_session *s, const verify_cli *v)
{
    const ta_verify_stats *st = &ta_verify_session_report(s)->stats;
    uint32_t batch = ta_verify_session_opts(s)->batch;
    if (!v->verbose || !st->children) return;
    fprintf(stderr, "isolation: %s", batch > 1 ? "batch" : "operator");
    if (batch > 1) fprintf(stderr, ":%u", batch);
    fprintf(stderr, ", %u child process%s", st->children, st->children == 1 ? "" : "es");
    if (batch > 1)
        fprintf(stderr, ", %u operator%s run again alone (%u timed out in a batch), %u batch%s ended "
                        "early (process state changed)", st->reruns, st->reruns == 1 ? "" : "s",
                st->timeouts_rerun, st->cut, st->cut == 1 ? "" : "es");
    fprintf(stderr, "\n");
}

/* -v: what input discovery did, on standard error: its calls and in how
 * many operators, the calls a fake or Meta kernel refused alone, the cases
 * only it got accepted, its time; then its cost per operator that searched
 * (calls and milliseconds on average) and the costliest one. */
static void write_discovery(const ta_verify_session *s, const verify_cli *v)
{
    const ta_verify_report *rep = ta_verify_session_report(s);
    unsigned long long calls = 0, found = 0, screened = 0;
    size_t ops = 0;
    double secs = 0;
    const ta_op_result *most = NULL;
    for (size_t i = 0; i < rep->nops; i++) {
        const ta_op_result *o = &rep->ops[i];
        calls += o->discovery_calls;
        found += o->discovered;
        screened += o->screened;
        secs += o->discovery_seconds;
        ops += o->discovery_calls > 0;
        if (o->discovery_calls && (!most || o->discovery_seconds > most->discovery_seconds)) most = o;
    }
    if (!v->verbose || ta_verify_session_opts(s)->no_discovery) return;
    fprintf(stderr, "discovery: %llu call%s in %zu operator%s (%llu screened by fake or Meta kernels), %llu case%s "
                    "accepted only through it, %.2f s\n",
            calls, calls == 1 ? "" : "s", ops, ops == 1 ? "" : "s", screened, found, found == 1 ? "" : "s", secs);
    if (most)
        fprintf(stderr, "discovery per operator that searched: %.1f calls, %.1f ms; the costliest: %s (%u calls, %.0f ms)\n",
                (double)calls / (double)ops, 1000.0 * secs / (double)ops, most->op, most->discovery_calls,
                1000.0 * most->discovery_seconds);
}

/* Verifies, writes the report (there is one even when no selected operator
 * had a kernel) and says what went wrong. */
static int run_and_report(ta_verify_session *s, const verify_cli *v, ta_diags *d)
{
    ta_status st = ta_verify_session_run(s, d);
    int rc = -1;
    if (ta_verify_session_report(s) && (rc = write_report(s, v)) < 0) {
        write_isolation(s, v);
        write_discovery(s, v);
    }
    if (rc >= 0) return rc;
    show(d);
    if (st == TA_ERR_NOMEM) return out_of_memory();
    if (st != TA_OK) return TA_EXIT_USAGE;
    return ta_verify_session_failed(s) ? TA_EXIT_FINDINGS : TA_EXIT_CLEAN;
}

int ta_cmd_verify(int argc, char **argv)
{
    verify_cli v;
    int rc = parse_args(&v, argc, argv);
    ta_diags *d = NULL;
    ta_verify_session *s = NULL;
    if (rc < 0 && ta_diags_create(&d) != TA_OK) rc = out_of_memory();
    if (rc < 0) {
        v.c.data_dir = getenv("TENSORALIAS_DATADIR");
        v.c.log = log_line;
        if (isatty(STDERR_FILENO)) v.c.run.progress = progress;
        ta_status st = ta_verify_session_create(&v.c, &s, d);
        show(d);
        if (st != TA_OK) rc = st == TA_ERR_NOMEM ? out_of_memory() : TA_EXIT_USAGE;
    }
    if (rc < 0) rc = run_and_report(s, &v, d);
    ta_verify_session_destroy(s);
    ta_diags_destroy(d);
    free_lists(&v);
    return rc;
}
