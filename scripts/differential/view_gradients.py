"""Writes a plain-Python program of random chains of view ops (1 to 6 of them, on inputs that
may be expanded, transposed or diagonal) each ending in a weighted sum and backward(), printing
the leaf's gradient: the chains the view rule must get right. Usage:

    python3 scripts/differential/view_gradients.py [SEED] [COUNT] > /tmp/views.py
    scripts/differential/compare.sh /tmp/views.py

The plans are drawn here, with CPython's random module, and written into the program as data, so
PyTorch and tensh run the same chains.
"""

import random
import sys

# Each view op guarded so that it applies to any tensor the chain can reach.
OPS = [
    "t.t() if t.dim() <= 2 else t.transpose(0, -1)",
    "t.unsqueeze(0)",
    "t.squeeze()",
    "t.flatten() if t.dim() > 0 else t",
    "t[..., :1] if t.dim() > 0 and t.shape[-1] > 0 else t",
    "t.expand(2, *t.shape) if t.dim() < 4 else t",
    "t.diagonal() if t.dim() >= 2 else t",
    "t.unfold(0, 1, 1) if t.dim() >= 1 and t.shape[0] >= 1 else t",
    "t.permute(*reversed(range(t.dim())))",
    "t.narrow(-1, 0, 1) if t.dim() > 0 and t.shape[-1] > 0 else t",
    "t.select(0, 0) if t.dim() > 0 and t.shape[0] > 0 else t",
    "t.movedim(0, -1) if t.dim() > 1 else t",
    "t.split(1)[0] if t.dim() > 0 and t.shape[0] > 0 else t",
    "t.unbind(-1)[0] if t.dim() > 0 and t.shape[-1] > 0 else t",
    "t.reshape(-1)",
    "t.view(-1) if t.is_contiguous() else t.reshape(-1)",
    "t.mT if t.dim() >= 2 else t",
    "t.chunk(2)[-1] if t.dim() > 0 and t.shape[0] > 0 else t",
]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    rng = random.Random(seed)
    plans = [
        (rng.choice([(3,), (2, 3), (2, 1, 3)]), [rng.randrange(len(OPS)) for _ in range(rng.randint(1, 6))])
        for _ in range(count)
    ]
    print("import torch")
    print("torch.manual_seed(%d)" % seed)
    print("ops = [")
    for op in OPS:
        print("    lambda t: %s," % op)
    print("]")
    print("plans = %r" % plans)
    print(
        """for trial, (shape, chosen) in enumerate(plans):
    w = torch.randn(shape, requires_grad=True)
    t = w
    try:
        for k in chosen:
            t = ops[k](t)
        weights = torch.arange(t.numel(), dtype=torch.float32).reshape(t.shape) + 1
        (t * weights).sum().backward()
        print(trial, chosen, w.grad.flatten().tolist())
    except Exception as e:
        print(trial, chosen, type(e).__name__, str(e)[:80])"""
    )


main()
