"""Ruleset + option values → `Machine`, by exploring every reachable state.

From the start phase we follow every throw (36 outcomes) and every choice, evaluating the rules
in order: the first rule whose condition holds fires and its actions run left to right
(`set`, `choose`, then `goto`, an ending, or `throw again`). Phases with ``throw: false`` are
passed through at once. Exploration is breadth-first and bounded (`MAX_STATES`), so a rule
file whose variables can grow without limit is refused instead of hanging.

`Exploration` keeps what the checks need beyond the machine: which rules fired, which phases
were entered, and the throws that no rule handles.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..diagnostics import Diagnostics, Position, RulesetError
from ..model import Rule, Ruleset
from ..parse import expressions as ex
from .evaluate import Env, EvaluationError, collection, evaluate
from .machine import CHOICE, END, OUTCOMES, THROW, Event, Machine, State, Step

MAX_STATES = 50_000
MAX_PASS_THROUGH = 64  # phases entered one after another without a throw


class _Refused(Exception):
    """Exploration cannot go on; the message is already in the diagnostics."""


@dataclass
class Exploration:
    machine: Machine | None = None
    fired: set = field(default_factory=set)  # (phase, rule index)
    entered: set = field(default_factory=set)  # phase names
    unhandled: dict = field(default_factory=dict)  # phase -> [(values, dice)]
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


def resolve_options(ruleset: Ruleset, chosen: dict | None) -> dict:
    """The ruleset's defaults overridden by `chosen` (values already typed)."""
    options = ruleset.default_options()
    for name, value in (chosen or {}).items():
        option = ruleset.options.get(name)
        if option is None:
            known = ", ".join(ruleset.options) or "none"
            raise RulesetError([_plain(f"{ruleset.name or ruleset.file} has no option {name!r} (options: {known})")])
        if value not in option.values:
            raise RulesetError([_plain(f"option {name!r} has no value {value!r} (values: {', '.join(map(str, option.values))})")])
        options[name] = value
    return options


def parse_option_assignments(ruleset: Ruleset, assignments) -> dict:
    """`["main=called", "first_throw=lose"]` → typed option values, with clear errors."""
    chosen = {}
    for text in assignments or ():
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise RulesetError([_plain(f"--option takes NAME=VALUE, not {text!r}")])
        option = ruleset.options.get(name)
        if option is not None and option.type == "int":
            try:
                chosen[name] = int(value)
                continue
            except ValueError:
                pass
        chosen[name] = value
    return resolve_options(ruleset, chosen)


def _plain(message: str):
    from ..diagnostics import Diagnostic

    return Diagnostic(message)


class _Compiler:
    def __init__(self, ruleset: Ruleset, options: dict):
        self.ruleset = ruleset
        self.options = options
        self.variables = tuple(ruleset.variables)
        self.index: dict = {}
        self.states: list = []  # dicts while building
        self.queue: deque = deque()
        self.result = Exploration()
        self.diags = self.result.diagnostics

    # --- errors
    def fail(self, message: str, position: Position | None, hint: str | None = None):
        self.diags.error(message, position, hint)
        raise _Refused

    def where(self, phase: str, values: dict) -> str:
        shown = ", ".join(f"{k} = {v}" for k, v in values.items())
        return f"phase {phase!r}" + (f" with {shown}" if shown else "")

    # --- states
    def state(self, key, kind: str, phase: str, values: dict, **extra) -> int:
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.states) >= MAX_STATES:
            big = max(values, key=lambda k: abs(values[k]), default=None)
            hint = (f"give {big!r} a range under variables: (it has reached {values[big]})" if big else None)
            self.fail(f"the game has more than {MAX_STATES} states; hazard-dsl refuses games this large",
                      self.ruleset.phases[phase].position if phase in self.ruleset.phases else None, hint)
        number = len(self.states)
        self.index[key] = number
        self.states.append(dict(index=number, kind=kind, phase=phase,
                                values=tuple(values[v] for v in self.variables), **extra))
        if kind != END:
            self.queue.append(number)
        return number

    def throw_state(self, phase: str, values: dict) -> int:
        return self.state((THROW, phase, tuple(values.values())), THROW, phase, values)

    def end_state(self, action: ex.End, phase: str, values: dict) -> int:
        return self.state((END, action.result, action.label, tuple(values.values())), END, phase, values,
                          result=action.result, label=action.label)

    # --- running rules
    def env(self, values: dict, dice) -> Env:
        return Env(values, self.options, dice)

    def first_rule(self, phase_name: str, values: dict, dice) -> Rule | None:
        env = self.env(values, dice)
        for rule in self.ruleset.phases[phase_name].rules:
            try:
                if rule.condition is None or evaluate(rule.condition, env):
                    return rule
            except EvaluationError as exc:
                self.fail(f"{exc} (in {self.where(phase_name, values)})", exc.position)
        return None

    def run(self, rule: Rule, start: int, values: dict, dice, events: list, depth: int) -> Step:
        values = dict(values)
        phase = rule.phase
        for number in range(start, len(rule.actions)):
            action = rule.actions[number]
            if isinstance(action, ex.Assign):
                try:
                    value = evaluate(action.value, self.env(values, dice))
                except EvaluationError as exc:
                    self.fail(f"{exc} (in {self.where(phase, values)})", exc.position)
                variable = self.ruleset.variables[action.variable]
                if not variable.allows(value):
                    self.fail(f"set {action.variable} = {value} is outside its range {variable.bounds()} "
                              f"(in {self.where(phase, values)}{_dice_text(dice)})", action.position)
                values[action.variable] = value
                events.append(Event("set", action.variable, value))
            elif isinstance(action, ex.Goto):
                events.append(Event("goto", action.phase))
                entered = self.enter(action.phase, values, events, depth + 1, action.position)
                return Step(entered.target, rule, entered.events)
            elif isinstance(action, ex.End):
                return Step(self.end_state(action, phase, values), rule, tuple(events))
            elif isinstance(action, ex.ThrowAgain):
                break
            elif isinstance(action, ex.Choose):
                key = (CHOICE, phase, rule.index, number, tuple(values.values()), dice)
                target = self.state(key, CHOICE, phase, values, chooser=action.role, variable=action.variable,
                                    _pending=(rule, number, dice))
                return Step(target, rule, tuple(events))
        return Step(self.throw_state(phase, values), rule, tuple(events))

    def enter(self, phase_name: str, values: dict, events: list, depth: int, position) -> Step:
        self.result.entered.add(phase_name)
        phase = self.ruleset.phases[phase_name]
        if phase.throws:
            return Step(self.throw_state(phase_name, values), None, tuple(events))
        if depth > MAX_PASS_THROUGH:
            route = " → ".join(e.name for e in events if e.kind == "goto")
            self.fail(f"phases lead to one another without a throw and never stop: {route}", position)
        rule = self.first_rule(phase_name, values, None)
        if rule is None:
            self.fail(f"no rule of phase {phase_name!r} applies when {self.where(phase_name, values)}",
                      phase.position, "add an `otherwise:` rule")
        self.result.fired.add((phase_name, rule.index))
        return self.run(rule, 0, values, None, events, depth)

    # --- exploring
    def explore(self) -> Exploration:
        try:
            values = {name: v.initial for name, v in self.ruleset.variables.items()}
            start = self.enter(self.ruleset.start, values, [], 0, None)
            while self.queue:
                number = self.queue.popleft()
                spec = self.states[number]
                if spec["kind"] == THROW:
                    spec["steps"] = tuple(self.throw(spec["phase"], dict(zip(self.variables, spec["values"])), dice)
                                          for dice in OUTCOMES)
                else:
                    spec["alternatives"] = self.choices(spec)
        except _Refused:
            return self.result
        except RecursionError:  # pragma: no cover - exploration is iterative; a guard all the same
            self.diags.error("the rules are nested too deeply to compile", None)
            return self.result
        states = []
        for spec in self.states:
            spec.pop("_pending", None)
            states.append(State(**spec))
        self.result.machine = Machine(self.ruleset, dict(self.options), self.variables, tuple(states), start)
        return self.result

    def throw(self, phase: str, values: dict, dice) -> Step:
        rule = self.first_rule(phase, values, dice)
        if rule is None:
            self.result.unhandled.setdefault(phase, []).append((values, dice))
            return Step(-1, None)
        self.result.fired.add((phase, rule.index))
        return self.run(rule, 0, values, dice, [], 0)

    def choices(self, spec: dict) -> tuple:
        rule, number, dice = spec["_pending"]
        action = rule.actions[number]
        values = dict(zip(self.variables, spec["values"]))
        try:
            options = collection(action.collection, self.env(values, dice)).values(action.position)
        except EvaluationError as exc:
            self.fail(f"{exc} (in {self.where(rule.phase, values)})", exc.position)
        if not options:
            self.fail(f"choose {action.variable}: there is nothing to choose from", action.position)
        variable = self.ruleset.variables[action.variable]
        alternatives = []
        for value in options:
            if not variable.allows(value):
                self.fail(f"choose {action.variable} from … offers {value}, outside its range {variable.bounds()}",
                          action.position)
            chosen = dict(values)
            chosen[action.variable] = value
            events = [Event("choose", action.variable, value)]
            alternatives.append((value, self.run(rule, number + 1, chosen, dice, events, 0)))
        return tuple(alternatives)


def _dice_text(dice) -> str:
    return f", on the throw {dice[0]}-{dice[1]}" if dice else ""


def explore(ruleset: Ruleset, options: dict | None = None) -> Exploration:
    """Explore the game for these option values (defaults where not given)."""
    return _Compiler(ruleset, resolve_options(ruleset, options)).explore()


def compile_ruleset(ruleset: Ruleset, options: dict | None = None) -> Machine:
    """The machine for these option values, or RulesetError saying why there is none."""
    from ..check.game import machine_problems

    result = explore(ruleset, options)
    diags = Diagnostics(list(result.diagnostics.items))
    if result.machine is not None:
        diags.extend(machine_problems(ruleset, result))
    diags.raise_if_errors()
    return result.machine
