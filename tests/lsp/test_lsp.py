"""`hazard-dsl lsp` driven as an editor drives it: a small JSON-RPC client over the server's stdin
and stdout (Content-Length framing), every read with a timeout so that a hung server fails the
test instead of hanging it. Open a file with a misspelt phase and get a diagnostic on its line with
the right range and a quick fix replacing the word; edit it clean and see the diagnostics cleared;
hover over `main` in a condition; complete after `goto `; go to a phase's definition; rename a
variable; get the document symbols. Places on the wire are LSP's: UTF-16 code units."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

EDITOR = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "editor"
TIMEOUT = 30  # seconds for any one answer: a check takes milliseconds; a hung server fails here


class Client:
    """An editor's end of the pipe: requests with ids, notifications, and what the server sends."""

    def __init__(self, log: Path):
        self._log = open(log, "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "hazard_dsl", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self._log)
        self._next = 0
        self._answers: dict = {}
        self._notes: queue.Queue = queue.Queue()
        self._arrived: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self._arrived.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request of the server's: answered with nothing
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                self._arrived.put(message)
            else:
                self._notes.put(message)

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method: str, params) -> object:
        self._next += 1
        wanted = self._next
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        while wanted not in self._answers:
            message = self._arrived.get(timeout=TIMEOUT)
            assert message is not None, "the server closed its output"
            self._answers[message["id"]] = message
        answer = self._answers.pop(wanted)
        if "error" in answer:
            raise RuntimeError(answer["error"]["message"])
        return answer["result"]

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, uri: str, version: int) -> list:
        """The diagnostics published for this version of the document (earlier ones skipped)."""
        while True:
            note = self._notes.get(timeout=TIMEOUT)
            if note["method"] == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri \
                    and note["params"].get("version") in (version, None):
                return note["params"]["diagnostics"]

    def close(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self._log.close()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    editor = Client(folder / "server.log")
    # the files of the test folder are rule files by the editor's setting (the server guesses none)
    answer = editor.request("initialize", {"processId": None, "rootUri": folder.as_uri(),
                                           "initializationOptions": {"hazard-dsl": {"files": ["*.yaml"]}},
                                           "capabilities": {
        "textDocument": {"hover": {"contentFormat": ["markdown"]}, "rename": {"prepareSupport": True}}}})
    capabilities = answer["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["definitionProvider"]
    assert capabilities["renameProvider"] == {"prepareProvider": True}
    assert "quickfix" in capabilities["codeActionProvider"]["codeActionKinds"]
    editor.notify("initialized", {})
    editor.folder = folder
    yield editor
    assert editor.close() == 0


def document(client, name: str, text: str) -> str:
    """A rule file beside small.yaml, opened in the editor (version 1); its URI."""
    path = client.folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                            "text": text}})
    return uri


def at(text: str, word: str, on: str, offset: int = 0) -> dict:
    """The LSP position (UTF-16) of `word` on the first line holding `on`."""
    for number, line in enumerate(text.split("\n")):
        if on in line:
            before = line[:line.index(word, line.index(on))] + "x" * offset
            return {"line": number, "character": len(before.encode("utf-16-le")) // 2}
    raise AssertionError(on)


SMALL = (EDITOR / "small.yaml").read_text(encoding="utf-8")


def test_a_misspelt_phase_its_range_its_quick_fix_and_cleared_once_fixed(client):
    text = SMALL.replace("goto point", "goto piont")
    uri = document(client, "misspelt.yaml", text)
    errors = [d for d in client.diagnostics(uri, 1) if d["severity"] == 1]
    assert len(errors) == 1
    start = at(text, "piont", "goto piont")
    assert errors[0]["range"] == {"start": start, "end": {**start, "character": start["character"] + 5}}
    assert "piont" in errors[0]["message"] and "did you mean 'point'" in errors[0]["message"]

    actions = client.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": errors[0]["range"],
                                                         "context": {"diagnostics": errors}})
    (action,) = actions
    assert action["kind"] == "quickfix" and action["title"] == "Change to 'point'"
    assert action["edit"]["changes"] == {uri: [{"range": errors[0]["range"], "newText": "point"}]}

    # the editor applies the fix as an incremental change: the diagnostics are cleared
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": errors[0]["range"], "text": "point"}]})
    assert client.diagnostics(uri, 2) == []


def test_hover_over_main_in_a_condition(client):
    uri = document(client, "hover.yaml", SMALL)
    client.diagnostics(uri, 1)
    found = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": at(SMALL, "main", "when: total == main", 1)})
    assert found["contents"]["kind"] == "markdown"
    assert "range 0..12" in found["contents"]["value"] and "the point the caster must throw again" in found["contents"]["value"]
    start = at(SMALL, "main", "when: total == main")
    assert found["range"] == {"start": start, "end": {**start, "character": start["character"] + 4}}


def test_places_are_utf16_code_units(client):
    text = SMALL.replace('made: "{caster} makes {main}."', 'made: "😋 {caster} makes {main}."')
    uri = document(client, "utf16.yaml", text)
    assert client.diagnostics(uri, 1) == []
    start = at(text, "main", "😋")  # the emoji is two UTF-16 code units, one code point
    found = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": start})
    assert found["range"]["start"] == start and "range 0..12" in found["contents"]["value"]


def test_completion_after_goto(client):
    text = SMALL.replace("goto point", "goto ")
    uri = document(client, "complete.yaml", text)
    client.diagnostics(uri, 1)
    position = at(text, "goto ", "goto ", 5)
    found = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": position})
    assert [item["label"] for item in found["items"]] == ["come_out", "point"]


def test_definition_of_a_phase(client):
    uri = document(client, "definition.yaml", SMALL)
    client.diagnostics(uri, 1)
    found = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                       "position": at(SMALL, "point", "goto point")})
    start = at(SMALL, "point", "  point:")
    assert found == [{"uri": uri, "range": {"start": start, "end": {**start, "character": start["character"] + 5}}}]


def test_definition_across_extends_into_a_file_not_open(client):
    (client.folder / "small.yaml").write_text(SMALL, encoding="utf-8")
    text = (EDITOR / "child.yaml").read_text(encoding="utf-8")
    uri = document(client, "child.yaml", text)
    client.diagnostics(uri, 1)
    found = client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                       "position": at(text, "point", "goto point")})
    assert found[0]["uri"] == (client.folder / "small.yaml").resolve().as_uri()
    assert found[0]["range"]["start"] == at(SMALL, "point", "  point:")


def test_rename_a_variable(client):
    uri = document(client, "rename.yaml", SMALL)
    client.diagnostics(uri, 1)
    position = at(SMALL, "main", "set main")
    prepared = client.request("textDocument/prepareRename", {"textDocument": {"uri": uri}, "position": position})
    assert prepared["placeholder"] == "main"
    edit = client.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": position,
                                                  "newName": "point_value"})
    edits = edit["changes"][uri]
    assert len(edits) == 4 and {e["newText"] for e in edits} == {"point_value"}
    lines = SMALL.split("\n")
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        s, end = e["range"]["start"], e["range"]["end"]
        assert lines[s["line"]][s["character"]:end["character"]] == "main"
        lines[s["line"]] = lines[s["line"]][:s["character"]] + e["newText"] + lines[s["line"]][end["character"]:]
    renamed = "\n".join(lines)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": renamed}]})
    assert client.diagnostics(uri, 2) == []
    with pytest.raises(RuntimeError, match="reserved word"):
        client.request("textDocument/rename", {"textDocument": {"uri": uri}, "position": position, "newName": "goto"})


def test_document_symbols(client):
    uri = document(client, "symbols.yaml", SMALL)
    client.diagnostics(uri, 1)
    found = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [(s["name"], s["detail"]) for s in found] == [
        ("main", "variable"), ("natural", "label"), ("crabs", "label"), ("made", "label"), ("seven_out", "label"),
        ("come_out", "phase"), ("point", "phase"), ("line", "bet")]
    point = found[6]
    assert point["selectionRange"]["start"] == at(SMALL, "point", "  point:")
    assert point["range"]["end"]["line"] > point["range"]["start"]["line"] + 5  # the whole block


def test_closing_clears_the_diagnostics(client):
    uri = document(client, "closed.yaml", SMALL.replace("goto point", "goto piont"))
    assert client.diagnostics(uri, 1)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri, None) == []


def test_a_yaml_file_that_is_no_rule_file_is_left_alone(client):
    # outside the configured `*.yaml` (of the workspace folder itself), with no modeline
    uri = document(client, ".github/workflows/ci.yml", "name: CI\non: [push]\njobs:\n  test:\n"
                   "    runs-on: ubuntu-latest\n")
    assert client.diagnostics(uri, 1) == []
    uri = document(client, "lint/.eslintrc.yml", "extends: airbnb\nrules:\n  semi: error\n")
    assert client.diagnostics(uri, 1) == []


def test_a_document_not_open_is_not_read_from_disk(client, tmp_path):
    # a FIFO named like a rule file: reading it would block the server for ever
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for uri in (fifo.as_uri(), "file:///dev/stdin", "file:///dev/zero", "untitled:Untitled-1"):
        assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": {"line": 0, "character": 0}}) is None
        assert client.request("textDocument/definition", {"textDocument": {"uri": uri},
                                                          "position": {"line": 0, "character": 0}}) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": fifo.as_uri(), "version": 2},
                                             "contentChanges": [{"text": "x"}]})
    uri = document(client, "after_fifo.yaml", SMALL)  # and the server still answers
    assert client.diagnostics(uri, 1) == []


def test_a_request_that_does_not_fit_the_protocol_is_answered(client):
    uri = document(client, "bad_place.yaml", SMALL)
    assert client.diagnostics(uri, 1) == []
    for position in ({"line": -1, "character": 0}, {"line": 2 ** 31, "character": 0}, {"line": "x"}):
        with pytest.raises(RuntimeError):  # an error answer, not silence
            client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": at(SMALL, "main", "total == main")})


def test_the_server_log_holds_no_traceback(client):
    uri = document(client, "refused.yaml", SMALL)
    assert client.diagnostics(uri, 1) == []
    with pytest.raises(RuntimeError, match="reserved word"):
        client.request("textDocument/rename", {"textDocument": {"uri": uri}, "newName": "goto",
                                               "position": at(SMALL, "main", "total == main")})
    with pytest.raises(RuntimeError):
        client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}})
    log = (client.folder / "server.log").read_text()
    assert "Traceback" not in log


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_without_pygls_the_command_says_how_to_install_it():
    # `None` in sys.modules makes `import pygls` fail as if it were not installed
    code = "import sys; sys.modules['pygls'] = None; from hazard_dsl.cli import main; sys.exit(main(['lsp']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 2
    assert done.stderr.strip() == "hazard-dsl: error: the language server needs pygls: pip install 'hazard-dsl[lsp]'"
