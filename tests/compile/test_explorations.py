"""Explorations are owned, not global (issue 36): compiling shares work among option values only
through an `Explorations` the caller holds, bounded by its fields; without one every machine is
compiled from scratch, the same machine. A machine carries the bets asked for, compiled when
asked (`compile_game`, `compile_bets`), and P(win) asks for none."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl import cache
from hazard_dsl.compile.compiler import compile_bets, compile_game, compile_ruleset
from hazard_dsl.compile.explorations import Explorations
from hazard_dsl.compile.machine import END
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.solve.analysis import analyse, bet_edges

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
PACKAGE = ROOT / "hazard_dsl"


def _read(name: str):
    return read_ruleset(RULESETS / f"{name}.yaml")


def _alike(a, b) -> bool:
    """The same machine: states, start, dice, landing off, passing, fees and bets' tables."""
    return (a.states == b.states and a.start == b.start and a.dice == b.dice and a.recast == b.recast
            and a.passing == b.passing and a.options == b.options and set(a.bets) == set(b.bets)
            and all(a.bets[n].moves == b.bets[n].moves and a.bets[n].decisions == b.bets[n].decisions
                    for n in a.bets)
            and {n: f.moves for n, f in a.fees.items()} == {n: f.moves for n, f in b.fees.items()})


@pytest.mark.parametrize("name", ["cotton", "french", "history_sheet"])
def test_shared_or_not_every_setting_compiles_to_the_same_machine(name):
    ruleset = _read(name)
    explorations = Explorations()
    settings = [{}] + [{option: value} for option, o in ruleset.options.items() for value in o.values]
    for options in settings:
        shared = compile_ruleset(ruleset, options, explorations=explorations)
        alone = compile_ruleset(ruleset, options)
        assert _alike(shared, alone), options
    held = explorations.held()
    assert held["rulesets"] == 1 and 1 <= held["games"] <= len(settings)


def test_settings_the_game_does_not_read_share_one_game():
    craps = _read("craps")  # its options change only bets
    explorations = Explorations()
    first = compile_ruleset(craps, {"vig": "on_win"}, bets=(), explorations=explorations)
    other = compile_ruleset(craps, {"vig": "up_front"}, bets=(), explorations=explorations)
    assert other.states is first.states and other.options["vig"] == "up_front"
    assert compile_ruleset(craps, {"vig": "up_front"}, bets=()).states is not first.states  # none lent: afresh


def test_what_explorations_hold_is_bounded():
    explorations = Explorations(max_rulesets=1, max_games=2)
    cotton = _read("cotton")
    for main in ("thrown", "called"):
        for first_throw in ("rethrow", "lose_turn", "lose"):
            compile_ruleset(cotton, {"main": main, "first_throw": first_throw}, bets=(), explorations=explorations)
    held = explorations.held()
    assert held["rulesets"] == 1 and held["games"] == 2 and held["explorations"] <= 3
    compile_ruleset(_read("hoyle"), bets=(), explorations=explorations)
    assert explorations.held()["rulesets"] == 1  # cotton's gone to make room
    small = Explorations(max_states=10)  # no game of more states than that is kept
    compile_ruleset(cotton, bets=(), explorations=small)
    assert small.held()["games"] == 0 and small.held()["throws"] == 0


def test_a_machine_carries_the_bets_asked_for():
    craps = _read("craps")
    game = compile_ruleset(craps, bets=())
    assert dict(game.bets) == {} and len(game.fees) == len(craps.fees)
    with_pass = compile_bets(game, ["pass"])
    assert list(with_pass.bets) == ["pass"] and dict(game.bets) == {}  # a new machine: the game's unchanged
    both = compile_bets(with_pass, ["pass", "odds"])
    assert list(both.bets) == ["pass", "odds"] and both.bets["pass"] is with_pass.bets["pass"]
    assert list(compile_ruleset(craps).bets) == list(craps.bets)  # None: every bet, in the file's order
    with pytest.raises(KeyError):
        compile_bets(game, ["nothing"])
    assert bet_edges(both, "optimal")["pass"] == Fraction(7, 495)  # the house's edge on the pass line


def test_p_win_asks_for_no_bet_and_is_exact():
    from hazard_dsl.solve.markov import Solver

    machine = compile_game(_read("craps"))
    solver = Solver(machine)
    solver.set_policy("optimal")
    wins = solver.forward().total(s.index for s in machine.states if s.kind == END and s.result == "win")
    assert wins == Fraction(244, 495) and dict(machine.bets) == {}
    assert analyse(compile_ruleset(_read("cotton"), bets=())).win == Fraction(1979, 4032)


def test_a_bet_that_cannot_be_compiled_says_so_when_asked_for(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad bet\nextends: hoyle\nbets:\n  silly:\n    pays: 0 to 0\n"
                    "    rules: [{when: total == 7, do: win}, {otherwise: lose}]\n", encoding="utf-8")
    ruleset = read_ruleset(path)
    game = compile_ruleset(ruleset, bets=())  # the game itself compiles
    for _ in range(2):
        with pytest.raises(RulesetError, match="silly"):
            compile_bets(game, ["silly"])
    with pytest.raises(RulesetError, match="silly"):
        compile_ruleset(ruleset)


def test_sharing_lends_the_callers_explorations_for_a_while(monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    cotton = _read("cotton")
    mine = Explorations()
    assert cache.explorations_lent() is None
    with cache.sharing(mine):
        assert cache.explorations_lent() is mine
        cache.compile_ruleset(cotton, {"main": "called"}, bets=())
    assert cache.explorations_lent() is None and mine.held()["rulesets"] == 1
    with cache.sharing():  # one made when first asked for, dropped on leaving (the command line's)
        made = cache.explorations_lent()
        assert isinstance(made, Explorations) and cache.explorations_lent() is made
    assert cache.explorations_lent() is None


def _modules(folder: str):
    for path in sorted((PACKAGE / folder).glob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", ["parse", "compile"])
def test_parse_and_compile_do_not_know_the_cache(folder):
    for path, tree in _modules(folder):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
                assert not any(n == "cache" or n.startswith(("cache.", "hazard_dsl.cache"))
                               for n in names), f"{path.name} imports the cache"


@pytest.mark.parametrize("folder", ["compile", "cache"])
def test_no_table_at_module_level(folder):
    """What compiling keeps is held by its caller: no module of compile/ or the cache binds an
    empty table to fill (one that would outlive every caller, as the exploration keyed by id()
    did); a table written out in full is a constant."""
    for path, tree in _modules(folder):
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            empty = (isinstance(value, ast.Dict) and not value.keys) or (
                isinstance(value, ast.Call) and not value.args and getattr(value.func, "id", None) in
                ("dict", "defaultdict", "OrderedDict", "WeakValueDictionary", "WeakKeyDictionary"))
            assert not empty, f"{path.name}:{node.lineno} keeps a table at module level"
