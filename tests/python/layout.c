/* layout.c - the sizes and field offsets of the public structures the
 * Python package declares with ctypes (python/tensoralias/_capi.py), one
 * "struct field offset" line each and "struct sizeof size";
 * tests/python/check_layout.py compares them with the package's. */
#include <stddef.h>
#include <stdio.h>

#include "tensoralias/alias.h"
#include "tensoralias/diag.h"
#include "tensoralias/exec.h"
#include "tensoralias/extract.h"
#include "tensoralias/schema.h"
#include "tensoralias/verify.h"

#define SIZE(T, name) printf("%s sizeof %zu\n", name, sizeof(T))
#define FIELD(T, name, f) printf("%s %s %zu\n", name, #f, offsetof(T, f))

int main(void)
{
    SIZE(ta_diag, "Diag");
    FIELD(ta_diag, "Diag", rule);
    FIELD(ta_diag, "Diag", hint);
    FIELD(ta_diag, "Diag", op);
    FIELD(ta_diag, "Diag", line_cut);
    SIZE(ta_finding, "Finding");
    FIELD(ta_finding, "Finding", seed);
    FIELD(ta_finding, "Finding", message);
    SIZE(ta_op_result, "OpResult");
    FIELD(ta_op_result, "OpResult", verdict);
    FIELD(ta_op_result, "OpResult", note);
    FIELD(ta_op_result, "OpResult", discovery_seconds);
    FIELD(ta_op_result, "OpResult", derived);
    FIELD(ta_op_result, "OpResult", findings);
    FIELD(ta_op_result, "OpResult", nfindings);
    SIZE(ta_verify_report, "VerifyReport");
    FIELD(ta_verify_report, "VerifyReport", seconds);
    FIELD(ta_verify_report, "VerifyReport", stats);
    SIZE(ta_verify_opts, "VerifyOpts");
    FIELD(ta_verify_opts, "VerifyOpts", timeout);
    FIELD(ta_verify_opts, "VerifyOpts", jobs);
    FIELD(ta_verify_opts, "VerifyOpts", case_seed);
    FIELD(ta_verify_opts, "VerifyOpts", discovered);
    FIELD(ta_verify_opts, "VerifyOpts", samples);
    FIELD(ta_verify_opts, "VerifyOpts", strict);
    FIELD(ta_verify_opts, "VerifyOpts", progress);
    FIELD(ta_verify_opts, "VerifyOpts", batch);
    SIZE(ta_verify_config, "VerifyConfig");
    FIELD(ta_verify_config, "VerifyConfig", torch_dir);
    FIELD(ta_verify_config, "VerifyConfig", compose);
    FIELD(ta_verify_config, "VerifyConfig", samples);
    FIELD(ta_verify_config, "VerifyConfig", run);
    FIELD(ta_verify_config, "VerifyConfig", ops);
    FIELD(ta_verify_config, "VerifyConfig", log);
    FIELD(ta_verify_config, "VerifyConfig", torch_ops);
    FIELD(ta_verify_config, "VerifyConfig", ntorch_ops);
    SIZE(ta_slot, "Slot");
    SIZE(ta_arg, "Arg");
    FIELD(ta_arg, "Arg", kwarg_only);
    FIELD(ta_arg, "Arg", span);
    SIZE(ta_ret, "Ret");
    SIZE(ta_schema, "Schema");
    FIELD(ta_schema, "Schema", args);
    FIELD(ta_schema, "Schema", nargs);
    FIELD(ta_schema, "Schema", varret);
    SIZE(ta_extract_op, "ExtractOp");
    FIELD(ta_extract_op, "ExtractOp", how);
    FIELD(ta_extract_op, "ExtractOp", parsed);
    SIZE(ta_extract_opts, "ExtractOpts");
    FIELD(ta_extract_opts, "ExtractOpts", no_git);
    FIELD(ta_extract_opts, "ExtractOpts", include_dirs);
    FIELD(ta_extract_opts, "ExtractOpts", compile_commands);
    FIELD(ta_extract_opts, "ExtractOpts", no_includes);
    return 0;
}
