#!/usr/bin/env python3
"""Writes torchgen's own list of NativeFunctions for a native_functions.yaml, one JSON
object per line, in torchgen's order (the yaml's functions, then the variants it derives
for `autogen:`), in the format of tests/data/golden/torch-1.13.1/torchgen-functions.jsonl.

usage: torchgen_list.py [--torchgen DIR] NATIVE_FUNCTIONS_YAML TAGS_YAML > out.jsonl

--torchgen DIR puts DIR first on sys.path, so the torchgen package inside it is the one
used (e.g. a newer torch wheel unpacked with `unzip torch-*.whl 'torchgen/*'`); without it,
the installed torch's torchgen (Debian's python3-torch: 1.13.1). This is the oracle the
`list` golden tests compare against; the suite does not run it.
"""
import argparse
import json
import sys


def row(f, generated):
    kind = f.func.kind().name
    return {
        "autogen": [str(x) for x in f.autogen],
        "func": str(f.func),
        "generated": generated,
        "has_composite_explicit_autograd_kernel": f.has_composite_explicit_autograd_kernel,
        "has_composite_implicit_autograd_kernel": f.has_composite_implicit_autograd_kernel,
        "is_view_op": f.is_view_op,
        "kind": kind,
        "line": f.loc.line,
        "manual_cpp_binding": f.manual_cpp_binding,
        "name": str(f.func.name),
        "signature": str(f.func.signature()),
        "structured": f.structured,
        "structured_delegate": str(f.structured_delegate) if f.structured_delegate else None,
        "tags": sorted(f.tags),
        "variants": sorted(v.name for v in f.variants),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--torchgen", help="directory holding the torchgen package to use")
    ap.add_argument("yaml")
    ap.add_argument("tags")
    a = ap.parse_args()
    if a.torchgen:
        sys.path.insert(0, a.torchgen)
    import yaml
    from torchgen import gen

    with open(a.yaml) as fh:
        n_declared = sum(1 for e in yaml.load(fh, Loader=gen.LineLoader) if "func" in e)
    parsed = gen.parse_native_yaml(a.yaml, a.tags)
    out = sys.stdout
    for i, f in enumerate(parsed.native_functions):
        out.write(json.dumps(row(f, i >= n_declared), sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
