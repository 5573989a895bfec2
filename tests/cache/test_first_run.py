"""A command's first run (issue 36): what the cache does on a run that finds nothing kept costs
no more than it must, and changes nothing the run says."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl import cache
from hazard_dsl.cache import disk
from hazard_dsl.check.game import check_game
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.compile.explorations import Explorations
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse.store import read_entry, write_entry

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"


def _findings(ruleset, explorations) -> tuple:
    """check_game's answer, or the error it stopped with, as plain data."""
    with cache.sharing(explorations):
        try:
            return "found", check_game(ruleset)
        except RulesetError as exc:
            return "error", list(exc.diagnostics)


def test_one_run_keeps_no_bets_checks_for_a_next_text(monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    with cache.sharing():  # the command line's: one run, each text checked once
        assert cache.explorations_lent().bet_checks is None
        assert cache.explorations_lent().held()["checked bets"] == 0
    mine = Explorations()  # a server's or an editor's: kept for the next keystroke
    with cache.sharing(mine):
        assert cache.explorations_lent().bet_checks is mine.bet_checks is not None


@pytest.mark.parametrize("name", ["craps", "cotton", "history_sheet", "hoyle"])
def test_the_games_check_says_the_same_with_the_bets_checks_kept_or_not(name, monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    ruleset = read_ruleset(RULESETS / f"{name}.yaml")
    one_run = _findings(ruleset, None)
    kept = Explorations()
    assert one_run == _findings(ruleset, kept)
    assert kept.bet_checks.played > 0  # the bets were played out and kept there, not here
    assert one_run == _findings(ruleset, kept)  # ... and found there the second time
    assert kept.bet_checks.found > 0


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _machine_entry(fresh) -> tuple[str, str]:
    (entry,) = (fresh / "cache" / "hazard-dsl" / "machines").glob("*" + disk.SUFFIX)
    return str(entry), entry.name[:-len(disk.SUFFIX)]


def test_a_kept_machine_names_the_rulesets_values_and_holds_none_of_them(fresh):
    """What the machine shares with the ruleset in memory (the ruleset, its rules, bets and fees)
    is kept by name: loaded, it is those very values; loaded without them, it is a miss."""
    import pickletools

    ruleset = cache.read_ruleset(RULESETS / "craps.yaml")
    cache.compile_ruleset(ruleset)
    entry, key = _machine_entry(fresh)
    payload = read_entry(entry, key, disk.MAX_ENTRY_BYTES)
    shared = disk._shared(ruleset)
    # the names the entry gives, read from its opcodes: each a short string right before the
    # call of `_named` (every shared value the machine reaches, each named once: memoized after)
    strings = [arg for op, arg, _ in pickletools.genops(payload) if op.name in ("SHORT_BINUNICODE", "BINUNICODE")]
    named = {s for s in strings if s in shared}
    assert "ruleset" in named and any(n.startswith("bet ") for n in named)
    assert any(n.startswith("rule ") for n in named)
    assert ruleset.description not in strings  # the ruleset's own text is not in the entry
    loaded = disk._load(entry, key, lambda value: True, shared)
    assert loaded.ruleset is ruleset
    assert all(loaded.bets[name].bet is ruleset.bets[name] for name in loaded.bets)
    assert disk._load(entry, key, lambda value: True) is None  # no values to name: a miss
    fewer = {k: v for k, v in shared.items() if not k.startswith("bet ")}
    assert disk._load(entry, key, lambda value: True, fewer) is None  # one it cannot name: a miss


def test_an_entry_with_persistent_ids_is_a_miss(fresh):
    """The format before (FORMAT 4) named shared values by persistent ids: such an entry, even
    whole and under the right key, loads as nothing, never as a failure."""
    import io
    import pickle

    ruleset = cache.read_ruleset(RULESETS / "cotton.yaml")
    machine = cache.compile_ruleset(ruleset)
    entry, key = _machine_entry(fresh)
    shared = disk._shared(ruleset)
    names = {id(v): k for k, v in shared.items()}
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.persistent_id = lambda obj: names.get(id(obj))
    pickler.dump(machine)
    assert write_entry(entry, key, buffer.getvalue())
    assert disk._load(entry, key, lambda value: True, shared) is None
    again = cache.compile_ruleset(ruleset)  # compiled again, and kept again in today's format
    assert again.states == machine.states
    assert disk._load(entry, key, lambda value: True, shared).states == machine.states


def test_the_code_key_names_the_grammar(tmp_path, monkeypatch):
    """An edit of the grammar is a new key, as an edit of any module is."""
    from hazard_dsl.parse import files

    grammar = tmp_path / "hazard.lark"
    grammar.write_text("start: x\n")
    monkeypatch.setattr(files, "grammar_path", lambda: grammar)

    def key():
        disk._CODE.clear()
        return disk._code()

    try:
        first = key()
        grammar.write_text("start: x y\n")
        assert key() != first
    finally:
        disk._CODE.clear()


def test_the_program_freezes_its_objects_at_exit_a_caller_of_main_does_not():
    """Run as the program (`main()`, no arguments given), the command leaves its objects to the
    exit uncollected: frozen by the last exit function, so the collections at exit walk none.
    Called by a test or a library with its arguments, nothing of the caller's is frozen."""
    import gc
    import subprocess
    import sys

    from hazard_dsl.cli import main

    assert main(["list"]) == 0
    assert gc.get_freeze_count() == 0
    program = ("import atexit, gc, sys; sys.argv = ['hazard-dsl', 'list']; from hazard_dsl.cli import main; "
               "code = main(); before = gc.get_freeze_count(); atexit._run_exitfuncs(); "
               "print(code, before, gc.get_freeze_count() > 0, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.stderr.split() == ["0", "0", "True"]
