/* learn_aten.c - two demands ATen states in words no other reading knows:
 *   - a complex dtype ("Only supports complex dtypes, but found: Double",
 *     "view_as_real is only supported for complex tensors", "fft expects a
 *     complex output tensor, but got Float", an internal assert on
 *     isComplexType(...)): the tensors it may mean made complex (the out=
 *     arguments when it speaks of an output), ComplexDouble for a Double
 *     one, else ComplexFloat;
 *   - a dtype spelled as the C++ element type, as a torchgen out= wrapper
 *     and TypeMeta print it ("Expected out tensor to have dtype long int,
 *     but got int instead", "c10::complex<double>", "c10::Half"): the out=
 *     arguments of the dtype got given the one expected. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "exec/discover/learn_internal.h"

/* Where phrase w starts a word of the message (case-insensitive), or NULL. */
static const char *find_word(const char *msg, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = msg; *p; p++)
        if ((p == msg || (!isalnum((unsigned char)p[-1]) && p[-1] != '_')) && !strncasecmp(p, w, n)) return p;
    return NULL;
}

static bool is_complex(DLDataType t) { return t.code == kDLComplex; }

/* A complex demand: "complex" in the message, not as one alternative of
 * several ("floating point or complex values": a float is as good), nor
 * as what is refused ("does not support complex", "got complex"). */
static bool wants_complex(const char *msg)
{
    static const char *const not_so[] = {"or complex", "complex or", "complex<", "not support complex",
                                         "n't support complex", "not supported for complex",
                                         "not implemented for complex", "got complex", "found complex", NULL};
    if (find_word(msg, "isComplexType(")) return true;
    if (!find_word(msg, "complex")) return false;
    for (int i = 0; not_so[i]; i++)
        if (find_word(msg, not_so[i])) return false;
    return true;
}

static void make_complex(learner *L, int arg)
{
    const dsc_tensor *t = dsc_model_tensor_c(L->m, arg, L->m->args[arg].kind == DSC_K_LIST ? 0 : -1);
    if (!t || !t->defined || is_complex(t->dtype)) return;
    bool wide = t->dtype.code == kDLFloat && t->dtype.bits == 64;
    char ref[80], atom[96];
    learn_ref(L, arg, ref, sizeof ref);
    snprintf(atom, sizeof atom, "%s.dtype()", ref);
    learn_addf(L, atom, "%s.dtype() == %s", ref, wide ? "kComplexDouble" : "kComplexFloat");
    learn_addf(L, atom, "%s.dtype() == %s", ref, wide ? "kComplexFloat" : "kComplexDouble");
}

/* The tensors a complex demand may mean, most likely first: the out=
 * arguments when the message speaks of an output, the tensors it names,
 * then every other. */
static void complex_demand(learner *L)
{
    if (!wants_complex(L->msg)) return;
    bool output = find_word(L->msg, "output") || find_word(L->msg, "out tensor") || find_word(L->msg, "result");
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < L->m->nargs; i++) {
            bool named = false;
            for (int k = 0; k < L->nnamed; k++) named |= L->named[k] == i;
            bool first = pass == 0 && output && L->d->args[i].is_out;
            bool second = pass == 1 && named && !(output && L->d->args[i].is_out);
            bool third = pass == 2 && !named && !(output && L->d->args[i].is_out);
            if ((first || second || third) && learn_is_tensor(L, i)) make_complex(L, i);
        }
}

/* ---- dtypes spelled as C++ element types ------------------------------- */

typedef struct cxx_type {
    const char *name;
    DLDataType t;
} cxx_type;

/* Longest first where one name ends another ("long int" before "int"). */
static const cxx_type cxx_types[] = {
    {"c10::complex<double>", {kDLComplex, 128, 1}}, {"c10::complex<float>", {kDLComplex, 64, 1}},
    {"c10::BFloat16", {kDLBfloat, 16, 1}},         {"c10::Half", {kDLFloat, 16, 1}},
    {"unsigned char", {kDLUInt, 8, 1}},            {"signed char", {kDLInt, 8, 1}},
    {"long int", {kDLInt, 64, 1}},                 {"long long", {kDLInt, 64, 1}},
    {"short int", {kDLInt, 16, 1}},                {"double", {kDLFloat, 64, 1}},
    {"float", {kDLFloat, 32, 1}},                  {"bool", {TA_DL_BOOL, 8, 1}},
    {"int", {kDLInt, 32, 1}},
};

/* The C++ type spelled exactly by s[0..len). */
static bool cxx_type_of(const char *s, size_t len, DLDataType *out)
{
    for (size_t i = 0; i < sizeof cxx_types / sizeof *cxx_types; i++)
        if (strlen(cxx_types[i].name) == len && !strncmp(cxx_types[i].name, s, len)) {
            *out = cxx_types[i].t;
            return true;
        }
    return false;
}

/* "... to have dtype WANT, but got GOT instead". */
static bool read_cxx_dtypes(const char *msg, DLDataType *want, DLDataType *got)
{
    const char *w = strstr(msg, "to have dtype "), *b, *e;
    if (!w) return false;
    w += strlen("to have dtype ");
    if (!(b = strstr(w, ", but got ")) || !(e = strstr(b, " instead"))) return false;
    return cxx_type_of(w, (size_t)(b - w), want) && cxx_type_of(b + 10, (size_t)(e - b - 10), got);
}

static void cxx_dtypes(learner *L)
{
    DLDataType want, got;
    if (!read_cxx_dtypes(L->msg, &want, &got) || !dsc_dtype_spelling(want)) return;
    /* the out= arguments of the dtype got; failing those, every out= one */
    for (int pass = 0; pass < 2; pass++) {
        int added = 0;
        for (int i = 0; i < L->m->nargs; i++) {
            const dsc_tensor *t = dsc_model_tensor_c(L->m, i, L->m->args[i].kind == DSC_K_LIST ? 0 : -1);
            if (!L->d->args[i].is_out || !t || !t->defined || (pass == 0 && !ta_dtype_eq(t->dtype, got))) continue;
            char ref[80], atom[96];
            learn_ref(L, i, ref, sizeof ref);
            snprintf(atom, sizeof atom, "%s.dtype()", ref);
            added += learn_addf(L, atom, "%s.dtype() == %s", ref, dsc_dtype_spelling(want));
        }
        if (added) return;
    }
}

void learn_aten(learner *L)
{
    cxx_dtypes(L);
    complex_demand(L);
}
