"""typing: names for annotations (tensh's own). Annotations are not checked at run time, as
in CPython; these names print as CPython's do where sessions print them."""


class _Special:
    def __init__(self, name, args=()):
        self._name = name
        self._args = args

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _Special(self._name, params)

    def __call__(self, *args, **kwargs):
        raise TypeError(f'Type {self._name} cannot be instantiated')

    def __repr__(self):
        if not self._args:
            return 'typing.' + self._name
        return 'typing.' + self._name + '[' + ', '.join(_type_repr(a) for a in self._args) + ']'


def _type_repr(t):
    if isinstance(t, type):
        if t.__module__ == 'builtins':
            return t.__qualname__
        return t.__module__ + '.' + t.__qualname__
    if t is None:
        return 'None'
    return repr(t)


Any = _Special('Any')
Union = _Special('Union')
Optional = _Special('Optional')
List = _Special('List')
Dict = _Special('Dict')
Tuple = _Special('Tuple')
Set = _Special('Set')
FrozenSet = _Special('FrozenSet')
Callable = _Special('Callable')
Iterable = _Special('Iterable')
Iterator = _Special('Iterator')
Generator = _Special('Generator')
Sequence = _Special('Sequence')
Mapping = _Special('Mapping')
MutableMapping = _Special('MutableMapping')
Type = _Special('Type')
Literal = _Special('Literal')
ClassVar = _Special('ClassVar')
Final = _Special('Final')
NoReturn = _Special('NoReturn')
Self = _Special('Self')
TYPE_CHECKING = False


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound

    def __repr__(self):
        return '~' + self.__name__


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(arg):
    return arg


def NamedTuple(*args, **kwargs):
    raise NotImplementedError("tensh's Python has collections.namedtuple, not typing.NamedTuple yet")
