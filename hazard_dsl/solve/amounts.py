"""Reading a bet's amount: money (`10`, `12.50`, `21/2`, exact, never floats) or a multiple of
the bet it backs (`2x`, `3-4-5x`), and the errors a bet ordered raises (`BetError`, and
`BetArgumentError` carrying its facts for each front end to word). Apart from `solve.bets`, whose
figures need none of it, so that the table, the simulator and the API read amounts alone.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.bets import CompiledBet
from ..errors import Arg, ArgumentError
from ..parse.numbers import exact_amount


class BetError(ValueError):
    pass


class BetArgumentError(BetError, ArgumentError):
    """A bet ordered that cannot be made as given (`Arg('bets', 'odds', '2x')`): each front end
    names it (`bets['odds'] = '2x'`, `--bet odds=2x`)."""



def parse_amount(bet, text: str):
    """An order's amount: ("money", Fraction) or ("multiple", text) for a bet that backs another
    (`2x`, or a multiple the bet names such as `3-4-5x`). Raises BetError with a clear reason."""
    text = text.strip()
    if text in bet.multiples or text.endswith("x"):
        if bet.backs is None:
            raise BetArgumentError(Arg("bets", bet.name, text), f"{bet.name} backs no other bet, so it takes an "
                                   f"amount, not a multiple")
        if text not in bet.multiples:
            factor = exact_amount(text[:-1], percent=False)
            if factor is None or factor <= 0:
                known = ", ".join(bet.multiples) or "none declared"
                raise BetArgumentError(Arg("bets", bet.name, text), f"a multiple is a positive number and x "
                                       f"(2x), or one the bet names ({known})")
        return "multiple", text
    return "money", parse_money(text, Arg("bets", bet.name))


def bet_amount(cb: CompiledBet, text: str, game: int | None, backed_amount) -> Fraction:
    kind, value = parse_amount(cb.bet, text)
    if kind == "money":
        return value
    if game is None or backed_amount is None:
        raise BetArgumentError(Arg("bets", cb.name, text), f"a multiple needs the bet it backs ({cb.bet.backs}) "
                               f"given first")
    factor = cb.multiple(value, game)
    if factor <= 0:
        raise BetArgumentError(Arg("bets", cb.name, text), f"the multiple is {factor} here; it must be more "
                               f"than 0")
    return factor * backed_amount


def parse_money(text: str, what: str | Arg) -> Fraction:
    """`10`, `12.50`, `21/2`: exact amounts of money, never floats. `what` the argument given:
    an `Arg` (then the error is a BetArgumentError, worded by each front end) or its name."""
    value = exact_amount(text, percent=False)
    problem = (f"{text[:30]!r} is not an amount of money (10, 12.50 or 21/2)" if value is None else
               "the amount must be more than 0" if value <= 0 else None)
    if problem is None:
        return value
    if isinstance(what, Arg):
        raise BetArgumentError(what, problem)
    raise BetError(f"{what}: {problem}")
