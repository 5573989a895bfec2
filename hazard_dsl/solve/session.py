"""Hands and sessions as machines: games strung together, solved exactly with the same solver.

Every game at the table is the same game (whoever holds the box), so a hand or a session is a
chain whose steps are whole games: from the game's exact figures (the chance of each way it can
end, and its expected throws) we build

* the **hand**: states are what `passing` counts (the caster's losses in a row); each game ends
  in some way, which moves the count or passes the dice (absorbing). Expected games per hand are
  the expected visits; throws and the caster's net follow by Wald's identity, games being
  independent of who holds the box.
* the **session to ruin**: states are the purse, in steps of the stake, from one stake to just
  below the goal; each game wins or loses a stake at even money (a push changes nothing). The
  chance of reaching the goal before the purse can no longer stake, and the expected games.

Both chains are solved by `markov.Chain`, exactly.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

from ..compile.machine import THROW, Machine
from ..errors import Arg, ArgumentError
from ..records import record
from .markov import ONE, ZERO, Chain, Solver, TooLargeToSolve

MAX_PURSE_STEPS = 2_000  # purse levels of a ruin chain; beyond, `simulate` is the tool


class SessionError(ValueError):
    """A hand or session that cannot be solved exactly (the dice never pass, too many purses)."""


class SessionArgumentError(SessionError, ArgumentError):
    """A purse, goal or stake given that no session can start from (`Arg('bankroll')`): each
    front end names it (`bankroll`, `--bankroll`)."""


@record(frozen=True)
class GameEndings:
    """How one game ends: {(result, label): probability}, and its expected throws."""

    endings: dict
    throws: Fraction

    def chance(self, result: str) -> Fraction:
        return sum((p for (r, _), p in self.endings.items() if r == result), ZERO)


def game_endings(machine: Machine, policy: str = "optimal", solver: Solver | None = None) -> GameEndings:
    """How the game ends under `policy`; `solver`, when given, is the machine's solver with that
    policy set already (the same figures, without choosing the policy again)."""
    if solver is None:
        solver = Solver(machine)
        solver.set_policy(policy)
    visits = solver.forward()
    parts: dict = {}
    for state in machine.end_states():
        parts.setdefault((state.result, state.label), []).append(state.index)
    endings = {key: visits.total(nodes) for key, nodes in parts.items()}
    throws = visits.total(s for s in visits if machine.states[s].kind == THROW)
    return GameEndings({k: p for k, p in endings.items() if p}, throws)


@record(frozen=True)
class Hand:
    """The caster's time with the box, from taking the dice until they pass."""

    games: Fraction  # expected games per hand
    throws: Fraction  # expected throws per hand
    net: Fraction  # the caster's expected net per hand, staking 1 at even money on every game
    wins: Fraction  # expected games won per hand
    rule: str  # when the dice pass, in words



def hand(machine: Machine, policy: str = "optimal", game: GameEndings | None = None) -> Hand:
    passing = machine.passing
    if passing is None or not passing.ever_passes:
        raise SessionError(f"{machine.ruleset.name}: the dice never pass (the ruleset has no passing: rule that "
                           f"can apply), so a hand never ends; add passing: to the rule file")
    game = game or game_endings(machine, policy)
    rows: dict = {}
    queue, seen = [passing.start], {passing.start}
    while queue:
        state = queue.pop()
        row: dict = {}
        for (result, label), p in game.endings.items():
            after, passes = passing.after_game(state, result, label)
            target = "passed" if passes else after
            row[target] = row.get(target, ZERO) + p
            if not passes and after not in seen:
                seen.add(after)
                queue.append(after)
        rows[state] = row
    try:
        visits = Chain(rows).forward({passing.start: ONE})
    except ArithmeticError:
        raise SessionError(f"{machine.ruleset.name}: with these options no game ends in a way that passes the "
                           f"dice ({passing.says()}), so a hand never ends") from None
    games = visits.total(rows)
    win, lose = game.chance("win"), game.chance("lose")
    return Hand(games, games * game.throws, games * (win - lose), games * win, passing.says())


@record(frozen=True)
class Ruin:
    """A player who casts every game, staking `stake` at even money from `bankroll` until the
    purse reaches `goal` or can no longer stake."""

    bankroll: Fraction
    goal: Fraction
    stake: Fraction
    reach_goal: Fraction
    ruin: Fraction
    games: Fraction  # expected games until one or the other
    unit: str = "unit"
    units: str = "units"  # the unit's plural (the file's `units:`, "pence"), for people



def ruin(machine: Machine, bankroll: Fraction, goal: Fraction, stake: Fraction, policy: str = "optimal",
         game: GameEndings | None = None) -> Ruin:
    bankroll, goal, stake = Fraction(bankroll), Fraction(goal), Fraction(stake)
    if stake <= 0:
        raise SessionArgumentError(Arg("stake"), "must be more than 0")
    if not stake <= bankroll < goal:
        raise SessionArgumentError(Arg("bankroll"), f"must be at least the stake ({stake}) and less than ",
                                   Arg("goal"), f" ({goal})")
    # purses in steps of the stake: level j holds bankroll + j·stake; playing while stake ≤ purse < goal
    lowest = ceil(1 - bankroll / stake)
    highest = ceil((goal - bankroll) / stake) - 1
    if highest - lowest + 1 > MAX_PURSE_STEPS:
        raise SessionError(f"the purse can take {highest - lowest + 1} values between ruin and the goal, more than "
                           f"the {MAX_PURSE_STEPS} an exact solve takes; use a larger stake, or `hazard-dsl "
                           f"simulate`")
    game = game or game_endings(machine, policy)
    win, lose = game.chance("win"), game.chance("lose")
    if not win and not lose:
        raise SessionError(f"{machine.ruleset.name}: no game is won or lost, so the purse never moves")
    push = ONE - win - lose
    rows: dict = {}
    for j in range(lowest, highest + 1):
        row: dict = {}
        for target, p in ((j + 1, win), (j - 1, lose), (j, push)):
            if not p:
                continue
            key = "goal" if target > highest else "ruin" if target < lowest else target
            row[key] = row.get(key, ZERO) + p
        rows[j] = row
    try:
        visits = Chain(rows).forward({0: ONE})
    except TooLargeToSolve:
        raise SessionError("this session is too long to solve exactly; use a larger stake, or `hazard-dsl "
                           "simulate`") from None
    reach = visits.get("goal", ZERO)
    return Ruin(bankroll, goal, stake, reach, ONE - reach, visits.total(rows), machine.ruleset.money_unit,
                machine.ruleset.money_units)


__all__ = ["GameEndings", "Hand", "Ruin", "SessionError", "game_endings", "hand", "ruin"]
