"""`torch.optim` as tensh writes it (tensh's own code, from PyTorch's documented update
rules): `Optimizer` with its parameter groups and per-parameter state, and `SGD`, `Adam`
and `AdamW` stepping each parameter in place under `no_grad`, in the order of operations
PyTorch's single-tensor CPU path uses (so the values agree to the bit)."""

import torch
from torch.nn import _clear_grads


class Optimizer:
    """Parameter groups (dicts of `params` and settings, the defaults filling what a group
    leaves out) and the state each parameter's updates keep."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {params.type()}"
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list "
                "instead."
            )
        else:
            params = list(params)
        for p in params:
            if not isinstance(p, torch.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + torch.typename(p)
                )
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        group = {"params": params}
        for key, value in param_group.items():
            if key != "params":
                group[key] = value
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        seen = set()
        for g in self.param_groups:
            for p in g["params"]:
                seen.add(id(p))
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        params = [p for group in self.param_groups for p in group["params"]]
        _clear_grads(params, set_to_none)

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def state_dict(self):
        """The state keyed by each parameter's position across the groups, and the groups
        with their parameters as those positions."""
        index, groups, next_index = {}, [], 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            ids = []
            for p in group["params"]:
                if id(p) not in index:
                    index[id(p)] = next_index
                    next_index += 1
                ids.append(index[id(p)])
            packed["params"] = ids
            groups.append(packed)
        state = {}
        for group in self.param_groups:
            for p in group["params"]:
                if p in self.state:
                    state[index[id(p)]] = self.state[p]
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        self.state = {}
        for mine, saved in zip(self.param_groups, groups):
            for p, i in zip(mine["params"], saved["params"]):
                if i in state_dict["state"]:
                    kept = {}
                    for key, value in state_dict["state"][i].items():
                        if isinstance(value, torch.Tensor) and key != "step":
                            value = value.to(p.dtype)
                        kept[key] = value.clone() if isinstance(value, torch.Tensor) else value
                    self.state[p] = kept
            for key, value in saved.items():
                if key != "params":
                    mine[key] = value

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\n"
            text += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


class SGD(Optimizer):
    """Stochastic gradient descent: `p -= lr * d`, `d` the gradient with weight decay,
    momentum (dampened) and Nesterov's look-ahead as set."""

    def __init__(
        self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
        maximize=False, foreach=None, differentiable=False, fused=None,
    ):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening,
            "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
            "foreach": foreach, "differentiable": differentiable, "fused": fused,
        }
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, momentum = group["lr"], group["momentum"]
                dampening, weight_decay = group["dampening"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    d = p.grad if not group["maximize"] else -p.grad
                    if weight_decay != 0:
                        d = d.add(p, alpha=weight_decay)
                    if momentum != 0:
                        state = self.state.setdefault(p, {})
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = torch.clone(d).detach()
                            state["momentum_buffer"] = buf
                        else:
                            buf.mul_(momentum).add_(d, alpha=1 - dampening)
                        if group["nesterov"]:
                            d = d.add(buf, alpha=momentum)
                        else:
                            d = buf
                    p.add_(d, alpha=-lr)
        return loss


class Adam(Optimizer):
    """Adam: running averages of the gradient and its square, bias-corrected, set the step
    of each element (`amsgrad` keeps the largest second moment seen)."""

    def __init__(
        self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
        *, foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
        decoupled_weight_decay=False,
    ):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
            "capturable": capturable, "differentiable": differentiable, "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                lr, eps, weight_decay = group["lr"], group["eps"], group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self.state.setdefault(p, {})
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0, dtype=torch.float32)
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                        if group["amsgrad"]:
                            state["max_exp_avg_sq"] = torch.zeros_like(p)
                    step_t = state["step"]
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    step_t += 1
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            p.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(p, alpha=weight_decay)
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad.conj(), value=1 - beta2)
                    step = step_t.item()
                    bias_correction1 = 1 - beta1**step
                    bias_correction2 = 1 - beta2**step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = bias_correction2**0.5
                    if group["amsgrad"]:
                        highest = state["max_exp_avg_sq"]
                        torch.maximum(highest, exp_avg_sq, out=highest)
                        denom = (highest.sqrt() / bias_correction2_sqrt).add_(eps)
                    else:
                        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    p.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (`p *= 1 - lr * weight_decay` before the step)."""

    def __init__(
        self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
        amsgrad=False, *, maximize=False, foreach=None, capturable=False,
        differentiable=False, fused=None,
    ):
        super().__init__(
            params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
            capturable=capturable, differentiable=differentiable, fused=fused,
            decoupled_weight_decay=True,
        )


for _cls, _where in [(Optimizer, "optimizer"), (SGD, "sgd"), (Adam, "adam"), (AdamW, "adamw")]:
    _cls.__module__ = "torch.optim." + _where
