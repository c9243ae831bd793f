"""Prints a declaration block (src/ops/signature/declarations.txt) for each name given,
read off PyTorch's own behaviour: its TypeErrors list a parser's overloads, probing one
argument at a time names a lone overload's parameters, and Python functions have their
`inspect` signature. Run it with the oracle and review the output before adding it:

    ../shared/conformance/oracle run tools/declare.py   # names in $TENSH_DECLARE, e.g.
    TENSH_DECLARE="Tensor.narrow torch.zeros" ../shared/conformance/oracle run tools/declare.py
"""
import os
import torch, inspect, re, sys, json, warnings
warnings.filterwarnings("ignore")
x = torch.ones(2)
recv = {'Tensor': x, 'UntypedStorage': torch.UntypedStorage(4), 'TypedStorage': torch.FloatStorage(2),
        'Size': torch.Size([2])}
O = object()
def err(f):
    try:
        f(); return None
    except TypeError as ex: return str(ex)
    except Exception as ex: return "OTHER " + type(ex).__name__ + ": " + str(ex)
VALID = {"int": 0, "float": 0.0, "bool": False, "Number": 1, "Tensor": torch.ones(1), "tuple of ints": [1],
         "torch.dtype": torch.float32, "str": "a", "torch.memory_format": torch.contiguous_format,
         "torch.layout": torch.strided, "torch.device": "cpu", "torch.Generator": torch.Generator(),
         "tuple of Tensors": [torch.ones(1)], "tuple of names": None, "PyObject *": 1, "Storage": torch.UntypedStorage(1), "IntArrayRef": [1]}
KW = ["out", "dtype", "layout", "device", "pin_memory", "requires_grad", "memory_format", "generator", "names",
      "non_blocking", "copy", "alpha", "rounding_mode", "keepdim", "dim", "rtol", "atol", "equal_nan", "mean", "std",
      "shared", "size", "count", "offset", "buffer", "filename", "storage_offset", "stride", "low", "high", "from", "to",
      "min", "max", "exponent", "other", "value", "start", "end", "step", "steps", "input", "tensor", "src", "condition",
      "device_type", "copy"]
def schema_defaults(name):
    d = {}
    try:
        for s in torch._C._jit_get_schemas_for_operator("aten::" + name):
            for a in s.arguments:
                if a.has_default_value():
                    v = a.default_value
                    if v is None: v = "None"
                    elif isinstance(v, bool): v = str(v)
                    elif isinstance(v, torch.memory_format): v = "torch." + str(v).split('.')[-1]
                    d.setdefault(a.name, str(v))
    except Exception: pass
    return d
def single_overload(f, name, nmax, nmin):
    params, vals = [], []
    for i in range(nmax):
        m = err(lambda: f(*vals, O))
        mm = m and re.search(r"argument '(\w+)' \(position (\d+)\) must be (.+?), not object", m)
        if not mm: return None, f"position {i+1}: {m}"
        params.append((mm.group(3), mm.group(1)))
        v = VALID.get(mm.group(3), 1)
        vals.append(v)
    req = vals[:nmin]
    kws = []
    for k in KW:
        if k in [p[1] for p in params]: continue
        m = err(lambda: f(*req, **{k: O}))
        mm = m and re.search(r"argument '(\w+)' must be (.+?), not object", m)
        if mm and mm.group(1) == k: kws.append((mm.group(2), k))
    defaults = schema_defaults(name)
    extra = {"out": "None", "requires_grad": "False", "pin_memory": "False", "names": "None", "dtype": "None",
             "layout": "None", "device": "None", "generator": "None", "memory_format": "None"}
    parts = []
    for i, (ty, n) in enumerate(params):
        parts.append(f"{ty} {n}" + ("" if i < nmin else f" = {defaults.get(n, 'None')}"))
    if kws:
        parts.append("*")
        for ty, n in kws: parts.append(f"{ty} {n} = {defaults.get(n, extra.get(n, 'None'))}")
    return ", ".join(parts), None
def declare(owner, name):
    if owner == 'torch':
        f = torch
        for part in name.split('::'):
            f = getattr(f, part, None)
            if f is None: break
    else:
        try: f = getattr(recv[owner], name, None)
        except Exception: f = None
    if f is None: return [f"missing"]
    kwm = err(lambda: f(zzz=1)) or ""
    pyf = getattr(f, '__func__', f)
    if inspect.isfunction(pyf) or inspect.isclass(f):
        qual = kwm.split("()")[0] if "()" in kwm else name
        try: sig = str(inspect.signature(pyf.__new__ if inspect.isclass(f) else pyf))
        except Exception as ex: sig = "?"
        sig = re.sub(r" -> .*$", "", sig)
        sig = re.sub(r": ('[^']*'|[\w.\[\]| ]+?)(?=[,)=])", "", sig)
        sig = re.sub(r"(\w)=", r"\1=", sig)
        sig = re.sub(r" = ", "=", sig)
        return [f"python: {qual}{sig}"]
    if kwm.endswith("takes no keyword arguments"):
        qual = kwm.split("()")[0]
        m2 = err(lambda: f(O, O))
        # Called as `x.abs(...)` is, through the type (the messages name the C class).
        direct = getattr(type(recv[owner]), name, None) if owner in recv else None
        m1 = (err(lambda: direct(recv[owner], O)) if direct else err(lambda: f(O))) or ""
        q = m1.split('()')[0]
        if "takes no arguments" in m2: return [f"noargs: {q} | {q}"]
        if "exactly one argument" in m2:
            q2 = ((err(lambda: direct(recv[owner], O, O)) if direct else m2) or "").split('()')[0]
            return [f"onearg: {q2} | {q2}"]
        return [f"UNKNOWN-C {kwm} / {m2}"]
    m = err(lambda: f(*[O] * 12))
    if m and "but expected (" in m:
        return ["hidden: yes", "parser: " + m.split("but expected (",1)[1][:-1]]
    if m and "invalid combination" in m:
        return ["parser: " + l.strip()[3:-1] for l in m.split("\n") if l.startswith(" * (")]
    mm = m and re.search(r"takes (?:from (\d+) to )?(\d+) positional arguments? but", m)
    if mm:
        nmax = int(mm.group(2)); nmin = int(mm.group(1)) if mm.group(1) else nmax
        text, problem = single_overload(f, name, nmax, nmin)
        if text is None: return [f"UNKNOWN-single {problem}"]
        return [f"parser: {text}"]
    return [f"UNKNOWN {m}"]
for key in os.environ.get("TENSH_DECLARE", "").split():
    owner, name = key.split(".", 1)
    print(f"[{owner}.{name}]")
    for l in declare(owner, name):
        print(l)
