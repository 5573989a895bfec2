"""The web API words an argument's error with the JSON field it was sent in (serve.wording),
from the error's parts — the same error the command line words with flags and the Python API
with keywords; no message is rewritten."""

from __future__ import annotations

import pytest

from hazard_dsl.errors import Arg, ArgumentError
from hazard_dsl.serve.wording import JSON, JsonWording, worded


@pytest.mark.parametrize("arg, said", [
    (Arg("bets", "pass", "x"), "bets.pass"),
    (Arg("bets", "odds", 2, seat="Ben"), "bets.Ben.odds"),
    (Arg("policy", value="foo"), "policy"),
    (Arg("stake"), "stake"),
])
def test_an_argument_is_its_field(arg, said):
    assert JSON.arg(arg) == said


def test_a_field_within_an_object_and_other_errors_as_they_say_themselves():
    settings = JsonWording({"stake": "settings"})
    error = ArgumentError(Arg("stake"), "must be more than 0")
    assert worded(error, settings) == "settings.stake must be more than 0"
    assert str(error) == "stake must be more than 0"  # the Python API's words, unchanged
    assert worded(ArgumentError(Arg("bets", "pas"), "no such bet", nearest="pass")) == (
        "bets.pas: no such bet; did you mean 'pass'?")
    assert worded(ValueError("plain words")) == "plain words"


def test_a_new_table_names_its_settings_by_their_fields(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    app = create_app(".", db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for settings, error in [
                ({"policy": "foo"},
                 "settings.policy: Hazard (Cotton, 1674) has no choices to make (use optimal or uniform)"),
                ({"stake": "-3"}, "settings.purse and settings.stake must be more than 0"),
                ({"rounds": 0}, "settings.rounds must be between 1 and 10,000")]:
            r = client.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"],
                                                 "settings": settings}, headers={"X-Hazard-DSL": "1"})
            assert (r.status_code, r.json()) == (400, {"error": error})
    app.state.tables.store.close()


@pytest.mark.parametrize("field", ["purse", "stake"])
def test_money_that_is_not_money_names_the_field_not_the_flag(field):
    # before issue 36's fix, sessions raised CommandError("--purse: ...") and the web said --purse
    import hazard_dsl
    from hazard_dsl.cli.wording import FLAGS
    from hazard_dsl.commands.sessions import table_settings

    ruleset = hazard_dsl.load("craps").ruleset if hasattr(hazard_dsl.load("craps"), "ruleset") else None
    with pytest.raises(ArgumentError) as caught:
        table_settings(ruleset, "craps", players="Ann", **{field: "lots"})
    assert worded(caught.value).startswith(f"{field}: ")
    assert caught.value.said(FLAGS).startswith(f"--{field}: ")
