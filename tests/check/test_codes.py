"""Each kind of problem has a stable code and, where the checker knows one, its repair as data
(issue 36): the fields are filled from the facts the checker has, and docs/diagnostics.md lists
every code the package gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hazard_dsl
from hazard_dsl.diagnostics import Position, RulesetError, Suggestion

ROOT = Path(__file__).resolve().parents[2]
RULE = ("name: t\nphases:\n  start:\n    rules:\n      - when: {when}\n        {do}: win nick\n"
        "      - otherwise: lose out\n")


def _found(text: str) -> list:
    """The diagnostics of a kind that reading `text` gives."""
    with pytest.raises(RulesetError) as caught:
        hazard_dsl.load_text(text)
    return [d for d in caught.value.diagnostics if d.code is not None]


def _at(line: int, column: int) -> Position:
    return Position("<text>", line, column)


def test_a_misspelt_key_is_replaced_by_the_key_it_stands_for():
    (d,) = _found(RULE.format(when="total == 7", do="doo"))
    assert d.code == "unknown-key" and d.message == "unknown key 'doo' in a rule"
    assert d.suggestion == Suggestion("do", _at(6, 9), _at(6, 12))


def test_a_misspelt_name_is_replaced_in_the_expression():
    (d,) = _found(RULE.format(when="totl == 7", do="do"))
    assert (d.code, d.hint) == ("unknown-name", "did you mean 'total'?")
    assert d.suggestion == Suggestion("total", _at(5, 15), _at(5, 19))


def test_a_single_equals_is_made_a_comparison():
    (d,) = _found(RULE.format(when="total = 7", do="do"))
    assert d.code == "single-equals"
    assert d.suggestion == Suggestion("==", _at(5, 21), _at(5, 22))


def test_a_key_without_its_colon_gets_one():
    text = "name: t\nphases\n  start:\n    rules:\n      - when: total == 7\n        do: win nick\n"
    d = next(d for d in _found(text) if d.code == "missing-colon")
    assert d.message == "`phases` has no colon after its key"
    assert d.suggestion == Suggestion(":", _at(2, 7), _at(2, 7))


def test_an_unclosed_bracket_is_closed_where_its_line_ends():
    text = "name: t\nnotes: [a, b\n" + RULE.format(when="total == 7", do="do")[len("name: t\n"):]
    d = next(d for d in _found(text) if d.code == "unclosed-bracket")
    assert d.suggestion == Suggestion("]", _at(2, 13), _at(2, 13))


def test_a_quoted_value_is_replaced_inside_its_quotes():
    text = "name: t\npassing:\n  first: 'seat_ordr'\n" + RULE.format(when="total == 7", do="do")[len("name: t\n"):]
    d = next(d for d in _found(text) if d.code == "unknown-value")
    assert d.suggestion == Suggestion("seat_order", _at(3, 11), _at(3, 20))


def test_a_word_with_no_close_match_has_no_suggestion():
    (d,) = _found(RULE.format(when="total == 7", do="zzzzzzzz"))
    assert d.code == "unknown-key" and d.suggestion is None


def test_every_code_the_package_gives_is_in_the_table():
    given = re.compile(r'\bcode(?:, fix)? = "([a-z-]+)"|\bcode="([a-z-]+)"')
    said = {a or b for path in (ROOT / "hazard_dsl").rglob("*.py")
            for a, b in given.findall(path.read_text(encoding="utf-8"))}
    table = set(re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8"),
                           re.MULTILINE))
    assert said and said == table


def test_a_misspelt_label_phase_and_variable_of_an_action_are_replaced_where_written():
    text = ("name: t\nvariables:\n  main: {range: 0..12}\nlabels:\n  nick: nick\n  out: out\nphases:\n"
            "  start:\n    rules:\n      - when: total == 7\n        do: win nik\n"
            "      - when: total == 8\n        do: set mian = 3; goto strt\n      - otherwise: lose out\n")
    found = {d.code: d for d in _found(text)}
    assert found["undeclared-label"].suggestion == Suggestion("nick", _at(11, 17), _at(11, 20))
    assert found["unknown-variable"].suggestion == Suggestion("main", _at(13, 17), _at(13, 21))
    assert found["unknown-phase"].suggestion == Suggestion("start", _at(13, 32), _at(13, 36))
    assert found["unknown-phase"].hint == "did you mean 'start'?"


def test_a_misspelt_option_is_replaced_after_its_dot():
    text = ("name: t\noptions:\n  main:\n    values: [5, 7]\nphases:\n  start:\n    rules:\n"
            "      - when: total == option.mian\n        do: win nick\n      - otherwise: lose out\n")
    (d,) = [d for d in _found(text) if d.code == "unknown-option"]
    assert d.hint == "did you mean 'main'?" and d.position == _at(8, 24)
    assert d.suggestion == Suggestion("main", _at(8, 31), _at(8, 35))
