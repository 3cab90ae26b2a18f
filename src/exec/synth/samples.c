/* samples.c - samples files: exact arguments for chosen operators (JSON).
 *
 *   {"aten::add.Tensor": [{"self": {"shape": [2, 3]}, "other": {"shape": [3], "dtype": "float64"},
 *                          "alpha": 2}],
 *    "aten::t":          [{"self": {"shape": [4, 3], "strides": [1, 4], "storage_bytes": 64}}]}
 *
 * The file is an object mapping full operator names to arrays of samples; a
 * sample maps argument names to values, and arguments it leaves out are
 * synthesized. A tensor is an object (every key optional):
 *   shape [int...], dtype (float32, float64, float16, bfloat16, int64, int32,
 *   int16, int8, uint8, bool; default float32), strides [int...] and offset
 *   (in elements; default contiguous, 0), storage (an integer: tensors of
 *   one sample with the same one share a storage, views of one another),
 *   storage_bytes (the storage's size when larger than its views need),
 *   values (flat, row-major over the view, repeated when short; numbers,
 *   booleans, "nan", "inf", "-inf", in any case, "infinity" too, and
 *   "-0.0"), range [lo, hi] and seed (how values are generated: see
 *   samples_build.c).
 * A tensor list is an array of tensor objects (null items for Tensor?[]);
 * other lists are arrays of numbers or booleans (a Scalar[]'s items each
 * of its own kind); Scalar and float take numbers, booleans or
 * "nan"/"inf"/"-inf"; Dimname a string (Dimname[] an array of them: the
 * names of TA_DIM_NAMES in kernel.h, by which the case's tensors are
 * named); ScalarType a dtype name or its
 * c10 number; Layout and MemoryFormat c10 numbers; str and Device strings;
 * null is None.
 *
 * Loading reads the whole file once and checks the structure of every
 * sample (what can be checked without a schema: tensor objects, lists,
 * limits), reporting errors at the sample's line and column; it keeps the
 * text and where each sample starts, and a case parses its one sample
 * again when it is built (a few microseconds), so a large corpus costs its
 * bytes and no tree. Whether a sample fits its operator's schema is
 * decided when its case is built. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exec/synth/samples.h"
#include "base/alloc.h"
#include "base/grow.h"
#include "base/map.h"

typedef struct sample_op {
    char *name;
    size_t name_at; /* byte offset of the name's opening quote */
    size_t *at;     /* byte offset of each sample in the text */
    size_t n, cap;
} sample_op;

struct ta_samples {
    char *text;
    size_t len;
    sample_op *ops;
    size_t nops, capops;
    ta_map index; /* name -> position in ops */
    bool strict;
};

/* ---- tensor objects ----------------------------------------------------- */

bool ta_sample_dtype(const char *s, DLDataType *dt)
{
    static const struct {
        const char *n;
        DLDataType dt;
    } tab[] = {
        {"float32", {kDLFloat, 32, 1}}, {"float", {kDLFloat, 32, 1}},   {"float64", {kDLFloat, 64, 1}},
        {"double", {kDLFloat, 64, 1}},  {"float16", {kDLFloat, 16, 1}}, {"half", {kDLFloat, 16, 1}},
        {"bfloat16", {kDLBfloat, 16, 1}}, {"int64", {kDLInt, 64, 1}},   {"long", {kDLInt, 64, 1}},
        {"int32", {kDLInt, 32, 1}},     {"int", {kDLInt, 32, 1}},       {"int16", {kDLInt, 16, 1}},
        {"short", {kDLInt, 16, 1}},     {"int8", {kDLInt, 8, 1}},       {"uint8", {kDLUInt, 8, 1}},
        {"bool", {TA_DL_BOOL, 8, 1}},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (!strcmp(s, tab[i].n)) {
            *dt = tab[i].dt;
            return true;
        }
    return false;
}

bool ta_sample_nonfinite(json_t *v, double *out)
{
    const char *s = json_string_value(v);
    if (!s) return false;
    bool neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    if (!strcasecmp(s, "nan")) *out = NAN;
    else if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity")) *out = neg ? -INFINITY : INFINITY;
    else if (neg && (!strcmp(s, "0") || !strcmp(s, "0.0"))) *out = -0.0; /* a JSON -0 is an integer 0 */
    else return false;
    return true;
}

static bool is_integral(DLDataType dt) { return dt.code != kDLFloat && dt.code != kDLBfloat; }

/* An array of at most cap integers in [0, TA_SAMPLE_LIMIT]; its length, or -1. */
static int sizes(json_t *a, int64_t *out, int cap)
{
    if (!json_is_array(a) || json_array_size(a) > (size_t)cap) return -1;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > TA_SAMPLE_LIMIT)
            return -1;
        out[i] = json_integer_value(v);
    }
    return (int)json_array_size(a);
}

static bool read_int(json_t *v, int64_t lo, int64_t hi, int64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) return false;
    *out = json_integer_value(v);
    return true;
}

/* values: numbers, booleans or the non-finite words; integers only (or
 * booleans) for an integer dtype, whose values must be exact. */
static bool values_fit(json_t *a, DLDataType dt)
{
    if (!json_is_array(a) || json_array_size(a) > TA_SAMPLE_LIMIT) return false;
    size_t i;
    json_t *v;
    double f;
    json_array_foreach(a, i, v) {
        if (json_is_integer(v) || json_is_boolean(v)) continue;
        if (is_integral(dt) && dt.code != TA_DL_BOOL) return false;
        if (!json_is_real(v) && !ta_sample_nonfinite(v, &f)) return false;
    }
    return true;
}

static bool range_fits(json_t *a, DLDataType dt, double *lo, double *hi)
{
    const double exact = 9007199254740992.0; /* 2^53 */
    if (!json_is_array(a) || json_array_size(a) != 2) return false;
    for (int k = 0; k < 2; k++) {
        json_t *v = json_array_get(a, (size_t)k);
        if (!json_is_number(v) || (is_integral(dt) && !json_is_integer(v))) return false;
        double d = json_number_value(v);
        if (!isfinite(d) || fabs(d) > exact) return false;
        *(k ? hi : lo) = d;
    }
    return *lo <= *hi;
}

/* Bytes of storage the view needs (0 for an empty one at offset 0). */
static int64_t view_bytes(const ta_sample_tensor *t)
{
    int64_t es = (int64_t)ta_dtype_size(t->dtype), end = t->offset, n = 1;
    for (int d = 0; d < t->ndim; d++) n *= t->shape[d];
    if (n == 0) return end * es;
    if (!t->has_strides) return (end + n) * es;
    end += 1;
    for (int d = 0; d < t->ndim; d++) end += (t->shape[d] - 1) * t->strides[d];
    return end * es;
}

static bool fail(char *why, size_t cap, const char *msg)
{
    snprintf(why, cap, "%s", msg);
    return false;
}

static bool read_geometry(json_t *o, ta_sample_tensor *t, char *why, size_t cap)
{
    json_t *v;
    if ((v = json_object_get(o, "shape")) && (t->ndim = sizes(v, t->shape, TA_CASE_MAX_DIM)) < 0)
        return fail(why, cap, "shape: an array of at most 8 sizes in [0, 2^24]");
    if ((v = json_object_get(o, "strides"))) {
        if (sizes(v, t->strides, TA_CASE_MAX_DIM) != t->ndim)
            return fail(why, cap, "strides: one stride in [0, 2^24] per dimension");
        t->has_strides = true;
    }
    if ((v = json_object_get(o, "offset")) && !read_int(v, 0, TA_SAMPLE_LIMIT, &t->offset))
        return fail(why, cap, "offset: an integer in [0, 2^24]");
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        if ((n *= t->shape[d] ? t->shape[d] : 1) > TA_SAMPLE_LIMIT)
            return fail(why, cap, "more than 2^24 elements");
    if (view_bytes(t) > TA_SAMPLE_MAX_BYTES) return fail(why, cap, "the view reaches past 2^27 bytes");
    return true;
}

static bool read_storage(json_t *o, ta_sample_tensor *t, char *why, size_t cap)
{
    json_t *v;
    if ((v = json_object_get(o, "storage"))) {
        if (!read_int(v, 0, INT32_MAX, &t->storage))
            return fail(why, cap, "storage: an integer naming a storage of the sample");
        t->has_storage = true;
    }
    if ((v = json_object_get(o, "storage_bytes")) &&
        !read_int(v, 0, TA_SAMPLE_MAX_BYTES, &t->storage_bytes))
        return fail(why, cap, "storage_bytes: an integer in [0, 2^27]");
    return true;
}

static bool read_contents(json_t *o, ta_sample_tensor *t, char *why, size_t cap)
{
    json_t *v;
    if ((v = json_object_get(o, "values"))) {
        if (!values_fit(v, t->dtype))
            return fail(why, cap, is_integral(t->dtype) && t->dtype.code != TA_DL_BOOL
                                      ? "values: an array of integers for an integer dtype"
                                      : "values: an array of numbers, booleans, \"nan\", \"inf\", \"-inf\"");
        t->values = v;
    }
    if ((v = json_object_get(o, "range"))) {
        if (!range_fits(v, t->dtype, &t->lo, &t->hi))
            return fail(why, cap, "range: [lo, hi], finite, lo <= hi, integers for an integer dtype");
        t->has_range = true;
    }
    if ((v = json_object_get(o, "seed")) && !read_int(v, INT64_MIN, INT64_MAX, &t->seed))
        return fail(why, cap, "seed: an integer");
    return true;
}

bool ta_sample_tensor_read(json_t *o, ta_sample_tensor *t, char *why, size_t cap)
{
    memset(t, 0, sizeof *t);
    t->dtype = TA_DTYPE_F32;
    json_t *v = json_object_get(o, "dtype");
    if (v && (!json_is_string(v) || !ta_sample_dtype(json_string_value(v), &t->dtype)))
        return fail(why, cap, "dtype: one of float32, float64, float16, bfloat16, int64, int32, int16, "
                              "int8, uint8, bool");
    return read_geometry(o, t, why, cap) && read_storage(o, t, why, cap) &&
           read_contents(o, t, why, cap);
}

int64_t ta_sample_view_bytes(const ta_sample_tensor *t) { return view_bytes(t); }

/* ---- the structure of one sample -------------------------------------- */

static const char *const tensor_keys[] = {"shape", "dtype", "strides", "offset", "storage",
                                          "storage_bytes", "values", "range", "seed", NULL};

static bool known_key(const char *k)
{
    for (const char *const *p = tensor_keys; *p; p++)
        if (!strcmp(k, *p)) return true;
    return false;
}

typedef struct scan {
    const char *text, *source;
    size_t len, pos;
    uint32_t line;     /* of pos */
    size_t line_start; /* where that line starts */
    ta_diags *diags;
    const char *op; /* the entry being read, for messages */
    size_t sample;
} scan;

/* A place in the text with its line, to point a diagnostic at later. */
typedef struct mark {
    size_t pos, line_start;
    uint32_t line;
} mark;

static mark here(const scan *sc) { return (mark){sc->pos, sc->line_start, sc->line}; }

/* The location of byte pos, at or after m. */
static ta_loc loc_from(const scan *sc, mark m, size_t pos)
{
    for (size_t i = m.pos; i < pos && i < sc->len; i++)
        if (sc->text[i] == '\n') {
            m.line++;
            m.line_start = i + 1;
        }
    size_t end = m.line_start;
    while (end < sc->len && sc->text[end] != '\n') end++;
    ta_loc at = {sc->source, m.line, (uint32_t)(pos - m.line_start + 1), 1, sc->text + m.line_start,
                 (uint32_t)(end - m.line_start)};
    return at;
}

static ta_status error_at(const scan *sc, mark m, size_t pos, const char *fmt, ...) TA_PRINTF(4, 5);
static ta_status error_at(const scan *sc, mark m, size_t pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ta_loc at = loc_from(sc, m, pos);
    ta_status st = ta_diag_error(sc->diags, &at, "samples", "%s", msg);
    return st == TA_OK ? TA_ERR_PARSE : st;
}

/* An error in the sample that starts at m. */
static ta_status sample_error(const scan *sc, mark m, const char *arg, const char *why)
{
    if (!arg) return error_at(sc, m, m.pos, "sample %zu of '%s': %s", sc->sample, sc->op, why);
    return error_at(sc, m, m.pos, "sample %zu of '%s': argument '%s': %s", sc->sample, sc->op, arg, why);
}

static ta_status check_tensor(const scan *sc, mark m, const char *arg, json_t *o)
{
    char why[160];
    ta_sample_tensor t;
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        if (known_key(key)) continue;
        ta_loc at = loc_from(sc, m, m.pos);
        ta_status st = ta_diag_warning(sc->diags, &at, "samples",
                                       "sample %zu of '%s': argument '%s': unknown key '%s' in a tensor "
                                       "(ignored)", sc->sample, sc->op, arg, key);
        if (st != TA_OK) return st;
    }
    return ta_sample_tensor_read(o, &t, why, sizeof why) ? TA_OK : sample_error(sc, m, arg, why);
}

/* A list holds tensors (and nulls), or numbers, booleans and words; no lists. */
static ta_status check_list(const scan *sc, mark m, const char *arg, json_t *a)
{
    size_t i, tensors = 0, plain = 0;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (json_is_array(v)) return sample_error(sc, m, arg, "a list of lists");
        if (json_is_object(v)) {
            ta_status st = check_tensor(sc, m, arg, v);
            if (st != TA_OK) return st;
        }
        if (json_is_object(v) || json_is_null(v)) tensors++;
        else plain++;
    }
    if (tensors && plain) return sample_error(sc, m, arg, "a list holds tensors or plain values, not both");
    if (tensors > TA_SAMPLE_MAX_LIST) return sample_error(sc, m, arg, "more than 16 tensors in a list");
    if (plain > TA_SAMPLE_MAX_INTS) return sample_error(sc, m, arg, "more than 64 values in a list");
    return TA_OK;
}

static ta_status check_sample(const scan *sc, mark m, json_t *sample)
{
    if (!json_is_object(sample)) return sample_error(sc, m, NULL, "a sample is an object (argument name -> value)");
    const char *key;
    json_t *v;
    json_object_foreach(sample, key, v) {
        ta_status st = json_is_object(v)  ? check_tensor(sc, m, key, v)
                       : json_is_array(v) ? check_list(sc, m, key, v)
                                          : TA_OK;
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* ---- the file: an object of arrays, read around jansson ----------------- */

static void skip_ws(scan *sc)
{
    while (sc->pos < sc->len) {
        char ch = sc->text[sc->pos];
        if (ch == '\n') {
            sc->line++;
            sc->line_start = sc->pos + 1;
        } else if (ch != ' ' && ch != '\t' && ch != '\r') {
            return;
        }
        sc->pos++;
    }
}

static bool accept(scan *sc, char ch)
{
    skip_ws(sc);
    if (sc->pos < sc->len && sc->text[sc->pos] == ch) {
        sc->pos++;
        return true;
    }
    return false;
}

static ta_status expected(scan *sc, const char *what)
{
    skip_ws(sc);
    return error_at(sc, here(sc), sc->pos, "expected %s", what);
}

/* One JSON value by jansson, starting at sc->pos; the scan moves past it. */
static json_t *value(scan *sc, size_t flags, ta_status *st)
{
    json_error_t e;
    skip_ws(sc);
    mark m = here(sc);
    json_t *v = json_loadb(sc->text + sc->pos, sc->len - sc->pos,
                           flags | JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &e);
    /* jansson counts bytes from where it started; on an error, up to and
     * including the byte it stopped at. */
    size_t end = sc->pos + (e.position > 0 ? (size_t)e.position : 0);
    if (end > sc->len) end = sc->len;
    if (!v) {
        *st = error_at(sc, m, end > m.pos ? end - 1 : end, "%s", e.text);
        return NULL;
    }
    for (; sc->pos < end; sc->pos++)
        if (sc->text[sc->pos] == '\n') {
            sc->line++;
            sc->line_start = sc->pos + 1;
        }
    return v;
}

static ta_status add_sample(sample_op *op, size_t at)
{
    if (TA_GROW_ONE(op->at, op->n, op->cap, 8) != TA_OK) return TA_ERR_NOMEM;
    op->at[op->n++] = at;
    return TA_OK;
}

/* samples := '[' [sample {',' sample}] ']' */
static ta_status read_samples(scan *sc, sample_op *op)
{
    if (!accept(sc, '[')) return expected(sc, "'[' opening the samples of an operator");
    if (accept(sc, ']')) return TA_OK;
    do {
        ta_status st = TA_OK;
        skip_ws(sc);
        mark m = here(sc);
        sc->sample = op->n;
        json_t *s = value(sc, JSON_DECODE_ANY, &st);
        if (!s) return st;
        st = check_sample(sc, m, s);
        json_decref(s);
        if (st == TA_OK) st = add_sample(op, m.pos);
        if (st != TA_OK) return st;
    } while (accept(sc, ','));
    return accept(sc, ']') ? TA_OK : expected(sc, "',' or ']' after a sample");
}

static ta_status new_op(ta_samples *sm, const char *name, size_t *at)
{
    if (TA_GROW_ONE(sm->ops, sm->nops, sm->capops, 64) != TA_OK) return TA_ERR_NOMEM;
    sample_op *op = &sm->ops[sm->nops];
    memset(op, 0, sizeof *op);
    if (!(op->name = ta_strdup(name))) return TA_ERR_NOMEM;
    *at = sm->nops++;
    return TA_OK;
}

/* entry := string ':' samples */
static ta_status read_entry(scan *sc, ta_samples *sm)
{
    ta_status st = TA_OK;
    skip_ws(sc);
    mark key_at = here(sc);
    if (sc->pos >= sc->len || sc->text[sc->pos] != '"') return expected(sc, "an operator name in quotes");
    json_t *key = value(sc, JSON_DECODE_ANY, &st);
    if (!key) return st;
    size_t i;
    if ((st = new_op(sm, json_string_value(key), &i)) != TA_OK) {
        json_decref(key);
        return st;
    }
    json_decref(key);
    sample_op *op = &sm->ops[i];
    op->name_at = key_at.pos;
    ta_map_entry *e;
    if ((st = ta_map_add(&sm->index, op->name, strlen(op->name), ta_map_int((int64_t)i), &e)) != TA_OK)
        return st;
    if (e->value.i != (int64_t)i)
        return error_at(sc, key_at, key_at.pos, "operator '%s' is given twice", op->name);
    if (!accept(sc, ':')) return expected(sc, "':' after the operator name");
    sc->op = op->name;
    st = read_samples(sc, op);
    sc->op = NULL;
    return st;
}

/* file := '{' [entry {',' entry}] '}' */
static ta_status read_file(scan *sc, ta_samples *sm)
{
    if (!accept(sc, '{'))
        return expected(sc, "'{': a samples file is an object mapping operator names to arrays of "
                            "samples");
    if (!accept(sc, '}')) {
        do {
            ta_status st = read_entry(sc, sm);
            if (st != TA_OK) return st;
        } while (accept(sc, ','));
        if (!accept(sc, '}')) return expected(sc, "',' or '}' after an operator's samples");
    }
    skip_ws(sc);
    return sc->pos == sc->len ? TA_OK : expected(sc, "the end of the file");
}

ta_status ta_samples_load_buffer(const char *text, size_t len, const char *source, ta_samples **out,
                                 ta_diags *diags)
{
    *out = NULL;
    ta_samples *sm = ta_calloc(1, sizeof *sm);
    if (!sm || !(sm->text = ta_malloc(len + 1))) {
        free(sm);
        return TA_ERR_NOMEM;
    }
    memcpy(sm->text, text, len);
    sm->text[len] = '\0';
    sm->len = len;
    sm->strict = true;
    ta_map_init(&sm->index, NULL);
    scan sc = {.text = sm->text, .source = source ? source : "<samples>", .len = len, .line = 1,
               .diags = diags};
    ta_status st = read_file(&sc, sm);
    if (st != TA_OK) {
        ta_samples_destroy(sm);
        return st;
    }
    *out = sm;
    return TA_OK;
}

ta_status ta_samples_load(const char *path, ta_samples **out, ta_diags *diags)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    if (f) {
        for (;;) {
            if (cap - len < 65536) {
                char *n = ta_realloc(buf, cap = cap ? cap * 2 : 1 << 20);
                if (!n) {
                    fclose(f);
                    free(buf);
                    return TA_ERR_NOMEM;
                }
                buf = n;
            }
            size_t r = fread(buf + len, 1, cap - len, f);
            len += r;
            if (!r) break;
        }
    }
    if (!f || ferror(f)) {
        ta_status st = ta_diag_error(diags, NULL, "samples", "%s: cannot read the file", path);
        if (f) fclose(f);
        free(buf);
        return st == TA_OK ? TA_ERR_IO : st;
    }
    fclose(f);
    ta_status st = ta_samples_load_buffer(buf ? buf : "", len, path, out, diags);
    free(buf);
    return st;
}

void ta_samples_destroy(ta_samples *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nops; i++) {
        free(s->ops[i].name);
        free(s->ops[i].at);
    }
    free(s->ops);
    ta_map_clear(&s->index);
    free(s->text);
    free(s);
}

static const sample_op *find(const ta_samples *s, const char *op)
{
    ta_map_entry *e = s ? ta_map_find_str(&s->index, op) : NULL;
    return e ? &s->ops[e->value.i] : NULL;
}

size_t ta_samples_count(const ta_samples *s, const char *op)
{
    const sample_op *o = find(s, op);
    return o ? o->n : 0;
}

void ta_samples_set_strict(ta_samples *s, bool strict)
{
    if (s) s->strict = strict;
}

bool ta_samples_strict(const ta_samples *s) { return s && s->strict; }

size_t ta_samples_nops(const ta_samples *s) { return s ? s->nops : 0; }

const char *ta_samples_op(const ta_samples *s, size_t i, size_t *name_at, size_t *nsamples)
{
    *name_at = s->ops[i].name_at;
    *nsamples = s->ops[i].n;
    return s->ops[i].name;
}

size_t ta_samples_at(const ta_samples *s, size_t i, size_t k) { return s->ops[i].at[k]; }

const char *ta_samples_text(const ta_samples *s, size_t *len)
{
    *len = s->len;
    return s->text;
}

json_t *ta_samples_get(const ta_samples *s, const char *op, size_t k)
{
    const sample_op *o = find(s, op);
    if (!o || k >= o->n) return NULL;
    json_error_t e;
    return json_loadb(s->text + o->at[k], s->len - o->at[k], JSON_DISABLE_EOF_CHECK, &e);
}
