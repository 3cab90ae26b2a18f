"""Runs TorchScript graphs (IR text) in torch 1.13.1 and compares what they compute.

The meaning of a graph is what torch's interpreter computes with it as it
is, no pass run on it (torch._C._jit_interpret_graph: INTERPRETER). Both
executor settings are run too and held to it: torch's default executor
(DEFAULT: profiling executor, profiling mode, optimization on; three runs per
input: the first profiles, the later ones run the optimized plan) and the
plain one (PLAIN: legacy executor, profiling mode off, optimization off,
which still runs dead code elimination). Where an executor disagrees with the
interpreter on an original graph, that is torch's own miscompilation (its
alias analysis loses the alias of a loop's result with its initial value when
the loop runs zero times, and dead code elimination then drops a write to a
graph input), counted apart from anything a rewrite does.

A result is every graph output (tuples and lists flattened) and every graph
input after the call, cloned right after the call. Results are equal when
every tensor has the same shape, dtype and bits (NaN equal to NaN).
"""
import random

import torch

DEFAULT = {"profiling_executor": True, "profiling_mode": True, "optimize": True}
PLAIN = {"profiling_executor": False, "profiling_mode": False, "optimize": False}
SETTINGS = (("default", DEFAULT, 3), ("plain", PLAIN, 1))


def apply_setting(s):
    torch._C._jit_set_profiling_executor(s["profiling_executor"])
    torch._C._jit_set_profiling_mode(s["profiling_mode"])
    torch._C._get_graph_executor_optimize(s["optimize"])


def parse(text):
    return torch._C.parse_ir(text)


def flatten(v):
    if isinstance(v, (tuple, list)):
        out = []
        for e in v:
            out.extend(flatten(e))
        return out
    return [v]


def snapshot(v):
    return v.detach().clone() if isinstance(v, torch.Tensor) else v


def run_once(fn, inputs):
    """('ok', values) or ('error', first line of the message)."""
    args = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
    try:
        out = flatten(fn(*args))
    except Exception as e:  # torch raises RuntimeError and a few others
        return ("error", (str(e).strip().splitlines() or [type(e).__name__])[0])
    return ("ok", [snapshot(v) for v in out] + [snapshot(a) for a in args])


INTERPRETER = None


def run_graph(text, setting, repeats, input_sets):
    """Per input set, the results of `repeats` runs of one function made from
    text under setting (a fresh graph and function: executors keep plans);
    setting INTERPRETER: the interpreter on the graph as it is."""
    if setting is INTERPRETER:
        g = parse(text)
        fn = lambda *args: torch._C._jit_interpret_graph(g, tuple(args))  # noqa: E731
        return [[run_once(fn, ins)] for ins in input_sets]
    apply_setting(setting)
    fn = torch._C._create_function_from_graph("g", parse(text))
    return [[run_once(fn, ins) for _ in range(repeats)] for ins in input_sets]


def equal(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point():
            return bool(((a == b) | (a.isnan() & b.isnan())).all())
        return torch.equal(a, b)
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return False
    return a == b


def same_result(ra, rb):
    """Whether two run results agree (two failures agree)."""
    if ra[0] != rb[0]:
        return False
    if ra[0] == "error":
        return True
    return len(ra[1]) == len(rb[1]) and all(equal(x, y) for x, y in zip(ra[1], rb[1]))


def input_kinds(text):
    g = parse(text)
    return [str(i.type()) for i in g.inputs()]


def make_input_sets(kinds, seed, draws):
    """Every combination of the bool inputs' values, `draws` random draws of
    the tensors (4x4 floats) for each; None when an input kind is unknown."""
    nbool = sum(k == "bool" for k in kinds)
    rng = random.Random(seed)
    sets = []
    for combo in range(1 << nbool):
        for _ in range(draws):
            vals, b = [], 0
            for k in kinds:
                if k == "bool":
                    vals.append(bool(combo >> b & 1))
                    b += 1
                elif k == "int":
                    vals.append(rng.randint(0, 3))
                elif k.startswith("Tensor") or k.startswith("Float"):
                    g = torch.Generator().manual_seed(rng.randint(0, 2**31))
                    vals.append(torch.randn(4, 4, generator=g))
                else:
                    return None
            sets.append(vals)
    return sets


def compare(orig, func, input_sets):
    """The verdict on a rewrite func of orig over input_sets (see module doc):
    a dict with 'inputs' (sets run), 'refused' (sets the interpreter fails on
    with the original), 'torch_orig' (sets where an executor changes what the
    original computes), 'torch_func' (sets where an executor changes what
    the rewrite computes, the interpreter agreeing), 'ours' (sets where the
    interpreter computes something else with the rewrite, or fails), and
    'first' (what the first of ours was)."""
    r = {"inputs": len(input_sets), "refused": 0, "torch_orig": 0, "torch_func": 0, "ours": 0, "first": None}
    ref = run_graph(orig, INTERPRETER, 1, input_sets)
    fi = run_graph(func, INTERPRETER, 1, input_sets)
    execs = [(run_graph(orig, s, n, input_sets), run_graph(func, s, n, input_sets)) for _, s, n in SETTINGS]
    for i in range(len(input_sets)):
        want = ref[i][0]
        if want[0] == "error":
            r["refused"] += 1
            continue
        if any(not same_result(want, x) for eo, _ in execs for x in eo[i]):
            r["torch_orig"] += 1
        if not same_result(want, fi[i][0]):
            r["ours"] += 1
            if r["first"] is None:
                r["first"] = "bools %s: %s" % (bools_of(input_sets[i]), describe(want, fi[i][0]))
        else:
            for (name, _, _), (_, ef) in zip(SETTINGS, execs):
                bad = [x for x in ef[i] if not same_result(want, x)]
                if bad:
                    r["torch_func"] += 1
                    r.setdefault("first_torch_func", "%s executor, bools %s: %s" % (
                        name, bools_of(input_sets[i]), describe(want, bad[0])))
                    break
    return r


def bools_of(ins):
    return [v for v in ins if isinstance(v, bool)]


def describe(want, got):
    if got[0] == "error":
        return "the rewrite fails: " + got[1]
    if len(want[1]) != len(got[1]):
        return "%d values, %d expected" % (len(got[1]), len(want[1]))
    bad = [i for i, (x, y) in enumerate(zip(want[1], got[1])) if not equal(x, y)]
    return "values %s differ (outputs first, then the inputs after the call)" % bad
