"""ta_functionalize called in-process through ctypes, for scripts that
functionalize thousands of graphs (the command would load its operator set
for each). The operator set is the command's default one: torch 1.13.1's
registered operators, then the bundled native_functions.yaml, loaded once.

    lib = Functionalizer("build")
    text, counts, kept = lib.functionalize(ir_text)   # text None: the reader refused it
"""
import ctypes
import os
import re

COUNTS = ("mutating_before", "mutating_after", "rewritten", "copy_backs", "extra_outputs", "scatters",
          "regenerated", "threaded", "kept")


class _Counts(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint32) for n in COUNTS]


class _Kept(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_char_p), ("output", ctypes.c_char_p), ("line", ctypes.c_uint32),
                ("reason", ctypes.c_char_p)]


class Functionalizer:
    def __init__(self, build="build"):
        lib = ctypes.CDLL(os.path.join(build, "libtensoralias.so"))
        self.libc = ctypes.CDLL(None)
        P, I = ctypes.c_void_p, ctypes.c_int
        for name, res, args in (
                ("ta_diags_create", I, [ctypes.POINTER(P)]), ("ta_diags_destroy", None, [P]),
                ("ta_ir_ops_create", I, [ctypes.POINTER(P)]), ("ta_ir_ops_destroy", None, [P]),
                ("ta_ir_ops_add_file", I, [P, ctypes.c_char_p, P]),
                ("ta_native_load_path", I, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(P), P]),
                ("ta_ir_ops_add_native", I, [P, P, P]), ("ta_native_destroy", None, [P]),
                ("ta_ir_read", I, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(P), P]),
                ("ta_ir_graph_destroy", None, [P]),
                ("ta_functionalize", I, [P, P, P, ctypes.POINTER(P), P]),
                ("ta_functionalize_report_destroy", None, [P]),
                ("ta_functionalize_report_counts", ctypes.POINTER(_Counts), [P]),
                ("ta_functionalize_report_nkept", ctypes.c_size_t, [P]),
                ("ta_functionalize_report_kept", ctypes.POINTER(_Kept), [P, ctypes.c_size_t]),
                ("ta_ir_print", I, [P, ctypes.POINTER(P), ctypes.POINTER(ctypes.c_size_t)])):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        self.lib = lib
        self.libc.free.argtypes = [P]
        share = os.path.join(build, "share", "tensoralias")
        self.ops, d, nf = P(), P(), P()
        ok = lib.ta_diags_create(ctypes.byref(d)) == 0 and lib.ta_ir_ops_create(ctypes.byref(self.ops)) == 0
        ok = ok and lib.ta_ir_ops_add_file(self.ops, os.path.join(share, "registered-operators.txt").encode(), d) == 0
        ok = ok and lib.ta_native_load_path(os.path.join(share, "native_functions.yaml").encode(),
                                            os.path.join(share, "tags.yaml").encode(), ctypes.byref(nf), d) == 0
        ok = ok and lib.ta_ir_ops_add_native(self.ops, nf, d) == 0
        lib.ta_native_destroy(nf)
        lib.ta_diags_destroy(d)
        if not ok:
            raise RuntimeError("cannot load the operator set from " + share)

    def functionalize(self, text):
        """(rewrite as parse_ir reads it, counts dict, [(kind, output, reason)]),
        or (None, message, []) when the graph is refused."""
        lib, P = self.lib, ctypes.c_void_p
        data = text.encode()
        d, g, rep = P(), P(), P()
        lib.ta_diags_create(ctypes.byref(d))
        try:
            if lib.ta_ir_read(data, len(data), b"g.ir", ctypes.byref(g), d) != 0:
                return None, "the reader refuses the graph", []
            st = lib.ta_functionalize(g, self.ops, None, ctypes.byref(rep), d)
            if st != 0:
                return None, "ta_functionalize failed with status %d" % st, []
            c = lib.ta_functionalize_report_counts(rep).contents
            counts = {n: getattr(c, n) for n in COUNTS}
            kept = []
            for i in range(lib.ta_functionalize_report_nkept(rep)):
                k = lib.ta_functionalize_report_kept(rep, i).contents
                kept.append((k.kind.decode(), k.output.decode(), k.reason.decode()))
            buf, n = P(), ctypes.c_size_t()
            if lib.ta_ir_print(g, ctypes.byref(buf), ctypes.byref(n)) != 0:
                return None, "ta_ir_print failed", []
            out = ctypes.string_at(buf, n.value).decode()
            self.libc.free(buf)
            # torch prints a node without outputs as " = kind(...)", parse_ir reads it as "kind(...)"
            return re.sub(r"^(\s*?) ?= ", r"\1", out, flags=re.M), counts, kept
        finally:
            lib.ta_functionalize_report_destroy(rep)
            lib.ta_ir_graph_destroy(g)
            lib.ta_diags_destroy(d)

    def __del__(self):
        if getattr(self, "ops", None):
            self.lib.ta_ir_ops_destroy(self.ops)
