"""Azar's disputed clause as Aisling-1198 reads it (issue 37 point 6): when
the first thrower's second throw repeats the other's chance, "il faut tout
recommencer" — the game starts again from the first throw (option
repeat=restart).  The figure is counted here over the 216 throws of three
dice listed below (itertools and Fractions), never by the tool."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.cli import main

from tests.conftest import RULESETS

CHANCE: dict[int, F] = {}
for _throw in itertools.product(range(1, 7), repeat=3):
    CHANCE[sum(_throw)] = CHANCE.get(sum(_throw), 0) + F(1, 216)
# The azares as Aisling-1198 lists them: "3,4,5,6 ou 15,16, 17,18".
AZARES = {3, 4, 5, 6, 15, 16, 17, 18}


def restart() -> F:
    """One game: an azar at once wins; else the other's chance c; the second
    throw loses on an azar, starts the game again on c (probability P(c)),
    else sets his chance d and the two race, azares and other totals ignored,
    d first with probability P(d) / (P(d) + P(c)).  With v the first
    thrower's chance of winning a game, v = settled + again * v."""
    settled = sum(CHANCE[t] for t in AZARES)
    again = F(0)
    for c, pc in CHANCE.items():
        if c in AZARES:
            continue
        again += pc * pc
        settled += pc * sum(pd * pd / (pd + pc) for d, pd in CHANCE.items()
                            if d not in AZARES and d != c)
    return settled / (1 - again)


def test_the_reading_is_cited():
    [source] = [s for s in read_ruleset(RULESETS / "azar.yaml").sources
                if "aisling-1198.org" in (s.url or "")]
    assert "il faut tout recommencer" in source.note


def test_restart_as_aisling_reads_it(capsys):
    assert restart() == F(5527, 10654)
    argv = ["analyse", "rulesets/azar.yaml", "--json", "--option", "repeat=restart"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert (F(got["win"]), F(got["lose"]), F(got["push"])) == (
        restart(), 1 - restart(), 0)
