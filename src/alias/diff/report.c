/* report.c - the diagnostics of a diff record, in the order a reader wants
 * them: the verdict where NEW breaks (an error, or a note when the
 * allow-list excuses it), the changes of the alias contract at their slots
 * in NEW, and a note at the overload in OLD. */
#include <stdio.h>
#include <string.h>

#include "alias/diff/diff_internal.h"

static const ta_rule_info rules[] = {
    {"diff-not-backward-compatible", TA_SEV_ERROR,
     "the new schema does not accept every call the old one did (torch's isBackwardCompatibleWith)"},
    {"diff-removed", TA_SEV_ERROR, "an overload was removed: every caller of it breaks"},
    {"diff-not-forward-compatible", TA_SEV_WARNING,
     "the old schema does not accept every call the new one makes (torch's isForwardCompatibleWith)"},
    {"diff-write-added", TA_SEV_WARNING, "an argument or return is now written ('!'): callers that reuse it see it change"},
    {"diff-write-removed", TA_SEV_WARNING, "an argument or return is no longer written"},
    {"diff-alias-added", TA_SEV_WARNING, "a slot gained an alias annotation (a return: a copy became a view)"},
    {"diff-alias-removed", TA_SEV_WARNING, "a slot lost its alias annotation (a return: a view became a copy)"},
    {"diff-alias-changed", TA_SEV_WARNING, "a slot's alias sets changed, and with them what it may alias"},
    {"diff-alias-renamed", TA_SEV_NOTE, "alias sets were renamed; what may alias what is unchanged"},
    {"diff-kind-changed", TA_SEV_WARNING, "torchgen's kind changed (functional, inplace, out, mutable, scratch, view)"},
    {"diff-default-changed", TA_SEV_WARNING, "a default value changed (as torch reads it)"},
    {"diff-added", TA_SEV_NOTE, "an overload was added"},
    {"diff-old", TA_SEV_NOTE, "where the overload was in the old version"},
    {"diff-duplicate", TA_SEV_NOTE, "an overload is defined twice on one side; the first is compared"},
    {"diff-allow-syntax", TA_SEV_ERROR, "an allow-list line is a regular expression and a date (YYYY-MM-DD)"},
    {"diff-allow-expired", TA_SEV_NOTE, "an allow-list entry has expired and is ignored"},
};

const ta_rule_info *ta_diff_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

static const ta_rule_info *rule(const char *id)
{
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!strcmp(rules[i].id, id)) return &rules[i];
    return &rules[0];
}

static ta_span slot_span(const ta_schema *s, bool ret, int32_t i)
{
    if (i < 0) return s->name_span;
    return ret ? s->rets[i].span : s->args[i].span;
}

static ta_loc at_slot(const ta_diff_side *side, const ta_diff_op *op, bool ret, int32_t i)
{
    ta_span sp = slot_span(op->schema, ret, i);
    return ta_diff_side_loc(side, op, sp.off, sp.len ? sp.len : 1);
}

static ta_status verdicts(const ta_diff_record *r, const ta_diff_side *news, const ta_diff_op *n,
                          const char *allowed_by, ta_diags *diags)
{
    ta_status st = TA_OK;
    if (r->bc != TA_COMPAT_YES) {
        ta_loc at = at_slot(news, n, r->bc_at.is_return, r->bc_at.index);
        ta_severity sev = r->allowed ? TA_SEV_NOTE : TA_SEV_ERROR;
        st = ta_diag_emit(diags, sev, &at, "diff-not-backward-compatible",
                          "'%s' is not backward compatible: %s%s%s", r->op, r->bc_why,
                          r->allowed ? "; allowed by " : "", r->allowed ? allowed_by : "");
        if (st == TA_OK) st = ta_diag_operator(diags, r->op);
    }
    if (st == TA_OK && r->fc != TA_COMPAT_YES) {
        ta_loc at = at_slot(news, n, r->fc_at.is_return, r->fc_at.index);
        st = ta_diag_warning(diags, &at, "diff-not-forward-compatible", "'%s' is not forward compatible: %s",
                             r->op, r->fc_why);
    }
    return st;
}

static ta_status items(const ta_diff_record *r, const ta_diff_side *news, const ta_diff_op *n,
                       ta_diags *diags)
{
    ta_status st = TA_OK;
    for (uint32_t k = 0; k < r->nitems && st == TA_OK; k++) {
        const ta_diff_item *it = &r->items[k];
        if (!ta_diff_what_is_alias(it->what) && it->what != TA_DW_KIND_CHANGED &&
            it->what != TA_DW_DEFAULT_CHANGED)
            continue;
        char id[64];
        snprintf(id, sizeof id, "diff-%s", ta_diff_what_str(it->what));
        const ta_rule_info *ri = rule(id);
        ta_loc at = at_slot(news, n, it->is_return, it->new_index);
        st = it->slot[0] ? ta_diag_emit(diags, ri->severity, &at, ri->id, "%s of '%s': %s", it->slot, r->op,
                                        it->detail)
                         : ta_diag_emit(diags, ri->severity, &at, ri->id, "'%s': %s", r->op, it->detail);
    }
    return st;
}

ta_status ta_diff_report(const ta_diff_record *r, const ta_diff_side *olds, const ta_diff_op *o,
                         const ta_diff_side *news, const ta_diff_op *n, const char *allowed_by,
                         ta_diags *diags)
{
    if (r->change == TA_DIFF_ADDED) {
        ta_loc at = at_slot(news, n, false, -1);
        return ta_diag_note(diags, &at, "diff-added", "'%s' was added", r->op);
    }
    if (r->change == TA_DIFF_REMOVED) {
        ta_loc at = at_slot(olds, o, false, -1);
        ta_status st = ta_diag_emit(diags, r->allowed ? TA_SEV_NOTE : TA_SEV_ERROR, &at, "diff-removed",
                                    "'%s' was removed: every caller of it breaks%s%s", r->op,
                                    r->allowed ? "; allowed by " : "", r->allowed ? allowed_by : "");
        return st == TA_OK ? ta_diag_operator(diags, r->op) : st;
    }
    size_t before = ta_diags_count(diags);
    ta_status st = verdicts(r, news, n, allowed_by, diags);
    if (st == TA_OK) st = items(r, news, n, diags);
    if (st != TA_OK || ta_diags_count(diags) == before) return st;
    ta_loc was = at_slot(olds, o, false, -1);
    return ta_diag_note(diags, &was, "diff-old", "'%s' was this in the old version", r->op);
}
