"""The Python API's arguments checked in the caller's terms, before any work: each Python value
(an int, a Fraction, a Decimal or a string for money; a dict of bets; a list of names) becomes
the value a request holds (`commands.requests`), or an `ArgumentError` naming the keyword
(`bets['pass']: 10.5 is a float …`, `games is a whole number from 1 to …, not -1`).

A wrong type is a `WrongType`, an `ArgumentError` that is a `TypeError` too, as Python's own
are. The API (`hazard_dsl.api`) calls these; nothing here reads command-line text.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import Arg, ArgumentError, quoted

AMOUNTS = "an amount of money more than 0: 10, Fraction(25, 2), Decimal('12.50') or a string '12.50' or '25/2'"
MAX_SEED = 2 ** 64 - 1  # what numpy's generators take


class WrongType(ArgumentError, TypeError):
    """An argument of a type the API cannot take (a list where a dict is needed, text where a
    whole number is): an `ArgumentError` and a `TypeError`."""


def _arg(what: Arg | str) -> Arg:
    return what if isinstance(what, Arg) else Arg(what)




def exact(value, what: Arg | str) -> Fraction:
    """An amount given in Python as a number (int, Fraction, Decimal), exactly; a float or a
    bool is refused (money is exact here: 0.1 is not a tenth), and so is anything else."""
    from decimal import Decimal
    from numbers import Integral

    if isinstance(value, bool) or isinstance(value, float):
        raise ArgumentError(_arg(what), f"{quoted(value)} is a {type(value).__name__}; money is exact here, so give "
                                        f"{AMOUNTS}")
    if isinstance(value, Integral):
        return Fraction(int(value))
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return Fraction(value)
    raise ArgumentError(_arg(what), f"{quoted(value)} is not {AMOUNTS}")


def money_text(value, what: Arg | str) -> str:
    """The text of an amount given in Python (int, Fraction, Decimal, str), for the engine's
    exact reader of bets (solve.bets.parse_amount, which also reads multiples such as 2x);
    a number is checked by `exact`, a Decimal kept as written (12.50)."""
    from decimal import Decimal

    if isinstance(value, str):
        return value.strip()
    amount = exact(value, what)
    if max(amount.numerator.bit_length(), amount.denominator.bit_length()) > 100:  # past any amount's digits
        raise ArgumentError(_arg(what), f"{quoted(value)} is not {AMOUNTS}")
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, Fraction):
        return f"{amount.numerator}/{amount.denominator}"
    return str(amount.numerator)


def money(value, what: Arg | str) -> Fraction:
    """An amount of money (bankroll, goal, stake, purse), exact and more than 0."""
    from .parse.numbers import exact_amount

    amount = exact_amount(money_text(value, what), percent=False)
    if amount is None or amount <= 0:
        raise ArgumentError(_arg(what), f"{quoted(value)} is not {AMOUNTS}")
    return amount


def orders(ruleset, bets, once: bool = False) -> list[tuple[str, str, int | None]]:
    """`bets={"pass": 10, "odds": "3-4-5x"}` as (bet, amount as text, throw or None) orders,
    each checked in Python's terms, a bet after the one it backs (whatever the dict's order).
    `once` (run): an amount "5@3" makes the bet once, before throw 3."""
    from collections.abc import Mapping

    from .diagnostics import did_you_mean
    from .parse.numbers import whole_number
    from .solve.bets import BetError, parse_amount

    if bets is None or (isinstance(bets, Mapping) and not bets):
        return []
    if not isinstance(bets, Mapping):
        raise WrongType(Arg("bets"), f"is a dict of bet names and amounts, such as {{'pass': 10, 'odds': "
                                     f"'3-4-5x'}}, not a {type(bets).__name__}")
    if not ruleset.bets:
        raise ArgumentError(Arg("bets"), f"{ruleset.name} declares no bets")
    known = ", ".join(ruleset.bets)
    found: dict = {}
    for name, amount in bets.items():
        if name not in ruleset.bets:
            raise ArgumentError(Arg("bets"), f"{name!r} is not a bet of {ruleset.name}"
                                             f"{did_you_mean(name, ruleset.bets)} (its bets: {known})",
                                offered=ruleset.bets)
        bet = ruleset.bets[name]
        what = Arg("bets", name)
        text = money_text(amount, what)
        at = None
        if "@" in text:
            text, _, when = text.partition("@")
            at = whole_number(when.strip(), 9)
            if not once:
                raise ArgumentError(what, f"{amount!r} makes the bet once, before a throw: that is for run(); "
                                          f"give {AMOUNTS}")
            if at is None or at < 1:
                raise ArgumentError(what, f"{amount!r}: after @ comes the throw before which the bet is made, 1 "
                                          f"or more")
            text = text.strip()
        try:
            parse_amount(bet, text)
        except BetError:
            if bet.backs is None and (text.endswith("x") or text in bet.multiples):
                raise ArgumentError(what, f"{amount!r} is a multiple, but {name!r} backs no other bet: give "
                                          f"{AMOUNTS}") from None
            multiples = f" or one it names ({', '.join(bet.multiples)})" if bet.multiples else ""
            also = (f"; or, since it backs {bet.backs!r}, a multiple of that bet: '2x'{multiples}"
                    if bet.backs is not None else "")
            raise ArgumentError(what, f"{amount!r} is not an amount for this bet: give {AMOUNTS}{also}") from None
        found[name] = (name, text, at)
    for name, _, _ in found.values():
        backs = ruleset.bets[name].backs
        if backs is not None and backs not in found:
            raise ArgumentError(Arg("bets"), f"{name!r} backs {backs!r}, which is not among the bets: add "
                                             f"{backs!r} too (a bet that backs another is made behind it)")
    placed: list = []

    def place(name: str, trail: tuple) -> None:
        if name in placed or name in trail:
            return
        backs = ruleset.bets[name].backs
        if backs is not None:
            place(backs, trail + (name,))
        placed.append(name)

    for name in found:
        place(name, ())
    return [found[name] for name in placed]


def made(machine, ordered) -> None:
    """Each ordered bet can be made under these options (its `made:` holds somewhere)."""
    for name, _, _ in ordered:
        compiled = machine.bets.get(name)
        if compiled is not None and not compiled.made:
            options = ", ".join(f"{k}={v}" for k, v in machine.options.items()) or "none"
            raise ArgumentError(Arg("bets"), f"{name!r} can never be made in this game: its made: condition "
                                             f"never holds (options: {options})")


def old_bets(bets):
    """simulate's old `bets=["pass=10", "odds=3-4-5x"]`, as the dict every method takes (with a
    DeprecationWarning); anything else as it is, for `orders` to check."""
    if not isinstance(bets, (list, tuple)):
        return bets
    if not bets:
        return None
    import warnings

    warnings.warn("simulate(bets=[\"NAME=AMOUNT\", …]) is the old form; give a dict, as analyse and run take it: "
                  "bets={\"pass\": 10, \"odds\": \"3-4-5x\"}", DeprecationWarning, stacklevel=4)
    out: dict = {}
    for text in bets:
        name, sep, amount = str(text).partition("=")
        if not sep or not name.strip() or not amount.strip():
            raise ArgumentError(Arg("bets"), f"{text!r} is not NAME=AMOUNT; give a dict instead, such as "
                                             f"{{'pass': 10}}")
        if name.strip() in out:
            raise ArgumentError(Arg("bets"), f"{name.strip()!r} is given twice; give each bet once")
        out[name.strip()] = amount.strip()
    return out


def whole(what: str, value, least: int, most: int) -> int:
    """A whole number from `least` to `most` (an int, not a bool, a float or a string)."""
    from numbers import Integral

    if isinstance(value, bool) or not isinstance(value, Integral):
        raise WrongType(Arg(what), f"is a whole number from {least:,} to {most:,}, not {quoted(value)}")
    if not least <= value <= most:
        raise ArgumentError(Arg(what), f"is a whole number from {least:,} to {most:,}, not {quoted(value)}")
    return int(value)


def seed(value) -> int:
    """A seed numpy's generators take: a whole number from 0 to 2**64 - 1."""
    return whole("seed", value, 0, MAX_SEED)


def one_of(what: str, value, known, missing: str | None = None) -> None:
    """`value` is one of `known`, or ArgumentError: "format='x' is not one of …", or `what`
    then the `missing` sentence and the names it could be."""
    from .diagnostics import did_you_mean

    known = list(known)
    if value not in known:
        if missing is None:
            raise ArgumentError(Arg(what, value=value), f"is not one of {', '.join(map(str, known))}"
                                                        f"{did_you_mean(value, known)}", offered=map(str, known))
        raise ArgumentError(Arg(what), f"{missing}{did_you_mean(value, known)} (", Arg(what),
                            f": {', '.join(known) or 'none'})", offered=known)


def names(what: str, given) -> list[str]:
    """A list of names (phases, bets); one name alone is taken as a list of one."""
    if isinstance(given, str):
        return [given]
    given = list(given)
    for name in given:
        if not isinstance(name, str):
            raise WrongType(Arg(what), f"is a list of names, such as ['pass'], not one holding {name!r}")
    return given


def players(given) -> list:
    """The players as a list (their names are checked by the table's rules)."""
    if isinstance(given, str) or not hasattr(given, "__iter__"):
        raise WrongType(Arg("players"), f"is a list of names, such as ['Ann', 'Ben'], not {given!r}")
    return list(given)


def plans(given) -> dict:
    """Seats' plans {seat: {bet: amount}}."""
    if not isinstance(given, dict) or not all(isinstance(p, dict) for p in given.values()):
        raise WrongType(Arg("plans"), f"is a dict of seats' plans, such as {{'Ben': {{'odds': 2}}}}, not {given!r}")
    return given


def table_settings(ruleset, given_players, purse, stake, strategy: str, rounds: int) -> dict:
    """A session's settings (simulate with players), checked as the command checks them."""
    from .commands.sessions import checked_players
    from .play.strategies import STRATEGIES

    names_ = checked_players(players(given_players), 1 if ruleset.table.against == "bank" else 2)
    one_of("strategy", strategy, STRATEGIES)
    return {"players": names_, "purse": money(purse, "purse"), "stake": money(stake, "stake"),
            "strategy": strategy, "rounds": whole("rounds", rounds, 1, 10_000)}


__all__ = ["AMOUNTS", "MAX_SEED", "WrongType", "exact", "made", "money", "money_text", "names", "old_bets", "one_of",
           "orders", "plans", "players", "seed", "table_settings", "whole"]
