"""The values of the command line's flags that argparse checks as it reads them (`type=`): a
whole number (--games, --rounds, --workers, --port) and a seed, each refused in one line after
its flag (cli/parser.py says `NotWhole` and `Judged` so), not under argparse's usage block."""

from __future__ import annotations

import argparse


def whole_number_argument(text: str) -> int:
    """A flag's whole number (--games, --seed, --rounds, --workers), in ASCII digits: int()
    would also take ٣, ３, 1_000 and spaces, and fail on 5,000 digits."""
    from ..parse.numbers import MAX_WHOLE_DIGITS, whole_number

    value = whole_number(text)
    if value is None:
        raise NotWhole(f"{text[:30]!r} is not a whole number (digits 0-9, at most {MAX_WHOLE_DIGITS})")
    return value


class NotWhole(argparse.ArgumentTypeError):
    """A flag's value that is not a whole number, said in one line after the flag as --seed's is
    (`--games '1e9' is not a whole number …`), not under argparse's usage block."""


class Judged(argparse.ArgumentTypeError):
    """A flag's value refused by the core's own judgement (`error`, a SettingError), said in one
    line as every other setting's error, without argparse's usage block."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def seed_argument(text: str) -> int:
    """--seed: a whole number from 0 to 2^64 − 1, judged as analyse judges it (commands.dice.
    seed_read): a number too large is said to be so, with the bound."""
    from ..commands.dice import seed_read
    from ..commands.errors import SettingError

    try:
        return seed_read(text)
    except SettingError as exc:
        raise Judged(exc) from None
