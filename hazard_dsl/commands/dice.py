"""The dice of a command: a seed (checked, or a new one) and a tape of throws, as values."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError, SettingError


def checked_seed(seed: int | None) -> int | None:
    """`seed` if it is one numpy can take (0 to 2**64 - 1); None stays None."""
    if seed is not None and not 0 <= seed < 2**64:
        raise SettingError("seed", "takes a whole number from 0 to 2**64 - 1")
    return seed


def seed_read(text: str) -> int:
    """The seed `text` writes (a flag's, as typed): a whole number from 0 to 2**64 - 1 in ASCII
    digits. SettingError naming `seed` otherwise, saying which: not a whole number, or one too
    large (with the bound), however many digits it has."""
    from ..parse.numbers import spells_whole

    text = str(text)
    written = text.strip()
    if spells_whole(written) and not written.startswith("-"):
        # the digits counted before any is converted (int() of 5,000 digits is refused), so that
        # a whole number only too long is said so, with the bound (30 nines were told "not a
        # whole number")
        digits = written.lstrip("+").lstrip("0") or "0"
        if len(digits) <= 20 and int(digits) < 2**64:
            return int(digits)
        shown = repr(digits) if len(digits) <= 24 else f"'{digits[:20]}…' ({len(digits):,} digits)"
        raise SettingError("seed", f"{shown} is too large: a seed is a whole number from 0 to 2^64 − 1 "
                                   f"({2**64 - 1:,})")
    if spells_whole(written) and not written[1:].strip("0"):  # "-0", as int() reads it
        return 0
    raise SettingError("seed", f"{text[:30]!r} is not a whole number from 0 to 2^64 − 1")


def new_seed() -> int:
    """A seed for a command given none: printed afterwards, so that the same numbers can be had again."""
    import secrets

    return secrets.randbelow(2**32)


def checked_tape(throws) -> list:
    """A request's tape (commands.requests: a tuple of throws as play.dice.DiceTape holds them),
    each throw checked, as JSON may send anything: a cast (a pair of faces 1-6, None for a die
    off), a lone face (1-6 or None) or a recast word; an ArgumentError naming `dice` otherwise."""
    from ..errors import Arg, ArgumentError
    from ..play.dice import MAX_FACE, MAX_TAPE_THROWS, RECAST_WORDS

    def face(value) -> bool:  # (how many faces the dice have, and how many dice, `DiceTape.load` says)
        return value is None or (type(value) is int and 1 <= value <= MAX_FACE)

    if isinstance(throws, (str, bytes)) or not hasattr(throws, "__iter__"):
        raise ArgumentError(Arg("dice"), f"is a sequence of throws, such as ((3, 4), (6, 6)), not {throws!r:.40}")
    throws = list(throws)
    if not throws:
        raise ArgumentError(Arg("dice"), "needs throws, such as ((3, 4), (6, 6))")
    if len(throws) > MAX_TAPE_THROWS:
        raise ArgumentError(Arg("dice"), f"takes at most {MAX_TAPE_THROWS} throws")
    out = []
    for number, item in enumerate(throws, 1):
        if isinstance(item, (tuple, list)) and 2 <= len(item) <= 5 and all(face(f) for f in item):
            out.append(tuple(item))
        elif face(item) or item in RECAST_WORDS:
            out.append(item)
        else:
            raise ArgumentError(Arg("dice"), f": throw {number} is {item!r:.40}; a throw is the dice's faces, like "
                                             f"(3, 4) or (3, 3, 5) (None for a die that lands off), a lone face for a die "
                                             f"recast alone, or {' or '.join(map(repr, RECAST_WORDS))}")
    return out


def seed_and_tape(seed: int | None = None, throws=None):
    """The seed and the dice of a run: a tape (`throws`, a request's tuple of throws, each
    checked by `checked_tape`) replays; otherwise seeded random dice, with a new seed where
    none is given. With a tape the seed is still used for mixed choices (0 unless given)."""
    from ..play.dice import DiceTape, RandomDice

    checked_seed(seed)
    if seed is None and throws is None:
        seed = new_seed()
    elif seed is None:
        seed = 0
    if throws is not None:
        return seed, DiceTape(checked_tape(throws))
    return seed, RandomDice(seed)


def load_dice(dice, machine) -> None:
    """Random dice throw as the rules load them; a tape is refused where it casts what these
    dice cannot (a die off where dice never land off; a lone face, except the dice thrown for
    the first cast that open it)."""
    if dice is None:  # the table's own seeded dice, loaded by the table
        return
    try:
        dice.load(machine.dice, machine.recast, lots=machine.passing is not None and machine.passing.by_lot)
    except ArgumentError:  # the tape's own error, naming `dice`: each front end words it
        raise
    except ValueError as exc:
        raise CommandError(str(exc)) from None
