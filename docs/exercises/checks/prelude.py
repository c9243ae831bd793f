# Helpers every check uses. A failed expectation ends the check with its message.
import torch


def expect(ok, what):
    if not ok:
        raise AssertionError("not yet: " + what)


def shares(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
