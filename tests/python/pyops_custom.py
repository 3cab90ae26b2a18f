"""The operators of pyops.py again, as torch 2.x's torch.library.custom_op
defines them (tapy2::), each with a fake (Meta) kernel from register_fake.
The schemas are inferred from the type hints and mutates_args, as custom_op
infers them. EXPECTED is the verdict tensoralias must give each."""
import torch
from torch import Tensor

EXPECTED = {}


def op(name, verdict, argument="", mutates_args=(), fake=None):
    def register(fn):
        custom = torch.library.custom_op("tapy2::" + name, mutates_args=mutates_args)(fn)
        custom.register_fake(fake or (lambda *args, **kw: torch.empty_like(args[0])))
        EXPECTED["tapy2::" + name] = (verdict, argument)
        return custom
    return register


# ---- correct ----

@op("add_one", "ok")
def add_one(x: Tensor) -> Tensor:
    return x + 1


@op("scale_", "ok", mutates_args=("x",), fake=lambda x, s: None)
def scale_(x: Tensor, s: float) -> None:
    x.mul_(s)


@op("twice_into", "ok", mutates_args=("out",), fake=lambda x, out: None)
def twice_into(x: Tensor, out: Tensor) -> None:
    torch.mul(x, 2, out=out)


# ---- broken: each a different breach ----

@op("sneaky", "undeclared-mutation", "x")
def sneaky(x: Tensor) -> Tensor:
    y = x.clone()
    x.zero_()  # writes an input it does not declare written (mutates_args=())
    return y


@op("large_only", "undeclared-mutation", "x")
def large_only(x: Tensor) -> Tensor:
    if x.numel() >= 64:  # only on large inputs
        x.zero_()
    return x.clone()


@op("nan_only", "undeclared-mutation", "x")
def nan_only(x: Tensor) -> Tensor:
    if x.is_floating_point() and bool(torch.isnan(x).any()):  # only when a NaN is there
        x.nan_to_num_(0.0)
    return x.clone()


@op("reshape_in_place", "undeclared-metadata-mutation", "x")
def reshape_in_place(x: Tensor) -> Tensor:
    y = x.clone()
    x.unsqueeze_(0)  # changes sizes it does not declare written
    return y


# custom_op's own wrapper refuses an output that aliases an input at run
# time (2.x), so no case completes: not-exercised, with torch's message.
@op("leaky_view", "not-exercised")
def leaky_view(x: Tensor) -> Tensor:
    return x.view(-1)  # a view of x where custom_op's schema declares a fresh tensor

