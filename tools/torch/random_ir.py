"""Random TorchScript graphs that run, for checking functionalization.

graph_text(seed, n) builds a graph over Tensor inputs %x0, %x1, %x2 (to be
given 4x4 floats) and a bool %c, of about n operations: add, mul, add_,
mul_, relu_, copy_, writes through transpose and select views, lists read
with __getitem__, nested prim::If and prim::Loop blocks (loop-carried
tensors used in the body too). Every value is 4x4 or a 4-element select
view; a write never reads memory it may overlap (which torch refuses) and
its result always has the shape of what it writes. The output is a tuple of
three tensors. Needs no torch.
"""
import random


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.n = 0

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

    def block(self, ind, scope, count):
        inner = list(scope)
        for _ in range(count):
            self.op(ind, inner)
        return inner

    def if_(self, ind, scope):
        n = self.name()
        at = len(self.lines)
        self.emit(ind, "")
        outs, roots, shapes = [], frozenset(), set()
        for b in range(2):
            self.emit(ind + 1, "block%d():" % b)
            inner = self.block(ind + 2, scope, self.r.randint(1, 5))
            o = self.pick(inner[len(scope):] or inner, "m") or self.pick(inner, "m")
            self.emit(ind + 2, "-> (%s)" % o[0])
            roots |= o[2]
        self.lines[at] = "  " * ind + "%s : Tensor = prim::If(%%c)" % n
        scope.append((n, "m", roots | {n}))

    def loop(self, ind, scope):
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


def graph_text(seed, n):
    g = Gen(seed)
    g.emit(1, "%one : int = prim::Constant[value=1]()")
    g.emit(1, "%zero : int = prim::Constant[value=0]()")
    g.emit(1, "%false : bool = prim::Constant[value=0]()")
    scope = [("%%x%d" % i, "m", frozenset(["x%d" % i])) for i in range(3)]
    for _ in range(n):
        g.op(1, scope)
    outs = [g.pick(scope, "m")[0] for _ in range(3)]
    g.emit(1, "%%out : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%s)" % ", ".join(outs))
    g.emit(1, "return (%out)")
    head = "graph(%x0 : Tensor,\n      %x1 : Tensor,\n      %x2 : Tensor,\n      %c : bool):\n"
    return head + "\n".join(g.lines) + "\n"


if __name__ == "__main__":
    import sys
    print(graph_text(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 30), end="")
