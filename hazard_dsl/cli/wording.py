"""The command line's words for an argument: its flag, as `cli/parser.py` spells it.

The core raises an `ArgumentError` naming the argument as the request (and the Python API) does
(`hazard_dsl.errors`); the command line says the same error with flags, through `FLAGS`:

    Arg('bets', 'pass', 'x')                  --bet pass=x
    Arg('bets', 'pass')                       --bet pass
    Arg('bets', 'odds', 2, seat='Ben')        --bet Ben:odds=2
    Arg('refusals', 'side', seat='Ben')       --refuse Ben:side
    Arg('options', 'main', 'called')          --option main=called
    Arg('policy', value='foo')                --policy foo
    Arg('stake')                              --stake
    Arg('no_log')                             --no-log
    Arg('unfold', value=True)                 --unfold
    Arg('ruleset', value='cotton')            cotton  (a positional argument: its value, or RULESET)

A request's field is the flag's name with underscores for hyphens (`stop_loss`, `--stop-loss`),
or its plural where the flag is repeated, one entry each time (`bets`, `--bet`): `_FLAG` holds
those. tests/cli/test_wording.py checks every flag of the parser against this rule.

A value is written as it would be typed at a shell: bare when it is one plain word, quoted
otherwise (`--bet 'Cat:side=2s 6d'`), so that the message can be copied back onto the command
line; "…" (what to give is the reader's choice) stays bare.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..errors import Arg, ArgumentError

# request fields whose flag is another word: the repeated flags, one entry a time
_FLAG = {"bets": "bet", "plans": "bet", "phases": "phase", "options": "option", "refusals": "refuse"}

# positional arguments: no flag, the value itself (or the metavar the usage line shows)
_POSITIONAL = {"ruleset": "RULESET", "rulesets": "VARIANT", "files": "FILE"}

# a word a shell takes as it is (letters of any script, digits and these); anything else is quoted
_PLAIN = re.compile(r"[\w@%+=:,./…-]+")


class FlagWording:
    """An argument as a flag of `hazard-dsl` (see the module's docstring)."""

    def flag(self, name: str) -> str:
        """The flag of a request field: `bets` → `--bet`, `stop_loss` → `--stop-loss`."""
        return "--" + _FLAG.get(name, name).replace("_", "-")

    def arg(self, arg: Arg) -> str:
        if arg.name in _POSITIONAL and arg.key is None and arg.seat is None:
            return _typed(arg.value) if arg.value is not None else _POSITIONAL[arg.name]
        said = self.flag(arg.name)
        if arg.key is not None or arg.seat is not None:
            item = f"{arg.seat}:" if arg.seat is not None else ""
            item += str(arg.key) if arg.key is not None else "…"
            if arg.value is not None:
                item += f"={_text(arg.value)}"
            return f"{said} {_quoted(item)}"
        if arg.value is None or arg.value is True:  # a switch (--unfold) is its flag alone
            return said
        return f"{said} {_typed(arg.value)}"

    def entry(self, arg: Arg) -> str:
        """An entry of a repeated flag as it is typed after the flag: `SEAT:stake=AMOUNT`
        (a note that names the entry alone, commands.notes.Entry)."""
        item = f"{arg.seat}:" if arg.seat is not None else ""
        item += str(arg.key) if arg.key is not None else "…"
        if arg.value is not None:
            item += f"={_text(arg.value)}"
        return _quoted(item)


FLAGS = FlagWording()


def worded(error: BaseException) -> str:
    """An error's message on the command line: an `ArgumentError` with its flags (`--bet pass=x:
    …`), any other as it says itself."""
    return error.said(FLAGS) if isinstance(error, ArgumentError) else str(error)


def _text(value: object) -> str:
    """A value as its text on the command line: a number as digits (a Fraction as 5/2), a list
    of names with commas (Ann,Ben), a tape of throws as faces (3-4 6-6)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, (list, tuple)) for item in value):
            return " ".join("-".join(map(str, item)) for item in value)
        return ",".join(map(_text, value))
    return str(value)


def _typed(value: object) -> str:
    return _quoted(_text(value))


def _quoted(word: str) -> str:
    """A word as a shell takes it: as it is when plain, else quoted."""
    if _PLAIN.fullmatch(word):
        return word
    import shlex  # (only for an error's message: not at every start)

    return shlex.quote(word)


__all__ = ["FLAGS", "FlagWording", "worded"]
