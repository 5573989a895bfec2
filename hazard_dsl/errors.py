"""Errors of a request as facts; each front end words them.

The core (parse, check, compile, solve, simulate, play) never names a command-line flag or a
Python keyword in its own words. A value a caller gave that cannot be used raises an
`ArgumentError` carrying:

- `argument`: which argument, as an `Arg` — its name as the application layer's request field
  and the Python API's keyword (`bets`, `policy`, `stake`, `dice`, `goal`, `scheduler`), the key
  of a mapping argument (a bet's name, a seat's name) and the value as given;
- `problem`: what is wrong, a sequence of text and `Arg` references, so that other arguments a
  message mentions are named in the reader's terms too ("odds backs pass; give `Arg('bets',
  'pass', '…')` first");
- `nearest`: the nearest name offered, for "did you mean", and `offered`: what could be given.

A front end words the same error its own way through a `Wording`: the command line
(`cli.wording`) as flags (``--bet pass=x: …``), the Python API as keywords (``bets['pass'] = 'x':
…``, the default `str()`), the web API as JSON field names (``bets.pass: …``). No front end reads
a message back to reword it.

Errors pickle and unpickle as themselves (a worker process or Dask hands them back).
"""

from __future__ import annotations

# Neither `dataclasses` nor `typing` is imported here: this module is read by every command
# before it does any work, and the two took about 14 ms of a 120 ms `check` (python -X
# importtime; docs/performance.md). `Arg` is written out (the frozen dataclass's fields, repr,
# equality, hash, pattern matching and pickling; `records` is a sibling this module may not
# import), and the Protocol `Wording` is made when first asked for (`__getattr__`
# below): only annotations and type checkers use it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Protocol


class Arg:
    """An argument as a request names it: `name` the request's field (the API keyword), `key`
    the entry of a mapping argument (a bet of `bets`, a seat of `seats`), `value` as given
    (None: not shown), `seat` whose argument it is where seats have their own (a seat's bets)."""

    __match_args__ = ("name", "key", "value", "seat")

    def __init__(self, name: str, key: str | None = None, value: object = None, seat: str | None = None):
        for field, given in zip(self.__match_args__, (name, key, value, seat)):
            object.__setattr__(self, field, given)

    def _fields(self) -> tuple:
        return (self.name, self.key, self.value, self.seat)

    def __eq__(self, other):
        return self._fields() == other._fields() if other.__class__ is self.__class__ else NotImplemented

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        return (f"{self.__class__.__qualname__}(name={self.name!r}, key={self.key!r}, value={self.value!r}, "
                f"seat={self.seat!r})")

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r} of a frozen Arg")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r} of a frozen Arg")


Part = str | Arg  # a part of a problem: text, or an argument named in each front end's words

if TYPE_CHECKING:
    class Wording(Protocol):
        """How a front end names an argument."""

        def arg(self, arg: Arg) -> str: ...


def __getattr__(name: str):
    """`Wording` (how a front end names an argument: a Protocol with `arg(Arg) -> str`), made
    with `typing` on first use."""
    if name != "Wording":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from typing import Protocol

    class Wording(Protocol):
        """How a front end names an argument."""

        def arg(self, arg: Arg) -> str: ...

    Wording.__module__, Wording.__qualname__ = __name__, "Wording"
    globals()["Wording"] = Wording
    return Wording


class PythonWording:
    """The Python API's words: `stake`, `bets['pass']`, `bets['pass'] = 'x'`, `policy='foo'`."""

    def arg(self, arg: Arg) -> str:
        said = arg.name
        if arg.seat is not None:
            said = f"{said}[{arg.seat!r}]"
        if arg.key is not None:
            said = f"{said}[{arg.key!r}]"
            if arg.value is not None:
                said = f"{said} = {_shown(arg.value)}"
        elif arg.value is not None:
            said = f"{said}={_shown(arg.value)}"
        return said


def _shown(value: object) -> str:
    """A value as a Python caller would write it; the ellipsis (what to give is the reader's
    choice) stays bare."""
    if value == "…":
        return "…"
    return repr(value)


PYTHON = PythonWording()


def quoted(value) -> str:
    """A value as a refusal quotes it: its repr, a long one cut to 40 characters, and a whole
    number of more than 30 digits by its first digits and its length (10**400 put 400 digits
    in the message; Python will not write one of more than 4,300 at all)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        if value.bit_length() > 13_000:  # str() of more than 4,300 digits is refused: counted by bits
            return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
        digits = str(abs(value))
        return f"{'-' if value < 0 else ''}{digits[:12]}… ({len(digits):,} digits)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class ArgumentError(ValueError):
    """A value given for an argument that cannot be used (see the module's docstring).

    `str()` is the Python API's wording; `said(wording)` any front end's. A subclass marks the
    stage or subject (a bet, a policy, a seat) so that a caller can catch it narrowly."""

    def __init__(self, argument: Arg | str, *problem: Part, nearest: str | None = None,
                 offered: Iterable[str] = ()):
        self.argument = argument if isinstance(argument, Arg) else Arg(argument)
        self.problem: tuple[Part, ...] = tuple(problem)
        self.nearest = nearest
        self.offered = tuple(offered)
        super().__init__(self.said(PYTHON))

    def said(self, wording: Wording) -> str:
        """The message in `wording`'s terms: the argument, then what is wrong with it (joined by
        ": " unless the problem starts with a word that follows the name, "must …", "is …"),
        then "did you mean" where a nearest name is known."""
        head = wording.arg(self.argument)
        body = "".join(part if isinstance(part, str) else wording.arg(part) for part in self.problem)
        if not body:
            said = head
        elif body[:1] in (",", ":", ";", "(") or body.split(" ", 1)[0] in _FOLLOWING_WORDS:
            said = f"{head}{'' if body[:1] in ',:;' else ' '}{body}"
        else:
            said = f"{head}: {body}"
        if self.nearest is not None:
            said += f"; did you mean {self.nearest!r}?"
        return said

    def __reduce__(self):
        # ValueError pickles its `args` (the message): rebuild from the facts instead, so that
        # the error unpickles as itself, with its facts, in another process.
        return (_rebuild, (type(self), self.__dict__.copy()))


# Words after which a problem continues the argument's name as a sentence: "stake must be more
# than 0", "goal is too large", "players takes names".
_FOLLOWING_WORDS = frozenset({"must", "is", "are", "takes", "needs", "cannot", "can", "was", "has", "gives",
                              "should", "does", "exceeds"})


def _rebuild(cls, state: dict):
    error = cls.__new__(cls)
    error.__dict__.update(state)
    ValueError.__init__(error, error.said(PYTHON))
    return error
