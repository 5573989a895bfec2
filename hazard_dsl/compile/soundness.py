"""What makes a compiled game unusable: throws that no rule handles, and states from which no
game can ever end (the solver's equations would be singular, and play would loop for ever).
`compile_ruleset` refuses such a machine; `check` reports the same problems for every
combination of option values.
"""

from __future__ import annotations

from ..diagnostics import ERROR, Diagnostic
from ..model import Ruleset
from .machine import CHOICE, END, THROW

MAX_EXAMPLES = 3


def machine_problems(ruleset: Ruleset, result, suffix: str = "") -> list[Diagnostic]:
    """Throws no rule handles, and states from which the game can never end, in an
    `Exploration` (compile.compiler)."""
    out: list[Diagnostic] = []
    machine = result.machine
    for phase, cases in result.unhandled.items():
        examples = []
        for values, dice in cases[:MAX_EXAMPLES]:
            shown = ", ".join(f"{k} = {v}" for k, v in values.items())
            examples.append(f"{dice[0]}-{dice[1]}" + (f" when {shown}" if shown else ""))
        more = f" and {len(cases) - MAX_EXAMPLES} more" if len(cases) > MAX_EXAMPLES else ""
        out.append(Diagnostic(f"no rule of phase {phase!r} handles the throw {'; '.join(examples)}{more}{suffix}",
                              ruleset.phases[phase].position, ERROR, "add a rule for it, or an `otherwise:`"))
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
                                 " (with these dice some throws never come: see dice: in the rule file)")))
    return out


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
    predecessors: dict[int, list[int]] = {}
    waiting: dict[int, int] = {}  # choice state -> alternatives not yet forced out
    for state in states:
        if state.kind == THROW:
            targets = {step.target for step, w in zip(state.steps, weights) if w}
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
