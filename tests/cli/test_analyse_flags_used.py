"""analyse never ignores a flag, and judges its settings before any work (issue 38, the audit of
today, audit9 points 5, 9): a bets-only game's session refused from one check on every front
end; --simulate, --cap and --seed refused where nothing would read them; a bad --seed one line
naming --seed; the API's session_net naming its keyword."""

from __future__ import annotations

import time
from fractions import Fraction as F
from math import comb

import pytest

import hazard_dsl
from hazard_dsl.cli import main
from hazard_dsl.errors import ArgumentError


def refused(capsys, *argv) -> str:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals exit
        code = exc.code
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err  # one line, no usage block
    return err


@pytest.mark.parametrize("flags, given", [(["--games", "3"], "--games"),
                                          (["--stop-loss", "3", "--stop-win", "3"], "--stop-loss")])
def test_a_bets_only_games_banker_has_no_session(flags, given, capsys):
    # Crown and Anchor's banker stakes nothing: every game a push for him (its rule file
    # settles only bets), so "3 decisions staking 1 at even money" was a figure of nothing
    err = refused(capsys, "analyse", "crown_and_anchor", *flags)
    assert err == (f"hazard-dsl: error: {given} needs bets here (--bet NAME=AMOUNT): the banker stakes "
                   "nothing in this game, so only bets make a session's net\n")


def test_the_api_gives_the_same_refusal():
    game = hazard_dsl.load("crown_and_anchor")
    with pytest.raises(ArgumentError) as exc:
        game.session_net(3)
    assert str(exc.value) == ("games needs bets here (bets['NAME'] = 'AMOUNT'): the banker stakes nothing in "
                              "this game, so only bets make a session's net")
    with pytest.raises(ArgumentError) as exc:
        game.session_net(stop_win=2, stop_loss=2)
    assert str(exc.value).startswith("stop_loss needs bets here")


def test_with_bets_the_session_stands():
    # one unit on the anchor: three dice, each an anchor with chance 1/6, counted by a binomial
    # here; the bet pays k to 1 for k anchors and loses the unit for none
    p = F(1, 6)
    expected = {F(-1) if k == 0 else F(k): comb(3, k) * p ** k * (1 - p) ** (3 - k) for k in range(4)}
    assert expected[F(-1)] == F(125, 216)
    net = hazard_dsl.load("crown_and_anchor").session_net(1, bets={"anchor": 1})
    assert dict(net.outcomes) == expected


@pytest.mark.parametrize("flags, said", [
    (["--simulate", "1000"], "--simulate goes with --games or the stops"),
    (["--simulate", "1000", "--spread"], "--simulate goes with --games or the stops"),
    (["--simulate", "1000", "--stake", "kelly"], "--simulate goes with --games or the stops"),
    (["--simulate", "100", "--stake", "best", "--goal", "20"], "--simulate goes with --games or the stops"),
    (["--cap", "4"], "--cap goes with --strategy (the progression's largest stake)"),
    (["--seed", "3"], "--seed goes with --simulate (the seed of its draws)"),
    (["--games", "2", "--simulate", "100", "--seed", "-1"], "--seed '-1' is not a whole number from 0 to 2^64"),
    (["--games", "2", "--simulate", "100", "--seed", "abc"], "--seed 'abc' is not a whole number from 0 to 2^64"),
])
def test_a_flag_nothing_reads_is_refused_before_any_work(flags, said, capsys):
    start = time.perf_counter()
    err = refused(capsys, "analyse", "cotton", *flags)
    assert err.startswith(f"hazard-dsl: error: {said}"), err
    assert time.perf_counter() - start < 1.0  # judged before the exact work (was 1.3 s for --seed -1)


@pytest.mark.parametrize("kwargs, given", [({"stop_loss": 3}, "stop_loss"), ({"stop_win": 3}, "stop_win"),
                                           ({}, None)])
def test_session_net_without_games_names_its_keyword(kwargs, given):
    with pytest.raises(ArgumentError) as exc:
        hazard_dsl.load("cotton").session_net(**kwargs)
    assert str(exc.value).startswith("games or both stops are needed")
    if given:
        assert f"{given} alone never ends" in str(exc.value)


def test_a_simulation_too_large_is_refused_before_the_exact_work(capsys):
    # 1,000 games without stops are exactly 1,000 decisions a session: 10^9 draws, refused at
    # once (was after 4.3 s of the exact session's work)
    start = time.perf_counter()
    err = refused(capsys, "analyse", "cotton", "--games", "1000", "--simulate", "1000000")
    assert err == ("hazard-dsl: error: --simulate 1,000,000 sessions are about 1,000,000,000 decisions to draw, "
                   "more than the 20,000,000 simulated beside the exact figures; ask for fewer, or use "
                   "`hazard-dsl simulate`\n")
    assert time.perf_counter() - start < 1.0
    with pytest.raises(ArgumentError) as exc:
        hazard_dsl.load("cotton").session_net(1000, simulate=1_000_000)
    assert str(exc.value).startswith("simulate 1,000,000 sessions are about 1,000,000,000 decisions")


def test_a_tail_of_no_small_chance_has_no_one_in_column(capsys):
    # craps, P(game ≥ 3 throws): a game ends on the come-out with 12/36 = 1/3 (7, 11, 2, 3, 12),
    # so P(≥ 2) = 2/3; the second throw ends it for a point p with (ways(p) + 6)/36, so
    # P(≥ 3) = Σ over points (ways/36)(1 − (ways + 6)/36) = 155/324 (counted below)
    ways = {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}
    at_least_3 = sum(F(w, 36) * (1 - F(w + 6, 36)) for w in ways.values())
    assert at_least_3 == F(155, 324)
    assert main(["analyse", "craps", "--no-options", "--tail", "3"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("How long a game lasts"):]
    assert table.splitlines()[2].split() == ["n", "P(≥", "n)", "decimal"] and "one in" not in table
    assert f" 3  {at_least_3}   0.4784" in table
    assert "with the chance that it lasts exactly m throws for every m from 1 to 2." in " ".join(table.split())


def test_a_bets_only_game_says_its_tail_in_words(capsys):
    # Crown and Anchor: one throw of three dice settles every game, so P(≥ 2) = 0
    assert main(["analyse", "crown_and_anchor", "--tail", "3"]) == 0
    out = capsys.readouterr().out
    said = " ".join(out[out.index("How long a game lasts"):].split())
    assert "with the chance that it lasts exactly 1 throw." in said and "below" not in said


def test_the_hands_csv_puts_each_label_under_figure(capsys):
    # the caster's hand at Cotton's Hazard passes after a loss: 1/q games, q = 2053/4032
    assert main(["analyse", "cotton", "--hand", "--format", "csv"]) == 0
    rows = [r for r in capsys.readouterr().out.splitlines() if r.startswith("The caster's hand")]
    assert rows[0].split(",")[1:3] == ["expected games", str(1 / F(2053, 4032))]
