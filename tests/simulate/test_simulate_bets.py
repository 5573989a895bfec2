"""The first group of bets played with the game on one table (`simulate.bets.together`): a row is
a pair (the game's row, the group's row), moved by one draw. The pairs follow the game's own
table throw for throw, the game's figures beside bets stay exact samplers — the games played
beyond the N only to close a cycle neither counted as games nor as their throws — and the
bets' figures agree with the exact ones (tests/simulate/test_simulation_agrees.py, every bet)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from hazard_dsl.cli.requests import bet_orders
from hazard_dsl.simulate.engine import replay
from hazard_dsl.simulate.simulation import execute, prepare_games
from hazard_dsl.simulate.tables import game_table
from hazard_dsl.solve.markov import Solver
from tests.conftest import machine

ENGINES = ["numpy"] + (["compiled"] if importlib.util.find_spec("numba") else [])
# bets whose cycles close with the game (pass and odds), and ones that stay up across a game's
# end (a come bet travels to its own point; a hard way waits for its double or a 7)
GROUPS = [["pass=1", "odds=3-4-5x"], ["come=1"], ["hard_8=1"], ["place_6=6"], ["dont_pass=2", "lay_odds=2x"]]


def _bet_machine(bets):
    names = [b.partition("=")[0] for b in bets]
    return machine("craps") if not names else _with_bets(names)


def _with_bets(names):
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.compile.compiler import compile_ruleset
    from tests.conftest import RULESETS

    return compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), {}, names)


@pytest.mark.parametrize("bets", GROUPS, ids=lambda b: "+".join(x.partition("=")[0] for x in b))
def test_the_pairs_end_the_same_games_as_the_games_own_table(bets):
    """A dice tape through the table of pairs and through the game's own table: the same games,
    each with the same ending and length."""
    m = _bet_machine(bets)
    context = prepare_games(m, 10, 1, bets=bet_orders(bets))
    assert context.group_at[0] == 0  # the first group rides with the game
    solver = Solver(m)
    solver.set_policy("optimal")
    alone = game_table(m, solver, 3.4)
    columns = np.random.default_rng(5).integers(0, 36, size=5000).tolist()
    ended = replay(context.tables[0], columns)
    assert len(ended) > 1000
    assert ended == replay(alone, columns)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("bets", GROUPS[:3], ids=lambda b: "+".join(x.partition("=")[0] for x in b))
@pytest.mark.statistical  # a simulation against exact figures
def test_the_games_figures_beside_bets_agree_with_the_exact_ones(bets, engine):
    """Exactly N games, and the game's results, labels, throws per game and their distribution
    within four standard errors of the exact figures, though lanes play on beyond the N games to
    close their cycles (small chunks: many lanes finish); the bets' too."""
    context = prepare_games(_bet_machine(bets), 300_000, 21, bets=bet_orders(bets), per_chunk=30_000, engine=engine)
    report = execute(context, 1)[0]
    assert report["games"] == 300_000 and report["chunks"] == 10
    figures = [report["win"], report["lose"], report["throws"]["mean"]]
    figures += list(report["labels"].values()) + report["throws"]["distribution"][:10]
    figures += [b["net_per_unit"] for b in report["bets"].values()]
    for figure in figures:
        assert figure["z"] is not None and abs(figure["z"]) <= 4, figure
