"""The family of Hazard as built-in rule files (issue 37 point 6): for each of
passage, inn_and_inn, raffle and azar, under each option, `check` passes and
`analyse rulesets/NAME.yaml --json` gives exactly the figure that
tests/data/family_counts.py counts independently (itertools over the faces
and Fractions, never the tool).  Each test cites the source and page of the
rule and of the figure; the rule files cite them too."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from hazard_dsl.cli import main
from tests.data import family_counts as counts


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def analysed(capsys, name, *argv):
    code, out, err = run(capsys, "analyse", f"rulesets/{name}.yaml", "--json",
                         "--no-options", *argv)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("name", ["passage", "inn_and_inn", "raffle", "azar"])
def test_check_passes(name, capsys):
    code, out, err = run(capsys, "check", f"rulesets/{name}.yaml")
    assert code == 0, err
    assert out.strip() == f"rulesets/{name}.yaml: ok"


# --- Passage: Cotton 1674, ch. XXXIII, p. 167 --------------------------------


@pytest.mark.parametrize(
    ("ten", "reading", "figure"),
    [("again", "again", F(16, 29)), ("out", "out", F(1, 2)),
     ("pass", "win", F(19, 32))],
)
def test_passage_caster_wins_cotton_p167(ten, reading, figure, capsys):
    # Cotton p. 167: three dice, thrown until doublets; under ten out, above
    # ten he passes.  Doublets of ten are unsaid: the option `ten`.
    result = analysed(capsys, "passage", "--option", f"ten={ten}")
    assert F(result["win"]) == counts.passage(reading) == figure
    assert F(result["lose"]) == 1 - figure
    assert F(result["push"]) == 0


def test_passage_defaults_to_doublets_of_ten_thrown_again(capsys):
    # Cotton p. 167 names only under and above ten; thrown again is the
    # reading that adds nothing to his words.
    assert F(analysed(capsys, "passage")["win"]) == counts.passage("again")


# --- Inn and Inn: Cotton 1674, ch. XXXII, pp. 164-166 ------------------------


@pytest.mark.parametrize(
    ("inn", "win", "lose"),
    [("stands", F(2, 27), F(5, 18)), ("again", F(4, 19), F(15, 19)),
     ("wins", F(13, 18), F(5, 18))],
)
def test_inn_and_inn_cotton_pp164_166(inn, win, lose, capsys):
    # Cotton pp. 164-165: out is no doublets on the four dice, inn-and-inn all
    # doublets (two pairs or four of a kind); "every Inn you drop" is the
    # option `inn`.  The independent count: family_counts.inn_and_inn.
    result = analysed(capsys, "inn_and_inn", "--option", f"inn={inn}")
    assert (F(result["win"]), F(result["lose"])) == counts.inn_and_inn(inn)
    assert (F(result["win"]), F(result["lose"])) == (win, lose)


def test_inn_and_inn_one_throw_labels_cotton_p164(capsys):
    # Cotton p. 164's three throws, each counted over the 1,296 throws:
    # out 5/18 (Arbuthnot p. 77: 6 x 5 x 4 x 3 of 6^4), inn-and-inn 2/27,
    # and an inn the rest.
    labels = analysed(capsys, "inn_and_inn")["labels"]
    assert F(labels["out"]) == counts.inn_and_inn_out() == F(5, 18)
    assert F(labels["inn_and_inn"]) == counts.inn_and_inn_all_doublets()
    assert F(labels["inn"]) == 1 - F(5, 18) - F(2, 27)


def test_inn_and_inn_arbuthnot_p77_in_the_ledger(capsys):
    # Arbuthnot p. 77 prints 5/18 for no doublets with four dice: it agrees
    # where the game is one throw, and is said to differ where it throws on.
    row, = analysed(capsys, "inn_and_inn")["printed"]
    assert (row["figure"], row["of"], row["agrees"]) == ("5/18", "out", True)
    row, = analysed(capsys, "inn_and_inn", "--option", "inn=again")["printed"]
    assert (row["exact"], row["agrees"]) == ("15/19", False)


# --- Raffling: Arbuthnot 1692, pp. 63-64 -------------------------------------


def test_raffle_doublets_and_raffles_arbuthnot_p63(capsys):
    # Arbuthnot p. 63: "of the 216 different Throws of three Dice, there are
    # only 96 that give Doublets" (4 to 5), and a raffle is "1 to 35".
    result = analysed(capsys, "raffle")
    assert F(result["win"]) == counts.raffle_doublets() == F(96, 216)
    assert F(result["labels"]["raffle"]) == counts.raffle_raffle() == F(6, 216)
    assert F(result["lose"]) == 1 - counts.raffle_doublets()


def test_raffle_table_by_total_arbuthnot_p63(capsys):
    # Arbuthnot p. 63's table: the throws with doublets, by total.  The tool's
    # chance of doublets and of each total, times 216, against the count over
    # the faces (family_counts.raffling_doublets_by_total), and that count
    # against the table as printed (ARBUTHNOT_RAFFLING_TABLE).
    by = analysed(capsys, "raffle", "--by", "thrown")["by"]["values"]
    counted = counts.raffling_doublets_by_total()
    tool = {int(t): F(v["probability"]) * F(v["win"]) * 216
            for t, v in by.items()}
    assert tool == {t: n for t, n in counted.items()}
    for (low, high), printed in counts.ARBUTHNOT_RAFFLING_TABLE.items():
        assert tool[low] == tool[high] == printed


def test_raffle_ledger_agrees_arbuthnot_p63(capsys):
    # Every figure Arbuthnot prints on p. 63, as the ledger holds it, agrees
    # with the exact analysis: 4 to 5, 1 to 35 and the table's eight rows.
    rows = analysed(capsys, "raffle")["printed"]
    assert len(rows) == 10
    assert [row["verdict"].split(":")[0] for row in rows] == ["agrees"] * 10


# --- azar: Alfonso X, Libro de los dados, 1283 (no folio in the sources) ------


@pytest.mark.parametrize(
    ("repeat", "figure"),
    [("again", F(68485656611, 134991969840)), ("loses", F(5527, 11664)),
     ("wins", F(2179, 3888))],
)
def test_azar_first_thrower_alfonso_1283(repeat, figure, capsys):
    # Alfonso X, Libro de los dados (1283), as issue 37 reads it: no edition
    # in the project's sources gives the folio (rulesets/azar.yaml says so).
    # The disputed second throw repeating the other's chance is the option
    # `repeat`; family_counts.azar solves each reading by first-step.
    result = analysed(capsys, "azar", "--option", f"repeat={repeat}")
    assert F(result["win"]) == counts.azar(repeat) == figure
    assert F(result["lose"]) == 1 - figure


def test_azar_wins_at_once_with_an_azar(capsys):
    # The azares, totals 3-6 and 15-18: 2 x (1 + 3 + 6 + 10) = 40 of the 216
    # throws of three dice, counted over the faces by family_counts.totals.
    azar_now = sum(p for t, p in counts.totals(3).items() if t in counts.AZARES)
    assert azar_now == F(40, 216)
    assert F(analysed(capsys, "azar")["labels"]["azar"]) == azar_now
