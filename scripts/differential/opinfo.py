"""PyTorch's own OpInfo samples, run in PyTorch and in tensh, compared call by call.

Run it with the oracle's Python (it imports torch and PyTorch's test database, which needs
the `expecttest` package in that environment):

    ~/.cache/tensh-oracle/bin/python -m pip install expecttest      # once
    ~/.cache/tensh-oracle/bin/python scripts/differential/opinfo.py [--ops add,abs]
        [--samples 6] [--tensh target/release/tensh] [--table docs/opinfo.md]
        [--show-differences 3]

For every op of `op_db` that a plain call can reach (`torch.NAME(...)` or, failing that,
`t.NAME(...)`) and every dtype a tensor can have on the CPU — the ones OpInfo lists for the
op and the others, which must be refused as PyTorch refuses them — up to `--samples` of the
op's `sample_inputs` (the first ones, which are its plain cases) become a Python program of
their own: the inputs written out as literals (a strided input as its storage and
`as_strided`), the call, and one line describing what came back (each tensor's dtype,
shape, strides and values) or what was raised (class and message). The same program is run
by this process (PyTorch) and by `tensh`, and each sample's line is compared. A sample
whose inputs cannot be written as Python source (a generator, a callable) is left out and
counted.

Each differing sample falls in one class: `raised` (tensh raised where PyTorch computed),
`computed` (tensh computed where PyTorch raised), `exception class`, `message`,
`dtype/shape`, `strides`, `values` (`values ~` when every number is within 1e-6 relative
of PyTorch's: a last-bit difference), `missing` (tensh printed no line: it stopped before).
The summary counts (op, dtype, sample) triples; `--table` writes a table per op in
Markdown. Ops whose name has a dot (`nn.functional.relu`, `linalg.norm`) belong to
modules tensh does not have yet, private ops (`_foo`) are no API, and `empty*` ops return
uninitialized memory: they are skipped unless named with `--ops`.
"""

import argparse
import contextlib
import io
import math
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

import torch

DTYPES = [
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64,
    torch.complex64, torch.complex128,
]

# What each sample prints: the same function runs in both, so only the op's result differs.
PRELUDE = '''import torch
nan = float("nan")
inf = float("inf")

def _show(r):
    if isinstance(r, torch.Tensor):
        return "T %s %s %s %r" % (r.dtype, list(r.shape), r.stride(), r.tolist())
    if isinstance(r, (tuple, list)):
        return "(" + ", ".join(_show(x) for x in r) + ")"
    return "V %s %r" % (type(r).__name__, r)

def _raised(e):
    text = str(e).strip().splitlines()
    return "E %s %s" % (type(e).__name__, text[0] if text else "")
'''


# What is known of each class of difference (written from reading the differing samples).
REASONS = {
    "values ~": "the last bits of transcendental and complex functions (`acos`, `logit`, "
                "`polygamma`, complex `abs`) and of float32 sums: PyTorch's vectorized CPU "
                "kernels round differently from tensh's scalar formulas and summation order "
                "(SLEEF's float32 `cos`, `expm1`, `tanh`, ...: within 1 ulp, not correctly "
                "rounded). Where an op's vectorized and scalar forms differ (complex `sgn` and "
                "division: parts divided by `|z|` against Smith's division, with and without "
                "FMA), PyTorch runs the vectorized form on each inner row's whole chunks of two "
                "vectors and the scalar form on the rest; tensh runs one form everywhere",
    "values": "float16/bfloat16 products and reductions (`addbmm`, `baddbmm`, `addmv`, "
              "`std_mean`, `var_mean`) accumulated in another order or precision; "
              "`unravel_index` and `sort`/`argsort` of ties and NaNs",
    "message": "kernel names in refusals (`histogram`, `index_reduce`, `softmax` with a "
               "dtype, `norm` nuclear) still worded otherwise",
    "computed": "dtype refusals tensh does not make yet (`tril_indices`/`triu_indices`, "
                "`mvlgamma`, `gradient`, `cov`/`corrcoef` of bool)",
    "raised": "inputs tensh refuses that PyTorch takes (`tensordot` dims forms, "
              "`logsumexp` of integers, complex `cummax`/`cummin`, `searchsorted` sorters)",
    "dtype/shape": "result dtypes of `addbmm`/`baddbmm`/`addmv` with low-precision inputs and "
                   "`sum_to_size`",
    "exception class": "`to_sparse` (sparse layouts are out of tensh's scope) and a few "
                       "refusals raised as another class",
    "strides": "output strides of ops whose PyTorch kernels return views of one stacked "
               "result (`unravel_index`)",
    "missing": "the program stopped before the sample (a crash or a refusal of the whole "
               "program)",
}


class Unwritable(Exception):
    """A sample value that has no Python literal here."""


def number(x):
    """A float as source (nan and inf by name, repr round-trips the rest)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def literal(v):
    """Python source text for a plain value (nested lists of numbers)."""
    if isinstance(v, bool):
        return repr(v)
    if isinstance(v, int):
        return repr(v)
    if isinstance(v, float):
        return number(v)
    if isinstance(v, complex):
        return "complex(%s, %s)" % (number(v.real), number(v.imag))
    if isinstance(v, list):
        return "[" + ", ".join(literal(x) for x in v) + "]"
    raise Unwritable(type(v).__name__)


def tensor_source(t):
    """Source for a tensor with `t`'s dtype, shape, strides, offset and values."""
    if t.layout != torch.strided or t.is_quantized or t.device.type != "cpu":
        raise Unwritable("layout")
    t = t.detach().resolve_conj().resolve_neg()
    dtype = str(t.dtype)
    if t.is_contiguous() and t.storage_offset() == 0:
        if t.numel() == 0:
            return "torch.empty(%s, dtype=%s)" % (list(t.shape), dtype)
        return "torch.tensor(%s, dtype=%s)" % (literal(t.tolist()), dtype)
    n = t.untyped_storage().nbytes() // t.element_size()
    flat = torch.as_strided(t, (n,), (1,), 0).tolist() if n else []
    base = "torch.tensor(%s, dtype=%s)" % (literal(flat), dtype) if n else \
        "torch.empty(0, dtype=%s)" % dtype
    return "%s.as_strided(%s, %s, %d)" % (base, list(t.shape), list(t.stride()),
                                          t.storage_offset())


def source(v):
    """Source for a sample's argument."""
    if isinstance(v, torch.Tensor):
        return tensor_source(v)
    if v is None or isinstance(v, (bool, int, float, complex, str)):
        if isinstance(v, float):
            return number(v)
        if isinstance(v, complex):
            return literal(v)
        return repr(v)
    if isinstance(v, torch.dtype):
        return str(v)
    if isinstance(v, torch.Size):
        return "torch.Size(%s)" % list(v)
    if isinstance(v, torch.memory_format):
        return str(v)
    if isinstance(v, torch.device):
        return repr(str(v))
    if isinstance(v, slice):
        return "slice(%s, %s, %s)" % (source(v.start), source(v.stop), source(v.step))
    if isinstance(v, list):
        return "[" + ", ".join(source(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + "".join(source(x) + ", " for x in v) + ")"
    raise Unwritable(type(v).__name__)


def call_form(op):
    """How a plain program calls the op: `torch.NAME` or the method, else None."""
    name = op.name
    if name.startswith("_") or "." in name:
        target = torch
        for part in name.split("."):
            target = getattr(target, part, None)
            if target is None:
                return None
        return ("torch." + name) if target is op.op else None
    if getattr(torch, name, None) is op.op:
        return "torch." + name
    if op.method_variant is not None and getattr(torch.Tensor, name, None) is op.method_variant:
        return "method"
    return None


def program(op, form, samples):
    """The program for one op: every sample's inputs, call and line; and the samples' ids."""
    lines = [PRELUDE]
    ids = []
    for key, s in samples:
        try:
            inp = source(s.input)
            args = [source(a) for a in s.args]
            kwargs = ["%s=%s" % (k, source(v)) for k, v in s.kwargs.items()]
        except Unwritable:
            continue
        if form == "method":
            if not isinstance(s.input, torch.Tensor):
                continue
            call = "(%s).%s(%s)" % (inp, op.name, ", ".join(args + kwargs))
        else:
            call = "%s(%s)" % (form, ", ".join([inp] + args + kwargs))
        ids.append(key)
        lines.append("try:\n    print(%r, _show(%s))\nexcept Exception as e:\n"
                     "    print(%r, _raised(e))" % (key, call, key))
    return "\n".join(lines) + "\n", ids


def run_in_pytorch(text):
    """Runs a program here, in PyTorch: its printed lines."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            exec(compile(text, "<opinfo>", "exec"), {"__name__": "__opinfo__"})
        except Exception:
            pass
    return out.getvalue()


def run_in_tensh(tensh, text, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([tensh, path], capture_output=True, text=True, timeout=timeout)
        return r.stdout
    except subprocess.TimeoutExpired as e:
        return (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    finally:
        os.unlink(path)


def by_sample(output):
    """Each sample's line, by its id (the line's first word)."""
    lines = {}
    for line in output.splitlines():
        key, _, rest = line.partition(" ")
        lines.setdefault(key, rest)
    return lines


def numbers_close(a, b):
    """Whether two printed value lists hold the same numbers within 1e-6 relative."""
    try:
        x, y = eval(a, {"nan": math.nan, "inf": math.inf}), eval(b, {"nan": math.nan, "inf": math.inf})
    except Exception:
        return False

    def flat(v):
        if isinstance(v, list):
            for i in v:
                yield from flat(i)
        else:
            yield v

    fx, fy = list(flat(x)), list(flat(y))
    if len(fx) != len(fy):
        return False
    for p, q in zip(fx, fy):
        p, q = complex(p), complex(q)
        for u, w in ((p.real, q.real), (p.imag, q.imag)):
            if math.isnan(u) and math.isnan(w):
                continue
            if u == w:
                continue
            if math.isinf(u) or math.isinf(w) or math.isnan(u) or math.isnan(w):
                return False
            if abs(u - w) > 1e-6 * max(abs(u), abs(w)):
                return False
    return True


METADATA = re.compile(r"T (torch\.\w+) (\[[^\]]*\]) (\([^)]*\))")


def values_only(line):
    """A described result's numbers as one Python list literal."""
    return "[" + re.sub(r"[()VT]|\b[a-z_]+\b(?<!nan)(?<!inf)", " ", line).replace("  ", " ") + "]"


def classify(ref, got):
    """The class of a differing sample (None when the lines agree)."""
    if ref == got:
        return None
    if got is None:
        return "missing"
    if ref.startswith("E ") and got.startswith("E "):
        rk, gk = ref.split(" ", 2)[1], got.split(" ", 2)[1]
        return "exception class" if rk != gk else "message"
    if ref.startswith("E "):
        return "computed"
    if got.startswith("E "):
        return "raised"
    # Each tensor's metadata (a tuple holds several): dtype and shape, then strides.
    rmeta, gmeta = METADATA.findall(ref), METADATA.findall(got)
    if rmeta and gmeta:
        if [m[:2] for m in rmeta] != [m[:2] for m in gmeta]:
            return "dtype/shape"
        if [m[2] for m in rmeta] != [m[2] for m in gmeta]:
            return "strides"
        rv, gv = METADATA.sub("", ref), METADATA.sub("", got)
        return "values ~" if numbers_close(values_only(rv), values_only(gv)) else "values"
    return "values"


def names_tensh_lacks(tensh, ops):
    """The op names tensh says it has not built (its NotImplementedError naming tensh)."""
    probe = ["import torch"]
    for name in sorted({op.name for op in ops if "." not in op.name and not op.name.startswith("_")}):
        probe.append("for owner in (torch, torch.Tensor):\n"
                     "    try:\n        getattr(owner, %r)()\n"
                     "    except NotImplementedError as e:\n"
                     "        if 'tensh' in str(e): print(%r)\n"
                     "    except Exception:\n        pass" % (name, name))
    out = run_in_tensh(tensh, "\n".join(probe) + "\n", 120)
    return set(out.split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", default="", help="comma-separated op names (default: all)")
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--tensh", default=os.path.join(
        os.path.dirname(__file__), "..", "..", "target", "release", "tensh"))
    parser.add_argument("--table", default="")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--show-differences", type=int, default=0,
                        help="print this many differing samples per class")
    a = parser.parse_args()
    from torch.testing._internal.common_methods_invocations import op_db

    wanted = set(filter(None, a.ops.split(",")))
    unbuilt = names_tensh_lacks(a.tensh, op_db)
    totals = Counter()
    per_op = defaultdict(Counter)
    examples = defaultdict(list)
    left_out = Counter()
    for op in op_db:
        if wanted and op.name not in wanted:
            continue
        if not wanted and "." in op.name:
            left_out["module not in tensh yet"] += 1
            continue
        if not wanted and op.name.startswith("_"):
            left_out["private"] += 1
            continue
        if not wanted and "empty" in op.name:
            # Their values are whatever memory held: nothing to compare but metadata.
            left_out["uninitialized values"] += 1
            continue
        form = call_form(op)
        if form is None:
            left_out["no plain call"] += 1
            continue
        if op.name in unbuilt:
            left_out["not built in tensh"] += 1
            continue
        label = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
        print(label, file=sys.stderr, flush=True)
        samples = []
        for dtype in DTYPES:
            try:
                made = op.sample_inputs("cpu", dtype, requires_grad=False)
                for i, s in enumerate(made):
                    if i >= a.samples:
                        break
                    samples.append(("%s|%s|%d" % (label, str(dtype)[6:], i), s))
            except Exception:
                left_out["samples not made"] += 1
        if not samples:
            continue
        text, ids = program(op, form, samples)
        torch.manual_seed(0)
        reference = by_sample(run_in_pytorch(text))
        got = by_sample(run_in_tensh(a.tensh, text, a.timeout))
        for key in ids:
            if key not in reference:
                continue
            kind = classify(reference[key], got.get(key))
            kind = kind or "agree"
            totals[kind] += 1
            per_op[label][kind] += 1
            if kind != "agree" and len(examples[kind]) < a.show_differences:
                examples[kind].append((key, reference[key], got.get(key)))
    total = sum(totals.values())
    agree = totals["agree"]
    print("samples compared: %d, agreeing: %d (%.1f%%)" % (total, agree, 100.0 * agree / max(total, 1)))
    for kind, n in totals.most_common():
        if kind != "agree":
            print("  %-16s %d" % (kind, n))
    if left_out:
        print("left out: " + ", ".join("%s %d" % kv for kv in left_out.most_common()))
    for kind, rows in examples.items():
        if not rows:
            continue
        print("\n## %s" % kind)
        for key, ref, got in rows:
            print("%s\n  PyTorch: %s\n  tensh:   %s" % (key, ref[:300], (got or "")[:300]))
    if a.table:
        with open(a.table, "w") as f:
            f.write("# PyTorch's OpInfo samples in tensh\n\n")
            f.write("Made by `scripts/differential/opinfo.py --samples %d` against PyTorch %s: "
                    "each op's first samples in every dtype, compared call by call.\n\n"
                    % (a.samples, torch.__version__))
            f.write("%d samples, %d agreeing (%.1f%%).\n\n" % (total, agree, 100.0 * agree / max(total, 1)))
            f.write("Why samples still differ, by class (what is known; each is a cause to fix, "
                    "not a case):\n\n")
            for kind, why in REASONS.items():
                if totals[kind]:
                    f.write("- **%s** (%d): %s\n" % (kind, totals[kind], why))
            f.write("\n")
            kinds = [k for k, _ in totals.most_common() if k != "agree"]
            f.write("| op | samples | agree | " + " | ".join(kinds) + " |\n")
            f.write("|---|---|---|" + "---|" * len(kinds) + "\n")
            for label in sorted(per_op):
                c = per_op[label]
                f.write("| %s | %d | %d | %s |\n" % (label, sum(c.values()), c["agree"],
                                                     " | ".join(str(c[k] or "") for k in kinds)))


if __name__ == "__main__":
    main()
