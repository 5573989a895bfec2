"""Every route answers what a user can cause with a 4xx and a reason, never a 500: hypothesis
sends each POST and PUT route JSON bodies of every shape (its own keys with values of any type,
and keys it does not know), and the tables' routes actions of every shape. A 500 here is a bug."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.serve.app import create_app  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
# the keys each route reads (serve/api.py), so that the values, not only the keys, are tried
ROUTES = {
    "/api/analyse": ("ruleset", "text", "name", "options"),
    "/api/compare": ("variants",),
    "/api/check": ("text", "name"),
    "/api/hover": ("text", "name", "line", "column"),
    "/api/completion": ("text", "name", "line", "column"),
    "/api/figures": ("text", "name"),
    "/api/show": ("text", "name"),
    "/api/graph": ("ruleset", "text", "name", "options", "format"),
    "/api/tables": ("ruleset", "options", "players", "settings", "seed", "dice"),
}
ACTION_KEYS = ("action", "player", "amount", "bet", "value", "dice", "version", "key", "min", "max")
# a few values that mean something to a route, among values of every type
MEANINGFUL = st.sampled_from(["cotton", "hoyle", "x.yaml", "mine.yaml", "name: x\n", "bet", "stake", "throw",
                              "done", "side", "odds", "1", "5/2", "-1", "svg", "Ann", "ann", "a b", ""])
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12) | MEANINGFUL)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=8) | MEANINGFUL, inner, max_size=4), max_leaves=8)


def bodies(keys):
    return st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), VALUES, max_size=len(keys) + 1)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rules")
    (folder / "mine.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    (folder / "x.yaml").mkdir()
    app = create_app(folder, db=str(folder / "tables.db"), inline=True, time_limit=5)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        made = c.post("/api/tables", json={"ruleset": "hoyle", "players": ["Ann", "Ben", "Cat"]}, headers=HEADER).json()
        c.table = made
        yield c
    app.state.tables.store.close()


SWEEP = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("path", sorted(ROUTES))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_route_answers_any_body_without_a_500(client, path):
    @SWEEP
    @given(bodies(ROUTES[path]))
    def check(body):
        if path == "/api/tables":
            body.setdefault("ruleset", "cotton")  # the bounds of tables in play are not the point here
        r = client.post(path, json=body, headers=HEADER)
        assert r.status_code < 500 or r.status_code in (501, 503), (body, r.status_code, r.text)
        if r.status_code >= 400:
            assert r.json()["error"], r.text
        elif path == "/api/tables":
            tables = client.app.state.tables
            tables.live.pop(r.json()["id"], None)  # not counted against the next example's room

    check()


@SWEEP
@given(st.sampled_from(["Ann", "Ben", "Cat", None]), bodies(ACTION_KEYS), st.none() | st.text(max_size=70))
def test_an_action_of_any_shape_is_refused_with_a_reason_or_taken(client, seat, body, key):
    made = client.table
    token = made["seats"][seat]["token"] if seat else made["watch"]["token"]
    headers = {**HEADER, "Authorization": f"Bearer {token}"}
    if key is not None and key.isprintable() and key.isascii():
        headers["Idempotency-Key"] = key
    r = client.post(f"/api/tables/{made['id']}/actions", json=body, headers=headers)
    assert r.status_code < 500, (body, r.status_code, r.text)
    if r.status_code >= 400:
        assert r.json()["error"], r.text


@SWEEP
@given(st.sampled_from(["x.yaml", "mine.yaml", "new.yaml", "a b.yaml", "..yaml", "x", ".hidden.yaml"]),
       bodies(("text", "base")))
def test_a_save_of_any_shape_is_refused_with_a_reason_or_written(client, name, body):
    r = client.put(f"/api/files/{name}", json=body, headers=HEADER)
    assert r.status_code < 500, (name, body, r.status_code, r.text)
    if r.status_code >= 400:
        assert r.json()["error"], r.text


def test_a_websocket_message_of_any_shape_is_answered_with_a_reason(client):
    made = client.table
    odd = [[], "x", 1, {"id": [1]}, {"action": []}, {"action": None, "id": True}, {"id": {}, "action": {"x": 1}},
           {"id": "k" * 65, "action": {"action": "done"}}, {"id": "r", "action": {"action": "bet", "amount": [1]}},
           {"id": "v", "version": "3", "action": {"action": "done"}}, {"id": "w", "action": {"action": {"a": 1}}},
           {"id": "\u0000", "action": {"action": "done", "version": True}}]
    url = f"ws://127.0.0.1/api/tables/{made['id']}/ws?token={made['seats']['Ben']['token']}&after=999999"
    with client.websocket_connect(url) as ws:
        assert ws.receive_json()["type"] == "state"
        for message in odd:
            ws.send_json(message)
            reply = ws.receive_json()
            while reply["type"] != "reply":
                reply = ws.receive_json()
            assert 400 <= reply["status"] < 500 and reply["error"], (message, reply)
