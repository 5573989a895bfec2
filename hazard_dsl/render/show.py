"""`hazard-dsl show`: what a reader wants before the figures — the ruleset's description,
sources, notes, options, labels, variables, bets, fees and passing, as tables or JSON.

Everything here is read from the validated `Ruleset` (nothing is compiled or solved), and all
of it is text from the rule file: the table renderer prints it literally."""

from __future__ import annotations

from ..model import Ruleset
from . import in_words
from .tables import Table, exact


def _source_json(source) -> dict:
    return {k: getattr(source, k) for k in ("title", "author", "year", "page", "url", "note")}


def pages(page) -> str:
    """"p. 117", "pp. 168-173", or the page as written when it says more ("vol. 13, p. 117")."""
    page = str(page)
    if not (page[:1].isdigit() or page[:1] == "~"):
        return page
    return f"{'pp.' if '-' in page or '–' in page else 'p.'} {page}"


def _source(source) -> str:
    parts = [source.title]
    if source.author:
        parts.append(source.author)
    if source.year:
        parts.append(str(source.year))
    if source.page:
        parts.append(pages(source.page))
    text = ", ".join(parts)
    if source.note:
        text += f" — {' '.join(source.note.split())}"
    if source.url:
        text += f" <{source.url}>"
    return text


def built_on(ruleset: Ruleset) -> str | None:
    """"Built on Hazard (Cotton, 1674)" for a ruleset made with `extends`, saying when it cites
    nothing of its own (the sources shown are then its parent's, and said to be)."""
    if not ruleset.extends:
        return None
    text = f"Built on {ruleset.built_on or ruleset.extends}"
    if not ruleset.sources:
        text += "; it cites no source of its own"
    return text


def inherited_title(ruleset: Ruleset) -> str:
    """The heading over the sources a derived ruleset only inherits."""
    whose = ruleset.inherited_from or ruleset.built_on
    if whose == ruleset.built_on:
        return f"Sources of {whose}, which this ruleset is built on (it cites none of its own)"
    return f"Sources of {whose}, which {ruleset.built_on} is built on (this ruleset cites none of its own)"


def show_tables(ruleset: Ruleset) -> tuple[str, list[Table]]:
    """The header (name, file, description) and the tables of `show`."""
    head = [f"{ruleset.name} — {ruleset.file}"]
    if ruleset.extends:
        head.append(f"{built_on(ruleset)} (extends: {ruleset.extends})")
    if ruleset.description:
        head.append(" ".join(ruleset.description.split()))
    tables: list[Table] = []
    if ruleset.sources or ruleset.inherited_sources:
        t = Table("Sources" if ruleset.sources else inherited_title(ruleset), ["#", "source"])
        for k, source in enumerate(ruleset.sources or ruleset.inherited_sources, 1):
            t.add(k, _source(source))
        tables.append(t)
    if ruleset.printed:  # the one part of `show` that is solved: the sources' figures beside the exact ones
        from .printed import ledger, ledger_table

        tables.append(ledger_table(ledger(ruleset)))
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
        t = Table(f"Bets (in {ruleset.money_units})", ["bet", "backer : layer", "pays", "what it is"])
        for bet in ruleset.bets.values():
            pays = _pays(ruleset, bet)
            if bet.commission is not None and bet.commission.rate:
                pays += f", {exact(bet.commission.rate * 100)}% commission of the {bet.commission.of}"
            extra = []
            if bet.backs:
                extra.append(f"backs {bet.backs}")
            if bet.own_game:
                extra.append("plays a game of its own")
            description = (bet.description or "") + (f" ({'; '.join(extra)})" if extra else "")
            if bet.called:  # what players call it, as the narration says it
                description = f"“{bet.called}”: {description}" if description else f"“{bet.called}”"
            t.add(bet.name, f"{bet.backer} : {bet.layer}", pays, description)
        t.caption = "Each bet's exact edge: hazard-dsl analyse."
        tables.append(t)
    if ruleset.fees:
        t = Table(f"Fees (in {ruleset.money_units})", ["fee", "payer → payee", "amount", "what it is"])
        for fee in ruleset.fees.values():
            description = fee.description or ""
            if fee.called:
                description = f"“{fee.called}”: {description}" if description else f"“{fee.called}”"
            t.add(fee.name, f"{fee.payer} → {fee.payee}", _amount_told(ruleset, fee.amount), description)
        tables.append(t)
    if ruleset.dice is not None or ruleset.cocked is not None:
        from ..compile.machine import dice_for
        from ..model import TWO_DICE
        from .phrases import dice_text, shape_text

        t = Table("The dice", ["what", "at this table"])
        if ruleset.dice is not None:
            spec = ruleset.dice
            if spec.shape != TWO_DICE:
                t.add("thrown", shape_text(spec.shape))
            for key, loading in spec.loadings.items():
                where = f"with {spec.by_option}={key}" if spec.by_option else "always"
                t.add(f"loaded ({where})", dice_text(dice_for(loading, spec.shape)) + " (each face's chance)")
            if spec.by_option:
                t.add("fair", f"with any other value of {spec.by_option}")
            elif not spec.loadings:
                t.add("fair", "always")
        if ruleset.cocked is not None:
            c = ruleset.cocked
            chances = "; ".join(f"{exact(p)} with {c.by_option}={key}" if c.by_option else exact(p)
                                for key, p in c.chances.items())
            t.add("each die lands off", (chances or "never") + ("; never otherwise" if c.by_option else ""))
            t.add("what is recast", " ".join((c.description or _recast_said(ruleset)).split()))
        tables.append(t)
    if ruleset.passing is not None:
        t = Table("How the dice pass", ["when", "note"])
        t.add(passing_said(ruleset) or "—", ruleset.passing.description or "")
        if ruleset.passing.first != "seat_order":
            t.add(first_said(ruleset), "who casts first")
        tables.append(t)
    money = ruleset.table
    t = Table("The table's money", ["rule", "at this table"])
    t.add("stakes", "a bank answers every stake" if money.against == "bank" else "each setter against the caster")
    t.add("a caster who cannot cover", "forfeits the dice (hard play)" if money.when_short == "forfeit"
          else "refuses the stakes he cannot answer")
    t.add("a stake is laid on", f"the bet {money.stake!r}" if money.stake else "the game, at even money")
    if money.coins:
        from .rulesheet import coinage_words

        t.add("sums", coinage_words(ruleset))
    if any({bet.layer, bet.backer} & {"caster", "player"} for bet in ruleset.bets.values()
           if bet.name != money.stake):
        t.add("a bet put to the caster", "he may refuse any, at will" if money.refuse == "at_will"
              else "he takes it, unless he cannot cover it")
    tables.append(t)
    for t in tables:  # words, not numbers: read left to right
        t.align = ["left"] * len(t.columns)
    return "\n".join(head), tables


def passing_said(ruleset: Ruleset) -> str:
    """When the dice pass, in words, for every value of the options the rule reads."""
    p = ruleset.passing
    rules = []
    if isinstance(p.losses_in_a_row, int) and p.losses_in_a_row:
        rules.append(in_words.losses(p.losses_in_a_row))
    elif p.losses_in_a_row is not None and not isinstance(p.losses_in_a_row, int):
        rules.append(_said_by_options(ruleset, p.losses_in_a_row, lambda options: in_words.losses(
            in_words.value(p.losses_in_a_row, options)) if options is not None
            else f"after {in_words.expression(p.losses_in_a_row)} losses in a row"))
    if p.after_labels:
        after = _endings_reached(ruleset, p.after_labels)
        endings = [f"{ruleset.label_words(label)} ({' or '.join(settings)})" if settings
                   else ruleset.label_words(label) for label, settings in after]
        every = {label for label, _ in _endings_reached(ruleset, list(ruleset.labels))}
        if endings and not rules and every <= set(p.after_labels):
            # a layout's one-throw game: each ending passes, as the table says (compile.passing)
            rules.append("after every game")
        elif endings:
            rules.append("after a game ending in " + " or ".join(endings))
    if p.voluntary_after_win:
        rules.append("the caster may pass after a win")
    return "; ".join(rules)


def _recast_said(ruleset: Ruleset) -> str:
    """What is recast when dice land off, where the file does not say it in words: as the rules
    make it under the default options (`phrases.recast_how`, for any number of dice)."""
    from ..cache import compile_ruleset
    from ..diagnostics import RulesetError
    from .phrases import recast_how

    try:
        machine = compile_ruleset(ruleset, {}, bets=())
    except RulesetError:
        return "as the cocked: rules say"
    if machine.recast is None:  # (off never under the default options)
        return "as the cocked: rules say"
    said = recast_how(machine)
    return said + (" (with the default options)" if ruleset.options else "")


def first_said(ruleset: Ruleset) -> str:
    """Who casts first, in words."""
    from ..compile.passing import first_words

    return first_words(ruleset.passing.first if ruleset.passing is not None else "seat_order")


MAX_SETTINGS_EXPLORED = 64  # option combinations compiled to say which endings can happen


def _endings_reached(ruleset: Ruleset, labels) -> list[tuple[str, list[str]]]:
    """Of these labels, those a game can end with, each with the fewest option settings it needs
    (none when it happens under the defaults; "a=x, b=y" when it needs two): read from the
    compiled machines, so that a sheet never speaks of an ending that cannot happen (Cotton's
    `no_main` needs first_throw=lose_turn; Chicken's, a thrown main as well). Where the
    options combine in too many ways to explore, a label is listed as it is written."""
    from itertools import product

    from ..cache import compile_ruleset
    from ..compile.compiler import resolve_options
    from ..compile.evaluate import game_options
    from ..diagnostics import RulesetError

    def reached(options: dict) -> set:
        try:
            return {state.label for state in compile_ruleset(ruleset, options, bets=()).end_states()}
        except RulesetError:
            return set()

    default = reached({})
    if not set(labels) - default:
        return [(label, []) for label in labels]
    names = sorted(game_options(ruleset))
    combos = 1
    for name in names:
        combos *= len(ruleset.options[name].values)
    if combos > MAX_SETTINGS_EXPLORED:
        return [(label, []) for label in labels]
    defaults = resolve_options(ruleset, {})
    found: dict = {}  # label -> the settings (away from the defaults) under which it happens
    for values in product(*(ruleset.options[name].values for name in names)):
        away = tuple((n, v) for n, v in zip(names, values) if str(defaults.get(n)) != str(v))
        for label in (default if not away else reached(dict(zip(names, values)))):
            found.setdefault(label, []).append(away)
    out = []
    for label in labels:
        if label in default:
            out.append((label, []))
        elif found.get(label):
            fewest = min(len(a) for a in found[label])
            out.append((label, [", ".join(f"{n}={v}" for n, v in a) for a in found[label] if len(a) == fewest]))
    return out


def _said_by_options(ruleset: Ruleset, e, say) -> str:
    """`say` for each setting of the options `e` reads: "after every loss (passing=after_loss);
    after 3 losses in a row (passing=three_losses)"."""
    said = in_words.by_options(e, ruleset, say)
    if len(said) == 1:
        return said[0][0]
    return "; ".join(f"{text} ({in_words.setting(group, ruleset)})" for text, group in said)


def _pays(ruleset: Ruleset, bet) -> str:
    if bet.pays is None:
        return "by its rules"
    return _said_by_options(ruleset, bet.pays, lambda options: in_words.payout(bet.pays, options))


def _printed_json(ruleset: Ruleset) -> list:
    from .printed import ledger, ledger_json

    return ledger_json(ledger(ruleset))


def show_json(ruleset: Ruleset) -> dict:
    """The same, as data."""
    return {
        "name": ruleset.name, "file": ruleset.file, "year": ruleset.year, "extends": ruleset.extends,
        "built_on": ruleset.built_on,
        "description": ruleset.description,
        "sources": [_source_json(s) for s in ruleset.sources],
        # a derived ruleset without sources of its own: those of the ruleset it rests on, as that one's
        "inherited_sources": ({"from": ruleset.inherited_from, "sources": [_source_json(s) for s in
                                                                          ruleset.inherited_sources]}
                              if ruleset.inherited_sources else None),
        "notes": list(ruleset.notes),
        **({"printed": _printed_json(ruleset)} if ruleset.printed else {}),
        "options": {o.name: {"default": o.default, "description": o.description,
                             "values": {str(v): o.value_notes.get(v) for v in o.values}}
                    for o in ruleset.options.values()},
        "labels": {label.name: label.say for label in ruleset.labels.values()},
        "variables": {v.name: {"range": [v.low, v.high], "initial": v.initial, "description": v.description}
                      for v in ruleset.variables.values()},
        "money_unit": ruleset.money_unit,
        "bets": {b.name: {"called": ruleset.bet_words(b.name), "backer": b.backer, "layer": b.layer, "pays": b.pays_text,
                          "pays_in_words": _pays(ruleset, b), "backs": b.backs,
                          "game": "own" if b.own_game else "table", "description": b.description,
                          "commission": ({"rate": exact(b.commission.rate), "of": b.commission.of}
                                         if b.commission is not None else None)}
                 for b in ruleset.bets.values()},
        "fees": {f.name: {"payer": f.payer, "payee": f.payee, "amount": exact(f.amount),
                          "description": f.description} for f in ruleset.fees.values()},
        "dice": ({**({"count": ruleset.dice.shape.count, "sides": ruleset.dice.shape.sides,
                     "faces": list(ruleset.dice.shape.names) or None} if ruleset.dice.shape.count != 2
                    or ruleset.dice.shape.sides != 6 or ruleset.dice.shape.names else {}),
                  "by_option": ruleset.dice.by_option,
                  "loadings": {key: {f"die{k}": None if ld.die(k) is None else [exact(p) for p in ld.die(k)]
                                     for k in range(1, ruleset.dice.shape.count + 1)}
                               for key, ld in ruleset.dice.loadings.items()}} if ruleset.dice else None),
        "cocked": ({"by_option": ruleset.cocked.by_option,
                    "chances": {key: exact(p) for key, p in ruleset.cocked.chances.items()},
                    "description": ruleset.cocked.description} if ruleset.cocked else None),
        "money": {"unit": ruleset.table.unit, "units": ruleset.money_units, "against": ruleset.table.against,
                  "when_short": ruleset.table.when_short, "stake": ruleset.table.stake,
                  "refuse": ruleset.table.refuse},
        "passing": ({"losses_in_a_row": (ruleset.passing.losses_in_a_row
                                         if isinstance(ruleset.passing.losses_in_a_row, int) or
                                         ruleset.passing.losses_in_a_row is None else ruleset.passing.losses_text),
                     "after_labels": list(ruleset.passing.after_labels),
                     "voluntary_after_win": ruleset.passing.voluntary_after_win,
                     "first": ruleset.passing.first,
                     "in_words": passing_said(ruleset),
                     "description": ruleset.passing.description} if ruleset.passing else None),
    }


def _amount_told(ruleset, amount) -> str:
    """A fee's amount as the file writes it (in the unit), and where the ruleset has a coinage as
    players are told it: "21/2 = 10s 6d, half a guinea"."""
    if not ruleset.table.coins:
        return exact(amount)
    from ..records import replace
    from .words import money_told

    named = money_told(ruleset.table, amount)
    plain = money_told(replace(ruleset.table, sums=()), amount)
    return f"{exact(amount)} = {plain}" + (f", {named}" if named != plain else "")
