"""The language service's check of a version after a keystroke (issue 39): its explorations are
lent to the check, so the bets checked against the same game are found, not played out again
(`compile.explorations.BetChecks`), and the problems it publishes are those of a fresh service
opening the same text (positions included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl.language.service import LanguageService, uri_of

CRAPS = Path(__file__).resolve().parents[2] / "rulesets" / "craps.yaml"
# a bet no throw decides, after the pass line: an error at its place, which moves when a line is
# typed above it
ENDLESS = """
  endless:
    description: a bet no throw decides
    backer: player
    layer: bank
    made: phase == "come_out"
    pays: 1 to 1
    rules:
      - otherwise: throw again"""


@pytest.fixture
def craps(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no reading cache but this test's
    text = CRAPS.read_text(encoding="utf-8")
    at = text.index("\n  dont_pass:")
    path = tmp_path / "craps.yaml"
    return path, text[:at] + ENDLESS + text[at:]


def _edits(text: str) -> list:
    """Keystrokes one after another: a letter in the pass line's description, a line typed above
    the endless bet, a digit of a payout, a space in the game's description."""
    out, now = [], text
    for where, after, typed, over in (("description: the pass line", True, "x", False),
                                      ("\n  endless:", False, "\n", False),  # an empty line above it
                                      ("2 to 1", False, "3", True),  # the first payout of 2 to 1 made 3 to 1
                                      ("description: >", True, " ", False)):
        at = now.index(where) + (len(where) if after else 0)
        now = now[:at] + typed + now[at + over:]
        out.append(now)
    return out


def test_each_version_after_a_keystroke_says_what_a_fresh_service_says(craps):
    path, text = craps
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    first = [p for p in service.diagnostics(uri) if p.severity == "error"]
    assert len(first) == 1  # the endless bet's
    for version, edited in enumerate(_edits(text), start=2):
        service.change(uri, edited, version)
        fresh = LanguageService(waits=False)
        fresh.open(uri, edited, 1)
        assert service.diagnostics(uri) == fresh.diagnostics(uri)
    # the line typed above the endless bet moved its error one line down, as said
    last = [p for p in service.diagnostics(uri) if p.severity == "error"]
    assert len(last) == 1 and last[0] != first[0]


def test_a_keystroke_in_one_bet_is_checked_with_the_others_found(craps):
    path, text = craps
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    service.diagnostics(uri)
    checks = service._explorations.bet_checks
    played, found = checks.played, checks.found
    edited = _edits(text)[0]  # a letter in the pass line's description: the pass line only
    service.change(uri, edited, 2)
    service.diagnostics(uri)
    assert checks.found > found and 1 <= checks.played - played < checks.found - found


def _typed(text: str, where: str, typed: str) -> str:
    at = text.index(where) + len(where)
    return text[:at] + typed + text[at:]


def test_a_keystroke_outside_the_game_explores_no_game_again(craps):
    """A letter in a variable's description (the game reads no description) lends the last
    version's explorations to the new ruleset, and every bet's check is found: nothing is
    explored or played out again, and the problems are a fresh service's."""
    path, text = craps
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    service.diagnostics(uri)
    explorations = service._explorations
    checks = explorations.bet_checks
    lent, played = explorations.lent, checks.played
    edited = _typed(text, "description: the point set by the come-out roll", "s")
    service.change(uri, edited, 2)
    fresh = LanguageService(waits=False)
    fresh.open(uri, edited, 1)
    assert service.diagnostics(uri) == fresh.diagnostics(uri)
    assert explorations.lent == lent + 1 and checks.played == played


@pytest.mark.parametrize("where, typed", [
    ("range: 0..", "1"),  # the point's range 0..12 made 0..112: the game reads it
    ("\nvariables:", "\n"),  # a line above the game's rules: each rule's position moves
])
def test_a_keystroke_in_the_game_explores_it_again(craps, where, typed):
    path, text = craps
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    service.diagnostics(uri)
    explorations = service._explorations
    lent = explorations.lent
    edited = _typed(text, where, typed)
    service.change(uri, edited, 2)
    fresh = LanguageService(waits=False)
    fresh.open(uri, edited, 1)
    assert service.diagnostics(uri) == fresh.diagnostics(uri)
    assert explorations.lent == lent


def test_a_lent_game_is_the_new_rulesets_and_the_same_machine(tmp_path):
    """Explorations found by the game's value are the new ruleset's (a bet is compiled from its
    machine's ruleset: a bet changed by the keystroke is compiled as it now reads), and their
    machines are those of a cold compile, state for state."""
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.compile.explorations import Explorations

    text = CRAPS.read_text(encoding="utf-8")
    path = tmp_path / "craps.yaml"
    path.write_text(text, encoding="utf-8")
    first = read_ruleset(path)
    # the pass line paying 2 to 1: a bet changed, the game not
    at = text.index("\n  pass:")
    at = text.index("pays: 1 to 1", at)
    path.write_text(text[:at] + "pays: 2 to 1" + text[at + len("pays: 1 to 1"):], encoding="utf-8")
    second = read_ruleset(path)
    explorations = Explorations()
    compile_ruleset(first, explorations=explorations)
    lent = compile_ruleset(second, explorations=explorations)
    cold = compile_ruleset(second)
    assert explorations.lent == 1
    assert lent.ruleset is second
    assert lent.states == cold.states and lent.start == cold.start
    assert lent.bets["pass"] == cold.bets["pass"] != compile_ruleset(first).bets["pass"]
