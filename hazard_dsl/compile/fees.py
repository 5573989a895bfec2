"""Fees on top of the compiled game machine: a box fee, a charge every so many games.

A fee's rules run once at the end of each game: they keep count in the fee's own variables and
say when it falls due (`pay`). `compile_fee` runs them once for every state its counters reach
and every way a game can end, and keeps the outcome as data, a `CompiledFee`, which the exact
analysis (`solve`) and the table (`play.wagers`) read; neither re-reads the rules. Apart from
bets (`compile.bets`): a fee reads only how each game ended, never a throw.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, RulesetError
from ..model import Fee, Ruleset
from ..parse import syntax as ex
from ..records import record
from .bets import counted, in_range
from .evaluate import EvaluationError, closure
from .machine import Machine

# A fee's counters, over every way games can end: `analyse` solves the fee's chain exactly, with
# work that grows as the cube of its states (100 take a second or two; 1,000 took hours). Real
# fees count to 3 or so (Hoyle's box: three mains in succession).
MAX_FEE_STATES = 100
MAX_FEE_STATES_TOTAL = 1_000  # all the fees of a rule file together


class FeeMachine:
    """A fee's rules, run once at the end of each game: they keep count and say when to pay."""

    def __init__(self, ruleset: Ruleset, fee: Fee, options: dict):
        self.fee = fee
        self.options = options
        self.own = tuple(fee.variables)
        self.start = tuple(v.initial for v in fee.variables.values())
        self._fn: dict = {}
        self._scope = set(self.own) | {"result", "label"}

    def at_game_end(self, state: tuple, result: str, label: str) -> tuple[tuple, bool]:
        """The fee's new state and whether it falls due on this game."""
        values = dict(zip(self.own, state))
        values["result"], values["label"] = result, label
        for rule in self.fee.rules:
            if rule.condition is not None and not self._call(rule.condition, values):
                continue
            pays = False
            for action in rule.actions:
                if isinstance(action, ex.Assign):
                    values[action.variable] = in_range(f"fee {self.fee.name!r}", self.fee.variables, action,
                                                        self._call(action.value, values))
                elif isinstance(action, ex.Pay):
                    pays = True
            return tuple(values[v] for v in self.own), pays
        return state, False

    def _call(self, expression, values):
        key = id(expression)
        fn = self._fn.get(key)
        if fn is None:
            fn = self._fn[key] = closure(expression, self._scope)
        try:
            return fn(values, None, self.options)
        except EvaluationError as exc:
            raise RulesetError([Diagnostic(f"fee {self.fee.name!r}: {exc}", exc.position)]) from None


@record(frozen=True, repr=False)
class CompiledFee:
    """A fee's rules run once for each of its states and each way a game can end."""

    fee: Fee
    start: tuple  # the fee's variables before the first game
    moves: dict  # (fee state, result, label) -> (fee state after that game, whether it falls due)

    def __repr__(self) -> str:
        return f"<CompiledFee {self.fee.name!r}: {len({s for s, _, _ in self.moves})} states>"

    def at_game_end(self, state: tuple, result: str, label: str) -> tuple[tuple, bool]:
        """The fee's new state and whether it falls due on this game."""
        return self.moves[state, result, label]


def compile_fee(machine: Machine, fee: Fee) -> CompiledFee:
    """Run the fee's rules from every state its counters reach, after every way a game can end:
    a counter set outside its range, a division by zero, are found here, not at the table."""
    fm = FeeMachine(machine.ruleset, fee, machine.options)
    endings = sorted({(s.result, s.label) for s in machine.end_states()})
    moves: dict = {}
    seen, queue = {fm.start}, [fm.start]
    while queue:
        state = queue.pop()
        for result, label in endings:
            after, due = moves[state, result, label] = fm.at_game_end(state, result, label)
            if after not in seen:
                if len(seen) >= MAX_FEE_STATES:
                    raise RulesetError([Diagnostic(f"fee {fee.name!r} has more than {MAX_FEE_STATES} states",
                                                   fee.position, hint="give its counters smaller ranges")])
                seen.add(after)
                queue.append(after)
    return CompiledFee(fee, fm.start, moves)


def count_fee_states(total: int, compiled: "CompiledFee") -> int:
    """`total` fee states compiled so far, with this fee's added; a RulesetError naming the fee
    that goes past MAX_FEE_STATES_TOTAL."""
    return counted(total + len({state for state, _, _ in compiled.moves}), MAX_FEE_STATES_TOTAL, RulesetError,
                    f"the fees have more than {MAX_FEE_STATES_TOTAL:,} states in all (fee {compiled.fee.name!r} "
                    f"goes past it)", compiled.fee.position, "fewer fees, or smaller ranges for their counters")
