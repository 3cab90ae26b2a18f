import torch


@torch.library.custom_op("mylib::silu_into", mutates_args=("out",))
def silu_into(x: torch.Tensor, out: torch.Tensor) -> None:
    out.copy_(x * x.sigmoid())
