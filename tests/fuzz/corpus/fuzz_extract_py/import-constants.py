import torch
from .consts import SCHEMA
import os as c
from . import x
lib = torch.library.Library("ns", "DEF")
lib.define(SCHEMA)
lib.define(c.X + SCHEMA)
lib.define(f"{SCHEMA}")
