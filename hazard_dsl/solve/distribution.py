r"""The exact distribution of a session's net: decisions of a plan one after another, for N of
them or until a stop.

Each decision of the plan (`spread.Spread`: {net: chance}) is independent of the ones before,
every one taken from the start of a game, so the session is a random walk on the net. Nets are
whole multiples of one step u (the gcd of the decision's nets) and chances are whole numbers
over one denominator D, so after k decisions the mass on each net is a whole number over D^k:
the walk is carried in Python integers, one convolution a decision, and only the figures
printed become Fractions.

A stop-loss L and a stop-win W end the session as soon as the net is at most −L or at least W
(the net where it stops is kept: a decision can overshoot). With N decisions and no stop, or a
stop, the walk runs for N steps (`session`); with a stop on both sides and no N it runs until
one of them (`until_stop`): an absorbing chain on the nets between, solved by
`markov.Chain`, exactly.

Then P(ahead), P(even), P(behind), quantiles, the expected number of decisions E[T], and by
Wald's identity — each decision's stake and net are independent of whether the session has
stopped before it — the expected coin-in E[T]·E[staked] and the expected net E[T]·E[net]
(checked against the distribution), and the return on the coin-in.

The work is said before it is done: the nets the walk can reach and the steps it takes
(`session_size`) against MAX_SESSION_WORK; beyond, `simulate` is the tool.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor, gcd, lcm

from ..records import field, record
from .markov import ONE, ZERO, Chain, TooLargeToSolve
from .spread import central_moment, mean_of

MAX_SESSION_WORK = 50_000_000  # nets reachable × decisions × outcomes of one decision, for --games N
MAX_STOP_NETS = 2_000  # nets between the stops of a session played until one of them (an exact solve)
QUANTILES = (Fraction(1, 100), Fraction(5, 100), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4),
             Fraction(95, 100), Fraction(99, 100))


class SessionTooLarge(ValueError):
    """A session whose distribution is too much work to compute exactly (said before working)."""


@record(frozen=True)
class SessionNet:
    """The net of a session: {net: probability}, and what it took."""

    outcomes: dict  # net -> probability
    games: int | None  # the decisions asked for (None: until a stop)
    stop_loss: Fraction | None
    stop_win: Fraction | None
    expected_games: Fraction  # expected decisions played
    staked_per_game: Fraction  # expected money staked per decision
    stopped: dict = field(default_factory=dict)  # "loss" / "win" -> chance the session stopped there
    # the same session simulated beside it (simulate.risk.Simulated), when asked for
    simulated: object = field(default=None, repr=False, compare=False)

    # Each figure is summed as whole numbers over the chances' common denominator: a session of
    # N games has chances over D^N, and Fraction's pairwise sums spent seconds in gcd (1,000
    # games of Cotton: 2.8 s of a 3.8 s analyse); the values are the same fractions.
    @property
    def ahead(self) -> Fraction:
        masses, D = _over_common(self.outcomes)
        return Fraction(sum(m for v, m in masses if v > 0), D)

    @property
    def even(self) -> Fraction:
        return self.outcomes.get(ZERO, ZERO)

    @property
    def behind(self) -> Fraction:
        masses, D = _over_common(self.outcomes)
        return Fraction(sum(m for v, m in masses if v < 0), D)

    @property
    def mean(self) -> Fraction:
        return _raw_moment(self.outcomes, 1)

    @property
    def variance(self) -> Fraction:
        return _raw_moment(self.outcomes, 2) - self.mean ** 2

    @property
    def coin_in(self) -> Fraction:
        """The expected total staked over the session (Wald: expected decisions × stake per decision)."""
        return self.expected_games * self.staked_per_game

    @property
    def return_on_coin_in(self) -> Fraction | None:
        """The expected net per unit of coin-in (negative: what the house keeps of the action)."""
        return self.mean / self.coin_in if self.coin_in else None

    def quantile(self, q: Fraction):
        """The least net x with P(net ≤ x) ≥ q."""
        masses, D = _over_common(self.outcomes)
        q = Fraction(q)
        cumulative, goal = 0, q.numerator * D  # cumulative / D ≥ q, in whole numbers
        for v, m in sorted(masses):
            cumulative += m
            if cumulative * q.denominator >= goal:
                return v
        return max(self.outcomes)

    def quantiles(self) -> dict:
        return {q: self.quantile(q) for q in QUANTILES}


def _over_common(outcomes: dict) -> tuple[list, int]:
    """([(value, whole mass)], D): each chance as a whole number over D, the chances' least
    common denominator."""
    D = lcm(*{Fraction(p).denominator for p in outcomes.values()}) if outcomes else 1
    return [(v, Fraction(p).numerator * (D // Fraction(p).denominator)) for v, p in outcomes.items()], D


def _raw_moment(outcomes: dict, k: int) -> Fraction:
    """E[net^k] exactly, as whole numbers over the common denominators of the chances and of
    the nets."""
    if not outcomes:
        return ZERO
    masses, D = _over_common(outcomes)
    B = lcm(*{Fraction(v).denominator for v in outcomes})
    total = sum((Fraction(v) * B) .numerator ** k * m for v, m in masses)
    return Fraction(total, B ** k * D)


def _grid(outcomes: dict) -> tuple[Fraction, int, dict]:
    """(step u, common denominator D, {k: whole weight}) with net = k·u and chance = weight / D."""
    values = [v for v in outcomes if v]
    den = lcm(*(v.denominator for v in values)) if values else 1
    step = Fraction(gcd(*(int(v * den) for v in values)), den) if values else ONE
    D = lcm(*(p.denominator for p in outcomes.values()))
    return step, D, {int(v / step): int(p * D) for v, p in outcomes.items()}


def session_size(outcomes: dict, games: int | None, stop_loss=None, stop_win=None) -> tuple[int, int]:
    """(the work of the exact distribution, its bound), before any of it is done: for N
    decisions, the nets the walk can reach × N × the outcomes of one decision; until a stop,
    the nets between the stops."""
    step, _, weights = _grid(outcomes)
    if games is None:
        return int((Fraction(stop_loss) + Fraction(stop_win)) / step) + 1, MAX_STOP_NETS
    low, high = min(weights), max(weights)
    reach_low, reach_high = games * low, games * high
    if stop_loss is not None:
        reach_low = max(reach_low, floor(-Fraction(stop_loss) / step) + low)
    if stop_win is not None:
        reach_high = min(reach_high, ceil(Fraction(stop_win) / step) + high)
    nets = max(reach_high - reach_low + 1, 1)
    return nets * games * len(weights), MAX_SESSION_WORK


def check_size(outcomes: dict, games: int | None, stop_loss=None, stop_win=None) -> None:
    work, bound = session_size(outcomes, games, stop_loss, stop_win)
    if work > bound:
        what = ("nets between the stops" if games is None
                else "steps of work (nets reachable × decisions × outcomes of one decision)")
        raise SessionTooLarge(f"this session's exact distribution is {work:,} {what}, more than the {bound:,} "
                              f"it is computed for; use fewer games or nearer stops, or `hazard-dsl simulate`")


def session(outcomes: dict, games: int | None, stop_loss=None, stop_win=None,
            staked: Fraction = ONE) -> SessionNet:
    """The net after `games` decisions of a plan whose decision nets `outcomes` ({net: chance}),
    stopping early at a net ≤ −stop_loss or ≥ stop_win where given; with `games` None, until
    one of the two stops (both needed). `staked`: the expected money staked per decision."""
    loss = Fraction(stop_loss) if stop_loss is not None else None
    win = Fraction(stop_win) if stop_win is not None else None
    if loss is not None and loss <= 0 or win is not None and win <= 0:
        raise ValueError("a stop-loss and a stop-win are amounts of money more than 0")
    if games is None:
        if loss is None or win is None:
            raise ValueError("a session without a number of games needs both a stop-loss and a stop-win")
        return until_stop(outcomes, loss, win, staked)
    if games < 0:
        raise ValueError("the number of games is 0 or more")
    check_size(outcomes, games, loss, win)
    step, D, weights = _grid(outcomes)
    items = list(weights.items())
    low = floor(-loss / step) if loss is not None else None  # at or below: stopped for a loss
    high = ceil(win / step) if win is not None else None  # at or above: stopped for a win
    live = {0: 1}
    scale = 1  # the live masses are over D^k
    stopped: dict = {}  # net index -> Fraction
    played = ZERO  # expected decisions: Σ_k P(still playing before decision k)
    for _ in range(games):
        total_live = sum(live.values())
        if not total_live:
            break
        played += Fraction(total_live, scale)
        nxt: dict = {}
        for k, m in live.items():
            for d, w in items:
                nxt[k + d] = nxt.get(k + d, 0) + m * w
        scale *= D
        live = {}
        for k, m in nxt.items():
            if not m:
                continue
            if (low is not None and k <= low) or (high is not None and k >= high):
                stopped[k] = stopped.get(k, ZERO) + Fraction(m, scale)
            else:
                live[k] = m
    final: dict = dict(stopped)
    for k, m in live.items():
        final[k] = final.get(k, ZERO) + Fraction(m, scale)
    kinds = {"loss": sum((p for k, p in stopped.items() if low is not None and k <= low), ZERO),
             "win": sum((p for k, p in stopped.items() if high is not None and k >= high), ZERO)}
    return SessionNet({k * step: p for k, p in sorted(final.items()) if p}, games, loss, win, played, staked,
                      {k: p for k, p in kinds.items() if p})


def until_stop(outcomes: dict, loss: Fraction, win: Fraction, staked: Fraction = ONE) -> SessionNet:
    """Decisions until the net is at most −loss or at least win: an absorbing chain on the nets
    between (`markov.Chain`)."""
    check_size(outcomes, None, loss, win)
    step, _, weights = _grid(outcomes)
    if all(k == 0 for k in weights):
        raise ValueError("no decision of this plan wins or loses, so the session never reaches a stop")
    low, high = floor(-loss / step), ceil(win / step)
    chances = {k: Fraction(w, 1) for k, w in weights.items()}
    D = sum(weights.values())
    rows: dict = {}
    for j in range(low + 1, high):
        row: dict = {}
        for d, w in chances.items():
            t = j + d
            key = ("stop", t) if t <= low or t >= high else t
            row[key] = row.get(key, ZERO) + w / D
        rows[j] = row
    try:
        visits = Chain(rows).forward({0: ONE})
    except TooLargeToSolve:
        raise SessionTooLarge("this session is too long to solve exactly; use nearer stops, or `hazard-dsl "
                              "simulate`") from None
    final = {key[1]: p for key, p in visits.items() if isinstance(key, tuple) and p}
    played = visits.total(rows)
    kinds = {"loss": sum((p for k, p in final.items() if k <= low), ZERO),
             "win": sum((p for k, p in final.items() if k >= high), ZERO)}
    return SessionNet({k * step: p for k, p in sorted(final.items())}, None, loss, win, played, staked,
                      {k: p for k, p in kinds.items() if p})


def even_money(win: Fraction, lose: Fraction, given: str = "games", caster: str = "the caster") -> dict:
    """The decision of a caster staking 1 at even money on every game: {net: chance}. A game
    the caster can neither win nor lose (a bets-only game's banker) is refused naming `given`
    (the setting that asked for the session: games, stop_loss): nothing is staked on it, and
    every front end (analyse, the API's session_net, the web's charts) gives this one refusal."""
    if not win and not lose:
        from ..errors import Arg, ArgumentError

        raise ArgumentError(Arg(given), "needs bets here (", Arg("bets", "NAME", "AMOUNT"), f"): {caster} "
                            "stakes nothing in this game, so only bets make a session's net")
    push = ONE - win - lose
    return {v: p for v, p in ((Fraction(-1), lose), (ZERO, push), (ONE, win)) if p}


__all__ = ["MAX_SESSION_WORK", "MAX_STOP_NETS", "SessionNet", "SessionTooLarge", "check_size", "even_money",
           "session", "session_size", "until_stop"]
