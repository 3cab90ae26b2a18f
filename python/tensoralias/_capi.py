"""ctypes declarations of the public C API (include/tensoralias/*.h) that
the package calls. The structures mirror the headers field for field;
tests/python/test_layout.py compiles the headers and compares every size
and offset, so a header change that is not made here fails the suite.

libtensoralias.so is loaded RTLD_GLOBAL: kernel libraries (the libtorch
bridge) leave the engine's ta_* runtime undefined and bind it from their
host, which here is this library.
"""
import ctypes
import os

from . import _paths

c_bool, c_char_p, c_void_p, c_size_t = ctypes.c_bool, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t
c_uint32, c_uint64, c_int, c_double = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int, ctypes.c_double

TA_OK = 0


class Diag(ctypes.Structure):
    _fields_ = [("severity", c_int), ("rule", c_char_p), ("message", c_char_p), ("source", c_char_p),
                ("line", c_uint32), ("col", c_uint32), ("length", c_uint32), ("source_line", c_char_p),
                ("hint", c_char_p), ("op", c_char_p), ("line_skipped", c_uint32), ("line_cut", c_bool)]


class Finding(ctypes.Structure):
    _fields_ = [("kind", c_int), ("severity", c_int), ("argument", ctypes.c_char * 64), ("seed", c_uint64),
                ("message", ctypes.c_char * 1024)]


class OpResult(ctypes.Structure):
    _fields_ = [("op", ctypes.c_char * 256), ("verdict", c_int), ("severity", c_int), ("cases", c_uint32),
                ("exercised", c_uint32), ("note", ctypes.c_char * 256), ("discovery_calls", c_uint32),
                ("discovered", c_uint32), ("screened", c_uint32), ("discovery_seconds", c_double), ("derived", c_bool),
                ("findings", ctypes.POINTER(Finding)), ("nfindings", c_size_t)]


class VerifyStats(ctypes.Structure):
    _fields_ = [("children", c_uint32), ("reruns", c_uint32), ("timeouts_rerun", c_uint32), ("cut", c_uint32)]


class VerifyReport(ctypes.Structure):
    _fields_ = [("ops", ctypes.POINTER(OpResult)), ("nops", c_size_t), ("total_cases", c_uint64),
                ("seconds", c_double), ("stats", VerifyStats)]


class VerifyOpts(ctypes.Structure):
    _fields_ = [("seed", c_uint64), ("cases", c_uint32), ("samples_only", c_bool), ("timeout", c_double),
                ("jobs", c_uint32), ("trap_writes", c_bool), ("in_process", c_bool),
                ("has_case_seed", c_bool), ("case_seed", c_uint64), ("no_discovery", c_bool), ("discovered", c_char_p),
                ("dev", c_void_p), ("samples", c_void_p),
                ("strict", c_bool), ("progress", c_void_p), ("progress_ud", c_void_p), ("batch", c_uint32)]


_StrList = ctypes.POINTER(c_char_p)
# verify.h: ta_verify_log_fn, report.h: ta_write_fn
LOG_FN = ctypes.CFUNCTYPE(None, c_void_p, c_bool, c_char_p)
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, ctypes.POINTER(ctypes.c_char), c_size_t)
TA_VERIFY_TEXT, TA_VERIFY_JSON, TA_VERIFY_SARIF, TA_VERIFY_JUNIT = 0, 1, 2, 3


class VerifyConfig(ctypes.Structure):
    _fields_ = [("yaml", c_char_p), ("schema_files", _StrList), ("nschema_files", c_size_t),
                ("schema_sources", _StrList), ("nschema_sources", c_size_t), ("kernels", _StrList),
                ("nkernels", c_size_t), ("torch_libraries", _StrList), ("ntorch_libraries", c_size_t),
                ("torch_dir", c_char_p), ("no_default_kernels", c_bool), ("compose", c_int), ("cuda", c_bool),
                ("samples", c_char_p), ("no_default_samples", c_bool), ("run", VerifyOpts), ("ops", _StrList),
                ("nops", c_size_t), ("baseline", c_char_p), ("data_dir", c_char_p), ("log", LOG_FN),
                ("log_ud", c_void_p), ("torch_ops", _StrList), ("ntorch_ops", c_size_t)]


class Slot(ctypes.Structure):
    _fields_ = [("kind", c_int), ("index", c_uint32)]


class Str(ctypes.Structure):
    _fields_ = [("ptr", c_void_p), ("len", c_uint32)]

    def text(self):
        return ctypes.string_at(self.ptr, self.len).decode() if self.len else ""


class Span(ctypes.Structure):
    _fields_ = [("off", c_uint32), ("len", c_uint32)]


class Default(ctypes.Structure):
    _fields_ = [("kind", c_int), ("text", Str)]


class Arg(ctypes.Structure):
    _fields_ = [("name", Str), ("type", c_void_p), ("def", Default), ("kwarg_only", c_bool), ("is_out", c_bool),
                ("span", Span)]


class Ret(ctypes.Structure):
    _fields_ = [("name", Str), ("type", c_void_p), ("span", Span)]


class Schema(ctypes.Structure):
    _fields_ = [("text", c_char_p), ("ns", Str), ("name", Str), ("overload", Str), ("full_name", Str),
                ("args", ctypes.POINTER(Arg)), ("rets", ctypes.POINTER(Ret)), ("source", c_char_p),
                ("text_len", c_uint32), ("nargs", c_uint32), ("nrets", c_uint32), ("kwarg_marker", ctypes.c_int32),
                ("name_span", Span), ("args_span", Span), ("rets_span", Span), ("base_line", c_uint32),
                ("base_col", c_uint32), ("rets_parenthesized", c_bool), ("vararg", c_bool), ("varret", c_bool)]


class ExtractOp(ctypes.Structure):
    _fields_ = [("schema", c_char_p), ("schema_len", c_uint32), ("name", c_char_p), ("ns", c_char_p),
                ("file", c_char_p), ("line", c_uint32), ("col", c_uint32), ("how", c_int), ("inferred", c_bool),
                ("has_kernel", c_bool), ("parsed", ctypes.POINTER(Schema))]


class ExtractOpts(ctypes.Structure):
    _fields_ = [("defines", ctypes.POINTER(c_char_p)), ("no_git", c_bool),
                ("include_dirs", ctypes.POINTER(c_char_p)), ("compile_commands", c_char_p),
                ("no_includes", c_bool)]


_P = ctypes.POINTER
_SIGNATURES = {
    # diag.h
    "ta_status_str": (c_char_p, [c_int]),
    "ta_severity_str": (c_char_p, [c_int]),
    "ta_diags_create": (c_int, [_P(c_void_p)]),
    "ta_diags_destroy": (None, [c_void_p]),
    "ta_diags_count": (c_size_t, [c_void_p]),
    "ta_diags_get": (_P(Diag), [c_void_p, c_size_t]),
    # exec.h
    # verify.h
    "ta_verify_session_create": (c_int, [_P(VerifyConfig), _P(c_void_p), c_void_p]),
    "ta_verify_session_run": (c_int, [c_void_p, c_void_p]),
    "ta_verify_session_report": (_P(VerifyReport), [c_void_p]),
    "ta_verify_session_opts": (_P(VerifyOpts), [c_void_p]),
    "ta_verify_session_write": (c_int, [c_void_p, c_int, c_bool, WRITE_FN, c_void_p]),
    "ta_verify_session_failed": (c_bool, [c_void_p]),
    "ta_verify_session_destroy": (None, [c_void_p]),
    # schema.h, alias.h
    "ta_arena_create": (c_int, [_P(c_void_p)]),
    "ta_arena_destroy": (None, [c_void_p]),
    "ta_schema_parse": (c_int, [c_void_p, c_char_p, c_size_t, c_void_p, _P(_P(Schema)), c_void_p]),
    "ta_schema_op_name": (c_size_t, [_P(Schema), c_char_p, c_size_t]),
    "ta_alias_query_create": (c_int, [_P(Schema), _P(c_void_p), c_void_p]),
    "ta_alias_query_destroy": (None, [c_void_p]),
    "ta_alias_query_ninputs": (c_uint32, [c_void_p]),
    "ta_alias_query_noutputs": (c_uint32, [c_void_p]),
    "ta_alias_query_is_mutable_input": (c_bool, [c_void_p, c_uint32]),
    "ta_alias_query_may_alias": (c_bool, [c_void_p, Slot, Slot]),
    "ta_alias_query_may_contain_alias": (c_bool, [c_void_p, Slot, Slot]),
    "ta_alias_query_is_view_op": (c_bool, [c_void_p]),
    "ta_alias_check_custom": (c_int, [_P(Schema), c_void_p]),
    # extract.h
    "ta_extract_create": (c_int, [_P(ExtractOpts), _P(c_void_p)]),
    "ta_extract_destroy": (None, [c_void_p]),
    "ta_extract_path": (c_int, [c_void_p, c_char_p, c_void_p]),
    "ta_extract_finish": (c_int, [c_void_p, c_void_p]),
    "ta_extract_count": (c_size_t, [c_void_p]),
    "ta_extract_get": (_P(ExtractOp), [c_void_p, c_size_t]),
    "ta_alias_check_extracted": (c_int, [c_void_p, c_void_p]),
}

_lib = None


def lib():
    """libtensoralias.so, loaded once (RTLD_GLOBAL), with every function
    above declared."""
    global _lib
    if _lib is None:
        path = os.path.join(_paths.require_build_dir(), "libtensoralias.so")
        handle = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(handle, name)
            fn.restype, fn.argtypes = res, args
        _lib = handle
    return _lib


def text(b):
    return b.decode("utf-8", "replace") if b is not None else None


class Diags:
    """A ta_diags list for one call; its diagnostics as dicts."""

    def __init__(self):
        self.ptr = c_void_p()
        if lib().ta_diags_create(ctypes.byref(self.ptr)) != TA_OK:
            raise MemoryError("tensoralias: out of memory")

    def items(self):
        out = []
        for i in range(lib().ta_diags_count(self.ptr)):
            g = lib().ta_diags_get(self.ptr, i).contents
            out.append({"severity": text(lib().ta_severity_str(g.severity)), "rule": text(g.rule),
                        "message": text(g.message), "source": text(g.source), "line": g.line, "col": g.col,
                        "hint": text(g.hint), "op": text(g.op)})
        return out

    def close(self):
        lib().ta_diags_destroy(self.ptr)
        self.ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
