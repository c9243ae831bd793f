# The oracle's prelude (../shared/conformance/oracle): a case's `--- python` section ran after
# it, so the Python side of a case with a Rhai side runs after it here too.
import array, math, sys, warnings
import torch
torch.manual_seed(0)

def _fmt(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if x is None:
        return "()"
    if isinstance(x, torch.Size):
        return repr(x)
    if type(x).__module__ == "torch.return_types":
        return repr(x)
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_fmt(v) for v in x) + "]"
    if isinstance(x, str):
        return x
    return repr(x)

def p(*xs):
    print(*[_fmt(x) for x in xs])

def err(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
