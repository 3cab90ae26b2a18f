"""tensoralias.verify: the operators this process registered, verified by
the engine as `tensoralias verify --torch-library` verifies a library's."""
from . import _capi, _ops, _runner



def parse_isolate(isolate):
    """'operator' -> 1, 'batch' -> 0 (the session's choice for torch's
    kernels: TA_VERIFY_BATCH), 'batch:N' -> N (the command's --isolate)."""
    if isolate == "operator":
        return 1
    if isolate == "batch":
        return 0
    if isinstance(isolate, str) and isolate.startswith("batch:") and isolate[6:].isdigit() and int(isolate[6:]) > 0:
        return int(isolate[6:])
    raise ValueError("tensoralias: isolate is 'operator', 'batch' or 'batch:N', not %r" % (isolate,))


def make_opts(cases=None, seed=0, case_seed=None, timeout=None, jobs=None, isolate="batch", trap_writes=False,
              strict=False):
    """ta_verify_opts from the command's options (None: the engine's default)."""
    o = _capi.VerifyOpts()
    o.seed = seed
    if cases is not None:
        o.cases, o.samples_only = cases, cases == 0
    if case_seed is not None:
        o.has_case_seed, o.case_seed = True, case_seed
    o.timeout = timeout or 0.0
    o.jobs = jobs or 0
    o.trap_writes, o.strict = trap_writes, strict
    o.batch = parse_isolate(isolate)
    return o


def verify(ops=None, samples=None, imports=(), libraries=(), **options):
    """Verifies operators registered in this process (Python kernels
    included) and returns a Report.

    ops: which: a pattern ("mylib::*", fnmatch on "mylib::op.overload"),
    torch.ops.mylib, torch.ops.mylib.op, torch.ops.mylib.op.default, a
    custom_op (2.x), or a list of them. None: the operators that `imports`
    (module names, imported first) and `libraries` (extension libraries,
    torch.ops.load_library'd first) registered. samples: a samples file
    (JSON, as `verify --samples` reads). options: cases, seed, case_seed,
    timeout, jobs, isolate ("operator", "batch", "batch:N"), trap_writes,
    strict, baseline (a previous JSON report whose findings do not make the
    report fail), as the command's options of those names.

    Raises VerifyError when nothing can be verified (the command's exit 2).
    """
    report, error = run(ops, samples, imports, libraries, **options)
    if report is None:
        raise error
    return report


def run(ops=None, samples=None, imports=(), libraries=(), baseline=None, **options):
    """verify()'s run: (Report or None, VerifyError or None), both when
    none of the selected operators had a kernel (the command then writes
    its report and exits 2)."""
    added = _ops.import_modules(list(imports), list(libraries))
    wanted = _ops.patterns(ops)
    if not wanted:
        if not added:
            raise _runner.VerifyError("tensoralias: no operator to verify: name some (ops=, --ops) or import "
                                      "a module that registers some")
        wanted = added
    settings = {"opts": make_opts(**options), "samples": samples, "baseline": baseline}
    # With patterns, operators without a kernel are selected too (no-kernel),
    # as with the command's --ops; without, those with a kernel.
    return _runner.run(wanted, wanted if ops is not None else [], settings)
