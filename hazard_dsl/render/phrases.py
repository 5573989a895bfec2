"""Figures said the same way in every report, rule sheet and drawing: the edge to three places
(`edge_percent`, `EDGE_MEANS`), the edge money meets (`stake_edge`), the odds against the caster,
a payout as the layout says it (7 to 6), loaded dice and dice that land off in a few words."""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import CHOICE
from .tables import approximate, exact, number_and, percent

TYPE_CHECKING = False  # not typing's: importing typing cost `analyse` 2 ms of its start
if TYPE_CHECKING:  # (the rule sheet, the drawing and show import these words, not the solver)
    from ..compile.machine import Machine
    from ..solve.analysis import Analysis


def odds_against(lose: Fraction, win: Fraction, compact: bool = False, approximate_only: bool = False) -> str:
    """The setter's chance against the caster's, as whole numbers (Chambers: 7,295 to 6,961);
    `compact` for a narrow column (7295:6961). In CSV, the ratio as one exact number (2053/1979)."""
    if not win or not lose:
        return "—"
    ratio = Fraction(lose) / Fraction(win)
    if approximate_only and ratio.numerator.bit_length() + ratio.denominator.bit_length() > 24:
        return number_and(f"{float(ratio):.4f}:1", exact(ratio))
    if ratio.numerator.bit_length() + ratio.denominator.bit_length() > 80:  # no whole numbers a person reads
        return number_and(f"≈ {approximate(ratio)} : 1", exact(ratio))
    if compact:
        return number_and(f"{ratio.numerator}:{ratio.denominator}", exact(ratio))
    return number_and(f"{ratio.numerator:,} : {ratio.denominator:,}", exact(ratio))


def throws_text(n: int | None, a: Analysis) -> str:
    """A number of throws from the distribution (the median, the 99th percentile), or "more than N"
    when it lies beyond what was computed."""
    return f"more than {len(a.throws) - 1}" if n is None else str(n)


def options_text(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "none"


EDGE_DIGITS = 3  # every edge is shown to the same precision, so they can be compared at a glance


EDGE_MEANS = ("edge: the expected loss per unit staked (per stake laid: a game that ends before any stake does "
              "not count), in % of the stake. For the game, the caster's at even money: P(lose) − P(win), where "
              "every game lays a stake. For a bet, the bettor's, at the bet's own payouts and commission.")


def stake_bet(a: Analysis) -> str | None:
    """The table's stake bet (`money: stake`) where it was analysed, else None."""
    if a.stake is not None:
        return a.stake["bet"]
    name = a.bet_table.machine.ruleset.table.stake if a.bet_table is not None else None
    return name if name in a.bets else None


def stake_edge(a: Analysis) -> Fraction:
    """The edge money meets on the game: the stake bet's, per stake laid (the bets table's, and
    each seat's stake at the table: solve.seats), or without one, the caster's at even money on
    every game, P(lose) − P(win), each game laying one stake."""
    name = stake_bet(a)
    return a.bets[name].edge if name is not None else a.figures.edge


def edge_percent(value: Fraction) -> str:
    return percent(value, EDGE_DIGITS)


# how a game that ends before any stake is counted in the game's own figures, by its result
UNSTAKED_COUNTED = {"win": "a win", "lose": "a loss", "push": "a push"}


def label_words(a: Analysis, label: str) -> str:
    """A label in the ruleset's words ("no main" for no_main): prose reads no identifier."""
    table = a.bet_table
    return table.machine.ruleset.label_words(label) if table is not None else " ".join(label.split("_"))


def unstaked(a: Analysis) -> str:
    """The endings that come before any stake, and how the game's figures count them:
    "no main as a push" (the history sheet), "bad main as a loss" (Cotton, first_throw=lose)."""
    return ", ".join(f"{label_words(a, label)} as {UNSTAKED_COUNTED.get(a.label_results.get(label), 'it ends')}"
                     for label in a.stake["unmade"])


def one_in(chance: Fraction) -> str:
    return str(chance.denominator) if chance.numerator == 1 else f"{1 / chance:.3g}"


def units_of(a: Analysis) -> str:
    """The money unit's plural ("shillings", "pence")."""
    return a.bet_table.machine.ruleset.money_units if a.bet_table is not None else "units"


def ratio(net: Fraction) -> str:
    """A win's net per unit staked as the layout says it: 7/6 → "7 to 6", 29 → "29 to 1"."""
    net = Fraction(net)
    return f"{net.numerator} to {net.denominator}"


def pays_text(bet, f) -> str:
    """What a bet pays, from what its wins really paid: one payout, several (the field pays
    1, 2 or 3 to 1), or one that depends on where it is made (a table follows)."""
    if len(set(f.pays.values())) > 1:
        text = "varies (below)"
    elif f.win_pays:
        nets = sorted(f.win_pays, key=lambda n: (-f.win_pays[n], n))
        text = ", ".join(ratio(n) for n in nets[:4]) + (", …" if len(nets) > 4 else "")
    elif f.pays:
        text = ratio(next(iter(f.pays.values())))
    else:
        text = "never wins"
    if bet.commission is not None and bet.commission.rate:
        # "of bet" or "of win": one marker never stands for two kinds of commission
        text += f" less {percent(bet.commission.rate, 0)} of {bet.commission.of}"
    return text


def dice_text(dice) -> str:
    """Loaded dice in a few words: "fair", "both 1-3: 1/12, 4-6: 1/4", "die 2: …"."""
    if dice is None or dice.fair:
        return "fair"

    def faces(chances) -> str:
        if chances is None:
            return "fair"
        groups: list = []  # runs of faces with the same chance
        for face, p in enumerate(chances, 1):
            if groups and groups[-1][2] == p:
                groups[-1][1] = face
            else:
                groups.append([face, face, p])
        return ", ".join(f"{a}{'-' + str(b) if b != a else ''}: {p}" for a, b, p in groups)

    loaded = list(dice.loaded) + [None] * (dice.count - len(dice.loaded))
    if all(d == loaded[0] for d in loaded):
        return f"{'both' if dice.count == 2 else 'each'} {faces(loaded[0])}"
    return "; ".join(f"die {k} {faces(d)}" for k, d in enumerate(loaded, 1))


def shape_text(shape) -> str:
    """How many dice and what faces: "three dice of six faces (216 throws)", "three dice of crown,
    anchor, heart, diamond, club, spade (216 throws)"."""
    from ..model import NUMBER_WORDS

    many = NUMBER_WORDS[shape.count] if shape.count < len(NUMBER_WORDS) else str(shape.count)
    dice = f"{many} {'die' if shape.count == 1 else 'dice'}"
    faces = ", ".join(shape.names) if shape.names else f"{NUMBER_WORDS[shape.sides] if shape.sides < len(NUMBER_WORDS) else shape.sides} faces"
    return f"{dice} of {faces} ({shape.throws:,} throw{'s' if shape.throws != 1 else ''})"


def recast_text(machine: Machine) -> str:
    """Dice that land off, in a few words: "never", "each die 1 in 10, the caster recasts the off die
    alone or both"."""
    if machine.recast is None:
        return "never"
    return f"each die 1 in {one_in(machine.recast.chance)}, {recast_how(machine)}"


def recast_how(machine: Machine) -> str:
    """What is recast when one die is off: "the caster recasts the off die alone or both"."""
    recast = machine.recast
    choosers = sorted({n.chooser for n in recast.nodes if n.kind == CHOICE})
    if machine.dice.count != 2:  # "both" is two dice' word; more are "all", the dice off "dice"
        return (f"the {' or '.join(choosers)} recasts the dice off alone or all" if choosers else
                "the dice off are recast alone" if recast.nodes else "all the dice are recast")
    return (f"the {' or '.join(choosers)} recasts the off die alone or both" if choosers else
            "the off die is recast alone" if recast.nodes else "both dice are recast")
