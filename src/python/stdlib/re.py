# re: regular expressions on str, as CPython's re module answers them. Matching is done by
# _sre (tensh's, in Rust: a linear-time matcher); this module gives CPython's API around it:
# compiled patterns, match objects, findall/finditer/sub/subn/split with Python's rules for
# groups and empty matches, and replacement templates.
import _sre

_FLAG_NAMES = [(256, "ASCII"), (2, "IGNORECASE"), (4, "LOCALE"), (32, "UNICODE"),
               (8, "MULTILINE"), (16, "DOTALL"), (64, "VERBOSE"), (128, "DEBUG")]


class RegexFlag(int):
    """re's flags: ints that print as their names (re.IGNORECASE|re.MULTILINE)."""

    def __repr__(self):
        value = int(self)
        if value == 0:
            return "re.NOFLAG"
        names = []
        for bit, name in _FLAG_NAMES:
            if value & bit:
                names.append("re." + name)
                value &= ~bit
        if value:
            names.append(hex(value))
        return "|".join(names)

    __str__ = __repr__

    def __or__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) | int(other))

    __ror__ = __or__

    def __and__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) & int(other))

    __rand__ = __and__

    def __xor__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return RegexFlag(int(self) ^ int(other))

    __rxor__ = __xor__


IGNORECASE = I = RegexFlag(2)
LOCALE = L = RegexFlag(4)
MULTILINE = M = RegexFlag(8)
DOTALL = S = RegexFlag(16)
UNICODE = U = RegexFlag(32)
VERBOSE = X = RegexFlag(64)
DEBUG = RegexFlag(128)
ASCII = A = RegexFlag(256)
NOFLAG = RegexFlag(0)


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        super().__init__(msg)
        self.msg = msg
        self.pattern = pattern
        self.pos = pos


PatternError = error


class Pattern:
    def __init__(self, pattern, flags):
        if not isinstance(pattern, str):
            if type(pattern).__name__ in ("bytes", "bytearray"):
                raise NotImplementedError("tensh's re matches str patterns, not bytes")
            raise TypeError("first argument must be string or compiled pattern")
        flags = int(flags)
        info = _sre.info(pattern, flags)
        if isinstance(info, str):
            raise error(info, pattern)
        self.pattern = pattern
        self.flags = int(flags) | 32 if not flags & 256 else int(flags)
        self.groups = info[0]
        self.groupindex = info[1]
        self._flags = int(flags)

    def _search(self, string, pos, endpos, mode):
        self._check(string)
        if endpos is None:
            endpos = len(string)
        spans = _sre.search(self.pattern, self._flags, string, pos, endpos, mode)
        if spans is None:
            return None
        return Match(self, string, spans, pos, endpos)

    def search(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._search(string, pos, endpos, 2)

    def _check(self, string):
        if not isinstance(string, str):
            raise TypeError(f"expected string or bytes-like object, got '{type(string).__name__}'")

    def finditer(self, string, pos=0, endpos=None):
        self._check(string)
        if endpos is None or endpos > len(string):
            endpos = len(string)
        for spans in _sre.spans(self.pattern, self._flags, string, pos, endpos, 0):
            yield Match(self, string, spans, pos, endpos)

    def findall(self, string, pos=0, endpos=None):
        self._check(string)
        if endpos is None:
            endpos = len(string)
        return _sre.findall(self.pattern, self._flags, string, pos, endpos)

    def split(self, string, maxsplit=0):
        self._check(string)
        if maxsplit < 0:
            return [string]
        out = []
        last = 0
        for spans in _sre.spans(self.pattern, self._flags, string, 0, len(string), maxsplit):
            out.append(_sre.slice(string, last, spans[0]))
            for g in range(1, self.groups + 1):
                start, end = spans[2 * g], spans[2 * g + 1]
                out.append(None if start < 0 else _sre.slice(string, start, end))
            last = spans[1]
        out.append(_sre.slice(string, last, len(string)))
        return out

    def subn(self, repl, string, count=0):
        self._check(string)
        template = None
        if callable(repl):
            expand = repl
        else:
            template = _template(self, repl)
            expand = lambda m: _expand(template, m)
        if count < 0:
            return string, 0
        out = []
        last = 0
        n = 0
        for spans in _sre.spans(self.pattern, self._flags, string, 0, len(string), count):
            out.append(_sre.slice(string, last, spans[0]))
            if template is not None and len(template) == 1:
                out.append(template[0])
            else:
                piece = expand(Match(self, string, spans, 0, len(string)))
                if not isinstance(piece, str):
                    raise TypeError(f"expected str instance, {type(piece).__name__} found")
                out.append(piece)
            last = spans[1]
            n += 1
        out.append(_sre.slice(string, last, len(string)))
        return "".join(out), n

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def scanner(self, string, pos=0, endpos=None):
        raise NotImplementedError("tensh's re has no Pattern.scanner")

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self._flags == other._flags

    def __hash__(self):
        return hash((self.pattern, self._flags))

    def __repr__(self):
        text = repr(self.pattern)
        if len(text) > 200:
            text = text[:200]
        flags = int(self._flags) & ~int(UNICODE)
        if flags:
            return f"re.compile({text}, {RegexFlag(flags)!r})"
        return f"re.compile({text})"


class Match:
    def __init__(self, pattern, string, spans, pos, endpos):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans

    def _index(self, group):
        if isinstance(group, str):
            if group not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[group]
        if isinstance(group, bool) or not isinstance(group, int) or group < 0 or group > self.re.groups:
            raise IndexError("no such group")
        return group

    def span(self, group=0):
        g = self._index(group)
        return (self._spans[2 * g], self._spans[2 * g + 1])

    def start(self, group=0):
        return self.span(group)[0]

    def end(self, group=0):
        return self.span(group)[1]

    def _group(self, group, default=None):
        start, end = self.span(group)
        if start < 0:
            return default
        return _sre.slice(self.string, start, end)

    def group(self, *groups):
        if not groups:
            return self._group(0)
        if len(groups) == 1:
            return self._group(groups[0])
        return tuple(self._group(g) for g in groups)

    def __getitem__(self, group):
        return self._group(group)

    def groups(self, default=None):
        return tuple(self._group(g, default) for g in range(1, self.re.groups + 1))

    def groupdict(self, default=None):
        return {name: self._group(index, default) for name, index in self.re.groupindex.items()}

    @property
    def lastindex(self):
        best = None
        best_end = -1
        for g in range(1, self.re.groups + 1):
            start, end = self.span(g)
            if start >= 0 and end >= best_end:
                best, best_end = g, end
        return best

    @property
    def lastgroup(self):
        index = self.lastindex
        for name, i in self.re.groupindex.items():
            if i == index:
                return name
        return None

    @property
    def regs(self):
        return tuple(self.span(g) for g in range(self.re.groups + 1))

    def expand(self, template):
        return _expand(_template(self.re, template), self)

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<re.Match object; span={self.span()!r}, match={self.group(0)!r}>"


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\"}


def _template(pattern, repl):
    """A replacement template read into pieces: strings, and group numbers."""
    if not isinstance(repl, str):
        raise TypeError(f"expected str instance, {type(repl).__name__} found")
    pieces = []
    text = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c != "\\":
            text.append(c)
            i += 1
            continue
        if i + 1 >= n:
            raise error("bad escape (end of pattern)", repl, i)
        d = repl[i + 1]
        if d == "g":
            close = repl.find(">", i + 2)
            if i + 2 >= n or repl[i + 2] != "<":
                raise error("missing <", repl, i + 2)
            if close < 0:
                raise error("missing >, unterminated name", repl, i + 3)
            name = repl[i + 3:close]
            if name == "":
                raise error("missing group name", repl, i + 3)
            if name.isdigit():
                index = int(name)
                if index > pattern.groups:
                    raise error(f"invalid group reference {index}", repl, i + 3)
            elif name in pattern.groupindex:
                index = pattern.groupindex[name]
            elif name.isidentifier():
                raise IndexError(f"unknown group name '{name}'")
            else:
                raise error(f"bad character in group name '{name}'", repl, i + 3)
            pieces.append("".join(text))
            text = []
            pieces.append(index)
            i = close + 1
        elif d.isdigit():
            j = i + 1
            while j < n and j < i + 3 and repl[j].isdigit():
                j += 1
            if d == "0" or (j - i - 1 == 3):
                raise NotImplementedError("tensh's re does not read octal escapes in templates")
            index = int(repl[i + 1:j])
            if index > pattern.groups:
                raise error(f"invalid group reference {index}", repl, i + 1)
            pieces.append("".join(text))
            text = []
            pieces.append(index)
            i = j
        elif d in _ESCAPES:
            text.append(_ESCAPES[d])
            i += 2
        elif d.isascii() and d.isalpha():
            raise error(f"bad escape \\{d}", repl, i)
        else:
            text.append("\\" + d)
            i += 2
    pieces.append("".join(text))
    return pieces


def _expand(template, m):
    out = []
    for piece in template:
        if isinstance(piece, int):
            out.append(m.group(piece) or "")
        else:
            out.append(piece)
    return "".join(out)


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    return Pattern(pattern, flags)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


_SPECIAL = set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


def escape(pattern):
    if not isinstance(pattern, str):
        raise NotImplementedError("tensh's re escapes str patterns, not bytes")
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)


def purge():
    pass
