r"""The spread of a bet or of bets made together: the exact distribution of the net of one
decision, and its moments.

A **plan** is bets made together (`pass=1`, `odds=3-4-5x`), each made as `BetTable.combination`
makes it: a bet on its own at the first moment it may be, from the start of a game; a bet that
backs another at the first moment it may be after a throw with the backed bet up (never, if the
backed bet is decided first), for its amount or a multiple of the backed bet's. One **decision
of the plan** runs until every bet made is decided. Its chain is the product of the game under
its policy with every bet's compiled table, and a ledger of what the decision has won, staked
and resolved so far:

    node = (game throw state, (each bet's state, or UNMADE / DONE), (net, staked, resolved))

Each throw moves the game and every bet that is up (`CompiledBet.moves`); a bet decided adds its
net (less a commission on the win) to the ledger, and its amount to `resolved` unless pushed; a
bet made adds its amount (and a commission paid up front) to `staked`. When no bet is up or can
still be made, the node is absorbing: ("end", net, staked, resolved). `markov.Chain.forward`
gives the chance of each ending, exactly; the throws are the visits to nodes with a bet up.

From the distribution of the net X: mean μ, variance σ² = E[X²] − μ², the skew E[(X−μ)³]/σ³,
the chance of a win P(X > 0), and the edge per unit staked (per bet made, or per unit of total
action for a plan), per unit resolved (pushes left out) and per throw (the edge per unit staked
over the expected throws). The standard deviation is √(σ²), printed as an exact surd (`surd`).

A lone bet of the bets' table (`bet_spread`) reads the visits `BetTable.figures_of` solved
already: no new chain. `bet_spread_at` is a bet made at one state of the game (an odds bet on a
point of 4): A. Krigman's standard deviations of a 50 odds bet.
"""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

from ..records import record
from .markov import ONE, ZERO, Chain

MAX_PLAN_NODES = 200_000  # nodes of a plan's chain (game state × bets' states × ledger): beyond, simulate

UNMADE, DONE = -1, -2  # a bet of the plan not made yet; decided (or never to be made)


class SpreadError(ValueError):
    """A plan whose spread cannot be solved exactly (too large a chain)."""


def mean_of(outcomes: dict) -> Fraction:
    """The mean of a distribution {value: probability}, exact."""
    return sum((v * p for v, p in outcomes.items()), ZERO)


def central_moment(outcomes: dict, k: int) -> Fraction:
    """The k-th moment about the mean of {value: probability} (k = 2: the variance), exact."""
    m = mean_of(outcomes)
    return sum((p * (v - m) ** k for v, p in outcomes.items()), ZERO)


@record(frozen=True)
class Spread:
    """The net of one decision of a bet or plan: {net: probability}, with what it staked,
    resolved and the throws it took (expected values)."""

    outcomes: dict  # net -> probability (exact)
    staked: Fraction  # expected money staked (the total action)
    resolved: Fraction  # expected money on bets decided won or lost (pushes left out)
    throws: Fraction  # expected throws with a bet up
    made: Fraction = ONE  # money on the first bet of the plan (per bet made), 1 for a bet per unit

    @property
    def mean(self) -> Fraction:
        return mean_of(self.outcomes)

    @property
    def variance(self) -> Fraction:
        return central_moment(self.outcomes, 2)

    @property
    def third_moment(self) -> Fraction:
        return central_moment(self.outcomes, 3)

    @property
    def sd(self) -> float:
        return float(self.variance) ** 0.5

    @property
    def sd_exact(self) -> str:
        return surd(self.variance)

    @property
    def skew(self) -> float | None:
        v = self.variance
        return None if not v else float(self.third_moment) / float(v) ** 1.5

    @property
    def hit(self) -> Fraction:
        """The chance that the decision wins money (net > 0): the hit frequency."""
        return sum((p for v, p in self.outcomes.items() if v > 0), ZERO)

    @property
    def push(self) -> Fraction:
        return self.outcomes.get(ZERO, ZERO)

    @property
    def edge(self) -> Fraction:
        """The expected loss per unit staked (per bet made; for a plan, per unit of total action)."""
        return -self.mean / self.staked

    @property
    def edge_per_made(self) -> Fraction:
        """The expected loss per unit of the first bet of the plan (a lone bet: `edge`)."""
        return -self.mean / self.made

    @property
    def edge_per_resolved(self) -> Fraction | None:
        return -self.mean / self.resolved if self.resolved else None

    @property
    def edge_per_throw(self) -> Fraction | None:
        return self.edge / self.throws if self.throws else None

    def scaled(self, amount: Fraction) -> "Spread":
        """The same bet at `amount` a unit (variance × amount², skew unchanged)."""
        return Spread({v * amount: p for v, p in self.outcomes.items()}, self.staked * amount,
                      self.resolved * amount, self.throws, self.made * amount)


def surd_parts(value: Fraction) -> tuple[Fraction, int]:
    """√value as (c, r) with √value = c·√r, c a fraction and r a whole number free of square
    factors found by trial division up to 10⁴ (beyond, a larger radicand is left as is)."""
    value = Fraction(value)
    if value < 0:
        raise ValueError("no real square root of a negative number")
    n, d = value.numerator, value.denominator
    root_d = isqrt(d)
    if root_d * root_d != d:  # √(n/d) = √(n·d)/d
        n, root_d = n * d, d
    outside, inside = _square_part(n)
    return Fraction(outside, root_d), inside


def surd(value: Fraction) -> str:
    """√value in its simplest exact form: a whole number, a fraction, or a·√r/b ("√5920646/495")."""
    c, r = surd_parts(value)
    if r == 1 or not c:
        return str(c)
    head = f"{c.numerator}·" if c.numerator != 1 else ""
    top = f"{head}√{r}"
    return top if c.denominator == 1 else f"{top}/{c.denominator}"


def _square_part(n: int) -> tuple[int, int]:
    """n = a²·r: (a, r), r's square factors taken out as far as trial division reaches."""
    root = isqrt(n)
    if root * root == n:
        return root, 1
    a, r, p = 1, n, 2
    while p * p <= r and p < 10_000:
        while r % (p * p) == 0:
            r //= p * p
            a *= p
        p += 1 if p == 2 else 2
    root = isqrt(r)
    if root * root == r:
        return a * root, 1
    return a, r


# --------------------------------------------------------------------------- a lone bet

def bet_spread(table, name: str) -> Spread:
    """The spread of bet `name` made alone, per unit bet, from the visits its figures solved."""
    from .bets import moves_key

    cb = table.bet(name)
    table.figures_of(cb)  # solves (or finds) the visits of its decisions
    placed, visits = table._visits[(cb.made, moves_key(cb.moves))]
    paid = {table.up_front(cb, g) for g in placed}
    if len(paid) > 1:  # a commission up front that depends on where the bet is made: per place
        parts = [(p, bet_spread_at(table, name, g)) for g, p in placed.items()]
        return _mixture(parts)
    up_front = paid.pop() if paid else ZERO
    return _from_visits(table, cb, visits, up_front)


def bet_spread_at(table, name: str, g: int) -> Spread:
    """The spread of bet `name` made (per unit) at game throw state `g`."""
    cb = table.bet(name)
    if g not in cb.made:
        raise SpreadError(f"{name} may not be made at {table.states[g].describe(table.machine)}")
    start = {(g, 0): ONE}
    visits = table.product(cb, start).forward(start)
    return _from_visits(table, cb, visits, table.up_front(cb, g))


def placements(table, name: str) -> dict:
    """{game state: chance} where bet `name` is first made (for its spread by place)."""
    return table.placement(table.bet(name))


def _from_visits(table, cb, visits, up_front: Fraction) -> Spread:
    outcomes: dict = {}
    resolved = throws = ZERO
    for node, p in visits.items():
        if node.__class__ is not int:
            throws += p
            continue
        net = table._on_win(cb, node) - up_front
        outcomes[net] = outcomes.get(net, ZERO) + p
        if cb.decisions[~node].result != "push":
            resolved += p
    return Spread(_clean(outcomes), ONE + up_front, resolved, throws)


def _mixture(parts) -> Spread:
    outcomes: dict = {}
    staked = resolved = throws = ZERO
    for p, s in parts:
        for v, q in s.outcomes.items():
            outcomes[v] = outcomes.get(v, ZERO) + p * q
        staked += p * s.staked
        resolved += p * s.resolved
        throws += p * s.throws
    return Spread(_clean(outcomes), staked, resolved, throws)


def _clean(outcomes: dict) -> dict:
    return {v: p for v, p in sorted(outcomes.items()) if p}


# --------------------------------------------------------------------------- a plan

def plan_spread(table, orders: list[tuple[str, str]]) -> Spread:
    """The spread of one decision of bets made together (`orders`: (bet, amount text)), from the
    start of a game. Raises SpreadError, before building it, where the chain would pass
    MAX_PLAN_NODES nodes (it says how many it reached) and BetError for a bad order."""
    from ..errors import Arg
    from .bets import BetArgumentError, BetError, bet_amount, parse_amount

    bets = [table.bet(name) for name, _ in orders]
    names = [name for name, _ in orders]
    texts = [text for _, text in orders]
    backs = []
    fixed: list = []
    for i, cb in enumerate(bets):
        backed = cb.bet.backs
        if backed is not None and backed in names[:i]:
            backs.append(names.index(backed))
            kind, value = parse_amount(cb.bet, texts[i])
            fixed.append(value if kind == "money" else None)
        elif backed is not None:
            raise BetArgumentError(Arg("bets", names[i], texts[i]), f"{names[i]} backs {backed}; give ",
                                   Arg("bets", backed, "…"), " first")
        else:
            backs.append(None)
            fixed.append(bet_amount(cb, texts[i], None, None))
    for cb in bets:
        if not cb.made:
            raise BetError(f"bet {cb.name!r} can never be made: its made: condition never holds")

    def place(codes: list, amounts: list, ledger: tuple, g: int, before: tuple | None) -> tuple:
        """Make every bet that may be made now, at game throw state g (`before`: the codes as
        they stood before this throw, for the bets that back another)."""
        net, staked, resolved = ledger
        for i, cb in enumerate(bets):
            if codes[i] != UNMADE:
                continue
            b = backs[i]
            if b is not None:
                if codes[b] == DONE:
                    codes[i] = DONE  # its bet decided before it was made: it never will be
                    continue
                if before is None or before[b] < 0 or codes[b] < 0 or g not in cb.made:
                    continue
            elif g not in cb.made:
                continue
            amount = fixed[i] if fixed[i] is not None else bet_amount(cb, texts[i], g, amounts[b])
            paid = table.up_front(cb, g) * amount
            codes[i], amounts[i] = 0, amount
            net, staked = net - paid, staked + amount + paid
        return (net, staked, resolved)

    def node_for(g: int, codes: list, amounts: list, ledger: tuple):
        if all(c == DONE for c in codes):
            return ("end",) + ledger
        return (g, tuple(codes), tuple(amounts), ledger)

    start: dict = {}
    empty = (ZERO, ZERO, ZERO)
    for g, p in table.restart.items():
        codes, amounts = [UNMADE] * len(bets), [ZERO] * len(bets)
        ledger = place(codes, amounts, empty, g, None)
        key = node_for(g, codes, amounts, ledger)
        start[key] = start.get(key, ZERO) + p
    rows: dict = {}
    queue = [k for k in start if k[0] != "end"]
    seen = set(queue)
    states, throw_dice, resolve, after = table.states, table.solver.throw_dice, table.resolve, table.after
    while queue:
        if len(seen) > MAX_PLAN_NODES:
            raise SpreadError(f"the chain of this plan passed its bound of {MAX_PLAN_NODES:,} nodes (game states "
                              f"× bets' states × what is won and staked so far) while it was built, before any "
                              f"solve; use `hazard-dsl simulate` for its spread")
        node = queue.pop()
        g, codes, amounts, ledger = node
        dice = throw_dice(g)
        weights, total = dice.weights, dice.total
        steps = states[g].steps
        row: dict = {}
        for k in range(len(weights)):
            w = weights[k]
            if not w:
                continue
            target = steps[k].target
            chance = Fraction(w, total)
            for final, p in resolve(target).items():
                new = list(codes)
                net, staked, resolved = ledger
                for i, c in enumerate(codes):
                    if c < 0:
                        continue
                    entry = bets[i].moves[(g, c)][k]
                    e = entry if entry.__class__ is int else entry[final]
                    if e < 0:
                        net += amounts[i] * table._on_win(bets[i], e)
                        if bets[i].decisions[~e].result != "push":
                            resolved += amounts[i]
                        new[i] = DONE
                    else:
                        new[i] = e
                for g2, p2 in after(final).items():
                    more, money = list(new), list(amounts)
                    led = place(more, money, (net, staked, resolved), g2, codes)
                    key = node_for(g2, more, money, led)
                    row[key] = row.get(key, ZERO) + chance * p * p2
                    if key[0] != "end" and key not in seen:
                        seen.add(key)
                        queue.append(key)
        rows[node] = row
    visits = Chain(rows).forward(start) if rows else None
    outcomes: dict = {}
    staked = resolved = throws = ZERO
    ends = visits.items() if visits is not None else start.items()
    for key, p in ends:
        if key[0] != "end":
            if any(c >= 0 for c in key[1]):
                throws += p
            continue
        _, net, st, res = key
        outcomes[net] = outcomes.get(net, ZERO) + p
        staked += p * st
        resolved += p * res
    if not staked:
        raise BetError("no money is staked")
    return Spread(_clean(outcomes), staked, resolved, throws, fixed[0] if fixed[0] is not None else ONE)
