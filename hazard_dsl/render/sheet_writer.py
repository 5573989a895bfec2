"""The rule sheet written out (`render.rulesheet.sheet`'s data): as text to the terminal's width,
as Markdown, or as a standalone HTML page that prints on one or two A4 or Letter pages; the
data itself is what `--format json` prints (`render`). Each format writes the same blocks
(`_blocks`: headings, paragraphs, tables, lists), so that the three never say different things.

Apart from `rulesheet.py`, which derives what the sheet says from the compiled machine: this
module reads only that data, never a machine or a rule file."""

from __future__ import annotations

import re
from fractions import Fraction

from ..model import readable
from . import escape
from .escape import markdown, markdown_block
from .tables import Table, percent, shown
from .terminal import printable


RESULT_VERBS = {"win": "{caster} wins", "lose": "{caster} loses", "push": "no one wins (a push)"}


def verb(result: str, caster: str) -> str:
    """"the caster wins" (or "the shooter wins": the rules' own word for him)."""
    return RESULT_VERBS.get(result, result).replace("{caster}", caster)


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
        if not win and not lose:  # a game that only carries the layout's bets (Sic Bo's shake)
            text = "No game is won or lost: every game ends in a push, and the money is in the bets. "
        elif stake is None:
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
    # (stakes on the game mean nothing where no game is won or lost: the bets below carry the money)
    decided = not data.get("odds") or Fraction(data["odds"]["win"]) or Fraction(data["odds"]["lose"])
    items = [("stakes", f"{money['stakes'][:1].upper() + money['stakes'][1:]}; {money['when_short']}; "
                        f"{money['stake']} (in {money['units']}).", "")] if decided else []
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
        t = Table(f"Bets (per {money['unit']} staked)", ["bet", "backer : layer", "pays", "edge", "SD", "what it is"])
        grids = []
        for bet in data["bets"]:
            if not bet["offered"]:
                t.add(bet["bet"], f"{bet['backer']} : {bet['layer']}", bet["pays_rule"] or "", "not offered", "",
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
            t.add(bet["bet"], f"{bet['backer']} : {bet['layer']}", pays, percent(Fraction(bet["edge"]), 3),
                  f"{bet['sd_value']:.3f}" if "sd_value" in bet else "", what)
            if "pays_by" in bet:
                grids.append((bet.get("called") or bet["bet"], bet["pays_by"]))
        t.align = ["left", "left", "left", "right", "right", "left"]
        t.caption = ("edge: the bettor's expected loss per unit staked, exact (the figures: hazard-dsl analyse). "
                     "A negative edge favours the bettor. SD: the standard deviation of the bettor's net on one "
                     "bet of 1 unit, from its first throw to its decision (exact: --format json).")
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
                text += f" — {' '.join(str(s['note']).split())}"
            if s["url"]:
                text += f" <{s['url']}>"
            items.append(("", text, ""))
        blocks.append(("list", items))
    if data.get("printed"):
        from .printed import ledger_items

        blocks.append(("h2", "Figures the sources print, beside the exact ones"))
        blocks.append(("list", ledger_items(data["printed"])))
    if data["notes"]:
        blocks.append(("h2", "Notes"))
        blocks.append(("list", [("", n, "") for n in data["notes"]]))
    file = str(data["file"]).replace("\\", "/").rsplit("/", 1)[-1]
    blocks.append(("small", f"Written by {data['written_by']} from {file}: every table is derived from the compiled "
                            f"rules and every figure is exact; the words are the rule file's."))
    return blocks


def render(data: dict, fmt: str, colour: bool = False, chart: str | None = None) -> str:
    """The sheet in `fmt`; `chart` (HTML only: `throws_chart`'s SVG) ends the section on the game."""
    if fmt == "json":
        import json

        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    blocks = _blocks(data)
    if fmt == "html":
        if chart:
            at = next((k for k, b in enumerate(blocks) if b == ("h2", "At the table")), len(blocks))
            blocks.insert(at, ("chart", chart))
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
figure.chart { margin: .4em 0 .8em; } figure.chart figcaption { font-size: 8.5pt; color: #555; }
footer { margin-top: 1em; font-size: 8pt; color: #555; border-top: 1px solid #aaa; padding-top: .3em; }
@media print { body { margin: 0; max-width: none; padding: 0; } a { color: inherit; text-decoration: none; } }
""".strip()


CHART_BARS = 40  # the throws a sheet's chart shows one by one; the rest are one bar, "more"


def throws_chart(throws: list, beyond, median: int | None) -> str | None:
    """How long a game lasts, for the HTML sheet: P(the game takes n throws) as bars from 0, on
    a scale of the share of games, n below, the rest past the last bar as one bar ("more");
    inline SVG of figures alone, drawn in grey so that it prints. None where every game takes
    the same number of throws (a chart of one bar says nothing a sentence does not)."""
    shares = [(n, float(p)) for n, p in enumerate(throws) if n and p]
    if len(shares) < 2:
        return None
    shown = shares[:CHART_BARS]
    rest = float(beyond) + sum(p for _, p in shares[CHART_BARS:])
    bars = shown + ([("more", rest)] if rest > 0 else [])
    width, height, left, right, top, bottom = 420, 170, 40, 8, 14, 34
    plot_w, plot_h = width - left - right, height - top - bottom
    high = max(p for _, p in bars)
    step = next(s for s in (0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0) if s * 5 >= high)
    top_value = step * max(1, -(-high // step))
    slot = plot_w / len(bars)

    def y(v):
        return top + plot_h * (1 - v / top_value)

    out = [f'<figure class="chart"><svg viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="the share of games that take each number of throws" '
           f'style="width:100%;max-width:40em;height:auto;font:11px sans-serif">']
    k = 0
    while k * step <= top_value + 1e-12:
        v = k * step
        out.append(f'<line x1="{left - 3}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   f'stroke="{"#333" if k == 0 else "#ccc"}" stroke-width="{1 if k == 0 else 0.5}"/>'
                   f'<text x="{left - 5}" y="{y(v) + 3:.1f}" text-anchor="end" fill="#555">{v * 100:g}%</text>')
        k += 1
    for i, (n, p) in enumerate(bars):
        x = left + i * slot + 0.5
        out.append(f'<rect x="{x:.1f}" y="{y(p):.1f}" width="{max(slot - 1, 0.5):.1f}" height="{y(0) - y(p):.1f}" '
                   f'fill="{"#999" if n == "more" else "#555"}"><title>{n} throws: {p * 100:.3f}%</title></rect>')
        if n == "more" or n == 1 or n % 5 == 0:
            out.append(f'<text x="{x + slot / 2:.1f}" y="{y(0) + 12:.1f}" text-anchor="middle" fill="#555">{n}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" fill="#555">'
               f'throws in the game</text></svg>')
    said = f"; half of all games take {median} throws or fewer" if median else ""
    out.append(f"<figcaption>How long a game lasts: the share of games that take each number of throws, "
               f"exactly{said}.</figcaption></figure>")
    return "".join(out)


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
        elif kind == "chart":  # made by throws_chart from figures alone: no text of the rule file in it
            out.append(block[1])
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
