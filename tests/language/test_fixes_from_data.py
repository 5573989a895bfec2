"""The language service's quick fixes are built from a diagnostic's data (`code`, `suggestion`,
`subject`), not from its words — every one of them: the did-you-means, `==`, a rule's `- `,
`otherwise:`, a label's declaration, a narration's placeholder (and the editor's greying of a
rule that can never fire): reworded messages and hints
(as issue 36 lets them become more precise) leave every fix, its range and its text as they
were. The language server sends `code`."""

from __future__ import annotations

from pathlib import Path

import pytest

import hazard_dsl.check as check
from hazard_dsl.diagnostics import Diagnostic
from hazard_dsl.language.service import LanguageService, Place, Span, uri_of

SMALL = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "editor" / "small.yaml"


def _reworded(d: Diagnostic) -> Diagnostic:
    """The same diagnostic, said in other words: no "did you mean", no "`==`", no "`- ", no
    "otherwise", no quoted name left to find."""
    def say(text):
        return None if text is None else (text.replace("did you mean", "perhaps you meant")
                                           .replace("write `==`", "use the comparison").replace("'", "‘")
                                           .replace("`- ", "a dash ").replace("otherwise", "a catch-all")
                                           .replace("list item", "entry").replace("{", "(").replace("}", ")")
                                           .replace("never fire", "cannot be reached"))
    return Diagnostic(say(d.message), d.position, d.severity, say(d.hint), d.end, d.code, d.suggestion,
                      d.subject)


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
    # (a misspelt label is also undeclared: its declaration, a fix of its own, is tested below)
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


def _every_fix(service, tmp_path, text: str, reworded: bool):
    """Every quick fix of every problem of `text`, as (title, [(span, new text)])."""
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")
    uri = uri_of(path)
    service.open(uri, text)
    problems = service.diagnostics(uri)
    if reworded:  # the words the fixes could have been read from are gone
        said = " ".join(p.message + (p.hint or "") for p in problems)
        assert problems and not any(w in said for w in ("'", "`- ", "otherwise", "did you mean", "{"))
    return [(f.title, [(e.span, e.new_text) for edits in f.edits.values() for e in edits])
            for p in problems for f in service.code_actions(uri, p.span)]


def _at(line, column, end_column=None):
    return Span(Place(line, column), Place(line, column if end_column is None else end_column))


# Each case: (what small.yaml says, what the broken copy says instead, the one fix expected).
# Lines and columns count from 0 and are read off tests/data/rulesets/editor/small.yaml as
# printed with `cat -n` (line n there is n - 1 here), not from the service's output.
_DATA_FIXES = {
    # a rule of phase point (line 25) written without its `- ` (a key where the list's items
    # have their dash): the two spaces before `when:` (columns 6-7) become `- `
    "missing-dash": ("      - when: total == main\n", "        when: total == main\n",
                     ("Add the missing `- ` of this rule", [(_at(24, 6, 8), "- ")])),
    # the next rule's `when:` (line 27) inside the rule above: a duplicate key; same mend
    "duplicate-key": ("      - when: total == 7\n", "        when: total == 7\n",
                      ("Add the missing `- ` of this rule", [(_at(26, 6, 8), "- ")])),
    # phase point's `otherwise:` (line 29) gone: the throws 2-6 and 8-12 but the point are
    # unhandled; the rule comes back after its last line (0-based 27), at its rules' dash
    "unhandled-throw": ("      - otherwise: throw again\n", "",
                        ("Add `otherwise: throw again` as the last rule of phase 'point'",
                         [(_at(28, 0), "      - otherwise: throw again\n")])),
    # seven_out (line 13) no longer declared, used on line 28: declared first under labels:
    "undeclared-label": ('  seven_out: "{caster} sevens out."\n', "",
                         ("Declare the label 'seven_out' under `labels:`",
                          [(_at(9, 0), '  seven_out: "Seven out."\n')])),
    # a narration's {mian} (line 12: `  made: "{caster} makes {mian}."`, its `{` in column 24,
    # the name in columns 25-28)
    "unknown-placeholder": ("{caster} makes {main}.", "{caster} makes {mian}.",
                            ("Change to 'main'", [(_at(11, 25, 29), "main")])),
    # a passing label in a flow list (new line 15, `passing: {after_labels: [seven_uot]}`):
    # the word at columns 25-33, after `[` in column 24, where the checker places the problem
    "unknown-label": ("start: come_out\n", "start: come_out\npassing: {after_labels: [seven_uot]}\n",
                      ("Change to 'seven_out'", [(_at(14, 25, 34), "seven_out")])),
}


@pytest.mark.parametrize("code", sorted(_DATA_FIXES))
def test_every_quick_fix_is_built_from_the_diagnostics_data(service, tmp_path, request, code):
    good, bad, expected = _DATA_FIXES[code]
    text = SMALL.read_text(encoding="utf-8")
    assert text.count(good) >= 1
    found = _every_fix(service, tmp_path, text.replace(good, bad, 1), "reworded" in request.node.name)
    assert found == [expected]


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


@pytest.mark.parametrize("text, line", [
    # the second `total == 7` of phase point (line 7 from 0) is ruled out by the first
    (("name: Twice\nextends: craps\nphases:\n  point:\n    rules:\n      - when: total == 7\n"
      "        do: lose seven_out\n      - when: total == 7\n        do: win point_made\n"
      "      - when: total == point\n        do: win point_made\n      - otherwise: throw again\n"), 7),
    # a rule after `otherwise` (line 6 from 0)
    (("name: After\nextends: craps\nphases:\n  point:\n    rules:\n      - otherwise: throw again\n"
      "      - when: total == 7\n        do: lose seven_out\n"), 6),
])
def test_a_rule_that_can_never_fire_is_told_by_its_code(service, request, text, line):
    from hazard_dsl.language.figures import never_fires

    uri = "untitled:never.yaml"
    service.open(uri, text)
    problems = service.diagnostics(uri)
    if "reworded" in request.node.name:
        assert not any("never fire" in p.message for p in problems)
    assert [p.span.start.line for p in problems if never_fires(p)] == [line]


def test_check_json_gives_the_subject_after_the_fields_it_gave_before(tmp_path):
    from hazard_dsl.cli.check import diagnostic_json

    from hazard_dsl.cache import check_file

    # seven_out (line 13 of small.yaml) no longer declared; used on line 28, now line 27
    text = SMALL.read_text(encoding="utf-8").replace('  seven_out: "{caster} sevens out."\n', "", 1)
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")

    [said] = [diagnostic_json(d) for d in check_file(path) if d.code == "undeclared-label"]
    assert list(said) == ["file", "line", "column", "severity", "message", "hint", "code", "suggestion",
                          "subject"]
    assert (said["line"], said["subject"], said["suggestion"]) == (27, "seven_out", None)
