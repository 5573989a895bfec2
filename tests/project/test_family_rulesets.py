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


@pytest.mark.parametrize("name", ["passage"])
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
