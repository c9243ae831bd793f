"""Python's `tempfile`: folders and files made under the system's folder for temporary
files with names no other file has (`mkdtemp`, `TemporaryDirectory`, `NamedTemporaryFile`),
removed when their context or `cleanup()`/`close()` ends them."""

import os
import _tempfile

__all__ = ['gettempdir', 'gettempprefix', 'mkdtemp', 'mktemp', 'TemporaryDirectory',
           'NamedTemporaryFile', 'TemporaryFile']

template = 'tmp'
tempdir = None
TMP_MAX = 10000


def gettempdir():
    """The folder temporary files go in: `tempfile.tempdir` when set, else `$TMPDIR` or
    `/tmp`."""
    if tempdir is not None:
        return tempdir
    return _tempfile.gettempdir()


def gettempprefix():
    return template


def _parts(suffix, prefix, dir):
    if suffix is None:
        suffix = ''
    if prefix is None:
        prefix = template
    if dir is None:
        dir = gettempdir()
    return suffix, prefix, os.fspath(dir)


def mkdtemp(suffix=None, prefix=None, dir=None):
    """Makes a new folder and returns its absolute path."""
    suffix, prefix, dir = _parts(suffix, prefix, dir)
    for _ in range(TMP_MAX):
        path = os.path.join(dir, prefix + _tempfile.name() + suffix)
        try:
            os.mkdir(path)
        except FileExistsError:
            continue
        return os.path.abspath(path)
    raise FileExistsError('No usable temporary directory name found')


def mktemp(suffix='', prefix=template, dir=None):
    """A name no file has yet (made by nothing: another may take it first)."""
    if dir is None:
        dir = gettempdir()
    for _ in range(TMP_MAX):
        path = os.path.join(dir, prefix + _tempfile.name() + suffix)
        if not os.path.exists(path):
            return path
    raise FileExistsError('No usable temporary filename found')


def _remove_tree(path):
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.isdir(full):
            _remove_tree(full)
        else:
            os.remove(full)
    os.rmdir(path)


class TemporaryDirectory:
    """A new folder (`name`), removed with everything in it by `cleanup()` or at the end of
    a `with` block, whose `as` target is its name."""

    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False,
                 *, delete=True):
        self.name = mkdtemp(suffix, prefix, dir)
        self._ignore_cleanup_errors = ignore_cleanup_errors
        self._delete = delete
        self._closed = False

    def __repr__(self):
        return '<%s %r>' % (self.__class__.__name__, self.name)

    def __enter__(self):
        return self.name

    def __exit__(self, exc, value, tb):
        if self._delete:
            self.cleanup()

    def cleanup(self):
        if self._closed:
            return
        self._closed = True
        try:
            _remove_tree(self.name)
        except OSError:
            if not self._ignore_cleanup_errors:
                raise


class _TemporaryFileWrapper:
    """A file opened on a new name: the file's methods and `name`; closing it (or the end of
    its `with` block) removes it when `delete` is true."""

    def __init__(self, file, name, delete):
        self.file = file
        self.name = name
        self.delete = delete
        self._closed = False

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, exc, value, tb):
        self.close()

    def __iter__(self):
        return iter(self.file)

    def __repr__(self):
        return '<tempfile._TemporaryFileWrapper object name=%r>' % (self.name,)

    def close(self):
        if self._closed:
            return
        self._closed = True
        self.file.close()
        if self.delete and os.path.exists(self.name):
            os.remove(self.name)

    @property
    def closed(self):
        return self._closed


def NamedTemporaryFile(mode='w+b', buffering=-1, encoding=None, newline=None, suffix=None,
                       prefix=None, dir=None, delete=True, *, errors=None):
    """A new file, opened with `mode`, whose path is `name`."""
    suffix, prefix, dir = _parts(suffix, prefix, dir)
    create = mode.replace('w', 'x', 1) if 'w' in mode else mode
    for _ in range(TMP_MAX):
        path = os.path.abspath(os.path.join(dir, prefix + _tempfile.name() + suffix))
        try:
            file = open(path, create)
        except FileExistsError:
            continue
        return _TemporaryFileWrapper(file, path, delete)
    raise FileExistsError('No usable temporary file name found')


def TemporaryFile(mode='w+b', buffering=-1, encoding=None, newline=None, suffix=None,
                  prefix=None, dir=None, *, errors=None):
    """A new file removed when closed."""
    return NamedTemporaryFile(mode, buffering, encoding, newline, suffix, prefix, dir, True)
