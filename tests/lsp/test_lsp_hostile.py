"""`hazard-dsl lsp` under an editor that misbehaves (fuzz42): versions going backwards or
repeated, a change to a document never opened, `$/cancelRequest` for ids nobody asked, places
past the end of the text, a document of most of a megabyte. The server answers, logs no
traceback, and the diagnostics it publishes last are those of the text the editor holds: the
same as a document opened afresh with that text (the second method). The campaign behind these
(fuzz_lsp42.py: 120 sessions of 10 to 40 hostile steps each) is in /work/notes/fuzz42."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls")

from tests.lsp.test_lsp import SMALL, Client, at, document  # noqa: E402

TYPO = SMALL.replace("goto point", "goto piont")
assert TYPO != SMALL


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp_hostile")
    editor = Client(folder / "server.log")
    editor.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {},
                                  "initializationOptions": {"hazard-dsl": {"files": ["*.yaml"]}}})
    editor.notify("initialized", {})
    editor.folder = folder
    yield editor
    assert editor.close() == 0
    assert "Traceback" not in (folder / "server.log").read_text()


def _messages(diagnostics: list) -> list:
    return sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"]) for d in diagnostics)


def fresh(client, name: str, text: str) -> list:
    """The diagnostics of `text` opened afresh as a document of its own."""
    return _messages(client.diagnostics(document(client, name, text), 1))


def change(client, uri: str, version: int, text: str) -> None:
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})


def test_a_version_going_backwards_is_the_newest_text(client):
    uri = document(client, "backwards.yaml", SMALL)
    assert client.diagnostics(uri, 1) == []
    change(client, uri, 7, TYPO)
    assert _messages(client.diagnostics(uri, 7)) == fresh(client, "backwards_typo.yaml", TYPO) != []
    change(client, uri, 3, SMALL)  # older by its number, newer by its order: the text held
    assert client.diagnostics(uri, 3) == []
    change(client, uri, 3, TYPO)  # the same number again
    assert _messages(client.diagnostics(uri, 3)) == fresh(client, "backwards_typo2.yaml", TYPO)


def test_an_edit_to_a_document_never_opened_and_cancels_of_unknown_ids_are_let_pass(client, tmp_path):
    never = (client.folder / "never.yaml").as_uri()
    change(client, never, 2, TYPO)
    for unknown in (10 ** 9, "an id", -1):
        client.notify("$/cancelRequest", {"id": unknown})
    uri = document(client, "after_never.yaml", TYPO)
    assert _messages(client.diagnostics(uri, 1)) == fresh(client, "after_never_fresh.yaml", TYPO) != []
    assert client.request("textDocument/hover", {"textDocument": {"uri": never},
                                                 "position": {"line": 0, "character": 0}}) is None


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion", "textDocument/definition",
                                    "textDocument/signatureHelp"])
def test_a_place_past_the_end_of_the_text_is_answered(client, method):
    uri = document(client, f"past_{method.rsplit('/', 1)[1]}.yaml", SMALL)
    assert client.diagnostics(uri, 1) == []
    lines = SMALL.count("\n")
    for line, character in ((lines + 1, 0), (lines + 50, 3), (3, 10_000), (10 ** 6, 10 ** 6)):
        client.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
    # and the server still answers in the text
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": at(SMALL, "main", "total == main")})


def test_an_edit_past_the_end_of_the_text_then_the_whole_text(client):
    uri = document(client, "edit_past.yaml", SMALL)
    assert client.diagnostics(uri, 1) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 10 ** 5, "character": 3}, "end": {"line": 10 ** 5 + 2, "character": 0}},
         "text": "zz"}]})
    change(client, uri, 3, TYPO)
    assert _messages(client.diagnostics(uri, 3)) == fresh(client, "edit_past_fresh.yaml", TYPO)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_document_of_most_of_a_megabyte_is_checked_and_the_small_one_still_answered(client):
    big = SMALL + "".join(f"# {k:06d} " + "x" * 60 + "\n" for k in range(12_000))  # ~ 850 kB of comments
    assert 800_000 < len(big.encode()) < 1_000_000
    uri = document(client, "big.yaml", big)
    assert client.diagnostics(uri, 1) == []
    small = document(client, "small_after_big.yaml", TYPO)
    assert _messages(client.diagnostics(small, 1)) == fresh(client, "small_after_big_fresh.yaml", TYPO)
