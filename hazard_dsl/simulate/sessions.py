"""Sessions at the table, many at once: purses, stakes laid and covered, fees, the box passing.

`play.session.Session` is the reference: this module follows its rules exactly (the order in
which setters stake from the caster's left, a caster who cannot cover, hard play's forfeit, the
strategies, fees paid from the caster's purse, the passing table), on arrays with one row per
session.

**Whole games.** What a game does to the purses depends only on how it ends, its *category*
(`simulate.categories`: its result and label, whether the stakes were laid, how the stake bet
was decided). The stakes themselves depend only on the purses at the start of the game, which
no throw changes before they are laid. So each session's game is drawn whole from the exact
distribution of the categories, solved once (`categories.game_categories`); a draw per game is
exact in distribution, and the rest is bookkeeping.

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

**One seat to its goal** (`play_to_goal`, issue 38): the same tables, the same draws of whole
games, but a loop of its own, since it follows one seat's purse (the others' never short) until
the goal or ruin rather than every purse for a number of rounds; the seat's stake is set per
lane by a strategy (a progression's state, or the best policy's stake by purse) as
play.strategies sets it at the table.

The module is one piece because both loops read the same `Setup`, the same draws (`_Draws`)
and the same bookkeeping of the caster round, the passing and the fees: split, each half would
import the other's private tables.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from ..compile.machine import Machine
from ..compile.passing import compile_passing
from ..records import record
from ..solve.markov import ONE
# the categories of a game (how it ends, for the purses) are solved in their own module; named
# here too, where the tests and the tapes walk them beside the sessions
from .categories import Category, categories_on_tape, game_categories  # noqa: F401

MAX_SESSION_GAMES = 100_000  # as play.session: a session ends here whatever else happens
VECTORISED = ("flat", "fraction", "cautious")  # the strategies the arrays play (the progressions: play.table)
WHY = ("rounds", "too few players with money left", "no caster could answer the stakes", "the games ran out")


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
    # what a stake moves, per category: amount × stake_times // stake_per (a win: the net's numerator
    # over its denominator; a loss: −1 over 1; a push, void or no stake: 0)
    stake_times: np.ndarray | None = None
    stake_per: np.ndarray | None = None
    category_of: np.ndarray | None = None  # the category of each draw below `denominator`, where that is small


def setup(machine: Machine, solver, players: int, purse: Fraction, stake: Fraction, strategy: str,
          rounds: int, also=()) -> Setup:
    """The session's arrays: the exact categories of a game, the passing and fee tables. `also`:
    more amounts (a goal, a cap) that must be whole numbers of minor units."""
    if strategy not in VECTORISED:
        raise ValueError(f"sessions at the table are simulated with {', '.join(VECTORISED)}, not {strategy!r} "
                         f"(best and the progressions: played at the table by play.strategies, solved exactly by "
                         f"solve.policy and solve.progressions)")
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
                *(f.fee.amount.denominator for f in machine.fees.values()), *(n.denominator for n in nets),
                *(Fraction(a).denominator for a in also if a is not None))
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
        from ..errors import Arg
        from .tables import UnplayableArgument

        raise UnplayableArgument(Arg("purse"), "is too large to simulate in whole minor units")
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
                 tuple(c.stake_net for c in keys), passing_next, passing_passes, tuple(fees), by_lot=by_lot,
                 stake_times=np.array([c.stake_net.numerator if c.stake_result == "win" else
                                       -1 if c.stake_result == "lose" else 0 for c in keys], dtype=np.int64),
                 stake_per=np.array([c.stake_net.denominator if c.stake_result == "win" else 1 for c in keys],
                                    dtype=np.int64),
                 category_of=_lookup(cumulative, denominator))


LOOKUP = 1 << 16  # draws below this many take their category from a table


def _lookup(cumulative: np.ndarray, denominator: int) -> np.ndarray | None:
    """The category of every draw below the denominator (the search made once), when there are few."""
    if not 0 < denominator <= LOOKUP:
        return None
    return np.searchsorted(cumulative, np.arange(denominator), side="right")  # intp: what `take` reads


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


LANES = 1 << 13  # sessions under way at once: enough that NumPy's cost per call vanishes, few enough to stay in cache
# the rows of a lane's state (`play_sessions`): then each seat's purse from the caster round, then each fee's state
CASTER, BANK, BOX, GAMES, PASSES, HAND, IDLE, TAPE, PURSES = range(9)


def play_sessions(s: Setup, sessions: int, rng: np.random.Generator | None = None, categories=None,
                  first=None, lanes: int = LANES) -> Played:
    """Play `sessions` sessions side by side. Each game's category is drawn from the exact
    distribution (or, for a test, taken in turn from `categories`, a list of indices per session),
    and, where the rules cast lots for the first cast, the first caster uniformly (or, for a
    test, `first`: each session's first caster, a seat index).

    As the games' engine plays games in lanes, this plays sessions in `lanes` lanes: a lane whose
    session ends starts the next one, until all have started; then the lanes left finish theirs.
    Every session started is played to its end, so none is favoured for being short. One pass of
    the loop is one game in every lane. A lane's state is a column of one array (the caster, the
    bank, the box, games, passes, the hand's count, passes without a game, the tape's place, the
    purses, the fees' states), so that a session is written out, started or dropped by one
    `take` or one assignment, and every update is made in place on a row. The purses are held
    *from the caster round*: row k is the purse of the k-th seat to the caster's left (the
    caster's own first), so each setter's stake, the caster's answer and the settlement are
    whole rows, never gathered seat by seat; the box passing turns the rows by one. The draws
    are one call per pass for the lanes that play, in lane order, and a new session takes the
    lane and the number next in turn: the same seed, the same sessions."""
    n = s.seats
    out_purses = np.empty((sessions, n), dtype=np.int64)
    out_bank = np.zeros(sessions, dtype=np.int64)
    out_box = np.zeros(sessions, dtype=np.int64)
    out_games = np.zeros(sessions, dtype=np.int64)
    out_why = np.zeros(sessions, dtype=np.int8)
    rounded = [0]
    least = 1 if s.against_bank else 2
    endings = len(s.endings)
    setters = range(0, n) if s.against_bank else range(1, n)
    whole_nets = bool((s.stake_per == 1).all())
    flat = s.strategy == "flat" and (s.against_bank or s.per_unit == 1) and s.stake > 0
    one_hand_state = s.passing_next.shape[0] == 1  # the passing table counts nothing: a hand is one state
    passing_next, passing_passes = s.passing_next.ravel(), s.passing_passes.ravel()
    fees = [(amount, nxt.ravel(), due.ravel()) for amount, nxt, due, _ in s.fees]
    fee0 = PURSES + n
    fresh = np.zeros((fee0 + len(fees), 1), dtype=np.int64)  # a session before its first game
    fresh[PURSES:fee0] = s.purse
    fresh[fee0:, 0] = [start for _, _, _, start in s.fees]
    # a session that ends before its first game (no one with money, no rounds) ends so everywhere
    at_once = 3 if s.max_games <= 0 else 0 if s.rounds * n <= 0 else 1 if (n if s.purse > 0 else 0) < least else -1
    if at_once >= 0 and categories is None:
        out_purses[:] = s.purse
        out_why[:] = at_once
        return Played(out_purses, out_bank, out_box, out_games, out_why, 0)

    def first_casters(count: int, numbers: np.ndarray) -> np.ndarray:
        if first is not None:
            return np.broadcast_to(np.asarray(first, dtype=np.int64), (sessions,))[numbers]
        if s.by_lot:  # each seat alike, whatever the die (the module's docstring)
            return rng.integers(0, n, size=count)
        return 0

    pool = _Draws(s, rng) if categories is None else None
    lanes = sessions if categories is not None else max(1, min(lanes, sessions))
    ids = np.arange(lanes)
    started = lanes
    state = np.repeat(fresh, lanes, axis=1)
    state[CASTER] = first_casters(lanes, ids)
    while ids.size:
        caster, bank, box, games = state[CASTER], state[BANK], state[BOX], state[GAMES]
        passes, hand, idle, tape_at = state[PASSES], state[HAND], state[IDLE], state[TAPE]
        purses, fee_state = state[PURSES:fee0], state[fee0:]
        # the checks of Session._events, in its order
        over = games >= s.max_games
        stuck = idle > n
        round_done = passes >= s.rounds * n
        with_money = (purses > 0).sum(axis=0, dtype=np.int32)
        done = over | stuck | round_done | (with_money < least)
        if categories is not None:  # a tape that ran out ends its session
            done |= np.array([tape_at[j] >= len(categories[i]) for j, i in enumerate(ids)], dtype=bool)
        if done.any():
            # written out; the lane starts the next session, or (all started) is dropped
            ended = np.flatnonzero(done)
            gone = ids.take(ended)
            out_why[gone] = np.where(over.take(ended), 3, np.where(stuck.take(ended), 2, np.where(
                round_done.take(ended), 0, np.where(with_money.take(ended) < least, 1, 3))))
            last = state.take(ended, axis=1)
            out_bank[gone], out_box[gone], out_games[gone] = last[BANK], last[BOX], last[GAMES]
            for k in range(n):  # back from the caster round to the seats
                seat = last[CASTER] + k
                seat[seat >= n] -= n
                out_purses[gone, seat] = last[PURSES + k]
            count = min(ended.size, sessions - started)
            if count:
                new, ended = ended[:count], ended[count:]
                ids[new] = numbers = np.arange(started, started + count)
                started += count
                state[:, new] = fresh
                state[CASTER, new] = first_casters(count, numbers)
            if ended.size:
                keep = np.flatnonzero(~done)
                if count:
                    keep = np.sort(np.concatenate((keep, new)))
                ids, state = ids.take(keep), state.take(keep, axis=1)
                if not ids.size:
                    break
                continue  # the rows' views are of the old array: taken again
        m = ids.size
        caster_purse = purses[0]
        # a caster with nothing left to answer stakes passes the box (and plays no game this pass)
        broke = caster_purse <= 0 if not s.against_bank else None
        if broke is not None and not broke.any():
            broke = None
        playing = m if broke is None else m - int(np.count_nonzero(broke))
        # each game's category: drawn whole (see the module's docstring), or from the tape
        if categories is None:
            drawn = pool.categories(playing)
        else:
            plays = np.flatnonzero(~broke) if broke is not None else np.arange(m)
            drawn = np.array([categories[ids[j]][tape_at[j]] for j in plays], dtype=np.int64)
            tape_at[plays] += 1
        if broke is None:
            cat = drawn
            games += 1
        else:
            cat = np.zeros(m, dtype=np.int64)
            cat[~broke] = drawn
            games += ~broke
        laid = s.laid.take(cat)
        if broke is not None:
            laid &= ~broke
        amounts = np.zeros((n, m), dtype=np.int64)
        forfeit = np.zeros(m, dtype=bool) if s.forfeit else None
        answered = None
        # each backer in turn from the caster's left (with a bank, the caster first)
        for k in setters:
            p = purses[k]
            if flat:  # the stake, or what is left of the purse (nothing: no stake)
                amount = np.minimum(p, s.stake)
                go = laid & (amount > 0)
                if forfeit is not None:
                    go &= ~forfeit
            else:
                go = laid & (p > 0)
                if forfeit is not None:
                    go &= ~forfeit
                if not go.any():
                    continue
                # a setter lays the stake times the payout: he stakes no more than his purse can pay
                limit = p if s.against_bank or s.per_unit == 1 else _scale(p, 1 / s.per_unit, rounded, go)
                amount = np.minimum(_stake(s, p, rounded, go), limit)
                go &= amount > 0
            # (masks multiply rather than select: a random mask makes a selection guess wrong)
            if s.against_bank:
                np.multiply(amount, go, out=amounts[k])
                continue
            need = amount if answered is None else answered + amount
            ok = go & (need <= caster_purse)
            if forfeit is not None:  # hard play: a stake he cannot match and he gives up the dice
                forfeit |= go & ~ok
            np.multiply(amount, ok, out=amounts[k])
            answered = amounts[k].copy() if answered is None else answered + amounts[k]
        if forfeit is not None and forfeit.any():
            amounts[:, forfeit] = 0
        else:
            forfeit = None
        # every lane played its game, but for a forfeit or a caster without money
        played = None if forfeit is None and broke is None else \
            ~forfeit if broke is None else ~broke if forfeit is None else ~forfeit & ~broke
        # the stake decided: the backer (the caster; with a bank each player) wins amount × net
        times = s.stake_times.take(cat)  # net's numerator won, -1 lost, 0 neither
        staked = amounts if s.against_bank else amounts[1:]  # against the caster, he stakes nothing himself
        if whole_nets:
            moved = staked * times
        else:
            moved, rest = np.divmod(staked * times, s.stake_per.take(cat))
            rounded[0] += int(np.count_nonzero((rest != 0) & (staked > 0)))
        if s.against_bank:
            purses += moved
            bank -= moved.sum(axis=0)
        else:
            purses[1:] -= moved
            purses[0] += moved.sum(axis=0) if n > 2 else moved[0]
        # fees from the caster's purse, then the passing table (a forfeited game has neither)
        e = s.ending.take(cat)
        for f, (amount, nxt, due) in enumerate(fees):
            at = fee_state[f] * endings + e
            pay = due.take(at)
            if played is None:
                fee_state[f] = nxt.take(at)
            else:
                pay &= played
                fee_state[f] += (nxt.take(at) - fee_state[f]) * played
            if pay.any():
                take = np.minimum(amount, purses[0]) * pay
                purses[0] -= take
                box += take
        at = e if one_hand_state else hand * endings + e
        passing = passing_passes.take(at)
        if played is None:
            if not one_hand_state:
                hand[:] = passing_next.take(at)
            idle[:] = 0
        else:
            passing &= played
            hand += (passing_next.take(at) - hand) * played
            idle += 1
            idle *= ~played
            passing |= ~played  # a forfeit, or a caster without money
        if passing.any():  # the box passes to the left: the purses turn one seat
            first_row = purses[0].copy()
            for k in range(n - 1):
                purses[k] += (purses[k + 1] - purses[k]) * passing
            purses[n - 1] += (first_row - purses[n - 1]) * passing
            caster += passing
            caster *= caster != n
            passes += passing
            hand *= ~passing
    return Played(out_purses, out_bank, out_box, out_games, out_why, rounded[0])


class _Draws:
    """Each game's category, drawn from the exact distribution: whole numbers below the
    denominator (floats where it is too large) drawn many at a time and handed out in turn, so a
    pass of the loop pays no call of its own to the generator; a draw's category looked up in a
    table where the denominator is small, else searched in the cumulative weights."""

    MANY = 1 << 18

    def __init__(self, s: Setup, rng: np.random.Generator):
        self.s, self.rng = s, rng
        self.kind = np.int32 if 0 < s.denominator < 2 ** 31 else np.int64
        self.pool = self._more(0)
        self.at = 0

    def _more(self, count: int) -> np.ndarray:
        if self.s.denominator:
            return self.rng.integers(0, self.s.denominator, size=max(count, self.MANY), dtype=self.kind)
        return self.rng.random(max(count, self.MANY)) * self.s.cumulative[-1]

    def categories(self, count: int) -> np.ndarray:
        if self.at + count > self.pool.size:
            self.pool = np.concatenate((self.pool[self.at:], self._more(count)))
            self.at = 0
        u = self.pool[self.at:self.at + count]
        self.at += count
        if self.s.category_of is not None:
            return self.s.category_of.take(u)
        return np.searchsorted(self.s.cumulative, u, side="right")


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


# --------------------------------------------------------------------------- one seat to its goal (issue 38)


class ProgressionLanes:
    """A progression's stake in every lane (solve.progressions.Progression, in minor units):
    a lane's state is its number in `states`, and the rule is asked once per distinct (state,
    win or loss, stake) met, never once per lane. What it asks is held at most `most` (the
    goal: a stake is never more than the purse, which is below it)."""

    def __init__(self, rule, most: int):
        self.rule, self.most = rule, most
        self.states, self.known, self.moves = [rule.start], {rule.start: 0}, {}
        self.asks = [min(rule.asks(rule.start), most)]

    def asked(self, state: np.ndarray, purse: np.ndarray) -> np.ndarray:
        return np.asarray(self.asks, dtype=np.int64).take(state)

    def after(self, state: np.ndarray, sign: np.ndarray, laid: np.ndarray) -> np.ndarray:
        keys, back = np.unique(np.stack([state, sign, laid]), axis=1, return_inverse=True)
        return np.array([self._moved(int(a), int(s), int(x)) for a, s, x in keys.T],
                        dtype=np.int64)[back.ravel()]

    def _moved(self, at: int, sign: int, laid: int) -> int:
        if (at, sign, laid) not in self.moves:
            after = self.rule.after(self.states[at], sign, laid)
            if after not in self.known:
                self.known[after] = len(self.states)
                self.states.append(after)
                self.asks.append(min(self.rule.asks(after), self.most))
            self.moves[at, sign, laid] = self.known[after]
        return self.moves[at, sign, laid]


class PolicyLanes:
    """A stake by purse in every lane (the best policy): `by_unit[u]` minor units for a purse
    of u whole units; a purse below one unit stakes what is left (as play.strategies.BestPolicies)."""

    def __init__(self, by_unit: np.ndarray, scale: int):
        self.by_unit, self.scale = by_unit, scale

    def asked(self, state: np.ndarray, purse: np.ndarray) -> np.ndarray:
        units = np.minimum(purse // self.scale, self.by_unit.size - 1)
        return np.where(units < 1, purse, self.by_unit.take(np.maximum(units, 0)))

    def after(self, state: np.ndarray, sign: np.ndarray, laid: np.ndarray) -> np.ndarray:
        return state


@record
class ToGoal:
    """One seat's sessions to its goal: how each ended (1 the goal, 0 ruin, -1 unfinished: past
    the games' bound or the table's rounds), its games and its purse then (minor units)."""

    ended: np.ndarray  # int8 [sessions]
    games: np.ndarray  # int64 [sessions]
    purses: np.ndarray  # int64 [sessions]
    rounded: int


def play_to_goal(s: Setup, seat: int, bankroll: int, goal: int, need: int, rule, sessions: int,
                 rng: np.random.Generator | None = None, advance=None, categories=None, first=None,
                 most_games: int = MAX_SESSION_GAMES) -> ToGoal:
    """`sessions` sessions of seat `seat` at a table where the caster is answered by setters,
    each a lane: the seat from `bankroll` until its purse reaches `goal` or it is ruined (an
    empty purse, or less than `need` when the box is his: what he must answer as caster), the
    other seats never short, each setting `s.stake` flat (commands.strategy_goal, where the
    same sessions are played one by one on play.table). Money in minor units of `s.scale`.

    Each game's category is drawn whole from its exact distribution (the module's docstring)
    or, for a test, taken in turn from `categories` (a list of indices per session); `first`
    gives each session's first caster for a test. When the seat sets, `rule` (ProgressionLanes
    or PolicyLanes) stakes for it as play.strategies does at the table: a progression reads
    his purse against the purse at his last stake (higher a win, lower a loss, the same a
    push, whatever games he cast between), and lays what it asks, at most his purse. When he
    casts, each setter's stake is answered from the caster's left while his purse covers it
    (hard play: he forfeits the dice at the first he cannot match); the fees come from his
    purse. The goal and ruin are judged as a game opens, as commands.strategy_goal.played_to_goal
    judges them."""
    n, E = s.seats, len(s.endings)
    purse = np.full(sessions, bankroll, dtype=np.int64)
    games = np.zeros(sessions, dtype=np.int64)
    ended = np.full(sessions, -1, dtype=np.int8)
    passes = np.zeros(sessions, dtype=np.int64)
    hand = np.zeros(sessions, dtype=np.int64)
    state = np.zeros(sessions, dtype=np.int64)  # the rule's state (a progression's)
    before = np.full(sessions, -1, dtype=np.int64)  # the purse at his last stake (-1: none yet)
    laid_last = np.zeros(sessions, dtype=np.int64)
    fee_states = [np.full(sessions, start, dtype=np.int64) for _, _, _, start in s.fees]
    fees = [(amount, nxt.ravel(), due.ravel()) for amount, nxt, due, _ in s.fees]
    passing_next, passing_passes = s.passing_next.ravel(), s.passing_passes.ravel()
    if first is not None:
        caster = np.broadcast_to(np.asarray(first, dtype=np.int64), (sessions,)).copy()
    elif s.by_lot:  # each seat alike, whatever the die (the module's docstring)
        caster = rng.integers(0, n, size=sessions)
    else:
        caster = np.zeros(sessions, dtype=np.int64)
    tape_at = np.zeros(sessions, dtype=np.int64)
    pool = _Draws(s, rng) if categories is None else None
    rounded = 0
    live = np.arange(sessions)
    while live.size:
        p, c = purse[live], caster[live]
        casting = c == seat
        # as a game opens (played_to_goal's order): the table's rounds, the goal, ruin, the bound
        out = passes[live] >= s.rounds * n
        reached = ~out & (p >= goal)
        ruined = ~out & ~reached & ((p <= 0) | (casting & (p < need)))
        done = out | reached | ruined | (games[live] >= most_games)
        if categories is not None:
            done |= np.array([tape_at[j] >= len(categories[j]) for j in live], dtype=bool)
        if done.any():
            gone = live[done]
            ended[gone] = np.where(reached[done], 1, np.where(ruined[done], 0, -1))
            if advance is not None:
                advance(int(gone.size))
            keep = ~done
            live, p, c, casting = live[keep], p[keep], c[keep], casting[keep]
            if not live.size:
                break
        m = live.size
        if categories is None:
            cat = pool.categories(m)
        else:
            cat = np.array([categories[j][tape_at[j]] for j in live], dtype=np.int64)
            tape_at[live] += 1
        games[live] += 1
        laid = s.laid.take(cat)
        times, per = s.stake_times.take(cat), s.stake_per.take(cat)
        # he casts: each other seat sets s.stake, answered while his purse covers it
        forfeit = casting & laid & (p < (n - 1) * s.stake) if s.forfeit else np.zeros(m, dtype=bool)
        answered = np.where(casting & laid & ~forfeit, np.minimum(n - 1, p // s.stake) if s.stake > 0 else 0, 0)
        won, rest = np.divmod(s.stake * times, per)  # what the caster wins from one setter's stake
        rounded += int(np.count_nonzero((rest != 0) & (answered > 0)))
        gain = answered * won
        # he sets: his stake by the rule, read from his purse as play.strategies reads it
        setting = ~casting & laid
        if setting.any():
            at = live[setting]
            mine = p[setting]
            seen = (before[at] >= 0) & (laid_last[at] > 0)
            if seen.any():
                moved_at = at[seen]
                state[moved_at] = rule.after(state[moved_at], np.sign(mine[seen] - before[moved_at]),
                                             laid_last[moved_at])
            amount = np.maximum(0, np.minimum(rule.asked(state[at], mine), mine))
            before[at], laid_last[at] = mine, amount
            lost, rest = np.divmod(amount * times[setting], per[setting])
            rounded += int(np.count_nonzero((rest != 0) & (amount > 0)))
            gain[setting] -= lost
        p = p + gain
        # the fees, from the caster's purse (his only when he casts); a forfeit has none
        e = s.ending.take(cat)
        played = ~forfeit
        for f, (amount, nxt, due) in enumerate(fees):
            fs = fee_states[f][live]
            at = fs * E + e
            pay = due.take(at) & played & casting
            fee_states[f][live] = np.where(played, nxt.take(at), fs)
            if pay.any():
                p -= np.where(pay, np.clip(p, 0, amount), 0)
        purse[live] = p
        # the passing table; a forfeit passes the box
        h = hand[live]
        at = h * E + e
        passing = (passing_passes.take(at) & played) | forfeit
        h = np.where(played, passing_next.take(at), h)
        h[passing] = 0
        hand[live] = h
        if passing.any():
            moved = live[passing]
            caster[moved] = (caster[moved] + 1) % n
            passes[moved] += 1
    return ToGoal(ended, games, purse, rounded)


# --------------------------------------------------------------------------- one purse, a stake rule (issue 38)

def purse_walks(outcomes: dict, stake_of, after, start, bankroll: int, goal: int, sessions: int,
                rng: np.random.Generator, most_games: int = 1_000_000) -> dict:
    """Monte Carlo of one player's sessions from `bankroll` until the purse reaches `goal` or is
    empty, each game's net drawn from `outcomes` ({r: p}, r stakes), the stake from
    `stake_of(purse, state)` and the rule's next state from `after(state, r, staked)` (a policy:
    `state` unused; a progression: its own). Whole units of money. Returns the share of sessions
    that reached the goal, the mean games, the mean net and the mean coin-in, with their standard
    errors, to set beside the exact chain (solve.policy, solve.progressions)."""
    values = list(outcomes)
    chances = np.array([float(outcomes[r]) for r in values])
    reached, games, nets, staked = np.zeros(sessions), np.zeros(sessions), np.zeros(sessions), np.zeros(sessions)
    for k in range(sessions):
        purse, state, played, laid = bankroll, start, 0, 0
        while 0 < purse < goal and played < most_games:
            draws = rng.choice(len(values), size=256, p=chances)
            for d in draws:
                s = stake_of(purse, state)
                r = values[d]
                purse += s * r
                laid += s
                played += 1
                state = after(state, r, s)
                if not 0 < purse < goal:
                    break
        reached[k], games[k], nets[k], staked[k] = purse >= goal, played, purse - bankroll, laid
    root = max(sessions, 1) ** 0.5

    def mean_se(x):
        return float(x.mean()), float(x.std(ddof=1) / root) if sessions > 1 else 0.0

    return {"sessions": sessions, "reach_goal": mean_se(reached), "games": mean_se(games), "net": mean_se(nets),
            "staked": mean_se(staked)}
