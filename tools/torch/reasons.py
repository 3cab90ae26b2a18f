#!/usr/bin/env python3
"""reasons.py - why operators were not exercised: a verify JSON report's not-exercised
operators grouped by the rejection their finding quotes.

    tensoralias verify --kernels torch --no-default-samples --format json >r.json
    python3 tools/torch/reasons.py r.json [--examples 3] [--top 40] [--ops]

A group is a message with what differs between operators blanked: numbers, quoted words,
bracketed shapes, the operator's own name. Each group is also put into a class: the ones no CPU
input can reach (a quantized, sparse, MKLDNN or CUDA tensor, a backend that is not CPU, a
composite kernel calling an operator with no CPU kernel, a feature this libtorch lacks) apart from
the ones a better input could pass. Operators verify itself found no input can run
(`not-runnable`: the dispatcher's evidence, see docs/rules.md) are counted by their reason
(the operator they call and which CPU kernels it has). Standard library only (runs under any
Python 3).
"""
import argparse
import collections
import json
import re
import sys

# Messages that say the operator cannot run on a dense CPU tensor at all: (class, pattern).
UNREACHABLE = [
    # a composite kernel (an autogen out= variant's) calling an operator with no CPU kernel
    ("no CPU kernel underneath", r"Could not run '[^']*' with arguments from the 'CPU' backend"),
    ("not built in this libtorch", r"not built with|was not compiled with|is not available in this build"),
    ("named tensors not implemented", r"is not yet supported with named tensors|"
                                      r"passed a dimname .* does not yet support this behavior"),
    ("needs inference mode / forward AD", r"InferenceMode::is_enabled\(\)|is_inference\(\)|forward[- ]mode AD"),
    ("quantized", r"quantiz|QuantizedCPU|qint|quint|qscheme|per_tensor_affine|per_channel"),
    ("sparse", r"[Ss]parse|SparseCsr|is_coalesced|coalesce|\bcsr\b|\bcsc\b|\bbsr\b|\bbsc\b|layout"),
    ("mkldnn", r"[Mm]kldnn|MKLDNN|oneDNN|opaque"),
    ("cuda/other device", r"CUDA|cuda|cudnn|miopen|MPS|Vulkan|XLA|\bmeta\b device|Meta tensor|HIP"),
    ("nested", r"[Nn]ested"),
    ("backend not CPU", r"Could not run '.*' with arguments from the '(?!CPU)\w+' backend|"
                        r"not implemented for the CPU|has no (CPU )?kernel"),
    ("abstract / autograd-only", r"abstract|only supported in autograd|derivative for .* is not implemented|"
                                 r"should not be called directly|is not implemented for|not supported on CPU"),
]


def template(msg, op):
    s = msg
    base = op.split("::")[-1].split(".")[0]
    if base:
        s = s.replace(base, "<op>")
    s = re.sub(r"\[case: .*$", "", s)
    s = re.sub(r"\{found: [^}]*\}", "", s)
    s = re.sub(r"Exception raised from.*$", "", s, flags=re.S)
    s = re.sub(r"\(originally from[^)]*\)", "", s)
    s = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'_'", s)
    s = re.sub(r"\[[^\]]*\]", "[_]", s)
    s = re.sub(r"-?\b\d+(\.\d+)?\b", "N", s)
    s = re.sub(r"\b(Float|Double|Long|Int|Half|BFloat16|Bool|Byte|Char|Short|ComplexFloat|ComplexDouble)\b",
               "<dtype>", s)
    s = re.sub(r"\s+", " ", s).strip()
    return s[:160]


def reason_of(finding_msg):
    m = re.match(r"no case was accepted \((\d+) tried\):? ?(.*)", finding_msg, flags=re.S)
    return m.group(2) if m else finding_msg


def unreachable_class(msg, op):
    # the operator's own name says nothing about why (aten::_sparse_sum.out is refused for its input)
    msg = msg.replace(op.split(".")[0], "<op>")
    for cls, pat in UNREACHABLE:
        if re.search(pat, msg):
            return cls
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report")
    ap.add_argument("--examples", type=int, default=2, help="operators shown a group")
    ap.add_argument("--top", type=int, default=40, help="groups shown")
    ap.add_argument("--ops", action="store_true", help="list every not-exercised operator with its reason")
    a = ap.parse_args()
    ops = [json.loads(l) for l in open(a.report) if l.strip()]
    with_kernel = [o for o in ops if o["verdict"] != "no-kernel"]
    exercised = [o for o in with_kernel if o["exercised"] > 0]
    unrunnable = [o for o in with_kernel if o["verdict"] == "not-runnable"]
    missing = [o for o in with_kernel if o["exercised"] == 0 and o["verdict"] != "not-runnable"]
    groups = collections.defaultdict(list)
    classes = collections.Counter()
    crashed = 0
    for o in missing:
        msgs = [f["message"] for f in o["findings"] if f["kind"] == "not-exercised"]
        if not msgs:  # a crash or timeout on every case: an error finding instead
            crashed += 1
            msgs = [o["findings"][0]["kind"] + ": " + o["findings"][0]["message"]] if o["findings"] else ["?"]
        r = reason_of(msgs[0])
        cls = unreachable_class(r, o["op"]) or "reachable?"
        classes[cls] += 1
        groups[(cls, template(r, o["op"]))].append((o["op"], r))
        if a.ops:
            print("%s\t%s\t%s" % (o["op"], cls, r[:200]))
    disc = [o.get("discovery", {}) for o in with_kernel]
    calls = sum(d.get("calls", 0) for d in disc)
    found = sum(1 for o in with_kernel if o.get("discovery", {}).get("found", 0) and o["exercised"])
    n = len(with_kernel)
    print("operators with a CPU kernel: %d; exercised: %d (%.1f%%); not exercised: %d "
          "(%d of them with an error finding instead of a rejection)" %
          (n, len(exercised), 100.0 * len(exercised) / max(n, 1), len(missing), crashed))
    runnable = n - len(unrunnable)
    print("not-runnable (verify's verdict): %d; exercised of the other %d: %.1f%%" %
          (len(unrunnable), runnable, 100.0 * len(exercised) / max(runnable, 1)))
    reach = runnable - sum(c for k, c in classes.items() if k != "reachable?")
    print("without the %d more no CPU input reaches by their messages: %d of %d exercised (%.1f%%)" %
          (runnable - reach, len(exercised), reach, 100.0 * len(exercised) / max(reach, 1)))
    print("discovery: %d calls, %d operators with a case found by it" % (calls, found))
    why = collections.Counter()
    for o in unrunnable:
        msg = o["findings"][0]["message"] if o["findings"] else "?"
        m = re.search(r"which has (.*)$", msg)
        why[m.group(1) if m else msg] += 1
        if a.ops:
            print("%s\tnot-runnable\t%s" % (o["op"], msg[:200]))
    if why:
        print("\nnot-runnable: calls an operator that has\tcount")
        for k, c in why.most_common():
            print("%s\t%d" % (k, c))
    print("\nclass\tcount")
    for k, c in classes.most_common():
        print("%s\t%d" % (k, c))
    print("\ncount\tclass\treason (template)\texamples")
    for (cls, t), members in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:a.top]:
        ex = ", ".join(m[0] for m in members[:a.examples])
        print("%d\t%s\t%s\t%s" % (len(members), cls, t, ex))
    return 0


if __name__ == "__main__":
    sys.exit(main())
