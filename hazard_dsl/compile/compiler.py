"""Ruleset + option values → `Machine`, by exploring every reachable state.

From the start phase we follow every throw (36 outcomes) and every choice, evaluating the rules
in order: the first rule whose condition holds fires and its actions run left to right
(`set`, `choose`, then `goto`, an ending, or `throw again`). Phases with ``throw: false`` are
passed through at once. Exploration is breadth-first and bounded (`MAX_STATES`), so a rule
file whose variables can grow without limit is refused instead of hanging.

`Exploration` keeps what the checks need beyond the machine: which rules fired, which phases
were entered, and the throws that no rule handles.

`compile_ruleset` is `compile_game` (the game explored, its fees, when the dice pass) then
`compile_bets` (the bets asked for, and only those: the game's own figures ask for none).
What one compilation can lend the next under other option values is held by the caller, in an
`Explorations` (`compile.explorations`); this module keeps nothing between calls.

One piece (some 640 lines) because the walk is the hot loop of every analysis: a throw's rule,
its actions, the states it asks for and the refusals on the way share the explorer's tables,
as methods of one class, without a call across modules for each throw.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import product
from operator import itemgetter

from ..records import field, fields, record, replace

from ..diagnostics import Diagnostics, Position
from ..model import Rule, Ruleset, dice_shape
from ..parse import syntax as ex
from .evaluate import EvaluationError, Scope, closure, collection_closure, reads_throw, throw_kind
from .explorations import Explorations, Found, Replay, Shapes
from .options import OptionError, parse_option_assignments, resolve_options  # noqa: F401 - importers' names
from .machine import CHOICE, DIE, END, THROW, Event, Machine, Recast, State, Step, dice_for, index_of
from .rule_index import RuleIndex

MAX_STATES = 20_000
# Every throw state holds a step for each throw of the dice: states × throws is bounded too (two
# dice reach MAX_STATES first; four dice, 1,296 throws, stop at 3,086 states).
MAX_THROW_STEPS = 4_000_000
MAX_ALTERNATIVES = 200_000  # over all choice states: each alternative is a step of the machine
MAX_PASS_THROUGH = 10_000  # phases entered one after another without a throw (a countdown)
# Conditions tried while exploring, for one set of option values: a few seconds' work. A game of
# 20,000 states with a few rules a phase needs a fraction of it; a rule file that spells out a
# table in thousands of rules a phase gets through it by guards (`compile.rule_index`).
MAX_RULE_TESTS = 2_000_000
# The actions that read nothing at all: what they do is the same for every throw (`_blind`).
_READ_NOTHING = frozenset({ex.End, ex.Goto, ex.ThrowAgain})


def _off_words(off: tuple, kept: tuple) -> str:
    """Dice off in words, for an error: "both dice off", "one die off and the other showing 4",
    "two dice off and the other showing 4", "one die off and the others showing 4 and 5"."""
    from ..model import NUMBER_WORDS

    if not kept:
        return "both dice off" if len(off) == 2 else f"all {NUMBER_WORDS[len(off)]} dice off"
    dice = "one die" if len(off) == 1 else f"{NUMBER_WORDS[len(off)]} dice"
    others = "the other" if len(kept) == 1 else "the others"
    shown = str(kept[0]) if len(kept) == 1 else ", ".join(map(str, kept[:-1])) + f" and {kept[-1]}"
    return f"{dice} off and {others} showing {shown}"


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


class _Compiler:
    def __init__(self, ruleset: Ruleset, options: dict, max_tests: int = MAX_RULE_TESTS, shapes=None):
        self.ruleset = ruleset
        self.max_tests = max_tests
        self.options = options
        self.shapes = shapes  # Shapes: the throws of other explorations of the ruleset (`throw`)
        self._reads = {name: shapes.throw_reads(name, options) for name in ruleset.phases} if shapes else None
        self._made = None  # the state the throw being worked out asked for (`state`), to replay it
        self._fired = self._entered = None  # what it fired and entered, likewise (`_fire`, `enter`)
        self.dice = dice_for(ruleset.dice.loading(options) if ruleset.dice is not None else None, dice_shape(ruleset))
        self.outcomes = self.dice.outcomes
        self.max_states = min(MAX_STATES, MAX_THROW_STEPS // len(self.outcomes))
        self.scope = Scope.of(ruleset.variables, self.dice.by_total(), self.dice)
        self.variables = tuple(ruleset.variables)
        self.index: dict = {}
        self.states: list = []  # dicts while building
        self.queue: deque = deque()
        self.result = Exploration()
        self.diags = self.result.diagnostics
        self._closures: dict = {}
        self._tests: dict = {}  # phase -> RuleIndex of ((condition closure or None, rule), …)
        self.alternatives = 0
        # Throws no rule of a phase tells apart are worked out once: a phase whose rules read only
        # the total, once per total; one whose rules read no single die (die1…), once per kind
        # of throw (its faces as a multiset: 21 for two dice, 56 for three, 126 for four).
        self.alike = {name: throw_kind(phase.rules) for name, phase in ruleset.phases.items()}
        self._kinds: dict = {}  # kind of throw -> each throw's (`kinds`)
        self._spreads: dict = {}  # id of a kind's places -> their item getter (`_spread`)
        self._blind_rules: dict = {}  # id of a rule -> whether no throw changes what it does (`_blind`)

    def kinds(self, kind) -> tuple:
        """The throws that stand for the others under `kind` (`throw_kind`: a throw's total, or
        its faces as a multiset), each the first of its kind, in the order of the throws; and
        for each throw, the place of its kind's among them. Worked out once per exploration,
        not once per throw state."""
        found = self._kinds.get(kind)
        if found is None:
            firsts: list = []
            place: dict = {}
            places = []
            for dice in self.outcomes:
                key = kind(dice)
                at = place.get(key)
                if at is None:
                    at = place[key] = len(firsts)
                    firsts.append(dice)
                places.append(at)
            found = self._kinds[kind] = (tuple(firsts), tuple(places))
        return found

    def _spread(self, places: tuple):
        """A function from the steps of the throws that stand for the others to the steps of
        every throw (each its kind's: `kinds`), as a tuple, by C's item getter."""
        found = self._spreads.get(id(places))  # (a kind's places, kept by `kinds` all along)
        if found is None:
            found = self._spreads[id(places)] = itemgetter(*places) if len(places) > 1 else \
                (lambda made: (made[places[0]],))
        return found

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
        if self._made is not None:  # (values: never changed after: `run` copies before a `set`)
            self._made.append((key, kind, phase, values, extra))
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.states) >= self.max_states:
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
            with_dice = "" if self.max_states == MAX_STATES else \
                f" (with {len(self.outcomes):,} throws of the dice each, {MAX_THROW_STEPS:,} steps in all)"
            self.fail(f"the game has more than {self.max_states} states{with_dice}; hazard-dsl refuses games "
                      f"this large",
                      self.ruleset.phases[phase].position if phase in self.ruleset.phases else None, hint)
        number = len(self.states)
        self.index[key] = number
        self.states.append(dict(index=number, kind=kind, phase=phase,
                                values=tuple(map(values.__getitem__, self.variables)), **extra))
        if kind != END:
            self.queue.append(number)
        return number

    def throw_state(self, phase: str, values: dict) -> int:
        key = (THROW, phase, tuple(values.values()))
        if self._made is None:  # a state already made, found without `state`'s call: most throws
            found = self.index.get(key)
            if found is not None:
                return found
        return self.state(key, THROW, phase, values)

    def end_state(self, action: ex.End, phase: str, values: dict) -> int:
        key = (END, action.result, action.label, tuple(values.values()))
        if self._made is None:  # (as `throw_state`)
            found = self.index.get(key)
            if found is not None:
                return found
        return self.state(key, END, phase, values, result=action.result, label=action.label)

    # --- running rules
    def first_rule(self, phase_name: str, values: dict, dice) -> Rule | None:
        return self._first(self.tests_for(phase_name, values), phase_name, values, dice)

    def tests_for(self, phase_name: str, values: dict) -> tuple:
        """The (test, rule) pairs of a phase that can fire in a state with these values, in
        order (`RuleIndex`); the same for every throw from the state."""
        index = self._tests.get(phase_name)
        if index is None:  # each phase's conditions as closures, made once: this is the hot loop
            index = self._tests[phase_name] = RuleIndex(tuple(
                (None if rule.condition is None else self.fn(rule.condition), rule)
                for rule in self.ruleset.phases[phase_name].rules), self.variables)
        return index.tests if index.variable is None else index.tests_for(values)

    def _first(self, tests: tuple, phase_name: str, values: dict, dice) -> Rule | None:
        """The first rule of `tests` (`tests_for`) whose condition holds for this throw, or None."""
        options = self.options
        tried = 0
        found = None
        try:
            for test, rule in tests:
                tried += 1
                if test is None or test(values, dice, options):
                    found = rule
                    break
        except EvaluationError as exc:
            try:
                self.fail(f"{exc} (in {self.where(phase_name, values)}{_dice_text(dice)})", exc.position)
            finally:  # (counted, and the budget checked, after the error as on every other way out)
                self._count(tried, phase_name)
        result = self.result  # (`_count`, inline: once per throw)
        result.tests += tried
        if result.tests > self.max_tests:
            self._too_much_work(phase_name)
        return found

    def _count(self, tried: int, phase_name: str) -> None:
        result = self.result
        result.tests += tried
        if result.tests > self.max_tests:
            self._too_much_work(phase_name)

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
        own = False  # values copied on the first `set` only: most throws set nothing
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
                    if not own:
                        values, own = dict(values), True
                    values[action.variable] = value
                    events.append(Event("set", action.variable, value))
                elif kind is ex.Goto:
                    events.append(Event("goto", action.phase))
                    if passed is None:
                        passed = set()
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
                    kind = self.alike[phase]
                    firsts, places = self.kinds(kind) if kind is not None else (self.outcomes, None)
                    if here is None:  # (nothing to replay or record: the throw alone)
                        same: dict = {}  # the steps of this state that no throw changes (`_throw`)
                        tests = self.tests_for(phase, values)
                        made = [self._throw(phase, values, dice, same, tests) for dice in firsts]
                    else:
                        made = [self.throw(phase, values, dice, here) for dice in firsts]
                    # the first throw of each kind stands for the others (2-5 for 5-2 …), worked
                    # out in the order of the throws (so states are numbered alike)
                    spec["steps"] = tuple(made) if places is None else self._spread(places)(made)
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
            states.append(_state(spec))
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
        once for each throw state and each way (`compile.recasts.ways`: the dice off, the faces
        the others show), for any number of dice."""
        from .recasts import steps_per_throw_state, ways

        cocked = self.ruleset.cocked
        chance = cocked.chance(self.options) if cocked is not None else 0
        if not chance:
            return None
        count, sides = self.dice.count, self.dice.sides
        every = ways(count, sides)
        throws = sum(state.kind == THROW for state in states)
        # the bound said before any work: a recast state's steps grow with the faces kept
        per_state = steps_per_throw_state(count, sides)
        if throws * (per_state + len(self.outcomes)) > MAX_THROW_STEPS:
            self.result.too_large = True
            self.fail(f"with dice recast the game has more than {MAX_THROW_STEPS:,} steps: {throws:,} throw "
                      f"states, each with {len(self.outcomes):,} throws and {per_state:,} steps of dice thrown "
                      f"again ({dice_shape(self.ruleset).written()}); hazard-dsl refuses games this large",
                      cocked.position)
        names = Scope.of(tuple(self.variables) + ("off", "shown", "phase"), self.dice.by_total())
        tests = tuple((None if rule.condition is None else closure(rule.condition, names), rule)
                      for rule in cocked.rules)
        first = len(states)
        nodes: list = []
        landed: dict = {}
        for state in states:
            if state.kind != THROW:
                continue
            if first + len(nodes) + 2 * (len(every) - 1) > MAX_STATES:
                self.result.too_large = True
                self.fail(f"with dice recast the game has more than {MAX_STATES} states; hazard-dsl refuses games "
                          f"this large", cocked.position)
            values = dict(zip(self.variables, state.values))
            targets = [state.index] * len(every)  # every die off: all thrown again, whatever the rule says
            for way, (off, kept) in enumerate(every):
                # (every die off is read too: a rule that cannot say what then is an error)
                rule, action = self.off_rule(tests, values, state.phase, off, kept)
                if len(off) == count or action is None or action.ways == ("both",):
                    continue
                number = first + len(nodes)
                # each throw of the dice off, the kept faces with it: where the parent's throw leads
                zeros, outcomes = thrown_again(count, sides, off, kept)
                thrown = State(number, DIE, state.phase, state.values, tuple(state.steps[o] for o in outcomes),
                               die=off[0] if len(off) == 1 else None, shown=sum(kept), parent=state.index,
                               outcomes=outcomes, dice=off, kept=zeros)
                if len(action.ways) == 1:  # the dice off alone, again and again until they land
                    nodes.append(replace(thrown, off=number))
                    targets[way] = number
                    continue
                thrown = replace(thrown, index=number + 1, off=number)
                alternatives = tuple(
                    (choice, Step(number + 1 if choice == "off" else state.index, rule,
                                  (Event("choose", "recast", choice),)))
                    for choice in action.ways)
                nodes.append(State(number, CHOICE, state.phase, state.values, chooser=action.role or "caster",
                                   variable="recast", alternatives=alternatives, die=thrown.die, shown=thrown.shown,
                                   parent=state.index, dice=off, kept=zeros))
                nodes.append(thrown)
                targets[way] = number
            landed[state.index] = tuple(targets)
        return Recast(chance, tuple(nodes), landed)

    def off_rule(self, tests, values: dict, phase: str, off: tuple, kept: tuple):
        """The cocked: rule that applies to the dice `off` with the others showing `kept`, and its
        recast (None: recast both, the rule-less default). The rules read `off`, how many dice
        are off, and `shown`, the total the others show (0 if none)."""
        if not tests:
            return None, None
        here = {**values, "off": len(off), "shown": sum(kept), "phase": phase}
        try:
            for test, rule in tests:
                if test is None or test(here, None, self.options):
                    return rule, (rule.actions[0] if rule.actions else None)
        except EvaluationError as exc:
            self.fail(f"{exc} (in cocked: rules, {self.where(phase, values)}, {len(off)} off)", exc.position)
        self.fail(f"no cocked: rule applies with {_off_words(off, kept)}, in {self.where(phase, values)}",
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
        if found is not None and result.tests + found.tests <= self.max_tests:
            # within the budget all along (the count only grows), as the throw itself would be
            result.tests += found.tests
            result.fired.update(found.fired)
            result.entered.update(found.entered)
            made, step = found.made, found.step
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
            if len(made) == 1 or not made and step.target == -1:
                self.shapes.remember(here, dice, Replay(result.tests - before, fired, entered,
                                                        made[0] if made else None, step))
            return step
        finally:
            self._fired = self._entered = self._made = None

    def _throw(self, phase: str, values: dict, dice, same: dict | None = None, tests: tuple | None = None) -> Step:
        """What a throw does from a throw state of `phase`. `same`, kept for one throw state
        while its throws are worked out: the step of a rule whose actions read nothing of the
        throw, choose nothing and try no rule on the way (they enter no phase without a throw)
        is the same whichever throw fired it, and is given again, not run again (in Cotton's
        chance, 9 throws of 11 throw again): the same states asked for, in the same order.
        `tests`: the phase's `tests_for` the state, when known."""
        rule = self.first_rule(phase, values, dice) if tests is None else self._first(tests, phase, values, dice)
        if rule is None:
            self.result.unhandled.setdefault(phase, []).append((values, dice))
            return Step(-1, None)
        if same is not None:
            step = same.get(rule.index)
            if step is not None:
                return step  # (the rule is among those fired since the step was worked out)
        fired = (phase, rule.index)  # (`_fire`, inline: once per throw)
        self.result.fired.add(fired)
        if self._fired is not None:
            self._fired.append(fired)
        if same is None:
            return self.run(rule, 0, values, dice, [])
        tests = self.result.tests
        step = self.run(rule, 0, values, dice, [])
        if self.result.tests == tests and self._blind(rule):
            same[rule.index] = step
        return step

    def _blind(self, rule: Rule) -> bool:
        """Whether a rule's actions read nothing of the throw and choose nothing (a choice's
        state is the throw's own): what they do is the same for every throw (`_throw`)."""
        found = self._blind_rules.get(id(rule))
        if found is None:  # (an ending, a goto and `throw again` read nothing; any other action
            # but a `set` of what reads no throw counts as reading it)
            found = self._blind_rules[id(rule)] = all(
                action.__class__ in _READ_NOTHING
                or action.__class__ is ex.Assign and not reads_throw(action.value) for action in rule.actions)
        return found

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


_new = object.__new__


@lru_cache(maxsize=1)
def _state_fields() -> tuple:
    """A State's fields in their order, each with its default (None for those without one),
    their names as a set, and the names of those without a default."""
    found = {name: getattr(State, name, None) for name in fields(State)}
    return found, frozenset(found), frozenset(name for name in found if not hasattr(State, name))


def _state(spec: dict) -> State:
    """`State(**spec)`, its fields filled in their order without the record's `__init__`, which
    sets each of the 17 by a call of its own (a fifth of exploring Cotton's game went there):
    the same record, equal, hashed and pickled alike (tests/compile/test_walk_alike.py)."""
    defaults, names, required = _state_fields()
    if not names.issuperset(spec) or not required.issubset(spec):
        return State(**spec)  # (which says what is wrong, as it would have)
    state = _new(State)
    made = state.__dict__
    made.update(defaults)
    made.update(spec)
    return state


def _dice_text(dice) -> str:
    return f", on the throw {dice[0]}-{dice[1]}" if dice else ""


def explore(ruleset: Ruleset, options: dict | None = None, max_tests: int = MAX_RULE_TESTS,
            shared: Shapes | None = None) -> Exploration:
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
    if found is not None and found.exploration.tests <= min(max_tests, found.budget):
        result = found.exploration
        return replace(result, machine=None if result.machine is None else shared.reshaped(result.machine, options))
    result = _Compiler(ruleset, options, max_tests, shared).explore()
    shared.found[key] = Found(result, max_tests)
    return result


def compile_ruleset(ruleset: Ruleset, options: dict | None = None, bets=None,
                    explorations: Explorations | None = None) -> Machine:
    """The machine for these option values with the named bets compiled (None: every bet the
    ruleset declares; `()`: none, the cheap way to the game's own figures), or RulesetError
    saying why there is none: `compile_game`, then `compile_bets`. `explorations`, kept by the
    caller, lends it what compiling the same ruleset under other option values found (none:
    the same machine, explored from scratch). Compiled again every time: the reading cache
    (`hazard_dsl.cache.compile_ruleset`) keeps machines between runs."""
    machine = compile_game(ruleset, options, explorations)
    return compile_bets(machine, ruleset.bets if bets is None else bets, explorations)


def compile_game(ruleset: Ruleset, options: dict | None = None,
                 explorations: Explorations | None = None) -> Machine:
    """The game's machine under these option values, with its fees and when the dice pass, and
    no bet (`compile_bets` adds them); RulesetError when it cannot be compiled."""
    from .fees import compile_fee, count_fee_states
    from .passing import compile_passing

    options = resolve_options(ruleset, options)
    machine = _game(ruleset, options, explorations)
    endings = sorted({(s.result, s.label) for s in machine.end_states()})
    fees: dict = {}
    machine = replace(machine, passing=compile_passing(ruleset.passing, endings, options), fees=fees)
    states = 0
    for name, fee in ruleset.fees.items():  # (filled in place: a fee is compiled against the machine that holds it)
        fees[name] = compile_fee(machine, fee)
        states = count_fee_states(states, fees[name])
    return machine


def compile_bets(machine: Machine, names, explorations: Explorations | None = None) -> Machine:
    """`machine` with the named bets of its ruleset compiled too (`compile.bets.compile_bet`),
    beside those it carries already; KeyError for a name the ruleset does not declare, and
    the RulesetError of the first bet that cannot be compiled, or of the bets together when
    they are too large (`count_bet_nodes`). With `explorations`, a bet compiled before for a
    machine of the same exploration, under the same values of what it reads, is not compiled
    again (`Shapes.compiled_bet`)."""
    from .bets import ThrowGroups, compile_bet, count_bet_nodes

    ruleset = machine.ruleset
    wanted = list(dict.fromkeys(name for name in names if name not in machine.bets))  # (each once)
    for name in wanted:
        ruleset.bets[name]  # (an unknown name is the caller's mistake, found before any work)
    if not wanted:
        return machine
    shapes = explorations.shapes(ruleset) if explorations is not None else None
    groups = ThrowGroups(machine.states, machine.outcomes) if shapes is None else None  # (Shapes keeps its own)
    bets = dict(machine.bets)
    nodes = 0
    for compiled in bets.values():
        nodes += len(compiled.moves)
    for name in wanted:
        bet = ruleset.bets[name]
        bets[name] = shapes.compiled_bet(machine, bet) if shapes is not None else compile_bet(machine, bet, groups)
        nodes = count_bet_nodes(nodes, bets[name])
    return replace(machine, bets=bets)


def _game(ruleset: Ruleset, options: dict, explorations: Explorations | None) -> Machine:
    """The game's machine under `options` (no bets, fees or passing yet); RulesetError when it
    cannot be compiled (never kept: every caller hears it). With `explorations`, explored once
    for each setting of the options the game reads (`evaluate.game_options`: the others cannot
    change it), and once for the settings that differ only in the dice's chances (`Shapes`)."""
    if explorations is None:
        return _sound(ruleset, explore(ruleset, options))
    explored = explorations.of(ruleset)
    key = tuple(sorted((name, value) for name, value in options.items() if name in explored.reads))
    found = explored.games.get(key)
    if found is None:
        shapes = explored.shapes
        # (a game that reads no option is explored once: nothing to share, nothing to record)
        result = explore(ruleset, options, shared=shapes if explored.reads else None)
        large = result.machine is None or len(result.machine.states) > explorations.max_states
        if large or len(shapes.found) > explorations.max_games:  # kept as the games are, or not at all
            shapes.found.pop(shapes.key(options), None)
            if large:
                shapes.forget_throws()
        found = _sound(ruleset, result)
        if len(explored.games) < explorations.max_games and len(found.states) <= explorations.max_states:
            explored.games[key] = found
    # its own options, and bets and fees of its own
    return replace(found, options=dict(options), bets={}, fees={})


def _sound(ruleset: Ruleset, result: Exploration) -> Machine:
    """The exploration's machine, or the RulesetError of its problems (the dice decide which
    throws can come: checked for each setting)."""
    from .soundness import machine_problems

    diags = Diagnostics(list(result.diagnostics.items))
    if result.machine is not None:
        diags.extend(machine_problems(ruleset, result))
    diags.raise_if_errors()
    return result.machine


@lru_cache(maxsize=1024)
def thrown_again(count: int, sides: int, off: tuple, kept: tuple) -> tuple:
    """A way of landing off's faces with the dice off at 0 (the recast state's `kept`), and the
    outcome each throw of the dice off makes with the kept faces, in the order of
    `product(1..sides, repeat=len(off))`: the same for every throw state, so made once a way."""
    from .recasts import faces_of

    zeros = faces_of(count, off, kept, (0,) * len(off))
    outcomes = tuple(index_of(faces_of(count, off, kept, thrown), sides)
                     for thrown in product(range(1, sides + 1), repeat=len(off)))
    return zeros, outcomes
