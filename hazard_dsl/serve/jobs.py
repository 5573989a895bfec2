"""The work behind each API request, as functions of plain arguments returning what the response
carries (run by `work.Worker` in a process of their own).

Each builds the request the command line builds (`serve.requests` reads the JSON's values into
it, as `cli.requests` reads flags), calls the same request function and builds its output the
same way, so the JSON is the command line's: `analyse --json` (render.report.analysis_json),
`compare --json` (render.comparison.comparison_json), `show --json` (render.show.show_json),
`rules --format html` (commands.rules.rules_request) and `graph --format svg|mermaid|json`
(commands.graph.graph_request). A ruleset is given as the command line takes it (a built-in
name or a file's path, checked by the caller against the folder) or as a text with the name it
is shown under; options as the JSON's object of words ({"main": "called"}, checked by the
caller), typed here by the ruleset's options.
"""

from __future__ import annotations


def analyse(name: str, options: dict, text: str | None = None) -> dict:
    from ..commands.analyse import analyse_request, risk
    from ..render.report import analysis_json
    from ..render.risk import risk_json
    from .requests import analyse_request as asked

    analysis = analyse_request(asked(name, options, text))
    out = dict(analysis_json(analysis), **risk_json(risk(analysis, spread=True)))  # as analyse --json: each bet's spread
    from ..commands.loading import load

    ruleset = load(name, text)
    if ruleset.printed:  # as analyse --json: the sources' printed figures beside the exact ones
        from ..render.printed import ledger, ledger_json

        out["printed"] = ledger_json(ledger(ruleset, analysis.options, analysis.policy))
    return out


def compare(variants: list, shown: list[str]) -> dict:
    """`variants` (ruleset, {option: value}) pairs, the ruleset as the command line takes it,
    `shown` the names the response gives them (a folder's file by its name, not its path)."""
    from ..commands.compare import compare_request
    from ..render.comparison import comparison_json
    from .requests import compare_request as asked

    entries, machines = compare_request(asked(variants, shown))
    return comparison_json(entries, machines)


def show(name: str, text: str | None = None) -> dict:
    from ..commands.loading import load
    from ..render.show import show_json

    return show_json(load(name, text))


def rules(name: str, options: dict, text: str | None = None) -> str:
    from ..commands.rules import rules_request
    from .requests import rules_request as asked

    return rules_request(asked(name, options, text))


def graph(name: str, options: dict, fmt: str, text: str | None = None) -> str:
    from ..commands.graph import graph_request
    from .requests import graph_request as asked

    return graph_request(asked(name, options, fmt, text)).decode("utf-8")


# The workbench's check, figures, hover and completion as one types: by the kept process
# (work.Worker.keep), whose state, `held()`, holds each page's text as a document of one language
# service (issue 39). The hover and the completion were each a process forked for it, checking
# the text afresh: a key typed asks a completion, whose fork and check took a core from the
# key's analysis at every key (the page's requests, bench_workbench --trace); asked of the kept
# service, the text is the one just checked, and the answer is a lookup.


def held():
    from .language import Held

    return Held()


def held_check(state, text: str, name: str) -> list[dict]:
    from .language import held_check as check

    return check(state, text, name)


def held_figures(state, text: str, name: str) -> dict:
    from .language import held_figures as figures

    return figures(state, text, name)


def held_hover(state, text: str, name: str, line: int, column: int):
    from .language import held_hover as hover

    return hover(state, text, name, line, column)


def held_completion(state, text: str, name: str, line: int, column: int) -> list:
    from .language import held_completion as completion

    return completion(state, text, name, line, column)


class Remembered:
    """The workbench's last answer of one kind for a text (its analysis, its drawing), kept by a
    process of its own (a check never waits behind it) with the explorations its compilations
    lend the next: the next text's answer is the same when its ruleset equals the last one's
    (the same name, options and format, and a ruleset equal field by field, positions included:
    an edit of a comment, or one undone), and is worked out afresh otherwise."""

    def __init__(self):
        from ..compile.explorations import Explorations

        self.explorations = Explorations()
        self.last = None  # (what was asked, ruleset, the answer)

    def answer(self, work, name: str, options: dict, text: str, *more):
        """`work(name, options, *more, text)`, or the last answer if it was of an equal ruleset."""
        from ..cache import sharing
        from ..commands.loading import load

        with sharing(self.explorations):
            ruleset = load(name, text)
            asked = (work.__name__, name, dict(options), more)
            if self.last is not None and self.last[0] == asked and self.last[1] == ruleset:
                return self.last[2]
            self.last = None
            out = work(name, options, *more, text)
        self.last = (asked, ruleset, out)
        return out


def analysed() -> Remembered:
    return Remembered()


def drawn() -> Remembered:
    return Remembered()


def held_analyse(state: Remembered, name: str, options: dict, text: str) -> dict:
    return state.answer(analyse, name, options, text)


def held_graph(state: Remembered, name: str, options: dict, fmt: str, text: str) -> str:
    return state.answer(graph, name, options, text, fmt)
