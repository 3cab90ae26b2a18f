"""Running the engine on the operators this process registered.

verify() forks a runner: a child of this process that holds every operator
the process registered (Python kernels included), loads the libtorch
bridge into itself and calls ta_verify, which forks the children that run
the kernels, as `tensoralias verify` does. The runner sends its report
back through a pipe and exits. So the calling process is never changed:
the bridge makes libtorch fit to fork (one intra-op thread, warnings
dropped, a fixed generator seed) in the runner only, and a pytest session
goes on as it was.

The GIL: a Python kernel called through the dispatcher takes it. ctypes
releases it around ta_verify, and the runner has a single thread (fork
keeps only the one that forked, and Python's os.fork leaves the GIL free
of other threads), so the engine's children, forked from it while it
waits in C, can take it.
"""
import ctypes
import gc
import json
import os

from . import _bridge, _capi
from .report import Report


class VerifyError(Exception):
    """The run could not be made (an input error, nothing to verify): the
    command's exit status 2. .diagnostics holds the library's."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


def _strings(items):
    arr = (ctypes.c_char_p * max(1, len(items)))()
    for i, s in enumerate(items):
        arr[i] = s.encode()
    return arr


def _kind_order(lib):
    kinds, k = [], 0
    while True:
        name = _capi.text(lib.ta_verdict_kind_str(k))
        if name == "?":
            return kinds
        kinds.append(name)
        k += 1


def _copy_report(lib, rep):
    r = rep.contents
    sev = lambda s: "info" if s == _capi.TA_SEV_NOTE else _capi.text(lib.ta_severity_str(s))
    kind = lambda k: _capi.text(lib.ta_verdict_kind_str(k))
    ops = []
    for i in range(r.nops):
        o = r.ops[i]
        findings = [{"kind": kind(f.kind), "severity": sev(f.severity), "argument": _capi.text(f.argument),
                     "seed": f.seed, "message": _capi.text(f.message)}
                    for f in (o.findings[k] for k in range(o.nfindings))]
        ops.append({"op": _capi.text(o.op), "verdict": kind(o.verdict),
                    "severity": "none" if o.verdict == _capi.TA_V_OK else sev(o.severity), "cases": o.cases,
                    "exercised": o.exercised, "note": _capi.text(o.note), "derived": bool(o.derived),
                    "findings": findings})
    s = r.stats
    return {"ops": ops, "total_cases": r.total_cases, "seconds": r.seconds, "kinds": _kind_order(lib),
            "stats": {"children": s.children, "reruns": s.reruns, "timeouts_rerun": s.timeouts_rerun,
                      "cut": s.cut}}


def _fail(message, diags=None):
    return {"error": message, "diagnostics": diags.items() if diags else []}


def _load_samples(lib, reg, path, diags, opts):
    samples = ctypes.c_void_p()
    if lib.ta_samples_load(path.encode(), ctypes.byref(samples), diags.ptr) != _capi.TA_OK:
        return None
    if lib.ta_samples_check(samples, reg, path.encode(), diags.ptr) != _capi.TA_OK:
        lib.ta_samples_destroy(samples)
        return None
    opts.samples = samples
    return samples


def _warm_up(names):
    """What torch imports on the first call of a custom_op's kernel (2.x:
    its torch._disable_dynamo wrapper imports torch._dynamo, seconds of
    work), imported here once rather than in every child, where it would
    count against each case's time limit."""
    try:
        from torch._library.custom_ops import OPDEFS
    except ImportError:
        return
    if any(n.split(".")[0] in OPDEFS for n in names):
        import torch._dynamo  # noqa: F401


def _run(patterns, select, settings):
    """In the runner: the report as a dict, or {"error": ...}."""
    lib = _capi.lib()
    bridge = _bridge.find()
    diags = _capi.Diags()
    reg = ctypes.c_void_p()
    if lib.ta_registry_create(ctypes.byref(reg)) != _capi.TA_OK:
        return _fail("out of memory")
    lib.ta_registry_set_option(reg, b"torch.ops", "\n".join(patterns).encode())
    if lib.ta_registry_load_plugin(reg, bridge.encode(), diags.ptr) != _capi.TA_OK:
        return _fail("the libtorch bridge could not register the operators", diags)
    opts = settings["opts"]
    if settings.get("samples") and _load_samples(lib, reg, settings["samples"], diags, opts) is None:
        return _fail("the samples file %s cannot be used" % settings["samples"], diags)
    names = ctypes.POINTER(ctypes.c_char_p)()
    n = ctypes.c_size_t()
    globs = _strings(select)
    if lib.ta_registry_select(reg, globs, len(select), ctypes.byref(names), ctypes.byref(n)) != _capi.TA_OK:
        return _fail("out of memory")
    if n.value == 0:
        return _fail("no operator matches %s" % " ".join(select) if select else "no operator has a kernel: "
                     "nothing to verify")
    _warm_up([_capi.text(names[i]) for i in range(n.value)])
    # The children are forks of this process: a garbage collection there
    # would write to every tracked object's page (copying it), so there is
    # none (the kernels' garbage goes with the child).
    gc.freeze()
    gc.disable()
    rep = ctypes.POINTER(_capi.VerifyReport)()
    if lib.ta_verify(reg, names, n, ctypes.byref(opts), ctypes.byref(rep), diags.ptr) != _capi.TA_OK:
        return _fail("out of memory", diags)
    return _copy_report(lib, rep)


def _child(w, patterns, select, settings):
    try:
        out = _run(patterns, select, settings)
    except BaseException as e:  # anything, as a message: the parent raises it
        out = _fail("%s: %s" % (type(e).__name__, e))
    data = json.dumps(out).encode()
    while data:
        data = data[os.write(w, data):]


def run(patterns, select, settings):
    """Registers the operators patterns match, verifies those select
    matches (all with a kernel when empty) in a runner child, and returns
    the Report. Raises VerifyError when the run cannot be made."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _child(w, patterns, select, settings)
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    with os.fdopen(r, "rb") as f:
        chunks.append(f.read())
    _, status = os.waitpid(pid, 0)
    raw = b"".join(chunks)
    if not raw:
        raise VerifyError("tensoralias: the verification process died (%s)" % _describe(status))
    out = json.loads(raw)
    if "error" in out:
        raise VerifyError("tensoralias: " + out["error"], out["diagnostics"])
    return Report.from_dict(out)


def _describe(status):
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    return "exit status %d" % os.WEXITSTATUS(status)
