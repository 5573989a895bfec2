"""What makes a compiled game unusable: throws that no rule handles, and states from which no
game can ever end (the solver's equations would be singular, and play would loop for ever).
`compile_ruleset` refuses such a machine; `check` reports the same problems for every
combination of option values.
"""

from __future__ import annotations

from operator import attrgetter

from ..diagnostics import ERROR, Diagnostic
from ..model import Ruleset, dice_shape
from .evaluate import throw_kind
from .machine import CHOICE, END, OUTCOMES, THROW, outcomes_of

MAX_EXAMPLES = 3
_TARGET = attrgetter("target")


def machine_problems(ruleset: Ruleset, result, suffix: str = "") -> list[Diagnostic]:
    """Throws no rule handles, and states from which the game can never end, in an
    `Exploration` (compile.compiler)."""
    out: list[Diagnostic] = []
    machine = result.machine
    for phase, cases in result.unhandled.items():
        out.append(Diagnostic(f"no rule of phase {phase!r} handles {_unhandled(ruleset, phase, cases, result)}{suffix}",
                              ruleset.phases[phase].position, ERROR, "add a rule for it, or an `otherwise:`",
                              code="unhandled-throw", subject=phase))
    if machine is None or result.unhandled:
        return out
    trapped = _trapped(machine)
    reported = set()
    for number in sorted(trapped):
        state = machine.states[number]
        if state.phase in reported:
            continue
        reported.add(state.phase)
        shown = ", ".join(f"{n} = {v}" for n, v in zip(machine.variables, state.values))
        where = f"phase {state.phase!r}" + (f" with {shown}" if shown else "")
        if state.kind == CHOICE:
            where += f" (the {state.chooser} chooses {state.variable})"
        out.append(Diagnostic(f"from {where} no game can ever end: every throw leads back"
                              f"{' or a choice can keep it going' if state.kind == CHOICE else ''}{suffix}",
                              ruleset.phases[state.phase].position, ERROR,
                              "some rule reachable from here must win, lose, push or move on"
                              + ("" if result.machine.dice.fair else
                                 " (with these dice some throws never come: see dice: in the rule file)"),
                              code="never-ends"))
    return out


def _unhandled(ruleset: Ruleset, phase: str, cases: list, result) -> str:
    """The throws no rule of `phase` handles, as an author thinks of them: by total (by the faces
    only where the phase's rules read them), and the variables' values only where they matter —
    where some states of the phase leave other throws unhandled than the rest do."""
    kind = throw_kind(ruleset.phases[phase].rules)
    by_faces = kind is not sum
    shape = dice_shape(ruleset)
    outcomes = outcomes_of(shape.count, shape.sides)
    if kind is not None:  # a throw worked out once stands for those of its kind (compile.compiler)
        alike: dict = {}
        for o in outcomes:
            alike.setdefault(kind(o), []).append(o)
        cases = [(values, o) for values, dice in cases for o in alike[kind(tuple(dice))]]
    visited = result.thrown.get(phase) or [values for values, _ in cases]
    names = [n for n in (visited[0] if visited else {}) if len({v[n] for v in visited}) > 1]  # those that vary
    missing: dict = {}  # the varying variables' values -> the throws left unhandled there
    for values in visited:
        missing.setdefault(tuple(values[n] for n in names), set())
    for values, dice in cases:
        missing.setdefault(tuple(values[n] for n in names), set()).add(tuple(dice))
    groups: dict = {}  # a set of throws -> the values where exactly these are left
    for key, throws in missing.items():
        if throws:
            groups.setdefault(frozenset(throws), []).append(key)
    everywhere = len(groups) == 1 and all(missing.values())
    parts = []
    for throws, keys in list(groups.items())[:MAX_EXAMPLES]:
        text = _throws(throws, by_faces, outcomes)
        if names and not everywhere:
            text += " when " + _values(names, keys)
        parts.append(text)
    more = f"; and {len(groups) - MAX_EXAMPLES} more cases" if len(groups) > MAX_EXAMPLES else ""
    return "; ".join(parts) + more


def _throws(throws, by_faces: bool, outcomes: tuple = OUTCOMES) -> str:
    """`the throws of totals 11 and 12`, or with faces `the throws 3-3, 4-4 and of total 11`."""
    totals = sorted({sum(t) for t in throws})
    whole = [t for t in totals if all(o in throws for o in outcomes if sum(o) == t)]
    faces = sorted(t for t in throws if sum(t) not in whole) if by_faces else []
    if not by_faces:
        whole = totals
    of_totals = f"total{'s' if len(whole) > 1 else ''} " + _and([str(t) for t in whole]) if whole else ""
    if not faces:
        return f"the throw{'s' if len(whole) > 1 else ''} of {of_totals}"
    shown = ["-".join(map(str, t)) for t in faces]
    if not whole:
        return f"the throw{'s' if len(faces) > 1 else ''} " + _and(shown)
    return f"the throws {', '.join(shown)} and those of {of_totals}"


def _values(names: list, keys: list) -> str:
    if len(names) == 1:
        shown = sorted({k[0] for k in keys}, key=lambda v: (str(type(v)), v))
        if len(shown) == 1:
            return f"{names[0]} = {shown[0]}"
        if len(shown) > 6:
            return f"{names[0]} is {', '.join(map(str, shown[:5]))} or {len(shown) - 5} other values"
        return f"{names[0]} is {_and(list(map(str, shown)), 'or')}"
    shown = [", ".join(f"{n} = {v}" for n, v in zip(names, k)) for k in keys[:MAX_EXAMPLES]]
    rest = f" or {len(keys) - MAX_EXAMPLES} other states" if len(keys) > MAX_EXAMPLES else ""
    return " or ".join(shown) + rest


def _and(words: list, last: str = "and") -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def _trapped(machine) -> set[int]:
    """States from which, for some choices, the game goes on for ever with probability one.

    The largest set S of non-end states such that every throw state in S has all its possible
    outcomes (all 36 with fair dice) in S and every choice state in S has at least one alternative in S (a closed set under some
    policy). Any state in it makes the solver's equations singular and `run` loop for ever.

    Computed as the complement of what is forced out: end states; a throw state with some
    outcome forced out; a choice state with every alternative forced out. One pass over the
    edges backwards (linear), so a counter climbing inside a trap costs no more than its states."""
    states = machine.states
    weights = machine.dice.weights  # a throw loaded dice never show leads nowhere
    every = all(weights)  # (then every step counts: read without a look at its weight)
    predecessors: dict[int, list[int]] = {}
    waiting: dict[int, int] = {}  # choice state -> alternatives not yet forced out
    for state in states:
        if state.kind == THROW:
            targets = set(map(_TARGET, state.steps)) if every else \
                {step.target for step, w in zip(state.steps, weights) if w}
        elif state.kind == CHOICE:
            targets = {step.target for _, step in state.alternatives}
            waiting[state.index] = len(targets)
        else:
            continue
        for target in targets:
            predecessors.setdefault(target, []).append(state.index)
    out = {s.index for s in states if s.kind == END}
    work = list(out)
    while work:
        for source in predecessors.get(work.pop(), ()):
            if source in out:
                continue
            if source in waiting:
                waiting[source] -= 1
                if waiting[source]:
                    continue
            out.add(source)
            work.append(source)
    trapped = {s.index for s in states if s.index not in out}
    if trapped and not machine.dice.fair:  # only where these dice can take the game
        reached, work = {machine.start.target}, [machine.start.target]
        while work:
            state = states[work.pop()]
            if state.kind == THROW:
                nxt = [step.target for step, w in zip(state.steps, weights) if w]
            elif state.kind == CHOICE:
                nxt = [step.target for _, step in state.alternatives]
            else:
                nxt = []
            for t in nxt:
                if t not in reached:
                    reached.add(t)
                    work.append(t)
        trapped &= reached
    return trapped
