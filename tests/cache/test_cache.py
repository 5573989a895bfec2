"""The reading cache (hazard_dsl.cache): unchanged files are not read or compiled again; anything
changed, broken or unusable falls back to reading, with the same results and messages."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl.commands.analyse import bets_by_option
from hazard_dsl.cache import check_file
from hazard_dsl.cache import compile_ruleset  # the kept machines
from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.cache import disk as cache
from hazard_dsl.check.reading import read_ruleset as read_uncached
from hazard_dsl.solve.analysis import analyse, bet_edges

from tests.conftest import RULESETS

PARENT = """\
name: Parent
variables:
  main: {range: [0, 12], initial: 0}
phases:
  come_out:
    - when: total == 7
      do: win
    - otherwise: lose
"""
CHILD = "name: Child\nextends: parent.yaml\n"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder of this test's own, and the working folder beside the files."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def kept(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / "cache" / "hazard-dsl" / kind).glob("*.entry"))


def test_a_kept_ruleset_equals_the_one_read(fresh):
    first = cache.read_ruleset(RULESETS / "craps.yaml")
    assert len(kept(fresh, "rulesets")) == 1
    again = cache.read_ruleset(RULESETS / "craps.yaml")
    assert again == first == read_uncached(RULESETS / "craps.yaml")
    assert again.digest == first.digest != ""


def test_a_change_in_an_extended_file_is_seen(fresh):
    (fresh / "parent.yaml").write_text(PARENT)
    (fresh / "child.yaml").write_text(CHILD)
    assert "come_out" in cache.read_ruleset(fresh / "child.yaml").phases
    (fresh / "parent.yaml").write_text(PARENT.replace("come_out", "opening"))
    assert "opening" in cache.read_ruleset(fresh / "child.yaml").phases


def test_errors_are_never_kept_and_come_with_their_lines(fresh):
    (fresh / "bad.yaml").write_text(PARENT.replace("total == 7", "total == "))
    for _ in range(2):
        with pytest.raises(RulesetError) as caught:
            cache.read_ruleset(fresh / "bad.yaml")
        assert caught.value.diagnostics[0].position.line == 6
    assert kept(fresh, "rulesets") == []


def test_a_kept_ruleset_can_still_have_its_lines_quoted(fresh):
    """A later error (at compile time) quotes the rule file's line, also when it was not read."""
    (fresh / "parent.yaml").write_text(PARENT)
    (fresh / "child.yaml").write_text(CHILD)
    cache.read_ruleset(fresh / "child.yaml")
    from hazard_dsl.diagnostics import SOURCES, Position

    SOURCES._lines.clear()
    cache.read_ruleset(fresh / "child.yaml")  # from the cache
    assert SOURCES.line(Position("parent.yaml", 6, 1)).strip() == "- when: total == 7"


def test_a_broken_entry_is_a_miss(fresh):
    cache.read_ruleset(RULESETS / "petty.yaml")
    for entry in kept(fresh, "rulesets"):
        entry.write_bytes(b"not a pickle")
    assert cache.read_ruleset(RULESETS / "petty.yaml") == read_uncached(RULESETS / "petty.yaml")


def test_no_usable_folder_means_no_cache(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert cache.read_ruleset(RULESETS / "cotton.yaml").digest == ""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    assert cache.read_ruleset(RULESETS / "cotton.yaml").digest == ""
    assert not (tmp_path / "cache" / "hazard-dsl" / "rulesets").exists() or not kept(tmp_path, "rulesets")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership of folders is POSIX")
def test_a_folder_others_can_write_is_not_used(fresh):
    folder = fresh / "cache" / "hazard-dsl" / "rulesets"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    assert cache.read_ruleset(RULESETS / "cotton.yaml").digest == ""
    assert kept(fresh, "rulesets") == []


def test_the_cache_is_bounded(fresh, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for k in range(6):
        (fresh / f"r{k}.yaml").write_text(PARENT.replace("Parent", f"R{k}"))
        cache.read_ruleset(fresh / f"r{k}.yaml")
    assert len(kept(fresh, "rulesets")) == 3


def test_a_kept_machine_is_the_compiled_one_on_the_same_ruleset(fresh):
    ruleset = cache.read_ruleset(RULESETS / "craps.yaml")
    compiled = compile_ruleset(ruleset, {"vig": "up_front"})
    loaded = compile_ruleset(ruleset, {"vig": "up_front"})
    assert loaded is not compiled and loaded.ruleset is ruleset  # the ruleset in memory, not a copy
    assert loaded.states == compiled.states and set(loaded.bets) == set(compiled.bets)
    assert all(loaded.bets[n].bet is ruleset.bets[n] for n in loaded.bets)
    assert analyse(loaded).bets == analyse(compiled).bets
    assert compile_ruleset(ruleset, bets=["pass"]).bets.keys() == {"pass"}  # another entry, not the same


def test_check_keeps_what_it_found(fresh):
    (fresh / "r.yaml").write_text(PARENT + "  unused:\n    - otherwise: lose\n")
    first = check_file(fresh / "r.yaml")
    assert first == check_file(fresh / "r.yaml")
    assert any("never reached" in d.message for d in first)
    assert len(kept(fresh, "checks")) == 1


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_option_table_on_the_base_table_equals_solving_afresh(fresh):
    """A bet solved on the default game's table (its moves unchanged, only its payout or
    commission changed by the option) has the edge a fresh solve gives."""
    ruleset = read_uncached(RULESETS / "craps.yaml")
    analysis = analyse(compile_ruleset(ruleset))
    base = {name: f.edge for name, f in analysis.bets.items()}
    fast, _ = bets_by_option(ruleset, analysis.options, "optimal", base, analysis.bet_table)
    for name, option in ruleset.options.items():
        for value in option.values:
            machine = compile_ruleset(ruleset, dict(analysis.options, **{name: value}))
            slow = bet_edges(machine, "optimal")
            assert fast[name][value] == {b: e for b, e in slow.items() if e is not None}, (name, value)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_commands_agree_with_and_without_the_cache(fresh):
    def run(*args, **env):
        return subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True,
                              env=dict(os.environ, **env), cwd=RULESETS.parent).stdout

    for args in (["analyse", "french", "--json"], ["check", "rulesets/chicken.yaml"]):
        plain = run(*args, HAZARD_DSL_NO_CACHE="1")
        assert run(*args) == plain == run(*args)  # filling the cache, then reading from it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_is_refused_by_the_reader_not_waited_on(fresh):
    os.mkfifo(fresh / "pipe.yaml")
    with pytest.raises(RulesetError, match="not a regular file"):
        cache.read_ruleset(fresh / "pipe.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_extends_of_a_fifo_says_it_is_no_regular_file_not_did_you_mean_itself(fresh):
    os.mkfifo(fresh / "pipe.yaml")
    (fresh / "child.yaml").write_text("name: child\nextends: pipe.yaml\n")
    with pytest.raises(RulesetError) as caught:
        cache.read_ruleset(fresh / "child.yaml")
    said = str(caught.value)
    assert "'pipe.yaml' is not a regular file" in said and "did you mean" not in said


def test_a_machine_kept_for_a_child_is_not_used_once_its_parent_changes(fresh):
    (fresh / "parent.yaml").write_text(PARENT)
    (fresh / "child.yaml").write_text(CHILD)
    before = analyse(compile_ruleset(cache.read_ruleset(fresh / "child.yaml"))).win
    (fresh / "parent.yaml").write_text(PARENT.replace("do: win", "do: lose").replace("otherwise: lose",
                                                                                      "otherwise: win"))
    after = analyse(compile_ruleset(cache.read_ruleset(fresh / "child.yaml"))).win
    assert (before, after) == (1 - after, 1 - before) and after != before


# --------------------------------------------------------------------------- a cache that cannot lie

OTHER = PARENT.replace("total == 7", "total in {7, 11}")  # another version: the caster wins 8/36


def _cached_and_plain(path: Path):
    """The caster's chance through the cache, and straight from the file."""
    return (analyse(compile_ruleset(cache.read_ruleset(path))).win,
            analyse(compile_ruleset(read_uncached(path))).win)


def test_a_save_between_reading_and_parsing_cannot_mix_versions(fresh, monkeypatch):
    """The editor saves (by atomic rename) just after the cache has read the file: the ruleset
    kept is the version that was read, under that version's key."""
    path = fresh / "r.yaml"
    path.write_text(PARENT)
    read_text = cache._text

    def read_then_save(p):
        text = read_text(p)
        replacement = fresh / "r.yaml.new"
        replacement.write_text(OTHER)
        os.replace(replacement, path)
        return text

    monkeypatch.setattr(cache, "_text", read_then_save)
    first = cache.read_ruleset(path)
    assert analyse(compile_ruleset(first)).win == Fraction(6, 36)  # the version read
    monkeypatch.setattr(cache, "_text", read_text)
    assert _cached_and_plain(path) == (Fraction(8, 36), Fraction(8, 36))  # the file as it stands now
    path.write_text(PARENT)
    assert _cached_and_plain(path) == (Fraction(6, 36), Fraction(6, 36))


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_saves_racing_analyses_never_leave_a_wrong_entry(fresh):
    """A thread saves two versions in turn by atomic rename while analyses run; afterwards each
    version's figures through the cache equal those read without it, in process and for every
    command run as a user runs it."""
    import threading

    path = fresh / "r.yaml"
    path.write_text(PARENT)
    stop = threading.Event()

    def editor():
        k = 0
        while not stop.is_set():
            replacement = fresh / f".r.{k}.tmp"
            replacement.write_text((PARENT, OTHER)[k % 2])
            os.replace(replacement, path)
            k += 1

    saver = threading.Thread(target=editor)
    saver.start()
    try:
        for _ in range(60):
            try:
                analyse(compile_ruleset(cache.read_ruleset(path)))
            except RulesetError:
                pass
    finally:
        stop.set()
        saver.join()
    for version in (PARENT, OTHER, PARENT):
        path.write_text(version)
        cached, plain = _cached_and_plain(path)
        assert cached == plain

    def run(*args, **env):
        done = subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True,
                              env=dict(os.environ, **env), cwd=fresh, timeout=120)
        return done.returncode, done.stdout

    for version in (OTHER, PARENT):
        path.write_text(version)
        for args in (["analyse", "r.yaml", "--json"], ["check", "r.yaml"],
                     ["run", "r.yaml", "--players", "Ann,Ben", "--rounds", "1", "--seed", "3", "--json"]):
            assert run(*args) == run(*args, HAZARD_DSL_NO_CACHE="1"), args


def _entries(fresh, kind):
    return kept(fresh, kind)


def test_an_altered_entry_is_rebuilt_not_printed(fresh):
    """A kept machine whose figures were changed in place (a flipped byte) fails its checksum."""
    ruleset = cache.read_ruleset(RULESETS / "cotton.yaml")
    truth = analyse(compile_ruleset(ruleset)).win
    for entry in _entries(fresh, "machines") + _entries(fresh, "rulesets"):
        data = bytearray(entry.read_bytes())
        data[len(data) // 2] ^= 0x01
        entry.write_bytes(bytes(data))
    again = cache.read_ruleset(RULESETS / "cotton.yaml")
    assert analyse(compile_ruleset(again)).win == truth == Fraction(1979, 4032)


def test_an_entry_renamed_under_another_key_is_not_used(fresh):
    """The name of an entry is only a hint: an entry carries its key and answers only for it."""
    (fresh / "a.yaml").write_text(PARENT)
    (fresh / "b.yaml").write_text(OTHER)
    cache.read_ruleset(fresh / "a.yaml")
    cache.read_ruleset(fresh / "b.yaml")
    a, b = sorted(_entries(fresh, "rulesets"), key=lambda e: e.stat().st_mtime_ns)
    os.replace(a, b)  # a.yaml's entry now sits under b.yaml's key
    assert _cached_and_plain(fresh / "b.yaml") == (Fraction(8, 36), Fraction(8, 36))


def test_an_entry_of_the_wrong_type_is_rebuilt(fresh):
    """Whole and checksummed but of another shape (here: a machine kept where a ruleset is
    expected) is a miss, not an internal error."""
    from hazard_dsl.parse.store import read_entry, write_entry

    cache.read_ruleset(RULESETS / "cotton.yaml")
    (entry,) = _entries(fresh, "rulesets")
    key = entry.name[:-len(cache.SUFFIX)]
    assert read_entry(str(entry), key, cache.MAX_ENTRY_BYTES) is not None
    import pickle

    for wrong in ([1, 2, 3], {"files": "x", "ruleset": 1}, "a string", Fraction(1, 2)):
        write_entry(str(entry), key, pickle.dumps(wrong))
        assert cache.read_ruleset(RULESETS / "cotton.yaml") == read_uncached(RULESETS / "cotton.yaml")


def test_an_entry_that_would_call_a_function_is_refused(fresh, tmp_path):
    """Even whole and checksummed, an entry may only rebuild the package's own values."""
    import pickle

    from hazard_dsl.parse.store import write_entry

    cache.read_ruleset(RULESETS / "cotton.yaml")
    (entry,) = _entries(fresh, "rulesets")
    key = entry.name[:-len(cache.SUFFIX)]
    marker = tmp_path / "ran"

    class Boom:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    write_entry(str(entry), key, pickle.dumps(Boom()))
    assert cache.read_ruleset(RULESETS / "cotton.yaml") == read_uncached(RULESETS / "cotton.yaml")
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_special_files_in_the_cache_are_never_waited_on(fresh):
    """Every entry replaced by a FIFO, a folder or a link: each command
    runs, in bounded time, with the right figures."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "hazard_dsl", *args], capture_output=True, text=True,
                              env=dict(os.environ, XDG_CACHE_HOME=str(fresh / "cache")), cwd=RULESETS.parent,
                              timeout=60)

    first = run("analyse", "cotton", "--json")
    assert first.returncode == 0
    entries = sorted((fresh / "cache" / "hazard-dsl").glob("*/*.*"))
    assert any(e.suffix == ".entry" for e in entries)
    for k, entry in enumerate(entries):
        entry.unlink()
        if k % 3 == 0:
            os.mkfifo(entry)
        elif k % 3 == 1:
            entry.mkdir()
        else:
            entry.symlink_to("/dev/zero")
    again = run("analyse", "cotton", "--json")
    assert (again.returncode, again.stdout) == (0, first.stdout)
    checked = run("check", "rulesets/cotton.yaml")
    assert checked.returncode == 0 and "Traceback" not in checked.stderr


def test_an_oversized_entry_is_not_read(fresh, monkeypatch):
    cache.read_ruleset(RULESETS / "cotton.yaml")
    (entry,) = _entries(fresh, "rulesets")
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 100)
    assert cache._load(str(entry), entry.name[:-len(cache.SUFFIX)], lambda v: True) is None


def test_a_relative_cache_home_is_ignored(tmp_path, monkeypatch):
    """The XDG base directory specification: a relative $XDG_CACHE_HOME is invalid."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    cache.read_ruleset(RULESETS / "cotton.yaml")
    assert not (tmp_path / "relative").exists()
    assert (tmp_path / "home" / ".cache" / "hazard-dsl" / "rulesets").is_dir()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_damage_to_any_entry_never_reaches_the_figures(tmp_path_factory, monkeypatch):
    """Property: overwrite, cut or extend any kept entry at any place; the figures printed are
    still the file's own (the damaged entry is rebuilt)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    home = tmp_path_factory.mktemp("damage")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    truth = analyse(compile_ruleset(read_uncached(RULESETS / "petty.yaml"))).win
    analyse(compile_ruleset(cache.read_ruleset(RULESETS / "petty.yaml")))
    pristine = {p: p.read_bytes() for p in (home / "hazard-dsl").glob("*/*.entry")}
    entries = sorted(pristine)

    @settings(max_examples=60)
    @given(st.sampled_from(entries), st.floats(0, 1), st.binary(min_size=0, max_size=8),
           st.sampled_from(["overwrite", "cut", "extend"]))
    def damaged(entry, where, junk, how):
        for path, data in pristine.items():
            path.write_bytes(data)
        data = pristine[entry]
        at = int(where * (len(data) - 1))
        if how == "overwrite":
            if not junk or junk == data[at:at + len(junk)]:
                return
            data = data[:at] + junk + data[at + len(junk):]
        elif how == "cut":
            data = data[:at]
        else:
            data = data + (junk or b"\0")
        entry.write_bytes(data)
        assert analyse(compile_ruleset(cache.read_ruleset(RULESETS / "petty.yaml"))).win == truth

    damaged()


def test_the_code_key_changes_with_any_module_of_the_package(tmp_path, monkeypatch):
    """An edit of any module, at the top or in a sub-package, is a new key; bytecode is not."""
    from hazard_dsl.cache import disk as cache

    package = tmp_path / "hazard_dsl"
    for name in ("__init__.py", "model.py", "cache/disk.py", "solve/markov.py"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("x = 1\n")
    monkeypatch.setattr(cache, "__file__", str(package / "cache" / "disk.py"))

    def key():
        cache._CODE.clear()
        return cache._code()

    first = key()
    assert key() == first
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "model.py").write_text("not ours\n")
    assert key() == first
    (package / "solve" / "markov.py").write_text("x = 2  # an edit\n")
    second = key()
    assert second != first
    (package / "model.py").write_text("x = 11\n")
    assert key() not in (first, second)
    cache._CODE.clear()


def test_a_text_is_read_without_the_cache_when_it_is_off(monkeypatch):
    # HAZARD_DSL_NO_CACHE=1 and an editor's unsaved text: read as it stands, no cache folder asked for
    from pathlib import Path

    from hazard_dsl.cache.disk import read_ruleset

    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    path = Path(__file__).resolve().parents[2] / "rulesets" / "cotton.yaml"
    text = path.read_text(encoding="utf-8").replace("name: Hazard (Cotton, 1674)", "name: Unsaved", 1)
    assert read_ruleset(path, text=text).name == "Unsaved"
