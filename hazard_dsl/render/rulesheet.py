"""`hazard-dsl rules`: the rule sheet of a variant, written from the compiled machine and the rule
file's words — what a re-enactor prints for the table tonight.

Nothing on the sheet is copied from the rule file's tables, because a rule file has none: the
table of nicks, outs and chances is *derived* — for each value of the variable a phase's throw
states differ in (the main), the throws that end the game with each label, that are thrown
again, or that move the game on (set the chance) — so it can never carry a misprint the rules
do not (the "History of Hazard & Craps" sheet's "7 outs 6"). The words are the file's: phase
descriptions, labels and what the narrator says, the names of throws and faces, options,
sources and notes; an expression is said in words (`in_words`). Figures are
exact (`solve.analysis`): the caster's chance per main, each bet's payout and edge, each fee's
cost.

`sheet(machine, analysis)` gives the sheet as data (what `--format json` prints); `render`
(`render.sheet_writer`) writes it as text (the terminal's width), Markdown, or a standalone HTML
page that prints on one or two A4 or Letter pages.
"""

from __future__ import annotations

from ..compile.machine import CHOICE, END, THROW, Machine
from ..solve.markov import ONE, ZERO, Solver
from ..version import __version__
from . import in_words
from .sheet_writer import render, throws_chart, verb
from .tables import exact
from .transitions import RESULT_WORDS, View, key_text, phase_rows, phase_said
from ..model import readable
from .words import fill

FORMATS = ("text", "markdown", "html", "json")
MAX_TABLE_ROWS = 13  # a phase's table by value up to this many rows; beyond, said in general terms


def _said(ruleset, machine, template: str | None) -> str:
    if not template:
        return ""
    values = {"caster": ruleset.words.caster, "throw": "the throw", "total": "the throw"}
    values.update({v: f"the {v}" for v in machine.variables})
    text = " ".join(fill(template, values).split())
    return text[:1].upper() + text[1:]


def _words(text: str | None) -> str:
    return " ".join(str(text).split()) if text else ""


def _heading(key, machine: Machine) -> tuple[str, str]:
    """A column's heading in the rules' words, and its result (for colour)."""
    if key[0] == "end":
        _, result, label = key
        return f"{label} ({RESULT_WORDS.get(result, result)})", result
    if key[0] == "again":
        return "thrown again", ""
    _, phase, does = key
    variables = [part.split(" = ")[0] for part in does.split("; ") if part.endswith("= the throw")]
    if len(variables) == 1:
        variable = variables[0]
        return (variable if variable == phase else f"{variable} (then {phase})"), ""
    return (f"{does}, then {phase}" if does else f"then {phase}"), ""


def sheet(machine: Machine, analysis, policy: str = "optimal") -> dict:
    """The rule sheet as data: every table derived from the machine, every word from the rules."""
    ruleset = machine.ruleset
    solver = Solver(machine)
    solver.set_policy(analysis.policy if analysis is not None else policy)
    wins = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    recast = machine.recast is not None
    view = View(machine, unfold=False, names=True, dice_of=solver.throw_dice if recast else None)
    results = {}
    for s in machine.end_states():
        results.setdefault(s.label, s.result)
    out: dict = {
        "title": ruleset.name, "year": ruleset.year, "file": ruleset.file, "caster": ruleset.words.caster,
        "description": _words(ruleset.description),
        "built_on": ruleset.built_on if ruleset.extends else None,
        "options": [{"option": o.name, "value": machine.options.get(o.name),
                     "means": _words(o.value_notes.get(machine.options.get(o.name))),
                     "about": _words(o.description),
                     "others": [v for v in o.values if v != machine.options.get(o.name)]}
                    for o in ruleset.options.values()],
        "phases": [],
    }
    for phase in view.phases:
        entry = {"phase": phase, "description": phase_said(machine, phase, view)}
        throws = [n for n in view.nodes.values() if n.phase == phase and n.kind == THROW]
        choices = [n for n in view.nodes.values() if n.phase == phase and n.kind == CHOICE]
        for node in choices:
            entry.setdefault("choices", []).append(_choice(machine, analysis, view, node))
        for node in throws:
            if len(node.params) == 1 and len(node.members) <= MAX_TABLE_ROWS:
                entry.setdefault("tables", []).append(_table(machine, phase, node.params[0], wins, results))
            else:
                entry.setdefault("lines", []).extend(_lines(view, node))
        out["phases"].append(entry)
    out["labels"] = [{"label": label, "result": result, "says": _said(ruleset, machine, ruleset.labels[label].say
                                                                      if label in ruleset.labels else None),
                      "chance": exact(analysis.figures.labels.get(label, 0)) if analysis is not None else None}
                     for label, result in results.items()]
    if analysis is not None:
        f = analysis.figures
        out["chosen"] = any(s.kind == CHOICE for s in machine.states)
        out["odds"] = {"win": exact(f.win), "lose": exact(f.lose), "push": exact(f.push), "edge": exact(f.edge),
                       "expected_throws": exact(f.expected_throws)}
        if analysis.stake is not None:  # some games end before any stake: the stake's own figures lead
            bet = analysis.bets[analysis.stake["bet"]]
            out["odds"]["stake"] = {"bet": analysis.stake["bet"], "win": exact(bet.win), "edge": exact(bet.edge),
                                    "made_per_game": exact(analysis.stake["made_per_game"]),
                                    "unmade": [{"label": label, "result": results.get(label), "chance": exact(p)}
                                               for label, p in analysis.stake["unmade"].items()]}
    out["dice"] = None
    if not machine.dice.fair:
        from .phrases import dice_text

        out["dice"] = dice_text(machine.dice)
    out["recast"] = _recast(machine)
    out["passing"] = _passing(machine)
    table = ruleset.table
    out["money"] = {
        "unit": ruleset.money_unit, "units": ruleset.money_units,
        "stakes": ("a bank answers every stake" if table.against == "bank"
                   else "each setter stakes against the caster, who answers him"),
        "when_short": ("a caster who cannot cover every stake forfeits the dice (hard play)"
                       if table.when_short == "forfeit" else "a caster refuses the stakes he cannot answer"),
        "stake": (("a stake is laid on the bet " + table.stake if ruleset.bet_words(table.stake) == f"the {table.stake}"
                   else f"a stake is laid on {ruleset.bet_words(table.stake)} (the bet {table.stake})") if table.stake
                  else "a stake is laid on the game at even money"),
        "coinage": coinage_words(ruleset),
    }
    out["bets"] = _bets(machine, analysis)
    out["fees"] = [{"fee": name, "amount": exact(fee.amount), "payer": fee.payer, "payee": fee.payee,
                    "called": ruleset.fee_words(name), "told": _told(ruleset, fee.amount),
                    "description": _words(fee.description),
                    "cost_per_game": exact(analysis.fees[name].cost_per_game) if analysis and name in analysis.fees
                    else None,
                    "due_per_game": exact(analysis.fees[name].due_per_game) if analysis and name in analysis.fees
                    else None}
                   for name, fee in ruleset.fees.items() if name in machine.fees]
    out["terms"] = _terms(machine)
    out["sources"] = [{k: getattr(s, k) for k in ("title", "author", "year", "page", "url", "note")}
                      for s in ruleset.sources]
    # a derived ruleset that cites nothing itself: its parent's sources, as its parent's
    out["inherited_sources"] = ({"from": ruleset.inherited_from,
                                 "sources": [{k: getattr(s, k) for k in ("title", "author", "year", "page", "url",
                                                                         "note")} for s in ruleset.inherited_sources]}
                                if ruleset.inherited_sources else None)
    out["notes"] = [_words(n) for n in ruleset.notes]
    if ruleset.printed:  # the sources' figures beside the exact ones (a key only where the file lists them)
        from .printed import ledger

        out["printed"] = ledger(ruleset, machine.options, policy, machine)
    out["written_by"] = f"hazard-dsl {__version__}"
    return out


def _choice(machine, analysis, view, node) -> dict:
    states = machine.states
    values = []
    for m in node.members:
        for value, _ in states[m].alternatives:
            if value not in values:
                values.append(value)
    entry = {"chooser": node.chooser, "variable": node.variable, "values": values}
    info = analysis.choices.get(node.variable) if analysis is not None else None
    if info is not None:
        entry["figures"] = {str(v): {"win": exact(w), "edge": exact(e)} for v, (w, e) in info["values"].items()}
        entry["best"] = info["best"]
    return entry


def _table(machine, phase, variable, wins, results) -> dict:
    columns, rows = phase_rows(machine, phase, variable)
    # the columns in the order a reader expects: wins, losses, pushes, then what goes on
    order = {"win": 0, "lose": 1, "push": 2}
    columns = sorted(columns, key=lambda k: (order.get(k[1], 3) if k[0] == "end" else 4 + (k[0] == "again"),))
    heads = []
    for key in columns:
        heading, result = _heading(key, machine)
        heads.append({"key": "/".join(map(str, key)), "heading": heading, "result": result,
                      "label": key[2] if key[0] == "end" else None})
    body = []
    for value, number, cells in rows:
        body.append({"value": value, "cells": {h["key"]: [key_text(k, machine.dice.names) for k in cells.get(key, [])]
                                               for h, key in zip(heads, columns)},
                     "caster_wins": exact(wins[number])})
    return {"variable": variable, "columns": heads, "rows": body}


def _lines(view: View, node) -> list:
    """A phase said in general terms: one line per transition ("main — chance_loss, the caster loses")."""
    lines = []
    for e in view.edges:
        if e.source != node.id:
            continue
        target = view.nodes[e.target]
        if target.kind == END:
            does = f"{readable(target.label)}: {verb(target.result, view.machine.ruleset.words.caster)}"
        elif e.does == "throw again":
            does = "thrown again"
        else:
            # a phase by its words, as a reader says it (`chance_throw` → "chance throw")
            does = e.does + (f"; then {readable(target.phase)}" if target.phase != node.phase else "")
            if target.kind == CHOICE:
                does += f" ({target.chooser} chooses {target.variable})"
        lines.append({"throws": e.throws, "does": does, "result": target.result if target.kind == END else "",
                      "chance": e.chance})
    order = {"win": 0, "lose": 1, "push": 2, "": 3}
    return sorted(lines, key=lambda line: (order.get(line["result"], 3), line["throws"] == "any other throw"))


def _recast(machine) -> str | None:
    """Dice that land off, said generically (the machine's `recast`, when the rules have one)."""
    from .phrases import recast_how

    if machine.recast is None:
        return None
    text = ("Dice that land off — cocked against something, or wild off the table — do not count: they are "
            f"recast before the throw stands (each die lands off with chance {exact(machine.recast.chance)}; "
            f"{recast_how(machine)}).")
    words = _words(machine.ruleset.cocked.description if machine.ruleset.cocked is not None else None)
    if words:
        text += " " + words[:1].upper() + words[1:] + ("" if words.endswith(".") else ".")
    return text


def _passing(machine) -> str | None:
    passing = machine.passing
    rules = machine.ruleset.passing
    if passing is None and rules is None:
        return None
    parts = []
    if passing is not None:  # from the compiled table: only endings these rules can reach
        said = passing.says()
        parts.append(said[:1].upper() + said[1:] + ".")
        if passing.by_lot:
            said = passing.first_says()
            parts.append(said[:1].upper() + said[1:] + ".")
    if rules is not None and rules.description:
        parts.append(_words(rules.description))
    return " ".join(parts) or None


def _bets(machine, analysis) -> list:
    from .phrases import pays_text

    out = []
    if analysis is None:
        return out
    ruleset = machine.ruleset
    for name, bet in ruleset.bets.items():
        f = analysis.bets.get(name)
        compiled = machine.bets.get(name)
        phases = sorted({machine.states[g].phase for g in compiled.made}, key=lambda p: list(ruleset.phases).index(p)
                        if p in ruleset.phases else 0) if compiled is not None else []
        entry = {"bet": name, "called": ruleset.bet_words(name), "backer": bet.backer, "layer": bet.layer,
                 "description": _words(bet.description),
                 "pays_rule": in_words.payout(bet.pays, machine.options) if bet.pays is not None else None,
                 "backs": bet.backs, "backs_called": ruleset.bet_words(bet.backs) if bet.backs else None,
                 "made_in": phases,
                 "offered": f is not None}
        if f is not None:
            entry.update({"pays": pays_text(bet, f), "edge": exact(f.edge), "win": exact(f.win),
                          "lose": exact(f.lose), "push": exact(f.push)})
            entry.update(_spread(analysis, name))
            pays = {g: net for g, net in compiled.pays.items() if not isinstance(net, Exception)}
            if len(set(pays.values())) > 1:
                grid = _pays_grid(machine, pays)
                if grid is not None:
                    entry["pays_by"] = grid
        out.append(entry)
    return out


def _spread(analysis, name: str) -> dict:
    """How far one decision of the bet strays from its mean, per unit bet: the variance (exact),
    the standard deviation (its exact root, and as a number). {} where it cannot be had."""
    from ..solve.spread import SpreadError, bet_spread

    table = getattr(analysis, "bet_table", None)
    if table is None:
        return {}
    try:
        spread = bet_spread(table, name)
    except (SpreadError, KeyError):
        return {}
    return {"variance": exact(spread.variance), "sd": spread.sd_exact, "sd_value": round(spread.sd, 6)}


def _pays_grid(machine, pays: dict) -> dict | None:
    """What a bet pays wherever it may be made (whatever the players choose), by the values of
    the (one or two) variables that vary there — Hoyle's table of odds on chance against main,
    derived."""
    from .phrases import ratio

    states = {g: machine.states[g] for g in pays}
    varying = [k for k, _ in enumerate(machine.variables) if len({s.values[k] for s in states.values()}) > 1]
    if len(varying) == 2:
        r, c = varying
        rows = sorted({s.values[r] for s in states.values()})
        cols = sorted({s.values[c] for s in states.values()})
        grid = {(s.values[r], s.values[c]): ratio(pays[g]) for g, s in states.items()}
        return {"rows": machine.variables[r], "columns": machine.variables[c], "column_values": cols,
                "table": [[v, *(grid.get((v, w), "—") for w in cols)] for v in rows]}
    if len(varying) == 1:
        (r,) = varying
        return {"rows": machine.variables[r], "columns": None, "column_values": [],
                "table": [[s.values[r], ratio(pays[g])] for g, s in sorted(states.items(),
                                                                            key=lambda gs: gs[1].values[r])]}
    return None


def _terms(machine) -> list:
    """The words of the game: faces, named throws, variables and labels, as the file gives them."""
    ruleset = machine.ruleset
    words = ruleset.words
    terms = []
    terms.append(("faces", ", ".join(f"{name} {k}" for k, name in enumerate(words.faces, 1))))
    named = []
    for key, name in words.throws.items():
        if isinstance(key, tuple):
            named.append((sum(key), f"{name} ({key[0]}-{key[1]}, {sum(key)})"))
        else:
            named.append((key, f"{name} ({key})"))
    if named:
        terms.append(("throws", ", ".join(text for _, text in sorted(named))))
    for v in ruleset.variables.values():
        if v.description:
            terms.append((v.name, _words(v.description)))
    return [{"term": t, "means": m} for t, m in terms]


def coinage_words(ruleset) -> str | None:
    """The ruleset's coinage in a sentence: "Sums are told in pounds, shillings and pence (£1 is
    20s, 1s is 12d); half a guinea is 10s 6d." None without one."""
    from ..records import replace
    from .words import money_told

    table = ruleset.table
    if not table.coins:
        return None
    bare = replace(table, sums=())
    names = [c.names for c in table.coins]
    said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    worth = [f"{money_told(bare, bigger.worth)} is {money_told(replace(bare, coins=(smaller,)), bigger.worth)}"
             for bigger, smaller in zip(table.coins, table.coins[1:])]
    text = f"Sums are told in {said}" + (f" ({', '.join(worth)})" if worth else "")
    named = [f"{s.words} is {money_told(bare, s.amount)}" for s in table.sums]
    return text + ("; " + ", ".join(named) if named else "") + "."


def _told(ruleset, amount) -> str:
    """A sum in the ruleset's money; one the period names, with its coins too: "half a guinea
    (10s 6d)"."""
    from ..records import replace
    from .words import money_told

    named = money_told(ruleset.table, amount)
    plain = money_told(replace(ruleset.table, sums=()), amount)
    return named if named == plain else f"{named} ({plain})"


def rule_sheet(machine: Machine, fmt: str = "text", policy: str = "optimal", colour: bool = False) -> str:
    """The rule sheet of a compiled machine (with its bets and fees) in a format."""
    from ..solve.analysis import analyse
    from ..solve.markov import policy_for

    if fmt not in FORMATS:
        from ..diagnostics import did_you_mean

        raise ValueError(f"--format takes {', '.join(FORMATS)}, not {fmt!r}{did_you_mean(fmt, FORMATS)}")
    analysis = analyse(machine, policy_for(machine, policy))
    # a chart where it fits: the HTML sheet (the text, Markdown and JSON sheets stay words and figures)
    chart = throws_chart(analysis.throws, analysis.throws_tail, analysis.median_throws) if fmt == "html" else None
    return render(sheet(machine, analysis, policy), fmt, colour, chart)


__all__ = ["sheet", "render", "rule_sheet", "FORMATS"]
