/* verdict.c - names and default severities of verdict kinds. */
#include <string.h>

#include "tensoralias/exec.h"

static const struct {
    const char *name;
    ta_vseverity sev;
} kinds[TA_V_NKINDS] = {
    [TA_V_OK] = {"ok", TA_VSEV_NONE},
    [TA_V_UNDECLARED_MUTATION] = {"undeclared-mutation", TA_VSEV_ERROR},
    [TA_V_UNDECLARED_METADATA_MUTATION] = {"undeclared-metadata-mutation", TA_VSEV_ERROR},
    [TA_V_UNDECLARED_ALIAS] = {"undeclared-alias", TA_VSEV_ERROR},
    [TA_V_UNDECLARED_OUTPUT_ALIAS] = {"undeclared-output-alias", TA_VSEV_ERROR},
    [TA_V_VIEW_RETURNED_COPY] = {"view-returned-copy", TA_VSEV_ERROR},
    [TA_V_OUT_NOT_WRITTEN] = {"out-not-written", TA_VSEV_ERROR},
    [TA_V_OUT_NOT_RETURNED] = {"out-not-returned", TA_VSEV_ERROR},
    [TA_V_INPLACE_NOT_SELF] = {"inplace-not-self", TA_VSEV_ERROR},
    [TA_V_OUT_OF_BOUNDS] = {"out-of-bounds", TA_VSEV_ERROR},
    [TA_V_CRASH] = {"crash", TA_VSEV_ERROR},
    [TA_V_TIMEOUT] = {"timeout", TA_VSEV_ERROR},
    [TA_V_KERNEL_ERROR] = {"kernel-error", TA_VSEV_ERROR},
    [TA_V_NOT_EXERCISED] = {"not-exercised", TA_VSEV_WARNING},
    [TA_V_NO_KERNEL] = {"no-kernel", TA_VSEV_INFO},
};

const char *ta_verdict_kind_str(ta_verdict_kind k)
{
    return (unsigned)k < TA_V_NKINDS ? kinds[k].name : "?";
}

ta_vseverity ta_verdict_kind_severity(ta_verdict_kind k)
{
    return (unsigned)k < TA_V_NKINDS ? kinds[k].sev : TA_VSEV_ERROR;
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

const char *ta_vseverity_str(ta_vseverity s)
{
    switch (s) {
    case TA_VSEV_NONE: return "none";
    case TA_VSEV_INFO: return "info";
    case TA_VSEV_WARNING: return "warning";
    case TA_VSEV_ERROR: return "error";
    }
    return "none";
}
