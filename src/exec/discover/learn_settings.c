/* learn_settings.c - a message that spells the settings it refuses
 * together: "2-byte padding (quant_padding_float_type=false) only works
 * with scale_bias_last=false". Each "name=value" that names a bool or int
 * argument says one side of the combination: the argument set to the
 * value when it has another now (what the message wants), or to another
 * value when it has this one (the setting the message blames). Either
 * change may be the one the kernel accepts; both are offered, the wanted
 * value first. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exec/discover/learn_internal.h"

/* A value as the message spells it: true/false, True/False, a whole number. */
static bool read_setting(const char *p, int64_t *v)
{
    if (!strncasecmp(p, "true", 4) && !isalnum((unsigned char)p[4])) return *v = 1, true;
    if (!strncasecmp(p, "false", 5) && !isalnum((unsigned char)p[5])) return *v = 0, true;
    char *end;
    long long n = strtoll(p, &end, 10);
    if (end == p || isalnum((unsigned char)*end)) return false;
    *v = n;
    return true;
}

void learn_settings(learner *L)
{
    for (int pass = 0; pass < 2; pass++)
        for (const char *p = strchr(L->msg, '='); p; p = strchr(p + 1, '=')) {
            if (p[1] == '=' || (p > L->msg && strchr("=!<>", p[-1]))) continue; /* a comparison */
            const char *s = p;
            while (s > L->msg && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) s--;
            int64_t v;
            if (s == p || !read_setting(p + 1, &v)) continue;
            int a = learn_arg_named(L, s, (size_t)(p - s));
            if (a < 0 || (L->m->args[a].kind != DSC_K_BOOL && L->m->args[a].kind != DSC_K_INT)) continue;
            const char *name = L->d->args[a].name;
            bool has = L->m->args[a].present && L->m->args[a].i == v;
            /* pass 0: what is wanted (another value now); pass 1: what is blamed */
            if (pass == 0 && !has) learn_addf(L, name, "%s == %lld", name, (long long)v);
            if (pass == 1 && has) learn_addf(L, name, "%s != %lld", name, (long long)v);
        }
}
