"""contextlib: helpers for `with` (tensh's own, after CPython's documented behaviour)."""

from functools import wraps


class _GeneratorContextManager:
    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self.func = func
        self.args = args
        self.kwds = kwds

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        try:
            self.gen.throw(value)
        except StopIteration as exc:
            return exc is not value
        except BaseException as exc:
            if exc is value:
                return False
            raise
        raise RuntimeError("generator didn't stop after throw()")

    def __call__(self, func):
        @wraps(func)
        def inner(*args, **kwds):
            with _GeneratorContextManager(self.func, self.args, self.kwds):
                return func(*args, **kwds)
        return inner


def contextmanager(func):
    @wraps(func)
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    return helper


class nullcontext:
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        return None


class suppress:
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __enter__(self):
        return None

    def __exit__(self, exctype, excinst, exctb):
        if exctype is None:
            return False
        return issubclass(exctype, self._exceptions)


class ExitStack:
    def __init__(self):
        self._exits = []

    def __enter__(self):
        return self

    def enter_context(self, cm):
        result = cm.__enter__()
        self._exits.append(cm.__exit__)
        return result

    def callback(self, callback, *args, **kwds):
        def call(typ, value, tb):
            callback(*args, **kwds)
        self._exits.append(call)
        return callback

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, typ, value, tb):
        suppressed = False
        pending = value
        while self._exits:
            exit_ = self._exits.pop()
            try:
                if exit_(type(pending) if pending is not None else None, pending, None):
                    suppressed = True
                    pending = None
            except BaseException as e:
                pending = e
                suppressed = False
        if pending is not None and pending is not value:
            raise pending
        return suppressed and value is not None


class redirect_stdout:
    def __init__(self, new_target):
        raise NotImplementedError("tensh's Python does not redirect sys.stdout yet")
