"""A server that always starts and never repeats an action (serve.tables, serve.store), called
in-process: a table whose rule file was broken, changed, deleted or made to reach out of the
folder stands closed with the reason while the others play on; an action carries the version it
was made against (stale: 409 with the version now) and a key (a repeat, even after a restart,
is answered with its first answer and applied once, over HTTP and the WebSocket); finished
tables are closed and not rebuilt at a start; the bounds say themselves; a save over a folder is
a clear 409; two names alike but for case or spacing are refused; the wagers up are in the state."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.parse.files import builtin_dir  # noqa: E402
from hazard_dsl.serve import tables as tables_module  # noqa: E402
from hazard_dsl.serve.app import create_app  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
# Cotton (tests/serve/test_serve_tables.py's tape): Ann's seven, nicked by eleven, and on
TAPE = "3-4 5-6 2-2 6-1 4-4 6-6 5-5 3-3 1-2 2-5 6-1 3-4 4-3"
PETTY = (builtin_dir() / "petty.yaml").read_text(encoding="utf-8")  # `extends: cotton`


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def post(c, table_id, token, action, **headers):
    return c.post(f"/api/tables/{table_id}/actions", json=action, headers={**HEADER, **auth(token), **headers})


def open_table(c, ruleset="cotton", players=("Ann", "Ben"), dice=TAPE, **more):
    r = c.post("/api/tables", json={"ruleset": ruleset, "players": list(players), "dice": dice, **more}, headers=HEADER)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], {n: s["token"] for n, s in made["seats"].items()}, made["watch"]["token"]


@pytest.fixture()
def folder(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "mine.yaml").write_text(PETTY, encoding="utf-8")
    return rules


def bounded(app, **bounds):
    """The app with the tables' bounds set (Tables' own settings: serve.tables.MAX_FINISHED…)."""
    for name, value in bounds.items():
        setattr(app.state.tables, name, value)
    return app


def restart(app, folder, db, **bounds):
    app.state.tables.store.close()
    return bounded(create_app(folder, db=str(db)), **bounds)


@pytest.mark.parametrize("harm, words", [
    ("broken", "mine.yaml"),
    ("changed", "other rules than"),
    ("deleted", "no such file in the folder"),
    ("outside", "outside"),
])
def test_a_table_whose_rules_cannot_be_rebuilt_stands_closed_and_the_others_play_on(tmp_path, folder, harm, words,
                                                                                     monkeypatch):
    db = tmp_path / "tables.db"
    app = create_app(folder, db=str(db))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        mine, mine_tokens, _ = open_table(c, "mine.yaml")
        other, tokens, watch = open_table(c)
        assert post(c, other, tokens["Ann"], {"action": "done"}).status_code == 200
        before = c.get(f"/api/tables/{other}", headers=auth(watch)).json()
    path = folder / "mine.yaml"
    if harm == "broken":  # saved with a mistake, as happens in the workbench
        path.write_text(PETTY.replace("extends: cotton", "extends: cotton\nphases: [unclosed"), encoding="utf-8")
    elif harm == "changed":  # still a good rule file, but not the one the table was made with
        path.write_text(PETTY.replace("Cotton's game", "Cotton's own game"), encoding="utf-8")
    elif harm == "deleted":
        path.unlink()
    else:  # now it extends a file beyond the folder, as `make` would never have allowed
        (tmp_path / "outside.yaml").write_text((builtin_dir() / "cotton.yaml").read_text(encoding="utf-8"),
                                               encoding="utf-8")
        path.write_text(PETTY.replace("extends: cotton", "extends: ../outside.yaml"), encoding="utf-8")
    again = restart(app, folder, db)  # starts, whatever one table's file holds
    with TestClient(again, base_url="http://127.0.0.1") as c:
        r = c.get(f"/api/tables/{mine}", headers=auth(mine_tokens["Ann"]))
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error.startswith("This table is closed: its rules cannot be rebuilt (") and words in error, error
        assert "table-" not in error  # no temporary file of the server's named
        assert "\n" not in error  # a diagnostic's hint kept apart by "; ", not run into the sentence (issue 34)
        r = post(c, mine, mine_tokens["Ann"], {"action": "done"})
        assert r.status_code == 409 and r.json()["error"] == error
        # a stranger is not told why: the reason is for the table's own links
        assert c.get(f"/api/tables/{mine}", headers=auth("x" * 32)).status_code == 403
        assert c.get(f"/api/tables/{other}", headers=auth(watch)).json() == before
        assert post(c, other, tokens["Ann"], {"action": "throw"}).status_code == 200
        # the rule file mended (put back as it was): the table comes back, no restart needed
        if harm != "changed":
            path.write_text(PETTY, encoding="utf-8")
            monkeypatch.setattr(tables_module, "RETRY_BROKEN", 0.0)
            r = c.get(f"/api/tables/{mine}", headers=auth(mine_tokens["Ann"]))
            assert r.status_code == 200 and r.json()["waiting"]["ask"] == "bet"
    again.state.tables.store.close()


def test_a_built_in_tables_do_not_depend_on_the_folder(tmp_path, folder):
    """A table of a built-in ruleset is rebuilt whatever the folder holds, even a broken file."""
    db = tmp_path / "tables.db"
    app = create_app(folder, db=str(db))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, _ = open_table(c, "petty")
    (folder / "petty.yaml").write_text("name: [", encoding="utf-8")
    again = restart(app, folder, db)
    with TestClient(again, base_url="http://127.0.0.1") as c:
        assert c.get(f"/api/tables/{table_id}", headers=auth(tokens["Ben"])).status_code == 200
    again.state.tables.store.close()


def test_a_repeated_action_is_answered_with_its_first_answer_and_applied_once_even_after_a_restart(tmp_path):
    db = tmp_path / "tables.db"
    app = create_app(".", db=str(db))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, watch = open_table(c)
        assert post(c, table_id, tokens["Ann"], {"action": "done", "key": "a1"}).status_code == 200
        first = post(c, table_id, tokens["Ann"], {"action": "throw", "version": 4}, **{"Idempotency-Key": "t1"})
        assert first.status_code == 200 and [t["event"]["dice"] for t in first.json()["events"]] == [[3, 4]]
        again = post(c, table_id, tokens["Ann"], {"action": "throw", "version": 4}, **{"Idempotency-Key": "t1"})
        assert again.status_code == 200 and again.json() == dict(first.json(), repeated=True)
        last = c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()["last"]
        assert last == first.json()["last"]  # one throw, not two
        # the same key with another action is refused; a stale version is refused with the version now
        r = post(c, table_id, tokens["Ann"], {"action": "done", "key": "a1", "version": 4})
        assert r.status_code == 409 and "another action" in r.json()["error"]
        now = c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()["version"]
        r = post(c, table_id, tokens["Ben"], {"action": "stake", "amount": "1", "version": 4})
        assert r.status_code == 409 and r.json()["version"] == now and "moved on" in r.json()["error"]
        assert c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()["version"] == now
    app = restart(app, ".", db)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        # the answers are in the store: recognised after the restart, still applied once
        again = post(c, table_id, tokens["Ann"], {"action": "throw", "version": 4}, **{"Idempotency-Key": "t1"})
        assert again.status_code == 200 and again.json() == dict(first.json(), repeated=True)
        assert c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()["last"] == last
        # a key is each seat's own: Ben's t1 is not Ann's
        r = post(c, table_id, tokens["Ben"], {"action": "stake", "amount": "1", "key": "t1"})
        assert r.status_code == 200 and "repeated" not in r.json()
    app.state.tables.store.close()


def test_the_websocket_message_id_is_the_actions_key(tmp_path):
    """`{"id": "r1", "action": {"action": "throw"}}` sent twice throws once."""
    app = create_app(".", db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, watch = open_table(c)
        with c.websocket_connect(f"ws://127.0.0.1/api/tables/{table_id}/ws?token={tokens['Ann']}") as ws:
            [ws.receive_json() for _ in range(4)]
            ws.send_json({"id": "d1", "action": {"action": "done"}})
            replies = []
            while len(replies) < 1:
                m = ws.receive_json()
                replies += [m] if m["type"] == "reply" else []
            for _ in range(2):
                ws.send_json({"id": "r1", "action": {"action": "throw"}})
            while len(replies) < 3:
                m = ws.receive_json()
                replies += [m] if m["type"] == "reply" else []
        assert [r["status"] for r in replies] == [200, 200, 200]
        assert replies[1]["events"] == replies[2]["events"] == [4] and replies[2]["repeated"] is True
        state = c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()
        assert [t["event"]["dice"] for t in state["events"] if t["event"]["event"] == "throw"] == [[3, 4]]
    app.state.tables.store.close()


def play_to_the_end(c, table_id, tokens):
    for _ in range(300):
        state = c.get(f"/api/tables/{table_id}", headers=auth(next(iter(tokens.values())))).json()
        if state["finished"]:
            return state
        who = state["waiting"]["who"]
        action = c.get(f"/api/tables/{table_id}", headers=auth(tokens[who])).json()["waiting"]["actions"][0]
        assert post(c, table_id, tokens[who], action).status_code == 200
    raise AssertionError("the session did not end")


def test_finished_tables_are_closed_not_rebuilt_at_start_and_their_logs_kept_to_a_bound(tmp_path):
    db = tmp_path / "tables.db"
    app = bounded(create_app(".", db=str(db)), max_finished=1)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        # a one-throw tape: Ann's seven nicked by eleven ends it (the tape runs out)
        old, old_tokens, _ = open_table(c, dice="3-4 5-6")
        end = play_to_the_end(c, old, old_tokens)
        assert app.state.tables.store.table(old)[2] == "finished"
        table_id, tokens, watch = open_table(c, dice="3-4 5-6")
        play_to_the_end(c, table_id, tokens)
        # only one closed table's log is kept: the older one's is gone, and its links are told so
        r = c.get(f"/api/tables/{old}/log", headers=auth(old_tokens["Ann"]))
        assert r.status_code == 410 and "the last 1 closed tables" in r.json()["error"]
    app = restart(app, ".", db, max_finished=1)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert table_id not in app.state.tables.live  # not rebuilt at the start
        state = c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()  # read back when asked
        assert state["finished"] is True
        assert state["events"][-1]["event"] == end["events"][-1]["event"]
        r = post(c, table_id, tokens["Ann"], {"action": "throw"})
        assert r.status_code == 409 and "over" in r.json()["error"]
        assert c.get(f"/api/tables/{table_id}/log", headers=auth(watch)).status_code == 200
    app.state.tables.store.close()


def test_tables_in_play_are_bounded_per_address_saying_so(tmp_path):
    app = bounded(create_app(".", db=str(tmp_path / "tables.db")), per_client=1)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        open_table(c)
        r = c.post("/api/tables", json={"ruleset": "cotton", "players": ["Ann", "Ben"]}, headers=HEADER)
        assert r.status_code == 429 and "this address has 1 tables in play" in r.json()["error"]
    app.state.tables.store.close()


def test_names_alike_but_for_case_or_spacing_are_refused_and_names_with_spaces_play(tmp_path):
    app = create_app(".", db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        for players in (["Ann", "ann"], ["The Guildmaster", "the  guildmaster"]):
            r = c.post("/api/tables", json={"ruleset": "cotton", "players": players}, headers=HEADER)
            assert r.status_code == 400, r.text
            assert "differ only in case or spacing" in r.json()["error"] and repr(players[1]) in r.json()["error"]
        table_id, tokens, _ = open_table(c, "hoyle", ("Robert fitz John", "The Guildmaster", "Ann"))
        r = post(c, table_id, tokens["The Guildmaster"],
                 {"action": "bet", "player": "The Guildmaster", "bet": "side", "amount": "1"})
        assert r.status_code == 200, r.text
    app.state.tables.store.close()


def test_each_seats_open_wagers_are_in_the_state(tmp_path):
    """Hoyle: a side bet of 1 backed by The Guildmaster and accepted by Ann (a side bet pays
    even money: rulesets/hoyle.yaml); then the main set (6) and two stakes of 1 set against the
    caster, who covers them (the stake pays even money: he risks 1 each, each setter 1)."""
    app = create_app(".", db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        table_id, tokens, watch = open_table(c, "hoyle", ("Robert fitz John", "The Guildmaster", "Ann"),
                                             dice="3-3 4-4 5-2 4-5")
        robert, guild, ann = tokens.values()
        for token, action in ((guild, {"action": "bet", "bet": "side", "amount": "1"}), (ann, {"action": "accept"})):
            assert post(c, table_id, token, action).status_code == 200
        wagers = c.get(f"/api/tables/{table_id}", headers=auth(watch)).json()["wagers"]
        side = {"bet": "side", "words": "a side bet on the caster"}  # hoyle.yaml's `called:`
        assert wagers == {
            "Robert fitz John": [],
            "The Guildmaster": [dict(side, side="backs", against="Ann", at_risk="1", wins="1",
                                     said="The Guildmaster backs a side bet on the caster against Ann: 1s at risk, "
                                          "a win pays 1s",
                                     said_you="You back a side bet on the caster against Ann: 1s at risk, "
                                              "a win pays 1s")],
            "Ann": [dict(side, side="lays", against="The Guildmaster", at_risk="1", wins="1",
                         said="Ann lays a side bet on the caster against The Guildmaster: 1s at risk, "
                              "a win pays 1s",
                         said_you="You lay a side bet on the caster against The Guildmaster: 1s at risk, "
                                  "a win pays 1s")]}
        for token, action in ((robert, {"action": "done"}), (robert, {"action": "throw"}),
                              (guild, {"action": "stake", "amount": "1"}), (robert, {"action": "cover"}),
                              (ann, {"action": "stake", "amount": "2"}), (robert, {"action": "cover"})):
            r = post(c, table_id, token, action)
            assert r.status_code == 200, (action, r.text)
        wagers = r.json()["wagers"]
        stakes = {name: [(w["side"], w["against"], w["at_risk"], w["wins"]) for w in mine if w["words"] == "the stake"]
                  for name, mine in wagers.items()}
        assert stakes == {"Robert fitz John": [("backs", "The Guildmaster", "1", "1"), ("backs", "Ann", "2", "2")],
                          "The Guildmaster": [("lays", "Robert fitz John", "1", "1")],
                          "Ann": [("lays", "Robert fitz John", "2", "2")]}
    app.state.tables.store.close()


def test_a_save_over_a_folder_of_that_name_is_a_clear_409_not_a_500(tmp_path, folder):
    (folder / "x.yaml").mkdir()
    app = create_app(folder, db=str(tmp_path / "tables.db"))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        r = c.put("/api/files/x.yaml", json={"text": "name: x\n", "base": None}, headers=HEADER)
        assert r.status_code == 409 and r.json()["current"] == "unreadable"
        # what the workbench's "Save mine over it" sends next
        r = c.put("/api/files/x.yaml", json={"text": "name: x\n", "base": "unreadable"}, headers=HEADER)
        assert r.status_code == 409, r.text
        assert r.json()["error"] == "x.yaml: a folder has this name; it is not written over: save under another name"
        assert (folder / "x.yaml").is_dir()
        assert not [p for p in folder.iterdir() if p.name.startswith(".hazard-dsl-")]  # no temporary file left
    app.state.tables.store.close()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_documented_bot_loop_plays_a_table_to_its_end(tmp_path):
    """docs/web.md's bot loop, as printed there, plays Ann's and Ben's seats at once against a
    real server (`hazard-dsl serve`): each acting with the version and a key, a stale action read
    again; the session ends where the first actions lead (tests/serve/test_serve_tables.py's restarted
    table: Ann 19, Ben 21)."""
    import re
    import subprocess
    import sys
    import threading

    pytest.importorskip("uvicorn")
    text = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    code = re.search(r"A bot at a seat.*?```python\n(.*?)```", text, re.S).group(1)
    bot: dict = {}
    exec(compile(code, "docs/web.md", "exec"), bot)
    server = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--db",
                               str(tmp_path / "tables.db")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True)
    try:
        address = server.stdout.readline().split(" at ")[1].split()[0].rstrip("/")
        made = bot["call"](f"{address}/api/tables", "",
                           {"ruleset": "cotton", "players": ["Ann", "Ben"], "dice": TAPE})

        def choose(state):  # the first action offered, but no bet: the session the tests know
            return next((a for a in state["waiting"]["actions"] if a["action"] != "bet"), None)

        ends = {}
        seats = [threading.Thread(target=lambda n=name: ends.__setitem__(
            n, bot["play_seat"](address, made["id"], made["seats"][n]["token"], choose))) for name in ("Ann", "Ben")]
        for seat in seats:
            seat.start()
        for seat in seats:
            seat.join(timeout=120)
        assert ends["Ann"]["purses"] == ends["Ben"]["purses"] == {"Ann": "19", "Ben": "21"}
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_docs_web_states_the_new_bounds_the_code_enforces():
    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8").split())
    assert f"At most {tables_module.MAX_TABLES} tables in play at once" in text
    assert f"at most {tables_module.MAX_PER_CLIENT} of them opened from one address" in text
    assert f"the logs of the last {tables_module.MAX_FINISHED:,} closed tables are kept" in text
    assert f"any text of 1 to {tables_module.MAX_KEY} characters" in text
