"""A plain simulation of the same machine agrees with the exact answer, for every shipped ruleset.

Four standard errors: with 6 rulesets × a few option values, a false alarm has odds of about
1 in 10,000 per comparison — and the seed is fixed, so the test is deterministic anyway.
"""

from __future__ import annotations

import numpy as np
import pytest

from hazard_dsl.solve.analysis import analyse
from hazard_dsl.simulate.vectorised import simulate
from tests.conftest import SHIPPED, machine

GAMES = 40_000


@pytest.mark.parametrize("name", SHIPPED)
def test_simulation_within_four_standard_errors(name):
    m = machine(name)
    exact = analyse(m)
    sim = simulate(m, GAMES, np.random.default_rng(20261122))
    for result, p in (("win", exact.figures.win), ("lose", exact.figures.lose)):
        assert abs(sim.rate(result) - float(p)) <= 4 * max(sim.standard_error(result), 1e-9), (name, result)
    for label, p in exact.figures.labels.items():
        rate = sim.labels.get(label, 0) / GAMES
        se = np.sqrt(float(p) * (1 - float(p)) / GAMES)
        assert abs(rate - float(p)) <= 4 * max(se, 1e-9), (name, label)
    mean = sim.throws.mean()
    se = sim.throws.std(ddof=1) / np.sqrt(GAMES)
    assert abs(mean - float(exact.figures.expected_throws)) <= 4 * se, name


def test_simulation_of_a_mixed_policy():
    m = machine("chicken")
    exact = analyse(m, policy="uniform")
    sim = simulate(m, GAMES, np.random.default_rng(7), policy="uniform")
    assert abs(sim.rate("win") - float(exact.win)) <= 4 * sim.standard_error("win")
