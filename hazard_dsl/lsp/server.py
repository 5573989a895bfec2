"""The language server: one small function per LSP feature, each asking the language service.

The transport's own work only: documents kept in step with the editor (pygls applies incremental
edits; the service gets the whole text of each version), places converted between the client's
UTF-16 code units and the service's code points, the service's values turned into LSP's. A
problem is published once a worker has checked the newest version (`lsp.checks`); a quick fix is
a code action of kind ``quickfix``; what needs a check or takes time is answered from the last
version checked, or worked out off the server's thread (`lsp.checks`).

Why one module of some 780 lines: it is one table of registrations, about thirty LSP features of
a few lines each, every one of them only a conversion between LSP's types and the service's; the
reading of the stream (bounded frames, a refusal for a malformed one) is the server's own and
at the end. Split by feature, each piece would be a handful of lines importing the same server.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import sys
import types as pytypes

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from ..language.service import LanguageService, Place, RenameError, Span
from .checks import Checks, ContentModified
from .commands import CommandRefused, run_command
from ..language.figures import ANALYSE, DRAW, PLAY, never_fires
from ..language.tokens import KINDS as TOKEN_KINDS, encoded as encoded_tokens
from ..version import __version__

REQUEST_FAILED = -32803  # LSP's RequestFailed: a request refused for a reason the message gives

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
             "note": types.DiagnosticSeverity.Information}
_SYMBOL = {"phase": types.SymbolKind.Function, "variable": types.SymbolKind.Variable,
           "option": types.SymbolKind.Enum, "label": types.SymbolKind.EnumMember, "bet": types.SymbolKind.Object,
           "fee": types.SymbolKind.Object}
_COMPLETION = {"phase": types.CompletionItemKind.Event, "variable": types.CompletionItemKind.Variable,
               "fact": types.CompletionItemKind.Constant, "face": types.CompletionItemKind.Constant,
               "function": types.CompletionItemKind.Function,
               "label": types.CompletionItemKind.EnumMember, "option": types.CompletionItemKind.Enum,
               "value": types.CompletionItemKind.Value, "bet": types.CompletionItemKind.Class,
               "fee": types.CompletionItemKind.Class, "keyword": types.CompletionItemKind.Keyword,
               "key": types.CompletionItemKind.Property, "throw": types.CompletionItemKind.Value,
               "ruleset": types.CompletionItemKind.File, "role": types.CompletionItemKind.Value}


class _OneLine(logging.Filter):
    """The transport's log on standard error (an editor's output panel) says what went wrong in one
    line: a refused rename or a malformed request is the client's business, not a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], JsonRpcContentModified):
            return False  # a request of a version since replaced: the editor asks again, nothing went wrong
        if record.getMessage().startswith("Cancel notification for unknown message id"):
            return False  # an editor cancels what was already answered: nothing to say
        said = record.getMessage().split("\n", 1)[0]  # pygls writes some tracebacks into the message
        if record.exc_info and record.exc_info[1] is not None:
            said = f"{said}: {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        record.msg, record.args = said, None
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, answering a request it cannot read (a position of line -1 or 2**31, a
    field of the wrong type) with Invalid Params instead of dropping it, so that the editor
    waiting for that answer is not left waiting for ever."""

    _UNREAD = pytypes.SimpleNamespace(jsonrpc="unread")  # handle_message skips it (not JSON-RPC 2.0)

    def structure_message(self, data):
        try:
            return super().structure_message(data)
        except JsonRpcException:
            if "id" in data and "method" in data:
                self._send_response(data["id"], None, JsonRpcInvalidParams(
                    f"{data.get('method')}: the parameters do not fit the protocol").to_response_error())
            return self._UNREAD


class HazardServer(LanguageServer):
    """A pygls server holding one language service."""

    def __init__(self) -> None:
        super().__init__("hazard-dsl", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        # checks run in a worker, newest version only (lsp.checks); hover, completion and
        # definition answer at once from the last analysed version
        self.service = LanguageService(waits=False)
        self.checks = Checks(self.service, self.published)

    def report_server_error(self, error: Exception, source) -> None:
        # a notification that went wrong (a change to a document never opened, a message that
        # did not read) is logged in one line; a pop-up in the editor would only alarm the author
        if isinstance(error, JsonRpcContentModified):
            return  # a request of a version since replaced, refused as such: nothing went wrong
        print(f"hazard-dsl lsp: {type(error).__name__}: {error}", file=sys.stderr)

    def is_open(self, uri: str) -> bool:
        """Only documents the editor has opened are answered for: reading any other URI from
        disk could block on a FIFO, read the server's own standard input, or never end."""
        return uri in self.workspace.text_documents

    # --- places: the client's UTF-16 code units <-> the service's code points
    def lines(self, uri: str) -> list[str]:
        return self.workspace.get_text_document(uri).lines

    def place(self, uri: str, position: types.Position) -> Place:
        p = self.workspace.position_codec.position_from_client_units(self.lines(uri), position)
        return Place(p.line, p.character)

    def span_of(self, uri: str, span: types.Range) -> Span:
        return Span(self.place(uri, span.start), self.place(uri, span.end))

    def range(self, uri: str, span: Span) -> types.Range:
        codec, lines = self.workspace.position_codec, self.lines(uri)

        def position(place: Place) -> types.Position:
            return codec.position_to_client_units(lines, types.Position(place.line, place.column))

        return types.Range(position(span.start), position(span.end))

    # --- values
    def diagnostic(self, uri: str, problem) -> types.Diagnostic:
        return types.Diagnostic(range=self.range(uri, problem.span), message=problem.message + (
            f"\nhint: {problem.hint}" if problem.hint else ""), severity=_SEVERITY[problem.severity],
            source="hazard-dsl", code=problem.code, tags=[types.DiagnosticTag.Unnecessary] if never_fires(problem) else None)

    def publish(self, uri: str, version=None) -> None:
        """The document's diagnostics, once the worker has checked its newest version (`lsp.checks`)."""
        # an editor may start the server for every YAML file: only rule files are checked
        if self.service.is_rule_file(uri):
            self.checks.want(uri)
        else:
            self.checks.publish_now(uri, [])

    def published(self, uri: str, problems: list, version=None) -> None:
        """Publish the problems of the version held now (the worker's answer for it), or of an
        older `version`, its problems already placed in the text held (lsp.checks: STARVED)."""
        if version is None:
            version = self.workspace.get_text_document(uri).version if self.is_open(uri) else None
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=self.folded(uri, problems)))

    def folded(self, uri: str, problems: list) -> list[types.Diagnostic]:
        """One diagnostic a problem. A note of the file as a whole that comes with errors (which
        later checks wait for them) is said under the first error rather than as a diagnostic of
        its own on line 1, where an editor would show it as one more problem."""
        return [d for _, d in self.shown(uri, problems)]

    def shown(self, uri: str, problems: list) -> list[tuple]:
        """(problem, its diagnostic) of each problem published (`folded`)."""
        errors = [p for p in problems if p.severity == "error"]
        notes = [p for p in problems if p.severity == "note" and not p.placed] if errors else []
        found = []
        for p in problems:
            if p in notes:
                continue
            d = self.diagnostic(uri, p)
            if notes and p is errors[0]:
                d.message += "".join(f"\nnote: {n.message}" for n in notes)
            found.append((p, d))
        return found

    def publish_children(self, uris: list) -> None:
        for uri in uris:
            if self.is_open(uri):
                self.publish(uri, self.workspace.get_text_document(uri).version)

    def location(self, found) -> types.Location:
        # a parent file need not be open in the editor: its places are converted from its text
        uri = found.uri
        if uri not in self.workspace.text_documents:
            lines = self.service.text(uri).splitlines(keepends=True)
            codec = self.workspace.position_codec

            def position(place: Place) -> types.Position:
                return codec.position_to_client_units(lines, types.Position(place.line, place.column))

            return types.Location(uri, types.Range(position(found.span.start), position(found.span.end)))
        return types.Location(uri, self.range(uri, found.span))

    def symbol(self, uri: str, s) -> types.DocumentSymbol:
        return types.DocumentSymbol(name=s.name, kind=_SYMBOL.get(s.kind, types.SymbolKind.Key), detail=s.kind,
                                    range=self.range(uri, s.span), selection_range=self.range(uri, s.name_span),
                                    children=[self.symbol(uri, c) for c in s.children])


server = HazardServer()


def _answers(nothing):
    """A request's handler that answers `nothing` for a document not open or no rule file (an
    `.eslintrc.yml` gets no hover, completion or rename of ours), and for anything that
    goes wrong while answering (said in one line on standard error) rather than an error carrying
    a traceback; a refusal with a reason (JsonRpcException) is passed on as it is."""
    empty = nothing if callable(nothing) else (lambda: nothing)  # a new empty answer each time

    def wrap(handler):
        def failed(exc: Exception):
            if isinstance(exc, ContentModified):  # asked of a version since replaced (lsp.checks)
                raise JsonRpcContentModified("the document changed; ask again") from None
            print(f"hazard-dsl lsp: {handler.__name__}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return empty()

        if inspect.iscoroutinefunction(handler):  # answered from the worker's threads (lsp.checks)
            @functools.wraps(handler)
            async def answer_later(ls: HazardServer, params):
                uri = params.text_document.uri
                if not ls.is_open(uri) or not ls.service.is_rule_file(uri):
                    return empty()
                try:
                    return await handler(ls, params)
                except JsonRpcException:
                    raise
                except Exception as exc:  # noqa: BLE001 - the editor is told nothing, the log one line
                    return failed(exc)
            return answer_later

        @functools.wraps(handler)
        def answer(ls: HazardServer, params):
            uri = params.text_document.uri
            if not ls.is_open(uri) or not ls.service.is_rule_file(uri):  # a YAML file of another tool's
                return empty()
            try:
                return handler(ls, params)
            except JsonRpcException:
                raise
            except Exception as exc:  # noqa: BLE001 - the editor is told nothing, the log one line
                return failed(exc)
        return answer
    return wrap


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: HazardServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    children = ls.service.open(doc.uri, doc.text, doc.version)
    ls.publish(doc.uri, doc.version)
    ls.publish_children(children)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: HazardServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if not ls.is_open(uri):
        return
    children = ls.service.change(uri, ls.workspace.get_text_document(uri).source, params.text_document.version)
    ls.publish(uri, params.text_document.version)
    ls.publish_children(children)  # the open files that extend this one, checked against its new text


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: HazardServer, params: types.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    if not ls.is_open(uri):
        return
    document = ls.workspace.get_text_document(uri)
    # a file this one extends, not open, may have changed on disk
    children = ls.service.change(uri, document.source, document.version)
    ls.publish(uri, document.version)
    ls.publish_children(children)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: HazardServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    children = ls.service.close(uri)
    ls.checks.forget(uri)  # a check of it under way is stopped, and never published
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    ls.publish_children(children)  # they now read this file as saved


def _settings(found) -> list | None:
    """The `files` globs in an editor's settings, however it nests them: `{"files": […]}`,
    `{"hazard-dsl": {"files": […]}}` or `{"hazard-dsl.files": […]}`; None when it gives none."""
    if not isinstance(found, dict):
        return None
    for key in ("hazard-dsl", "hazard_dsl", "hazardDsl"):
        if isinstance(found.get(key), dict):
            return _settings(found[key])
    files = found.get("files", found.get("hazard-dsl.files"))
    if isinstance(files, str):
        files = [files]
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else None


@server.feature(types.INITIALIZE)
def initialize(ls: HazardServer, params: types.InitializeParams) -> None:
    roots = [f.uri for f in params.workspace_folders or ()] or [
        r for r in (params.root_uri, params.root_path) if isinstance(r, str)]
    ls.service.configure(_settings(params.initialization_options), roots)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: HazardServer, params: types.DidChangeConfigurationParams) -> None:
    files = _settings(params.settings)
    if files is None:  # (VS Code's client says only that something changed: ask)
        files = await _asked(ls)
    if files is not None:
        _reconfigured(ls, files)


@server.feature(types.INITIALIZED)
async def initialized(ls: HazardServer, params: types.InitializedParams) -> None:
    files = await _asked(ls)
    if files is not None:
        _reconfigured(ls, files)


async def _asked(ls: HazardServer) -> list | None:
    """The `hazard-dsl` section of the editor's settings, asked by `workspace/configuration`
    where the editor answers it (VS Code's client answers from settings.json: `"hazard-dsl.files"`);
    None where it does not, says nothing, or takes more than a few seconds."""
    import asyncio

    workspace = ls.client_capabilities.workspace if ls.client_capabilities else None
    if not (workspace and workspace.configuration):
        return None
    try:
        found = await asyncio.wait_for(ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section="hazard-dsl")])), 5)
    except Exception:  # noqa: BLE001 - an editor that cannot answer leaves the settings as they are
        return None
    return _settings({"hazard-dsl": found[0]}) if isinstance(found, (list, tuple)) and found else None


def _reconfigured(ls: HazardServer, files: list) -> None:
    ls.service.configure(files)
    for uri in list(ls.workspace.text_documents):  # a file may have become a rule file, or stopped being one
        ls.publish(uri, ls.workspace.get_text_document(uri).version)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@_answers(None)
def hover(ls: HazardServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    found = ls.service.hover(uri, ls.place(uri, params.position))
    if found is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=found.markdown),
                       range=ls.range(uri, found.span))


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[" ", ".", '"', "'"]))
@_answers(lambda: types.CompletionList(is_incomplete=False, items=[]))
def completion(ls: HazardServer, params: types.CompletionParams) -> types.CompletionList:
    uri = params.text_document.uri
    items = [types.CompletionItem(label=c.label, kind=_COMPLETION.get(c.kind), detail=c.detail,
                                  documentation=c.documentation, insert_text=c.insert_text)
             for c in ls.service.completion(uri, ls.place(uri, params.position))]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@_answers(list)
def definition(ls: HazardServer, params: types.DefinitionParams) -> list[types.Location]:
    uri = params.text_document.uri
    return [ls.location(found) for found in ls.service.definition(uri, ls.place(uri, params.position))]


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@_answers(list)
def references(ls: HazardServer, params: types.ReferenceParams) -> list[types.Location]:
    uri = params.text_document.uri
    found = ls.service.references(uri, ls.place(uri, params.position), params.context.include_declaration)
    return [ls.location(f) for f in found]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_answers(list)
def document_symbols(ls: HazardServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    uri = params.text_document.uri
    return [ls.symbol(uri, s) for s in ls.service.document_symbols(uri)]


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@_answers(None)
def prepare_rename(ls: HazardServer, params: types.PrepareRenameParams):
    uri = params.text_document.uri
    try:
        span, name = ls.service.prepare_rename(uri, ls.place(uri, params.position))
    except RenameError as exc:
        raise JsonRpcException(str(exc), REQUEST_FAILED) from None
    return types.PrepareRenamePlaceholder(range=ls.range(uri, span), placeholder=name)


@server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
@_answers(None)
def rename(ls: HazardServer, params: types.RenameParams) -> types.WorkspaceEdit:
    uri = params.text_document.uri
    try:
        edits = ls.service.rename(uri, ls.place(uri, params.position), params.new_name)
    except RenameError as exc:
        raise JsonRpcException(str(exc), REQUEST_FAILED) from None
    return types.WorkspaceEdit(changes={u: [types.TextEdit(ls.range(u, e.span), e.new_text) for e in found]
                                        for u, found in edits.items()})


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
@_answers(list)
async def code_actions(ls: HazardServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    # from the last version checked, placed in the text held (a check under way is not waited for)
    settled = await ls.checks.settled(uri)
    if settled[0] is None:
        return []
    actions = []
    shown = ls.shown(uri, ls.service.settled_problems(uri, settled))  # each fix names its diagnostic
    for fix in ls.service.code_actions(uri, ls.span_of(uri, params.range), settled):
        changes = {u: [types.TextEdit(ls.range(u, e.span), e.new_text) for e in found]
                   for u, found in fix.edits.items()}
        published = next((d for p, d in shown if p == fix.problem), None) or ls.diagnostic(uri, fix.problem)
        actions.append(types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[published],
                                        edit=types.WorkspaceEdit(changes=changes), is_preferred=True))
    return actions


# --- figures as you type, highlighting and the file's shape (language.figures, .tokens, .structure)

def _rule_files(nothing):
    """A handler that answers `nothing` for a YAML file no author said is a rule file (an editor
    may start the server for every YAML file: a CI workflow gets no colours, folds or figures)."""
    empty = nothing if callable(nothing) else (lambda: nothing)

    def wrap(handler):
        if inspect.iscoroutinefunction(handler):
            @functools.wraps(handler)
            async def answer_later(ls: HazardServer, params):
                return (await handler(ls, params)) if ls.service.is_rule_file(params.text_document.uri) else empty()
            return answer_later

        @functools.wraps(handler)
        def answer(ls: HazardServer, params):
            return handler(ls, params) if ls.service.is_rule_file(params.text_document.uri) else empty()
        return answer
    return wrap


@server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
@_answers(list)
@_rule_files(list)
async def inlay_hints(ls: HazardServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    settled = await ls.checks.settled(uri, figures=True)  # the last version checked, its figures
    if settled[0] is None:
        return []
    shown = ls.span_of(uri, params.range)
    return [types.InlayHint(position=ls.range(uri, Span(Place(h.line, h.column), Place(h.line, h.column))).start,
                            label=h.label, kind=types.InlayHintKind.Parameter, tooltip=h.tooltip,
                            padding_left=True)
            for h in ls.service.inlay_hints(uri, settled) if shown.start.line <= h.line <= shown.end.line]


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
@_answers(list)
@_rule_files(list)
async def code_lenses(ls: HazardServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    settled = await ls.checks.settled(uri, figures=True)  # the last version checked, its figures
    if settled[0] is None:
        return []
    found = []
    for lens in ls.service.code_lenses(uri, settled):
        where = ls.range(uri, Span(Place(lens.line, lens.start), Place(lens.line, lens.end)))
        found += [types.CodeLens(range=where, command=types.Command(title=title, command=command,
                                                                   arguments=list(arguments)))
                  for title, command, arguments in lens.commands]
    return found


def _run(ls: HazardServer, command: str, arguments: tuple):
    """A lens's command (lsp.commands): analyse (the text and the JSON of `hazard-dsl
    analyse`), draw (the phase's or the bet's drawing, as Mermaid and DOT) or play (the command
    line to run at a terminal: play is a conversation, not an answer)."""
    try:
        return run_command(ls.service, command, list(arguments), ls.is_open)
    except CommandRefused as exc:
        raise JsonRpcException(str(exc), REQUEST_FAILED) from None


@server.command(ANALYSE)
def analyse_command(ls: HazardServer, *arguments):
    return _run(ls, ANALYSE, arguments)


@server.command(DRAW)
def draw_command(ls: HazardServer, *arguments):
    return _run(ls, DRAW, arguments)


@server.command(PLAY)
def play_command(ls: HazardServer, *arguments):
    return _run(ls, PLAY, arguments)


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                types.SemanticTokensLegend(token_types=list(TOKEN_KINDS), token_modifiers=[]))
@_answers(lambda: types.SemanticTokens(data=[]))
@_rule_files(lambda: types.SemanticTokens(data=[]))
async def semantic_tokens(ls: HazardServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
    uri = params.text_document.uri
    # the text read again in the answers' thread, and never for a version already replaced
    found = await ls.checks.answer(uri, ls.service.held(uri), ls.service.semantic_tokens, uri)

    def column(line: int, at: int) -> int:
        return ls.range(uri, Span(Place(line, at), Place(line, at))).start.character

    return types.SemanticTokens(data=encoded_tokens(found, column))


@server.feature(types.TEXT_DOCUMENT_SIGNATURE_HELP, types.SignatureHelpOptions(trigger_characters=["(", ","]))
@_answers(None)
@_rule_files(None)
def signature_help(ls: HazardServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
    uri = params.text_document.uri
    found = ls.service.signature_help(uri, ls.place(uri, params.position))
    if found is None:
        return None
    return types.SignatureHelp(signatures=[types.SignatureInformation(
        label=found.label, documentation=found.documentation,
        parameters=[types.ParameterInformation(label=p) for p in found.parameters])],
        active_signature=0, active_parameter=found.active)


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
@_answers(list)
@_rule_files(list)
def folding_ranges(ls: HazardServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    return [types.FoldingRange(start_line=f.start, end_line=f.end,
                               kind=types.FoldingRangeKind.Comment if f.kind == "comment" else None)
            for f in ls.service.folding_ranges(params.text_document.uri)]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
@_answers(list)
@_rule_files(list)
def document_links(ls: HazardServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    uri = params.text_document.uri
    return [types.DocumentLink(range=ls.range(uri, Span(Place(k.line, k.start), Place(k.line, k.end))),
                               target=k.target, tooltip="the rule file this one extends")
            for k in ls.service.document_links(uri)]


@server.feature(types.WORKSPACE_SYMBOL)
def workspace_symbols(ls: HazardServer, params: types.WorkspaceSymbolParams) -> list[types.WorkspaceSymbol]:
    found = []
    for s in ls.service.workspace_symbols(params.query):
        if not ls.is_open(s.uri):
            continue
        where = ls.range(s.uri, Span(Place(s.line, s.start), Place(s.line, s.end)))
        found.append(types.WorkspaceSymbol(name=s.name, kind=_SYMBOL.get(s.kind, types.SymbolKind.Key),
                                           location=types.Location(s.uri, where), container_name=s.container))
    return found



@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@_answers(list)
@_rule_files(list)
def formatting(ls: HazardServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    uri = params.text_document.uri
    return [types.TextEdit(ls.range(uri, e.span), e.new_text) for e in ls.service.formatting(uri)]

# --- the stream: LSP's framing read here, with bounds (pygls's own reader has none)

MAX_HEADER_LINE = 1024  # bytes of one header line: `Content-Length: 123` and `Content-Type: …` are short
MAX_HEADERS = 16  # header lines of one message (LSP defines two)
# bytes of one message's body: a rule file is at most parse.files.MAX_BYTES, and JSON may write a
# character of it as six (\u0001); a message larger than this is no editor's
MAX_BODY = 8 * 1_000_000 + 65_536
PARSE_ERROR, INVALID_REQUEST = -32700, -32600


class BrokenStream(Exception):
    """The editor's stream cannot be read on: its framing is broken (a header that is no header,
    a Content-Length missing, or larger than a message may be) or it ended inside a message.
    Nothing after it can be trusted to start a message, so the server stops, saying why."""


class _Descriptor:
    """Reads of a file descriptor, buffered here with os.read: a thread blocked in a read of
    sys.stdin.buffer holds its lock, and Python then aborts at exit ("could not acquire lock");
    a thread blocked in os.read does not."""

    def __init__(self, fd: int):
        self.fd, self.kept = fd, bytearray()

    def _more(self) -> bool:
        chunk = os.read(self.fd, 65_536)
        self.kept += chunk
        return bool(chunk)

    def readline(self, limit: int) -> bytes:
        while True:
            end = self.kept.find(b"\n", 0, limit)
            if end >= 0 or len(self.kept) >= limit or not self._more():
                end = end + 1 if end >= 0 else min(limit, len(self.kept))
                line = bytes(self.kept[:end])
                del self.kept[:end]
                return line

    def read(self, size: int) -> bytes:
        while len(self.kept) < size and self._more():
            pass
        found = bytes(self.kept[:size])
        del self.kept[:size]
        return found


def read_message(stream) -> bytes | None:
    """The body of the next message on `stream` (a binary file), or None where the stream ends
    between messages. Every read is bounded: a header line by MAX_HEADER_LINE, the headers by
    MAX_HEADERS, the body by MAX_BODY — a lying `Content-Length: 999999999999` is refused before
    anything is read or allocated for it, rather than read (pygls would try, and die of MemoryError)."""
    length, headers = None, 0
    while True:
        line = stream.readline(MAX_HEADER_LINE + 1)
        if not line:
            if headers == 0:
                return None
            raise BrokenStream("the stream ended inside a message's headers")
        if len(line) > MAX_HEADER_LINE:
            raise BrokenStream(f"a header line longer than {MAX_HEADER_LINE} bytes")
        if not line.endswith(b"\n"):
            raise BrokenStream("the stream ended inside a message's headers")
        if line in (b"\r\n", b"\n"):
            if headers == 0:
                continue  # a blank line between messages: nothing lost
            break
        headers += 1
        if headers > MAX_HEADERS:
            raise BrokenStream(f"more than {MAX_HEADERS} header lines")
        name, colon, value = line.partition(b":")
        if not colon or not name.strip():
            raise BrokenStream(f"{line[:40].decode('ascii', 'replace').strip()!r} is no header (`Name: value`)")
        if name.strip().lower() == b"content-length":
            value = value.strip()
            if not value.isdigit() or len(value) > 15:
                raise BrokenStream(f"Content-Length {value[:20].decode('ascii', 'replace')!r} is no number of bytes")
            length = int(value)
    if length is None:
        raise BrokenStream("a message without Content-Length")
    if length > MAX_BODY:
        raise BrokenStream(f"a message of {length:,} bytes (Content-Length), more than the {MAX_BODY:,} "
                           f"a message may have")
    body = stream.read(length)
    if len(body) < length:
        raise BrokenStream(f"the stream ended inside a message ({len(body):,} of its {length:,} bytes came)")
    return body


def _refuse(protocol, data, code: int, message: str) -> None:
    """An error response to a message that is no request the protocol can take: with the
    request's id where it has one (a number or a string), else with id null, as JSON-RPC says."""
    ident = data.get("id") if isinstance(data, dict) else None
    if isinstance(ident, bool) or not isinstance(ident, (int, str)):
        ident = None
    # written as a plain object: pygls's own response drops an id of None, which JSON-RPC requires
    protocol._send_data({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}})


def take(ls: HazardServer, body: bytes) -> None:
    """One message's body handed to pygls, once it is known to be JSON-RPC 2.0: what is not JSON
    gets ParseError, what is not a request, a notification or a response (no `"jsonrpc": "2.0"`,
    no method, a batch) gets InvalidRequest — never silence, which would leave the editor waiting."""
    import json

    protocol = ls.protocol
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError)
        _refuse(protocol, None, PARSE_ERROR, "the message is not JSON")
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0" or not (
            isinstance(data.get("method"), str) or ("id" in data and ("result" in data or "error" in data))):
        if isinstance(data, dict) and "method" not in data and "id" in data:
            return  # a response of the editor's that does not read: nobody waits for an answer to it
        _refuse(protocol, data, INVALID_REQUEST,
                "not a JSON-RPC 2.0 request: an object with \"jsonrpc\": \"2.0\" and a method")
        return
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except (ValueError, RecursionError, JsonRpcException) as exc:
        _refuse(protocol, data, INVALID_REQUEST, f"the message does not read: {exc}")
        return
    try:
        protocol.handle_message(message)
    except Exception as exc:  # noqa: BLE001 - one line on standard error; the server reads on
        ls.report_server_error(exc, JsonRpcException)


async def _read_on(ls: HazardServer, stdin) -> int:
    """Read messages until the stream ends or the editor says exit: 0 after shutdown and exit;
    1, with a line on standard error, for a stream broken or closed without shutdown. The reads
    are a daemon thread's (a read blocked on a silent editor must not keep the process alive
    once the editor has said exit); the messages are handled here, in the event loop, in order."""
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    arrived: asyncio.Queue = asyncio.Queue()

    def reader() -> None:
        while True:
            try:
                body = read_message(stdin)
            except (BrokenStream, OSError, ValueError) as exc:  # (a closed or unreadable standard input)
                body = exc
            loop.call_soon_threadsafe(arrived.put_nowait, body)
            if not isinstance(body, bytes):
                return

    threading.Thread(target=reader, name="hazard-dsl lsp reader", daemon=True).start()
    while not ls._stop_event.is_set():
        body = await arrived.get()
        if isinstance(body, BrokenStream):
            print(f"hazard-dsl lsp: the editor's stream is broken: {body}; stopping", file=sys.stderr)
            return 1
        if isinstance(body, Exception):
            print(f"hazard-dsl lsp: standard input cannot be read: {body}; stopping", file=sys.stderr)
            return 1
        if body is None:
            if ls.protocol._shutdown:
                return 0
            print("hazard-dsl lsp: the editor closed the stream without shutdown; stopping", file=sys.stderr)
            return 1
        take(ls, body)
    return 0


def serve(stdin=None, stdout=None) -> None:
    """Answer an editor over stdin and stdout until it says exit. Ends with SystemExit(1) where
    the stream breaks or closes without shutdown (LSP's exit code without shutdown)."""
    import asyncio
    import threading

    from pygls.io_ import StdoutWriter

    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_OneLine())  # on the handler: it sees the records of every pygls module
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    # pygls's start_io, with our reader in place of its run_async (which reads without bounds)
    # the check and the answers' thread (lsp.checks) share the interpreter with the thread that
    # reads requests: each takes its turn within a millisecond rather than Python's 5 ms
    sys.setswitchinterval(0.001)
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    status = 0
    try:
        status = asyncio.run(_read_on(server, stdin or _Descriptor(sys.stdin.fileno())))
    except BrokenPipeError:
        print("hazard-dsl lsp: the editor closed its end of the stream; stopping", file=sys.stderr)
        status = 1
    except SystemExit as exc:  # the editor said exit (pygls's handler exits: 0 after shutdown, else 1)
        status = exc.code if isinstance(exc.code, int) else 1
    except KeyboardInterrupt:
        status = 1
    finally:
        server.shutdown()
    if status:
        raise SystemExit(status)
