"""collections: container types (tensh's own, after CPython's documented behaviour)."""

from operator import itemgetter as _itemgetter


def _is_identifier(name):
    if not name or not (name[0].isalpha() or name[0] == '_'):
        return False
    return all(c.isalnum() or c == '_' for c in name)


_KEYWORDS = {'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break',
             'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for',
             'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
             'pass', 'raise', 'return', 'try', 'while', 'with', 'yield'}


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = str(typename)
    if rename:
        seen = set()
        for index, name in enumerate(field_names):
            if (not _is_identifier(name) or name in _KEYWORDS or name.startswith('_')
                    or name in seen):
                field_names[index] = f'_{index}'
            seen.add(name)
    for name in [typename] + field_names:
        if not _is_identifier(name):
            raise ValueError(f'Type names and field names must be valid identifiers: {name!r}')
        if name in _KEYWORDS:
            raise ValueError(f'Type names and field names cannot be a keyword: {name!r}')
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError(f'Field names cannot start with an underscore: {name!r}')
        if name in seen:
            raise ValueError(f'Encountered duplicate field name: {name!r}')
        seen.add(name)
    field_names = tuple(field_names)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError('Got more default values than field names')
        field_defaults = dict(zip(field_names[len(field_names) - len(defaults):], defaults))
    count = len(field_names)

    def __new__(cls, *args, **kwargs):
        values = list(args)
        if len(values) > count:
            raise TypeError(f'{typename}.__new__() takes {count + 1} positional arguments but {len(values) + 1} were given')
        missing = []
        for name in field_names[len(values):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing.append(name)
        for name in kwargs:
            if name in field_names:
                raise TypeError(f"{typename}.__new__() got multiple values for argument '{name}'")
            raise TypeError(f"{typename}.__new__() got an unexpected keyword argument '{name}'")
        if missing:
            quoted = [repr(m) for m in missing]
            if len(quoted) == 1:
                listed = quoted[0]
            elif len(quoted) == 2:
                listed = quoted[0] + ' and ' + quoted[1]
            else:
                listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
            raise TypeError(f'{typename}.__new__() missing {len(missing)} required positional argument{"" if len(missing) == 1 else "s"}: {listed}')
        return tuple.__new__(cls, values)

    def __repr__(self):
        return type(self).__name__ + '(' + ', '.join(f'{n}={v!r}' for n, v in zip(field_names, self)) + ')'

    def _asdict(self):
        return dict(zip(self._fields, self))

    def _replace(self, **kwds):
        values = [kwds.pop(name, value) for name, value in zip(field_names, self)]
        if kwds:
            raise ValueError(f'Got unexpected field names: {list(kwds)!r}')
        return type(self)(*values)

    def _make(cls, iterable):
        values = tuple(iterable)
        if len(values) != count:
            raise TypeError(f'Expected {count} arguments, got {len(values)}')
        return tuple.__new__(cls, values)

    def __getnewargs__(self):
        return tuple(self)

    namespace = {
        '__doc__': f'{typename}({", ".join(field_names)})',
        '__slots__': (),
        '_fields': field_names,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': classmethod(_make),
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': field_names,
    }
    for index, name in enumerate(field_names):
        namespace[name] = property(_itemgetter(index), doc=f'Alias for field number {index}')
    return type(typename, (tuple,), namespace)


class _OrderedDictView:
    """A view of an `OrderedDict` (`odict_keys`, ...): the dict's own view, named as
    CPython names an ordered dict's."""

    def __init__(self, view):
        self._view = view

    def __iter__(self):
        return iter(self._view)

    def __reversed__(self):
        return reversed(self._view)

    def __len__(self):
        return len(self._view)

    def __contains__(self, item):
        return item in self._view

    def __eq__(self, other):
        if isinstance(other, _OrderedDictView):
            other = other._view
        return self._view == other

    def __and__(self, other):
        return self._view & other

    def __or__(self, other):
        return self._view | other

    def __sub__(self, other):
        return self._view - other

    def __xor__(self, other):
        return self._view ^ other

    def __rand__(self, other):
        return other & set(self._view)

    def __ror__(self, other):
        return other | set(self._view)

    def __rsub__(self, other):
        return other - set(self._view)

    def __rxor__(self, other):
        return other ^ set(self._view)

    def isdisjoint(self, other):
        return self._view.isdisjoint(other)

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, list(self._view))


class odict_keys(_OrderedDictView):
    __hash__ = None


class odict_values(_OrderedDictView):
    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


class odict_items(_OrderedDictView):
    __hash__ = None


class OrderedDict(dict):
    def keys(self):
        return odict_keys(dict.keys(self))

    def values(self):
        return odict_values(dict.values(self))

    def items(self):
        return odict_items(dict.items(self))

    def move_to_end(self, key, last=True):
        value = self.pop(key)
        if last:
            self[key] = value
        else:
            rest = list(self.items())
            self.clear()
            self[key] = value
            for k, v in rest:
                self[k] = v

    def popitem(self, last=True):
        if not self:
            raise KeyError('dictionary is empty')
        key = next(reversed(list(self.keys()))) if last else next(iter(self))
        return (key, self.pop(key))

    def __repr__(self):
        if not self:
            return f'{type(self).__name__}()'
        return f'{type(self).__name__}({list(self.items())!r})'

    def copy(self):
        return type(self)(self)


class defaultdict(dict):
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        super().__init__(*args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def __repr__(self):
        factory = repr(self.default_factory)
        return f'{type(self).__name__}({factory}, {dict(self)!r})'

    def copy(self):
        return type(self)(self.default_factory, self)


class Counter(dict):
    def __init__(self, iterable=None, **kwds):
        super().__init__()
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        ranked = sorted(self.items(), key=_itemgetter(1), reverse=True)
        return ranked if n is None else ranked[:n]

    def elements(self):
        for element, count in self.items():
            for _ in range(count):
                yield element

    def update(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for element, count in iterable.items():
                    self[element] = count + self.get(element, 0)
            else:
                for element in iterable:
                    self[element] = self.get(element, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for element, count in iterable.items():
                    self[element] = self.get(element, 0) - count
            else:
                for element in iterable:
                    self[element] = self.get(element, 0) - 1
        if kwds:
            self.subtract(kwds)

    def __repr__(self):
        if not self:
            return f'{type(self).__name__}()'
        items = ', '.join(f'{k!r}: {v!r}' for k, v in self.most_common())
        return f'{type(self).__name__}({{{items}}})'

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def copy(self):
        return Counter(self)


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError('maxlen must be non-negative')
        self._items = []
        self._maxlen = maxlen
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def append(self, x):
        self._items.append(x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[0]

    def appendleft(self, x):
        self._items.insert(0, x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def extendleft(self, iterable):
        for x in list(iterable):
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop(0)

    def clear(self):
        self._items.clear()

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            if n:
                self._items[:] = self._items[-n:] + self._items[:-n]

    def count(self, x):
        return self._items.count(x)

    def index(self, x):
        return self._items.index(x)

    def remove(self, value):
        self._items.remove(value)

    def reverse(self):
        self._items.reverse()

    def copy(self):
        return deque(self._items, self._maxlen)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __reversed__(self):
        return reversed(self._items)

    def __getitem__(self, i):
        try:
            return self._items[i]
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __setitem__(self, i, v):
        self._items[i] = v

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        if isinstance(other, deque):
            return self._items == other._items
        return NotImplemented

    def __repr__(self):
        if self._maxlen is None:
            return f'deque({self._items!r})'
        return f'deque({self._items!r}, maxlen={self._maxlen})'


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __getitem__(self, key):
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        raise KeyError(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        seen = {}
        for mapping in reversed(self.maps):
            for k in mapping:
                seen[k] = None
        return iter(seen)

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __repr__(self):
        return f'ChainMap({", ".join(map(repr, self.maps))})'
