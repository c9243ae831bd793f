"""json: dumps/dump and loads/load with CPython's output (separators, indent, sort_keys,
ensure_ascii, allow_nan, default) and its decoding errors (JSONDecodeError, a ValueError
with msg, doc, pos, lineno and colno)."""


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\b": "\\b", "\f": "\\f"}


def _quote(s, ensure_ascii):
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
            continue
        n = ord(c)
        if n < 0x20 or (ensure_ascii and n > 0x7E):
            if n > 0xFFFF:
                n -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (n >> 10), 0xDC00 | (n & 0x3FF)))
            else:
                out.append("\\u%04x" % n)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _float(f, allow_nan):
    if f != f:
        text = "NaN"
    elif f == float("inf"):
        text = "Infinity"
    elif f == -float("inf"):
        text = "-Infinity"
    else:
        return repr(f)
    if not allow_nan:
        raise ValueError("Out of range float values are not JSON compliant")
    return text


class JSONEncoder:
    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True,
                 allow_nan=True, sort_keys=False, indent=None, separators=None,
                 default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        if indent is not None and not isinstance(indent, str):
            indent = " " * indent
        self.indent = indent
        if separators is not None:
            self.item_separator, self.key_separator = separators
        elif indent is not None:
            self.item_separator, self.key_separator = ",", ": "
        else:
            self.item_separator, self.key_separator = ", ", ": "
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    def encode(self, o):
        parts = []
        self._encode(o, parts, 0, [])
        return "".join(parts)

    def _key(self, k):
        if isinstance(k, str):
            return k
        if k is True:
            return "true"
        if k is False:
            return "false"
        if k is None:
            return "null"
        if isinstance(k, float):
            return _float(k, self.allow_nan)
        if isinstance(k, int):
            return str(k)
        if self.skipkeys:
            return None
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")

    def _encode(self, o, parts, level, active):
        if o is None:
            parts.append("null")
        elif o is True:
            parts.append("true")
        elif o is False:
            parts.append("false")
        elif isinstance(o, str):
            parts.append(_quote(o, self.ensure_ascii))
        elif isinstance(o, int):
            parts.append(int.__repr__(o))
        elif isinstance(o, float):
            parts.append(_float(o, self.allow_nan))
        elif isinstance(o, (list, tuple, dict)):
            if any(a is o for a in active):
                raise ValueError("Circular reference detected")
            active.append(o)
            if isinstance(o, dict):
                self._dict(o, parts, level, active)
            else:
                self._list(o, parts, level, active)
            active.pop()
        else:
            if any(a is o for a in active):
                raise ValueError("Circular reference detected")
            active.append(o)
            self._encode(self.default(o), parts, level, active)
            active.pop()

    def _open(self, parts, level):
        if self.indent is None:
            return self.item_separator
        parts.append("\n" + self.indent * (level + 1))
        return self.item_separator + "\n" + self.indent * (level + 1)

    def _close(self, parts, level):
        if self.indent is not None:
            parts.append("\n" + self.indent * level)

    def _list(self, o, parts, level, active):
        if not o:
            parts.append("[]")
            return
        parts.append("[")
        separator = self._open(parts, level)
        for i, v in enumerate(o):
            if i:
                parts.append(separator)
            self._encode(v, parts, level + 1, active)
        self._close(parts, level)
        parts.append("]")

    def _dict(self, o, parts, level, active):
        if not o:
            parts.append("{}")
            return
        parts.append("{")
        separator = self._open(parts, level)
        items = sorted(o.items()) if self.sort_keys else o.items()
        first = True
        for k, v in items:
            key = self._key(k)
            if key is None:
                continue
            if not first:
                parts.append(separator)
            first = False
            parts.append(_quote(key, self.ensure_ascii))
            parts.append(self.key_separator)
            self._encode(v, parts, level + 1, active)
        self._close(parts, level)
        parts.append("}")


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
          cls=None, indent=None, separators=None, default=None, sort_keys=False):
    encoder = (cls or JSONEncoder)(skipkeys=skipkeys, ensure_ascii=ensure_ascii,
                                   check_circular=check_circular, allow_nan=allow_nan,
                                   indent=indent, separators=separators, default=default,
                                   sort_keys=sort_keys)
    return encoder.encode(obj)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


_WHITESPACE = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": -float("inf")}


class _Decoder:
    def __init__(self, doc, object_hook, object_pairs_hook, parse_float, parse_int):
        self.doc = doc
        self.object_hook = object_hook
        self.object_pairs_hook = object_pairs_hook
        self.parse_float = parse_float or float
        self.parse_int = parse_int or int

    def skip(self, i):
        doc = self.doc
        while i < len(doc) and doc[i] in _WHITESPACE:
            i += 1
        return i

    def value(self, i):
        doc = self.doc
        if i >= len(doc):
            raise JSONDecodeError("Expecting value", doc, i)
        c = doc[i]
        if c == '"':
            return self.string(i + 1)
        if c == "{":
            return self.object(i + 1)
        if c == "[":
            return self.array(i + 1)
        for word, v in (("null", None), ("true", True), ("false", False)):
            if doc.startswith(word, i):
                return v, i + len(word)
        for word, v in _CONSTANTS.items():
            if doc.startswith(word, i):
                return v, i + len(word)
        return self.number(i)

    def number(self, i):
        doc = self.doc
        j = i
        if j < len(doc) and doc[j] == "-":
            j += 1
        if j < len(doc) and doc[j] == "0":
            j += 1
        elif j < len(doc) and doc[j] in "123456789":
            while j < len(doc) and doc[j].isdigit():
                j += 1
        else:
            raise JSONDecodeError("Expecting value", doc, i)
        is_float = False
        if j + 1 < len(doc) and doc[j] == "." and doc[j + 1].isdigit():
            is_float = True
            j += 1
            while j < len(doc) and doc[j].isdigit():
                j += 1
        if j < len(doc) and doc[j] in "eE":
            k = j + 1
            if k < len(doc) and doc[k] in "+-":
                k += 1
            if k < len(doc) and doc[k].isdigit():
                is_float = True
                j = k
                while j < len(doc) and doc[j].isdigit():
                    j += 1
        text = doc[i:j]
        return (self.parse_float(text) if is_float else self.parse_int(text)), j

    def string(self, i):
        doc = self.doc
        start = i - 1
        out = []
        while True:
            if i >= len(doc):
                raise JSONDecodeError("Unterminated string starting at", doc, start)
            c = doc[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\\":
                if i + 1 >= len(doc):
                    raise JSONDecodeError("Unterminated string starting at", doc, start)
                e = doc[i + 1]
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
                          "r": "\r", "t": "\t"}
                if e in simple:
                    out.append(simple[e])
                    i += 2
                    continue
                if e != "u":
                    raise JSONDecodeError("Invalid \\escape", doc, i)
                n, i = self.hex4(i)
                if 0xD800 <= n <= 0xDBFF and doc.startswith("\\u", i):
                    m, after = self.hex4(i)
                    if 0xDC00 <= m <= 0xDFFF:
                        n = 0x10000 + ((n - 0xD800) << 10) + (m - 0xDC00)
                        i = after
                out.append(chr(n))
                continue
            if ord(c) < 0x20:
                raise JSONDecodeError("Invalid control character at", doc, i)
            out.append(c)
            i += 1

    def hex4(self, i):
        digits = self.doc[i + 2:i + 6]
        if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise JSONDecodeError("Invalid \\uXXXX escape", self.doc, i + 1)
        return int(digits, 16), i + 6

    def object(self, i):
        doc = self.doc
        pairs = []
        i = self.skip(i)
        if i < len(doc) and doc[i] == "}":
            return self.made(pairs), i + 1
        while True:
            if i >= len(doc) or doc[i] != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes",
                                      doc, i)
            key, i = self.string(i + 1)
            i = self.skip(i)
            if i >= len(doc) or doc[i] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", doc, i)
            i = self.skip(i + 1)
            v, i = self.value(i)
            pairs.append((key, v))
            i = self.skip(i)
            if i < len(doc) and doc[i] == "}":
                return self.made(pairs), i + 1
            if i >= len(doc) or doc[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, i)
            i = self.skip(i + 1)

    def made(self, pairs):
        if self.object_pairs_hook is not None:
            return self.object_pairs_hook(pairs)
        d = dict(pairs)
        if self.object_hook is not None:
            return self.object_hook(d)
        return d

    def array(self, i):
        doc = self.doc
        items = []
        i = self.skip(i)
        if i < len(doc) and doc[i] == "]":
            return items, i + 1
        while True:
            v, i = self.value(i)
            items.append(v)
            i = self.skip(i)
            if i < len(doc) and doc[i] == "]":
                return items, i + 1
            if i >= len(doc) or doc[i] != ",":
                raise JSONDecodeError("Expecting ',' delimiter", doc, i)
            i = self.skip(i + 1)


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None,
          parse_constant=None, object_pairs_hook=None):
    if type(s).__name__ in ("bytes", "bytearray"):
        s = s.decode("utf-8")
    if not isinstance(s, str):
        raise TypeError(f"the JSON object must be str, bytes or bytearray, "
                        f"not {type(s).__name__}")
    decoder = _Decoder(s, object_hook, object_pairs_hook, parse_float, parse_int)
    i = decoder.skip(0)
    value, end = decoder.value(i)
    end = decoder.skip(end)
    if end != len(s):
        raise JSONDecodeError("Extra data", s, end)
    return value


def load(fp, **kw):
    return loads(fp.read(), **kw)
