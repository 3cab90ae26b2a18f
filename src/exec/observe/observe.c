/* observe.c - observing one verification case (see observe.h).
 *
 * Before the call: a byte copy of every input storage (out= storages are
 * known to hold TA_FILL_BYTE only and need none) and each input's geometry;
 * with trap_writes, storages no argument may write are made read-only.
 * After the call: metadata, bytes (exact: -0.0 over 0.0 counts), returns
 * and the storage each return shares, compared with the declaration:
 *   - a read-only argument changed             -> undeclared-mutation
 *   - its sizes/strides/offset changed         -> undeclared-metadata-mutation
 *   - a return shares an input's storage, the schema puts them in no common
 *     alias set                                -> undeclared-alias
 *   - two returns share storage, likewise      -> undeclared-output-alias
 *   - a view return shares no input storage    -> view-returned-copy
 *   - an out= argument with elements kept unwritten -> out-not-written
 *   - an out=/inplace return is not the argument -> out-not-returned / inplace-not-self
 * A write of the declared-written argument through a declared alias (a view
 * of it passed as another argument in the same set) is legal. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"
#include "exec/runtime/exec_internal.h"
#include "exec/observe/observe.h"

/* Outputs above this many elements are checked at TA_OUT_SAMPLES + 1 points. */
enum { TA_OUT_SCAN_MAX = 1 << 14, TA_OUT_SAMPLES = 1024 };

typedef struct snap {
    uint32_t sid;
    void *copy;      /* host copy (CPU) or device copy */
    size_t cap;      /* host buffer capacity, for reuse */
    bool on_device;
} snap;

struct ta_observer {
    ta_exec *x;
    const ta_schema *s;
    const ta_decl *d;
    ta_kernel_fn fn;
    void *ud;
    bool trap;
    ta_finding_fn emit;
    void *emit_ud;
    ta_case c;
    snap snaps[TA_CASE_MAX_SLOTS];
    int nsnaps;
    uint32_t protected_ids[TA_CASE_MAX_SLOTS];
    int nprotected;
    size_t protect_min; /* read-only pages instead of a copy from this size (0: never) */
    void (*hook)(void *, const ta_case *, const ta_decl *);
    void *hook_ud;
    unsigned char *cur_host; /* host copy of a device storage after the call */
    size_t cur_cap;
    ta_diags *call_diags; /* what ta_exec_call says of a failed call */
    char note[1024];      /* the last case's rejection or synthesis message */
    char before[700];     /* the case's arguments as they were before the call, or "" */
    ta_kernel_fn screen;  /* the operator's screen (ta_register_screen), or NULL */
    void *screen_ud;
    bool screened;        /* the last case was refused by the screen alone */
    volatile uint32_t *screening; /* 1 while the screen runs (ta_observer_set_screen_flag), or NULL */
    bool cannot_run;      /* the last case was refused as no input could run it (ta_kernel_cannot_run) */
};

ta_observer *ta_observer_create(ta_exec *x, const ta_schema *s, const ta_decl *d, ta_kernel_fn fn,
                                void *user_data, unsigned flags, ta_finding_fn emit, void *emit_ud)
{
    ta_observer *ck = ta_calloc(1, sizeof *ck);
    if (!ck) return NULL;
    *ck = (ta_observer){.x = x, .s = s, .d = d, .fn = fn, .ud = user_data,
                        .trap = (flags & TA_OBSERVE_TRAP_WRITES) && x->dev->type == kDLCPU,
                        .emit = emit, .emit_ud = emit_ud};
    if (ta_diags_create(&ck->call_diags) != TA_OK) {
        free(ck);
        return NULL;
    }
    return ck;
}

const char *ta_observer_note(const ta_observer *ck) { return ck->note; }

/* The message of the failed call just made, into the note. */
static const char *take_call_message(ta_observer *ck, ta_status s)
{
    size_t n = ta_diags_count(ck->call_diags);
    snprintf(ck->note, sizeof ck->note, "%s",
             n ? ta_diags_get(ck->call_diags, n - 1)->message : s == TA_OK ? "" : ta_status_str(s));
    ta_diags_clear(ck->call_diags);
    return ck->note;
}

void ta_observer_destroy(ta_observer *ck)
{
    if (!ck) return;
    for (int i = 0; i < TA_CASE_MAX_SLOTS; i++) {
        snap *sn = &ck->snaps[i];
        /* A snapshot kept on the device goes back to the device that made it. */
        if (sn->on_device) {
            if (sn->copy) ck->x->dev->release(sn->copy);
        } else {
            free(sn->copy);
        }
    }
    free(ck->cur_host);
    ta_diags_destroy(ck->call_diags);
    free(ck);
}

void ta_observer_set_protect_min(ta_observer *ck, size_t bytes) { ck->protect_min = bytes; }

void ta_observer_set_hook(ta_observer *ck, void (*fn)(void *, const ta_case *, const ta_decl *),
                         void *ud)
{
    ck->hook = fn;
    ck->hook_ud = ud;
}

void ta_observer_set_screen(ta_observer *ck, ta_kernel_fn fn, void *ud)
{
    ck->screen = fn;
    ck->screen_ud = ud;
}

void ta_observer_set_screen_flag(ta_observer *ck, volatile uint32_t *flag) { ck->screening = flag; }

bool ta_observer_screened(const ta_observer *ck) { return ck->screened; }

bool ta_observer_cannot_run(const ta_observer *ck) { return ck->cannot_run; }

/* The screen's verdict on the case built: true when it refuses it (the
 * reason in the note). It cannot tell, or accepts: the kernel runs. */
static bool screened_out(ta_observer *ck)
{
    ta_exec *x = ck->x;
    x->ctx.user_data = ck->screen_ud;
    x->ctx.has_error = false;
    x->ctx.error[0] = '\0';
    if (ck->screening) *ck->screening = 1;
    ta_status s = ck->screen(&x->ctx, x->stack);
    if (ck->screening) *ck->screening = 0;
    if (s != TA_ERR_KERNEL || !x->ctx.has_error) return false;
    snprintf(ck->note, sizeof ck->note, "%s", x->ctx.error);
    return true;
}

const char *ta_observer_case_text(const ta_observer *ck) { return ck->before; }

const ta_case *ta_observer_case(const ta_observer *ck) { return &ck->c; }
const ta_decl *ta_observer_decl(const ta_observer *ck) { return ck->d; }

/* ---- geometry ---------------------------------------------------------- */

int64_t ta_elem_offset(const DLTensor *t, int64_t i)
{
    int64_t off = 0;
    int64_t st[64];
    ta_strides_of(t, st);
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        if (n <= 0) break;
        off += (i % n) * st[d];
        i /= n;
    }
    return (int64_t)t->byte_offset + off * (int64_t)ta_dtype_size(t->dtype);
}

int64_t ta_elem_at_offset(const DLTensor *t, int64_t off)
{
    int64_t n = ta_numel(t), es = (int64_t)ta_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) {
        int64_t o = ta_elem_offset(t, i);
        if (off >= o && off < o + es) return i;
    }
    return -1;
}

static bool same_geometry(const DLTensor *a, const DLTensor *b)
{
    if (a->ndim != b->ndim || a->byte_offset != b->byte_offset || a->data != b->data ||
        !ta_dtype_eq(a->dtype, b->dtype))
        return false;
    int64_t sa[64], sb[64];
    if (a->ndim > 64) return false;
    ta_strides_of(a, sa);
    ta_strides_of(b, sb);
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && sa[d] != sb[d])) return false;
    return true;
}

static void describe_geometry(const DLTensor *t, ta_strbuf *o)
{
    int64_t st[64];
    if (t->ndim > 64 || t->ndim < 0) {
        ta_strbuf_printf(o, "ndim %d", t->ndim);
        return;
    }
    ta_strides_of(t, st);
    ta_strbuf_puts(o, "sizes [");
    for (int d = 0; d < t->ndim; d++) ta_strbuf_printf(o, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
    ta_strbuf_puts(o, "] strides [");
    for (int d = 0; d < t->ndim; d++) ta_strbuf_printf(o, "%s%lld", d ? ", " : "", (long long)st[d]);
    ta_strbuf_printf(o, "] offset %llu", (unsigned long long)t->byte_offset);
}

static void format_value(DLDataType dt, const unsigned char *p, char *buf, size_t cap)
{
    if (dt.code == kDLFloat && dt.bits == 32) {
        float f;
        memcpy(&f, p, 4);
        snprintf(buf, cap, "%g", (double)f);
    } else if (dt.code == kDLFloat && dt.bits == 64) {
        double f;
        memcpy(&f, p, 8);
        snprintf(buf, cap, "%g", f);
    } else if (dt.code == kDLInt && dt.bits == 64) {
        int64_t v;
        memcpy(&v, p, 8);
        snprintf(buf, cap, "%lld", (long long)v);
    } else if (dt.code == kDLInt && dt.bits == 32) {
        int32_t v;
        memcpy(&v, p, 4);
        snprintf(buf, cap, "%d", v);
    } else {
        size_t n = 0, es = ta_dtype_size(dt);
        n += (size_t)snprintf(buf, cap, "0x");
        for (size_t i = 0; i < es && n + 3 < cap; i++) n += (size_t)snprintf(buf + n, cap - n, "%02x", p[i]);
    }
}

/* ---- findings ---------------------------------------------------------- */

static void emit(ta_observer *ck, ta_verdict_kind k, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void emit(ta_observer *ck, ta_verdict_kind k, const char *arg, const char *fmt, ...)
{
    ta_finding f = {.kind = k, .severity = ta_verdict_kind_severity(k), .seed = ck->c.seed};
    snprintf(f.argument, sizeof f.argument, "%s", arg ? arg : "");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(f.message, sizeof f.message, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n + 16 < sizeof f.message) {
        size_t k = (size_t)n;
        k += (size_t)snprintf(f.message + k, sizeof f.message - k, " [case: ");
        /* what the caller passed, not what a restriding kernel left */
        if (k < sizeof f.message && ck->before[0])
            snprintf(f.message + k, sizeof f.message - k - 1, "%s", ck->before);
        else if (k < sizeof f.message)
            ta_case_describe(&ck->c, ck->d, f.message + k, sizeof f.message - k - 1);
        k = strlen(f.message);
        if (k + 1 < sizeof f.message) strcpy(f.message + k, "]");
    }
    if (ck->emit) ck->emit(ck->emit_ud, &f);
}

static const char *slot_name(const ta_observer *ck, const ta_case_slot *sl, char *buf, size_t cap)
{
    if (sl->item >= 0) snprintf(buf, cap, "%s[%d]", ck->d->args[sl->arg].name, sl->item);
    else snprintf(buf, cap, "%s", ck->d->args[sl->arg].name);
    return buf;
}

/* ---- snapshots --------------------------------------------------------- */

static snap *find_snap(ta_observer *ck, uint32_t sid)
{
    for (int i = 0; i < ck->nsnaps; i++)
        if (ck->snaps[i].sid == sid) return &ck->snaps[i];
    return NULL;
}

static bool storage_writable(const ta_observer *ck, uint32_t sid)
{
    for (int j = 0; j < ck->c.nslots; j++)
        if (ck->c.slots[j].storage == sid && ck->d->args[ck->c.slots[j].arg].write) return true;
    return false;
}

static bool is_protected(const ta_observer *ck, uint32_t sid)
{
    for (int j = 0; j < ck->nprotected; j++)
        if (ck->protected_ids[j] == sid) return true;
    return false;
}

/* Whether storage sid (of bytes) needs no snapshot: only written
 * arguments are on it and one's view covers every byte of it, so no change
 * to it can be a finding (check_storage_writes looks for changes to a
 * read-only argument's elements and outside every written view). */
static bool written_whole(const ta_observer *ck, uint32_t sid, size_t bytes)
{
    bool whole = false;
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        if (sl->storage != sid) continue;
        if (!ck->d->args[sl->arg].write) return false;
        const DLTensor *t = &sl->before;
        if (t->byte_offset == 0 && ta_is_contiguous(t) &&
            (uint64_t)ta_numel(t) * ta_dtype_size(t->dtype) == bytes)
            whole = true;
    }
    return whole;
}

static ta_status take_snapshots(ta_observer *ck)
{
    ta_exec *x = ck->x;
    ck->nsnaps = 0;
    char err[256];
    for (int i = 0; i < ck->c.nslots; i++) {
        ta_case_slot *sl = &ck->c.slots[i];
        if (sl->fill && x->dev->type == kDLCPU) continue; /* content known: all TA_FILL_BYTE */
        if (find_snap(ck, sl->storage) || is_protected(ck, sl->storage)) continue;
        ta_storage_info si;
        if (!ta_exec_storage_get(x, sl->storage, &si)) return TA_ERR_INVALID;
        if (written_whole(ck, sl->storage, si.bytes)) continue;
        /* A large storage nobody may write: read-only pages catch any write
         * (in a child, whose fault handler reports it) for the price of two
         * mprotect calls instead of a copy and a comparison. */
        if (ck->protect_min && si.bytes >= ck->protect_min && x->dev->type == kDLCPU &&
            !storage_writable(ck, sl->storage) && ta_exec_protect(x, sl->storage, true) == TA_OK) {
            ck->protected_ids[ck->nprotected++] = sl->storage;
            continue;
        }
        snap *sn = &ck->snaps[ck->nsnaps];
        if (sn->on_device && sn->copy) {
            x->dev->release(sn->copy);
            sn->copy = NULL;
            sn->cap = 0;
        }
        sn->sid = sl->storage;
        if (x->dev->type == kDLCPU) {
            sn->on_device = false;
            if (sn->cap < si.bytes || !sn->copy) {
                free(sn->copy);
                sn->cap = si.bytes ? si.bytes : 1;
                if (!(sn->copy = ta_malloc(sn->cap))) return TA_ERR_NOMEM;
            }
            if (si.bytes) memcpy(sn->copy, si.base, si.bytes);
        } else {
            free(sn->on_device ? NULL : sn->copy);
            sn->on_device = true;
            sn->cap = 0;
            if (!(sn->copy = x->dev->alloc(si.bytes, err, sizeof err))) return TA_ERR_NOMEM;
            if (si.bytes && x->dev->copy(sn->copy, si.base, si.bytes, err, sizeof err) != 0)
                return TA_ERR_IO;
        }
        ck->nsnaps++;
    }
    return TA_OK;
}

/* Host views of a snapshot and of the storage now. */
static ta_status host_views(ta_observer *ck, snap *sn, const unsigned char **before,
                            const unsigned char **after, size_t *bytes)
{
    ta_exec *x = ck->x;
    ta_storage_info si;
    ta_exec_storage_get(x, sn->sid, &si);
    *bytes = si.bytes;
    if (!sn->on_device) {
        *before = sn->copy;
        *after = si.base;
        return TA_OK;
    }
    size_t need = 2 * si.bytes + 1;
    if (ck->cur_cap < need) {
        free(ck->cur_host);
        if (!(ck->cur_host = ta_malloc(need))) return TA_ERR_NOMEM;
        ck->cur_cap = need;
    }
    char err[256];
    if (x->dev->to_host(ck->cur_host, sn->copy, si.bytes, err, sizeof err) != 0 ||
        x->dev->to_host(ck->cur_host + si.bytes, si.base, si.bytes, err, sizeof err) != 0)
        return TA_ERR_IO;
    *before = ck->cur_host;
    *after = ck->cur_host + si.bytes;
    return TA_OK;
}

/* ---- the checks -------------------------------------------------------- */

/* t's geometry, and what else of its metadata differs between the slot's
 * tensor before the call and after it, so the two descriptions never read
 * the same: its dtype, and the storage it views (sid; 0: not the engine's).
 * A storage's size is the one it has now. */
static void describe_metadata(ta_observer *ck, const ta_case_slot *sl, const DLTensor *t,
                              uint32_t sid, bool after, char *buf, size_t cap)
{
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, buf, cap);
    describe_geometry(t, &o);
    if (!ta_dtype_eq(sl->before.dtype, sl->t->dtype)) ta_strbuf_printf(&o, " %s", ta_dtype_name(t->dtype));
    bool same = ta_exec_storage_of(ck->x, sl->t) == sl->storage;
    if ((same && sl->before.data == sl->t->data) || o.len >= cap) return;
    ta_storage_info si;
    if (!sid || !ta_exec_storage_get(ck->x, sid, &si)) {
        if (after) ta_strbuf_puts(&o, " in memory the engine does not know");
        return;
    }
    if (!after)
        ta_strbuf_printf(&o, " in a storage of %zu bytes", si.bytes);
    else if (!same)
        ta_strbuf_printf(&o, " in another storage of %zu bytes", si.bytes);
    else
        ta_strbuf_printf(&o, " in the same storage, moved (%zu bytes)", si.bytes);
}

/* The kernel left t past its storage's end (ta_kernel_bad_geometry): an
 * out-of-bounds finding on the argument t is, whatever it may write. */
static void report_bad_geometry(ta_observer *ck, const DLTensor *t, const char *why)
{
    char name[96] = "";
    for (int i = 0; i < ck->c.nslots; i++)
        if (ck->c.slots[i].t == t) slot_name(ck, &ck->c.slots[i], name, sizeof name);
    emit(ck, TA_V_OUT_OF_BOUNDS, name, "%s", why);
}

static void check_metadata(ta_observer *ck)
{
    for (int i = 0; i < ck->c.nslots; i++) {
        ta_case_slot *sl = &ck->c.slots[i];
        const ta_decl_slot *a = &ck->d->args[sl->arg];
        if (a->write) continue;
        if (same_geometry(&sl->before, sl->t) && ta_exec_storage_of(ck->x, sl->t) == sl->storage)
            continue;
        char name[96], was[300], now[300];
        describe_metadata(ck, sl, &sl->before, sl->storage, false, was, sizeof was);
        describe_metadata(ck, sl, sl->t, ta_exec_storage_of(ck->x, sl->t), true, now, sizeof now);
        emit(ck, TA_V_UNDECLARED_METADATA_MUTATION, slot_name(ck, sl, name, sizeof name),
             "argument '%s' is not declared written, but its metadata changed: %s -> %s", name, was,
             now);
    }
}

/* Whether byte off of storage sid lies in the range of a written argument
 * that the slot may alias by declaration. */
static bool covered_by_writer(const ta_observer *ck, const ta_case_slot *sl, int64_t off)
{
    const ta_decl_slot *a = &ck->d->args[sl->arg];
    for (int j = 0; j < ck->c.nslots; j++) {
        const ta_case_slot *w = &ck->c.slots[j];
        const ta_decl_slot *wa = &ck->d->args[w->arg];
        if (w->storage != sl->storage || !wa->write || !ta_decl_may_alias(ck->d, a, wa)) continue;
        uint64_t lo, hi;
        ta_tensor_byte_range(&w->before, &lo, &hi);
        if ((uint64_t)off >= lo && (uint64_t)off < hi) return true;
    }
    return false;
}

/* undeclared-mutation of a read-only argument: the first element of one
 * on the storage that changed, unless a written argument it may alias
 * covers it. true when reported. */
static bool report_readonly_change(ta_observer *ck, uint32_t sid, const unsigned char *before,
                                   const unsigned char *after, size_t bytes)
{
    for (int i = 0; i < ck->c.nslots; i++) {
        ta_case_slot *sl = &ck->c.slots[i];
        if (sl->storage != sid || ck->d->args[sl->arg].write) continue;
        int64_t n = ta_numel(&sl->before), es = (int64_t)ta_dtype_size(sl->before.dtype);
        for (int64_t e = 0; e < n; e++) {
            int64_t off = ta_elem_offset(&sl->before, e);
            if (off < 0 || off + es > (int64_t)bytes) break;
            if (!memcmp(before + off, after + off, (size_t)es)) continue;
            if (covered_by_writer(ck, sl, off)) continue;
            char name[96], was[64], now[64];
            format_value(sl->before.dtype, before + off, was, sizeof was);
            format_value(sl->before.dtype, after + off, now, sizeof now);
            emit(ck, TA_V_UNDECLARED_MUTATION, slot_name(ck, sl, name, sizeof name),
                 "argument '%s' is not declared written (no '!'), but element %lld of %lld "
                 "changed from %s to %s",
                 name, (long long)e, (long long)n, was, now);
            return true;
        }
    }
    return false;
}

/* undeclared-mutation outside every written view: a byte of storage sid
 * (before: NULL when it held TA_FILL_BYTE only) that changed though no
 * written argument's elements cover it. Named after a written argument on
 * the storage when there is one (the kernel wrote outside its view), else
 * after the first argument there. */
static void report_outside_views(ta_observer *ck, uint32_t sid, const unsigned char *before,
                                 const unsigned char *after, size_t bytes)
{
    int64_t b = ta_first_uncovered_change(ck->x, &ck->c, ck->d, sid, before, after, bytes);
    if (b < 0) return;
    const ta_case_slot *who = NULL;
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        if (sl->storage != sid) continue;
        if (!who || (ck->d->args[sl->arg].write && !ck->d->args[who->arg].write)) who = sl;
    }
    if (!who) return;
    char name[96], geo[200];
    slot_name(ck, who, name, sizeof name);
    int64_t es = (int64_t)ta_dtype_size(who->before.dtype);
    if (!ck->d->args[who->arg].write) {
        emit(ck, TA_V_UNDECLARED_MUTATION, name,
             "argument '%s' is not declared written, but byte %lld of its storage (outside its "
             "view) changed",
             name, (long long)b);
        return;
    }
    ta_strbuf o;
    ta_strbuf_init_fixed(&o, geo, sizeof geo);
    describe_geometry(&who->before, &o);
    emit(ck, TA_V_UNDECLARED_MUTATION, name,
         "argument '%s' is declared written, but the kernel changed byte %lld of its storage "
         "(storage element %lld), which is outside its view (%s) and every other written view",
         name, (long long)b, (long long)(es ? b / es : b), geo);
}

/* Out= storages held TA_FILL_BYTE only (no snapshot): only the bytes of
 * written views may have changed. */
static void check_fill_storages(ta_observer *ck)
{
    ta_exec *x = ck->x;
    if (x->dev->type != kDLCPU) return;
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        bool first = true;
        for (int j = 0; j < i; j++)
            if (ck->c.slots[j].storage == sl->storage) first = false;
        ta_storage_info si;
        if (!sl->fill || !first || find_snap(ck, sl->storage) || !ta_exec_storage_get(x, sl->storage, &si))
            continue;
        report_outside_views(ck, sl->storage, NULL, si.base, si.bytes);
    }
}

static void check_storage_writes(ta_observer *ck)
{
    ta_exec *x = ck->x;
    for (int k = 0; k < ck->nsnaps; k++) {
        snap *sn = &ck->snaps[k];
        ta_storage_info si;
        ta_exec_storage_get(x, sn->sid, &si);
        size_t first = SIZE_MAX;
        char err[256];
        if (sn->on_device) {
            if (x->dev->compare(sn->copy, si.base, si.bytes, &first, err, sizeof err) != 0) continue;
        } else if (si.bytes && memcmp(sn->copy, si.base, si.bytes) != 0) {
            first = 0;
        }
        if (first == SIZE_MAX) continue;
        const unsigned char *before, *after;
        size_t bytes;
        if (host_views(ck, sn, &before, &after, &bytes) != TA_OK) continue;
        if (!report_readonly_change(ck, sn->sid, before, after, bytes))
            report_outside_views(ck, sn->sid, before, after, bytes);
    }
    check_fill_storages(ck);
}

/* Index of the first element of t (on the host at base) still all
 * TA_FILL_BYTE, or -1; *written counts the others. A contiguous tensor is
 * scanned as an array of its element type (this runs on every out= argument
 * of every case, so it has to be as fast as a copy). */
static int64_t first_unwritten(const DLTensor *t, const unsigned char *base, int64_t *written)
{
    int64_t n = ta_numel(t), es = (int64_t)ta_dtype_size(t->dtype), first = -1, unwritten = 0;
    unsigned char fill[16];
    memset(fill, TA_FILL_BYTE, sizeof fill);
    *written = 0;
    if (es > 16 || n <= 0) return -1;
    if (n > TA_OUT_SCAN_MAX) {
        /* Large outputs: evenly spaced samples and the last element, so the
         * check costs the same whatever the size (a full scan would cost a
         * pass over the output, about what the kernel itself spends). */
        bool contiguous = ta_is_contiguous(t);
        for (int64_t k = 0; k <= TA_OUT_SAMPLES; k++) {
            int64_t i = k == TA_OUT_SAMPLES ? n - 1 : k * (n / TA_OUT_SAMPLES);
            int64_t off = contiguous ? (int64_t)t->byte_offset + i * es : ta_elem_offset(t, i);
            if (memcmp(base + off, fill, (size_t)es)) (*written)++;
            else if (first < 0) first = i;
        }
        return first;
    }
    if (ta_is_contiguous(t)) {
        const unsigned char *p = base + t->byte_offset;
        /* Count first (a loop the compiler vectorizes), locate only if needed. */
        if (es == 4) {
            uint32_t f32;
            memcpy(&f32, fill, 4);
            for (int64_t i = 0; i < n; i++) {
                uint32_t v;
                memcpy(&v, p + 4 * i, 4);
                unwritten += v == f32;
            }
            for (int64_t i = 0; unwritten && i < n && first < 0; i++)
                if (!memcmp(p + 4 * i, fill, 4)) first = i;
        } else if (es == 8) {
            uint64_t f64;
            memcpy(&f64, fill, 8);
            for (int64_t i = 0; i < n; i++) {
                uint64_t v;
                memcpy(&v, p + 8 * i, 8);
                unwritten += v == f64;
            }
            for (int64_t i = 0; unwritten && i < n && first < 0; i++)
                if (!memcmp(p + 8 * i, fill, 8)) first = i;
        } else {
            for (int64_t i = 0; i < n; i++)
                if (!memcmp(p + es * i, fill, (size_t)es)) {
                    if (first < 0) first = i;
                    unwritten++;
                }
        }
        *written = n - unwritten;
        return first;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t off = ta_elem_offset(t, i);
        if (memcmp(base + off, fill, (size_t)es)) (*written)++;
        else if (first < 0) first = i;
    }
    return first;
}

static void check_out_written(ta_observer *ck)
{
    ta_exec *x = ck->x;
    if (ck->d->contents_unspecified) return;
    for (int i = 0; i < ck->c.nslots; i++) {
        ta_case_slot *sl = &ck->c.slots[i];
        if (!ck->d->args[sl->arg].is_out || !sl->fill) continue;
        DLTensor *t = sl->t;
        int64_t n = ta_numel(t);
        if (n <= 0) continue;
        uint32_t sid = ta_exec_storage_of(x, t);
        ta_storage_info si;
        if (!ta_exec_storage_get(x, sid, &si)) continue;
        const unsigned char *base = si.base;
        unsigned char *tmp = NULL;
        if (x->dev->type != kDLCPU) {
            char err[256];
            if (!(tmp = ta_malloc(si.bytes ? si.bytes : 1))) continue;
            if (x->dev->to_host(tmp, si.base, si.bytes, err, sizeof err) != 0) {
                free(tmp);
                continue;
            }
            base = tmp;
        }
        DLTensor h = *t;
        h.data = NULL;
        int64_t written;
        int64_t first = first_unwritten(&h, base, &written);
        free(tmp);
        if (first < 0) continue;
        char name[96];
        slot_name(ck, sl, name, sizeof name);
        if (written == 0 && n > TA_OUT_SCAN_MAX)
            emit(ck, TA_V_OUT_NOT_WRITTEN, name,
                 "out= argument '%s' (%lld elements): none of %d evenly spaced elements was written",
                 name, (long long)n, TA_OUT_SAMPLES + 1);
        else if (written == 0)
            emit(ck, TA_V_OUT_NOT_WRITTEN, name,
                 "out= argument '%s' (%lld elements) was not written at all", name, (long long)n);
        else
            emit(ck, TA_V_OUT_NOT_WRITTEN, name,
                 "out= argument '%s': element %lld of %lld was not written (%lld were)", name,
                 (long long)first, (long long)n, (long long)written);
    }
}

typedef struct out_t {
    DLTensor *t;
    int ret;  /* return index */
    int item; /* list item, or -1 */
    uint32_t storage;
    uint64_t lo, hi;
} out_t;

static void out_name(const out_t *o, char *buf, size_t cap)
{
    if (o->item >= 0) snprintf(buf, cap, "return %d[%d]", o->ret, o->item);
    else snprintf(buf, cap, "return %d", o->ret);
}

/* Collects the returned tensors; false (after a kernel-error finding) when
 * the returns do not match the schema. */
static bool collect_outputs(ta_observer *ck, out_t *outs, int *nouts, int cap)
{
    ta_exec *x = ck->x;
    ta_stack *st = x->stack;
    const ta_decl *d = ck->d;
    *nouts = 0;
    if (!ck->s->varret && (int)ta_stack_size(st) != d->nrets) {
        emit(ck, TA_V_KERNEL_ERROR, "", "the kernel left %zu values on the stack; the schema returns %d",
             ta_stack_size(st), d->nrets);
        return false;
    }
    for (int r = 0; r < d->nrets && r < (int)ta_stack_size(st); r++) {
        ta_value *v = ta_stack_at(st, (size_t)r);
        const ta_decl_slot *rs = &d->rets[r];
        DLTensor *single[1];
        DLTensor **items = NULL;
        size_t n = 0;
        if (rs->type == TA_DT_TENSOR) {
            if (v->tag == TA_VAL_NONE && rs->optional) continue;
            if (v->tag != TA_VAL_TENSOR || !v->u.tensor) {
                emit(ck, TA_V_KERNEL_ERROR, "", "return %d is declared a Tensor but is not one", r);
                return false;
            }
            single[0] = v->u.tensor;
            items = single;
            n = 1;
        } else if (rs->type == TA_DT_TENSOR_LIST) {
            if (v->tag != TA_VAL_TENSOR_LIST) {
                emit(ck, TA_V_KERNEL_ERROR, "", "return %d is declared a Tensor[] but is not one", r);
                return false;
            }
            items = v->u.tensors.items;
            n = v->u.tensors.n;
        }
        for (size_t k = 0; k < n; k++) {
            DLTensor *t = items[k];
            if (!t) continue;
            ta_tensor_rec *rec = ta_exec_rec_of(x, t);
            uint32_t sid = rec ? rec->storage : 0;
            ta_storage_info si;
            if (sid && ta_exec_storage_get(x, sid, &si) && t->data != si.base)
                sid = ta_exec_storage_at(x, t->data); /* the kernel moved t->data itself */
            if (!sid) {
                emit(ck, TA_V_KERNEL_ERROR, "",
                     "return %d%s is a tensor the engine did not allocate (kernels must make "
                     "tensors with ta_kernel_empty/view)",
                     r, rs->type == TA_DT_TENSOR_LIST ? " (an item)" : "");
                return false;
            }
            if (*nouts >= cap) return true;
            out_t *o = &outs[(*nouts)++];
            o->t = t;
            o->ret = r;
            o->item = rs->type == TA_DT_TENSOR_LIST ? (int)k : -1;
            o->storage = sid;
            ta_tensor_byte_range(t, &o->lo, &o->hi);
        }
    }
    return true;
}

static const ta_case_slot *arg_slot(const ta_observer *ck, int arg)
{
    for (int i = 0; i < ck->c.nslots; i++)
        if (ck->c.slots[i].arg == arg && ck->c.slots[i].item < 0) return &ck->c.slots[i];
    return NULL;
}

/* Whether the case itself put an argument the return may alias on storage
 * sid: then the return overlapping the other arguments on it (views of one
 * another, as a sample may make them) is the case's doing, not the kernel's. */
static bool storage_of_aliasable_arg(const ta_observer *ck, const ta_decl_slot *rs, uint32_t sid)
{
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        if ((sl->storage == sid || ta_exec_storage_of(ck->x, sl->t) == sid) &&
            ta_decl_may_alias(ck->d, rs, &ck->d->args[sl->arg]))
            return true;
    }
    return false;
}

/* undeclared-alias: a return shares an input's storage (before or after
 * the call) though the schema puts them in no common alias set. One finding
 * per return, for the first such input. */
static void check_input_sharing(ta_observer *ck, const out_t *o)
{
    const ta_decl *d = ck->d;
    const ta_decl_slot *rs = &d->rets[o->ret];
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        uint32_t now = ta_exec_storage_of(ck->x, sl->t);
        if (o->storage != sl->storage && o->storage != now) continue;
        if (ta_decl_may_alias(d, rs, &d->args[sl->arg])) continue;
        if (storage_of_aliasable_arg(ck, rs, o->storage)) continue;
        char on[32], an[96];
        out_name(o, on, sizeof on);
        slot_name(ck, sl, an, sizeof an);
        uint64_t lo, hi;
        ta_tensor_byte_range(&sl->before, &lo, &hi);
        emit(ck, TA_V_UNDECLARED_ALIAS, an,
             "%s shares storage with argument '%s' (return bytes [%llu, %llu), argument bytes "
             "[%llu, %llu)), but the schema declares no alias between them",
             on, an, (unsigned long long)o->lo, (unsigned long long)o->hi, (unsigned long long)lo,
             (unsigned long long)hi);
        return;
    }
}

/* undeclared-output-alias: two returns (or two items of one list return)
 * share storage the schema does not let them share. */
static void check_output_sharing(ta_observer *ck, const out_t *p, const out_t *q)
{
    const ta_decl *d = ck->d;
    if (p->storage != q->storage) return;
    const ta_decl_slot *rp = &d->rets[p->ret], *rq = &d->rets[q->ret];
    if (p->ret == q->ret ? rp->annotated : ta_decl_may_alias(d, rp, rq)) return;
    char pn[32], qn[32];
    out_name(p, pn, sizeof pn);
    out_name(q, qn, sizeof qn);
    emit(ck, TA_V_UNDECLARED_OUTPUT_ALIAS, qn,
         "%s and %s share storage (bytes [%llu, %llu) and [%llu, %llu)), but the schema "
         "declares no alias between them",
         pn, qn, (unsigned long long)p->lo, (unsigned long long)p->hi, (unsigned long long)q->lo,
         (unsigned long long)q->hi);
}

/* out-not-returned / inplace-not-self: return o is declared to be argument
 * ai (an out= or inplace return), so it must be that very tensor (or one of
 * the same geometry over its storage). */
static void check_returned_argument(ta_observer *ck, const out_t *o, int ai)
{
    const ta_decl *d = ck->d;
    const ta_case_slot *sl = arg_slot(ck, ai);
    if (!sl) return;
    uint32_t arg_storage = ta_exec_storage_of(ck->x, sl->t);
    if (o->t == sl->t || (o->storage == arg_storage && same_geometry(o->t, sl->t))) return;
    bool out = d->args[ai].is_out;
    char on[32];
    out_name(o, on, sizeof on);
    emit(ck, out ? TA_V_OUT_NOT_RETURNED : TA_V_INPLACE_NOT_SELF, d->args[ai].name,
         "%s is declared to be argument '%s' (%s), but the kernel returned %s", on,
         d->args[ai].name, out ? "out=" : "inplace",
         o->storage == arg_storage ? "another view of its storage" : "a tensor over other storage");
}

/* view-returned-copy: return o is declared a view (an alias set shared with
 * read-only inputs), so it must share storage with one of them. true when
 * it was reported. */
static bool check_view_shares(ta_observer *ck, const out_t *o, int r)
{
    const ta_decl *d = ck->d;
    bool shares = false, any_input = false;
    for (int i = 0; i < ck->c.nslots; i++) {
        const ta_case_slot *sl = &ck->c.slots[i];
        const ta_decl_slot *a = &d->args[sl->arg];
        if (a->write || !(a->sets & d->rets[r].sets)) continue;
        any_input = true;
        if (o->storage == sl->storage) shares = true;
    }
    if (!any_input || shares) return false;
    char on[32];
    out_name(o, on, sizeof on);
    emit(ck, TA_V_VIEW_RETURNED_COPY, on,
         "%s is declared a view of its input (alias set shared, not written), but it shares no "
         "storage with it: the kernel returned a copy",
         on);
    return true;
}

/* What the returns share, and whether the returns that must be an argument
 * or a view are. */
static void check_outputs(ta_observer *ck, const out_t *outs, int nouts)
{
    const ta_decl *d = ck->d;
    for (int k = 0; k < nouts; k++) check_input_sharing(ck, &outs[k]);
    for (int a = 0; a < nouts; a++)
        for (int b = a + 1; b < nouts; b++) check_output_sharing(ck, &outs[a], &outs[b]);
    for (int r = 0; r < d->nrets; r++) {
        const out_t *o = NULL;
        for (int k = 0; k < nouts; k++)
            if (outs[k].ret == r && outs[k].item < 0) o = &outs[k];
        if (d->ret_is_arg[r] >= 0 && o) check_returned_argument(ck, o, d->ret_is_arg[r]);
        if (!d->ret_is_view[r] || d->may_copy) continue;
        for (int k = 0; k < nouts; k++)
            if (outs[k].ret == r && check_view_shares(ck, &outs[k], r)) break;
    }
}

/* out-of-bounds before a storage's start: the CPU device's header right
 * before the data of every storage (the kernel's own included) must be
 * intact; a write just before element 0 damages it. */
static void check_before_starts(ta_observer *ck)
{
    ta_exec *x = ck->x;
    if (x->dev != ta_exec_device_cpu()) return;
    for (uint32_t id = 1; id <= (uint32_t)x->nst; id++) {
        if (ta_cpu_header_intact(x->st[id - 1].base)) continue;
        const char *who = NULL;
        for (int i = 0; i < ck->c.nslots && !who; i++)
            if (ck->c.slots[i].storage == id) who = ck->d->args[ck->c.slots[i].arg].name;
        if (who)
            emit(ck, TA_V_OUT_OF_BOUNDS, who,
                 "write before the start of argument '%s' (the bytes right before its storage "
                 "changed)",
                 who);
        else
            emit(ck, TA_V_OUT_OF_BOUNDS, "",
                 "write before the start of a tensor the kernel allocated (the bytes right "
                 "before its storage changed)");
    }
}

/* ---- one case ---------------------------------------------------------- */

static void protect_inputs(ta_observer *ck)
{
    for (int i = 0; i < ck->c.nslots; i++) {
        uint32_t sid = ck->c.slots[i].storage;
        bool writable = false, seen = false;
        for (int j = 0; j < ck->c.nslots; j++)
            if (ck->c.slots[j].storage == sid && ck->d->args[ck->c.slots[j].arg].write) writable = true;
        for (int j = 0; j < ck->nprotected; j++)
            if (ck->protected_ids[j] == sid) seen = true;
        if (writable || seen) continue;
        if (ta_exec_protect(ck->x, sid, true) == TA_OK) ck->protected_ids[ck->nprotected++] = sid;
    }
}

static void unprotect_inputs(ta_observer *ck)
{
    for (int j = 0; j < ck->nprotected; j++) ta_exec_protect(ck->x, ck->protected_ids[j], false);
    ck->nprotected = 0;
}

ta_case_outcome ta_observer_run(ta_observer *ck, uint64_t seed, const ta_case_source *from)
{
    ta_exec *x = ck->x;
    bool strict = from && from->strict;
    ta_exec_reset(x);
    /* Which storages lie against a guard page at their front (one in four),
     * so that a kernel reaching before an element 0 faults in some cases
     * (a write just before a storage at the back breaks its checked header). */
    x->placement = ta_mix64(seed ^ 0x5bd1e9955bd1e995ull) & ta_mix64(seed ^ 0x2545f4914f6cdd1dull);
    ck->note[0] = ck->before[0] = '\0';
    ck->screened = ck->cannot_run = false;
    ta_status s = from && from->build ? from->build(from->ud, x, ck->s, ck->d, seed, &ck->c)
                                      : ta_synth_case(x, ck->s, ck->d, seed, &ck->c);
    if (s != TA_OK) {
        snprintf(ck->note, sizeof ck->note, "%s", ck->c.note[0] ? ck->c.note : ta_status_str(s));
        if (strict) emit(ck, TA_V_KERNEL_ERROR, "", "sample could not be built: %s", ck->note);
        return TA_CASE_UNSYNTH;
    }
    ck->c.seed = seed;
    ta_case_describe(&ck->c, ck->d, ck->before, sizeof ck->before);
    if (ck->hook) ck->hook(ck->hook_ud, &ck->c, ck->d);
    if (from && from->screen && ck->screen && (ck->screened = screened_out(ck))) return TA_CASE_REJECTED;
    ck->nprotected = 0;
    if (take_snapshots(ck) != TA_OK) {
        snprintf(ck->note, sizeof ck->note, "cannot snapshot the inputs");
        return TA_CASE_UNSYNTH;
    }
    if (ck->trap) protect_inputs(ck);
    s = ta_exec_call(x, ck->fn, ck->ud, ck->call_diags);
    unprotect_inputs(ck);
    const char *why = s != TA_OK || x->device_lost ? take_call_message(ck, s) : "";

    /* A rejected call still must not have touched what it may not write. */
    check_metadata(ck);
    if (x->device_lost) {
        /* The device's context is dead: comparing storage would only fail
         * in turn. The fault is this case's verdict. */
        emit(ck, TA_V_KERNEL_ERROR, "", "%s", why);
        return TA_CASE_DEVICE_LOST;
    }
    check_storage_writes(ck);
    check_before_starts(ck);
    if (s != TA_OK && ta_exec_bad_geometry(x)) {
        report_bad_geometry(ck, ta_exec_bad_geometry(x), why);
        return TA_CASE_RAN;
    }
    if (s != TA_OK) {
        ck->cannot_run = ta_exec_cannot_run(x);
        if (strict && !ck->cannot_run) emit(ck, TA_V_KERNEL_ERROR, "", "the kernel rejected a sample: %s", why);
        return TA_CASE_REJECTED;
    }
    out_t outs[TA_CASE_MAX_SLOTS];
    int nouts;
    if (collect_outputs(ck, outs, &nouts, TA_CASE_MAX_SLOTS)) {
        check_outputs(ck, outs, nouts);
        check_out_written(ck);
    }
    return TA_CASE_RAN;
}
