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
writes it as text (the terminal's width), Markdown, or a standalone HTML page that prints on
one or two A4 or Letter pages.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..compile.machine import CHOICE, END, THROW, Machine
from ..solve.markov import ONE, ZERO, Solver
from ..version import __version__
from . import escape, in_words
from .escape import markdown, markdown_block
from .tables import Table, exact, percent, shown
from .terminal import printable
from .transitions import RESULT_WORDS, View, key_text, phase_rows, phase_said
from ..model import readable
from .words import fill

FORMATS = ("text", "markdown", "html", "json")
MAX_TABLE_ROWS = 13  # a phase's table by value up to this many rows; beyond, said in general terms

RESULT_VERBS = {"win": "{caster} wins", "lose": "{caster} loses", "push": "no one wins (a push)"}


def verb(result: str, caster: str) -> str:
    """"the caster wins" (or "the shooter wins": the rules' own word for him)."""
    return RESULT_VERBS.get(result, result).replace("{caster}", caster)


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
        body.append({"value": value, "cells": {h["key"]: [key_text(k) for k in cells.get(key, [])]
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
            pays = {g: net for g, net in compiled.pays.items() if not isinstance(net, Exception)}
            if len(set(pays.values())) > 1:
                grid = _pays_grid(machine, pays)
                if grid is not None:
                    entry["pays_by"] = grid
        out.append(entry)
    return out


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


# --------------------------------------------------------------------------- rendering




def _both(value: Fraction) -> str:
    """"1979/4032 (49.08%)", or the percentage alone when the fraction is too long to read."""
    text = shown(value)
    return percent(value) if text.startswith("≈") else f"{text} ({percent(value)})"


def _cell(values: list) -> str:
    return ", ".join(values) if values else "—"


def _blocks(data: dict) -> list:
    """The sheet as a list of blocks — ("h1" | "h2" | "p" | "small" | "table" | "items", …) —
    that each format writes in its own way."""
    caster = data["caster"]
    blocks: list = [("h1", data["title"])]
    if data.get("built_on"):
        own = "" if data["sources"] else "; it cites no source of its own"
        blocks.append(("small", f"Built on {data['built_on']}{own}."))
    if data.get("description"):
        blocks.append(("p", data["description"]))
    if data["options"]:
        said = ", ".join(f"{o['option']} = {o['value']}" for o in data["options"])
        blocks.append(("small", f"Options in force: {said} (what each means: below)."))
    blocks.append(("h2", "The game"))
    for number, phase in enumerate(data["phases"], 1):
        head = f"{number}. {readable(phase['phase'])}" + (f" — {phase['description']}" if phase["description"] else "")
        blocks.append(("h3", head))
        for choice in phase.get("choices", []):
            values = [str(v) for v in choice["values"]]
            text = (f"The {choice['chooser']} chooses the {choice['variable']}: "
                    f"{', '.join(values[:-1]) + ' or ' + values[-1] if len(values) > 1 else values[0]}.")
            if "figures" in choice:
                text += (f" Best for the caster: {choice['best']} "
                         f"(he then wins {percent(Fraction(choice['figures'][str(choice['best'])]['win']))}).")
            blocks.append(("p", text))
        for table in phase.get("tables", []):
            var = table["variable"]
            who = caster.removeprefix("the ")
            t = Table(f"What the throw does, by {var}", [var, *(c["heading"] for c in table["columns"]),
                                                         f"{who} wins"])
            for row in table["rows"]:
                t.add(row["value"], *(_cell(row["cells"][c["key"]]) for c in table["columns"]),
                      percent(Fraction(row["caster_wins"])))
            t.align = ["right", *(["left"] * len(table["columns"])), "right"]
            t.caption = f"{who} wins: his exact chance of winning the game from here, for each {var}."
            blocks.append(("table", t, ["", *(c["result"] for c in table["columns"]), ""]))
        if phase.get("lines"):
            blocks.append(("throws", [(line["throws"], f"{line['does']} ({line['chance']})", line["result"])
                                      for line in phase["lines"]]))
    endings = [(readable(label["label"]), verb(label["result"], caster)
                + (f" — “{label['says']}”" if label["says"] else "")
                + (f" ({percent(Fraction(label['chance']))} of games)" if label.get("chance") else ""),
                label["result"]) for label in data["labels"]]
    blocks.append(("h3", "How a game ends"))
    blocks.append(("items", endings))
    if data.get("odds"):
        o = data["odds"]
        win, lose, edge = (Fraction(o[k]) for k in ("win", "lose", "edge"))
        who = (f"with the best choices, {caster}" if data.get("chosen") else caster)
        stake = o.get("stake")
        if stake is None:
            text = (who[:1].upper() + who[1:] + f" wins {_both(win)} of games and loses {_both(lose)}"
                    + (f", {percent(Fraction(o['push']))} are void" if Fraction(o["push"]) else "")
                    + f"; the edge against him at even money is {percent(edge, 3)}. ")
        else:
            # games that end before any stake is laid move no money: the stake's edge is the one
            # the table meets; the game's, over every game, says how it counts the others
            from .phrases import UNSTAKED_COUNTED

            name = stake["bet"]
            ends = " or ".join(u["label"] for u in stake["unmade"])
            counted = ", ".join(f"{u['label']} as {UNSTAKED_COUNTED.get(u['result'], 'it ends')}" for u in stake["unmade"])
            text = (f"A {name} is laid in {_both(Fraction(stake['made_per_game']))} of games; the others end {ends} "
                    f"before any {name} is laid, and no money changes hands. Where a {name} is laid, {who} wins "
                    f"{_both(Fraction(stake['win']))}; the edge against him at even money is "
                    f"{percent(Fraction(stake['edge']), 3)} of the {name}. Counting every game, {counted}, he wins "
                    f"{_both(win)} and loses {_both(lose)}"
                    + (f", {percent(Fraction(o['push']))} are void" if Fraction(o["push"]) else "")
                    + f": an edge of {percent(edge, 3)} a game. ")
        text += f"A game takes {float(Fraction(o['expected_throws'])):.2f} throws on average."
        blocks.append(("p", text))
    if data.get("dice"):
        blocks.append(("p", f"The dice are loaded: {data['dice']} (each face's chance)."))
    if data.get("recast"):
        blocks.append(("p", data["recast"]))
    blocks.append(("h2", "At the table"))
    money = data["money"]
    items = [("stakes", f"{money['stakes'][:1].upper() + money['stakes'][1:]}; {money['when_short']}; "
                        f"{money['stake']} (in {money['units']}).", "")]
    if money.get("coinage"):
        items.append(("money", money["coinage"], ""))
    if data.get("passing"):
        items.append(("passing the dice", data["passing"], ""))
    for fee in data["fees"]:
        text = f"{fee['told']}, {fee['payer']} to {fee['payee']}"
        if fee["description"]:
            text += f": {fee['description']}"
        if fee.get("cost_per_game") is not None:
            text += (f" (due in {percent(Fraction(fee['due_per_game']))} of games; "
                     f"{float(Fraction(fee['cost_per_game'])):.4f} {money['units']} a game on average)")
        items.append((fee["called"], text + ".", ""))
    blocks.append(("items", items))
    if data["bets"]:
        t = Table(f"Bets (per {money['unit']} staked)", ["bet", "backer : layer", "pays", "edge", "what it is"])
        grids = []
        for bet in data["bets"]:
            if not bet["offered"]:
                t.add(bet["bet"], f"{bet['backer']} : {bet['layer']}", bet["pays_rule"] or "", "not offered",
                      bet["description"])
                continue
            pays = bet["pays"]
            if bet["pays_rule"] and bet["pays_rule"] != pays:
                pays = f"{pays} ({bet['pays_rule']})" if "varies" not in pays else f"{bet['pays_rule']} (below)"
            what = [bet["description"]] if bet["description"] else []
            if bet["backs"]:
                what.append(f"backs {bet.get('backs_called') or bet['backs']}")
            if bet["made_in"]:
                what.append(f"made in the {', '.join(readable(p) for p in bet['made_in'])}")
            what = "; ".join(what)
            t.add(bet["bet"], f"{bet['backer']} : {bet['layer']}", pays, percent(Fraction(bet["edge"]), 3), what)
            if "pays_by" in bet:
                grids.append((bet.get("called") or bet["bet"], bet["pays_by"]))
        t.align = ["left", "left", "left", "right", "left"]
        t.caption = ("edge: the bettor's expected loss per unit staked, exact (the figures: hazard-dsl analyse). "
                     "A negative edge favours the bettor.")
        blocks.append(("h2", "Bets"))
        blocks.append(("table", t, None))
        for name, grid in grids:
            if grid["columns"]:
                g = Table(f"What {name} pays, {grid['rows']} by {grid['columns']}",
                          [f"{grid['rows']} \\ {grid['columns']}", *map(str, grid["column_values"])])
            else:
                g = Table(f"What {name} pays, by {grid['rows']}", [grid["rows"], "pays"])
            for row in grid["table"]:
                g.add(*row)
            blocks.append(("table", g, None))
    if data["options"]:
        items = []
        for o in data["options"]:
            text = f"{o['value']}" + (f" — {o['means']}" if o["means"] else "")
            if o["others"]:
                text += f". Also possible: {', '.join(map(str, o['others']))} (--option {o['option']}=VALUE)"
            items.append((o["option"] + (f" ({o['about']})" if o["about"] else ""), text + ".", ""))
        blocks.append(("h2", "Options in force"))
        blocks.append(("items", items))
    blocks.append(("h2", "Terms"))
    blocks.append(("items", [(t["term"], t["means"], "") for t in data["terms"]]))
    inherited = data.get("inherited_sources")
    if data["sources"] or inherited:
        blocks.append(("h2", "Sources"))
        items = []
        if not data["sources"]:
            whose = inherited["from"] or data["built_on"]
            blocks.append(("small", f"This ruleset cites no source of its own. It is built on {data['built_on']}"
                                    + (", which cites:" if whose == data["built_on"]
                                       else f"; the sources below are those of {whose}:")))
        for s in data["sources"] or inherited["sources"]:
            text = f"{s['author']}, {s['title']}" if s["author"] else s["title"]
            if s["year"]:
                text += f" ({s['year']})"
            if s["page"]:
                page = str(s["page"])
                text += f", {'pp. ' if '-' in page and page[:1].isdigit() else ('p. ' if page[:1].isdigit() else '')}{page}"
            if s["note"]:
                text += f" — {_words(s['note'])}"
            if s["url"]:
                text += f" <{s['url']}>"
            items.append(("", text, ""))
        blocks.append(("list", items))
    if data["notes"]:
        blocks.append(("h2", "Notes"))
        blocks.append(("list", [("", n, "") for n in data["notes"]]))
    file = str(data["file"]).replace("\\", "/").rsplit("/", 1)[-1]
    blocks.append(("small", f"Written by {data['written_by']} from {file}: every table is derived from the compiled "
                            f"rules and every figure is exact; the words are the rule file's."))
    return blocks


def render(data: dict, fmt: str, colour: bool = False) -> str:
    if fmt == "json":
        import json

        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    blocks = _blocks(data)
    if fmt == "html":
        return _html_page(data, blocks)
    if fmt == "markdown":
        return _markdown(blocks)
    return _text(blocks, colour)


_PAGE = re.compile(r"\b(pp?\.) (?=[\d~])")


def _text(blocks, colour: bool) -> str:
    from .tables import render as render_tables
    from .terminal import fit, width, wrap

    columns = width()
    out: list = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out += [printable(block[1]), "=" * min(len(block[1]), columns), ""]
        elif kind == "h2":
            out += ["", printable(block[1].upper()), ""]
        elif kind == "h3":
            out += [fit(printable(block[1]), columns), ""]
        elif kind in ("p", "small"):
            out += [fit(printable(block[1]), columns), ""]
        elif kind == "table":
            out += [render_tables([block[1]], "text", colour=colour).rstrip("\n"), ""]
        elif kind in ("items", "list", "throws"):
            for term, text, _ in block[1]:
                sep = " — " if kind == "throws" else ": "
                line = f"  {term}{sep}{text}" if term else f"  • {text}"
                # a page reference stays with its number ("pp. 168-173"); an address too long for
                # the line breaks after a "/", not anywhere; a number is never split (terminal.wrap)
                line = _PAGE.sub("\\1\u00a0", printable(line))
                body = line.lstrip(" ")
                out.append("\n".join(wrap(body, columns, line[:len(line) - len(body)], "      "))
                           .replace("\u00a0", " ") or line)
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _markdown(blocks) -> str:
    out: list = []
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out += [f"# {markdown(block[1])}", ""]
        elif kind == "h2":
            out += [f"## {markdown(block[1])}", ""]
        elif kind == "h3":
            out += [f"### {markdown(block[1])}", ""]
        elif kind == "p":
            out += [markdown_block(block[1]), ""]
        elif kind == "small":
            out += [f"*{markdown(block[1])}*", ""]
        elif kind == "table":
            t = block[1]
            out += [f"**{markdown(t.title)}**", ""]
            out.append("| " + " | ".join(markdown(c) for c in t.columns) + " |")
            out.append("|" + "|".join("---:" if (t.align and t.align[k] == "right") else "---"
                                      for k in range(len(t.columns))) + "|")
            for row in t.rows:
                out.append("| " + " | ".join(markdown(cell) for cell in row) + " |")
            if t.caption:
                out += ["", f"*{markdown(t.caption)}*"]
            out.append("")
        elif kind in ("items", "throws"):
            sep = " — " if kind == "throws" else ": "
            out += [f"- **{markdown(term)}**{sep}{markdown(text)}" if term else f"- {markdown(text)}" for term, text, _ in block[1]]
            out.append("")
        elif kind == "list":
            out += [f"{k}. {markdown(text)}" for k, (_, text, _) in enumerate(block[1], 1)]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


CSS = """
@page { size: A4; margin: 13mm 14mm 14mm; }
* { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font: 10pt/1.35 Georgia, "Times New Roman", serif; color: #111; max-width: 50em; margin: 1.5em auto;
       padding: 0 1em; }
h1 { font-size: 19pt; margin: 0 0 .25em; font-variant: small-caps; letter-spacing: .02em; }
h2 { font-size: 12pt; margin: 1em 0 .35em; border-bottom: 1.5px solid #555; font-variant: small-caps;
     break-after: avoid; page-break-after: avoid; }
h3 { font-size: 10.5pt; margin: .7em 0 .25em; break-after: avoid; page-break-after: avoid; }
p { margin: .3em 0 .5em; }
.small, .caption { font-size: 8.5pt; color: #333; }
table { border-collapse: collapse; margin: .35em 0 .2em; break-inside: avoid; page-break-inside: avoid;
        font-size: 9pt; }
caption { caption-side: top; text-align: left; font-weight: bold; padding-bottom: .2em; }
th, td { border: 1px solid #8a8a8a; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #ececec; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.win { background: #dcefdc; } td.lose { background: #f6dcdc; } td.push { background: #f8efcf; }
ul.items { margin: .2em 0 .5em; padding-left: 1.2em; } ul.items li { margin: .1em 0; }
li.win::marker { color: #2e7d32; } li.lose::marker { color: #b3261e; }
ol { margin: .2em 0 .5em; padding-left: 1.6em; font-size: 8.5pt; }
footer { margin-top: 1em; font-size: 8pt; color: #555; border-top: 1px solid #aaa; padding-top: .3em; }
@media print { body { margin: 0; max-width: none; padding: 0; } a { color: inherit; text-decoration: none; } }
""".strip()


def _html_page(data: dict, blocks) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape.html(data['title'])} — rule sheet</title>", f"<style>\n{CSS}\n</style>", "</head>", "<body>"]
    for block in blocks:
        kind = block[0]
        if kind == "h1":
            out.append(f"<h1>{escape.html(block[1])}</h1>")
        elif kind in ("h2", "h3"):
            out.append(f"<{kind}>{escape.html(block[1])}</{kind}>")
        elif kind == "p":
            out.append(f"<p>{escape.html(block[1])}</p>")
        elif kind == "small":
            if block is blocks[-1]:
                out.append(f"<footer>{escape.html(block[1])}</footer>")
            else:
                out.append(f'<p class="small">{escape.html(block[1])}</p>')
        elif kind == "table":
            t, classes = block[1], block[2]
            out.append(f"<table><caption>{escape.html(t.title)}</caption>")
            out.append("<thead><tr>" + "".join(
                f'<th{" class=num" if t.align and t.align[k] == "right" else ""}>{escape.html(c)}</th>'
                for k, c in enumerate(t.columns)) + "</tr></thead><tbody>")
            for row in t.rows:
                cells = []
                for k, cell in enumerate(row):
                    names = []
                    if classes and classes[k] and cell != "—":
                        names.append(classes[k])
                    if t.align and t.align[k] == "right":
                        names.append("num")
                    attr = f' class="{" ".join(names)}"' if names else ""
                    tag = "th" if k == 0 and classes else "td"
                    cells.append(f"<{tag}{attr}>{escape.html(cell)}</{tag}>")
                out.append("<tr>" + "".join(cells) + "</tr>")
            out.append("</tbody></table>")
            if t.caption:
                out.append(f'<p class="caption">{escape.html(t.caption)}</p>')
        elif kind in ("items", "throws"):
            sep = " — " if kind == "throws" else ": "
            out.append('<ul class="items">')
            for term, text, result in block[1]:
                cls = f' class="{result}"' if result else ""
                out.append(f"<li{cls}>" + (f"<b>{escape.html(term)}</b>{sep}" if term else "") + f"{escape.html(text)}</li>")
            out.append("</ul>")
        elif kind == "list":
            out.append("<ol>" + "".join(f"<li>{escape.html(text)}</li>" for _, text, _ in block[1]) + "</ol>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


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
    return render(sheet(machine, analysis, policy), fmt, colour)


__all__ = ["sheet", "render", "rule_sheet", "FORMATS"]
