/* verdict.c - names, default severities and specificity of verdict kinds. */
#include <string.h>

#include "tensoralias/exec.h"

static const struct {
    const char *name;
    ta_severity sev;
} kinds[TA_V_NKINDS] = {
    [TA_V_OK] = {"ok", TA_SEV_NOTE},
    [TA_V_UNDECLARED_MUTATION] = {"undeclared-mutation", TA_SEV_ERROR},
    [TA_V_UNDECLARED_METADATA_MUTATION] = {"undeclared-metadata-mutation", TA_SEV_ERROR},
    [TA_V_UNDECLARED_ALIAS] = {"undeclared-alias", TA_SEV_ERROR},
    [TA_V_UNDECLARED_OUTPUT_ALIAS] = {"undeclared-output-alias", TA_SEV_ERROR},
    [TA_V_VIEW_RETURNED_COPY] = {"view-returned-copy", TA_SEV_ERROR},
    [TA_V_OUT_NOT_WRITTEN] = {"out-not-written", TA_SEV_ERROR},
    [TA_V_OUT_NOT_RETURNED] = {"out-not-returned", TA_SEV_ERROR},
    [TA_V_INPLACE_NOT_SELF] = {"inplace-not-self", TA_SEV_ERROR},
    [TA_V_OUT_OF_BOUNDS] = {"out-of-bounds", TA_SEV_ERROR},
    [TA_V_CRASH] = {"crash", TA_SEV_ERROR},
    [TA_V_TIMEOUT] = {"timeout", TA_SEV_ERROR},
    [TA_V_KERNEL_ERROR] = {"kernel-error", TA_SEV_ERROR},
    [TA_V_NOT_EXERCISED] = {"not-exercised", TA_SEV_WARNING},
    [TA_V_NO_KERNEL] = {"no-kernel", TA_SEV_NOTE},
    [TA_V_SCHEMA_MISMATCH] = {"schema-mismatch", TA_SEV_ERROR},
    [TA_V_SPECIAL_CASE_WRITE] = {"special-case-write", TA_SEV_WARNING},
    [TA_V_NOT_RUNNABLE] = {"not-runnable", TA_SEV_NOTE},
};

const char *ta_verdict_kind_str(ta_verdict_kind k)
{
    return (unsigned)k < TA_V_NKINDS ? kinds[k].name : "?";
}

ta_severity ta_verdict_kind_severity(ta_verdict_kind k)
{
    return (unsigned)k < TA_V_NKINDS ? kinds[k].sev : TA_SEV_ERROR;
}

bool ta_verdict_kind_parse(const char *s, ta_verdict_kind *out)
{
    for (int k = 0; k < TA_V_NKINDS; k++)
        if (!strcmp(s, kinds[k].name)) {
            *out = (ta_verdict_kind)k;
            return true;
        }
    return false;
}

/* Among findings of one severity, the one naming an operator's verdict is
 * the most specific: a return that is not the out= or inplace argument it
 * must be says more than the alias that return also makes, a write outside
 * an out= argument's view more than the elements of it it missed, and any
 * of them more than the crash a later case had; a schema the framework holds
 * with other annotations says less than what the kernel was seen doing.
 * Lower ranks are more specific. */
int ta_verdict_kind_rank(ta_verdict_kind k)
{
    static const ta_verdict_kind order[] = {
        TA_V_OUT_NOT_RETURNED, TA_V_INPLACE_NOT_SELF, TA_V_VIEW_RETURNED_COPY,
        TA_V_UNDECLARED_METADATA_MUTATION, TA_V_OUT_OF_BOUNDS, TA_V_UNDECLARED_MUTATION,
        TA_V_OUT_NOT_WRITTEN, TA_V_UNDECLARED_OUTPUT_ALIAS, TA_V_UNDECLARED_ALIAS,
        TA_V_SCHEMA_MISMATCH, TA_V_CRASH, TA_V_TIMEOUT, TA_V_KERNEL_ERROR,
        TA_V_SPECIAL_CASE_WRITE, TA_V_NOT_EXERCISED, TA_V_NOT_RUNNABLE, TA_V_NO_KERNEL,
    };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (order[i] == k) return (int)i;
    return (int)(sizeof order / sizeof *order);
}
