"""tensoralias: verify the memory contracts (alias annotations) of the
operators a Python process registers, Python kernels included, with the
tensoralias engine (a C library; these are its bindings).

    import tensoralias
    report = tensoralias.verify("mylib::*")      # or torch.ops.mylib, an op, a list
    assert report.ok, report

    tensoralias.parse("mylib::op(Tensor(a!) x) -> Tensor(a!)").is_mutable("x")
    tensoralias.check_sources(["src/"])          # diagnostics of the declared schemas

`python -m tensoralias verify --import MODULE` and the pytest plugin
(`pytest --tensoralias-ops 'mylib::*'`) run the same engine.
"""
from ._runner import VerifyError
from ._verify import verify
from .report import Finding, OpResult, Report
from .schema import Diagnostic, Schema, SchemaError, parse
from .sources import check_sources

__version__ = "0.1.0"
__all__ = ["verify", "parse", "check_sources", "Report", "OpResult", "Finding", "Schema", "Diagnostic",
           "SchemaError", "VerifyError"]
