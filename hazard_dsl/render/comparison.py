"""The report of `compare`: rulesets side by side (`compare_tables`), and, between two
machines, the throws that do something different in which state (`differences`,
`rule_differences`); the JSON contract (`comparison_json`)."""

from __future__ import annotations

from ..compile.machine import CHOICE, END, OUTCOMES, THROW, Machine
from ..solve.analysis import Analysis
from .phrases import EDGE_DIGITS, EDGE_MEANS, dice_text, edge_percent, odds_against, one_in, options_text, \
    recast_text, stake_edge, throws_text, units_of, unstaked
from .report import analysis_json
from .tables import Table, both, decimal, number_and, percent, with_decimal
from .transitions import key_text


def comparison(labelled: list, machines: list) -> tuple:
    """What `compare` prints, and a notebook shows, for variants side by side: their figures
    (`labelled`: (label, Analysis) for each) and, for each after the first, the throws that do
    something different from the first (`machines` in the same order). Returns the header (the
    variants whose states do not match the first's, if any) and the tables."""
    tables = compare_tables(labelled)
    base_label, base = labelled[0][0], machines[0]
    unmatched = []
    for number, ((label, _), machine) in enumerate(zip(labelled[1:], machines[1:]), 2):
        table = rule_differences(base_label, base, label, machine, number)
        if table is None:
            unmatched.append(label)
        else:
            tables.append(table)
    header = None
    shapes = {label: machine for (label, _), machine in zip(labelled, machines)}
    other_dice = [label for label in unmatched if shapes[label].outcomes != base.outcomes]
    same_dice = [label for label in unmatched if label not in other_dice]
    said = []
    if same_dice:
        said.append(f"No throw-by-throw comparison with {base_label} for {', '.join(same_dice)}: their states "
                    f"(phases and variables) do not match {base_label}'s.")
    if other_dice:
        said.append(f"No throw-by-throw comparison with {base_label} ({_dice_words(base)}) for "
                    + ", ".join(f"{label} ({_dice_words(shapes[label])})" for label in other_dice)
                    + ": other dice throw other throws; the figures below compare the games as wholes.")
    if said:
        header = " ".join(said)
    return header, tables


def _dice_words(machine: Machine) -> str:
    d = machine.dice
    return f"{d.count} dice of {', '.join(d.names)}" if d.names else f"{d.count}d{d.sides}"


def comparison_json(entries, machines) -> dict:
    """`compare --json`: each variant's figures (`analysis_json` with its text as `name`) and,
    against the first, the throws on which each other variant's rules differ. `entries` and
    `machines` are `commands.compare.compare_request`'s [(label, Analysis)] and [(label,
    Machine)]."""
    base_name, base = machines[0]
    return {
        "rulesets": [dict(analysis_json(a), name=text) for text, a in entries],
        "differences": [{"base": base_name, "other": other_name, "rows": differences(base, other)}
                        for other_name, other in machines[1:]],
    }


def compare_tables(entries: list[tuple[str, Analysis]], columns: int | None = None) -> list[Table]:
    """The rulesets side by side, with exact fractions; for a terminal too narrow for them
    (tables.render chooses), a `narrow` form in percentages, the options that differ and the
    long names under the table, whose caption says where the exact figures are. (`columns` is
    no longer used: the renderer knows the width.)"""
    table = _side_by_side(entries, compact=False)
    table.narrow = _side_by_side(entries, compact=True)
    return [table]


def _side_by_side(entries: list[tuple[str, Analysis]], compact: bool) -> Table:
    names = [name for name, _ in entries]
    t = Table("Side by side", ["", *names], short=short_names(names))
    if compact:
        keys = list(dict.fromkeys(k for _, a in entries for k in a.options))
        differ = [k for k in keys if len({str(a.options.get(k)) for _, a in entries}) > 1]
        rows = [
            ("win %", lambda a: percent(a.figures.win)),
            ("lose %", lambda a: percent(a.figures.lose)),
            ("push %", lambda a: percent(a.figures.push)),
            ("edge %", lambda a: edge_percent(a.figures.edge)),
            ("setter : caster", lambda a: odds_against(a.figures.lose, a.figures.win, True, approximate_only=True)),
            ("expected throws", lambda a: decimal(a.figures.expected_throws)),
            ("median throws", lambda a: throws_text(a.median_throws, a)),
            ("99th percentile throws", lambda a: throws_text(a.high_percentile_throws, a)),
        ]
    else:
        rows = [
            ("win", lambda a: both(a.figures.win)),
            ("lose", lambda a: both(a.figures.lose)),
            ("push", lambda a: both(a.figures.push)),
            ("edge", lambda a: both(a.figures.edge, EDGE_DIGITS)),
            ("setter : caster", lambda a: odds_against(a.figures.lose, a.figures.win)),
            ("expected throws", lambda a: with_decimal(a.figures.expected_throws)),
            ("median throws", lambda a: throws_text(a.median_throws, a)),
            ("99th percentile throws", lambda a: throws_text(a.high_percentile_throws, a)),
            ("options", lambda a: options_text(a.options)),
        ]
    two_edges = any(a.stake is not None or stake_edge(a) != a.figures.edge for _, a in entries)
    if two_edges:
        # Some variant ends games before any stake is laid (a turn lost on the first throw): its
        # game's P(lose) − P(win) counts those games too, a figure per game, not per stake, so it
        # is shown as the caster's net per game, and the edge money meets is the stake's, per
        # stake laid. Where the stake is laid in every game at even money the two are one figure.
        at = next(k for k, (title, _) in enumerate(rows) if title.startswith("edge"))
        rows[at] = ("caster's net per game %" if compact else "caster's net per game",
                    (lambda a: edge_percent(a.figures.win - a.figures.lose)) if compact
                    else (lambda a: both(a.figures.win - a.figures.lose, EDGE_DIGITS)))
        rows.insert(at, ("edge per stake laid %" if compact else "edge per stake laid",
                         (lambda a: edge_percent(stake_edge(a))) if compact
                         else (lambda a: both(stake_edge(a), EDGE_DIGITS))))
    for title, cell in rows:
        t.add(title, *(cell(a) for _, a in entries))
    loaded = [(name, a.dice) for name, a in entries if a.dice is not None and not a.dice.fair]
    if loaded:  # the loadings in words go under the table, where they have room
        t.add("dice", *("loaded" if a.dice is not None and not a.dice.fair else "fair" for _, a in entries))
    if any(a.recast is not None for _, a in entries):
        t.add("dice off (each die)", *(f"1 in {one_in(a.recast['chance'])}" if a.recast is not None else "never"
                                       for _, a in entries))
    labels: list[str] = []
    for _, a in entries:
        labels += [label for label in a.figures.labels if label not in labels]
    shared = [label for label in labels if all(label in a.figures.labels for _, a in entries)]
    from ..model import readable

    for label in labels:  # a reader is shown the label's words ("no doublets"), never its identifier
        t.add(f"label {readable(label)}" + (" %" if compact else "") + ("" if label in shared else " *"),
              *((percent if compact else both)(a.figures.labels[label]) if label in a.figures.labels else "—"
                for _, a in entries))
    notes = ["* not a label of every ruleset"] if len(shared) != len(labels) else []
    if two_edges:
        counted = "; ".join(f"{name}: {unstaked(a)}" for name, a in entries if a.stake is not None)
        notes.append("edge per stake laid: the stake's edge, where some games end before any stake is laid; the "
                     "caster's net per game, in stakes at even money, counts every game" +
                     (f" ({counted})." if counted else "."))
    for name, dice in loaded:
        notes.append(f"Dice of {name}: {dice_text(dice)} (each face's chance).")
    if compact:
        notes.append("Percentages, to fit the terminal: the exact fractions are in --format json (or a wider "
                     "terminal).")
        said = [f"{name}: {', '.join(f'{k}={a.options[k]}' for k in differ if k in a.options)}"
                for name, a in entries if any(k in a.options for k in differ)]
        if said:
            notes.append("Options that differ: " + "; ".join(said) + ".")
    bets: list[str] = []
    for _, a in entries:
        bets += [name for name in a.bets if name not in bets]
    for name in bets:
        t.add(f"bet {name}: edge", *(edge_percent(a.bets[name].edge) if name in a.bets else "—" for _, a in entries))
    fees: list[str] = []
    for _, a in entries:
        fees += [name for name in a.fees if name not in fees]
    for name in fees:
        t.add(f"fee {name}: cost per game", *(number_and(f"{decimal(a.fees[name].cost_per_game)} {units_of(a)}",
                                                         decimal(a.fees[name].cost_per_game)) if name in a.fees
                                             else "—" for _, a in entries))
    notes.append(EDGE_MEANS)
    t.caption = "\n".join(notes)
    return t


def short_names(names: list[str]) -> dict:
    """Short headings for the long names of variants, for a narrow terminal: the ruleset's own
    name and the variant's number ("french (2)" for french:not_a_nick=void, the second)."""
    from pathlib import PurePath

    out = {}
    for k, name in enumerate(names, 1):
        if len(name) > 10:
            base = name.split(":")[0] if ":" in name and not PurePath(name).suffix == ".yaml" else name
            out[name] = f"{PurePath(base).stem or base}\u00a0({k})"  # one unit: never "tavern" / "(3)"
    return out


def rule_differences(base_name: str, base: Machine, other_name: str, other: Machine,
                     number: int | None = None) -> Table | None:
    """The table of `differences`: which throws do something different in which state (`number`:
    the other's place among the variants compared, for its short heading)."""
    rows = differences(base, other)
    if rows is None:
        return None
    short = short_names([base_name] + ([""] * (number - 2) if number else []) + [other_name])
    t = Table(f"How {other_name} differs from {base_name}", ["phase", "throw", "when", base_name, other_name],
              short=short)
    for row in rows:
        t.add(row["phase"], ", ".join(row["throws"]) or "—", row["when"], row["base"], row["other"])
    if not t.rows:
        t.add("—", "—", "—", "the same", "the same")
    notes = [] if base.dice == other.dice else [_dice_differ(base_name, base.dice, other_name, other.dice)]
    if recast_text(base) != recast_text(other):
        notes.append(f"Dice that land off: {base_name} {recast_text(base)}; {other_name} {recast_text(other)}.")
    t.caption = " ".join(notes) or None
    return t


def _dice_differ(base_name: str, base, other_name: str, other) -> str:
    """What differs between two dice of as many throws: their faces' names (the throws above are
    then written by the faces' numbers), their loadings, or both."""
    said = []
    if base.names != other.names:
        def faces(dice) -> str:
            if not dice.names:
                return f"numbers its faces 1 to {dice.sides}"
            return "names its faces " + ", ".join(f"{name} {k}" for k, name in enumerate(dice.names, 1))

        said.append(f"The dice differ: {base_name} {faces(base)}; {other_name} {faces(other)}; the throws above "
                    f"are written by the faces' numbers.")
    if dice_text(base) != dice_text(other) or (not said and base != other):
        said.append(f"The dice {'also ' if said else ''}differ: {base_name} {dice_text(base)}; {other_name} "
                    f"{dice_text(other)}. What a throw does is compared above; how often each throw comes is the "
                    f"dice's doing.")
    return " ".join(said)


def differences(base: Machine, other: Machine) -> list[dict] | None:
    """Which throws do something different in which state, between two machines: a list of
    {phase, throws, when, base, other}, or None when their states cannot be matched.

    States are matched by phase name and variable values, so rulesets built with `extends`
    (or sharing names) line up; rows with the same difference are merged across states."""
    if base.variables != other.variables or base.outcomes != other.outcomes:
        return None  # (dice of other numbers or faces throw other throws: none to match)
    index = {(s.phase, s.values): s for s in other.states if s.kind == THROW}
    # throws by the faces' names where both dice name them alike; else by their numbers
    faces = base.dice.names if base.dice.names == other.dice.names else ()
    named = bool(base.dice.names or other.dice.names)
    merged: dict = {}
    matched = 0
    for state in base.states:
        if state.kind != THROW:
            continue
        twin = index.get((state.phase, state.values))
        if twin is None:
            continue
        matched += 1
        for throw, a, b in _throw_keys(lambda k: describe_step(base, state, state.steps[k]),
                                       lambda k: describe_step(other, twin, twin.steps[k]), base.outcomes, named):
            merged.setdefault((state.phase, throw, a, b), {})[state.index] = state
    if not matched:
        return None
    rows: list[dict] = []
    if _start(base) != _start(other):
        rows.append({"phase": "start", "throws": [], "when": "—", "base": _start(base), "other": _start(other)})
    base_phases = {s.phase for s in base.states if s.kind == THROW}
    other_phases = {s.phase for s in other.states if s.kind == THROW}
    for phase in sorted(base_phases ^ other_phases):
        rows.append({"phase": phase, "throws": [], "when": "any",
                     "base": "played" if phase in base_phases else "never played",
                     "other": "played" if phase in other_phases else "never played"})
    grouped: dict = {}  # the same difference for several throws makes one row
    for (phase, throw, a, b), states in merged.items():
        grouped.setdefault((phase, _where(base, list(states.values())), a, b), []).append(throw)
    for (phase, where, a, b), throws in sorted(grouped.items(), key=lambda kv: (kv[0][0], _throw_order(kv[1][0]))):
        rows.append({"phase": phase, "throws": [key_text(t, faces) for t in sorted(throws, key=_throw_order)],
                     "when": where, "base": a, "other": b})
    return rows


def describe_step(machine: Machine, state, step) -> str:
    """What a throw does, in terms comparable across machines."""
    after = machine.states[step.target]
    if after.kind == END:
        return f"{after.result} {after.label}"
    if step.target == state.index:
        return "throw again"
    changed = [f"{n} = {v}" for n, v, w in zip(machine.variables, after.values, state.values) if v != w]
    return f"go to {after.phase}" + (f" ({', '.join(changed)})" if changed else "")


def _start(machine: Machine) -> str:
    state = machine.states[machine.start.target]
    if state.kind == CHOICE:
        offered = ", ".join(str(v) for v, _ in state.alternatives)
        return f"the {state.chooser} chooses {state.variable} from {offered}"
    return f"throw in {state.phase}"


def _where(machine: Machine, states) -> str:
    """The variable values, among `states`, that matter: "main ∈ {5, 7, 9}"."""
    parts = []
    for position, name in enumerate(machine.variables):
        if not _matters(machine, states[0].phase, name):
            continue
        values = sorted({s.values[position] for s in states})
        parts.append(f"{name} = {values[0]}" if len(values) == 1 else f"{name} ∈ {{{', '.join(map(str, values))}}}")
    return "; ".join(parts) or "always"


def _matters(machine: Machine, phase: str, variable: str) -> bool:
    """Whether a variable takes more than one value in a phase (only those are worth showing)."""
    position = machine.variables.index(variable)
    return len({s.values[position] for s in machine.states if s.phase == phase and s.kind == THROW}) > 1


def _throw_keys(describe_a, describe_b, table: tuple = OUTCOMES, named: bool = False) -> list:
    """(throw, what base does, what other does) for each throw that differs, as totals where
    every throw of a total does the same, and as dice ("2-2", "1-3") where the rules read the
    faces (a doublet nicks, a 4 of 1-3 does not), or where a ruleset names its faces, whose
    totals mean nothing (`named`). A throw is its total (an int) or its faces (a tuple)."""
    by_total: dict = {}
    for k, faces in enumerate(table):
        by_total.setdefault(sum(faces), []).append((faces, describe_a(k), describe_b(k)))
    out = []
    for total, throws in sorted(by_total.items()):
        pairs = {(a, b) for _, a, b in throws}
        if len(pairs) == 1 and not named:
            (a, b), = pairs
            if a != b:
                out.append((total, a, b))
            continue
        seen = {}
        for faces, a, b in throws:
            if a != b:
                seen.setdefault((tuple(sorted(faces)), a, b), None)
        out += list(seen)
    return out


def _throw_order(throw) -> tuple:
    return (throw, ()) if isinstance(throw, int) else (sum(throw), throw)
