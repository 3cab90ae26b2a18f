"""The pytest plugin inside a test file: the tensoralias_verify fixture and
the tensoralias marker, on pyops.py's operators (run by
tests/cli/python_pytest.sh, which checks that every test here passes)."""
import pytest

import pyops  # noqa: F401  (registers tapy::)


def test_fixture_clean(tensoralias_verify):
    import torch
    report = tensoralias_verify([torch.ops.tapy.add_one, torch.ops.tapy.scale_.default], cases=8)
    assert [(o.op, o.verdict) for o in report] == [("tapy::add_one", "ok"), ("tapy::scale_", "ok")]


def test_what_names_operators():
    import torch
    from tensoralias import _ops
    assert _ops.patterns(torch.ops.tapy) == ["tapy::*"]
    assert _ops.patterns(torch.ops.tapy.twice) == ["tapy::twice", "tapy::twice.*"]
    assert _ops.patterns(torch.ops.tapy.twice.out) == ["tapy::twice.out"]
    assert _ops.patterns(["tapy::a*", torch.ops.tapy.add_one.default]) == ["tapy::a*", "tapy::add_one"]
    with pytest.raises(TypeError):
        _ops.patterns(42)


def test_fixture_fails_on_a_finding(tensoralias_verify):
    with pytest.raises(pytest.fail.Exception) as e:
        tensoralias_verify("tapy::sneaky", cases=8)
    text = str(e.value)
    assert "undeclared-mutation (x)" in text and "[seed 0x" in text and "--case-seed 0x" in text, text


@pytest.mark.tensoralias("tapy::add_one", cases=8)
def test_marker_clean():
    pass


@pytest.mark.xfail(strict=True, reason="tapy::leaky_view returns a view of x: the marker fails the test")
@pytest.mark.tensoralias("tapy::leaky_view", cases=8)
def test_marker_fails_on_a_finding():
    pass


@pytest.mark.xfail(strict=True, reason="the body fails first; the marker's verification is not run")
@pytest.mark.tensoralias("tapy::add_one", cases=8)
def test_marker_after_a_failing_body():
    assert False
