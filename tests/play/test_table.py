"""The table: sessions with players, purses and the box passing (`run --players`), people at one
keyboard (`play`), and logs (`--log`, `replay`, `play --resume`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard_dsl.cli import main
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.cache import read_ruleset
from hazard_dsl.play.dice import DiceTape, RandomDice
from hazard_dsl.play.table import Table

from tests.ptys import press_ctrl_c

ROOT = Path(__file__).resolve().parents[2]
# Cotton's game, enough throws for a session of three players once round the table
TAPE = ("3-4 5-6 2-2 6-1 1-2 3-5 4-4 1-1 2-5 6-6 3-3 4-2 1-3 5-5 2-6 6-4 3-1 5-2 4-3 1-2 2-2 6-6 5-1 3-4 "
        "2-3 4-4 6-2 1-1 5-5 3-6 2-4 6-3 1-5 4-6 2-1 5-3 6-5 3-2 1-4 4-1")


def cli(*argv, stdin="", env=None):
    return subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, **(env or {})), timeout=120)


def events_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------- run


def test_run_session_is_reproducible_and_every_event_names_the_caster(capsys):
    argv = ["run", "cotton", "--players", "Ann,Ben,Cat", "--seed", "1", "--rounds", "2", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    events = events_of(first)
    assert events[0]["event"] == "session" and events[-1]["event"] == "end"
    assert all("caster" in e for e in events)
    settles = [e for e in events if e["event"] == "settle"]
    assert settles and all({"payer", "payee", "amount"} <= set(e) for e in settles)
    assert all(Fraction(e["amount"]) > 0 for e in settles)
    passes = [e for e in events if e["event"] == "pass"]
    assert len(passes) == 6  # twice round a table of three
    assert sum(Fraction(p) for p in events[-1]["purses"].values()) == 60


def test_run_session_narration(capsys):
    assert main(["run", "chicken", "--players", "Ann,Ben,Cat", "--seed", "2", "--purse", "5"]) == 0
    out = capsys.readouterr().out
    assert "Ann takes the box" in out and "Ben sets 1s; Ann covers it." in out  # Cotton's coinage, inherited
    assert "Ann calls seven." in out  # Chicken's caster calls his main
    assert "pays the box 5s, the box's fee." in out  # the box fee after three mains
    assert "Purses:" in out and "Seed 2" in out


@pytest.mark.parametrize("argv, message", [
    (["--players", "Ann"], "two names or more"),
    (["--players", "Ann,Ann"], "a name of his own"),
    (["--players", "Ann,bank"], "cannot be a player's name"),
    (["--players", "Ann,Ben", "--strategy", "flt"], "did you mean 'flat'"),
    (["--players", "Ann,Ben", "--purse", "0"], "more than 0"),
    (["--players", "Ann,Ben", "--rounds", "0"], "between 1 and 10,000"),
    (["--players", "Ann,Ben", "--games", "3"], "--bankroll and --games are for games without players"),
    (["--players", "Ann,Ben", "--bet", "pass=3"], "at the table a bet names its seat, as SEAT:NAME=AMOUNT"),
    (["--players", "Ann,Ben", "--refuse", "Ann"], "at the table a bet names its seat"),
    (["--rounds", "2"], "give --players"),
])
def test_run_session_refuses_bad_settings(capsys, argv, message):
    assert main(["run", "cotton", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_bank_table_takes_one_player(capsys):
    assert main(["run", "craps", "--players", "Ann", "--seed", "5", "--json"]) == 0
    events = events_of(capsys.readouterr().out)
    assert {e["layer"] for e in events if e["event"] == "stake"} == {"bank"}


def test_hard_play_forfeits_the_dice(tmp_path):
    """money: when_short: forfeit (the re-enactors' "hard play", seed text 003): a caster who
    cannot match every stake gives up the dice."""
    rules = tmp_path / "hard.yaml"
    rules.write_text("extends: cotton\nname: Hard play\nmoney:\n  unit: shilling\n  when_short: forfeit\n"
                     "  stake: stake\n")
    machine = compile_ruleset(read_ruleset(rules), None, ["stake"])
    table = Table(machine, ["Ann", "Ben", "Cat"], Fraction(1), RandomDice(3), rounds=1)
    table.play(table.strategy("flat", 1))
    events = table.events
    forfeits = [e for e in events if e["event"] == "pass" and "forfeits" in e["why"]]
    assert forfeits  # a purse of 1 cannot match two stakes of 1


# ------------------------------------------------------------------ money is conserved (property)


@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["cotton", "chicken", "craps", "french", "petty"]),
       purse=st.integers(1, 12), stake=st.sampled_from(["1", "2", "1/2", "3"]),
       strategy=st.sampled_from(["flat", "fraction", "cautious"]), players=st.integers(2, 4))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_purses_never_go_negative_and_money_is_conserved(seed, name, purse, stake, strategy, players):
    machine = MACHINES[name]
    names = [f"P{k}" for k in range(players)]
    table = Table(machine, names, Fraction(purse), RandomDice(seed), rounds=2, seed=seed)
    session, strategy = table.session, table.strategy(strategy, Fraction(stake))
    total = purse * players
    while not table.over:
        events = table.apply(strategy(table.waiting))
        assert all(s.purse >= 0 for s in session.seats), events
        assert sum(s.purse for s in session.seats) + session.bank + session.box == total, events
    assert session.game <= 100_000


def _machines():
    out = {}
    for name in ["cotton", "chicken", "craps", "french", "petty"]:
        ruleset = read_ruleset(ROOT / "rulesets" / f"{name}.yaml")
        out[name] = compile_ruleset(ruleset, None, [ruleset.table.stake] if ruleset.table.stake else [])
    return out


MACHINES = _machines()


# ---------------------------------------------------------------------------------- play

def test_play_a_whole_session_of_cotton_at_one_keyboard(tmp_path):
    """Three players, stakes named and refused, the box passing: driven through standard input."""
    # the dice come from the tape (no Enter to throw): 3-4 sets the main, then the stakes
    answers = ["2",  # Ben stakes 2
               "n",  # Ann declines Ben's 2
               "",  # Cat stakes the default 1
               ""] + [""] * 200  # Ann covers it; every later question takes its default
    result = cli("play", "cotton", "--players", "Ann,Ben,Cat", "--dice", TAPE, "--purse", "5",
                 stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Ann declines Ben's stake of 2s." in out and "declines it" not in out
    assert "Cat sets 1s; Ann covers it." in out
    assert "The dice pass from Ann to Ben" in out and "The dice pass from Ben to Cat" in out
    assert "From here Ann wins" in out  # the caster's exact chance after a throw
    assert "The session ends after" in out and "Purses:" in out


@pytest.mark.parametrize("option, answers, said", [
    ([], ["abc", "-1", "999", "1"], ["A stake is an amount", "A stake is an amount", "has only 5"]),
    ([], ["", "maybe", "y"], ["Answer y or n"]),
    # the mains as the prompt shows them, in words; the word (any case) or the number is taken
    (["--option", "main=called"], ["4", "ten", "Seven"], ["Choose one of five, six, seven, eight, nine",
                                                          "Choose one of"]),
    ([], ["?", "rules", "odds", "purses", "1"], ["At any question", "Hazard (Cotton, 1674)", "wins",
                                                 "Ann 5s, Ben 5s"]),
])
def test_play_refuses_bad_input_and_asks_again(option, answers, said):
    # with a called main the first question is the call; otherwise the stake (the dice come from the tape)
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", "6-1 1-1 1-1 1-1 1-1 1-1", "--purse", "5",
                 *option, stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    for text in said:
        assert text in result.stdout
    assert "The session stops here" in result.stdout or "The session ends" in result.stdout


def test_play_ends_cleanly_at_end_of_input_and_on_quit():
    for stdin in ("", "quit\n"):
        result = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "1", stdin=stdin)
        assert result.returncode == 0 and "The session stops here. Purses: Ann £1" in result.stdout  # 20s
        assert "Traceback" not in result.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_play_ctrl_c_in_a_pseudo_terminal():
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the game at a terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "hazard_dsl", "play", "cotton", "--players", "Ann,Ben",
                                  "--seed", "1"])
    out = b""
    deadline = time.time() + 60
    while b"press Enter" not in out and time.time() < deadline:
        if select.select([fd], [], [], 1)[0]:
            out += os.read(fd, 4096)
    out, status = press_ctrl_c(fd, pid, out, deadline)
    assert os.WEXITSTATUS(status) == 130, out
    assert "Interrupted: the session stops here. Purses: Ann £1".encode() in out
    assert b"Traceback" not in out


# ---------------------------------------------------------------------------------- logs


def play_logged(tmp_path, name="full.log"):
    log = tmp_path / name
    result = cli("play", "cotton", "--players", "Ann,Ben,Cat", "--dice", TAPE, "--log", str(log),
                 stdin="y\n2\ny\n" + "\n" * 200)
    assert result.returncode == 0, result.stderr
    return log


def test_a_killed_session_resumes_to_the_same_purses(tmp_path):
    full = play_logged(tmp_path)
    data = full.read_bytes()
    lines = data.splitlines(keepends=True)
    cut = tmp_path / "cut.log"
    cut.write_bytes(b"".join(lines[:40]) + lines[40][:25])  # killed while writing line 41
    result = cli("play", "--resume", str(cut), "--dice", TAPE, stdin="\n" * 200)
    assert result.returncode == 0, result.stderr
    assert "Resuming" in result.stdout
    assert cut.read_bytes() == data  # the same log, so the same purses, as the uninterrupted session
    assert json.loads(data.splitlines()[-1])["event"] == "end"


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_replay_narrates_the_log_again(tmp_path):
    full = play_logged(tmp_path)
    result = cli("replay", str(full))
    assert result.returncode == 0 and "The session ends after" in result.stdout
    as_json = cli("replay", str(full), "--json")
    logged = [json.loads(line) for line in full.read_text().splitlines()]
    assert [json.loads(line)["event"] for line in as_json.stdout.splitlines()] == \
        [entry["event"] for entry in logged if "event" in entry]  # the log has the actions too
    assert {entry["action"] for entry in logged if "action" in entry} >= {"stake", "cover", "throw"}


def test_run_log_replays(tmp_path):
    log = tmp_path / "run.log"
    assert cli("run", "craps", "--players", "Ann,Ben", "--seed", "9", "--log", str(log)).returncode == 0
    result = cli("replay", str(log))
    assert result.returncode == 0 and "The session ends" in result.stdout


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_damaged_and_foreign_logs_are_refused_naming_the_line(tmp_path):
    full = play_logged(tmp_path)
    lines = full.read_text().splitlines()

    def refused(text, *expected):
        bad = tmp_path / "bad.log"
        bad.write_text(text)
        result = cli("replay", str(bad))
        assert result.returncode == 1, result.stdout
        for e in expected:
            assert e in result.stderr, result.stderr
        assert "Traceback" not in result.stderr

    broken = list(lines)
    broken[6] = "{not json"
    refused("\n".join(broken) + "\n", "bad.log:7:", "not a JSON event")
    settle = next(k for k, line in enumerate(lines) if '"settle"' in line)
    lying = list(lines)
    lie = json.loads(lying[settle])
    lie["amount"] = "7"  # more than the stake won
    lying[settle] = json.dumps(lie)
    refused("\n".join(lying) + "\n", f"bad.log:{settle + 1}:", "contradicts the rules")
    other = json.loads(lines[0])
    other["rules"] = "0" * 32
    refused("\n".join([json.dumps(other)] + lines[1:]) + "\n", "bad.log:1:", "other rules")
    refused("", "empty")
    refused('{"event": "game"}\n', "bad.log:1:", "begins with")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_log_of_an_edited_rule_file_is_refused(tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text("extends: cotton\nname: Mine\n")
    log = tmp_path / "mine.log"
    assert cli("run", str(rules), "--players", "Ann,Ben", "--seed", "1", "--log", str(log)).returncode == 0
    assert cli("replay", str(log), str(rules)).returncode == 0
    rules.write_text("extends: cotton\nname: Mine, edited\n")
    result = cli("replay", str(log), str(rules))
    assert result.returncode == 1 and "other rules" in result.stderr


def test_session_engine_knows_nothing_of_the_terminal():
    source = (ROOT / "hazard_dsl" / "play" / "session.py").read_text()
    for word in ("print(", "input(", "sys.stdout", "render"):
        assert word not in source
    table = Table(MACHINES["cotton"], ["A", "B"], Fraction(3), DiceTape.parse("3-4 6-1 1-2"), rounds=1)
    table.play()
    kinds = [e["event"] for e in table.events]
    assert kinds[0] == "session" and kinds[-1] == "end"


def test_play_throw_and_keep_prompts_refuse_bad_input():
    """The dice are thrown on Enter; after a win the caster is asked whether he keeps them."""
    answers = ["x", ""] + ["", ""] * 3 + ["", "", "maybe", "n"] + [""] * 100
    result = cli("play", "cotton", "--players", "Ann,Ben", "--seed", "3", "--purse", "5",
                 stdin="\n".join(answers) + "\n")
    assert result.returncode == 0, result.stderr
    assert "Press Enter to throw, or ? for help." in result.stdout


def test_keeping_the_dice_after_a_win_is_asked():
    # 6-1 sets a main of 7, 5-6 nicks it: Ann wins and is asked; "n" passes the dice
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", "6-1 5-6 6-1 1-2", "--purse", "5",
                 stdin="\n\nmaybe\nn\n\n\n\n\n")
    assert result.returncode == 0, result.stderr
    assert "Answer y or n" in result.stdout
    assert "The dice pass from Ann to Ben: Ann chooses to pass the dice after a win." in result.stdout


def test_narration_fits_the_terminal():
    result = cli("run", "cotton", "--players", "Ann,Ben,Cat", "--seed", "1", env={"COLUMNS": "50"})
    assert result.returncode == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 50


LOGGED = None


def _logged() -> list[str]:
    global LOGGED
    if LOGGED is None:
        import io
        from contextlib import redirect_stdout

        buffer = io.StringIO()
        with redirect_stdout(buffer):
            assert main(["run", "cotton", "--players", "Ann,Ben,Cat", "--seed", "4", "--json"]) == 0
        LOGGED = buffer.getvalue().splitlines()
    return LOGGED


junk = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.text(max_size=30),
                 st.lists(st.integers(-3, 9), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@given(line=st.integers(0, 10_000), key=st.text(max_size=12) | st.sampled_from(
    ["event", "dice", "amount", "player", "players", "purse", "stake", "value", "rounds", "strategy", "options",
     "caster", "state", "to", "file", "rules", "seed", "declined", "voluntary"]), value=junk)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_tampered_log_is_replayed_or_refused_never_a_crash(tmp_path_factory, line, key, value):
    from hazard_dsl.cli import main as run_main

    lines = list(_logged())
    k = line % len(lines)
    event = json.loads(lines[k])
    event[key] = value
    lines[k] = json.dumps(event)
    path = tmp_path_factory.mktemp("logs") / "tampered.log"
    path.write_text("\n".join(lines) + "\n")
    import io
    from contextlib import redirect_stderr, redirect_stdout

    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()) as err:
        code = run_main(["replay", str(path)])
    assert code in (0, 1), err.getvalue()


def test_play_json_events_on_stdout_questions_on_stderr():
    result = cli("play", "cotton", "--players", "Ann,Ben", "--dice", "6-1 5-6", "--json", stdin="\n" * 10)
    assert result.returncode == 0
    events = events_of(result.stdout)
    assert events[0]["event"] == "session" and any(e["event"] == "settle" for e in events)
    assert "your stake against Ann" in result.stderr


def test_a_session_needs_the_dice_to_pass(tmp_path, capsys):
    rules = tmp_path / "keep.yaml"
    rules.write_text("extends: cotton\nname: Keep\npassing:\n  losses_in_a_row: 0\n")
    assert main(["run", str(rules), "--players", "Ann,Ben"]) == 2
    assert "the dice never pass" in capsys.readouterr().err


def test_a_table_where_nobody_can_cast_ends():
    """Hard play with purses too small to match the stakes: every caster forfeits; the session
    ends once the box has gone round with no game played, not at the games' bound."""
    machine = MACHINES["cotton"]
    from hazard_dsl.records import replace
    from hazard_dsl.model import Table as TableRules

    rules = TableRules("shilling", "setters", "forfeit", "stake")
    hard = replace(machine, ruleset=replace(machine.ruleset, table=rules))
    table = Table(hard, ["A", "B", "C"], Fraction(1, 2), RandomDice(1), rounds=None)
    table.play()
    events = table.events
    assert events[-1]["why"] == "no caster could answer the stakes" and len(events) < 200
