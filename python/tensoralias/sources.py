"""tensoralias.check_sources: the operator schemas C++ and Python sources
declare (TORCH_LIBRARY blocks, torch.library.Library / define / custom_op),
extracted and checked with the custom-operator rules, as `tensoralias
check` does with sources."""
import ctypes

from . import _capi
from .schema import Diagnostic


def check_sources(paths, defines=()):
    """Extracts the schemas of every file or directory in paths and checks
    them. Returns the diagnostics (Diagnostic objects: errors, warnings and
    notes). defines: macros as a compiler's -D gives them
    ("TORCH_EXTENSION_NAME=_C")."""
    if isinstance(paths, str):
        paths = [paths]
    lib = _capi.lib()
    raw = [d.encode() for d in defines] + [None]
    opts = _capi.ExtractOpts((ctypes.c_char_p * len(raw))(*raw), False)
    x = ctypes.c_void_p()
    if lib.ta_extract_create(ctypes.byref(opts), ctypes.byref(x)) != _capi.TA_OK:
        raise MemoryError("tensoralias: out of memory")
    try:
        with _capi.Diags() as d:
            for p in paths:
                if lib.ta_extract_path(x, str(p).encode(), d.ptr) != _capi.TA_OK:
                    raise OSError("; ".join(str(Diagnostic(g)) for g in d.items()) or "cannot read %s" % p)
            lib.ta_extract_finish(x, d.ptr)
            lib.ta_alias_check_extracted(x, d.ptr)
            return [Diagnostic(g) for g in d.items()]
    finally:
        lib.ta_extract_destroy(x)
