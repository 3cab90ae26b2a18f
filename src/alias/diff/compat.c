/* compat.c - torch 1.13.1's FunctionSchema::isBackwardCompatibleWith and
 * isForwardCompatibleWith (function_schema_inl.h), step for step, so that
 * the verdict and the step that decides it are torch's:
 *
 * backward (new accepts every call the old one did):
 *   same name and overload, vararg and varret; as many returns; at least
 *   as many arguments. Each return: the old one, as an Argument, is
 *   backward compatible with the new one. Each argument before the old
 *   out= arguments: the new one at the same place is backward compatible
 *   with it. The arguments the new schema adds before its out= arguments
 *   have defaults. The old out= arguments, compared with the new ones at
 *   the new out= start; a place past the end is where torch throws
 *   (std::vector::at), the verdict TA_COMPAT_RAISES.
 * Argument new backward compatible with old: same name, same N (int[2]),
 * equal alias infos; not keyword-only unless the old one was; the old type
 * a subtype of the new; when the old one had a default, the same value.
 *
 * forward (the old schema accepts every call the new one makes): the same
 * header checks without the argument count; as many out= arguments; the
 * arguments before both out= starts forward compatible (the new type a
 * subtype of the old; no default the old lacked); the new arguments before
 * the out= ones have defaults that are no list; the out= arguments forward
 * compatible, where torch's message about one that is not reads the new
 * argument at the old place, and throws when there is none. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alias/diff/diff_internal.h"
#include "schema/parser.h"

/* An argument or a return, as torch's Argument sees it. */
typedef struct slot {
    int32_t index; /* in its schema's arguments or returns */
    ta_str name;
    const ta_type *type;
    const ta_default *def; /* NULL: none */
    bool kwarg_only, is_out;
} slot;

static slot arg_slot(const ta_schema *s, uint32_t i)
{
    const ta_arg *a = &s->args[i];
    ta_alias_view v;
    ta_type_alias_view(a->type, &v);
    return (slot){(int32_t)i, a->name, a->type, a->def.kind == TA_DEFAULT_NONE_GIVEN ? NULL : &a->def,
                  a->kwarg_only, a->kwarg_only && v.present && v.write};
}

static slot ret_slot(const ta_schema *s, uint32_t i)
{
    return (slot){(int32_t)i, s->rets[i].name, s->rets[i].type, NULL, false, false};
}

/* torch's findFirstOutArg. */
static uint32_t first_out(const ta_schema *s)
{
    for (uint32_t i = 0; i < s->nargs; i++)
        if (arg_slot(s, i).is_out) return i;
    return s->nargs;
}

typedef struct verdict {
    char *why;
    size_t cap;
    ta_diff_slot at; /* the new slot the verdict stopped at */
} verdict;

static ta_compat no(verdict *v, const char *fmt, ...) TA_PRINTF(2, 3);
static ta_compat no(verdict *v, const char *fmt, ...)
{
    if (v->why && v->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->why, v->cap, fmt, ap);
        va_end(ap);
    }
    return TA_COMPAT_NO;
}

static int plen(ta_str s) { return (int)(s.len > 200 ? 200 : s.len); }

/* What the two slots are called in a sentence: "argument 'x'", "return 1". */
static void slot_name(char *buf, size_t cap, bool ret, uint32_t i, ta_str name)
{
    if (ret) snprintf(buf, cap, "return %u", i);
    else snprintf(buf, cap, "argument '%.*s'", plen(name), name.ptr ? name.ptr : "");
}

/* How two slots are compared: torch's new.isBackwardCompatibleWith(old)
 * and new.isForwardCompatibleWith(old) for arguments, and for returns
 * old.isBackwardCompatibleWith(new) (a return may become more specific). */
typedef enum mode { ARG_BC, ARG_FC, RET_BC } mode;

static ta_compat slot_compat(const ta_schema *ns, slot n, const ta_schema *os, slot o, mode m,
                             const char *what, verdict *v)
{
    v->at.index = n.index;
    v->at.is_return = m == RET_BC;
    if (!ta_str_eq_str(n.name, o.name))
        return no(v, "%s was renamed ('%.*s' -> '%.*s')", what, plen(o.name), o.name.ptr ? o.name.ptr : "",
                  plen(n.name), n.name.ptr ? n.name.ptr : "");
    if (ta_torch_arg_n(n.type) != ta_torch_arg_n(o.type))
        return no(v, "%s changed its fixed list size", what);
    if (!ta_torch_alias_equal(ns, n.type, os, o.type)) return no(v, "%s changed its alias annotation", what);
    if (m != RET_BC && n.kwarg_only && !o.kwarg_only) return no(v, "%s became keyword-only", what);
    if (m == ARG_BC ? !ta_torch_type_subtype(o.type, n.type) : !ta_torch_type_subtype(n.type, o.type))
        return no(v, m == ARG_BC ? "%s: the old type is not a subtype of the new one"
                                 : "%s: the new type is not a subtype of the old one", what);
    if (m != RET_BC && o.def && (!n.def || !ta_default_equal(n.type, n.def, o.type, o.def)))
        return no(v, n.def ? "%s changed its default" : "%s lost its default", what);
    if (m == ARG_FC && n.def && !o.def) return no(v, "%s gained a default", what);
    return TA_COMPAT_YES;
}

static ta_compat arg_compat(const ta_schema *newer, uint32_t ni, const ta_schema *older,
                            uint32_t oi, mode m, verdict *v)
{
    char what[256];
    slot_name(what, sizeof what, false, oi, older->args[oi].name);
    return slot_compat(newer, arg_slot(newer, ni), older, arg_slot(older, oi), m, what, v);
}

/* Names, vararg, varret and the number of returns. */
static ta_compat header(const ta_schema *newer, const ta_schema *older, verdict *v)
{
    v->at = (ta_diff_slot){false, -1};
    bool ns_ok = !newer->ns.len || !older->ns.len || ta_str_eq_str(newer->ns, older->ns);
    if (!ns_ok || !ta_str_eq_str(newer->name, older->name) ||
        !ta_str_eq_str(newer->overload, older->overload))
        return no(v, "the operator's name changed");
    if (newer->vararg != older->vararg || newer->varret != older->varret)
        return no(v, "'...' was added or removed");
    if (newer->nrets != older->nrets)
        return no(v, "the number of returns changed (%u -> %u)", older->nrets, newer->nrets);
    return TA_COMPAT_YES;
}

/* The arguments the new schema adds before its out= ones, [from, to). */
static ta_compat added_args(const ta_schema *newer, uint32_t from, uint32_t to, bool forward,
                            verdict *v)
{
    for (uint32_t i = from; i < to; i++) {
        const ta_arg *a = &newer->args[i];
        v->at = (ta_diff_slot){false, (int32_t)i};
        if (a->def.kind == TA_DEFAULT_NONE_GIVEN)
            return no(v, "the new argument '%.*s' has no default", plen(a->name), a->name.ptr);
        if (forward && ta_default_is_list(a->type, &a->def))
            return no(v, "the new argument '%.*s' defaults to a list", plen(a->name), a->name.ptr);
    }
    return TA_COMPAT_YES;
}

static ta_compat raises(verdict *v)
{
    v->at = (ta_diff_slot){false, -1};
    no(v, "torch 1.13.1 raises IndexError here: the old out= arguments, moved to the new "
          "out= start, run past the new arguments");
    return TA_COMPAT_RAISES;
}

static ta_compat backward(const ta_schema *newer, const ta_schema *older, verdict *v)
{
    if (header(newer, older, v) != TA_COMPAT_YES) return TA_COMPAT_NO;
    if (newer->nargs < older->nargs)
        return no(v, "arguments were removed (%u -> %u)", older->nargs, newer->nargs);
    for (uint32_t i = 0; i < newer->nrets; i++) {
        char what[64];
        slot_name(what, sizeof what, true, i, older->rets[i].name);
        if (slot_compat(newer, ret_slot(newer, i), older, ret_slot(older, i), RET_BC, what, v))
            return TA_COMPAT_NO;
    }
    uint32_t old_out = first_out(older), new_out = first_out(newer);
    for (uint32_t i = 0; i < old_out; i++)
        if (arg_compat(newer, i, older, i, ARG_BC, v)) return TA_COMPAT_NO;
    if (added_args(newer, old_out, new_out, false, v)) return TA_COMPAT_NO;
    for (uint32_t i = old_out; i < older->nargs; i++) {
        uint32_t j = i - old_out + new_out;
        if (j >= newer->nargs) return raises(v);
        if (arg_compat(newer, j, older, i, ARG_BC, v)) return TA_COMPAT_NO;
    }
    return TA_COMPAT_YES;
}

static ta_compat forward(const ta_schema *newer, const ta_schema *older, verdict *v)
{
    if (header(newer, older, v) != TA_COMPAT_YES) return TA_COMPAT_NO;
    uint32_t old_out = first_out(older), new_out = first_out(newer);
    if (older->nargs - old_out != newer->nargs - new_out)
        return no(v, "the number of out= arguments changed");
    for (uint32_t i = 0; i < old_out && i < new_out; i++)
        if (arg_compat(newer, i, older, i, ARG_FC, v)) return TA_COMPAT_NO;
    if (added_args(newer, old_out, new_out, true, v)) return TA_COMPAT_NO;
    for (uint32_t i = old_out; i < older->nargs; i++) {
        uint32_t j = i - old_out + new_out;
        if (arg_compat(newer, j, older, i, ARG_FC, v)) return i >= newer->nargs ? raises(v) : TA_COMPAT_NO;
    }
    return TA_COMPAT_YES;
}

typedef ta_compat (*judge_fn)(const ta_schema *, const ta_schema *, verdict *);

static ta_compat judge(judge_fn fn, const ta_schema *newer, const ta_schema *older, char *why,
                       size_t cap, ta_diff_slot *at)
{
    verdict v = {why, cap, {false, -1}};
    if (why && cap) why[0] = '\0';
    ta_compat c = fn(newer, older, &v);
    if (at) *at = c == TA_COMPAT_YES ? (ta_diff_slot){false, -1} : v.at;
    return c;
}

ta_compat ta_diff_backward(const ta_schema *newer, const ta_schema *older, char *why, size_t cap,
                           ta_diff_slot *at)
{
    return judge(backward, newer, older, why, cap, at);
}

ta_compat ta_diff_forward(const ta_schema *newer, const ta_schema *older, char *why, size_t cap,
                          ta_diff_slot *at)
{
    return judge(forward, newer, older, why, cap, at);
}

ta_compat ta_schema_backward_compatible(const ta_schema *newer, const ta_schema *older,
                                        char *why, size_t cap)
{
    return judge(backward, newer, older, why, cap, NULL);
}

ta_compat ta_schema_forward_compatible(const ta_schema *newer, const ta_schema *older,
                                       char *why, size_t cap)
{
    return judge(forward, newer, older, why, cap, NULL);
}

const char *ta_compat_str(ta_compat c)
{
    return c == TA_COMPAT_YES ? "yes" : c == TA_COMPAT_NO ? "no" : "raises";
}
