"""The workbench's questions about a rule file's text, answered by the shared language service
(`hazard_dsl.language.service`, the one `hazard-dsl lsp` serves to editors), in the API's shape:
lines and columns from 1 (the service counts from 0), in code points, a range ending just past
its last character.

A text in the workbench is a rule file held in a string (an `untitled:` document of the
service, named as the page names it): it may extend the built-in rulesets. Each request is
answered in a process of its own (serve.work), so each opens the text afresh; the service's
reading cache makes that cheap. The workbench's check, figures, hover and completion as one
types are the exception: one kept process holds its texts (`Held`, `work.Kept`), so that a
keystroke's check plays out only what it changed (a fifth of a fresh check of Cotton's Hazard,
issue 39).
"""

from __future__ import annotations

import re

# imported with this module, which the server's forkserver loads before it forks any work
# (serve.work.PRELOAD): a check asked as one types then imports none of the language service
# in its own process (some 20 ms of each request, issue 39)
from ..language import figures as _figures, fixes as _fixes, service as _language, tokens as _tokens  # noqa: F401

MARKUP = re.compile(r"\*\*|`")  # the Markdown of a hover, for a page that shows it as text


def _service(text: str, name: str):
    from ..language.service import LanguageService

    service = LanguageService()
    uri = f"untitled:{name}"
    service.open(uri, text)
    return service, uri


def _place(line: int, column: int):
    from ..language.service import Place

    return Place(line - 1, column - 1)


def _range(span: dict) -> dict:
    """A service range (from 0) as the API's (from 1)."""
    return {"line": span["start"]["line"] + 1, "column": span["start"]["column"] + 1,
            "end_line": span["end"]["line"] + 1, "end_column": span["end"]["column"] + 1}


def diagnostic_json(problem: dict, name: str, placed: bool = True) -> dict:
    """One diagnostic: line, column, end_line and end_column from 1; its fixes each a title, a
    range and the new text. A problem of a ruleset the text extends stands on `extends:`. One
    the checker gives no place (`placed` false: of the file as a whole) has no line: listed, not
    underlined (an editor's protocol needs a range, and the service gives it line 1's)."""
    where = _range(problem["range"]) if placed else {"line": None, "column": None, "end_line": None,
                                                      "end_column": None}
    return {**where, "severity": problem["severity"], "message": problem["message"], "hint": problem["hint"],
            "file": name, "fixes": [{"title": f["title"], "range": _range(f["range"]), "new_text": f["new_text"]}
                                    for f in problem["fixes"]]}


def refusal_json(d) -> dict:
    """A problem that stopped other work (analyse, rules, graph of a text with errors), from its
    `Diagnostic`: where the checker placed it (from 1, no further than that place), in which file."""
    p = d.position
    out = {"line": None, "column": None, "end_line": None, "end_column": None, "severity": d.severity,
           "message": d.message, "hint": d.hint, "file": p.file if p is not None else None, "fixes": []}
    if p is not None and p.line:
        out.update(line=p.line, column=p.column, end_line=p.line, end_column=p.column)
    return out


class Held:
    """The texts of the workbench's pages, each a document of one language service kept between
    requests (in the server's kept process, `work.Kept`), named as the page names it: the next
    version of a text is a change of its document, so that its check plays out only what the
    edit changed and its figures reuse the game's explorations (issue 39). At most `MAX` texts
    are held, the one asked about longest ago forgotten first."""

    MAX = 8

    def __init__(self):
        from ..language.service import LanguageService

        self.service = LanguageService()
        self._uris: dict[str, None] = {}  # in the order last asked about

    def document(self, text: str, name: str) -> str:
        """The URI of the document holding `text` as `name`, changed to it if it held another."""
        uri = f"untitled:{name}"
        if uri in self._uris:
            self._uris.pop(uri)
            if self.service.text(uri) != text:
                self.service.change(uri, text)
        else:
            self.service.open(uri, text)
            if len(self._uris) >= self.MAX:
                oldest = next(iter(self._uris))
                self.service.close(oldest)
                del self._uris[oldest]
        self._uris[uri] = None
        return uri


def held_check(held: Held, text: str, name: str) -> list[dict]:
    """`check_text`, of the text held as `name` by `held`."""
    return _problems(held.service, held.document(text, name), name)


def held_figures(held: Held, text: str, name: str) -> dict:
    """`figures`, of the text held as `name` by `held`."""
    return _figures_of(held.service, held.document(text, name))


def check_text(text: str, name: str) -> list[dict]:
    """Every problem of the rule file held in `text` (shown as `name`), in order of place, each
    with its quick fixes: the checker's "did you mean", and those of `language.fixes` (`==` for
    `=`, a rule's missing `- `, an `otherwise`, a label declared), each one edit."""
    return _problems(*_service(text, name), name)


def _problems(service, uri: str, name: str) -> list[dict]:
    found = []
    for p in service.diagnostics(uri):
        data = p.to_json()
        for fix in service._more_fixes(uri, p):
            [edit] = fix.edits[uri]
            data["fixes"].append({"title": fix.title, "range": edit.span.to_json(), "new_text": edit.new_text})
        found.append(diagnostic_json(data, name, p.placed))
    return found


def figures(text: str, name: str) -> dict:
    """What the editor shows inside the text (`language.figures`, `language.tokens`), lines and
    columns from 1: `tokens` [{line, column, length, kind}] of the expression language, always;
    for a text with no errors, `hints` [{line, column, label, tooltip}] (each rule's expected
    firings per game, at the end of its first line) and `lenses` [{line, column, end_column,
    kind, name, title}] (each phase's and bet's figure); `reason` why there are none, else null."""
    return _figures_of(*_service(text, name))


def _figures_of(service, uri: str) -> dict:
    tokens = [{"line": t.line + 1, "column": t.column + 1, "length": t.length, "kind": t.kind}
              for t in service.semantic_tokens(uri)]
    found = service.figures(uri)
    if found is None:
        return {"tokens": tokens, "hints": [], "lenses": [], "reason": "the text has errors"}
    hints = [{"line": h.line + 1, "column": h.column + 1, "label": h.label.strip(), "tooltip": h.tooltip}
             for h in service.inlay_hints(uri)]
    lenses = [{"line": k.line + 1, "column": k.start + 1, "end_column": k.end + 1, "kind": k.kind, "name": k.name,
               "title": k.title} for k in service.code_lenses(uri)]
    return {"tokens": tokens, "hints": hints, "lenses": lenses, "reason": found.reason}


def hover(text: str, name: str, line: int, column: int):
    """What the name at (line, column) is: {"text" (plain), "markdown", and its range}, or None."""
    return _hover_of(*_service(text, name), line, column)


def held_hover(held: Held, text: str, name: str, line: int, column: int):
    """`hover`, in the text held as `name` by `held`."""
    return _held_answer(held, text, name, hover, _hover_of, line, column)


def _held_answer(held: Held, text: str, name: str, afresh, answer, *place):
    """`answer(service, uri, *place)` of the text held as `name` by `held`, or `afresh(text,
    name, *place)` where the text has errors (its check is the one just made): a held document
    that does not read is answered from the last version that did (as `hazard-dsl lsp` answers
    an editor), and the workbench's answer to a text is the text's alone, whatever was asked
    before it."""
    from ..diagnostics import ERROR

    uri = held.document(text, name)
    if any(p.severity == ERROR for p in held.service.diagnostics(uri)):
        return afresh(text, name, *place)
    return answer(held.service, uri, *place)


def _hover_of(service, uri: str, line: int, column: int):
    found = service.hover(uri, _place(line, column))
    if found is None:
        return None
    data = found.to_json()
    return {"text": MARKUP.sub("", data["markdown"]), "markdown": data["markdown"], **_range(data["range"])}


def completion(text: str, name: str, line: int, column: int) -> list:
    """What may be written at (line, column): [{label, kind, detail, documentation, insert_text}]."""
    return _completion_of(*_service(text, name), line, column)


def held_completion(held: Held, text: str, name: str, line: int, column: int) -> list:
    """`completion`, in the text held as `name` by `held`."""
    return _held_answer(held, text, name, completion, _completion_of, line, column)


def _completion_of(service, uri: str, line: int, column: int) -> list:
    return [c.to_json() for c in service.completion(uri, _place(line, column))]
