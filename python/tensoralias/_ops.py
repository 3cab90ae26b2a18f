"""Which operators to verify, as the fnmatch patterns the bridge and the
engine match full operator names with ("mylib::op" for a default overload,
"mylib::op.out"), from what a Python user has at hand: a pattern, a
torch.ops namespace, an operator packet or overload, a 2.x custom_op, or a
list of them; and the operators a module registers when it is imported."""
import importlib


def _overload_name(schema):
    return schema.name + ("." + schema.overload_name if schema.overload_name else "")


def patterns(ops):
    """The patterns for ops (see the module's docstring)."""
    if ops is None:
        return []
    if isinstance(ops, str):
        return [ops]
    if isinstance(ops, (list, tuple, set, frozenset)):
        return [p for o in ops for p in patterns(o)]
    schema = getattr(ops, "_schema", None)
    if schema is not None and hasattr(schema, "overload_name"):  # OpOverload
        return [_overload_name(schema)]
    inner = getattr(ops, "_opoverload", None)  # torch.library.custom_op's CustomOpDef (2.x)
    if inner is not None:
        return patterns(inner)
    qualified = getattr(ops, "_qualified_op_name", None)  # OpOverloadPacket: every overload
    if isinstance(qualified, str):
        return [qualified, qualified + ".*"]
    name = getattr(ops, "name", None)  # a torch.ops namespace (_OpNamespace)
    if type(ops).__name__ == "_OpNamespace" and isinstance(name, str):
        return [name + "::*"]
    raise TypeError("tensoralias: cannot tell which operators %r names: give a pattern ('mylib::*'), "
                    "torch.ops.NS, an operator or a list of them" % (ops,))


def registered():
    """Every operator name the dispatcher holds."""
    import torch
    return set(torch._C._dispatch_get_registrations_for_dispatch_key(""))


def import_modules(modules, libraries=()):
    """Loads each extension library (torch.ops.load_library) and imports
    each module, and returns the operator names they added to the
    dispatcher (aten's left out: an import that loads more of torch is not
    what is verified)."""
    before = registered()
    if libraries:
        import torch
        for lib in libraries:
            torch.ops.load_library(lib)
    for m in modules:
        importlib.import_module(m)
    return sorted(n for n in registered() - before if not n.startswith("aten::"))
