"""The build backend of the tensoralias Python package (PEP 517 and 660,
in-tree: pyproject.toml's backend-path), so that `pip install .` needs
nothing from an index.

A wheel is the project's own build: `make` builds the library, the command
and the libtorch bridge for the torch installed where the package is being
installed (the interpreter pip runs is asked for torch's folder, outside
pip's build isolation), and the wheel carries that build folder as
tensoralias/_build beside the Python sources (python/tensoralias).

Settings (pip's --config-settings KEY=VALUE, or the environment):
  torch=DIR | none   (TENSORALIAS_TORCH) the torch to build the bridge for;
                     default: the one the installing interpreter imports
  jobs=N             (TENSORALIAS_JOBS) make -jN, default 2
The package's metadata is written here (METADATA below); its version is
include/tensoralias/version.h's.
"""
import base64
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "tensoralias"
SUMMARY = "Verify the alias annotations (memory contracts) of PyTorch operators, Python kernels included"
ENTRY_POINTS = "[pytest11]\ntensoralias = tensoralias.pytest_plugin\n"
# What of the build folder a wheel carries (make's names; the bridge is added by torch).
BUILT = ["tensoralias", "libtensoralias_refkernels.so", "libtensoralias_cuda.so"]


def version():
    with open(os.path.join(ROOT, "include", "tensoralias", "version.h")) as f:
        return re.search(r'#define TA_VERSION_STRING "([^"]+)"', f.read()).group(1)


def _setting(config, key, env, default=None):
    return (config or {}).get(key) or os.environ.get(env) or default


def _log(msg):
    sys.stderr.write("tensoralias build: %s\n" % msg)
    sys.stderr.flush()


def target_torch(config):
    """The torch folder of the environment being installed into, or None.

    pip runs this backend with its build isolation (PYTHONPATH pointing at a
    sitecustomize that hides the environment's packages): the same
    interpreter, run without it, sees what the installed package will see.
    """
    chosen = _setting(config, "torch", "TENSORALIAS_TORCH")
    if chosen:
        return None if chosen == "none" else os.path.abspath(chosen)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME")}
    r = subprocess.run([sys.executable, "-c", "import os, torch; print(os.path.dirname(torch.__file__))"],
                       capture_output=True, text=True, env=env, cwd="/")
    if r.returncode != 0:
        _log("no torch importable by %s: building without the libtorch bridge" % sys.executable)
        return None
    return r.stdout.strip().splitlines()[-1]


def _torch_facts(tdir):
    r = subprocess.run(["sh", os.path.join(ROOT, "tools", "torch-config.sh"), tdir], capture_output=True,
                       text=True, check=True)
    return dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)


def run_make(config):
    """Builds into ROOT/build; returns (torch folder, the bridge's path in build/) or (None, None)."""
    tdir = target_torch(config)
    facts = _torch_facts(tdir) if tdir else {}
    debian = facts.get("kind") == "debian"
    torch_var = "TORCH=0" if not tdir else "TORCH=1" if debian else "TORCH=" + tdir
    jobs = _setting(config, "jobs", "TENSORALIAS_JOBS", "2")
    _log("make -j%s %s (torch: %s)" % (jobs, torch_var, facts.get("version", "none")))
    subprocess.run(["make", "-j" + jobs, torch_var, "all"], cwd=ROOT, check=True, stdout=sys.stderr)
    if not tdir:
        return None, None
    bridge = "libtensoralias_torch.so" if debian else os.path.join("torch", facts["key"], "libtensoralias_torch.so")
    return tdir, bridge


def _torch_version(tdir):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME")}
    r = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"], capture_output=True,
                       text=True, env=env, cwd="/")
    return r.stdout.strip().splitlines()[-1] if r.returncode == 0 else ""


class Wheel:
    """A wheel being written: files and their RECORD lines."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.record = []

    def add(self, arcname, data, mode=0o644):
        info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))

    def add_file(self, arcname, path):
        with open(path, "rb") as f:
            self.add(arcname, f.read(), 0o755 if os.access(path, os.X_OK) else 0o644)

    def close(self, distinfo):
        self.record.append(distinfo + "/RECORD,,")
        self.zip.writestr(distinfo + "/RECORD", "\n".join(self.record) + "\n")
        self.zip.close()


def _tag():
    return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nLicense: see the source tree\n"
            "Requires-Python: >=3.8\n" % (NAME, version(), SUMMARY))


def _distinfo():
    """The .dist-info folder's name and files (RECORD aside)."""
    wheel = "Wheel-Version: 1.0\nGenerator: tensoralias_build\nRoot-Is-Purelib: false\nTag: %s\n" % _tag()
    files = {"METADATA": _metadata(), "WHEEL": wheel, "entry_points.txt": ENTRY_POINTS, "top_level.txt": NAME + "\n"}
    return "%s-%s.dist-info" % (NAME, version()), files


def _write_wheel(wheel_directory, fill):
    distinfo, files = _distinfo()
    name = "%s-%s-%s.whl" % (NAME, version(), _tag())
    w = Wheel(os.path.join(wheel_directory, name))
    fill(w)
    for f, text in files.items():
        w.add(distinfo + "/" + f, text.encode())
    w.close(distinfo)
    return name


def _add_sources(w):
    src = os.path.join(ROOT, "python", "tensoralias")
    for f in sorted(os.listdir(src)):
        if f.endswith(".py"):
            w.add_file("tensoralias/" + f, os.path.join(src, f))


def _add_build(w, tdir, bridge):
    build = os.path.join(ROOT, "build")
    w.add_file("tensoralias/_build/libtensoralias.so", os.path.realpath(os.path.join(build, "libtensoralias.so")))
    for f in BUILT:
        if os.path.isfile(os.path.join(build, f)):
            w.add_file("tensoralias/_build/" + f, os.path.join(build, f))
    share = os.path.join(build, "share")
    for d, _, files in sorted(os.walk(share)):
        for f in sorted(files):
            path = os.path.join(d, f)
            w.add_file("tensoralias/_build/" + os.path.relpath(path, build), path)
    if bridge:
        w.add_file("tensoralias/_build/" + bridge, os.path.join(build, bridge))
        record = {"torch_dir": tdir, "torch_version": _torch_version(tdir), "bridge": bridge}
        w.add("tensoralias/_build/torch-built-for.json", json.dumps(record, indent=1).encode())


# ---- PEP 517 ---------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The metadata alone, without building (pip asks first)."""
    distinfo, files = _distinfo()
    os.makedirs(os.path.join(metadata_directory, distinfo), exist_ok=True)
    for f, text in files.items():
        with open(os.path.join(metadata_directory, distinfo, f), "w") as out:
            out.write(text)
    return distinfo


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    tdir, bridge = run_make(config_settings)
    return _write_wheel(wheel_directory, lambda w: (_add_sources(w), _add_build(w, tdir, bridge)))


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """PEP 660: the package imported from python/ and its build from build/ (a .pth file)."""
    run_make(config_settings)
    pth = (os.path.join(ROOT, "python") + "\n").encode()
    return _write_wheel(wheel_directory, lambda w: w.add("tensoralias_editable.pth", pth))


def build_sdist(sdist_directory, config_settings=None):
    """The files git tracks (or the tree without build folders when there is no git)."""
    base = "%s-%s" % (NAME, version())
    r = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if r.returncode == 0:
        files = [f for f in r.stdout.decode().split("\0") if f]
    else:
        files = [os.path.relpath(os.path.join(d, f), ROOT) for d, dirs, fs in os.walk(ROOT)
                 for f in fs if not os.path.relpath(d, ROOT).split(os.sep)[0].startswith(("build", ".git"))]
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for f in sorted(files):
            t.add(os.path.join(ROOT, f), arcname=base + "/" + f, recursive=False)
        meta = _metadata().encode()
        info = tarfile.TarInfo(base + "/PKG-INFO")
        info.size = len(meta)
        t.addfile(info, io.BytesIO(meta))
    return name


if __name__ == "__main__":  # python3 python/tensoralias_build.py DIR: a wheel into DIR, by hand
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    print(os.path.join(out, build_wheel(out)))
