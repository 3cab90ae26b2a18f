#!/usr/bin/python3
"""schemacheck_speed.py - cases per second: torch's SchemaCheckMode against tensoralias verify.

Runs the same operators on the same sample inputs (a samples file: by default the OpInfo
corpus, build/data/opinfo/samples.json) two ways, one after the other, and prints both rates:

  - torch 1.13.1's SchemaCheckMode (torch.testing._internal.schema_check_mode): each sample is
    built as the engine builds it (samplelib.build_call) and its operator called under the mode,
    in this process; the mode clones the arguments, calls the kernel, compares every argument
    before and after and checks aliasing against the schema's SchemaInfo. A case is one sample,
    building included;
  - `tensoralias verify FILE.yaml --kernels torch --samples SUBSET --cases 0` on the same
    operators and samples (process isolation on), timed from start to exit, once for each
    --jobs given (1 without one) and each --isolate given (operator and batch without one:
    side by side, the same operators' verdicts compared between them); its start-up (the
    same command on the first operator alone) is timed beside it, and the rate without it
    printed too. Each run prints the load average before it (the machine may be shared).

    /usr/bin/python3 tools/torch/schemacheck_speed.py --ops 'aten::add*' --ops 'aten::mm*'
    /usr/bin/python3 tools/torch/schemacheck_speed.py --per-op 10 --jobs 1 --jobs 2
    /usr/bin/python3 tools/torch/schemacheck_speed.py --per-op 10 --isolate batch:16 --isolate batch:64

Needs torch 1.13.1 (Debian's python3-torch); the second half needs the libtorch bridge
(`make` builds build/libtensoralias_torch.so where libtorch is installed) and says so when it
is missing. Without --ops, every operator of the file is run.
"""
import argparse
import collections
import fnmatch
import json
import lzma
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("GLOG_minloglevel", "2")  # ATen's resize warnings, one per out= sample

import torch  # noqa: E402

import samplelib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def install_expecttest_stub():
    """torch.testing._internal imports expecttest (not in Debian); SchemaCheckMode needs its package."""
    try:
        import expecttest  # noqa: F401
    except ImportError:
        m = types.ModuleType("expecttest")
        m.ACCEPT = False
        m.TestCase = unittest.TestCase
        m.expectedFailure = unittest.expectedFailure
        sys.modules["expecttest"] = m


def read_samples(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def default_samples():
    for p in ("build/data/opinfo/samples.json", "tests/data/opinfo/samples.json.xz"):
        if os.path.exists(os.path.join(ROOT, p)):
            return os.path.join(ROOT, p)
    return None


def select(data, globs, per_op):
    out = collections.OrderedDict()
    for name, samples in data.items():
        if globs and not any(fnmatch.fnmatch(name, g) for g in globs):
            continue
        try:
            samplelib.overload(name)
        except (AttributeError, RuntimeError):
            continue
        out[name] = samples[:per_op] if per_op else samples
    return out


# ---- SchemaCheckMode ------------------------------------------------------------------------

def run_schemacheck(subset):
    from torch.testing._internal.schema_check_mode import SchemaCheckMode
    counts = collections.Counter()
    violations = collections.OrderedDict()
    errors = collections.OrderedDict()
    t0, c0 = time.perf_counter(), time.process_time()
    building = 0.0
    for name, samples in subset.items():
        op = samplelib.overload(name)
        for sample in samples:
            counts["cases"] += 1
            try:
                b0 = time.perf_counter()
                args, kwargs = samplelib.build_call(op, sample)
                building += time.perf_counter() - b0
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    with SchemaCheckMode():
                        op(*args, **kwargs)
                counts["ran"] += 1
            except RuntimeError as e:
                msg = str(e).split("\n")[0]
                if msg.startswith(("Argument ", "Outputs ")):
                    counts["violations"] += 1
                    violations.setdefault(name, msg)
                else:
                    counts["kernel errors"] += 1
                    errors.setdefault(name, msg[:160])
            except Exception as e:  # noqa: BLE001 - any other rejection
                counts["kernel errors"] += 1
                errors.setdefault(name, ("%s: %s" % (type(e).__name__, e))[:160])
    counts["building ms"] = int(building * 1000)
    counts["cpu ms"] = int((time.process_time() - c0) * 1000)
    return counts, time.perf_counter() - t0, violations, errors


# ---- tensoralias verify --------------------------------------------------------------------

def run_verify(subset, exe, yaml, jobs, isolate):
    """(counts, seconds, findings, verdicts) or (None, 0, reason, None). Counts has the run's
    CPU time and, as "start-up ms", the time of the same command on the first operator alone
    (loading libtorch, the yaml and the samples; one child); verdicts maps each operator to
    its verdict, findings (kind, argument, seed) and case counts."""
    if not os.path.exists(exe):
        return None, 0, "%s is not built" % exe
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "samples.json")
        with open(path, "w") as f:
            json.dump(subset, f)
        cmd = [exe, "verify", yaml, "--kernels", "torch", "--no-default-kernels", "--samples", path,
               "--cases", "0", "--jobs", str(jobs), "--isolate", isolate, "--format", "json", "-v"]
        for name in subset:
            cmd += ["--ops", name]
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        first = cmd.index("--ops")
        t0 = time.perf_counter()
        subprocess.run(cmd[:first + 2], capture_output=True, text=True)
        startup = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        return None, 0, "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1:] or ""), None
    counts = collections.Counter({"cpu ms": int(cpu * 1000), "start-up ms": int(startup * 1000)})
    counts["isolation"] = next((l for l in p.stderr.splitlines() if l.startswith("isolation:")), "")
    findings = collections.OrderedDict()
    verdicts = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        counts["operators"] += 1
        counts["cases"] += r["cases"]
        counts["ran"] += r["exercised"]
        counts["verdict " + r["verdict"]] += 1
        verdicts[r["op"]] = (r["verdict"], r["cases"], r["exercised"],
                             sorted((f["kind"], f["argument"], f["seed"]) for f in r.get("findings", [])))
        for f in r.get("findings", []):
            if f["severity"] == "error":
                findings.setdefault(r["op"], "%s: %s" % (f["kind"], f["message"][:160]))
    return counts, seconds, findings, verdicts


def run_and_print_verify(args, subset, sc_counts, sc_seconds, sc_cpu, jobs, isolate):
    """Times verify with --jobs jobs and --isolate isolate, prints it against SchemaCheckMode;
    its figures (with "verdicts", each operator's, for comparing the isolation modes)."""
    load = os.getloadavg()[0]
    vcounts, vseconds, vfind, verdicts = run_verify(subset, args.tensoralias, args.yaml, jobs, isolate)
    if vcounts is None:
        print("tensoralias verify --kernels torch: not run (%s)" % vfind)
        return {"jobs": jobs, "isolate": isolate, "error": vfind}
    v_rate = vcounts["cases"] / vseconds if vseconds else 0
    v_cpu = vcounts["cpu ms"] / 1000.0
    sc_rate = sc_counts["cases"] / sc_seconds if sc_seconds else 0
    print("tensoralias verify:  %7d cases, %7.2f s wall = %8.0f cases/s, %7.2f s CPU = %8.0f cases/CPU-s"
          % (vcounts["cases"], vseconds, v_rate, v_cpu, vcounts["cases"] / v_cpu if v_cpu else 0))
    startup = vcounts["start-up ms"] / 1000.0
    print("    ran %d, --jobs %d, --isolate %s, load average %.2f before, start-up included; error "
          "findings in %d operators" % (vcounts["ran"], jobs, isolate, load, len(vfind)))
    print("    " + vcounts["isolation"])
    if vseconds > startup:
        print("    start-up (libtorch, the yaml, the samples: the command on one operator) %.2f s; "
              "%.0f cases/s without it" % (startup, vcounts["cases"] / (vseconds - startup)))
    for name, msg in list(vfind.items())[:20]:
        print("    %s: %s" % (name, msg))
    if sc_rate and sc_cpu and v_cpu:
        print("ratio (--jobs %d): %.1fx SchemaCheckMode's cases per second (wall), %.1fx per CPU-second"
              % (jobs, v_rate / sc_rate, (vcounts["cases"] / v_cpu) / (sc_counts["cases"] / sc_cpu)))
    return {"cases": vcounts["cases"], "seconds": vseconds, "cases_per_s": v_rate, "cpu_seconds": v_cpu,
            "startup_seconds": startup, "load_average": load, "isolation": vcounts["isolation"],
            "ran": vcounts["ran"], "jobs": jobs, "isolate": isolate, "findings": dict(vfind),
            "verdicts": verdicts}


def compare_modes(runs):
    """Prints, for each run, the operators whose verdict, findings or case counts differ from
    the first run's (the modes must agree)."""
    ok = [r for r in runs if "verdicts" in r]
    for r in ok[1:]:
        base, other = ok[0]["verdicts"], r["verdicts"]
        differ = sorted(op for op in set(base) | set(other) if base.get(op) != other.get(op))
        print("--isolate %s --jobs %d against --isolate %s --jobs %d: %d of %d operators differ%s"
              % (r["isolate"], r["jobs"], ok[0]["isolate"], ok[0]["jobs"], len(differ), len(base),
                 "".join("\n    %s: %s / %s" % (op, base.get(op), other.get(op)) for op in differ[:10])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", default=default_samples(), help="a samples file (.json or .json.xz)")
    ap.add_argument("--ops", action="append", help="operators (fnmatch on 'aten::add.Tensor'; repeatable)")
    ap.add_argument("--per-op", type=int, default=0, help="at most this many samples per operator")
    ap.add_argument("--tensoralias", default=os.path.join(ROOT, "build/tensoralias"))
    ap.add_argument("--yaml", default=os.path.join(ROOT, "build/data/corpus/pytorch-1.13.1/native_functions.yaml"))
    ap.add_argument("--jobs", type=int, action="append",
                    help="verify's --jobs (default 1; repeatable: one verify run each)")
    ap.add_argument("--isolate", action="append",
                    help="verify's --isolate (default operator and batch; repeatable: one verify run each)")
    ap.add_argument("--no-verify", action="store_true", help="SchemaCheckMode only")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args()
    if not args.samples:
        sys.exit("no samples file: run make, or pass --samples")

    install_expecttest_stub()
    torch.set_num_threads(1)  # one core each way: the bridge runs ATen single-threaded in its children
    subset = select(read_samples(args.samples), args.ops, args.per_op)
    nsamples = sum(len(v) for v in subset.values())
    print("%d operators, %d samples from %s (torch %s); load average %.2f %.2f %.2f"
          % ((len(subset), nsamples, args.samples, torch.__version__) + os.getloadavg()))

    counts, seconds, violations, errors = run_schemacheck(subset)
    sc_rate = counts["cases"] / seconds if seconds else 0
    building = counts["building ms"] / 1000.0
    sc_cpu = counts["cpu ms"] / 1000.0
    mode_rate = counts["cases"] / (seconds - building) if seconds > building else 0
    print("SchemaCheckMode:     %7d cases, %7.2f s wall = %8.0f cases/s, %7.2f s CPU = %8.0f cases/CPU-s"
          % (counts["cases"], seconds, sc_rate, sc_cpu, counts["cases"] / sc_cpu if sc_cpu else 0))
    print("    ran %d, kernel errors %d, violations %d in %d operators; building the inputs took %.2f s "
          "(%.0f cases/s without it)" % (counts["ran"], counts["kernel errors"], counts["violations"],
                                         len(violations), building, mode_rate))
    for name, msg in list(violations.items())[:20]:
        print("    violation %s: %s" % (name, msg))
    for name, msg in list(errors.items())[:20]:
        print("    kernel error %s: %s" % (name, msg))
    result = {"operators": len(subset), "samples": nsamples,
              "schemacheck": {"cases": counts["cases"], "seconds": seconds, "cases_per_s": sc_rate,
                              "cpu_seconds": sc_cpu,
                              "building_seconds": building, "cases_per_s_without_building": mode_rate,
                              "ran": counts["ran"], "kernel_errors": counts["kernel errors"],
                              "violations": dict(violations), "kernel_errors_by_op": dict(errors)}}

    if not args.no_verify:
        result["verify"] = [run_and_print_verify(args, subset, counts, seconds, sc_cpu, jobs, isolate)
                            for jobs in (args.jobs or [1]) for isolate in (args.isolate or ["operator", "batch"])]
        compare_modes(result["verify"])
        for r in result["verify"]:
            r.pop("verdicts", None)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
