"""Sessions at the table, many at once: purses, stakes laid and covered, fees, the box passing.

`play.session.Session` is the reference: this module follows its rules exactly (the order in
which setters stake from the caster's left, a caster who cannot cover, hard play's forfeit, the
strategies, fees paid from the caster's purse, the passing table), on arrays with one row per
session.

**Whole games.** What a game does to the purses depends only on how it ends: its result and
label (fees, the dice passing), whether the stakes were laid (the game reached a state where the
stake bet may be made), and how the stake bet was decided (its result and payout, or void if
still up when the game ended). The stakes themselves depend only on the purses at the start of
the game, which no throw changes before they are laid. So each session's game is drawn whole
from the exact distribution of those *categories*, solved once by the exact solver
(`solve.markov.Chain`) on the game and the stake bet's compiled table under the policy; a draw
per game is exact in distribution, and the rest is bookkeeping. `categories_on_tape` walks the
same transitions along given throws, which is how the tests check this module against the
session engine throw for throw.

**The first caster.** Where the rules cast lots for the first cast (`passing: first:
lowest_die` or `highest_die`), each session draws its first caster uniformly from the seats.
That is exact, for fair dice and loaded ones alike: every player throws the same die, and those
tied throw it again, so the throws are exchangeable and no seat is likelier than another to be
alone at the lowest (highest) face (tests/test_first_caster.py works the chances out exactly
for loaded dice). Only a die with a single face could never choose, and it is refused.

**Money** is whole minor units (int64): the unit divided by `scale`, the least common multiple
of the denominators of the purse, the stake, the fees and the payouts (×1000 under the
`fraction` strategy, whose stakes are tenths of a purse). Every transfer moves the same integer
from one purse to another, so money is conserved exactly. A stake finer than a minor unit (a
tenth of a purse of a few minor units, a payout that does not divide) is rounded down to whole
minor units and counted (`rounded`), never hidden.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from ..compile.machine import END, Machine
from ..compile.passing import compile_passing
from ..records import record
from ..solve.bets import BetTable
from ..solve.markov import ONE, ZERO, Chain

MAX_SESSION_GAMES = 100_000  # as play.session: a session ends here whatever else happens
WHY = ("rounds", "too few players with money left", "no caster could answer the stakes", "the games ran out")
NONE, VOID = "none", "void"


@record(frozen=True)
class Category:
    """How a game ended, for the purses: (result, label), whether stakes were laid, and the stake
    bet's decision ("win"/"lose"/"push" and its net per unit; void: still up at the end)."""

    result: str
    label: str
    laid: bool
    stake_result: str  # "win" | "lose" | "push" | "void" | "none"
    stake_net: Fraction


def _stake_moves(machine: Machine, bet):
    """The stake's status through a game: "pre" (not laid), ("up", bet state), ("dec", result,
    net); laid on reaching a state where the bet may be made (any throw state without a bet)."""

    def laid_at(g: int, status):
        if status == "pre" and (bet is None or g in bet.made):
            return ("up", 0)
        return status

    def after(g: int, status, outcome: int, final: int):
        if status == "pre" or status[0] == "dec":
            return status
        if bet is None:
            return status
        code = bet.move(g, status[1], outcome, final)
        if code >= 0:
            return ("up", code)
        decision = bet.decisions[~code]
        return ("dec", decision.result, decision.net)

    def ended(final_state, status) -> Category:
        if status == "pre":
            return Category(final_state.result, final_state.label, False, NONE, ZERO)
        if status[0] == "dec":
            return Category(final_state.result, final_state.label, True, status[1], status[2])
        if bet is None:  # even money on the game
            return Category(final_state.result, final_state.label, True, final_state.result, ONE)
        return Category(final_state.result, final_state.label, True, VOID, ZERO)

    return laid_at, after, ended


def game_categories(machine: Machine, solver, bet) -> dict:
    """{Category: exact probability} for one game at the table under the solver's policy."""
    table = BetTable(machine, solver, {})
    states = machine.states
    laid_at, after, ended = _stake_moves(machine, bet)
    rows: dict = {}
    start: dict = {}
    queue = []

    def node(g: int, status, p, into: dict):
        state = states[g]
        if state.kind == END:
            key = ended(state, status)
        else:
            key = (g, laid_at(g, status))
            if key not in rows and key not in queue_seen:
                queue_seen.add(key)
                queue.append(key)
        into[key] = into.get(key, ZERO) + p

    queue_seen: set = set()
    for g, p in table.resolve(machine.start.target).items():
        node(g, "pre", p, start)
    while queue:
        key = queue.pop()
        g, status = key
        dice = solver.throw_dice(g)
        row: dict = {}
        for o, w in enumerate(dice.weights):
            if not w:
                continue
            target = states[g].steps[o].target
            for final, q in table.resolve(target).items():
                node(final, after(g, status, o, final), Fraction(w, dice.total) * q, row)
        rows[key] = row
    visits = Chain(rows).forward(start)
    return {key: p for key, p in visits.items() if isinstance(key, Category) and p}


def categories_on_tape(machine: Machine, solver, bet, outcomes) -> list:
    """The category of each game played on these throws (outcome indices), choices by the
    solver's (pure) policy: the same transitions as `game_categories`, walked one throw at a time.
    A game the tape leaves unfinished is not returned."""
    table = BetTable(machine, solver, {})
    states = machine.states
    laid_at, after, ended = _stake_moves(machine, bet)

    def only(distribution: dict) -> int:
        if len(distribution) != 1:
            raise ValueError("a tape is walked under a pure policy")
        return next(iter(distribution))

    out = []
    g, status = only(table.resolve(machine.start.target)), "pre"
    for o in outcomes:
        status = laid_at(g, status)
        final = only(table.resolve(states[g].steps[o].target))
        status = after(g, status, o, final)
        if states[final].kind == END:
            out.append(ended(states[final], status))
            g, status = only(table.resolve(machine.start.target)), "pre"
        else:
            g = final
    return out


# --------------------------------------------------------------------------- the table, as arrays


@record
class Setup:
    """Everything a chunk of sessions needs, as plain data (it pickles to workers and clusters)."""

    seats: int
    against_bank: bool
    forfeit: bool  # when_short: forfeit (hard play) rather than refuse
    rounds: int
    purse: int  # minor units
    stake: int
    strategy: str
    scale: int  # minor units per unit of money
    per_unit: Fraction  # the most a unit staked on the caster can win (what a setter must answer)
    categories: tuple  # Category by index
    cumulative: np.ndarray  # cumulative weights of the categories (int64, or float64 when too large)
    denominator: int  # draws are below this (0: float draws)
    ending: np.ndarray  # category -> index of (result, label) in `endings`
    endings: tuple
    laid: np.ndarray  # category -> bool
    stake_sign: np.ndarray  # category -> +1 win, -1 lose, 0 push / void / none
    stake_net: tuple  # category -> Fraction
    passing_next: np.ndarray  # [passing state, ending] -> state
    passing_passes: np.ndarray  # [passing state, ending] -> bool
    fees: tuple  # (amount in minor units, next [fee state, ending], due [fee state, ending], start state)
    max_games: int = MAX_SESSION_GAMES
    by_lot: bool = False  # the first caster drawn by lot (uniformly: see the module's docstring), not seat 0


def setup(machine: Machine, solver, players: int, purse: Fraction, stake: Fraction, strategy: str,
          rounds: int) -> Setup:
    """The session's arrays: the exact categories of a game, the passing and fee tables."""
    table = machine.ruleset.table
    bet = machine.bets.get(table.stake) if table.stake else None
    categories = game_categories(machine, solver, bet)
    keys = sorted(categories, key=lambda c: (c.result, c.label, c.laid, c.stake_result, c.stake_net))
    denominator = lcm(*(categories[c].denominator for c in keys))
    weights = [categories[c] * denominator for c in keys]
    if denominator < 2 ** 62:
        cumulative = np.cumsum(np.array([int(w) for w in weights], dtype=np.int64))
    else:  # chances with very long denominators: drawn in floats (to one part in 2**53)
        cumulative = np.cumsum(np.array([float(categories[c]) for c in keys]))
        denominator = 0
    endings = tuple(sorted({(s.result, s.label) for s in machine.end_states()}))
    passing = machine.passing or compile_passing(None, endings, machine.options)
    passing_states = sorted({s for s, _, _ in passing.moves})
    passing_next = np.zeros((len(passing_states), len(endings)), dtype=np.int64)
    passing_passes = np.zeros((len(passing_states), len(endings)), dtype=bool)
    for s in passing_states:
        for k, (result, label) in enumerate(endings):
            after, passes = passing.after_game(s, result, label)
            passing_next[s, k], passing_passes[s, k] = after, passes
    nets = [c.stake_net for c in keys if c.stake_result == "win"]
    most = max((d.net for d in bet.decisions if d.result == "win"), default=ONE) if bet is not None else ONE
    scale = lcm(Fraction(purse).denominator, Fraction(stake).denominator, most.numerator,
                *(f.fee.amount.denominator for f in machine.fees.values()), *(n.denominator for n in nets))
    if strategy == "fraction":
        scale *= 1000
    fees = []
    for compiled in machine.fees.values():
        fee_states = [compiled.start]
        for (state, _, _), (after, _) in compiled.moves.items():
            for s in (state, after):
                if s not in fee_states:
                    fee_states.append(s)
        nxt = np.zeros((len(fee_states), len(endings)), dtype=np.int64)
        due = np.zeros((len(fee_states), len(endings)), dtype=bool)
        for i, s in enumerate(fee_states):
            for k, (result, label) in enumerate(endings):
                if (s, result, label) in compiled.moves:
                    after, d = compiled.at_game_end(s, result, label)
                    nxt[i, k], due[i, k] = fee_states.index(after), d
        amount = compiled.fee.amount * scale
        fees.append((int(amount), nxt, due, 0))
    purse_units, stake_units = Fraction(purse) * scale, Fraction(stake) * scale
    if purse_units * players >= 2 ** 60:
        from .tables import SimulationError

        raise SimulationError("--purse is too large to simulate in whole minor units")
    by_lot = passing.by_lot and players > 1
    if by_lot and sum(1 for p in machine.dice.faces(1) if p) < 2:
        from .tables import SimulationError

        raise SimulationError(f"{machine.ruleset.name}: the die thrown for the first cast shows only one face, so "
                              f"the players would tie for ever")
    return Setup(players, table.against == "bank", table.when_short == "forfeit", rounds, int(purse_units),
                 int(stake_units), strategy, scale, most, tuple(keys), cumulative, denominator,
                 np.array([endings.index((c.result, c.label)) for c in keys], dtype=np.int64), endings,
                 np.array([c.laid for c in keys], dtype=bool),
                 np.array([{"win": 1, "lose": -1}.get(c.stake_result, 0) for c in keys], dtype=np.int64),
                 tuple(c.stake_net for c in keys), passing_next, passing_passes, tuple(fees), by_lot=by_lot)


# --------------------------------------------------------------------------- playing them


@record
class Played:
    """A chunk of sessions, played: each session's purses at the end and what ended it."""

    purses: np.ndarray  # int64 [sessions, seats], minor units
    bank: np.ndarray  # int64 [sessions]: what the bank won
    box: np.ndarray  # int64 [sessions]: fees paid to the box
    games: np.ndarray  # int64 [sessions]
    why: np.ndarray  # int8 [sessions]: index into WHY
    rounded: int  # stakes or payouts rounded down to a whole minor unit


def play_sessions(s: Setup, sessions: int, rng: np.random.Generator | None = None, categories=None,
                  first=None) -> Played:
    """Play `sessions` sessions side by side. Each game's category is drawn from the exact
    distribution (or, for a test, taken in turn from `categories`, a list of indices per session),
    and, where the rules cast lots for the first cast, the first caster uniformly (or, for a
    test, `first`: each session's first caster, a seat index)."""
    n = s.seats
    purses = np.full((sessions, n), s.purse, dtype=np.int64)
    bank = np.zeros(sessions, dtype=np.int64)
    box = np.zeros(sessions, dtype=np.int64)
    games = np.zeros(sessions, dtype=np.int64)
    why = np.zeros(sessions, dtype=np.int8)
    caster = np.zeros(sessions, dtype=np.int64)
    if first is not None:
        caster[:] = first
    elif s.by_lot:  # each seat alike, whatever the die (the module's docstring)
        caster = rng.integers(0, n, size=sessions).astype(np.int64)
    passes = np.zeros(sessions, dtype=np.int64)
    hand = np.zeros(sessions, dtype=np.int64)
    idle = np.zeros(sessions, dtype=np.int64)
    fee_state = [np.full(sessions, start, dtype=np.int64) for _, _, _, start in s.fees]
    alive = np.arange(sessions)
    rounded = [0]
    least = 1 if s.against_bank else 2
    tape_at = np.zeros(sessions, dtype=np.int64)
    while alive.size:
        # the checks of Session._events, in its order
        stop = np.full(alive.size, -1, dtype=np.int8)
        stop[games[alive] >= s.max_games] = 3
        stop[(stop < 0) & (idle[alive] > n)] = 2
        stop[(stop < 0) & (passes[alive] >= s.rounds * n)] = 0
        stop[(stop < 0) & (np.count_nonzero(purses[alive] > 0, axis=1) < least)] = 1
        if categories is not None:  # a tape that ran out ends its session
            short = np.array([tape_at[i] >= len(categories[i]) for i in alive], dtype=bool)
            stop[(stop < 0) & short] = 3
        done = stop >= 0
        why[alive[done]] = stop[done]
        alive = alive[~done]
        if not alive.size:
            break
        live = alive
        if not s.against_bank:  # a caster with nothing left to answer stakes passes the box
            broke = purses[alive, caster[alive]] <= 0
            if broke.any():
                _pass(alive[broke], caster, passes, hand, n)
                idle[alive[broke]] += 1
                live = alive[~broke]
        if not live.size:
            continue
        games[live] += 1
        # each game's category: drawn whole (see the module's docstring), or from the tape
        if categories is None:
            if s.denominator:
                u = rng.integers(0, s.denominator, size=live.size)
            else:
                u = rng.random(live.size) * s.cumulative[-1]
            cat = np.searchsorted(s.cumulative, u, side="right")
        else:
            cat = np.array([categories[i][tape_at[i]] for i in live], dtype=np.int64)
            tape_at[live] += 1
        rows = np.arange(live.size)
        c = caster[live]
        caster_purse = purses[live, c]
        laid = s.laid[cat]
        amounts = np.zeros((live.size, n), dtype=np.int64)
        forfeit = np.zeros(live.size, dtype=bool)
        answered = np.zeros(live.size, dtype=np.int64)
        # each backer in turn from the caster's left (with a bank, the caster first)
        for k in (range(0, n) if s.against_bank else range(1, n)):
            seat = (c + k) % n
            p = purses[live, seat]
            go = laid & ~forfeit & (p > 0)
            if not go.any():
                continue
            # a setter lays the stake times the payout: he stakes no more than his purse can pay
            limit = p if s.against_bank or s.per_unit == 1 else _scale(p, 1 / s.per_unit, rounded, go)
            amount = np.minimum(_stake(s, p, rounded, go), limit)
            go &= amount > 0
            if s.against_bank:
                amounts[rows[go], seat[go]] = amount[go]
                continue
            need = answered + amount
            short = go & (need > caster_purse)
            if s.forfeit:  # hard play: a stake he cannot match and he gives up the dice
                forfeit |= short
            ok = go & ~short
            answered[ok] = need[ok]
            amounts[rows[ok], seat[ok]] = amount[ok]
        if forfeit.any():
            lost = live[forfeit]
            _pass(lost, caster, passes, hand, n)
            idle[lost] += 1
            amounts[forfeit] = 0
        played = ~forfeit
        idle[live[played]] = 0
        # the stake decided: the backer (the caster; with a bank each player) wins amount × net
        sign = s.stake_sign[cat]
        for j in np.unique(cat[played & (sign != 0)]):
            here = played & (cat == j)
            stake = amounts[here]
            if s.stake_sign[j] > 0:
                moved = _scale(stake, s.stake_net[j], rounded, stake > 0)
            else:
                moved = -stake
            _settle(s, purses, bank, live[here], c[here], moved)
        # fees from the caster's purse, then the passing table (a forfeited game has neither)
        who, casting = live[played], c[played]
        e = s.ending[cat[played]]
        for f, (amount, nxt, due, _) in enumerate(s.fees):
            state = fee_state[f][who]
            pay = due[state, e]
            fee_state[f][who] = nxt[state, e]
            if pay.any():
                payer, seat = who[pay], casting[pay]
                take = np.minimum(amount, purses[payer, seat])
                purses[payer, seat] -= take
                box[payer] += take
        passes_now = s.passing_passes[hand[who], e]
        hand[who] = s.passing_next[hand[who], e]
        if passes_now.any():
            _pass(who[passes_now], caster, passes, hand, n)
    return Played(purses, bank, box, games, why, rounded[0])


def _scale(x: np.ndarray, factor: Fraction, rounded: list, counted=None) -> np.ndarray:
    """x × factor in whole minor units, rounded down where it does not divide (counted)."""
    out, rest = np.divmod(x * factor.numerator, factor.denominator)
    inexact = rest != 0
    if counted is not None:
        inexact &= counted
    rounded[0] += int(np.count_nonzero(inexact))
    return out


def _stake(s: Setup, purse: np.ndarray, rounded: list, counted) -> np.ndarray:
    """What each setter puts down (Decider.stake), in minor units."""
    if s.strategy == "fraction":  # a tenth of the purse, in whole units where it comes to one or more
        tenth, rest = np.divmod(purse, 10)
        whole = (purse // (10 * s.scale)) * s.scale
        small = tenth < s.scale
        rounded[0] += int(np.count_nonzero(small & (rest != 0) & counted))
        amount = np.where(small, tenth, whole)
    else:
        amount = np.full_like(purse, s.stake)
    if s.strategy == "cautious":  # sits out when he could not stake three times more
        amount = np.where(purse < 3 * amount, 0, amount)
    return np.minimum(amount, purse)


def _settle(s: Setup, purses, bank, sessions, casters, moved) -> None:
    """Move `moved[i, seat]` to the backer of each stake from its layer (negative: the other way)."""
    if s.against_bank:
        purses[sessions] += moved
        bank[sessions] -= moved.sum(axis=1)
        return
    purses[sessions] -= moved
    purses[sessions, casters] += moved.sum(axis=1)


def _pass(sessions, caster, passes, hand, n) -> None:
    caster[sessions] = (caster[sessions] + 1) % n
    passes[sessions] += 1
    hand[sessions] = 0
