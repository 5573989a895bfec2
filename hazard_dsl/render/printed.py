"""The ledger of printed figures (`printed:`, read by check.printed) set beside the exact
analysis: each figure as its source prints it, the exact figure in the same form, and whether
they agree — or how far apart they are. `show`, `rules` and `analyse` print it; `analyse
--json` gives it under "printed".

A ratio "A to B" is the chance of what it is a figure of against the rest: A/(A+B) (Arbuthnot's
"the hazard of the Caster is to that of the Setter 244, 251" is the caster's 244/495). The exact
ratio is the exact chance against the rest, in lowest terms; a percentage agrees when the exact
figure rounds to it at the places printed.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .tables import Table

# check.printed (what a figure may be of, and a printed figure read) is imported where a row is
# worked out: it imports the rule-file reader (the YAML and expression parsers), which a warm
# `analyse` whose ledger comes from the cache never needs (about 3% of it, callgrind).


def ledger(ruleset, options: dict | None = None, policy: str = "optimal", machine=None) -> list[dict]:
    """One row per printed figure of `ruleset` (under `options`, the defaults when None; or on
    `machine`, compiled already): the figure as printed, the exact figure, and the verdict. []
    when the ruleset prints none."""
    if not ruleset.printed:
        return []
    from ..cache import kept  # (render may read through the cache, never a command)

    if machine is None:
        from ..compile.options import resolve_options

        resolved = resolve_options(ruleset, dict(options or {}))
    else:
        resolved = machine.options
    # Kept beside the ruleset in the disk cache, as the tables of each option's effect are: a
    # figure given a value (a main) is an analysis of its own, a third of a warm `analyse`
    # (callgrind, docs/performance.md); rows of text, numbers and Fractions' texts.
    return kept(ruleset, "games", ("printed", repr(sorted(resolved.items())), policy),
                lambda: _rows(ruleset, resolved, policy, machine), lambda rows: isinstance(rows, list))


def _rows(ruleset, resolved: dict, policy: str, machine=None) -> list[dict]:
    """The ledger's rows (see `ledger`) under the options `resolved` (every option's value),
    on `machine` when it is compiled already."""
    from ..solve.analysis import analyse
    from ..solve.markov import policy_for

    if machine is None:
        from ..cache import compile_ruleset

        machine = compile_ruleset(ruleset, resolved, None)
    machines = {(): machine}
    analyses: dict = {}

    def machine_for(chosen: tuple):
        """The game under the entry's own options (`options:`), over the options in force."""
        if chosen not in machines:
            from ..cache import compile_ruleset
            from ..compile.options import resolve_options

            wanted = {**machine.options, **dict(chosen)}
            machines[chosen] = machine if wanted == machine.options else \
                compile_ruleset(ruleset, resolve_options(ruleset, wanted), None)
        return machines[chosen]

    rows = []
    for entry in ruleset.printed:
        game = machine_for(entry.options)

        def analysis(by, game=game):
            key = (id(game), by)
            if key not in analyses:
                analyses[key] = analyse(game, policy_for(game, policy), by=by)
            return analyses[key]

        exact = _exact(entry, analysis)
        rows.append(_row(ruleset, entry, exact))
    return rows


def _exact(entry, analysis) -> Fraction | None:
    """The exact chance (or edge) the entry is a figure of; None where the game never reaches
    the values it is given."""
    if entry.bet is not None:
        figures = analysis(None).bets.get(entry.bet)
        return None if figures is None else figures.edge
    if not entry.given:
        a = analysis(None)
        return _of(entry.of, a.figures.win, a.figures.lose, a.figures.push, a.figures.labels)
    variable, values = entry.given[0]
    a = analysis(variable)
    by = a.by
    reached = [by[v] for v in values if v in by]
    total = sum((p for p, _, _ in reached), Fraction(0))
    if len(reached) < len(values):
        return _chosen(entry, a.choices.get(variable), values)

    def joint(field):
        return sum((p * getattr(f, field) for p, f, _ in reached), Fraction(0)) / total

    labels = {}
    for _, _, joint_labels in reached:
        for label, chance in joint_labels.items():
            labels[label] = labels.get(label, Fraction(0)) + chance / total
    return _of(entry.of, joint("win"), joint("lose"), joint("push"), labels)


def _chosen(entry, choice, values) -> Fraction | None:
    """A figure given a value that a player chooses (a main called, not thrown): the game's
    figures after each choice, where the optimal chooser leaves the others unplayed. A figure
    of several values is theirs when they agree (Arbuthnot's V or IX); None otherwise, and for
    a label (the choices give the win and the edge only)."""
    from ..check.printed import RESULTS

    if choice is None or entry.of not in RESULTS or any(v not in choice["values"] for v in values):
        return None
    found = set()
    for v in values:
        win, edge = choice["values"][v]
        found.add(_of(entry.of, win, win + edge, 1 - 2 * win - edge, {}))
    return found.pop() if len(found) == 1 else None


def _of(of, win, lose, push, labels) -> Fraction:
    if of == "win":
        return win
    if of == "lose":
        return lose
    if of == "push":
        return push
    if of == "edge":
        return lose - win
    return labels.get(of, Fraction(0))


def _row(ruleset, entry, exact) -> dict:
    from ..check.printed import figure_value

    kind, value = figure_value(entry.figure)
    source = ruleset.sources[entry.source - 1]
    row = {"source": entry.source, "cited": _cited(source, entry.page), "page": entry.page, "words": entry.words,
           "figure": entry.figure, "of": entry.of, "bet": entry.bet, "given": {v: list(vs) for v, vs in entry.given},
           **({"options": dict(entry.options)} if entry.options else {}),
           "what": _what(ruleset, entry), "note": entry.note}
    if exact is None:
        return {**row, "exact": None, "printed_share": None, "agrees": None,
                "verdict": "cannot be compared: under these options the game never reaches "
                           + "; ".join(f"{v} {' or '.join(map(str, vs))}" for v, vs in entry.given)}
    if kind == "ratio":
        a, b = value
        share = a / (a + b)
        p, q = _ratio(exact)
        exact_said = f"{p} : {q}"
    elif kind == "fraction":
        share, exact_said = value, str(exact)
    else:
        share, places = value
        exact_said = f"{float(exact * 100):.{places}f}%"
    if kind == "percent":
        # a printed percentage agrees when it is the exact one rounded, or cut short, to its places
        # (16.666% for 1/6 is cut, not rounded: the printer's habit, not a different figure)
        scale = 10 ** places
        printed = round(share * 100 * scale)
        agrees = printed in (round(exact * 100 * scale), math.floor(exact * 100 * scale))
    else:
        agrees = share == exact
    if agrees:
        difference = None
        verdict = f"agrees: exactly {exact} ({exact_said})" if kind != "percent" else \
            f"agrees: {exact} is {exact_said}"
    else:
        gap = share - exact
        difference = f"as printed {share}, {float(abs(gap) * 100):.2f} points {'higher' if gap > 0 else 'lower'}"
        if kind == "ratio":
            difference += _which_term(value, (p, q))
        verdict = f"differs: the exact figure is {exact_said} ({exact}); {difference}"
    return {**row, "exact": str(exact), "exact_said": exact_said, "printed_share": str(share), "agrees": agrees,
            "verdict": verdict, "difference": difference}


def _ratio(share: Fraction) -> tuple[int, int]:
    """A chance as its odds against the rest, in lowest terms: 244/495 -> (244, 251)."""
    rest = 1 - share
    if rest == 0:
        return 1, 0
    r = share / rest
    return r.numerator, r.denominator


def _which_term(printed, exact) -> str:
    """"; the second term is 1439, printed 1493" where one term of a ratio is as exact."""
    a, b = printed
    p, q = exact
    if a == p and b != q:
        return f"; the second term is {q}, printed {_whole(b)}"
    if b == q and a != p:
        return f"; the first term is {p}, printed {_whole(a)}"
    return ""


def _whole(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else str(x)


def _cited(source, page) -> str:
    who = source.author.split()[-1] if source.author else source.title
    parts = [who]
    if source.year:
        parts.append(str(source.year))
    text = " ".join(parts)
    return f"{text}, p. {page}" if page else text


def _what(ruleset, entry) -> str:
    """What the figure is of, in words: "the caster wins, main 6 or 8"."""
    under = f" ({', '.join(f'{k}={v}' for k, v in entry.options)})" if entry.options else ""
    if entry.bet is not None:
        return f"the edge of {ruleset.bet_words(entry.bet)}{under}"
    said = {"win": "the caster wins", "lose": "the caster loses", "push": "neither wins",
            "edge": "the edge against the caster"}.get(entry.of) or f"the game ends in {ruleset.label_words(entry.of)}"
    for variable, values in entry.given:
        said += f", {variable} {' or '.join(map(str, values))}"
    return said + under


def ledger_table(rows: list[dict]) -> Table:
    """The ledger as a table, each source's figure beside the exact one; the words as printed
    (and the file's note on a figure) under it, by number."""
    t = Table("Figures the sources print, beside the exact ones (printed:)",
              ["#", "source", "a figure of", "printed", "exact", "verdict"],
              align=["right", "left", "left", "left", "left", "left"])
    said = []
    for k, row in enumerate(rows, 1):
        t.add(k, row["cited"], row["what"], row["figure"], row.get("exact_said") or "—", _short(row))
        words = f'"{row["words"]}"' if row["words"] else "(no words given)"
        said.append(f"{k}. {words}" + (f" — {' '.join(row['note'].split())}" if row["note"] else ""))
    t.caption = "As printed:\n" + "\n".join(said)
    return t


def _short(row: dict) -> str:
    """The verdict in the table: "agrees", or how the printed figure differs."""
    if row["agrees"] is None:
        return row["verdict"]
    return f"differs: {row['difference']}" if not row["agrees"] else "agrees"


def ledger_items(rows: list[dict]) -> list[tuple[str, str, str]]:
    """The ledger as the rule sheet's list items: "Arbuthnot 1692, p. 90: "…" — 244 to 251,
    the caster wins, main 7: agrees (244 : 251)"."""
    out = []
    for row in rows:
        text = f"{row['cited']}: " + (f'"{row["words"]}" — ' if row["words"] else "")
        text += f"{row['figure']}, {row['what']}: {row['verdict'] if row['agrees'] is False else _short(row)}"
        if row["agrees"]:
            text += f" ({row['exact_said']})"
        if row["note"]:
            text += f" ({' '.join(row['note'].split())})"
        out.append(("", text, ""))
    return out


def ledger_json(rows: list[dict]) -> list[dict]:
    """The ledger for JSON: every field of each row (exact figures as "p/q" text)."""
    return [dict(row) for row in rows]
