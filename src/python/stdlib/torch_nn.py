"""`torch.nn` as tensh writes it (tensh's own code, from PyTorch's documented behaviour):
`Module` with its registries of parameters, buffers and sub-modules, the containers, and
the layers, activations and losses written on `torch.nn.functional`. `Parameter` is the
op table's (`ops::nn_module`); a name this module does not define is looked up in
PyTorch's list of `torch.nn` names, and calling one tensh has not built says so."""

import math
import warnings
from collections import OrderedDict

import torch
import torch.nn.functional as F
import torch.nn.init as init

Parameter = torch.nn.Parameter


def _typename(value):
    """The type's name as PyTorch's messages give it (`torch.FloatTensor`, `int`)."""
    if isinstance(value, torch.Tensor):
        return value.type()
    cls = type(value)
    module = cls.__module__
    if module in ("builtins", None):
        return cls.__qualname__
    return module + "." + cls.__qualname__


def _clear_grads(params, set_to_none):
    """Each parameter's gradient dropped (`set_to_none`) or zeroed in place, detached:
    `Module.zero_grad` and `Optimizer.zero_grad`."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            if param.grad.grad_fn is not None:
                param.grad.detach_()
            else:
                param.grad.requires_grad_(False)
            param.grad.zero_()


def _indent(text, spaces):
    """Every line of `text` after the first indented by `spaces`."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


class _IncompatibleKeys:
    """What `load_state_dict` returns: the keys it missed and the ones it did not expect."""

    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter((self.missing_keys, self.unexpected_keys))

    def __getitem__(self, i):
        return (self.missing_keys, self.unexpected_keys)[i]

    def __len__(self):
        return 2

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
            f"unexpected_keys={self.unexpected_keys!r})"
        )

    __str__ = __repr__


class Module:
    """The base of every layer: parameters, buffers and sub-modules are registered by
    assignment and found by attribute; calling the module runs its `forward`."""

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            given = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected argument: {given}"
            )
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # Registration.

    def _check_member_name(self, kind, name, registry):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {_typename(name)}")
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if name in self.__dict__ and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        """Adds `param` (a `Parameter`, or `None`) under `name`."""
        self._check_member_name("parameter", name, self.__dict__.get("_parameters", {}))
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                "be created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Adds `tensor` (or `None`) as a buffer: saved in `state_dict` when persistent."""
        self._check_member_name("buffer", name, self.__dict__.get("_buffers", {}))
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Adds the sub-module `module` (or `None`) under `name`."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._check_member_name("module", name, self.__dict__.get("_modules", {}))
        self._modules[name] = module

    register_module = add_module

    def _forget(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in d.get(registry, {}):
                del d[registry][name]
        d.get("_non_persistent_buffers_set", set()).discard(name)
        if name in d:
            object.__delattr__(self, name)

    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                )
            modules[name] = value
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as buffer '{name}' "
                    "(torch.Tensor or None expected)"
                )
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            members = d.get(registry)
            if members is not None and name in members:
                return members[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in d.get(registry, {}):
                del d[registry][name]
                d.get("_non_persistent_buffers_set", set()).discard(name)
                return
        object.__delattr__(self, name)

    # Walking the tree.

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(`name`, module) for this module and every one below it, depth first."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            below = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, below, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry, prefix, recurse, remove_duplicate):
        seen = set()
        if recurse:
            walked = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        else:
            walked = [(prefix, self)]
        for module_prefix, module in walked:
            for name, value in module.__dict__[registry].items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(`name`, parameter) for every parameter, this module's first."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target):
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if item not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise AttributeError(f"{type(module).__name__} has no parameter `{name}`")
        return module._parameters[name]

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # Modes and gradients.

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        _clear_grads(self.parameters(), set_to_none)

    # Conversions: each parameter, buffer and gradient converted in place (the module's
    # parameters stay the same objects, as PyTorch's `param.data = ...` keeps them).

    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        with torch.no_grad():
            for param in self._parameters.values():
                if param is None:
                    continue
                param.data = fn(param.data)
                if param.grad is not None:
                    param.grad.data = fn(param.grad.data)
            for name, buf in self._buffers.items():
                if buf is not None:
                    self._buffers[name] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                dtype = a.dtype
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )

        def convert(t):
            if dtype is not None and (t.is_floating_point() or t.is_complex()):
                return t.to(dtype)
            return t

        return self._apply(convert)

    def _cast(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self):
        return self._cast(torch.float32)

    def double(self):
        return self._cast(torch.float64)

    def half(self):
        return self._cast(torch.float16)

    def bfloat16(self):
        return self._cast(torch.bfloat16)

    def cpu(self):
        return self

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    # Saving and loading.

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """This module's parameters, then its persistent buffers, then each sub-module's
        (their names prefixed by the sub-module's), in an `OrderedDict`."""
        if args:
            raise TypeError("state_dict() takes its arguments by keyword")
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies each entry of `state_dict` into the parameter or buffer of its name."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, errors, expected = [], [], set()
        for module_prefix, module in self.named_modules():
            prefix = module_prefix + ("." if module_prefix else "")
            local = [(n, p) for n, p in module._parameters.items() if p is not None]
            local += [
                (n, b)
                for n, b in module._buffers.items()
                if b is not None and n not in module._non_persistent_buffers_set
            ]
            for name, target in local:
                key = prefix + name
                expected.add(key)
                if key not in state_dict:
                    missing.append(key)
                    continue
                value = state_dict[key]
                if not isinstance(value, torch.Tensor):
                    errors.append(
                        f'While copying the parameter named "{key}", expected torch.Tensor '
                        f"or Tensor-like object from checkpoint but received {type(value)}"
                    )
                    continue
                if value.shape != target.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape {value.shape} "
                        f"from checkpoint, the shape in current model is {target.shape}."
                    )
                    continue
                with torch.no_grad():
                    if assign:
                        if isinstance(target, Parameter):
                            setattr(module, name, Parameter(value, target.requires_grad))
                        else:
                            setattr(module, name, value)
                    else:
                        target.copy_(value)
        unexpected = [k for k in state_dict if k not in expected]
        if strict:
            if unexpected:
                listed = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {listed}. ")
            if missing:
                listed = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {listed}. ")
        if errors:
            raise RuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors)
            )
        return _IncompatibleKeys(missing, unexpected)

    # Printing.

    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def _child_lines(self):
        return [
            "(" + name + "): " + _indent(repr(module), 2) for name, module in self._modules.items()
        ]

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = self._child_lines()
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        names = set(dir(type(self))) | set(self.__dict__)
        for registry in ("_parameters", "_buffers", "_modules"):
            names |= set(self.__dict__[registry])
        return sorted(n for n in names if not n[:1].isdigit())


# Containers.


class _Positional(Module):
    """Sub-modules kept in order under their positions (`"0"`, `"1"`, ...)."""

    def _index(self, i):
        n = len(self._modules)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of range")
        return i % n

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def _renumbered(self, items):
        self._modules.clear()
        for j, module in enumerate(items):
            self.add_module(str(j), module)


class Sequential(_Positional):
    """Modules called one after another, each on the last one's result."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Sequential(OrderedDict(list(self._modules.items())[i]))
        return list(self._modules.values())[self._index(i)]

    def __setitem__(self, i, module):
        key = list(self._modules.keys())[self._index(i)]
        setattr(self, key, module)

    def __delitem__(self, i):
        keys = list(self._modules.keys())
        for key in keys[i] if isinstance(i, slice) else [keys[self._index(i)]]:
            del self._modules[key]
        self._renumbered(list(self._modules.values()))

    def insert(self, index, module):
        items = list(self._modules.values())
        items.insert(index, module)
        self._renumbered(items)
        return self

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(_Positional):
    """A list of modules, each registered (by its position) as a sub-module."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return ModuleList(list(self._modules.values())[i])
        return self._modules[str(self._index(i))]

    def __setitem__(self, i, module):
        setattr(self, str(self._index(i)), module)

    def __delitem__(self, i):
        items = list(self._modules.values())
        if isinstance(i, slice):
            del items[i]
        else:
            del items[self._index(i)]
        self._renumbered(items)

    def __iadd__(self, modules):
        return self.extend(modules)

    def insert(self, index, module):
        items = list(self._modules.values())
        items.insert(index, module)
        self._renumbered(items)

    def _child_lines(self):
        # Runs of modules printed alike are printed once: `(0-2): 3 x Linear(...)`.
        lines, items = [], [_indent(repr(m), 2) for m in self._modules.values()]
        start = 0
        while start < len(items):
            end = start
            while end + 1 < len(items) and items[end + 1] == items[start]:
                end += 1
            if end == start:
                lines.append(f"({start}): {items[start]}")
            else:
                lines.append(f"({start}-{end}): {end - start + 1} x {items[start]}")
            start = end + 1
        return lines

    def __repr__(self):
        lines = self._child_lines()
        if not lines:
            return "ModuleList()"
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules, each registered under its key."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules))

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key):
        module = self._modules[key]
        del self._modules[key]
        return module

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        pairs = modules.items() if isinstance(modules, (dict, ModuleDict)) else modules
        for key, module in pairs:
            self[key] = module


class ParameterList(Module):
    """A list of parameters, registered by position."""

    def __init__(self, values=None):
        super().__init__()
        for value in values or []:
            self.append(value)

    def __getitem__(self, i):
        n = len(self._parameters)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of range")
        return self._parameters[str(i % n)]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(list(self._parameters.values()))

    def append(self, value):
        if not isinstance(value, Parameter):
            value = Parameter(value)
        self.register_parameter(str(len(self)), value)
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self


# Layers.


class Identity(Module):
    """Its input, unchanged (its arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """`input @ weight.T + bias`, its weight and bias drawn from
    `U(-1/sqrt(in_features), 1/sqrt(in_features))` as PyTorch draws them."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Flatten(Module):
    """`input.flatten(start_dim, end_dim)`."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """`input.unflatten(dim, unflattened_size)`."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


# Activations: each calls its `torch.nn.functional` function with the settings it keeps.


class _InplaceActivation(Module):
    """An activation with an `inplace` flag: `F.<_function>(input, inplace=...)`."""

    _function = ""
    _shows_inplace = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return getattr(F, self._function)(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace and self._shows_inplace else ""


class ReLU(_InplaceActivation):
    _function = "relu"


class ReLU6(_InplaceActivation):
    _function = "relu6"


class SiLU(_InplaceActivation):
    _function = "silu"


class SELU(_InplaceActivation):
    _function = "selu"


class Mish(_InplaceActivation):
    _function = "mish"


class Hardswish(_InplaceActivation):
    _function = "hardswish"
    _shows_inplace = False


class Hardsigmoid(_InplaceActivation):
    _function = "hardsigmoid"
    _shows_inplace = False


class _PlainActivation(Module):
    """An activation of no settings: `<_function>(input)`."""

    _function = None

    def forward(self, input):
        return type(self)._function(input)


class Sigmoid(_PlainActivation):
    _function = torch.sigmoid


class Tanh(_PlainActivation):
    _function = torch.tanh


class Softsign(_PlainActivation):
    _function = F.softsign


class Tanhshrink(_PlainActivation):
    _function = F.tanhshrink


class LogSigmoid(_PlainActivation):
    _function = F.logsigmoid


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class LeakyReLU(Module):
    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class _AlphaActivation(Module):
    """An activation of one `alpha`: `F.<_function>(input, alpha, inplace)`."""

    _function = ""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return getattr(F, self._function)(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class ELU(_AlphaActivation):
    _function = "elu"


class CELU(_AlphaActivation):
    _function = "celu"


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (
            ", inplace=True" if self.inplace else ""
        )


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (
            ", inplace=True" if self.inplace else ""
        )


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class _AlongDim(Module):
    """A normalisation along `dim`: `F.<_function>(input, dim)`."""

    _function = ""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return getattr(F, self._function)(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    _function = "softmax"


class LogSoftmax(_AlongDim):
    _function = "log_softmax"


class Softmin(_AlongDim):
    _function = "softmin"


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


# Losses: each keeps its reduction (and its weights, as buffers) and calls its function.


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


def _legacy_reduction(size_average, reduce):
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        reduction = "mean"
    else:
        reduction = "sum" if reduce else "none"
    warnings.warn(
        "size_average and reduce args will be deprecated, please use "
        f"reduction='{reduction}' instead."
    )
    return reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class NLLLoss(_WeightedLoss):
    def __init__(
        self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"
    ):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(
            input, target, weight=self.weight, ignore_index=self.ignore_index,
            reduction=self.reduction,
        )


class CrossEntropyLoss(_WeightedLoss):
    def __init__(
        self, weight=None, size_average=None, ignore_index=-100, reduce=None,
        reduction="mean", label_smoothing=0.0,
    ):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(
            input, target, weight=self.weight, ignore_index=self.ignore_index,
            reduction=self.reduction, label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(
        self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None
    ):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


# The classes' modules as PyTorch names them (`<class 'torch.nn.modules.linear.Linear'>`).
for _cls, _where in [
    (Module, "module"), (Sequential, "container"), (ModuleList, "container"),
    (ModuleDict, "container"), (ParameterList, "container"), (Identity, "linear"),
    (Linear, "linear"), (Flatten, "flatten"), (Unflatten, "flatten"), (ReLU, "activation"),
    (ReLU6, "activation"), (SiLU, "activation"), (SELU, "activation"), (Mish, "activation"),
    (Hardswish, "activation"), (Hardsigmoid, "activation"), (Sigmoid, "activation"),
    (Tanh, "activation"), (Softsign, "activation"), (Tanhshrink, "activation"),
    (LogSigmoid, "activation"), (GELU, "activation"), (LeakyReLU, "activation"),
    (ELU, "activation"), (CELU, "activation"), (Hardtanh, "activation"),
    (Hardshrink, "activation"), (Softshrink, "activation"), (Softplus, "activation"),
    (Threshold, "activation"), (GLU, "activation"), (Softmax, "activation"),
    (LogSoftmax, "activation"), (Softmin, "activation"), (Dropout, "dropout"),
    (Dropout1d, "dropout"), (Dropout2d, "dropout"), (Dropout3d, "dropout"),
    (AlphaDropout, "dropout"), (MSELoss, "loss"), (L1Loss, "loss"), (SmoothL1Loss, "loss"),
    (HuberLoss, "loss"), (KLDivLoss, "loss"), (NLLLoss, "loss"), (CrossEntropyLoss, "loss"),
    (BCELoss, "loss"), (BCEWithLogitsLoss, "loss"),
]:
    _cls.__module__ = "torch.nn.modules." + _where
