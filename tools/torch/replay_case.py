#!/usr/bin/python3
"""replay_case.py - replay a call the libtorch bridge made, in torch itself, and say what torch did.

A finding of `verify --kernels torch` is judged by what ATen does with the same bytes outside the
engine. Record the case's call with the bridge (src/torch/dump.cpp):

    TA_TORCH_DUMP=/tmp/call.jsonl tensoralias verify YAML --kernels torch --ops OP --case-seed SEED
    /usr/bin/python3 tools/torch/replay_case.py /tmp/call.jsonl [--guard after|before]

Each call of the file is rebuilt in torch 1.13.1 (the same storages byte for byte, shared where the
engine's were, the same sizes, strides and offsets; storages are torch's own, so ATen may resize
them; out= storages get 64 KB more of the marker byte, so that a resize of up to that much keeps
the marker where the kernel does not write, as the engine's allocator does; --no-room: as
recorded, so that ATen's resize allocates exactly what it needs, as under valgrind it must) and run through torch.ops in a child process (a call with named tensors through the Python API,
as torch.ops refuses them), and one JSON line per call reports:
  outcome    "ok", "raised: MESSAGE", "signal N" (the child died) or "timeout"
  changed    per tensor argument: storage elements changed outside its view before and after the
             call ("outside"), and inside it ("inside")
  unwritten  per out= argument: elements of its view after the call that still hold the marker
             byte 0xA5 throughout (what the engine fills out= storages with)
  metadata   tensor arguments whose sizes, strides, offset or storage changed
  shares     results that share storage with an argument ([result, argument]) or with another
             result ([result, result])
  returned_out  per out= argument: whether a result is that very tensor
With --guard after (before), every input storage that is not an out= argument ends (starts) at
an inaccessible page, as the engine's do, so a read or write past it kills the child with SIGSEGV
(an empty storage has no bytes and a null pointer, as torch makes it: reading it faults too):
the check for out-of-bounds findings on arguments (--guard-outs: on out= arguments, which then
cannot be resized). Needs torch (1.13.1); not run by the suite.
"""
import argparse
import ctypes
import json
import math
import multiprocessing as mp
import sys

import torch

SCALAR_TYPES = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
                5: torch.float16, 6: torch.float32, 7: torch.float64, 9: torch.complex64,
                10: torch.complex128, 11: torch.bool, 15: torch.bfloat16}
DTYPES = {"Float": torch.float32, "Double": torch.float64, "Half": torch.float16,
          "BFloat16": torch.bfloat16, "Long": torch.int64, "Int": torch.int32, "Short": torch.int16,
          "Char": torch.int8, "Byte": torch.uint8, "Bool": torch.bool,
          "ComplexFloat": torch.complex64, "ComplexDouble": torch.complex128}
MEMORY_FORMATS = [torch.contiguous_format, torch.preserve_format, torch.channels_last,
                  torch.channels_last_3d]
PAGE = 4096
OUT_ROOM = 1 << 16  # bytes of marker after every out= storage
KEEP = []  # guarded mappings stay alive as long as the tensors over them


def guarded_bytes(data, where):
    """A uint8 tensor holding data whose end (or start) touches a PROT_NONE page."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                          ctypes.c_long]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    n = len(data)
    body = max(PAGE, (n + PAGE - 1) // PAGE * PAGE)
    addr = libc.mmap(None, body + PAGE, 3, 0x22, -1, 0)  # RW, MAP_PRIVATE|MAP_ANONYMOUS
    if where == "after":
        libc.mprotect(addr + body, PAGE, 0)
        start = addr + body - n
    else:
        libc.mprotect(addr, PAGE, 0)
        start = addr + PAGE
    buf = (ctypes.c_char * n).from_address(start)
    ctypes.memmove(buf, bytes(data), len(data))
    KEEP.append(buf)
    return torch.frombuffer(buf, dtype=torch.uint8)


def owned(data):
    """A uint8 tensor over a storage of torch's own (resizable) holding data."""
    if not data:
        return torch.empty(0, dtype=torch.uint8)
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).clone()


def build(call, guard, guard_outs=False, room=OUT_ROOM):
    """The call's arguments as torch values, and per tensor argument its (name, tensor)."""
    schema = overload(call["op"])._schema
    outs = {a.name for a in schema.arguments if a.is_out}
    out_storages = set()
    for a, v in zip(schema.arguments, call["args"]):
        for t in tensors_in(v):
            if a.name in outs:
                out_storages.add(t["storage"])
    storages = {}
    for sid, hexbytes in call["storages"].items():
        data = bytes.fromhex(hexbytes)
        if not data:
            # No bytes to guard: torch's own empty storage, whose pointer is null, so a read
            # of its element 0 faults (at address 0), where the engine's guard page faults.
            base = owned(data)
        elif guard and (guard_outs or int(sid) not in out_storages):
            base = guarded_bytes(data, guard)
        elif int(sid) in out_storages:
            # Room to grow: ATen's resize of out= then keeps the marker where
            # the kernel does not write, as the engine's allocator does.
            base = owned(data + bytes([0xA5]) * room)
        else:
            base = owned(data)
        storages[int(sid)] = base
    args, kwargs, named = [], {}, []

    def tensor(t, name):
        dt = DTYPES[t["dtype"]]
        x = torch.empty(0, dtype=dt).set_(storages[t["storage"]].storage().untyped(), t["offset"],
                                          t["shape"], t["strides"])
        if "names" in t:
            x.rename_(*t["names"])
        named.append((name, x))
        return x

    for a, v in zip(schema.arguments, call["args"]):
        val = value(a, v, tensor)
        if a.kwarg_only:
            kwargs[a.name] = val
        else:
            args.append(val)
    return schema, args, kwargs, named, storages


def tensors_in(v):
    if isinstance(v, dict) and "storage" in v:
        return [v]
    if isinstance(v, list):
        return [t for x in v for t in tensors_in(x)]
    return []


def value(a, v, tensor):
    t = str(a.type)
    if v is None:
        return None
    if isinstance(v, dict) and "storage" in v:
        return tensor(v, a.name)
    if isinstance(v, dict) and "device" in v:
        return torch.device(v["device"])
    if isinstance(v, list):
        if v and any(isinstance(x, dict) for x in v):
            return [tensor(x, "%s[%d]" % (a.name, i)) if x is not None else None for i, x in enumerate(v)]
        return [special(x) for x in v]
    if "ScalarType" in t:
        return SCALAR_TYPES[v]
    if "MemoryFormat" in t:
        return MEMORY_FORMATS[v]
    if "Layout" in t:
        return torch.strided
    return special(v)


def special(v):
    if isinstance(v, str) and v in ("nan", "inf", "-inf"):
        return float(v)
    if isinstance(v, str) and v.startswith("dimname::"):
        return v[len("dimname::"):]  # a Dimname, as the Python API takes it
    return v


def named_call(call):
    """Whether the call has tensors with named dimensions."""
    return any("names" in t for v in call["args"] for t in tensors_in(v))


def python_api(name):
    """The Python function of aten::NAME.OVERLOAD (torch.NAME, else the Tensor method), which picks
    the overload from the arguments' types: torch.ops refuses named tensors (TorchScript's calling
    path has no names), the Python API takes them and Dimnames as strings."""
    base = name.split("::")[1].partition(".")[0]
    return getattr(torch, base, None) or getattr(torch.Tensor, base)


def overload(name):
    ns, rest = name.split("::")
    op, _, ov = rest.partition(".")
    packet = getattr(getattr(torch.ops, ns), op)
    return getattr(packet, ov or "default")


def view_elems(t):
    """Storage element indices (of t's dtype) in t's view."""
    idx = {t.storage_offset()}
    for size, stride in zip(t.shape, t.stride()):
        if size == 0:
            return set()
        idx = {i + k * stride for i in idx for k in range(size)}
    return idx


def same_storage(a, b):
    """One storage (the same StorageImpl, or the same bytes), empty ones included."""
    sa, sb = a.storage().untyped(), b.storage().untyped()
    return sa._cdata == sb._cdata or (sa.data_ptr() != 0 and sa.data_ptr() == sb.data_ptr())


def geometry(t):
    return (tuple(t.shape), tuple(t.stride()), t.storage_offset(), t.storage().untyped().data_ptr())


def observe(call, guard, guard_outs, room):
    schema, args, kwargs, named, storages = build(call, guard, guard_outs, room)
    before = {n: (geometry(t), set(view_elems(t))) for n, t in named}
    snap = {sid: b.clone() for sid, b in storages.items()}
    res = {"op": call["op"]}
    try:
        fn = python_api(call["op"]) if named_call(call) else overload(call["op"])
        out = fn(*args, **kwargs)
        res["outcome"] = "ok"
    except Exception as e:  # what ATen raises
        res["outcome"] = "raised: " + str(e).split("\n")[0][:300]
        out = None
    results = [] if out is None else list(out) if len(schema.returns) > 1 else [out]
    flat = []
    for i, r in enumerate(results):
        if isinstance(r, torch.Tensor):
            flat.append(("return %d" % i, r))
        elif isinstance(r, (list, tuple)):
            flat += [("return %d[%d]" % (i, k), x) for k, x in enumerate(r) if isinstance(x, torch.Tensor)]
    changed, unwritten, metadata = {}, {}, []
    outs = {a.name for a in schema.arguments if a.is_out}
    for n, t in named:
        (geo, view0) = before[n]
        if geometry(t) != geo:
            metadata.append(n)
        sid = [k for k, b in storages.items() if b.storage().untyped().data_ptr() == geo[3]]
        if not sid or t.storage().untyped().data_ptr() != geo[3]:
            continue
        old, new = snap[sid[0]], storages[sid[0]]
        es = t.element_size()
        diff = (old != new[:old.numel()]).nonzero().flatten().tolist() if old.numel() == new.numel() else []
        elems = sorted({d // es for d in diff})
        view1 = view_elems(t)
        outside = [e for e in elems if e not in view0 and e not in view1]
        changed[n] = {"outside": outside[:8], "inside": len([e for e in elems if e in view0 | view1])}
    for n, t in named:
        if n.split("[")[0] in outs and t.numel():
            raw = t.contiguous().view(torch.uint8).reshape(t.numel(), t.element_size())
            unwritten[n] = [int((raw == 0xA5).all(dim=1).sum()), t.numel()]
    shares = []
    for i, (rn, r) in enumerate(flat):
        for an, a in named + flat[i + 1:]:
            if same_storage(r, a):
                shares.append([rn, an])
    returned = {n: any(r is t for _, r in flat) for n, t in named if n in outs}
    res.update(changed=changed, unwritten=unwritten, metadata=metadata, shares=shares, returned_out=returned)
    return res


def child(call, guard, guard_outs, room, q):
    torch.set_num_threads(1)
    import warnings
    warnings.simplefilter("ignore")
    q.put(json.dumps(observe(call, guard, guard_outs, room)))


def replay(call, guard, guard_outs, room, timeout):
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=child, args=(call, guard, guard_outs, room, q))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return {"op": call["op"], "outcome": "timeout"}
    if p.exitcode != 0:
        return {"op": call["op"], "outcome": "signal %d" % -p.exitcode if p.exitcode < 0 else "exit %d" % p.exitcode}
    return json.loads(q.get())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dump", help="a TA_TORCH_DUMP file")
    ap.add_argument("--guard", choices=["after", "before"], help="inaccessible pages around input storages")
    ap.add_argument("--guard-outs", action="store_true",
                    help="with --guard: out= storages too (then ATen cannot resize them)")
    ap.add_argument("--no-room", action="store_true",
                    help="out= storages as recorded, so that a resize allocates exactly (for valgrind)")
    ap.add_argument("--timeout", type=float, default=20)
    o = ap.parse_args()
    with open(o.dump) as f:
        for line in f:
            if line.strip():
                print(json.dumps(replay(json.loads(line), o.guard, o.guard_outs, 0 if o.no_room else OUT_ROOM, o.timeout)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
