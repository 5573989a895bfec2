"""The shared tables' API, called in-process (Starlette's TestClient): a whole Cotton session
played by posting the first legal action each time, its log replayed by `hazard-dsl replay`, a
seat that is not asked refused (403) and an action the table does not allow refused with its
reason (409), the WebSocket's events in order and resumed after a reconnect, the database's lock
between two processes, the bounds, and a restarted app with every table where it stood.
The pages in a real browser: tests/test_serve_tables_browser.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
    # Ben may bet before Ann throws: a complete action, with its default and bounds
    assert standing(client, table_id, tokens["Ben"])["waiting"]["actions"] == [
        {"action": "bet", "player": "Ben", "bet": "side", "amount": "1", "min": "0", "max": "20", "pays": "1 to 1",
         "against": "Ann", "side": "backer"}]
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
    assert "Ann  19 shillings" in done.stdout and "Ben  21 shillings" in done.stdout


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
    assert r.status_code == 409 and "at most 20" in r.json()["error"]
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
        assert ann.receive_json() == {"type": "reply", "id": 7, "status": 200, "events": []}
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
