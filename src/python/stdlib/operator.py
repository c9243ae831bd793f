"""operator: Python's operators as functions (tensh's own, after CPython's documented behaviour)."""


_abs = abs


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def ge(a, b):
    return a >= b


def gt(a, b):
    return a > b


def not_(a):
    return not a


def truth(a):
    return bool(a)


def is_(a, b):
    return a is b


def is_not(a, b):
    return a is not b


def abs(a):
    return _abs(a)


def add(a, b):
    return a + b


def and_(a, b):
    return a & b


def floordiv(a, b):
    return a // b


def index(a):
    return a.__index__() if hasattr(a, '__index__') and not isinstance(a, int) else int(a)


def inv(a):
    return ~a


invert = inv


def lshift(a, b):
    return a << b


def mod(a, b):
    return a % b


def mul(a, b):
    return a * b


def matmul(a, b):
    return a @ b


def neg(a):
    return -a


def or_(a, b):
    return a | b


def pos(a):
    return +a


def pow(a, b):
    return a ** b


def rshift(a, b):
    return a >> b


def sub(a, b):
    return a - b


def truediv(a, b):
    return a / b


def xor(a, b):
    return a ^ b


def concat(a, b):
    return a + b


def contains(a, b):
    return b in a


def countOf(a, b):
    return sum(1 for x in a if x is b or x == b)


def indexOf(a, b):
    for i, x in enumerate(a):
        if x is b or x == b:
            return i
    raise ValueError('sequence.index(x): x not in sequence')


def getitem(a, b):
    return a[b]


def setitem(a, b, c):
    a[b] = c


def delitem(a, b):
    del a[b]


def length_hint(obj, default=0):
    try:
        return len(obj)
    except TypeError:
        return default


def iadd(a, b):
    a += b
    return a


def isub(a, b):
    a -= b
    return a


def imul(a, b):
    a *= b
    return a


def itruediv(a, b):
    a /= b
    return a


class attrgetter:
    def __init__(self, attr, *attrs):
        self._attrs = (attr,) + attrs
        for name in self._attrs:
            if not isinstance(name, str):
                raise TypeError('attribute name must be a string')

    def _one(self, obj, name):
        for part in name.split('.'):
            obj = getattr(obj, part)
        return obj

    def __call__(self, obj):
        if len(self._attrs) == 1:
            return self._one(obj, self._attrs[0])
        return tuple(self._one(obj, name) for name in self._attrs)

    def __repr__(self):
        return 'operator.attrgetter(' + ', '.join(repr(a) for a in self._attrs) + ')'


class itemgetter:
    def __init__(self, item, *items):
        self._items = (item,) + items

    def __call__(self, obj):
        if len(self._items) == 1:
            return obj[self._items[0]]
        return tuple(obj[i] for i in self._items)

    def __repr__(self):
        return 'operator.itemgetter(' + ', '.join(repr(i) for i in self._items) + ')'


class methodcaller:
    def __init__(self, name, *args, **kwargs):
        if not isinstance(name, str):
            raise TypeError('method name must be a string')
        self._name = name
        self._args = args
        self._kwargs = kwargs

    def __call__(self, obj):
        return getattr(obj, self._name)(*self._args, **self._kwargs)
