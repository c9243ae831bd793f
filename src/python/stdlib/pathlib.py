"""Python's `pathlib` for POSIX paths: `PurePath`/`PurePosixPath` (paths as values: parts,
names, suffixes, joining with `/`) and `Path`/`PosixPath` (the files behind them: reading,
writing, folders, `glob`). A path object is `os.PathLike`: `open`, `os` and `torch.save`/
`torch.load` take it."""

import os
import re

__all__ = ['PurePath', 'PurePosixPath', 'Path', 'PosixPath']


def _parse(args):
    parts = []
    for a in args:
        if isinstance(a, PurePath):
            text = str(a)
        elif isinstance(a, str):
            text = a
        else:
            raise TypeError(
                "argument should be a str or an os.PathLike object where __fspath__ returns "
                "a str, not %r" % type(a).__name__)
        if text.startswith('/'):
            parts = ['/']
        for piece in text.split('/'):
            if piece and piece != '.':
                parts.append(piece)
    if parts[:1] == ['/']:
        root = '/'
        parts = parts[1:]
    else:
        root = ''
    return root, parts


class PurePath:
    """A path as a value: compared, hashed and ordered by its parts."""

    def __new__(cls, *args):
        if cls is PurePath:
            cls = PurePosixPath
        return object.__new__(cls)

    def __init__(self, *args):
        self._root, self._parts = _parse(args)

    def _from(self, root, parts):
        new = object.__new__(self.__class__)
        new._root = root
        new._parts = list(parts)
        return new

    def __str__(self):
        text = self._root + '/'.join(self._parts)
        return text or '.'

    def __fspath__(self):
        return str(self)

    def as_posix(self):
        return str(self)

    def __repr__(self):
        return '%s(%r)' % (self.__class__.__name__, str(self))

    def _key(self):
        return (self._root, tuple(self._parts))

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __lt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() >= other._key()

    def __truediv__(self, other):
        try:
            return self.joinpath(other)
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, other):
        try:
            return self.__class__(other, self)
        except TypeError:
            return NotImplemented

    def joinpath(self, *others):
        root, parts = _parse((str(self),) + others)
        return self._from(root, parts)

    @property
    def parts(self):
        if self._root:
            return (self._root,) + tuple(self._parts)
        return tuple(self._parts)

    @property
    def root(self):
        return self._root

    @property
    def anchor(self):
        return self._root

    @property
    def drive(self):
        return ''

    @property
    def name(self):
        return self._parts[-1] if self._parts else ''

    @property
    def suffix(self):
        name = self.name
        i = name.rfind('.')
        if 0 < i < len(name) - 1:
            return name[i:]
        return ''

    @property
    def suffixes(self):
        name = self.name
        if name.endswith('.'):
            return []
        name = name.lstrip('.')
        return ['.' + s for s in name.split('.')[1:]]

    @property
    def stem(self):
        name = self.name
        i = name.rfind('.')
        if 0 < i < len(name) - 1:
            return name[:i]
        return name

    @property
    def parent(self):
        if not self._parts:
            return self
        return self._from(self._root, self._parts[:-1])

    @property
    def parents(self):
        return _PathParents(self)

    def with_name(self, name):
        if not self.name:
            raise ValueError('%r has an empty name' % (self,))
        if not name or '/' in name or name == '.':
            raise ValueError('Invalid name %r' % (name,))
        return self._from(self._root, self._parts[:-1] + [name])

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if '/' in suffix or (suffix and (not suffix.startswith('.') or suffix == '.')):
            raise ValueError('Invalid suffix %r' % (suffix,))
        if not self.name:
            raise ValueError('%r has an empty name' % (self,))
        return self._from(self._root, self._parts[:-1] + [self.stem + suffix])

    def is_absolute(self):
        return bool(self._root)

    def relative_to(self, other):
        other = self.__class__(other) if not isinstance(other, PurePath) else other
        n = len(other._parts)
        if other._root != self._root or self._parts[:n] != other._parts:
            raise ValueError('%r is not in the subpath of %r OR one path is relative and the '
                             'other is absolute.' % (str(self), str(other)))
        return self._from('', self._parts[n:])

    def is_relative_to(self, other):
        try:
            self.relative_to(other)
            return True
        except ValueError:
            return False

    def match(self, pattern):
        pattern_parts = [p for p in pattern.split('/') if p]
        if len(pattern_parts) > len(self._parts):
            return False
        if pattern.startswith('/') and (not self._root or len(pattern_parts) != len(self._parts)):
            return False
        for part, pat in zip(reversed(self._parts), reversed(pattern_parts)):
            if not _matches(pat, part):
                return False
        return True


class _PathParents:
    """The folders a path is in, nearest first (`p.parents`)."""

    def __init__(self, path):
        self._path = path
        self._count = len(path._parts)

    def __len__(self):
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._count)))
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        path = self._path
        return path._from(path._root, path._parts[:self._count - index - 1])

    def __iter__(self):
        return (self[i] for i in range(self._count))

    def __repr__(self):
        return '<%s.parents>' % self._path.__class__.__name__


class PurePosixPath(PurePath):
    """A POSIX path as a value."""


def _translate(pattern):
    out = ''
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == '*':
            out += '.*'
        elif c == '?':
            out += '.'
        elif c == '[':
            j = pattern.find(']', i + 1)
            if j < 0:
                out += '\\['
            else:
                body = pattern[i + 1:j]
                if body.startswith('!'):
                    body = '^' + body[1:]
                out += '[' + body.replace('\\', '\\\\') + ']'
                i = j
        else:
            out += re.escape(c)
        i += 1
    return out


def _matches(pattern, name):
    if name.startswith('.') and not pattern.startswith('.'):
        return pattern == name
    return re.fullmatch(_translate(pattern), name) is not None


class _Stat:
    def __init__(self, size):
        self.st_size = size


class Path(PurePath):
    """A path and the file or folder at it."""

    def __new__(cls, *args):
        if cls is Path:
            cls = PosixPath
        return object.__new__(cls)

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    def absolute(self):
        if self._root:
            return self
        return self.__class__(os.getcwd(), self)

    def resolve(self, strict=False):
        path = self.__class__(os.path.abspath(str(self)))
        if strict and not path.exists():
            raise FileNotFoundError("[Errno 2] No such file or directory: %r" % str(path))
        return path

    def exists(self):
        return os.path.exists(str(self))

    def is_file(self):
        return os.path.isfile(str(self))

    def is_dir(self):
        return os.path.isdir(str(self))

    def stat(self):
        return _Stat(os.path.getsize(str(self)))

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        if parents:
            os.makedirs(str(self), exist_ok=exist_ok)
            return
        try:
            os.mkdir(str(self))
        except FileExistsError:
            if not exist_ok or not self.is_dir():
                raise

    def rmdir(self):
        os.rmdir(str(self))

    def unlink(self, missing_ok=False):
        try:
            os.remove(str(self))
        except FileNotFoundError:
            if not missing_ok:
                raise

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError("[Errno 17] File exists: %r" % str(self))
            return
        open(str(self), 'a').close()

    def rename(self, target):
        os.rename(str(self), os.fspath(target))
        return self.__class__(target)

    def replace(self, target):
        os.replace(str(self), os.fspath(target))
        return self.__class__(target)

    def open(self, mode='r', buffering=-1, encoding=None, errors=None, newline=None):
        return open(str(self), mode)

    def read_text(self, encoding=None, errors=None):
        with open(str(self), 'r') as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError('data must be str, not %s' % type(data).__name__)
        with open(str(self), 'w') as f:
            return f.write(data)

    def read_bytes(self):
        with open(str(self), 'rb') as f:
            return f.read()

    def write_bytes(self, data):
        with open(str(self), 'wb') as f:
            return f.write(data)

    def iterdir(self):
        for name in os.listdir(str(self)):
            yield self / name

    def glob(self, pattern):
        parts = [p for p in pattern.split('/') if p]
        if not parts:
            raise ValueError("Unacceptable pattern: %r" % (pattern,))
        return self._select(parts)

    def rglob(self, pattern):
        return self.glob('**/' + pattern)

    def _select(self, parts):
        head, rest = parts[0], parts[1:]
        if head == '**':
            dirs = [self] + list(self._walk_dirs())
            for d in dirs:
                if rest:
                    yield from d._select(rest)
                else:
                    yield d
            return
        if not self.is_dir():
            return
        for name in os.listdir(str(self)):
            if _matches(head, name):
                child = self / name
                if rest:
                    if child.is_dir():
                        yield from child._select(rest)
                else:
                    yield child

    def _walk_dirs(self):
        for name in os.listdir(str(self)):
            child = self / name
            if child.is_dir():
                yield child
                yield from child._walk_dirs()


class PosixPath(Path, PurePosixPath):
    """A path of this system and what is at it."""
