#!/usr/bin/python3
"""Writes every operator torch 1.13.1 registers for TorchScript, in
registration order, with how TorchScript's AliasDb treats it:

    KIND<TAB>schema

KIND is c10::AliasAnalysisKind (FROM_SCHEMA, CONSERVATIVE, PURE_FUNCTION,
INTERNAL_SPECIAL_CASE). Python cannot see the kind, so a few lines of C++
are compiled against libtorch (Debian's libtorch-dev) and called with ctypes
inside this process, after `import torch` has registered everything the
registered-schemas list holds (and nothing more: torchvision is not loaded).

Usage: tools/torch/registered_operators.py > registered-operators.txt
Needs /usr/bin/python3 with torch 1.13.1, g++ and libtorch-dev.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import torch  # registers the operators before the dump runs

DUMP = r'''
#include <torch/csrc/jit/runtime/operator.h>
#include <fstream>
extern "C" int tensoralias_dump_operators(const char *path) {
  std::ofstream out(path);
  for (const auto &op : torch::jit::getAllOperators())
    out << c10::toString(op->aliasAnalysisKind()) << "\t" << op->schema() << "\n";
  return out.good() ? 0 : 1;
}
'''


def main():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "dump.cpp")
        lib = os.path.join(tmp, "dump.so")
        out = os.path.join(tmp, "ops.txt")
        with open(src, "w") as f:
            f.write(DUMP)
        subprocess.run(["g++", "-std=c++17", "-shared", "-fPIC", "-O0", src, "-o", lib,
                        "-ltorch", "-ltorch_cpu", "-lc10"], check=True)
        if ctypes.CDLL(lib).tensoralias_dump_operators(out.encode()) != 0:
            sys.exit("dump failed")
        sys.stdout.write(open(out).read())


if __name__ == "__main__":
    main()
