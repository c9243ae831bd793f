"""Prints the public names PyTorch has on the types tensh models, one `Owner.name` per line,
sorted, for src/ops/pytorch_names.txt: the attributes of its tensor and storage classes,
the `torch` module's functions (`torch.NAME`) and its classes and sub-modules
(`torch_attribute.NAME`), and the public names of the sub-modules tensh models
(`nn::functional.NAME`, `special.NAME`, ...: the path under `torch` with `::`). tensh reads that list to tell a name it has not
built (NotImplementedError, saying so) from a name PyTorch does not have either
(AttributeError, as Python says). Run it with the oracle:

    ../shared/conformance/oracle run tools/pytorch_names.py > src/ops/pytorch_names.txt
"""
import types

import torch

owners = {
    "Tensor": torch.Tensor,
    "UntypedStorage": torch.UntypedStorage,
    "TypedStorage": torch.TypedStorage,
}
names = set()
for owner, cls in owners.items():
    names.update(f"{owner}.{n}" for n in dir(cls) if not n.startswith("_"))
for n in dir(torch):
    value = getattr(torch, n)
    if n.startswith("_"):
        continue
    if callable(value) and not isinstance(value, type):
        names.add(f"torch.{n}")
    elif isinstance(value, (type, types.ModuleType)):
        # Classes and sub-modules: attributes of the module, not functions it calls.
        names.add(f"torch_attribute.{n}")
import importlib

for path in [
    "autograd",
    "autograd.functional",
    "linalg",
    "nn",
    "nn.functional",
    "nn.init",
    "optim",
    "special",
    "testing",
]:
    module = importlib.import_module(f"torch.{path}")
    owner = path.replace(".", "::")
    names.update(f"{owner}.{n}" for n in dir(module) if not n.startswith("_"))
# Byte order, as Rust's `str` comparison sorts, so tensh can search the list.
for line in sorted(names, key=lambda s: s.encode()):
    print(line)
