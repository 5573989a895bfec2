"""A rule file whose lines end in a lone CR (an old Mac's), NEL, LS or PS, which YAML reads as
line breaks as it reads LF: an error inside an expression is placed on its line and column, as
in the same file with LF (fuzz42 P1: placed at 1:11762, the first line quoted). The place
expected is found in the LF text by counting its lines, not by the tool."""

from __future__ import annotations

import pytest

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse.files import builtin_dir

TYPO = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8").replace(
    "goto chance_throw", "goto chanse_throw", 1)


def _where(text: str, word: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n"), start=1):
        if word in line:
            return number, line.index(word) + 1
    raise AssertionError(word)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"],
                         ids=["LF", "CRLF", "CR", "NEL", "LS", "PS"])
def test_an_error_in_an_expression_is_placed_on_yamls_line(newline):
    text = TYPO.replace("\n", newline)
    with pytest.raises(RulesetError) as caught:
        read_ruleset("t.yaml", text=text, named="t.yaml")
    errors = [d for d in caught.value.diagnostics if d.is_error]
    assert [d.message for d in errors] == ["goto: there is no phase 'chanse_throw'"]
    assert (errors[0].position.line, errors[0].position.column) == _where(TYPO, "chanse_throw")
