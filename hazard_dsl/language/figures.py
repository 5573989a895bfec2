"""The figures of the game as it is being written: each rule's exact expected firings per game,
each phase's chance for the caster, each bet's edge — for an editor's inlay hints and code
lenses (`language.service`), from the compiled machine and the solved chain, the very figures
`hazard-dsl analyse` prints.

A rule's figure is its **expected firings per game**: Σ over the throw states s of (expected
visits to s) × (the chance that the throw at s is one this rule takes), under the default
options and the optimal choices. A rule that ends the game fires at most once in a game, so
its figure is then the chance that a game ends by it ("ends 2/9 of games"), which for a label
ended by one rule only is `analyse`'s chance of that label. A rule of a phase entered without
a throw (`throw: false`) fires as part of the step of the rule that sent the game there: the
machine names only the throw's rule, so such a rule gets no figure here.

A phase's figure is the caster's chance of winning once the game reaches it: with the chain's
states of that phase made absorbing, the forward pass from the start gives the chance of first
entering each of them; weighted by each one's chance of a win (the backward pass) and divided
by the chance of reaching the phase at all. For the phase a game starts in, that is `analyse`'s
`win`. A bet's figure is its edge, per unit staked on a bet made (`analyse`'s `edge`).

Figures are worked out only for a file that checks clean, and only for a game of at most
MAX_STATES states (a larger one is solved by `hazard-dsl analyse`, not while typing).
"""

from __future__ import annotations

from fractions import Fraction

from ..records import field, record

MAX_STATES = 20_000


@record(frozen=True)
class RuleFigure:
    """A rule's expected firings per game (`ends`: the rule ends the game, so this is the chance
    that a game ends by it). `line` is the rule's line in the file (from 0)."""

    phase: str
    index: int
    line: int
    firings: Fraction
    ends: bool

    @property
    def words(self) -> str:
        if self.firings == 0:
            return "never fires with the default options"
        if self.ends:
            return f"ends {fraction(self.firings)} of games ({percent(self.firings)})"
        if self.firings == 1:
            return "fires once in every game"
        return f"fires on average {fraction(self.firings)} times a game ({float(self.firings):.4g})"

    def to_json(self) -> dict:
        return {"phase": self.phase, "rule": self.index + 1, "line": self.line, "firings": str(self.firings),
                "ends": self.ends, "text": self.words}


@record(frozen=True)
class PhaseFigure:
    """The chance a game reaches a phase, and the caster's chance of winning once it has."""

    name: str
    reached: Fraction
    win: Fraction | None  # None when the phase is never reached
    throws: bool = True  # False: decided at once, without a throw (the machine has no state of it)

    @property
    def words(self) -> str:
        if not self.throws:
            return "decided at once, without a throw"
        if not self.reached:
            return "never reached with the default options"
        reach = "every game" if self.reached == 1 else f"{fraction(self.reached)} of games ({percent(self.reached)})"
        return f"the caster wins {fraction(self.win)} ({percent(self.win)}) from here · reached in {reach}"

    def to_json(self) -> dict:
        return {"name": self.name, "reached": str(self.reached), "win": None if self.win is None else str(self.win),
                "text": self.words}


@record(frozen=True)
class BetFigure:
    name: str
    edge: Fraction | None  # None: the bet can never be made with the default options

    @property
    def words(self) -> str:
        if self.edge is None:
            return "never made with the default options"
        return f"edge {fraction(self.edge)} ({float(self.edge):.3%}) against the backer"

    def to_json(self) -> dict:
        return {"name": self.name, "edge": None if self.edge is None else str(self.edge), "text": self.words}


@record(frozen=True)
class Figures:
    """Every figure of one version of a rule file, or `reason` why there are none."""

    rules: tuple = ()
    phases: dict = field(default_factory=dict)  # name -> PhaseFigure (the game's phases)
    bets: dict = field(default_factory=dict)  # name -> BetFigure
    reason: str | None = None

    def to_json(self) -> dict:
        return {"rules": [r.to_json() for r in self.rules],
                "phases": {n: p.to_json() for n, p in self.phases.items()},
                "bets": {n: b.to_json() for n, b in self.bets.items()}, "reason": self.reason}


def fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def percent(value: Fraction) -> str:
    return f"{float(value):.2%}"


def figures_of(ruleset, display: str) -> Figures:
    """The figures of a ruleset that checked clean, for the rules written in the file `display`
    (a parent's rules are the parent's to show)."""
    from ..cache import compile_ruleset
    from ..diagnostics import RulesetError

    try:
        machine = compile_ruleset(ruleset, None)
    except (RulesetError, ValueError, KeyError, ArithmeticError) as exc:
        return Figures(reason=f"the game cannot be compiled: {str(exc).splitlines()[0] if str(exc) else exc!r}")
    if len(machine.states) > MAX_STATES:
        return Figures(reason=f"the game has {len(machine.states):,} states: `hazard-dsl analyse` works its "
                              f"figures out")
    try:
        return _solved(machine, display)
    except (RulesetError, ValueError, KeyError, ArithmeticError) as exc:
        return Figures(reason=f"the game cannot be solved: {str(exc).splitlines()[0] if str(exc) else exc!r}")


def _solved(machine, display: str) -> Figures:
    from ..compile.machine import CHOICE, THROW
    from ..parse import syntax as ex
    from ..solve.bets import BetTable
    from ..solve.markov import ONE, ZERO, Chain, Solver

    solver = Solver(machine)
    solver.set_policy("optimal")
    visits = solver.forward()
    states = machine.states

    # --- rules: expected firings, summed exactly per rule
    parts: dict = {}
    start = machine.start
    if start.rule is not None:
        parts.setdefault((start.rule.phase, start.rule.index), []).append(ONE)
    for s in states:
        if s.kind != THROW or s.index not in visits:
            continue
        seen = visits[s.index]
        if not seen:
            continue
        dice = solver.throw_dice(s.index)
        by_rule: dict = {}
        for step, weight in zip(s.steps, dice.weights):
            if weight and step.rule is not None:
                key = (step.rule.phase, step.rule.index)
                by_rule[key] = by_rule.get(key, 0) + weight
        for key, weight in by_rule.items():
            parts.setdefault(key, []).append(seen * Fraction(weight, dice.total))
    rules = []
    for phase in machine.ruleset.phases.values():
        if not phase.throws:
            continue  # its rules fire within another rule's step (see the module's docstring)
        for rule in phase.rules:
            if rule.position is None or rule.position.file != display:
                continue
            ends = any(isinstance(a, ex.End) for a in rule.actions)
            rules.append(RuleFigure(phase.name, rule.index, rule.position.line - 1,
                                    sum(parts.get((phase.name, rule.index), ()), ZERO), ends))

    # --- phases: the caster's chance once the game reaches each
    win = solver.backward(lambda st: ONE if st.result == "win" else ZERO)
    phases = {}
    transient = [s.index for s in states if s.kind in (THROW, CHOICE)]
    for name, phase in machine.ruleset.phases.items():
        if not phase.throws:
            phases[name] = PhaseFigure(name, ZERO, None, False)
            continue
        inside = {i for i in transient if states[i].phase == name}
        if not inside:
            phases[name] = PhaseFigure(name, ZERO, None)
            continue
        first = start.target
        if first in inside:
            entry = {first: ONE}
        else:
            chain = Chain({i: solver.row(i) for i in transient if i not in inside})
            reached = chain.forward({first: ONE})
            entry = {i: reached[i] for i in inside if i in reached and reached[i]}
        total = sum(entry.values(), ZERO)
        phases[name] = PhaseFigure(name, total, (sum((p * win[i] for i, p in entry.items()), ZERO) / total)
                                   if total else None)

    # --- bets: each one's edge, as analyse gives it
    bets = {}
    if machine.bets:
        table = BetTable(machine, solver)
        for name in machine.bets:
            bets[name] = BetFigure(name, table.figures(name).edge if table.can_be_made(name) else None)
    return Figures(tuple(rules), phases, bets)


# --------------------------------------------------------------------------- for an editor


def never_fires(problem) -> bool:
    """Whether a problem of `check` says that a rule can never fire (or a bet's rule never
    does): an editor shows such a rule as unreachable (LSP's "unnecessary" tag, greyed). Told
    by the problem's code, not its words."""
    return problem.code in _NEVER_FIRES


_NEVER_FIRES = frozenset({"unreachable-rule", "unreachable-otherwise", "unfired-bet-rule"})


@record(frozen=True)
class InlayHint:
    """A figure shown at the end of a rule's first line: `place` is (line, column) from 0."""

    line: int
    column: int
    label: str
    tooltip: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "label": self.label, "tooltip": self.tooltip}


@record(frozen=True)
class Lens:
    """A figure over a phase or a bet (its name's line), with the commands it offers: `commands`
    are (title, command, arguments), the first the figure itself (its command analyses)."""

    line: int
    start: int
    end: int
    kind: str  # phase or bet
    name: str
    title: str
    commands: tuple = ()

    def to_json(self) -> dict:
        return {"line": self.line, "start": self.start, "end": self.end, "kind": self.kind, "name": self.name,
                "title": self.title, "commands": [{"title": t, "command": c, "arguments": list(a)}
                                                  for t, c, a in self.commands]}


# the commands a lens offers; `hazard-dsl lsp` runs them (workspace/executeCommand)
ANALYSE, DRAW, PLAY = "hazard-dsl.analyse", "hazard-dsl.draw", "hazard-dsl.play"
COMMANDS = (ANALYSE, DRAW, PLAY)
RULE_TOOLTIP = ("expected firings per game (for a rule that ends the game: the chance that a game ends by "
                "it), exact, with the default options and the optimal choices, as `hazard-dsl analyse` "
                "works them out")


def hints(figures: Figures, lines) -> list[InlayHint]:
    """An inlay hint at the end of each rule's first line (`lines`: the document's lines)."""
    found = []
    for r in figures.rules:
        text = lines[r.line].rstrip("\r") if 0 <= r.line < len(lines) else ""
        found.append(InlayHint(r.line, len(text), r.words, RULE_TOOLTIP))  # (the editor pads it)
    return found


def lenses(figures: Figures, index, uri: str) -> list[Lens]:
    """A lens over each phase and bet the document defines (the game's own: a bet's own phases
    have no figure of their own here)."""
    found = []
    for n in index.definitions:
        if n.scope != "" or n.kind not in ("phase", "bet"):
            continue
        figure = (figures.phases if n.kind == "phase" else figures.bets).get(n.name)
        if figure is None:
            continue
        title = f"{n.kind} {n.name}: {figure.words}"
        commands = ((title, ANALYSE, (uri,)),  # the figure itself: a click analyses the game
                    (f"draw {n.kind}", DRAW, (uri, n.kind, n.name)),
                    ("play", PLAY, (uri,)))
        found.append(Lens(n.start[0], n.start[1], n.end[1], n.kind, n.name, title, commands))
    return found
