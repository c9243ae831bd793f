"""Prints src/ops/signature/returns.txt: the type each declared method, property and
`torch` function returns, read off PyTorch itself, for completion after a chain
(`x.t().is_c<Tab>`). A name is listed when PyTorch says what it returns: every schema of its
ATen operator returns one Tensor (whatever the arguments), or else calling it without
arguments, or reading the property, on a sample receiver gives a value of a type tensh has
(for that form only). Run it with the oracle from the repository's root:

    TENSH_ROOT=$PWD ../shared/conformance/oracle run tools/declare_returns.py > src/ops/signature/returns.txt
"""
import re, warnings
import torch
warnings.filterwarnings("ignore")

TYPES = {torch.Tensor: "Tensor", torch.UntypedStorage: "UntypedStorage", torch.Size: "Size",
         torch.dtype: "dtype", torch.device: "device"}

def type_name(value):
    if isinstance(value, torch.TypedStorage):
        return "TypedStorage"
    for cls, name in TYPES.items():
        if type(value) is cls or (cls is torch.Tensor and isinstance(value, torch.Tensor)):
            return name
    return None

def from_schemas(name):
    """`Tensor` when every schema of `aten::name` returns one Tensor; `False` when there are
    schemas and they return something else; `None` when there is no schema."""
    try:
        schemas = torch._C._jit_get_schemas_for_operator("aten::" + name)
    except Exception:
        return None
    if not schemas:
        return None
    returns = set()
    for s in schemas:
        if any(a.name == "out" or a.is_out for a in s.arguments):
            continue
        types = [str(r.type) for r in s.returns]
        returns.add(tuple(types))
    return "Tensor" if returns == {("Tensor",)} else False

def samples(owner):
    if owner == "Tensor":
        return torch.arange(6.0).view(2, 3)
    if owner == "UntypedStorage":
        return torch.arange(6.0).untyped_storage()
    if owner == "TypedStorage":
        return torch.arange(6.0).storage()
    if owner == "Size":
        return torch.Size([2, 3])
    return None

SIDE_EFFECTS = {"backward", "share_memory_", "pin_memory", "cuda", "mps", "xpu", "hpu", "ipu",
                "retain_grad", "requires_grad_", "register_hook", "detach_", "resize_", "zero_",
                "fill_", "pickle_storage_type", "_share_filename_cpu_", "_share_fd_cpu_"}

def probe(owner, name):
    recv = samples(owner)
    if recv is None or name in SIDE_EFFECTS or name.endswith("_"):
        return None
    try:
        attr = getattr(type(recv), name, None)
        if isinstance(attr, property) or type(attr).__name__ == "getset_descriptor":
            t = type_name(getattr(recv, name))
            return t and (name, t)
        value = getattr(recv, name)
        if callable(value):
            t = type_name(value())
            return t and (name + "()", t)
        t = type_name(value)
        return t and (name, t)
    except Exception:
        return None

names = []
import os
ROOT = os.environ.get("TENSH_ROOT", ".")
for line in open(os.path.join(ROOT, "src/ops/signature/declarations.txt")):
    m = re.match(r"\[(\w+)\.([\w:]+)\]", line)
    if m:
        names.append((m.group(1), m.group(2)))

print("# What each name returns, read off PyTorch 2.15 by tools/declare_returns.py (do not edit):")
print("# `Owner.name(...) Type`: a call with any arguments; `Owner.name() Type`: a call without")
print("# arguments; `Owner.name Type`: a property. Names whose result PyTorch does not fix are")
print("# not listed.")
for owner, name in names:
    found = None
    if owner in ("Tensor", "torch") and "::" not in name:
        schema = from_schemas(name)
        if schema:
            found = (name + "(...)", schema)
        elif owner == "Tensor":
            found = probe(owner, name)
    elif owner in ("UntypedStorage", "TypedStorage", "Size"):
        found = probe(owner, name)
    if found:
        print(f"{owner}.{found[0]} {found[1]}")
