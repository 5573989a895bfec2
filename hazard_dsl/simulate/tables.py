r"""The machine as the simulator's tables: one row per *lane state*, one column per draw.

A lane plays games one after another. Its state is a row of a table `step[row, column]`; each
round every lane draws one whole number below `columns` and moves to `step[row, draw]`. So a
round is one `Generator.integers` draw and one `numpy.take` per throw, whatever the game.

**Columns.** A column is a throw and, where the throw leads to choices, the draws that settle
them. The dice of each throw state are read from `Solver.throw_dice(state)` (the chance of each
of the 36 throws that stand there, as whole weights over a total): a state whose dice weigh
outcome k by w_k over a total W gives it w_k·(T/W) of the T throw columns, T the least common
multiple of every state's total (36 for fair dice), so a uniform draw below T throws those
dice exactly, state by state. A choice under a mixed policy (the chances of its alternatives
over a common denominator L) takes one more digit in base L: column = throw·D + digits, with
D = L^(choices in a row). A pure policy (the optimal one) needs no digit: D = 1.

**Rows.** A row is what the lane must remember: the game's throw state (after any choices),
for the game's own table the throws made so far in this game (its *age*, up to a cap C: "C or
more"), and for bets the state of each bet of a group (waiting, up in a state of its compiled
table, decided). When a throw ends the game the lane goes straight to the first throw state of
its next game (retire-and-replace inside the table) — into a *tagged* row that is that state
together with what just ended: the game's ending (result, label), its length, and for bets the
decisions of a cycle. Tagged rows are numbered after the plain ones, so `row >= first_tag`
finds them, and counting them (`numpy.bincount`) gives every figure.

**Bets** ride in *groups*: a bet and the bets that back it (odds on the pass line). A group
plays *cycles* exactly as `solve.bets` defines a bet's figures: from the start of a game the
bet is made at the first moment it may be, a bet that backs it at the first moment after a
throw while it is up; the game goes on (and starts again while a bet is still up) until every
bet made is decided; the cycle closes at the end of that game and the next one starts with the
next game. Cycles are independent and alike, so their nets are samples of the exact figures.

**Finishing.** A chunk plays exactly its N games: the first N started (in order of the round,
then of the lane). Whether a game is among them depends only on what happened before it
started, so the games kept are independent samples, none favoured for being short. After the
N-th game has started the chunk switches to the `finish` table, in which a game's end (for
bets: the end of every cycle under way) retires the lane into a *done* row instead of
starting another game.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from ..compile.machine import CHOICE, END, THROW, Machine
from ..errors import ArgumentError
from ..records import record

MAX_COLUMNS = 32_767  # a draw fits an int16: the fastest draw NumPy makes
MAX_ENTRIES = 1 << 26  # rows × columns of a table (256 MiB of int32): beyond, refused with a message
MAX_BET_ROWS = 200_000  # lane states of a group of bets
AGE_BUDGET = 1 << 16  # entries the age dimension may take (256 KiB of int32: the table stays in cache)
MIN_AGE, MAX_AGE = 24, 160


class SimulationError(ValueError):
    """A game, policy or bet the simulator cannot play (said plainly, never a traceback)."""


class UnplayableArgument(ArgumentError, SimulationError):
    """A value given (a purse too large for whole minor units) that the simulator cannot play:
    a SimulationError that names its argument, so that each front end words it."""


@record(frozen=True, repr=False)
class Table:
    """A compiled lane table: plain data (NumPy arrays and tuples), so it pickles to worker
    processes and to a Dask cluster as it is."""

    columns: int
    step: np.ndarray  # int32, rows × columns, each entry a row premultiplied by `columns`
    finish: np.ndarray  # the same after the N-th game has started
    first_tag: int  # rows from here on are tagged (an ending, a cycle closed)
    first_done: int  # rows from here on retire the lane (only `finish` leads there)
    start: np.ndarray  # int32: a new lane's row (premultiplied), by the start's choice digits
    start_digits: int  # how many values the start's draw takes (1 without a mixed choice at the start)
    excluded: np.ndarray  # int32 per row: a lane whose new game is not among the N → its row, or -1
    ending: np.ndarray  # int16 per row: the game's ending (index into `endings`) a tagged row records, else -1
    age: np.ndarray  # int16 per row: the length of the game that ended there (cap: `age_cap`), else 0
    cycles: tuple  # per row: for each group, the closed cycle's decisions (a tuple) or None
    endings: tuple  # (result, label) by index
    age_cap: int  # 0: no age kept (the bets' tables)
    mean_throws: float  # the exact expected throws per game (to size the rounds)
    redraws: tuple = (0, 0)  # rows [from, to) reached by a draw thrown away (no throw made)
    # rows [from, to) that end a game beyond the N, played only to close a cycle of bets (a
    # game's table with a group's, `bets.together`): that throw is none of the N games'
    beyond: tuple = (0, 0)

    def __repr__(self) -> str:
        rows = self.step.size // self.columns
        return f"<Table {rows} rows × {self.columns} columns, tags from {self.first_tag}>"

    @property
    def rows(self) -> int:
        return self.step.size // self.columns


# --------------------------------------------------------------------------- the dice and choices


@record(frozen=True)
class Throws:
    """Where each column leads from each throw state: the outcome thrown, the state the throw and
    its choices reach (a throw or end state), and — if that is an end — the first throw state of
    the next game. Shared by the game's table and the bets' tables."""

    columns: int
    outcome: dict  # throw state -> int array: the outcome (0..35) each column throws
    final: dict  # throw state -> int array: the state after the throw and its choices
    restart: dict  # throw state -> int array: where the next game starts (only read where final is an end)
    start: np.ndarray  # the first throw state of a game, by the start's choice digits
    start_digits: int
    rejecting: bool = False  # some columns are drawn again (outcome -1): see throws_of


def _by_target(state, dice) -> tuple:
    """A throw state's throws that lead to the same state, as one: (weights, total, the first
    throw of each) with the weights and the total divided by what they share. Three dice that
    pass on doublets above ten lead to three states, 48, 39 and 129 throws of 216: 16, 13 and 43
    of 72."""
    from math import gcd

    weight: dict = {}
    first: dict = {}
    for k, (step, w) in enumerate(zip(state.steps, dice.weights)):
        if w:
            weight[step.target] = weight.get(step.target, 0) + w
            first.setdefault(step.target, k)
    common = gcd(dice.total, *weight.values())
    return {first[t]: w // common for t, w in weight.items()}, dice.total // common


def throws_of(machine: Machine, solver, by_outcome: bool = True) -> Throws:
    """The columns of every throw state, read from the solver's dice and policy. `by_outcome`
    False (the game alone, no bet reading the throw): throws that lead to the same state are one,
    so that a game whose states split its throws into few shares draws below fewer columns (with
    three dice, below 72 rather than 216) — where that makes fewer columns than the dice's own."""
    states = machine.states
    throw_states = [s.index for s in states if s.kind == THROW]
    dice = {g: solver.throw_dice(g) for g in throw_states}
    total = lcm(*(d.total for d in dice.values())) if dice else machine.dice.total
    grouped = None
    if not by_outcome and dice:
        grouped = {g: _by_target(states[g], d) for g, d in dice.items()}
        fewer = lcm(*(t for _, t in grouped.values()))
        if fewer < total:
            total = fewer
            dice = {g: _Shares(weights, t) for g, (weights, t) in grouped.items()}
        else:
            grouped = None
    rejecting = False
    if total > MAX_COLUMNS // 2:
        # States whose dice weigh over totals with no small common multiple (dice recast where
        # they land off): each state's throws take a whole multiple of its total among the
        # columns, and the columns left over are drawn again (the lane stays where it is, no
        # throw made): exact, at the cost of the draws thrown away.
        total = max(d.total for d in dice.values())
        rejecting = any(total % d.total for d in dice.values())
    base = 1
    for p in (p for row in solver.policy.values() for p in row.values()):
        base = lcm(base, Fraction(p).denominator)
    # choices in a row after a throw, and at the start of a game (each takes a digit when mixed)
    depth: dict = {}

    def chain(s: int) -> int:
        if s in depth:
            return depth[s]
        depth[s] = 0  # the checker refuses choices that lead round for ever; this only guards
        state = states[s]
        if state.kind == CHOICE:
            depth[s] = 1 + max(chain(step.target) for _, step in state.alternatives)
        return depth[s]

    after_throw = max((chain(step.target) for g in throw_states for step in states[g].steps), default=0)
    at_start = chain(machine.start.target)
    if base == 1:
        after_throw = at_start = 0
    throw_digits, start_digits = base ** after_throw, base ** at_start
    digits = throw_digits * start_digits
    columns = total * digits
    if columns > MAX_COLUMNS:
        raise SimulationError(f"these dice and choices need {columns} columns per throw (dice over {total}, "
                              f"choices over {digits}); the simulator takes at most {MAX_COLUMNS}")
    cuts: dict = {}
    for s, state in enumerate(states):
        if state.kind == CHOICE:
            row = solver.policy[s]
            cuts[s] = [(int(p * base), state.alternatives[alt][1].target) for alt, p in sorted(row.items())]

    def resolve(s: int, digit: int) -> int:
        while states[s].kind == CHOICE:
            d, digit = digit % base, digit // base
            for count, target in cuts[s]:
                if d < count:
                    s = target
                    break
                d -= count
        return s

    start = np.array([resolve(machine.start.target, d) for d in range(start_digits)], dtype=np.int64)
    if any(states[s].kind == END for s in start):
        raise SimulationError(f"{machine.ruleset.name}: a game can end before its first throw (its start or a "
                              f"choice there decides it); the simulator plays games of one throw or more")
    outcome, final, restart = {}, {}, {}
    column = np.arange(columns)
    for g in throw_states:
        d = dice[g]
        scale = total // d.total
        if grouped is not None:  # the first throw of each share stands for the others
            of_throw = np.repeat(np.array(list(d.weights), dtype=np.int64), [w * scale for w in d.weights.values()])
        else:
            of_throw = np.repeat(np.arange(len(d.weights)), [w * scale for w in d.weights])  # T entries
        of_throw = np.concatenate([of_throw, np.full(total - len(of_throw), -1)])  # -1: drawn again
        o = of_throw[column // digits]
        r = column % digits
        outcome[g] = o
        targets = np.array([step.target for step in states[g].steps] + [g])[o]
        # resolve each distinct (target, throw digits) once
        memo: dict = {}
        fin = np.empty(columns, dtype=np.int64)
        for c in range(columns):
            if o[c] < 0:
                fin[c] = g  # drawn again: nothing happens
                continue
            key = (int(targets[c]), int(r[c] % throw_digits))
            found = memo.get(key)
            if found is None:
                found = memo[key] = resolve(*key)
            fin[c] = found
        final[g] = fin
        restart[g] = start[r // throw_digits]
    return Throws(columns, outcome, final, restart, start, start_digits, rejecting)


@record(frozen=True)
class _Shares:
    """A throw state's shares (`_by_target`): first throw -> weight, over `total`."""

    weights: dict
    total: int


def endings_of(machine: Machine) -> tuple:
    """The (result, label) pairs a game can end with, in the order the rules first use the labels."""
    order = {label: k for k, label in enumerate(machine.labels())}
    pairs = sorted({(s.result, s.label) for s in machine.end_states()},
                   key=lambda rl: (order.get(rl[1], len(order)), rl))
    return tuple(pairs)


# --------------------------------------------------------------------------- the game's own table


def age_cap_for(machine: Machine, throw_rows: int, columns: int) -> int:
    """Throws counted one by one before "this many or more": as many as keeps the table small."""
    cap = AGE_BUDGET // max(1, throw_rows * columns)
    return max(MIN_AGE, min(MAX_AGE, cap))


def game_table(machine: Machine, solver, mean_throws: float, age_cap: int | None = None,
               throws: Throws | None = None) -> Table:
    """The game alone, with the length of every game: rows (throw state, age) and tagged rows
    (ending, length, first throw state of the next game)."""
    throws = throws or throws_of(machine, solver)
    states = machine.states
    endings = endings_of(machine)
    ending_of = {s.index: endings.index((s.result, s.label)) for s in machine.end_states()}
    throw_states = [s.index for s in states if s.kind == THROW]
    where = {g: i for i, g in enumerate(throw_states)}
    n, cols = len(throw_states), throws.columns
    cap = age_cap or age_cap_for(machine, n, cols)
    starts = sorted({int(s) for s in throws.start} | {int(s) for g in throw_states for s in throws.restart[g]})
    start_at = {g: j for j, g in enumerate(starts)}
    k_count = len(endings)
    ages = cap + 1  # ages 0..cap, cap meaning "cap or more"
    # with draws thrown away (throws_of), a lane that draws again goes to a twin of its row,
    # so that the throws made are the rounds less the visits to the twins
    twins = n * ages if throws.rejecting else 0
    plain = n * ages + twins
    # tagged rows: (ending k, length 1..cap, next game's first state j) — and, finishing, (k, length)
    tag0 = plain
    tags = k_count * cap * len(starts)
    done0 = tag0 + tags
    rows = done0 + k_count * cap
    if rows * cols > MAX_ENTRIES:
        raise SimulationError(f"{machine.ruleset.name}: the simulator's table would have {rows * cols} entries "
                              f"(more than {MAX_ENTRIES})")

    def plain_row(i, a):
        return i * ages + a

    # per throw state and column: (next throw state index, ending k or -1, first state of the next game)
    step = np.empty((rows, cols), dtype=np.int64)
    finish = np.empty((rows, cols), dtype=np.int64)
    a_of = np.arange(ages)
    length = np.minimum(a_of + 1, cap)  # the game's length if it ends on this throw
    for g in throw_states:
        i = where[g]
        fin = throws.final[g]
        ended = np.array([states[int(f)].kind == END for f in fin])
        k = np.array([ending_of.get(int(f), -1) for f in fin])
        nxt_i = np.array([where.get(int(f), 0) for f in fin])
        j = np.array([start_at[int(s)] for s in throws.restart[g]])
        rows_here = plain_row(i, a_of)  # ages × 1
        going = plain_row(nxt_i[None, :], np.minimum(a_of + 1, cap)[:, None])  # ages × cols
        if twins:
            again = throws.outcome[g] < 0
            going = np.where(again[None, :], (rows_here + twins)[:, None], going)
        tagged = tag0 + (k[None, :] * cap + (length[:, None] - 1)) * len(starts) + j[None, :]
        done = done0 + k[None, :] * cap + (length[:, None] - 1)
        step[rows_here] = np.where(ended[None, :], tagged, going)
        finish[rows_here] = np.where(ended[None, :], done, going)
        if twins:
            step[rows_here + twins] = step[rows_here]
            finish[rows_here + twins] = finish[rows_here]
    # a tagged row plays like the first state of the next game at age 0
    for k in range(k_count):
        for length_ in range(1, cap + 1):
            for j, s in enumerate(starts):
                r = tag0 + (k * cap + length_ - 1) * len(starts) + j
                step[r] = step[plain_row(where[s], 0)]
                finish[r] = finish[plain_row(where[s], 0)]
    step[done0:] = 0  # never read: a done lane leaves the chunk
    finish[done0:] = 0
    ending = np.full(rows, -1, dtype=np.int16)
    age = np.zeros(rows, dtype=np.int16)
    excluded = np.full(rows, -1, dtype=np.int32)
    for k in range(k_count):
        for length_ in range(1, cap + 1):
            block = tag0 + (k * cap + length_ - 1) * len(starts)
            ending[block:block + len(starts)] = k
            age[block:block + len(starts)] = length_
            d = done0 + k * cap + length_ - 1
            ending[d], age[d] = k, length_
    excluded[:tag0] = np.arange(tag0) * cols  # a lane that started no new game keeps its state (never asked)
    start = np.array([plain_row(where[int(s)], 0) for s in throws.start], dtype=np.int64)
    return Table(cols, (step * cols).astype(np.int32).ravel(), (finish * cols).astype(np.int32).ravel(),
                 tag0, done0, (start * cols).astype(np.int32), throws.start_digits, excluded, ending, age,
                 (None,) * rows, endings, cap, mean_throws, (n * ages, plain) if twins else (0, 0))
