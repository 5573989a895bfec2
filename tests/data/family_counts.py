"""Independent counts of the figures issue 37 quotes for the family of Hazard.

Pure Python on purpose: every figure is counted here from the faces
(itertools.product over the dice, fractions.Fraction) and, where a game can
run on, from first-step equations solved by hand-written algebra below, so
that a test comparing the tool's `analyse` with these numbers compares two
methods, not the tool with itself.  Nothing here imports hazard_dsl.

Each function's docstring names the figure's source and page.  The primary
texts are in ../shared/sources/primary/ (Cotton 1674, EEBO-TCP A34637;
Arbuthnot 1692, EEBO-TCP A25748), page numbers as printed there.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

SIX = range(1, 7)


def throws(dice: int) -> list[tuple[int, ...]]:
    """Every ordered throw of `dice` fair six-sided dice, equally likely."""
    return list(product(SIX, repeat=dice))


def chance(dice: int, holds) -> Fraction:
    """The chance that a throw of `dice` dice satisfies `holds`."""
    every = throws(dice)
    return Fraction(sum(1 for throw in every if holds(throw)), len(every))


def totals(dice: int) -> dict[int, Fraction]:
    """The chance of each total of `dice` dice."""
    every = throws(dice)
    counted = Counter(sum(throw) for throw in every)
    return {total: Fraction(n, len(every)) for total, n in counted.items()}


def largest_count(throw: tuple[int, ...]) -> int:
    """How many dice show the face shown most (2: doublets, 3: a raffle)."""
    return max(Counter(throw).values())


def race(mine: Fraction, theirs: Fraction) -> Fraction:
    """The chance that an event of chance `mine` comes before one of chance
    `theirs`, throwing until one does: the first-step equation
    x = mine + (1 - mine - theirs) x  gives  x = mine / (mine + theirs)."""
    return mine / (mine + theirs)


# --- Passage (Cotton 1674, ch. XXXIII, p. 167) -----------------------------


def passage_doublets() -> tuple[Fraction, Fraction, Fraction]:
    """Cotton p. 167: the caster throws three dice until doublets; doublets
    under ten he is out, above ten he passes.  The chances, on one throw, of
    doublets totalling under ten, exactly ten, above ten."""

    def doublet(throw):
        return largest_count(throw) >= 2

    under = chance(3, lambda t: doublet(t) and sum(t) < 10)
    ten = chance(3, lambda t: doublet(t) and sum(t) == 10)
    above = chance(3, lambda t: doublet(t) and sum(t) > 10)
    return under, ten, above


def passage(ten: str) -> Fraction:
    """Cotton p. 167 (issue 37's readings): the caster's chance of winning
    when doublets of ten are thrown `again` (16/29), are `out` (1/2), or
    are `a win` (19/32).  Cotton leaves doublets of exactly ten unsaid."""
    under, exactly, above = passage_doublets()
    if ten == "again":
        return race(above, under)
    if ten == "out":
        return race(above, under + exactly)
    if ten == "win":
        return race(above + exactly, under)
    raise ValueError(ten)


# --- Inn and Inn (Cotton 1674, ch. XXXII, pp. 164-166) ---------------------


def inn_and_inn_out() -> Fraction:
    """Cotton pp. 164-166: four dice, a throw with no doublets is out
    (issue 37: 5/18); Arbuthnot p. 77 counts it as 6 x 5 x 4 x 3 of 6^4."""
    return chance(4, lambda t: largest_count(t) == 1)


def inn_and_inn_all_doublets() -> Fraction:
    """Cotton pp. 164-166: inn-and-inn, every die in doublets (two pairs or
    four of a kind), issue 37: 2/27."""
    return chance(4, lambda t: min(Counter(t).values()) >= 2)


def arbuthnot_four_dice_doublets() -> tuple[int, int]:
    """Arbuthnot 1692 p. 77: to throw doublets at the first throw of four
    dice, '13 to 5'.  Returned as (for, against) in lowest terms."""
    yes = chance(4, lambda t: largest_count(t) >= 2)
    return yes.numerator, yes.denominator - yes.numerator


def inn_and_inn(inn: str) -> tuple[Fraction, Fraction]:
    """Cotton pp. 164-166, rulesets/inn_and_inn.yaml's readings of "every Inn
    you drop" (the option `inn`): the caster's chances (win, lose) of a game.
    `stands`: one throw, an inn settles nothing (2/27 against 5/18); `again`:
    he throws on until inn-and-inn or out (a race: 4/19 against 15/19);
    `wins`: an inn wins too, so any doublets win (Arbuthnot p. 77: 13/18)."""
    sweep, out = inn_and_inn_all_doublets(), inn_and_inn_out()
    if inn == "stands":
        return sweep, out
    if inn == "again":
        return race(sweep, out), race(out, sweep)
    if inn == "wins":
        return 1 - out, out
    raise ValueError(inn)


# --- Raffling (Arbuthnot 1692, pp. 63-64) ----------------------------------


def raffle_doublets() -> Fraction:
    """Arbuthnot p. 63: of 216 throws of three dice, 96 give doublets."""
    return chance(3, lambda t: largest_count(t) >= 2)


def raffle_raffle() -> Fraction:
    """Arbuthnot p. 63: '1 to 35 that you throw a Raffle' (6/216)."""
    return chance(3, lambda t: largest_count(t) == 3)


# Arbuthnot p. 63's table as printed: a total and its mirror, and the chances
# of doublets among the throws of that total.
ARBUTHNOT_RAFFLING_TABLE = {
    (3, 18): 1,
    (4, 17): 3,
    (5, 16): 6,
    (6, 15): 4,
    (7, 14): 9,
    (8, 13): 9,
    (9, 12): 7,
    (10, 11): 9,
}


def raffling_doublets_by_total() -> dict[int, int]:
    """Arbuthnot p. 63: the ordered throws of three dice that give doublets
    (a raffle counted once), by total, counted over all 216 throws."""
    counted = Counter(sum(t) for t in throws(3) if largest_count(t) >= 2)
    return {total: counted.get(total, 0) for total in range(3, 19)}


# --- azar (Alfonso X, Libro de los dados, 1283) ----------------------------

# The azares: with three dice, the totals 3-6 and 15-18 (the rare ones).
AZARES = frozenset({3, 4, 5, 6, 15, 16, 17, 18})


def azar(repeat: str) -> Fraction:
    """Alfonso X, Libro de los dados (1283), the game of azar, as issue 37
    gives it (no page of the Libro is among the sources here: see the
    report): the first thrower wins at once with an azar; otherwise that
    total is the other's chance, and he throws for his own; an azar now
    (reazar) loses; any other total is his chance, and the two chances race.

    `repeat` is the disputed clause, his second throw repeating the other's
    chance: thrown `again` (68485656611/134991969840), he `loses`
    (5527/11664) or he `wins` (2179/3888).  Solved by first-step: with
    the other's chance c, his value v satisfies
    v = sum over d of P(d) race(d, c) + P(c) * (v, 0 or 1)."""
    chances = totals(3)
    azar_now = sum(chances[t] for t in AZARES)
    value = azar_now
    for other, p_other in chances.items():
        if other in AZARES:
            continue
        races = sum(
            p * race(p, p_other)
            for own, p in chances.items()
            if own not in AZARES and own != other
        )
        if repeat == "again":
            # v = races + P(c) v, so v (1 - P(c)) = races.
            mine = races / (1 - p_other)
        elif repeat == "loses":
            mine = races
        elif repeat == "wins":
            mine = races + p_other
        else:
            raise ValueError(repeat)
        value += p_other * mine
    return value


# --- Grand Hazard / Sic Bo, chuck-a-luck (three dice, one throw) -----------


def edge(win: Fraction, paid: Fraction, push=Fraction(0)) -> Fraction:
    """The house's edge per unit staked on a one-throw bet paying `paid` to 1
    when it wins with chance `win` (and returning the stake with `push`)."""
    lose = 1 - win - push
    return lose - win * paid


def sic_bo_small() -> Fraction:
    """Small (4 to 10, a triple loses) at 1 to 1: issue 37, edge 1/36."""
    win = chance(3, lambda t: 4 <= sum(t) <= 10 and largest_count(t) < 3)
    return edge(win, Fraction(1))


def sic_bo_big() -> Fraction:
    """Big (11 to 17, a triple loses) at 1 to 1: issue 37, edge 1/36."""
    win = chance(3, lambda t: 11 <= sum(t) <= 17 and largest_count(t) < 3)
    return edge(win, Fraction(1))


def sic_bo_specific_triple() -> Fraction:
    """A named triple at 180 to 1: issue 37, edge 35/216."""
    return edge(chance(3, lambda t: t == (4, 4, 4)), Fraction(180))


def sic_bo_any_triple() -> Fraction:
    """Any triple at 30 to 1: issue 37, edge 5/36."""
    return edge(chance(3, lambda t: largest_count(t) == 3), Fraction(30))


def sic_bo_total_four(paid: Fraction) -> Fraction:
    """A total of 4 paid `paid` to 1.  Issue 37 quotes '60 to 1, edge 1/6':
    1/6 is 60 *for* 1 (59 to 1, Grand Hazard's 'for 1'); 60 to 1 gives
    11/72."""
    return edge(chance(3, lambda t: sum(t) == 4), paid)


def chuck_a_luck() -> Fraction:
    """Chuck-a-luck on one face: paid 1, 2 or 3 to 1 as one, two or three
    dice show it, the stake lost if none: issue 37, edge 17/216."""
    paid = Fraction(0)
    for throw in throws(3):
        hits = throw.count(1)
        paid += hits if hits else -1
    return -paid / len(throws(3))


# --- two-dice relatives of craps --------------------------------------------

TWO = totals(2)


def crapless_craps_pass() -> Fraction:
    """Crapless craps: the come-out 7 wins, every other total (2, 3, 11, 12
    too) is a point to make before a 7; issue 37: pass edge 373/6930."""
    win = TWO[7] + sum(p * race(p, TWO[7]) for t, p in TWO.items() if t != 7)
    return 1 - 2 * win


def high_point_craps(tie: str) -> Fraction:
    """High point craps: on the come-out 2 and 3 are thrown again, 11 and 12
    win, 4 to 10 is the point; one more throw wins above the point and loses
    below it.  A throw equal to the point: `loses` (issue 37's casino
    reading, edge 7/297), `push` or thrown `again` (each edge -1/11, the
    player's advantage: the ties cancel between a point and 14 minus it)."""
    come_out = {t: p for t, p in TWO.items() if t not in (2, 3)}
    settled = sum(come_out.values())
    player = Fraction(0)
    for point, p in come_out.items():
        p = p / settled
        if point in (11, 12):
            player += p
            continue
        above = sum(q for t, q in TWO.items() if t > point)
        below = sum(q for t, q in TWO.items() if t < point)
        equal = TWO[point]
        if tie == "loses":
            player += p * (above - below - equal)
        elif tie == "push":
            player += p * (above - below)
        elif tie == "again":
            player += p * (above - below) / (1 - equal)
        else:
            raise ValueError(tie)
    return -player


def dont_pass(barred: int) -> tuple[Fraction, Fraction]:
    """Bank craps' don't pass with `barred` a push on the come-out (3, ace-
    deuce; casinos bar 12).  Returns the edge per bet made and per bet
    resolved; issue 37 with ace-deuce barred: 41/990 and 41/935."""
    seven = TWO[7]
    player = Fraction(0)
    for t, p in TWO.items():
        if t == barred:
            continue
        if t in (7, 11):
            player -= p
        elif t in (2, 3, 12):
            player += p
        else:
            made = race(p, seven)  # the caster makes his point: don't loses
            player += p * (1 - 2 * made)
    made_edge = -player
    return made_edge, made_edge / (1 - TWO[barred])


def cho_han(cut: Fraction) -> Fraction:
    """Chō-han: even (chō) or odd (han) total of two dice, at even money,
    the house keeping `cut` of each winning bet's winnings.  The edge per
    unit staked: half lose, half win 1 - cut."""
    even = chance(2, lambda t: sum(t) % 2 == 0)
    return edge(even, 1 - cut)


# --- Arbuthnot's odds of Hazard (1692, pp. 87-92) --------------------------

NICKS = {5: {5}, 6: {6, 12}, 7: {7, 11}, 8: {8, 12}, 9: {9}}
OUTS = {
    5: {2, 3, 11, 12},
    6: {2, 3, 11},
    7: {2, 3, 12},
    8: {2, 3, 11},
    9: {2, 3, 11, 12},
}


def hazard_caster(main: int) -> Fraction:
    """The caster's chance with `main` (Cotton p. 168's nicks and outs): he
    nicks, throws out, or takes a chance that races the main."""
    win = sum(TWO[t] for t in NICKS[main])
    for c, p in TWO.items():
        if c in NICKS[main] or c in OUTS[main]:
            continue
        win += p * race(p, TWO[main])
    return win


def arbuthnot_odds(main: int) -> tuple[int, int]:
    """Arbuthnot p. 90 (main VII): 244 : 251; p. 91 (VI or VIII):
    6961 : 7295; p. 92 (V or IX): printed '1396 to 1493', a misprint of
    1396 : 1439.  Caster to setter, in lowest terms."""
    win = hazard_caster(main)
    return win.numerator, win.denominator - win.numerator


def hazard_weighted_by_mains() -> Fraction:
    """The caster's chance with the main thrown (5 to 9, each as often as it
    is thrown): Cotton's 1979/4032 as the corpus gives it."""
    mains = {m: TWO[m] for m in NICKS}
    weight = sum(mains.values())
    return sum(p / weight * hazard_caster(m) for m, p in mains.items())


# --- the layouts of the family (issue 37, point 6) -------------------------


def number_bet(face: int, triple_paid: Fraction = Fraction(3)) -> Fraction:
    """Chuck-a-luck's (and Crown and Anchor's, Grand Hazard's, Sic Bo's) bet
    on one face: paid 1 to 1 on one die showing it, 2 to 1 on two,
    `triple_paid` to 1 on three, the stake lost on none; the edge per unit,
    counted throw by throw over the 216.  Britannica's chuck-a-luck pays
    1, 2, 3 to 1; Wikipedia's gives 10 to 1 on three (edge 5/108)."""
    paid = {0: Fraction(-1), 1: Fraction(1), 2: Fraction(2), 3: triple_paid}
    net = sum(paid[throw.count(face)] for throw in throws(3))
    return -net / len(throws(3))


def one_throw(holds, paid: Fraction, per: Fraction = Fraction(1)) -> Fraction:
    """The edge of a bet that wins `paid` to `per` when a throw of three
    dice satisfies `holds` and loses its stake otherwise; `paid` for `per`
    (the stake kept) is `paid - per` to `per`."""
    return edge(chance(3, holds), Fraction(paid) / per)


def three_dice_total(total: int, paid: Fraction) -> Fraction:
    """Sic Bo's and Grand Hazard's bet on one total of three dice, paid
    `paid` to 1 (Mount Olympus Casino's Sic Bo: 4 at 60 to 1; Grand Hazard's
    "60 for 1" is 59 to 1)."""
    return edge(chance(3, lambda t: sum(t) == total), Fraction(paid))


def three_dice_triple(face: int, paid: Fraction) -> Fraction:
    """A named triple (all three dice showing `face`) paid `paid` to 1."""
    return edge(chance(3, lambda t: t == (face,) * 3), Fraction(paid))


def three_dice_any_triple(paid: Fraction) -> Fraction:
    """Any triple, three dice alike, paid `paid` to 1."""
    return edge(chance(3, lambda t: len(set(t)) == 1), Fraction(paid))


def three_dice_double(face: int, paid: Fraction) -> Fraction:
    """Sic Bo's named double: two dice or three showing `face`."""
    return edge(chance(3, lambda t: t.count(face) >= 2), Fraction(paid))


def three_dice_combination(a: int, b: int, paid: Fraction) -> Fraction:
    """Sic Bo's two-dice combination: the throw shows `a` and `b`."""
    return edge(chance(3, lambda t: a in t and b in t), Fraction(paid))


def three_dice_even_money(holds) -> Fraction:
    """An even-money bet on the total (`holds(total)`: small, big, high, low,
    odd, even) that every triple loses, as Sic Bo and Grand Hazard lay it."""
    return edge(
        chance(3, lambda t: holds(sum(t)) and len(set(t)) > 1), Fraction(1)
    )
