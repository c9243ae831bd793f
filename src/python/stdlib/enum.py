"""Python's `enum`, as CPython's behaves: `Enum`, `IntEnum`, `StrEnum`, `Flag`, `IntFlag`,
`auto`, `unique`, the functional API (`Enum('Color', 'RED GREEN')`) and `EnumType`.

A class deriving from `Enum` is made by the metaclass `EnumType`: the plain values its body
binds become its members, instances of the class made once each (a repeated value makes an
alias of the first member with it). The class itself is iterable, sized and subscriptable
by member name; calling it looks a member up by value."""

__all__ = ['EnumType', 'EnumMeta', 'Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag',
           'ReprEnum', 'auto', 'unique', 'member', 'nonmember']

_DESCRIPTOR_TYPES = ('property', 'staticmethod', 'classmethod', 'function', 'type')


class auto:
    """A member's value chosen by `_generate_next_value_` when its class is made."""

    def __init__(self, value=None):
        self.value = value

    def __repr__(self):
        return 'auto(%r)' % (self.value,)


class member:
    """Makes a value that would not be a member (a function) one."""

    def __init__(self, value):
        self.value = value


class nonmember:
    """Keeps a value that would be a member an attribute of the class instead."""

    def __init__(self, value):
        self.value = value


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == '__' and name[2] != '_' and name[-3] != '_'


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == '_' and name[1] != '_' and name[-2] != '_'


def _is_private(class_name, name):
    prefix = '_%s__' % class_name.lstrip('_')
    return name.startswith(prefix) and not name.endswith('__')


def _is_descriptor(value):
    return type(value).__name__ in _DESCRIPTOR_TYPES or callable(value)


def _member_type(class_name, bases):
    """The builtin type the members of a new enum class `class_name` deriving from `bases`
    are values of (`int` for an `IntEnum`), or `None`; an enum that has members cannot be
    derived from."""
    mixin = None
    for b in bases:
        if isinstance(b, EnumType):
            if b._member_names_:
                raise TypeError('<enum %r> cannot extend %r' % (class_name, b))
            if b._member_type_ is not None and mixin is None:
                mixin = b._member_type_
        elif b is not object and mixin is None:
            mixin = b
    return mixin


class EnumType(type):
    """The metaclass of enums: makes the members, and answers iteration, `len`, `in`,
    subscripts by name and calls by value on the class itself."""

    def __new__(metacls, cls, bases, classdict, boundary=None, **kwds):
        names = []
        values = []
        kept = {}
        for key, value in classdict.items():
            if isinstance(value, nonmember):
                kept[key] = value.value
            elif isinstance(value, member):
                names.append(key)
                values.append(value.value)
            elif (_is_dunder(key) or _is_sunder(key) or _is_private(cls, key)
                  or (_is_descriptor(value) and not isinstance(value, auto))):
                kept[key] = value
            else:
                names.append(key)
                values.append(value)
        for key in ('_member_names_', '_member_map_', '_value2member_map_', '_member_type_'):
            kept.pop(key, None)
        mixin = _member_type(cls, bases)
        enum_class = super().__new__(metacls, cls, bases, kept, **kwds)
        type.__setattr__(enum_class, '_member_names_', [])
        type.__setattr__(enum_class, '_member_map_', {})
        type.__setattr__(enum_class, '_value2member_map_', {})
        type.__setattr__(enum_class, '_unhashable_values_', [])
        type.__setattr__(enum_class, '_member_type_', mixin)
        last_values = []
        for index, (name, value) in enumerate(zip(names, values)):
            if isinstance(value, auto):
                if value.value is None:
                    value = enum_class._generate_next_value_(name, 1, index, last_values[:])
                else:
                    value = value.value
            last_values.append(value)
            enum_class._add_member_(name, value, mixin)
        return enum_class

    def _add_member_(cls, name, value, mixin):
        if isinstance(value, tuple):
            args = value
        else:
            args = (value,)
        own_new = None
        for klass in cls.__mro__:
            if klass is Enum or klass is object or klass is mixin:
                break
            if '__new__' in klass.__dict__:
                own_new = klass.__dict__['__new__']
                break
        if own_new is not None:
            enum_member = own_new(cls, *args)
        elif mixin is not None:
            if mixin is tuple:
                enum_member = mixin.__new__(cls, args)
            else:
                enum_member = mixin.__new__(cls, *args)
        else:
            enum_member = object.__new__(cls)
        if not hasattr(enum_member, '_value_'):
            if mixin is None:
                enum_member._value_ = value
            else:
                enum_member._value_ = mixin(*args)
        value = enum_member._value_
        enum_member._name_ = name
        enum_member.__init__(*args)
        canonical = None
        try:
            canonical = cls._value2member_map_.get(value)
        except TypeError:
            for m in cls._unhashable_values_:
                if m._value_ == value:
                    canonical = m
        if canonical is None and not cls._is_flag_alias_(value):
            cls._member_names_.append(name)
        else:
            if canonical is not None:
                enum_member = canonical
        type.__setattr__(cls, name, enum_member)
        cls._member_map_[name] = enum_member
        try:
            if value not in cls._value2member_map_:
                cls._value2member_map_[value] = enum_member
        except TypeError:
            cls._unhashable_values_.append(enum_member)

    def _is_flag_alias_(cls, value):
        # A flag's member of several bits is an alias: iteration gives the single bits.
        return (Flag is not None and issubclass(cls, Flag) and isinstance(value, int)
                and not _is_single_bit(value))

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1,
                 boundary=None):
        if names is None:
            return cls.__new__(cls, value)
        return cls._create_(value, names, module=module, qualname=qualname, type=type,
                            start=start)

    def _create_(cls, class_name, names, *, module=None, qualname=None, type=None, start=1):
        bases = (cls,) if type is None else (type, cls)
        if isinstance(names, str):
            names = names.replace(',', ' ').split()
        classdict = {}
        if isinstance(names, (tuple, list)) and names and isinstance(names[0], str):
            original = names
            last_values = []
            for count, name in enumerate(original):
                value = cls._generate_next_value_(name, start, count, last_values[:])
                last_values.append(value)
                classdict[name] = value
        elif isinstance(names, dict):
            for name, value in names.items():
                classdict[name] = value
        else:
            for name, value in names:
                classdict[name] = value
        metacls = cls.__class__
        return metacls.__new__(metacls, class_name, bases, classdict)

    def __bool__(cls):
        return True

    def __contains__(cls, value):
        if isinstance(value, cls):
            return value._name_ in cls._member_map_
        try:
            return value in cls._value2member_map_
        except TypeError:
            return any(m._value_ == value for m in cls._unhashable_values_)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return (cls._member_map_[name] for name in cls._member_names_)

    def __reversed__(cls):
        return (cls._member_map_[name] for name in reversed(cls._member_names_))

    def __len__(cls):
        return len(cls._member_names_)

    @property
    def __members__(cls):
        return dict(cls._member_map_)

    def __repr__(cls):
        if Flag is not None and issubclass(cls, Flag):
            return "<flag %r>" % cls.__name__
        return "<enum %r>" % cls.__name__

    def __setattr__(cls, name, value):
        member_map = cls.__dict__.get('_member_map_', {})
        if name in member_map:
            raise AttributeError('cannot reassign member %r' % (name,))
        type.__setattr__(cls, name, value)


EnumMeta = EnumType
Flag = None


class Enum(metaclass=EnumType):
    """A class whose instances are its members, made once when the class is made."""

    def __new__(cls, value):
        if type(value) is cls:
            return value
        if not cls._member_map_:
            raise TypeError('%r has no members defined' % cls)
        try:
            return cls._value2member_map_[value]
        except KeyError:
            pass
        except TypeError:
            for m in cls._unhashable_values_:
                if m._value_ == value:
                    return m
        result = cls._missing_(value)
        if isinstance(result, cls):
            return result
        if result is None:
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        raise TypeError('error in %s._missing_: returned %r instead of None or a valid member'
                        % (cls.__name__, result))

    def __init__(self, *args, **kwds):
        pass

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        v_repr = self.__class__._value_repr_ or repr
        return '<%s.%s: %s>' % (self.__class__.__name__, self._name_, v_repr(self._value_))

    def __str__(self):
        return '%s.%s' % (self.__class__.__name__, self._name_)

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return self.__class__, (self._value_,)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    @property
    def name(self):
        return self._name_

    @name.setter
    def name(self, value):
        raise AttributeError("<enum 'Enum'> cannot set attribute 'name'")

    @property
    def value(self):
        return self._value_

    @value.setter
    def value(self, value):
        raise AttributeError("<enum 'Enum'> cannot set attribute 'value'")

    _value_repr_ = None


class ReprEnum(Enum):
    """An enum whose members print (`str`, `format`) as their values do."""

    def __str__(self):
        return str(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)

    def __hash__(self):
        return hash(self._value_)


class IntEnum(int, ReprEnum):
    """An enum whose members are ints."""


class StrEnum(str, ReprEnum):
    """An enum whose members are strs; `auto()` gives the member's name in lower case."""

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


def _high_bit(value):
    return value.bit_length() - 1


class Flag(Enum):
    """An enum whose members are bits combined with `|`, `&`, `^` and `~`."""

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not count:
            return start if start is not None else 1
        last = max(last_values)
        try:
            high_bit = _high_bit(last)
        except Exception:
            raise TypeError('invalid flag value %r' % last) from None
        return 2 ** (high_bit + 1)

    _boundary_ = 'strict'

    @classmethod
    def _flag_mask_of_(cls):
        mask = 0
        for m in cls._member_map_.values():
            mask |= m._value_
        return mask

    @classmethod
    def _missing_(cls, value):
        """A combination of members (a pseudo-member, made once): a value with bits no
        member has is refused (`Flag`) or kept (`IntFlag`); a negative value counts from
        the top of the members' bits."""
        if not isinstance(value, int):
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        asked = value
        flag_mask = cls._flag_mask_of_()
        all_bits = 2 ** flag_mask.bit_length() - 1
        if not ~all_bits <= value <= all_bits or value & (all_bits ^ flag_mask):
            if cls._boundary_ == 'strict':
                max_bits = max(value.bit_length(), flag_mask.bit_length())
                raise ValueError('%r invalid value %r\n    given %s\n  allowed %s' % (
                    cls, value, _bin(value, max_bits), _bin(flag_mask, max_bits)))
            if value < 0:
                value = max(all_bits + 1, 2 ** value.bit_length()) + value
        if value < 0:
            value = all_bits + 1 + value
        if value in cls._value2member_map_:
            return cls._value2member_map_[value]
        if cls._member_type_ is None:
            pseudo = object.__new__(cls)
        else:
            pseudo = cls._member_type_.__new__(cls, value)
        pseudo._value_ = value
        names = [m._name_ for m in cls._decompose_(value)]
        unknown = value & ~flag_mask
        if names and unknown:
            names.append(str(unknown))
        pseudo._name_ = '|'.join(names) if names else None
        cls._value2member_map_[value] = pseudo
        if asked != value:
            cls._value2member_map_[asked] = pseudo
        return pseudo

    @classmethod
    def _decompose_(cls, value):
        return [cls._member_map_[n] for n in cls._member_names_
                if cls._member_map_[n]._value_ and cls._member_map_[n]._value_ & value == cls._member_map_[n]._value_
                and _is_single_bit(cls._member_map_[n]._value_)]

    def __iter__(self):
        return iter(self.__class__._decompose_(self._value_))

    def __len__(self):
        return bin(self._value_).count('1')

    def __contains__(self, other):
        if not isinstance(other, self.__class__):
            raise TypeError(
                "unsupported operand type(s) for 'in': %r and %r"
                % (type(other).__qualname__, self.__class__.__qualname__))
        return other._value_ & self._value_ == other._value_

    def __repr__(self):
        cls_name = self.__class__.__name__
        v_repr = self.__class__._value_repr_ or repr
        if self._name_ is None:
            return '<%s: %s>' % (cls_name, v_repr(self._value_))
        return '<%s.%s: %s>' % (cls_name, self._name_, v_repr(self._value_))

    def __str__(self):
        cls_name = self.__class__.__name__
        if self._name_ is None:
            return '%s(%r)' % (cls_name, self._value_)
        return '%s.%s' % (cls_name, self._name_)

    def __bool__(self):
        return bool(self._value_)

    def __or__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not None and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ | other)

    def __and__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not None and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ & other)

    def __xor__(self, other):
        if isinstance(other, self.__class__):
            other = other._value_
        elif self._member_type_ is not None and isinstance(other, self._member_type_):
            pass
        else:
            return NotImplemented
        return self.__class__(self._value_ ^ other)

    def __invert__(self):
        cls = self.__class__
        if cls._boundary_ == 'keep':
            return cls(~self._value_)
        singles = 0
        for m in cls._member_map_.values():
            if _is_single_bit(m._value_):
                singles |= m._value_
        return cls(singles & ~self._value_)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__


def _bin(num, max_bits):
    """`num` in binary as enum's messages show it: its sign bit, then `max_bits` digits."""
    ceiling = 2 ** num.bit_length()
    if num >= 0:
        s = bin(num + ceiling).replace('1', '0', 1)
    else:
        s = bin(~num ^ (ceiling - 1) + ceiling)
    sign = s[:3]
    digits = s[3:]
    if len(digits) < max_bits:
        digits = (sign[-1] * max_bits + digits)[-max_bits:]
    return '%s %s' % (sign, digits)


def _is_single_bit(value):
    return value != 0 and value & (value - 1) == 0


class IntFlag(int, ReprEnum, Flag):
    """A `Flag` whose members are ints; a value with bits no member has is kept."""

    _boundary_ = 'keep'

    def __str__(self):
        return str(self._value_)

    def __format__(self, format_spec):
        return format(self._value_, format_spec)


def unique(enumeration):
    """Raises `ValueError` when a member of `enumeration` is an alias of another."""
    duplicates = []
    for name, m in enumeration.__members__.items():
        if name != m.name:
            duplicates.append((name, m.name))
    if duplicates:
        alias_details = ', '.join(['%s -> %s' % (alias, name) for (alias, name) in duplicates])
        raise ValueError('duplicate values found in %r: %s' % (enumeration, alias_details))
    return enumeration
