/* tensoralias/exec.h - the execution engine: devices, tracked storage and
 * tensors, the kernel registry and plugins, and running a kernel.
 *
 * A ta_exec is one execution context (one per thread or child process): a
 * device, the storages allocated on it, the tensors over them, and the
 * kernel context a kernel receives. Everything allocated in a context is
 * freed together by ta_exec_reset (between cases) or ta_exec_destroy.
 *
 * A ta_registry maps full operator names ("aten::abs.out", "mylib::op") to
 * a schema (text) and up to one kernel per dispatch key (see kernel.h). It
 * enforces the custom-operator rules: one schema per overload, no catch-all
 * kernel next to device kernels.
 */
#ifndef TENSORALIAS_EXEC_H
#define TENSORALIAS_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensoralias/device.h"
#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/kernel.h"
#include "tensoralias/native.h"
#include "tensoralias/torchgen.h"

#ifdef __cplusplus
extern "C" {
#endif



/* ---- devices ----------------------------------------------------------- */

/* The CPU device (always available). Every allocation is page-backed with a
 * PROT_NONE guard page right after its last byte, so a write past the end
 * faults. */
TA_API const struct ta_device_ops *ta_exec_device_cpu(void);
/* Loads a device library (libtensoralias_cuda.so) and gives its ops in *out;
 * else *out is NULL, with an error diagnostic (rule "device"; its message is
 * the device's own when the device is unavailable) and TA_ERR_IO (the
 * library could not be loaded) or TA_ERR_UNSUPPORTED (no device table, one
 * of another ABI, or the device is unavailable). *handle receives the dlopen handle
 * (close it with ta_exec_device_unload after the last use). The device's
 * available() is asked in a short-lived child process, so that this process
 * (which forks the verification children) never initializes the device
 * itself: a CUDA context does not survive fork. */
TA_API ta_status ta_exec_device_load(const char *path, const struct ta_device_ops **out,
                                     void **handle, ta_diags *diags);
TA_API void ta_exec_device_unload(void *handle);

/* ---- execution contexts ------------------------------------------------ */

typedef struct ta_exec ta_exec;

/* A storage the engine allocated: id (unique within the context, from 1),
 * base device pointer, byte size. */
typedef struct ta_storage_info {
    uint32_t id;
    void *base;
    size_t bytes;
    bool readonly; /* pages made read-only by ta_exec_protect */
} ta_storage_info;

/* dev NULL means the CPU device. TA_ERR_NOMEM (and *out NULL) when memory
 * runs out. */
TA_API ta_status ta_exec_create(const struct ta_device_ops *dev, ta_exec **out);
TA_API void ta_exec_destroy(ta_exec *x);
/* Frees every storage and tensor and the stack contents. */
TA_API void ta_exec_reset(ta_exec *x);
TA_API const struct ta_device_ops *ta_exec_device(const ta_exec *x);

/* A new storage of `bytes` bytes (contents unspecified); *id is its id, or 0
 * with TA_ERR_NOMEM when it cannot be allocated. */
TA_API ta_status ta_exec_storage_new(ta_exec *x, size_t bytes, uint32_t *id);
TA_API size_t ta_exec_storage_count(const ta_exec *x);
/* Storage by id; false when there is none. */
TA_API bool ta_exec_storage_get(const ta_exec *x, uint32_t id, ta_storage_info *out);
/* The storage whose bytes contain p (or, for empty storages, start at p); 0 if none. */
TA_API uint32_t ta_exec_storage_at(const ta_exec *x, const void *p);

/* A tensor over storage `storage` with the given geometry (strides NULL:
 * contiguous), checked to fit in the storage: TA_ERR_INVALID (and *out
 * NULL) when it does not, TA_ERR_NOMEM when memory runs out. */
TA_API ta_status ta_exec_tensor(ta_exec *x, uint32_t storage, DLDataType dtype, int ndim,
                                const int64_t *shape, const int64_t *strides, uint64_t byte_offset,
                                DLTensor **out);
/* A new contiguous tensor on a new storage of exactly its size: TA_ERR_INVALID
 * for a negative dimension, TA_ERR_NOMEM when it cannot be allocated. */
TA_API ta_status ta_exec_empty(ta_exec *x, DLDataType dtype, int ndim, const int64_t *shape,
                               DLTensor **out);
/* The storage id of a tensor the engine handed out (0 for a foreign one). */
TA_API uint32_t ta_exec_storage_of(const ta_exec *x, const DLTensor *t);
/* The lowest and one-past-highest byte (relative to the storage base) that t
 * can reach; lo == hi for an empty tensor. */
TA_API void ta_tensor_byte_range(const DLTensor *t, uint64_t *lo, uint64_t *hi);

/* Makes a CPU storage's pages read-only (or writable again); for trapping
 * writes. TA_ERR_UNSUPPORTED on other devices. */
TA_API ta_status ta_exec_protect(ta_exec *x, uint32_t storage, bool readonly);

/* The context's kernel context and stack. */
TA_API ta_kernel_ctx *ta_exec_kernel_ctx(ta_exec *x);
TA_API ta_stack *ta_exec_stack(ta_exec *x);

/* Calls fn on the context's stack, then syncs the device. A kernel that
 * fails (TA_ERR_KERNEL or another status) adds an error diagnostic with its
 * message (rule "kernel-error"); a device that faults, one with the
 * device's message (rule "device-error", TA_ERR_KERNEL). diags may be NULL. */
TA_API ta_status ta_exec_call(ta_exec *x, ta_kernel_fn fn, void *user_data, ta_diags *diags);

/* ---- stacks (standalone; a ta_exec has its own) ----------------------- */

/* Values pushed are copied shallowly, except lists and strings, whose
 * contents the stack copies; tensors stay owned by their ta_exec. */
TA_API ta_status ta_stack_create(ta_stack **out); /* TA_ERR_NOMEM, *out NULL */
TA_API void ta_stack_destroy(ta_stack *st);
/* Like ta_stack_clear, and also frees the copies of lists and strings. */
TA_API void ta_stack_reset(ta_stack *st);

/* ---- the registry ------------------------------------------------------ */

/* Gives the schema text of a full operator name ("aten::abs.out"), or NULL
 * when unknown. Set by whoever loaded native_functions.yaml. */
typedef const char *(*ta_schema_lookup_fn)(void *ud, const char *name);

typedef struct ta_registry_op {
    const char *name;    /* "ns::name" or "ns::name.overload" */
    const char *schema;  /* whole schema text, or NULL while not known */
    const char *schema_origin; /* who gave the schema: a plugin path, "yaml", ... */
    ta_kernel_fn kernels[3];   /* indexed by ta_dispatch_key */
    void *user_data[3];
    const char *kernel_origin[3];
} ta_registry_op;

TA_API ta_status ta_registry_create(ta_registry **out); /* TA_ERR_NOMEM, *out NULL */
TA_API void ta_registry_destroy(ta_registry *reg);
TA_API void ta_registry_set_schema_lookup(ta_registry *reg, ta_schema_lookup_fn fn, void *ud);
/* Name used in diagnostics for registrations that follow ("libfoo.so"). */
TA_API ta_status ta_registry_set_origin(ta_registry *reg, const char *origin);
/* Diagnostics of registrations so far (rule "registration"); moved out by
 * ta_registry_take_diags. */
TA_API ta_status ta_registry_take_diags(ta_registry *reg, ta_diags *into);

/* Gives the plugins loaded next an option (kernel.h's ta_registry_option):
 * "torch.library" names the extension library the libtorch bridge loads,
 * "torch.ops" (patterns one a line) the operators of the process's own
 * dispatcher it verifies (those Python code registered: the Python package).
 * A key set twice keeps its first value. */
TA_API ta_status ta_registry_set_option(ta_registry *reg, const char *key, const char *value);

/* dlopens a kernel library and calls its tensoralias_register. The library
 * stays loaded until ta_registry_destroy. */
TA_API ta_status ta_registry_load_plugin(ta_registry *reg, const char *path, ta_diags *diags);

TA_API size_t ta_registry_count(const ta_registry *reg);
TA_API const ta_registry_op *ta_registry_at(const ta_registry *reg, size_t i);
TA_API const ta_registry_op *ta_registry_find(const ta_registry *reg, const char *name);
/* The kernel that runs op on a device: the device's own, else the catch-all. */
TA_API ta_kernel_fn ta_registry_kernel_for(const ta_registry_op *op, DLDeviceType dev, void **user_data);
TA_API bool ta_registry_has_kernel(const ta_registry_op *op);
/* Drops every kernel of an operator (its schema stays). TA_ERR_NOTFOUND
 * when there is no such operator. */
TA_API ta_status ta_registry_remove_kernels(ta_registry *reg, const char *name);
/* The operator name of a schema or name ("aten::add.Tensor(Tensor self...)"
 * -> "aten::add.Tensor"), written into buf. Returns its length. */
TA_API size_t ta_op_name_of(const char *schema_or_name, char *buf, size_t cap);

/* ---- schema sources ---------------------------------------------------- */

/* Makes every entry of a loaded native_functions.yaml known to the registry
 * by full operator name ("aten::abs.out": the namespace the func names, aten
 * otherwise): an operator registered by name takes its schema from there,
 * and ta_registry_select can pick it. f must outlive reg. Replaces the
 * schema lookup set before, if any. */
TA_API ta_status ta_registry_use_native(ta_registry *reg, const ta_native_file *f);

/* Registers every schema of a file, without kernels (`verify --schemas`): a
 * native_functions.yaml (namespaces as written, aten otherwise), or a list
 * of schemas (schema_list.h: one a line, '#' comments). Schemas the
 * registration rules refuse are reported in diags. TA_ERR_PARSE when a
 * list's line is no schema, or the list holds none (each with a positioned
 * diagnostic); TA_ERR_IO (with a diagnostic) when the file cannot be read. */
TA_API ta_status ta_registry_load_schemas(ta_registry *reg, const char *path, ta_diags *diags);

/* The operators to verify: without globs, every registered operator with a
 * kernel; with globs (fnmatch patterns on names such as "aten::abs.out"),
 * every operator registered or known to the schema source that one matches
 * (ta_verify gives one without a kernel a no-kernel result). Registered
 * operators come first, in registration order, then the schema source's in
 * yaml order, each once. *names is malloc'd (the caller frees it); its
 * strings belong to reg. */
TA_API ta_status ta_registry_select(const ta_registry *reg, const char *const *globs,
                                    size_t nglobs, const char ***names, size_t *n);

/* ---- derived operators (autogen) --------------------------------------- */

/* Derives the operators `autogen:` asks for in f (torchgen's rules, see
 * torchgen.h) and registers their schemas without kernels, each in the
 * namespace of the entry it derives from, so that kernel libraries loaded
 * next can register kernels for them by name. What cannot be derived is
 * check's business and not reported here. f must outlive reg. */
TA_API ta_status ta_registry_add_autogen_schemas(ta_registry *reg, const ta_native_file *f);

/* Which derived operators get a composed kernel. */
typedef enum ta_compose_mode {
    TA_COMPOSE_MISSING = 0, /* those without a kernel of their own */
    TA_COMPOSE_ALL          /* all: a kernel a library gave one is dropped */
} ta_compose_mode;

/* After the kernel libraries: gives each derived operator of
 * ta_registry_add_autogen_schemas (per mode) the kernel that runs its plan
 * over its callee's kernel, where the callee has one (a derived callee
 * counts once it has its own). *added (may be NULL) receives how many got
 * one. */
TA_API ta_status ta_registry_add_autogen_kernels(ta_registry *reg, ta_compose_mode mode,
                                                 size_t *added);

/* Registers `schema` (whole) with a catch-all kernel that runs plan (a
 * torchgen run plan: see ta_autogen_plan in torchgen.h; its callee index is
 * not used) over the kernel of `callee` (a full operator name) for the
 * device at hand. The plan's arrays are copied. Nothing is registered
 * (TA_OK) when the operator already has a kernel of its own. */
TA_API ta_status ta_registry_add_derived(ta_registry *reg, const char *schema,
                                         const ta_autogen_plan *plan, const char *callee);
/* Whether op's kernel is a derived one. */
TA_API bool ta_registry_is_derived(const ta_registry_op *op);

/* ---- verification ------------------------------------------------------ */

typedef enum ta_verdict_kind {
    TA_V_OK = 0,
    TA_V_UNDECLARED_MUTATION,          /* a read-only argument was written */
    TA_V_UNDECLARED_METADATA_MUTATION, /* a read-only argument's sizes/strides/offset changed */
    TA_V_UNDECLARED_ALIAS,             /* an output shares storage with an input it may not */
    TA_V_UNDECLARED_OUTPUT_ALIAS,      /* two outputs share storage they may not */
    TA_V_VIEW_RETURNED_COPY,           /* a declared view does not share its input's storage */
    TA_V_OUT_NOT_WRITTEN,              /* an out= argument was not (fully) written */
    TA_V_OUT_NOT_RETURNED,             /* an out= op did not return its out argument */
    TA_V_INPLACE_NOT_SELF,             /* an inplace op did not return self */
    TA_V_OUT_OF_BOUNDS,                /* an access past the end of a storage (its guard page) */
    TA_V_CRASH,                        /* the kernel died of a signal */
    TA_V_TIMEOUT,                      /* the kernel did not return in time */
    TA_V_KERNEL_ERROR,                 /* malformed returns, device errors, rejected samples */
    TA_V_NOT_EXERCISED,                /* every case was rejected or could not be made */
    TA_V_NO_KERNEL,                    /* selected, but there is no kernel */
    TA_V_SCHEMA_MISMATCH,              /* the kernel's framework holds another schema for the
                                        * operator, with other alias annotations */
    TA_V_SPECIAL_CASE_WRITE,           /* an argument only torch's SchemaInfo special-cases as
                                        * written (training mode) was written: a warning, an
                                        * error with ta_verify_opts.strict */
    TA_V_NOT_RUNNABLE,                 /* every case was refused as no input the engine makes
                                        * could run it on the device (ta_kernel_cannot_run) */
    TA_V_NKINDS
} ta_verdict_kind;

TA_API const char *ta_verdict_kind_str(ta_verdict_kind k); /* "undeclared-mutation", ... */
TA_API bool ta_verdict_kind_parse(const char *s, ta_verdict_kind *out);
/* A verdict's severity, in the diagnostics' scale: an error for what breaks
 * the schema's contract, a warning for not-exercised, a note for no-kernel
 * (and for ok, which is no finding: reports call it "none"). */
TA_API ta_severity ta_verdict_kind_severity(ta_verdict_kind k);

typedef struct ta_finding {
    ta_verdict_kind kind;
    ta_severity severity;
    char argument[64]; /* argument or return name ("self", "out", "return 0"), or "" */
    uint64_t seed;     /* the case seed; replays with --case-seed */
    char message[1024]; /* ends with the case's arguments when known */
} ta_finding;

/* The outcome for one operator overload. */
typedef struct ta_op_result {
    char op[256];             /* "aten::abs.out" */
    ta_verdict_kind verdict;  /* TA_V_OK, TA_V_NOT_EXERCISED, TA_V_NO_KERNEL or the worst finding's kind */
    ta_severity severity;
    uint32_t cases;           /* cases run (or attempted) */
    uint32_t exercised;       /* cases the kernel accepted */
    char note[256];           /* e.g. the first rejection message */
    /* Input discovery (ta_verify_opts.no_discovery): the calls it made
     * beyond each case's first, the cases accepted only thanks to it, the
     * calls a fake or Meta kernel rejected without the real one running,
     * and the time its calls and learning took. */
    uint32_t discovery_calls, discovered, screened;
    double discovery_seconds;
    bool derived;             /* run by a kernel composed from its base (autogen) */
    ta_finding *findings;     /* one per (kind, argument), the first case that showed it */
    size_t nfindings;
} ta_op_result;

/* How a run used its child processes. */
typedef struct ta_verify_stats {
    uint32_t children;       /* child processes started */
    uint32_t reruns;         /* operators run again alone after a batch child (see batch) */
    uint32_t timeouts_rerun; /* of those, the ones whose batch child timed out in them */
    uint32_t cut;            /* batch children that ended before their last operator, as
                              * they could not put the process state back */
} ta_verify_stats;

typedef struct ta_verify_report {
    ta_op_result *ops;
    size_t nops;
    uint64_t total_cases;
    double seconds;
    ta_verify_stats stats;
} ta_verify_report;

typedef void (*ta_verify_progress_fn)(void *ud, size_t done, size_t total, const char *op);

/* Gives a case's arguments from a samples file: see ta_samples_*. */
typedef struct ta_samples ta_samples;

#define TA_VERIFY_TRAP_AUTO 20000

typedef struct ta_verify_opts {
    uint64_t seed;          /* base seed; each case's seed derives from it and the operator */
    uint32_t cases;         /* synthesized cases per operator (0: 40) */
    bool samples_only;      /* no synthesized cases: only the samples' */
    double timeout;         /* seconds per case (0: 10) */
    uint32_t jobs;          /* operators run in parallel (0: 1) */
    /* Read-only pages on inputs that may not be written, naming the first
     * write (a write the kernel undoes before returning included). A run
     * of at most TA_VERIFY_TRAP_AUTO cases in all traps whatever this says,
     * on the CPU in child processes (the pages cost two system calls an
     * input a case). */
    bool trap_writes;
    bool in_process;        /* no child processes (tests, benchmarks): a crash ends the run */
    bool has_case_seed;     /* run exactly one case with this seed */
    uint64_t case_seed;
    /* No input discovery: a rejected synthesized case is only rejected.
     * With it (the default), a rejection is read for what the kernel wants
     * and the case tried again (src/exec/discover/search.h). */
    bool no_discovery;
    /* A discovery path (a finding's "{found: ...}"): with case_seed, that
     * case made with these facts, as discovery made it. */
    const char *discovered;
    const struct ta_device_ops *dev; /* NULL: CPU */
    const ta_samples *samples;       /* or NULL */
    bool strict;            /* special-case-write findings are errors */
    ta_verify_progress_fn progress;
    void *progress_ud;
    /* Operators one child process runs one after another (0 or 1: one per
     * child, operator isolation). In a batch the process state is put back
     * between operators (ta_registry_on_process_reset), and an operator with
     * a finding, or whose child crashed or timed out in it, runs again alone
     * in a fresh child: that result is the one reported, so a run gives the
     * results of operator isolation. */
    uint32_t batch;
} ta_verify_opts;

/* Verifies the named operators (each must be in the registry; one without
 * a kernel gets a no-kernel result, one whose schema does not parse a
 * kernel-error). Every operator gets a result, whatever its kernel does. */
TA_API ta_status ta_verify(const ta_registry *reg, const char *const *ops, size_t nops,
                    const ta_verify_opts *opts, ta_verify_report **out, ta_diags *diags);
TA_API void ta_verify_report_destroy(ta_verify_report *r);

/* Samples: exact arguments per operator, from JSON:
 *   {"aten::add.Tensor": [ {"self": {"shape": [2, 3], "dtype": "float32"},
 *                           "other": {"shape": [3]}, "alpha": 2} ], ...}
 * A tensor is an object with shape (default []), dtype (default float32),
 * strides and offset (elements), storage (an integer shared by the tensors
 * of a sample that are views of one storage), storage_bytes, values (flat,
 * row-major; "nan", "inf", "-inf" spell non-finite ones), or range [lo, hi]
 * and seed for generated values; other arguments are JSON numbers,
 * booleans, strings, lists or null. Arguments a sample leaves out are
 * synthesized. The full format is in src/exec/synth/samples.c. ta_verify runs an
 * operator's samples before its synthesized cases; a case seed below 2^32
 * names a sample (its index), so --case-seed replays samples too.
 * Loading checks every sample's structure (errors at the sample's line);
 * ta_samples_check its operators and argument names; whether a value fits
 * its argument shows when its case is built. */
TA_API ta_status ta_samples_load(const char *path, ta_samples **out, ta_diags *diags);
TA_API ta_status ta_samples_load_buffer(const char *text, size_t len, const char *source,
                                 ta_samples **out, ta_diags *diags);
TA_API void ta_samples_destroy(ta_samples *s);
TA_API size_t ta_samples_count(const ta_samples *s, const char *op);
/* Checks a samples file against what reg knows (registered operators and
 * the yaml of ta_registry_use_native): an operator none of them declares,
 * and a sample naming an argument its operator's schema does not have, are
 * errors at their line and column in the file (named source). TA_OK, or
 * TA_ERR_PARSE with a diagnostic for each. */
TA_API ta_status ta_samples_check(const ta_samples *s, const ta_registry *reg, const char *source,
                                  ta_diags *diags);
/* Strict (the default): a sample the kernel rejects is a kernel-error
 * finding, since whoever wrote it meant it to run. Not strict: a rejected
 * sample is a rejected case like a synthesized one (a corpus made for
 * another version of the kernels). */
TA_API void ta_samples_set_strict(ta_samples *s, bool strict);

#ifdef __cplusplus
}
#endif
#endif
