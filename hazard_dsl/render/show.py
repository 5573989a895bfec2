"""`hazard-dsl show`: what a reader wants before the figures — the ruleset's description,
sources, notes, options, labels, variables, bets, fees and passing, as tables or JSON.

Everything here is read from the validated `Ruleset` (nothing is compiled or solved), and all
of it is text from the rule file: the table renderer prints it literally."""

from __future__ import annotations

from ..model import Ruleset
from .tables import Table, exact


def _source(source) -> str:
    parts = [source.title]
    if source.author:
        parts.append(source.author)
    if source.year:
        parts.append(str(source.year))
    if source.page:
        parts.append(f"p. {source.page}")
    text = ", ".join(parts)
    if source.note:
        text += f" — {source.note}"
    return text


def show_tables(ruleset: Ruleset) -> tuple[str, list[Table]]:
    """The header (name, file, description) and the tables of `show`."""
    head = [f"{ruleset.name} — {ruleset.file}"]
    if ruleset.extends:
        head.append(f"extends: {ruleset.extends}")
    if ruleset.description:
        head.append(" ".join(ruleset.description.split()))
    tables: list[Table] = []
    if ruleset.sources:
        t = Table("Sources", ["#", "source"])
        for k, source in enumerate(ruleset.sources, 1):
            t.add(k, _source(source))
        tables.append(t)
    if ruleset.notes:
        t = Table("Notes (what is reconstructed, and why)", ["#", "note"])
        for k, note in enumerate(ruleset.notes, 1):
            t.add(k, " ".join(note.split()))
        tables.append(t)
    if ruleset.options:
        t = Table("Options (--option NAME=VALUE)", ["option", "value", "what it means"])
        for option in ruleset.options.values():
            for value in option.values:
                mark = " (default)" if value == option.default else ""
                t.add(option.name, f"{value}{mark}", option.value_notes.get(value) or option.description or "")
        tables.append(t)
    if ruleset.labels:
        results = {}
        for rule in ruleset.rules():
            for action in rule.actions:
                if hasattr(action, "label") and hasattr(action, "result"):
                    results.setdefault(action.label, action.result)
        t = Table("How a game can end", ["label", "result", "what is said"])
        for label in ruleset.labels.values():
            t.add(label.name, results.get(label.name, ""), label.say or "")
        tables.append(t)
    if ruleset.variables:
        t = Table("Variables", ["variable", "range", "starts at", "what it is"])
        for v in ruleset.variables.values():
            t.add(v.name, v.bounds(), v.initial, v.description or "")
        tables.append(t)
    if ruleset.bets:
        t = Table(f"Bets (in {ruleset.money_unit}s)", ["bet", "backer : layer", "pays", "what it is"])
        for bet in ruleset.bets.values():
            pays = bet.pays_text or "by its rules"
            if bet.commission is not None and bet.commission.rate:
                pays += f", {exact(bet.commission.rate * 100)}% commission of the {bet.commission.of}"
            extra = []
            if bet.backs:
                extra.append(f"backs {bet.backs}")
            if bet.own_game:
                extra.append("plays a game of its own")
            description = (bet.description or "") + (f" ({'; '.join(extra)})" if extra else "")
            t.add(bet.name, f"{bet.backer} : {bet.layer}", pays, description)
        t.caption = "Each bet's exact edge: hazard-dsl analyse."
        tables.append(t)
    if ruleset.fees:
        t = Table(f"Fees (in {ruleset.money_unit}s)", ["fee", "payer → payee", "amount", "what it is"])
        for fee in ruleset.fees.values():
            t.add(fee.name, f"{fee.payer} → {fee.payee}", exact(fee.amount), fee.description or "")
        tables.append(t)
    if ruleset.dice is not None or ruleset.cocked is not None:
        from ..compile.machine import dice_for
        from .report import dice_text

        t = Table("The dice", ["what", "at this table"])
        if ruleset.dice is not None:
            spec = ruleset.dice
            for key, loading in spec.loadings.items():
                where = f"with {spec.by_option}={key}" if spec.by_option else "always"
                t.add(f"loaded ({where})", dice_text(dice_for(loading)) + " (each face's chance)")
            if spec.by_option:
                t.add("fair", f"with any other value of {spec.by_option}")
        if ruleset.cocked is not None:
            c = ruleset.cocked
            chances = "; ".join(f"{exact(p)} with {c.by_option}={key}" if c.by_option else exact(p)
                                for key, p in c.chances.items())
            t.add("each die lands off", (chances or "never") + ("; never otherwise" if c.by_option else ""))
            t.add("what is recast", " ".join((c.description or "both dice, whenever a die is off").split()))
        tables.append(t)
    if ruleset.passing is not None:
        p = ruleset.passing
        rules = []
        if isinstance(p.losses_in_a_row, int) and p.losses_in_a_row:
            rules.append(f"after {p.losses_in_a_row} losses in a row")
        elif p.losses_in_a_row is not None and not isinstance(p.losses_in_a_row, int):
            rules.append(f"after ({p.losses_text}) losses in a row")
        if p.after_labels:
            rules.append("after " + ", ".join(p.after_labels))
        if p.voluntary_after_win:
            rules.append("the caster may pass after a win")
        t = Table("How the dice pass", ["when", "note"])
        t.add("; ".join(rules) or "—", p.description or "")
        tables.append(t)
    money = ruleset.table
    t = Table("The table's money", ["rule", "at this table"])
    t.add("stakes", "a bank answers every stake" if money.against == "bank" else "each setter against the caster")
    t.add("a caster who cannot cover", "forfeits the dice (hard play)" if money.when_short == "forfeit"
          else "refuses the stakes he cannot answer")
    t.add("a stake is laid on", f"the bet {money.stake!r}" if money.stake else "the game, at even money")
    tables.append(t)
    for t in tables:  # words, not numbers: read left to right
        t.align = ["left"] * len(t.columns)
    return "\n".join(head), tables


def show_json(ruleset: Ruleset) -> dict:
    """The same, as data."""
    return {
        "name": ruleset.name, "file": ruleset.file, "year": ruleset.year, "extends": ruleset.extends,
        "description": ruleset.description,
        "sources": [{k: getattr(s, k) for k in ("title", "author", "year", "page", "url", "note")}
                    for s in ruleset.sources],
        "notes": list(ruleset.notes),
        "options": {o.name: {"default": o.default, "description": o.description,
                             "values": {str(v): o.value_notes.get(v) for v in o.values}}
                    for o in ruleset.options.values()},
        "labels": {label.name: label.say for label in ruleset.labels.values()},
        "variables": {v.name: {"range": [v.low, v.high], "initial": v.initial, "description": v.description}
                      for v in ruleset.variables.values()},
        "money_unit": ruleset.money_unit,
        "bets": {b.name: {"backer": b.backer, "layer": b.layer, "pays": b.pays_text, "backs": b.backs,
                          "game": "own" if b.own_game else "table", "description": b.description,
                          "commission": ({"rate": exact(b.commission.rate), "of": b.commission.of}
                                         if b.commission is not None else None)}
                 for b in ruleset.bets.values()},
        "fees": {f.name: {"payer": f.payer, "payee": f.payee, "amount": exact(f.amount),
                          "description": f.description} for f in ruleset.fees.values()},
        "dice": ({"by_option": ruleset.dice.by_option,
                  "loadings": {key: {"die1": None if ld.die1 is None else [exact(p) for p in ld.die1],
                                     "die2": None if ld.die2 is None else [exact(p) for p in ld.die2]}
                               for key, ld in ruleset.dice.loadings.items()}} if ruleset.dice else None),
        "cocked": ({"by_option": ruleset.cocked.by_option,
                    "chances": {key: exact(p) for key, p in ruleset.cocked.chances.items()},
                    "description": ruleset.cocked.description} if ruleset.cocked else None),
        "money": {"unit": ruleset.table.unit, "against": ruleset.table.against,
                  "when_short": ruleset.table.when_short, "stake": ruleset.table.stake},
        "passing": ({"losses_in_a_row": (ruleset.passing.losses_in_a_row
                                         if isinstance(ruleset.passing.losses_in_a_row, int) or
                                         ruleset.passing.losses_in_a_row is None else ruleset.passing.losses_text),
                     "after_labels": list(ruleset.passing.after_labels),
                     "voluntary_after_win": ruleset.passing.voluntary_after_win,
                     "description": ruleset.passing.description} if ruleset.passing else None),
    }
