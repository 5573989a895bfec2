"""Files a command writes at a name the user gives (audit 42): `graph -o` wrote its drawing over
the rule file it drew, so `hazard-dsl graph mine.yaml -o mine.yaml` lost the rules. A rule file is
never written over, and any other existing file only with --force (the house rule of
play.log.create_new_file, which `run --log` and `schema --output` follow: docs/build.py redraws
docs/figures/petty.svg over itself with --force)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl.parse.files import builtin_dir
from tests.in_process import hazard

COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")


def test_graph_does_not_draw_over_the_rule_file_it_draws(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mine.yaml").write_text(COTTON, encoding="utf-8")
    result = hazard(capsys, "graph", "mine.yaml", "-o", "mine.yaml")
    assert result.returncode == 2
    assert " ".join(result.stderr.split()) == (
        "hazard-dsl: error: --output mine.yaml: that is a rule file (the game's own, a file it extends, "
        "or a built-in ruleset); a drawing is never written over a rule file, not even with --force: give "
        "the drawing a name of its own")
    assert Path("mine.yaml").read_text(encoding="utf-8") == COTTON


def test_graph_does_not_draw_over_the_file_a_ruleset_extends(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("base.yaml").write_text(COTTON, encoding="utf-8")
    Path("child.yaml").write_text("name: Child\nextends: base.yaml\n", encoding="utf-8")
    result = hazard(capsys, "graph", "child.yaml", "--output", "base.yaml")
    assert result.returncode == 2
    assert "--output base.yaml: that is a rule file" in result.stderr
    assert Path("base.yaml").read_text(encoding="utf-8") == COTTON


def test_graph_does_not_draw_over_a_built_in_ruleset(capsys, tmp_path):
    shipped = builtin_dir() / "petty.yaml"
    before = shipped.read_bytes()
    try:
        result = hazard(capsys, "graph", "petty", "-o", str(shipped))
    finally:  # where the refusal is missing, the shipped file is put back for the tests after
        written = shipped.read_bytes()
        shipped.write_bytes(before)
    assert result.returncode == 2
    assert "that is a rule file" in result.stderr
    assert written == before


def test_graph_replaces_a_drawing_only_when_told(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("petty.dot").write_text("an old drawing\n", encoding="utf-8")
    result = hazard(capsys, "graph", "petty", "-o", "petty.dot")
    assert result.returncode == 2
    assert result.stderr == ("hazard-dsl: error: --output petty.dot: the file exists, and a drawing is not written "
                             "over a file: give a fresh name, or --force to write over it\n")
    assert Path("petty.dot").read_text(encoding="utf-8") == "an old drawing\n"
    result = hazard(capsys, "graph", "petty", "-o", "petty.dot", "--force")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "hazard-dsl: wrote petty.dot\n"
    assert Path("petty.dot").read_text(encoding="utf-8").startswith("digraph ")


def test_graph_force_never_draws_over_the_rule_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mine.yaml").write_text(COTTON, encoding="utf-8")
    result = hazard(capsys, "graph", "mine.yaml", "-o", "mine.yaml", "--force")
    assert result.returncode == 2 and "not even with --force" in result.stderr
    assert Path("mine.yaml").read_text(encoding="utf-8") == COTTON


def test_a_graph_that_fails_leaves_no_file(capsys, tmp_path, monkeypatch):
    # the file is made only when the drawing is ready: a bet the game lacks leaves nothing behind
    monkeypatch.chdir(tmp_path)
    result = hazard(capsys, "graph", "petty", "-o", "new.dot", "--bet", "no_such_bet")
    assert result.returncode == 2 and not Path("new.dot").exists()


def test_graph_help_says_a_rule_file_is_never_drawn_over(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    result = hazard(capsys, "graph", "--help")
    assert ("write to FILE instead of standard output (a new file: an existing one is refused unless --force) "
            "--force let --output write over an existing file (never over a rule file of the game)") in \
        " ".join(result.stdout.split())


@pytest.mark.parametrize("argv, said", [
    (("simulate", "cotton", "--games", "1e9"), "--games '1e9' is not a whole number (digits 0-9, at most 20)"),
    (("run", "cotton", "--players", "A,B", "--rounds", "two"), "--rounds 'two' is not a whole number"),
    (("simulate", "cotton", "--workers", "1.5"), "--workers '1.5' is not a whole number"),
])
def test_a_flag_that_is_not_a_whole_number_is_one_error_naming_it(capsys, argv, said):
    """As --seed's: one line after the flag, not argparse's usage block of the whole command
    (`simulate --games 1e9` printed twelve lines of usage before "argument --games: …")."""
    result = hazard(capsys, *argv)
    assert result.returncode == 2 and result.stdout == ""
    words = " ".join(result.stderr.split())
    assert words.startswith(f"hazard-dsl: error: {said}"), words
    assert "usage:" not in result.stderr


@pytest.mark.parametrize("command, whole", [
    ("simulate", "hazard-dsl[plot])"),
    ("simulate", "hazard-dsl[cluster]"),
    ("schema", "(yaml-language-server;"),
    ("analyse", "coin-in"),
])
def test_help_never_breaks_a_word_at_its_hyphen(capsys, monkeypatch, command, whole):
    """argparse broke "hazard-dsl[plot]" after its hyphen at 80 columns ("(needs hazard-" over
    "dsl[plot])"), a name that can then not be copied; every line still fits."""
    monkeypatch.setenv("COLUMNS", "80")
    result = hazard(capsys, command, "--help")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert any(whole in line for line in lines), result.stdout
    assert not [line for line in lines if line.rstrip().endswith(("hazard-", "coin-", "yaml-language-"))]
    assert all(len(line) <= 80 for line in lines)


def test_replay_help_names_play_s_own_log(capsys, monkeypatch):
    """`replay --help` said "a session logged with --log", but `play` logs every session by
    default (to the data folder), without --log; those are the logs a group replays."""
    monkeypatch.setenv("COLUMNS", "80")
    result = hazard(capsys, "replay", "--help")
    assert "Narrate a session again from its log (run --log, or play's own, which it writes unless " \
           "--no-log)." in " ".join(result.stdout.split())


@pytest.mark.parametrize("argv", [
    ("analyse", "petty"),
    ("compare", "petty", "cotton"),
    ("simulate", "petty", "--games", "200", "--seed", "1"),
])
def test_a_chart_is_drawn_over_an_existing_file_only_when_told(capsys, tmp_path, monkeypatch, argv):
    # audit 42, B: --plot replaced any file without a word, where --log and schema --output refuse
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the plot extra)")
    monkeypatch.chdir(tmp_path)
    Path("mine.png").write_bytes(b"a reader's own picture")
    result = hazard(capsys, *argv, "--plot", "mine.png")
    assert result.returncode == 2 and result.stdout == ""  # refused before the work
    assert result.stderr == ("hazard-dsl: error: --plot mine.png: the file exists, and a chart is not written over "
                             "a file: give a fresh name, or --force to write over it\n")
    assert Path("mine.png").read_bytes() == b"a reader's own picture"
    result = hazard(capsys, *argv, "--plot", "mine.png", "--force")
    assert result.returncode == 0, result.stderr
    assert Path("mine.png").read_bytes().startswith(b"\x89PNG")

