/* counterpart.c - functional counterparts and view inverses.
 *
 * A mutating operator's functional counterpart is found as torchgen groups
 * variants: by name ("add_" -> "add", "__iand__" -> "__and__", "mul.out" ->
 * "mul", a mutable "foo" -> "foo_functional") and then by signature (the
 * overload the IR resolves those inputs to must be functional and have the
 * same ta_schema_signature). So the operator set decides, not a table here.
 */
#include <stdio.h>
#include <string.h>

#include "alias/functionalize/functionalize_internal.h"

bool fz_op_writes(const ta_ir_op *op)
{
    for (uint32_t i = 0; i < op->schema->nargs; i++)
        if (op->args[i].write) return true;
    return false;
}

static bool is_op(const ta_schema *s, const char *name, const char *overload)
{
    return ta_str_eq(s->ns, "aten") && ta_str_eq(s->name, name) && ta_str_eq(s->overload, overload);
}

fz_view_kind fz_view_kind_of(const ta_ir_op *op)
{
    const ta_schema *s = op->schema;
    if (is_op(s, "select", "int")) return FZ_V_SELECT;
    if (is_op(s, "slice", "Tensor")) return FZ_V_SLICE;
    if (is_op(s, "diagonal", "")) return FZ_V_DIAGONAL;
    if (is_op(s, "as_strided", "")) return FZ_V_AS_STRIDED;
    if (is_op(s, "transpose", "int")) return FZ_V_TRANSPOSE;
    if (is_op(s, "t", "")) return FZ_V_T;
    if (is_op(s, "unsqueeze", "")) return FZ_V_UNSQUEEZE;
    return FZ_NOT_VIEW;
}

/* The counterpart's name for a schema of kind k, in buf. */
static bool functional_name(const ta_schema *s, ta_schema_kind k, char *buf, size_t cap)
{
    int ns = (int)s->ns.len, nl = (int)s->name.len;
    const char *name = s->name.ptr;
    int w;
    if (k == TA_KIND_INPLACE) {
        if (nl > 5 && !strncmp(name, "__i", 3) && !strncmp(name + nl - 2, "__", 2))
            w = snprintf(buf, cap, "%.*s::__%.*s", ns, s->ns.ptr, nl - 3, name + 3);
        else
            w = snprintf(buf, cap, "%.*s::%.*s", ns, s->ns.ptr, nl - 1, name);
    } else if (k == TA_KIND_OUT) {
        w = snprintf(buf, cap, "%.*s::%.*s", ns, s->ns.ptr, nl, name);
    } else if (k == TA_KIND_MUTABLE) {
        w = snprintf(buf, cap, "%.*s::%.*s_functional", ns, s->ns.ptr, nl, name);
    } else {
        return false;
    }
    return w > 0 && (size_t)w < cap;
}

static ta_status signature_text(fz_pass *p, const ta_schema *s, char *buf, size_t cap)
{
    ta_schema *sig = NULL;
    ta_status st = ta_schema_signature(p->arena, s, 0, &sig);
    if (st != TA_OK) return st;
    ta_schema_print_torchgen(sig, buf, cap);
    return TA_OK;
}

/* Whether op and its counterpart f have one torchgen signature. */
static ta_status same_signature(fz_pass *p, const ta_ir_op *op, const ta_ir_op *f, bool *same)
{
    for (uint32_t i = 0; i < p->nsig; i++)
        if (p->sig[i].op == op && p->sig[i].fop == f) {
            *same = p->sig[i].same;
            return TA_OK;
        }
    char a[1024], b[1024];
    ta_status st = signature_text(p, op->schema, a, sizeof a);
    if (st == TA_OK) st = signature_text(p, f->schema, b, sizeof b);
    if (st != TA_OK) return st;
    *same = !strcmp(a, b);
    if (p->nsig < FZ_SIG_CACHE) p->sig[p->nsig++] = (fz_sig_verdict){op, f, *same};
    return TA_OK;
}

/* The overload of kind fkind that inputs (of n) resolve to, or NULL. */
static const ta_ir_op *resolve_with(fz_pass *p, const char *fkind, ta_ir_node *n, const uint32_t *idx,
                                    uint32_t count)
{
    ta_ir_value *vals[64];
    if (count > 64) return NULL;
    for (uint32_t i = 0; i < count; i++) vals[i] = n->inputs[idx[i]];
    ir_kind_info ki = {.name = fkind, .len = (uint32_t)strlen(fkind)};
    ta_ir_node fake = {.kind = &ki, .inputs = vals, .ninputs = count};
    return ta_ir_ops_resolve(p->ops, &fake);
}

static const char *why_none(fz_pass *p, const char *fkind, const ta_schema *s)
{
    char buf[512];
    snprintf(buf, sizeof buf, "no functional counterpart: no overload of %s takes these inputs with the signature of %.*s%s%.*s",
             fkind, (int)s->full_name.len, s->full_name.ptr, s->overload.len ? "." : "",
             (int)s->overload.len, s->overload.ptr);
    return ta_arena_strndup(p->arena, buf, strlen(buf));
}

/* Which written argument node output j returns (-1: none). */
static int32_t returned_write(const ta_ir_op *op, const fz_write_plan *w, uint32_t j)
{
    if (j >= op->schema->nrets || !op->rets[j].nsets) return -1;
    for (uint32_t k = 0; k < w->nwritten; k++) {
        const ir_alias_slot *a = &op->args[w->written[k]];
        if (a->nsets && a->sets[0] == op->rets[j].sets[0]) return (int32_t)k;
    }
    return -1;
}

static ta_status fill_plan(fz_pass *p, ta_ir_node *n, const ta_ir_op *op, const ta_ir_op *f,
                           ta_schema_kind k, fz_write_plan *w)
{
    const ta_schema *s = op->schema;
    uint32_t nfresh = 0;
    for (uint32_t j = 0; j < s->nrets; j++) nfresh += op->rets[j].nsets == 0;
    w->written = ta_arena_alloc(p->arena, sizeof(uint32_t) * (s->nargs + 1));
    w->from = ta_arena_alloc(p->arena, sizeof(uint32_t) * (s->nargs + 1));
    w->out_of = ta_arena_alloc(p->arena, sizeof(int32_t) * (n->noutputs + 1));
    if (!w->written || !w->from || !w->out_of) return TA_ERR_NOMEM;
    uint32_t nout = 0;
    for (uint32_t i = 0; i < s->nargs && i < n->ninputs; i++) {
        if (!op->args[i].write) continue;
        w->written[w->nwritten] = i;
        w->from[w->nwritten] = k == TA_KIND_MUTABLE ? nfresh + w->nwritten : k == TA_KIND_OUT ? nout++ : 0;
        w->nwritten++;
    }
    w->nouts = n->noutputs;
    for (uint32_t j = 0; j < n->noutputs; j++) {
        int32_t r = returned_write(op, w, j);
        w->out_of[j] = r >= 0 ? r : (k == TA_KIND_MUTABLE && j < nfresh ? -2 - (int32_t)j : -1);
    }
    uint32_t need = 0;
    for (uint32_t i = 0; i < w->nwritten; i++) need = w->from[i] + 1 > need ? w->from[i] + 1 : need;
    return f->schema->nrets >= need ? TA_OK : TA_ERR_INVALID;
}

ta_status fz_counterpart(fz_pass *p, ta_ir_node *n, const ta_ir_op *op, fz_write_plan **out,
                         const char **why)
{
    const ta_schema *s = op->schema;
    ta_schema_kind k = ta_schema_kind_of(s);
    char fkind[256];
    *out = NULL;
    if (!functional_name(s, k, fkind, sizeof fkind)) {
        *why = k == TA_KIND_FUNCTIONAL ? "writes an argument without being an in-place, out= or mutable operator"
                                       : "a scratch operator has no functional counterpart";
        return TA_OK;
    }
    fz_write_plan *w = ta_arena_alloc(p->arena, sizeof *w);
    uint32_t *idx = ta_arena_alloc(p->arena, sizeof(uint32_t) * (n->ninputs + 1));
    if (!w || !idx) return TA_ERR_NOMEM;
    memset(w, 0, sizeof *w);
    uint32_t cnt = 0;
    for (uint32_t i = 0; i < n->ninputs; i++)
        if (!(k == TA_KIND_OUT && i < s->nargs && s->args[i].is_out)) idx[cnt++] = i;
    for (uint32_t i = 0; i < cnt; i++)
        if (idx[i] != i) {
            *why = "its out= arguments are not its last inputs";
            return TA_OK;
        }
    const ta_ir_op *f = resolve_with(p, fkind, n, idx, cnt);
    if (!f || ta_schema_kind_of(f->schema) != TA_KIND_FUNCTIONAL || fz_op_writes(f)) {
        *why = why_none(p, fkind, s);
        return *why ? TA_OK : TA_ERR_NOMEM;
    }
    bool same;
    ta_status st = same_signature(p, op, f, &same);
    if (st != TA_OK) return st;
    if (!same) {
        *why = why_none(p, fkind, s);
        return *why ? TA_OK : TA_ERR_NOMEM;
    }
    w->op = op;
    w->fkind = ta_arena_strndup(p->arena, fkind, strlen(fkind));
    w->inputs = idx;
    w->ninputs = cnt;
    w->fnrets = f->schema->nrets;
    w->fop = f;
    if (!w->fkind) return TA_ERR_NOMEM;
    st = fill_plan(p, n, op, f, k, w);
    if (st == TA_ERR_INVALID) {
        *why = why_none(p, fkind, s);
        return *why ? TA_OK : TA_ERR_NOMEM;
    }
    if (st == TA_OK) *out = w;
    return st;
}
