"""itertools: iterator building blocks (tensh's own, after CPython's documented behaviour)."""


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


def repeat(obj, times=None):
    if times is None:
        while True:
            yield obj
    else:
        for _ in range(times):
            yield obj


def accumulate(iterable, func=None, *, initial=None):
    items = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(items)
        except StopIteration:
            return
    yield total
    for element in items:
        total = total + element if func is None else func(total, element)
        yield total


class chain:
    def __init__(self, *iterables):
        self._items = self._run(iterables)

    @staticmethod
    def _run(iterables):
        for it in iterables:
            yield from it

    @classmethod
    def from_iterable(cls, iterables):
        made = cls()
        made._items = cls._run(iterables)
        return made

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)


def compress(data, selectors):
    for d, s in zip(data, selectors):
        if s:
            yield d


def dropwhile(predicate, iterable):
    items = iter(iterable)
    for x in items:
        if not predicate(x):
            yield x
            break
    for x in items:
        yield x


def takewhile(predicate, iterable):
    for x in iterable:
        if predicate(x):
            yield x
        else:
            break


def filterfalse(predicate, iterable):
    if predicate is None:
        predicate = bool
    for x in iterable:
        if not predicate(x):
            yield x


class _Marker:
    pass


class groupby:
    def __init__(self, iterable, key=None):
        self._items = iter(iterable)
        self._keyfunc = key
        self._target = self._key = self._value = _Marker()
        self._round = None

    def __iter__(self):
        return self

    def _key_of(self, value):
        return value if self._keyfunc is None else self._keyfunc(value)

    def __next__(self):
        self._round = _Marker()
        while self._key == self._target:
            self._value = next(self._items)
            self._key = self._key_of(self._value)
        self._target = self._key
        return (self._key, self._group(self._target, self._round))

    def _group(self, target, round_):
        while self._round is round_ and self._key == target:
            yield self._value
            try:
                self._value = next(self._items)
            except StopIteration:
                return
            self._key = self._key_of(self._value)


def islice(iterable, *args):
    s = slice(*args)
    start = 0 if s.start is None else s.start
    stop = s.stop
    step = 1 if s.step is None else s.step
    for name, v in (('Indices', start), ('Stop argument', stop)):
        if v is not None and (not isinstance(v, int) or v < 0):
            raise ValueError('Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.')
    if not isinstance(step, int) or step < 1:
        raise ValueError('Step for islice() must be a positive integer or None.')
    items = iter(iterable)
    nexti = start
    i = 0
    while stop is None or i < stop:
        try:
            element = next(items)
        except StopIteration:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def tee(iterable, n=2):
    items = iter(iterable)
    buffers = [[] for _ in range(n)]

    def gen(mine):
        while True:
            if not mine:
                try:
                    value = next(items)
                except StopIteration:
                    return
                for b in buffers:
                    b.append(value)
            yield mine.pop(0)
    return tuple(gen(b) for b in buffers)


def zip_longest(*iterables, fillvalue=None):
    iterators = [iter(it) for it in iterables]
    active = len(iterators)
    if not active:
        return
    while True:
        row = []
        for i, it in enumerate(iterators):
            try:
                value = next(it)
            except StopIteration:
                active -= 1
                if not active:
                    return
                iterators[i] = repeat(fillvalue)
                value = fillvalue
            row.append(value)
        yield tuple(row)


def product(*iterables, repeat=1):
    pools = [tuple(pool) for pool in iterables] * repeat
    result = [[]]
    for pool in pools:
        result = [x + [y] for x in result for y in pool]
    for prod in result:
        yield tuple(prod)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)


def pairwise(iterable):
    items = iter(iterable)
    try:
        a = next(items)
    except StopIteration:
        return
    for b in items:
        yield (a, b)
        a = b


def batched(iterable, n):
    if n < 1:
        raise ValueError('n must be at least one')
    items = iter(iterable)
    while True:
        batch = tuple(islice(items, n))
        if not batch:
            return
        yield batch
