#!/usr/bin/python3
"""export_opinfo_samples.py - a samples corpus from PyTorch's own OpInfo sample inputs.

Walks torch.testing._internal.common_methods_invocations.op_db (PyTorch 1.13.1, CPU, dtypes
float32, float64, int64, int32 and bool where an OpInfo supports them, requires_grad off) and
runs every sample input in its functional, in-place (OpInfo.inplace_variant) and out= form
(an out= tensor of the result's size, and an empty one that the kernel must resize). A
TorchDispatchMode records every ATen call each run makes, with its exact arguments: these are
the calls ATen's kernels receive. Each run happens twice: normally, where
CompositeImplicitAutograd operators have already been decomposed when the mode sees them,
and under inference_mode, where the mode sees the operator the Python API called
(aten::linear, aten::flatten.using_ints) before any decomposition.

Each recorded call becomes a sample (see src/exec/synth/samples.c for the format): tensors by
geometry (shape, dtype, strides, storage offset, shared storages), scalars and lists as they
were passed. Tensor values are stored only where they matter: a sample is first tried with
the values the engine generates itself; if torch rejects it, with generated values in the
range of the originals; then with the original values of integer and bool tensors (indices,
masks); then with every original value. Every sample written was built here exactly as the
engine builds it (tools/torch/samplelib.py) and ran in torch without an error. What cannot
be represented (complex, sparse or quantized tensors, other devices, named dimensions,
arguments of other types) is dropped and counted.

    /usr/bin/python3 tools/torch/export_opinfo_samples.py -o tests/data/opinfo/samples.json
    xz -9e tests/data/opinfo/samples.json

Needs torch 1.13.1 (Debian's python3-torch). The torch.testing._internal modules import
expecttest, which Debian does not package: a stub with what they use is installed below.
"""
import argparse
import collections
import fnmatch
import json
import math
import os
import pickle
import sys
import time
import types
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

import samplelib  # noqa: E402

DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool]
MAX_DIM = 8               # TA_CASE_MAX_DIM
MAX_ELEMS = 1 << 24       # the loader's limit on sizes, strides, offsets, elements
MAX_LIST = 16             # tensors in a Tensor[] argument
MAX_INT_LIST = 64
MAX_ARGS = 64
MAX_TENSORS = 160         # TA_CASE_MAX_SLOTS
MAX_STORED_VALUES = 4096  # per sample, when values must be stored


def install_expecttest_stub():
    """torch.testing._internal.common_utils imports expecttest (not in Debian)."""
    if "expecttest" in sys.modules:
        return
    try:
        import expecttest  # noqa: F401
        return
    except ImportError:
        pass
    m = types.ModuleType("expecttest")
    m.ACCEPT = False
    m.TestCase = unittest.TestCase
    m.expectedFailure = unittest.expectedFailure
    sys.modules["expecttest"] = m


class Drop(Exception):
    """A call the engine cannot represent; the message is the reason, counted in the report."""


# ---- encoding one call ------------------------------------------------------------------------

def bind(schema, args, kwargs):
    """Every schema argument's value: given positionally, by keyword, or its default."""
    out = []
    pos = [a for a in schema.arguments if not a.kwarg_only]
    if len(args) > len(pos):
        raise Drop("more positional arguments than the schema has")
    for i, a in enumerate(schema.arguments):
        if not a.kwarg_only and i < len(args):
            out.append((a, args[i]))
        elif a.name in kwargs:
            out.append((a, kwargs[a.name]))
        elif a.has_default_value():
            out.append((a, a.default_value))
        else:
            raise Drop("argument without a value")
    return out


def storage_key(t):
    s = t.storage()
    ptr = s.data_ptr()
    return (ptr, s.nbytes()) if ptr else None


class CallEncoder:
    """Turns one call's arguments into a sample; remembers the tensors for values."""

    def __init__(self):
        self.tensors = []      # (object, tensor, argument)
        self.storage_of = {}   # storage key -> list of objects

    def tensor(self, t, a):
        if t.layout != torch.strided:
            raise Drop("layout %s" % str(t.layout).replace("torch.", ""))
        if t.device.type != "cpu":
            raise Drop("device %s" % t.device.type)
        if t.is_quantized:
            raise Drop("quantized tensor")
        if t.dtype not in samplelib.NAME_OF:
            raise Drop("dtype %s" % str(t.dtype).replace("torch.", ""))
        if t.has_names():
            raise Drop("named dimensions")
        if t.dim() > MAX_DIM:
            raise Drop("more than %d dimensions" % MAX_DIM)
        if t.is_neg() or t.is_conj():
            raise Drop("negative or conjugate bit")
        shape, strides, off = list(t.shape), list(t.stride()), t.storage_offset()
        if any(s > MAX_ELEMS for s in shape) or any(s < 0 or s > MAX_ELEMS for s in strides) \
                or off > MAX_ELEMS or t.numel() > MAX_ELEMS:
            raise Drop("too large")
        o = {"shape": shape}
        name = samplelib.NAME_OF[t.dtype]
        if name != "float32":
            o["dtype"] = name
        if not t.is_contiguous() or any(st != c for st, c, n in zip(strides, contiguous(shape), shape) if n != 1):
            o["strides"] = strides
        if off:
            o["offset"] = off
        key = storage_key(t)
        if key is not None:
            self.storage_of.setdefault(key, []).append(o)
            o["_bytes"] = key[1]
        self.tensors.append((o, t.detach().clone(), a))
        return o

    def value(self, a, v):
        ty = str(a.type)
        if v is None:
            return None
        if isinstance(v, torch.Tensor):
            return self.tensor(v, a)
        if ty in ("Tensor", "Optional[Tensor]") and isinstance(v, (bool, int, float)):
            return wrapped_number(v)
        if isinstance(v, bool):
            return v
        if isinstance(v, int):
            return float(v) if ty in ("float", "Optional[float]") else v
        if isinstance(v, float):
            return samplelib.json_num(v)
        if isinstance(v, complex):
            raise Drop("complex scalar")
        if isinstance(v, torch.dtype):
            if v not in samplelib.NAME_OF:
                raise Drop("dtype %s" % str(v).replace("torch.", ""))
            return samplelib.NAME_OF[v]
        if isinstance(v, torch.layout):
            if v != torch.strided:
                raise Drop("layout %s" % str(v).replace("torch.", ""))
            return 0
        if isinstance(v, torch.memory_format):
            return samplelib.MEMORY_FORMATS.index(v)
        if isinstance(v, torch.device):
            if v.type != "cpu":
                raise Drop("device %s" % v.type)
            return "cpu"
        if isinstance(v, torch.Generator):
            return None  # the engine passes no generator: the default one is used
        if isinstance(v, str):
            if ty in ("str", "Optional[str]"):
                return v
            raise Drop("Dimname or other named argument")
        if isinstance(v, (list, tuple)):
            return self.list_value(a, ty, v)
        raise Drop("argument of type %s" % type(v).__name__)

    def list_value(self, a, ty, v):
        if "Tensor" in ty:
            if len(v) > MAX_LIST:
                raise Drop("more than %d tensors in a list" % MAX_LIST)
            return [None if e is None else self.tensor(e, a) for e in v]
        if len(v) > MAX_INT_LIST:
            raise Drop("list longer than %d" % MAX_INT_LIST)
        out = []
        for e in v:
            if isinstance(e, (bool, int)) and not isinstance(e, torch.Tensor):
                out.append(float(e) if "float" in ty else e)
            elif isinstance(e, float):
                out.append(samplelib.json_num(e))
            else:
                raise Drop("list of %s" % type(e).__name__)
        return out

    def finish(self, sample):
        """Storage ids for storages that more than one tensor uses; sizes where they exceed the views."""
        ids = 0
        for objs in self.storage_of.values():
            if len(objs) > 1:
                for o in objs:
                    o["storage"] = ids
                ids += 1
        for objs in self.storage_of.values():
            need = max(samplelib.view_extent(o) for o in objs)
            real = objs[0]["_bytes"]
            if real > need:
                objs[0]["storage_bytes"] = real
        for o, _, _ in self.tensors:
            o.pop("_bytes", None)
        if len(self.tensors) > MAX_TENSORS:
            raise Drop("more than %d tensors" % MAX_TENSORS)
        return sample


def wrapped_number(v):
    """A Python number passed for a Tensor argument (as decompositions do: add_(x, 2)): the
    0-dim tensor torch wraps it in, of the dtype torch gives it."""
    dtype = "bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float64"
    return {"shape": [], "dtype": dtype, "values": [samplelib.json_num(v) if dtype == "float64" else v]}


def contiguous(shape):
    st, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        st[d] = acc
        acc *= shape[d]
    return st


def schema_kind(schema):
    """torchgen's kind, coarsely: out= when an argument is an out= one, inplace for name_
    writing self, functional otherwise (views and other mutable operators included)."""
    if any(a.is_out for a in schema.arguments):
        return "out"
    args = schema.arguments
    if schema.name.endswith("_") and args and args[0].alias_info is not None and args[0].alias_info.is_write:
        return "inplace"
    return "functional"


def op_name(func):
    s = func._schema
    return s.name + ("." + s.overload_name if s.overload_name else "")


def encode(func, args, kwargs):
    schema = func._schema
    if not schema.name.startswith("aten::"):
        raise Drop("not an aten operator")
    if len(schema.arguments) > MAX_ARGS:
        raise Drop("more than %d arguments" % MAX_ARGS)
    enc = CallEncoder()
    sample = {}
    for a, v in bind(schema, args, kwargs):
        sample[a.name] = enc.value(a, v)
    return enc.finish(sample), enc


# ---- keeping values only where they matter ------------------------------------------------------

ISOLATE = False  # run each check in a child process (after an OpInfo crashed torch)
CRASHED = collections.Counter()


def runs_here(func, sample):
    try:
        args, kwargs = samplelib.build_call(func, sample)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func(*args, **kwargs)
        return True
    except Exception:
        return False


def runs(func, sample):
    """Whether torch accepts the sample as the engine builds it (after a JSON round trip).
    Some kernels corrupt memory on inputs they do not check (linalg_ldl_solve on pivots out
    of range): after a crash the checks run in child processes, and a crash is a rejection."""
    sample = json.loads(json.dumps(sample))
    if not ISOLATE:
        return runs_here(func, sample)
    pid = os.fork()
    if pid == 0:
        os._exit(0 if runs_here(func, sample) else 1)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        CRASHED[op_name(func)] += 1
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def bounds(t):
    if t.numel() == 0:
        return None
    v = t.to(torch.float64) if t.dtype.is_floating_point else t.to(torch.int64)
    lo, hi = v.min().item(), v.max().item()
    if t.dtype.is_floating_point:
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return None
        return [float(math.floor(lo)), float(math.ceil(hi))]
    return [int(lo), int(hi)]


def values_of(t):
    flat = t.reshape(-1)
    if t.dtype == torch.bool:
        return [bool(x) for x in flat.tolist()]
    if t.dtype == torch.float32:
        # The shortest text that reads back as the same float32.
        return [samplelib.json_num(float(repr(np.float32(x)))) for x in flat.tolist()]
    if t.dtype.is_floating_point:
        return [samplelib.json_num(float(x)) for x in flat.to(torch.float64).tolist()]
    return [int(x) for x in flat.tolist()]


def with_values(func, sample, enc):
    """The sample with as few stored values as torch needs, or None; and how it was kept.
    Integer and bool tensors (indices, masks) are tried first at each step."""
    if runs(func, sample):
        return sample, "generated"
    inputs = [(o, t) for o, t, a in enc.tensors if not a.is_out and t.numel()]
    integral = [(o, t) for o, t in inputs if not t.dtype.is_floating_point]
    floating = [(o, t) for o, t in inputs if t.dtype.is_floating_point]
    for group, how in ((integral, "integer ranges"), (floating, "ranges")):
        if not group:
            continue
        for o, t in group:
            b = bounds(t)
            if b is not None and b != list(samplelib.DTYPES[o.get("dtype", "float32")][1]):
                o["range"] = b
        if runs(func, sample):
            return sample, how
    stored = 0
    for group, how in ((integral, "integer values"), (floating, "all values")):
        if not group:
            continue
        for o, t in group:
            o.pop("range", None)
            o["values"] = values_of(t)
            stored += t.numel()
        if stored > MAX_STORED_VALUES:
            return None, "values too many to store"
        if runs(func, sample):
            return sample, how
    return None, "rejected when rebuilt"


# ---- recording --------------------------------------------------------------------------------

class Recorder(TorchDispatchMode):
    """Records each ATen call that completes, as a sample; counts what it drops."""

    def __init__(self, corpus):
        super().__init__()
        self.corpus = corpus

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        try:
            sample, enc = encode(func, args, kwargs)
        except Drop as e:
            sample, enc = None, str(e)
        out = func(*args, **kwargs)  # raises for a call ATen rejects: nothing is recorded
        self.corpus.add(func, sample, enc)
        return out


class Corpus:
    def __init__(self):
        self.samples = collections.defaultdict(dict)  # op -> canonical text -> sample
        self.kinds = {}  # op -> "functional", "inplace" or "out"
        self.dropped = collections.Counter()
        self.dropped_ops = collections.defaultdict(set)
        self.values = collections.Counter()
        self.calls = 0
        self.seen = set()  # canonical keys already judged
        self.seen_new = set()

    def state(self):
        return (dict(self.samples), self.kinds, self.dropped, dict(self.dropped_ops), self.values,
                self.calls, self.seen_new)

    def merge(self, state):
        samples, kinds, dropped, dropped_ops, values, calls, seen_new = state
        for name, d in samples.items():
            for text, s in d.items():
                self.samples[name].setdefault(text, s)
        self.kinds.update(kinds)
        self.dropped.update(dropped)
        for k, v in dropped_ops.items():
            self.dropped_ops[k] |= v
        self.values.update(values)
        self.calls += calls
        self.seen |= seen_new

    def add(self, func, sample, enc):
        self.calls += 1
        name = op_name(func)
        if sample is None:
            self.dropped[enc] += 1
            self.dropped_ops[enc].add(name)
            return
        key = name + json.dumps(sample, sort_keys=True)
        if key in self.seen:
            return
        self.seen.add(key)
        self.seen_new.add(key)
        kept, how = with_values(func, sample, enc)
        if kept is None:
            self.dropped[how] += 1
            self.dropped_ops[how].add(name)
            return
        self.values[how] += 1
        text = json.dumps(kept, sort_keys=True, separators=(",", ":"))
        self.samples[name].setdefault(text, kept)
        self.kinds[name] = schema_kind(func._schema)


def clone_input(x):
    if isinstance(x, torch.Tensor):
        return x.clone()
    if isinstance(x, (list, tuple)):
        return type(x)(clone_input(e) for e in x)
    return x


def empty_out(result, resize):
    if isinstance(result, torch.Tensor):
        return torch.empty(0, dtype=result.dtype) if resize else torch.empty_like(result)
    if isinstance(result, (list, tuple)) and all(isinstance(r, torch.Tensor) for r in result):
        return tuple(empty_out(r, resize) for r in result)
    return None


def run(rec, fn):
    """fn() twice under the recorder: as is and in inference mode; errors end that run only."""
    for inference in (False, True):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if inference:
                    with torch.inference_mode(), rec:
                        fn()
                else:
                    with rec:
                        fn()
        except Exception:
            pass


def export_opinfo(op, corpus, rec, stats, max_samples):
    supported = op.supported_dtypes("cpu")
    for dtype in DTYPES:
        if dtype not in supported:
            continue
        try:
            samples = list(op.sample_inputs("cpu", dtype, requires_grad=False))
        except Exception:
            stats["sample_inputs errors"] += 1
            continue
        for s in samples[:max_samples]:
            stats["samples"] += 1
            run(rec, lambda: op(clone_input(s.input), *s.args, **s.kwargs))
            if op.inplace_variant is not None and isinstance(s.input, torch.Tensor):
                run(rec, lambda: op.inplace_variant(s.input.clone(), *s.args, **s.kwargs))
            if op.supports_out:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        result = op(clone_input(s.input), *s.args, **s.kwargs)
                except Exception:
                    continue
                for resize in (False, True):
                    out = empty_out(result, resize)
                    if out is not None:
                        run(rec, lambda: op(clone_input(s.input), *s.args, **s.kwargs, out=out))


def export_isolated(op, corpus, stats, max_samples):
    """export_opinfo in a child process, whose findings come back through a pipe; False when
    the child died (torch crashed), in which case nothing of it is kept."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        CRASHED.clear()
        child = Corpus()
        child.seen = corpus.seen
        child_stats = collections.Counter()
        export_opinfo(op, child, Recorder(child), child_stats, max_samples)
        with os.fdopen(wfd, "wb") as f:
            pickle.dump((child.state(), child_stats, CRASHED), f)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0) or not data:
        return False
    state, child_stats, crashed = pickle.loads(data)
    corpus.merge(state)
    stats.update(child_stats)
    CRASHED.update(crashed)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", default="-", help="where the samples JSON goes (default stdout)")
    ap.add_argument("--ops", action="append", help="OpInfo names to export (fnmatch; repeatable)")
    ap.add_argument("--max-samples", type=int, default=1000,
                    help="sample inputs per OpInfo and dtype (default: all)")
    ap.add_argument("--max-per-overload", type=int, default=64,
                    help="samples kept per aten overload (spread over dtypes; default 64)")
    ap.add_argument("--stats", help="write counts (JSON) here")
    args = ap.parse_args()

    install_expecttest_stub()
    from torch.testing._internal.common_methods_invocations import op_db

    torch.manual_seed(0)
    torch.set_num_threads(1)
    corpus = Corpus()
    rec = Recorder(corpus)
    stats = collections.Counter()
    t0 = time.time()
    without = []
    opinfos = [op for op in op_db if not args.ops or any(fnmatch.fnmatch(op.name, g) for g in args.ops)]
    for i, op in enumerate(opinfos):
        before = stats["samples"]
        if not export_isolated(op, corpus, stats, args.max_samples):
            global ISOLATE
            stats["opinfos that crashed torch (redone with checks isolated)"] += 1
            ISOLATE = True
            export_isolated(op, corpus, stats, args.max_samples)
            ISOLATE = False
        if stats["samples"] > before:
            stats["opinfos with samples"] += 1
        else:
            without.append(op.name + ("." + op.variant_test_name if op.variant_test_name else ""))
        print("\r[%d/%d] %-40s %d overloads, %.0fs" % (i + 1, len(opinfos), op.name[:40],
                                                      len(corpus.samples), time.time() - t0),
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    data = {}
    for name in sorted(corpus.samples):
        data[name] = spread(list(corpus.samples[name].values()), args.max_per_overload)
    text = "{\n" + ",\n".join(json.dumps(n) + ":[" + ",\n ".join(
        json.dumps(s, separators=(",", ":")) for s in ss) + "]" for n, ss in data.items()) + "\n}\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)

    report = {
        "opinfos": len(opinfos),
        "opinfos with samples": stats["opinfos with samples"],
        "opinfos without samples (no supported dtype)": without,
        "sample inputs run": stats["samples"],
        "sample_inputs errors": stats["sample_inputs errors"],
        "opinfos that crashed torch": stats["opinfos that crashed torch (redone with checks isolated)"],
        "aten calls recorded": corpus.calls,
        "overloads": len(data),
        "samples written": sum(len(v) for v in data.values()),
        "samples before the per-overload cap": sum(len(v) for v in corpus.samples.values()),
        "overloads by kind": dict(collections.Counter(corpus.kinds[n] for n in data)),
        "values": dict(corpus.values),
        "dropped": {k: {"calls": c, "overloads": len(corpus.dropped_ops[k]),
                        "examples": sorted(corpus.dropped_ops[k])[:8]}
                    for k, c in corpus.dropped.most_common()},
        "crashes of torch while checking a sample": dict(CRASHED),
        "bytes": len(text),
        "seconds": round(time.time() - t0, 1),
    }
    print(json.dumps(report, indent=1), file=sys.stderr)
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump(report, f, indent=1)


def spread(samples, cap):
    """At most cap samples, taken round-robin over the dtypes of their first tensor."""
    if len(samples) <= cap:
        return samples
    groups = collections.OrderedDict()
    for s in samples:
        first = next((v for v in s.values() if isinstance(v, dict)), None)
        groups.setdefault(first.get("dtype", "float32") if first else "", []).append(s)
    out, queues = [], [collections.deque(g) for g in groups.values()]
    while len(out) < cap:
        for q in queues:
            if q and len(out) < cap:
                out.append(q.popleft())
    return out


if __name__ == "__main__":
    main()
