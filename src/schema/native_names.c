/* native_names.c - the fixed vocabularies of native_functions.yaml: the keys
 * an entry may have, the dispatch keys torchgen knows, and the catalogue of
 * rule ids the loader and its checks report. */
#include <string.h>

#include "schema/native_internal.h"

static const char *const key_names[TA_NK_COUNT] = {
    [TA_NK_FUNC] = "func",
    [TA_NK_VARIANTS] = "variants",
    [TA_NK_DISPATCH] = "dispatch",
    [TA_NK_AUTOGEN] = "autogen",
    [TA_NK_STRUCTURED] = "structured",
    [TA_NK_STRUCTURED_DELEGATE] = "structured_delegate",
    [TA_NK_STRUCTURED_INHERITS] = "structured_inherits",
    [TA_NK_PRECOMPUTED] = "precomputed",
    [TA_NK_TAGS] = "tags",
    [TA_NK_DEVICE_GUARD] = "device_guard",
    [TA_NK_DEVICE_CHECK] = "device_check",
    [TA_NK_PYTHON_MODULE] = "python_module",
    [TA_NK_CATEGORY_OVERRIDE] = "category_override",
    [TA_NK_MANUAL_KERNEL_REGISTRATION] = "manual_kernel_registration",
    [TA_NK_MANUAL_CPP_BINDING] = "manual_cpp_binding",
    [TA_NK_USE_CONST_REF_FOR_MUTABLE_TENSORS] = "use_const_ref_for_mutable_tensors",
    [TA_NK_CPP_NO_DEFAULT_ARGS] = "cpp_no_default_args",
    [TA_NK_UFUNC_INNER_LOOP] = "ufunc_inner_loop",
};

/* strcmp(a, b) == 0 inline: the names here are short and a call to the
 * library's strcmp for each candidate cost more than the comparison. */
static bool same_str(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

/* The keys by first letter, as id + 1, a row ending at 0: an entry's keys
 * are looked up about a dozen thousand times a yaml, and a scan of every
 * name was most of that. */
#define K(id) (TA_NK_##id + 1)
static const unsigned char keys_by_letter[26][4] = {
    ['a' - 'a'] = {K(AUTOGEN)},
    ['c' - 'a'] = {K(CATEGORY_OVERRIDE), K(CPP_NO_DEFAULT_ARGS)},
    ['d' - 'a'] = {K(DISPATCH), K(DEVICE_GUARD), K(DEVICE_CHECK)},
    ['f' - 'a'] = {K(FUNC)},
    ['m' - 'a'] = {K(MANUAL_KERNEL_REGISTRATION), K(MANUAL_CPP_BINDING)},
    ['p' - 'a'] = {K(PRECOMPUTED), K(PYTHON_MODULE)},
    ['s' - 'a'] = {K(STRUCTURED), K(STRUCTURED_DELEGATE), K(STRUCTURED_INHERITS)},
    ['t' - 'a'] = {K(TAGS)},
    ['u' - 'a'] = {K(USE_CONST_REF_FOR_MUTABLE_TENSORS), K(UFUNC_INNER_LOOP)},
    ['v' - 'a'] = {K(VARIANTS)},
};
#undef K

int ta_native_key_id(const char *k)
{
    if (k[0] < 'a' || k[0] > 'z') return -1;
    const unsigned char *c = keys_by_letter[k[0] - 'a'];
    for (int i = 0; i < 4 && c[i]; i++)
        if (same_str(k, key_names[c[i] - 1])) return c[i] - 1;
    return -1;
}

const char *ta_native_key_name(ta_native_key k)
{
    return (unsigned)k < TA_NK_COUNT ? key_names[k] : NULL;
}

/* torchgen 1.13.1's DispatchKey enum, plus the keys PyTorch main's yaml
 * dispatches to that 1.13.1 did not have (MTIA, SparseCsrMPS, ...). Sorted
 * for bsearch. */
static const char *const dispatch_keys[] = {
    "Autocast", "Autograd", "AutogradCPU", "AutogradCUDA", "AutogradFunctionality",
    "AutogradHIP", "AutogradHPU", "AutogradIPU", "AutogradLazy", "AutogradMPS",
    "AutogradMTIA", "AutogradMeta", "AutogradNestedTensor", "AutogradOther",
    "AutogradPrivateUse1", "AutogradPrivateUse2", "AutogradPrivateUse3",
    "AutogradVE", "AutogradXLA", "AutogradXPU", "BackendSelect", "Batched",
    "CPU", "CUDA", "CatchAll", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutograd",
    "CompositeImplicitAutogradNestedTensor", "CustomRNGKeyId", "FPGA", "HIP",
    "HPU", "IDEEP", "IPU", "Lazy", "MKLDNN", "MPS", "MTIA", "Meta", "Metal",
    "MkldnnCPU", "Named", "NestedTensorCPU", "NestedTensorCUDA",
    "NestedTensorHIP", "NestedTensorHPU", "NestedTensorIPU", "NestedTensorLazy",
    "NestedTensorMPS", "NestedTensorMTIA", "NestedTensorMeta",
    "NestedTensorPrivateUse1", "NestedTensorPrivateUse2",
    "NestedTensorPrivateUse3", "NestedTensorVE", "NestedTensorXLA",
    "NestedTensorXPU", "ORT", "OpenCL", "OpenGL", "PrivateUse1", "PrivateUse2",
    "PrivateUse3", "Python", "QuantizedCPU", "QuantizedCUDA", "QuantizedHIP",
    "QuantizedHPU", "QuantizedIPU", "QuantizedLazy", "QuantizedMPS",
    "QuantizedMTIA", "QuantizedMeta", "QuantizedPrivateUse1",
    "QuantizedPrivateUse2", "QuantizedPrivateUse3", "QuantizedVE",
    "QuantizedXLA", "QuantizedXPU", "Sparse", "SparseCPU", "SparseCUDA",
    "SparseCsrCPU", "SparseCsrCUDA", "SparseCsrHIP", "SparseCsrHPU",
    "SparseCsrIPU", "SparseCsrLazy", "SparseCsrMPS", "SparseCsrMTIA",
    "SparseCsrMeta", "SparseCsrPrivateUse1", "SparseCsrPrivateUse2",
    "SparseCsrPrivateUse3", "SparseCsrVE", "SparseCsrXLA", "SparseCsrXPU",
    "SparseHIP", "SparseHPU", "SparseIPU", "SparseLazy", "SparseMPS",
    "SparseMTIA", "SparseMeta", "SparsePrivateUse1", "SparsePrivateUse2",
    "SparsePrivateUse3", "SparseVE", "SparseXLA", "SparseXPU",
    "TESTING_ONLY_GenericMode", "TESTING_ONLY_GenericWrapper", "Tracer",
    "Undefined", "VE", "VmapMode", "Vulkan", "XLA", "XPU", "ZeroTensor",
};
enum { NDISPATCH_KEYS = sizeof dispatch_keys / sizeof dispatch_keys[0] };

/* key[0..len) against the NUL-terminated name, as bytes: <0, 0, >0. Inline
 * rather than strncmp, whose call cost more than these short names. A key
 * longer than name compares greater (its byte against name's NUL), which
 * also keeps an embedded NUL in key from reading past name. */
static int cmp_key(const char *key, size_t len, const char *name)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char a = (unsigned char)key[i], b = (unsigned char)name[i];
        if (a != b) return a < b ? -1 : 1;
        if (!b) return 1;
    }
    return name[len] ? -1 : 0;
}

const char *ta_dispatch_key_name(const char *key, size_t len)
{
    /* the keys most dispatch tables name, each one of the table's, without
     * the binary search (compares of a constant length, inlined) */
#define IS_KEY(lit) (memcmp(key, lit, sizeof lit - 1) == 0 ? lit : NULL)
    const char *k = NULL;
    switch (len) {
    case 3: k = IS_KEY("CPU"); if (!k) k = IS_KEY("MPS"); break;
    case 4: k = IS_KEY("CUDA"); if (!k) k = IS_KEY("Meta"); break;
    case 9: k = IS_KEY("SparseCPU"); break;
    case 10: k = IS_KEY("SparseCUDA"); break;
    case 12: k = IS_KEY("QuantizedCPU"); if (!k) k = IS_KEY("SparseCsrCPU"); break;
    case 13: k = IS_KEY("SparseCsrCUDA"); break;
    case 25:
        k = IS_KEY("CompositeExplicitAutograd");
        if (!k) k = IS_KEY("CompositeImplicitAutograd");
        break;
    default: break;
    }
#undef IS_KEY
    if (k) return k;
    size_t lo = 0, hi = NDISPATCH_KEYS;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = cmp_key(key, len, dispatch_keys[mid]);
        if (c == 0) return dispatch_keys[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

bool ta_dispatch_key_known(const char *key, size_t len)
{
    return ta_dispatch_key_name(key, len) != NULL;
}

/* Edit distance with a cap, for "did you mean" hints. */
static unsigned distance(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b);
    if (na > 64 || nb > 64) return 99;
    unsigned row[65];
    for (size_t j = 0; j <= nb; j++) row[j] = (unsigned)j;
    for (size_t i = 1; i <= na; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned up = row[j];
            unsigned sub = diag + (a[i - 1] != b[j - 1]);
            unsigned best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[nb];
}

const char *ta_native_closest(const char *s, size_t len,
                              const char *const *names, size_t n)
{
    const char *best = NULL;
    unsigned bd = len / 3 + 1; /* accept about a third of the word wrong */
    if (bd > 3) bd = 3;
    for (size_t i = 0; i < n; i++) {
        unsigned d = distance(s, len, names[i]);
        if (d <= bd && (!best || d < bd)) {
            best = names[i];
            bd = d;
        }
    }
    return best;
}

const char *ta_native_closest_key(const char *s, size_t len)
{
    return ta_native_closest(s, len, key_names, TA_NK_COUNT);
}

const char *ta_native_closest_dispatch_key(const char *s, size_t len)
{
    return ta_native_closest(s, len, dispatch_keys, NDISPATCH_KEYS);
}

static const ta_rule_info rules[] = {
    {"io", TA_SEV_ERROR, "A file could not be read."},
    {"yaml-syntax", TA_SEV_ERROR, "The file is not valid yaml."},
    {"yaml-binary", TA_SEV_ERROR, "The file is binary (a NUL byte in its first 8 KB), not yaml."},
    {"yaml-too-deep", TA_SEV_ERROR, "The yaml nests deeper than the loader reads."},
    {"yaml-not-sequence", TA_SEV_ERROR, "The document is not a list of mappings."},
    {"entry-no-func", TA_SEV_ERROR, "An entry has no func key."},
    {"entry-unknown-key", TA_SEV_ERROR, "An entry has a key torchgen does not know."},
    {"entry-duplicate-key", TA_SEV_ERROR, "An entry writes the same key twice (torchgen asserts)."},
    {"entry-wrong-type", TA_SEV_ERROR, "A value has the wrong yaml type for its key."},
    {"entry-bad-value", TA_SEV_ERROR, "A value is not one torchgen accepts for its key."},
    {"schema-syntax", TA_SEV_ERROR, "The func schema does not parse."},
    {"tag-unknown", TA_SEV_ERROR, "A tag is not declared in tags.yaml."},
    {"tag-no-name", TA_SEV_ERROR, "A tags.yaml entry has no tag name."},
    {"tag-no-desc", TA_SEV_ERROR, "A tags.yaml entry has no description."},
    {"dispatch-unknown-key", TA_SEV_ERROR, "A dispatch table names an unknown dispatch key."},
    {"dispatch-both-composite", TA_SEV_ERROR, "A dispatch table names more than one composite key."},
    {"dispatch-with-manual-registration", TA_SEV_ERROR, "A dispatch table together with manual_kernel_registration."},
    {"overload-duplicate", TA_SEV_ERROR, "The same operator name and overload are defined twice."},
    {"overload-empty-twice", TA_SEV_ERROR, "More than one overload of a function has an empty overload name."},
    {"delegate-unknown", TA_SEV_ERROR, "structured_delegate names no function of the file."},
    {"delegate-not-structured", TA_SEV_ERROR, "structured_delegate names a function that is not structured."},
    {"delegate-with-backend", TA_SEV_ERROR, "A structured delegate also dispatches to CPU, CUDA or MPS."},
    {"precomputed-not-structured", TA_SEV_ERROR, "precomputed on a function that is not structured."},
    {"ufunc-not-structured", TA_SEV_ERROR, "ufunc_inner_loop on a function that is not structured."},
    {"ufunc-with-backend", TA_SEV_ERROR, "A ufunc also dispatches to CPU or CUDA explicitly."},
    {"python-module-method", TA_SEV_ERROR, "A function in a python_module is also a method."},
    {"out-variant-method", TA_SEV_ERROR, "A function with out= arguments is also a method."},
    {"structured-not-out", TA_SEV_ERROR, "structured on a function that is not out=."},
    {"delegate-on-out", TA_SEV_ERROR, "structured_delegate on an out= function."},
    {"structured-and-delegate", TA_SEV_ERROR, "Both structured and structured_delegate."},
    {"structured-device-guard", TA_SEV_ERROR, "A structured function with device_guard: False."},
    {"inherits-not-structured", TA_SEV_ERROR, "structured_inherits without structured: True."},
    {"cpp-no-default-args", TA_SEV_ERROR, "cpp_no_default_args names no argument with a default."},
    {"foreach-device-check", TA_SEV_ERROR, "A _foreach function that checks devices."},
    {"nondeterministic-untagged", TA_SEV_ERROR,
     "A random function without the nondeterministic_seeded tag."},
    {"dispatch-lone-implicit", TA_SEV_ERROR,
     "A dispatch table of CompositeImplicitAutograd alone (torchgen asserts)."},
    {"dispatch-factory-implicit", TA_SEV_ERROR,
     "A factory function without a dispatch table (torchgen asserts)."},
};

const ta_rule_info *ta_native_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}
