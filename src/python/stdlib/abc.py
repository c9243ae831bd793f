"""abc: abstract base classes (tensh's own). A class whose methods marked `abstractmethod` are
not all overridden refuses to be instantiated, as in CPython (the check is the interpreter's,
when any class is called)."""


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


class ABC:
    def __init_subclass__(cls, **kwargs):
        pass


ABCMeta = type
