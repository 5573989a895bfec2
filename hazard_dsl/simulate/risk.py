r"""Simulated beside exact: a session's net and the length of a hand or a game, drawn at random
and set beside the exact figures of solve.distribution and solve.tails (`analyse --games N
--simulate M`, `--tail N --simulate M`; issue 38).

Games and hands are played on the compiled machine itself, throw by throw: each throw state's
throws (and each choice state's row under the policy) become one row of a table of whole
weights over a common width, and every lane draws a column each step — the same rows the exact
walk pushes its mass through (`tails.whole_rows`), but walked at random, lane by lane, with the
passing rule applied at each game's end. A session of the caster at even money is games played
so; a session of a plan of bets draws each decision's net from the plan's exact distribution of
one decision (`spread.plan_spread`: the chain of every bet made together), so it checks the walk
of the session — its stops, its N-fold sum, the chain until a stop — not that distribution.

Each figure is a mean over independent sessions (or hands), given with its standard error
(the sample's SD over √M) and z = (simulated − exact) / SE. A seed gives the same numbers.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np

from ..compile.machine import END, THROW
from ..records import record

MAX_STEPS = 10_000_000  # decisions of one simulated session, at most (one that never stops is a bug)
MAX_ROUNDS_A_GAME = 100_000  # steps of every lane at once per game asked for, at most
BLOCK = 64  # decisions drawn at a time for a session played until a stop, at most


@record(frozen=True)
class Beside:
    """One figure simulated beside its exact value: the mean over the sample and its SE."""

    exact: Fraction
    mean: float
    se: float

    @property
    def z(self) -> float | None:
        """(simulated − exact) / SE; 0 where both agree with no spread, None where only SE is 0."""
        if not self.se:
            return 0.0 if self.mean == float(self.exact) else None
        return (self.mean - float(self.exact)) / self.se


@record(frozen=True)
class Simulated:
    """Figures simulated beside the exact ones: `count` sessions (or hands, or games) from
    `seed`, {name: Beside} in `figures`, and what each draw was, in words (`how`)."""

    what: str  # "sessions", "hands" or "games"
    count: int
    seed: int
    figures: dict
    how: str


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    n = len(x)
    return float(x.mean()), (float(x.std(ddof=1) / n ** 0.5) if n > 1 else 0.0)


def beside(exact: Fraction, sample: np.ndarray) -> Beside:
    mean, se = _mean_se(np.asarray(sample, dtype=float))
    return Beside(Fraction(exact), mean, se)


class Walker:
    """The machine under a policy as one table of whole weights: `next[s, u]` is where state
    s goes when column u (uniform in 0 … width − 1) is drawn; END states stay where they are."""

    def __init__(self, machine, solver):
        from ..solve.tails import whole_rows

        throws, choices, total, scale = whole_rows(machine, solver)
        self.machine = machine
        self.width = width = lcm(total, scale)
        n = len(machine.states)
        self.next = np.repeat(np.arange(n, dtype=np.int32)[:, None], width, axis=1)
        self.throw = np.zeros(n, dtype=bool)
        self.end = np.array([s.kind == END for s in machine.states])
        for rows, over, thrown in ((throws, total, True), (choices, scale, False)):
            for s, row in rows.items():
                up = width // over
                cut = np.cumsum([w * up for _, w in row])
                if cut[-1] != width:
                    raise ValueError(f"state {s}: its row weighs {cut[-1]}, not {width}")
                self.next[s] = np.array([t for t, _ in row], dtype=np.int32)[np.searchsorted(cut, np.arange(width),
                                                                                              side="right")]
                self.throw[s] = thrown and machine.states[s].kind == THROW
        self.start = machine.start.target
        self.results = [s.result if s.kind == END else None for s in machine.states]
        self.labels = [s.label if s.kind == END else None for s in machine.states]

    def _step(self, state: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self.next[state, rng.integers(0, self.width, size=len(state))]

    def games(self, lanes: int, count: int, rng: np.random.Generator) -> np.ndarray:
        """`count` games one after another on each of `lanes` lanes: the END state each ended in,
        an array (lanes, count)."""
        out = np.zeros((lanes, count), dtype=np.int32)
        state = np.full(lanes, self.start, dtype=np.int32)
        played = np.zeros(lanes, dtype=np.int64)
        live = np.arange(lanes)
        rounds = 0
        while len(live):
            state[live] = self._step(state[live], rng)
            ended = live[self.end[state[live]]]
            if len(ended):
                out[ended, played[ended]] = state[ended]
                played[ended] += 1
                state[ended] = self.start
                live = live[played[live] < count]
            rounds += 1
            if rounds > count * MAX_ROUNDS_A_GAME:  # a game that never ends is a bug, not a wait
                raise ValueError("the simulated games do not end")
        return out

    def lengths(self, lanes: int, cap: int, hand: bool, rng: np.random.Generator) -> np.ndarray:
        """The throws of a hand (`hand`: games until the passing rule passes the dice) or of one
        game, on each of `lanes` lanes; a lane still going after `cap` throws stops there (its
        length is at least `cap`)."""
        passing = self.machine.passing if hand else None
        state = np.full(lanes, self.start, dtype=np.int32)
        count = np.full(lanes, passing.start if passing is not None else 0, dtype=np.int64)
        thrown = np.zeros(lanes, dtype=np.int64)
        live = np.arange(lanes)
        after: dict = {}  # (end state, count) -> (count after, passes)
        rounds = 0
        while len(live):
            was = state[live]
            state[live] = self._step(was, rng)
            thrown[live] += self.throw[was]
            ended = live[self.end[state[live]]]
            done = np.zeros(lanes, dtype=bool)
            if passing is None:
                done[ended] = True
            elif len(ended):  # the passing rule, once for each (end state, count) met this round
                pairs, back = np.unique(np.stack([state[ended], count[ended]]), axis=1, return_inverse=True)
                moved = []
                for s, c in pairs.T:
                    key = (int(s), int(c))
                    if key not in after:
                        after[key] = passing.after_game(key[1], self.results[key[0]], self.labels[key[0]])
                    moved.append(after[key])
                counts = np.array([c for c, _ in moved], dtype=np.int64)[back.ravel()]
                passes = np.array([p for _, p in moved], dtype=bool)[back.ravel()]
                count[ended] = counts
                done[ended[passes]] = True
                state[ended[~passes]] = self.start
            done[live[thrown[live] >= cap]] = True
            live = live[~done[live]]
            rounds += 1
            if rounds > (cap + 1) * MAX_ROUNDS_A_GAME:  # steps without a throw, for ever: a bug
                raise ValueError("the simulated hands do not end")
        return thrown


NETS = {"win": 1, "lose": -1, "push": 0}  # the caster's net at even money, a stake of 1 a game


def session_walks(session, sessions: int, seed: int, machine=None, solver=None, plan=None) -> Simulated:
    """`sessions` sessions like `session` (a `distribution.SessionNet`: its games and stops),
    simulated: on the compiled `machine` under `solver`'s policy (the caster at even money),
    or, with `plan` (a `spread.Spread`), each decision drawn from the plan's exact net. The
    figures of the session beside the exact ones."""
    rng = np.random.default_rng(seed)
    if plan is not None:
        values = list(plan.outcomes)
        chances = np.array([float(plan.outcomes[v]) for v in values])
        nets_of = np.array([float(v) for v in values])

        def draw(lanes: int, k: int) -> np.ndarray:
            return rng.choice(len(values), size=(lanes, k), p=chances / chances.sum())
        how = "each decision's net drawn from the plan's exact distribution of one decision"
    else:
        walker = Walker(machine, solver)
        nets_of = np.array([float(NETS.get(r, 0)) for r in walker.results])

        def draw(lanes: int, k: int) -> np.ndarray:
            return walker.games(lanes, k, rng)
        how = "games played throw by throw on the compiled machine, the caster staking 1 at even money"
    loss = -float(session.stop_loss) if session.stop_loss is not None else None
    win = float(session.stop_win) if session.stop_win is not None else None
    net = np.zeros(sessions)
    played = np.zeros(sessions, dtype=np.int64)
    going = np.ones(sessions, dtype=bool)
    left = session.games
    # until a stop, blocks about as long as the sessions are expected to last: a block much
    # longer draws decisions for sessions already stopped
    block = max(1, min(BLOCK, int(session.expected_games) // 2 or 1))
    while going.any() and (left is None or left > 0):
        lanes = np.flatnonzero(going)
        # at most about 2,000,000 decisions a block, whatever the sessions: memory stays small
        k = max(1, min(block if left is None else left, 2_000_000 // len(lanes)))
        steps = nets_of[draw(len(lanes), k)]
        # sums of floats: a stop (and even, net 0) is met within a rounding of it (1e-9)
        path = net[lanes, None] + np.cumsum(steps, axis=1)
        hit = np.zeros(path.shape, dtype=bool)
        if loss is not None:
            hit |= path <= loss + 1e-9
        if win is not None:
            hit |= path >= win - 1e-9
        first = np.where(hit.any(axis=1), hit.argmax(axis=1), k - 1)
        net[lanes] = path[np.arange(len(lanes)), first]
        played[lanes] += first + 1
        going[lanes[hit.any(axis=1)]] = False
        if left is not None:
            left -= k
        if played.max(initial=0) > MAX_STEPS:
            raise ValueError("the simulated sessions do not reach a stop")
    figures = {"ahead": beside(session.ahead, net > 0), "even": beside(session.even, np.abs(net) < 1e-9),
               "behind": beside(session.behind, net < 0), "mean": beside(session.mean, net),
               "expected_games": beside(session.expected_games, played)}
    if plan is None:  # a stake of 1 every game: the coin-in is the games played, drawn
        figures["coin_in"] = beside(session.coin_in, played * float(session.staked_per_game))
    return Simulated("sessions", sessions, seed, figures, how)


def tail_walks(lengths, sessions: int, seed: int, machine, solver) -> Simulated:
    """`sessions` hands (or games, as `lengths` — a `tails.Lengths` — is of) played on the
    compiled machine, each to its end or to `lengths.throws` throws: P(length ≥ m) at the
    marks shown and at the length asked, and the mean length below the cap, beside the exact."""
    from ..solve.tails import TAIL_MARKS

    rng = np.random.default_rng(seed)
    n = lengths.throws
    thrown = Walker(machine, solver).lengths(sessions, n, lengths.what == "hand", rng)
    marks = sorted({m for m in TAIL_MARKS if m < n} | {n})
    figures = {f"at_least_{m}": beside(lengths.at_least(m), thrown >= m) for m in marks}
    what = "hands" if lengths.what == "hand" else "games"
    how = (f"{what} played throw by throw on the compiled machine"
           + (", the dice passed by the ruleset's passing: rule" if lengths.what == "hand" else ""))
    return Simulated(what, sessions, seed, figures, how)


__all__ = ["Beside", "Simulated", "Walker", "beside", "session_walks", "tail_walks"]
