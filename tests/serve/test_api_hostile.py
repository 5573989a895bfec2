"""The workbench's JSON API under hostile bodies (fuzz42): wrong types, numbers past any bound,
places outside the text, texts that are not rule files. Each answer is a 4xx with an "error" in
JSON, or a result; never a 500; and the server answers Cotton's check and analysis after them.
The campaign that chose these (621 requests, none a 500) is /work/notes/fuzz42/api_hostile.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.parse.files import builtin_dir  # noqa: E402
from hazard_dsl.serve.app import create_app  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")
NAMED = "a text's name is a plain file name ending in .yaml"


def _cottons_win() -> str:
    """The API's P(win) of the same text in this process: what the server is to answer (the
    point here is that it still answers, not the figure)."""
    import hazard_dsl

    return str(hazard_dsl.load_text(COTTON, name="c.yaml").analyse().win)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    with TestClient(create_app(folder), base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("route", ["/api/check", "/api/figures", "/api/analyse", "/api/show"])
@pytest.mark.parametrize("name", [0, "", [], {}, False, 1.5, "é.yaml", "../x.yaml"])
def test_a_texts_name_of_the_wrong_kind_is_refused_not_taken_as_none(client, route, name):
    # fuzz42 A1: a name of 0, "", [] or {} was taken as no name sent ("untitled.yaml"), and
    # the text checked and analysed under it, where True or 1.5 were refused
    got = client.post(route, json={"text": COTTON, "name": name}, headers=HEADER)
    assert (got.status_code, got.json()) == (400, {"error": NAMED})


def test_a_name_of_null_is_none_sent(client):
    got = client.post("/api/analyse", json={"text": COTTON, "name": None}, headers=HEADER)
    assert got.status_code == 200 and got.json()["file"] == "untitled.yaml"
    assert got.json()["win"] == _cottons_win()


@pytest.mark.parametrize("line, column", [(1, 10_000), (999_999, 1), (9_999_999, 9_999_999), (277, 1)])
@pytest.mark.parametrize("route", ["/api/hover", "/api/completion"])
def test_a_place_past_the_text_is_answered(client, route, line, column):
    got = client.post(route, json={"text": COTTON, "name": "c.yaml", "line": line, "column": column}, headers=HEADER)
    assert got.status_code == 200
    assert got.json() is None or isinstance(got.json(), dict)


@pytest.mark.parametrize("body", [
    b'{"text": "a: 1", "line": 1' + b"0" * 5000 + b', "column": 1}',  # past Python's digits for int()
    b'{"text": "a: 1", "line": 1e999, "column": 1}',
    b'{"text": "a: 1", "line": 1.0, "column": 1}',
    b'{"text": "a: 1", "line": 0, "column": 1}',
    b'{"text": "a: 1", "line": true, "column": 1}',
    b'{"text": "a: 1", "line": "1", "column": 1}',
    b'{"text": "a: 1", "line": 10000000, "column": 1}',
    b'{"text": 5, "line": 1, "column": 1}',
    b"{" * 100_000,
    b"\xff\xfe{}",
    b"[]",
])
def test_hostile_bodies_get_a_4xx_in_words(client, body):
    got = client.post("/api/hover", content=body, headers={**HEADER, "content-type": "application/json"})
    assert 400 <= got.status_code < 500 and isinstance(got.json().get("error"), str), got.text


@pytest.mark.parametrize("text", [
    "[" * 5000 + "]" * 5000,  # deeper than a rule file may nest
    "x: " + "9" * 100_000 + "\n",  # a number of 100,000 digits
    "\ud800 name: x\n",  # a lone surrogate, as JSON can carry one
    COTTON.replace("\n", "\u2028"),  # YAML 1.1's line separator for every line break
    "name: x\n# " + "y" * 900_000 + "\n",  # a comment near the size bound
])
@pytest.mark.parametrize("route", ["/api/check", "/api/figures", "/api/analyse"])
def test_texts_that_are_no_rule_file_are_answered(client, route, text):
    got = client.post(route, content=json.dumps({"text": text, "name": "t.yaml"}).encode(),
                      headers={**HEADER, "content-type": "application/json"})
    assert got.status_code in (200, 422), got.text
    assert isinstance(got.json(), dict)


def test_the_server_still_answers_after_them(client):
    checked = client.post("/api/check", json={"text": COTTON, "name": "c.yaml"}, headers=HEADER)
    assert checked.status_code == 200 and checked.json() == {"diagnostics": []}
    analysed = client.post("/api/analyse", json={"text": COTTON, "name": "c.yaml"}, headers=HEADER)
    assert analysed.json()["win"] == _cottons_win()


@pytest.mark.parametrize("variant, loose", [("cotton:main=called,x", "x"), ("cotton:main", "main"),
                                            ("cotton:x,main=called", "x")])
def test_a_compared_variant_with_an_option_that_is_no_name_value_is_refused(client, variant, loose):
    # fuzz42 A2: "cotton:main=called,x" was compared as "cotton:main=called", its `x` left out;
    # the command line refuses it ("--option takes NAME=VALUE, not 'x'")
    got = client.post("/api/compare", json={"variants": ["cotton", variant]}, headers=HEADER)
    assert (got.status_code, got.json()) == (
        400, {"error": f"variants: {variant!r}: an option is NAME=VALUE, not {loose!r}"})


def test_a_compared_variant_in_words_is_still_taken(client):
    got = client.post("/api/compare", json={"variants": ["cotton", "cotton:main=called,"]}, headers=HEADER)
    assert got.status_code == 200 and len(got.json()["rulesets"]) == 2


@pytest.mark.parametrize("digits", [4_301, 100_000])
def test_a_whole_number_of_too_many_digits_is_said_so_not_called_no_json(client, digits):
    # fuzz42 A3: Python reads at most 4,300 digits into an int (sys.get_int_max_str_digits),
    # and json.loads then says ValueError, which was answered "the body is not JSON"
    body = b'{"text": "a: 1", "line": -1' + b"0" * (digits - 1) + b', "column": 1}'
    got = client.post("/api/hover", content=body, headers={**HEADER, "content-type": "application/json"})
    assert (got.status_code, got.json()) == (400, {"error": "a number in the body has more than 4,300 digits; "
                                                            "no field takes one so long"})


def test_a_number_of_the_most_digits_is_read(client):
    body = b'{"text": "a: 1", "line": ' + b"9" * 4_300 + b', "column": 1}'
    got = client.post("/api/hover", content=body, headers={**HEADER, "content-type": "application/json"})
    assert (got.status_code, got.json()) == (400, {"error": "line and column: whole numbers from 1"})
