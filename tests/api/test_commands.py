"""The application layer (`hazard_dsl.commands`) under the command line (`hazard_dsl.cli`): the
work of each command as functions of plain arguments, its errors in the caller's terms, and
the direction of imports between the layers."""

from __future__ import annotations

import ast
from fractions import Fraction as F
from pathlib import Path

import pytest

import hazard_dsl
from hazard_dsl.records import fields
from hazard_dsl.cli import main
from hazard_dsl.cli.run import replay_command
from hazard_dsl.commands.analyse import analyse_request
from hazard_dsl.commands.errors import CommandError, SettingError
from hazard_dsl.commands.games import games_request
from hazard_dsl.commands.loading import load
from hazard_dsl.commands.requests import AnalyseRequest, RunRequest
from hazard_dsl.commands.sessions import play_log, table_settings

PACKAGE = Path(__file__).resolve().parents[2] / "hazard_dsl"
BELOW = ("parse", "compile", "check", "solve", "simulate", "play", "render")


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """What a module imports, in functions too: (absolute module, names) for each import."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts[:-1]  # the package a relative import starts from, for __init__ too
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.append((module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
    return out


def _modules(*folders: str):
    for folder in folders:
        yield from sorted((PACKAGE / folder).rglob("*.py"))


def _reaches(imported: tuple[str, list[str]], prefix: str) -> bool:
    module, names = imported
    return module == prefix or module.startswith(prefix + ".") or \
        any(f"{module}.{name}" == prefix for name in names)


@pytest.mark.parametrize("path", list(_modules(*BELOW)), ids=lambda p: str(p.relative_to(PACKAGE)))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_nothing_below_imports_the_command_line_or_the_application_layer(path):
    for layer in ("hazard_dsl.cli", "hazard_dsl.commands", "hazard_dsl.api"):
        assert not [i for i in _imports(path) if _reaches(i, layer)], layer


@pytest.mark.parametrize("path", list(_modules("commands")), ids=lambda p: p.name)
def test_the_application_layer_never_imports_the_command_line_or_the_api(path):
    assert not [i for i in _imports(path) if _reaches(i, "hazard_dsl.cli") or _reaches(i, "hazard_dsl.api")]


@pytest.mark.parametrize("path", list(_modules("commands", "cli")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_name_is_imported_from_another_module(path):
    private = [(module, name) for module, names in _imports(path) for name in names
               if name.startswith("_") and not name.startswith("__")]
    assert not private


@pytest.mark.parametrize("path", list(_modules("cli")), ids=lambda p: p.name)
def test_no_module_of_the_command_line_is_over_600_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 600


# --------------------------------------------------------------------------- errors


def test_a_bad_setting_is_a_value_error_that_names_it_and_the_command_line_flags_it(capsys):
    cotton = load("cotton")
    with pytest.raises(ValueError) as caught:
        table_settings(cotton, "cotton", players="Ann,Ben", rounds=0)
    assert isinstance(caught.value, SettingError) and caught.value.setting == "rounds"
    assert str(caught.value) == "rounds must be between 1 and 10,000"
    assert main(["run", "cotton", "--players", "Ann,Ben", "--rounds", "0"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: --rounds must be between 1 and 10,000\n"


def test_a_message_that_follows_its_setting_with_a_colon_reads_so_in_both_terms(capsys):
    with pytest.raises(SettingError) as caught:
        table_settings(load("cotton"), "cotton", players="Ann,Ann")
    assert (caught.value.setting, str(caught.value)) == ("players", "players: each player needs a name of his own")
    assert main(["run", "cotton", "--players", "Ann,Ann"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: --players: each player needs a name of his own\n"


def test_a_setting_of_two_words_is_its_flag_with_a_hyphen(capsys):
    with pytest.raises(SettingError) as caught:
        play_log("cotton", "session.jsonl", False, no_log=True)
    assert caught.value.setting == "no_log"
    assert main(["play", "cotton", "--players", "Ann,Ben", "--no-log", "--log", "session.jsonl"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: --no-log plays without a log; give no --log or --force " \
                                      "with it\n"


def test_an_unknown_ruleset_is_a_command_error_with_did_you_mean():
    with pytest.raises(CommandError, match=r"named 'cottn' \(did you mean 'cotton'\?\)"):
        load("cottn")


# --------------------------------------------------------------------------- the work, as data


def test_the_settings_of_a_session_are_plain_values_checked_and_exact():
    settings = table_settings(load("cotton"), "cotton", players=" Ann , Ben ", purse="12.50", stake="1/2",
                              strategy="cautious", rounds=3)
    assert settings == {"file": "cotton", "players": ["Ann", "Ben"], "purse": "25/2", "stake": "1/2",
                        "strategy": "cautious", "rounds": 3, "policy": "optimal"}


def test_analyse_fills_the_hand_and_the_ruin_as_the_api_computes_them():
    analysis = analyse_request(AnalyseRequest("cotton", hand=True, bankroll=F(10), goal=F(20), stake=F(1),
                                              by_option=False))
    cotton = hazard_dsl.load("cotton")
    api_hand = cotton.hand()  # hazard_dsl.Hand: the engine's record, with a notebook's displays
    assert all(getattr(analysis.hand, name) == getattr(api_hand, name) for name in fields(api_hand))
    assert analysis.ruin.reach_goal == cotton.ruin(10, 20, 1).reach_goal
    assert analysis.win == F(1979, 4032)  # hazard-rules.md F2 / games.porg.es (as tests/api/test_api.py)
    assert analysis.game_by_option == {} and analysis.by_option == {}


def test_analyse_refuses_half_of_a_bankroll_question():
    with pytest.raises(SettingError) as caught:
        analyse_request(AnalyseRequest("cotton", bankroll=F(10)))
    assert caught.value.setting == "bankroll"


def test_games_on_a_tape_play_as_far_as_its_throws_go():
    games = games_request(RunRequest("cotton", dice=((3, 4), (6, 6), (5, 2))))
    assert games.count is None and games.seed == 0
    thrown = [r.dice for r in games.records() if hasattr(r, "dice")]
    assert thrown[:3] == [(3, 4), (6, 6), (5, 2)]


def test_the_command_to_play_games_again_names_every_setting_quoted_for_a_shell():
    assert replay_command("my rules.yaml", 7, 2, ["main=called"], "uniform", ["pass=10"], "100") == \
        "hazard-dsl run 'my rules.yaml' --seed 7 --games 2 --option main=called --policy uniform --bet pass=10 " \
        "--bankroll 100"
    assert replay_command("cotton", 1) == "hazard-dsl run cotton --seed 1"
