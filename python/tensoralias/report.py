"""A verification report as Python objects.

The runner has the engine write its report (ta_verify_session_write): the
JSON lines `tensoralias verify --format json` prints, and the text report
with and without every operator. Report parses the JSON into OpResult and
Finding objects and keeps the written bytes, so json_lines() and text()
are the command's own output, and an operator's text its block of the
verbose report (a line an operator, then a line a finding).
"""
import json


class Finding:
    """One finding: its verdict kind ("undeclared-mutation"...), severity
    ("error", "warning", "info"), the argument it is about ("self",
    "return 0" or ""), the case seed that replays it, and the message."""

    __slots__ = ("kind", "severity", "argument", "seed", "message", "in_baseline", "_json", "_line")

    def __init__(self, j, line):
        self.kind, self.severity, self.argument = j["kind"], j["severity"], j["argument"]
        self.seed, self.message = int(j["seed"], 16), j["message"]
        # A finding the baseline (verify(baseline=...)) already holds.
        self.in_baseline = bool(j.get("baseline", False))
        self._json, self._line = j, line

    @property
    def seed_hex(self):
        return "0x%x" % self.seed

    def to_json(self):
        return self._json

    def __str__(self):
        return self._line

    def __repr__(self):
        return "Finding(%r, %r, seed=%s)" % (self.kind, self.argument, self.seed_hex)


class OpResult:
    """The outcome for one operator overload: its verdict ("ok", the worst
    finding's kind, "not-exercised" or "no-kernel"), the cases run and
    accepted, every finding, and a note (the first rejected case's reason)."""

    __slots__ = ("op", "verdict", "severity", "cases", "exercised", "note", "derived", "findings", "_json",
                 "_text")

    def __init__(self, j, note, block):
        self.op, self.verdict, self.severity = j["op"], j["verdict"], j["severity"]
        self.cases, self.exercised, self.derived = j["cases"], j["exercised"], j.get("derived", False)
        self.note, self._json, self._text = note, j, "\n".join(block)
        self.findings = [Finding(f, line.strip()) for f, line in zip(j["findings"], block[1:])]

    @property
    def errors(self):
        """The error findings the baseline does not hold."""
        return [f for f in self.findings if f.severity == "error" and not f.in_baseline]

    @property
    def ok(self):
        """No error finding outside the baseline (a not-exercised operator is
        a warning, not an error)."""
        return not self.errors

    def replay_hint(self, finding):
        """The command line that replays a finding's case (with the --import
        that registers the operator)."""
        return "python -m tensoralias verify --ops '%s' --case-seed %s --import MODULE" % (self.op, finding.seed_hex)

    def to_json(self):
        return self._json

    def text(self):
        return self._text

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "OpResult(%r, %r)" % (self.op, self.verdict)


def _blocks(verbose_text):
    """The verbose text report's operator blocks: a line that does not
    start with a space begins one (the findings and summary lines last)."""
    blocks = []
    for line in verbose_text.splitlines():
        if line.startswith(" ") and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


class Report:
    """What a verification found: one OpResult per operator, in order
    (report["mylib::op"] finds one), the cases run and the seconds taken."""

    def __init__(self, written):
        self._json, self._text, self._verbose = written["json"], written["text"], written["verbose"]
        self._sarif, self._junit, self._failed = written["sarif"], written["junit"], written["failed"]
        self.total_cases, self.seconds, self.stats = written["total_cases"], written["seconds"], written["stats"]
        objs = [json.loads(line) for line in self._json.splitlines()]
        self.ops = [OpResult(j, note, block) for j, note, block in zip(objs, written["notes"],
                                                                        _blocks(self._verbose))]

    @property
    def ok(self):
        """No error finding outside the baseline in any operator (the
        engine's verdict: the command's exit status 0)."""
        return not self._failed

    @property
    def findings(self):
        return [(o, f) for o in self.ops for f in o.findings]

    def __iter__(self):
        return iter(self.ops)

    def __len__(self):
        return len(self.ops)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.ops[key]
        for o in self.ops:
            if o.op == key:
                return o
        raise KeyError(key)

    def json_lines(self):
        """What `tensoralias verify --format json` prints: one object a line."""
        return self._json

    def sarif(self):
        """What `tensoralias verify --format sarif` prints (SARIF 2.1.0)."""
        return self._sarif

    def junit(self):
        """What `tensoralias verify --format junit` prints (JUnit XML)."""
        return self._junit

    def text(self, verbose=False):
        """The command's text report: operators with a warning or an error
        (all with verbose), the findings by kind, and the summary line."""
        return self._verbose if verbose else self._text

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "Report(%d operators, ok=%s)" % (len(self.ops), self.ok)
