#!/usr/bin/env python3
"""opcheck_compare.py - tensoralias against torch's own checker, on the same Python operators.

The operators are the test suite's (tests/python): pyops.py (torch.library.Library, correct and
broken, each broken one a different breach of its schema's memory contract), on torch 2.x also
pyops_custom.py (the same as torch.library.custom_op), and pyops_isolation.py (a kernel that
crashes, one that hangs). Each is checked two ways, and a markdown table says what each found:

  - torch's checker, given samples as a test author writes them (--samples of: a 3-vector, a 2x3
    matrix, a transposed 5x4 one; an out= argument an empty tensor of the input's shape; a float
    argument 2.0): torch 2.x's torch.library.opcheck with test_utils=("test_schema",) (the
    part that checks mutation and aliasing against the schema: its other tests check autograd
    and fake-tensor registration, which tensoralias does not), or in torch 1.13.1, which has no
    opcheck, SchemaCheckMode (torch.testing._internal.schema_check_mode). The operators that
    crash or hang run in a child process each, with a time limit (--timeout, 20 s), as they
    would end or block the checking process;
  - tensoralias.verify() with no samples (40 synthesized cases an operator, its defaults), in
    one call.

Then the cases per second of each: torch's checker calls over its wall time; tensoralias's cases
over the wall time of the verify() call (the runner's fork, the bridge and every child process
included; first uses, the checker's imports and the bridge's lookup, before either is timed). Run
it with the interpreter whose torch is compared:

    /usr/bin/python3 tools/torch/opcheck_compare.py                  # Debian's torch 1.13.1
    V/bin/python tools/torch/opcheck_compare.py                      # a venv's torch 2.x

It needs the package's build (make; the bridge for that torch: make TORCH=DIR for another).
"""
import argparse
import os
import subprocess
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "tests", "python"), os.path.dirname(__file__)]
os.environ.setdefault("TENSORALIAS_BUILD", os.path.join(ROOT, "build"))
warnings.simplefilter("ignore")

import torch  # noqa: E402

BREACH = {  # what each broken operator does (pyops.py, pyops_custom.py, pyops_isolation.py)
    "sneaky": "writes an input it does not declare written",
    "leaky_view": "returns a view where it declares a fresh tensor",
    "ignores_out.out": "ignores its out= (returns a new tensor)",
    "large_only": "writes its input only when it has 64 elements or more",
    "nan_only": "writes its input only when it holds a NaN",
    "copied_view": "declares a view, returns a copy",
    "reshape_in_place": "changes an undeclared input's sizes",
    "crashes": "dies of SIGSEGV",
    "hangs": "never returns",
}


def samples_for(op, n):
    """The samples a test author writes: small random tensors, the out= argument empty."""
    shapes = [lambda: torch.randn(3), lambda: torch.randn(2, 3), lambda: torch.randn(5, 4).t()][:n]
    out = []
    for make in shapes:
        x = make()
        args, kwargs = [], {}
        for a in op._schema.arguments:
            v = 2.0 if str(a.type) == "float" else torch.empty(0) if a.kwarg_only else x.clone()
            (kwargs.__setitem__(a.name, v) if a.kwarg_only else args.append(v))
        out.append((tuple(args), kwargs))
    return out


def first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0][:110]


def torch_check(op, args, kwargs):
    """None when torch's checker finds nothing, else what it says."""
    if hasattr(torch.library, "opcheck"):
        res = torch.library.opcheck(op, args, kwargs, test_utils=("test_schema",), raise_exception=False)
        return None if res["test_schema"] == "SUCCESS" else first_line(res["test_schema"])
    from schemacheck_speed import install_expecttest_stub
    install_expecttest_stub()
    from torch.testing._internal.schema_check_mode import SchemaCheckMode
    try:
        with SchemaCheckMode():
            op(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - a violation or a rejection, both reported
        return first_line(e)
    return None


def checker_name():
    return "opcheck (test_schema)" if hasattr(torch.library, "opcheck") else "SchemaCheckMode"


def overload(name):
    ns, rest = name.split("::")
    base, _, ov = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), base), ov or "default")


def run_torch(names, n):
    """{op: what torch's checker said (or None)}, calls made, seconds."""
    found, calls, t0 = {}, 0, time.perf_counter()
    for name in names:
        op = overload(name)
        found[name] = None
        for args, kwargs in samples_for(op, n):
            calls += 1
            found[name] = found[name] or torch_check(op, args, kwargs)
    return found, calls, time.perf_counter() - t0


def run_torch_alone(name, n, timeout):
    """One operator in a child process: what happened to it."""
    cmd = [sys.executable, os.path.abspath(__file__), "--one", name, "--samples", str(n)]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "the checking process hung: killed after %g s" % timeout
    if r.returncode < 0:
        return "the checking process died of signal %d" % -r.returncode
    return r.stdout.strip() or "nothing found"


def describe(result):
    cases = "%d case%s" % (result.cases, "" if result.cases == 1 else "s")
    if result.verdict == "ok":
        return "ok (%s)" % cases
    f = result.findings[0]
    arg = " (%s)" % f.argument if f.argument else ""
    return "**%s**%s (%s)" % (result.verdict, arg, cases)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=3, help="samples an operator for torch's checker (1-3)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before a hanging check is killed")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    import pyops  # noqa: F401
    import pyops_isolation
    modules = [pyops]
    if hasattr(torch.library, "custom_op"):
        import pyops_custom
        modules.append(pyops_custom)
    if a.one:
        print(run_torch([a.one], a.samples)[0][a.one] or "nothing found")
        return 0
    import tensoralias
    names = [n for m in modules for n in m.EXPECTED]
    iso = list(pyops_isolation.EXPECTED)
    # First uses (torch's checker's imports, the bridge's lookup) are not timed.
    run_torch(names[:1], 1)
    from tensoralias import _bridge
    _bridge.find()
    found, calls, secs = run_torch(names, a.samples)
    found.update((n, run_torch_alone(n, a.samples, a.timeout)) for n in iso)
    t0 = time.perf_counter()
    report = tensoralias.verify(names)
    tsecs = time.perf_counter() - t0
    iso_report = tensoralias.verify(iso, timeout=2.0)
    print("torch %s; %s with %d samples an operator; tensoralias with none (its default 40 synthesized cases)\n"
          % (torch.__version__, checker_name(), a.samples))
    print("| operator | what it does | %s | tensoralias |" % checker_name())
    print("| --- | --- | --- | --- |")
    for name in names + iso:
        short = name.split("::")[1]
        result = (report if name in names else iso_report)[name]
        print("| `%s` | %s | %s | %s |" % (name, BREACH.get(short, "correct"), found[name] or "nothing found",
                                           describe(result)))
    print("\n%s: %d calls in %.2f s = %.0f cases/s; tensoralias: %d cases in %.2f s = %.0f cases/s (%.1fx)"
          % (checker_name(), calls, secs, calls / secs, report.total_cases, tsecs, report.total_cases / tsecs,
             (report.total_cases / tsecs) / (calls / secs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
