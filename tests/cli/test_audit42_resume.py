"""`play --resume` of a log whose session has ended (audit 42): the answer was one line of 117
columns at COLUMNS=80 (more with a log in the data folder), the command to copy inside it. Now
the sentence fits the terminal and the command stands whole on a line of its own."""

from __future__ import annotations

from tests.in_process import said


def resumed_after_its_end(monkeypatch, columns: str, log: str) -> list[str]:
    """What `play --resume` says of a session `run` logged to `log` and ended, at `columns`."""
    monkeypatch.setenv("COLUMNS", columns)
    code, _, err = said("run", "cotton", "--players", "Ann,Ben", "--seed", "1", "--log", log)
    assert code == 0, err
    code, out, err = said("play", "--resume", log)
    assert code == 0, err
    return out.splitlines()


def test_an_ended_session_is_said_within_the_columns_with_the_command_whole(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = resumed_after_its_end(monkeypatch, "80", "session.log")
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[-1] == "  hazard-dsl replay session.log"
    assert " ".join(" ".join(lines[:-1]).split()).endswith(": there is nothing to resume. Tell it again with:")


def test_an_ended_session_that_fits_is_one_line_as_before(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = resumed_after_its_end(monkeypatch, "200", "s.log")
    assert lines[-1].endswith("there is nothing to resume. hazard-dsl replay s.log tells it again.")
