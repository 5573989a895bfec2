"""`play` keeps its context (issue 21, item 8): every session is logged by default to a data
folder and says so; Ctrl-C and the end of input print the exact command that resumes it; a
resumed session first recaps where the table stands; `odds` answers for where the game stands
(at a choice: each value's chance); the opening says how long the session runs."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
import sys
import time
from fractions import Fraction

import pytest

from hazard_dsl.api import load
from hazard_dsl.play.log import LogError, create_session_log, log_name, sessions_folder
from hazard_dsl.render.chances import chance_words
from hazard_dsl.solve.markov import ONE, ZERO, Solver

from tests.conftest import ROOT, machine
from tests.ptys import press_ctrl_c


def cli(*argv, stdin="", data=None, env=None):
    more = dict(env or {}, COLUMNS="100")
    if data is not None:
        more["XDG_DATA_HOME"] = str(data)
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, **more), timeout=120)


def chance_of_winning(m, state: int) -> Fraction:
    """The caster's exact chance from a state of the compiled machine, by the exact solver."""
    solver = Solver(m)
    solver.set_policy("optimal")
    return solver.backward(lambda s: ONE if s.result == "win" else ZERO)[state]


def logs(data) -> list:
    folder = data / "hazard-dsl" / "sessions"
    return sorted(folder.iterdir()) if folder.is_dir() else []


def resume_argv(text: str) -> list[str]:
    """The arguments of the resume command a session printed (after `hazard-dsl`)."""
    found = re.findall(r"Resume it with:\r?\n  (hazard-dsl [^\r\n]+)", text)
    assert found, text
    words = shlex.split(found[-1])
    assert words[:2] == ["hazard-dsl", "play"]
    return words[1:]


# ------------------------------------------------------------------ Ctrl-C, then --resume


def _interrupted_in_a_pseudo_terminal(argv: list[str], env: dict, stop_after: bytes) -> tuple[int, bytes]:
    """Run `hazard-dsl ARGV` at a pseudo-terminal, pressing Enter at every question until the
    output holds `stop_after` and a throw's prompt after it; then Ctrl-C. (Exit status, output.)"""
    import pty
    import select

    prompt = re.compile(rb"press Enter |\(Enter for [^)\n]*\) |\[Y/n\] ")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game at a terminal
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "hazard_dsl", *argv], dict(os.environ, **env))
    out = b""
    answered = 0
    deadline = time.time() + 90
    while time.time() < deadline:
        if select.select([fd], [], [], 1)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
        at = out.find(stop_after)
        if at >= 0 and out.endswith(b"press Enter ") and out.rfind(b"press Enter ") > at:
            break
        if len(prompt.findall(out)) > answered and prompt.search(out[-40:]):
            answered += 1
            os.write(fd, b"\n")
    out, status = press_ctrl_c(fd, pid, out, deadline)
    return os.WEXITSTATUS(status), out


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_ctrl_c_then_resume_from_the_default_log_recaps_the_table_and_odds_are_from_there(tmp_path):
    # Seed 2 at Cotton's table: game 1, Ann throws 6-2 (main eight) and 1-2 (out): she pays Ben
    # his 2 and the box passes; game 2, Ben throws 3-5 (main eight), 3-1 (chance four), 3-4
    # (nothing); Ctrl-C at his next throw.
    status, out = _interrupted_in_a_pseudo_terminal(
        ["play", "cotton", "--players", "Ann,Ben", "--seed", "2", "--purse", "7", "--stake", "2"],
        {"XDG_DATA_HOME": str(tmp_path)}, b"(3-4)")
    text = out.decode("utf-8", "replace")
    assert status == 130, text
    assert "Interrupted: the session stops here. Purses: Ann 5s, Ben 9s." in text
    assert "Traceback" not in text
    # the default log, in the private data folder, named by the ruleset and the time
    [log] = logs(tmp_path)
    assert re.fullmatch(r"cotton-\d{4}-\d\d-\d\d-\d{6}\.jsonl", log.name)
    assert stat.S_IMODE((tmp_path / "hazard-dsl").stat().st_mode) == 0o700
    assert stat.S_IMODE(log.parent.stat().st_mode) == 0o700
    opening = text[:text.index("at the table")]
    assert "This session is logged to" in opening and str(log) in opening
    argv = resume_argv(text)
    assert argv == ["play", "--resume", str(log)]  # a built-in ruleset: the log names it
    assert f"resume it with:\n  hazard-dsl play --resume {log}\n" in opening.replace("\r\n", "\n")
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in entries if "event" in e][-1] == "throw"

    result = cli(*argv, stdin="odds\nquit\n", data=tmp_path)
    assert result.returncode == 0, result.stderr
    said = result.stdout
    recap = said.index("Resuming")
    first_question = said.index("press Enter")
    assert recap < first_question  # where the table stands, and only then the next question
    told = said[recap:first_question]
    assert str(log) in told
    assert "Game 2 is under way: Ben holds the box (hand 2, round 1 of 1)." in told
    assert "Eight is the main. Four is the chance." in told  # the rule file's words
    assert "Purses: Ann 5s, Ben 9s." in told
    # odds from where the game stands: the chance (four) before the main (eight), by the solver
    m = machine("cotton")
    p = chance_of_winning(m, m.find("chance", main=8, chance=4).index)
    assert p == Fraction(3, 8)  # three ways of throwing four to five of throwing eight
    # (Cotton's side bet may be made before any throw: the throw's prompt offers it)
    assert f"press Enter odds\nFrom here Ben wins {chance_words(p)}." in said
    assert chance_words(chance_of_winning(m, m.states[m.start.target].index)) not in said  # not a new game's
    # quit: the same command again, and the log goes on where it was
    assert resume_argv(said) == argv


def test_the_end_of_input_prints_the_command_and_it_resumes_a_rule_file_of_ones_own(tmp_path):
    mine = tmp_path / "my rules.yaml"  # a space: the command must be quoted for a shell
    mine.write_text((ROOT / "rulesets" / "cotton.yaml").read_text(encoding="utf-8").replace(
        "name: Hazard (Cotton, 1674)", "name: My Hazard"), encoding="utf-8")
    data = tmp_path / "data"
    # seed 1: Ann throws 3-4 (main seven), Ben stakes 2, Ann covers, 5-6 (a nick); the input
    # ends at "keep the dice?"
    first = cli("play", str(mine), "--players", "Ann,Ben", "--seed", "1", "--stake", "2", "--purse", "7",
                stdin="\n" * 4, data=data)
    assert first.returncode == 0, first.stderr
    [log] = logs(data)
    assert log.name.startswith("my-rules-")
    assert f"Resume it with:\n  hazard-dsl play {shlex.quote(str(mine))} --resume {log}" in first.stdout
    argv = resume_argv(first.stdout)
    assert argv == ["play", str(mine), "--resume", str(log)]
    again = cli(*argv, stdin="odds\n", data=data)
    assert again.returncode == 0, again.stderr
    assert "Game 1 is over: Ann wins (nick).\nAnn holds the box (hand 1, round 1 of 1); game 2 comes next.\n" \
           "Purses: Ann 9s, Ben 5s.\n" in again.stdout  # the purses in Cotton's coinage (shillings)
    assert "Ann, you won: keep the dice? [Y/n] odds\n" in again.stdout
    m = machine("cotton")  # the same rules: between games, odds are a new game's
    assert f"A new game: Ann wins {chance_words(chance_of_winning(m, m.start.target))}." in again.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_built_in_rule_file_played_by_its_path_is_named_in_the_command(tmp_path):
    # the log's header then holds the path, which a log never opens: the command names the file
    first = cli("play", "rulesets/cotton.yaml", "--players", "Ann,Ben", "--seed", "1", stdin="\n", data=tmp_path)
    [log] = logs(tmp_path)
    argv = resume_argv(first.stdout)
    assert argv == ["play", str(ROOT / "rulesets" / "cotton.yaml"), "--resume", str(log)]
    again = cli(*argv, stdin="", data=tmp_path)
    assert again.returncode == 0 and "Resuming" in again.stdout, again.stderr


# ------------------------------------------------------------------ odds at a choice


@pytest.mark.parametrize("ruleset, options", [("chicken", []), ("cotton", ["--option", "main=called"])])
def test_odds_at_choose_the_main_give_each_mains_chance(ruleset, options):
    result = cli("play", ruleset, *options, "--players", "Ann,Ben", "--seed", "1", "--no-log", stdin="odds\nquit\n")
    assert result.returncode == 0, result.stderr
    m = machine(ruleset, **({"main": "called"} if options else {}))
    start = m.states[m.start.target]
    assert start.kind == "choice" and start.variable == "main"
    solver = Solver(m)
    solver.set_policy("optimal")
    win = solver.backward(lambda s: ONE if s.result == "win" else ZERO)
    # each main as the prompt shows it, in words (`choose` takes the word or the number)
    words = {"five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
    listed = [(words[v], said, best) for v, said, best in
              re.findall(r"^  (\w+): wins (.*?)(, the best)?$", result.stdout, re.M)]
    assert [v for v, _, _ in listed] == [v for v, _ in start.alternatives] == [5, 6, 7, 8, 9]
    for (value, said, _), (_, step) in zip(listed, start.alternatives):
        assert said == chance_words(win[step.target])
    best = [int(v) for v, _, mark in listed if mark]
    assert best == [7]  # seven is the best main: 244 times in 495
    assert win[start.alternatives[2][1].target] == Fraction(244, 495)
    assert "seven: wins 244 times in 495 (49.29%), the best" in result.stdout


# ------------------------------------------------------------------ the default log


def test_default_log_names_never_write_over_a_log(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    when = time.mktime((2025, 3, 1, 14, 22, 33, 0, 0, -1))
    assert log_name("cotton", when) == "cotton-2025-03-01-142233.jsonl"
    assert log_name("rules/My Rules.yaml", when) == "My-Rules-2025-03-01-142233.jsonl"
    made = []
    for _ in range(3):
        log = create_session_log("cotton", when=when)
        log.write({"event": "session"})
        log.close()
        made.append(os.path.basename(log.path))
    assert made == ["cotton-2025-03-01-142233.jsonl", "cotton-2025-03-01-142233-2.jsonl",
                    "cotton-2025-03-01-142233-3.jsonl"]
    for name in made:  # each written once, none over another
        assert (tmp_path / "hazard-dsl" / "sessions" / name).read_text() == '{"event": "session"}\n'


def test_the_data_folder_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert sessions_folder() == str(tmp_path / "data" / "hazard-dsl" / "sessions")
    assert stat.S_IMODE((tmp_path / "data").stat().st_mode) == 0o700  # every folder made is private
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")  # ignored, as the XDG specification says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert sessions_folder() == str(tmp_path / "home" / ".local" / "share" / "hazard-dsl" / "sessions")
    assert not os.path.exists("relative")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))
    with pytest.raises(LogError, match="no data folder for session logs"):
        sessions_folder()


def test_no_data_folder_plays_on_without_a_log(tmp_path):
    (tmp_path / "file").write_text("")
    result = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "1", stdin="\n\n\n", data=tmp_path / "file")
    assert result.returncode == 0, result.stderr
    assert "This session is not logged (no data folder for session logs" in " ".join(result.stdout.split())
    assert "1. cater-trey (3-4), seven" in result.stdout  # played on
    assert "It was not logged, so it cannot be resumed." in result.stdout
    assert "Resume it with" not in result.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_log_writes_nothing(tmp_path):
    result = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "1", "--no-log", stdin="\n", data=tmp_path)
    assert result.returncode == 0, result.stderr
    assert logs(tmp_path) == [] and not (tmp_path / "hazard-dsl").exists()
    assert "This session is not logged (--no-log), so it cannot be resumed." in result.stdout
    assert "It was not logged, so it cannot be resumed." in result.stdout
    for more, word in ((["--log", str(tmp_path / "x.log")], "--no-log"), (["--force"], "--no-log")):
        refused = cli("play", "cotton", "--players", "Ann,Ben", "--no-log", *more, data=tmp_path)
        assert refused.returncode != 0 and word in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "x.log").exists()


def test_a_log_named_with_log_is_the_one_resumed(tmp_path):
    chosen = tmp_path / "mine.log"
    result = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", str(chosen), stdin="\n",
                 data=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    assert chosen.is_file() and logs(tmp_path / "data") == []
    assert resume_argv(result.stdout) == ["play", "--resume", str(chosen)]
    refused = cli("play", "--resume", str(chosen), "--no-log")
    assert refused.returncode != 0 and "--no-log" in refused.stderr
    refused = cli("play", "--resume", str(chosen), "--rounds", "3")
    assert refused.returncode != 0 and "--rounds" in refused.stderr


def test_a_tape_is_named_in_the_resume_command(tmp_path):
    tape = "3-4 5-6 2-2"
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", tape, stdin="", data=tmp_path)
    [log] = logs(tmp_path)
    assert resume_argv(result.stdout) == ["play", "--resume", str(log), "--dice", tape]


# ------------------------------------------------------------------ how long it runs


@pytest.mark.parametrize("rounds, said", [(None, "1 round of the table: until each player has held the box once"),
                                          (3, "3 rounds of the table: until each player has held the box 3 times")])
def test_the_opening_says_how_long_the_session_runs(rounds, said):
    more = ["--rounds", str(rounds)] if rounds else []
    result = cli("play", "cotton", "--players", "Ann,Ben,Cat", "--seed", "1", "--no-log", *more, stdin="")
    opening = " ".join(result.stdout[:result.stdout.index("at the table")].split())
    assert f"The session runs {said}" in opening and "--rounds N sets another length" in opening
    # and that is what --rounds does: each player takes the box that many times
    events = load("cotton").session(["Ann", "Ben", "Cat"], purse=1000, rounds=rounds or 1, seed=1)
    hands = [e["caster"] for e in events if e["event"] == "hand"]
    assert sorted(hands) == sorted(["Ann", "Ben", "Cat"] * (rounds or 1))
