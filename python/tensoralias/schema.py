"""tensoralias.parse: one schema, parsed as PyTorch parses it, and the
alias and mutation questions torch's SchemaInfo answers about it (the
library's ta_alias_query: exactly SchemaInfo's answers when given no
argument values)."""
import ctypes

from . import _capi


class Diagnostic:
    """One diagnostic of the library: severity, rule, message, where (file,
    line, col), hint, the operator it is about."""

    __slots__ = ("severity", "rule", "message", "file", "line", "col", "hint", "op")

    def __init__(self, d):
        self.severity, self.rule, self.message = d["severity"], d["rule"], d["message"]
        self.file, self.line, self.col, self.hint, self.op = d["source"], d["line"], d["col"], d["hint"], d["op"]

    def __str__(self):
        where = "%s:%d:%d: " % (self.file, self.line, self.col) if self.line else ""
        hint = " (hint: %s)" % self.hint if self.hint else ""
        return "%s%s: %s [%s]%s" % (where, self.severity, self.message, self.rule, hint)

    def __repr__(self):
        return "Diagnostic(%r)" % str(self)


class SchemaError(ValueError):
    """A schema that does not parse; .diagnostics says where and why."""

    def __init__(self, diagnostics):
        super().__init__("; ".join(str(d) for d in diagnostics) or "schema does not parse")
        self.diagnostics = diagnostics


class Schema:
    """A parsed schema. Slots are inputs and outputs: an argument's name,
    an input's index, or ("input"|"output", index)."""

    def __init__(self, text):
        lib = _capi.lib()
        self._arena, self._query = ctypes.c_void_p(), ctypes.c_void_p()
        if lib.ta_arena_create(ctypes.byref(self._arena)) != _capi.TA_OK:
            raise MemoryError("tensoralias: out of memory")
        raw = text.encode()
        s = ctypes.POINTER(_capi.Schema)()
        with _capi.Diags() as d:
            ok = lib.ta_schema_parse(self._arena, raw, len(raw), None, ctypes.byref(s), d.ptr) == _capi.TA_OK
            ok = ok and lib.ta_alias_query_create(s, ctypes.byref(self._query), d.ptr) == _capi.TA_OK
            if not ok:
                raise SchemaError([Diagnostic(x) for x in d.items()])
            lib.ta_alias_check_custom(s, d.ptr)
            #: what the custom-operator rules say about it (`tensoralias check`'s)
            self.diagnostics = [Diagnostic(x) for x in d.items()]
        self._schema = s
        c = s.contents
        buf = ctypes.create_string_buffer(lib.ta_schema_op_name(s, None, 0) + 1)
        lib.ta_schema_op_name(s, buf, len(buf))
        self.name = buf.value.decode()
        self.text = text
        self.arguments = [c.args[i].name.text() for i in range(c.nargs)]
        self.returns = [c.rets[i].name.text() for i in range(c.nrets)]

    def _slot(self, slot):
        if isinstance(slot, str):
            if slot not in self.arguments:
                raise KeyError("%s has no argument %r" % (self.name, slot))
            return _capi.Slot(0, self.arguments.index(slot))
        if isinstance(slot, int):
            return _capi.Slot(0, slot)
        kind, index = slot
        if kind not in ("input", "output"):
            raise ValueError("a slot is ('input' or 'output', index), not %r" % (slot,))
        return _capi.Slot(0 if kind == "input" else 1, index)

    def is_mutable(self, slot=None):
        """SchemaInfo.is_mutable(): some input is written; with a slot, that input."""
        lib = _capi.lib()
        if slot is None:
            return any(lib.ta_alias_query_is_mutable_input(self._query, i) for i in range(len(self.arguments)))
        return bool(lib.ta_alias_query_is_mutable_input(self._query, self._slot(slot).index))

    def may_alias(self, a, b):
        return bool(_capi.lib().ta_alias_query_may_alias(self._query, self._slot(a), self._slot(b)))

    def may_contain_alias(self, a, b):
        return bool(_capi.lib().ta_alias_query_may_contain_alias(self._query, self._slot(a), self._slot(b)))

    @property
    def is_view(self):
        """A view op (torchgen's reading): it returns a non-written alias of an input."""
        return bool(_capi.lib().ta_alias_query_is_view_op(self._query))

    @property
    def mutable_arguments(self):
        return [a for i, a in enumerate(self.arguments) if self.is_mutable(i)]

    def __del__(self):
        lib = _capi.lib()
        if getattr(self, "_query", None):
            lib.ta_alias_query_destroy(self._query)
        if getattr(self, "_arena", None):
            lib.ta_arena_destroy(self._arena)

    def __repr__(self):
        return "Schema(%r)" % self.text


def parse(schema):
    """Parses one schema ("mylib::op(Tensor(a!) x) -> Tensor(a!)"); raises
    SchemaError with the diagnostics when it does not parse."""
    return Schema(schema)
