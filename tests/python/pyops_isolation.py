"""Python operators (tapy_iso::) whose kernel kills or blocks the process
that calls it: tensoralias runs each in a child process, so they are
verdicts (crash, timeout) and the run goes on. EXPECTED as in pyops.py."""
import ctypes
import time

import torch

lib = torch.library.Library("tapy_iso", "DEF")
lib.define("crashes(Tensor x) -> Tensor")
lib.define("hangs(Tensor x) -> Tensor")
lib.define("fine(Tensor x) -> Tensor")


def crashes(x):
    ctypes.string_at(0)  # reads address 0: SIGSEGV
    return x.clone()


def hangs(x):
    while True:
        time.sleep(0.05)


lib.impl("crashes", crashes, "CPU")
lib.impl("hangs", hangs, "CPU")
lib.impl("fine", lambda x: x * 3, "CPU")

EXPECTED = {"tapy_iso::crashes": ("crash", ""), "tapy_iso::hangs": ("timeout", ""), "tapy_iso::fine": ("ok", "")}
