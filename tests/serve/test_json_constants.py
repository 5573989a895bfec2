"""A body with NaN, Infinity or -Infinity, which Python's json reads though JSON has none of
them, is refused with a 400 naming the field that holds it (audit 10 finding 15: `{"options":
{"ten": NaN}}` was read as the option value 'nan', and refused as 'option ten has no value
nan'). The one reader of request bodies (serve.bodies.json_object) does it for every route."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient

from hazard_dsl.serve.app import create_app

HEADER = {"X-Hazard-DSL": "1", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("constants")
    app = create_app(str(folder), db=str(folder / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


@pytest.mark.parametrize("path, body, said", [
    ("/api/analyse", b'{"ruleset": "passage", "options": {"ten": NaN}}',
     "options.ten: NaN is not JSON (JSON has no NaN or Infinity)"),
    ("/api/analyse", b'{"ruleset": "passage", "options": {"ten": -Infinity}}',
     "options.ten: -Infinity is not JSON (JSON has no NaN or Infinity)"),
    ("/api/compare", b'{"variants": [{"ruleset": "cotton"}, {"ruleset": "cotton", "options": {"main": Infinity}}]}',
     "variants.1.options.main: Infinity is not JSON (JSON has no NaN or Infinity)"),
    ("/api/tables", b'{"ruleset": "cotton", "players": ["Ann", "Ben"], "settings": {"purse": NaN}}',
     "settings.purse: NaN is not JSON (JSON has no NaN or Infinity)"),
])
def test_a_constant_json_has_not_is_refused_naming_its_field(client, path, body, said):
    got = client.post(path, content=body, headers=HEADER)
    assert got.status_code == 400, got.text
    assert got.json() == {"error": said}


def test_the_word_nan_as_text_is_still_an_option_value_refused_as_such(client):
    # "NaN" in quotes is JSON: a text, judged as any option's value
    got = client.post("/api/analyse", content=b'{"ruleset": "passage", "options": {"ten": "NaN"}}', headers=HEADER)
    assert got.status_code == 400
    assert got.json()["error"].startswith("option 'ten' has no value 'NaN'")
