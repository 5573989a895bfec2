"""A log edited by hand is refused naming the line and what is damaged (audit 10, findings 1, 9
and 10): a session event's setting that --log never writes (a seed of -1 or `true`, players
nested or numbers, a purse of 41 digits, rounds of 10^12) names that setting, for `replay` and
`play --resume` alike, and never reaches the dice (exit 70); a line with a key twice is
refused at that line, not the next; a ruleset's name edited in the header is refused."""

from __future__ import annotations

import io
import json

import pytest

from hazard_dsl.cli import main
from hazard_dsl.commands.sessions import DamagedLog, header_damage
from hazard_dsl.errors import ArgumentError
from hazard_dsl.play.log import LogError, open_log
from tests.play.test_table import cli


@pytest.fixture(scope="module")
def passage_log(tmp_path_factory):
    """The audit's own log: `run passage --players Ann,Ben,Cat --rounds 1 --seed 3 --log`."""
    log = tmp_path_factory.mktemp("logs") / "s.log"
    assert main(["run", "passage", "--players", "Ann,Ben,Cat", "--rounds", "1", "--seed", "3", "--log",
                 str(log)]) == 0
    return log.read_text().splitlines()


def edited(tmp_path, lines, number: int, edit, name="e.log"):
    """The log with line `number` (1 first) read as JSON, changed by `edit`, written back."""
    lines = list(lines)
    event = json.loads(lines[number - 1])
    edit(event)
    lines[number - 1] = json.dumps(event)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def refused(capsys, monkeypatch, path, *argv) -> tuple[str, str]:
    """The error line of `replay` and of `play --resume` (stdin: quit) of the log `path`,
    each exit 1 (a refused log, not a bug's 70) and the same words."""
    said = []
    for command in (["replay", str(path)], ["play", "--resume", str(path)]):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(command + list(argv)) == 1, command
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and err.startswith("hazard-dsl: error: "), err
        said.append(err[len("hazard-dsl: error: "):])
    assert said[0] == said[1]
    return said[0]


SETTINGS = [  # (setting, edited value, what the error says after "damaged: ")
    ("seed", -1, "its seed is -1, not a whole number from 0 to 2^64 − 1, or null (a tape)"),
    ("seed", True, "its seed is true, not a whole number from 0 to 2^64 − 1, or null (a tape)"),
    ("seed", 2**64, "its seed is 18446744073709551616, not a whole number from 0 to 2^64 − 1, or null (a tape)"),
    ("seed", "3", 'its seed is "3", not a whole number from 0 to 2^64 − 1, or null (a tape)'),
    ("players", [["Ann"], "Ben", "Cat"], 'its players are [["Ann"], "Ben", "Cat"], not a list of names'),
    ("players", [1, 2, 3], "its players are [1, 2, 3], not a list of names"),
    ("players", ["Ann", "Ann", "Cat"], ('its players are ["Ann", "Ann", "Cat"], not names a session is played '
                                        'with (each player needs a name of his own)')),
    ("purse", "1" + "0" * 40, ('its purse is "10000000000… (43 characters), not an amount above 0 as text (at '
                               'most 15 digits a part)')),
    ("purse", "0", 'its purse is "0", not an amount above 0 as text (at most 15 digits a part)'),
    ("stake", 1, "its stake is 1, not an amount above 0 as text (at most 15 digits a part)"),
    ("rounds", 10**12, "its rounds is 1000000000000, not a whole number from 1 to 10,000"),
    ("rounds", True, "its rounds is true, not a whole number from 1 to 10,000"),
    ("strategy", "double", "its strategy is \"double\", not one of "),
    ("options", ["ten"], 'its options are ["ten"], not the options by name'),
]


@pytest.mark.parametrize("setting, value, words", SETTINGS, ids=[f"{s}={v!r}"[:30] for s, v, _ in SETTINGS])
def test_a_damaged_setting_of_the_header_is_named(tmp_path, capsys, monkeypatch, passage_log, setting, value,
                                                  words):
    path = edited(tmp_path, passage_log, 1, lambda h: h.__setitem__(setting, value))
    said = refused(capsys, monkeypatch, path)
    assert said.startswith(f"{path}:1: the session event is damaged: {words}"), said
    assert said.endswith(" (what --log writes)"), said


def test_a_seed_of_minus_one_is_refused_by_resume_not_an_internal_error(tmp_path, passage_log):
    """The audit's own command, as a user runs it: `echo quit | hazard-dsl play --resume L19`."""
    path = edited(tmp_path, passage_log, 1, lambda h: h.__setitem__("seed", -1), "L19_seed_neg.log")
    result = cli("play", "--resume", str(path), stdin="quit\n")
    assert result.returncode == 1, result.stderr
    assert result.stderr == (f"hazard-dsl: error: {path}:1: the session event is damaged: its seed is -1, not a "
                             f"whole number from 0 to 2^64 − 1, or null (a tape) (what --log writes)\n")


def test_the_damage_is_a_fact_each_front_end_words(tmp_path, passage_log):
    """The Python API's words name the log as `log`; the command line's `--log` (above)."""
    path = edited(tmp_path, passage_log, 1, lambda h: h.__setitem__("seed", -1))
    from hazard_dsl.commands.sessions import resumed_dice

    with open_log(str(path)) as log, pytest.raises(DamagedLog) as caught:
        resumed_dice(log)
    assert isinstance(caught.value, LogError) and isinstance(caught.value, ArgumentError)
    assert caught.value.setting == "seed" and caught.value.where == f"{path}:1"
    assert header_damage(log.header) == ("seed", "a whole number from 0 to 2^64 − 1, or null (a tape)")
    assert str(caught.value) == (f"{path}:1: the session event is damaged: its seed is -1, not a whole number "
                                 f"from 0 to 2^64 − 1, or null (a tape) (what log writes)")


def test_a_header_as_run_writes_it_is_not_damaged(passage_log):
    header = json.loads(passage_log[0])
    assert header_damage(header) is None
    assert header_damage(dict(header, seed=None)) is None  # a tape's session: no seed
    assert header_damage(dict(header, seed=2**64 - 1)) is None  # the largest seed the dice take


def test_a_key_written_twice_is_refused_at_its_line(tmp_path, capsys, monkeypatch, passage_log):
    """json.loads keeps the later value: the audit's line 10, a throw's dice written twice,
    was blamed on line 11."""
    assert json.loads(passage_log[9])["action"] == "throw"
    lines = list(passage_log)
    lines[9] = lines[9][:-1] + ', "dice": [6, 6, 6]}'
    path = tmp_path / "L28_dupkeys.log"
    path.write_text("\n".join(lines) + "\n")
    said = refused(capsys, monkeypatch, path)
    assert said == f'{path}:10: this line has "dice" twice; a log writes each key once (the log is damaged)'


def test_a_key_twice_inside_a_value_is_refused_too(tmp_path, capsys, monkeypatch, passage_log):
    lines = list(passage_log)
    lines[0] = lines[0].replace('"options": {"ten": "again"}', '"options": {"ten": "again", "ten": "out"}')
    assert lines[0] != passage_log[0]
    path = tmp_path / "twice.log"
    path.write_text("\n".join(lines) + "\n")
    said = refused(capsys, monkeypatch, path)
    assert said == f'{path}:1: this line has "ten" twice; a log writes each key once (the log is damaged)'


def test_a_ruleset_name_edited_in_the_header_is_refused(tmp_path, capsys, monkeypatch, passage_log):
    path = edited(tmp_path, passage_log, 1, lambda h: h.__setitem__("ruleset", "Cotton"), "L30.log")
    said = refused(capsys, monkeypatch, path)
    assert said == (f'{path}:1: the log contradicts the rules: ruleset is "Cotton" in the log, but the rules make '
                    f'it "Passage (Cotton, 1674)"')


def test_the_log_as_written_replays_and_resumes_to_its_end(tmp_path, capsys, monkeypatch, passage_log):
    path = tmp_path / "s.log"
    path.write_text("\n".join(passage_log) + "\n")
    assert main(["replay", str(path)]) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--resume", str(path)]) == 0
    assert "has ended" in capsys.readouterr().out
