"""Every POST route refuses a field it does not take, and a value it cannot use, with a 400
naming the field (and the nearest field it does take), rather than answering as though it
were not sent (the audit: "policy": "nonsense" answered 200 with the optimal policy). One
check does it for all of them (serve.api.fields_of, serve.requests.unknown_field), and for a
chart's settings and a compare's variants; a chart's goal refused against the bankroll it was
not sent says the default it used; a bets-only game's charts say the game's word for the
caster (Crown and Anchor's `words: caster: the banker`)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from hazard_dsl.serve.api import FIELDS
from hazard_dsl.serve.app import create_app

HEADER = {"X-Hazard-DSL": "1"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with TestClient(create_app(tmp_path_factory.mktemp("fields")), base_url="http://127.0.0.1") as c:
        yield c


def refused(client, path, body, method="post") -> str:
    got = getattr(client, method)(path, json=body, headers=HEADER)
    assert got.status_code == 400, got.text
    return got.json()["error"]


@pytest.mark.parametrize("body, said", [
    ({"ruleset": "cotton", "policy": "nonsense"},
     "/api/analyse has no field 'policy'; it takes ruleset, text, name, options"),
    ({"ruleset": "cotton", "settings": {"games": 3}},
     "/api/analyse has no field 'settings'; it takes ruleset, text, name, options"),
    ({"ruleset": "cotton", "optons": {"main": "called"}},
     "/api/analyse has no field 'optons' (did you mean 'options'?); it takes ruleset, text, name, options"),
    ({"ruleset": "cotton", "text": "name: x\n"},
     "ruleset or text: give one, a ruleset by its name or a rule file's text"),
    ({"ruleset": "cotton", "name": "mine.yaml"}, "name: the name of a text; a ruleset is named by ruleset"),
])
def test_analyse_refuses_what_it_would_ignore(client, body, said):
    assert refused(client, "/api/analyse", body) == said


def test_every_post_route_refuses_an_unknown_field_by_the_one_check(client):
    for path, known in FIELDS.items():
        if path == "/api/files":
            said = refused(client, "/api/files/new.yaml", {"text": "name: x\n", "bsae": None}, method="put")
            assert said == "/api/files has no field 'bsae' (did you mean 'base'?); it takes text, base"
            continue
        body = {"extra_field": 1}
        assert refused(client, path, body) == f"{path} has no field 'extra_field'; it takes {', '.join(known)}"


def test_a_compare_variant_with_an_unknown_field_is_refused(client):
    said = refused(client, "/api/compare", {"variants": [{"ruleset": "cotton", "option": {"main": "called"}}]})
    assert said == "variants: a variant has no field 'option' (did you mean 'options'?); it takes ruleset and options"


def test_too_many_options_are_said_to_be_too_many(client):
    options = {f"o{i}": "1" for i in range(100_000)}
    assert refused(client, "/api/analyse", {"ruleset": "cotton", "options": options}) == \
        "options: at most 64 of them, not 100,000"
    # an object is what options are; a list is not one
    assert refused(client, "/api/analyse", {"ruleset": "cotton", "options": ["main=called"]}) == \
        "options are an object of NAME: VALUE"


def test_a_goal_alone_is_refused_against_the_default_bankroll_said(client):
    # serve.charts.DEFAULTS: a bankroll of 10 where none is sent
    said = refused(client, "/api/charts", {"ruleset": "cotton", "settings": {"goal": 10}})
    assert said == "goal must be more than the bankroll, 10 when none is sent, not 10"
    # a bankroll sent is the one to correct, as before
    said = refused(client, "/api/charts", {"ruleset": "cotton", "settings": {"goal": 5, "bankroll": 7}})
    assert said == "bankroll must be less than the goal (5)"


def test_a_misspelt_setting_is_told_the_nearest(client):
    said = refused(client, "/api/charts", {"ruleset": "cotton", "settings": {"gaol": 30}})
    assert said == ("settings: 'gaol' (did you mean 'goal'?) is not one of games, stop_loss, stop_win, tail, "
                    "bankroll, goal")


def test_crown_and_anchors_charts_name_the_banker(client):
    got = client.post("/api/charts", json={"ruleset": "crown_and_anchor", "settings": {"games": 3}}, headers=HEADER)
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["session"]["error"] == "the banker has no stake to win or lose in this game: its figures are its bets'"
    assert body["best"]["error"] == "the banker has no stake to win or lose in this game, so no stake to choose"
    assert "caster" not in str(body)  # (Hazard's word, which the file replaces)
