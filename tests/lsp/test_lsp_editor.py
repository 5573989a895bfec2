"""`hazard-dsl lsp` driven as an editor drives it, by pytest-lsp (the client half of pygls, in a
real subprocess, over stdio): rename craps' `point` phase and get a file that `check`s clean;
edit a parent and see its open child checked again against the unsaved text; open
`.eslintrc.yml` and a CI workflow and get no diagnostic; each problem published once. And,
byte by byte over a pipe, what no editor should send: a lying `Content-Length`, a header that is
no header, a stream cut inside a message, a message that is not JSON or not JSON-RPC — each
answered with the protocol's error or ended with one line on standard error, within a timeout.

Issue 35, point 2 and its "Done when"."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
try:  # the test extra's pytest-lsp (with pytest-asyncio)
    import pytest_lsp
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, LanguageClient
except ImportError:  # pragma: no cover - said by the skip below
    pytest_lsp = None
    LanguageClient = object

from hazard_dsl.parse.files import builtin_file
from hazard_dsl.language.service import uri_of

HERE = Path(__file__).resolve().parents[1] / "data"
EDITOR = HERE / "rulesets" / "editor"
SERVER = [sys.executable, "-m", "hazard_dsl", "lsp"]
TIMEOUT = 30  # seconds for any one answer: a check takes milliseconds; a hung server fails here

needs_pytest_lsp = pytest.mark.skipif(pytest_lsp is None, reason="pytest-lsp is not installed (the test extra)")

if pytest_lsp is not None:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
    async def client(lsp_client: LanguageClient):
        await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(configuration=True),  # settings asked, as VS Code's
            text_document=types.TextDocumentClientCapabilities(
                rename=types.RenameClientCapabilities(prepare_support=True)))))
        yield
        await lsp_client.shutdown_session()


def opened(client, path: Path, text: str | None = None, version: int = 1) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8") if text is None else text
    uri = uri_of(path)
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)))
    return uri, text


def changed(client, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


async def published(client, uri: str) -> list:
    """The diagnostics next published for `uri` (the caller pops the last ones first)."""
    async def arrive():
        while uri not in client.diagnostics:
            await asyncio.sleep(0.02)
        return client.diagnostics[uri]
    return list(await asyncio.wait_for(arrive(), TIMEOUT))


def at(text: str, word: str, line: int) -> types.Position:
    """The position of `word` on line `line` (from 0; ASCII, so UTF-16 units are characters)."""
    return types.Position(line, text.split("\n")[line].index(word))


def applied(text: str, edits) -> str:
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert e.range.start.line == e.range.end.line
        line = lines[e.range.start.line]
        lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
    return "\n".join(lines)


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_renaming_crapss_point_gives_a_file_that_checks_clean(client: LanguageClient, tmp_path):
    path = tmp_path / "craps.hazard.yaml"  # a rule file by its name (docs/editors.md)
    shutil.copy(builtin_file("craps"), path)
    uri, text = opened(client, path)
    assert await published(client, uri) == []
    line = text.split("\n").index("  point:", text.split("\n").index("phases:"))  # the phase, not the variable
    where = types.Position(line, 2)
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        types.TextDocumentIdentifier(uri), where))
    assert prepared.placeholder == "point"
    uses = await client.text_document_references_async(types.ReferenceParams(
        context=types.ReferenceContext(include_declaration=True), text_document=types.TextDocumentIdentifier(uri),
        position=where))
    # the key, `goto point`, and the four bets made while a point is on (`made: phase == "point"`)
    assert len(uses) == 6
    edit = await client.text_document_rename_async(types.RenameParams(
        types.TextDocumentIdentifier(uri), where, "point_on"))
    renamed = applied(text, edit.changes[uri])
    assert renamed.count('"point_on"') == 4 and renamed.count("goto point_on") == 1
    path.write_text(renamed, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "check", str(path)], capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert (done.returncode, done.stdout.strip()) == (0, f"{path}: ok")
    # the editor applies the edit: the open file checks clean too
    client.diagnostics.pop(uri, None)
    changed(client, uri, renamed, 2)
    assert await published(client, uri) == []
    # and a name that would break the file is refused with the reason
    with pytest.raises(Exception, match="already the phase"):
        await client.text_document_rename_async(types.RenameParams(
            types.TextDocumentIdentifier(uri), types.Position(line, 2), "come_out"))


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_editing_a_parent_checks_its_open_child_again_against_the_unsaved_text(client: LanguageClient,
                                                                                 tmp_path):
    # small.hazard.yaml and a child extending it, both rule files by their names
    shutil.copy(EDITOR / "small.yaml", tmp_path / "small.hazard.yaml")
    child_text = (EDITOR / "child.yaml").read_text().replace("extends: small.yaml", "extends: small.hazard.yaml")
    (tmp_path / "child.hazard.yaml").write_text(child_text)
    parent, parent_text = opened(client, tmp_path / "small.hazard.yaml")
    child, _ = opened(client, tmp_path / "child.hazard.yaml")
    assert [d for d in await published(client, child) if d.severity == types.DiagnosticSeverity.Error] == []
    client.diagnostics.pop(child, None)
    changed(client, parent, parent_text.replace("  point:\n", "  rolling:\n"), 2)  # not saved
    errors = [d.message for d in await published(client, child) if d.severity == types.DiagnosticSeverity.Error]
    assert any("no phase 'point'" in m for m in errors), errors
    # definition from the child reads the same, edited, parent: its `point` is gone
    found = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(child), at(child_text, "point", child_text.split("\n").index(
            "      - otherwise: set main = total; goto point"))))
    assert found == []
    client.diagnostics.pop(child, None)
    changed(client, parent, parent_text, 3)  # put back: the child is clean again
    assert [d for d in await published(client, child) if d.severity == types.DiagnosticSeverity.Error] == []


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_yaml_files_of_other_tools_get_no_diagnostic(client: LanguageClient, tmp_path):
    for name, text in ((".eslintrc.yml", "extends: airbnb\nrules:\n  semi: error\n"),
                       (".github/workflows/ci.yml", "name: CI\non: [push]\njobs:\n  test:\n    runs-on: x\n"),
                       ("kustomization.yaml", "labels:\n  - pairs: {app: web}\n")):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        uri, _ = opened(client, path)
        assert await published(client, uri) == []
        hover = await client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(0, 1)))
        assert hover is None


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_a_configured_glob_makes_a_rule_file_and_each_problem_is_published_once(client: LanguageClient,
                                                                                   tmp_path):
    (tmp_path / "games").mkdir()
    text = (EDITOR / "small.yaml").read_text().replace("goto point", "goto piont").replace(
        "do: lose seven_out", "do: lose sevn_out")
    uri, _ = opened(client, tmp_path / "games" / "mine.yaml", text)
    assert await published(client, uri) == []  # no modeline, no configured glob: not a rule file
    client.diagnostics.pop(uri, None)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"hazard-dsl": {"files": [f"{tmp_path.as_posix()}/games/*.yaml"]}}))
    found = await published(client, uri)
    # two slips, two diagnostics: the misspelt phase (an error) and the label with no words (a
    # warning); the note of which checks wait is said under the error, not on line 1 of its own
    assert [(d.range.start.line, d.severity) for d in found] == [
        (21, types.DiagnosticSeverity.Error), (27, types.DiagnosticSeverity.Warning)], found
    assert "\nnote: " in found[0].message  # (its words are check's: which later checks wait)


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_the_glob_is_asked_of_the_editors_settings_when_it_says_they_changed(client: LanguageClient,
                                                                                  tmp_path):
    (tmp_path / "games").mkdir()
    text = (EDITOR / "small.yaml").read_text().replace("goto point", "goto piont")
    uri, _ = opened(client, tmp_path / "games" / "mine.yaml", text)
    assert await published(client, uri) == []
    client.diagnostics.pop(uri, None)
    # VS Code's client keeps `"hazard-dsl.files"` of settings.json and says only that they changed
    client.set_configuration({"files": [f"{tmp_path.as_posix()}/games/*.yaml"]}, section="hazard-dsl")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    assert [d.range.start.line for d in await published(client, uri)] == [21]


# --- what no editor should send, byte by byte


def _server(tmp_path):
    return subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path)


def _framed(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}}


def _answers(out: bytes) -> list[dict]:
    found = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")][0].split(b":")[1])
        found.append(json.loads(rest[:length]))
        out = rest[length:]
    return found


@pytest.mark.parametrize("sent, said", [
    (b"Content-Length: 999999999999\r\n\r\n{}", "a message of 999,999,999,999 bytes"),
    (b"Content-Length: 99999999999999999999999\r\n\r\n", "is no number of bytes"),
    (b"GET / HTTP/1.1\r\n\r\n", "is no header"),
    (b"Content-Type: application/json\r\n\r\n{}", "a message without Content-Length"),
    (b"Content-Length: 40\r\n\r\n{\"jsonrpc\"", "the stream ended inside a message (10 of its 40 bytes came)"),
    (b"X" * 5000, "a header line longer than 1024 bytes"),
])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_broken_stream_ends_the_server_with_one_line_and_no_traceback(tmp_path, sent, said):
    server = _server(tmp_path)
    try:
        out, err = server.communicate(_framed(INITIALIZE) + sent, timeout=TIMEOUT)
    finally:
        server.kill()
    assert server.returncode == 1, (out, err)
    assert [a["id"] for a in _answers(out)] == [1], (out, err)  # initialize was answered before the break
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and said in lines[0] and lines[0].startswith("hazard-dsl lsp: "), lines
    assert "Traceback" not in err.decode()


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_content_length_that_says_more_than_was_sent_gets_parse_error_then_stops_the_server(tmp_path):
    # the body said to be 30 bytes longer than it is swallows the head of the next message: what
    # is read is no JSON (ParseError, id null), and what follows starts no message (stopped)
    shutdown = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode()
    lying = b"Content-Length: %d\r\n\r\n" % (len(shutdown) + 30) + shutdown
    server = _server(tmp_path)
    try:
        out, err = server.communicate(_framed(INITIALIZE) + lying + _framed(INITIALIZE) + _framed(INITIALIZE),
                                      timeout=TIMEOUT)
    finally:
        server.kill()
    assert [(a["id"], a.get("error", {}).get("code")) for a in _answers(out)] == [(1, None), (None, -32700)]
    assert server.returncode == 1
    assert err.decode().strip().splitlines() == [
        "hazard-dsl lsp: the editor's stream is broken: a message without Content-Length; stopping"]


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_malformed_message_gets_the_protocols_error_and_the_server_reads_on(tmp_path):
    server = _server(tmp_path)
    body = b'{"jsonrpc": "2.0", "id": 2, "method": '
    sent = (_framed(INITIALIZE)
            + b"Content-Length: %d\r\n\r\n" % len(body) + body  # not JSON
            + _framed({"id": 3, "method": "textDocument/hover", "params": {}})  # no "jsonrpc"
            + _framed({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover",  # parameters of the wrong shape
                       "params": {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": "x"}}})
            + _framed([{"jsonrpc": "2.0", "id": 5, "method": "shutdown"}])  # a batch: not in LSP
            + _framed({"jsonrpc": "2.0", "id": 6, "method": "shutdown"})
            + _framed({"jsonrpc": "2.0", "method": "exit"}))
    try:
        out, err = server.communicate(sent, timeout=TIMEOUT)
    finally:
        server.kill()
    answers = {a["id"]: a for a in _answers(out) if a["id"] is not None}
    # with id null, in order: ParseError (not JSON: no id to read), InvalidRequest (the batch)
    assert [a["error"]["code"] for a in _answers(out) if a["id"] is None] == [-32700, -32600]
    assert answers[3]["error"]["code"] == -32600  # InvalidRequest
    assert answers[4]["error"]["code"] == -32602  # InvalidParams
    assert answers[6] == {"jsonrpc": "2.0", "id": 6, "result": None}
    assert server.returncode == 0 and "Traceback" not in err.decode()


# --- a real editor: Neovim, headless, with its own LSP client (tests/data/editors/nvim_check.lua)


def _neovim() -> tuple | None:
    """Neovim's version (major, minor), or None where it is not installed."""
    nvim = shutil.which("nvim")
    if nvim is None:
        return None
    try:
        said = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=TIMEOUT).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    import re

    found = re.search(r"NVIM v(\d+)\.(\d+)", said)
    return (int(found.group(1)), int(found.group(2))) if found else None


@pytest.mark.skipif(_neovim() is None, reason="Neovim is not installed (Debian: apt-get install neovim)")
@pytest.mark.skipif((_neovim() or (0, 7)) < (0, 7), reason="Neovim older than 0.7 (its LSP client lacks what the "
                                                            "script uses)")
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_headless_neovim_session_shows_diagnostics_a_quick_fix_hover_inlay_hints_and_rename(tmp_path):
    path = tmp_path / "mine.hazard.yaml"
    path.write_text((EDITOR / "small.yaml").read_text().replace("goto point", "goto piont"))
    env = {**__import__("os").environ, "HAZARD_FILE": str(path), "HAZARD_LSP": " ".join(SERVER),
           "HAZARD_CHECK": " ".join([sys.executable, "-m", "hazard_dsl", "check"])}
    done = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c",
                           f"luafile {HERE / 'editors' / 'nvim_check.lua'}"],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    said = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert said == [
        # small.yaml line 22: `      - otherwise: set main = total; goto piont`, the word at columns 42-47
        "ok: diagnostic on line 22, columns 42-47: goto: there is no phase 'piont'",
        "ok: quick fix 'Change to 'point'' applied; no error left",
        "ok: hover: **variable** `main`: range 0..12, starts at 0",
        # the come-out's first rule, a natural (7 or 11): 6/36 + 2/36 = 2/9 of games end there
        "ok: 6 inlay hints, the first on line 18: ends 2/9 of games (22.22%)",
        "ok: rename point -> rolling; hazard-dsl check: ok",
    ]
    assert "goto piont" in path.read_text()  # the edits were the buffer's, never saved: the server read the buffer


# --- the framing itself, on bytes in memory

from hypothesis import given, settings, strategies as st  # noqa: E402 - (the section's own imports)


def _frames(data: bytes) -> list:
    """What `read_message` makes of `data`: bodies until the end, or the BrokenStream's words."""
    import io

    from hazard_dsl.lsp.server import BrokenStream, read_message

    stream, found = io.BytesIO(data), []
    while True:
        try:
            body = read_message(stream)
        except BrokenStream as exc:
            return found + [f"broken: {exc}"]
        if body is None:
            return found
        found.append(body)


def test_framing_reads_headers_in_any_case_and_refuses_what_lies():
    assert _frames(b"content-length: 2\r\n\r\n{}\r\nContent-Length:3\r\nContent-Type: x\r\n\r\n[1]") == [b"{}", b"[1]"]
    assert _frames(b"Content-Length: 5\r\n\r\n{}") == [
        "broken: the stream ended inside a message (2 of its 5 bytes came)"]
    assert _frames(b"Content-Length: -1\r\n\r\n") == ["broken: Content-Length '-1' is no number of bytes"]
    assert _frames(b"A: b\r\n" * 17) == ["broken: more than 16 header lines"]
    assert _frames(b"Content-Length: 2\r\n") == ["broken: the stream ended inside a message's headers"]
    assert _frames(b"Content-Length: 2") == ["broken: the stream ended inside a message's headers"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_are_read_as_messages_or_refused_never_an_error_of_pythons(data):
    found = _frames(data)  # returns: the reads are bounded, whatever the bytes say
    assert all(isinstance(f, bytes) and len(f) <= 8 * 1_000_000 + 65_536 for f in found[:-1])
