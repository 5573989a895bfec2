"""`hazard-dsl lsp` keeps up with typing (issue 39, point 1), driven by pytest-lsp as an editor
drives it: 40 quick keystrokes then a hover, answered at once, and diagnostics published for
the last version only; a request during the long check of a large game (a counter to 4,000:
some 12,000 states, seconds to explore) answered before the check ends; and never a version's
diagnostics after a newer version's, however the edits and the checks interleave.

Every publication is recorded with its version and the moment it arrived; the server runs with
a reading cache of its own, and each large game's text is new (a token), so that its
check is a real one."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import time
import uuid
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

from hazard_dsl.language.service import uri_of

HERE = Path(__file__).resolve().parents[2]
CRAPS = HERE / "rulesets" / "craps.yaml"
SERVER = [sys.executable, "-m", "hazard_dsl", "lsp"]
TIMEOUT = 60  # seconds for any one publication: a hung server fails here, not the run
CACHE = tempfile.mkdtemp(prefix="hazard-dsl-typing-")  # the user's reading cache left alone
BOUND = 1.0  # seconds for a request's answer while checks run (measured: tens of milliseconds)
# seconds for an answer worked out in the answers' thread (craps' figures solved, its tokens read:
# tens of milliseconds alone) while a check runs in the other: the two share the interpreter
WORKED_BOUND = 3 * BOUND

needs_pytest_lsp = pytest.mark.skipif(pytest_lsp is None, reason="pytest-lsp is not installed (the test extra)")

# a counter to 4,000 in each of three phases (bench/bench_growth.py's long counter): a legal
# game whose exploration takes seconds, so that a request is sure to arrive while it runs
COUNTER = """\
# hazard-dsl
# {token}
name: Long counter
variables:
  n:
    range: 0..4000
start: a
phases:
  a:
    rules:
      - when: n == 4000
        do: set n = 0; goto b
      - when: total == 7
        do: set n = n + 1; throw again
      - when: total == 2
        do: lose
      - otherwise: throw again
  b:
    rules:
      - when: n == 4000
        do: set n = 0; goto c
      - when: total in {{6, 8}}
        do: set n = n + 1; throw again
      - when: total == 12
        do: lose
      - otherwise: throw again
  c:
    rules:
      - when: n == 4000
        do: win
      - when: total == 7
        do: set n = n + 1; throw again
      - when: total == 3
        do: lose
      - otherwise: throw again
"""

if pytest_lsp is not None:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER,
                                                  server_env=dict(os.environ, XDG_CACHE_HOME=CACHE)))
    async def client(lsp_client: LanguageClient):
        lsp_client.published = []  # (uri, version, diagnostics, when) of every publication

        def record(params: types.PublishDiagnosticsParams) -> None:
            lsp_client.published.append((params.uri, params.version, params.diagnostics, time.monotonic()))
            lsp_client.diagnostics[params.uri] = params.diagnostics

        lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
        await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
        yield
        await lsp_client.shutdown_session()


def opened(client, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    uri = uri_of(path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    return uri


def typed(client, uri: str, version: int, line: int, column: int, letter: str) -> None:
    """One keystroke: `letter` inserted at (line, column), as an editor sends it (incremental)."""
    at = types.Position(line, column)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangePartial(range=types.Range(at, at), text=letter)]))


async def publication(client, uri: str, version: int) -> tuple:
    """The first publication for `uri` of `version` (or a later one)."""
    async def arrive():
        while True:
            for found in client.published:
                if found[0] == uri and found[1] is not None and found[1] >= version:
                    return found
            await asyncio.sleep(0.01)
    return await asyncio.wait_for(arrive(), TIMEOUT)


def versions(client, uri: str) -> list:
    return [v for u, v, _, _ in client.published if u == uri]


def position(text: str, line: int, word: str) -> types.Position:
    return types.Position(line, text.split("\n")[line].index(word))


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_a_hover_behind_40_keystrokes_is_answered_at_once_and_only_the_last_is_published(
        client: LanguageClient, tmp_path):
    text = CRAPS.read_text(encoding="utf-8")
    uri = opened(client, tmp_path / "craps.hazard.yaml", text)
    await publication(client, uri, 1)
    lines = text.split("\n")
    described = next(i for i, s in enumerate(lines) if "description: the point set by" in s)
    end = len(lines[described])
    used = next(i for i, s in enumerate(lines) if s.strip() == "- when: total == point")
    started = time.monotonic()
    for k in range(40):  # a word typed at the end of the point's description: each version clean
        typed(client, uri, 2 + k, described, end + k, "abcdefghij"[k % 10])
    found = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), position(text, used, "point"))), TIMEOUT)
    answered = time.monotonic() - started
    print(f"hover behind 40 keystrokes answered in {answered * 1000:.1f} ms")
    assert answered < BOUND, answered
    # the variable as the last analysed version knows it (craps.yaml: point, range 0..10)
    assert found is not None and "**variable** `point`" in found.contents.value, found
    last = await publication(client, uri, 41)
    await asyncio.sleep(0.5)  # anything published late would arrive by now
    assert versions(client, uri) == [1, 41], versions(client, uri)
    assert last[2] == client.published[0][2]  # a description changed: the same diagnostics as v1


@needs_pytest_lsp
@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_request_during_a_long_check_is_answered_before_it_ends(client: LanguageClient, tmp_path):
    text = COUNTER.format(token=uuid.uuid4().hex)  # a text never checked before, by any cache
    uri = opened(client, tmp_path / "counter.hazard.yaml", text)
    await asyncio.sleep(0.3)  # the check under way (it takes seconds)
    line = next(i for i, s in enumerate(text.split("\n")) if "when: n == 4000" in s)
    asked = time.monotonic()
    found = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), position(text, line, "n =="))), TIMEOUT)
    answered = time.monotonic()
    items = await asyncio.wait_for(client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), position(text, line, "n =="))), TIMEOUT)
    completed = time.monotonic()
    print(f"hover during a long check answered in {(answered - asked) * 1000:.1f} ms, "
          f"completion in {(completed - answered) * 1000:.1f} ms")
    assert versions(client, uri) == []  # the check has not ended
    assert answered - asked < BOUND and completed - answered < BOUND
    # nothing analysed yet: hover says where the variable is defined (line 5 of the text)
    assert found is not None and "`n`, defined on line 5" in found.contents.value, found
    assert "n" in [i.label for i in (items.items if hasattr(items, "items") else items)]
    last = await publication(client, uri, 1)
    assert last[3] > answered  # published after the answers
    assert not [d for d in last[2] if d.severity == types.DiagnosticSeverity.Error], last[2]  # legal


@needs_pytest_lsp
@pytest.mark.slow
@pytest.mark.asyncio
async def test_an_edit_during_a_long_check_stops_it_and_only_the_new_version_is_published(
        client: LanguageClient, tmp_path):
    text = COUNTER.format(token=uuid.uuid4().hex)
    uri = opened(client, tmp_path / "counter.hazard.yaml", text)
    await asyncio.sleep(0.3)  # the check of version 1 under way
    line = next(i for i, s in enumerate(text.split("\n")) if "when: total == 2" in s)
    column = text.split("\n")[line].index("2")
    typed(client, uri, 2, line, column, "1")  # total == 12: still legal, a new text
    started = time.monotonic()
    await publication(client, uri, 2)
    took = time.monotonic() - started
    await asyncio.sleep(0.5)
    assert versions(client, uri) == [2]  # version 1's check was dropped, never published
    print(f"version 2 published {took:.2f} s after the edit")


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_no_version_is_published_after_a_newer_one(client: LanguageClient, tmp_path):
    """Keystrokes at uneven gaps around a check's length, making and mending an error by turns:
    whatever the worker finishes when, the versions published only rise, and the last is the
    last typed, with its own diagnostics."""
    text = CRAPS.read_text(encoding="utf-8")
    uri = opened(client, tmp_path / "craps.hazard.yaml", text)
    await publication(client, uri, 1)
    lines = text.split("\n")
    used = next(i for i, s in enumerate(lines) if s.strip() == "- when: total == point")
    column = lines[used].index("point")
    version = 1
    for k in range(24):
        version += 1
        if k % 2 == 0:  # `point` becomes `xpoint`: a name the checker does not know
            typed(client, uri, version, used, column, "x")
        else:  # and back
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [types.TextDocumentContentChangePartial(range=types.Range(
                    types.Position(used, column), types.Position(used, column + 1)), text="")]))
        await asyncio.sleep((0.0, 0.01, 0.03, 0.06, 0.12)[k % 5])
    version += 1
    typed(client, uri, version, used, column, "x")  # the last: with the error
    last = await publication(client, uri, version)
    await asyncio.sleep(0.5)
    seen = versions(client, uri)
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen
    assert seen[-1] == version
    errors = [d for d in last[2] if d.severity == types.DiagnosticSeverity.Error]
    assert [(d.range.start.line, d.range.start.character) for d in errors] == [(used, column)], last[2]


def test_the_checks_of_a_document_closed_are_dropped(tmp_path):
    """Without an editor: the worker's scheduling itself. A version replaced before its check
    starts is never checked; the newest is, once; a closed document's is never published."""
    from hazard_dsl.language.service import LanguageService
    from hazard_dsl.lsp.checks import Checks

    async def run():
        service = LanguageService(waits=False)
        said = []
        checks = Checks(service, lambda uri, problems: said.append((uri, service.held(uri).version, problems)))
        text = CRAPS.read_text(encoding="utf-8")
        service.open("untitled:a.yaml", text, 1)
        checks.want("untitled:a.yaml")
        for version in range(2, 12):
            service.change("untitled:a.yaml", text.replace("total == point", f"total == point{version}"), version)
            checks.want("untitled:a.yaml")
        service.open("untitled:b.yaml", text, 1)
        checks.want("untitled:b.yaml")
        service.close("untitled:b.yaml")
        checks.forget("untitled:b.yaml")
        for _ in range(500):
            await asyncio.sleep(0.01)
            if said and checks._running is None and not checks._wanted:
                break
        checks.close()
        return said, checks

    said, checks = asyncio.run(run())
    assert [(u, v) for u, v, _ in said] == [("untitled:a.yaml", 11)]
    # `point11` is no name of craps: one error, on it
    assert [p.message for p in said[0][2] if p.severity == "error"][0].count("point11") >= 1
    # version 1's check may have started before version 2 came (then stopped); 2 to 10 never did
    assert checks.checked == 1 and checks.stopped <= 1


def _range(line: int, start: int, end: int):
    return types.Range(types.Position(line, start), types.Position(line, end))


async def _timed(request) -> tuple:
    started = time.monotonic()
    found = await asyncio.wait_for(request, TIMEOUT)
    return found, time.monotonic() - started


@needs_pytest_lsp
@pytest.mark.slow
@pytest.mark.asyncio
async def test_code_actions_hints_lenses_and_tokens_during_a_long_check_are_answered_at_once(
        client: LanguageClient, tmp_path):
    """While the worker explores the long counter: the figures and quick fixes of craps (checked
    before) are answered within the bound; so are those of the counter itself, from its last
    version checked (one with an error, whose line has been mended since: no fix left)."""
    craps_text = CRAPS.read_text(encoding="utf-8")
    craps = opened(client, tmp_path / "craps.hazard.yaml", craps_text)
    await publication(client, craps, 1)
    text = COUNTER.format(token=uuid.uuid4().hex).replace("when: total == 2", "when: totl == 2")
    uri = opened(client, tmp_path / "counter.hazard.yaml", text)
    first = await publication(client, uri, 1)  # an error: the game is not explored, a quick check
    line = next(i for i, s in enumerate(text.split("\n")) if "when: totl == 2" in s)
    column = text.split("\n")[line].index("totl")
    assert [(d.range.start.line, d.range.start.character) for d in first[2]
            if d.severity == types.DiagnosticSeverity.Error] == [(line, column)], first[2]
    typed(client, uri, 2, line, column + 3, "a")  # `total`: legal, explored for seconds
    await asyncio.sleep(0.3)  # the check of version 2 under way
    lines = craps_text.split("\n")
    asked = {
        "craps code actions": client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(craps), _range(60, 0, 10), types.CodeActionContext(diagnostics=[]))),
        "craps inlay hints": client.text_document_inlay_hint_async(types.InlayHintParams(
            types.TextDocumentIdentifier(craps), types.Range(types.Position(0, 0), types.Position(len(lines) - 1, 0)))),
        "craps code lenses": client.text_document_code_lens_async(types.CodeLensParams(
            types.TextDocumentIdentifier(craps))),
        "craps semantic tokens": client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
            types.TextDocumentIdentifier(craps))),
        "counter code actions": client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), _range(line, column, column + 5),
            types.CodeActionContext(diagnostics=[]))),
        "counter inlay hints": client.text_document_inlay_hint_async(types.InlayHintParams(
            types.TextDocumentIdentifier(uri), _range(0, 0, 40))),
        "counter semantic tokens": client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
            types.TextDocumentIdentifier(uri))),
    }
    worked_out = ("craps inlay hints", "craps semantic tokens")  # the others: from what is known
    found = {}
    for what, request in asked.items():
        found[what], took = await _timed(request)
        print(f"{what} during a long check answered in {took * 1000:.1f} ms")
        assert took < (WORKED_BOUND if what in worked_out else BOUND), (what, took)
    assert versions(client, uri) == [1]  # version 2's check has not ended
    # craps: a hint per rule that fires (its come-out and point rules at least), a lens per phase
    assert len(found["craps inlay hints"]) >= 6 and found["craps code lenses"], found["craps code lenses"]
    assert found["craps semantic tokens"].data and found["counter semantic tokens"].data
    # the counter: its last version checked had an error, since mended on its own line
    assert not found["counter code actions"] and not found["counter inlay hints"], found
    last = await publication(client, uri, 2)
    assert not [d for d in last[2] if d.severity == types.DiagnosticSeverity.Error], last[2]
    assert versions(client, uri) == [1, 2]


@needs_pytest_lsp
@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_request_waiting_for_a_first_check_is_cancelled_by_the_editor(client: LanguageClient, tmp_path):
    """A code action asked of a document no version of which is checked yet waits for its first
    check; `$/cancelRequest` ends that wait at once (LSP's RequestCancelled), the check goes on."""
    text = COUNTER.format(token=uuid.uuid4().hex)
    uri = opened(client, tmp_path / "counter.hazard.yaml", text)
    await asyncio.sleep(0.3)  # its first check under way, for seconds
    ident = f"asked-{uuid.uuid4().hex}"
    # sent now (pytest-lsp's request is a coroutine: sent once it runs), with an id of our own
    waiting = asyncio.ensure_future(client.protocol.send_request_async(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionParams(types.TextDocumentIdentifier(uri), _range(8, 0, 5),
                                                                types.CodeActionContext(diagnostics=[])),
        msg_id=ident))
    await asyncio.sleep(0.2)
    assert versions(client, uri) == []
    cancelled = time.monotonic()
    client.cancel_request(types.CancelParams(id=ident))
    with pytest.raises(Exception) as refused:
        await asyncio.wait_for(waiting, TIMEOUT)
    took = time.monotonic() - cancelled
    print(f"cancelled in {took * 1000:.1f} ms")
    assert took < BOUND and versions(client, uri) == [], (took, versions(client, uri))
    assert "cancel" in str(refused.value).lower(), refused.value
    await publication(client, uri, 1)  # the check itself ran on, and is published


@needs_pytest_lsp
@pytest.mark.slow
@pytest.mark.asyncio
async def test_an_author_typing_without_a_pause_still_sees_diagnostics(client: LanguageClient, tmp_path):
    """Keys at 20 a second for eight seconds into Cotton's Hazard (a check of some tens of
    milliseconds, so each is stopped by the next key): once the document has waited three
    seconds (lsp.checks.STARVED), a check is let run and published as of its own version while
    the author types on; the versions published only rise, and the last key's is published last."""
    text = (HERE / "rulesets" / "cotton.yaml").read_text(encoding="utf-8")
    uri = opened(client, tmp_path / "cotton.hazard.yaml", text)
    await publication(client, uri, 1)
    lines = text.split("\n")
    line = next(i for i, s in enumerate(lines) if s.strip().startswith("description: ")
                and not s.rstrip().endswith((">", "|")))
    end = len(lines[line])
    version, start = 1, time.monotonic()
    for k in range(160):
        await asyncio.sleep(max(0.0, start + k / 20 - time.monotonic()))
        version += 1
        typed(client, uri, version, line, end + k, "etaoinshrd"[k % 10])
    typing_ended = time.monotonic()
    await publication(client, uri, version)
    await asyncio.sleep(0.5)
    seen = versions(client, uri)
    during = [when for u, v, _, when in client.published if u == uri and v is not None and 1 < v < version]
    print(f"published while typing: {len(during)} of {version - 1} versions; all: {seen}")
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen
    assert seen[-1] == version
    assert during and min(during) < typing_ended, seen
