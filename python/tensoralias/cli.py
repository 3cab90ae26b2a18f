"""python -m tensoralias: `verify` for the operators a Python process
registers; every other command is the tensoralias command's, run as it is
(the package carries it)."""
import argparse
import os
import sys

from . import _paths
from ._runner import VerifyError
from ._verify import parse_isolate, run

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m tensoralias verify",
        description="Imports the modules (which register operators with torch.library, or load extension "
                    "libraries), then runs every matching operator registered in this process, Python kernels "
                    "included, on synthesized inputs, each operator's cases in a child process, and reports what "
                    "they did to memory that their schema does not declare. Without --ops: the operators the "
                    "imports registered.",
        epilog="Exit status: 0 no error finding outside the baseline, 1 error findings, 2 usage or input error "
               "(nothing to verify, an unreadable baseline).")
    p.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                   help="import MODULE first (repeatable)")
    p.add_argument("--load-library", action="append", default=[], metavar="LIB.so",
                   help="torch.ops.load_library(LIB.so) first (repeatable)")
    p.add_argument("--ops", action="append", default=[], metavar="PATTERN",
                   help="operators to verify (fnmatch on 'mylib::op.overload'; repeatable)")
    p.add_argument("--samples", metavar="FILE.json", help="exact arguments per operator (as the command's)")
    p.add_argument("--seed", type=lambda s: int(s, 0), default=0, help="base seed (default 0)")
    p.add_argument("--case-seed", type=lambda s: int(s, 0), help="run only the case with this seed (a finding's)")
    p.add_argument("--cases", type=int, help="synthesized cases per operator (default 40; 0: samples only)")
    p.add_argument("--timeout", type=float, help="seconds per case before the kernel is killed (default 10)")
    p.add_argument("--jobs", "-j", type=int, help="operators verified in parallel (default 1)")
    p.add_argument("--isolate", default="batch", metavar="operator|batch[:N]",
                   help="a child process per operator, or per batch of N (default batch: 32)")
    p.add_argument("--trap-writes", action="store_true", help="read-only pages on inputs that may not be written")
    p.add_argument("--strict", action="store_true", help="special-case-write findings are errors")
    p.add_argument("--format", choices=("text", "json", "sarif", "junit"), default="text",
                   help="text for people; json one object an operator a line (a baseline); sarif 2.1.0 for "
                        "code-scanning; junit XML, a testcase an operator (default text)")
    p.add_argument("--baseline", metavar="FILE.json", help="a previous --format json report: its findings do not "
                   "fail the run (they are marked in every format)")
    p.add_argument("-o", dest="output", metavar="FILE", help="write the report to FILE")
    p.add_argument("-v", "--verbose", action="store_true", help="text: every operator, not only those with "
                   "findings; and how the run used child processes (standard error)")
    return p


def _check(p, a):
    try:
        parse_isolate(a.isolate)
    except ValueError as e:
        p.error(str(e).replace("tensoralias: ", ""))
    if a.cases is not None and not 0 <= a.cases <= 1000000:
        p.error("bad --cases %d" % a.cases)
    if a.jobs is not None and not 0 < a.jobs <= 1024:
        p.error("bad --jobs %d" % a.jobs)
    if a.timeout is not None and not a.timeout > 0:
        p.error("bad --timeout %s" % a.timeout)


def _write(a, report):
    writers = {"json": report.json_lines, "sarif": report.sarif, "junit": report.junit}
    text = writers[a.format]() if a.format in writers else report.text(verbose=a.verbose)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    s = report.stats
    if a.verbose and s["children"]:
        sys.stderr.write("isolation: %s, %d child process%s\n" % (
            "batch:%d" % s["batch"] if s["batch"] > 1 else "operator", s["children"],
            "" if s["children"] == 1 else "es"))


def _show(error):
    for d in error.diagnostics:
        where = "%s:%d:%d: " % (d["source"], d["line"], d["col"]) if d["line"] else ""
        sys.stderr.write("%s%s: %s [%s]\n" % (where, d["severity"], d["message"], d["rule"]))
    sys.stderr.write("%s\n" % error)


def verify_main(argv):
    p = _parser()
    a = p.parse_args(argv)
    _check(p, a)
    try:
        report, error = run(a.ops or None, samples=a.samples, imports=a.imports, libraries=a.load_library,
                            cases=a.cases, seed=a.seed, case_seed=a.case_seed, timeout=a.timeout, jobs=a.jobs,
                            isolate=a.isolate, trap_writes=a.trap_writes, strict=a.strict, baseline=a.baseline)
    except VerifyError as e:
        report, error = None, e
    except (ImportError, OSError, RuntimeError) as e:
        sys.stderr.write("tensoralias verify: %s\n" % e)
        return EXIT_USAGE
    try:
        if report is not None:
            _write(a, report)
    except OSError as e:
        sys.stderr.write("tensoralias verify: %s\n" % e)
        return EXIT_USAGE
    if error is not None:
        _show(error)
        return EXIT_USAGE
    return EXIT_CLEAN if report.ok else EXIT_FINDINGS


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "verify":
        return verify_main(argv[1:])
    cmd = _paths.command()
    if cmd is None:
        sys.stderr.write("tensoralias: the tensoralias command is not built: only `verify` is available\n")
        return EXIT_USAGE
    sys.stdout.flush()
    os.execv(cmd, [cmd] + argv)
