"""A seat's session from a bankroll to a goal at the table, solved exactly: each game's outcomes
for the seat (`solve.seat_chain.game_outcomes`, by its role that game) strung together over its
purse, the size of the purse grid judged before any chain is built (`purse_levels`); and the
same games strung together N times over the seat's net (`seat_games`): the exact distribution
of what a seat's plan nets over N games at the table, its size judged before the walk.
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


def fees_after_game(fees, fee_states: tuple, result: str, label: str) -> tuple[list, Fraction]:
    """The fees' counters after a game that ended `result` `label`, and what falls due to the
    table at its end (the caster pays it, out of what he has left)."""
    due, after = ZERO, []
    for f, state in zip(fees, fee_states):
        state, falls = f.at_game_end(state, result, label)
        after.append(state)
        if falls:
            due += f.fee.amount
    return after, due


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


# Said where some purse of a session to a goal is never left (the chain's system is singular):
# at a table whose game ends only in pushes (Grand Hazard, chuck-a-luck: the layout's bets carry
# the money), no stake ever moves a purse towards the goal or ruin
NEVER_ENDS = ("some purses of this session are never left: no game here moves a seat's purse by its stake (a "
              "game that ends only in a push: its bets carry the money), so it never reaches the goal or ruin; "
              "plan the seats' bets, or play it")


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
            after_fees, due = fees_after_game(fees, fee_states, result, label)
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
    except ArithmeticError:  # a purse no game moves (a game that ends only in a push): no end from there
        raise SeatError(NEVER_ENDS) from None
    reach = sum((p for node, p in ends.items() if node[0] == "goal"), ZERO)
    final = sum((p * node[1] for node, p in ends.items()), ZERO)
    games_as = {role: sum((x for node, x in visits.items() if role_of(node[0]) == role), ZERO) for role in roles}
    games_at = tuple(sum((x for node, x in visits.items() if node[0] == pos), ZERO) for pos in range(n))
    takes = tuple(dict.fromkeys((slot.maker, slot.name) for pos in range(n)
                                for slot in wagers_at(chains, plans, players, seat, pos) if slot.taken))
    return SeatRuin(seat, tuple(players), dict(plan), bankroll, goal, stake, reach, ONE - reach,
                    sum(visits.values(), ZERO), final, games_as, games_at, tuple(games[pos].need for pos in range(n)),
                    takes, need, machine.ruleset.money_units)


# --------------------------------------------------------------------------- N games at the table

MAX_SEAT_GAMES_WORK = 200_000_000  # table nodes × nets × games × outcomes × words of the chances (--games N)


def seat_games(machine: Machine, plans: dict, players: list, seat: str, games: int, stake=ONE,
               policy: str = "optimal", risk_at=None, chains: "SeatSolver | None" = None):
    """The exact distribution of `seat`'s net over `games` games at a table of `players` (in
    order round it), each seat playing its plan of `plans` and every setter staking `stake`, as
    `seat_ruin` strings games together but over the net rather than a purse (no purse runs
    short, so no game is refused): a node is (whose hand it is, counted from the seat; the
    passing count; the fees' counters), and each game moves it and adds the seat's net that
    game (`game_outcomes` by its role, less the fees that fall due when it is the caster).
    The first caster is the first player, or by lot where the rules say so.

    Why N games and not N rounds of the table: a hand can last any number of games, so the net
    over a round can take unboundedly many values and has no finite exact distribution; over N
    games it has, and the box goes round as the rules pass it.

    A `distribution.SessionNet` ({net: chance}, P(ahead) …, quantiles), its expected decisions
    the games and its coin-in the seat's expected money at risk: `risk_at(pos)`, what the seat
    puts at risk in a game whose caster sits pos places after it (solve.seats' rows), summed
    over the games by the chance of each pos (none given: a coin-in of 0). The chances are
    carried as whole numbers over one denominator a game. The work — the table's nodes × the
    nets reachable × the games × a game's outcomes — is judged against MAX_SEAT_GAMES_WORK
    before the walk (SeatArgumentError naming `games`)."""
    from .distribution import SessionNet

    stake = Fraction(stake)
    if stake <= 0:
        raise SeatArgumentError(Arg("stake"), "must be more than 0")
    if seat not in players:
        raise SeatError(f"{seat} does not sit at the table ({', '.join(players)})")
    chains = chains or SeatSolver(machine, policy)
    n = len(players)
    outcomes = {pos: chains.outcomes(plans, players, seat, pos, stake).outcomes for pos in range(n)}
    fees = list(machine.fees.values())
    passing = machine.passing

    def moved(node: tuple, result: str, label: str) -> tuple[tuple, Fraction]:
        """The table's node after a game of (result, label) from `node`, and the fees the seat pays."""
        pos, count, fee_states = node
        after_fees, due = fees_after_game(fees, fee_states, result, label)
        count2, passes = passing.after_game(count, result, label) if passing is not None else (0, False)
        return ((pos + 1) % n if passes else pos, count2, tuple(after_fees)), (due if pos == 0 else ZERO)

    first = players.index(seat)
    if passing is not None and passing.by_lot:
        start = {(pos, 0, tuple(f.start for f in fees)): Fraction(1, n) for pos in range(n)}
    else:
        start = {((-first) % n, 0, tuple(f.start for f in fees)): ONE}
    # the table's nodes and each one's moves, found without the net: their count is the first
    # factor of the work, and every move is worked out once
    moves: dict = {}
    queue = list(start)
    while queue:
        node = queue.pop()
        row = []
        for (result, label, net), p in outcomes[node[0]].items():
            to, due = moved(node, result, label)
            row.append((to, net - due, p))
            if to not in moves and to not in queue:
                queue.append(to)
        moves[node] = row
        if len(moves) > MAX_PURSE_NODES:
            raise SeatArgumentError(Arg("games"), f"the table takes more than {MAX_PURSE_NODES:,} states of whose "
                                                  f"hand, passing and fees: too many to walk {seat}'s net exactly; "
                                                  f"simulate the sessions")
    nets = [d for row in moves.values() for _, d, _ in row]
    den = lcm(*(d.denominator for d in nets))
    step = Fraction(gcd(*(int(d * den) for d in nets)), den) or ONE
    reach = games * int((max(nets) - min(nets)) / step) + 1
    widest = max(len(row) for row in moves.values())
    D = lcm(*(p.denominator for row in moves.values() for _, _, p in row), *(p.denominator for p in start.values()))
    # the chances are whole numbers over D^k: their words grow with the games (half the last, on average)
    words = max(1, games * D.bit_length() // 128)
    work = len(moves) * min(reach, games * widest + 1) * games * widest * words
    if work > MAX_SEAT_GAMES_WORK:
        raise SeatArgumentError(Arg("games", value=games), f"{seat}'s net over {games:,} games is about {work:,} "
                                                           f"steps of work (states of the table × nets reachable × "
                                                           f"games × outcomes of a game × 64-bit words of the "
                                                           f"exact chances), more than the "
                                                           f"{MAX_SEAT_GAMES_WORK:,} it is computed for; ask for "
                                                           f"fewer games, or simulate the sessions")
    whole = {node: [(to, int(d / step), int(p * D)) for to, d, p in row] for node, row in moves.items()}
    mass = {(node, 0): int(p * D) for node, p in start.items()}
    scale = D  # the masses are over D^(k+1) after k games
    coin = ZERO
    for _ in range(games):
        if risk_at is not None:
            at: dict = {}
            for (node, _), m in mass.items():
                at[node[0]] = at.get(node[0], 0) + m
            coin += sum((Fraction(m, scale) * risk_at(pos) for pos, m in at.items()), ZERO)
        nxt: dict = {}
        for (node, k), m in mass.items():
            for to, d, w in whole[node]:
                key = (to, k + d)
                nxt[key] = nxt.get(key, 0) + m * w
        mass, scale = nxt, scale * D
    final: dict = {}
    for (_, k), m in mass.items():
        final[k] = final.get(k, 0) + m
    out = {k * step: Fraction(m, scale) for k, m in sorted(final.items()) if m}
    return SessionNet(out, games, None, None, Fraction(games), coin / games if games else ZERO)
