/* bench_extract.c - reading schemas out of C++ and Python sources.
 *
 *   bench_extract [DIR ...]
 *
 * Without DIR: a synthetic tree held in memory, shaped like a large
 * repository (20,000 C++ files and 5,000 Python files, 10 KB each on
 * average: most declare nothing, one in ten mentions def( in other ways
 * (pybind11), one in forty registers schemas), scanned with
 * ta_extract_scan and checked with the custom-operator rules; the best of
 * five passes, as MB/s, files/s and schemas/s (CPU time of this thread).
 * With DIR: each directory read with ta_extract_path as `tensoralias
 * extract` reads it (through git when it is a work tree), wall time
 * included, file reads and all. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensoralias/alias.h"
#include "tensoralias/extract.h"

#include "benchlib.h"

enum { NCPP = 20000, NPY = 5000, RUNS = 5 };

typedef struct file {
    char name[48];
    char *text;
    size_t len;
    ta_extract_lang lang;
} file;

typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap ? b->cap * 2 : 16384;
        b->s = realloc(b->s, b->cap);
        if (!b->s) abort();
    }
}

/* About 10 KB of ordinary C++: functions, comments, strings. */
static void cpp_body(buf *b, unsigned seed)
{
    for (int i = 0; i < 60; i++) {
        put(b, "// helper %u.%d: computes the %d-th value; see \"notes\" below\n", seed, i, i);
        put(b, "static int64_t helper_%u_%d(const at::Tensor& t, int64_t k) {\n", seed, i);
        put(b, "  TORCH_CHECK(k >= 0, \"k must be non-negative, got \", k);\n");
        put(b, "  return t.size(0) * k + %d; /* a comment */\n}\n", i);
    }
}

static file make_file(int i)
{
    file f = {{0}, NULL, 0, TA_LANG_CPP};
    buf b = {0};
    if (i < NCPP) {
        snprintf(f.name, sizeof f.name, "csrc/f%05d.cpp", i);
        cpp_body(&b, (unsigned)i);
        if (i % 10 == 3) /* pybind11 */
            put(&b, "PYBIND11_MODULE(m%d, m) { m.def(\"fwd\", &fwd, \"forward\"); }\n", i);
        if (i % 40 == 7) { /* a registration file */
            put(&b, "TORCH_LIBRARY_FRAGMENT(lib%d, m) {\n", i % 7);
            for (int k = 0; k < 40; k++)
                put(&b, "  m.def(\"op%d_%d(Tensor input, Tensor(a!) out, int n, \"\n"
                        "        \"float eps=1e-05, *, Tensor? bias=None) -> ()\");\n", i, k);
            put(&b, "}\nTORCH_LIBRARY_IMPL(lib%d, CUDA, m) { m.impl(\"op%d_0\", &k); }\n", i % 7, i);
        }
    } else {
        f.lang = TA_LANG_PYTHON;
        snprintf(f.name, sizeof f.name, "py/m%05d.py", i);
        for (int k = 0; k < 100; k++)
            put(&b, "def fn_%d(x, y=%d):\n    # a comment\n    return x * y + len(\"text %d\")\n", k, k, k);
        if (i % 20 == 1) {
            put(&b, "lib = torch.library.Library(\"py%d\", \"FRAGMENT\")\n", i % 5);
            for (int k = 0; k < 10; k++)
                put(&b, "lib.define(\"pop%d_%d(Tensor x, Tensor(a!) y) -> ()\")\n", i, k);
            put(&b, "@torch.library.custom_op(\"py%d::c%d\", mutates_args=(\"out\",))\n"
                    "def c%d(x: torch.Tensor, out: torch.Tensor, n: int = 2) -> None:\n    pass\n",
                i % 5, i, i);
        }
    }
    f.text = b.s;
    f.len = b.n;
    return f;
}

static int synthetic(void)
{
    file *files = malloc((NCPP + NPY) * sizeof *files);
    size_t bytes = 0;
    for (int i = 0; i < NCPP + NPY; i++) {
        files[i] = make_file(i);
        bytes += files[i].len;
    }
    double best_scan = 1e30, best_check = 1e30;
    size_t nops = 0, nfind = 0;
    for (int r = 0; r < RUNS; r++) {
        ta_extract *x;
        BENCH_OK(ta_extract_create(NULL, &x));
        ta_diags *d;
        BENCH_OK(ta_diags_create(&d));
        double t0 = bench_cpu_now();
        for (int i = 0; i < NCPP + NPY; i++)
            if (ta_extract_scan(x, files[i].name, files[i].lang, files[i].text, files[i].len, d) != TA_OK)
                return 1;
        ta_extract_finish(x, d);
        double t1 = bench_cpu_now();
        ta_alias_check_extracted(x, d);
        double t2 = bench_cpu_now();
        if (t1 - t0 < best_scan) best_scan = t1 - t0;
        if (t2 - t1 < best_check) best_check = t2 - t1;
        nops = ta_extract_count(x);
        nfind = ta_diags_count(d);
        ta_diags_destroy(d);
        ta_extract_destroy(x);
    }
    printf("bench_extract: synthetic tree, %d files, %.1f MB, %zu operators (%zu diagnostics), best of %d:\n",
           NCPP + NPY, (double)bytes / 1e6, nops, nfind, RUNS);
    printf("bench_extract:   scan  %.1f ms: %.0f MB/s, %.0f files/s, %.0f operators/s\n", best_scan * 1e3,
           (double)bytes / best_scan / 1e6, (NCPP + NPY) / best_scan, nops / best_scan);
    printf("bench_extract:   rules %.1f ms: %.0f operators/s\n", best_check * 1e3, nops / best_check);
    for (int i = 0; i < NCPP + NPY; i++) free(files[i].text);
    free(files);
    return 0;
}

static int directory(const char *dir)
{
    ta_extract *x;
    BENCH_OK(ta_extract_create(NULL, &x));
    ta_diags *d;
    BENCH_OK(ta_diags_create(&d));
    double t0 = bench_now();
    ta_status st = ta_extract_path(x, dir, d);
    ta_extract_finish(x, d);
    double t1 = bench_now();
    ta_alias_check_extracted(x, d);
    double t2 = bench_now();
    printf("bench_extract: %s: %zu files, %.1f MB, %zu operators; extract %.3f s (%.0f MB/s), rules %.1f ms%s\n",
           dir, ta_extract_nfiles(x), (double)ta_extract_nbytes(x) / 1e6, ta_extract_count(x), t1 - t0,
           (double)ta_extract_nbytes(x) / (t1 - t0) / 1e6, (t2 - t1) * 1e3,
           st == TA_OK ? "" : " (some files could not be read)");
    ta_diags_destroy(d);
    ta_extract_destroy(x);
    return st == TA_OK || st == TA_ERR_IO ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) return synthetic();
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= directory(argv[i]);
    return rc;
}
