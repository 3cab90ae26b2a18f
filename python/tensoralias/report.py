"""A verification report as Python objects.

The fields are ta_verify_report's (include/tensoralias/exec.h), copied out
of the C structures by the runner. to_json() gives exactly the object
`tensoralias verify --format json` writes for an operator (its keys, in its
order), and text() the command's text report.
"""


class Finding:
    """One finding: its verdict kind ("undeclared-mutation"...), severity
    ("error", "warning", "info"), the argument it is about ("self",
    "return 0" or ""), the case seed that replays it, and the message."""

    __slots__ = ("kind", "severity", "argument", "seed", "message")

    def __init__(self, kind, severity, argument, seed, message):
        self.kind, self.severity, self.argument, self.seed, self.message = kind, severity, argument, seed, message

    @property
    def seed_hex(self):
        return "0x%x" % self.seed

    def to_json(self):
        return {"kind": self.kind, "severity": self.severity, "argument": self.argument, "seed": self.seed_hex,
                "message": self.message}

    def __str__(self):
        arg = " (%s)" % self.argument if self.argument else ""
        return "%s: %s%s: %s [seed %s]" % (self.severity, self.kind, arg, self.message, self.seed_hex)

    def __repr__(self):
        return "Finding(%r, %r, seed=%s)" % (self.kind, self.argument, self.seed_hex)


class OpResult:
    """The outcome for one operator overload: its verdict ("ok", the worst
    finding's kind, "not-exercised" or "no-kernel"), the cases run and
    accepted, and every finding."""

    __slots__ = ("op", "verdict", "severity", "cases", "exercised", "note", "derived", "findings")

    def __init__(self, op, verdict, severity, cases, exercised, note, derived, findings):
        self.op, self.verdict, self.severity = op, verdict, severity
        self.cases, self.exercised, self.note, self.derived, self.findings = cases, exercised, note, derived, findings

    @property
    def errors(self):
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self):
        """No error finding (a not-exercised operator is a warning, not an error)."""
        return not self.errors

    def replay_hint(self, finding):
        """The command line that replays a finding's case (with the --import
        that registers the operator)."""
        return "python -m tensoralias verify --ops '%s' --case-seed %s --import MODULE" % (self.op, finding.seed_hex)

    def to_json(self):
        j = {"op": self.op, "verdict": self.verdict, "severity": self.severity, "cases": self.cases,
             "exercised": self.exercised, "findings": [f.to_json() for f in self.findings]}
        if self.derived:
            j["derived"] = True
        return j

    def text(self):
        lines = ["%s%s: %s (%d %s, %d exercised)" % (self.op, " (derived)" if self.derived else "", self.verdict,
                                                     self.cases, "case" if self.cases == 1 else "cases",
                                                     self.exercised)]
        lines += ["  %s" % f for f in self.findings]
        return "\n".join(lines)

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "OpResult(%r, %r)" % (self.op, self.verdict)


def _plural(n, one, many):
    return "%d %s" % (n, one if n == 1 else many)


class Report:
    """What a verification found: one OpResult per operator, in order
    (report["mylib::op"] finds one), the cases run and the seconds taken."""

    def __init__(self, ops, total_cases, seconds, stats, kind_order=()):
        self.ops, self.total_cases, self.seconds, self.stats = ops, total_cases, seconds, stats
        self._order = {k: i for i, k in enumerate(kind_order)}  # the engine's order of verdict kinds

    def _by_kind(self, counts):
        kinds = sorted(counts, key=lambda k: self._order.get(k, len(self._order)))
        return ", ".join("%d %s" % (counts[k], k) for k in kinds)

    @property
    def ok(self):
        """No error finding in any operator."""
        return all(o.ok for o in self.ops)

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
        import json
        return "".join(json.dumps(o.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n"
                       for o in self.ops)

    def text(self, verbose=False):
        """The command's text report: operators with a warning or an error
        (all with verbose), the findings by kind, and the summary line."""
        lines = [o.text() for o in self.ops if verbose or (o.verdict != "ok" and o.severity in ("warning", "error"))]
        kinds = {}
        for o in self.ops:
            for f in o.findings:
                if f.kind not in ("no-kernel", "not-exercised"):
                    kinds[f.kind] = kinds.get(f.kind, 0) + 1
        if kinds:
            lines.append("findings: " + self._by_kind(kinds))
        exercised = sum(1 for o in self.ops if o.exercised)
        accepted = sum(o.exercised for o in self.ops)
        s = _plural(len(self.ops), "operator", "operators")
        if exercised < len(self.ops):
            s += " (%d exercised)" % exercised
        s += ", " + _plural(self.total_cases, "case", "cases")
        if accepted < self.total_cases:
            s += " (%d not accepted)" % (self.total_cases - accepted)
        verdicts = {}
        for o in self.ops:
            verdicts[o.verdict] = verdicts.get(o.verdict, 0) + 1
        s += " in %.2f s: " % self.seconds + self._by_kind(verdicts)
        return "\n".join(lines + [s]) + "\n"

    def __str__(self):
        return self.text()

    def __repr__(self):
        return "Report(%d operators, ok=%s)" % (len(self.ops), self.ok)

    @classmethod
    def from_dict(cls, d):
        ops = [OpResult(o["op"], o["verdict"], o["severity"], o["cases"], o["exercised"], o["note"], o["derived"],
                        [Finding(**f) for f in o["findings"]]) for o in d["ops"]]
        return cls(ops, d["total_cases"], d["seconds"], d["stats"], d.get("kinds", ()))
