"""The names check's errors carry what they are about as facts (`Diagnostic.names`, `.reads`),
and the steps after it decide from those, never from the words (issue 36, point 2): which
error only follows from a part dropped for its own error (`check.reading._follows_from`), and
where in a child file an inherited line it breaks is told (`check.placed`).

Each test runs twice: as worded, and with every message of the names check reworded (quotes
gone, "bet" and "stake" said otherwise, no section's name in front, "no rule ends" and "has no
label" said otherwise): what was decided from the message's words would then change. The
positions expected were read off each text by hand (the line and column of the part in error)."""

from __future__ import annotations

import pickle

import pytest

from hazard_dsl.check import check_file, names, reading
from hazard_dsl.diagnostics import Diagnostic, Diagnostics, Position


def _reworded(message: str) -> str:
    for said, other in (("'", ""), ("bet", "wager"), ("stake", "ante"), ("no rule ends", "none ends"),
                        ("has no label", "lacks the label")):
        message = message.replace(said, other)
    return f"({message})"


class _Reworded(Diagnostics):
    """The names check's collector, every message said in other words."""

    def error(self, message, *args, **kwargs):
        super().error(_reworded(message), *args, **kwargs)

    def warning(self, message, *args, **kwargs):
        super().warning(_reworded(message), *args, **kwargs)


@pytest.fixture(params=["as worded", "reworded"])
def wording(request, monkeypatch):
    if request.param == "reworded":
        monkeypatch.setattr(names, "Diagnostics", _Reworded)
    return request.param


def _errors(tmp_path, text: str, name: str = "t.yaml") -> list:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [d for d in check_file(path) if d.is_error]


GAME = """\
phases:
  begin:
    rules:
      - when: total == 7
        do: win nick
      - when: total == 2
        do: lose out
      - otherwise: throw again
"""

# text; the (line, column) of each error reported, read off the text; what the dropped ones were
FOLLOWS = {
    # option `rule` is declared with an error and dropped: `option.rule` is no error of its own;
    # `option.other == "z"` is one (10:31, the "z")
    "an option declared with an error": (
        "name: t\noptions:\n  rule: [a, b]\n  other: {default: x, values: {x: one, y: two}}\n"
        "phases:\n  begin:\n    rules:\n      - when: option.rule == \"a\"\n        do: win\n"
        "      - when: option.other == \"z\"\n        do: lose\n      - otherwise: throw again\n",
        [(3, 9), (10, 31)], "there is no option 'rule'"),
    # the dice section reads with an error: its by_option naming no option may follow from it
    "the dice in error": (
        "name: t\noptions:\n  dice: {default: fair, values: {fair: fair, high: high}}\ndice:\n"
        "  by_option: dise\n  high:\n    both: [1/12, 1/12, 1/12, 1/4, 1/4, 1/4, 1]\n" + GAME,
        [(7, 11)], "dice: by_option names no option: 'dise'"),
    # the bet's pays does not read: its win saying no payout follows from it
    "a bet in error": (
        "name: t\nmoney:\n  stake: stake\nbets:\n  stake:\n    backer: caster\n    layer: setter\n"
        "    pays: 1 to\n    rules:\n      - when: result == \"win\"\n        do: win\n      - otherwise: lose\n"
        + GAME, [(8, 15)], "bet 'stake' has no pays:"),
    # a rule does not read: the labels games end with are not known, so neither passing's
    # `out` nor the bet's `nope` is an error of its own
    "a phase in error": (
        "name: t\npassing:\n  after_labels: [out]\nbets:\n  side:\n    backer: player\n    layer: player\n"
        "    pays: 1 to 1\n    rules:\n      - when: label == \"nope\"\n        do: lose\n      - otherwise: push\n"
        "phases:\n  begin:\n    rules:\n      - when: total == 7\n        do: win nick\n"
        "      - when: total == 2\n        do: lose out; goto\n      - otherwise: lose\n",
        [(19, 27)], "the game has no label 'nope'"),
}


@pytest.mark.parametrize("case", FOLLOWS, ids=list(FOLLOWS))
def test_an_error_that_follows_from_a_part_dropped_is_left_out_however_worded(case, wording, tmp_path):
    text, expected, _ = FOLLOWS[case]
    assert [(d.position.line, d.position.column) for d in _errors(tmp_path, text)] == expected


@pytest.mark.parametrize("case", FOLLOWS, ids=list(FOLLOWS))
def test_the_errors_left_out_are_the_names_checks_own(case, tmp_path, monkeypatch):
    """Without the decision, the names check's follow-on is there: so the test above could fail."""
    text, expected, follow_on = FOLLOWS[case]
    monkeypatch.setattr(reading, "_follows_from", lambda *args, **kwargs: False)
    found = _errors(tmp_path, text)
    assert any(d.message.startswith(follow_on) for d in found)
    assert len(found) > len(expected)


CHILD = """\
name: Cotton without the bad first throw
extends: cotton
sources:
  - title: an invented house rule
phases:
  set_main:
    rules:
      - when: total in 5..9
        do: set main = total; goto chance_throw
      - otherwise: throw again
"""


def test_an_inherited_line_a_child_breaks_is_told_in_the_child_however_worded(wording, tmp_path):
    # cotton's `passing: after_labels: [no_main]`: its set_main ends a game with no_main, this
    # child's does not; the error is told at the child's `set_main:` (line 6, column 3)
    (d,) = _errors(tmp_path, CHILD, "child.yaml")
    assert (d.position.line, d.position.column) == (6, 3)
    assert d.hint.startswith("this file replaces phase 'set_main', whose version in cotton ends a game "
                             "with 'no_main'; ")


def test_an_option_a_child_changes_is_where_the_inherited_error_is_told(wording, tmp_path):
    # cotton's set_main compares option.first_throw with "lose_turn", a value this child's
    # option no longer has: told at the child's `first_throw:` (line 6, column 3)
    text = ("name: Cotton with fewer first throws\nextends: cotton\nsources:\n  - title: invented\n"
            "options:\n  first_throw:\n    default: rethrow\n    values:\n      rethrow: again\n      lose: lost\n")
    (d,) = _errors(tmp_path, text, "child.yaml")
    assert (d.position.line, d.position.column) == (6, 3)
    assert d.hint.startswith("this file replaces option 'first_throw'")


def test_an_error_of_the_chain_stays_in_the_file_whose_extends_it_is(tmp_path):
    (tmp_path / "parent.yaml").write_text("name: p\nextends: missing_parent.yaml\nphases:\n  a:\n"
                                          "    rules:\n      - otherwise: win\n", encoding="utf-8")
    (d,) = _errors(tmp_path, "name: c\nextends: parent.yaml\n", "child.yaml")
    assert d.position.file.endswith("parent.yaml") and (d.position.line, d.position.column) == (2, 10)


def test_the_facts_are_not_shown_and_do_not_tell_two_problems_apart():
    at = Position("f.yaml", 3, 5)
    plain = Diagnostic("undefined name 'mian'", at, code="unknown-name")
    told = Diagnostic("undefined name 'mian'", at, code="unknown-name", names=("mian",), reads=("dice",))
    assert told == plain and hash(told) == hash(plain) and repr(told) == repr(plain)
    again = pickle.loads(pickle.dumps(told))
    assert (again.names, again.reads) == (("mian",), ("dice",)) and again == plain
    assert (plain.names, plain.reads) == ((), ())


def test_a_name_that_merely_contains_bet_is_no_follow_on_of_a_bet_in_error(tmp_path):
    # the bet's pays does not read (8:15); `better` (18:15) is undefined whatever the bet: it
    # was left out while the decision read "bet" in the message's words
    text = ("name: t\nmoney:\n  stake: stake\nbets:\n  stake:\n    backer: caster\n    layer: setter\n"
            "    pays: 1 to\n    rules:\n      - when: result == \"win\"\n        do: win\n      - otherwise: lose\n"
            "phases:\n  begin:\n    rules:\n      - when: total == 7\n        do: win nick\n"
            "      - when: better == 2\n        do: lose\n      - otherwise: throw again\n")
    found = _errors(tmp_path, text)
    assert [(d.position.line, d.position.column) for d in found] == [(8, 15), (18, 15)]
    assert found[1].message == "undefined name 'better'"
