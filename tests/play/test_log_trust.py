"""Logs that never destroy data (issue 20, part 2), and `play`'s input bounded (part 5).

Each test drives the command as a user would (`python -m hazard_dsl …` in a subprocess) and
checks what happened to the files: a log is never written over an existing file without
--force nor over a rule file at all, a log being written is locked, `replay` and `play --resume`
check the whole log (nothing after the session's end) before they print or change anything, the
file name in a log's header is never opened, and neither a big log nor a huge line of input costs
memory in proportion to its size."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hazard_dsl.play.log import MAX_LINE_BYTES
from hazard_dsl.cli.prompt import MAX_ANSWER_BYTES
from tests.play.test_table import ROOT, TAPE, cli

LOG_LINE = f"{MAX_LINE_BYTES:,} bytes"


def one_error(result, *words) -> str:
    """The command failed with one `error:` line (no traceback) that says each of `words`."""
    assert result.returncode not in (0, 70), (result.returncode, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("hazard-dsl: error: "), result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def session_log(tmp_path, name="s.log", *more) -> Path:
    log = tmp_path / name
    result = cli("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", str(log), *more)
    assert result.returncode == 0, result.stderr
    return log


def play_cotton(*more, stdin="y\n2\ny\n" + "\n" * 200):
    return cli("play", "cotton", "--players", "Ann,Ben,Cat", "--dice", TAPE, *more, stdin=stdin)


def locked(path: Path) -> bool:
    """Whether some process holds a flock on `path` (read from /proc/locks, without taking one)."""
    if not Path("/proc/locks").exists():
        pytest.skip("needs /proc/locks to see who holds a lock")
    inode = f":{path.stat().st_ino} "
    return any("FLOCK" in line and inode in line for line in Path("/proc/locks").read_text().splitlines())


# ---------------------------------------------------------------------------- writing a log


@pytest.mark.parametrize("command", ["run", "play"])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_log_is_not_written_over_an_existing_file_unless_forced(tmp_path, command):
    mine = tmp_path / "mine.log"
    mine.write_bytes(b"a person's data\n")
    argv = (["run", "cotton", "--players", "Ann,Ben", "--seed", "1"] if command == "run"
            else ["play", "cotton", "--players", "Ann,Ben,Cat", "--dice", TAPE])
    refused = cli(*argv, "--log", str(mine), stdin="\n" * 200)
    one_error(refused, "mine.log", "exists", "--force", "fresh name")
    assert mine.read_bytes() == b"a person's data\n"
    assert "Game 1" not in refused.stdout  # refused before the session began
    forced = cli(*argv, "--log", str(mine), "--force", stdin="\n" * 200)
    assert forced.returncode == 0, forced.stderr
    lines = mine.read_text().splitlines()
    assert json.loads(lines[0])["event"] == "session" and json.loads(lines[-1])["event"] == "end"
    assert cli("replay", str(mine)).returncode == 0


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_log_is_never_written_over_a_rule_file_even_forced(tmp_path):
    parent = tmp_path / "parent.yaml"
    parent.write_text("extends: cotton\nname: Parent\n")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nname: Child\n")
    os.symlink(child, tmp_path / "link.log")
    os.link(parent, tmp_path / "hard.log")
    kept = {p: p.read_bytes() for p in (parent, child)}
    for target in (child, parent, tmp_path / "link.log", tmp_path / "hard.log", ROOT / "rulesets" / "craps.yaml"):
        builtin = (ROOT / "rulesets" / "craps.yaml").read_bytes()
        for argv in (["run", str(child), "--players", "Ann,Ben", "--seed", "1"],
                     ["play", str(child), "--players", "Ann,Ben", "--seed", "1"]):
            for force in ([], ["--force"]):
                result = cli(*argv, "--log", str(target), *force, stdin="\n" * 50)
                one_error(result, "rule file", "not even with --force")
        assert {p: p.read_bytes() for p in kept} == kept
        assert (ROOT / "rulesets" / "craps.yaml").read_bytes() == builtin


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_an_empty_log_name_is_refused(tmp_path):
    for argv in (["run", "cotton", "--players", "Ann,Ben", "--seed", "1"],
                 ["play", "cotton", "--players", "Ann,Ben", "--seed", "1"]):
        result = cli(*argv, "--log", "", stdin="\n" * 50)
        one_error(result, "--log", "empty")
        assert result.returncode == 2 and "Game 1" not in result.stdout
    one_error(cli("run", "cotton", "--players", "Ann,Ben", "--force"), "--force", "--log")


def _until(condition, process) -> None:
    for _ in range(1200):
        if condition():
            return
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("timed out")


def _start(*argv) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hazard_dsl", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_log_being_written_is_locked_against_a_second_session(tmp_path):
    log = tmp_path / "live.log"
    first = _start("play", "cotton", "--players", "Ann,Ben", "--seed", "3", "--log", str(log))
    try:
        _until(lambda: log.exists() and log.stat().st_size > 0 and locked(log), first)
        written = log.read_bytes()
        one_error(cli("play", "--resume", str(log), stdin="\n" * 50), "live.log", "another session", "locked")
        one_error(cli("run", "cotton", "--players", "Ann,Ben", "--log", str(log), "--force"), "locked")
        assert log.read_bytes() == written
    finally:
        out, err = first.communicate(b"quit\n", timeout=60)
    assert first.returncode == 0, err
    assert not locked(log)  # the lock goes with the session
    # two resumes of one log at once: the second is refused, and the log is as the first left it
    second = _start("play", "--resume", str(log))
    try:
        _until(lambda: locked(log), second)
        held = log.read_bytes()
        one_error(cli("play", "--resume", str(log), stdin="\n" * 50), "live.log", "locked")
        assert log.read_bytes() == held
    finally:
        out, err = second.communicate(b"quit\n", timeout=60)
    assert second.returncode == 0, err
    assert b"Resuming" in out or b"press Enter" in out


# ---------------------------------------------------------------------------- reading a log


def _after_the_end(tmp_path):
    """Logs with something appended after the session's end, each with the line named."""
    full = session_log(tmp_path, "full.log")
    text = full.read_text()
    n = len(text.splitlines())
    settle = json.dumps({"event": "settle", "payer": "Ben", "payee": "Ann", "amount": "1000", "why": "nick",
                         "caster": "Ann"})
    return n, {
        "a settlement of 1000": text + settle + "\n",
        "the end twice": text + text.splitlines()[-1] + "\n",
        "the whole session again": text + text,
        "a line cut off after the end": text + settle[:30],
    }


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_replay_refuses_any_line_after_the_sessions_end_naming_it(tmp_path):
    n, logs = _after_the_end(tmp_path)
    for what, text in logs.items():
        bad = tmp_path / "after.log"
        bad.write_text(text)
        result = cli("replay", str(bad))
        one_error(result, f"after.log:{n + 1}:", "after the session's end", f"line {n}")
        assert result.stdout == "", what  # checked before anything is printed


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_resume_refuses_lines_after_the_end_and_leaves_the_log_as_it_was(tmp_path):
    n, logs = _after_the_end(tmp_path)
    for what, text in logs.items():
        bad = tmp_path / "after.log"
        bad.write_text(text)
        result = cli("play", "--resume", str(bad), stdin="\n" * 50)
        one_error(result, f"after.log:{n + 1}:", "after the session's end")
        assert bad.read_text() == text, what


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_refused_resume_leaves_the_log_byte_for_byte(tmp_path):
    """A log refused by --resume (a contradiction deep inside, and a last line cut off by a
    kill) is not touched: the cut-off line is dropped only after the whole log has been checked."""
    full = tmp_path / "full.log"
    assert play_cotton("--log", str(full)).returncode == 0
    lines = full.read_bytes().splitlines(keepends=True)
    settle = next(k for k, line in enumerate(lines) if b'"settle"' in line)
    lie = json.loads(lines[settle])
    lie["amount"] = "7"
    lines[settle] = json.dumps(lie).encode() + b"\n"
    cut = tmp_path / "cut.log"
    data = b"".join(lines[:40]) + lines[40][:25]
    cut.write_bytes(data)
    result = cli("play", "--resume", str(cut), "--dice", TAPE, stdin="\n" * 200)
    one_error(result, f"cut.log:{settle + 1}:", "contradicts the rules")
    assert cut.read_bytes() == data
    assert "Resuming" not in result.stdout
    # the same log with the lie taken back resumes, and only then loses its cut-off line
    lines[settle] = full.read_bytes().splitlines(keepends=True)[settle]
    cut.write_bytes(b"".join(lines[:40]) + lines[40][:25])
    result = cli("play", "--resume", str(cut), "--dice", TAPE, stdin="\n" * 200)
    assert result.returncode == 0, result.stderr
    assert cut.read_bytes() == full.read_bytes()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_file_a_log_header_names_is_never_opened(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("SECRET-CONTENTS: not for a log to print\n")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # opened for reading, it would wait for a writer for ever
    log = session_log(tmp_path)
    lines = log.read_text().splitlines()
    for named in ("/etc/passwd", str(secret), str(fifo), "../../etc/passwd"):
        header = json.loads(lines[0])
        header["file"] = named
        forged = tmp_path / "forged.log"
        forged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
        for argv in (["replay", str(forged)], ["replay", str(forged), "--json"],
                     ["play", "--resume", str(forged)]):
            result = subprocess.run([sys.executable, "-m", "hazard_dsl", *argv], input="\n" * 20, text=True,
                                    capture_output=True, cwd=ROOT, timeout=30)
            one_error(result, "forged.log:1:", "never opens", "name the rule file")
            assert "root:" not in result.stdout + result.stderr
            assert "SECRET-CONTENTS" not in result.stdout + result.stderr
    # a log of a rule file of one's own replays with that file named; with another file it is refused
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: cotton\nname: Mine\n")
    own = tmp_path / "own.log"
    assert cli("run", str(mine), "--players", "Ann,Ben", "--seed", "2", "--log", str(own)).returncode == 0
    one_error(cli("replay", str(own)), "own.log:1:", "name the rule file")
    assert "The session ends" in cli("replay", str(own), str(mine)).stdout
    one_error(cli("replay", str(own), "cotton"), "own.log:1:", "other rules than cotton")
    ended = own.read_bytes()
    result = cli("play", str(mine), "--resume", str(own), stdin="\n" * 20)
    assert result.returncode == 0 and "nothing to resume" in result.stdout and own.read_bytes() == ended
    own.write_bytes(b"".join(ended.splitlines(keepends=True)[:6]))
    one_error(cli("play", "--resume", str(own), stdin="\n" * 200), "own.log:1:", "name the rule file")
    result = cli("play", str(mine), "--resume", str(own), stdin="\n" * 200)
    assert result.returncode == 0 and "Resuming" in result.stdout, result.stderr
    assert cli("replay", str(own), str(mine)).returncode == 0
    one_error(cli("replay", str(log), str(mine)), "s.log:1:", "other rules")
    # a header that names a built-in ruleset the log was not played with
    header = json.loads(lines[0])
    header["file"] = "craps"
    forged.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    one_error(cli("replay", str(forged)), "other rules than the built-in ruleset craps")


# ---------------------------------------------------------------------------- bounded memory


def _peak_kib(tmp_path, argv, stdin=None) -> tuple[subprocess.CompletedProcess, int]:
    """The command run in a subprocess, and the most memory it held (VmHWM: its own, not
    inherited from the test's process as ru_maxrss is)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to measure memory")
    wrapper = tmp_path / "peak.py"
    wrapper.write_text(
        "import os, runpy, sys\n"
        "sys.path.insert(0, os.getcwd())  # as python -m does: the hazard_dsl of the working folder\n"
        "sys.argv = ['hazard_dsl'] + sys.argv[1:]\n"
        "try:\n"
        "    runpy.run_module('hazard_dsl', run_name='__main__', alter_sys=True)\n"
        "finally:\n"
        "    status = open('/proc/self/status').read().splitlines()\n"
        "    sys.stderr.write('\\nVmHWM ' + next(l.split()[1] for l in status if l.startswith('VmHWM:')) + '\\n')\n")
    with open(stdin if stdin is not None else os.devnull, "rb") as source:
        result = subprocess.run([sys.executable, str(wrapper), *argv], stdin=source, capture_output=True, text=True,
                                cwd=ROOT, timeout=300)
    peak = int(result.stderr.rsplit("VmHWM ", 1)[1].split()[0])
    result.stderr = result.stderr.rsplit("\nVmHWM ", 1)[0]
    return result, peak


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_replay_reads_a_big_log_line_by_line(tmp_path):
    small = session_log(tmp_path, "small.log")
    big = tmp_path / "big.log"
    made = cli("run", "cotton", "--players", "A,B,C,D,E,F", "--rounds", "500", "--seed", "1", "--log", str(big))
    assert made.returncode == 0 and big.stat().st_size > 2_000_000
    result, small_peak = _peak_kib(tmp_path, ["replay", str(small), "--json"])
    assert result.returncode == 0
    result, big_peak = _peak_kib(tmp_path, ["replay", str(big), "--json"])
    assert result.returncode == 0, result.stderr
    events = [line for line in big.read_text().splitlines() if line.startswith('{"event"')]  # not the actions
    assert len(result.stdout.splitlines()) == len(events)
    # read whole, the log's events alone took several times its size
    assert big_peak - small_peak < 8_000, (small_peak, big_peak)
    # a log that goes wrong early is refused there, without reading the rest
    junk = tmp_path / "junk.log"
    with open(junk, "wb") as out:
        out.write(small.read_bytes().splitlines(keepends=True)[0])
        out.write(b'{"event": "game", "game": 9}\n' * 400_000)
    result, junk_peak = _peak_kib(tmp_path, ["play", "--resume", str(junk)])
    one_error(result, "junk.log:2:", "contradicts the rules")
    assert junk_peak - small_peak < 8_000, (small_peak, junk_peak)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_an_overlong_line_in_a_log_is_refused_naming_it(tmp_path):
    log = session_log(tmp_path)
    lines = log.read_bytes().splitlines(keepends=True)
    for tail in (b"\n", b""):  # a whole line, and one cut off (no newline)
        bad = tmp_path / "long.log"
        data = b"".join(lines[:3]) + b'{"event": "' + b"x" * (MAX_LINE_BYTES + 10) + tail
        bad.write_bytes(data)
        one_error(cli("replay", str(bad)), "long.log:4:", LOG_LINE)
        one_error(cli("play", "--resume", str(bad)), "long.log:4:", LOG_LINE)
        assert bad.read_bytes() == data


def test_play_asks_again_after_input_that_is_not_text():
    # under a strict UTF-8 locale, bytes that are not UTF-8 used to end in an internal error (exit 70)
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", "play", "cotton", "--players", "Ann,Ben,Cat",
                             "--dice", TAPE], input=b"\xff\xfe\n2\ny\n" + b"\n" * 200, capture_output=True,
                            cwd=ROOT, env=dict(os.environ, PYTHONIOENCODING="utf-8:strict"), timeout=120)
    result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0, result.stderr
    assert "That answer is not readable text" in result.stdout
    assert "Ben sets 2s" in result.stdout  # the stake asked again was answered
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_play_reads_an_overlong_answer_in_bounded_memory(tmp_path):
    short = tmp_path / "short.txt"
    short.write_bytes(b"2\n" + b"\n" * 200)
    long = tmp_path / "long.txt"
    long.write_bytes(b"7" * 40_000_000 + b"\n2\n" + b"\n" * 200)
    argv = ["play", "cotton", "--players", "Ann,Ben", "--dice", "6-1 5-6"]
    result, short_peak = _peak_kib(tmp_path, argv, short)
    assert result.returncode == 0 and "Ben sets 2s" in result.stdout, result.stderr
    result, long_peak = _peak_kib(tmp_path, argv, long)
    assert result.returncode == 0, result.stderr
    assert f"too long to be an answer (more than {MAX_ANSWER_BYTES:,} bytes)" in result.stdout
    assert "Ben sets 2s" in result.stdout  # asked again, and answered
    assert long_peak - short_peak < 8_000, (short_peak, long_peak)  # read whole, the line took 120 MB


def test_read_answer_drops_a_long_line_and_refuses_bytes_that_are_not_text():
    import io

    from hazard_dsl.cli.prompt import UnreadableAnswer, read_answer

    stdin = io.TextIOWrapper(io.BytesIO(b"x" * 100_000 + b"\n\xff\n yes \r\nlast"), encoding="utf-8")
    with pytest.raises(UnreadableAnswer, match="too long"):
        read_answer(stdin)
    with pytest.raises(UnreadableAnswer, match="not readable text"):
        read_answer(stdin)
    assert read_answer(stdin) == " yes "
    assert read_answer(stdin) == "last"
    with pytest.raises(EOFError):
        read_answer(stdin)


def test_the_readme_states_the_bounds_the_code_enforces():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"at most {MAX_LINE_BYTES:,} bytes a line" in readme
    assert f"a line of more than {MAX_ANSWER_BYTES:,} bytes, is asked again" in readme
    assert "`hazard-dsl replay FILE [RULESET]`" in readme and "never opened" in readme


def test_text_after_the_last_line_that_no_kill_left_is_not_cut_off(tmp_path):
    """A kill leaves the start of an event (a JSON object) after the last line, and resume drops
    it; anything else there was written by something else, and resume refuses rather than cut."""
    full = tmp_path / "full.log"
    assert play_cotton("--log", str(full)).returncode == 0
    lines = full.read_bytes().splitlines(keepends=True)
    kept = tmp_path / "notes.log"
    data = b"".join(lines[:40]) + b"my own notes, not an event"
    kept.write_bytes(data)
    result = cli("play", "--resume", str(kept), "--dice", TAPE, stdin="\n" * 200)
    one_error(result, "notes.log:41:", "not an event")
    assert kept.read_bytes() == data
