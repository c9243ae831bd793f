"""`torch.testing` as tensh writes it (tensh's own code, from PyTorch's documented
behaviour and messages): `assert_close` compares tensors, Python numbers, and sequences
and mappings of them, element by element within `rtol`/`atol` (defaults by dtype), and
raises PyTorch's `AssertionError` describing the greatest differences;
`assert_allclose` is its deprecated form."""

import math
import warnings

import torch

# (rtol, atol) by dtype; integers and bools compare exactly.
_TOLERANCES = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex32: (1e-3, 1e-5),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


class _Mismatch(Exception):
    """A comparison that failed: its message, and the exception class to raise."""

    def __init__(self, message, kind=AssertionError):
        super().__init__(message)
        self.message = message
        self.kind = kind


def _tolerances(*dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise ValueError(
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
        )
    if rtol is not None:
        return rtol, atol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _diff_line(kind, diff, index, tol, equality):
    if index is None:
        line = f"{kind.title()} difference: {diff}"
    else:
        line = f"Greatest {kind} difference: {diff} at index {index}"
    if not equality:
        line += f" (up to {tol} allowed)"
    return line + "\n"


def _mismatch_message(identifier, extra, abs_diff, abs_index, atol, rel_diff, rel_index, rtol):
    equality = rtol == 0 and atol == 0
    text = f"{identifier} are not {'equal' if equality else 'close'}!\n"
    if extra:
        text += f"\n{extra.strip()}\n"
    text += _diff_line("absolute", abs_diff, abs_index, atol, equality)
    text += _diff_line("relative", rel_diff, rel_index, rtol, equality)
    return text.strip()


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _compare_numbers(actual, expected, rtol, atol, equal_nan):
    if not (isinstance(actual, (int, float, complex)) and isinstance(expected, (int, float, complex))):
        raise _Mismatch(
            f"No comparison pair was able to handle inputs of type {type(actual)} and "
            f"{type(expected)}.",
            TypeError,
        )
    if type(actual) is not type(expected) and not (
        isinstance(actual, (int, float)) and isinstance(expected, (int, float))
        and not isinstance(actual, bool) and not isinstance(expected, bool)
    ):
        raise _Mismatch(
            f"The values for attribute 'type' do not match: {type(actual)} != {type(expected)}."
        )
    kind = {bool: torch.bool, int: torch.int64, float: torch.float64, complex: torch.complex128}
    rtol, atol = _tolerances(kind[type(actual)], kind[type(expected)], rtol=rtol, atol=atol)
    if actual == expected:
        return
    both_nan = all(
        isinstance(v, (float, complex)) and (v != v) for v in (actual, expected)
    )
    if equal_nan and both_nan:
        return
    difference = abs(actual - expected)
    if not (actual != actual or expected != expected) and difference <= atol + rtol * abs(expected):
        return
    relative = difference / abs(expected) if expected != 0 else math.inf
    raise _Mismatch(
        _mismatch_message(
            "Scalars", f"Expected {expected} but got {actual}.", difference, None, atol,
            relative, None, rtol,
        )
    )


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, check_stride):
    if actual.shape != expected.shape:
        raise _Mismatch(
            f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}."
        )
    if check_dtype and actual.dtype != expected.dtype:
        raise _Mismatch(
            f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
        )
    if check_stride and actual.stride() != expected.stride():
        raise _Mismatch(
            "The values for attribute 'stride()' do not match: "
            f"{actual.stride()} != {expected.stride()}."
        )
    rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol)
    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    actual, expected = actual.detach(), expected.detach()
    if actual.is_conj():
        actual = actual.resolve_conj()
    if expected.is_conj():
        expected = expected.resolve_conj()
    matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    if actual.shape == torch.Size([]):
        a, e = actual.item(), expected.item()
        difference = abs(a - e)
        relative = difference / abs(e) if e != 0 else math.inf
        raise _Mismatch(
            _mismatch_message(
                "Scalars", f"Expected {e} but got {a}.", difference, None, atol, relative,
                None, rtol,
            )
        )
    a, e = actual.flatten(), expected.flatten()
    if a.dtype == torch.bool:
        a, e = a.to(torch.int), e.to(torch.int)
    flat_matches = matches.flatten()
    mismatched = int((~flat_matches).sum())
    count = flat_matches.numel()
    abs_diff = torch.abs(a - e)
    abs_diff[flat_matches] = 0
    max_abs, abs_at = torch.max(abs_diff, 0)
    rel_diff = abs_diff / torch.abs(e)
    rel_diff[flat_matches] = 0
    max_rel, rel_at = torch.max(rel_diff, 0)
    shape = tuple(actual.shape)
    raise _Mismatch(
        _mismatch_message(
            "Tensor-likes",
            f"Mismatched elements: {mismatched} / {count} ({mismatched / count:.1%})",
            max_abs.item(), _unravel(int(abs_at), shape), atol,
            max_rel.item(), _unravel(int(rel_at), shape), rtol,
        )
    )


def _compare(actual, expected, path, options):
    if isinstance(actual, torch.Tensor) or isinstance(expected, torch.Tensor):
        if not (isinstance(actual, torch.Tensor) and isinstance(expected, torch.Tensor)):
            numbers = (int, float, complex)
            if isinstance(actual, numbers) or isinstance(expected, numbers):
                actual = actual if isinstance(actual, torch.Tensor) else torch.tensor(actual)
                expected = (
                    expected if isinstance(expected, torch.Tensor) else torch.tensor(expected)
                )
            else:
                raise _Mismatch(
                    f"No comparison pair was able to handle inputs of type {type(actual)} and "
                    f"{type(expected)}.",
                    TypeError,
                )
        try:
            _compare_tensors(actual, expected, **options)
        except _Mismatch as m:
            raise _at(m, path)
        return
    if isinstance(actual, dict) and isinstance(expected, dict):
        if set(actual) != set(expected):
            raise _Mismatch(
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(set(expected) - set(actual))}\n"
                f"Additional keys in the actual mapping: {sorted(set(actual) - set(expected))}\n"
            )
        for key in expected:
            _compare(actual[key], expected[key], path + [key], options)
        return
    sequences = (list, tuple)
    if isinstance(actual, sequences) and isinstance(expected, sequences):
        if len(actual) != len(expected):
            raise _at(
                _Mismatch(
                    f"The length of the sequences mismatch: {len(actual)} != {len(expected)}"
                ),
                path,
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + [i], options)
        return
    numbers = (int, float, complex)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        try:
            _compare_numbers(
                actual, expected, options["rtol"], options["atol"], options["equal_nan"]
            )
        except _Mismatch as m:
            raise _at(m, path)
        return
    raise _Mismatch(
        f"No comparison pair was able to handle inputs of type {type(actual)} and "
        f"{type(expected)}.",
        TypeError,
    )


def _at(mismatch, path):
    if path and mismatch.kind is AssertionError:
        where = "".join(f"[{p!r}]" for p in path)
        mismatch.message += f"\n\nThe failure occurred for item {where}"
    return mismatch


def assert_close(
    actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
    check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None,
):
    """Raises `AssertionError` unless `actual` and `expected` are close."""
    __tracebackhide__ = True
    if (rtol is None) != (atol is None):
        _tolerances(rtol=rtol, atol=atol)
    options = {
        "rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_dtype": check_dtype,
        "check_stride": check_stride,
    }
    try:
        _compare(actual, expected, [], options)
    except _Mismatch as m:
        if m.kind is AssertionError and msg is not None:
            raise AssertionError(msg(m.message) if callable(msg) else msg) from None
        raise m.kind(m.message) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """The deprecated form of `assert_close` (dtypes not checked, NaNs equal)."""
    warnings.warn(
        "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
        "future release. Please use `torch.testing.assert_close()` instead. You can find "
        "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
        FutureWarning,
        stacklevel=2,
    )
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=None, atol=None)
    assert_close(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
        check_dtype=False, check_stride=False, msg=msg or None,
    )
