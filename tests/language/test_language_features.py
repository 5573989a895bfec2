"""The editor features of the language service beyond names: highlighting of the expression
language inside the YAML strings (each token at its place, told by what it is), signature help
for the functions, folding ranges, workspace symbols, `extends:` as a link to the parent file,
and the quick fixes beyond spelling, each applied to a broken file and the result checked again
(clean, or with one problem fewer)."""

from __future__ import annotations

import pytest

from hazard_dsl.language.service import LanguageService, Place, uri_of
from hazard_dsl.language.tokens import encoded, tokens
from hazard_dsl.parse.files import builtin_file

GAME = '''name: Two phases
start: first
variables:
  point: {range: 0..12, initial: 0}
phases:
  first:
    rules:
      - when: total == 7 or ways(total) == 1
        do: win natural
      - when: total in {2, 3}
        do: lose craps
      - otherwise: set point = total; goto second
  second:
    # the point, thrown again until it comes or a seven
    rules:
      - when: total == point
        do: win made
      - when: total == 7
        do: lose seven_out
      - otherwise: throw again
labels:
  natural: Natural.
  craps: Craps.
  made: Made.
  seven_out: Seven out.
'''


def opened(text: str, name: str = "untitled:game.yaml"):
    service = LanguageService()
    service.open(name, text)
    return service, name


def test_the_tokens_of_a_condition_are_at_their_places_and_told_by_what_they_are():
    lines = GAME.split("\n")
    found = [(t, lines[t.line][t.column:t.column + t.length]) for t in tokens(GAME)]
    condition = [(text, t.kind) for t, text in found if t.line == 7]
    assert condition == [("total", "variable"), ("==", "operator"), ("7", "number"), ("or", "keyword"),
                         ("ways", "function"), ("total", "variable"), ("==", "operator"), ("1", "number")]
    assert lines[7].index("ways") == next(t.column for t, text in found if text == "ways")
    actions = [(text, t.kind) for t, text in found if t.line == 11]
    assert actions == [("set", "keyword"), ("point", "variable"), ("=", "operator"), ("total", "variable"),
                       ("goto", "keyword"), ("second", "namespace")]
    assert ("natural", "enumMember") in [(text, t.kind) for t, text in found if t.line == 8]
    # nothing outside an expression: the description, the labels' words, the keys
    assert not [t for t, _ in found if t.line in (0, 13, 20, 21)]


def test_tokens_in_lsps_relative_encoding():
    found = tokens("phases:\n  a:\n    rules:\n      - when: total == 7\n        do: win x\n")
    # (line delta, start delta, length, kind, modifiers): `total` at 3:14, `==` 6 on, `7` 3 on; `win` next line
    assert encoded(found)[:20] == [3, 14, 5, 1, 0, 0, 6, 2, 5, 0, 0, 3, 1, 3, 0, 1, 12, 3, 0, 0]


def test_the_options_value_and_a_quoted_phase_are_words_and_a_broken_expression_stops_its_tokens():
    text = ("phases:\n  a:\n    rules:\n      - when: option.vig == \"on_win\" and phase == 'point'\n"
            "        do: win x\n      - when: total == $ 7\n        do: lose y\n")
    lines = text.split("\n")
    found = [(lines[t.line][t.column:t.column + t.length], t.kind) for t in tokens(text)]
    assert ("vig", "parameter") in found and ('"on_win"', "string") in found and ("'point'", "string") in found
    assert ("7", "number") not in found  # past the `$` nothing lexes


@pytest.mark.parametrize("written, column, label, active", [
    ("      - when: ways(", 19, "ways(total) -> int", 0),
    ("      - when: weight(total) > 3 and min(ways(3), ", 49, "min(x, y) -> int", 1),
    ("      - when: max(ways(4", 28, "ways(total) -> int", 0),
])
def test_signature_help_for_the_function_being_written(written, column, label, active):
    service, uri = opened(f"phases:\n  a:\n    rules:\n{written}\n")
    found = service.signature_help(uri, Place(3, column))
    assert found.label == label and found.active == active
    assert found.documentation  # the checker's own words for what it gives


def test_no_signature_outside_a_functions_brackets():
    service, uri = opened("phases:\n  a:\n    rules:\n      - when: (total + 1) == 7\n")
    assert service.signature_help(uri, Place(3, 20)) is None
    assert service.signature_help(uri, Place(3, 30)) is None


def test_folding_ranges_are_the_yaml_blocks_and_the_comment_runs():
    service, uri = opened(GAME)
    folds = {(f.start, f.end) for f in service.folding_ranges(uri)}
    assert (4, 19) in folds  # phases:
    assert (5, 11) in folds and (12, 19) in folds  # each phase
    assert (7, 8) in folds  # a rule of two lines
    assert (20, 24) in folds  # labels: to the end
    assert not any(start == end for start, end in folds)


def test_workspace_symbols_find_the_definitions_of_every_open_rule_file_by_part_of_their_name():
    service = LanguageService()
    service.open("untitled:one.yaml", "# hazard-dsl\n" + GAME)  # (the modeline: a rule file)
    service.open("untitled:two.yaml", "# hazard-dsl\n" + GAME.replace("seven_out", "out_seven"))
    service.open("untitled:notes.yaml", "title: no rule file\n")
    service.open("untitled:other.yaml", GAME)  # no modeline: not said to be a rule file
    found = {(s.uri, s.name, s.kind, s.line) for s in service.workspace_symbols("sevout")}
    assert found == {("untitled:one.yaml", "seven_out", "label", 25)}
    assert {s.name for s in service.workspace_symbols("second")} == {"second"}
    assert len(service.workspace_symbols("")) == 2 * 7  # both files: 2 phases, 1 variable and 4 labels each


def test_extends_is_a_link_to_the_parent_file(tmp_path):
    (tmp_path / "parent.yaml").write_text(GAME, encoding="utf-8")
    child = tmp_path / "child.yaml"
    text = "name: Child\nextends: parent.yaml\n"
    service = LanguageService()
    service.open(uri_of(child), text)
    [link] = service.document_links(uri_of(child))
    assert (link.line, link.start, link.end) == (1, 9, 20)
    assert link.target == uri_of(tmp_path / "parent.yaml")
    built_in = LanguageService()
    built_in.open(uri_of(child), "name: Child\nextends: craps\n")
    assert [k.target for k in built_in.document_links(uri_of(child))] == [uri_of(builtin_file("craps"))]


def _apply(text: str, edits) -> str:
    lines = text.split("\n")

    def offset(place) -> int:
        return sum(len(line) + 1 for line in lines[:place.line]) + place.column

    for e in sorted(edits, key=lambda e: offset(e.span.start), reverse=True):
        text = text[:offset(e.span.start)] + e.new_text + text[offset(e.span.end):]
    return text


@pytest.mark.parametrize("broken, title", [
    (GAME.replace("when: total == point", "when: total = point"), "Write `==` to compare"),
    (GAME.replace("      - when: total == point\n", "        when: total == point\n"), "Add the missing `- `"),
    (GAME.replace("      - when: total == 7\n        do: lose", "        when: total == 7\n        do: lose"),
     "Add the missing `- `"),
    (GAME.replace("      - otherwise: throw again\n", ""), "Add `otherwise: throw again`"),
    (GAME.replace("  seven_out: Seven out.\n", ""), "Declare the label 'seven_out' under `labels:`"),
    (GAME.replace("labels:\n  natural: Natural.\n  craps: Craps.\n  made: Made.\n  seven_out: Seven out.\n", "")
     .replace("win made", "win made"), None),
])
def test_each_quick_fix_gives_a_file_that_checks_clean(broken, title):
    service, uri = opened(broken)
    problems = service.diagnostics(uri)
    if title is None:  # a file with no labels: section at all reads its labels as they are used
        assert not [p for p in problems if p.severity == "error"]
        return
    actions = [a for p in problems for a in service.code_actions(uri, p.span) if a.title.startswith(title)]
    assert len(actions) == 1, [p.message for p in problems]
    mended = _apply(broken, actions[0].edits[uri])
    again, _ = opened(mended)
    assert again.diagnostics(uri) == [], mended


def test_a_label_is_declared_first_under_labels_at_its_indentation_saying_its_name():
    text = GAME.replace("  seven_out: Seven out.\n", "").replace("labels:\n  ", "labels:  # the endings\n    ")
    text = text.replace("\n  craps: Craps.\n  made: Made.\n", "\n    craps: Craps.\n    made: Made.\n")
    service, uri = opened(text)
    [action] = [a for p in service.diagnostics(uri) for a in service.code_actions(uri, p.span)]
    mended = _apply(text, action.edits[uri])
    assert mended.endswith('labels:  # the endings\n    seven_out: "Seven out."\n    natural: Natural.\n'
                           '    craps: Craps.\n    made: Made.\n')
    assert opened(mended)[0].diagnostics(uri) == []


def test_no_fix_where_the_text_is_not_what_the_diagnostic_says():
    # `=` already doubled elsewhere on the line: the fix replaces only the one the checker found
    text = GAME.replace("when: total == point", "when: total = point")
    service, uri = opened(text)
    [action] = [a for p in service.diagnostics(uri) for a in service.code_actions(uri, p.span)]
    [edit] = action.edits[uri]
    assert (edit.span.start.line, text.split("\n")[edit.span.start.line][edit.span.start.column]) == (15, "=")
    assert edit.new_text == "=="


def _walk_schema(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk_schema(value, (*path, key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from _walk_schema(value, (*path, k))


def test_the_schema_speaks_the_authors_words_and_names_every_kind_of_value():
    from hazard_dsl.language.schema import rule_file_schema

    schema = rule_file_schema()
    for path, node in _walk_schema(schema):
        for word in ("mapping", "dict"):
            for key in ("description", "title"):
                said = node.get(key)
                assert not (isinstance(said, str) and word in said.lower().split()), (path, said)
    # yaml-language-server's "Incorrect type. Expected X" names a definition by its title, else by
    # its $ref's last part ("money"): every definition has a title in words
    assert all(d.get("title") for d in schema["$defs"].values())
    assert schema["$defs"]["money"]["title"] == "an object"


def test_each_key_is_offered_once():
    from hazard_dsl.language.schema import rule_file_schema

    schema = rule_file_schema()
    offered = list(schema["properties"])
    # the keys an editor offers are those of `properties`, wherever a branch (if/then/else) has them
    for branch in ("then", "else"):
        offered += list(schema.get(branch, {}).get("properties", {}))
    assert len(offered) == len(set(offered)), [k for k in offered if offered.count(k) > 1]
    service, uri = opened("name: Mine\n\n")
    labels = [c.label for c in service.completion(uri, Place(1, 0))]
    assert "fees" in labels and len(labels) == len(set(labels))
    assert "name" not in labels  # already written


# --------------------------------------------------------------------------- the workbench's API


def test_the_workbench_gets_the_same_figures_tokens_and_fixes_from_the_api(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    header = {"X-Hazard-DSL": "1"}
    craps = builtin_file("craps").read_text(encoding="utf-8")
    with TestClient(create_app(tmp_path), base_url="http://127.0.0.1") as client:
        got = client.post("/api/figures", json={"text": craps, "name": "craps.yaml"}, headers=header)
        assert got.status_code == 200
        found = got.json()
        lines = craps.split("\n")
        natural = next(k for k, line in enumerate(lines) if "do: win natural" in line)  # from 1: the line above
        assert {"line": natural, "column": len(lines[natural - 1]) + 1, "label": "ends 2/9 of games (22.22%)"}.items() \
            <= next(h for h in found["hints"] if h["line"] == natural).items()
        assert any(k["title"] == "bet pass: edge 7/495 (1.414%) against the backer" for k in found["lenses"])
        first = next(t for t in found["tokens"] if t["line"] == natural)
        assert lines[natural - 1][first["column"] - 1:][:first["length"]] == "total" and first["kind"] == "variable"
        # a text with an error: its tokens, no figures
        broken = GAME.replace("when: total == point", "when: total = point")
        found = client.post("/api/figures", json={"text": broken, "name": "mine.yaml"}, headers=header).json()
        assert found["hints"] == [] and found["lenses"] == [] and found["tokens"]
        # and its quick fix, one click in the workbench's list of problems
        [problem] = [d for d in client.post("/api/check", json={"text": broken, "name": "mine.yaml"},
                                            headers=header).json()["diagnostics"] if d["line"]]
        assert [(f["title"], f["new_text"], f["range"]["line"], f["range"]["column"]) for f in problem["fixes"]] == \
            [("Write `==` to compare", "==", 16, broken.split("\n")[15].index("=") + 1)]


@pytest.mark.browser
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_workbench_shows_the_figures_and_the_colours_inside_the_text(tmp_path):
    """In a real Chromium: craps' figures after its rules and above its phases and bets, its
    expressions coloured by kind; a mistake typed takes the figures away and its quick fix (a
    button in the list of problems) brings them back."""
    import shutil
    import subprocess
    import sys

    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
    pytest.importorskip("uvicorn")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    binary = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver)")
    craps = builtin_file("craps").read_text(encoding="utf-8")
    (tmp_path / "mine.yaml").write_text(craps.replace("when: total == point", "when: total = point"),
                                        encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "serve", "--port", "0", "--folder", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"):
        options.add_argument(argument)
    chrome = None
    try:
        line = server.stdout.readline()
        assert " at http://" in line, line
        address = line.split(" at ")[1].split()[0].rstrip("/")
        chrome = webdriver.Chrome(service=Service(driver), options=options)
        chrome.get(f"{address}/workbench?file=mine.yaml")

        def inside(selector: str) -> list:
            return chrome.execute_script(
                "const r = document.getElementById('editor').shadowRoot;"
                f"return [...r.querySelectorAll({selector!r})].map(e => e.textContent);")

        def until(condition, message):
            return WebDriverWait(chrome, 30).until(lambda d: condition(), message)

        def scroll_to(number: int) -> bool:  # CodeMirror draws only the lines in view
            return chrome.execute_script(
                "const r = document.getElementById('editor').shadowRoot;"
                "const height = r.querySelector('.cm-line').getBoundingClientRect().height;"
                f"r.querySelector('.cm-scroller').scrollTop = Math.max(0, ({number} - 5) * height); return true;")

        natural = next(k for k, text in enumerate(craps.split("\n"), 1) if "do: win natural" in text)
        until(lambda: scroll_to(natural) and "total" in inside(".cm-expr-variable"), "the expressions coloured")
        assert "==" in inside(".cm-expr-operator") and "natural" in inside(".cm-expr-enumMember")
        assert inside(".cm-figure") == []  # the file has an error: no figures
        fix = until(lambda: chrome.find_elements(By.CSS_SELECTOR, "#diagnostics button.fix"), "the quick fix")
        assert fix[0].text == "Write `==` to compare"
        fix[0].click()
        until(lambda: scroll_to(natural) and "ends 2/9 of games (22.22%)" in inside(".cm-figure"), "the figures")
        assert any(t.startswith("phase come_out: the caster wins 244/495") for t in inside(".cm-lens"))
        bet = next(k for k, text in enumerate(craps.split("\n"), 1) if text == "  pass:")
        until(lambda: scroll_to(bet) and "bet pass: edge 7/495 (1.414%) against the backer" in inside(".cm-lens"),
              "a bet's lens")
    finally:
        if chrome is not None:
            chrome.quit()
        server.terminate()
        server.wait(timeout=20)


# --------------------------------------------------------------------------- formatting


@pytest.mark.parametrize("name", ["craps", "cotton", "hoyle"])
def test_formatting_takes_away_trailing_spaces_and_keeps_comments_byte_for_byte(name):
    import re

    text = builtin_file(name).read_text(encoding="utf-8")
    lines = text.split("\n")

    def one_line(k: int) -> bool:  # a rule's `when:`, `do:` or `otherwise:`, the value on its line
        return re.match(r"\s*(- )?(when|do|otherwise): [^>|'\"#\s][^#]*$", lines[k]) is not None

    # spaces and a tab after such lines, a comment with spaces after it, blank lines at the end
    messy = "\n".join(line + "  \t" if one_line(k) else line for k, line in enumerate(lines))
    assert messy.count("  \t\n") > 10
    messy = messy.replace("\n", "  # the author's note   \n", 1).rstrip("\n") + "\n\n\n"
    service, uri = opened(messy, f"untitled:{name}.yaml")
    mended = _apply(messy, service.formatting(uri))
    assert mended == text.replace("\n", "  # the author's note   \n", 1)
    assert service.formatting(uri) and opened(mended)[0].formatting("untitled:game.yaml") == []


def test_formatting_leaves_a_file_alone_where_it_would_change_a_value_or_does_not_read():
    kept = "name: X  \ndescription: |\n  two spaces end this line  \n  and not this one\n"
    service, uri = opened(kept)
    # the spaces in the block are its own text: only the first line's go
    assert _apply(kept, service.formatting(uri)) == kept.replace("X  \n", "X\n")
    service, uri = opened("name: [unclosed  \n")
    assert service.formatting(uri) == []


def test_api_figures_answers_any_body_with_figures_or_a_reason_never_a_500(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from hypothesis import HealthCheck, given, settings, strategies as st
    from starlette.testclient import TestClient

    from hazard_dsl.serve.app import create_app

    values = st.none() | st.booleans() | st.integers() | st.text(max_size=40) | st.sampled_from(
        ["name: x\nextends: craps\n", GAME, GAME.replace("==", "="), "phases: [", "x.yaml", ""])
    bodies = st.dictionaries(st.sampled_from(["text", "name"]) | st.text(max_size=5), values, max_size=3)
    app = create_app(tmp_path, inline=True, time_limit=5)
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(bodies)
        def sweep(body):
            got = client.post("/api/figures", json=body, headers={"X-Hazard-DSL": "1"})
            assert got.status_code in (200, 400, 413, 422), (body, got.status_code, got.text)
            if got.status_code == 200:
                assert set(got.json()) == {"tokens", "hints", "lenses", "reason"}
            else:
                assert got.json()["error"]

        sweep()


def test_the_real_yaml_language_server_says_an_object_and_offers_each_key_once(tmp_path):
    """Where yaml-language-server is installed (`npm install yaml-language-server`; its path in
    $YAML_LANGUAGE_SERVER or on PATH): a wrong type reads `Expected "an object"` (it said
    `Expected "money"`), and completion offers `fees` once (it offered it twice)."""
    import json
    import os
    import queue
    import shutil
    import subprocess
    import threading
    import time

    from hazard_dsl.language.schema import SCHEMA_FILE

    server = os.environ.get("YAML_LANGUAGE_SERVER") or shutil.which("yaml-language-server")
    if not server:
        pytest.skip("yaml-language-server is not installed (npm install yaml-language-server)")
    process = subprocess.Popen([server, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    arrived: queue.Queue = queue.Queue()

    def read():
        while True:
            length = None
            while True:
                line = process.stdout.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            arrived.put(json.loads(process.stdout.read(length)))

    threading.Thread(target=read, daemon=True).start()
    settings = {"schemas": {str(SCHEMA_FILE): "*.yaml"}, "validate": True, "completion": True}
    diagnostics: dict = {}

    def send(message):
        data = json.dumps(message).encode()
        process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        process.stdin.flush()

    def take(message):
        if message.get("method") == "textDocument/publishDiagnostics":
            diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
        elif "id" in message and "method" in message:  # the server asks for its settings
            items = message["params"].get("items", []) if message["method"] == "workspace/configuration" else None
            send({"jsonrpc": "2.0", "id": message["id"], "result": [settings] * len(items) if items else None})

    def request(number, method, params):
        send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        while True:
            message = arrived.get(timeout=30)
            if message.get("id") == number and "method" not in message:
                return message.get("result")
            take(message)

    try:
        request(1, "initialize", {"processId": None, "rootUri": tmp_path.as_uri(),
                                  "capabilities": {"workspace": {"configuration": True}}})
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration", "params": {"settings": {"yaml": settings}}})
        wrong, whole = (tmp_path / "wrong.yaml").as_uri(), (tmp_path / "whole.yaml").as_uri()
        for uri, text in ((wrong, "name: Mine\nextends: craps\nmoney: penny\n"),
                          (whole, "name: Mine\nstart: a\nphases:\n  a: [{otherwise: win x}]\n\n")):
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
        until = time.monotonic() + 20
        while wrong not in diagnostics and time.monotonic() < until:
            try:
                take(arrived.get(timeout=0.5))
            except queue.Empty:
                pass
        assert [d["message"] for d in diagnostics[wrong]] == ['Incorrect type. Expected "an object".']
        found = request(2, "textDocument/completion", {"textDocument": {"uri": whole},
                                                        "position": {"line": 4, "character": 0}})
        labels = [item["label"] for item in (found["items"] if isinstance(found, dict) else found)]
        assert "fees" in labels and len(labels) == len(set(labels)), sorted(labels)
    finally:
        process.kill()
        process.wait(timeout=10)
