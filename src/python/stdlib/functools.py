"""functools: higher-order functions (tensh's own, after CPython's documented behaviour)."""

WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')
WRAPPER_UPDATES = ('__dict__',)


class _Missing:
    def __repr__(self):
        return '<missing>'


_missing = _Missing()


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for name in assigned:
        try:
            value = getattr(wrapped, name)
        except AttributeError:
            continue
        setattr(wrapper, name, value)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorate(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorate


def reduce(function, sequence, initial=_missing):
    items = iter(sequence)
    if initial is _missing:
        try:
            value = next(items)
        except StopIteration:
            raise TypeError('reduce() of empty iterable with no initial value') from None
    else:
        value = initial
    for element in items:
        value = function(value, element)
    return value


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError('the first argument must be callable')
        if isinstance(func, partial):
            args = func.args + args
            merged = dict(func.keywords)
            merged.update(keywords)
            keywords = merged
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        merged = dict(self.keywords)
        merged.update(keywords)
        return self.func(*self.args, *args, **merged)

    def __repr__(self):
        parts = [repr(self.func)]
        parts.extend(repr(a) for a in self.args)
        parts.extend(f'{k}={v!r}' for k, v in self.keywords.items())
        return 'functools.partial(' + ', '.join(parts) + ')'


class _CacheInfo(tuple):
    @property
    def hits(self):
        return self[0]

    @property
    def misses(self):
        return self[1]

    @property
    def maxsize(self):
        return self[2]

    @property
    def currsize(self):
        return self[3]

    def __repr__(self):
        return f'CacheInfo(hits={self[0]!r}, misses={self[1]!r}, maxsize={self[2]!r}, currsize={self[3]!r})'


class _KeywordMark:
    pass


_keyword_mark = (_KeywordMark(),)


def _make_key(args, keywords, typed):
    key = args
    if keywords:
        key = key + _keyword_mark
        for item in keywords.items():
            key = key + item
    if typed:
        key = key + tuple(type(v) for v in args)
        if keywords:
            key = key + tuple(type(v) for v in keywords.values())
    elif len(key) == 1 and type(key[0]) in (int, str):
        return key[0]
    return key


def _lru_cache_wrapper(user_function, maxsize, typed):
    cache = {}
    hits = 0
    misses = 0

    def wrapper(*args, **keywords):
        nonlocal hits, misses
        key = _make_key(args, keywords, typed)
        if key in cache:
            hits += 1
            result = cache.pop(key)
            cache[key] = result
            return result
        misses += 1
        result = user_function(*args, **keywords)
        if maxsize is None:
            cache[key] = result
        elif maxsize > 0:
            if key not in cache and len(cache) >= maxsize:
                del cache[next(iter(cache))]
            cache[key] = result
        return result

    def cache_info():
        return _CacheInfo((hits, misses, maxsize, len(cache)))

    def cache_clear():
        nonlocal hits, misses
        cache.clear()
        hits = 0
        misses = 0

    update_wrapper(wrapper, user_function)
    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    return wrapper


def lru_cache(maxsize=128, typed=False):
    if isinstance(maxsize, int) and not isinstance(maxsize, bool):
        if maxsize < 0:
            maxsize = 0
    elif callable(maxsize) and isinstance(typed, bool):
        user_function = maxsize
        return _lru_cache_wrapper(user_function, 128, typed)
    elif maxsize is not None:
        raise TypeError('Expected first argument to be an integer, a callable, or None')

    def decorating_function(user_function):
        return _lru_cache_wrapper(user_function, maxsize, typed)
    return decorating_function


def cache(user_function):
    return _lru_cache_wrapper(user_function, None, False)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = func.__doc__

    def __set_name__(self, owner, name):
        self.attrname = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.attrname] = value
        return value


def total_ordering(cls):
    roots = [op for op in ('__lt__', '__le__', '__gt__', '__ge__') if op in cls.__dict__]
    if not roots:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = max(roots)

    if root == '__lt__':
        def __gt__(self, other):
            r = self.__lt__(other)
            if r is NotImplemented:
                return r
            return not r and self != other

        def __le__(self, other):
            r = self.__lt__(other)
            if r is NotImplemented:
                return r
            return r or self == other

        def __ge__(self, other):
            r = self.__lt__(other)
            if r is NotImplemented:
                return r
            return not r
        derived = {'__gt__': __gt__, '__le__': __le__, '__ge__': __ge__}
    elif root == '__le__':
        def __ge__(self, other):
            r = self.__le__(other)
            if r is NotImplemented:
                return r
            return not r or self == other

        def __lt__(self, other):
            r = self.__le__(other)
            if r is NotImplemented:
                return r
            return r and self != other

        def __gt__(self, other):
            r = self.__le__(other)
            if r is NotImplemented:
                return r
            return not r
        derived = {'__ge__': __ge__, '__lt__': __lt__, '__gt__': __gt__}
    elif root == '__gt__':
        def __lt__(self, other):
            r = self.__gt__(other)
            if r is NotImplemented:
                return r
            return not r and self != other

        def __ge__(self, other):
            r = self.__gt__(other)
            if r is NotImplemented:
                return r
            return r or self == other

        def __le__(self, other):
            r = self.__gt__(other)
            if r is NotImplemented:
                return r
            return not r
        derived = {'__lt__': __lt__, '__ge__': __ge__, '__le__': __le__}
    else:
        def __le__(self, other):
            r = self.__ge__(other)
            if r is NotImplemented:
                return r
            return not r or self == other

        def __gt__(self, other):
            r = self.__ge__(other)
            if r is NotImplemented:
                return r
            return r and self != other

        def __lt__(self, other):
            r = self.__ge__(other)
            if r is NotImplemented:
                return r
            return not r
        derived = {'__le__': __le__, '__gt__': __gt__, '__lt__': __lt__}
    for name, function in derived.items():
        if name not in roots:
            setattr(cls, name, function)
    return cls


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None
    return K
