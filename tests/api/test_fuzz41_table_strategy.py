"""`Variant.table_strategy` called carelessly from a notebook (/work/notes/fuzz41/report.md):
a table of one, a name twice, names that are not text, a strategy that is not a name — each
refused in the API's words (keywords, never flags), never a traceback of Python's. Each test
failed before its fix (ZeroDivisionError, IndexError, TypeError, or the wrong mistake told)."""

from __future__ import annotations

import pytest

import hazard_dsl
from hazard_dsl.errors import ArgumentError


@pytest.fixture(scope="module")
def cotton():
    return hazard_dsl.load("cotton")


@pytest.mark.parametrize("players, words", [
    (["Ann"], "players: this table needs 2 players or more"),  # F4: was ZeroDivisionError
    (["Ann", "Ann"], "players: each player needs a name of his own"),  # F5: was IndexError
    ([1, 2], "players: 1 cannot be a player's name"),  # F5: was taken, seats named by ints
])
def test_players_the_table_cannot_seat(cotton, players, words):
    with pytest.raises(ArgumentError) as caught:
        cotton.table_strategy(players, 3, 6, "martingale")
    assert str(caught.value).startswith(words)
    assert "--" not in str(caught.value)


@pytest.mark.parametrize("strategy", [None, 5])
def test_a_strategy_that_is_not_a_name(cotton, strategy):
    # F6: None told "stake best, kelly, strategy and risk take the caster's game…", 5 a TypeError
    with pytest.raises(ArgumentError) as caught:
        cotton.table_strategy(["Ann", "Ben"], 3, 6, strategy)
    assert str(caught.value) == f"strategy is the name of a progression or 'best', such as 'martingale', not " \
                                f"{strategy!r}"


def test_the_solver_refuses_a_name_twice_itself():
    # the solve layer's own guard (a caller past the API): its seats are found by name
    from hazard_dsl.solve.seat_chain import SeatError
    from hazard_dsl.solve.table_strategy import stake_rule, table_strategy

    machine = hazard_dsl.load("cotton")._table_machine()
    with pytest.raises(SeatError, match=r"each player needs a name of his own \(Ann, Ann\)"):
        table_strategy(machine, ["Ann", "Ann"], "Ann", stake_rule("martingale", 1), 3, 6)
    with pytest.raises(SeatError, match="a table where the setters answer the caster needs two players or more"):
        table_strategy(machine, ["Ann"], "Ann", stake_rule("martingale", 1), 3, 6)
