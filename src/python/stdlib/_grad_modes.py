"""Grad-mode managers as decorators (`@torch.no_grad()`, `@torch.inference_mode()`): the
function runs inside the manager, as PyTorch's decorated functions do (tensh's own)."""

from functools import wraps


def decorate(manager, func):
    @wraps(func)
    def decorated(*args, **kwargs):
        with manager:
            return func(*args, **kwargs)
    return decorated
