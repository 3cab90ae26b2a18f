/* learn_locals.c - a failed check over a kernel's own locals, whose values
 * the message gives: "Check failed: T > 0 (0 vs. 0)" (TORCH_CHECK_GT and
 * glog's CHECK_GT print both sides' values), "outer_dense_size, 4 !=
 * x_offsets[0].numel() - 1, 3" (a TORCH_CHECK whose message spells each
 * side and its value, FBGEMM's habit), "but got from=1 >= to=1" (the sides'
 * values with the comparison that held: the check was its negation). A side that is a single name no
 * argument has (T, outer_dense_size) is one of the case's quantities of
 * that value: an int argument, a tensor's size or element count, or an
 * offsets-like count (a 1-D tensor's numel() - 1, as T = D_offsets.numel()
 * - 1 is), or, when none has it, the value itself. Each such reading of the check is learned as a quoted condition
 * is (learn.c), so the candidates adjust the case's own atoms. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/discover/learn_internal.h"

enum { MAX_QUANT = 24, QUANT_TEXT = 176 };

/* A check read from the message: its sides' text and values, its operator. */
typedef struct local_check {
    char lhs[160], rhs[160], op[4];
    int64_t lv, rv;
} local_check;

typedef struct quantities {
    char text[MAX_QUANT][QUANT_TEXT];
    int n;
} quantities;

static void trim_copy(char *dst, size_t cap, const char *s, const char *e)
{
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && (isspace((unsigned char)e[-1]) || e[-1] == '.')) e--;
    snprintf(dst, cap, "%.*s", (int)(e - s), s);
}

/* "Check failed: A op B (v vs. w)". */
static bool read_check_failed(const char *msg, local_check *k)
{
    static const char *const ops[] = {" == ", " != ", " <= ", " >= ", " < ", " > ", NULL};
    const char *s = strstr(msg, "Check failed: "), *vs;
    if (!s) return false;
    s += 14;
    const char *open = strstr(s, " (");
    if (!open || !(vs = strstr(open, " vs. "))) return false;
    char *end;
    k->lv = strtoll(open + 2, &end, 10);
    if (end == open + 2 || end != vs) return false;
    k->rv = strtoll(vs + 5, &end, 10);
    if (end == vs + 5 || *end != ')') return false;
    for (int i = 0; ops[i]; i++) {
        const char *o = strstr(s, ops[i]);
        if (!o || o > open) continue;
        trim_copy(k->lhs, sizeof k->lhs, s, o);
        trim_copy(k->rhs, sizeof k->rhs, o + strlen(ops[i]), open);
        trim_copy(k->op, sizeof k->op, ops[i], ops[i] + strlen(ops[i]));
        return true;
    }
    return false;
}

/* A number right after ", " that ends at end (trailing space and '.' aside): its start. */
static const char *trailing_value(const char *s, const char *end, int64_t *v)
{
    while (end > s && (isspace((unsigned char)end[-1]) || end[-1] == '.')) end--;
    const char *p = end;
    while (p > s && isdigit((unsigned char)p[-1])) p--;
    if (p > s && p[-1] == '-') p--;
    if (p == end || p - s < 3 || p[-1] != ' ' || p[-2] != ',') return NULL;
    *v = strtoll(p, NULL, 10);
    return p - 2;
}

/* "A, v != B, w": the check was A == B. */
static bool read_spelled_sides(const char *msg, local_check *k)
{
    const char *ne = strstr(msg, " != ");
    if (!ne || strstr(ne + 4, " != ")) return false;
    const char *a_end = trailing_value(msg, ne, &k->lv);
    const char *b = ne + 4, *b_end = trailing_value(b, b + strlen(b), &k->rv);
    if (!a_end || !b_end) return false;
    trim_copy(k->lhs, sizeof k->lhs, msg, a_end);
    trim_copy(k->rhs, sizeof k->rhs, b, b_end);
    snprintf(k->op, sizeof k->op, "==");
    return k->lhs[0] && k->rhs[0];
}

/* "but got from=1 >= to=1" (random_'s "expects 'from' to be less than
 * 'to'"): the values of a check's two sides, printed with the comparison
 * that held, so the check was its negation. */
static bool read_negated_sides(const char *msg, local_check *k)
{
    static const char *const held[] = {">=", "<=", "!=", "==", ">", "<", NULL};
    static const char *const wanted[] = {"<", ">", "==", "!=", "<=", ">=", NULL};
    const char *g = strstr(msg, "got ");
    for (; g; g = strstr(g + 1, "got ")) {
        const char *a = g + 4, *eq = a;
        while (isalnum((unsigned char)*eq) || *eq == '_') eq++;
        if (eq == a || *eq != '=' || eq[1] == '=') continue;
        char *end;
        k->lv = strtoll(eq + 1, &end, 10);
        if (end == eq + 1) continue;
        const char *p = end;
        while (*p == ' ') p++;
        for (int i = 0; held[i]; i++) {
            size_t n = strlen(held[i]);
            if (strncmp(p, held[i], n)) continue;
            const char *b = p + n, *beq;
            while (*b == ' ') b++;
            for (beq = b; isalnum((unsigned char)*beq) || *beq == '_';) beq++;
            if (beq == b || *beq != '=') break;
            k->rv = strtoll(beq + 1, &end, 10);
            if (end == beq + 1) break;
            trim_copy(k->lhs, sizeof k->lhs, a, eq);
            trim_copy(k->rhs, sizeof k->rhs, b, beq);
            snprintf(k->op, sizeof k->op, "%s", wanted[i]);
            return true;
        }
    }
    return false;
}

static void quant_add(quantities *q, const char *fmt, const char *name, long long x)
{
    if (q->n == MAX_QUANT) return;
    snprintf(q->text[q->n++], QUANT_TEXT, fmt, name, x);
}

/* The case's quantities of value v, the offsets-like counts first. */
static void quantities_of(const learner *L, int64_t v, quantities *q)
{
    q->n = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < L->m->nargs; i++) {
            const dsc_arg *a = &L->m->args[i];
            const char *nm = L->d->args[i].name;
            char ref[64];
            const dsc_tensor *t = a->kind == DSC_K_TENSOR ? &a->t : a->kind == DSC_K_LIST && a->n ? &a->items[0] : NULL;
            snprintf(ref, sizeof ref, "%.56s%s", nm, a->kind == DSC_K_LIST ? "[0]" : "");
            if (pass == 0 && t && t->defined && t->ndim == 1 && dsc_tensor_numel(t) - 1 == v)
                quant_add(q, "%s.numel() - 1", ref, 0);
            if (pass == 1 && a->kind == DSC_K_INT && a->present && a->i == v) quant_add(q, "%s", nm, 0);
            if (pass == 1 && (a->kind == DSC_K_LIST || a->kind == DSC_K_INTS) && a->n == v) quant_add(q, "%s.size()", nm, 0);
            if (pass != 2 || !t || !t->defined) continue;
            for (int d = 0; d < t->ndim; d++)
                if (t->shape[d] == v) quant_add(q, "%s.size(%lld)", ref, d);
            if (t->ndim != 1 && dsc_tensor_numel(t) == v) quant_add(q, "%s.numel()", ref, 0);
        }
}

/* Whether side is one name that no argument has: a kernel's local. */
static bool is_local(const learner *L, const char *side)
{
    size_t n = strlen(side);
    if (!n || !(isalpha((unsigned char)side[0]) || side[0] == '_')) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)side[i]) && side[i] != '_') return false;
    return learn_arg_named(L, side, n) < 0;
}

/* The readings of one side: its quantities when it is a local, else itself. */
static void side_readings(const learner *L, const char *side, int64_t v, quantities *q)
{
    if (is_local(L, side)) {
        quantities_of(L, v, q);
        /* None of the case's quantities has its value (a size the kernel
         * took of a view it made, outer_dense_size of y reshaped): the
         * value itself, so that the other side is made to agree. */
        if (!q->n) quant_add(q, "%s%lld", "", (long long)v);
        return;
    }
    q->n = 1;
    snprintf(q->text[0], QUANT_TEXT, "%s", side);
}

void learn_locals(learner *L)
{
    local_check k;
    if (!read_check_failed(L->msg, &k) && !read_spelled_sides(L->msg, &k) && !read_negated_sides(L->msg, &k))
        return;
    quantities *ql = malloc(sizeof *ql), *qr = malloc(sizeof *qr);
    if (ql && qr) {
        side_readings(L, k.lhs, k.lv, ql);
        side_readings(L, k.rhs, k.rv, qr);
        for (int i = 0; i < ql->n; i++)
            for (int j = 0; j < qr->n; j++) {
                char text[2 * QUANT_TEXT + 16];
                int n = snprintf(text, sizeof text, "%s %s %s", ql->text[i], k.op, qr->text[j]);
                if (n > 0 && (size_t)n < sizeof text) learn_condition_text(L, text, (size_t)n);
            }
    }
    free(ql);
    free(qr);
}
