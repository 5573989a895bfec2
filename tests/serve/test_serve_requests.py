"""The web API reads its JSON into the commands' requests (serve/requests.py, issue 36): the
same request the command line builds from its flags, options typed by the ruleset (a number
sent as 3 or "3" is the whole number 3, as --option field_12=3 makes it), every option checked
before the work, a table's tape read into throws; an error worded with the JSON's fields."""

from __future__ import annotations

import tempfile
from fractions import Fraction

import pytest

from hazard_dsl import cli
from hazard_dsl.cli import requests as flags
from hazard_dsl.cli.parser import build_parser
from hazard_dsl.commands.errors import CommandError
from hazard_dsl.commands.loading import load
from hazard_dsl.commands.requests import (
    AnalyseRequest,
    CompareRequest,
    GraphRequest,
    RulesetRequest,
    RulesRequest,
)
from hazard_dsl.errors import ArgumentError
from hazard_dsl.parse.files import builtin_dir
from hazard_dsl.serve import requests
from hazard_dsl.serve.wording import worded


def from_flags(*argv):
    args = build_parser(cli.HANDLERS, only=argv[0]).parse_args(list(argv))
    if args.command == "compare":
        return flags.compare_request(args, {text: load(text.partition(":")[0]) for text in args.rulesets})
    return getattr(flags, f"{args.command}_request")(args, load(args.ruleset))


def test_the_json_makes_the_request_the_flags_make():
    # craps' field_12 takes the whole numbers 2 and 3 (rulesets/craps.yaml); cotton's main a word
    made = requests.analyse_request("craps", {"field_12": "3"})
    assert made == AnalyseRequest("craps", {"field_12": 3})
    assert made == from_flags("analyse", "craps", "--option", "field_12=3")
    assert requests.rules_request("cotton", {"main": "called"}) == RulesRequest("cotton", {"main": "called"},
                                                                              format="html")
    assert requests.rules_request("cotton", {"main": "called"}) == \
        from_flags("rules", "cotton", "--option", "main=called", "--format", "html")
    assert requests.graph_request("craps", {}, "mermaid") == GraphRequest("craps", format="mermaid")
    assert requests.graph_request("craps", {}, "mermaid") == from_flags("graph", "craps", "--format", "mermaid")


def test_a_compare_is_each_variant_with_its_own_options_and_label():
    made = requests.compare_request([("cotton", {"main": "called"}), ("petty", {})], ["cotton:main=called", "petty"])
    assert made == CompareRequest((RulesetRequest("cotton", {"main": "called"}), RulesetRequest("petty")),
                                  labels=("cotton:main=called", "petty"))
    assert made == from_flags("compare", "cotton:main=called", "petty")


def test_a_text_is_read_as_its_name():
    text = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")
    made = requests.analyse_request("copy.yaml", {"main": "called"}, text)
    assert (made.ruleset, made.text, made.options) == ("copy.yaml", text, {"main": "called"})


def test_only_ascii_digits_are_a_number():
    # "٣" (Arabic-Indic three) is a digit to str.isdigit, not to the rule file: refused as a value
    with pytest.raises(CommandError) as info:
        requests.option_values(load("craps"), {"field_12": "٣"})
    assert str(info.value) == "option 'field_12' has no value '٣' (values: 2, 3)"


def test_every_variants_options_are_checked_before_any_work(monkeypatch):
    """The second variant's option is refused while the request is built, before the first is
    compiled (as compare did when it read the texts first)."""
    import hazard_dsl.cache

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled before every option was checked")

    monkeypatch.setattr(hazard_dsl.cache, "compile_ruleset", no_compiling)
    with pytest.raises(CommandError) as info:
        requests.compare_request([("cotton", {}), ("craps", {"field_12": "4"})], ["cotton", "craps:field_12=4"])
    assert str(info.value) == "option 'field_12' has no value 4 (values: 2, 3)"
    with pytest.raises(CommandError) as info:
        requests.compare_request([("cotton", {"mian": "called"})], ["cotton:mian=called"])
    assert str(info.value) == ("Hazard (Cotton, 1674) has no option 'mian' (did you mean 'main'?) (options: main, "
                               "passing, first_throw)")


def test_a_tables_tape_is_read_into_throws():
    assert requests.tape("3-4 6-6") == ((3, 4), (6, 6))
    assert requests.tape(None) is None
    with pytest.raises(ArgumentError) as info:
        requests.tape("")
    assert worded(info.value) == 'dice needs throws such as "3-4 6-6 1-2"'


@pytest.mark.parametrize("sent", [3, "3"])
def test_an_options_number_reaches_the_figures(sent):
    """/api/analyse with craps' field_12 sent as a number or as its digits: the field pays 3 to
    1 on twelve. Counted by hand over the 36 throws: wins on 3, 4, 9, 10, 11 (14 ways, even
    money), 2 (1 way, 2 to 1), 12 (1 way, 3 to 1); loses on 5 to 8 (20 ways): (14 + 2 + 3 -
    20)/36 = -1/36 a game, an edge of 1/36 (2 to 1 on twelve: 2/36 = 1/18)."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(folder), base_url="http://127.0.0.1") as client:
        got = client.post("/api/analyse", json={"ruleset": "craps", "options": {"field_12": sent}},
                          headers={"X-Hazard-DSL": "1"})
    assert got.status_code == 200
    assert got.json()["options"]["field_12"] == 3
    assert Fraction(got.json()["bets"]["field"]["edge"]) == Fraction(1, 36)
