"""What the application layer says about a setting is a fact each front end words: the notes
of a simulate report (`commands.notes.Note`), why a session is not logged, a damaged log's
header (`commands.sessions.DamagedLog`). The command line's words stay what they were (the
expected texts below are the ones it printed before the notes were typed); the Python API
names the keyword; no string the core layers can show names a command-line flag."""

from __future__ import annotations

import ast
import json
import pickle
import re
from fractions import Fraction
from pathlib import Path

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.wording import FLAGS
from hazard_dsl.commands import simulate
from hazard_dsl.commands.notes import Entry, Note, said
from hazard_dsl.commands.sessions import DamagedLog, play_log
from hazard_dsl.errors import Arg, ArgumentError
from hazard_dsl.play.log_errors import LogError
from hazard_dsl.serve.wording import JSON

PACKAGE = Path(__file__).resolve().parents[2] / "hazard_dsl"
CORE = ("parse", "check", "compile", "solve", "simulate", "play", "commands")


def test_a_report_note_in_each_front_ends_words():
    assert simulate.REFUSED.said(FLAGS) == "it assumes every bet proposed is taken, and --refuse refuses some"
    assert str(simulate.REFUSED) == "it assumes every bet proposed is taken, and refusals refuses some"
    assert simulate.OWN_STAKE.said(FLAGS) == ("it assumes every setter stakes --stake, and a seat's own stake "
                                              "(SEAT:stake=AMOUNT) differs")
    assert str(simulate.OWN_STAKE) == ("it assumes every setter stakes stake, and a seat's own stake "
                                       "(plans['SEAT']['stake'] = 'AMOUNT') differs")
    assert simulate.OWN_STAKE.said(JSON) == ("it assumes every setter stakes stake, and a seat's own stake "
                                             "(plans.SEAT.stake) differs")
    assert (simulate.REFUSED.key, simulate.OWN_STAKE.key) == ("refusals", "plans")


def test_a_note_is_a_value():
    note = Note("plans", "a (", Entry(Arg("plans", "odds", 2, seat="Ben")), ")")
    assert pickle.loads(pickle.dumps(note)) == note
    assert hash(pickle.loads(pickle.dumps(note))) == hash(note)
    assert note != Note("plans", "a (", Arg("plans", "odds", 2, seat="Ben"), ")")  # an entry is not the flag
    assert note.said(FLAGS) == "a (Ben:odds=2)"
    assert Note("plans", Arg("plans", "odds", 2, seat="Ben")).said(FLAGS) == "--bet Ben:odds=2"
    assert said("plain text", FLAGS) == "plain text" and said(None, FLAGS) is None


def test_simulate_says_the_refusal_with_its_flag(capsys):
    code = main(["simulate", "hoyle", "--players", "Ann,Ben", "--bet", "Ben:odds=2", "--refuse", "Ann:odds",
                 "--games", "20", "--seed", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["why_no_exact"] == "it assumes every bet proposed is taken, and --refuse refuses some"
    code = main(["simulate", "hoyle", "--players", "Ann,Ben", "--bet", "Ben:odds=2", "--bet", "Ann:stake=2",
                 "--games", "20", "--seed", "1"])
    text = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert ("No exact figure: it assumes every setter stakes --stake, and a seat's own stake (SEAT:stake=AMOUNT) "
            "differs.") in text


def test_the_report_itself_holds_the_fact():
    # the command's function, with no front end: the note, not a sentence with a flag in it
    from hazard_dsl.commands.requests import SimulateRequest
    from hazard_dsl.commands.loading import load

    request = SimulateRequest(ruleset="hoyle", players=("Ann", "Ben"), plans={"Ben": {"odds": Fraction(2)}},
                              refusals=(("Ann", "odds"),), games=5, seed=1)
    report = simulate.simulate_request(request, load("hoyle")).report
    assert report["why_no_exact"] is simulate.REFUSED


def test_why_a_session_is_not_logged(tmp_path):
    out, why = play_log("cotton", None, False, True)
    assert out is None and why == Note("no_log", Arg("no_log"))
    assert why.said(FLAGS) == "--no-log" and str(why) == "no_log"


def test_a_damaged_header_is_a_log_error_worded_by_each_front_end():
    error = DamagedLog("s.jsonl:1", "the session event is damaged (its settings are not what ", Arg("log"),
                       " writes)")
    assert isinstance(error, LogError) and isinstance(error, ArgumentError)
    # the command line's words before the error was typed (the message named --log itself)
    assert error.said(FLAGS) == "s.jsonl:1: the session event is damaged (its settings are not what --log writes)"
    assert str(error) == "s.jsonl:1: the session event is damaged (its settings are not what log writes)"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is DamagedLog and again.said(FLAGS) == error.said(FLAGS) and again.where == "s.jsonl:1"


def test_replay_of_a_damaged_header_says_it_with_the_flag(tmp_path, capsys):
    log = tmp_path / "s.jsonl"
    assert main(["run", "chicken", "--players", "Ann,Ben", "--seed", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["rounds"] = 0  # no session is played for no rounds: not what a log is written with
    log.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    assert main(["replay", str(log)]) == 1
    assert capsys.readouterr().err.strip() == (f"hazard-dsl: error: {log}:1: the session event is damaged: its "
                                               f"rounds is 0, not a whole number from 1 to 10,000 (what --log "
                                               f"writes)")


def _shown_strings(path: Path):
    """The string constants of a module that a user can see: not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_no_string_of_the_core_names_a_flag():
    flag = re.compile(r"(?<![\w-])--[a-z]")
    found = [f"{path.relative_to(PACKAGE)}:{line}: {text!r}"
             for layer in CORE for path in sorted((PACKAGE / layer).rglob("*.py"))
             for line, text in _shown_strings(path) if flag.search(text)]
    assert found == []


@pytest.mark.parametrize("text", ["--refuse refuses", "(--no-log)", "a '--log' b"])
def test_the_scan_finds_a_flag(text, tmp_path):
    # the scan of the test above, on a module that names one (so that it can fail)
    path = tmp_path / "probe.py"
    path.write_text("def f():\n    '--doc only'\n    return " + repr(text) + "\n")
    assert [t for _, t in _shown_strings(path) if re.search(r"(?<![\w-])--[a-z]", t)] == [text]
