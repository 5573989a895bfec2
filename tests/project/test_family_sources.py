"""The family's rule files cite what was read, with the page the text prints
(issue 37 point 6): each test names the retrieved text and its page, and
checks the rule it quotes against a count over the faces written here
(itertools and Fractions, never the tool's own functions)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli import main

from tests.conftest import RULESETS


def analysed(capsys, name, *argv):
    assert main(["analyse", f"rulesets/{name}.yaml", "--json", "--no-options", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def totals(dice: int) -> dict[int, F]:
    """The chance of each total of `dice` six-sided dice, by listing every throw."""
    throws = list(itertools.product(range(1, 7), repeat=dice))
    chance: dict[int, F] = {}
    for throw in throws:
        chance[sum(throw)] = chance.get(sum(throw), 0) + F(1, len(throws))
    return chance


def cited(name: str, page: str):
    return [s for s in read_ruleset(RULESETS / f"{name}.yaml").sources if s.page == page]


# --- azar: Alfonso X, Il libro dei giochi, ed. Canettieri 1996, p. 83 --------

# Canettieri's translation (p. 83, as tysm.org quotes it): the first thrower
# wins with 15, 16, 17 or 18 "or the points on the opposite faces, 6, 5, 4, 3";
# any other total (from 6 up, from 15 down: 7 to 14) is the other's chance;
# an azar thrown after that is a reazar and he loses.
AZARES = {t for t in range(15, 19)} | {21 - t for t in range(15, 19)}


def test_azar_cites_canettieri_p83():
    [source] = cited("azar", "83")
    assert "Canettieri" in source.author and str(source.year) == "1996"
    assert source.url == "https://tysm.org/azar/"
    assert "reazar" in source.note


def test_azar_first_throw_as_canettieri_p83(capsys):
    # An azar at once: 40 of the 216 throws (1 + 3 + 6 + 10, twice).
    chance = totals(3)
    assert sum(chance[t] for t in AZARES) == F(40, 216)
    assert F(analysed(capsys, "azar")["labels"]["azar"]) == F(40, 216)


def test_azar_reazar_on_the_second_throw_as_canettieri_p83(capsys):
    # With the repeat of the other's chance losing, the second throw is one
    # throw: a reazar is a first total of 7 to 14 and then an azar,
    # (176/216) x (40/216) = 110/729.
    chance = totals(3)
    no_azar = sum(chance[t] for t in range(7, 15))
    reazar = no_azar * sum(chance[t] for t in AZARES)
    assert reazar == F(110, 729)
    labels = analysed(capsys, "azar", "--option", "repeat=loses")["labels"]
    assert F(labels["reazar"]) == reazar
