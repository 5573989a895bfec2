"""Checks that need the explored game: every throw handled, every rule able to fire, every game
able to end. Run for every combination of option values, since an option can bring a rule or
a phase into play.
"""

from __future__ import annotations

import itertools

from ..compile.compiler import MAX_RULE_TESTS, explore
from ..compile.explorations import Explorations
from ..compile.soundness import machine_problems
from ..diagnostics import NOTE, Diagnostic, Diagnostics
from ..model import Ruleset
from ..records import replace

MAX_OPTION_COMBINATIONS = 64
MAX_STATES_CHECKED = 100_000  # over all option combinations, so a large game cannot take minutes
MAX_TESTS_CHECKED = 2 * MAX_RULE_TESTS  # conditions tried over all option combinations, likewise


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


def check_game(ruleset: Ruleset) -> list[Diagnostic]:
    """All game-level diagnostics over every option combination, without duplicates, each with
    the names it is about (`Diagnostic.names`: those of the compiler's problems are the phase, bet
    or fee the problem stands at, from the ruleset)."""
    found = _check_game(ruleset)
    at = _names_at(ruleset) if any(not d.names for d in found) else {}
    return [d if d.names else _with_names(d, at) for d in found]


def _names_at(ruleset: Ruleset) -> dict:
    """Each place of the ruleset's phases, bets and fees (and of their rules) -> the names of the
    part standing there: the phase's; the bet's, and its phase's; the fee's."""
    at: dict = {}
    for phase in ruleset.phases.values():
        for place in (phase.position, *(rule.position for rule in phase.rules)):
            at.setdefault(place, (phase.name,))
    for bet in ruleset.bets.values():
        at.setdefault(bet.position, (bet.name,))
        for phase in bet.phases.values():
            for place in (phase.position, *(rule.position for rule in phase.rules)):
                at.setdefault(place, (bet.name, phase.name))
    for fee in ruleset.fees.values():
        for place in (fee.position, *(rule.position for rule in fee.rules)):
            at.setdefault(place, (fee.name,))
    return at


def _with_names(d: Diagnostic, at: dict) -> Diagnostic:
    """`d` with the names of the part it stands at, and its subject (the compiler's problems say
    them in words only)."""
    names = tuple(dict.fromkeys(((d.subject,) if d.subject else ()) + at.get(d.position, ())))
    return replace(d, names=names) if names else d


def _lent():
    from ..compile.lent import explorations_lent  # lent by cache.sharing, which check may not import

    return explorations_lent()


def _check_game(ruleset: Ruleset) -> list[Diagnostic]:
    defaults = ruleset.default_options()
    diags = Diagnostics()
    fired, entered = set(), set()
    seen = set()
    combinations = option_combinations(ruleset)  # the defaults come first
    explored = tried = 0
    default_machine = None
    machines: dict = {}  # option values -> the machine explored for them, reused by the bet checks
    # what one combination's exploration lends the next: the caller's where it lends one
    # (`cache.sharing`: the language service's, so that the next text's check finds the bets
    # checked against the same game, `BetChecks`), else this check's own
    explorations = _lent() or Explorations()
    shared = explorations.shapes(ruleset)  # settings that differ only in the dice's chances are explored once
    checked = len(combinations)  # the combinations explored: fewer when the budget runs out
    for number, options in enumerate(combinations):
        # the defaults are explored as any command would; the other combinations with what is left
        budget = MAX_RULE_TESTS if number == 0 else min(MAX_RULE_TESTS, MAX_TESTS_CHECKED - tried)
        large = explored > MAX_STATES_CHECKED or budget <= 0
        if large or number >= MAX_EXPLORATIONS:
            checked = number
            diags.warning(f"only {number} of the {len(combinations)} combinations of option values were checked "
                          f"({'the game is large' if large else 'there are many'})")
            break
        suffix = _with(options, defaults)
        result = explore(ruleset, options, budget, shared)
        tried += result.tests
        if number and result.too_large and result.tests > budget and budget < MAX_RULE_TESTS:
            # out of check's budget, not of the game's own: the others are not checked
            checked = number
            diags.warning(f"only {number} of the {len(combinations)} combinations of option values were checked "
                          f"(the game is large)")
            break
        if number == 0:
            default_machine = result.machine
        machines[_key(options)] = result.machine
        fired |= result.fired
        entered |= result.entered
        found = [replace(d, message=d.message + suffix, end=None) for d in result.diagnostics.items]
        if result.machine is not None:
            found += machine_problems(ruleset, result, suffix)
            found += _passing_problems(ruleset, result.machine, options, suffix)
            explored += len(result.machine.states)
        for d in found:
            key = (d.position, d.message.removesuffix(suffix))
            if key not in seen:
                seen.add(key)
                diags.extend([d])
        if result.too_large:  # the other option values would only take as long to say the same
            checked = number + 1
            break
    if diags.has_errors:  # dead rules are only meaningful once every combination compiles
        diags.items.append(Diagnostic("the checks of the fees, the bets and of rules that can never fire run once "
                                      "these errors are fixed", None, NOTE))
        return diags.items
    if ruleset.fees and default_machine is not None:
        diags.extend(_check_fees(ruleset, default_machine))
    if ruleset.bets:
        diags.extend(_check_bets(ruleset, defaults, machines, explorations))
    if diags.has_errors:
        diags.items.append(Diagnostic("the check for rules that can never fire runs once these errors are fixed",
                                      None, NOTE))
        return diags.items
    if checked < len(combinations):
        # a rule or a phase that no explored combination reached may be reached by one that was not
        # explored: it is left unjudged, never condemned
        diags.extend(_unjudged(ruleset, entered, fired, checked, len(combinations)))
        return diags.items
    for phase in ruleset.phases.values():
        if phase.name not in entered:
            diags.warning(f"phase {phase.name!r} is never reached", phase.position,
                          "no rule goes to it, and it is not the start", code="unreached-phase",
                          names=(phase.name,))
            continue
        for rule in phase.rules:
            if (phase.name, rule.index) in fired:
                continue
            if rule.is_otherwise:
                diags.warning(f"the `otherwise` of phase {phase.name!r} never fires: the rules above it cover every throw",
                              rule.position, code="unreachable-otherwise", names=(phase.name,))
            else:
                diags.error(f"{rule.describe()} can never fire: the rules above it, or its condition, rule out every "
                            f"throw in every state where the phase is played", rule.position, code="unreachable-rule",
                            names=(phase.name,))
    return diags.items


def _unjudged(ruleset: Ruleset, entered: set, fired: set, checked: int, total: int) -> list[Diagnostic]:
    """One warning for each phase with rules (or the phase itself) not seen to fire in the
    combinations explored: at the first of them, naming the others."""
    out = []
    of = f"in the {checked} of the {total} combinations of option values explored"
    for phase in ruleset.phases.values():
        if phase.name not in entered:
            out.append(Diagnostic(f"phase {phase.name!r} was not reached {of}: not judged (it may be reached "
                                  f"under the others)", phase.position, "warning",
                                  "fewer options, or fewer values, let check explore every combination",
                                  code="unjudged", names=(phase.name,)))
            continue
        quiet = [rule for rule in phase.rules if (phase.name, rule.index) not in fired]
        if not quiet:
            continue
        numbers = [str(rule.index + 1) for rule in quiet]
        shown = ", ".join(numbers[:6]) + (f" … {numbers[-1]}" if len(numbers) > 6 else "")
        what = f"rule {shown}" if len(quiet) == 1 else f"{len(quiet)} rules ({shown})"
        out.append(Diagnostic(f"{what} of phase {phase.name!r} did not fire {of}: not judged (they may fire "
                              f"under the others)" if len(quiet) > 1 else
                              f"{what} of phase {phase.name!r} did not fire {of}: not judged (it may fire "
                              f"under the others)", quiet[0].position, "warning",
                              "fewer options, or fewer values, let check explore every combination",
                              code="unjudged", names=(phase.name,)))
    return out


def _passing_problems(ruleset: Ruleset, machine, options: dict, suffix: str) -> list[Diagnostic]:
    """`passing:` compiled for these option values: an expression that divides by zero or comes
    to a number out of range is found here, not at the table."""
    from ..compile.passing import compile_passing
    from ..diagnostics import RulesetError

    if ruleset.passing is None:
        return []
    try:
        compile_passing(ruleset.passing, sorted({(s.result, s.label) for s in machine.end_states()}), options)
    except RulesetError as exc:
        return [replace(d, message=d.message + suffix, end=None) for d in exc.diagnostics]
    return []


def _check_fees(ruleset: Ruleset, machine) -> list[Diagnostic]:
    """Compile each fee against the game: its rules run from every state its counters reach,
    after every way a game can end, so a counter set outside its range, a division by zero,
    are found here, not at the table."""
    from ..compile.fees import compile_fee, count_fee_states
    from ..diagnostics import RulesetError

    out: list[Diagnostic] = []
    states = 0
    for fee in ruleset.fees.values():
        try:
            compiled = compile_fee(machine, fee)
        except RulesetError as exc:
            out += exc.diagnostics
            continue
        try:
            states = count_fee_states(states, compiled)
        except RulesetError as exc:  # the rest would take as long to say the same
            out += exc.diagnostics
            break
    return out


def _key(options: dict) -> tuple:
    return tuple(sorted(options.items()))


def _check_bets(ruleset: Ruleset, defaults: dict, machines: dict,
                explorations: Explorations | None = None) -> list[Diagnostic]:
    """Play every bet out against the game (defaults, then one option changed at a time): a
    throw no bet rule handles, a bet that can never be made, rules that never fire.
    `explorations`: those the machines came from (a bet is compiled once for the machines of one)."""
    from ..compile.bets import TooManyBetNodes, count_bet_nodes
    from ..compile.compiler import compile_ruleset
    from ..compile.evaluate import bet_options, game_options
    from ..diagnostics import RulesetError
    from ..solve.bets import BetError, BetTable
    from ..solve.markov import Solver

    out = Diagnostics()
    shared = explorations.shapes(ruleset) if explorations is not None else None
    memo = explorations.bet_checks if explorations is not None else None
    fired: dict = {name: set() for name in ruleset.bets}
    in_game = game_options(ruleset)
    if memo is not None:  # each bet as data once, for the memo's keys
        rules = tuple(ruleset.rules()) if any(bet.own_game for bet in ruleset.bets.values()) else ()
        keys = {name: memo.bet_key(bet, rules) for name, bet in ruleset.bets.items()}
        reads = {name: memo.reads(keys[name], bet) for name, bet in ruleset.bets.items()}
    else:
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
        machine = machines.get(_key(options))
        if machine is None:
            try:
                machine = compile_ruleset(ruleset, options, bets=(), explorations=explorations)
            except RulesetError:
                continue
        # a bet checked against this same game before (the text before a keystroke) says the same
        # again without being played out: `BetChecks`, the caller's, found by value
        kept = memo.of(memo.game_key(machine)) if memo is not None else None
        compiled: dict = {}
        table = None
        nodes = 0
        for name in names:
            bet = ruleset.bets[name]
            key = keys[name] if kept is not None else None
            found = kept.get(key) if kept is not None else None
            if found is None and table is None:
                solver = Solver(machine)
                # every alternative of every choice with some chance, so a bet rule that fires only
                # after a choice the optimal player would not make is not called dead
                solver.set_policy("uniform")
                table = BetTable(machine, solver, compiled)
            try:
                if found is None:
                    found = _play(machine, bet, table, compiled, shared)
                    if kept is not None:
                        memo.keep(kept, key, found)
                        memo.played += 1
                elif memo is not None:
                    memo.found += 1
                one, error = found
                if one is not None:
                    compiled[name] = one
                    nodes = count_bet_nodes(nodes, one)
                    fired[name] |= one.fired
                if error is not None:  # (raised afresh: a kept error's traceback would grow each time)
                    raise error.with_traceback(None)
            except RulesetError as exc:
                for d in exc.diagnostics:
                    if (d.position, d.message) not in reported:
                        reported.add((d.position, d.message))
                        out.items.append(replace(d, message=d.message + suffix, position=d.position or bet.position,
                                                 severity="error", end=None))
                if isinstance(exc, TooManyBetNodes):  # the rest would take as long to say the same
                    return out.items
            except BetError as exc:
                if (bet.position, str(exc)) not in reported:
                    reported.add((bet.position, str(exc)))
                    out.error(str(exc) + suffix, bet.position)
    if out.has_errors:
        return out.items
    for name, bet in ruleset.bets.items():
        for phase in bet.phases.values():
            for rule in phase.rules:
                if (phase.name, rule.index) not in fired[name] and not rule.is_otherwise:
                    out.warning(f"bet {name!r}: {rule.describe()} never fires", rule.position,
                                code="unfired-bet-rule", names=(name, rule.phase))
    return out.items


def _play(machine, bet, table, compiled: dict, shared) -> tuple:
    """`bet` compiled and played out against the game (`_check_bets`): (the compiled bet or None,
    the RulesetError or BetError that stopped it or None). Played out, not solved: what can go
    wrong is in the chain itself (a bet never decided) or where it is made (never made; a
    commission it cannot pay)."""
    from ..compile.bets import compile_bet
    from ..diagnostics import RulesetError
    from ..solve.bets import BetError

    try:
        one = shared.compiled_bet(machine, bet) if shared is not None else compile_bet(machine, bet)
    except (RulesetError, BetError) as exc:
        return None, exc.with_traceback(None)  # kept: without the frames it was raised in
    compiled[bet.name] = one
    try:
        placed = table.placement(one)
        table.never_decided(one, [(g, 0) for g in placed])
        for g in placed:
            table.up_front(one, g)
    except (RulesetError, BetError) as exc:
        return one, exc.with_traceback(None)
    return one, None
