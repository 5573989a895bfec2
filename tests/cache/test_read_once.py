"""One run of a command reads each rule file once (`cache.reading_once`): the command line reads
it to type its flags into the request and the command read it again, analyse's ledger a third
time, each read checking the whole file (or loading and verifying it from the disk cache)."""

from __future__ import annotations

import pytest

import hazard_dsl.cache.disk as disk
from hazard_dsl.cache import read_ruleset, reading_once
from hazard_dsl.cli import LONG_RUNNING, main
from hazard_dsl.parse.files import resolve


@pytest.fixture
def reads(monkeypatch):
    """The rule files `cache.disk.read_ruleset` reads, each time it reads one."""
    seen = []
    real = disk.read_ruleset

    def counted(path, text=None, within=None):
        seen.append(str(path))
        return real(path, text, within)

    monkeypatch.setattr(disk, "read_ruleset", counted)
    return seen


def test_a_file_is_read_once_inside(reads):
    path = resolve("cotton")
    with reading_once():
        first, again = read_ruleset(path), read_ruleset(path)
    assert first is again and reads == [str(path)]
    after = read_ruleset(path)  # outside: read again (a server's files change)
    assert reads == [str(path)] * 2 and after is not first


def test_each_file_and_folder_is_its_own(reads, tmp_path):
    cotton, craps = resolve("cotton"), resolve("craps")
    with reading_once():
        read_ruleset(cotton), read_ruleset(craps), read_ruleset(cotton, within=tmp_path)
        read_ruleset(craps)
    assert reads == [str(cotton), str(craps), str(cotton)]


def test_analyse_reads_its_rule_file_once(reads, capsys):
    # analyse cotton read it three times: to read the flags, in the command, in the ledger
    assert main(["analyse", "cotton"]) == 0
    assert "Arbuthnot" in capsys.readouterr().out  # (the ledger of printed figures is there)
    assert reads == [str(resolve("cotton"))]


def test_the_servers_read_their_files_as_they_change():
    assert set(LONG_RUNNING) == {"serve", "lsp"}


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HAZARD_DSL_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_ledger_of_printed_figures_is_kept_beside_the_ruleset(fresh, monkeypatch):
    # a figure given a main is an analysis of its own: worked out once, then loaded
    from fractions import Fraction

    from hazard_dsl.render import printed

    ruleset = read_ruleset(resolve("cotton"))
    made = []
    real = printed._rows
    monkeypatch.setattr(printed, "_rows", lambda *a: made.append(a[1]) or real(*a))
    first = printed.ledger(ruleset)
    again = printed.ledger(read_ruleset(resolve("cotton")))
    called = printed.ledger(ruleset, {"main": "called"})
    assert len(made) == 2 and made[1]["main"] == "called"  # each setting of the options its own
    assert again == first and again is not first
    # Arbuthnot's "244, 251" for a main of seven (p. 90): the caster's chance once the main is 7,
    # counted here from the throws of two dice: nicks 7 and 11 (8 ways), outs 2, 3 and 12 (4
    # ways), else a chance c thrown again before the main (w ways of 36 against the main's 6)
    ways = {n: 6 - abs(n - 7) for n in range(2, 13)}
    chances = [n for n in ways if n not in (2, 3, 7, 11, 12)]
    caster = Fraction(8, 36) + sum(Fraction(ways[c], 36) * Fraction(ways[c], ways[c] + 6) for c in chances)
    assert caster == Fraction(244, 495)
    row = next(r for r in again if r["figure"] == "244 to 251")
    assert Fraction(row["exact"]) == caster and row["agrees"] is True
    assert len(called) == len(first)
