r"""One seat's strategy at the table, from a bankroll to a goal, solved exactly wherever the box
passes: the seat casts some games and sets (or backs the bank) in others, and stakes by its
strategy (flat, a progression, the best stake by purse) whenever it lays a stake (issue 38).

The chains of solve.progressions and solve.policy follow one purse staking on one side of the
same game every game: a seat at a table with a bank. Where the caster is answered by setters a
seat's games are not alike: as the caster it answers every other seat's stake (the setters
staking `stake` flat, their purses never short, as in solve.seat_ruin), as a setter it lays
its own stake against the caster, and who casts next is the ruleset's `passing:`.

**The chain.** A node is where the table stands as a game opens: (whose hand it is, counted
from the seat; the passing count; the fees' counters; the seat's purse; the stake rule's
state). Each game ends in some (result, label) with the seat netting some amount, jointly —
`solve.seat_chain.game_outcomes` for the seat in its role that game (the seat's own stake
where it lays one, else the setters' `stake` it answers), nothing assumed of the game: no
special case for a ruleset, a main, 7 or two dice. The caster pays the fees that fall due out
of what he has left, the box passes as `passing:` says, and the node is absorbed at the goal
(the purse at or over it) or at ruin (an empty purse, or as the game opens, less than the
caster must answer when the box is the seat's) — where `commands.strategy_goal.played_to_goal`
and `simulate.sessions.play_to_goal` judge them, as a game opens.

**What the strategy reads.** A stake rule is read as play.strategies reads it at the table:
the stake asked for, at most what the purse can pay (the purse over the most a stake can
lose). A progression reads the purse at each stake it lays against the purse at its last stake
(higher: a win, lower: a loss, the same: a push), whatever games the seat cast between; so the
rule's state is (the progression's state, the purse at its last stake, what it laid), and the
move is made as the next stake is laid. A game that can end before any stake is laid (the
history sheet's third) asks no stake, and this chain, which lays one every game the seat
stakes, refuses a progression there (`TableStrategyError`); the flat stake and the best stake
read only the purse and are exact there too.

**Its size** is judged before it is built: the purse takes at least every value of its grid
between ruin and the goal (solve.seat_ruin.purse_levels) at each place of the box, and that
floor is held against MAX_TABLE_STRATEGY_NODES; the nodes are counted again as the chain is
built. Both refusals give the size and the bound and point to simulation.

**The solve.** Every other seat stakes alike, so a node (counted from the seat) leads where it
leads whichever seat it is: the seats' chains are one chain, started at each seat's place,
built once and eliminated once for all the starts (`table_strategies`). Its cycles are
eliminated in a least-fill order (solve.chain) over whole integer rows (`solve_in_integers`):
the chances carry hundreds of digits, and a Fraction's gcd at every entry was most of the time
(a martingale at Cotton's table of three: 4.05 CPU-s the three seats one by one over
Fractions, 0.44 at once in integers, the same figures).

From the chain: P(goal), P(ruin), the expected games (as caster and otherwise), the expected
total the seat stakes (coin-in), the exact distribution of the purse at the end (hence of the
net), and its mean.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

from ..compile.machine import Machine
from ..records import field, record
from .chain import Chain, TooLargeToSolve, visit_equations
from .exact import ONE, ZERO
from .seat_chain import BANK, SeatError, SeatSolver
from .seat_ruin import NEVER_ENDS, fees_after_game, purse_levels

# (whose hand, passing, fees, purse, stake rule's state) nodes of the seats' chain to a goal.
# Measured at a load of 4 on two cores, Cotton's table from 10 to 20 by a first stake of 1, all
# the seats at once (solve_in_integers): a martingale of three seats (759 nodes) 0.41 CPU-s, a
# Fibonacci of three (1,057) 1.3 s, a d'Alembert of two (2,400) 1.5 s, a Labouchère of two
# (9,485) 5.7 s. Past 10,000 the chain is refused as it is built, so that `simulate --strategy`,
# which prints it beside its sessions, is not held up long
MAX_TABLE_STRATEGY_NODES = 10_000


class TableStrategyError(SeatError):
    """A seat's strategy at the table that cannot be solved exactly here: said with its size and
    the bound, or why, pointing to simulation."""


# ---------------------------------------------------------------------------- stake rules


class StakeRule:
    """How a seat stakes: `start` (the rule's first state), `asks(state, purse)` the stake it
    asks for, `after(state, sign, laid)` its state after a stake of `laid` that the purse
    showed won (sign 1), lost (−1) or pushed (0). `reads_history`: whether its state moves
    at all (a progression), so that the chain must carry the purse at its last stake."""

    reads_history = False
    start = None

    def __init__(self, what: str):
        self.what = what

    def asks(self, state, purse: Fraction) -> Fraction:
        raise NotImplementedError

    def after(self, state, sign: int, laid: Fraction):
        return state


class Flat(StakeRule):
    """The same stake every game."""

    def __init__(self, stake):
        super().__init__(f"a flat stake of {Fraction(stake)}")
        self.stake = Fraction(stake)

    def asks(self, state, purse):
        return self.stake


class ByPurse(StakeRule):
    """A stake by whole purse (solve.policy.BestStake.stakes: {units: stake}), as
    play.strategies.BestPolicies stakes it: a purse below one unit stakes what is left, a purse
    the table did not list stakes 1."""

    def __init__(self, stakes: dict, what: str = "the best stake"):
        super().__init__(what)
        self.stakes = dict(stakes)

    def asks(self, state, purse):
        units = int(purse)
        return purse if units < 1 else Fraction(self.stakes.get(units, 1))


class ByProgression(StakeRule):
    """A progression (solve.progressions.Progression, in the amounts of money given)."""

    reads_history = True

    def __init__(self, name: str, base, cap=None):
        from .progressions import WORDS, Progression

        self.rule = Progression(name, Fraction(base), None if cap is None else Fraction(cap))
        super().__init__(f"the {WORDS[name]}")
        self.start = self.rule.start

    def asks(self, state, purse):
        return Fraction(self.rule.asks(state))

    def after(self, state, sign, laid):
        return self.rule.after(state, sign, laid)


def stake_rule(name: str, stake, cap=None, policy_stakes: dict | None = None) -> StakeRule:
    """The rule of strategy `name`: "flat" (`stake` every game), "best" (`policy_stakes`, a
    stake by whole purse), or a progression from a first stake of `stake`, capped at `cap`."""
    if name == "flat":
        return Flat(stake)
    if name == "best":
        if policy_stakes is None:
            raise ValueError("the best stake's rule needs its stakes by purse")  # the caller's mistake
        return ByPurse(policy_stakes)
    return ByProgression(name, stake, cap)


# ---------------------------------------------------------------------------- the chain


@record(frozen=True)
class TableStrategy:
    """One seat at a table of `players`, staking by `strategy` from `bankroll` until its purse
    reaches `goal` or is ruined, the other seats staking `stake` flat: exactly."""

    seat: str
    players: tuple
    strategy: str
    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    reach_goal: Fraction
    ruin: Fraction
    games: Fraction  # expected games until the goal or ruin
    games_casting: Fraction  # of which with the box the seat's
    staked: Fraction  # expected total the seat lays by its strategy (coin-in)
    purses: dict = field(default_factory=dict)  # the purse at the end -> its chance
    states: int = 0

    @property
    def final_purse(self) -> Fraction:
        return sum((v * p for v, p in self.purses.items()), ZERO)

    @property
    def nets(self) -> dict:
        """The net at the end -> its chance."""
        return {v - self.bankroll: p for v, p in self.purses.items()}

    @property
    def net(self) -> Fraction:
        return self.final_purse - self.bankroll


# ---------------------------------------------------------------------------- the exact solve

# The elimination's work, in 64-bit words multiplied, past which a chain is refused
# (TooLargeToSolve): the chains measured above take 0.5 million (martingale), 5.7 million
# (Fibonacci), 4.1 million (d'Alembert) and 13 million (Labouchère, 5.7 s)
MAX_INTEGER_WORK = 25_000_000


def _integer_rows(rows: list[dict], rhs: list) -> tuple[list[dict], list[list]]:
    """Each equation times the least common multiple of its denominators (its right-hand sides'
    too): the same solution, in integers."""
    out, out_rhs = [], []
    for a, bs in zip(rows, rhs):
        scale = 1
        for x in bs:
            scale = lcm(scale, x.denominator)
        for x in a.values():
            scale = lcm(scale, x.denominator)
        out.append({c: int(x * scale) for c, x in a.items()})
        out_rhs.append([int(x * scale) for x in bs])
    return out, out_rhs


def solve_in_integers(rows: list[dict], rhs: list) -> list[list]:
    """A x = b exactly for each of several right-hand sides (rhs[r]: row r's, one for each),
    A an M-matrix given by sparse rows in the order to eliminate them (as chain.sparse_solve,
    which it answers for a purse's chain): [the solution's x_r for each right-hand side].
    Each row is kept in integers, whole: an equation may be scaled at will, so a row less a
    multiple of the pivot's is formed as lead·row − factor·pivot and divided by the greatest
    common divisor of its entries, one gcd a row where Fractions take one an entry (the
    chances of a session at the table have denominators of hundreds of digits, and their gcds
    were most of the time). No pivoting: the leading minors of an M-matrix are positive, so
    every lead stays positive."""
    n = len(rows)
    rows, rhs = _integer_rows(rows, rhs)
    below: list[set] = [set() for _ in range(n)]
    for r, a in enumerate(rows):
        for c in a:
            if c < r:
                below[c].add(r)
    work = 0
    for k in range(n):
        pivot = rows[k]
        lead = pivot[k]
        if lead <= 0:
            raise ArithmeticError("singular system: some states never reach an end")
        b_k = rhs[k]
        words = max(abs(x).bit_length() for x in pivot.values()) >> 6
        for r in sorted(below[k]):
            a = rows[r]
            factor = a.pop(k, 0)
            if not factor:
                continue
            g = gcd(lead, factor)
            lk, fk = lead // g, factor // g
            if lk != 1:
                for c in a:
                    a[c] *= lk
            for c, x in pivot.items():
                if c != k:
                    if c in a:
                        a[c] -= fk * x
                    else:
                        a[c] = -fk * x
                        if c < r:
                            below[c].add(r)
            bs = [b * lk - fk * b0 for b, b0 in zip(rhs[r], b_k)]
            g = gcd(*bs, *a.values())
            if g > 1:
                for c in a:
                    a[c] //= g
                bs = [b // g for b in bs]
            rhs[r] = bs
            work += (len(a) + len(pivot) + len(bs)) * (1 + words + (abs(fk).bit_length() >> 6))
        if work > MAX_INTEGER_WORK:
            raise TooLargeToSolve(f"a cycle of {n} states, too large to solve exactly in reasonable time")
    solve_in_integers.last_work = work
    x: list = [None] * n
    for k in range(n - 1, -1, -1):
        a = rows[k]
        totals = [Fraction(b) for b in rhs[k]]
        for c, v in a.items():
            if c > k:
                totals = [t - v * y for t, y in zip(totals, x[c])]
        x[k] = [t / a[k] for t in totals]
    return x


def forward_visits(rows: dict, starts: list) -> dict:
    """Expected visits to each transient node of an absorbing chain (rows: node → {next:
    chance}; a node without a row absorbs) and the chance of ending in each absorbing node,
    from each of the starting distributions `starts`: {node: [its figure from each start]}.
    As chain.Chain.forward, one strongly connected component at a time in a least-fill order,
    each cycle solved once for all the starts by `solve_in_integers`."""
    chain = Chain(rows, least_fill=True)
    many = len(starts)
    inflow: dict = {}
    for i, start in enumerate(starts):
        for s, p in start.items():
            inflow.setdefault(s, [ZERO] * many)[i] += p
    visits: dict = {}
    for component in reversed(chain.components):
        if len(component) == 1:
            s = component[0]
            xs = inflow.pop(s, None)
            if xs is None:
                continue
            out = rows[s]
            p_self = out.get(s)
            if p_self:
                xs = [x / (ONE - p_self) for x in xs]
            visits[s] = xs
            for t, p in out.items():
                if t != s:
                    into = inflow.setdefault(t, [ZERO] * many)
                    for i, x in enumerate(xs):
                        if x:
                            into[i] += x * p
            continue
        members = set(component)
        solved = solve_in_integers(visit_equations(component, rows),
                                   [inflow.pop(s, None) or [ZERO] * many for s in component])
        for s, xs in zip(component, solved):
            visits[s] = xs
            for t, p in rows[s].items():
                if t not in members:
                    into = inflow.setdefault(t, [ZERO] * many)
                    for i, x in enumerate(xs):
                        if x:
                            into[i] += x * p
    visits.update(inflow)  # the absorbing nodes
    return visits


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def table_strategy(machine: Machine, players: list, seat: str, rule: StakeRule, bankroll, goal, stake=ONE,
                   policy: str = "optimal", chains: SeatSolver | None = None) -> TableStrategy:
    """`seat`'s session at a table of `players` (in order round it) staking by `rule` from
    `bankroll` until its purse reaches `goal` or it is ruined, each other seat staking `stake`
    flat from a purse that never runs short (the module's docstring). The seat lays its stake by
    the rule in every game it stakes: as a setter, and as the caster where the caster backs the
    bank; as the caster answered by setters it answers their stakes. Exact, within
    MAX_TABLE_STRATEGY_NODES nodes (judged before the chain is built) and the solver's bound on
    elimination work; beyond them TableStrategyError, with the size and the bound."""
    return table_strategies(machine, players, [seat], rule, bankroll, goal, stake, policy, chains)[seat]


def table_strategies(machine: Machine, players: list, seats: list, rule: StakeRule, bankroll, goal, stake=ONE,
                     policy: str = "optimal", chains: SeatSolver | None = None) -> dict:
    """`table_strategy` for each of `seats`: {seat: TableStrategy}. Every other seat stakes
    the same flat stake, so a node, counted from the seat, leads where it leads whichever seat
    it is: the seats' chains are one chain started at their places round the table, built and
    eliminated once and solved for all their starts at once (several right-hand sides)."""
    bankroll, goal, stake = Fraction(bankroll), Fraction(goal), Fraction(stake)
    for seat in seats:
        if seat not in players:
            raise SeatError(f"{seat} does not sit at the table ({', '.join(players)})")
    if not 0 < bankroll < goal:
        raise SeatError(f"the bankroll ({bankroll}) must be more than 0 and less than the goal ({goal})")
    if stake <= 0:
        raise SeatError(f"the setters' stake ({stake}) must be more than 0")
    if len(set(players)) != len(players):  # a seat is found by its name round the table
        raise SeatError(f"each player needs a name of his own ({', '.join(map(str, players))})")
    chains = chains or SeatSolver(machine, policy)
    if chains.against != BANK and len(players) < 2:  # nobody to set against the caster
        raise SeatError("a table where the setters answer the caster needs two players or more")
    n = len(players)
    fees = list(machine.fees.values())
    passing = machine.passing

    def stakes_own(pos: int) -> bool:  # whether the seat lays its own stake with the box pos places on
        return pos != 0 or chains.against == BANK

    outcomes: dict = {}

    def game(pos: int, amount: Fraction):
        """The seat's game with the box pos places on, staking `amount` (its own, or answering)."""
        key = (pos, amount) if stakes_own(pos) else (pos, None)
        if key not in outcomes:  # as the first seat has it: the same for each (no seat plans a bet)
            outcomes[key] = chains.outcomes({}, players, seats[0], pos, amount if stakes_own(pos) else stake)
        return outcomes[key]

    # what one unit of the seat's stake needs of its purse (the most it can lose on it), by place
    per_unit = {pos: game(pos, ONE).need for pos in range(n) if stakes_own(pos)}
    caster_need = ZERO if stakes_own(0) else game(0, stake).need
    if rule.reads_history and chains.stake_laid() != ONE:
        raise TableStrategyError(
            f"a game can end before any stake is laid (a stake is laid in {chains.stake_laid()} of the games), and "
            f"{rule.what} reads the purse only at the stakes it lays, which this chain does not follow; stake flat "
            f"or by the best stake, or simulate the sessions")
    def positions(seat: str) -> dict:  # where the box stands from the seat as the first game opens
        if passing is not None and passing.by_lot:
            return {pos: Fraction(1, n) for pos in range(n)}
        return {(-players.index(seat)) % n: ONE}

    # judged before the chain is built: the purse meets every value of its grid between ruin and
    # the goal, at each place of the box (the unit games step it as finely as any stake does)
    # and at the first stake the rule lays, whose grid may be finer than a unit's (a first stake
    # of 1/7 steps the purse by sevenths: judged by units alone, such a chain passed the floor
    # and was refused only once 10,000 states were built)
    first = rule.asks(rule.start, bankroll)
    levels = purse_levels([game(pos, ONE) for pos in range(n)]
                          + [game(pos, first) for pos in range(n) if stakes_own(pos)], fees, bankroll, goal)
    what = f"a seat staking by {rule.what} from {bankroll} to {goal} at a table of {n}"
    if levels * n > MAX_TABLE_STRATEGY_NODES:
        raise TableStrategyError(f"{what} would take at least {levels * n:,} states of the table and the purse, "
                                 f"more than the {MAX_TABLE_STRATEGY_NODES:,} an exact solve is made for; bring the "
                                 f"bankroll nearer the goal, or simulate the sessions")

    def ended(purse: Fraction, pos: int):
        """The absorbing node a game ending with `purse` reaches, the box then pos places on
        (None: the session goes on), judged as the next game opens."""
        if purse >= goal:
            return ("goal", purse)
        if purse <= 0 or (pos == 0 and purse < caster_need):
            return ("ruin", purse)
        return None

    fee_start = tuple(f.start for f in fees)
    # the rule's state: (its state, the purse at its last stake, what it laid) for a progression
    rule_start = (rule.start, None, None) if rule.reads_history else None
    # a first caster who cannot answer the setters' stakes is ruined before his first game, as
    # the table rules him (simulate.sessions.play_to_goal): his start is absorbing
    starts: dict = {}
    for seat in seats:
        start = starts[seat] = {}
        for pos, p in positions(seat).items():
            key = ended(bankroll, pos) or (pos, 0, fee_start, bankroll, rule_start)
            start[key] = start.get(key, ZERO) + p
    # each node numbered as it is found, the chain kept over the numbers: a node holding
    # Fractions hashes slowly (a Fraction's hash is a modular inverse), and the chain's
    # building looked each one up four times, the elimination many more
    ids: dict = {}
    nodes: list = []

    def number(node) -> int:
        k = ids.get(node)
        if k is None:
            k = ids[node] = len(nodes)
            nodes.append(node)
        return k

    start_ids = [{number(node): p for node, p in start.items()} for start in starts.values()]
    rows: dict = {}  # node's number -> {next node's number: chance}
    laid_at: dict = {}  # node's number -> the seat's own stake laid in its game
    casting: set = set()
    queue = list(dict.fromkeys(k for start in start_ids for k in start if nodes[k][0] not in ("goal", "ruin")))
    counted = len(queue)  # the nodes of the table found so far, the goal and ruin aside
    while queue:
        k = queue.pop()
        pos, count, fee_states, purse, held = nodes[k]
        after_rule = held
        if stakes_own(pos):
            if rule.reads_history:
                state, before, last = held
                if before is not None and last:  # what the purse did since the last stake
                    state = rule.after(state, _sign(purse - before), last)
                amount = min(rule.asks(state, purse), purse / per_unit[pos])
                after_rule = (state, purse, amount)
            else:
                amount = min(rule.asks(held, purse), purse / per_unit[pos])
            laid_at[k] = amount
        else:
            amount = stake
            casting.add(k)
        row: dict = {}
        for (result, label, net), p in game(pos, amount).outcomes.items():
            after_fees, due = fees_after_game(fees, fee_states, result, label)
            purse2 = purse + net
            if pos == 0:  # the table takes a fee out of what the caster has left, no more
                purse2 -= min(due, purse2)
            count2, passes = passing.after_game(count, result, label) if passing is not None else (0, False)
            pos2 = (pos + 1) % n if passes else pos
            absorbed = ended(purse2, pos2)
            if absorbed is not None:
                j = number(absorbed)
            else:
                nxt = (pos2, count2, tuple(after_fees), purse2, after_rule)
                j = ids.get(nxt)
                if j is None:
                    if counted >= MAX_TABLE_STRATEGY_NODES:
                        raise TableStrategyError(f"{what} has more than {MAX_TABLE_STRATEGY_NODES:,} states of the "
                                                 f"table, the purse and the strategy, more than an exact solve is "
                                                 f"made for; give a cap or bring the bankroll nearer the "
                                                 f"goal, or simulate the sessions")
                    j = number(nxt)
                    counted += 1
                    queue.append(j)
            row[j] = row.get(j, ZERO) + p
        rows[k] = row
    try:
        solved = forward_visits(rows, start_ids)
    except ArithmeticError:  # singular: some node never reaches the goal or ruin
        raise TableStrategyError(f"{what}: {NEVER_ENDS}") from None
    except TooLargeToSolve:
        raise TableStrategyError(f"{what}: its {len(rows):,} states, though within the "
                                 f"{MAX_TABLE_STRATEGY_NODES:,} allowed, come back on one another in too many ways "
                                 f"to solve exactly in reasonable time; give a cap or bring the bankroll nearer the "
                                 f"goal, or simulate the sessions") from None
    out: dict = {}
    for i, seat in enumerate(seats):
        visits = {k: found[i] for k, found in solved.items() if found[i]}
        purses: dict = {}
        reach = ZERO
        for k, chance in visits.items():
            if k not in rows:
                key = nodes[k]
                purses[key[1]] = purses.get(key[1], ZERO) + chance
                if key[0] == "goal":
                    reach += chance
        games = sum((visits[k] for k in rows if k in visits), ZERO)
        games_casting = sum((visits[k] for k in casting if k in visits), ZERO)
        staked = sum((visits[k] * amount for k, amount in laid_at.items() if k in visits), ZERO)
        # the states the seat's own session can reach (the chain holds every seat's)
        reached = set(k for k in start_ids[i] if k in rows)
        todo = list(reached)
        while todo:
            for t in rows[todo.pop()]:
                if t in rows and t not in reached:
                    reached.add(t)
                    todo.append(t)
        out[seat] = TableStrategy(seat, tuple(players), rule.what, bankroll, goal, stake, reach, ONE - reach, games,
                                  games_casting, staked, dict(sorted(purses.items())), len(reached))
    return out


def exact_at_table(machine: Machine, solver, players: list, name: str, bankroll, goal, stake, cap=None,
                   policy: str = "optimal") -> dict:
    """Each seat's session staking by strategy `name` (a progression from a first stake of
    `stake`, capped at `cap`; or "best", the best stake 1 to `stake` by whole purse, the policy
    play.strategies.BestPolicies plays: its side of the game at even money), the other seats
    staking `stake` flat: {seat: (the exact chain, None) or (None, why it is not solved
    exactly)}, for the report of simulated sessions to a goal (commands.strategy_goal) to print
    beside them. The seats share the game's outcomes, and a chain too large for one seat is
    too large for all (the same table, started elsewhere): it is refused once."""
    from .policy import PolicyError, best_stake, caster_outcomes, other_side, whole
    from .progressions import ProgressionError

    out: dict = {}
    try:
        chains = SeatSolver(machine, policy, solver)
        stakes = None
        if name == "best":
            from .session import game_endings

            game = game_endings(machine, solver=solver)
            outcomes = caster_outcomes(game.chance("win"), game.chance("lose"))
            found = best_stake(outcomes if chains.against == BANK else other_side(outcomes), whole(goal, "the goal"),
                               whole(stake, "the largest stake"))
            stakes = found.stakes
        rule = stake_rule(name, stake, cap, stakes)
        try:
            found = table_strategies(machine, players, players, rule, bankroll, goal, stake, policy, chains)
            out.update((seat, (run, None)) for seat, run in found.items())
        except TableStrategyError:  # too large: for every seat, the same table started elsewhere
            raise
        except SeatError:  # some seat's own: found seat by seat, the others solved
            for seat in players:
                try:
                    out[seat] = table_strategy(machine, players, seat, rule, bankroll, goal, stake, policy,
                                               chains), None
                except TableStrategyError:
                    raise
                except SeatError as exc:
                    out[seat] = None, str(exc)
    except (SeatError, PolicyError, ProgressionError) as exc:
        for seat in players:
            out.setdefault(seat, (None, str(exc)))
    return out


__all__ = ["MAX_TABLE_STRATEGY_NODES", "ByProgression", "ByPurse", "Flat", "StakeRule", "TableStrategy",
           "TableStrategyError", "exact_at_table", "forward_visits", "solve_in_integers", "stake_rule",
           "table_strategies", "table_strategy"]
