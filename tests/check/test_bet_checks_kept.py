"""A keystroke re-checks only what it changed (issue 39): the bets checked against a game are
kept by the caller's `Explorations` (`compile.explorations.BetChecks`) for the next text.

What must hold: a check of text B after text A (one character apart) says exactly what a cold
check of B says — every diagnostic, positions included — and, for an edit inside one bet, plays
out only that bet again. The cold check is the reference: a fresh `Explorations`, nothing kept.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hazard_dsl.cache import sharing
from hazard_dsl.check.game import check_game
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.compile.explorations import BetChecks, Explorations
from hazard_dsl.diagnostics import RulesetError

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
TYPED = "0123456789 aex-_:\n"  # what a keystroke puts in: digits, letters, a space, YAML's marks, a line
SURE_THING = """
  sure_thing:
    description: a second rule on a win, which the first takes
    backer: player
    layer: bank
    made: phase == "come_out"
    pays: 1 to 1
    rules:
      - when: result == "win"
        do: win
      - when: result == "win"
        do: lose
      - otherwise: throw again"""  # its second rule never fires: a warning at its place
ENDLESS = """
  endless:
    description: a bet no throw decides
    backer: player
    layer: bank
    made: phase == "come_out"
    pays: 1 to 1
    rules:
      - otherwise: throw again"""  # never decided: an error at its place


def _with_bet(text: str, bet: str) -> str:
    """`text` with `bet` after its first bet: the bets below it, and their places, move with it."""
    at = text.index("\n", text.index("\nbets:") + 1)
    at = text.index("\n  ", text.index("\n  ", at) + 1)
    at = next(i for i in range(at + 1, len(text)) if text.startswith("\n  ", i) and text[i + 3] != " ")
    return text[:at] + bet + text[at:]


_CRAPS = (RULESETS / "craps.yaml").read_text(encoding="utf-8")
TEXTS = {  # name -> (its file, its text)
    "craps": ("craps", _CRAPS),
    "cotton": ("cotton", (RULESETS / "cotton.yaml").read_text(encoding="utf-8")),
    "craps and a rule that never fires": ("craps", _with_bet(_CRAPS, SURE_THING)),
    "craps and a bet never decided": ("craps", _with_bet(_CRAPS, ENDLESS)),
}


def _read(name: str, text: str):
    try:
        return read_ruleset(RULESETS / f"{name}.yaml", text=text)
    except (RulesetError, RecursionError):
        return None


def _check(ruleset, explorations: Explorations):
    """check_game's answer, or the error it stopped with (its diagnostics), as plain data."""
    with sharing(explorations):
        try:
            return "found", check_game(ruleset)
        except RulesetError as exc:
            return "error", list(exc.diagnostics)


def _edited(text: str, at: int, typed: str, how: str = "replace") -> str:
    """One keystroke at `at`: a character typed over (`replace`), typed in (`insert`), deleted."""
    if how == "insert":
        return text[:at] + typed + text[at:]
    return text[:at] + ("" if how == "delete" else typed) + text[at + 1:]


@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_check_after_a_keystroke_says_what_a_cold_check_says(name, data):
    file, text = TEXTS[name]
    bets_at = text.index("\nbets:")
    # most keystrokes inside the bets (where a bet's check is found or missed), some anywhere
    at = data.draw(st.one_of(st.integers(bets_at + 7, len(text) - 1), st.integers(0, len(text) - 1)), label="at")
    typed = data.draw(st.sampled_from(TYPED), label="typed")
    how = data.draw(st.sampled_from(("replace", "insert", "delete")), label="how")
    after = _read(file, _edited(text, at, typed, how))
    if after is None:
        return  # the edit does not read: no game to check
    kept = Explorations()
    _check(_read(file, text), kept)  # text A, its bets kept
    assert _check(after, kept) == _check(after, Explorations())


@pytest.mark.parametrize("name", ["craps and a rule that never fires", "craps and a bet never decided"])
@pytest.mark.parametrize("where", ["\n  pass:", "\n    called: the pass line", "\n    description: the pass"])
@pytest.mark.parametrize("how", ["insert", "delete"])
def test_a_line_typed_or_joined_above_a_bet_moves_what_its_check_says(name, where, how):
    """A line typed in (or two joined) above the bet a diagnostic stands at: the bet is the
    same, its place is not, and the check after the keystroke says it at the new place."""
    file, text = TEXTS[name]
    longer = _edited(text, text.index(where) + 1, "\n", "insert")  # an empty line typed in
    before, after = (text, longer) if how == "insert" else (longer, text)  # ... or deleted
    kept = Explorations()
    _check(_read(file, before), kept)
    cold = _check(_read(file, after), Explorations())
    assert _check(_read(file, after), kept) == cold != _check(_read(file, before), Explorations())


def test_the_texts_edited_say_something_at_a_place():
    """The edits above are of texts whose check finds diagnostics at places (not only of clean
    ones, where every check says nothing): a warning below the first bet, an error there."""
    def line_of(text: str, words: str) -> int:
        return text[:text.index(words)].count("\n") + 1

    file, text = TEXTS["craps and a rule that never fires"]
    kind, found = _check(_read(file, text), Explorations())
    # the second `when` of sure_thing: two lines below its first
    second = line_of(text, "  sure_thing:") + 9
    assert text.split("\n")[second - 1] == '      - when: result == "win"' == text.split("\n")[second - 3]
    assert (kind, [(d.severity, d.position.line, d.position.column) for d in found]) == (
        "found", [("warning", second, 9)])
    file, text = TEXTS["craps and a bet never decided"]
    kind, found = _check(_read(file, text), Explorations())
    assert (kind, [(d.severity, d.position and d.position.line) for d in found]) == (
        "found", [("error", line_of(text, "  endless:")), ("note", None)])


def _plays(explorations: Explorations, name: str, text: str) -> int:
    before = explorations.bet_checks.played
    found = _check(_read(name, text), explorations)
    assert found[0] == "found"
    return explorations.bet_checks.played - before


def test_a_keystroke_in_one_bet_plays_only_that_bet_again():
    text = _CRAPS
    # craps' field bet pays 2 to 1 on a 2: typed 3 instead, a value the check plays out
    at = text.index("\n  field:")
    edit = text.index("2 to 1", at)
    edited = _edited(text, edit, "3")
    kept = Explorations()
    cold = _plays(kept, "craps", text)
    # the cold check's count, a second way: every (setting, bet) pair kept, one per play
    assert cold == len(kept.bet_checks) == 79
    again = _plays(kept, "craps", edited)
    # a second way: the settings a cold check of the edited text plays the field under
    fresh = Explorations()
    _check(_read("craps", edited), fresh)
    expected = sum(1 for bets in fresh.bet_checks._games.values() for one, _ in bets.values()
                   if one is not None and one.name == "field")
    assert again == expected and 1 <= again < cold
    # the unedited text again: every bet found, none played
    assert _plays(kept, "craps", text) == 0


def test_a_keystroke_in_the_game_plays_every_bet_again():
    text = _CRAPS
    kept = Explorations()
    cold = _plays(kept, "craps", text)
    # the come-out's natural 11 typed 10: a 10 wins at once, an 11 sets a point; another game
    at = text.index("total in {7, 11}") + len("total in {7, 1")
    edited = _edited(text, at, "0")
    assert "total in {7, 10}" in edited
    fresh = Explorations()
    every = _plays(fresh, "craps", edited)
    assert _plays(kept, "craps", edited) == every == cold == 79
    assert _check(_read("craps", edited), kept) == _check(_read("craps", edited), Explorations())


def test_a_game_larger_than_the_bound_is_not_kept():
    checks = BetChecks(max_games=1, max_bets=2, max_nodes=10 ** 9)
    kept = checks.of(("a",))
    for key in (b"1", b"2", b"3"):
        checks.keep(kept, key, (None, None))
    assert len(checks) <= 2
    other = checks.of(("b",))
    assert len(checks) == 0 and other == {}
