"""Bets inherited through `extends` follow the new game, or the checker says they may not."""

from __future__ import annotations

from fractions import Fraction

from hazard_dsl.check import check_file
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.solve.analysis import analyse

from tests.conftest import machine

CRAPLESS = """name: Crapless craps
extends: craps
phases:
  come_out:
    - when: total == 7
      do: win natural
    - otherwise: set point = total; goto point
"""


def test_come_follows_a_changed_come_out_as_pass_does(write_ruleset):
    a = analyse(compile_ruleset(read_ruleset(write_ruleset(CRAPLESS))))
    # crapless craps: only a 7 wins on the come-out; 2, 3, 11 and 12 are points
    assert a.bets["pass"].edge == Fraction(373, 6930)
    assert a.bets["come"].edge == a.bets["pass"].edge
    assert a.bets["come"].labels == {"natural": Fraction(1, 6), "seven_out": Fraction(7303, 13860),
                                     "point_made": Fraction(4247, 13860)}


def test_come_and_dont_come_keep_their_craps_edges():
    a = analyse(machine("craps"))
    assert a.bets["come"].edge == Fraction(7, 495) and a.bets["dont_come"].edge == Fraction(3, 220)


def test_an_inherited_bet_reading_the_throw_in_a_changed_phase_is_warned_about(write_ruleset):
    diagnostics = check_file(write_ruleset(CRAPLESS))
    warned = {d.message.split("'")[1] for d in diagnostics if "inherited from" in d.message}
    assert warned == {"dont_pass", "dont_come"}
    cited = [d for d in diagnostics if "no source of its own" in d.message]  # line 2, `extends: craps`
    assert [d.position.line for d in cited] == [2]
    assert all(not d.is_error and d.position.line == 4 for d in diagnostics if d not in cited)


def test_a_bet_own_game_cannot_start_with_a_choice(write_ruleset):
    path = write_ruleset("name: own\nextends: cotton\noptions:\n  main:\n    default: called\n"
                         "bets:\n  come:\n    game: own\n    pays: 1 to 1\n    rules:\n"
                         "      - when: result == \"win\"\n        do: win\n      - when: result == \"lose\"\n"
                         "        do: lose\n      - otherwise: throw again\n")
    diagnostics = check_file(path)
    assert any("game of its own" in d.message and d.is_error for d in diagnostics)


def test_game_takes_own_or_table(write_ruleset):
    path = write_ruleset("name: g\nextends: craps\nbets:\n  come:\n    game: mine\n")
    (d,) = [d for d in check_file(path) if d.is_error]
    assert "game: is `own`" in d.message and (d.position.line, d.position.column) == (5, 11)
