"""Sessions at the table played in lanes (`simulate.sessions.play_sessions`): a lane whose session
ends starts the next, every session started is played to its end, the purses are held from the
caster round. Against the session engine on dice tapes (many sessions at once, each in its own
state), against the exact games per session of `solve.session.hand`, and money conserved."""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction

import numpy as np
import pytest

from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.play.dice import DiceTape
from hazard_dsl.play.table import Table
from hazard_dsl.simulate import sessions as table
from hazard_dsl.solve.markov import Solver
from hazard_dsl.solve.session import hand
from tests.conftest import RULESETS

COMPILED = pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                              reason="the compiled kernel needs Numba (pip install 'hazard-dsl[fast]')")


def _machine(name):
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    stake = ruleset.table.stake
    return compile_ruleset(ruleset, {}, [stake] if stake else [])


def _solver(m):
    solver = Solver(m)
    solver.set_policy("optimal")
    return solver


@pytest.mark.parametrize("name", ["cotton", "hoyle", "craps"])
def test_many_tapes_at_once_each_follow_the_session_engine(name):
    """Six sessions side by side, each on its own dice tape, so that at every pass of the loop
    the lanes stand in different places (casters, purses, hands): each ends, to the minor unit,
    as `play.session.Session` plays its tape alone."""
    m = _machine(name)
    solver = _solver(m)
    bet = m.bets.get(m.ruleset.table.stake) if m.ruleset.table.stake else None
    players = ["Ann", "Ben", "Cat", "Dan"]
    setup = table.setup(m, solver, len(players), Fraction(6), Fraction(1), "flat", 2)
    tapes, ends = [], []
    for seed in range(6):
        rng = np.random.default_rng(100 + seed)
        throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(4000, 2))]
        at_table = Table(m, players, Fraction(6), DiceTape(throws), 2)
        ends.append(at_table.play(at_table.strategy("flat", Fraction(1)))[-1])
        games = table.categories_on_tape(m, solver, bet, [6 * (a - 1) + (b - 1) for a, b in throws])
        tapes.append([setup.categories.index(c) for c in games])
    played = table.play_sessions(setup, 6, categories=tapes)
    assert len({int(g) for g in played.games}) > 1  # the sessions did not run alike
    for k, end in enumerate(ends):
        assert [Fraction(int(p), setup.scale) for p in played.purses[k]] == [Fraction(v) for v in
                                                                             end["purses"].values()]
        assert int(played.games[k]) == end["games"]
        assert Fraction(int(played.box[k]), setup.scale) == Fraction(end["box"])
        assert Fraction(int(played.bank[k]), setup.scale) == Fraction(end["bank"])


@pytest.mark.parametrize("name", ["cotton", "chicken", "hoyle", "craps", "history_sheet"])
@pytest.mark.statistical  # a simulation against exact figures
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_games_per_session_agree_with_the_exact_hand(name):
    """With purses too deep to run short, a session of R rounds of n players is n·R hands, so its
    expected games are n·R times `solve.session.hand`'s games per hand: the simulated mean (many
    more sessions than lanes, so lanes start session after session) within four standard errors."""
    m = _machine(name)
    players, rounds, sessions = 3, 2, 40_000
    setup = table.setup(m, _solver(m), players, Fraction(10 ** 6), Fraction(1), "flat", rounds)
    played = table.play_sessions(setup, sessions, np.random.default_rng(7), lanes=512)
    games = played.games.astype(float)
    exact = players * rounds * hand(m).games
    stderr = games.std(ddof=1) / math.sqrt(sessions)
    assert abs(games.mean() - float(exact)) <= 4 * stderr, (games.mean(), float(exact), stderr)
    assert (played.why == 0).all()  # every one ended with its rounds


@pytest.mark.parametrize("lanes", [1, 7, 256, 1000])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_session_is_played_to_its_end_whatever_the_lanes(lanes):
    """However many lanes, exactly the sessions asked for, each ended for a reason, money
    conserved in each; the same seed gives the same sessions."""
    m = _machine("hoyle")  # a box fee, paid from the caster's purse
    setup = table.setup(m, _solver(m), 4, Fraction(5), Fraction(1), "flat", 3)
    one = table.play_sessions(setup, 800, np.random.default_rng(11), lanes=lanes)
    two = table.play_sessions(setup, 800, np.random.default_rng(11), lanes=lanes)
    assert one.purses.shape == (800, 4)
    assert (one.games > 0).all()
    assert set(np.unique(one.why).tolist()) <= {0, 1, 2}
    assert (one.purses.sum(axis=1) + one.bank + one.box == 4 * setup.purse).all()
    assert (one.purses >= 0).all()
    for field in ("purses", "bank", "box", "games", "why"):
        assert (getattr(one, field) == getattr(two, field)).all()


def test_a_session_that_cannot_begin_ends_at_once():
    """One player and no bank: fewer than two with money, before any game."""
    m = _machine("cotton")
    setup = table.setup(m, _solver(m), 1, Fraction(20), Fraction(1), "flat", 1)
    played = table.play_sessions(setup, 50, np.random.default_rng(1))
    assert (played.games == 0).all() and (played.why == 1).all() and (played.purses == setup.purse).all()


HARD_PLAY = "extends: cotton\nname: Hard play\nmoney:\n  unit: shilling\n  when_short: forfeit\n  stake: stake\n"
THREE_TO_TWO = """extends: cotton
name: Stakes at three to two
money:
  unit: shilling
  against: {against}
  stake: stake
bets:
  stake:
    description: the caster's stake, paid at three to two
    backer: caster
    layer: setter
    made: phase == "chance_throw"
    pays: 3 to 2
    rules:
      - when: result == "win"
        do: win
      - when: result == "lose"
        do: lose
      - otherwise: throw again
"""


@pytest.mark.parametrize("text", [HARD_PLAY, THREE_TO_TWO.format(against="setters"), THREE_TO_TWO.format(against="bank")],
                         ids=["hard play", "3 to 2 against the caster", "3 to 2 against a bank"])
@pytest.mark.parametrize("strategy", ["flat", "cautious"])
def test_forfeits_and_payouts_not_even_follow_the_session_engine(text, strategy, write_ruleset):
    """Hard play (a caster who cannot match every stake gives up the dice) and a stake paid at
    three to two (a setter stakes no more than his purse can pay), against the caster and
    against a bank: several tapes at once, each as `play.session.Session` plays it alone. The
    session engine keeps exact fractions where the simulator rounds a stake finer than its minor
    unit down (and counts it): only tapes on which nothing was rounded are compared."""
    ruleset = read_ruleset(write_ruleset(text))
    m = compile_ruleset(ruleset, {}, ["stake"])
    solver = _solver(m)
    players = ["Ann", "Ben", "Cat"]
    purse, stake = Fraction(4), Fraction(2)
    setup = table.setup(m, solver, len(players), purse, stake, strategy, 3)
    tapes, ends = [], []
    for seed in range(40):
        rng = np.random.default_rng(300 + seed)
        throws = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(3000, 2))]
        games = table.categories_on_tape(m, solver, m.bets["stake"], [6 * (a - 1) + (b - 1) for a, b in throws])
        tape = [setup.categories.index(c) for c in games]
        if table.play_sessions(setup, 1, categories=[tape]).rounded:
            continue
        at_table = Table(m, players, purse, DiceTape(throws), 3)
        ends.append(at_table.play(at_table.strategy(strategy, stake))[-1])
        tapes.append(tape)
        if len(tapes) == 6:
            break
    assert len(tapes) >= 3
    played = table.play_sessions(setup, len(tapes), categories=tapes)
    assert played.rounded == 0
    for k, end in enumerate(ends):
        assert "tape" not in end["why"]
        assert [Fraction(int(p), setup.scale) for p in played.purses[k]] == [Fraction(v) for v in
                                                                             end["purses"].values()]
        assert int(played.games[k]) == end["games"]
        assert Fraction(int(played.bank[k]), setup.scale) == Fraction(end["bank"])


# ------------------------------------------------------------------ the compiled kernel (--engine compiled)


@COMPILED
@pytest.mark.parametrize("text", [None, HARD_PLAY, THREE_TO_TWO.format(against="setters"),
                                  THREE_TO_TWO.format(against="bank")],
                         ids=["the corpus", "hard play", "3 to 2 against the caster", "3 to 2 against a bank"])
@pytest.mark.parametrize("strategy", ["flat", "fraction", "cautious"])
def test_the_compiled_kernel_plays_the_same_sessions_on_the_same_tapes(text, strategy, write_ruleset):
    """Given the same categories game by game and the same first casters, the compiled kernel and
    the NumPy engine end every session alike, to the minor unit and the stake rounded: the same
    rules in the same order (the NumPy engine's are held to the session engine above)."""
    from hazard_dsl.simulate import compiled

    if text is None:
        machines = [(_machine(name), players) for name, players in
                    (("cotton", 3), ("chicken", 2), ("hoyle", 4), ("craps", 3), ("french", 5), ("history_sheet", 3))]
    else:
        machines = [(compile_ruleset(read_ruleset(write_ruleset(text)), {}, ["stake"]), 3)]
    for m, players in machines:
        setup = table.setup(m, _solver(m), players, Fraction(9), Fraction(3, 2), strategy, 3)
        rng = np.random.default_rng(players)
        tapes = [np.searchsorted(setup.cumulative, rng.integers(0, setup.denominator, size=int(rng.integers(1, 300))),
                                 side="right").tolist() for _ in range(200)]
        firsts = rng.integers(0, players, size=200)
        a = table.play_sessions(setup, 200, categories=tapes, first=firsts)
        b = compiled.play_sessions(setup, 200, None, categories=tapes, first=firsts)
        for field in ("purses", "bank", "box", "games", "why"):
            assert (getattr(a, field) == getattr(b, field)).all(), (m.ruleset.name, field)
        assert a.rounded == b.rounded


@COMPILED
@pytest.mark.parametrize("name", ["cotton", "hoyle", "craps", "history_sheet"])
@pytest.mark.statistical  # a simulation against exact figures
def test_the_compiled_kernels_games_per_session_agree_with_the_exact_hand(name):
    """As for the NumPy engine: deep purses, R rounds of n hands; from the kernel's own draws."""
    from hazard_dsl.simulate import compiled

    m = _machine(name)
    players, rounds, sessions = 3, 2, 40_000
    setup = table.setup(m, _solver(m), players, Fraction(10 ** 6), Fraction(1), "flat", rounds)
    played = compiled.play_sessions(setup, sessions, np.random.SeedSequence(7))
    games = played.games.astype(float)
    exact = players * rounds * hand(m).games
    stderr = games.std(ddof=1) / math.sqrt(sessions)
    assert abs(games.mean() - float(exact)) <= 4 * stderr, (games.mean(), float(exact), stderr)
    assert (played.why == 0).all()


@COMPILED
def test_the_compiled_kernels_sessions_conserve_money_and_agree_with_the_numpy_engines():
    """Short purses, a box fee, three strategies: money conserved in every session, and each
    seat's mean purse and the games per session as the NumPy engine finds them, within four
    standard errors of their difference (two independent samples of the same sessions)."""
    from hazard_dsl.simulate import compiled
    from hazard_dsl.simulate.engine import generator

    m = _machine("hoyle")
    for strategy in ("flat", "fraction", "cautious"):
        setup = table.setup(m, _solver(m), 4, Fraction(15), Fraction(3, 2), strategy, 5)
        a = table.play_sessions(setup, 20_000, generator(np.random.SeedSequence(3)))
        b = compiled.play_sessions(setup, 20_000, np.random.SeedSequence(3))
        assert (b.purses.sum(axis=1) + b.bank + b.box == 4 * setup.purse).all() and (b.purses >= 0).all()
        for x, y in [(a.games, b.games)] + [(a.purses[:, j], b.purses[:, j]) for j in range(4)]:
            x, y = x.astype(float), y.astype(float)
            spread = math.sqrt(x.var(ddof=1) / x.size + y.var(ddof=1) / y.size)
            assert abs(x.mean() - y.mean()) <= 4 * spread, (strategy, x.mean(), y.mean(), spread)
