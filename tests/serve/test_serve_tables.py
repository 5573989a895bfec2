"""The shared tables' API, called in-process (Starlette's TestClient): a whole Cotton session
played by posting the first legal action each time, its log replayed by `hazard-dsl replay`, a
seat that is not asked refused (403) and an action the table does not allow refused with its
reason (409), the WebSocket's events in order and resumed after a reconnect, the database's lock
between two processes, the bounds, and a restarted app with every table where it stood.
The pages in a real browser: tests/serve/test_serve_tables_browser.py."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from fractions import Fraction

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from hazard_dsl.serve import tables as tables_module  # noqa: E402
from hazard_dsl.serve.app import create_app  # noqa: E402
from hazard_dsl.serve.store import Store, StoreLocked  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
# Cotton: Ann's seven, nicked by eleven; then a seven set and lost on a five; Ben's seven nicked; a tape
# that runs out ends the session
TAPE = "3-4 5-6 2-2 6-1 4-4 6-6 5-5 3-3 1-2 2-5 6-1 3-4 4-3"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_app(db, **kw):
    return create_app(".", db=str(db), **kw)


def open_table(client, players=("Ann", "Ben"), **more) -> tuple[str, dict, str]:
    body = {"ruleset": "cotton", "players": list(players), "dice": TAPE}
    body.update(more)
    r = client.post("/api/tables", json=body, headers=HEADER)
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["seats"][players[0]]["url"] == f"/tables/{made['id']}#token={made['seats'][players[0]]['token']}"
    return made["id"], {name: seat["token"] for name, seat in made["seats"].items()}, made["watch"]["token"]


def standing(client, table_id, token) -> dict:
    r = client.get(f"/api/tables/{table_id}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def play_first_actions(client, table_id, tokens, limit=500, stop=None) -> int:
    """Post, as the seat the table waits for, the first action it lists, until the end (or
    `stop(state)`); returns the actions posted."""
    posted = 0
    while posted < limit:
        state = standing(client, table_id, next(iter(tokens.values())))
        if state["finished"] or (stop is not None and stop(state)):
            return posted
        who = state["waiting"]["who"]
        action = standing(client, table_id, tokens[who])["waiting"]["actions"][0]
        r = client.post(f"/api/tables/{table_id}/actions", json=action, headers={**HEADER, **auth(tokens[who])})
        assert r.status_code == 200, (action, r.text)
        posted += 1
    raise AssertionError("the session did not end")


@pytest.fixture()
def client(tmp_path):
    app = new_app(tmp_path / "tables.db")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c
    app.state.tables.store.close()


def test_a_whole_session_by_the_first_legal_action_and_its_log_replays(client, tmp_path):
    table_id, tokens, watch = open_table(client)
    first = standing(client, table_id, tokens["Ann"])
    assert first["waiting"]["who"] == "Ann" and first["waiting"]["actions"][0] == {"action": "done"}
    # Ben may bet before Ann throws, backing the side bet or laying it: each a complete action,
    # with its default and bounds, and its edge
    side = {"action": "bet", "player": "Ben", "bet": "side", "amount": "1", "min": "0", "max": "20", "pays": "1 to 1",
            "against": "Ann", "edge": "37/2016", "edge_percent": "1.835%",
            "words": "a side bet on the caster", "against_words": "Ann",  # the bet as players call it
            "told": {"amount": "1s", "min": "0s", "max": "£1"}}  # the box's default and bounds in coin
    assert standing(client, table_id, tokens["Ben"])["waiting"]["actions"] == [dict(side, side="backer"),
                                                                                dict(side, side="layer")]
    assert standing(client, table_id, watch)["waiting"]["actions"] == []
    posted = play_first_actions(client, table_id, tokens)
    end = standing(client, table_id, watch)
    assert end["finished"] and end["waiting"] is None
    assert end["purses"] == {"Ann": "19", "Ben": "21"}
    assert end["events"][-1]["event"]["event"] == "end" and end["events"][-1]["event"]["why"] == "the dice tape ran out"
    assert [t["n"] for t in end["events"]] == list(range(1, len(end["events"]) + 1))
    # the throws with their words and, where the game goes on, the caster's exact chance
    seven = end["events"][3]
    assert seven["event"]["dice"] == [3, 4] and "Seven is the main" in seven["text"]
    assert seven["chance"] == {"win": "244/495", "text": "From here Ann wins 244 times in 495 (49.29%)."}
    log = client.get(f"/api/tables/{table_id}/log", headers=auth(tokens["Ben"]))
    assert log.status_code == 200 and log.headers["content-type"].startswith("application/x-ndjson")
    entries = [json.loads(line) for line in log.text.splitlines()]
    assert sum("action" in e for e in entries) == posted
    assert entries[0]["event"] == "session" and entries[0]["players"] == ["Ann", "Ben"]
    path = tmp_path / "table.jsonl"
    path.write_text(log.text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "replay", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Ann  19s" in done.stdout and "Ben  £1 1s" in done.stdout  # 19 and 21 shillings, in Cotton's coin


def test_a_seat_acts_for_itself_alone_and_an_illegal_action_is_refused_with_its_reason(client):
    table_id, tokens, watch = open_table(client)
    post = lambda token, action: client.post(f"/api/tables/{table_id}/actions", json=action,  # noqa: E731
                                             headers={**HEADER, **auth(token)})
    r = post(tokens["Ben"], {"action": "done"})  # the caster's word, not Ben's
    assert r.status_code == 403 and "the caster (Ann)" in r.json()["error"]
    r = post(tokens["Ben"], {"action": "bet", "player": "Ann", "bet": "side", "amount": 2})
    assert r.status_code == 403 and "Ben's seat" in r.json()["error"]
    r = post(watch, {"action": "done"})
    assert r.status_code == 403 and "acts for nobody" in r.json()["error"]
    r = post("not-a-token-of-this-table", {"action": "done"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "done"}, headers=auth(tokens["Ann"]))
    assert r.status_code == 403 and "X-Hazard-DSL" in r.json()["error"]  # no header: a cross-site form
    r = post(tokens["Ann"], {"action": "throw"})
    assert r.status_code == 409 and "the action is 'bet' or 'done', not 'throw'" in r.json()["error"]
    r = post(tokens["Ben"], {"action": "bet", "bet": "side", "amount": "21"})
    assert r.status_code == 409 and "at most £1" in r.json()["error"]  # 20 shillings, told in coin
    assert post(tokens["Ann"], {"action": "done"}).status_code == 200
    r = post(tokens["Ann"], {"action": "throw", "dice": [6, 6]})  # nobody chooses the table's dice
    assert r.status_code == 409 and "the table's own" in r.json()["error"]
    r = post(tokens["Ann"], {"action": "throw"})
    assert r.status_code == 200 and r.json()["events"][0]["event"]["dice"] == [3, 4]
    state = standing(client, table_id, tokens["Ben"])
    assert state["waiting"]["who"] == "Ben" and state["waiting"]["ask"] == "stake"
    r = post(tokens["Ann"], {"action": "stake", "amount": 1})
    assert r.status_code == 403 and "waits for Ben to stake" in r.json()["error"]
    r = post(tokens["Ben"], {"action": "stake", "amount": "lots"})
    assert r.status_code == 409 and "not an amount" in r.json()["error"]
    assert client.get(f"/api/tables/{table_id}", headers=auth("x" * 30)).status_code == 403
    assert client.get("/api/tables/nosuchtable", headers=auth(watch)).status_code == 404


def test_the_websocket_pushes_every_event_in_order_and_resumes_after_a_reconnect(client):
    table_id, tokens, watch = open_table(client)
    url = f"ws://127.0.0.1/api/tables/{table_id}/ws?token="
    with client.websocket_connect(url + watch) as onlooker, client.websocket_connect(url + tokens["Ann"]) as ann:
        opening = [onlooker.receive_json() for _ in range(4)]
        assert [m.get("n") for m in opening] == [1, 2, 3, None] and opening[3]["type"] == "state"
        [ann.receive_json() for _ in range(4)]
        ann.send_json({"id": 7, "action": {"action": "done"}})
        assert ann.receive_json()["type"] == "state"  # no event: the throw is asked now
        assert ann.receive_json() == {"type": "reply", "id": 7, "status": 200, "events": [], "version": 4}
        ann.send_json({"id": 8, "action": {"action": "throw"}})
        told = ann.receive_json()
        assert told["type"] == "event" and told["n"] == 4 and told["event"]["dice"] == [3, 4]
        assert ann.receive_json()["waiting"]["who"] == "Ben"
        assert ann.receive_json()["events"] == [4]
        assert onlooker.receive_json()["type"] == "state" and onlooker.receive_json()["n"] == 4
        assert onlooker.receive_json()["waiting"]["actions"] == []  # an onlooker's: nothing to do
        onlooker.send_json({"id": 1, "action": {"action": "stake", "amount": 1}})
        assert onlooker.receive_json()["status"] == 403
    # a page that saw up to event 2 reconnects: 3 and 4 again, in order, then where the table stands
    with client.websocket_connect(url + tokens["Ben"] + "&after=2") as ben:
        assert [ben.receive_json()["n"] for _ in range(2)] == [3, 4]
        state = ben.receive_json()
        assert state["type"] == "state" and state["last"] == 4 and state["waiting"]["actions"][0]["action"] == "stake"
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(url + "wrong-token-here") as ws:
            ws.receive_json()
    assert refused.value.code == 4403
    # a page of another site, even with a good token (one it stole), is not let in
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(url + watch, headers={"Origin": "http://elsewhere.example"}) as ws:
            ws.receive_json()
    assert refused.value.code == 4403


def test_a_restarted_app_has_every_table_where_it_stood(tmp_path):
    db = tmp_path / "tables.db"
    app = new_app(db)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, watch = open_table(c)
        posted = play_first_actions(c, table_id, tokens, stop=lambda s: len(s["events"]) >= 12)
        before = standing(c, table_id, tokens["Ann"])
    app.state.tables.store.close()
    again = new_app(db)
    with TestClient(again, base_url="http://127.0.0.1") as c:
        after = standing(c, table_id, tokens["Ann"])
        assert after == before and posted > 5
        play_first_actions(c, table_id, tokens)
        assert standing(c, table_id, watch)["purses"] == {"Ann": "19", "Ben": "21"}
    again.state.tables.store.close()


def test_two_servers_on_one_database_the_second_is_refused(tmp_path):
    db = tmp_path / "tables.db"
    store = Store(str(db))
    try:
        other = subprocess.run([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--db", str(db)],
                               capture_output=True, text=True, timeout=60)
        assert other.returncode != 0
        assert "another hazard-dsl serve is using this tables' database" in other.stderr
        with pytest.raises(StoreLocked):
            Store(str(db))  # another Store, even in this process
    finally:
        store.close()
    Store(str(db)).close()  # free once the holder closed it


def test_bounds_on_tables_seats_and_messages(tmp_path, monkeypatch):
    app = new_app(tmp_path / "tables.db", max_tables=2)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, _ = open_table(c)
        many = [f"P{i}" for i in range(tables_module.MAX_SEATS + 1)]
        r = c.post("/api/tables", json={"ruleset": "cotton", "players": many}, headers=HEADER)
        assert r.status_code == 400 and f"at most {tables_module.MAX_SEATS} seats" in r.json()["error"]
        for body, words in [({"ruleset": "nosuch", "players": ["A", "B"]}, "no built-in ruleset"),
                            ({"ruleset": "cotton", "players": ["Ann", "Ann"]}, "a name of his own"),
                            ({"ruleset": "cotton", "players": ["A,B", "C"]}, "without commas"),
                            ({"ruleset": "cotton", "players": ["A", "B"], "seed": 1, "dice": "1-1"}, "not both"),
                            ({"ruleset": "cotton", "players": ["A", "B"], "dice": "9-9"}, ""),
                            ({"ruleset": "cotton", "players": ["A", "B"], "settings": {"purse": "-3"}}, "more than 0"),
                            ({"ruleset": "cotton", "players": ["A", "B"], "settings": {"bets": ["odds"]}}, "side")]:
            r = c.post("/api/tables", json=body, headers=HEADER)
            assert r.status_code in (400, 404) and words in r.json()["error"], (body, r.text)
        open_table(c)
        r = c.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"]}, headers=HEADER)
        assert r.status_code == 429 and "2 tables in play" in r.json()["error"]
        # a message too large, and too many too fast: the connection is closed saying why
        url = f"ws://127.0.0.1/api/tables/{table_id}/ws?token={tokens['Ann']}"
        with c.websocket_connect(url) as ws:
            [ws.receive_json() for _ in range(4)]
            ws.send_text("x" * (tables_module.MAX_MESSAGE + 1))
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
        monkeypatch.setattr(tables_module, "BURST", 3)
        with c.websocket_connect(url) as ws:
            [ws.receive_json() for _ in range(4)]
            for _ in range(5):
                ws.send_json({"id": 1, "action": {"action": "stake"}})
            replies = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    replies.append(ws.receive_json())
            assert closed.value.code == 1008 and "too many messages" in closed.value.reason
            assert [m["status"] for m in replies] == [409, 409, 409]
    app.state.tables.store.close()


def test_an_idle_table_is_closed_and_its_log_kept(tmp_path):
    app = new_app(tmp_path / "tables.db", idle=0.0)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, _ = open_table(c)
        r = c.get(f"/api/tables/{table_id}", headers=auth(tokens["Ann"]))
        assert r.status_code == 410 and "its log is kept" in r.json()["error"]
        log = c.get(f"/api/tables/{table_id}/log", headers=auth(tokens["Ann"]))
        assert log.status_code == 200 and json.loads(log.text.splitlines()[0])["event"] == "session"
    app.state.tables.store.close()


def test_the_seed_is_kept_from_the_log_while_the_session_is_in_play(client):
    r = client.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"], "seed": 42}, headers=HEADER)
    made = r.json()
    token = made["seats"]["Ann"]["token"]
    header = json.loads(client.get(f"/api/tables/{made['id']}/log", headers=auth(token)).text.splitlines()[0])
    assert header["event"] == "session" and header["seed"] is None  # whoever knew it would know the dice to come
    opening = standing(client, made["id"], token)["events"][0]["event"]
    assert "seed" not in opening and opening["players"] == ["Ann", "Ben"]


def test_an_action_is_a_small_message(client):
    table_id, tokens, _ = open_table(client)
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "done", "note": "x" * 5000},
                    headers={**HEADER, **auth(tokens["Ann"])})
    assert r.status_code == 413 and "4,096 bytes" in r.json()["error"]


@pytest.mark.parametrize("name", ["chicken", "craps", "french", "fullams", "history_sheet", "hoyle", "petty"])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_built_in_variant_seats_three_and_its_log_replays(client, tmp_path, name):
    from hazard_dsl.commands.sessions import replay
    from hazard_dsl.play.log import open_log

    r = client.post("/api/tables", json={"ruleset": name, "players": ["Ann", "Ben", "Cat"], "seed": 5}, headers=HEADER)
    assert r.status_code == 201, r.text
    made = r.json()
    tokens = {n: s["token"] for n, s in made["seats"].items()}
    posted = play_first_actions(client, made["id"], tokens, stop=lambda s: len(s["events"]) >= 60)
    assert posted > 5
    path = tmp_path / f"{name}.jsonl"
    path.write_text(client.get(f"/api/tables/{made['id']}/log", headers=auth(tokens["Cat"])).text, encoding="utf-8")
    with open_log(str(path)) as log:
        again, events = replay(log, None)
        told = [event for _, event in events]
    assert told == [t["event"] for t in standing(client, made["id"], tokens["Ann"])["events"]][:len(told)]
    assert len(told) >= 60 or told[-1]["event"] == "end"  # a round of the table ended it sooner


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_server_killed_while_actions_pour_in_keeps_every_one_it_answered(tmp_path):
    """SIGKILL at a moment nobody chose, while a player posts as fast as the server answers: every
    action answered is in the database afterwards, the table rebuilt from it goes on, and its
    events (random dice from a seed) are those of a session never interrupted."""
    import signal
    import threading
    import urllib.error
    import urllib.request

    db = tmp_path / "tables.db"

    def serve(port=0):
        errors = open(tmp_path / "stderr.txt", "a", encoding="utf-8")
        process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", str(port), "--db", str(db)],
                                   stdout=subprocess.PIPE, stderr=errors, text=True)
        line = process.stdout.readline()
        assert " at http://" in line, line
        return process, line.split(" at ")[1].split()[0].rstrip("/")

    def call(address, path, body=None, token=None):
        headers = {"Content-Type": "application/json", "X-Hazard-DSL": "1"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(address + path, None if body is None else json.dumps(body).encode(), headers,
                                         method="GET" if body is None else "POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode()
        return text if path.endswith("/log") else json.loads(text)

    body = {"ruleset": "cotton", "players": ["Ann", "Ben"], "seed": 9, "settings": {"purse": 100000, "rounds": 1000}}
    process, address = serve()
    made = call(address, "/api/tables", body)
    tokens = {n: s["token"] for n, s in made["seats"].items()}
    answered = []  # the numbers of the events of every action the server answered

    def post_away():
        try:
            while True:
                state = call(address, f"/api/tables/{made['id']}", token=tokens["Ann"])
                who = state["waiting"]["who"]
                action = call(address, f"/api/tables/{made['id']}", token=tokens[who])["waiting"]["actions"][0]
                answered.append(call(address, f"/api/tables/{made['id']}/actions", action, tokens[who])["last"])
        except (urllib.error.URLError, ConnectionError, OSError):
            return  # the server is gone

    player = threading.Thread(target=post_away)
    player.start()
    import time

    time.sleep(1.5)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=20)
    player.join(timeout=30)
    assert len(answered) > 10
    port = int(address.rsplit(":", 1)[1])
    process, address = serve(port)
    try:
        state = call(address, f"/api/tables/{made['id']}", token=tokens["Ben"])
        assert state["last"] >= answered[-1]  # nothing answered was lost (the last may have been made, not answered)
        log = call(address, f"/api/tables/{made['id']}/log", token=tokens["Ben"])
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    # the same seed, never interrupted: the same events, throw for throw
    app = new_app(tmp_path / "again.db")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        again = c.post("/api/tables", json=body, headers=HEADER).json()
        again_tokens = {n: s["token"] for n, s in again["seats"].items()}
        play_first_actions(c, again["id"], again_tokens, limit=5000, stop=lambda s: s["last"] >= state["last"])
        uninterrupted = standing(c, again["id"], again_tokens["Ann"])["events"][:state["last"]]
    app.state.tables.store.close()
    assert [t["event"] for t in uninterrupted] == [t["event"] for t in state["events"]]
    logged = [json.loads(line) for line in log.splitlines()]
    assert [e for e in logged if "event" in e][1:] == [t["event"] for t in state["events"]][1:]


def test_a_table_of_a_rule_file_of_the_folder(tmp_path):
    from hazard_dsl.parse.files import builtin_dir

    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "mine.yaml").write_text((builtin_dir() / "petty.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    app = create_app(folder, db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        r = c.post("/api/tables", json={"ruleset": "mine.yaml", "players": ["Ann", "Ben"], "dice": TAPE}, headers=HEADER)
        assert r.status_code == 201, r.text
        made = r.json()
        tokens = {n: s["token"] for n, s in made["seats"].items()}
        play_first_actions(c, made["id"], tokens)
        log = c.get(f"/api/tables/{made['id']}/log", headers=auth(tokens["Ann"])).text
    app.state.tables.store.close()
    path = tmp_path / "mine.jsonl"
    path.write_text(log, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "replay", str(path), str(folder / "mine.yaml")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "The session ends after" in done.stdout


# --------------------------------------------------------------------------- the audit's findings


def test_each_bet_offered_carries_its_exact_edge_from_where_the_table_stands(client):
    """The edge is the table engine's (BetTable.edge_at, as `play` prices a bet): at the first bets,
    before any throw, it is `analyse`'s figure for the side bet; once Ann's main of seven is set,
    backing her at 1 to 1 loses 1 - 2 x her chance from there, the chance the page is told."""
    table_id, tokens, _ = open_table(client)
    post = lambda who, action: client.post(f"/api/tables/{table_id}/actions", json=action,  # noqa: E731
                                           headers={**HEADER, **auth(tokens[who])})
    analysed = client.post("/api/analyse", json={"ruleset": "cotton"}, headers=HEADER)
    assert analysed.status_code == 200, analysed.text
    bet, _ = standing(client, table_id, tokens["Ben"])["waiting"]["actions"]  # to back, and to lay
    assert bet["side"] == "backer" and bet["edge"] == analysed.json()["bets"]["side"]["edge"] == "37/2016"
    assert bet["edge_percent"] == "1.835%"
    for who, action in [("Ann", {"action": "done"}), ("Ann", {"action": "throw"}),
                        ("Ben", {"action": "stake", "amount": "1"}), ("Ann", {"action": "cover"})]:
        assert post(who, action).status_code == 200
    state = standing(client, table_id, tokens["Ben"])
    chance = Fraction(next(t for t in reversed(state["events"]) if "chance" in t)["chance"]["win"])
    assert chance == Fraction(244, 495)
    bet, _ = state["waiting"]["actions"]
    assert bet["side"] == "backer" and Fraction(bet["edge"]) == 1 - 2 * chance == Fraction(7, 495) and bet["edge_percent"] == "1.414%"
    # the action as listed, its edge and payout with it, is legal posted back unchanged
    r = post("Ben", bet)
    assert r.status_code == 200, r.text
    assert r.json()["waiting"]["ask"] == "cover" and r.json()["waiting"]["question"]["amount"] == "1"


def test_a_new_table_refuses_what_it_does_not_know_saying_what_was_meant(client):
    for body, words in [({"sead": 1}, "a new table has no 'sead' (did you mean 'seed'?)"),
                        ({"player": ["Ann"]}, "(did you mean 'players'?)"),
                        ({"settings": {"stakes": 2}}, "settings: no 'stakes' (did you mean 'stake'?)"),
                        ({"colour": "red"}, "it takes ruleset, options, players, settings, seed and dice")]:
        r = client.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"], **body}, headers=HEADER)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    assert len(client.app.state.tables.live) == 0  # nothing made, not even with random dice


def test_a_seed_is_a_whole_number_and_one_too_long_is_said_so(client):
    def made(seed):
        text = '{"ruleset": "cotton", "players": ["Ann", "Ben"], "seed": %s}' % seed
        return client.post("/api/tables", content=text, headers={**HEADER, "Content-Type": "application/json"})

    for seed in ("9" * 5000, '"%s"' % ("9" * 5000), "123456789012345678901"):
        r = made(seed)
        assert r.status_code == 400 and "seed:" in r.json()["error"] and "too long" in r.json()["error"], r.text
    r = made(2**64)
    # the bound in a reader's words, as the command line says it, not Python's 2**64 - 1 (audit 10 finding 15)
    assert r.status_code == 400 and r.json()["error"] == ("seed: 18446744073709551616 is too large: a seed is a "
                                                          "whole number from 0 to 2^64 − 1 (18,446,744,073,709,551,615)")
    r = made('"forty-two"')
    assert r.status_code == 400 and "'forty-two' is no whole number" in r.json()["error"]

    # a seed as its digits in a string (a page's numbers are exact only to 2**53) throws the same dice
    def first_throw(seed):
        r = made(seed)
        assert r.status_code == 201, r.text
        table_id, ann = r.json()["id"], r.json()["seats"]["Ann"]["token"]
        for action in ({"action": "done"}, {"action": "throw"}):
            answer = client.post(f"/api/tables/{table_id}/actions", json=action, headers={**HEADER, **auth(ann)})
            assert answer.status_code == 200
        return answer.json()["events"][0]["event"]["dice"]

    big = 2**64 - 7
    assert first_throw(big) == first_throw(f'"{big}"')
    r = client.post("/api/tables", content=b'{"ruleset": "cotton", "players": ["Ann", "Ben"], "dice": "%s"}'
                    % (b"1-1 " * 20_000), headers={**HEADER, "Content-Type": "application/json"})
    assert r.status_code == 413 and "65,536 bytes" in r.json()["error"]


def test_the_log_is_had_with_the_token_in_the_header_never_in_the_address(client):
    table_id, tokens, _ = open_table(client)
    r = client.get(f"/api/tables/{table_id}/log?token={tokens['Ann']}")
    assert r.status_code == 403 and "Authorization: Bearer" in r.json()["error"]
    assert client.get(f"/api/tables/{table_id}/log", headers=auth(tokens["Ann"])).status_code == 200


def test_pages_are_counted_by_link_so_onlookers_never_take_a_seats_room(client, monkeypatch):
    monkeypatch.setattr(tables_module, "PAGES_PER_SEAT", 2)
    monkeypatch.setattr(tables_module, "PAGES_OF_ONLOOKERS", 3)
    table_id, tokens, watch = open_table(client)
    url = f"ws://127.0.0.1/api/tables/{table_id}/ws?token="

    def refusal(token):
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect(url + token) as ws:
                ws.receive_json()
        return refused.value

    with contextlib.ExitStack() as pages:
        onlookers = [pages.enter_context(client.websocket_connect(url + watch)) for _ in range(3)]
        for ws in onlookers:
            assert ws.receive_json()["n"] == 1
        said = refusal(watch)
        assert said.code == 4429 and "the onlookers' link has 3 pages open" in said.reason
        # each seat still has its own room, and no more
        for _ in range(2):
            assert pages.enter_context(client.websocket_connect(url + tokens["Ben"])).receive_json()["n"] == 1
        said = refusal(tokens["Ben"])
        assert said.code == 4429 and "Ben's link has 2 pages open" in said.reason
        assert pages.enter_context(client.websocket_connect(url + tokens["Ann"])).receive_json()["n"] == 1
    # closed, a page's place is free again
    with client.websocket_connect(url + watch) as ws:
        assert ws.receive_json()["n"] == 1


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_table_nobody_acts_at_is_closed_with_its_pages_open(tmp_path):
    """Idleness is judged by actions: a page left open keeps no table. Its pages are told why
    (4410), as a refusal, so that they stop rather than reconnect."""
    app = new_app(tmp_path / "tables.db", idle=1.5)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, watch = open_table(c)
        with c.websocket_connect(f"ws://127.0.0.1/api/tables/{table_id}/ws?token={watch}") as ws:
            assert [ws.receive_json().get("n") for _ in range(4)] == [1, 2, 3, None]
            time.sleep(2.5)
            # open, the socket would answer this (403: an onlooker acts for nobody); closed, it cannot
            ws.send_json({"id": 1, "action": {"action": "done"}})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4410 and "nobody acted at it for 1.5 seconds" in closed.value.reason
        r = c.get(f"/api/tables/{table_id}", headers=auth(tokens["Ann"]))
        assert r.status_code == 410 and "its log is kept" in r.json()["error"]
    app.state.tables.store.close()


@contextlib.contextmanager
def served(app):
    """`app` under uvicorn on a free port of 127.0.0.1, in a thread: a real server, for what the
    TestClient does not show (a WebSocket closed before its handshake reaches a browser as an
    HTTP 403, which it reports as 1006 with no reason)."""
    import threading

    uvicorn = pytest.importorskip("uvicorn")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield "127.0.0.1:%d" % server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_refused_websocket_is_closed_with_its_code_and_reason_over_a_real_connection(tmp_path, monkeypatch):
    """A bad token (4403), a table closed (4410) and one page too many (4429): each connection is
    accepted, then closed with 4000 + the status and the reason, which a page can read."""
    pytest.importorskip("websockets")
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    monkeypatch.setattr(tables_module, "PAGES_PER_SEAT", 1)
    app = new_app(tmp_path / "tables.db", idle=3.0)

    def refusal(address, table_id, token):
        with connect(f"ws://{address}/api/tables/{table_id}/ws?token={token}", open_timeout=10) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
        return closed.value.rcvd.code, closed.value.rcvd.reason

    try:
        with served(app) as address:
            with httpx.Client(base_url=f"http://{address}") as c:
                table_id, tokens, watch = open_table(c)
                idle_id, idle_tokens, _ = open_table(c)
            code, said = refusal(address, table_id, "not-a-token-of-this-table")
            assert code == 4403 and "not one of this table's" in said
            with connect(f"ws://{address}/api/tables/{table_id}/ws?token={tokens['Ben']}") as ben:
                assert json.loads(ben.recv(timeout=10))["n"] == 1
                code, said = refusal(address, table_id, tokens["Ben"])
                assert code == 4429 and "Ben's link has 1 pages open" in said
            time.sleep(3.5)
            code, said = refusal(address, idle_id, idle_tokens["Ann"])
            assert code == 4410 and "nobody acted at it for 3 seconds" in said
    finally:
        app.state.tables.store.close()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_lock_is_the_database_files_whatever_name_it_is_given(tmp_path):
    """A symbolic link or a hard link to a database in use is the same file: a second server on it
    is refused, in another process and in this one."""
    db = tmp_path / "s.db"
    store = Store(str(db))
    (tmp_path / "s-link.db").symlink_to(db)
    os.link(db, tmp_path / "s-hard.db")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "s.db").symlink_to(db)
    try:
        for name in ("s-link.db", "s-hard.db", "elsewhere/s.db"):
            other = subprocess.run([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--db",
                                    str(tmp_path / name)], capture_output=True, text=True, timeout=60)
            said = other.stderr
            assert other.returncode != 0 and "another hazard-dsl serve is using this tables' database" in said, said
            with pytest.raises(StoreLocked):
                Store(str(tmp_path / name))
        # refused in this process without touching the holder's locks: it goes on writing
        store.create("t1", {"seats": {}, "watch": ""}, [{"event": "session"}])
        assert store.lines("t1") == ['{"event": "session"}']
    finally:
        store.close()
    Store(str(tmp_path / "s-hard.db")).close()  # free once the holder closed it


def test_docs_web_states_the_tables_bounds_the_code_enforces():
    from pathlib import Path

    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8").split())
    assert f"at most {tables_module.PAGES_PER_SEAT} open on each seat's link" in text
    assert f"{tables_module.PAGES_OF_ONLOOKERS} on the onlookers' link" in text
    assert f"the body that opens a table of at most {tables_module.MAX_NEW_TABLE:,} bytes" in text
    assert tables_module.IDLE == 6 * 3600 and "nobody has acted at for six hours" in text


def test_every_state_told_carries_a_version_that_grows_with_each_action(client):
    """A page hears its own action's answer and the socket's states of others' actions by two
    ways, in either order: `version` (the entries of the log) tells it which is the later, even
    where no event came between them (a bet put to the caster waits for his answer)."""
    table_id, tokens, watch = open_table(client)
    versions = [standing(client, table_id, watch)["version"]]
    for who, action in (("Ben", {"action": "bet", "player": "Ben", "bet": "side", "amount": "1"}),
                        ("Ann", {"action": "cover"}), ("Ann", {"action": "throw"})):
        r = client.post(f"/api/tables/{table_id}/actions", json=action, headers={**HEADER, **auth(tokens[who])})
        assert r.status_code == 200, r.text
        versions.append(r.json()["version"])
        assert standing(client, table_id, watch)["version"] == versions[-1]
    assert versions == sorted(set(versions))  # strictly growing, the bet's answer too (no event came)


def test_a_bet_put_to_a_taker_says_its_amount_and_what_he_puts_up_in_coin(client):
    """Issue 34: the question put to a taker carries the amount and what he puts up in the
    ruleset's coin (Cotton's: shillings), as `play` says them ("you put up 1s"): a side bet of 1
    at 1 to 1 puts up 1, the question's own `puts_up`."""
    table_id, tokens, _ = open_table(client)
    bet, _ = standing(client, table_id, tokens["Ben"])["waiting"]["actions"]
    r = client.post(f"/api/tables/{table_id}/actions", json=bet, headers={**HEADER, **auth(tokens["Ben"])})
    assert r.status_code == 200, r.text
    q = r.json()["waiting"]["question"]
    assert q["ask"] == "cover" and q["puts_up"] == "1"
    assert (q["amount_told"], q["puts_up_told"], q["bet_words"]) == ("1s", "1s", "a side bet on the caster")


def test_the_wagers_up_are_said_in_the_terminals_words(client):
    """Issue 34: one wording for a wager, the web's and the terminal's (render.recap.wagers_up):
    Ben's stake of 1 covered by Ann, the caster, reads "Ann stakes on the cast against Ben" /
    "Ben sets the stake against Ann", and to Ann's own page "You stake on the cast …"."""
    from hazard_dsl.render.recap import wagers_up

    table_id, tokens, _ = open_table(client)
    for who, action in [("Ann", {"action": "done"}), ("Ann", {"action": "throw"}),
                        ("Ben", {"action": "stake", "amount": "1"}), ("Ann", {"action": "cover"})]:
        r = client.post(f"/api/tables/{table_id}/actions", json=action, headers={**HEADER, **auth(tokens[who])})
        assert r.status_code == 200, r.text
    wagers = standing(client, table_id, tokens["Ann"])["wagers"]
    assert [(w["said"], w["said_you"]) for w in wagers["Ann"]] == [
        ("Ann stakes on the cast against Ben: 1s at risk, a win pays 1s",
         "You stake on the cast against Ben: 1s at risk, a win pays 1s")]
    assert [w["said"] for w in wagers["Ben"]] == ["Ben sets the stake against Ann: 1s at risk, a win pays 1s"]
    live = client.app.state.tables.get(table_id, tokens["Ann"])
    terminal = wagers_up(live.table.session).splitlines()[1:]
    assert terminal == [f"  {w['said']}." for name in ("Ann", "Ben") for w in wagers[name]]


def test_a_seat_with_a_bet_up_is_told_why_it_is_not_offered_again(client):
    """Issue 34: the page's bets are the table's own (q.facts["bets"], as `play` lists them); a seat
    party to a side bet, backer or layer, is offered it no more (one of each at a time: BetTable.
    open_to) and is told so; Ann, party to none, may still make one."""
    table_id, tokens, _ = open_table(client, players=("Ann", "Ben", "Cat"))
    post = lambda who, action: client.post(f"/api/tables/{table_id}/actions", json=action,  # noqa: E731
                                           headers={**HEADER, **auth(tokens[who])})
    assert standing(client, table_id, tokens["Ben"])["waiting"]["held_back"] == []
    bet = standing(client, table_id, tokens["Ben"])["waiting"]["actions"][0]
    assert post("Ben", bet).status_code == 200
    assert post("Cat", {"action": "accept"}).status_code == 200
    for name in ("Ben", "Cat"):
        w = standing(client, table_id, tokens[name])["waiting"]
        assert w["ask"] == "bet" and name not in w["question"]["bets"] and w["actions"] == []
        assert w["held_back"] == ["You have a side bet on the caster up: a seat has one of each bet at a time."]
    w = standing(client, table_id, tokens["Ann"])["waiting"]
    assert w["held_back"] == [] and [a.get("bet") for a in w["actions"]] == [None, "side", "side"]
