"""`hazard-dsl serve`'s JSON API, called in-process (Starlette's TestClient): its figures are the
command line's, the checker's diagnostics are placed on the right line and column, nothing is read
or written outside the folder, bodies and files are bounded, every response has the CSP, a request
that changes or computes needs the X-Hazard-DSL header, and a save never overwrites a file changed
on disk since it was read. The pages in a real browser: tests/serve/test_serve_browser.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from hazard_dsl.cli import main  # noqa: E402
from hazard_dsl.parse.files import MAX_BYTES, builtin_dir  # noqa: E402
from hazard_dsl.serve.api import MAX_BODY  # noqa: E402
from hazard_dsl.serve.app import create_app  # noqa: E402
from hazard_dsl.serve.work import Failed, TimeLimit, Worker  # noqa: E402

HEADER = {"X-Hazard-DSL": "1"}
COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")
# Cotton's file with one goto misspelt (the main called goes to the chance throw)
TYPO = COTTON.replace("choose main from 5..9 by caster; goto chance_throw",
                      "choose main from 5..9 by caster; goto chanse_throw")
assert TYPO != COTTON


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    folder = root / "rules"
    folder.mkdir()
    (folder / "mine.yaml").write_text((builtin_dir() / "petty.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "typo.yaml").write_text(TYPO, encoding="utf-8")
    (folder / "notes.txt").write_text("not a rule file", encoding="utf-8")
    (root / "secret.yaml").write_text("name: secret\n", encoding="utf-8")
    (folder / "out.yaml").symlink_to(root / "secret.yaml")
    return folder


@pytest.fixture(scope="module")
def client(folder):
    with TestClient(create_app(folder), base_url="http://127.0.0.1") as c:
        yield c


@pytest.fixture
def in_folder(folder, monkeypatch):
    """The command line run in the folder served, as its user runs it: a file of the folder is
    named, and shown, by its name there."""
    monkeypatch.chdir(folder)


def cli_json(capsys, *argv):
    capsys.readouterr()
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def cli_text(capsys, *argv) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


# -- the figures are the command line's


@pytest.mark.parametrize("options, win", [({}, "1979/4032"), ({"main": "called"}, "244/495")])
def test_analyse_is_analyse_json(client, capsys, in_folder, options, win):
    got = client.post("/api/analyse", json={"ruleset": "cotton", "options": options}, headers=HEADER)
    assert got.status_code == 200
    assert got.json()["win"] == win  # Cotton 1674 thrown; called (the best main, 7), as the README's table
    assert got.json() == cli_json(capsys, "analyse", "cotton", "--json", *(f"--option={k}={v}" for k, v in options.items()))


def test_analyse_of_a_file_of_the_folder_and_of_a_text(client, folder, capsys, in_folder):
    mine = client.post("/api/analyse", json={"ruleset": "mine.yaml"}, headers=HEADER).json()
    assert mine["win"] == "5629/11088"  # Petty Hazard (Barker 2003), README
    assert mine == cli_json(capsys, "analyse", "mine.yaml", "--json")
    assert mine["file"] == "mine.yaml"  # its name in the folder, not a path from the server's working folder
    text = client.post("/api/analyse", json={"text": COTTON, "name": "copy.yaml", "options": {"main": "called"}},
                       headers=HEADER).json()
    assert text["win"] == "244/495" and text["file"] == "copy.yaml"


def test_compare_is_compare_json(client, capsys, in_folder):
    got = client.post("/api/compare", json={"variants": [{"ruleset": "cotton"}, {"ruleset": "cotton", "options": {
        "main": "called"}}, "petty"]}, headers=HEADER)
    assert got.status_code == 200
    expected = cli_json(capsys, "compare", "cotton", "cotton:main=called", "petty", "--json")
    assert got.json() == expected
    assert [r["win"] for r in got.json()["rulesets"]] == ["1979/4032", "244/495", "5629/11088"]


def test_show_rules_and_graph_are_the_command_lines(client, capsys, in_folder):
    assert client.get("/api/rulesets/cotton").json() == cli_json(capsys, "show", "cotton", "--json")
    sheet = client.get("/api/rules/cotton?main=called")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/html")
    assert sheet.text == cli_text(capsys, "rules", "cotton", "--format", "html", "--option", "main=called")
    mermaid = client.get("/api/graph/cotton.mermaid")
    assert mermaid.text == cli_text(capsys, "graph", "cotton", "--format", "mermaid")
    drawn = client.post("/api/graph", json={"ruleset": "cotton", "format": "json"}, headers=HEADER).json()
    assert json.loads(drawn["drawing"]) == cli_json(capsys, "graph", "cotton", "--format", "json")


def test_the_list_of_rulesets(client):
    got = client.get("/api/rulesets").json()
    assert {"name": "cotton", "title": "Hazard (Cotton, 1674)", "year": 1674} in got["builtins"]
    # the folder's rule files, but not the text file nor the link out of the folder
    assert got["files"] == [{"name": "mine.yaml"}, {"name": "typo.yaml"}]


# -- diagnostics


def test_a_misspelt_phase_is_placed_on_its_line_and_column_with_a_fix(client):
    got = client.post("/api/check", json={"text": TYPO, "name": "typo.yaml"}, headers=HEADER)
    assert got.status_code == 200
    errors = [d for d in got.json()["diagnostics"] if d["severity"] == "error"]
    assert len(errors) == 1
    [d] = errors
    lines = TYPO.splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "chanse_throw" in text)
    column = lines[line - 1].index("chanse_throw") + 1
    assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (line, column, line, column + len("chanse_throw"))
    assert "chanse_throw" in d["message"]
    [fix] = d["fixes"]
    assert fix["new_text"] == "chance_throw"
    assert fix["range"] == {"line": line, "column": column, "end_line": line, "end_column": column + 12}
    # the fix applied, the file checks clean
    fixed = lines[:]
    fixed[line - 1] = fixed[line - 1][:column - 1] + fix["new_text"] + fixed[line - 1][column - 1 + 12:]
    again = client.post("/api/check", json={"text": "\n".join(fixed) + "\n", "name": "typo.yaml"}, headers=HEADER)
    assert [d for d in again.json()["diagnostics"] if d["severity"] == "error"] == []


def test_columns_count_code_points(client):
    # a name after a non-BMP character: its column counts the character once
    text = TYPO.replace("# Hazard as Charles Cotton", "# 🎲 Hazard as Charles Cotton").replace(
        "goto chanse_throw", "goto chanse_throw  # 🎲")
    got = client.post("/api/check", json={"text": text, "name": "t.yaml"}, headers=HEADER).json()
    [d] = [d for d in got["diagnostics"] if d["severity"] == "error"]
    line = text.splitlines()[d["line"] - 1]
    assert line[d["column"] - 1:d["end_column"] - 1] == "chanse_throw"


def test_hover_and_completion_are_the_language_services(client):
    """The workbench asks the same language service as `hazard-dsl lsp`: hover over `main` in a
    condition says it is a variable with its range; completion after `goto ` offers the phases."""
    lines = COTTON.splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "when: total == main or" in text)
    column = lines[line - 1].index("== main") + 4
    got = client.post("/api/hover", json={"text": COTTON, "name": "c.yaml", "line": line, "column": column},
                      headers=HEADER).json()
    assert "main" in got["text"] and "variable" in got["text"].lower() and "**" not in got["text"]
    assert got["line"] == line and got["column"] <= column < got["end_column"]
    text = COTTON.replace("goto chance_throw\n", "goto \n", 1)
    at = next(i for i, t in enumerate(text.splitlines(), 1) if t.endswith("goto "))
    items = client.post("/api/completion", json={"text": text, "name": "c.yaml", "line": at,
                                                 "column": len(text.splitlines()[at - 1]) + 1},
                        headers=HEADER).json()["items"]
    assert {"set_main", "chance_throw"} <= {i["label"] for i in items}


def test_a_text_with_errors_is_refused_by_analyse_with_its_diagnostics(client):
    got = client.post("/api/analyse", json={"text": TYPO, "name": "typo.yaml"}, headers=HEADER)
    assert got.status_code == 422
    assert any("chanse_throw" in d["message"] for d in got.json()["diagnostics"])


def test_a_note_without_a_place_has_no_line(client):
    """The checker's note on the file as a whole (the later checks wait for the errors) has no
    place: sent without one, it is listed, not underlined across line 1."""
    found = client.post("/api/check", json={"text": TYPO, "name": "typo.yaml"}, headers=HEADER).json()["diagnostics"]
    [note] = [d for d in found if d["severity"] == "note"]
    assert "once" in note["message"] and "fixed" in note["message"]
    assert (note["line"], note["column"], note["end_line"], note["end_column"]) == (None, None, None, None)
    assert all(d["line"] for d in found if d["severity"] == "error")


# -- the folder boundary


@pytest.mark.parametrize("path", [
    "/api/files/..%2fsecret.yaml",        # .. through an escaped slash
    "/api/files/%2e%2e%2fsecret.yaml",    # and escaped dots
    "/api/files/%2Ftmp%2Fsecret.yaml",    # absolute
    "/api/files/out.yaml",                # a link out of the folder
    "/api/files/mine.yaml%00.yaml",       # NUL
    "/api/files/notes.txt",               # not a rule file
    "/api/files/..",
    "/api/files/.hidden.yaml",
    "/api/files/sub/mine.yaml",
])
def test_nothing_outside_the_folder_is_read_or_written(client, folder, path):
    before = {p.name: p.read_bytes() for p in folder.parent.rglob("*") if p.is_file()}
    got = client.get(path)
    assert got.status_code in (400, 404), got.text
    assert "secret" not in got.text.replace("secret.yaml", "")  # the outside file's text is not shown
    put = client.put(path, json={"text": "name: x\n", "base": None}, headers=HEADER)
    assert put.status_code in (400, 404, 405), put.text
    assert {p.name: p.read_bytes() for p in folder.parent.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name", ["../secret.yaml", "/etc/passwd", "out.yaml", "mine.yaml\x00", "notes.txt",
                                  "../../rulesets/cotton"])
def test_a_ruleset_outside_the_folder_is_not_analysed(client, name):
    got = client.post("/api/analyse", json={"ruleset": name}, headers=HEADER)
    assert got.status_code in (400, 404), got.text


OUTSIDE = "name: outside secret\nphases:\n  roll:\n    - when: total == 7\n      do: win\n    - otherwise: lose\n"


@pytest.fixture
def escaping(tmp_path):
    """A folder served whose rule files try to extend files outside it, and one beside it."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.yaml").write_text(OUTSIDE, encoding="utf-8")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "link.yaml").symlink_to(tmp_path / "outside" / "x.yaml")
    for name, parent in [("up.yaml", "../outside/x.yaml"), ("absolute.yaml", str(tmp_path / "outside" / "x.yaml")),
                         ("nothere.yaml", "../outside/nothere.yaml"), ("by_link.yaml", "link.yaml"),
                         ("by_stem.yaml", "../outside/x")]:
        (folder / name).write_text(f"name: {name}\nextends: {parent}\n", encoding="utf-8")
    (folder / "base.yaml").write_text(OUTSIDE.replace("outside secret", "base of the folder"), encoding="utf-8")
    (folder / "beside.yaml").write_text("name: beside\nextends: base.yaml\n", encoding="utf-8")
    (folder / "built_in.yaml").write_text("name: built in\nextends: petty\n", encoding="utf-8")
    with TestClient(create_app(folder), base_url="http://127.0.0.1") as c:
        yield folder, c


@pytest.mark.parametrize("name", ["up.yaml", "absolute.yaml", "nothere.yaml", "by_link.yaml", "by_stem.yaml"])
def test_a_rule_file_of_the_folder_extends_nothing_outside_it(escaping, capsys, name):
    """Anyone the server serves may write the folder's files: an `extends:` that leaves the folder
    (.., an absolute path, a link out) is refused, whether or not the file exists, and nothing of
    the outside file is shown — even after the command line, which may follow it, has read it
    (and the reading cache has kept it)."""
    folder, client = escaping
    if name != "nothere.yaml":
        assert cli_json(capsys, "show", str(folder / name), "--json")["name"] == name  # the command line follows it
    for got in (client.get(f"/api/rulesets/{name}"),
                client.post("/api/analyse", json={"ruleset": name}, headers=HEADER),
                client.get(f"/api/rules/{name}"), client.get(f"/api/graph/{name[:-5]}.yaml.json"),
                client.post("/api/compare", json={"variants": [name, "cotton"]}, headers=HEADER)):
        assert got.status_code == 422, got.text
        assert "outside secret" not in got.text and "when: total" not in got.text
        [d] = [d for d in got.json()["diagnostics"] if d["severity"] == "error"]
        assert "leads outside the folder served" in d["message"] and d["line"] == 2
        assert "built-in ruleset or another rule file of the folder" in d["hint"]


def test_a_file_written_through_the_api_cannot_reach_outside(escaping):
    folder, client = escaping
    put = client.put("/api/files/mine.yaml", json={"text": "name: mine\nextends: ../outside/x.yaml\n", "base": None},
                     headers=HEADER)
    assert put.status_code == 200  # a text is saved as written: it is read as a ruleset only within bounds
    got = client.get("/api/rulesets/mine.yaml")
    assert got.status_code == 422 and "outside secret" not in got.text


def test_a_rule_file_of_the_folder_extends_the_folder_and_the_built_ins(escaping):
    _, client = escaping
    assert client.get("/api/rulesets/beside.yaml").json()["name"] == "beside"
    got = client.post("/api/analyse", json={"ruleset": "built_in.yaml"}, headers=HEADER).json()
    assert got["win"] == "5629/11088" and got["file"] == "built_in.yaml"  # Petty Hazard's, README


def test_an_unknown_builtin_gets_did_you_mean(client):
    got = client.post("/api/analyse", json={"ruleset": "coton"}, headers=HEADER)
    assert got.status_code == 404 and "did you mean 'cotton'" in got.json()["error"]


def test_options_are_words(client):
    got = client.post("/api/analyse", json={"ruleset": "cotton", "options": {"main": "called,first_throw=lose"}},
                      headers=HEADER)
    assert got.status_code == 400
    got = client.post("/api/analyse", json={"ruleset": "cotton", "options": {"main": "calld"}}, headers=HEADER)
    assert got.status_code == 400 and "called" in got.json()["error"]  # the command line's "did you mean"


# -- bounds, headers, conflicts


def test_bodies_and_files_are_bounded(client, folder):
    big = "#" * (MAX_BYTES + 1)
    assert client.post("/api/check", json={"text": big}, headers=HEADER).status_code == 413
    assert client.put("/api/files/big.yaml", json={"text": big, "base": None}, headers=HEADER).status_code == 413
    assert not (folder / "big.yaml").exists()
    huge = b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}'
    got = client.post("/api/check", content=huge, headers=dict(HEADER, **{"Content-Type": "application/json"}))
    assert got.status_code == 413
    (folder / "large.yaml").write_bytes(b"#" * (MAX_BYTES + 1))
    try:
        assert client.get("/api/files/large.yaml").status_code == 413
    finally:
        (folder / "large.yaml").unlink()


@pytest.mark.parametrize("path", ["/", "/compare", "/workbench", "/api/rulesets", "/api/rules/cotton",
                                  "/api/graph/cotton.mermaid", "/static/common.js", "/api/files/nothere.yaml",
                                  "/no-such-page", "/favicon.ico"])
def test_every_response_has_the_csp(client, path):
    got = client.get(path)
    csp = got.headers["content-security-policy"]
    assert "default-src 'none'" in csp
    assert "'unsafe-inline'" not in csp.replace("style-src-attr 'unsafe-inline'", "").replace(
        "style-src 'unsafe-inline'", "") or path.startswith("/api/")
    assert "script-src 'self'" in csp or "script-src" not in csp  # the API's documents run no script at all
    assert "unsafe-eval" not in csp
    assert got.headers["x-content-type-options"] == "nosniff"


def test_the_favicon_is_a_die(client):
    """Every browser asks for /favicon.ico on every page: a 404 would be an error in each page's console."""
    got = client.get("/favicon.ico")
    assert got.status_code == 200 and got.headers["content-type"] == "image/svg+xml"
    assert got.text.startswith("<svg") and got.text.count("<circle") == 5 and "<script" not in got.text


def test_the_pages_scripts_come_from_the_server(client):
    for page in ("/", "/compare", "/workbench"):
        html = client.get(page).text
        assert "<script>" not in html and "style=" not in html and "<style" not in html
        assert "script-src 'self'" in client.get(page).headers["content-security-policy"]


@pytest.mark.parametrize("method, path, body", [
    ("POST", "/api/analyse", {"ruleset": "cotton"}),
    ("POST", "/api/check", {"text": "name: x\n"}),
    ("POST", "/api/compare", {"variants": ["cotton"]}),
    ("PUT", "/api/files/new.yaml", {"text": "name: x\n", "base": None}),
])
def test_a_request_without_the_header_is_refused(client, folder, method, path, body):
    got = client.request(method, path, json=body)
    assert got.status_code == 403
    got = client.request(method, path, json=body, headers={"X-Hazard-DSL": "0"})
    assert got.status_code == 403
    assert not (folder / "new.yaml").exists()


def test_save_refuses_a_file_changed_on_disk(client, folder):
    read = client.get("/api/files/mine.yaml").json()
    assert read["text"] == (folder / "mine.yaml").read_text(encoding="utf-8")
    saved = client.put("/api/files/mine.yaml", json={"text": read["text"] + "# one\n", "base": read["hash"]},
                       headers=HEADER)
    assert saved.status_code == 200
    assert (folder / "mine.yaml").read_text(encoding="utf-8").endswith("# one\n")
    # meanwhile someone else writes the file
    (folder / "mine.yaml").write_text(read["text"] + "# theirs\n", encoding="utf-8")
    again = client.put("/api/files/mine.yaml", json={"text": read["text"] + "# two\n", "base": saved.json()["hash"]},
                       headers=HEADER)
    assert again.status_code == 409
    assert again.json()["sent"] == saved.json()["hash"] and again.json()["current"] != again.json()["sent"]
    assert (folder / "mine.yaml").read_text(encoding="utf-8").endswith("# theirs\n")
    # told, the writer may save over the version it now knows
    over = client.put("/api/files/mine.yaml", json={"text": read["text"], "base": again.json()["current"]},
                      headers=HEADER)
    assert over.status_code == 200
    assert (folder / "mine.yaml").read_text(encoding="utf-8") == read["text"]
    # a new file must be new
    assert client.put("/api/files/mine.yaml", json={"text": "x", "base": None}, headers=HEADER).status_code == 409
    made = client.put("/api/files/made.yaml", json={"text": "name: made\n", "base": None}, headers=HEADER)
    assert made.status_code == 200 and (folder / "made.yaml").read_text(encoding="utf-8") == "name: made\n"
    (folder / "made.yaml").unlink()
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_only_loopback_names_are_answered_on_loopback(client):
    assert client.get("/api/rulesets", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/api/rulesets", headers={"Host": "localhost:8000"}).status_code == 200


# -- the work is bounded in time and off the event loop


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_work_past_the_time_limit_is_stopped_and_blocks_no_other_work():
    import anyio

    async def scenario():
        worker = Worker(time_limit=2, jobs=2)
        finished = {}

        async def slow():
            start = time.monotonic()
            with pytest.raises(TimeLimit):
                await worker.run(time.sleep, 30)
            finished["slow"] = time.monotonic() - start

        async with anyio.create_task_group() as group:
            group.start_soon(slow)
            await anyio.sleep(0.2)
            start = time.monotonic()
            assert await worker.run(sorted, [3, 1, 2]) == [1, 2, 3]  # answered while the slow work runs
            finished["quick"] = time.monotonic() - start
        assert finished["quick"] < 1.5 and 1.9 < finished["slow"] < 10, finished
        with pytest.raises(Failed) as failed:
            await worker.run(int, "not a number")
        assert failed.value.kind == "internal"

    anyio.run(scenario)


def slow_rule_file(tag: str) -> str:
    """A rule file that takes long to analyse (about 50 s here): a count to 19,000 by the totals
    thrown, each of its 19,000 states a throw, and an option of 20 values that each make it another
    game, which `analyse` explores and solves in turn (the game under each option's values); `tag`
    makes its text new to the reading cache."""
    values = ", ".join(f"v{k}" for k in range(20))
    return (f"# {tag} {time.time_ns()}\nname: slow\nvariables:\n  n: 0..19012\n"
            f"options:\n  goal:\n    default: v0\n    values: [{values}]\nphases:\n  roll:\n"
            "    - when: n >= 19000 and total == 7 and option.goal != \"v19\"\n      do: win\n"
            "    - when: n >= 19000\n      do: lose\n"
            "    - otherwise: set n = n + total; throw again\n")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_slow_analyses_leave_the_language_service_free(tmp_path):
    """With both slots of the work taken by analyses that run to the time limit, the workbench's
    check, hover and completion are answered at once, in their own lane."""
    from concurrent.futures import ThreadPoolExecutor

    app = create_app(tmp_path, time_limit=8, jobs=2)
    worker = app.state.api.worker
    with TestClient(app, base_url="http://127.0.0.1") as client, ThreadPoolExecutor(2) as pool:
        slow = [pool.submit(client.post, "/api/analyse", json={"text": slow_rule_file(str(i)), "name": f"slow{i}.yaml"},
                            headers=HEADER) for i in range(2)]
        deadline = time.monotonic() + 6
        while len(worker._running) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(worker._running) == 2, "the slow analyses did not start"
        start = time.monotonic()
        checked = client.post("/api/check", json={"text": TYPO, "name": "typo.yaml"}, headers=HEADER)
        hovered = client.post("/api/hover", json={"text": COTTON, "name": "c.yaml", "line": 1, "column": 1},
                              headers=HEADER)
        took = time.monotonic() - start
        assert checked.status_code == 200 and hovered.status_code == 200
        assert any("chanse_throw" in d["message"] for d in checked.json()["diagnostics"])
        assert took < 5, f"check and hover took {took:.1f} s behind the slow analyses"
        assert not any(f.done() for f in slow)  # still at work
        for future in slow:
            assert future.result(timeout=30).status_code == 503  # stopped at the time limit


def gone(pid: int, within: float = 5) -> bool:
    """Whether the process `pid` is gone (killed and reaped) within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_work_given_up_is_killed_and_frees_its_slot():
    """A request given up (its client hung up, the server stops) kills its process at once: the
    one slot is free for the next piece of work in well under the time limit."""
    import anyio

    async def scenario():
        worker = Worker(time_limit=30, jobs=1)
        async with anyio.create_task_group() as group:
            group.start_soon(worker.run, time.sleep, 30)
            deadline = time.monotonic() + 10
            while not worker._running and time.monotonic() < deadline:
                await anyio.sleep(0.05)
            [process] = list(worker._running)
            group.cancel_scope.cancel()
        start = time.monotonic()
        assert await worker.run(sorted, [3, 1, 2]) == [1, 2, 3]
        assert time.monotonic() - start < 5
        assert await anyio.to_thread.run_sync(gone, process.pid), "the process given up runs on"

    anyio.run(scenario)


# -- the command


def test_serve_without_the_web_extra_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == "hazard-dsl: error: serve needs the web extra: pip install 'hazard-dsl[web]'\n"


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_serve_prints_its_address_and_stops_on_ctrl_c(folder, tmp_path):
    import httpx

    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        line = process.stdout.readline()
        assert line.startswith(f"hazard-dsl: serving {folder} at http://127.0.0.1:"), line
        address = line.split(" at ")[1].split()[0]
        assert httpx.get(address + "api/rulesets").status_code == 200
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert "Traceback" not in err and err.strip().endswith("hazard-dsl: stopped")


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_serve_frees_the_work_of_a_client_that_hung_up_and_stops_at_once_on_ctrl_c(tmp_path):
    """Two slow analyses whose clients hang up free their slots at once (the next analysis is not
    kept waiting for the 60 s limit); a Ctrl-C while another runs stops the server in a moment,
    with no traceback (the work is killed, the request waiting for it answered)."""
    import httpx

    (tmp_path / "slow.yaml").write_text(slow_rule_file("serve"), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        address = process.stdout.readline().split(" at ")[1].split()[0]
        for _ in range(2):
            with pytest.raises(httpx.TimeoutException):
                httpx.post(address + "api/analyse", json={"ruleset": "slow.yaml"}, headers=HEADER, timeout=1.5)
        start = time.monotonic()
        got = httpx.post(address + "api/analyse", json={"ruleset": "cotton"}, headers=HEADER, timeout=30)
        assert got.status_code == 200 and got.json()["win"] == "1979/4032"
        assert time.monotonic() - start < 10, "the work of the clients that hung up held the slots"
        import threading

        answers = []  # one left running, its client waiting
        waiting = threading.Thread(target=lambda: answers.append(httpx.post(
            address + "api/analyse", json={"ruleset": "slow.yaml"}, headers=HEADER, timeout=60)))
        waiting.start()
        time.sleep(1.5)
        start = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        stopped = time.monotonic() - start
        waiting.join(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and stopped < 5, (stopped, err)
    assert "Traceback" not in err and "CancelledError" not in err and err.strip().endswith("hazard-dsl: stopped"), err
    assert [a.status_code for a in answers] == [503] and "stopping" in answers[0].json()["error"]


def test_serve_on_another_host_warns(folder, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--host", "0.0.0.0", "--port", "0",
                                "--folder", str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.stdout.readline()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert "warning: serving on 0.0.0.0" in err


def test_serve_refuses_a_missing_folder_and_a_port_in_use(capsys, tmp_path):
    assert main(["serve", "--folder", str(tmp_path / "nothere")]) == 2
    assert "--folder" in capsys.readouterr().err
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--folder", str(tmp_path)]) == 2
        assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_serve_is_a_front_door_that_nothing_below_imports():
    from tests.project.test_imports import PACKAGE, PIPELINE, _within, read_package

    package = read_package(Path(__file__).resolve().parents[2] / PACKAGE, PACKAGE)
    serve = f"{PACKAGE}.serve"
    below = PIPELINE + (f"{PACKAGE}.commands", f"{PACKAGE}.api")
    for imp in package.imports:
        if _within(imp.target, (serve,)):  # only the command line's `serve` command and serve itself
            assert imp.source in (f"{PACKAGE}.cli", f"{PACKAGE}.cli.serve") or _within(imp.source, (serve,)), imp
        if _within(imp.source, (serve,)):  # and serve reads the application layer, never the command line
            assert not _within(imp.target, (f"{PACKAGE}.cli",)), imp
    assert not any(_within(i.source, below) and _within(i.target, (serve,)) for i in package.imports)
    assert os.path.isfile(Path(__file__).resolve().parents[2] / PACKAGE / "serve" / "static" / "editor.js")


def test_docs_web_states_the_bounds_the_code_enforces():
    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8").split())
    assert f"at most {MAX_BODY:,} bytes" in text and f"at most {MAX_BYTES:,} bytes" in text
    assert "killed after 60 seconds" in text
    import inspect

    assert inspect.signature(create_app).parameters["time_limit"].default == 60.0
