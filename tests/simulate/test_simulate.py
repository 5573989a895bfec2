"""`hazard-dsl simulate`: the engine against `run` and the session engine on dice tapes, the same
numbers whatever the workers (and on a Dask cluster), money conserved, and the command's output
and errors. The statistical agreement with the exact figures is tests/simulate/test_simulation_agrees.py.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.play.dice import DiceTape
from hazard_dsl.play.game import Chooser, Thrown, play
from hazard_dsl.play.table import Table
from hazard_dsl.simulate import sessions as table
from hazard_dsl.cli.requests import bet_orders
from hazard_dsl.simulate.simulation import execute, prepare_games, prepare_sessions
from hazard_dsl.simulate.engine import replay
from hazard_dsl.simulate.tables import game_table
from hazard_dsl.solve.markov import Solver
from hazard_dsl.solve.session import game_endings
from tests.conftest import RULESETS, SHIPPED, machine


def _tape(seed: int, n: int) -> list[tuple[int, int]]:
    rng = np.random.default_rng(seed)
    return [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(n, 2))]


def _fair(name):
    m = machine(name)
    return m.dice.fair


@pytest.mark.parametrize("name", [n for n in SHIPPED if _fair(n)])
def test_a_tape_through_the_engine_ends_the_games_run_ends(name):
    """The same throws, fed to the engine's table and to `run`'s player: the same games, each
    ending with the same result and label after the same number of throws."""
    m = machine(name)
    solver = Solver(m)
    solver.set_policy("optimal")
    t = game_table(m, solver, 4.0)
    throws = _tape(2026, 3000)
    played = [(r.outcome.result, r.outcome.label, r.number) for r in
              play(m, DiceTape(throws), Chooser(solver), None) if isinstance(r, Thrown) and r.ends_game]
    engine = [(*t.endings[k], length) for k, length in replay(t, [6 * (a - 1) + (b - 1) for a, b in throws])]
    capped = [(r, label, min(n, t.age_cap)) for r, label, n in played]
    assert len(engine) == len(played) > 400
    assert engine == capped


def _table_machine(name):
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    stake = ruleset.table.stake
    return compile_ruleset(ruleset, {}, [stake] if stake else [])


@pytest.mark.parametrize("name", ["cotton", "chicken", "hoyle", "craps", "french"])
@pytest.mark.parametrize("strategy", ["flat", "cautious"])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_follow_the_session_engine_throw_for_throw(name, strategy):
    """A dice tape played by `play.session.Session` and, game by game, by the vectorised table:
    the same games and, to the last minor unit, the same purses."""
    m = _table_machine(name)
    solver = Solver(m)
    solver.set_policy("optimal")
    bet = m.bets.get(m.ruleset.table.stake) if m.ruleset.table.stake else None
    players = ["Ann", "Ben", "Cat"]
    setup = table.setup(m, solver, len(players), Fraction(20), Fraction(2), strategy, 3)
    for seed in range(6):
        throws = _tape(seed, 4000)
        at_table = Table(m, players, Fraction(20), DiceTape(throws), 3)
        end = at_table.play(at_table.strategy(strategy, Fraction(2)))[-1]
        assert end["event"] == "end" and "tape" not in end["why"]
        games = table.categories_on_tape(m, solver, bet, [6 * (a - 1) + (b - 1) for a, b in throws])
        played = table.play_sessions(setup, 1, categories=[[setup.categories.index(c) for c in games]])
        assert [Fraction(int(p), setup.scale) for p in played.purses[0]] == [Fraction(v) for v in end["purses"].values()]
        assert int(played.games[0]) == end["games"]
        assert Fraction(int(played.box[0]), setup.scale) == Fraction(end["box"])
        assert Fraction(int(played.bank[0]), setup.scale) == Fraction(end["bank"])
        assert played.rounded == 0


@pytest.mark.parametrize("name", ["cotton", "chicken", "craps"])
def test_a_games_categories_add_up_to_its_exact_endings(name):
    m = _table_machine(name)
    solver = Solver(m)
    solver.set_policy("optimal")
    categories = table.game_categories(m, solver, m.bets.get(m.ruleset.table.stake))
    endings: dict = {}
    for c, p in categories.items():
        endings[c.result, c.label] = endings.get((c.result, c.label), 0) + p
    assert endings == game_endings(m).endings
    assert sum(categories.values()) == 1


@pytest.mark.parametrize("strategy", ["flat", "fraction", "cautious"])
def test_sessions_conserve_money(strategy):
    m = _table_machine("hoyle")  # a box fee of half a guinea, paid from the caster's purse
    solver = Solver(m)
    solver.set_policy("optimal")
    setup = table.setup(m, solver, 4, Fraction(15), Fraction(3, 2), strategy, 5)
    played = table.play_sessions(setup, 3000, np.random.default_rng(1))
    money = played.purses.sum(axis=1) + played.bank + played.box
    assert (money == 4 * setup.purse).all()
    assert (played.purses >= 0).all()
    assert played.box.sum() > 0


def _numbers(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_second", "throws_per_second",
                                                         "sessions_per_second", "workers")}


def test_the_same_seed_gives_the_same_numbers_with_one_or_two_workers():
    m = machine("craps")
    one = execute(prepare_games(m, 90_000, 5, bets=bet_orders(["pass=10", "odds=2x", "field=5"]), per_chunk=20_000), 1)[0]
    two = execute(prepare_games(m, 90_000, 5, bets=bet_orders(["pass=10", "odds=2x", "field=5"]), per_chunk=20_000), 2)[0]
    assert one["chunks"] == 5 and one["games"] == 90_000
    assert _numbers(one) == _numbers(two)
    other = execute(prepare_games(m, 90_000, 6, per_chunk=20_000), 1)[0]
    assert other["win"] != one["win"]


def test_sessions_give_the_same_numbers_with_one_or_two_workers():
    m = _table_machine("cotton")
    runs = [execute(prepare_sessions(m, 900, 3, ["Ann", "Ben", "Cat"], rounds=4, per_chunk=200), k)[0]
            for k in (1, 2)]
    assert _numbers(runs[0]) == _numbers(runs[1])
    assert runs[0]["money_conserved"] and runs[0]["sessions"] == 900


def test_a_dask_client_gives_the_same_numbers():
    """A `Client` handed to the API is used as it is, and need not be the default one. The
    command's path (an address, a real scheduler and workers) is tests/simulate/test_dask_real.py."""
    distributed = pytest.importorskip("dask.distributed", reason="the cluster extra (pip install "
                                                                 "'hazard-dsl[cluster]') is not installed")
    from hazard_dsl.simulate.chunks import ClusterError

    m = machine("cotton")
    local = execute(prepare_games(m, 60_000, 9, per_chunk=20_000), 1)[0]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) \
            as cluster, distributed.Client(cluster, set_as_default=False) as client:
        remote = execute(prepare_games(m, 60_000, 9, per_chunk=20_000), 1, client)[0]
        with pytest.raises(ClusterError, match="inproc:// is a scheduler inside this same process"):
            execute(prepare_games(m, 60_000, 9, per_chunk=20_000), 1, cluster.scheduler_address)
    assert _numbers(local) == _numbers(remote)


# --------------------------------------------------------------------------- the command


def test_json_has_every_figure_beside_its_exact_value(capsys):
    assert main(["simulate", "craps", "--games", "50000", "--seed", "1", "--workers", "1", "--bet", "pass=10",
                 "--bet", "odds=3-4-5x", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "seed", "win", "lose", "push", "labels", "throws", "bets", "seconds", "games_per_second",
                "throws_per_second"):
        assert key in out
    assert out["games"] == 50_000 and out["seed"] == 1
    assert out["win"]["exact"] == "244/495" and set(out["win"]) == {"rate", "stderr", "exact", "z"}
    assert out["labels"]["natural"]["exact"] == "2/9"
    assert out["throws"]["mean"]["exact"] == "557/165"
    assert out["bets"]["pass"]["net_per_unit"]["exact"] == "-7/495"
    assert out["bets"]["odds"]["net_per_unit"]["exact"] == "0"
    assert out["all_bets"]["net_per_unit"]["exact"] == "-7/1870"  # README: analyse --bet pass=10 --bet odds=3-4-5x
    assert abs(out["win"]["z"]) < 4


def test_text_fits_the_terminal_and_says_how_to_repeat(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "64")
    assert main(["simulate", "cotton", "--games", "20000", "--seed", "4", "--workers", "1", "--bet", "stake=1"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 64
    assert "20,000 games simulated (seed 4" in out and "1979/4032" in out
    assert "--seed 4" not in out  # given, so not repeated
    assert main(["simulate", "cotton", "--games", "2000", "--workers", "1"]) == 0
    assert "the same command with --seed" in capsys.readouterr().out


def test_sessions_from_the_command(capsys):
    assert main(["simulate", "chicken", "--players", "Ann,Ben,Cat", "--purse", "20", "--rounds", "3", "--games",
                 "500", "--seed", "2", "--workers", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sessions"] == 500 and out["money_conserved"] is True
    assert set(out["seats"]) == {"Ann", "Ben", "Cat"}
    ann = out["seats"]["Ann"]
    assert sum(row["sessions"] for row in ann["distribution"]) == 500
    assert set(ann["quantiles"]) == {"min", "5%", "25%", "median", "75%", "95%", "max"}
    total = sum(Fraction(r["purse"]) * r["sessions"] for s in out["seats"].values() for r in s["distribution"])
    assert total + 500 * (Fraction(out["box_per_session"]) + Fraction(out["bank_per_session"])) == 500 * 3 * 20
    assert main(["simulate", "chicken", "--players", "Ann,Ben", "--games", "50", "--workers", "1", "--format",
                 "csv"]) == 0
    assert "Ann's purse at the end" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["simulate", "craps", "--bet", "pas=10"], "did you mean 'pass'"),
    (["simulate", "craps", "--bet", "odds=2x"], "give --bet pass=… first"),
    (["simulate", "cotton", "--strategy", "flat"], "give --players"),
    (["simulate", "cotton", "--players", "Ann,Ben", "--bet", "stake=1"], "at the table a bet names its seat"),
    (["simulate", "cotton", "--players", "Ann,Ben", "--bet", "Ben:stake=-1"], "a stake may be 0"),
    (["simulate", "cotton", "--players", "Ann,Ben", "--bet", "Ben:side=1", "--refuse", "Ann:stake"],
     "no bet 'stake' at this table"),
    (["simulate", "cotton", "--games", "0"], "--games must be"),
    (["simulate", "cotton", "--workers", "0"], "--workers must be"),
    (["simulate", "cotton", "--policy", "7"], "no choices to make"),
    (["simulate", "cotton", "--option", "main=caled"], "did you mean"),
    (["simulate", "cottn"], "did you mean"),
])
def test_mistakes_are_errors_not_tracebacks(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_an_unreachable_scheduler_is_an_error(capsys):
    pytest.importorskip("dask.distributed", reason="the cluster extra is not installed")
    assert main(["simulate", "cotton", "--games", "1000", "--scheduler", "tcp://127.0.0.1:9"]) == 1
    assert "cannot reach" in capsys.readouterr().err


def test_ctrl_c_prints_what_is_done_and_exits_130(capsys, monkeypatch):
    from hazard_dsl.simulate import chunks, run

    real = run.play_chunk
    calls = []

    def interrupted(plan, index, count):
        calls.append(index)
        if index == 2:
            raise KeyboardInterrupt
        return real(plan, index, count)

    monkeypatch.setattr(run, "play_chunk", interrupted)
    monkeypatch.setattr(chunks, "GAMES_PER_CHUNK", 10_000)
    assert main(["simulate", "cotton", "--games", "50000", "--seed", "1", "--workers", "1", "--json"]) == 130
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["complete"] is False and out["games"] == 20_000 and out["requested"] == 50_000
    assert "interrupted" in captured.err


@pytest.mark.parametrize("seed", range(20))
def test_the_two_counts_of_a_block_agree_with_a_plain_count(seed):
    from hazard_dsl.simulate.engine import _picked_rows, _sorted_rows

    rng = np.random.default_rng(seed)
    cols = int(rng.integers(1, 40))
    rows = int(rng.integers(1, 60))
    read = int(rng.integers(0, rows + 1))
    played = (rng.integers(-1, rows, size=(int(rng.integers(1, 5)), int(rng.integers(1, 300)))) * cols).astype(np.int32)
    rows_of = played.ravel() // cols
    expected = np.bincount(rows_of[rows_of >= read] - read, minlength=rows - read)
    bounds = np.arange(read, rows + 1, dtype=np.int32) * cols
    assert np.array_equal(_picked_rows(played, bounds, cols), expected)
    assert np.array_equal(_sorted_rows(played.copy(), bounds, cols), expected)


@pytest.mark.parametrize("name", ["cotton", "craps"])
def test_either_count_gives_a_chunk_the_same_figures(name, monkeypatch):
    from hazard_dsl.simulate import engine

    table = prepare_games(machine(name), 10, 1).tables[0]
    results = []
    monkeypatch.setattr(engine, "_SORTING_PAYS", True)  # whatever NumPy's sort costs here
    for sort_from in (0.0, 2.0):  # every table sorted; none
        monkeypatch.setattr(engine, "SORT_FROM", sort_from)
        counts, throws = engine.run_chunk(table, 300_001, engine.generator(np.random.SeedSequence(7)))
        results.append((counts.tolist(), throws))
    assert results[0] == results[1]


@pytest.mark.parametrize("argv", [
    # Hoyle's odds laid by a setter: nothing in expectation on the odds (hazard-rules.md N10, S1);
    # every seat pays the box's fee in his hand
    ["hoyle", "--players", "Ann,Ben,Cat", "--bet", "Ben:odds=2"],
    # the history sheet's bet on the next throw at true odds, and Cotton's side bet on a turn
    ["history_sheet", "--players", "Ann,Ben,Cat", "--bet", "Ben:twelve=1", "--bet", "Cat:side=2"],
])
@pytest.mark.statistical  # a simulation against exact figures
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_sessions_with_bets_agree_with_each_seats_exact_figures(argv, capsys):
    """simulate --players with bets plays rounds of the table one by one, bets and all, and each
    seat's net per round lies within four standard errors of its exact figure (solve.seats)."""
    assert main(["simulate", *argv, "--purse", "2000", "--games", "400", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sessions"] == 400 and report["why_no_exact"] is None
    for seat, row in report["seats"].items():
        assert row["exact"] is not None and abs(row["z"]) < 4, (seat, row)
    assert main(["simulate", *argv, "--purse", "2000", "--games", "400", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report  # the same seed, the same figures


def test_sessions_with_refusals_have_no_exact_figure(capsys):
    assert main(["simulate", "hoyle", "--players", "Ann,Ben", "--bet", "Ben:odds=2", "--refuse", "Ann:odds",
                 "--games", "20", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "No exact figure: no exact figure: it assumes every bet proposed is taken" not in out
    assert "No exact figure" in out and "--refuse" in out
