"""Delta debugging over TorchScript graphs (IR text as torch prints it).

reduce(text, interesting) returns a smaller graph for which interesting(text)
still holds, trying, until none applies:
  - an If replaced by the nodes of one of its blocks,
  - a Loop replaced by its initial values (zero trips) or by one copy of its body,
  - a carried value or an If output dropped,
  - chunks of plain nodes removed (ddmin: halves, quarters, ... single nodes),
    uses of a removed tensor taken by its first tensor input (for a view or an
    in-place write, the memory it aliases), an int or bool output replaced by
    a constant,
  - an element of the returned tuple replaced by the first graph input.
Graph inputs are kept, so fixed inputs still apply. Needs no torch.
"""
import re

NAME = r"%[\w.]+"


class Node:
    def __init__(self, outs, kind, attrs, ins, blocks=None):
        self.outs = outs  # [(name, type)]
        self.kind = kind
        self.attrs = attrs  # "[value=1]" or ""
        self.ins = ins  # [name]
        self.blocks = blocks or []


class Block:
    def __init__(self, params, nodes, rets):
        self.params = params  # [(name, type)]
        self.nodes = nodes
        self.rets = rets


class Graph:
    def __init__(self, inputs, top):
        self.inputs = inputs
        self.top = top


def _split_top(s, sep=","):
    """s split at sep outside brackets."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _typed(s):
    return [tuple(x.split(" : ", 1)) for x in _split_top(s)]


def _names(s):
    return re.findall(NAME, s)


def parse(text):
    lines = [ln for ln in text.split("\n") if ln.strip()]
    head = ""
    i = 0
    while True:
        head += lines[i].strip()
        i += 1
        if head.endswith("):"):
            break
    inputs = _typed(head[len("graph("):-2])
    pos = [i]

    def block(params):
        nodes = []
        while True:
            ln = lines[pos[0]].strip()
            pos[0] += 1
            if ln.startswith("return (") or ln.startswith("-> ("):
                return Block(params, nodes, _names(ln))
            if ln.startswith("= "):
                ln = ln[2:]
            lhs, rhs = ln.split(" = ", 1) if re.match(NAME + " : ", ln) else ("", ln)
            m = re.match(r"([\w:.]+)(\[.*\])?\((.*)\)$", rhs)
            if not m:
                raise ValueError("cannot read: " + ln)
            node = Node(_typed(lhs) if lhs else [], m.group(1), m.group(2) or "", _names(m.group(3)))
            if node.kind in ("prim::If", "prim::Loop"):
                while pos[0] < len(lines) and re.match(r"\s*block\d+\(", lines[pos[0]]):
                    hdr = lines[pos[0]].strip()
                    pos[0] += 1
                    node.blocks.append(block(_typed(hdr[hdr.index("(") + 1:-2])))
            nodes.append(node)
    return Graph(inputs, block([]))


def write(g):
    out = ["graph(" + (",\n      ".join("%s : %s" % p for p in g.inputs)) + "):"]

    def block(b, ind):
        for n in b.nodes:
            lhs = ", ".join("%s : %s" % o for o in n.outs)
            out.append("  " * ind + (lhs + " = " if lhs else "") + "%s%s(%s)" % (n.kind, n.attrs, ", ".join(n.ins)))
            for k, sub in enumerate(n.blocks):
                out.append("  " * (ind + 1) + "block%d(%s):" % (k, ", ".join("%s : %s" % p for p in sub.params)))
                block(sub, ind + 2)
                out.append("  " * (ind + 2) + "-> (%s)" % ", ".join(sub.rets))

    block(g.top, 1)
    out.append("  return (%s)" % ", ".join(g.top.rets))
    return "\n".join(out) + "\n"


def count_nodes(text):
    return sum(1 for ln in text.split("\n") if " = " in ln or re.match(r"\s*[\w:]+\(", ln))


# ---- edits: each takes a parsed graph and returns whether it changed it ----

def _blocks(b):
    yield b
    for n in b.nodes:
        for sub in n.blocks:
            yield from _blocks(sub)


def _rename(g, sub):
    """Every use of a name in sub replaced by its value (transitively)."""
    def res(x):
        seen = 0
        while x in sub and seen < 1000:
            x, seen = sub[x], seen + 1
        return x
    for b in _blocks(g.top):
        b.rets = [res(x) for x in b.rets]
        for n in b.nodes:
            n.ins = [res(x) for x in n.ins]


def _is_tensor(t):
    return t.startswith("Tensor") or t.startswith("Float")


def _first_tensor_input(g):
    return next(n for n, t in g.inputs if _is_tensor(t))


def _constant_for(name, t):
    if t == "bool":
        return Node([(name, t)], "prim::Constant", "[value=1]", [])
    if t == "int":
        return Node([(name, t)], "prim::Constant", "[value=0]", [])
    return None


def _types(g):
    ty = dict(g.inputs)
    for b in _blocks(g.top):
        ty.update(dict(b.params))
        for n in b.nodes:
            ty.update(dict(n.outs))
    return ty


def _uses(g):
    used = set()
    for b in _blocks(g.top):
        used.update(b.rets)
        for n in b.nodes:
            used.update(n.ins)
    return used


def remove_nodes(g, targets):
    """Removes the plain nodes in targets (ids); False when one cannot go."""
    ty, used = _types(g), _uses(g)
    sub = {}
    for b in _blocks(g.top):
        keep = []
        for n in b.nodes:
            if id(n) not in targets:
                keep.append(n)
                continue
            for name, t in n.outs:
                if name not in used:
                    continue
                if _is_tensor(t):
                    src = next((x for x in n.ins if _is_tensor(ty.get(x, ""))), None)
                    sub[name] = src or _first_tensor_input(g)
                elif _constant_for(name, t) and n.kind != "prim::Constant":
                    keep.append(_constant_for(name, t))
                else:
                    return False
        b.nodes = keep
    _rename(g, sub)
    return True


def inline_if(g, node, k):
    for b in _blocks(g.top):
        if node in b.nodes:
            i = b.nodes.index(node)
            body = node.blocks[k]
            b.nodes[i:i + 1] = body.nodes
            _rename(g, {o[0]: r for o, r in zip(node.outs, body.rets)})
            return True
    return False


def loop_zero(g, node):
    for b in _blocks(g.top):
        if node in b.nodes:
            b.nodes.remove(node)
            _rename(g, {o[0]: r for o, r in zip(node.outs, node.ins[2:])})
            return True
    return False


def loop_once(g, node):
    for b in _blocks(g.top):
        if node in b.nodes:
            i = b.nodes.index(node)
            body = node.blocks[0]
            it = body.params[0][0]
            zero = Node([(it, "int")], "prim::Constant", "[value=0]", [])
            b.nodes[i:i + 1] = [zero] + body.nodes
            sub = {p[0]: v for p, v in zip(body.params[1:], node.ins[2:])}
            sub.update({o[0]: r for o, r in zip(node.outs, body.rets[1:])})
            _rename(g, sub)
            return True
    return False


def drop_output(g, node, j):
    """Drops output j of an If or carried value j of a Loop."""
    if node.kind == "prim::Loop":
        init = node.ins[2 + j]
        p = node.blocks[0].params[1 + j][0]
        o = node.outs[j][0]
        del node.ins[2 + j], node.blocks[0].params[1 + j], node.blocks[0].rets[1 + j], node.outs[j]
        _rename(g, {p: init, o: init})
    else:
        o = node.outs[j]
        if not _is_tensor(o[1]):
            return False
        del node.outs[j]
        for b in node.blocks:
            del b.rets[j]
        _rename(g, {o[0]: _first_tensor_input(g)})
    return True


def _all_nodes(g):
    for b in _blocks(g.top):
        for n in b.nodes:
            yield n


def _edits(g):
    """The structural edits of g, as (description, function of a fresh copy)."""
    out = []
    nodes = list(_all_nodes(g))
    for idx, n in enumerate(nodes):
        if n.kind == "prim::If" and len(n.blocks) == 2:
            for k in (0, 1):
                out.append(lambda c, idx=idx, k=k: inline_if(c, list(_all_nodes(c))[idx], k))
        if n.kind == "prim::Loop" and len(n.blocks) == 1:
            out.append(lambda c, idx=idx: loop_zero(c, list(_all_nodes(c))[idx]))
            out.append(lambda c, idx=idx: loop_once(c, list(_all_nodes(c))[idx]))
        if n.blocks:
            for j in range(len(n.outs)):
                out.append(lambda c, idx=idx, j=j: drop_output(c, list(_all_nodes(c))[idx], j))
        if n.kind == "prim::TupleConstruct":
            for j in range(len(n.ins)):
                def tup(c, idx=idx, j=j):
                    m = list(_all_nodes(c))[idx]
                    if m.ins[j] == _first_tensor_input(c):
                        return False
                    m.ins[j] = _first_tensor_input(c)
                    return True
                out.append(tup)
    return out


def _try(text, edit, interesting):
    g = parse(text)
    try:
        if not edit(g):
            return None
    except (ValueError, IndexError, StopIteration):
        return None
    cand = write(g)
    return cand if cand != text and interesting(cand) else None


def _plain_nodes(g):
    return [n for n in _all_nodes(g) if not n.blocks and n.kind != "prim::Constant"]


def _ddmin_nodes(text, interesting):
    """Removes chunks of plain nodes, halving the chunk size down to one."""
    n = len(_plain_nodes(parse(text)))
    chunk = max(1, n // 2)
    while True:
        i, changed = 0, False
        while True:
            g = parse(text)
            nodes = _plain_nodes(g)
            if i >= len(nodes):
                break
            ids = {id(x) for x in nodes[i:i + chunk]}
            cand = write(g) if remove_nodes(g, ids) else None
            if cand and cand != text and interesting(cand):
                text, changed = cand, True
            else:
                i += chunk
        if chunk == 1 and not changed:
            return text
        chunk = max(1, chunk // 2)


def _drop_dead_constants(text):
    g = parse(text)
    while True:
        used = _uses(g)
        dead = {id(n) for n in _all_nodes(g) if n.kind == "prim::Constant" and n.outs and n.outs[0][0] not in used}
        if not dead:
            return write(g)
        remove_nodes(g, dead)


def reduce(text, interesting, log=None):
    text = write(parse(text))
    while True:
        before = text
        i = 0
        while i < len(_edits(parse(text))):
            cand = _try(text, _edits(parse(text))[i], interesting)
            if cand:
                text = cand
                if log:
                    log("structural edit: %d nodes" % count_nodes(text))
            else:
                i += 1
        text = _ddmin_nodes(text, interesting)
        if log:
            log("nodes removed: %d nodes" % count_nodes(text))
        small = _drop_dead_constants(text)
        if small != text and interesting(small):
            text = small
        if text == before:
            return text
