"""`sys.version_info`: the version of Python tensh's Python answers as (CPython 3.11.7's,
whose output the conformance cases hold), a tuple with named fields."""


class version_info(tuple):
    """`sys.version_info(major=3, minor=11, micro=7, releaselevel='final', serial=0)`."""

    __module__ = 'sys'

    def __new__(cls, fields):
        return tuple.__new__(cls, fields)

    @property
    def major(self):
        return self[0]

    @property
    def minor(self):
        return self[1]

    @property
    def micro(self):
        return self[2]

    @property
    def releaselevel(self):
        return self[3]

    @property
    def serial(self):
        return self[4]

    def __repr__(self):
        return ('sys.version_info(major=%r, minor=%r, micro=%r, releaselevel=%r, serial=%r)'
                % tuple(self))


version_info = version_info((3, 11, 7, 'final', 0))
