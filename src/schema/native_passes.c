/* native_passes.c - the rule passes over a loaded native_functions.yaml:
 * what torchgen asserts across fields and entries (tags, dispatch keys,
 * composite keys, manual registration, overload names, structured
 * delegates). Each pass is a function in the table at the bottom; more rule
 * passes (alias annotations, autogen) plug in through ta_native_check_with. */
#include <stdio.h>
#include <string.h>

#include "schema/native_internal.h"
#include "schema/parser.h"

/* An error at pos whose fix-it is a fixed sentence. */
static ta_status error_with_hint(const ta_native_file *f, ta_diags *d, ta_native_pos pos,
                                 const char *rule, const char *message, const char *hint)
{
    ta_loc at = ta_native_loc(f, pos);
    ta_status st = ta_diag_error(d, &at, rule, "%s", message);
    return st == TA_OK ? ta_diag_hint(d, "%s", hint) : st;
}

static ta_status tags_pass(const ta_native_file *f, ta_diags *d)
{
    if (!f->has_tags) return TA_OK; /* no tags.yaml: nothing to check against */
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        for (uint32_t t = 0; t < fn->ntags && st == TA_OK; t++) {
            const ta_native_str *tag = &fn->tags[t];
            if (ta_native_tag_known(f, tag->s)) continue;
            const char *near = ta_native_closest(tag->s, tag->len, f->tags, f->ntags);
            ta_loc at = ta_native_loc(f, tag->pos);
            st = ta_diag_error(d, &at, "tag-unknown", "illegal tag '%s' (not in tags.yaml)", tag->s);
            if (st == TA_OK)
                st = near ? ta_diag_hint(d, "did you mean '%s'?", near)
                          : ta_diag_hint(d, "declare it in %s", f->tags_src.source);
        }
    }
    return st;
}

static ta_status dispatch_key_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        for (uint32_t k = 0; k < fn->ndispatch && st == TA_OK; k++) {
            const ta_native_dispatch *e = &fn->dispatch[k];
            if (e->known) continue;
            const char *near = ta_native_closest_dispatch_key(e->key.s, e->key.len);
            ta_loc at = ta_native_loc(f, e->key.pos);
            st = ta_diag_error(d, &at, "dispatch-unknown-key", "unknown dispatch key '%s'", e->key.s);
            if (st == TA_OK && near) st = ta_diag_hint(d, "did you mean '%s'?", near);
        }
    }
    return st;
}

/* torchgen allows one composite key, or CompositeImplicitAutogradNestedTensor
 * next to CompositeImplicitAutograd or CompositeExplicitAutograd. */
static ta_status composite_pass(const ta_native_file *f, ta_diags *d)
{
    static const char *const composites[] = {
        "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
        "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor"};
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        const ta_native_dispatch *seen[4] = {0};
        const ta_native_dispatch *last = NULL;
        int n = 0;
        for (uint32_t k = 0; k < fn->ndispatch; k++) {
            /* all four start so: most keys (CPU, CUDA ...) are out at once */
            if (strncmp(fn->dispatch[k].key.s, "Composite", 9)) continue;
            for (int c = 0; c < 4; c++)
                if (!strcmp(fn->dispatch[k].key.s, composites[c]) && !seen[c]) {
                    seen[c] = last = &fn->dispatch[k];
                    n++;
                }
        }
        if (n <= 1 || (n == 2 && !seen[1] && seen[3])) continue;
        const ta_native_dispatch *first = NULL;
        for (int c = 0; c < 4 && !first; c++)
            if (seen[c] && seen[c] != last) first = seen[c];
        ta_loc at = ta_native_loc(f, last->key.pos);
        st = ta_diag_error(d, &at, "dispatch-both-composite",
                           "dispatch table names both %s and %s; each subsumes the other",
                           first->key.s, last->key.s);
        if (st == TA_OK)
            st = ta_diag_hint(d, "keep one: CompositeExplicitAutograd for an explicit autograd "
                                 "formula, CompositeImplicitAutograd otherwise");
    }
    return st;
}

static ta_status manual_registration_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        if (!fn->has_dispatch || !fn->manual_kernel_registration) continue;
        st = error_with_hint(f, d, ta_native_key_pos(fn, TA_NK_DISPATCH), "dispatch-with-manual-registration",
                             "dispatch table with manual_kernel_registration: True has no effect",
                             "remove the dispatch table or manual_kernel_registration");
    }
    return st;
}

static ta_status overload_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    /* the index noted every entry whose name an earlier one has, in order */
    for (uint32_t k = 0; k < f->ndups && st == TA_OK; k++) {
        const ta_native_func *fn = &f->funcs[f->dups[2 * k]];
        bool empty = !strchr(fn->name, '.');
        ta_loc at = ta_native_loc(f, fn->func.pos);
        st = empty ? ta_diag_error(d, &at, "overload-empty-twice",
                                   "'%s' has more than one overload with an empty overload name",
                                   fn->name)
                   : ta_diag_error(d, &at, "overload-duplicate", "'%s' is defined twice", fn->name);
        if (st == TA_OK)
            st = ta_diag_hint(d, "the first is on line %u; give this one another overload name",
                              f->dups[2 * k + 1]);
    }
    return st;
}

static bool dispatches_to(const ta_native_func *fn, const char *key)
{
    for (uint32_t k = 0; k < fn->ndispatch; k++)
        if (!strcmp(fn->dispatch[k].key.s, key)) return true;
    return false;
}

ta_status ta_native_delegate_report(const ta_native_file *f, ta_diags *d, ta_native_pos pos,
                                    const char *name, bool found, bool structured)
{
    if (found && structured) return TA_OK;
    ta_loc at = ta_native_loc(f, pos);
    if (!found)
        return ta_diag_error(d, &at, "delegate-unknown",
                             "structured_delegate '%s' names no function of this file", name);
    ta_status st = ta_diag_error(d, &at, "delegate-not-structured",
                                 "structured_delegate '%s' is not structured", name);
    return st == TA_OK ? ta_diag_hint(d, "add 'structured: True' to the delegate") : st;
}

static ta_status structured_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        const ta_native_str *del = &fn->structured_delegate;
        if (del->s && strstr(del->s, "::")) {
            st = error_with_hint(f, d, del->pos, "entry-bad-value",
                                 "structured_delegate may not name a namespace",
                                 "drop the namespace: the delegate is in the same one");
        } else if (del->s) {
            bool found, structured, later;
            st = ta_native_delegate_target(f, fn, del, &found, &structured, &later);
            if (st == TA_OK && !later)
                st = ta_native_delegate_report(f, d, del->pos, del->s, found, structured);
            static const char *const backends[] = {"CPU", "CUDA", "MPS"};
            for (int b = 0; b < 3 && st == TA_OK; b++) {
                if (!dispatches_to(fn, backends[b])) continue;
                ta_loc at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_DISPATCH));
                st = ta_diag_error(d, &at, "delegate-with-backend",
                                   "a structured delegate may not dispatch to %s", backends[b]);
                if (st == TA_OK)
                    st = ta_diag_hint(d, "the delegate's kernel serves this function; drop the key");
            }
        }
        if (st == TA_OK && fn->extra->structured_inherits.s && strstr(fn->extra->structured_inherits.s, "::")) {
            ta_loc at = ta_native_loc(f, fn->extra->structured_inherits.pos);
            st = ta_diag_error(d, &at, "entry-bad-value", "structured_inherits may not name a namespace");
        }
        if (st == TA_OK && ta_native_has_key(fn, TA_NK_PRECOMPUTED) && fn->extra->nprecomputed && !fn->structured)
            st = error_with_hint(f, d, ta_native_key_pos(fn, TA_NK_PRECOMPUTED), "precomputed-not-structured",
                                 "precomputed is only allowed on a structured function",
                                 "add 'structured: True'");
        if (st == TA_OK && fn->extra->nufunc_inner_loop && !fn->structured)
            st = error_with_hint(f, d, ta_native_key_pos(fn, TA_NK_UFUNC_INNER_LOOP), "ufunc-not-structured",
                                 "ufunc_inner_loop is only allowed on a structured function",
                                 "add 'structured: True'");
        /* A ufunc's CPU and CUDA kernels come from its inner loops. */
        static const char *const ufunc_keys[] = {"CPU", "CUDA"};
        for (int b = 0; b < 2 && st == TA_OK && fn->extra->nufunc_inner_loop; b++) {
            if (!dispatches_to(fn, ufunc_keys[b])) continue;
            ta_loc at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_DISPATCH));
            st = ta_diag_error(d, &at, "ufunc-with-backend",
                               "a ufunc may not dispatch to %s explicitly", ufunc_keys[b]);
            if (st == TA_OK)
                st = ta_diag_hint(d, "the ufunc_inner_loop generates this kernel; drop the key");
        }
        if (st == TA_OK && fn->extra->python_module.s && (fn->variants & TA_VARIANT_METHOD)) {
            ta_loc at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_PYTHON_MODULE));
            st = ta_diag_error(d, &at, "python-module-method",
                               "a function in python_module '%s' cannot be a method",
                               fn->extra->python_module.s);
            if (st == TA_OK) st = ta_diag_hint(d, "drop 'method' from variants");
        }
    }
    return st;
}

/* torchgen's cpp.name(func): the base name (with an inplace '_'), and
 * "_out" for an out= function; written to buf. */
static void cpp_name(const ta_native_func *fn, char *buf, size_t cap)
{
    size_t n = strcspn(fn->name, ".");
    snprintf(buf, cap, "%.*s%s", (int)n, fn->name, ta_schema_has_out_args(fn->schema) ? "_out" : "");
}

/* A dispatch table of CompositeImplicitAutograd alone: torchgen refuses
 * it unless the entry is a structured delegate or the kernel's name has
 * "_symint" (as the implicit table, named cpp.name, it is unnecessary; under
 * another name, unexpected). */
static ta_status lone_implicit(const ta_native_file *f, const ta_native_func *fn, ta_diags *d)
{
    const ta_native_dispatch *e = &fn->dispatch[0];
    for (uint32_t k = 1; k < fn->ndispatch; k++)
        if (strcmp(fn->dispatch[k].key.s, e->key.s)) return TA_OK;
    if (strcmp(e->key.s, "CompositeImplicitAutograd") || fn->structured_delegate.s ||
        (e->kernel.s && strstr(e->kernel.s, "_symint")))
        return TA_OK;
    char name[256];
    cpp_name(fn, name, sizeof name);
    ta_loc at = ta_native_loc(f, ta_native_key_pos(fn, TA_NK_DISPATCH));
    bool same = e->kernel.s && !strcmp(e->kernel.s, name);
    ta_status st = ta_diag_error(d, &at, "dispatch-lone-implicit",
                                 same ? "unnecessary dispatch table: CompositeImplicitAutograd: %s is "
                                        "what no table means"
                                      : "a lone CompositeImplicitAutograd kernel must be named %s "
                                        "(and then the table is unnecessary)",
                                 name);
    return st == TA_OK ? ta_diag_hint(d, same ? "delete the dispatch table"
                                              : "rename the kernel %s, then delete the dispatch table",
                                      name)
                       : st;
}

/* A factory (new_*, *_like, or tensor options without a Tensor argument)
 * without a dispatch table would be CompositeImplicitAutograd: torchgen
 * refuses it, since factories must not decompose under __torch_dispatch__. */
static ta_status implicit_factory(const ta_native_file *f, const ta_native_func *fn, ta_diags *d)
{
    if (fn->has_dispatch || fn->structured || fn->structured_delegate.s) return TA_OK;
    const ta_schema *s = fn->schema;
    size_t n = strcspn(fn->name, ".");
    bool factory = !strncmp(fn->name, "new_", 4) || (n >= 5 && !strncmp(fn->name + n - 5, "_like", 5));
    if (!factory && ta_schema_tensor_options_at(s) >= 0) {
        factory = true;
        for (uint32_t i = 0; i < s->nargs; i++)
            if (ta_type_is_tensor_like(s->args[i].type)) factory = false;
    }
    if (!factory) return TA_OK;
    return error_with_hint(f, d, fn->func.pos, "dispatch-factory-implicit",
                           "a factory function without a dispatch table would be "
                           "CompositeImplicitAutograd, which torchgen refuses",
                           "give it a dispatch table with CompositeExplicitAutograd");
}

static ta_status default_dispatch_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        if (!fn->schema) continue; /* reported by the loader */
        st = fn->ndispatch ? lone_implicit(f, fn, d) : implicit_factory(f, fn, d);
    }
    return st;
}

/* ---- what torchgen's NativeFunction.__post_init__ asserts ------------- */

/* An error at the key (or, when it is absent, the entry) with a hint. */
static ta_status key_error(const ta_native_file *f, ta_diags *d, const ta_native_func *fn,
                           ta_native_key key, const char *rule, const char *hint,
                           const char *message)
{
    return error_with_hint(f, d, ta_native_has_key(fn, key) ? ta_native_key_pos(fn, key) : fn->func.pos, rule,
                           message, hint);
}

/* The structured fields: on which kind of function, with which others. */
static ta_status structured_fields(const ta_native_file *f, const ta_native_func *fn, bool out,
                                   ta_diags *d)
{
    ta_status st = TA_OK;
    if (fn->structured && !out)
        st = key_error(f, d, fn, TA_NK_STRUCTURED, "structured-not-out",
                       "put 'structured' on the out= variant, and structured_delegate here",
                       "structured is only allowed on an out= function");
    if (st == TA_OK && fn->structured_delegate.s && out)
        st = key_error(f, d, fn, TA_NK_STRUCTURED_DELEGATE, "delegate-on-out",
                       "an out= function is the one that is structured",
                       "structured_delegate is not allowed on an out= function");
    if (st == TA_OK && fn->structured && fn->structured_delegate.s)
        st = key_error(f, d, fn, TA_NK_STRUCTURED_DELEGATE, "structured-and-delegate",
                       "keep one of them", "a function cannot be both structured and a structured delegate");
    if (st == TA_OK && (fn->structured || fn->structured_delegate.s) && !fn->device_guard)
        st = key_error(f, d, fn, TA_NK_DEVICE_GUARD, "structured-device-guard",
                       "drop 'device_guard: False'",
                       "structured kernels do not respect device_guard: False");
    if (st == TA_OK && fn->extra->structured_inherits.s && !fn->structured)
        st = key_error(f, d, fn, TA_NK_STRUCTURED_INHERITS, "inherits-not-structured",
                       "add 'structured: True'", "structured_inherits requires structured: True");
    return st;
}

/* cpp_no_default_args names only arguments that have a default. */
static ta_status no_default_args(const ta_native_file *f, const ta_native_func *fn, ta_diags *d)
{
    for (uint32_t k = 0; k < fn->extra->ncpp_no_default_args; k++) {
        const ta_native_str *a = &fn->extra->cpp_no_default_args[k];
        bool ok = false;
        for (uint32_t i = 0; i < fn->schema->nargs && !ok; i++)
            ok = ta_str_eq(fn->schema->args[i].name, a->s) &&
                 fn->schema->args[i].def.kind != TA_DEFAULT_NONE_GIVEN;
        if (ok) continue;
        ta_loc at = ta_native_loc(f, a->pos);
        ta_status st = ta_diag_error(d, &at, "cpp-no-default-args",
                                     "cpp_no_default_args names '%s', which is no argument with a default",
                                     a->s);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}

/* torchgen: a random operator ("rand" in its name, a dropout that is not a
 * backward, a Generator argument) must carry the nondeterministic_seeded
 * tag. A late torchgen (its tags.yaml declares pt2_compliant_tag) also
 * reads "dropout" in an argument's name. */
static bool seeded(const ta_native_func *fn, bool late)
{
    static const char exempt[] = "_cudnn_init_dropout_state";
    const ta_schema *s = fn->schema;
    const char *name = fn->name;
    size_t n = strcspn(name, ".");
    bool dropout = strstr(name, "dropout") != NULL;
    for (uint32_t i = 0; i < s->nargs && late && !dropout; i++)
        for (uint32_t k = 0; k + 7 <= s->args[i].name.len && !dropout; k++)
            dropout = !memcmp(s->args[i].name.ptr + k, "dropout", 7);
    bool random = strstr(name, "rand") ||
                  (dropout && !strstr(name, "backward") &&
                   !(n == sizeof exempt - 1 && !strncmp(name, exempt, n)));
    for (uint32_t i = 0; i < s->nargs && !random; i++) {
        const ta_type *t = s->args[i].type;
        random = ta_type_is_name(t, "Generator") ||
                 (t->kind == TA_TYPE_OPTIONAL && ta_type_is_name(t->elems[0], "Generator"));
    }
    if (!random) return true;
    for (uint32_t t = 0; t < fn->ntags; t++)
        if (!strcmp(fn->tags[t].s, "nondeterministic_seeded")) return true;
    return false;
}

static ta_status post_init_pass(const ta_native_file *f, ta_diags *d)
{
    ta_status st = TA_OK;
    bool late = f->has_tags && ta_native_tag_known(f, "pt2_compliant_tag");
    for (uint32_t i = 0; i < f->nfuncs && st == TA_OK; i++) {
        const ta_native_func *fn = &f->funcs[i];
        if (!fn->schema) continue; /* reported by the loader */
        bool out = ta_schema_has_out_args(fn->schema);
        if (out && fn->variants != TA_VARIANT_FUNCTION)
            st = key_error(f, d, fn, TA_NK_VARIANTS, "out-variant-method", "write 'variants: function'",
                           "a function with out= arguments must be declared with the function variant only");
        if (st == TA_OK) st = structured_fields(f, fn, out, d);
        if (st == TA_OK) st = no_default_args(f, fn, d);
        if (st == TA_OK && !strncmp(fn->name, "_foreach", 8) &&
            fn->device_check != TA_DEVICE_CHECK_NO_CHECK)
            st = key_error(f, d, fn, TA_NK_DEVICE_CHECK, "foreach-device-check",
                           "write 'device_check: NoCheck'",
                           "a _foreach function must not check devices (device_check: NoCheck)");
        if (st == TA_OK && !seeded(fn, late))
            st = key_error(f, d, fn, TA_NK_TAGS, "nondeterministic-untagged",
                           "add 'tags: nondeterministic_seeded'",
                           "a random function (rand or dropout in its name, dropout in an "
                           "argument's for a late torchgen, or a Generator argument) must be "
                           "tagged nondeterministic_seeded");
    }
    return st;
}

static const ta_native_pass builtin[] = {
    {"tags", tags_pass},
    {"dispatch-keys", dispatch_key_pass},
    {"composite", composite_pass},
    {"manual-registration", manual_registration_pass},
    {"overloads", overload_pass},
    {"structured", structured_pass},
    {"default-dispatch", default_dispatch_pass},
    {"post-init", post_init_pass},
};

const ta_native_pass *ta_native_builtin_passes(size_t *n)
{
    *n = sizeof builtin / sizeof builtin[0];
    return builtin;
}

ta_status ta_native_check_with(const ta_native_file *f,
                               const ta_native_pass *passes, size_t n,
                               ta_diags *diags)
{
    size_t before = ta_diags_count_severity(diags, TA_SEV_ERROR);
    for (size_t i = 0; i < n; i++) {
        ta_status st = passes[i].run(f, diags);
        if (st != TA_OK) return st;
    }
    return ta_diags_count_severity(diags, TA_SEV_ERROR) > before ? TA_ERR_PARSE : TA_OK;
}

ta_status ta_native_check(const ta_native_file *f, ta_diags *diags)
{
    size_t n;
    const ta_native_pass *p = ta_native_builtin_passes(&n);
    return ta_native_check_with(f, p, n, diags);
}

static ta_status builtin_window(void *ctx, const ta_native_file *w, ta_diags *diags)
{
    (void)ctx;
    return ta_native_check(w, diags);
}

ta_native_stage ta_native_builtin_stage(void)
{
    ta_native_stage s = {"builtin", NULL, builtin_window, NULL};
    return s;
}
