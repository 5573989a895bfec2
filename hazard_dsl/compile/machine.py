"""The compiled game: one generic two-dice state machine that every feature runs on.

A state is a phase together with the values of the variables. There are three kinds:

* a **throw** state: the dice are thrown; for each of the 36 ordered outcomes (die1, die2) it
  has a `Step` — the next state, the rule that fired, and what happened on the way
  (variables set, phases entered) for narration;
* a **choice** state: a player (the caster, a setter, the bank) picks one of several values
  instead of a throw; each alternative is a `Step`;
* an **end** state: the game is over with a result (win / lose / push, from the caster's side)
  and the period's label (nick, out, crabs…), with the variables as they ended.

Where the rules say dice may land off (`cocked:`), `Machine.recast` adds what happens between a
cast and the throw that stands: each throw state's ways of landing off (which dice are off,
what the others show: `compile.recasts.ways`) lead back to it (every die thrown again), to a
**die** state (the dice off thrown again, the others keeping their faces; each throw of the
dice off leads where the throw state's step for all the faces leads), or to a choice state
where the caster picks between the two. These recast states are numbered on from
`Machine.states`; `Machine.node(n)` finds either kind.

Each bet compiled with the game is a table of its own over (game state, bet state, throw), in
`Machine.bets`. Consumers (solver, player, simulator, exporters) see only this; none re-reads
the rules.
"""

from __future__ import annotations

from functools import lru_cache

from ..records import field, record

from ..model import Rule, Ruleset

THROW, CHOICE, END = "throw", "choice", "end"
DIE = "die"  # a recast state: the dice off thrown again, the others keeping the faces they show

# Who chooses for the caster's side: they maximise the caster's expectation; every other
# chooser (a setter, the fader, the bank) is his adversary and minimises it. One definition,
# read by the solver, the analysis and the table alike.
MAXIMISERS = frozenset({"caster", "player"})


def maximises(chooser: str | None) -> bool:
    return chooser in MAXIMISERS

# The 36 equally likely ordered outcomes of two dice, in a fixed order: index = 6*(d1-1) + (d2-1).
# Dice of other numbers and faces keep the same order (`outcomes_of`): the first die slowest.
OUTCOMES: tuple = tuple((d1, d2) for d1 in range(1, 7) for d2 in range(1, 7))


def outcome_index(die1: int, die2: int) -> int:
    return 6 * (die1 - 1) + (die2 - 1)


@lru_cache(maxsize=16)
def outcomes_of(count: int, sides: int) -> tuple:
    """Every ordered throw of `count` dice of `sides` faces, the first die's face changing slowest
    (two six-sided dice: OUTCOMES). Made once per kind of dice: `Dice.outcomes` is read on every
    machine's hot paths (bets, tables, the rule sheet)."""
    if (count, sides) == (2, 6):
        return OUTCOMES
    from itertools import product

    return tuple(product(range(1, sides + 1), repeat=count))


def index_of(faces, sides: int) -> int:
    """The place of a throw (its faces, die1 first) in `outcomes_of`."""
    n = 0
    for face in faces:
        n = n * sides + face - 1
    return n


@record(frozen=True)
class Dice:
    """The chance of each ordered throw (`outcomes`), as whole weights over one `total`: fair
    dice weigh 1 each over sides ** count (36 for two six-sided dice). Loaded dice (`dice:` in a
    rule file) weigh p1(d1)·p2(d2)·…·total. Every consumer — the solver, the player, the
    simulator — reads these weights, in the order of `outcomes`."""

    weights: tuple  # one int per throw, in `outcomes` order
    total: int
    loaded: tuple = ()  # each die's chance of each face (die1 first), None for a fair die
    count: int = 2
    sides: int = 6
    names: tuple = ()  # the faces' names, where the dice have named faces

    @property
    def outcomes(self) -> tuple:
        return outcomes_of(self.count, self.sides)

    @property
    def fair(self) -> bool:
        """Every throw equally likely. (A Dice may also be the throws that stand where dice are
        recast, which are no independent dice: then `loaded` says nothing.)"""
        weights = self.weights  # (counted in C: the solver asks for every throw state)
        return self.total == len(weights) and weights.count(1) == len(weights)

    @property
    def die1(self):
        return self.loaded[0] if self.loaded else None

    @property
    def die2(self):
        return self.loaded[1] if len(self.loaded) > 1 else None

    def chance(self, outcome: int):
        from fractions import Fraction

        return Fraction(self.weights[outcome], self.total)

    def by_total(self) -> dict:
        """total -> its weight (over `total`): what `weight(n)` gives in a rule."""
        out: dict = {}
        for faces, w in zip(self.outcomes, self.weights):
            t = sum(faces)
            out[t] = out.get(t, 0) + w
        return out

    def faces(self, die: int) -> tuple:
        from fractions import Fraction

        given = self.loaded[die - 1] if die <= len(self.loaded) else None
        return given if given is not None else (Fraction(1, self.sides),) * self.sides


def dice_for(loading, shape=None) -> Dice:
    """The weights of dice of this shape (DiceShape; None: two six-sided) with these faces'
    chances (None: fair)."""
    from fractions import Fraction
    from math import lcm, prod

    count, sides, names = (2, 6, ()) if shape is None else (shape.count, shape.sides, shape.names)
    loaded = tuple(loading.die(k) for k in range(1, count + 1)) if loading is not None else ()
    if not any(die is not None for die in loaded):
        return FAIR if (count, sides, names) == (2, 6, ()) else \
            Dice((1,) * sides ** count, sides ** count, (), count, sides, names)
    faces = [die or (Fraction(1, sides),) * sides for die in loaded]
    scales = [lcm(*(p.denominator for p in die)) for die in faces]
    ones = [[int(p * scale) for p in die] for die, scale in zip(faces, scales)]
    weights = tuple(prod(ones[k][f - 1] for k, f in enumerate(throw)) for throw in outcomes_of(count, sides))
    return Dice(weights, prod(scales), loaded, count, sides, names)


FAIR_WEIGHTS = (1,) * 36
FAIR = Dice(FAIR_WEIGHTS, 36)


@record(frozen=True)
class Event:
    """Something a step did on its way: ``set`` a variable, ``goto`` a phase, ``choose`` a value."""

    kind: str
    name: str
    value: object = None


@record(frozen=True)
class Step:
    target: int  # index of the next state
    rule: Rule | None  # the rule that fired (None for the start of a game or a bare choice)
    events: tuple = ()


@record(frozen=True, repr=False)
class State:
    index: int
    kind: str  # THROW, CHOICE or END
    phase: str
    values: tuple  # the variables, in `Machine.variables` order
    steps: tuple = ()  # THROW: 36 steps in OUTCOMES order
    chooser: str | None = None  # CHOICE: who chooses
    variable: str | None = None  # CHOICE: what is chosen
    alternatives: tuple = ()  # CHOICE: ((value, Step), …)
    result: str | None = None  # END: "win" | "lose" | "push"
    label: str | None = None  # END: the period's word
    # DIE (a recast state) and its CHOICE: the dice thrown again (`dice`, die numbers), the
    # faces of every die with 0 for those (`kept`), the throw state whose throw this completes,
    # and where every die thrown landing off again leads (`off`); `steps` are the parent's steps
    # for each throw of the dice thrown (the first changing slowest), `outcomes` their indices
    # in the machine's outcomes. `die` is the die thrown again where it is one (else None) and
    # `shown` the total the kept dice show: with two dice, the face of the other.
    die: int | None = None
    shown: int | None = None
    parent: int | None = None
    off: int | None = None
    outcomes: tuple = ()
    dice: tuple = ()
    kept: tuple = ()

    def __repr__(self) -> str:
        shown = ", ".join(map(str, self.values))
        again = f"die {self.die}" if self.die is not None else "dice " + ", ".join(map(str, self.dice))
        what = {END: f"{self.result} {self.label}", CHOICE: f"{self.chooser} chooses {self.variable}",
                DIE: f"{again} again, {self.shown} showing"}.get(self.kind, "throw")
        return f"<State {self.index}: {self.phase}({shown}) {what}>"

    def value(self, machine: "Machine", name: str):
        return self.values[machine.variables.index(name)]

    def describe(self, machine: "Machine") -> str:
        shown = ", ".join(f"{n} = {v}" for n, v in zip(machine.variables, self.values))
        if self.kind == END:
            head = f"{self.result} ({self.label})"
        elif self.kind == CHOICE:
            head = f"{self.phase}: {self.chooser} chooses {self.variable}"
        else:
            head = self.phase
        return f"{head}{' with ' + shown if shown else ''}"


@record(frozen=True)
class Recast:
    """Dice that land off and are thrown again (`cocked:`), compiled: each die lands off with
    `chance`, on its own. `landed[s]` says, for throw state s, where each way of landing off
    leads, in the order of `compile.recasts.ways` (two dice: 13 state numbers, [0] both dice
    off, [f] the first die off with the second showing f, [6 + f] the second off with the first
    showing f). A number is s itself (every die thrown again), a DIE state, or a CHOICE state
    (variable "recast", alternatives "off" and "both"). `nodes` are those DIE and CHOICE
    states, numbered on from the machine's states."""

    chance: object  # Fraction, 0 < chance < 1
    nodes: tuple
    landed: dict  # throw state -> a target for each way of landing off

    @staticmethod
    def way(off: tuple, kept: tuple, count: int, sides: int) -> int:
        """The position in `landed[s]` of the dice `off` (die numbers) with the others showing
        `kept` (their faces, in die order)."""
        from .recasts import way_numbers

        return way_numbers(count, sides)[tuple(off), tuple(kept)]


@record(frozen=True, repr=False)
class Machine:
    ruleset: Ruleset
    options: dict  # the option values this machine was compiled with
    variables: tuple  # names, in the order of State.values
    states: tuple
    start: Step  # how a game begins: straight into a throw or a choice state
    bets: dict = field(default_factory=dict)  # name -> CompiledBet (compile.bets), for the bets compiled
    fees: dict = field(default_factory=dict)  # name -> CompiledFee (compile.bets)
    passing: object = None  # CompiledPassing (compile.passing): when the dice pass
    dice: Dice = FAIR  # the chance of each throw (36 for two six-sided dice), in `outcomes` order
    recast: Recast | None = None  # dice that land off and are recast; None: they always land flat

    def __repr__(self) -> str:
        kinds = {k: sum(s.kind == k for s in self.states) for k in (THROW, CHOICE, END)}
        options = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"<Machine {self.ruleset.name!r}: {kinds[THROW]} throw, {kinds[CHOICE]} choice, {kinds[END]} end "
                f"states{'; ' + options if options else ''}>")

    def node(self, number: int) -> State:
        """A state of the machine, or one of its recast states (numbered on from `states`)."""
        n = len(self.states)
        return self.states[number] if number < n else self.recast.nodes[number - n]

    @property
    def outcomes(self) -> tuple:
        """Every ordered throw of the machine's dice, in the order of a throw state's steps."""
        return self.dice.outcomes

    def end_states(self):
        return (s for s in self.states if s.kind == END)

    def labels(self) -> list[str]:
        """Every label a game can end with, in the order the ruleset first uses them."""
        seen: dict[str, None] = {}
        for rule in self.ruleset.rules():
            for action in rule.actions:
                label = getattr(action, "label", None)
                if label is not None:
                    seen.setdefault(label, None)
        reachable = {s.label for s in self.end_states()}
        return [label for label in seen if label in reachable]

    def find(self, phase: str, **values) -> State:
        """The state of `phase` whose variables have the given values (for tests and tools)."""
        for state in self.states:
            if state.phase == phase and state.kind != END and all(
                    state.value(self, k) == v for k, v in values.items()):
                return state
        raise KeyError(f"no state {phase} with {values}")
