#!/usr/bin/python3
"""Writes the --classes file of `tensoralias graph-alias` for a scripted
module: every class type its graph holds, declared whole, so that the
analysis knows what a module object may contain exactly (as TorchScript's
AliasDb does) instead of assuming it may contain anything.

A graph shows a class's attributes only where it reads or writes them
(prim::GetAttr, prim::SetAttr); an attribute nobody reads in this graph is
still in the object, and AliasDb counts it. torch knows the whole class:
this script asks it (ClassType.containedTypes(), in torch's order), for the
classes of the graph and, recursively, of their attributes.

Usage:
  tools/torch/script_classes.py [-o DIR] [--not-inlined] MODEL...

MODEL is a torchvision model name ("resnet18", built with weights=None, in
eval mode), "package.module:factory" (a callable returning an nn.Module, or
an nn.Module class, called without arguments), or a saved TorchScript file
(NAME.pt). For each, DIR/NAME.ir gets the module's graph as torch prints it
(inlined_graph, or forward's graph with --not-inlined) and DIR/NAME.classes
its classes, one a line:
  __torch__.torchvision.models.resnet.BasicBlock(bool, NoneType, __torch__...Conv2d, ...)
Then:
  tensoralias graph-alias DIR/NAME.ir --classes DIR/NAME.classes ...
Models are scripted in the order given, in one process: torch numbers the
classes it makes again for each model (___torch_mangle_N), as a program
that scripts several would see them.

Needs /usr/bin/python3 with torch (and torchvision for model names).
"""
import argparse
import importlib
import os
import sys

import torch


def class_lines(graph):
    """Every class type the graph's values hold, with its attributes' types in
    torch's order (ClassType.containedTypes()), as ta_ir_read_classes reads them."""
    found, order = {}, []

    def visit(t):
        if t.kind() == "ClassType":
            name = str(t)
            if name in found:
                return
            found[name] = [str(c) for c in t.containedTypes()]
            order.append(name)
        for c in t.containedTypes():
            visit(c)

    def values(block):
        for v in block.inputs():
            yield v
        for n in block.nodes():
            yield from n.outputs()
            for b in n.blocks():
                yield from values(b)

    for v in values(graph):
        visit(v.type())
    return [f"{n}({', '.join(found[n])})" for n in order]


def load(spec):
    """(name, scripted module) for a MODEL argument."""
    if spec.endswith(".pt"):
        return os.path.splitext(os.path.basename(spec))[0], torch.jit.load(spec)
    if ":" in spec:
        mod, attr = spec.split(":", 1)
        made = getattr(importlib.import_module(mod), attr)()
        return attr, torch.jit.script(made.eval())
    import torchvision
    return spec, torch.jit.script(getattr(torchvision.models, spec)(weights=None).eval())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+", metavar="MODEL")
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("--not-inlined", action="store_true", help="forward's graph, calls not inlined")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for spec in args.models:
        name, m = load(spec)
        graph = m.graph if args.not_inlined else m.inlined_graph
        base = os.path.join(args.outdir, name)
        with open(base + ".ir", "w") as f:
            f.write(str(graph))
        lines = class_lines(graph)
        with open(base + ".classes", "w") as f:
            f.write("".join(line + "\n" for line in lines))
        print(f"{base}.classes: {len(lines)} classes", file=sys.stderr)


if __name__ == "__main__":
    main()
