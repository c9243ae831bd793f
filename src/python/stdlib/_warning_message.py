"""`warnings.WarningMessage`: one warning `catch_warnings(record=True)` recorded."""


class WarningMessage:
    """The warning (`message`, an instance of `category`) and where it was issued."""

    _WARNING_DETAILS = ('message', 'category', 'filename', 'lineno', 'file', 'line',
                        'source')

    def __init__(self, message, category, filename, lineno, file=None, line=None,
                 source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return ('{message : %r, category : %r, filename : %r, lineno : %s, line : %r}'
                % (self.message, self._category_name, self.filename, self.lineno, self.line))
