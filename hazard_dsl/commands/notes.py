"""A remark of the application layer that names a setting, as a fact each front end words.

A report's note ("no exact figure: it assumes every bet proposed is taken, and --refuse refuses
some") or the reason a session is not logged names settings the reader gave. The application
layer does not know whether the reader typed a flag, a Python keyword or a JSON field, so a
`Note` holds its text and `Arg`s (hazard_dsl.errors), as an `ArgumentError`'s problem does:
`said(wording)` words it (`cli.wording.FLAGS`: `--refuse`; `errors.PYTHON`, also `str()`:
`refusals`; `serve.wording.JSON`: `refusals`). `key` is the setting it is about, for a caller
that acts on it rather than shows it.
"""

from __future__ import annotations

from ..errors import PYTHON, Arg


class Entry:
    """An entry of a mapping setting named on its own, as the reader writes it: the command
    line types it after its flag (`SEAT:stake=AMOUNT`, without `--bet`); Python and JSON name
    the entry as they name any argument (`plans['SEAT']['stake'] = 'AMOUNT'`)."""

    __slots__ = ("arg",)

    def __init__(self, arg: Arg):
        self.arg = arg

    def __eq__(self, other):
        return self.arg == other.arg if isinstance(other, Entry) else NotImplemented

    def __hash__(self):
        return hash(self.arg)

    def __repr__(self) -> str:
        return f"Entry({self.arg!r})"

    def __reduce__(self):
        return (Entry, (self.arg,))


class Note:
    """A remark naming settings (see the module's docstring): `key` the setting it is about,
    `parts` text and `Arg`s. A value: equal by its facts, pickled as itself."""

    __slots__ = ("key", "parts")

    def __init__(self, key: str, *parts: str | Arg):
        self.key = key
        self.parts = tuple(parts)

    def said(self, wording) -> str:
        """The note in `wording`'s terms (anything with `arg(Arg) -> str`; an `Entry` by its
        `entry(Arg)` where it has one)."""
        out = []
        for part in self.parts:
            if isinstance(part, Entry):
                out.append(getattr(wording, "entry", wording.arg)(part.arg))
            else:
                out.append(part if isinstance(part, str) else wording.arg(part))
        return "".join(out)

    def __str__(self) -> str:
        return self.said(PYTHON)

    def __eq__(self, other):
        return (self.key, self.parts) == (other.key, other.parts) if isinstance(other, Note) else NotImplemented

    def __hash__(self):
        return hash((self.key, self.parts))

    def __repr__(self) -> str:
        return f"Note({self.key!r}, {', '.join(map(repr, self.parts))})"

    def __reduce__(self):
        return (Note, (self.key, *self.parts))


def said(value, wording):
    """A report's value as a reader sees it: a `Note` worded by `wording`, anything else as it is."""
    return value.said(wording) if isinstance(value, Note) else value


__all__ = ["Entry", "Note", "said"]
