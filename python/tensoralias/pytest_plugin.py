"""The pytest plugin (entry point pytest11: loaded by every pytest where the
package is installed; it imports torch only when asked to verify).

    pytest --tensoralias-ops 'mylib::*' [--tensoralias-import mylib]

adds a test item per operator: the operators the dispatcher holds that a
pattern matches (after the imports), or without --tensoralias-ops those
the imports registered. The first item to run verifies all the selected
ones in one run (children forked per batch of operators, as the command
does); each item then passes, fails with its findings (message, seed and
the command that replays the case), or is skipped when no case was
accepted or the operator has no kernel.

Inside test files:
  - the fixture `tensoralias_verify`: tensoralias_verify(ops, **options)
    verifies and fails the test on an error finding; returns the Report;
  - the marker `@pytest.mark.tensoralias(ops, **options)`: verifies ops
    after the test's body has run (which may import or register them).
"""
import fnmatch

import pytest

_OPTIONS = (("cases", int), ("seed", lambda s: int(s, 0)), ("case_seed", lambda s: int(s, 0)),
            ("timeout", float), ("jobs", int), ("isolate", str), ("baseline", str))


def pytest_addoption(parser):
    g = parser.getgroup("tensoralias", "verify operators' memory contracts with tensoralias")
    g.addoption("--tensoralias-ops", action="append", default=[], metavar="PATTERN",
                help="a test per operator matching PATTERN (fnmatch on 'mylib::op.overload'; repeatable)")
    g.addoption("--tensoralias-import", action="append", default=[], metavar="MODULE",
                help="import MODULE first; without --tensoralias-ops, its operators are verified (repeatable)")
    g.addoption("--tensoralias-samples", metavar="FILE.json", help="exact arguments per operator")
    for name, conv in _OPTIONS:
        g.addoption("--tensoralias-" + name.replace("_", "-"), type=conv, default=None,
                    help="as `tensoralias verify --%s`" % name.replace("_", "-"))


def pytest_configure(config):
    config.addinivalue_line("markers", "tensoralias(ops, **options): verify ops (a pattern, torch.ops.NS, "
                            "operators) with tensoralias after the test's body has run")


def _options(config):
    out = {}
    for name, _ in _OPTIONS:
        v = config.getoption("tensoralias_" + name)
        if v is not None:
            out[name] = v
    return out


def _replay(config, op, finding):
    imports = "".join(" --tensoralias-import %s" % m for m in config.getoption("tensoralias_import"))
    return "pytest --tensoralias-ops '%s' --tensoralias-case-seed %s%s" % (op, finding.seed_hex, imports)


def _failure_text(result, replay):
    """The operator's findings and, for each case with an error, how to replay it."""
    lines = [result.text(), ""]
    seeds = []
    for f in result.errors:
        if f.seed not in seeds:
            seeds.append(f.seed)
            lines.append("replay: " + replay(f))
    return "\n".join(lines)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """--tensoralias-import before any conftest or test module imports the
    modules, so what they register is known."""
    modules = getattr(early_config.known_args_namespace, "tensoralias_import", None)
    if modules:
        from . import _ops
        early_config._tensoralias_added = _ops.import_modules(modules)


def _selected(config):
    """The operator names to make items of, after the imports."""
    from . import _ops
    added = getattr(config, "_tensoralias_added", None)
    if added is None:
        added = _ops.import_modules(config.getoption("tensoralias_import"))
    patterns = config.getoption("tensoralias_ops")
    if not patterns:
        return added
    names = _ops.registered()
    return sorted(n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns))


class OperatorItem(pytest.Item):
    """One operator's verification."""

    def __init__(self, *, op, **kw):
        super().__init__(**kw)
        self.op = op

    def runtest(self):
        report = self.parent.report()
        result = report[self.op]
        if result.verdict == "no-kernel":
            pytest.skip("%s has no CPU kernel" % self.op)
        if not result.ok:
            raise OperatorFailed(result)
        if result.verdict == "not-exercised":
            pytest.skip("%s: no case was accepted: %s" % (self.op, result.note))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, OperatorFailed):
            return _failure_text(excinfo.value.result, lambda f: _replay(self.config, self.op, f))
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return "tensoralias", None, "tensoralias verify %s" % self.op


class OperatorFailed(Exception):
    def __init__(self, result):
        super().__init__(result.op)
        self.result = result


class OperatorCollector(pytest.Collector):
    """The operators of --tensoralias-ops / --tensoralias-import, verified
    together the first time one of them runs."""

    def __init__(self, *, ops, **kw):
        super().__init__(**kw)
        self.ops = ops
        self._report = None

    def collect(self):
        return [OperatorItem.from_parent(self, name=op, op=op) for op in self.ops]

    def report(self):
        if self._report is None:
            from . import verify
            # Those left after deselection (-k), all in one run.
            wanted = [i.op for i in self.session.items if isinstance(i, OperatorItem)]
            self._report = verify(wanted, samples=self.config.getoption("tensoralias_samples"),
                                  **_options(self.config))
        return self._report


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Adds the operators' items before -k and -m deselect (tryfirst)."""
    if not (config.getoption("tensoralias_ops") or config.getoption("tensoralias_import")):
        return
    ops = _selected(config)
    if not ops:
        raise pytest.UsageError("tensoralias: no operator matches %s" % " ".join(
            config.getoption("tensoralias_ops") or ["what --tensoralias-import registered"]))
    items.extend(OperatorCollector.from_parent(session, name="tensoralias", nodeid="tensoralias", ops=ops).collect())


@pytest.fixture
def tensoralias_verify(request):
    """tensoralias_verify(ops, **options): verifies ops, fails the test on
    an error finding (with the seeds that replay them), returns the Report."""
    def check(ops=None, **options):
        from . import verify
        report = verify(ops, **options)
        _fail_on(report)
        return report
    return check


def _fail_on(report):
    bad = [o for o in report if not o.ok]
    if bad:
        pytest.fail("\n".join(_failure_text(o, o.replay_hint) for o in bad), pytrace=False)


@pytest.hookimpl(trylast=True)
def pytest_runtest_call(item):
    """The marker: after the test's body (an earlier implementation of this
    hook runs it; when it raises, this one is not called)."""
    marker = item.get_closest_marker("tensoralias")
    if marker is None:
        return
    from . import verify
    options = dict(marker.kwargs)
    ops = marker.args[0] if marker.args else options.pop("ops", None)
    _fail_on(verify(ops, **options))
