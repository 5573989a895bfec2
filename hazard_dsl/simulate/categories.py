"""How a game ends, for the purses at the table: the exact distribution of its *categories*.

What a game does to the purses depends only on how it ends: its result and label (fees, the
dice passing), whether the stakes were laid (the game reached a state where the stake bet may
be made), and how the stake bet was decided (its result and payout, or void if still up when
the game ended). `game_categories` solves the chance of each exactly (`solve.markov.Chain`, on
the game and the stake bet's compiled table under the policy); `simulate.sessions` draws each
session's game whole from it. `categories_on_tape` walks the same transitions along given
throws, which is how the tests check the sessions against the session engine throw for throw.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import END, Machine
from ..records import record
from ..solve.bets import BetTable
from ..solve.markov import ONE, ZERO, Chain

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
