"""The work behind each API request, as functions of plain arguments returning what the response
carries (run by `work.Worker` in a process of their own).

Each calls what the command line calls and builds its output the same way, so the JSON is the
command line's: `analyse --json` (render.report.analysis_json), `compare --json`
(render.comparison.comparison_json), `show --json` (render.show.show_json), `rules --format html`
(commands.rules.rule_sheet) and `graph --format svg|mermaid|json` (commands.graph.graph). A
ruleset is given as the command line takes it (a built-in name or a file's path, checked by the
caller against the folder) or as a text with the name it is shown under.
"""

from __future__ import annotations


def analyse(name: str, options: list[str], text: str | None = None) -> dict:
    from ..commands.analyse import analyse as analysing, risk
    from ..render.report import analysis_json
    from ..render.risk import risk_json

    analysis = analysing(name, options, text=text)
    out = dict(analysis_json(analysis), **risk_json(risk(analysis, spread=True)))  # as analyse --json: each bet's spread
    from ..commands.loading import load

    ruleset = load(name, text)
    if ruleset.printed:  # as analyse --json: the sources' printed figures beside the exact ones
        from ..render.printed import ledger, ledger_json

        out["printed"] = ledger_json(ledger(ruleset, analysis.options, analysis.policy))
    return out


def compare(variants: list[str], shown: list[str]) -> dict:
    """`variants` as the command line takes them (RULESET:NAME=VALUE,…), `shown` the names the
    response gives them (a folder's file by its name, not its path)."""
    from ..commands.compare import compare as comparing
    from ..render.comparison import comparison_json

    entries, machines = comparing(variants)
    rename = dict(zip(variants, shown))
    return comparison_json([(rename[t], a) for t, a in entries], [(rename[t], m) for t, m in machines])


def show(name: str, text: str | None = None) -> dict:
    from ..commands.loading import load
    from ..render.show import show_json

    return show_json(load(name, text))


def rules(name: str, options: list[str], text: str | None = None) -> str:
    from ..commands.rules import rule_sheet

    return rule_sheet(name, options, "html", text=text)


def graph(name: str, options: list[str], fmt: str, text: str | None = None) -> str:
    from ..commands.graph import graph as drawing, machine_to_draw

    return drawing(machine_to_draw(name, options, text=text), fmt).decode("utf-8")


def check(text: str, name: str) -> list[dict]:
    from .language import check_text

    return check_text(text, name)


def figures(text: str, name: str) -> dict:
    from . import language

    return language.figures(text, name)


def hover(text: str, name: str, line: int, column: int):
    from . import language

    return language.hover(text, name, line, column)


def completion(text: str, name: str, line: int, column: int) -> list:
    from . import language

    return language.completion(text, name, line, column)
