"""How many throws a hand and a game take, and their exact tails (solve.tails; `analyse --tail`,
`--hand --tail`).

S. N. Ethier and F. M. Hoppe, "A world record in Atlantic City and the length of the shooter's
hand at craps", Mathematical Intelligencer 32(4), 2010: a craps hand lasts 154 rolls or more
with chance about 1 in 5,590,264,072. The expected figure is computed here from a chain built by
hand — the come-out and each point, the hand's mass pushed throw by throw (a matrix power on a
vector) — apart from the compiled machine and solve.tails.
"""

from __future__ import annotations

import json
import math
import time
from fractions import Fraction as F

import pytest

from hazard_dsl.cli import main
from hazard_dsl.commands.loading import build_machine, load
from hazard_dsl.solve.session import hand
from hazard_dsl.solve.tails import TailTooLarge, lengths, one_in
from tests.solve.test_risk_spread import WAYS

POINTS = (4, 5, 6, 8, 9, 10)


def craps_hand_at_least(n: int) -> F:
    """P(a craps hand lasts n throws or more): P(the dice have not passed after n − 1 throws).
    States: the come-out, and each point; a seven-out passes the dice."""
    mass = {"come-out": F(1)}
    for _ in range(n - 1):
        nxt: dict = {}
        for state, m in mass.items():
            if state == "come-out":  # 7, 11, 2, 3, 12 decide and the same caster comes out again
                nxt["come-out"] = nxt.get("come-out", F(0)) + m * F(12, 36)
                for p in POINTS:
                    nxt[p] = nxt.get(p, F(0)) + m * F(WAYS[p], 36)
            else:  # the point made: come out again; a 7: the hand is over; else throw again
                nxt["come-out"] = nxt.get("come-out", F(0)) + m * F(WAYS[state], 36)
                nxt[state] = nxt.get(state, F(0)) + m * F(36 - WAYS[state] - 6, 36)
        mass = nxt
    return sum(mass.values())


@pytest.fixture(scope="module")
def craps():
    return build_machine(load("craps"), [])


def test_ethier_hoppe_154_rolls(craps):
    exact = craps_hand_at_least(154)
    got = lengths(craps, 154).at_least(154)
    assert got == exact
    assert round(1 / got) == 5_590_264_072
    assert one_in(got) == "1 in 5,590,264,072"


def test_the_first_throws_of_a_hand_and_of_a_game(craps):
    h = lengths(craps, 12)
    for n in range(1, 12):
        assert h.at_least(n) == craps_hand_at_least(n)
    g = lengths(craps, 4, hand=False)
    assert g.at_least(1) == 1
    assert g.at_least(2) == F(24, 36)  # the come-out decides 12 throws of 36
    # a game of two throws: a point, then the point or a 7
    assert g.exactly[2] == sum(F(WAYS[p], 36) * F(WAYS[p] + 6, 36) for p in POINTS)


@pytest.mark.parametrize("name", ["petty", "chicken", "history_sheet"])
def test_the_tail_sums_to_the_mean_hand(name):
    # E[H] = Σ_{n≥1} P(H ≥ n): the tails, summed far enough, give solve.session.hand's mean, a
    # figure found by another chain (games as steps, Wald) — for passing rules of three kinds
    m = build_machine(load(name), [])
    n = 400
    tails = lengths(m, n, marks=range(1, n + 1))
    partial = sum(tails.at_least(k) for k in range(1, n + 1))
    mean = hand(m).throws
    # the rest of the sum is a geometric tail: positive, and below a hundred times its first term
    assert 0 < mean - partial < 100 * tails.at_least(n)


def test_past_the_exact_table_the_marks_and_floats(craps):
    t = lengths(craps, 300, marks=(250,))
    assert t.at_least(250) == craps_hand_at_least(250)
    assert abs(t.logs[300] - math.log10(t.at_least(300))) < 1e-12
    with pytest.raises(ValueError, match="not asked for"):
        t.at_least(260)


def test_too_long_a_tail_is_refused_before_working(craps):
    start = time.perf_counter()
    with pytest.raises(TailTooLarge, match=r"more than the 2,000,000,000.*simulate"):
        lengths(craps, 200_000)
    assert time.perf_counter() - start < 0.1


def test_a_game_whose_dice_never_pass_has_no_hand_tail(craps):
    from hazard_dsl.records import replace

    with pytest.raises(ValueError, match="never pass"):
        lengths(replace(craps, passing=None), 10)
    assert lengths(replace(craps, passing=None), 3, hand=False).at_least(2) == F(24, 36)


def test_analyse_hand_tail_json_and_text(capsys, craps):
    assert main(["analyse", "craps", "--no-options", "--hand", "--tail", "154", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert F(out["tail"]["at_least"]) == craps_hand_at_least(154)
    assert out["tail"]["one_in"] == "5590264072"
    assert main(["analyse", "craps", "--no-options", "--hand", "--tail", "154"]) == 0
    text = capsys.readouterr().out
    assert "1 in 5,590,264,072" in text
    assert all(len(line) <= 80 for line in text.splitlines())
