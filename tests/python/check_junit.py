"""Checks what the pytest plugin reported for a test module's operators
(pytest --tensoralias-import MODULE --junitxml FILE) against the module's
EXPECTED verdicts: a clean operator passed; a broken one failed, with its
finding's kind, the seed and the command that replays it; one with no
accepted case was skipped. Exit 1 on a mismatch."""
import importlib
import sys
import xml.etree.ElementTree as ET


def main():
    module, path = sys.argv[1], sys.argv[2]
    expected = importlib.import_module(module).EXPECTED
    # The item of mylib::op has the node id tensoralias::mylib::op: JUnit
    # names it op, of class tensoralias.mylib.
    cases = {c.get("classname").split(".", 1)[1] + "::" + c.get("name"): c
             for c in ET.parse(path).iter("testcase") if c.get("classname", "").startswith("tensoralias.")}
    bad = []
    for op, (verdict, argument) in sorted(expected.items()):
        c = cases.get(op)
        if c is None:
            bad.append("%s: no test item" % op)
            continue
        failure, skipped = c.find("failure"), c.find("skipped")
        text = failure.text if failure is not None else ""
        if verdict == "ok" and (failure is not None or skipped is not None):
            bad.append("%s: expected to pass" % op)
        elif verdict == "not-exercised" and skipped is None:
            bad.append("%s: expected to be skipped" % op)
        elif verdict not in ("ok", "not-exercised"):
            want = ["%s (%s)" % (verdict, argument), "[seed 0x", "replay: pytest --tensoralias-ops '%s'" % op]
            if not all(w in (text or "") for w in want):
                bad.append("%s: expected a failure showing %s, got %r" % (op, want, text))
    bad += ["%s: an item for an operator not expected" % n for n in cases if n not in expected]
    print("\n".join("FAIL: " + b for b in bad) or "%d operator items as expected" % len(expected))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
