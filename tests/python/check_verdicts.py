"""Checks a verification of a test module's operators against the module's
EXPECTED verdicts (pyops.py, pyops_custom.py).

    python check_verdicts.py MODULE report.jsonl   # what `--format json` printed
    python check_verdicts.py MODULE --api          # tensoralias.verify() in this process

Each operator must be reported once, with its expected verdict, and a broken
one with a finding of that kind on the expected argument, carrying a seed
and a message; every expected operator must be there. Exit 1 on a mismatch."""
import importlib
import json
import sys


def check(expected, results):
    """results: {op: (verdict, [(kind, argument, seed, message)...])}; the mismatches."""
    bad = []
    for op, (verdict, argument) in sorted(expected.items()):
        if op not in results:
            bad.append("%s: not reported" % op)
            continue
        got, findings = results[op]
        if got != verdict:
            bad.append("%s: verdict %s, expected %s %s" % (op, got, verdict, findings))
        elif verdict != "ok" and not any(k == verdict and a == argument and s and m for k, a, s, m in findings):
            bad.append("%s: no %s finding on %r with a seed and a message: %s" % (op, verdict, argument, findings))
    bad += ["%s: not expected" % op for op in results if op not in expected]
    return bad


def from_json_lines(path):
    out = {}
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            assert o["op"] not in out, "%s twice" % o["op"]
            out[o["op"]] = (o["verdict"], [(f["kind"], f["argument"], f["seed"], f["message"]) for f in o["findings"]])
    return out


def from_api(module):
    import tensoralias
    report = tensoralias.verify(imports=[module], cases=40)
    assert report.ok == all(v == "ok" for v, _ in sys.modules[module].EXPECTED.values())
    text = str(report)
    assert text.rstrip().splitlines()[-1].startswith("%d operators" % len(report)), text
    return {o.op: (o.verdict, [(f.kind, f.argument, f.seed_hex, f.message) for f in o.findings]) for o in report}


def main():
    module, source = sys.argv[1], sys.argv[2]
    results = from_api(module) if source == "--api" else from_json_lines(source)
    expected = importlib.import_module(module).EXPECTED
    bad = check(expected, results)
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("%d operators as expected" % len(expected))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
