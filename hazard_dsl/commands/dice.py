"""The dice of a command: a seed (checked, or a new one) and a tape of throws given as text."""

from __future__ import annotations

from ..errors import ArgumentError
from .errors import CommandError, SettingError


def checked_seed(seed: int | None) -> int | None:
    """`seed` if it is one numpy can take (0 to 2**64 - 1); None stays None."""
    if seed is not None and not 0 <= seed < 2**64:
        raise SettingError("seed", "takes a whole number from 0 to 2**64 - 1")
    return seed


def new_seed() -> int:
    """A seed for a command given none: printed afterwards, so that the same numbers can be had again."""
    import secrets

    return secrets.randbelow(2**32)


def seed_and_dice(seed: int | None = None, tape: str | None = None):
    """The seed and the dice of a run: a tape (`tape`, such as "3-4 6-6") replays; otherwise
    seeded random dice, with a new seed where none is given. With a tape the seed is still
    used for mixed choices (0 unless given)."""
    from ..play.dice import DiceTape, RandomDice

    checked_seed(seed)
    if seed is None and tape is None:
        seed = new_seed()
    elif seed is None:
        seed = 0
    if tape is not None:
        try:
            return seed, DiceTape.parse(tape)
        except ArgumentError:  # the tape's own error, naming `dice`: each front end words it
            raise
        except ValueError as exc:
            raise CommandError(str(exc)) from None
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
