"""Games a careless or hostile rule file can describe: each is refused with a clear message or
finishes in seconds, within bounded memory — never a hang, never exit 70."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import MAX_ALTERNATIVES, compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.solve.analysis import analyse

SECONDS = 20  # generous on a loaded machine: each of these took minutes, or for ever, before


def _timed(fn, *args):
    start = time.monotonic()
    result = fn(*args)
    assert time.monotonic() - start < SECONDS
    return result


COUNTDOWN = """name: countdown
variables:
  n: {range: 0..N, initial: N}
phases:
  count:
    throw: false
    rules:
      - when: n > 0
        do: set n = n - 1; goto count
      - otherwise: goto roll
  roll:
    - when: total == 7
      do: win
    - otherwise: lose
"""


def test_a_countdown_without_throws_is_a_valid_game(write_ruleset):
    path = write_ruleset(COUNTDOWN.replace("N", "500"))
    assert check_file(path) == []
    assert analyse(compile_ruleset(read_ruleset(path))).win == Fraction(1, 6)


def test_a_countdown_too_long_is_refused_not_a_recursion_error(write_ruleset):
    diagnostics = _timed(check_file, write_ruleset(COUNTDOWN.replace("N", "20000")))
    assert [d.message for d in diagnostics if "more than" in d.message and "without a throw" in d.message]


def test_phases_that_come_back_with_the_same_values_never_stop(write_ruleset):
    path = write_ruleset("name: loop\nvariables: {n: 0..3}\nphases:\n  a:\n    throw: false\n    rules:\n"
                         "      - otherwise: set n = (n + 1) % 4; goto b\n  b:\n    throw: false\n    rules:\n"
                         "      - otherwise: goto a\n")
    (d,) = [d for d in check_file(path) if d.severity != "note"]
    assert "come back to 'a' with the same values (n = 0), so they never stop: a → b → a" in d.message


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_large_cycle_is_refused_quickly(write_ruleset, capsys):
    path = write_ruleset("name: a long cycle\nvariables:\n  k: 0..399\nphases:\n  roll:\n"
                         "    - when: total == 12\n      do: win\n    - when: total == 2\n      do: lose\n"
                         "    - otherwise: set k = (k + total) % 400; throw again\n")
    assert _timed(main, ["analyse", str(path)]) == 1
    err = capsys.readouterr().err
    assert "cycle of 400 states" in err and "internal error" not in err


def test_a_moderate_cycle_is_solved_exactly(write_ruleset):
    path = write_ruleset("name: a cycle\nvariables:\n  k: 0..39\nphases:\n  roll:\n"
                         "    - when: total == 12\n      do: win\n    - when: total == 2\n      do: lose\n"
                         "    - otherwise: set k = (k + total) % 40; throw again\n")
    assert _timed(lambda: analyse(compile_ruleset(read_ruleset(path))).win) == Fraction(1, 2)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_ten_million_choice_alternatives_are_refused(write_ruleset):
    path = write_ruleset("name: many choices\nvariables:\n  a: 0..10000\n  b: 0..1000\nphases:\n  roll:\n"
                         "    - when: total == 7\n      do: win\n    - when: total == 2\n      do: lose\n"
                         "    - otherwise: set a = (a + total) % 10000; choose b from 1..1000 by caster; "
                         "set b = 0; goto roll\n")
    diagnostics = _timed(check_file, path)
    assert any(f"more than {MAX_ALTERNATIVES} alternatives" in d.message for d in diagnostics)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_counter_trapped_in_a_loop_is_found_in_linear_time(write_ruleset):
    path = write_ruleset("name: trapped\nvariables:\n  k: 0..15000\nphases:\n  roll:\n"
                         "    - when: k < 15000\n      do: set k = k + 1; throw again\n"
                         "    - otherwise: throw again\n")
    diagnostics = _timed(check_file, path)
    assert any("no game can ever end" in d.message for d in diagnostics)


def test_many_options_nothing_reads_cost_nothing(write_ruleset, capsys):
    options = "".join(f"  o{i}:\n    values: [{', '.join(map(str, range(100)))}]\n" for i in range(20))
    path = write_ruleset(f"name: many options\nextends: craps\nsources: [{{title: a test, author: the tests}}]\n"
                         f"options:\n{options}")
    assert _timed(check_file, path) == []
    assert _timed(main, ["analyse", str(path), "--json"]) == 0
    by_option = json.loads(capsys.readouterr().out)["by_option"]
    assert len({json.dumps(edges, sort_keys=True) for edges in by_option["o0"].values()}) == 1


def test_many_options_a_bet_reads_are_bounded(write_ruleset, capsys):
    values = ", ".join(map(str, range(1, 101)))
    path = write_ruleset("name: many options\nextends: craps\noptions:\n"
                         + "".join(f"  o{i}:\n    values: [{values}]\n" for i in range(5))
                         + "bets:\n  field:\n    rules:\n      - when: total == 2\n"
                         + "        do: win pays o0 to 1\n".replace("o0", "option.o0 + option.o1 + option.o2 + option.o3 + option.o4")
                         + "      - otherwise: lose\n")
    assert _timed(check_file, path) == [] or all(not d.is_error for d in check_file(path))
    assert _timed(main, ["analyse", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["by_option_skipped"]


def test_a_player_chooser_is_marked_best_as_the_solver_plays(write_ruleset):
    path = write_ruleset("name: pick\nvariables:\n  m: 0..9\nphases:\n  begin:\n    throw: false\n    rules:\n"
                         "      - otherwise: choose m from {4, 7} by player; goto roll\n  roll:\n"
                         "    - when: total == m\n      do: win\n    - otherwise: lose\n")
    a = analyse(compile_ruleset(read_ruleset(path)))
    assert a.choices["m"]["best"] == 7 and a.win == Fraction(1, 6)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_percentile_beyond_the_table_is_not_the_table_end(write_ruleset, capsys):
    # two twelves running: the game takes about 1,332 throws on average, 6,000 at the 99th percentile
    path = write_ruleset("name: slow\nphases:\n  a:\n    - when: total == 12\n      do: goto b\n"
                         "    - otherwise: throw again\n  b:\n    - when: total == 12\n      do: win\n"
                         "    - otherwise: goto a\n")
    a = analyse(compile_ruleset(read_ruleset(path)))
    assert a.figures.expected_throws == 1332  # (1 + p) / p² with p = 1/36
    assert a.high_percentile_throws is None and 800 < a.median_throws < 1000
    assert main(["analyse", str(path)]) == 0
    assert f"more than {len(a.throws) - 1}" in capsys.readouterr().out
