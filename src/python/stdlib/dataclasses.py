"""dataclasses: classes made from their annotated fields (tensh's own, after CPython's
documented behaviour)."""

import copy as _copy


class _MissingType:
    def __repr__(self):
        return 'MISSING'


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else metadata
        self.kw_only = kw_only

    def __repr__(self):
        return (f'Field(name={self.name!r},type={self.type!r},default={self.default!r},'
                f'default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},'
                f'hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},'
                f'kw_only={self.kw_only!r},_field_type=_FIELD)')


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def fields(class_or_instance):
    found = getattr(class_or_instance, '__dataclass_fields__', None)
    if found is None:
        raise TypeError('must be called with a dataclass type or instance')
    return tuple(found.values())


def is_dataclass(obj):
    return hasattr(obj, '__dataclass_fields__')


def _field_value(obj, f):
    return getattr(obj, f.name)


def asdict(obj, *, dict_factory=dict):
    if not (is_dataclass(obj) and not isinstance(obj, type)):
        raise TypeError('asdict() should be called on dataclass instances')
    return _asdict_inner(obj, dict_factory)


def _asdict_inner(obj, dict_factory):
    if is_dataclass(obj) and not isinstance(obj, type):
        return dict_factory([(f.name, _asdict_inner(getattr(obj, f.name), dict_factory))
                             for f in fields(obj)])
    if isinstance(obj, list):
        return [_asdict_inner(v, dict_factory) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_asdict_inner(v, dict_factory) for v in obj)
    if isinstance(obj, dict):
        return {_asdict_inner(k, dict_factory): _asdict_inner(v, dict_factory) for k, v in obj.items()}
    return _copy.deepcopy(obj)


def astuple(obj, *, tuple_factory=tuple):
    if not (is_dataclass(obj) and not isinstance(obj, type)):
        raise TypeError('astuple() should be called on dataclass instances')
    return tuple_factory([_astuple_inner(getattr(obj, f.name)) for f in fields(obj)])


def _astuple_inner(obj):
    if is_dataclass(obj) and not isinstance(obj, type):
        return tuple(_astuple_inner(getattr(obj, f.name)) for f in fields(obj))
    if isinstance(obj, list):
        return [_astuple_inner(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_astuple_inner(v) for v in obj)
    if isinstance(obj, dict):
        return {_astuple_inner(k): _astuple_inner(v) for k, v in obj.items()}
    return _copy.deepcopy(obj)


def replace(obj, **changes):
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f'field {f.name} is declared with init=False, it cannot be specified with replace()')
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)


def _is_classvar(annotation):
    return repr(annotation).startswith('typing.ClassVar')


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False):
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, kw_only)
    if cls is None:
        return wrap
    return wrap(cls)


def _process_class(cls, init, repr_, eq, order, unsafe_hash, frozen, kw_only):
    all_fields = {}
    for base in reversed(cls.__mro__[1:]):
        base_fields = getattr(base, '__dataclass_fields__', None)
        if base_fields is not None:
            for f in base_fields.values():
                all_fields[f.name] = f
    annotations = cls.__dict__.get('__annotations__', {})
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            if isinstance(default, (list, dict, set)):
                raise ValueError(f'mutable default {type(default)} for field {name} is not allowed: use default_factory')
            f = field(default=default)
        f.name = name
        f.type = annotation
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        all_fields[name] = f
        if isinstance(default, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = all_fields
    field_list = list(all_fields.values())
    qualname = cls.__qualname__

    if init:
        positional = [f for f in field_list if f.init and not f.kw_only]
        keyword_only = [f for f in field_list if f.init and f.kw_only]
        seen_default = None
        for f in positional:
            if f.default is not MISSING or f.default_factory is not MISSING:
                seen_default = f
            elif seen_default is not None:
                raise TypeError(f'non-default argument {f.name!r} follows default argument')

        def __init__(self, *args, **kwargs):
            if len(args) > len(positional):
                n = len(positional) + 1
                required = 1 + len([f for f in positional
                                    if f.default is MISSING and f.default_factory is MISSING])
                given = len(args) + 1
                takes = f'from {required} to {n}' if required < n else f'{n}'
                raise TypeError(f'{qualname}.__init__() takes {takes} positional argument{"" if n == 1 else "s"} but {given} were given')
            values = {}
            for f, v in zip(positional, args):
                values[f.name] = v
            names = [f.name for f in positional + keyword_only]
            for k, v in kwargs.items():
                if k not in names:
                    raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument '{k}'")
                if k in values:
                    raise TypeError(f"{qualname}.__init__() got multiple values for argument '{k}'")
                values[k] = v
            missing = [f.name for f in positional + keyword_only
                       if f.name not in values and f.default is MISSING and f.default_factory is MISSING]
            if missing:
                kind = 'positional' if missing[0] in [f.name for f in positional] else 'keyword-only'
                quoted = [repr(m) for m in missing]
                if len(quoted) == 1:
                    listed = quoted[0]
                elif len(quoted) == 2:
                    listed = quoted[0] + ' and ' + quoted[1]
                else:
                    listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
                raise TypeError(f'{qualname}.__init__() missing {len(missing)} required {kind} argument{"" if len(missing) == 1 else "s"}: {listed}')
            for f in field_list:
                if f.init and f.name in values:
                    value = values[f.name]
                elif f.default_factory is not MISSING:
                    value = f.default_factory()
                elif f.default is not MISSING:
                    value = f.default
                else:
                    continue
                object.__setattr__(self, f.name, value)
            post_init = getattr(self, '__post_init__', None)
            if post_init is not None:
                post_init()
        setattr(cls, '__init__', __init__)

    if repr_:
        def __repr__(self):
            shown = ', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in field_list if f.repr)
            return f'{type(self).__qualname__}({shown})'
        setattr(cls, '__repr__', __repr__)

    compared = [f for f in field_list if f.compare]

    def _key(obj):
        return tuple(getattr(obj, f.name) for f in compared)

    if eq:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) == _key(other)
            return NotImplemented
        setattr(cls, '__eq__', __eq__)

    if order:
        def __lt__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) < _key(other)
            return NotImplemented

        def __le__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) <= _key(other)
            return NotImplemented

        def __gt__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) > _key(other)
            return NotImplemented

        def __ge__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) >= _key(other)
            return NotImplemented
        for name, function in (('__lt__', __lt__), ('__le__', __le__), ('__gt__', __gt__), ('__ge__', __ge__)):
            setattr(cls, name, function)

    if frozen:
        def __setattr__(self, name, value):
            raise FrozenInstanceError(f"cannot assign to field '{name}'")

        def __delattr__(self, name):
            raise FrozenInstanceError(f"cannot delete field '{name}'")
        setattr(cls, '__setattr__', __setattr__)
        setattr(cls, '__delattr__', __delattr__)

    hashed = [f for f in field_list if (f.compare if f.hash is None else f.hash)]
    if unsafe_hash or (eq and frozen):
        def __hash__(self):
            return hash(tuple(getattr(self, f.name) for f in hashed))
        setattr(cls, '__hash__', __hash__)
    elif eq and '__hash__' not in cls.__dict__:
        setattr(cls, '__hash__', None)
    cls.__match_args__ = tuple(f.name for f in field_list if f.init)
    return cls
