"""Running the engine on the operators this process registered.

verify() forks a runner: a child of this process that holds every operator
the process registered (Python kernels included). It runs a verify session
(tensoralias/verify.h) whose torch_ops are the patterns: the session finds
(or builds) the libtorch bridge for the torch this process imported and
loads it, and the bridge registers the matching operators of this
process's dispatcher; ta_verify_session_run forks the children that run the
kernels, as `tensoralias verify` does. The runner sends the report the
engine wrote (JSON lines and text) back through a pipe and exits. So the
calling process is never changed: the bridge makes libtorch fit to fork
(one intra-op thread, warnings dropped, a fixed generator seed) in the
runner only, and a pytest session goes on as it was.

The GIL: a Python kernel called through the dispatcher takes it. ctypes
releases it around the session's calls, and the runner has a single
thread (fork keeps only the one that forked, and Python's os.fork leaves
the GIL free of other threads), so the engine's children, forked from it
while it waits in C, can take it.
"""
import ctypes
import fnmatch
import gc
import json
import os
import sys

from . import _capi
from .report import Report


class VerifyError(Exception):
    """The run could not be made (an input error, nothing to verify): the
    command's exit status 2. .diagnostics holds the library's."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


def _strings(items, keep):
    arr = (ctypes.c_char_p * max(1, len(items)))(*[s.encode() for s in items])
    keep.append(arr)
    return arr


@_capi.LOG_FN
def _log(ud, output, line):
    """The session's words while it sets up (a bridge being built)."""
    sys.stderr.write("%s%s\n" % ("" if output else "tensoralias: ", _capi.text(line)))
    sys.stderr.flush()


def _config(patterns, select, settings, keep):
    """The session's configuration: the process's operators that patterns
    match, through the bridge for the torch imported; select among them
    (none: every one with a kernel)."""
    import torch
    c = _capi.VerifyConfig()
    c.run = settings["opts"]
    c.torch_ops, c.ntorch_ops = _strings(patterns, keep), len(patterns)
    c.ops, c.nops = _strings(select, keep), len(select)
    c.torch_dir = os.path.dirname(os.path.abspath(torch.__file__)).encode()
    c.samples = settings["samples"].encode() if settings.get("samples") else None
    c.baseline = settings["baseline"].encode() if settings.get("baseline") else None
    c.log = _log
    return c


def _written(lib, s, fmt, verbose):
    """The report as the engine writes it in a format, as a str."""
    chunks = []

    def take(ud, data, n):
        chunks.append(ctypes.string_at(data, n))
        return 0

    if lib.ta_verify_session_write(s, fmt, verbose, _capi.WRITE_FN(take), None) != _capi.TA_OK:
        raise MemoryError("tensoralias: the report could not be written")
    return b"".join(chunks).decode("utf-8", "replace")


def _report(lib, s):
    """What the runner sends back of the session's report."""
    r = lib.ta_verify_session_report(s).contents
    st = r.stats
    return {"json": _written(lib, s, _capi.TA_VERIFY_JSON, False),
            "text": _written(lib, s, _capi.TA_VERIFY_TEXT, False),
            "verbose": _written(lib, s, _capi.TA_VERIFY_TEXT, True),
            "sarif": _written(lib, s, _capi.TA_VERIFY_SARIF, False),
            "junit": _written(lib, s, _capi.TA_VERIFY_JUNIT, False),
            "failed": bool(lib.ta_verify_session_failed(s)),
            "notes": [_capi.text(r.ops[i].note) for i in range(r.nops)],
            "total_cases": r.total_cases, "seconds": r.seconds,
            "stats": {"children": st.children, "reruns": st.reruns, "timeouts_rerun": st.timeouts_rerun,
                      "cut": st.cut, "batch": lib.ta_verify_session_opts(s).contents.batch}}


def _error(diags, status):
    """Why the session failed: its last error diagnostic, and them all."""
    items = diags.items()
    errors = [d["message"] for d in items if d["severity"] == "error"]
    message = errors[-1] if errors else _capi.text(_capi.lib().ta_status_str(status))
    return {"error": message, "diagnostics": items}


def _warm_up(patterns):
    """What torch imports on the first call of a custom_op's kernel (2.x:
    its torch._disable_dynamo wrapper imports torch._dynamo, seconds of
    work), imported here once rather than in every child, where it would
    count against each case's time limit."""
    try:
        from torch._library.custom_ops import OPDEFS
    except ImportError:
        return
    if any(fnmatch.fnmatchcase(n, p) for n in OPDEFS for p in patterns):
        import torch._dynamo  # noqa: F401


def _run(patterns, select, settings):
    """In the runner: {"report": ..., "error": ...}, either or both."""
    lib = _capi.lib()
    keep = []
    config = _config(patterns, select, settings, keep)
    s = ctypes.c_void_p()
    with _capi.Diags() as diags:
        st = lib.ta_verify_session_create(ctypes.byref(config), ctypes.byref(s), diags.ptr)
        if st != _capi.TA_OK:
            return _error(diags, st)
        try:
            _warm_up(patterns)
            # The children are forks of this process: a garbage collection
            # there would write to every tracked object's page (copying it),
            # so there is none (the kernels' garbage goes with the child).
            gc.freeze()
            gc.disable()
            st = lib.ta_verify_session_run(s, diags.ptr)
            out = {"report": _report(lib, s)} if lib.ta_verify_session_report(s) else {}
            if st != _capi.TA_OK:
                out.update(_error(diags, st))
            return out
        finally:
            lib.ta_verify_session_destroy(s)


def _child(w, patterns, select, settings):
    try:
        out = _run(patterns, select, settings)
    except BaseException as e:  # anything, as a message: the parent raises it
        out = {"error": "%s: %s" % (type(e).__name__, e), "diagnostics": []}
    data = json.dumps(out).encode()
    while data:
        data = data[os.write(w, data):]


def run(patterns, select, settings):
    """Registers the operators patterns match, verifies those select
    matches (all with a kernel when empty) in a runner child, and returns
    (Report or None, VerifyError or None): a report, an error, or both when
    none of the selected operators had a kernel."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            _child(w, patterns, select, settings)
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        raw = f.read()
    _, status = os.waitpid(pid, 0)
    if not raw:
        return None, VerifyError("tensoralias: the verification process died (%s)" % _describe(status))
    out = json.loads(raw)
    report = Report(out["report"]) if "report" in out else None
    error = VerifyError("tensoralias: " + out["error"], out["diagnostics"]) if "error" in out else None
    return report, error


def _describe(status):
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    return "exit status %d" % os.WEXITSTATUS(status)
