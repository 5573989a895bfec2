"""The command line as a user meets it: help, version, list, analyse, compare, and clean errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from hazard_dsl import __version__
from hazard_dsl.cli import main
from tests.conftest import RULESETS, SHIPPED

FRACTION = re.compile(r"^-?\d+(/\d+)?$")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, unneeded", [
    (["check", str(RULESETS / "cotton.yaml")], ("rich", "numpy", "json", "locale")),
    (["analyse", "cotton"], ("numpy", "json", "locale")),  # its tables are rich's
    (["analyse", "cotton", "--json"], ("rich", "numpy", "locale")),
])
def test_a_short_command_imports_only_what_it_uses(argv, unneeded, tmp_path):
    # start-up is most of a short command's time (issue 27): the table library where nothing is
    # laid out in tables, NumPy, the JSON encoder for text, and the locale argparse would look up
    # translations with, are not imported
    code = (f"import sys; from hazard_dsl.cli import main; code = main({argv!r}); "
            f"print(code, [m for m in {unneeded!r} if m in sys.modules], file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path)})
    assert result.stderr.splitlines()[-1] == "0 []", result.stderr


@pytest.mark.parametrize("argv, said", [
    (["check", "--formt", "json", "x.yaml"], "hazard-dsl check: error: unrecognized argument: --formt (did you mean "
                                              "'--format'?)"),
    (["analyse", "cotton", "--polcy=optimal", "--jsno"], "hazard-dsl analyse: error: unrecognized arguments: "
     "--polcy=optimal (did you mean '--policy'?), --jsno (did you mean '--json'?)"),
    (["simulate", "cotton", "--sed", "3"], "hazard-dsl simulate: error: unrecognized arguments: --sed (did you mean "
                                           "'--seed'?), 3"),
    (["list", "--quiet-ish"], "hazard-dsl list: error: unrecognized argument: --quiet-ish"),
    (["--json", "list"], "hazard-dsl list: error: unrecognized argument: --json (it goes after the command: "
                         "hazard-dsl list --json …)"),
])
def test_a_mistyped_flag_hears_did_you_mean_under_its_commands_usage(argv, said, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.splitlines()[-1] == said, err
    command = next(word for word in argv if not word.startswith("-"))
    assert err.startswith(f"usage: hazard-dsl {command} ")


def test_a_mistyped_flag_of_hazard_dsl_itself_hears_did_you_mean(capsys):
    with pytest.raises(SystemExit):
        main(["--verison"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "hazard-dsl: error: unrecognized argument: --verison (did you mean '--version'?); no command given "
        "(hazard-dsl --help lists them)")
    with pytest.raises(SystemExit):
        main([])
    assert capsys.readouterr().err.splitlines()[-1] == "hazard-dsl: error: the following arguments are required: COMMAND"


@pytest.mark.parametrize("command", [[], ["check"], ["list"], ["run"], ["analyse"], ["compare"], ["play"], ["replay"],
                                     ["lsp"]])
def test_help_on_every_command(command):
    result = subprocess.run([sys.executable, "-m", "hazard_dsl", *command, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "usage: hazard-dsl" in result.stdout


def test_every_help_fits_80_columns(monkeypatch, capsys):
    """A newcomer's first read, at an 80-column terminal: no line of any command's help is wider
    (argparse cannot break a metavar, so a long one would run over)."""
    from hazard_dsl.cli import HANDLERS

    monkeypatch.setenv("COLUMNS", "80")
    for command in [[], *([name] for name in HANDLERS)]:
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        wide = [line for line in capsys.readouterr().out.splitlines() if len(line) > 80]
        assert not wide, (command, wide)


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and __version__ in capsys.readouterr().out


def test_list_names_every_builtin(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in SHIPPED]
    assert names == SHIPPED
    assert "Hazard (Cotton, 1674)" in out
    code, out, _ = run(capsys, "list", "--json")
    assert [e["name"] for e in json.loads(out)] == SHIPPED


def test_check_all_shipped(capsys):
    code, out, err = run(capsys, "check", *[str(RULESETS / f"{n}.yaml") for n in SHIPPED])
    assert code == 0 and err == "" and out.count(": ok") == len(SHIPPED)


def test_analyse_json_contract(capsys):
    code, out, _ = run(capsys, "analyse", "cotton", "--by", "main", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("ruleset", "file", "options", "policy", "win", "lose", "push", "edge", "expected_throws", "labels"):
        assert key in data
    assert data["win"] == "1979/4032" and data["push"] == "0" and data["policy"] == "optimal"
    assert data["options"] == {"main": "thrown", "passing": "after_loss", "first_throw": "rethrow"}
    assert set(data["labels"]) == {"nick", "out", "chance_win", "chance_loss"}
    assert data["by"]["var"] == "main" and set(data["by"]["values"]) == {"5", "6", "7", "8", "9"}
    seven = data["by"]["values"]["7"]
    assert seven["probability"] == "1/4" and seven["win"] == "244/495"
    assert set(seven) >= {"probability", "win", "lose", "labels", "expected_throws"}

    def fractions(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k not in ("ruleset", "file", "options", "policy", "label_results", "var", "best", "throws"):
                    yield from fractions(v)
        elif isinstance(node, str):
            yield node

    for text in fractions(data):
        assert FRACTION.match(text), text
        assert str(Fraction(text)) == text  # lowest terms


def test_analyse_choices_in_json(capsys):
    code, out, _ = run(capsys, "analyse", "chicken", "--format", "json")
    data = json.loads(out)
    assert data["choices"]["main"]["best"] == "7"
    assert data["choices"]["main"]["7"] == {"win": "244/495", "edge": "7/495"}


def test_analyse_by_main_prints_the_s2_table(capsys):
    code, out, _ = run(capsys, "analyse", "cotton", "--by", "main")
    assert code == 0
    rows = {m.group(1): line for line in out.splitlines() if (m := re.match(r"\s*([5-9]|all)\s", line))}
    assert all(cell in rows["5"] for cell in ("1.85", "2.78", "6.36", "5.68", "49.24"))
    assert all(cell in rows["6"] for cell in ("3.47", "2.89", "6.70", "7.77", "48.83", "7295:6961"))
    assert all(cell in rows["7"] for cell in ("5.56", "2.78", "6.77", "9.90", "49.29"))
    assert all(cell in rows["all"] for cell in ("16.20", "14.12", "32.88", "36.80", "49.08"))


@pytest.mark.parametrize("fmt, marker", [("markdown", "| main |"), ("csv", "table,")])
def test_analyse_other_formats(capsys, fmt, marker):
    code, out, _ = run(capsys, "analyse", "cotton", "--by", "main", "--format", fmt)
    assert code == 0 and marker in out and "1979/4032" in out


def test_compare_side_by_side_and_differences(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # the content, on a wide terminal (test_output checks the fit)
    code, out, _ = run(capsys, "compare", "cotton", "hoyle", "chicken", "french", "petty", "craps")
    assert code == 0
    assert "5629/11088" in out and "244/495" in out and "1979/4032" in out
    assert "How petty differs from cotton" in out
    petty = out[out.index("How petty differs"):]
    assert re.search(r"chance_throw\s+11\s+main = 7\s+win nick\s+throw again", petty)


def test_compare_options_syntax_and_json(capsys):
    code, out, _ = run(capsys, "compare", "cotton", "cotton:main=called", "--json")
    data = json.loads(out)
    assert [d["options"]["main"] for d in data["rulesets"]] == ["thrown", "called"]
    assert data["rulesets"][1]["win"] == "244/495"
    (diff,) = data["differences"]
    assert (diff["base"], diff["other"]) == ("cotton", "cotton:main=called")
    assert diff["rows"][0]["phase"] == "start" and "chooses main" in diff["rows"][0]["other"]


@pytest.mark.parametrize("argv, words", [
    (["run", "nosuchgame"], "no ruleset file or built-in ruleset named 'nosuchgame'"),
    (["run", "cotton", "--option", "main=shouted"], "has no value 'shouted'"),
    (["run", "cotton", "--option", "colour=red"], "has no option 'colour'"),
    (["run", "cotton", "--option", "main"], "NAME=VALUE"),
    (["run", "cotton", "--dice", "3-4 7-1"], "throw 2 is '7-1'"),
    (["run", "chicken", "--policy", "4"], "can choose for main: 5, 6, 7, 8, 9"),
    (["analyse", "cotton", "--by", "colour"], "no variable 'colour'"),
    (["run", "cotton", "--games", "0"], "--games"),
])
def test_bad_arguments_are_clean_errors(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code in (1, 2) and words in err and "Traceback" not in err


def test_tape_runs_out_with_a_message(capsys):
    code, out, err = run(capsys, "run", "cotton", "--dice", "3-4 2-2")
    assert code == 0 and "tape ran out in game 1 after 2 throws" in err


def test_run_is_reproducible(capsys):
    first = run(capsys, "run", "cotton", "--seed", "11", "--games", "5")
    second = run(capsys, "run", "cotton", "--seed", "11", "--games", "5")
    assert first == second and "Game 5" in first[1]


@pytest.mark.parametrize("argv", [
    ["run", "cotton", "--option", "first_throw=bogus"],
    ["run", "cotton", "--policy", "banana"],
    ["analyse", "craps", "--policy", "7"],
])
def test_usage_errors_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.startswith("hazard-dsl: error:")


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full")
def test_help_to_a_full_disk_is_an_error():
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "hazard_dsl", "--help"], stdout=full, stderr=subprocess.PIPE,
                                text=True)
    assert result.returncode == 1 and "cannot write the output" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_command_line_builds_only_its_command_and_parses_as_if_all_were_built(capsys):
    """`main` gives only the command it runs its arguments (cli.parser._OnlyOne): its help, its
    parse and the list of commands are those of the parser of every command."""
    import pytest as _pytest

    from hazard_dsl.cli import HANDLERS
    from hazard_dsl.cli.parser import build_parser

    every = build_parser(HANDLERS)
    for name in [*HANDLERS, "analyze"]:
        for argv in ([name, "--help"], ["--help"]):
            said = []
            for parser in (every, build_parser(HANDLERS, only=name)):
                with _pytest.raises(SystemExit):
                    parser.parse_args(argv)
                said.append(capsys.readouterr().out)
            assert said[0] == said[1], argv
    argv = ["analyse", "cotton", "--option", "main=called", "--json", "--bet", "main=1"]
    assert vars(every.parse_args(argv)) == vars(build_parser(HANDLERS, only="analyse").parse_args(argv))
    for parser in (every, build_parser(HANDLERS, only="anlyse")):
        with _pytest.raises(SystemExit):
            parser.parse_args(["anlyse", "cotton"])
    said = capsys.readouterr().err
    assert said.count("did you mean 'analyse'") == 2, said
