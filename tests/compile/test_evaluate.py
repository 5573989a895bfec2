"""The closures the compiler evaluates expressions with."""

from __future__ import annotations

import pytest

from hazard_dsl.compile.evaluate import EvaluationError, closure
from tests.parse.test_grammar import expr

VARIABLES = {"main", "chance"}


def value(text, dice=(3, 4), **variables):
    return closure(expr(text), VARIABLES)(dict({"main": 6, "chance": 0}, **variables), dice, {"vig": "on_win"})


@pytest.mark.parametrize("text, expected", [
    ("total", 7), ("die1 * 10 + die2", 34), ("high - low", 1), ("doublet", False),
    ("total in {2, 3, 11..12}", False), ("total in 4..10", True), ("total not in 4..10", False),
    ("main in {6, 8} and total == 12", False), ("not (total == 7) or main == 6", True),
    ("17 // 5", 3), ("17 % 5", 2), ("-7 // 2", -4), ("ways(main)", 5), ("ways(13)", 0),
    ("min(main, 4) + max(main, 4) + abs(-3)", 13),
    ("if main in {4, 10} then 3 else if main in {5, 9} then 4 else 5", 5),
    ("option.vig == 'on_win'", True),
])
def test_values(text, expected):
    assert value(text) == expected


def test_division_by_zero_is_a_diagnostic_not_a_crash():
    with pytest.raises(EvaluationError) as caught:
        value("total // (total - 7)")
    assert "division by zero" in str(caught.value) and caught.value.position.column > 1


def test_values_are_bounded():
    with pytest.raises(EvaluationError):
        value("999999999 * 999999999 * 999999999")


@pytest.mark.parametrize("text, expected", [
    ("10 - 3 - 2", 5), ("100 // 7 % 3 * 2", 4), ("2 * 3 * 4 - 1 - 1", 22), ("main - 1 + main - 1", 10),
    ("1 < 2 and 2 < 3 and 3 < 2 or 1 == 1", True), ("total == 7 and main == 6 and die1 == 3 and die2 == 4", True),
])
def test_chains_are_computed_left_to_right(text, expected):
    assert value(text) == expected == eval(text.replace("total", "7").replace("main", "6").replace("die1", "3")
                                           .replace("die2", "4"))


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_chain_of_five_thousand_terms_is_evaluated_without_recursion():
    import sys

    assert sys.getrecursionlimit() < 5000  # else the test would prove nothing
    assert value(" + ".join(["1"] * 5000) + " - " + " - ".join(["1"] * 4999)) == 1
    assert value(" and ".join(["total != 13"] * 5000)) is True
    assert value(" or ".join(["total == 13"] * 5000)) is False
    assert value(" * ".join(["1"] * 5000) + " * total") == 7


def test_a_chain_stops_at_the_first_value_out_of_bounds():
    with pytest.raises(EvaluationError) as caught:
        value(" * ".join(["1000"] * 6))
    # 1000**4 is the bound itself; the fourth `*` passes it ("x: " comes before the text)
    assert caught.value.position.column == len("x: 1000 * 1000 * 1000 * 1000 ") + 1


@pytest.mark.parametrize("text", [
    "total == main", "main == total", "main == chance", "main == 6", "total == 7", "main != 6", "total != main",
    "total < main", "main >= total", "main <= chance", "chance > 0", "total in {7, 8}", "main in 5..9",
    "total not in {7}", "main and 0", "0 or main", "total or 0", "main and total == 7", "total == 7 or main",
    "not (main == 6) or chance", "main == 6 and total == 7 and chance == 0",
])
def test_leaves_compared_in_one_closure_read_as_the_general_form(text):
    """The tests of names and numbers read by one closure (`_compared_leaves`, `in` a constant
    set, `and`/`or` of tests): the value Python gives the same text, for several throws and
    values (`and`/`or` give True or False, as the rule language's do)."""
    for dice, main, chance in (((3, 4), 6, 0), ((1, 1), 7, 2), ((6, 2), 8, 8), ((2, 4), 6, 6)):
        python = eval(text.replace("total", str(sum(dice))).replace(" in 5..9", " in range(5, 10)")
                      .replace("main", str(main)).replace("chance", str(chance)))
        if " and " in text or " or " in text:
            python = bool(python)
        assert value(text, dice, main=main, chance=chance) == python, (text, dice, main, chance)
