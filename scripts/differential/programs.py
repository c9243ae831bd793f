"""Random straight-line tensor programs, run in PyTorch and in tensh, compared line by line.

Run it with the oracle's Python (it imports torch):

    ~/.cache/tensh-oracle/bin/python scripts/differential/programs.py [--programs 2000]
        [--seed 1] [--tensh target/release/tensh] [--minimize 5] [--keep DIR]

Each program is a new user's experiment: a few tensors (every dtype, 0-d to 3-d, views of
them: transposed, sliced, expanded), then statements drawn from a catalog — pointwise math
with tensors and Python numbers, reductions, views and in-place ops on them, sorting and
gathering, joins, products, conversions, metadata, autograd chains. Every statement runs in
its own `try` and prints one numbered line: what it made (each tensor's dtype, shape,
strides and values) or what it raised (class and message). A statement may use what an
earlier one made; when that one raised, both sides raise `NameError` alike.

The same text runs here (PyTorch, in this process) and with `tensh prog.py`. A program
differs when any line differs; its class is its first differing line's statement kind (the
catalog entry that made it) and how it differs (`raised`, `computed`, `exception class`,
`message`, `dtype/shape`, `strides`, `values ~`, `values`, `missing` — as
`opinfo.py` names them), or `crash` when tensh ended without a Python traceback. The
summary gives the rate of differing programs and the classes by count; `--minimize N`
shrinks a program of each of the N largest classes to the fewest statements that still
differ the same way and prints it; `--keep DIR` writes every differing program there.
"""

import argparse
import os
import random
import sys
from collections import Counter

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opinfo import PRELUDE, by_sample, classify, run_in_pytorch, run_in_tensh  # noqa: E402

DTYPES = ["torch.bool", "torch.uint8", "torch.int8", "torch.int16", "torch.int32",
          "torch.int64", "torch.float16", "torch.bfloat16", "torch.float32", "torch.float64",
          "torch.complex64"]
FLOATS = ["torch.float16", "torch.bfloat16", "torch.float32", "torch.float64"]

UNARY = ["abs", "neg", "sqrt", "exp", "log", "log1p", "sin", "cos", "tanh", "floor", "ceil",
         "round", "trunc", "frac", "sign", "sgn", "sigmoid", "relu", "reciprocal", "rsqrt",
         "square", "bitwise_not", "logical_not", "isnan", "isinf", "isfinite", "signbit",
         "angle", "conj", "exp2", "expm1", "erf", "deg2rad", "nan_to_num", "positive",
         "asin", "atan", "sinh", "log2", "digamma", "lgamma", "i0", "sinc", "logit"]
BINARY = ["add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod",
          "pow", "maximum", "minimum", "fmax", "fmin", "atan2", "eq", "ne", "lt", "le", "gt",
          "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
          "bitwise_xor", "hypot", "copysign", "nextafter", "xlogy", "isclose",
          "bitwise_left_shift", "heaviside"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<", ">", "==", "<<", ">>"]
REDUCTIONS = ["sum", "prod", "mean", "nansum", "nanmean", "amax", "amin", "argmax", "argmin",
              "std", "var", "all", "any", "logsumexp", "median", "nanmedian", "max", "min",
              "cumsum", "cumprod", "cummax", "cummin", "norm", "count_nonzero", "mode",
              "aminmax", "softmax", "log_softmax", "diff"]
IN_PLACE = ["add_(1)", "mul_(2)", "sub_(0.5)", "div_(2)", "clamp_(0, 3)", "zero_()",
            "fill_(7)", "abs_()", "neg_()", "floor_()", "sqrt_()", "pow_(2)", "exp_()",
            "clamp_(min=1)", "copy_(torch.ones(1))", "masked_fill_({t} > 1, -1)",
            "fmod_(2)", "remainder_(-2)", "bitwise_not_()", "sign_()", "t_()", "squeeze_()",
            "unsqueeze_(0)", "transpose_(0, -1)", "resize_(1)", "addcmul_({t}, {t}, value=2)",
            "lerp_({t}, 0.5)", "clamp_max_(1)", "tril_()", "index_fill_(0, torch.tensor([0]), 5)"]
GRAD_OPS = ["exp()", "sin()", "tanh()", "sigmoid()", "relu()", "abs()", "square()",
            "pow(3)", "mul(2)", "add(1)", "t()", "flip(0)", "unsqueeze(0)", "expand(2, -1)",
            "clamp(-1, 1)", "cumsum(0)", "prod()", "max()", "norm()", "sum(0)", "mean()",
            "view(-1)", "log1p()", "sqrt()", "reciprocal()", "amax(0)", "logsumexp(0)",
            "softmax(0)", "std()", "var(0)", "diag()", "triu()", "roll(1, 0)", "cummax(0)[0]",
            "sort(0)[0]", "topk(1, 0)[0]", "gather(0, torch.tensor([0]))", "select(0, 0)",
            "narrow(0, 0, 1)", "where(torch.tensor(True), 0.)", "masked_fill(torch.tensor(True), 1.)"]


class Program:
    """One random program: its statements, each one's kind and the names it made."""

    def __init__(self, rng):
        self.rng = rng
        self.statements = []  # (kind, source lines defining the result `r`)
        self.tensors = []     # names of tensors made so far

    # -- values ------------------------------------------------------------------------
    def number(self, dtype):
        r = self.rng
        if dtype == "torch.bool":
            return r.choice(["True", "False"])
        if dtype in ("torch.uint8",):
            return str(r.choice([0, 1, 2, 3, 5, 7, 200, 255]))
        if dtype in ("torch.int8", "torch.int16", "torch.int32", "torch.int64"):
            return str(r.choice([-3, -2, -1, 0, 1, 2, 3, 5, 7, 100]))
        if dtype.startswith("torch.complex"):
            return "complex(%s, %s)" % (self.float_text(), self.float_text())
        return self.float_text()

    def float_text(self):
        r = self.rng
        if r.random() < 0.08:
            return r.choice(["float('nan')", "float('inf')", "float('-inf')", "-0.0"])
        return repr(r.choice([-2.5, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0]))

    def scalar(self):
        r = self.rng
        return r.choice(["2", "-1", "0", "3", "0.5", "-1.5", "True", "False", "1j",
                         "complex(1, -2)", "float('nan')", "7", "-0.0", "2**40"])

    def literal(self, shape, dtype):
        if not shape:
            return self.number(dtype)
        return "[" + ", ".join(self.literal(shape[1:], dtype) for _ in range(shape[0])) + "]"

    def shape(self):
        r = self.rng
        return r.choice([[], [1], [3], [4], [0], [2, 3], [3, 2], [1, 3], [2, 2], [2, 0],
                         [2, 3, 2], [2, 1, 2]])

    def dim(self, name=None):
        return str(self.rng.choice([0, 0, 1, -1, -2, 2]))

    def tensor(self):
        return self.rng.choice(self.tensors) if self.tensors else "torch.ones(2)"

    def dtype(self):
        return self.rng.choice(DTYPES)

    # -- statements ---------------------------------------------------------------------
    def add(self, kind, expr, makes_tensor=True):
        self.statements.append((kind, expr))
        if makes_tensor:
            self.tensors.append("v%d" % (len(self.statements) - 1))

    def make_input(self):
        r = self.rng
        dtype, shape = self.dtype(), self.shape()
        form = r.random()
        if form < 0.6:
            self.add("tensor", "torch.tensor(%s, dtype=%s)" % (self.literal(shape, dtype), dtype))
        elif form < 0.8:
            n = 1
            for s in shape:
                n *= s
            self.add("arange", "torch.arange(%d, dtype=%s).reshape(%s)"
                     % (n, dtype if dtype != "torch.bool" else "torch.int64", shape))
        else:
            base = "torch.tensor(%s, dtype=%s)" % (self.literal([3, 4], dtype), dtype)
            view = r.choice([".t()", "[::2]", "[:, 1:]", "[1]", ".transpose(0, 1)[1:]",
                             "[:, ::-1]" if False else "[:, ::2]", ".unsqueeze(0).expand(2, 3, 4)",
                             "[..., None]", ".T.contiguous()", ".flip(1)"])
            self.add("view input", base + view)

    def statement(self):
        r = self.rng
        t, u = self.tensor(), self.tensor()
        d = self.dim()
        choice = r.random()
        if choice < 0.17:
            op = r.choice(UNARY)
            self.add("unary " + op, r.choice(["torch.%s(%s)" % (op, t), "%s.%s()" % (t, op)]))
        elif choice < 0.34:
            op = r.choice(BINARY)
            other = r.choice([u, self.scalar()])
            self.add("binary " + op, r.choice(["torch.%s(%s, %s)" % (op, t, other),
                                               "%s.%s(%s)" % (t, op, other)]))
        elif choice < 0.44:
            sym = r.choice(OPERATORS)
            a, b = r.choice([(t, u), (t, self.scalar()), (self.scalar(), t)])
            self.add("operator " + sym, "%s %s %s" % (a, sym, b))
        elif choice < 0.56:
            op = r.choice(REDUCTIONS)
            args = r.choice(["", d, "%s, keepdim=True" % d, "dim=%s" % d])
            if op in ("cumsum", "cumprod", "cummax", "cummin", "softmax", "log_softmax") and not args:
                args = d
            if op == "diff" and not args:
                args = ""
            self.add("reduce " + op, "%s.%s(%s)" % (t, op, args))
        elif choice < 0.68:
            view = r.choice(["view(-1)", "reshape(-1, 1)", "t()", "transpose(0, -1)", "mT",
                             "unsqueeze(%s)" % d, "squeeze()", "squeeze(%s)" % d, "flip(%s)" % d,
                             "narrow(%s, 0, 1)" % d, "select(%s, 0)" % d, "diagonal()",
                             "expand(2, *%s.shape)" % t, "contiguous()", "flatten()",
                             "movedim(0, -1)", "unfold(0, 1, 1)", "T", "H", "real", "imag",
                             "permute(*reversed(range(%s.dim())))" % t, "view(%s)" % self.dtype(),
                             "unbind(%s)" % d, "chunk(2, %s)" % d, "split(1)", "tril()",
                             "roll(1)", "repeat(2, 1)", "tile((2,))", "__getitem__(0)",
                             "__getitem__((Ellipsis, None))", "__getitem__(%s > 0)" % t,
                             "as_strided((2,), (0,))", "expand_as(%s)" % u, "sum_to_size(1)"])
            text = "%s.%s" % (t, view)
            self.add("view " + view.split("(")[0], text)
        elif choice < 0.76:
            op = r.choice(IN_PLACE).replace("{t}", u)
            # The result is the receiver after the op; a view's base shows the write.
            self.add("in-place " + op.split("(")[0], "%s.%s" % (t, op))
        elif choice < 0.83:
            op = r.choice(["torch.sort(%s, %s)" % (t, d), "torch.topk(%s, 1)" % t,
                           "%s.argsort()" % t, "torch.unique(%s)" % t, "torch.msort(%s)" % t,
                           "%s.gather(%s, torch.zeros_like(%s, dtype=torch.int64))" % (t, d, t),
                           "%s.index_select(0, torch.tensor([0]))" % t,
                           "torch.zeros(4).scatter_(0, torch.tensor([1, 1, 3]), %s)" % t,
                           "%s.nonzero()" % t, "torch.nonzero(%s, as_tuple=True)" % t,
                           "torch.where(%s > 0, %s, %s)" % (t, t, u), "%s.masked_select(%s > 0)" % (t, t),
                           "torch.searchsorted(torch.tensor([1, 3, 5]), %s)" % t,
                           "%s.kthvalue(1)" % t, "torch.bincount(%s)" % t,
                           "torch.histc(%s, 3)" % t, "%s.take(torch.tensor([0]))" % t])
            self.add("select " + op.split("(")[0].replace(t, "t"), op)
        elif choice < 0.88:
            op = r.choice(["torch.cat([%s, %s])" % (t, u), "torch.stack([%s, %s])" % (t, u),
                           "torch.cat([%s, %s], %s)" % (t, u, d), "torch.hstack([%s, %s])" % (t, u),
                           "torch.broadcast_tensors(%s, %s)" % (t, u)])
            self.add("join " + op.split("(")[0], op)
        elif choice < 0.92:
            op = r.choice(["torch.matmul(%s, %s)" % (t, u), "%s @ %s" % (t, u),
                           "torch.dot(%s, %s)" % (t, u), "torch.outer(%s, %s)" % (t, u),
                           "torch.mm(%s, %s)" % (t, u), "torch.mv(%s, %s)" % (t, u),
                           "torch.einsum('i,i->', %s, %s)" % (t, u), "torch.kron(%s, %s)" % (t, u)])
            self.add("product " + op.split("(")[0].split(" ")[0], op)
        elif choice < 0.96:
            op = r.choice(["%s.to(%s)" % (t, self.dtype()), "%s.float()" % t, "%s.int()" % t,
                           "%s.bool()" % t, "%s.tolist()" % t, "%s.item()" % t, "float(%s)" % t,
                           "int(%s)" % t, "bool(%s)" % t, "%s.numel()" % t, "%s.stride()" % t,
                           "%s.is_contiguous()" % t, "%s.storage_offset()" % t, "len(%s)" % t,
                           "%s.element_size()" % t, "%s.dim()" % t, "%s.shape" % t,
                           "%s.type()" % t, "%s.half()" % t, "repr(%s)" % t, "str(%s.dtype)" % t,
                           "%s.untyped_storage().nbytes()" % t, "%s.data_ptr() == %s.data_ptr()" % (t, u),
                           "%s.is_set_to(%s)" % (t, u), "torch.result_type(%s, %s)" % (t, u),
                           "torch.can_cast(%s.dtype, %s.dtype)" % (t, u)])
            self.add("convert " + op.split("(")[0].replace(t, "t").replace(".", ""), op,
                     makes_tensor=False)
        else:
            dtype = r.choice(["torch.float32", "torch.float64"])
            shape = r.choice([[], [3], [2, 2], [1, 3]])
            chain = "".join("." + r.choice(GRAD_OPS) for _ in range(r.randint(1, 3)))
            self.add("grad" + chain.split("(")[0],
                     "_grad(torch.tensor(%s, dtype=%s, requires_grad=True), lambda g: g%s)"
                     % (self.literal(shape, dtype), dtype, chain), makes_tensor=False)

    def source(self, keep=None):
        """The program's text: the statements in `keep` (all by default)."""
        lines = [PRELUDE, GRAD_HELPER]
        for i, (kind, expr) in enumerate(self.statements):
            if keep is not None and i not in keep:
                continue
            lines.append("try:\n    v%d = %s\n    print('s%d', _show(v%d))\nexcept Exception as e:\n"
                         "    print('s%d', _raised(e))" % (i, expr, i, i, i))
        return "\n".join(lines) + "\n"


GRAD_HELPER = '''
def _grad(x, f):
    f(x).sum().backward()
    return x.grad
'''


def make(seed):
    rng = random.Random(seed)
    p = Program(rng)
    for _ in range(rng.randint(1, 3)):
        p.make_input()
    for _ in range(rng.randint(4, 9)):
        p.statement()
    return p


def first_difference(p, text, tensh, lines=None):
    """(statement index, class) of the first differing line, or None when all agree; the
    two lines are appended to `lines` when given."""
    ref = run_in_pytorch(text)
    got, stderr, code = run_tensh(tensh, text)
    if code not in (0, 1) or "panicked" in stderr or "InternalError" in got + stderr:
        if lines is not None:
            lines.extend(["(exit %d)" % code, stderr[-300:]])
        return (-1, "crash")
    r, g = by_sample(ref), by_sample(got)
    for key in sorted(r, key=lambda k: int(k[1:])):
        kind = classify(r[key], g.get(key))
        if kind:
            if lines is not None:
                lines.extend([r[key], g.get(key)])
            return (int(key[1:]), kind)
    return None


def run_tensh(tensh, text):
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        r = subprocess.run([tensh, path], capture_output=True, text=True, timeout=60)
        return r.stdout, r.stderr, r.returncode
    except subprocess.TimeoutExpired:
        return "", "timeout", -1
    finally:
        os.unlink(path)


def signature(p, found):
    index, kind = found
    return (p.statements[index][0] if index >= 0 else "program", kind)


def minimize(p, found, tensh):
    """The fewest statements of `p` that still differ with the same signature."""
    want = signature(p, found)
    keep = set(range(len(p.statements)))
    changed = True
    while changed:
        changed = False
        for i in sorted(keep, reverse=True):
            trial = keep - {i}
            f = first_difference(p, p.source(trial), tensh)
            if f and signature(p, f) == want:
                keep, changed = trial, True
    return p.source(keep)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tensh", default="target/release/tensh")
    parser.add_argument("--minimize", type=int, default=0)
    parser.add_argument("--keep", default="")
    a = parser.parse_args()
    torch.manual_seed(0)
    classes = Counter()
    examples = {}
    differing = crashes = 0
    for n in range(a.programs):
        p = make(a.seed * 1_000_003 + n)
        text = p.source()
        found = first_difference(p, text, a.tensh)
        if not found:
            continue
        differing += 1
        crashes += found[1] == "crash"
        sig = signature(p, found)
        classes[sig] += 1
        examples.setdefault(sig, (p, found))
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            with open(os.path.join(a.keep, "program%05d.py" % n), "w") as f:
                f.write(text)
    print("programs: %d, differing: %d (%.1f%%), crashes: %d"
          % (a.programs, differing, 100.0 * differing / max(a.programs, 1), crashes))
    for (kind, how), count in classes.most_common():
        print("%5d  %-40s %s" % (count, kind, how))
    for sig, _ in classes.most_common(a.minimize):
        p, found = examples[sig]
        print("\n# %s: %s" % sig)
        small = minimize(p, found, a.tensh)
        print(small.replace(PRELUDE, "").replace(GRAD_HELPER, "").strip())
        lines = []
        first_difference(p, small, a.tensh, lines)
        print("# PyTorch: %s\n# tensh:   %s" % tuple((lines + ["", ""])[:2]))


if __name__ == "__main__":
    main()
