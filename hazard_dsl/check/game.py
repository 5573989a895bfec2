"""Checks that need the explored game: every throw handled, every rule able to fire, every game
able to end. Run for every combination of option values, since an option can bring a rule or
a phase into play.
"""

from __future__ import annotations

import itertools

from ..compile.compiler import Exploration, explore
from ..compile.machine import CHOICE, END, THROW
from ..diagnostics import ERROR, NOTE, Diagnostic, Diagnostics
from ..model import Ruleset

MAX_OPTION_COMBINATIONS = 64
MAX_EXAMPLES = 3
MAX_STATES_CHECKED = 100_000  # over all option combinations, so a large game cannot take minutes


MAX_EXPLORATIONS = 200  # option combinations explored by check, at most
MAX_BET_CHECKS = 400  # bets played out against the game by check, at most (over all combinations)


def option_combinations(ruleset: Ruleset, relevant=None) -> list[dict]:
    """Combinations of option values, defaults first: every combination of the options in
    `relevant` (default: those the game's rules read; the others cannot change the game) when
    there are few, else one option changed at a time."""
    from ..compile.evaluate import game_options

    relevant = game_options(ruleset) if relevant is None else relevant
    names = [n for n in ruleset.options if n in relevant]
    defaults = ruleset.default_options()
    total = 1
    for name in names:
        total *= max(1, len(ruleset.options[name].values))
        if total > MAX_OPTION_COMBINATIONS:
            break
    if total <= MAX_OPTION_COMBINATIONS:
        combos = [dict(defaults, **dict(zip(names, values))) for values in
                  itertools.product(*(ruleset.options[n].values for n in names))]
    else:
        combos = [defaults] + [dict(defaults, **{n: v}) for n in names for v in ruleset.options[n].values
                               if v != defaults[n]]
    combos.sort(key=lambda c: c != defaults)
    return combos or [defaults]


def _with(options: dict, defaults: dict) -> str:
    changed = {k: v for k, v in options.items() if defaults.get(k) != v}
    return " (with " + ", ".join(f"option {k}={v}" for k, v in changed.items()) + ")" if changed else ""


def machine_problems(ruleset: Ruleset, result: Exploration, suffix: str = "") -> list[Diagnostic]:
    """Throws no rule handles, and states from which the game can never end."""
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
                              "some rule reachable from here must win, lose, push or move on"))
    return out


def _trapped(machine) -> set[int]:
    """States from which, for some choices, the game goes on for ever with probability one.

    The largest set S of non-end states such that every throw state in S has all 36 outcomes in
    S and every choice state in S has at least one alternative in S (a closed set under some
    policy). Any state in it makes the solver's equations singular and `run` loop for ever.

    Computed as the complement of what is forced out: end states; a throw state with some
    outcome forced out; a choice state with every alternative forced out. One pass over the
    edges backwards (linear), so a counter climbing inside a trap costs no more than its states."""
    states = machine.states
    predecessors: dict[int, list[int]] = {}
    waiting: dict[int, int] = {}  # choice state -> alternatives not yet forced out
    for state in states:
        if state.kind == THROW:
            targets = {step.target for step in state.steps}
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
    return {s.index for s in states if s.index not in out}


def check_game(ruleset: Ruleset) -> list[Diagnostic]:
    """All game-level diagnostics over every option combination, without duplicates."""
    defaults = ruleset.default_options()
    diags = Diagnostics()
    fired, entered = set(), set()
    seen = set()
    combinations = option_combinations(ruleset)  # the defaults come first
    explored = 0
    default_machine = None
    for number, options in enumerate(combinations):
        if explored > MAX_STATES_CHECKED or number >= MAX_EXPLORATIONS:
            diags.warning(f"only {number} of the {len(combinations)} combinations of option values were checked "
                          f"({'the game is large' if explored > MAX_STATES_CHECKED else 'there are many'})")
            break
        suffix = _with(options, defaults)
        result = explore(ruleset, options)
        if number == 0:
            default_machine = result.machine
        fired |= result.fired
        entered |= result.entered
        found = [Diagnostic(d.message + suffix, d.position, d.severity, d.hint) for d in result.diagnostics.items]
        if result.machine is not None:
            found += machine_problems(ruleset, result, suffix)
            explored += len(result.machine.states)
        for d in found:
            key = (d.position, d.message.removesuffix(suffix))
            if key not in seen:
                seen.add(key)
                diags.extend([d])
        if result.too_large:  # the other option values would only take as long to say the same
            break
    if diags.has_errors:  # dead rules are only meaningful once every combination compiles
        diags.items.append(Diagnostic("the checks of the fees, the bets and of rules that can never fire run once "
                                      "these errors are fixed", None, NOTE))
        return diags.items
    if ruleset.fees and default_machine is not None:
        diags.extend(_check_fees(ruleset, defaults, default_machine))
    if ruleset.bets:
        diags.extend(_check_bets(ruleset, defaults))
    if diags.has_errors:
        diags.items.append(Diagnostic("the check for rules that can never fire runs once these errors are fixed",
                                      None, NOTE))
        return diags.items
    for phase in ruleset.phases.values():
        if phase.name not in entered:
            diags.warning(f"phase {phase.name!r} is never reached", phase.position,
                          "no rule goes to it, and it is not the start")
            continue
        for rule in phase.rules:
            if (phase.name, rule.index) in fired:
                continue
            if rule.is_otherwise:
                diags.warning(f"the `otherwise` of phase {phase.name!r} never fires: the rules above it cover every throw",
                              rule.position)
            else:
                diags.error(f"{rule.describe()} can never fire: the rules above it, or its condition, rule out every "
                            f"throw in every state where the phase is played", rule.position)
    return diags.items


MAX_FEE_STATES = 1000


def _check_fees(ruleset: Ruleset, defaults: dict, machine) -> list[Diagnostic]:
    """Run each fee's rules from every state its counters reach, after every way a game can
    end: a counter set outside its range, a division by zero, are found here, not at the table."""
    from ..compile.bets import FeeMachine
    from ..diagnostics import RulesetError

    endings = sorted({(s.result, s.label) for s in machine.end_states()})
    out: list[Diagnostic] = []
    for fee in ruleset.fees.values():
        fm = FeeMachine(ruleset, fee, defaults)
        seen, queue = {fm.start}, [fm.start]
        try:
            while queue and len(seen) <= MAX_FEE_STATES:
                state = queue.pop()
                for result, label in endings:
                    after, _ = fm.at_game_end(state, result, label)
                    if after not in seen:
                        seen.add(after)
                        queue.append(after)
        except RulesetError as exc:
            out += exc.diagnostics
    return out


def _check_bets(ruleset: Ruleset, defaults: dict) -> list[Diagnostic]:
    """Play every bet out against the game (defaults, then one option changed at a time): a
    throw no bet rule handles, a bet that can never be made, rules that never fire."""
    from ..compile.compiler import compile_ruleset
    from ..diagnostics import RulesetError
    from ..solve.bets import BetError, BetTable
    from ..solve.markov import Solver

    from ..compile.evaluate import bet_options, game_options

    out = Diagnostics()
    fired: dict = {name: set() for name in ruleset.bets}
    in_game = game_options(ruleset)
    reads = {name: bet_options(bet) for name, bet in ruleset.bets.items()}
    # defaults, then each option that can change some bet, one value at a time; under a changed
    # option only the bets it can change are played out again
    combos = [(defaults, list(ruleset.bets))]
    for n, o in ruleset.options.items():
        changed = list(ruleset.bets) if n in in_game else [b for b in ruleset.bets if n in reads[b]]
        combos += [(dict(defaults, **{n: v}), changed) for v in o.values if v != defaults[n] and changed]
    reported = set()
    checks = 0
    for number, (options, names) in enumerate(combos):
        checks += len(names)
        if number and checks > MAX_BET_CHECKS:
            out.warning(f"the bets were checked under only {number} of the {len(combos)} option settings "
                        f"that can change them (there are many)")
            break
        suffix = _with(options, defaults)
        try:
            machine = compile_ruleset(ruleset, options)
        except RulesetError:
            continue
        solver = Solver(machine)
        # every alternative of every choice with some chance, so a bet rule that fires only
        # after a choice the optimal player would not make is not called dead
        solver.set_policy("uniform")
        table = BetTable(machine, solver)
        for name in names:
            bet = ruleset.bets[name]
            try:
                table.figures(name)
            except RulesetError as exc:
                for d in exc.diagnostics:
                    if (d.position, d.message) not in reported:
                        reported.add((d.position, d.message))
                        out.error(d.message + suffix, d.position or bet.position, d.hint)
            except BetError as exc:
                if (bet.position, str(exc)) not in reported:
                    reported.add((bet.position, str(exc)))
                    out.error(str(exc) + suffix, bet.position)
            fired[name] |= table.bet(name).fired
    if out.has_errors:
        return out.items
    for name, bet in ruleset.bets.items():
        for phase in bet.phases.values():
            for rule in phase.rules:
                if (phase.name, rule.index) not in fired[name] and not rule.is_otherwise:
                    out.warning(f"bet {name!r}: {rule.describe()} never fires", rule.position)
    return out.items
