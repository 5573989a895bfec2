"""Every published figure of the reference (../shared/reference/hazard-rules.md, section 9),
reproduced exactly from the compiled machines by the one general solver.

Sources are cited as in the reference: S1 = Wikipedia "Hazard (game)" (seed 000), S2 =
games.porg.es "Hazard" (seed 001), S3 = Barker, St Briavels (seed 002), S9 = Chambers's
Encyclopaedia, S15 = mrieppel/hazard.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from hazard_dsl.render.tables import percent
from hazard_dsl.solve.analysis import analyse
from tests.conftest import machine


@pytest.fixture(scope="module")
def cotton_by_main():
    return analyse(machine("cotton"), by="main")


def by_main(analysis, main):
    probability, figures, joint = analysis.by[main]
    return probability, figures, joint


# N1-N3 (S1, S15): the caster's chance and disadvantage for each main.
@pytest.mark.parametrize("main, win, shown_win, shown_edge", [
    (5, F(1396, 2835), "0.492", "1.52%"),
    (6, F(6961, 14256), "0.488", "2.34%"),
    (7, F(244, 495), "0.493", "1.41%"),
    (8, F(6961, 14256), "0.488", "2.34%"),
    (9, F(1396, 2835), "0.492", "1.52%"),
])
def test_n1_n3_per_main_chances(cotton_by_main, main, win, shown_win, shown_edge):
    _, figures, _ = by_main(cotton_by_main, main)
    assert figures.win == win
    assert f"{float(win):.3f}" == shown_win
    assert percent(figures.edge) == shown_edge


def test_n3_called_main_seven_fixed(cotton_by_main):
    a = analyse(machine("chicken"), policy="7")
    assert a.win == F(244, 495)


def test_n4_chambers_setter_against_caster_for_mains_6_and_8(cotton_by_main):
    # S9: "7,295 to 6,961, or 22 to 21 nearly"
    for main in (6, 8):
        _, figures, _ = by_main(cotton_by_main, main)
        assert figures.lose / figures.win == F(7295, 6961)
        assert abs(figures.lose / figures.win - F(22, 21)) < F(1, 1000)


def test_n5_random_main_by_rethrowing(cotton_by_main):
    # S2: 49.08%; S1 (Scarne): disadvantage 1.84%.
    assert cotton_by_main.win == F(1979, 4032)
    assert percent(cotton_by_main.win) == "49.08%"
    assert cotton_by_main.edge == F(37, 2016)
    assert percent(cotton_by_main.edge) == "1.84%"


# N6 (S2): the table, per main: nick / out / chance win / chance loss as joint probabilities
# P(main) × P(outcome | main), and "Success" as P(win | main).
S2_TABLE = {
    5: (F(1, 54), F(1, 36), F(1081, 17010), F(1933, 34020), "1.85%", "2.78%", "6.36%", "5.68%", "49.24%"),
    6: (F(5, 144), F(25, 864), F(22925, 342144), F(26575, 342144), "3.47%", "2.89%", "6.70%", "7.77%", "48.83%"),
    7: (F(1, 18), F(1, 36), F(67, 990), F(49, 495), "5.56%", "2.78%", "6.77%", "9.90%", "49.29%"),
    8: (F(5, 144), F(25, 864), F(22925, 342144), F(26575, 342144), "3.47%", "2.89%", "6.70%", "7.77%", "48.83%"),
    9: (F(1, 54), F(1, 36), F(1081, 17010), F(1933, 34020), "1.85%", "2.78%", "6.36%", "5.68%", "49.24%"),
}


@pytest.mark.parametrize("main", sorted(S2_TABLE))
def test_n6_s2_table_row(cotton_by_main, main):
    nick, out, cw, cl, *shown = S2_TABLE[main]
    probability, figures, joint = by_main(cotton_by_main, main)
    assert probability == F({5: 4, 6: 5, 7: 6, 8: 5, 9: 4}[main], 24)
    assert (joint["nick"], joint["out"], joint["chance_win"], joint["chance_loss"]) == (nick, out, cw, cl)
    printed = [percent(joint[k]) for k in ("nick", "out", "chance_win", "chance_loss")] + [percent(figures.win)]
    assert printed == shown


def test_n7_s2_overall_row(cotton_by_main):
    labels = cotton_by_main.figures.labels
    assert (labels["nick"], labels["out"], labels["chance_win"], labels["chance_loss"]) == (
        F(35, 216), F(61, 432), F(3977, 12096), F(4451, 12096))
    assert [percent(labels[k]) for k in ("nick", "out", "chance_win", "chance_loss")] == [
        "16.20%", "14.12%", "32.88%", "36.80%"]


def test_n8_about_49_percent_each_main(cotton_by_main):
    # S3: "the caster has about a 49% chance of winning" whatever the main.
    for main in range(5, 10):
        assert F(48, 100) < by_main(cotton_by_main, main)[1].win < F(50, 100)


def test_n9_petty_hazard_nearly_51_percent():
    # S3: "nearly a 51% probability of winning"; reference §6 verified 5629/11088.
    a = analyse(machine("petty"), by="main")
    assert a.win == F(5629, 11088)
    assert F(50, 100) < a.win < F(51, 100)
    assert a.by[5][1].win == F(5584, 10395) and a.by[6][1].win == F(6565, 13068) and a.by[7][1].win == F(866, 1815)


def test_n11_pass_line_and_its_expected_rolls():
    # S1, S15: the pass line 244/495; the common figure 3.376 rolls per decision = 557/165.
    a = analyse(machine("craps"))
    assert a.win == F(244, 495)
    assert a.edge == F(7, 495) and percent(a.edge) == "1.41%"
    assert a.figures.expected_throws == F(557, 165)
    assert f"{float(a.figures.expected_throws):.3f}" == "3.376"


def test_n15_expected_throws_per_main_after_the_main_is_set(cotton_by_main):
    # Reference N15: after the main is set, 2563/630 (5, 9), 1459/396 (6, 8), 557/165 (7); the
    # main takes 3/2 throws on average to set by rethrowing (P(5..9) = 2/3), whatever it is.
    after = {5: F(2563, 630), 6: F(1459, 396), 7: F(557, 165), 8: F(1459, 396), 9: F(2563, 630)}
    for main, expected in after.items():
        assert by_main(cotton_by_main, main)[1].expected_throws == expected + F(3, 2)
        assert analyse(machine("chicken"), policy=str(main)).figures.expected_throws == expected
    assert cotton_by_main.figures.expected_throws == F(870713, 166320)  # 5.2352 including the main


def test_f1_best_called_main_is_seven():
    # S1, S2 (Steinmetz p. 317), reference F1: with a called main, 7 is best (1.414%); 6 and 8 worst.
    a = analyse(machine("chicken"))
    choices = a.choices["main"]
    assert choices["best"] == 7
    assert choices["values"][7] == (F(244, 495), F(7, 495))
    assert choices["values"][6][1] == choices["values"][8][1] == max(e for _, e in choices["values"].values())
    assert a.win == F(244, 495)  # the optimal caster calls 7


def test_f3_first_throw_outside_5_to_9_loses():
    # Reference F3: encoded as a loss, P(win) = 2/3 × 1979/4032 = 1979/6048.
    a = analyse(machine("cotton", first_throw="lose"))
    assert a.win == F(1979, 6048)
    assert a.figures.labels["bad_main"] == F(1, 3)
    # Encoded as losing the turn (no stake laid), the game is a push a third of the time.
    b = analyse(machine("cotton", first_throw="lose_turn"))
    assert (b.win, b.figures.push) == (F(1979, 6048), F(1, 3))


@pytest.mark.parametrize("option, win", [("out", F(5629, 12096)), ("void", F(5629, 11088)), ("sca", F(641, 1344))])
def test_french_candidates_d1_d3(option, win):
    # Reference §5: D1 direct nicks only with 11/12 out; D2 11/12 void (= Petty); D3 SCA table.
    assert analyse(machine("french", not_a_nick=option)).win == win


def test_d1_per_main():
    a = analyse(machine("french"), by="main")
    assert a.by[5][1].win == F(1396, 2835) and a.by[6][1].win == F(6565, 14256) and a.by[7][1].win == F(433, 990)


def test_throw_distribution_sums_to_one_and_has_median():
    a = analyse(machine("craps"))
    assert sum(a.throws, F(0)) + a.throws_tail == 1
    assert a.throws[0] == 0 and a.throws[1] == F(12, 36)  # naturals and craps decide at once
    assert a.median_throws == 2


def test_a_long_games_table_of_throws_stops_at_the_size_of_its_numbers(tmp_path):
    # 300 stages, each thrown until a 7 or an 11: at least 300 throws a game, so the exact masses
    # of P(T = n) are over 36**n with hundreds of digits on hundreds of states. The table stops
    # at a bound on that size (not after minutes); what is left is the tail, every figure still
    # exact, and the median is "more than" the table
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.solve import analysis

    lines = ["name: Stages", "variables:", "  n: 0..300", "  last: 0..1", "phases:", "  stage:",
             "    - when: n == 300 and last == 1", "      do: win", "    - when: n == 300", "      do: lose",
             "    - when: total == 7", "      do: set n = n + 1; set last = 1; throw again",
             "    - when: total == 11", "      do: set n = n + 1; set last = 0; throw again",
             "    - otherwise: throw again"]
    (tmp_path / "stages.yaml").write_text("\n".join(lines) + "\n")
    a = analyse(compile_ruleset(read_ruleset(tmp_path / "stages.yaml")))
    assert a.win == F(3, 4) and a.figures.expected_throws == 300 * F(36, 8) + 1  # and the throw that ends it
    assert len(a.throws) - 1 < analysis.MAX_DISTRIBUTION_THROWS and a.throws_tail > 0
    assert sum(a.throws, F(0)) + a.throws_tail == 1
    assert a.median_throws is None


def test_uniform_policy_averages_the_calls():
    a = analyse(machine("chicken"), policy="uniform")
    per_call = analyse(machine("chicken")).choices["main"]["values"]
    assert a.win == sum((w for w, _ in per_call.values()), F(0)) / 5


def test_f3_history_sheet_bad_first_throw_loses_the_turn():
    """F3 (seed text 004): a first throw outside 5-9 loses the turn; counted over all first
    throws, the caster wins 2/3 × 1979/4032 = 1979/6048, and a third of games end with no main."""
    a = analyse(machine("history_sheet"))
    assert a.win == F(1979, 6048) and a.figures.labels["no_main"] == F(1, 3)
    assert a.bets["stake"].edge == F(37, 2016)  # bets are taken once a main is made: Cotton's 1.835%


def test_f4_the_sheet_misprint_taken_literally():
    """F4: with 7 an out to a main of 6 (the sheet's misprint), P(win | main 6) = 515/1296 —
    computed here by hand from the table, to show what the note in history_sheet.yaml avoids."""
    p = {t: F(6 - abs(t - 7), 36) for t in range(2, 13)}
    nick, out = {6, 12}, {2, 3, 7, 11}
    win = sum(p[t] for t in nick) + sum(p[c] * p[c] / (p[c] + p[6]) for c in range(2, 13)
                                        if c not in nick | out and c != 6)
    assert win == F(515, 1296)
    assert analyse(machine("history_sheet"), by="main").by[6][1].win != win  # the file keeps the standard table
