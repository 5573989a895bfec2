"""Figures as you type: the inlay hints and code lenses of the language service (and of `hazard-dsl
lsp`, driven by pytest-lsp as an editor drives it) are the figures `hazard-dsl analyse --json`
prints, compared exactly, for craps and for Cotton's Hazard.

Where the expected figures come from: `hazard-dsl analyse RULESET --json` run as a command. Its
`labels` give the chance of each ending; the rules that end a game with a label fire, between
them, in exactly that share of games. Its `expected_throws` is the sum of every rule's expected
firings (each throw fires exactly one rule). Its `bets[...].edge` is a bet's lens, its `win` the
lens of the phase a game starts in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from hazard_dsl.language.service import LanguageService, uri_of
from hazard_dsl.parse import syntax as ex
from hazard_dsl.parse.files import builtin_file


def analysed(name: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "hazard_dsl", "analyse", name, "--json", "--no-options"],
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def opened(name: str):
    path = builtin_file(name)
    service, uri = LanguageService(), uri_of(path)
    service.open(uri, path.read_text(encoding="utf-8"))
    return service, uri


@pytest.mark.parametrize("name", ["craps", "cotton"])
def test_the_rules_figures_are_analyses_chances_of_each_ending(name):
    expected = analysed(name)
    service, uri = opened(name)
    figures = service.figures(uri)
    assert figures is not None and figures.reason is None
    ruleset = service._doc(uri).checked[0]
    ending = {}  # (phase, index) -> the label the rule ends with
    for phase in ruleset.phases.values():
        for rule in phase.rules:
            for action in rule.actions:
                if isinstance(action, ex.End):
                    ending[(phase.name, rule.index)] = action.label
    by_label: dict = {}
    for r in figures.rules:
        if (r.phase, r.index) in ending:
            by_label.setdefault(ending[(r.phase, r.index)], []).append(r.firings)
    assert by_label  # (the file's own rules end its games)
    for label, firings in by_label.items():
        assert sum(firings) == Fraction(expected["labels"].get(label, "0")), label  # (0: not with these options)
    # each throw fires one rule: every rule's firings add up to the expected throws per game
    assert sum(r.firings for r in figures.rules) == Fraction(expected["expected_throws"])


def test_a_rule_that_alone_ends_with_a_label_says_analyses_chance_in_its_hint():
    expected = analysed("craps")
    service, uri = opened("craps")
    lines = service._doc(uri).lines
    hints = {h.line: h for h in service.inlay_hints(uri)}
    natural = next(k for k, line in enumerate(lines) if "do: win natural" in line) - 1  # its `- when:` line
    assert expected["labels"]["natural"] == "2/9"
    assert hints[natural].label.strip() == "ends 2/9 of games (22.22%)"
    assert hints[natural].column == len(lines[natural].rstrip("\r"))  # at the end of the line


@pytest.mark.parametrize("name", ["craps", "cotton"])
def test_each_bet_and_the_first_phase_have_a_lens_with_analyses_figure(name):
    expected = analysed(name)
    service, uri = opened(name)
    lenses = {(lens.kind, lens.name): lens for lens in service.code_lenses(uri)}
    bets = [n for kind, n in lenses if kind == "bet"]
    assert bets
    for bet in bets:
        edge = expected["bets"][bet]["edge"]
        assert f"edge {edge} (" in lenses[("bet", bet)].title, bet
        assert [c for _, c, _ in lenses[("bet", bet)].commands] == ["hazard-dsl.analyse", "hazard-dsl.draw",
                                                                     "hazard-dsl.play"]
    ruleset = service._doc(uri).checked[0]
    first = ruleset.start if ruleset.phases[ruleset.start].throws else None
    if first is not None:
        assert f"the caster wins {expected['win']} (" in lenses[("phase", first)].title
    assert Fraction(service.figures(uri).phases[next(p for p in ruleset.phases if ruleset.phases[p].throws
                                                     and service.figures(uri).phases[p].reached == 1)].win) \
        == Fraction(expected["win"])


def test_no_figures_for_a_file_with_an_error_and_figures_again_once_it_is_mended():
    service, uri = LanguageService(), "untitled:mine.yaml"
    broken = ("name: Mine\nextends: craps\nphases:\n  point:\n    rules:\n      - when: totl == 7\n"
              "        do: lose seven_out\n      - otherwise: throw again\n")
    service.open(uri, broken)
    assert service.figures(uri) is None and service.inlay_hints(uri) == [] and service.code_lenses(uri) == []
    service.change(uri, broken.replace("totl", "total"))
    hints = service.inlay_hints(uri)
    # the point ends only by a seven now: every game that reaches it (2/3, craps' own figure) ends
    # so, after 6 throws on average there (a seven is 1 throw in 6), 5 of them thrown again
    assert [(h.line, h.label.strip()) for h in hints] == [(5, "ends 2/3 of games (66.67%)"),
                                                         (7, "fires on average 10/3 times a game (3.333)")]


def test_a_rule_that_can_never_fire_is_tagged_unnecessary_and_the_lens_commands_run():
    from hazard_dsl.lsp.commands import CommandRefused, run_command
    from hazard_dsl.language.figures import never_fires

    service, uri = LanguageService(), "untitled:twice.yaml"
    service.open(uri, "name: Twice\nextends: craps\nphases:\n  point:\n    rules:\n      - when: total == 7\n"
                      "        do: lose seven_out\n      - when: total == 7\n        do: win point_made\n"
                      "      - when: total == point\n        do: win point_made\n      - otherwise: throw again\n")
    problems = service.diagnostics(uri)
    assert [p.span.start.line for p in problems if never_fires(p)] == [7]
    with pytest.raises(CommandRefused, match="errors"):
        run_command(service, "hazard-dsl.analyse", [uri])
    service, uri = opened("craps")
    answer = run_command(service, "hazard-dsl.analyse", [uri])
    assert answer["json"]["edge"] == "7/495" and "7/495" in answer["text"]
    drawn = run_command(service, "hazard-dsl.draw", [uri, "phase", "point"])
    assert "point" in drawn["mermaid"] and drawn["dot"].startswith(("digraph", "strict digraph"))
    assert run_command(service, "hazard-dsl.play", [uri])["command"][:2] == ["hazard-dsl", "play"]
    with pytest.raises(CommandRefused):
        run_command(service, "hazard-dsl.nothing", [uri])


# --------------------------------------------------------------------------- through `hazard-dsl lsp`

try:  # the test extra's pytest-lsp (and its pytest-asyncio): the tests above run without it
    import pytest_lsp
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, LanguageClient
except ImportError:  # pragma: no cover - said by the skip below
    pytest_lsp = None
    LanguageClient = object

needs_pytest_lsp = pytest.mark.skipif(pytest_lsp is None, reason="pytest-lsp is not installed (the test extra)")

if pytest_lsp is not None:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "hazard_dsl", "lsp"]))
    async def client(lsp_client: LanguageClient):
        await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
        yield
        await lsp_client.shutdown_session()


def _open(client, name: str) -> tuple[str, str]:
    path = builtin_file(name)
    text = path.read_text(encoding="utf-8")
    uri = uri_of(path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    return uri, text


@needs_pytest_lsp
@pytest.mark.asyncio
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
async def test_the_servers_inlay_hints_and_lenses_are_analyses_figures(client: LanguageClient):
    expected = analysed("craps")
    uri, text = _open(client, "craps")
    lines = text.split("\n")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri),
        range=types.Range(types.Position(0, 0), types.Position(len(lines), 0))))
    natural = next(k for k, line in enumerate(lines) if "do: win natural" in line) - 1
    said = {h.position.line: h.label for h in hints}
    assert said[natural].strip() == f"ends {expected['labels']['natural']} of games (22.22%)"
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    titles = [lens.command.title for lens in lenses]
    assert f"bet pass: edge {expected['bets']['pass']['edge']} (1.414%) against the backer" in titles
    assert any(lens.command.command == "hazard-dsl.analyse" for lens in lenses)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        "hazard-dsl.analyse", [uri]))
    assert answer["json"]["bets"]["pass"]["edge"] == expected["bets"]["pass"]["edge"]


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_the_server_tags_a_rule_that_can_never_fire_unnecessary(client: LanguageClient):
    uri = "file:///nowhere/twice.hazard.yaml"
    text = ("name: Twice\nextends: craps\nphases:\n  point:\n    rules:\n      - when: total == 7\n"
            "        do: lose seven_out\n      - when: total == 7\n        do: win point_made\n"
            "      - when: total == point\n        do: win point_made\n      - otherwise: throw again\n")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = client.diagnostics[uri]
    tagged = [d for d in found if d.tags and types.DiagnosticTag.Unnecessary in d.tags]
    assert [d.range.start.line for d in tagged] == [7]


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_the_server_answers_tokens_signatures_folds_links_symbols_and_a_quick_fix(client: LanguageClient):
    uri = "file:///nowhere/mine.hazard.yaml"
    text = ("name: Mine\nextends: craps\nphases:\n  point:\n    rules:\n      - when: ways(total) = 6\n"
            "        do: lose seven_out\n      - otherwise: throw again\n")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    document = types.TextDocumentIdentifier(uri)
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(document))
    from hazard_dsl.language.tokens import KINDS

    # `ways` on line 5 at column 14, a function (the kinds are the legend's, in its order)
    assert list(tokens.data[:5]) == [5, 14, 4, KINDS.index("function"), 0]
    signature = await client.text_document_signature_help_async(types.SignatureHelpParams(
        document, types.Position(5, 19)))
    assert signature.signatures[0].label == "ways(total) -> int"
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(document))
    assert (2, 7) in {(f.start_line, f.end_line) for f in folds}
    links = await client.text_document_document_link_async(types.DocumentLinkParams(document))
    assert [k.target for k in links] == [uri_of(builtin_file("craps"))]
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="poi"))
    assert [(s.name, s.location.uri) for s in symbols] == [("point", uri)]
    found = client.diagnostics[uri]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        document, found[0].range, types.CodeActionContext(diagnostics=found)))
    [fix] = [a for a in actions if a.title == "Write `==` to compare"]
    [edit] = fix.edit.changes[uri]
    assert (edit.range.start.line, edit.range.start.character, edit.new_text) == (5, 26, "==")


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_the_server_formats_a_file_keeping_its_comment(client: LanguageClient):
    uri = "file:///nowhere/tidy.hazard.yaml"
    text = "name: Tidy   \nextends: craps  # the parent   \n\n\n"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        types.TextDocumentIdentifier(uri), types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert [(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character, e.new_text)
            for e in edits] == [(0, 10, 0, 13, ""), (1, 31, 4, 0, "\n")]


@needs_pytest_lsp
@pytest.mark.asyncio
async def test_a_yaml_file_no_author_said_is_a_rule_file_gets_no_colours_folds_or_figures(client: LanguageClient):
    uri = "file:///nowhere/.github/workflows/ci.yml"
    text = "name: CI\non: push\njobs:\n  test:\n    steps:\n      - when: total == 7\n        do: win x\n"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    document = types.TextDocumentIdentifier(uri)
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(document))
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(document))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        document, types.Range(types.Position(0, 0), types.Position(7, 0))))
    assert list(tokens.data) == [] and not folds and not hints
