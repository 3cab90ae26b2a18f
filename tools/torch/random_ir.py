"""Random TorchScript graphs that run, for checking functionalization.

graph_text(seed, n) builds a graph over Tensor inputs %x0, %x1, %x2 (to be
given 4x4 floats) and a bool %c, of about n operations: add, mul, add_,
mul_, relu_, copy_, writes through transpose and select views, lists read
with __getitem__, nested prim::If and prim::Loop blocks (loop-carried
tensors used in the body too). Every value is 4x4 or a 4-element select
view; a write never reads memory it may overlap (which torch refuses) and
its result always has the shape of what it writes. The output is a tuple of
three tensors. Needs no torch.

fuzz_graph(seed) makes the nastier graphs tools/torch/functionalize_fuzz.py
runs: a second bool %d and conditions on %c, %d and not %c; loops whose
trip count may be 0, whose condition may be true, %c or %d and whose body
may stop early (its condition an iteration test); loops carrying up to three
tensors that the body leaves as themselves, written in place, as a
transpose of themselves, as a graph input, as a view of a value from before
the loop or as a fresh value; writes through views of carried values and of
If and Loop results; If inside Loop inside If; dead loops and values.
"""
import random


class Gen:
    def __init__(self, seed, nasty=False):
        self.r = random.Random(seed)
        self.lines = []
        self.n = 0
        self.nasty = nasty
        self.conds = ["%c"]

    def name(self):
        self.n += 1
        return "%%v%d" % self.n

    def emit(self, ind, text):
        self.lines.append("  " * ind + text)

    def const(self, ind, v):
        k = self.name()
        self.emit(ind, "%s : int = prim::Constant[value=%d]()" % (k, v))
        return k

    def pick(self, scope, shape=None):
        c = [v for v in scope if shape is None or v[1] == shape]
        return self.r.choice(c[-8:]) if c else None

    def op(self, ind, scope):
        r = self.r
        if self.nasty and r.random() < 0.15:
            return self.nasty_op(ind, scope)
        k = r.random()
        a = self.pick(scope)
        if k < 0.25:  # add / mul
            b = self.pick(scope)
            n = self.name()
            shape = "m" if "m" in (a[1], b[1]) else "v"
            if r.random() < 0.5:
                self.emit(ind, "%s : Tensor = aten::add(%s, %s, %%one)" % (n, a[0], b[0]))
            else:
                self.emit(ind, "%s : Tensor = aten::mul(%s, %s)" % (n, a[0], b[0]))
            scope.append((n, shape, frozenset([n])))
        elif k < 0.55:  # in-place, never from overlapping memory
            b = [v for v in scope[-10:] if not (v[2] & a[2]) and (a[1] == "m" or v[1] == "v")]
            n = self.name()
            if b and r.random() < 0.7:
                b = r.choice(b)
                kind = r.choice(["add_", "mul_", "copy_"])
                extra = {"add_": ", %one", "mul_": "", "copy_": ", %false"}[kind]
                self.emit(ind, "%s : Tensor = aten::%s(%s, %s%s)" % (n, kind, a[0], b[0], extra))
            else:
                self.emit(ind, "%s : Tensor = aten::relu_(%s)" % (n, a[0]))
            scope.append((n, a[1], a[2]))
        elif k < 0.7:  # views
            n = self.name()
            if a[1] == "m" and r.random() < 0.5:
                self.emit(ind, "%s : Tensor = aten::transpose(%s, %%zero, %%one)" % (n, a[0]))
                scope.append((n, "m", a[2]))
            elif a[1] == "m":
                i = self.const(ind, r.randint(0, 3))
                self.emit(ind, "%s : Tensor = aten::select(%s, %s, %s)" % (n, a[0], r.choice(["%zero", "%one"]), i))
                scope.append((n, "v", a[2]))
            else:
                return self.op(ind, scope)
        elif k < 0.78:  # a list read back
            b = self.pick(scope)
            l, n = self.name(), self.name()
            self.emit(ind, "%s : Tensor[] = prim::ListConstruct(%s, %s)" % (l, a[0], b[0]))
            i = r.randint(0, 1)
            self.emit(ind, "%s : Tensor = aten::__getitem__(%s, %s)" % (n, l, ["%zero", "%one"][i]))
            e = (a, b)[i]
            scope.append((n, e[1], e[2]))
        elif k < 0.9 and ind < 6:
            self.if_(ind, scope)
        elif ind < 6:
            self.loop(ind, scope)
        else:
            return self.op(ind, scope)

    def cond(self, ind=None):
        """A condition; at indent ind sometimes one computed right there (a
        block's own bool, which nothing after the block can see)."""
        if ind is not None and self.r.random() < 0.25:
            n = self.name()
            self.emit(ind, "%s : bool = aten::__not__(%s)" % (n, self.r.choice(self.conds)))
            return n
        return self.r.choice(self.conds)

    def write_through_view(self, ind, scope, base):
        """A write through a select or transpose view of base (a 4x4 value)."""
        r = self.r
        n, w = self.name(), self.name()
        if r.random() < 0.5:
            i = self.const(ind, r.randint(0, 3))
            self.emit(ind, "%s : Tensor = aten::select(%s, %s, %s)" % (n, base[0], r.choice(["%zero", "%one"]), i))
            shape = "v"
        else:
            self.emit(ind, "%s : Tensor = aten::transpose(%s, %%zero, %%one)" % (n, base[0]))
            shape = "m"
        src = [v for v in scope[-10:] if not (v[2] & base[2]) and (shape == "m" or v[1] == "v")]
        if src and r.random() < 0.6:
            kind = r.choice(["add_", "mul_", "copy_"])
            extra = {"add_": ", %one", "mul_": "", "copy_": ", %false"}[kind]
            self.emit(ind, "%s : Tensor = aten::%s(%s, %s%s)" % (w, kind, n, r.choice(src)[0], extra))
        else:
            self.emit(ind, "%s : Tensor = aten::relu_(%s)" % (w, n))
        scope.append((n, shape, base[2]))
        scope.append((w, shape, base[2]))

    def nasty_op(self, ind, scope):
        r = self.r
        k = r.random()
        if k < 0.35 and ind < 6:  # If inside Loop inside If
            self.if_(ind, scope, inner=lambda i, s: self.loop(i, s, inner=self.if_))
        elif k < 0.6 and ind < 6:
            self.loop(ind, scope, carried=r.randint(1, 3))
        elif k < 0.8:
            self.write_through_view(ind, scope, self.pick(scope, "m"))
        else:  # a dead loop: its results unused, its body writing what is outside
            n = len(scope)
            self.loop(ind, scope, carried=r.randint(1, 2))
            del scope[n:]

    def block(self, ind, scope, count):
        inner = list(scope)
        for _ in range(count):
            self.op(ind, inner)
        return inner

    def if_(self, ind, scope, inner=None):
        n = self.name()
        cond = self.cond(ind) if self.nasty else "%c"
        at = len(self.lines)
        self.emit(ind, "")
        outs, roots, shapes = [], frozenset(), set()
        for b in range(2):
            self.emit(ind + 1, "block%d():" % b)
            body = self.block(ind + 2, scope, self.r.randint(1, 5))
            if inner and b == 0:
                inner(ind + 2, body)
            o = self.pick(body[len(scope):] or body, "m") or self.pick(body, "m")
            self.emit(ind + 2, "-> (%s)" % o[0])
            roots |= o[2]
        self.lines[at] = "  " * ind + "%s : Tensor = prim::If(%s)" % (n, cond)
        scope.append((n, "m", roots | {n}))
        if self.nasty and self.r.random() < 0.3:
            self.write_through_view(ind, scope, scope[-1])

    def loop(self, ind, scope, carried=1, inner=None):
        if not self.nasty:
            n, it, p = self.name(), self.name(), self.name()
            init = self.pick(scope, "m")
            trip = self.const(ind, self.r.randint(0, 3))
            self.emit(ind, "%s : Tensor = prim::Loop(%s, %%c, %s)" % (n, trip, init[0]))
            self.emit(ind + 1, "block0(%s : int, %s : Tensor):" % (it, p))
            inner = scope + [(p, "m", init[2] | {p})]
            inner = self.block(ind + 2, inner, self.r.randint(1, 5))
            o = self.pick(inner[len(scope):], "m") or (p, "m", init[2])
            self.emit(ind + 2, "-> (%%c, %s)" % o[0])
            scope.append((n, "m", init[2] | o[2] | {n}))
            return
        self.nasty_loop(ind, scope, carried, inner)

    def nasty_loop(self, ind, scope, carried, inner):
        r = self.r
        outs = [self.name() for _ in range(carried)]
        it = self.name()
        params = [self.name() for _ in range(carried)]
        inits = [self.pick(scope, "m") if r.random() < 0.7 else scope[r.randint(0, 2)] for _ in range(carried)]
        trip = self.const(ind, r.choice([0, 0, 1, 2, 3]))
        cond = self.cond(ind) if r.random() < 0.8 else "%true"
        self.emit(ind, "%s = prim::Loop(%s, %s, %s)" % (", ".join(o + " : Tensor" for o in outs), trip, cond,
                                                       ", ".join(i[0] for i in inits)))
        self.emit(ind + 1, "block0(%s : int, %s):" % (it, ", ".join(p + " : Tensor" for p in params)))
        # after an iteration a carried value may hold any memory visible here
        # (a graph input, a view of a value from before the loop, what the body
        # wrote), so no write may read it from elsewhere: torch does not refuse
        # every overlapping copy_, and its result then depends on the order
        every = frozenset().union(*(v[2] for v in scope)) | frozenset(params)
        body = scope + [(p, "m", every) for p in params]
        before = len(scope)
        if r.random() < 0.5:
            self.write_through_view(ind + 2, body, body[before + r.randrange(carried)])
        body = self.block(ind + 2, body, r.randint(1, 4))
        if inner:
            inner(ind + 2, body)
        lasts = []
        for j in range(carried):
            k = r.random()
            if k < 0.2:
                last = (params[j], "m", every)
            elif k < 0.35:
                w = self.name()
                self.emit(ind + 2, "%s : Tensor = aten::relu_(%s)" % (w, params[j]))
                last = (w, "m", every)
            elif k < 0.55:
                w = self.name()
                self.emit(ind + 2, "%s : Tensor = aten::transpose(%s, %%zero, %%one)" % (w, params[j]))
                last = (w, "m", every)
            elif k < 0.65:
                last = scope[r.randint(0, 2)]
            elif k < 0.8:
                w, base = self.name(), self.pick(scope, "m")
                self.emit(ind + 2, "%s : Tensor = aten::transpose(%s, %%zero, %%one)" % (w, base[0]))
                last = (w, "m", base[2])
            else:
                last = self.pick(body[before:], "m") or (params[j], "m", every)
            lasts.append(last)
        goon = cond
        if r.random() < 0.3:
            goon, k = self.name(), self.const(ind + 2, r.randint(0, 2))
            self.emit(ind + 2, "%s : bool = aten::lt(%s, %s)" % (goon, it, k))
        self.emit(ind + 2, "-> (%s, %s)" % (goon, ", ".join(v[0] for v in lasts)))
        roots = every.union(*(v[2] for v in lasts))
        for o in outs:
            scope.append((o, "m", roots | {o}))
        if r.random() < 0.3:
            self.write_through_view(ind, scope, scope[-1])


def graph_text(seed, n, nasty=False):
    g = Gen(seed, nasty)
    g.emit(1, "%one : int = prim::Constant[value=1]()")
    g.emit(1, "%zero : int = prim::Constant[value=0]()")
    g.emit(1, "%false : bool = prim::Constant[value=0]()")
    if nasty:
        g.emit(1, "%true : bool = prim::Constant[value=1]()")
        g.emit(1, "%nc : bool = aten::__not__(%c)")
        g.conds = ["%c", "%d", "%nc"]
    scope = [("%%x%d" % i, "m", frozenset(["x%d" % i])) for i in range(3)]
    for _ in range(n):
        g.op(1, scope)
    outs = [g.pick(scope, "m")[0] for _ in range(3)]
    g.emit(1, "%%out : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%s)" % ", ".join(outs))
    g.emit(1, "return (%out)")
    head = "graph(%x0 : Tensor,\n      %x1 : Tensor,\n      %x2 : Tensor,\n      %c : bool" + \
        (",\n      %d : bool" if nasty else "") + "):\n"
    return head + "\n".join(g.lines) + "\n"


def fuzz_graph(seed):
    """A graph for the differential fuzzer: 5 to 30 operations (more in
    blocks), nasty."""
    return graph_text(seed, 5 + seed % 6 * 5, nasty=True)


if __name__ == "__main__":
    import sys
    print(graph_text(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30), end="")
