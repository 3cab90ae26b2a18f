"""Python operators for the Python package's tests (tapy::): correct ones
and broken ones, each broken one a different breach of its schema's
memory contract. torch.library.Library + define + impl, as in torch 1.13.1
and 2.x. EXPECTED is the verdict tensoralias must give each."""
import torch

lib = torch.library.Library("tapy", "DEF")

EXPECTED = {}


def op(schema, verdict, argument=""):
    """Defines schema with the decorated function as its CPU kernel."""
    def register(fn):
        lib.define(schema)
        name = schema.split("(", 1)[0]
        lib.impl(name, fn, "CPU")
        EXPECTED["tapy::" + name] = (verdict, argument)
        return fn
    return register


# ---- correct ----

@op("add_one(Tensor x) -> Tensor", "ok")
def add_one(x):
    return x + 1


@op("scale_(Tensor(a!) self, float s) -> Tensor(a!)", "ok")
def scale_(self, s):
    return self.mul_(s)


@op("twice.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)", "ok")
def twice_out(x, out):
    return torch.mul(x, 2, out=out)


@op("first_row(Tensor(a) x) -> Tensor(a)", "ok")
def first_row(x):
    return x[0] if x.dim() else x.view(())


# ---- broken: each a different breach ----

@op("sneaky(Tensor x) -> Tensor", "undeclared-mutation", "x")
def sneaky(x):
    y = x.clone()
    x.zero_()  # writes an input it does not declare written
    return y


@op("leaky_view(Tensor x) -> Tensor", "undeclared-alias", "x")
def leaky_view(x):
    return x.view(-1)  # a view of x where the schema declares a fresh tensor


@op("ignores_out.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)", "out-not-returned", "out")
def ignores_out(x, out):
    return x * 2  # a new tensor; out is neither written nor returned


@op("large_only(Tensor x) -> Tensor", "undeclared-mutation", "x")
def large_only(x):
    if x.numel() >= 64:  # only on large inputs
        x.zero_()
    return x.clone()


@op("nan_only(Tensor x) -> Tensor", "undeclared-mutation", "x")
def nan_only(x):
    if x.is_floating_point() and bool(torch.isnan(x).any()):  # only when a NaN is there
        x.nan_to_num_(0.0)
    return x.clone()


@op("copied_view(Tensor(a) x) -> Tensor(a)", "view-returned-copy", "return 0")
def copied_view(x):
    return x.clone()  # declares a view, returns a copy


@op("reshape_in_place(Tensor x) -> Tensor", "undeclared-metadata-mutation", "x")
def reshape_in_place(x):
    y = x.clone()
    x.unsqueeze_(0)  # changes an input's sizes it does not declare written
    return y
