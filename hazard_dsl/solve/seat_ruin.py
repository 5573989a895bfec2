"""A seat's session from a bankroll to a goal at the table, solved exactly: each game's outcomes
for the seat (`solve.seat_chain.game_outcomes`, by its role that game) strung together over its
purse, the size of the purse grid judged before any chain is built (`purse_levels`).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from ..compile.machine import Machine
from ..errors import Arg, ArgumentError
from ..records import field, record
from .bets import BetTable
from .exact import ONE, ZERO
from .seat_chain import (
    ROLES,
    SeatArgumentError,
    SeatError,
    SeatSolver,
    wagers_at,
)
from .solver import Solver

MAX_PURSE_NODES = 20_000  # (whose hand, passing, fees, purse) nodes of a seat's session to a goal


@record(frozen=True)
class SeatRuin:
    """One seat at a table of `players`, from `bankroll` until its purse reaches `goal` or can no
    longer play a game as its plan says (less than `need[role]` at the start of a game in that
    role): the chance of each, the expected games and the expected purse at the end."""

    seat: str
    players: tuple
    plan: dict
    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    reach_goal: Fraction
    ruin: Fraction
    games: Fraction
    final_purse: Fraction  # the expected purse when it stops
    games_as: dict  # role -> expected games played in that role
    games_at: tuple  # expected games with the box k places on from the seat (k = 0: its own hand)
    need_at: tuple  # the least purse to play a game with the box k places on
    takes: tuple  # (maker, bet): the other seats' bets it takes in some game
    need: dict  # role -> the least purse to play a game in that role (a fee takes what is left, no more)
    units: str = "units"


@record
class TableRuin:
    """Every seat of a table from the same `bankroll` to the same `goal` (`seat_ruin` for each):
    `seats` {seat: SeatRuin}, and `why_not` {seat: why its chance is not solved exactly}."""

    players: list
    plans: dict
    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    seats: dict = field(default_factory=dict)
    why_not: dict = field(default_factory=dict)
    units: str = "units"
    against: str = "setters"
    first: str = "seat_order"  # who casts first (compile.passing)


def table_ruin(machine: Machine, plans: dict, players: list, bankroll, goal, stake=ONE, policy: str = "optimal",
               solver: Solver | None = None, bet_table: BetTable | None = None) -> TableRuin:
    """`seat_ruin` for every player, on one solver; a seat whose chance cannot be solved exactly
    (a chain too large, a bankroll too small for its plan) is in `why_not`, the others solved."""
    chains = SeatSolver(machine, policy, solver, bet_table)
    passing = machine.passing
    out = TableRuin(list(players), {name: dict(plans.get(name, {})) for name in players}, Fraction(bankroll),
                    Fraction(goal), Fraction(stake), units=machine.ruleset.money_units, against=chains.against,
                    first=passing.first if passing is not None else "seat_order")
    for name in players:
        try:
            out.seats[name] = seat_ruin(machine, plans, players, name, bankroll, goal, stake, policy, chains=chains)
        except SeatError as exc:
            # a result, not an error: its reason keeps the words the published figures show
            out.why_not[name] = exc.said(_AS_PUBLISHED) if isinstance(exc, ArgumentError) else str(exc)
    return out


class _PublishedWording:
    """The words a seat's reason has always been published in (`--bankroll`), whichever front
    end shows the result: a result is not reworded, only errors are."""

    def arg(self, arg: Arg) -> str:
        return "-" + "-" + arg.name


_AS_PUBLISHED = _PublishedWording()


def purse_levels(games, fees, bankroll: Fraction, goal: Fraction) -> int:
    """How many purses a seat's session can hold between the least any role needs and the goal:
    the purse moves on a grid, the step of every net and fee (a game of 1/1000 steps by 1/1000).
    Where a game can both win and lose, the walk meets every purse of the grid in between, each
    a state of the chain at least, so this many is a floor of its size, known before building
    it. 0 where the purse can only go one way (the chain is then as long as the walk)."""
    nets = [net for game in games for (_, _, net) in game.outcomes]
    if not any(net > 0 for net in nets) or not any(net < 0 for net in nets):
        return 0
    amounts = [Fraction(a) for a in nets + [f.fee.amount for f in fees] if a]
    scale = lcm(*(a.denominator for a in amounts))
    step = Fraction(gcd(*(int(a * scale) for a in amounts)), scale)
    lowest = min(game.need for game in games)
    return max(0, int((goal - lowest) / step))


def forward_in_order(rows: dict, start: dict, order) -> tuple[dict, dict]:
    """An absorbing chain's expected visits to each transient node and the chance of ending in
    each absorbing one, from `start`, eliminating the nodes in the order `order` (a sort key)
    gives them: x (I − Q) = start, solved as (I − Q)ᵀ xᵀ = startᵀ. For a chain whose
    nodes each move a little in that order, the elimination stays within a band."""
    from .markov import sparse_solve

    nodes = sorted(rows, key=order)
    index = {node: k for k, node in enumerate(nodes)}
    matrix: list[dict] = [{k: ONE} for k in range(len(nodes))]
    for node, out in rows.items():
        i = index[node]
        for target, p in out.items():
            j = index.get(target)
            if j is not None:
                matrix[j][i] = matrix[j].get(i, ZERO) - p
    x = sparse_solve(matrix, [start.get(node, ZERO) for node in nodes])
    visits = dict(zip(nodes, x))
    ends: dict = {}
    for node, out in rows.items():
        for target, p in out.items():
            if target not in index:
                ends[target] = ends.get(target, ZERO) + visits[node] * p
    return visits, ends


def seat_ruin(machine: Machine, plans: dict, players: list, seat: str, bankroll, goal, stake=ONE,
              policy: str = "optimal", solver: Solver | None = None, bet_table: BetTable | None = None,
              chains: "SeatSolver | None" = None) -> SeatRuin:
    """The chance that `seat`, at a table of `players` (in order round it) where each seat plays
    its plan of `plans` ({seat: {bet: amount}}) and every setter stakes `stake` a game, reaches
    `goal` from `bankroll` before its purse can no longer play a game as planned.

    A chain over games: a node is (whose hand it is, counted from the seat; the passing count;
    the fees' counters; the seat's purse). Each game ends in some (result, label) with the seat
    netting some amount, jointly (`game_outcomes`, by its role that game); the caster pays the
    fees that fall due, out of what he has left (as the table takes them); the box passes as `passing:` says. The same assumptions as `seats`:
    every bet is taken, the other seats' purses never run short, each plan played as if alone.
    The first caster is the first player, or by lot (each seat equally likely) where the rules
    say so. Exact, within MAX_PURSE_NODES nodes and the solver's bound on elimination work."""
    from .markov import TooLargeToSolve

    bankroll, goal, stake = Fraction(bankroll), Fraction(goal), Fraction(stake)
    if stake <= 0:
        raise SeatArgumentError(Arg("stake"), "must be more than 0")
    if seat not in players:
        raise SeatError(f"{seat} does not sit at the table ({', '.join(players)})")
    chains = chains or SeatSolver(machine, policy, solver, bet_table)
    n = len(players)
    plan = plans.get(seat, {})
    roles = ("caster",) if n == 1 else ROLES
    games = {pos: chains.outcomes(plans, players, seat, pos, stake) for pos in range(n)}
    fees = list(machine.fees.values())
    passing = machine.passing

    def role_of(pos: int) -> str:
        return "caster" if pos == 0 else "setter"

    need = {role: max(games[pos].need for pos in range(n) if role_of(pos) == role) for role in roles}

    first = players.index(seat)
    if passing is not None and passing.by_lot:
        positions = {pos: Fraction(1, n) for pos in range(n)}
    else:
        positions = {(-first) % n: ONE}
    short = {pos for pos in positions if bankroll < games[pos].need}
    if short or not bankroll < goal:
        needs = " and ".join(f"{need[r]} as {r}" for r in roles)
        raise SeatArgumentError(Arg("bankroll"), f"must be at least what {seat} needs to play a game as planned "
                                f"({needs}) and less than ", Arg("goal"), f" ({goal})")
    too_many = (f"{seat}'s purse can take too many values between ruin and the goal (more than "
                f"{MAX_PURSE_NODES:,} states of the table and the purse) to solve exactly; bring the bankroll "
                f"nearer the goal, or simulate the sessions")
    if purse_levels(games.values(), fees, bankroll, goal) > 2 * MAX_PURSE_NODES:
        raise SeatError(too_many)  # judged before the work: building the chain to find it takes seconds
    fee_start = tuple(f.start for f in fees)
    start = {(pos, 0, fee_start, bankroll): p for pos, p in positions.items()}
    rows: dict = {}
    queue, seen = list(start), set(start)
    while queue:
        node = queue.pop()
        pos, count, fee_states, purse = node
        role = role_of(pos)
        row: dict = {}
        for (result, label, net), p in games[pos].outcomes.items():
            due, after_fees = ZERO, []
            for f, state in zip(fees, fee_states):
                state, falls = f.at_game_end(state, result, label)
                after_fees.append(state)
                if falls:
                    due += f.fee.amount
            purse2 = purse + net
            if role == "caster":  # the table takes a fee out of what the caster has left, no more
                purse2 -= min(due, purse2)
            if passing is None:
                count2, passes = 0, False
            else:
                count2, passes = passing.after_game(count, result, label)
            pos2 = (pos + 1) % n if passes else pos
            if purse2 >= goal:
                nxt = ("goal", purse2)
            elif purse2 < games[pos2].need:
                nxt = ("ruin", purse2)
            else:
                nxt = (pos2, count2, tuple(after_fees), purse2)
                if nxt not in seen:
                    if len(seen) >= MAX_PURSE_NODES:
                        raise SeatError(too_many)
                    seen.add(nxt)
                    queue.append(nxt)
            row[nxt] = row.get(nxt, ZERO) + p
        rows[node] = row
    try:
        # in order of the purse: a game moves it by a few steps, so the system is banded and its
        # elimination fills in only within the band (in the order a search meets them, it fills
        # in everywhere, and a chain of a few hundred nodes takes minutes)
        visits, ends = forward_in_order(rows, start, lambda node: (node[3], node[0], node[1], repr(node[2])))
    except TooLargeToSolve:
        raise SeatError(f"{seat}'s session to the goal is too large to solve exactly ({len(rows):,} states of the "
                        f"table and the purse); bring the bankroll nearer the goal, or simulate the sessions") from None
    reach = sum((p for node, p in ends.items() if node[0] == "goal"), ZERO)
    final = sum((p * node[1] for node, p in ends.items()), ZERO)
    games_as = {role: sum((x for node, x in visits.items() if role_of(node[0]) == role), ZERO) for role in roles}
    games_at = tuple(sum((x for node, x in visits.items() if node[0] == pos), ZERO) for pos in range(n))
    takes = tuple(dict.fromkeys((slot.maker, slot.name) for pos in range(n)
                                for slot in wagers_at(chains, plans, players, seat, pos) if slot.taken))
    return SeatRuin(seat, tuple(players), dict(plan), bankroll, goal, stake, reach, ONE - reach,
                    sum(visits.values(), ZERO), final, games_as, games_at, tuple(games[pos].need for pos in range(n)),
                    takes, need, machine.ruleset.money_units)
