"""The libtorch bridge for the torch this process imported.

The bridge (src/torch) is built for one torch version and ABI (its KEY,
tools/torch-config.sh's): the build folder holds the one built with it
(torch/KEY/, or libtensoralias_torch.so itself for Debian's torch);
otherwise it is built on first use into $XDG_CACHE_HOME/tensoralias/
torch-bridge/KEY, from the sources bundled in share/tensoralias/torch-bridge,
as `tensoralias verify --torch DIR` does (tools/tensoralias/verify_torch.c).

It is loaded into this process, where `import torch` has loaded torch's
libtorch_cpu and libc10 already: the bridge binds to those by their names,
so kernels registered from Python and the bridge share one dispatcher.
"""
import json
import os
import subprocess
import sys

from . import _paths

BRIDGE = "libtensoralias_torch.so"
# Written by the build backend beside the bridge it built: the torch folder,
# version and key, so the installed package finds it without asking
# torch-config.sh (half a second for Debian's torch).
BUILT_FOR = "torch-built-for.json"

_found = {}


class BridgeError(OSError):
    """No libtorch bridge can be had for the torch imported."""


def torch_dir():
    import torch
    return os.path.dirname(os.path.abspath(torch.__file__))


def _facts(script, tdir):
    r = subprocess.run(["sh", script, tdir], capture_output=True, text=True)
    if r.returncode != 0:
        raise BridgeError("tensoralias: torch at %s: %s" % (tdir, r.stderr.strip()))
    return dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)


def _recorded(build, tdir):
    """The bridge the build folder records having built for this torch, or None."""
    import torch
    try:
        with open(os.path.join(build, BUILT_FOR)) as f:
            rec = json.load(f)
    except (OSError, ValueError):
        return None
    path = os.path.join(build, rec.get("bridge", ""))
    if rec.get("torch_dir") == tdir and rec.get("torch_version") == torch.__version__ and os.path.isfile(path):
        return path
    return None


def _up_to_date(lib, kit):
    try:
        built = os.stat(lib).st_mtime
    except OSError:
        return False
    for part in ("src/torch", "include/tensoralias", "."):
        d = os.path.join(kit, part)
        for name in os.listdir(d) if os.path.isdir(d) else ():
            if not name.startswith(".") and os.stat(os.path.join(d, name)).st_mtime > built:
                return False
    return True


def _cache_root():
    xdg, home = os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME")
    if xdg:
        return os.path.join(xdg, "tensoralias", "torch-bridge")
    if home:
        return os.path.join(home, ".cache", "tensoralias", "torch-bridge")
    raise BridgeError("tensoralias: no libtorch bridge is built for this torch, and neither XDG_CACHE_HOME "
                      "nor HOME is set to build one into")


def _build(script, tdir, facts, out):
    sys.stderr.write("tensoralias: building the libtorch bridge for torch %s into %s (once for this torch; "
                     "a few minutes)\n" % (facts.get("version"), out))
    os.makedirs(out, exist_ok=True)
    r = subprocess.run(["sh", script, "--build", tdir, out], stdout=sys.stderr)
    if r.returncode != 0:
        raise BridgeError("tensoralias: could not build the libtorch bridge for torch %s (%s): see above"
                          % (facts.get("version"), tdir))


def find():
    """The path of the bridge for the imported torch, built when needed."""
    tdir = torch_dir()
    if tdir in _found:
        return _found[tdir]
    build = _paths.require_build_dir()
    path = _recorded(build, tdir)
    if path is None:
        script = _paths.share("torch-bridge/torch-config.sh")
        if script is None:
            raise BridgeError("tensoralias: the bundled torch-bridge/torch-config.sh is missing")
        facts = _facts(script, tdir)
        candidates = [os.path.join(build, "torch", facts["key"], BRIDGE)]
        if facts.get("kind") == "debian":
            candidates.append(os.path.join(build, BRIDGE))
        path = next((c for c in candidates if os.path.isfile(c)), None)
        if path is None:
            cached = os.path.join(_cache_root(), facts["key"])
            path = os.path.join(cached, BRIDGE)
            if not _up_to_date(path, os.path.dirname(script)):
                _build(script, tdir, facts, cached)
    _found[tdir] = path
    return path
