"""Where the package's native parts are: a build folder laid out as `make`
leaves it (libtensoralias.so, the command, libtensoralias_torch.so or
torch/KEY/libtensoralias_torch.so, share/tensoralias/).

An installed wheel carries one as tensoralias/_build (the build backend
copies it there); from a source checkout (PYTHONPATH=python) it is the
checkout's build/, or $TENSORALIAS_BUILD when set.
"""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def build_dir():
    """The build folder, or None when there is none."""
    env = os.environ.get("TENSORALIAS_BUILD")
    candidates = [env] if env else []
    candidates += [os.path.join(_HERE, "_build"),
                   os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build")]
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, "libtensoralias.so")):
            return os.path.abspath(c)
    return None


def require_build_dir():
    d = build_dir()
    if d is None:
        raise OSError("tensoralias: libtensoralias.so not found: install the package (pip install .) "
                      "or build the checkout (make) and set TENSORALIAS_BUILD to its build folder")
    return d


def share(name):
    """A bundled file (share/tensoralias/NAME), or None."""
    d = build_dir()
    p = d and os.path.join(d, "share", "tensoralias", name)
    return p if p and os.path.exists(p) else None


def command():
    """The tensoralias command built with the library, or None."""
    d = build_dir()
    p = d and os.path.join(d, "tensoralias")
    return p if p and os.access(p, os.X_OK) else None
