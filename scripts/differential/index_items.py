"""Writes a plain-Python program of random subscripts of a 3-d tensor (ints, slices with any
bounds and steps, None, ellipses (several too), bools, lists and 0-d or 1-d index tensors, one to
four of them), read (`t[...]`: the result's shape, strides and sum, or the exception) and
written (`u[...] = v`: the sum written, or the exception). Usage:

    python3 scripts/differential/index_items.py [SEED] [COUNT] > /tmp/index.py
    scripts/differential/compare.sh /tmp/index.py

The subscripts are drawn here, with CPython's random module, and written into the program as
code, so PyTorch and tensh run the same ones.
"""

import random
import sys


def item(rnd):
    """One item of a subscript, as Python source."""
    k = rnd.randrange(12)
    if k < 3:
        return str(rnd.randint(-3, 3))
    if k < 6:
        a = rnd.choice(["", str(rnd.randint(-4, 4))])
        b = rnd.choice(["", str(rnd.randint(-4, 4))])
        c = rnd.choice(["", "", str(rnd.randint(-1, 3))])
        return f"{a}:{b}" + (f":{c}" if c else "")
    if k == 6:
        return "None"
    if k == 7:
        return "..."
    if k == 8:
        return rnd.choice(["True", "False"])
    if k == 9:
        values = ", ".join(str(rnd.randint(-2, 2)) for _ in range(rnd.randint(1, 3)))
        return f"[{values}]"
    if k == 10:
        return f"torch.tensor({rnd.randint(-2, 2)})"
    return f"torch.tensor([{rnd.randint(0, 1)}, {rnd.randint(0, 1)}])"


PRELUDE = '''import torch
t = torch.arange(60).view(3, 4, 5)
def show(label, f):
    try:
        r = f()
        print(label, tuple(r.shape), r.stride(), r.sum().item() if r.numel() else 0)
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:150])
def put(label, f):
    u = torch.zeros(3, 4, 5)
    try:
        f(u)
        print(label, u.sum().item(), tuple(u.nonzero().shape))
    except Exception as e:
        print(label, type(e).__name__, str(e).splitlines()[0][:150])'''


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rnd = random.Random(seed)
    print(PRELUDE)
    for _ in range(count):
        index = ", ".join(item(rnd) for _ in range(rnd.randint(1, 4)))
        if rnd.random() < 0.7:
            print(f"show({index!r}, lambda: t[{index}])")
        else:
            value = rnd.choice(["1", "2.5", "torch.tensor(3.)"])
            print(f"def w(u):\n    u[{index}] = {value}\nput({index!r} + ' =', w)")


main()
