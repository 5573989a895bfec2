"""The language service's quick fixes are built from a diagnostic's data (`code`, `suggestion`),
not from its words: reworded messages and hints (as issue 36 lets them become more precise)
leave every fix, its range and its text as they were. The language server sends `code`."""

from __future__ import annotations

from pathlib import Path

import pytest

import hazard_dsl.check as check
from hazard_dsl.diagnostics import Diagnostic
from hazard_dsl.language.service import LanguageService, Place, Span, uri_of

SMALL = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "editor" / "small.yaml"


def _reworded(d: Diagnostic) -> Diagnostic:
    """The same diagnostic, said in other words: no "did you mean", no "`==`" left to find."""
    def say(text):
        return None if text is None else (text.replace("did you mean", "perhaps you meant")
                                           .replace("write `==`", "use the comparison").replace("'", "‘"))
    return Diagnostic(say(d.message), d.position, d.severity, say(d.hint), d.end, d.code, d.suggestion)


@pytest.fixture(params=[False, True], ids=["as-said", "reworded"])
def service(request, monkeypatch):
    if request.param:
        real = check.check_ruleset

        def reworded(*args, **kwargs):
            ruleset, found = real(*args, **kwargs)
            return ruleset, [_reworded(d) for d in found]

        monkeypatch.setattr(check, "check_ruleset", reworded)
    return LanguageService()


def _fixes(service, tmp_path, bad: str, good: str, word: str):
    path = tmp_path / "small.yaml"
    text = SMALL.read_text(encoding="utf-8").replace(good, bad, 1)
    path.write_text(text, encoding="utf-8")
    uri = uri_of(path)
    service.open(uri, text)
    line = next(k for k, t in enumerate(text.split("\n")) if bad in t)
    column = text.split("\n")[line].index(bad) + bad.index(word)
    at = Span(Place(line, column), Place(line, column + len(word)))
    # (a label's declaration under `labels:` is language.fixes' own, read from the message yet)
    return [(f.title, [(e.span, e.new_text) for edits in f.edits.values() for e in edits])
            for f in service.code_actions(uri, at) if not f.title.startswith("Declare")], line


@pytest.mark.parametrize("good, bad, word, title, new", [
    ("do: win made", "do: win mdae", "mdae", "Change to 'made'", "made"),
    ("when: total == main", "when: total == mian", "mian", "Change to 'main'", "main"),
    ("goto point", "goto piont", "piont", "Change to 'point'", "point"),
    ("description: the point", "descripton: the point", "descripton", "Change to 'description'", "description"),
])
def test_a_misspelt_word_is_mended_from_the_suggestion(service, tmp_path, good, bad, word, title, new):
    found, line = _fixes(service, tmp_path, bad, good, word)
    column = (SMALL.read_text().replace(good, bad, 1).split("\n")[line]).index(bad) + bad.index(word)
    assert found == [(title, [(Span(Place(line, column), Place(line, column + len(word))), new)])]


def test_a_single_equals_is_mended_from_the_suggestion(service, tmp_path):
    found, line = _fixes(service, tmp_path, "when: total = 7", "when: total == 7", "=")
    column = SMALL.read_text().replace("when: total == 7", "when: total = 7", 1).split("\n")[line].index(" = ") + 1
    assert found == [("Write `==` to compare", [(Span(Place(line, column), Place(line, column + 1)), "==")])]


def test_the_language_server_sends_the_code(tmp_path):
    from lsprotocol import types

    from hazard_dsl.lsp.server import HazardServer

    class Placed:  # the server's ranges need an editor's workspace: a fixed one will do here
        def range(self, uri, span):
            return types.Range(types.Position(0, 0), types.Position(0, 1))

    service = LanguageService()
    path = tmp_path / "small.yaml"
    text = SMALL.read_text(encoding="utf-8").replace("goto point", "goto piont", 1)
    service.open(uri_of(path), text)
    problems = service.diagnostics(uri_of(path))
    sent = [HazardServer.diagnostic(Placed(), uri_of(path), p) for p in problems]
    assert sent[0].code == "unknown-phase" and sent[0].message.startswith(problems[0].message)
    assert [d.code for d in sent] == [p.code for p in problems]  # None (not sent) where a kind has none yet
