"""Bets and fees on top of the compiled game machine.

A bet is a small machine of its own, run in step with the game: on each throw its rules read
the throw, the game's variables and phase *before* the throw, how the game ended on it
(`result`, `label`, "none" while it goes on) and the bet's own variables, and either decide
the bet (win with a payout, lose, push) or leave it up in a new bet state. `BetMachine.step`
is that transition; the exact analysis (`solve.bets`) and the table (`play.table`) both use it,
so a bet means the same thing when it is analysed and when it is played.

Money is exact: payouts are `Fraction`s per unit staked. `30 to 1` nets 30; `30 for 1` returns
30 including the stake, so nets 29.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ..diagnostics import Diagnostic, RulesetError
from ..model import Bet, Fee, Ruleset
from ..parse import expressions as ex
from .evaluate import EvaluationError, closure, uses_single_faces
from .machine import CHOICE, END, THROW, Machine, State, outcome_index

MAX_CACHED_STEPS = 1_000_000  # a bet's transitions remembered; beyond this they are recomputed


@dataclass(frozen=True)
class BetState:
    phase: str
    values: tuple  # the bet's own variables, in declaration order
    game: int | None = None  # for a bet with a game of its own: that game's state (a throw state)


@dataclass(frozen=True)
class Decision:
    """How a throw decided a bet: net per unit staked (before commission) and the word for it."""

    result: str  # "win" | "lose" | "push"
    net: Fraction  # +payout on a win, −1 on a loss, 0 on a push
    label: str


def payout_value(kind: str, win, stake, position) -> Fraction:
    if stake <= 0 or win < 0:
        raise EvaluationError(f"a payout of {win} {kind} {stake} makes no sense", position)
    ratio = Fraction(win, stake)
    return ratio if kind == "to" else ratio - 1


def _in_range(owner: str, variables, action, value):
    """The value a `set` puts into a bet's or fee's variable, refused outside its range."""
    variable = variables[action.variable]
    if not variable.allows(value):
        raise RulesetError([Diagnostic(f"{owner}: set {action.variable} = {value} is outside its range "
                                       f"{variable.bounds()}", action.position)])
    return value


class BetMachine:
    """The transitions of one bet, computed on demand and cached."""

    def __init__(self, machine: Machine, bet: Bet):
        self.machine = machine
        self.bet = bet
        self.ruleset: Ruleset = machine.ruleset
        self.options = machine.options
        self.own = tuple(bet.variables)
        scope = set(machine.variables) | set(self.own) | {"phase", "result", "label"}
        self._fn = {}
        self._scope = scope
        self._cache: dict = {}
        self.fired: set = set()  # (phase, rule index) of the bet's rules that have fired
        self.carried_over = False  # seen still up when its game ended (set by whoever runs it)
        own_start = None
        if bet.own_game:
            own_start = machine.start.target
            if machine.states[own_start].kind != THROW:
                raise RulesetError([Diagnostic(
                    f"bet {bet.name!r} plays a game of its own, but the game does not start with a throw "
                    f"(it starts at {machine.states[own_start].describe(machine)})", bet.position,
                    hint="a bet's own game cannot make choices; drop `game: own` and read the table's game")])
        self.start = BetState(bet.start, tuple(v.initial for v in bet.variables.values()), own_start)
        # Rules that read only the total decide 2-5 and 5-2 alike: cache them by total (a bet
        # with a game of its own also follows that game's rules, which may read the faces).
        self.by_total = not any(uses_single_faces(r.condition) or uses_single_faces(r.actions)
                                for p in bet.phases.values() for r in p.rules) and not uses_single_faces(bet.pays)
        if bet.own_game:
            self.by_total = self.by_total and not any(
                uses_single_faces(r.condition) or uses_single_faces(r.actions) for r in machine.ruleset.rules())

    def fn(self, expression, scope=None):
        key = id(expression)
        found = self._fn.get(key)
        if found is None:
            found = self._fn[key] = closure(expression, scope or self._scope)
        return found

    def _values(self, game: State, bet_state: BetState, after: State | None) -> dict:
        values = dict(zip(self.machine.variables, game.values))
        values.update(zip(self.own, bet_state.values))
        values["phase"] = game.phase
        values["result"] = after.result if after is not None and after.kind == END else "none"
        values["label"] = after.label if after is not None and after.kind == END else ""
        return values

    def may_be_made(self, game: State) -> bool:
        if self.bet.made is None:
            return True
        values = dict(zip(self.machine.variables, game.values))
        values["phase"] = game.phase
        return bool(self._eval(self.bet.made, values, None))

    def _eval(self, expression, values, dice):
        try:
            return self.fn(expression)(values, dice, self.options)
        except EvaluationError as exc:
            raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: {exc}", exc.position)]) from None

    def ever_made(self) -> bool:
        """Whether some throw state of the game lets the bet be made (its made: can hold)."""
        return any(s.kind == THROW and self.may_be_made(s) for s in self.machine.states)

    def default_payout(self, game: State, dice=None) -> Fraction:
        """The bet's `pays:` in a game state (what a win would net per unit staked)."""
        values = self._values(game, self.start, None)
        return self._payout(self.bet.pays, values, dice, None, game)

    def _payout(self, payout, values: dict, dice, action, game: State) -> Fraction:
        """A win's net per unit staked; a payout that makes no sense is the rule file's error,
        reported where the win is (the user's own file), with the state it happened in."""
        win, stake = self._eval(payout.win, values, dice), self._eval(payout.stake, values, dice)
        try:
            return payout_value(payout.kind, win, stake, payout.position)
        except EvaluationError as exc:
            shown = ", ".join(f"{n} = {values[n]}" for n in self.machine.variables)
            where = f"in game phase {game.phase!r}" + (f" with {shown}" if shown else "")
            if dice is not None:
                where += f", on the throw {dice[0]}-{dice[1]}"
            position = action.position if action is not None else self.bet.position
            pays = f" (its payout is at {payout.position})" if payout.position.file != position.file else ""
            hint = None
            if self.carried_over:
                hint = ("this bet can still be up when its game ends, and a new game starts with every variable "
                        "at its initial value; decide the bet when the game ends (e.g. `when: result != \"none\"`), "
                        "or make its payout read only what the new game sets")
            raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: {exc} {where}{pays}", position,
                                           hint=hint)]) from None

    def multiple(self, name: str, game: State) -> Fraction:
        """An amount given as a multiple of the backed bet: `2x`, or one the bet names (`3-4-5x`)."""
        values = dict(zip(self.machine.variables, game.values))
        if name in self.bet.multiples:
            return Fraction(self._eval(self.bet.multiples[name], values, None))
        return Fraction(name[:-1])

    def commission_paid(self) -> str | None:
        commission = self.bet.commission
        if commission is None or not commission.rate:
            return None
        return self._eval(commission.paid, {}, None)

    def step(self, game: State, bet_state: BetState, dice: tuple, after: State) -> Decision | BetState:
        """The bet on a throw: decided, or up in a new state. `game` is the table's game before
        the throw and `after` where the throw (and any choices it led to) left it; a bet with a
        game of its own reads that game instead, moved by the same throw."""
        if bet_state.game is not None:
            game = self.machine.states[bet_state.game]
            after = self.machine.states[game.steps[outcome_index(*dice)].target]
            if after.kind == CHOICE:
                raise RulesetError([Diagnostic(
                    f"bet {self.bet.name!r} plays a game of its own, and that game reaches a choice "
                    f"({after.describe(self.machine)}), which a bet's own game cannot make", self.bet.position)])
            key = (None, bet_state, dice[0] + dice[1] if self.by_total else dice, None)
        else:
            key = (game.index, bet_state, dice[0] + dice[1] if self.by_total else dice, after.index)
        found = self._cache.get(key)
        if found is not None:
            return found
        values = self._values(game, bet_state, after)
        result = self._run(bet_state.phase, values, dice, game, after)
        if isinstance(result, BetState) and bet_state.game is not None:
            # its own game goes on, or starts again if it ended with the bet still up
            result = replace(result, game=self.machine.start.target if after.kind == END else after.index)
        if after.kind == END and isinstance(result, BetState):
            self.carried_over = True
        if len(self._cache) < MAX_CACHED_STEPS:
            self._cache[key] = result
        return result

    def _run(self, phase_name: str, values: dict, dice, game: State, after: State):
        phase = self.bet.phases[phase_name]
        for rule in phase.rules:
            if rule.condition is not None and not self._eval(rule.condition, values, dice):
                continue
            self.fired.add((phase_name, rule.index))
            own = dict(values)
            for action in rule.actions:
                if isinstance(action, ex.Assign):
                    own[action.variable] = _in_range(f"bet {self.bet.name!r}", self.bet.variables, action,
                                                     self._eval(action.value, own, dice))
                elif isinstance(action, ex.End):
                    label = action.label
                    if self.bet.own_game and label == action.result and after.kind == END:
                        label = after.label  # a bet that follows its own game speaks the game's words
                    if action.result == "win":
                        net = self._payout(action.payout or self.bet.pays, own, dice, action, game)
                        return Decision("win", net, label)
                    return Decision(action.result, Fraction(-1) if action.result == "lose" else Fraction(0), label)
                elif isinstance(action, ex.Goto):
                    return BetState(action.phase, tuple(own[v] for v in self.own))
                elif isinstance(action, ex.ThrowAgain):
                    break
            return BetState(phase_name, tuple(own[v] for v in self.own))
        raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: no rule of {phase_name!r} handles the throw "
                                       f"{dice[0]}-{dice[1]} in game phase {values['phase']!r}", phase.position,
                                       hint="add an `otherwise: throw again`")])


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
                    values[action.variable] = _in_range(f"fee {self.fee.name!r}", self.fee.variables, action,
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
