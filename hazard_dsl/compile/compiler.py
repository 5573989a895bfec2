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
from collections.abc import Mapping
from ..records import field, record, replace

from ..diagnostics import Diagnostics, Position, did_you_mean
from ..model import Rule, Ruleset
from ..parse import syntax as ex
from ..parse.numbers import whole_number
from .evaluate import (EvaluationError, Scope, closure, collection_closure, options_read, reads_weights,
                       uses_single_faces)
from .machine import CHOICE, DIE, END, OUTCOMES, THROW, Event, Machine, Recast, State, Step, dice_for, outcome_index
from .rule_index import RuleIndex

MAX_STATES = 20_000
MAX_ALTERNATIVES = 200_000  # over all choice states: each alternative is a step of the machine
MAX_PASS_THROUGH = 10_000  # phases entered one after another without a throw (a countdown)
MAX_REMEMBERED_THROWS = 100_000  # throws kept for other explorations of a ruleset (`Shapes`)
MAX_SHARED_BETS = 256  # compiled bets kept for the other machines of the same exploration (`Shapes`)
MAX_SHARED_BET_NODES = 200_000  # ... and their rows, at most
# Conditions tried while exploring, for one set of option values: a few seconds' work. A game of
# 20,000 states with a few rules a phase needs a fraction of it; a rule file that spells out a
# table in thousands of rules a phase gets through it by guards (`compile.rule_index`).
MAX_RULE_TESTS = 2_000_000


class _Refused(Exception):
    """Exploration cannot go on; the message is already in the diagnostics."""


@record
class Exploration:
    machine: Machine | None = None
    fired: set = field(default_factory=set)  # (phase, rule index)
    entered: set = field(default_factory=set)  # phase names
    unhandled: dict = field(default_factory=dict)  # phase -> [(values, dice)]
    thrown: dict = field(default_factory=dict)  # phase -> [values of each throw state of it]
    too_large: bool = False  # refused for its size: no point exploring other option values
    tests: int = 0  # conditions tried: the work the exploration took
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


class OptionError(ValueError):
    """A user's choice of option values that the ruleset does not offer."""


def resolve_options(ruleset: Ruleset, chosen: dict | None) -> dict:
    """The ruleset's defaults overridden by `chosen` (values already typed)."""
    options = ruleset.default_options()
    for name, value in (chosen or {}).items():
        option = ruleset.options.get(name)
        if option is None:
            known = ", ".join(ruleset.options) or "none"
            raise OptionError(f"{ruleset.name or ruleset.file} has no option {name!r}"
                              f"{did_you_mean(name, ruleset.options)} (options: {known})")
        if value not in option.values:
            raise OptionError(f"option {name!r} has no value {value!r}{did_you_mean(value, option.values)} "
                              f"(values: {', '.join(map(str, option.values))})")
        options[name] = value
    return options


def parse_option_assignments(ruleset: Ruleset, assignments) -> dict:
    """`["main=called", "first_throw=lose"]` → typed option values, with clear errors."""
    chosen = {}
    for text in assignments or ():
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise OptionError(f"--option takes NAME=VALUE, not {text!r}")
        option = ruleset.options.get(name)
        if option is not None and option.type == "int":
            number = whole_number(value)  # ASCII digits: int() would take "٣" for 3
            if number is not None:
                chosen[name] = number
                continue
        chosen[name] = value
    return resolve_options(ruleset, chosen)


class _Compiler:
    def __init__(self, ruleset: Ruleset, options: dict, max_tests: int = MAX_RULE_TESTS, shapes=None):
        self.ruleset = ruleset
        self.max_tests = max_tests
        self.options = options
        self.shapes = shapes  # Shapes: the throws of other explorations of the ruleset (`throw`)
        self._reads = {name: shapes.throw_reads(name, options) for name in ruleset.phases} if shapes else None
        self._made = None  # the state the throw being worked out asked for (`state`), to replay it
        self._fired = self._entered = None  # what it fired and entered, likewise (`_fire`, `enter`)
        self.dice = dice_for(ruleset.dice.loading(options) if ruleset.dice is not None else None)
        self.scope = Scope.of(ruleset.variables, self.dice.by_total())
        self.variables = tuple(ruleset.variables)
        self.index: dict = {}
        self.states: list = []  # dicts while building
        self.queue: deque = deque()
        self.result = Exploration()
        self.diags = self.result.diagnostics
        self._closures: dict = {}
        self._tests: dict = {}  # phase -> RuleIndex of ((condition closure or None, rule), …)
        self.alternatives = 0
        # Phases whose rules read only the total are evaluated once per total, not per face.
        self.by_total = {name: not any(uses_single_faces(r.condition) or uses_single_faces(r.actions)
                                       for r in phase.rules)
                         for name, phase in ruleset.phases.items()}

    def fn(self, expression):
        found = self._closures.get(id(expression))
        if found is None:
            found = self._closures[id(expression)] = closure(expression, self.scope)
        return found

    def set_fn(self, expression):
        key = ("set", id(expression))
        found = self._closures.get(key)
        if found is None:
            found = self._closures[key] = collection_closure(expression, self.scope)
        return found

    # --- errors
    def fail(self, message: str, position: Position | None, hint: str | None = None):
        self.diags.error(message, position, hint)
        raise _Refused

    def where(self, phase: str, values: dict) -> str:
        shown = ", ".join(f"{k} = {v}" for k, v in values.items())
        return f"phase {phase!r}" + (f" with {shown}" if shown else "")

    # --- states
    def state(self, key, kind: str, phase: str, values: dict, **extra) -> int:
        if self._made is not None:  # (values: `run`'s own copy, which it leaves once a state is asked for)
            self._made.append((key, kind, phase, values, extra))
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.states) >= MAX_STATES:
            # the variable taking the most different values is the one that grows
            seen = [set() for _ in self.variables]
            for spec in self.states:
                for k, v in enumerate(spec["values"]):
                    seen[k].add(v)
            counts = {name: len(seen[k]) for k, name in enumerate(self.variables)}
            big = max(counts, key=counts.get, default=None)
            hint = (f"{big!r} has taken {counts[big]} different values (from {min(seen[self.variables.index(big)])} "
                    f"to {max(seen[self.variables.index(big)])}): give it a smaller range under variables:, or "
                    f"reset it" if big else None)
            self.result.too_large = True
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
    def first_rule(self, phase_name: str, values: dict, dice) -> Rule | None:
        index = self._tests.get(phase_name)
        if index is None:  # each phase's conditions as closures, made once: this is the hot loop
            index = self._tests[phase_name] = RuleIndex(tuple(
                (None if rule.condition is None else self.fn(rule.condition), rule)
                for rule in self.ruleset.phases[phase_name].rules), self.variables)
        tests = index.tests_for(values)
        options = self.options
        tried = 0
        try:
            for test, rule in tests:
                tried += 1
                if test is None or test(values, dice, options):
                    return rule
        except EvaluationError as exc:
            self.fail(f"{exc} (in {self.where(phase_name, values)}{_dice_text(dice)})", exc.position)
        finally:
            self.result.tests += tried
            if self.result.tests > self.max_tests:
                self._too_much_work(phase_name)
        return None

    def _too_much_work(self, phase_name: str):
        rules = max(len(p.rules) for p in self.ruleset.phases.values())
        self.result.too_large = True
        self.fail(f"exploring the game tries more than {self.max_tests:,} conditions ({len(self.states):,} states so "
                  f"far, phases of up to {rules:,} rules); hazard-dsl refuses games this large",
                  self.ruleset.phases[phase_name].position,
                  "where a phase has many rules for the values of a variable, begin each condition with the "
                  "value it is for (`when: n == 3 and total == 7`): only those rules are tried; or use fewer "
                  "rules, or smaller ranges")

    def run(self, rule: Rule, start: int, values: dict, dice, events: list, passed: set | None = None) -> Step:
        """Run a rule's actions from action `start`, following `goto`s through phases without a
        throw (a loop, not recursion: a countdown may pass through thousands of them), until
        the game waits for a throw or a choice, or ends. The step names the rule that fired."""
        fired = rule
        values = dict(values)
        passed = set() if passed is None else passed
        number = start
        while True:
            phase = rule.phase
            for number in range(number, len(rule.actions)):
                action = rule.actions[number]
                kind = action.__class__  # (records have no subclasses: the class says what it is)
                if kind is ex.End:
                    return Step(self.end_state(action, phase, values), fired, tuple(events))
                if kind is ex.Assign:
                    try:
                        value = self.fn(action.value)(values, dice, self.options)
                    except EvaluationError as exc:
                        self.fail(f"{exc} (in {self.where(phase, values)})", exc.position)
                    variable = self.ruleset.variables[action.variable]
                    if not variable.allows(value):
                        self.fail(f"set {action.variable} = {value} is outside its range {variable.bounds()} "
                                  f"(in {self.where(phase, values)}{_dice_text(dice)})", action.position)
                    values[action.variable] = value
                    events.append(Event("set", action.variable, value))
                elif kind is ex.Goto:
                    events.append(Event("goto", action.phase))
                    entered = self.enter(action.phase, values, events, passed, action.position)
                    if isinstance(entered, Step):
                        return Step(entered.target, fired, entered.events)
                    rule, number, dice = entered, 0, None
                    break
                elif kind is ex.ThrowAgain:
                    return Step(self.throw_state(phase, values), fired, tuple(events))
                elif kind is ex.Choose:
                    key = (CHOICE, phase, rule.index, number, tuple(values.values()), dice)
                    target = self.state(key, CHOICE, phase, values, chooser=action.role, variable=action.variable,
                                        _pending=(rule, number, dice))
                    return Step(target, fired, tuple(events))
            else:
                return Step(self.throw_state(phase, values), fired, tuple(events))

    def enter(self, phase_name: str, values: dict, events: list, passed: set, position) -> Step | Rule:
        """Enter a phase: a throw state (as a Step) if the dice are thrown there, or else the
        rule that fires at once, without a throw."""
        self.result.entered.add(phase_name)
        if self._entered is not None:
            self._entered.append(phase_name)
        phase = self.ruleset.phases[phase_name]
        if phase.throws:
            return Step(self.throw_state(phase_name, values), None, tuple(events))
        # Without a throw nothing is random: the same phase with the same values again is a
        # loop that never stops; anything else (a countdown) goes on until it stops or is long.
        here = (phase_name, tuple(values.values()))
        if here in passed or len(passed) >= MAX_PASS_THROUGH:
            route = [e.name for e in events if e.kind == "goto"]
            earlier = [k for k, name in enumerate(route[:-1]) if name == phase_name]
            first = earlier[-1] if earlier else max(0, len(route) - 4)
            cycle = route[first:]
            if len(cycle) > 6:
                cycle = cycle[:3] + ["…"] + cycle[-2:]
            shown = ", ".join(f"{k} = {v}" for k, v in values.items())
            if here in passed:
                why = (f"and come back to {phase_name!r} with the same values ({shown})" if shown
                       else f"and come back to {phase_name!r}") + ", so they never stop"
            else:
                why = f"more than {MAX_PASS_THROUGH} times"
            self.fail(f"phases lead to one another without a throw {why}: {' → '.join(cycle)}", position)
        passed.add(here)
        rule = self.first_rule(phase_name, values, None)
        if rule is None:
            self.fail(f"no rule of phase {phase_name!r} applies when {self.where(phase_name, values)}",
                      phase.position, "add an `otherwise:` rule")
        self._fire((phase_name, rule.index))
        return rule

    # --- exploring
    def explore(self) -> Exploration:
        try:
            values = {name: v.initial for name, v in self.ruleset.variables.items()}
            passed: set = set()
            start = self.enter(self.ruleset.start, values, [], passed, None)
            if isinstance(start, Rule):
                start = self.run(start, 0, values, None, [], passed)
            while self.queue:
                number = self.queue.popleft()
                spec = self.states[number]
                if spec["kind"] == THROW:
                    values = dict(zip(self.variables, spec["values"]))
                    self.result.thrown.setdefault(spec["phase"], []).append(values)
                    phase = spec["phase"]
                    # the throws from here in other explorations, by what they read (`throw`)
                    here = self.shapes.throws_from((phase, spec["values"], self._reads[phase])) \
                        if self.shapes is not None else None
                    if self.by_total[phase]:
                        # the first throw of each total stands for the others (2-5 for 5-2 …)
                        first: dict = {}
                        steps = []
                        for dice in OUTCOMES:
                            total = dice[0] + dice[1]
                            if total not in first:
                                first[total] = self.throw(phase, values, dice, here)
                            steps.append(first[total])
                        spec["steps"] = tuple(steps)
                    else:
                        spec["steps"] = tuple(self.throw(phase, values, dice, here) for dice in OUTCOMES)
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
        try:
            recast = self.recast(states)
        except _Refused:
            return self.result
        self.result.machine = Machine(self.ruleset, dict(self.options), self.variables, tuple(states), start,
                                      dice=self.dice, recast=recast)
        return self.result

    # --- dice that land off
    def recast(self, states: list) -> Recast | None:
        """Where each throw state's ways of landing off lead, by the `cocked:` rules: evaluated
        once for each throw state, each die that may be off and each face the other may show."""
        cocked = self.ruleset.cocked
        chance = cocked.chance(self.options) if cocked is not None else 0
        if not chance:
            return None
        names = Scope.of(tuple(self.variables) + ("off", "shown", "phase"), self.dice.by_total())
        tests = tuple((None if rule.condition is None else closure(rule.condition, names), rule)
                      for rule in cocked.rules)
        first = len(states)
        nodes: list = []
        landed: dict = {}
        for state in states:
            if state.kind != THROW:
                continue
            if first + len(nodes) + 24 > MAX_STATES:
                self.result.too_large = True
                self.fail(f"with dice recast the game has more than {MAX_STATES} states; hazard-dsl refuses games "
                          f"this large", cocked.position)
            values = dict(zip(self.variables, state.values))
            targets = [state.index] * 13  # both off: both are thrown again, whatever the rule says
            for die_off in (0, 1, 2):
                for shown in ((0,) if die_off == 0 else range(1, 7)):
                    rule, action = self.off_rule(tests, values, state.phase, 2 if die_off == 0 else 1, shown)
                    if die_off == 0 or action is None or action.ways == ("both",):
                        continue
                    number = first + len(nodes)
                    die = 1 if die_off == 1 else 2
                    outcomes = tuple(outcome_index(g, shown) if die == 1 else outcome_index(shown, g)
                                     for g in range(1, 7))
                    thrown = State(number, DIE, state.phase, state.values, tuple(state.steps[o] for o in outcomes),
                                   die=die, shown=shown, parent=state.index, outcomes=outcomes)
                    if len(action.ways) == 1:  # the off die alone, again and again until it lands
                        nodes.append(replace(thrown, off=number))
                        targets[Recast.way(die_off, shown)] = number
                        continue
                    thrown = replace(thrown, index=number + 1, off=number)
                    alternatives = tuple(
                        (way, Step(number + 1 if way == "off" else state.index, rule,
                                   (Event("choose", "recast", way),)))
                        for way in action.ways)
                    nodes.append(State(number, CHOICE, state.phase, state.values, chooser=action.role or "caster",
                                       variable="recast", alternatives=alternatives, die=die, shown=shown,
                                       parent=state.index))
                    nodes.append(thrown)
                    targets[Recast.way(die_off, shown)] = number
            landed[state.index] = tuple(targets)
        return Recast(chance, tuple(nodes), landed)

    def off_rule(self, tests, values: dict, phase: str, off: int, shown: int):
        """The cocked: rule that applies and its recast (None: recast both, the rule-less default)."""
        if not tests:
            return None, None
        here = {**values, "off": off, "shown": shown, "phase": phase}
        try:
            for test, rule in tests:
                if test is None or test(here, None, self.options):
                    return rule, (rule.actions[0] if rule.actions else None)
        except EvaluationError as exc:
            self.fail(f"{exc} (in cocked: rules, {self.where(phase, values)}, {off} off)", exc.position)
        what = "both dice off" if off == 2 else f"one die off and the other showing {shown}"
        self.fail(f"no cocked: rule applies with {what}, in {self.where(phase, values)}",
                  self.ruleset.cocked.position, "add an `otherwise:` rule")

    def throw(self, phase: str, values: dict, dice, here: dict | None) -> Step:
        """What a throw does from a throw state of `phase`. With `shapes`, a throw worked out in
        another exploration of the ruleset, from the same values under the same values of the
        options it can read (`Shapes.throw_reads`), is replayed rather than worked out again:
        the same rules fire, the same phases are entered, the same conditions are counted and
        the same state is asked for (by its key, so numbered as this exploration numbers it).
        `here`: the throws from this state kept by `Shapes.throws_from`, by their dice."""
        if here is None:
            return self._throw(phase, values, dice)
        found = here.get(dice)
        result = self.result
        if found is not None and result.tests + found[0] <= self.max_tests:
            # within the budget all along (the count only grows), as the throw itself would be
            tests, fired, entered, made, step = found
            result.tests += tests
            result.fired.update(fired)
            result.entered.update(entered)
            if made is None:
                result.unhandled.setdefault(phase, []).append((values, dice))
                return step
            return Step(self.state(*made[:4], **made[4]), step.rule, step.events)
        # what the throw does to the exploration, noted as it happens (a journal, not sets swapped
        # in and out: this runs for every throw of the first exploration, which records them all)
        before = result.tests
        self._fired, self._entered, self._made = fired, entered, made = [], [], []
        try:
            step = self._throw(phase, values, dice)
            if (len(made) == 1 or not made and step.target == -1) and self.shapes.remembered < MAX_REMEMBERED_THROWS:
                here[dice] = (result.tests - before, fired, entered, made[0] if made else None, step)
                self.shapes.remembered += 1
            return step
        finally:
            self._fired = self._entered = self._made = None

    def _throw(self, phase: str, values: dict, dice) -> Step:
        rule = self.first_rule(phase, values, dice)
        if rule is None:
            self.result.unhandled.setdefault(phase, []).append((values, dice))
            return Step(-1, None)
        self._fire((phase, rule.index))
        return self.run(rule, 0, values, dice, [])

    def _fire(self, rule_key: tuple) -> None:
        self.result.fired.add(rule_key)
        if self._fired is not None:  # (a throw recorded for other explorations: `throw`)
            self._fired.append(rule_key)

    def choices(self, spec: dict) -> tuple:
        rule, number, dice = spec["_pending"]
        action = rule.actions[number]
        values = dict(zip(self.variables, spec["values"]))
        try:
            options = self.set_fn(action.collection)(values, dice, self.options).values(action.position)
        except EvaluationError as exc:
            self.fail(f"{exc} (in {self.where(rule.phase, values)})", exc.position)
        if not options:
            self.fail(f"choose {action.variable}: there is nothing to choose from", action.position)
        variable = self.ruleset.variables[action.variable]
        self.alternatives += len(options)
        if self.alternatives > MAX_ALTERNATIVES:
            self.result.too_large = True
            self.fail(f"the game's choices offer more than {MAX_ALTERNATIVES} alternatives in all; hazard-dsl "
                      f"refuses games this large", action.position,
                      "offer fewer values, or give the variables around the choice smaller ranges")
        alternatives = []
        for value in options:
            if not variable.allows(value):
                self.fail(f"choose {action.variable} from … offers {value}, outside its range {variable.bounds()}",
                          action.position)
            chosen = dict(values)
            chosen[action.variable] = value
            events = [Event("choose", action.variable, value)]
            alternatives.append((value, self.run(rule, number + 1, chosen, dice, events)))
        return tuple(alternatives)


def _dice_text(dice) -> str:
    return f", on the throw {dice[0]}-{dice[1]}" if dice else ""


def explore(ruleset: Ruleset, options: dict | None = None, max_tests: int = MAX_RULE_TESTS,
            shared: "Shapes | None" = None) -> Exploration:
    """Explore the game for these option values (defaults where not given), trying at most
    `max_tests` conditions. With `shared` (`Shapes`, kept by the caller), option values that
    differ only in what the exploration never reads share one exploration: the same states,
    rules fired and problems, with the dice and the chance of landing off of their own."""
    options = resolve_options(ruleset, options)
    if shared is None:
        return _Compiler(ruleset, options, max_tests).explore()
    key = shared.key(options)
    found = shared.found.get(key)
    # the same work within a budget no smaller than it took (and not cut short by its own
    # budget): exploring again would try the same conditions in the same order, to the same end
    if found is not None and found[0].tests <= min(max_tests, found[1]):
        result = found[0]
        return replace(result, machine=None if result.machine is None else shared.reshaped(result.machine, options))
    result = _Compiler(ruleset, options, max_tests, shared).explore()
    shared.found[key] = (result, max_tests)
    return result


class Shapes:
    """Explorations of one ruleset shared among option values that explore alike (`explore`).

    Exploring reads of the options only what its rules and its `cocked:` rules read, whether
    dice land off at all, and the dice's loading only where a rule reads its weights
    (`weight(t)`): it follows every one of the 36 throws whatever their chances. Two settings
    that agree on these (`key`) reach the same states, fire the same rules and find the same
    problems; only the chances on the steps differ, which `reshaped` puts in.

    Settings that explore differently still share their throws (`throws`): what a throw does
    from a state of a phase reads, of the options, only those its phase's rules read and those
    of the phases without a throw that it may pass through (`throw_reads`); a throw from the same
    values under the same values of those is the same throw in every exploration."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        rules = tuple(ruleset.rules())
        if ruleset.cocked is not None:
            rules += tuple(ruleset.cocked.rules)
        self.reads = tuple(sorted(options_read(rules)))
        self.weights = ruleset.dice is not None and reads_weights(rules)
        self.found: dict = {}  # key -> (Exploration, the most conditions it could try)
        self.throws: dict = {}  # (phase, values, what it reads) -> {dice: what the throw did} (`_Compiler.throw`)
        self.remembered = 0  # throws kept in `throws`
        self.bets: dict = {}  # (the game's states, bet, what it reads) -> (those states, CompiledBet)
        self._bet_reads: dict = {}  # bet -> (the options it reads, whether it reads the dice's weights)
        self._bet_nodes = 0  # (game state, bet state) rows of the bets kept
        passed = options_read(tuple(r for p in ruleset.phases.values() if not p.throws for r in p.rules))
        self._reads = {name: tuple(sorted(options_read(phase.rules) | passed))
                       for name, phase in ruleset.phases.items()}

    def compiled_bet(self, machine: Machine, bet):
        """`compile_bet` of `bet` with `machine`, once for the machines of one exploration (the
        same states, `reshaped`) under the same values of the options the bet reads (and the
        same dice, where it reads their weights): the bet follows every one of the 36 throws
        whatever their chances, so it is the same bet."""
        from .bets import compile_bet
        from .evaluate import bet_options

        reads = self._bet_reads.get(bet.name)
        if reads is None:
            weights = reads_weights((tuple(r for p in bet.phases.values() for r in p.rules), bet.pays, bet.made,
                                      bet.commission, tuple(bet.multiples.values())))
            reads = self._bet_reads[bet.name] = (tuple(sorted(bet_options(bet))), weights)
        key = (id(machine.states), bet.name, tuple(machine.options.get(name) for name in reads[0]),
               machine.dice if reads[1] else None)
        found = self.bets.get(key)
        if found is not None and found[0] is machine.states:  # (held, so its id is not reused)
            return found[1]
        compiled = compile_bet(machine, bet)
        self._bet_nodes += len(compiled.moves)
        if len(self.bets) >= MAX_SHARED_BETS or self._bet_nodes > MAX_SHARED_BET_NODES:
            self.bets.clear()  # (a long-running server holds what is kept)
            self._bet_nodes = len(compiled.moves)
        self.bets[key] = (machine.states, compiled)
        return compiled

    def throws_from(self, here: tuple) -> dict:
        """The throws kept from a state, (its phase, its values, what its throws read of the
        options): {dice: what the throw did}, filled as they are worked out."""
        return self.throws.setdefault(here, {})

    def throw_reads(self, phase: str, options: dict) -> tuple:
        """The values of the options a throw in `phase` can read (and the dice's loading, where
        a rule reads its weights)."""
        read = tuple(options[name] for name in self._reads[phase])
        return (read, self.ruleset.dice.loading(options)) if self.weights else read

    def key(self, options: dict) -> tuple:
        cocked = self.ruleset.cocked
        return (tuple(options[name] for name in self.reads),
                self.ruleset.dice.loading(options) if self.weights else None,
                bool(cocked.chance(options)) if cocked is not None else None)

    def reshaped(self, machine: Machine, options: dict) -> Machine:
        """`machine`, explored under option values of the same `key` as `options`, under
        `options`: their dice and their chance of a die landing off (no bets, fees or passing)."""
        ruleset = self.ruleset
        dice = dice_for(ruleset.dice.loading(options) if ruleset.dice is not None else None)
        recast = machine.recast
        if recast is not None:
            recast = replace(recast, chance=ruleset.cocked.chance(options))
        return replace(machine, options=dict(options), dice=dice, recast=recast, bets={}, fees={}, passing=None)


def compile_ruleset(ruleset: Ruleset, options: dict | None = None, bets=None, keep: bool = True) -> Machine:
    """The machine for these option values, with the named bets compiled (None: every bet the
    ruleset declares), or RulesetError saying why there is none. A machine compiled before from
    the same rule file (read through `parse.cache`) is loaded rather than compiled again;
    `keep=False` compiles it without the cache (a machine needed once, for a table that is kept
    itself: writing it would cost more than it saves)."""
    from ..parse.cache import compiled

    resolved = resolve_options(ruleset, options)
    if not keep:
        return _compile(ruleset, resolved, bets)
    return compiled(ruleset, resolved, None if bets is None else tuple(bets),
                    lambda: _compile(ruleset, resolved, bets))


# The game explored under each setting of the options it reads, per ruleset (the last few): a
# ruleset's machines under options only its bets, fees or passing read share one exploration
# (`analyse`'s table of each option's effect on the bets, `check`'s bets under such options).
_EXPLORED: dict = {}  # id(ruleset) -> (ruleset, the options its game reads, {their values: game machine})
MAX_EXPLORED_RULESETS = 8
MAX_EXPLORED_GAMES = 16  # per ruleset
MAX_EXPLORED_STATES = 20_000  # a larger game is not kept (a long-running server holds what is kept)


def _game(ruleset: Ruleset, options: dict) -> Machine:
    """The game's machine under `options` (no bets, fees or passing yet), explored once for each
    setting of the options the game reads (`evaluate.game_options`: the others cannot change
    it), and once for the settings that differ only in the dice's chances (`Shapes`);
    RulesetError when it cannot be compiled (never kept: every caller hears it)."""
    from .evaluate import game_options
    from .soundness import machine_problems

    entry = _EXPLORED.get(id(ruleset))
    if entry is None or entry[0] is not ruleset:  # (the ruleset is held, so its id is not reused)
        while len(_EXPLORED) >= MAX_EXPLORED_RULESETS:
            _EXPLORED.pop(next(iter(_EXPLORED)))
        entry = _EXPLORED[id(ruleset)] = (ruleset, frozenset(game_options(ruleset)), {}, Shapes(ruleset))
    key = tuple(sorted((name, value) for name, value in options.items() if name in entry[1]))
    found = entry[2].get(key)
    if found is None:
        shapes = entry[3]
        # (a game that reads no option is explored once: nothing to share, nothing to record)
        result = explore(ruleset, options, shared=shapes if entry[1] else None)
        if result.machine is None or len(result.machine.states) > MAX_EXPLORED_STATES \
                or len(shapes.found) > MAX_EXPLORED_GAMES:  # kept as the machines are, or not at all
            shapes.found.pop(shapes.key(options), None)
            if result.machine is None or len(result.machine.states) > MAX_EXPLORED_STATES:
                shapes.throws.clear()  # (a long-running server holds what is kept)
                shapes.remembered = 0
        diags = Diagnostics(list(result.diagnostics.items))
        if result.machine is not None:  # (the dice decide which throws can come: checked for each)
            diags.extend(machine_problems(ruleset, result))
        diags.raise_if_errors()
        found = result.machine
        if len(entry[2]) < MAX_EXPLORED_GAMES and len(found.states) <= MAX_EXPLORED_STATES:
            entry[2][key] = found
    # its own options, and bets and fees of its own (compiling them fills these dicts)
    return replace(found, options=dict(options), bets={}, fees={})


def _compile(ruleset: Ruleset, options: dict, bets) -> Machine:
    from .bets import compile_fee, count_fee_states
    from .passing import compile_passing

    machine = _game(ruleset, options)
    endings = sorted({(s.result, s.label) for s in machine.end_states()})
    names = tuple(ruleset.bets if bets is None else bets)
    for name in names:
        ruleset.bets[name]  # (an unknown name is the caller's mistake, found now)
    entry = _EXPLORED.get(id(ruleset))
    shapes = entry[3] if entry is not None and entry[0] is ruleset else None
    compiled_bets = CompiledBets(names)
    machine = replace(machine, passing=compile_passing(ruleset.passing, endings, options), bets=compiled_bets)
    compiled_bets.attach(machine, shapes)
    states = 0
    for name, fee in ruleset.fees.items():
        machine.fees[name] = compile_fee(machine, fee)
        states = count_fee_states(states, machine.fees[name])
    return machine


class CompiledBets(Mapping):
    """A machine's bets by name, each compiled against the game (`compile.bets.compile_bet`) the
    first time something reads it: the exact P(win) of craps reads none of its 39 bets, and
    compiling them was four fifths of the time from its rule text to that answer. A bet that
    cannot be compiled raises its RulesetError where it is read, every time it is read.

    `in`, `len` and iterating over the names compile nothing; reading a bet (`[name]`, `get`,
    `items`, `values`) compiles it. A pickled machine (the reading cache, a worker) carries every
    bet compiled: pickling compiles the rest (and fails, so nothing is kept, if one cannot be)."""

    __slots__ = ("_names", "_compiled", "_machine", "_shapes", "_nodes")

    def __init__(self, names=(), compiled: dict | None = None):
        self._names = tuple(names)
        self._compiled = dict(compiled or {})
        self._machine = self._shapes = None
        self._nodes = 0  # (game state, bet state) rows compiled, against MAX_BET_NODES_TOTAL

    def attach(self, machine: Machine, shapes: "Shapes | None") -> None:
        """The machine the bets are compiled against (it holds this mapping, so it is set after)
        and the exploration it came from, whose machines share a compiled bet (`Shapes`)."""
        self._machine, self._shapes = machine, shapes

    def __getitem__(self, name: str):
        found = self._compiled.get(name)
        if found is None:
            if name not in self._names:
                raise KeyError(name)
            found = self._compile(name)
        return found

    def _compile(self, name: str):
        from .bets import compile_bet, count_bet_nodes

        machine = self._machine
        bet = machine.ruleset.bets[name]
        found = self._shapes.compiled_bet(machine, bet) if self._shapes is not None else compile_bet(machine, bet)
        if name not in self._compiled:  # (another thread may have compiled it meanwhile: counted once)
            self._nodes = count_bet_nodes(self._nodes, found)
            self._compiled[name] = found
        return self._compiled[name]

    def get(self, name: str, default=None):
        # (Mapping's own get goes by a KeyError for a name that is not a bet: the table asks often)
        return self[name] if name in self._names else default

    def __contains__(self, name) -> bool:
        return name in self._names

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"<CompiledBets {list(self._names)!r}, {len(self._compiled)} compiled>"

    def __reduce__(self):
        return CompiledBets, (self._names, {name: self[name] for name in self._names})
