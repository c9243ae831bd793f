"""copy: shallow and deep copies (tensh's own, after CPython's documented behaviour). A deep
copy of tensors keeps their storage sharing: views of one storage copied together are views
of one new storage, as PyTorch's `__deepcopy__` makes them."""

import torch


class Error(Exception):
    pass


_ATOMIC = (int, float, bool, complex, str, type(None), range, type)
_UNCOPIED = ('function', 'builtin_function_or_method', 'method', 'module', 'type')


def copy(x):
    cls = type(x)
    if cls in (list, dict, set):
        return cls(x)
    if isinstance(x, _ATOMIC) or isinstance(x, tuple) or cls.__name__ in _UNCOPIED:
        return x
    if isinstance(x, torch.Tensor):
        raise Error("tensh's copy.copy of a tensor is not built yet: use t.clone() or copy.deepcopy")
    copier = getattr(cls, '__copy__', None)
    if copier is not None:
        return copier(x)
    state = getattr(x, '__dict__', None)
    if state is None:
        return x
    new = object.__new__(cls)
    new.__dict__.update(state)
    return new


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    key = id(x)
    if key in memo:
        return memo[key]
    if isinstance(x, _ATOMIC) or type(x).__name__ in _UNCOPIED:
        return x
    if isinstance(x, torch.Tensor):
        result = _tensor_deepcopy(x, memo)
    elif type(x) is list:
        result = []
        memo[key] = result
        for item in x:
            result.append(deepcopy(item, memo))
    elif type(x) is tuple:
        result = tuple(deepcopy(item, memo) for item in x)
        if len(result) == len(x) and all(a is b for a, b in zip(result, x)):
            result = x
    elif type(x) is dict:
        result = {}
        memo[key] = result
        for k, v in x.items():
            result[deepcopy(k, memo)] = deepcopy(v, memo)
    elif type(x) is set:
        result = {deepcopy(item, memo) for item in x}
    elif hasattr(x, '__deepcopy__'):
        result = x.__deepcopy__(memo)
    elif hasattr(x, '__dict__'):
        result = object.__new__(type(x))
        memo[key] = result
        for k, v in x.__dict__.items():
            result.__dict__[k] = deepcopy(v, memo)
    else:
        result = x
    memo[key] = result
    return result


def _tensor_deepcopy(t, memo):
    if not t.is_leaf:
        raise RuntimeError('Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001')
    storage = t.untyped_storage()
    storage_key = ('storage', storage.data_ptr(), storage.nbytes())
    new_storage = memo.get(storage_key)
    if new_storage is None:
        new_storage = storage.clone()
        memo[storage_key] = new_storage
    with torch.no_grad():
        new = torch.empty(0, dtype=t.dtype).set_(new_storage, t.storage_offset(), t.size(), t.stride())
    if t.requires_grad:
        new.requires_grad_(True)
    if t.grad is not None:
        new.grad = _tensor_deepcopy(t.grad, memo)
    return new
