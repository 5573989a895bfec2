r"""A seat's bets at the table, solved exactly: what a player who makes each bet of his plan
whenever he may can expect, per game, per throw, per hand and per round of the table.

At the table (play.table_bets) a seat proposes, before every throw where a bet's `made:` holds,
each bet of its plan it is not already party to; it plays the bet's `backer` side if its role
this game (the caster, or a setter) plays the backer role, else the `layer` side; the other side
is the bank, the caster or another seat. The plan's amount is what the seat puts at risk: a
backer's stake, or what a layer lays (the backer's stake is then that amount over the most a
win can pay from where the bet was made). A bet that `backs` another is made only while the seat
is party to a live wager of it (the game's stake included), for at most that wager's amount
times the bet's largest multiple.

**The assumptions.** Every proposal is taken (the bank always takes; the caster covers, another
seat accepts), no purse runs short of what a wager needs, every setter stakes `stake` each game
(the `flat` strategy) and each seat's plan is played as if alone: no other seat's wager of the
same bet blocks it (a seat is party to one wager of a bet at a time; where two plans would meet
so, `seats` refuses them).

**The chain.** For one seat in one role, a node is where the table stands before the bets are
offered at a throw: (game throw state g, the stake's state s, the state and backer's stake of
each of the seat's wagers up). The offer is deterministic: the stake is laid at the first throw
where it may be (s = 0), then every bet of the plan that is not up and may be made at g is made
(a bet backing the stake or another bet of the plan once that is up), in the state where bets
start. Each of the 36 throws (under the dice in play, and the policy at every choice it leads
to) then moves the game, the stake and every wager by their compiled tables
(`CompiledBet.move`): a decided wager pays the seat its net (a backer's stake × the decision's
net, less a commission on the win; a layer the opposite) and is gone. When the game ends the
stake is void if still up, and the wagers still up (a place bet) carry into the next game:
the node is absorbed in ("end", c), c being the wagers carried. So a game is an absorbing chain
from (its first throw states, s unlaid, c), solved exactly with `markov.Chain`:

    v_x(c) = Σ_node visits_c(node) · r_x(node),   T(c → c') = P_c(absorbed in ("end", c'))

where r_x(node) is the expected amount x (the seat's net on a bet, what it puts at risk, the
wagers it makes) on the throw from that node. Games are strung together by T, a chain on the
finitely many c; the long-run figure per game is Σ_c π(c) v_x(c), π the limit of the average
of its distributions from c = nothing up (a stationary distribution; weighed by the chance of
reaching each closed class, where there are several). Where no wager is ever carried, c is
always nothing up and every game is alike.

A seat's edge on a line is its expected loss per game over what it puts at risk per game: for
the stake, what the table sets aside for it times the stakes laid per game (the chain counts a
stake laid where the stake bet is first made; a game that ends before, a first throw that loses
the turn, lays none), so that the stake's edge is per stake laid, the stake bet's own.

Per throw is per game over the game's expected throws. Per hand, each game of a hand is alike
and the number of games a stopping time of their results, so by Wald's identity a hand's net is
the expected games per hand (`session.hand`) times the net per game; a setter's hand is another
caster's. Where a wager can be carried from game to game and the seat plays it differently as
caster and as setter, the games of a hand are not alike, and only the long run per game is
given. A round of a table of N is one hand as the caster and N − 1 as a setter.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import Machine
from ..errors import Arg
from ..records import field, record
from .bets import BetTable
from .exact import ONE, ZERO
from .seat_chain import (
    BANK,
    MAX_NETS_AT_ONCE,
    MAX_OUTCOME_NODES,
    MAX_SEAT_NODES,
    ROLES,
    BetAtTable,
    GameOutcomes,
    RoleFigures,
    SeatArgumentError,
    SeatError,
    SeatSolver,
    game_outcomes,
    long_run,
    stake_terms,
    stationary,
    taker,
    wagers_at,
)
from .seat_ruin import (
    MAX_PURSE_NODES,
    SeatRuin,
    TableRuin,
    forward_in_order,
    purse_levels,
    seat_ruin,
    table_ruin,
)
from .solver import Solver

# ---------------------------------------------------------------------------- the table


@record
class SeatRow:
    """One line of a seat's figures: a bet of its plan in a role, its stake, a fee it pays as
    the caster, or the other side of another seat's bet. `casters`: the seats whose hands it
    applies to, where it is not every hand of its role (None)."""

    what: str  # the bet's name, "stake", "fee NAME", or "SEAT's BET"
    role: str
    side: str  # backer, layer, pays
    per_game: Fraction
    per_hand: Fraction | None
    risk: Fraction = ZERO
    wagers: Fraction = ZERO
    bet: str | None = None
    maker: str | None = None  # the seat whose bet this is the other side of
    casters: tuple | None = None
    why_not: str | None = None
    carried: bool = False

    @property
    def edge(self) -> Fraction | None:
        """The seat's expected loss per unit it puts at risk (negative: a gain), None where it
        puts nothing at risk (a fee): a backer per unit staked, a layer per unit laid, the stake
        per stake laid — `risk` counts a stake only in the games that lay one, so the stake's is
        the stake bet's own edge (analyse's bets table), not spread over games without a stake."""
        return -self.per_game / self.risk if self.risk else None


@record
class Seats:
    """Each seat's figures at the table: `rows` {seat: [SeatRow]}; `per_round` {seat: net} for
    a table of `players` (None without one), with the bank's and the box's."""

    plans: dict
    stake: Fraction
    players: list | None
    throws: Fraction  # expected throws per game
    games_per_hand: Fraction | None
    passing: str | None  # how the dice pass, in words (None: they never pass)
    rows: dict = field(default_factory=dict)
    per_round: dict | None = None
    bank_per_round: Fraction | None = None
    box_per_round: Fraction | None = None
    why_no_round: str | None = None  # where the players are given, why there is no round of the table
    units: str = "units"  # the money's plural, for people
    against: str = "setters"  # who answers the stakes: the caster (setters), or the bank

    def per_throw(self, row: SeatRow) -> Fraction:
        return row.per_game / self.throws if self.throws else ZERO

    def per_game_of_round(self) -> dict:
        """Each seat's net per round over the games of the round (each of N hands)."""
        if self.per_round is None:
            return {}
        games = len(self.players) * self.games_per_hand
        return {name: value / games for name, value in self.per_round.items()}


def seats(machine: Machine, plans: dict, stake=ONE, players: list | None = None, policy: str = "optimal",
          solver: Solver | None = None, bet_table: BetTable | None = None, fees: dict | None = None) -> Seats:
    """The figures of every seat's plan ({seat: {bet: amount}}) at a table of `players` (in order
    round it: then every player has figures, and a round of the table is given; None: each seat
    named in `plans`, with as many others as its bets need), each setter staking `stake` a game.
    `solver`, `bet_table` and `fees` ({name: FeeFigures}): the game's, where already solved."""
    from .session import SessionError, game_endings, hand

    stake = Fraction(stake)
    if stake <= 0:
        raise SeatArgumentError(Arg("stake"), "must be more than 0")
    chains = SeatSolver(machine, policy, solver, bet_table)
    count = len(players) if players is not None else None
    game = game_endings(machine, policy)
    try:
        the_hand = hand(machine, policy, game)
        games, passing = the_hand.games, the_hand.rule
    except SessionError:
        games, passing = None, None
    names = list(players) if players is not None else list(plans)
    roles = {name: {role: chains.role(plans.get(name, {}), role, stake, count) for role in ROLES} for name in names}
    if fees is None:
        labels: dict = {}
        results: dict = {}
        for s in machine.end_states():
            results.setdefault(s.label, s.result)
        for (result, label), p in game.endings.items():
            labels[label] = labels.get(label, ZERO) + p
        fees = {name: chains.table.fee(name, labels, results) for name in machine.fees}
    out = Seats(dict(plans), stake, list(players) if players is not None else None, game.throws, games, passing,
                units=machine.ruleset.money_units, against=chains.against)
    unit, laid = chains.stake_unit(), chains.stake_laid()
    stake_name = chains.stake_name or "stake"

    def per_hand(per_game: Fraction, alike: bool = True):
        return games * per_game if games is not None and alike else None

    for name in names:
        rows = out.rows[name] = []
        by_role = roles[name]
        for role in ROLES:
            for bet, entry in by_role[role].bets.items():
                if entry.side is None:
                    rows.append(SeatRow(bet, role, "—", ZERO, per_hand(ZERO), bet=bet, why_not=entry.why_not))
                    continue
                alike = not entry.carried or _alike(by_role["caster"].bets[bet], by_role["setter"].bets[bet])
                rows.append(SeatRow(bet, role, entry.side, entry.per_game, per_hand(entry.per_game, alike),
                                    entry.risk, entry.wagers, bet, carried=entry.carried))
            # the stake: every seat backs it with a bank; else the caster backs it against each setter
            if chains.against == BANK:
                what, side = stake_name, "backer"
            elif role == "setter":
                what, side = stake_name, "layer"
            else:  # without the players, the caster's stake against one setter
                what, side = stake_name if count is not None else f"{stake_name} (each setter's)", "backer"
            staked, risk = stake_terms(chains, role, stake, count if count is not None else 2)
            per_game = staked * unit
            # at risk only in the games that lay a stake: its edge is then per stake laid, the
            # stake bet's own (analyse's bets table), not spread over games that carry none
            rows.append(SeatRow(what, role, side, per_game, per_hand(per_game), risk * laid,
                                abs(staked) / stake * laid, bet=chains.stake_name))
            if role == "caster":  # the table charges every fee to the caster
                for fee_name, fee in fees.items():
                    rows.append(SeatRow(f"fee {fee_name}", role, "pays", -fee.cost_per_game,
                                        per_hand(-fee.cost_per_game)))
    if players is not None:
        _taken(out, machine, roles, players, games)
    return out


def _alike(caster: BetAtTable, setter: BetAtTable) -> bool:
    """Whether the seat plays a bet alike as caster and as setter (so that a wager carried from
    a game to the next is played the same whoever holds the box)."""
    return (caster.side, caster.other) == (setter.side, setter.other)


def _taken(out: Seats, machine: Machine, roles: dict, players: list, games) -> None:
    """The other side of each seat's bets, in the figures of the seat that takes them; each
    seat's net per round of the table (one hand as the caster, the others as a setter), and
    the bank's and the box's."""
    ruleset = machine.ruleset
    plans = out.plans
    taken: dict = {}  # (taker, maker, bet, taker's role) -> [the casters of the hands it is taken in]

    def entry_of(maker: str, bet: str, caster: str) -> BetAtTable:
        return roles[maker]["caster" if maker == caster else "setter"].bets[bet]

    for caster in players:
        for maker, plan in plans.items():
            for bet in plan:
                if entry_of(maker, bet, caster).side is None:
                    continue
                who = taker(ruleset, maker, bet, caster, players)
                if who in (None, BANK):
                    continue
                if bet in plans.get(who, {}) and entry_of(who, bet, caster).side is not None:
                    raise SeatError(f"{maker} and {who} both plan {bet}, and when {caster} casts {who} would "
                                    f"take {maker}'s: at the table a seat party to a wager of {bet} makes no "
                                    f"other, so one of the plans would not be played; plan {bet} for one of them")
                taken.setdefault((who, maker, bet, "caster" if who == caster else "setter"), []).append(caster)
    for (who, maker, bet, role), casters in taken.items():
        every = role == "caster" or len(casters) == len(players) - 1
        groups: dict = {}  # the maker's figures -> the hands they are his in (alike as caster and setter: one)
        for caster in casters:
            entry = entry_of(maker, bet, caster)
            groups.setdefault((entry.side, entry.per_game, entry.risk, entry.wagers, entry.carried), []).append(caster)
        for these in groups.values():
            entry = entry_of(maker, bet, these[0])
            side = "layer" if entry.side == "backer" else "backer"
            hand = games * -entry.per_game if games is not None and not entry.carried else None
            out.rows[who].append(SeatRow(f"{maker}'s {bet}", role, side, -entry.per_game, hand, entry.risk,
                                         entry.wagers, bet, maker, None if every and len(groups) == 1
                                         else tuple(these), carried=entry.carried))
    if games is None:
        out.why_no_round = "the dice never pass, so the box never goes round"
        return
    per_round: dict = {}
    for name in players:
        total = ZERO
        for row in out.rows[name]:
            if row.per_hand is None:
                if row.per_game:  # a wager carried from game to game, played differently by role
                    out.why_no_round = (f"a wager of {row.bet} can stay up from one game to the next, played "
                                        f"differently as caster and as setter, so the hands of a round are not "
                                        f"alike")
                    return
                continue
            if row.role == "caster":
                hands = 1
            else:
                hands = len(row.casters) if row.casters is not None else len(players) - 1
            total += hands * row.per_hand
        per_round[name] = total
    out.per_round = per_round
    fees = sum((-row.per_game for row in out.rows[players[0]] if row.role == "caster" and row.side == "pays"), ZERO)
    out.box_per_round = len(players) * games * fees
    out.bank_per_round = -(sum(per_round.values(), ZERO) + out.box_per_round)


# what callers import from here, wherever it is defined now (solve.seat_chain, solve.seat_ruin)
__all__ = ["BANK", "MAX_NETS_AT_ONCE", "MAX_OUTCOME_NODES", "MAX_PURSE_NODES", "MAX_SEAT_NODES", "ROLES",
           "BetAtTable", "GameOutcomes", "RoleFigures", "SeatArgumentError", "SeatError", "SeatRow", "SeatRuin",
           "SeatSolver", "Seats", "TableRuin", "forward_in_order", "game_outcomes", "long_run", "purse_levels",
           "seat_ruin", "seats", "stake_terms", "stationary", "table_ruin", "taker", "wagers_at"]
