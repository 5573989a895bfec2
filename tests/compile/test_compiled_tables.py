"""Bets compiled to tables, the pipeline's layering, and the start-up caches (issue 8).

The analysis and the table read each bet's compiled table; nothing after compile re-reads the
rules; compile does not reach up into check; the fast paths (libyaml, cached parse trees, the
parser run from its tables) give the same results and positions as the slow ones."""

from __future__ import annotations

import ast
from fractions import Fraction as F
from pathlib import Path

import pytest
import yaml

from hazard_dsl.check import check_file
from hazard_dsl.compile.bets import BetMachine, CompiledBet, compile_bet
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.compile.machine import END, OUTCOMES
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse import expressions, syntax, yaml_nodes
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.play.wagers import Order, Wagers
from hazard_dsl.solve.analysis import analyse
from tests.conftest import RULESETS, SHIPPED, machine

PACKAGE = Path(__file__).resolve().parents[2] / "hazard_dsl"


def _imports(folder: str) -> set[str]:
    """Every module a folder of the package imports (absolute names)."""
    out = set()
    for path in (PACKAGE / folder).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = f"hazard_dsl.{folder}" if node.level == 1 else "hazard_dsl" if node.level == 2 else ""
                module = ".".join(p for p in (base, node.module) if p)
                out |= {module} | {f"{module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
    return out


def test_solve_reads_compiled_tables_and_never_calls_the_compiler():
    imported = _imports("solve")
    assert not {m for m in imported if m.startswith(("hazard_dsl.compile.compiler", "hazard_dsl.compile.evaluate"))}
    forbidden = {"hazard_dsl.compile.bets.BetMachine", "hazard_dsl.compile.fees.FeeMachine",
                 "hazard_dsl.compile.bets.compile_bet", "hazard_dsl.compile.fees.compile_fee"}
    assert not imported & forbidden


def test_compile_does_not_reach_up_into_check_or_solve():
    assert not {m for m in _imports("compile") if m.startswith(("hazard_dsl.check", "hazard_dsl.solve"))}


def test_play_reads_compiled_bets_not_the_rules():
    assert "hazard_dsl.compile.bets.BetMachine" not in _imports("play")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_bet_of_every_ruleset_is_a_table_over_every_throw_of_its_dice(name):
    m = machine(name)
    assert set(m.bets) == set(m.ruleset.bets) and set(m.fees) == set(m.ruleset.fees)
    for cb in m.bets.values():
        assert isinstance(cb, CompiledBet) and cb.made
        for (g, b), row in cb.moves.items():
            assert m.states[g].kind == "throw" and 0 <= b < len(cb.states) and len(row) == len(m.outcomes)
            for entry in row:
                codes = entry.values() if isinstance(entry, dict) else [entry]
                assert all(-len(cb.decisions) <= c < len(cb.states) for c in codes)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_table_says_what_the_rules_say_for_every_throw(name):
    """Each entry of a compiled table is what the bet's rules decide, evaluated afresh."""
    m = machine(name)
    for bet_name, cb in m.bets.items():
        fresh = BetMachine(m, m.ruleset.bets[bet_name])
        for (g, b), row in list(cb.moves.items())[:40]:
            game = m.states[g]
            for k, dice in enumerate(m.outcomes):
                target = game.steps[k].target
                finals = row[k].keys() if isinstance(row[k], dict) else [target]
                for final in finals:
                    expected = fresh.step(game, cb.states[b], dice, m.states[final])
                    code = cb.move(g, b, k, final)
                    got = cb.decisions[~code] if code < 0 else cb.states[code]
                    assert got == expected, (bet_name, game, dice)


def test_a_bet_is_compiled_once_for_every_game_state_that_agrees_on_what_it_reads():
    # Cotton's stake reads only how the game ended: the main and the chance do not matter
    m = machine("cotton")
    bm = BetMachine(m, m.ruleset.bets["stake"])
    for cb_state in [s for s in m.states if s.kind == "throw" and bm.may_be_made(s)]:
        for k, dice in enumerate(OUTCOMES):
            bm.step(cb_state, bm.start, dice, m.states[cb_state.steps[k].target])
    # one evaluation per (total, how the game stands after it), not per state
    assert len(bm._cache) <= 11 * 3


def test_run_compiles_only_the_bets_it_is_asked_for(capsys):
    from hazard_dsl.cli import main

    assert main(["run", "craps", "--seed", "1", "--games", "2", "--bet", "pass=10", "--bet", "odds=2x"]) == 0
    assert "pass" in capsys.readouterr().out
    only = compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), bets=["pass"])
    assert list(only.bets) == ["pass"]


def test_a_machine_carries_the_bets_asked_for(write_ruleset, monkeypatch):
    """compile.compiler: the game's P(win) asks for no bet, so none is compiled; the bets asked
    for are compiled when asked (`compile_bets`), each once; a machine pickles as it is (the
    cache, a worker); a bet that cannot be compiled says so where it is asked for, every time."""
    import copyreg
    import io
    import pickle
    from types import MappingProxyType

    import hazard_dsl.compile.bets as bets_module
    from hazard_dsl.cache.disk import _reduce_mapping
    from hazard_dsl.compile.compiler import compile_bets
    from hazard_dsl.solve.markov import Solver

    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    compiled: list = []
    real = bets_module.compile_bet
    monkeypatch.setattr(bets_module, "compile_bet",
                        lambda m, bet, groups=None: compiled.append(bet.name) or real(m, bet, groups))
    craps = read_ruleset(RULESETS / "craps.yaml")
    m = compile_ruleset(craps, bets=())
    solver = Solver(m)
    solver.set_policy("optimal")
    wins = solver.forward().total(s.index for s in m.states if s.kind == END and s.result == "win")
    assert wins == F(244, 495) and compiled == [] and dict(m.bets) == {}
    with_pass = compile_bets(m, ["pass"])
    assert list(with_pass.bets) == ["pass"] and compiled == ["pass"] and dict(m.bets) == {}
    assert compile_bets(with_pass, ["pass"]) is with_pass and compiled == ["pass"]  # compiled once
    with pytest.raises(KeyError):
        compile_bets(m, ["nothing"])
    every = compile_ruleset(craps)
    assert list(every.bets) == list(craps.bets) and len(every.bets) == 39 and len(compiled) == 1 + 39
    buffer = io.BytesIO()  # pickled as the reading cache pickles a machine (its ruleset's read-only mappings)
    pickler = pickle.Pickler(buffer)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_mapping}
    pickler.dump(every)
    again = pickle.loads(buffer.getvalue())
    assert set(again.bets) == set(craps.bets) and again.bets["odds"].moves == every.bets["odds"].moves

    path = write_ruleset("name: bad bet\nextends: hoyle\nbets:\n  silly:\n    pays: 0 to 0\n"
                         "    rules: [{when: total == 7, do: win}, {otherwise: lose}]\n")
    broken = compile_ruleset(read_ruleset(path), bets=())
    for _ in range(2):
        with pytest.raises(RulesetError, match="silly"):
            compile_bets(broken, ["silly"])


def test_the_table_settles_bets_from_the_compiled_table():
    m = compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), bets=["place_6"])
    wagers = Wagers(m, [Order.parse("place_6=12")], None)
    come_out = m.states[m.start.target]
    wagers.before_throw(come_out)
    after = m.states[come_out.steps[6 * 2 + 3].target]  # 3-4: seven on the come-out: the place bet is off
    assert wagers.after_throw(come_out, (3, 4), after) == [] and len(wagers.up) == 1


def test_a_bet_error_is_found_when_the_bet_is_compiled(write_ruleset):
    path = write_ruleset("name: bad bet\nextends: hoyle\nbets:\n  silly:\n    pays: 0 to 0\n"
                         "    rules: [{when: total == 7, do: win}, {otherwise: lose}]\n")
    ruleset = read_ruleset(path)
    with pytest.raises(RulesetError, match="silly"):
        compile_bet(compile_ruleset(ruleset, bets=()), ruleset.bets["silly"])
    errors = [d for d in check_file(path) if d.is_error]
    assert errors and all(d.position.file == str(path) for d in errors)


def test_the_default_bets_and_the_figures_are_unchanged_by_the_tables():
    a = analyse(machine("craps"))
    assert a.bets["place_6"].edge == F(1, 66) and a.bets["pass"].edge == F(7, 495)
    assert analyse(machine("cotton")).win == F(1979, 4032)


def test_a_fee_is_a_table_over_its_states_and_the_ways_games_end():
    m = machine("chicken")
    for fee in m.fees.values():
        endings = {(s.result, s.label) for s in m.end_states()}
        assert {(r, lab) for _, r, lab in fee.moves} == endings
        assert all(m2 in {s for s, _, _ in fee.moves} for m2, _ in fee.moves.values())


# --------------------------------------------------------------------------- start-up


def _positions(path: Path) -> list:
    ruleset = read_ruleset(path)
    out = []
    for rule in ruleset.rules():
        out.append((rule.position, [getattr(n, "position", None) for n in syntax.walk(rule)]))
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_libyaml_and_the_pure_loader_give_the_same_positions(name, monkeypatch):
    path = RULESETS / f"{name}.yaml"
    expressions._tree.cache_clear()
    fast = _positions(path)
    monkeypatch.setattr(yaml_nodes, "_compose_fast", lambda text: None)
    expressions._tree.cache_clear()
    assert _positions(path) == fast


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_deep_nesting_is_never_handed_to_libyaml(write_ruleset):
    # libyaml's composer recurses in C and overflows the stack past some thousands of levels
    text = "name: x\nnotes: " + "[" * 200_000 + "]" * 200_000 + "\n"
    assert yaml_nodes._compose_fast(text) is None
    diagnostics = check_file(write_ruleset(text))
    assert diagnostics and diagnostics[0].is_error


def test_the_same_expression_text_gets_each_occurrences_own_position(write_ruleset):
    path = write_ruleset("name: twice\nphases:\n  roll:\n    - when: total == 7\n      do: win\n"
                         "    - when:   total == 7\n      do: lose\n    - otherwise: lose\n")
    errors = [d for d in check_file(path) if d.is_error]
    assert [(d.position.line, d.position.column) for d in errors] == [(6, 7)]  # the second rule never fires
    rules = list(read_ruleset(path).rules())
    assert rules[0].condition.position.line == 4 and rules[1].condition.position.line == 6
    assert rules[1].condition.position.column == rules[0].condition.position.column + 2


def test_yaml_loaders_agree_on_scalar_positions_with_non_ascii_text():
    text = "a: «héllo» — x\nb: |\n  ü + 2\n'c': \"q\\u00e9 z\"\n"
    fast = yaml_nodes._compose_fast(text)
    slow = yaml.compose(text, Loader=yaml.SafeLoader)
    assert [(k.start_mark.index, v.start_mark.index, v.start_mark.line, v.start_mark.column)
            for k, v in fast.value] == [(k.start_mark.index, v.start_mark.index, v.start_mark.line,
                                         v.start_mark.column) for k, v in slow.value]


def test_end_states_are_never_rows_of_a_bet_table():
    m = machine("hoyle")
    for cb in m.bets.values():
        assert all(m.states[g].kind != END for g, _ in cb.moves)


def test_a_payout_that_reads_the_throw_is_analysed_not_a_crash(write_ruleset, capsys):
    # found by the fuzzer: the payout where the bet is made was evaluated without a throw (exit 70)
    from hazard_dsl.cli import main

    path = write_ruleset("name: Fuzzed money\nextends: cotton\nbets:\n  pass:\n    rules:\n"
                         "      - when: total == main\n        do: win\n      - otherwise: throw again\n"
                         "    pays: total to 1\n")
    assert [d.message for d in check_file(path)] == ["this ruleset cites no source of its own: it is built on "
                                                     "Hazard (Cotton, 1674)"]
    assert main(["analyse", str(path), "--json"]) == 0
    assert "pass" in capsys.readouterr().out
    up_front = write_ruleset(path.read_text() + "    commission: {rate: 5%, of: win, paid: up_front}\n", "up.yaml")
    assert main(["analyse", str(up_front)]) == 1
    assert "payout reads the throw" in capsys.readouterr().err
