"""The policy solver: a compiled machine under a policy (optimal, uniform, a value policy),
chosen component by component, then solved as the chain it makes (`solve.chain`).

The optimal policy is found component by component, sinks first: at a choice state the caster
picks the alternative of greatest expectation (+1 win, −1 lose, 0 push), any other chooser the
least. Where choices sit inside a cycle, policy iteration runs within the component.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter

from ..compile.machine import CHOICE, DIE, END, THROW, Machine, maximises
from ..diagnostics import Diagnostic, RulesetError
from ..errors import Arg, ArgumentError, quoted
from ..model import dice_shape
from .chain import Chain, TooLargeToSolve, solve_component, strongly_connected
from ..compile.recasts import landing
from .exact import ONE, ZERO

MAX_POLICY_ROUNDS = 200
_TARGET = attrgetter("target")
# Dice landing off that no rule tells apart are solved by the faces kept, in any order (five
# six-sided dice: 210 classes, a second). Told apart (a rule reads one die, dice loaded unlike),
# every way is solved on its own, a product of fractions for each place of each cast: five
# six-sided dice hold 346,710 such places, 25 s of CPU (two minutes at load 7.5 on 2 cores);
# four of ten faces 169,840, 9 s; five of five 150,150, 10 s. Past this many the solver
# refuses before any of it (`judge_recast`).
MAX_RECAST_PLACES = 200_000

# recast: (dice, chance, how each way of landing off leads) -> the throws that stand and the casts
# per throw that stands (`Solver._stand`): what a policy's choices make of the dice, whichever
# machine or solver asks
_STANDING: dict = {}


class PolicyError(ValueError):
    pass


class RecastTooLarge(TooLargeToSolve):
    """Dice landing off that the rules tell apart, too many ways to solve one by one: said at
    the file's `cocked:` section, with the size and the bound."""

    def __init__(self, message: str, position):
        RulesetError.__init__(self, [Diagnostic(message, position, hint=(
            "rules that read the dice alike (total, shown, how many are off) are solved by the faces "
            "kept, in any order, whatever the size; or throw fewer dice, or dice of fewer faces"))])


def judge_recast(machine: Machine) -> None:
    """Refuse, before any work, dice landing off told apart past MAX_RECAST_PLACES."""
    from .recast_classes import ungrouped_work

    places = ungrouped_work(machine)
    if places > MAX_RECAST_PLACES:
        ruleset = machine.ruleset
        raise RecastTooLarge(
            f"dice that land off and are told apart (by a rule that reads one die, or by their loading) "
            f"are solved one way of landing off at a time: {places:,} throws of dice thrown again "
            f"({dice_shape(ruleset).written()}), more than the {MAX_RECAST_PLACES:,} hazard-dsl works to",
            ruleset.cocked.position if ruleset.cocked is not None else None)


class PolicyArgumentError(PolicyError, ArgumentError):
    """A policy given (`Arg('policy', value=…)`) that the game's choices cannot follow: each
    front end names it (`policy='foo'`, `--policy foo`)."""


# n throws of the 36: the chance of every row entry of a throw state, made once
THROWS_OF_36 = tuple(Fraction(n, 36) for n in range(37))


@lru_cache(maxsize=8)
def throws_of(total: int) -> tuple:
    """n / total for n = 0..total: the chances of n of the `total` equally likely throws of fair
    dice (THROWS_OF_36 for two six-sided dice), made once for each number of throws."""
    return THROWS_OF_36 if total == 36 else tuple(Fraction(n, total) for n in range(total + 1))


def _throw_transitions(state, dice=None) -> dict:
    """Where a throw state's throws lead, with their chances under the dice in play."""
    if dice is None or dice.fair:  # (the steps counted by target in C: every throw state passes here)
        over = throws_of(len(state.steps))
        return {t: over[n] for t, n in Counter(map(_TARGET, state.steps)).items()}
    counts: dict[int, int] = {}
    for step, w in zip(state.steps, dice.weights):
        if w:  # a face a loaded die never shows leads nowhere
            counts[step.target] = counts.get(step.target, 0) + w
    return {t: Fraction(n, dice.total) for t, n in counts.items()}


def checked_policy_text(policy) -> None:
    """A policy is text: the Python API's policy=None or policy=7 is refused as an argument,
    not found by str's methods as an AttributeError (issue 40's fuzz)."""
    if not isinstance(policy, str):
        raise PolicyArgumentError(Arg("policy"), f"is optimal, uniform or a value to choose, as text "
                                                 f"(policy='7'), not {quoted(policy)}")


def policy_for(machine: Machine, policy: str) -> str:
    """A value policy (`--policy 7`) means something only where there is a choice to make:
    elsewhere (another ruleset of a comparison, another option's machine) it is `optimal`."""
    checked_policy_text(policy)
    if policy in ("optimal", "uniform"):
        return policy
    if policy.rpartition("=")[0].strip() == "recast":  # where dice are recast by choice
        recast = machine.recast
        return policy if recast is not None and any(n.kind == CHOICE for n in recast.nodes) else "optimal"
    return policy if any(s.kind == CHOICE for s in machine.states) else "optimal"


class Solver:
    """A machine under a policy: chooses the policy, then solves the chain it makes."""

    def __init__(self, machine: Machine):
        self.machine = machine
        states = machine.states
        self.transient = [s.index for s in states if s.kind != END]
        self.throw_rows = {s.index: _throw_transitions(s, machine.dice) for s in states if s.kind == THROW}
        # the rows of the dice's own throws: where dice are recast, `throw_rows` become the throws
        # that stand under the policy (_stand), and a policy is chosen from these
        self._cast_rows = dict(self.throw_rows)
        self.successors = {s.index: (list(self.throw_rows[s.index]) if s.kind == THROW
                                     else [step.target for _, step in s.alternatives])
                           for s in states if s.kind != END}
        self.recast = machine.recast
        self._landing: dict = {}  # recast: each throw state's and die state's row, off included
        self._alone: dict = {}  # recast: die state of one die -> {where it leads once it lands: chance}
        self._standing: dict = {}  # recast: throw state -> the Dice of the throws that stand there
        self.casts: dict = {}  # recast: throw state -> expected casts (recasts included) per throw that stands
        self._extended = False  # while choosing a policy: rows through the recast states
        self.policy: dict[int, dict[int, Fraction]] = {}  # choice state -> {alternative index: p}
        self._chain: Chain | None = None
        if self.recast is not None:
            judge_recast(machine)
        # every node a policy is chosen over (the recast states' too); their components, sinks
        # first, found when a choice is to be made (`components`): a game without one needs none
        self._nodes = self.transient + (self._recast_rows() if self.recast is not None else [])
        self._components: list | None = None

    @property
    def components(self) -> list[list[int]]:
        """The strongly connected components of the states and recast states, sinks first."""
        if self._components is None:
            self._components = strongly_connected(self._nodes, self.successors.__getitem__)
        return self._components

    def _recast_rows(self) -> list[int]:
        """Where the recast states lead, for the components the policy is chosen in (the
        compiled machine's `compile.recasts`, for any number of dice). The rows themselves are
        made only where a component needs them (`_landing_row`, `_alone_row`)."""
        from ..compile.recasts import reached

        machine, recast = self.machine, self.recast
        for s in recast.landed:
            following = dict.fromkeys(self._cast_rows[s])
            following[s] = None
            following.update(dict.fromkeys(reached(machine, s)))
            self.successors[s] = list(following)
        for node in recast.nodes:
            if node.kind == CHOICE:
                self.successors[node.index] = [step.target for _, step in node.alternatives]
                continue
            self._alone[node.index] = None  # (made when first needed: _alone_row)
            self.successors[node.index] = reached(machine, node.index)
        # Until a policy is set the dice are taken up again whenever one is off, which leaves
        # the throws that stand with the dice's own chances: `throw_rows` as they are.
        return [node.index for node in recast.nodes]

    def _alone_row(self, number: int) -> dict:
        """Where recast die state `number`, throwing one die, leads once its die lands (its
        landing off again aside), with what chance."""
        found = self._alone.get(number)
        if found is None:
            row, off = self._landing_row(number), self.machine.node(number).off
            lands = ONE - row.get(off, ZERO)
            found = self._alone[number] = {t: q / lands for t, q in row.items() if t != off}
        return found

    def _landing_row(self, number: int) -> dict:
        """The row of a throw state or die state through the recast states: one cast of its dice,
        each landing off with c on its own (`compile.recasts.cast`): the throws that stand lead
        where the throw state's steps lead, the rest where the recast states say."""
        found = self._landing.get(number)
        if found is not None:
            return found
        from ..compile.recasts import cast

        if number < len(self.machine.states):  # the throws that stand: the dice's own, (1 − c)^n of them
            _, row = cast(self.machine, number, stands=False)
            flat = (ONE - self.recast.chance) ** self.machine.dice.count
            for target, p in self._cast_rows[number].items():
                row[target] = row.get(target, ZERO) + p * flat
        else:
            stands, row = cast(self.machine, number)
            steps = self.machine.states[self.machine.node(number).parent].steps
            for o, p in stands.items():
                target = steps[o].target
                row[target] = row.get(target, ZERO) + p
        self._landing[number] = row
        return row

    def alone(self, choice: int) -> Fraction:
        """The chance that at recast choice state `choice` the off die is recast alone (rather
        than both dice), under the policy (none set yet: both)."""
        alternatives = self.machine.node(choice).alternatives
        return sum((p for k, p in self.policy.get(choice, {}).items() if alternatives[k][0] == "off"), ZERO)

    def throw_dice(self, number: int):
        """The chance of each of the 36 throws that *stand* at throw state `number` (a `Dice`):
        the machine's dice, unless dice land off and are recast by the players' choices, which
        change, state by state, which throws stand. Consumers that weigh a throw state's 36
        steps (bets, the throw distribution, the simulator) read this, not `machine.dice`."""
        return self._standing.get(number, self.machine.dice)

    def _stand(self) -> None:
        """The throws that stand at each throw state under the recast policy, in closed form
        (`compile.recasts.standing`, for any number of dice): the chance of each throw that
        stands, and the casts of the dice per throw that stands. States whose ways of landing
        off lead alike (back, to a die state, to a choice made alike) share one answer."""
        from math import lcm

        from ..compile.machine import Dice
        from ..compile.recasts import standing
        from .recast_classes import alike, standing_alike

        machine, recast = self.machine, self.recast
        n = len(machine.dice.outcomes)
        # kept between policies and between machines (the other options' machines of one analysis
        # throw the same dice): the same dice, chance and choices stand the same throws
        known = _STANDING if len(_STANDING) < 4096 else {}
        node = machine.node
        for s, targets in recast.landed.items():
            key = (machine.dice, recast.chance,
                   tuple(None if t == s else (node(t).kind, self.alone(t) if node(t).kind == CHOICE else None)
                         for t in targets))
            found = known.get(key)
            if found is None:
                classes = alike(machine, s, self.alone)  # no rule tells the dice apart: their classes
                stands, casts = (standing(machine, s, self.alone) if classes is None
                                 else standing_alike(machine, s, classes))
                chances = [stands.get(o, ZERO) for o in range(n)]
                scale = lcm(*(p.denominator for p in chances))
                found = known[key] = (Dice(tuple(int(p * scale) for p in chances), scale), casts)
            self._standing[s], self.casts[s] = found
            self.throw_rows[s] = _throw_transitions(machine.states[s], found[0])
        self._chain = None

    def row(self, number: int) -> dict:
        """Transition probabilities out of a transient state under the current policy (while a
        policy is chosen where dice are recast: through the recast states)."""
        if self._extended and (number in self.recast.landed or number in self._alone):
            return self._landing_row(number)
        if number in self.throw_rows:
            return self.throw_rows[number]
        state = self.machine.node(number)
        row: dict[int, Fraction] = {}
        for alt, p in self.policy[number].items():
            target = state.alternatives[alt][1].target
            row[target] = row.get(target, ZERO) + p
        return row

    @property
    def chain(self) -> Chain:
        if self._chain is None:
            self._chain = Chain({s: self.row(s) for s in self.transient})
        return self._chain

    # ------------------------------------------------------------------ policies

    def set_policy(self, policy: str = "optimal") -> None:
        """`optimal`, `uniform`, or a value to choose wherever it is offered (`7` or `main=7`).
        Where dice are recast, `recast=off` or `recast=both` fixes the caster's recast; any
        other value policy leaves the recast to his best reply."""
        choice_states = [s for s in self.machine.states if s.kind == CHOICE]
        recasts = [n for n in self.recast.nodes if n.kind == CHOICE] if self.recast is not None else []
        self.policy = {}
        self._chain = None
        try:
            self._set_policy(policy, choice_states, recasts)
        finally:
            if self.recast is not None:
                self._stand()

    def _set_policy(self, policy: str, choice_states: list, recasts: list) -> None:
        checked_policy_text(policy)
        if policy == "optimal":
            self._optimal()
            return
        variable, _, wanted = policy.rpartition("=")
        of_recast = variable.strip() == "recast"
        if of_recast and not recasts:
            raise PolicyArgumentError(Arg("policy", value=policy),
                                      f"no dice are recast by choice in {self.machine.ruleset.name}")
        if policy != "uniform" and not choice_states and not recasts:
            raise PolicyArgumentError(Arg("policy", value=policy), f"{self.machine.ruleset.name} has no choices "
                                                                   f"to make (use optimal or uniform)")
        for state in choice_states + recasts:
            n = len(state.alternatives)
            if policy == "uniform":
                self.policy[state.index] = {k: Fraction(1, n) for k in range(n)}
                continue
            if (state.variable == "recast" and state.index >= len(self.machine.states)) != of_recast:
                continue  # chosen below, as the chooser's best reply to the policy given
            if variable and variable.strip() != state.variable:
                raise PolicyArgumentError(Arg("policy", value=policy),
                                          f"the choice here is of {state.variable!r}, not {variable!r}")
            matches = [k for k, (value, _) in enumerate(state.alternatives) if str(value) == wanted.strip()]
            if not matches:
                offered = ", ".join(str(v) for v, _ in state.alternatives)
                raise PolicyArgumentError(Arg("policy", value=policy), f"use optimal, uniform, or a value the "
                                          f"{state.chooser} can choose for {state.variable}: {offered}")
            self.policy[state.index] = {matches[0]: ONE}
        if policy != "uniform" and len(self.policy) < len(choice_states) + len(recasts):
            self._optimal(fixed=set(self.policy))

    def _optimal(self, fixed: set = frozenset()) -> None:
        """Each chooser's best reply, solved sinks first (policy iteration inside cycles); the
        choices in `fixed` keep the policy they have."""
        node = self.machine.node
        if not any(node(n).kind == CHOICE for n in self._nodes):
            return  # nothing to choose: no values to weigh
        value: dict[int, Fraction] = {}
        for s in self.machine.end_states():
            value[s.index] = ONE if s.result == "win" else (-ONE if s.result == "lose" else ZERO)
        self._extended = self.recast is not None
        # where some way leaves dice off again but not all (any game of three dice or more), the
        # classes first: `_recast_alone` would cast every die of the throw state in fractions to
        # find out that it cannot solve such a way
        count = self.machine.dice.count
        partly = self.recast is not None and any(n.kind == DIE and 1 < len(n.dice) < count
                                                 for n in self.recast.nodes)
        closed = (self._recast_alike, self._recast_alone) if partly else (self._recast_alone, self._recast_alike)
        try:
            for component in self.components:
                if self.recast is not None and any(solve(component, value, fixed) for solve in closed):
                    continue
                choices = [n for n in component if node(n).kind == CHOICE and n not in fixed]
                for n in choices:
                    self.policy[n] = {0: ONE}
                for _ in range(MAX_POLICY_ROUNDS):
                    solve_component(component, self.row, value, {})
                    changed = False
                    for n in choices:
                        state = node(n)
                        current = next(iter(self.policy[n]))
                        scores = [value[step.target] for _, step in state.alternatives]
                        pick = max if maximises(state.chooser) else min
                        best = pick(scores)
                        if scores[current] != best:
                            self.policy[n] = {scores.index(best): ONE}
                            changed = True
                    if not changed:
                        break
                else:  # pragma: no cover - policy iteration on a finite game ends
                    raise PolicyError("the choices of this game do not settle on an optimal policy")
        finally:
            self._extended = False

    def _recast_alone(self, component: list, value: dict, fixed) -> bool:
        """One throw state and its recast states, their choices made, in closed form (False:
        the component is not that, and is solved as any other).

        Whatever is chosen, the component's value is a function of v, the throw state's own
        value: a throw that stands leads out (known values) or back (v); recasting both is v;
        the off die recast alone until it lands is worth a + b·v, the mean over its faces (the
        landings off again start the same choice over, so they do not weigh). So v solves
        v = (1 − c)²·E[W] + c²·v + Σ m·(v or a + b·v), one linear equation per set of choices:
        policy iteration on that one number, instead of on a system of 25 states."""
        states, recast = self.machine.states, self.recast
        throws = [n for n in component if n < len(states)]
        if len(throws) != 1 or states[throws[0]].kind != THROW:
            return False
        s = throws[0]
        node = self.machine.node
        c = recast.chance
        ways = []  # (m, the choice state or None, (a, b) of the die off thrown alone)
        base_a, base_b = ZERO, ZERO  # reaching a target is worth a + b·v: (value, 0), or (0, 1) for s
        for target, m in self._landing_row(s).items():
            if target == s:
                base_b += m
                continue
            if target < len(states):  # a throw that stands, and where it leads
                base_a += m * value[target]
                continue
            here = node(target)
            thrown = here if here.kind != CHOICE else node(next(st.target for v, st in here.alternatives if v == "off"))
            if len(thrown.dice) != 1:  # dice off again but not all: ways beyond this one, solved as any other
                return False
            rows, steps = {}, states[s].steps  # summed by target: one product a target, not a throw
            for o, q in landing(self.machine, thrown.index):  # (per shape of cast, made once)
                t = steps[o].target
                rows[t] = rows[t] + q if t in rows else q
            a = b = ZERO
            for t, q in rows.items():
                if t == s:
                    b += q
                else:
                    a += q * value[t]
            ways.append((m, here if here.kind == CHOICE else None, (a, b), thrown))
        for m, choice, _, _ in ways:
            if choice is not None:
                self.policy.setdefault(choice.index, {0: ONE})

        def alone_share(choice) -> Fraction:
            return ONE if choice is None else self.alone(choice.index)

        # In floats first, to find the choices in a round or two; then exactly, from those
        # choices, until no choice changes (normally one round: it proves them best).
        floats = [(float(m), choice, (float(a), float(b)), thrown) for m, choice, (a, b), thrown in ways]
        for exact in (False, True):
            one = ONE if exact else 1.0
            number = (lambda x: x) if exact else float
            terms = ways if exact else floats  # (each way's figures converted once, not each round)
            for _ in range(MAX_POLICY_ROUNDS):
                total_a, total_b = number(base_a), number(base_b)
                for m, choice, (a, b), _ in terms:
                    alone = number(alone_share(choice))
                    # (a choice made one way, share 1 or 0, as nearly every policy makes them:
                    # the exact round without the products by one and by nought)
                    if alone == 1:
                        total_a += m * a
                        total_b += m * b
                    elif not alone:
                        total_b += m
                    else:
                        total_a += m * alone * a
                        total_b += m * (alone * b + one - alone)
                v = total_a / (one - total_b)
                rough = float(v)
                changed = False
                for (m, choice, (a, b), _), (_, _, (fa, fb), _) in zip(terms, floats):
                    if choice is None or choice.index in fixed:
                        continue
                    off = fa + fb * rough
                    if exact and abs(off - rough) <= 1e-9 * (abs(off) + abs(rough) + 1.0):
                        off, stay = a + b * v, v  # too near for floats: the exact figures decide
                    else:
                        # a, b and v as floats are within a few units of the last place of the
                        # exact figures (b is a chance, |b·v| <= |v|): a gap this wide has the
                        # exact gap's sign, so the floats order the choices as the fractions would
                        stay = rough
                    scores = [off if alt == "off" else stay for alt, _ in choice.alternatives]
                    current = next(iter(self.policy[choice.index]))
                    best = (max if maximises(choice.chooser) else min)(scores)
                    if scores[current] != best and (exact or abs(scores[current] - best) > 1e-12):
                        self.policy[choice.index] = {scores.index(best): ONE}
                        changed = True
                if not changed:
                    break
            else:  # pragma: no cover - two alternatives per choice, each round better: it ends
                raise PolicyError("the recast choices do not settle on an optimal policy")
        value[s] = v
        stays = ONE - c
        for m, choice, (a, b), thrown in ways:
            alone_value = a + b * v
            if choice is None:
                value[thrown.index] = alone_value
                continue
            alone = self.alone(choice.index)
            chosen = alone_value if alone == 1 else v if not alone else alone * alone_value + (ONE - alone) * v
            value[choice.index] = chosen
            # the die thrown alone: it lands (its mean) or is off again, back at the choice
            value[thrown.index] = stays * alone_value + c * chosen
        return True

    def _recast_alike(self, component: list, value: dict, fixed) -> bool:
        """One throw state and its recast states, where no rule tells its dice apart: the
        choices made over the classes of faces kept (`solve.recast_classes.choose_alike`), every
        state of a class worth the same (False: not that, solved as any other)."""
        from .recast_classes import alike, choose_alike

        states = self.machine.states
        throws = [n for n in component if n < len(states)]
        if len(throws) != 1 or throws[0] not in self.recast.landed:
            return False
        classes = alike(self.machine, throws[0], self.alone)
        found = None if classes is None else choose_alike(self.machine, throws[0], classes, value,
                                                          fixed.__contains__)
        if found is None:
            return False
        _, values, picks = found
        value.update(values)
        for choice, k in picks.items():
            self.policy[choice] = {k: ONE}
        return True

    # ------------------------------------------------------------------ solving

    def backward(self, reward, cost=None) -> dict[int, Fraction]:
        """Expected reward(end state) at the end plus cost(state) per visit, from every state."""
        return self.chain.backward(lambda n: reward(self.machine.states[n]), cost,
                                   [s.index for s in self.machine.end_states()])

    def forward(self) -> dict[int, Fraction]:
        """Expected visits to each transient state, and the probability of each end state, from the start."""
        return self.chain.forward({self.machine.start.target: ONE})
