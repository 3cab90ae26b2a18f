"""samplelib.py - the samples format of `tensoralias verify --samples`, on the torch side.

Shared by export_opinfo_samples.py (which writes samples and checks each one by building it
here and running it in torch) and schemacheck_speed.py (which runs them under SchemaCheckMode).
build_call() makes a call's arguments exactly as the engine's samples loader
(src/exec/synth/samples.c) makes them: the same storages, geometry and bytes, so a sample that runs
here runs identically there. The format and the value generator are specified in samples.c's
header; keep the two in step.
"""
import math

import numpy as np
import torch

# dtype name -> (torch dtype, default range of generated values)
DTYPES = {
    "float32": (torch.float32, (-4.0, 4.0)),
    "float64": (torch.float64, (-4.0, 4.0)),
    "float16": (torch.float16, (-4.0, 4.0)),
    "bfloat16": (torch.bfloat16, (-4.0, 4.0)),
    "int64": (torch.int64, (-4, 4)),
    "int32": (torch.int32, (-4, 4)),
    "int16": (torch.int16, (-4, 4)),
    "int8": (torch.int8, (-4, 4)),
    "uint8": (torch.uint8, (0, 8)),
    "bool": (torch.bool, (0, 1)),
}
NAME_OF = {dt: name for name, (dt, _) in DTYPES.items()}
FILL_BYTE = 0xA5  # TA_FILL_BYTE: what out= storages hold before the call
MEMORY_FORMATS = [torch.contiguous_format, torch.preserve_format, torch.channels_last,
                  torch.channels_last_3d]
U64 = np.uint64
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(x):
    """ta_mix64 (splitmix64's finalizer after its increment) over a numpy uint64 array."""
    with np.errstate(over="ignore"):
        x = x + U64(GOLDEN)
        x = (x ^ (x >> U64(30))) * U64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> U64(27))) * U64(0x94D049BB133111EB)
        return x ^ (x >> U64(31))


def mix64_int(x):
    return int(mix64(np.array([x & MASK], dtype=U64))[0])


def special(v):
    """A JSON value that may spell a non-finite float ("nan", "inf", "-inf") -> float or as is."""
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]
    return v


def json_num(v):
    """A float for JSON: non-finite ones as strings."""
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def is_integral(name):
    return name not in ("float32", "float64", "float16", "bfloat16")


def view_extent(t):
    """Bytes of storage a tensor object's view needs (0 when empty)."""
    shape = t.get("shape", [])
    es = elem_size(t)
    off = t.get("offset", 0)
    if any(s == 0 for s in shape):
        return off * es
    strides = t.get("strides")
    if strides is None:
        n = 1
        for s in shape:
            n *= s
        return (off + n) * es
    return (off + 1 + sum((s - 1) * st for s, st in zip(shape, strides))) * es


def elem_size(t):
    return torch.empty(0, dtype=DTYPES[t.get("dtype", "float32")][0]).element_size()


def generated(name, lo, hi, n, seed, ordinal):
    """The n values the engine generates for storage `ordinal` (see samples.c)."""
    s0 = mix64_int(seed ^ (((ordinal + 1) * GOLDEN) & MASK))
    with np.errstate(over="ignore"):
        u = mix64(U64(s0) + np.arange(n, dtype=U64))
    if not is_integral(name):
        k = (u % U64(33)).astype(np.float64)
        return lo + (hi - lo) * k / 32.0
    width = hi - lo + 1
    v = (u % U64(width)).astype(np.int64) + lo
    return v != 0 if name == "bool" else v


class Storages:
    """The storages of one sample: planned from every tensor object before any is built."""

    def __init__(self):
        self.groups = {}  # key -> [tensor objects, only out= tensors without values on it?]
        self.order = []
        self.made = {}

    def key(self, t, serial):
        return ("id", t["storage"]) if "storage" in t else ("own", serial)

    def plan(self, t, serial, is_out):
        k = self.key(t, serial)
        if k not in self.groups:
            self.groups[k] = [[], True]
            self.order.append(k)
        self.groups[k][0].append(t)
        self.groups[k][1] = self.groups[k][1] and is_out and "values" not in t

    def storage(self, k):
        if k in self.made:
            return self.made[k]
        views, all_out = self.groups[k]
        first = views[0]
        nbytes = max(view_extent(t) for t in views)
        nbytes = max(nbytes, max(t.get("storage_bytes", 0) for t in views))
        raw = torch.empty(nbytes, dtype=torch.uint8)
        if all_out:
            raw.fill_(FILL_BYTE)
        else:
            raw.zero_()
            name = first.get("dtype", "float32")
            dt, (lo, hi) = DTYPES[name]
            if "range" in first:
                lo, hi = first["range"]
            es = elem_size(first)
            n = nbytes // es
            vals = generated(name, lo, hi, n, first.get("seed", 0), self.order.index(k))
            raw[: n * es].view(dt).copy_(torch.from_numpy(np.asarray(vals)).to(dt))
        self.made[k] = raw
        return raw


def make_tensor(t, raw):
    name = t.get("dtype", "float32")
    dt = DTYPES[name][0]
    shape = t.get("shape", [])
    strides = t.get("strides")
    if strides is None:
        strides, acc = [0] * len(shape), 1
        for d in range(len(shape) - 1, -1, -1):
            strides[d] = acc
            acc *= shape[d]
    out = torch.empty(0, dtype=dt)
    out.set_(raw.untyped_storage() if hasattr(raw, "untyped_storage") else raw.storage().untyped(),
             t.get("offset", 0), shape, strides)
    if "values" in t:
        vals = [special(v) for v in t["values"]]
        n = out.numel()
        if n and vals:
            flat = [vals[i % len(vals)] for i in range(n)]
            out.copy_(torch.tensor(flat, dtype=torch.float64 if not is_integral(name) else torch.int64)
                      .to(dt).reshape(shape))
    return out


def _walk_tensors(schema, sample):
    """(argument, tensor object, item index or -1) in the engine's order: schema order, list items in order."""
    for a in schema.arguments:
        v = sample.get(a.name)
        if isinstance(v, dict):
            yield a, v, -1
        elif isinstance(v, list) and v and any(isinstance(e, dict) for e in v):
            for i, e in enumerate(v):
                if isinstance(e, dict):
                    yield a, e, i


def build_call(op, sample):
    """(args, kwargs) for OpOverload op from a sample holding every argument."""
    schema = op._schema
    st = Storages()
    serial = 0
    keys = []
    for a, t, _ in _walk_tensors(schema, sample):
        st.plan(t, serial, a.is_out)
        keys.append(st.key(t, serial))
        serial += 1
    tensors = iter(keys)
    args, kwargs = [], {}
    for a in schema.arguments:
        if a.name not in sample:
            raise KeyError("sample has no argument '%s'" % a.name)
        v = sample[a.name]
        val = _value(a, v, st, tensors)
        if a.kwarg_only:
            kwargs[a.name] = val
        else:
            args.append(val)
    return args, kwargs


def _value(a, v, st, tensors):
    ty = str(a.type)
    if v is None:
        return None
    if isinstance(v, dict):
        return make_tensor(v, st.storage(next(tensors)))
    if isinstance(v, list):
        if "Tensor" in ty:
            return [None if e is None else make_tensor(e, st.storage(next(tensors))) for e in v]
        if "float" in ty:
            return [float(special(e)) for e in v]
        return v
    if isinstance(v, str):
        if v in DTYPES and "int" in ty and "Device" not in ty:
            return DTYPES[v][0]  # ScalarType
        if v in ("nan", "inf", "-inf") and ("float" in ty or "number" in ty):
            return special(v)
        if "Device" in ty:
            return torch.device(v)
        return v
    if "Tensor" in ty and not isinstance(v, bool):
        return v
    if "float" in ty and not isinstance(v, bool):
        return float(v)
    return v


# ---- the engine's side checked against this one -------------------------------------------

CROSSCHECK = [
    ("aten::add.out", {"self": {"shape": [2, 3]},
                       "other": {"shape": [3], "dtype": "float64", "range": [-1.5, 2.5], "seed": 7},
                       "alpha": 2, "out": {"shape": [0]}}),
    ("aten::add.out", {"self": {"shape": [5], "dtype": "float16",
                                "values": [0.1, 65519, 65520, 1e-7, "nan", "-inf", 3.14159]},
                       "other": {"shape": [2, 2], "dtype": "bfloat16", "strides": [1, 2],
                                 "values": [1.00390625, 3.3, -0.0, "inf"]},
                       "alpha": 1.5, "out": {"shape": [3], "dtype": "int8", "values": [300, -129, 7]}}),
    ("aten::add.out", {"self": {"shape": [3, 4], "storage": 0},
                       "other": {"shape": [4, 3], "strides": [1, 4], "storage": 0},
                       "alpha": True, "out": {"shape": [2, 2], "strides": [4, 1], "offset": 5, "storage": 0}}),
    ("aten::add.out", {"self": {"shape": [2], "dtype": "float64", "storage": 1},
                       "other": {"shape": [4], "dtype": "int32", "storage": 1, "range": [-100, 100]},
                       "alpha": "nan", "out": {"shape": [2, 0, 3], "storage_bytes": 12}}),
    ("aten::cat", {"tensors": [{"shape": [2], "dtype": "int64", "range": [0, 100]},
                               {"shape": [3], "dtype": "int32", "seed": -5},
                               {"shape": [2, 2], "dtype": "uint8"},
                               {"shape": [4], "dtype": "bool"},
                               {"shape": [1], "dtype": "int16", "storage_bytes": 10},
                               {"shape": [3], "dtype": "bool", "range": [0, 0]}], "dim": 0}),
    ("aten::index_put_", {"self": {"shape": [3, 2], "dtype": "float64", "strides": [1, 3]},
                          "indices": [None, {"shape": [2], "dtype": "int64", "values": [1, 0]}],
                          "values": {"shape": [], "values": [2.5]}, "accumulate": False}),
]


def overload(name):
    ns, rest = name.split("::")
    base, _, ov = rest.partition(".")
    return getattr(getattr(getattr(torch.ops, ns), base), ov or "default")


def crosscheck_rows():
    """Per sample: its schema and, per tensor in build order, the storage bytes torch holds."""
    for name, sample in CROSSCHECK:
        op = overload(name)
        args, kwargs = build_call(op, sample)
        tensors = []
        for a in op._schema.arguments:
            v = kwargs[a.name] if a.kwarg_only else args[[b.name for b in op._schema.arguments
                                                          if not b.kwarg_only].index(a.name)]
            for i, t in ([(-1, v)] if isinstance(v, torch.Tensor) else
                         list(enumerate(v)) if isinstance(v, list) else []):
                if t is None:
                    continue
                raw = torch.empty(0, dtype=torch.uint8).set_(t.storage().untyped())
                tensors.append({"arg": a.name, "item": i, "storage": t.storage().data_ptr(),
                                "bytes": bytes(raw.numpy().tobytes()).hex(),
                                "shape": list(t.shape), "strides": list(t.stride()),
                                "offset": t.storage_offset()})
        ids = {}
        for t in tensors:
            t["storage"] = ids.setdefault(t["storage"], len(ids))
        yield {"op": name, "schema": str(op._schema), "sample": sample, "tensors": tensors}


if __name__ == "__main__":
    # The cases tests/unit/test_exec_samples.c builds and compares byte for byte:
    #   /usr/bin/python3 tools/torch/samplelib.py | xz -9e > tests/data/opinfo/crosscheck.jsonl.xz
    import json
    import sys
    for row in crosscheck_rows():
        sys.stdout.write(json.dumps(row) + "\n")
