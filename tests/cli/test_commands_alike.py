"""Every command behaves alike: formats, "did you mean", one --bet syntax, replayable runs."""

from __future__ import annotations

import csv
import io
import json
import shlex

import pytest

from hazard_dsl.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["check", "rulesets/cotton.yaml"], ["list"], ["show", "craps"],
                                  ["analyse", "petty"], ["compare", "cotton", "petty"]])
def test_every_command_that_prints_results_takes_every_format(argv, capsys):
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0 and json.loads(out)
    assert run(capsys, *argv, "--format", "json")[1] == out
    code, out, _ = run(capsys, *argv, "--format", "markdown")
    assert code == 0 and "|---" in out
    code, out, _ = run(capsys, *argv, "--format", "csv")
    assert code == 0 and list(csv.reader(io.StringIO(out)))[0][0] == "table"


def test_check_json_gives_positions(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nphases:\n  roll:\n    - when: totl == 7\n      do: win\n    - otherwise: lose\n")
    code, out, _ = run(capsys, "check", str(path), "--json")
    assert code == 1
    (result,) = json.loads(out)
    assert result["ok"] is False and result["errors"] == 1
    first = result["diagnostics"][0]
    assert (first["line"], first["column"], first["severity"]) == (4, 13, "error")
    assert first["hint"] == "did you mean 'total'?"


@pytest.mark.parametrize("argv, suggestion", [
    (["anlyse", "cotton"], "did you mean 'analyse'?"),
    (["run", "coton"], "did you mean 'cotton'?"),
    (["run", "cotton", "--option", "mian=called"], "did you mean 'main'?"),
    (["analyse", "cotton", "--option", "main=caled"], "did you mean 'called'?"),
    (["analyse", "craps", "--bet", "pas=10"], "did you mean 'pass'?"),
    (["run", "craps", "--bet", "feild=5", "--seed", "1"], "did you mean 'field'?"),
])
def test_did_you_mean(argv, suggestion, capsys):
    with pytest.raises(SystemExit) if argv[0] == "anlyse" else _nothing():
        code = main(argv)
        assert code == 2
    assert suggestion in capsys.readouterr().err


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_same_bet_syntax_in_run_and_analyse(capsys):
    for argv in (["run", "craps", "--seed", "1"], ["analyse", "craps"]):
        code, _, err = run(capsys, *argv, "--bet", "pass")
        assert code == 2 and "--bet takes NAME=AMOUNT" in err
        code, _, err = run(capsys, *argv, "--bet", "pass=1e999")
        assert code == 2 and "is not an amount of money" in err
    code, _, err = run(capsys, "analyse", "craps", "--bet", "field=5@3")
    assert code == 2 and "@THROW" in err and "is for run" in err


def test_a_bet_that_can_never_be_made_is_refused_by_run_as_by_analyse(tmp_path, capsys):
    path = tmp_path / "never.yaml"
    path.write_text("name: never made\nextends: craps\nbets:\n  field:\n    made: phase == \"point\" and false\n")
    code, out, err = run(capsys, "run", str(path), "--bet", "field=5", "--seed", "1")
    assert code == 2 and "can never be made" in err and "Game 1" not in out
    code, _, err = run(capsys, "analyse", str(path), "--bet", "field=5")
    assert code != 0 and "can never be made" in err


def test_the_replay_hint_repeats_every_flag(capsys):
    argv = ["run", "craps", "--seed", "7", "--games", "2", "--option", "vig=up_front", "--bet", "pass=10",
            "--bet", "buy_4=20", "--bankroll", "100"]
    code, out, _ = run(capsys, *argv)
    hint = out.strip().splitlines()[-1]
    if hint.endswith(" plays these games again."):
        command = hint.split(": ", 1)[1].removesuffix(" plays these games again.")
    else:  # too long for the line: the command under the sentence, a backslash ending each line but its last
        said = out.strip().split(" plays these games again:\n")
        assert len(said) == 2 and said[0].splitlines()[-1] == "Seed 7"
        command = said[1].replace(" \\\n", " ")
    replay = shlex.split(command)
    assert replay[0] == "hazard-dsl" and sorted(replay[1:]) == sorted(argv)
    assert main(replay[1:]) == 0
    assert capsys.readouterr().out == out


def test_run_json_records_the_seed(capsys):
    code, out, _ = run(capsys, "run", "cotton", "--seed", "12", "--json", "--games", "2")
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines and all(line["seed"] == 12 for line in lines)
    code, out, _ = run(capsys, "run", "cotton", "--format", "json", "--dice", "3-4 4-4")
    assert all("seed" not in json.loads(line) for line in out.splitlines())


@pytest.mark.parametrize("seed", ["-5", str(2**64), "x"])
def test_bad_seeds_are_usage_errors(seed, capsys):
    try:
        code = main(["run", "cotton", "--seed", seed])
    except SystemExit as exc:  # argparse refuses a seed that is no number
        code = exc.code
    assert code == 2
    assert "internal error" not in capsys.readouterr().err


def test_version_short_and_long(capsys):
    from hazard_dsl import __version__

    for flag in ("-V", "--version"):
        with pytest.raises(SystemExit):
            main([flag])
        assert capsys.readouterr().out.strip() == f"hazard-dsl {__version__}"


def test_show_describes_a_ruleset(capsys):
    code, out, _ = run(capsys, "show", "hoyle", "--json")
    data = json.loads(out)
    assert data["name"] == "Hazard (Hoyle, 1790)" and data["extends"] == "cotton"
    assert any(s["page"] == "237-240" for s in data["sources"])
    assert data["options"]["main"]["default"] == "thrown" and "called" in data["options"]["main"]["values"]
    assert data["fees"]["box"]["amount"] == "21/2" and data["bets"]["odds"]["backs"] == "stake"
    code, out, _ = run(capsys, "show", "craps")
    assert code == 0 and "come" in out and "plays a game of its own" in out and "Sources" in out


def test_a_mistyped_format_or_variable_gets_did_you_mean(capsys):
    with pytest.raises(SystemExit):
        main(["analyse", "cotton", "--format", "jsn"])
    err = capsys.readouterr().err
    assert "--format takes text, json, markdown, csv, not 'jsn' (did you mean 'json'?)" in err
    assert "no command" not in err
    assert main(["analyse", "cotton", "--by", "mian"]) == 2
    assert "did you mean 'main'?" in capsys.readouterr().err


def test_a_bet_not_offered_under_the_options_is_said_not_fatal(tmp_path, capsys):
    path = tmp_path / "side.yaml"
    path.write_text('name: side\nextends: craps\noptions:\n  side_on: {values: ["yes", "no"]}\n'
                    'bets:\n  field:\n    made: option.side_on == "yes"\n')
    code, out, _ = run(capsys, "analyse", str(path), "--option", "side_on=no", "--json")
    data = json.loads(out)
    assert code == 0 and data["never_made"] == ["field"] and "field" not in data["bets"]
    code, out, _ = run(capsys, "analyse", str(path), "--json")
    assert json.loads(out)["by_option"]["side_on"]["no"]["field"] is None


def test_a_tape_replays_the_same_without_a_seed(capsys):
    argv = ["run", "cotton", "--option", "main=called", "--policy", "uniform", "--dice", "3-4 2-2 5-5 1-1 6-6"]
    code, first, _ = run(capsys, *argv)
    assert code == 0 and all(run(capsys, *argv)[1] == first for _ in range(3))


def test_a_bet_that_backs_another_needs_it_in_analyse_as_in_run(capsys):
    code, _, err = run(capsys, "analyse", "craps", "--bet", "odds=10")
    assert code == 2 and "odds backs pass; give --bet pass=… first" in err
