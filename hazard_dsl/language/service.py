"""The language service: what an editor asks of a rule file as it is being written, answered as
plain data. `hazard-dsl lsp` (`hazard_dsl.lsp.server`) and the browser workbench are two
transports over it; neither knows the language.

    service = LanguageService()
    service.open("file:///home/ann/rules/mine.yaml", text)
    service.diagnostics(uri)                 # [Problem], each with its fixes
    service.hover(uri, Place(12, 18))        # Hover | None
    service.completion(uri, Place(30, 13))   # [Completion]
    service.change(uri, new_text)            # the whole text: an editor's edits are the transport's to apply

Conventions, once for every method:

- **A document** is named by a URI. A ``file:`` URI is a rule file on disk, whose text here may
  be ahead of what is saved: it is checked as held, and its `extends:` resolves beside the file,
  as `check` resolves it. Any other URI (``untitled:…``, the workbench's) is a rule file held in
  a string, shown by the last part of its URI, which extends built-in rulesets only.
- **A place** (`Place`) is a line and a column, both from 0, the column in Unicode code points
  (the LSP transport converts to UTF-16 code units, the web API to lines and columns from 1). A
  range (`Span`) ends one past its last character.
- **Every answer is a value** with `to_json()`; nothing here raises for anything a person can
  type, except `rename`, which refuses a name with `RenameError` and says why.

Diagnostics are `check`'s (`check.check_ruleset`, the loader and checker themselves, with their
reading cache); the names — definitions, uses, scopes — come from `language.index`, built once per
version of a document; a parent reached through `extends:` is read once and kept while its file
is unchanged.

The values answered are `language.values`' (found here too); a document's problems, placed and
given their fixes, `language.problems`'; hover's words `language.hovers`', completion's
`language.completion`'. What stays here (some 900 lines) is one piece: the documents held,
their parents and the caches kept for them (one `Explorations`, `SectionNodes` and
`SectionIndexes` a service), and the service's answers over them — definitions, references, rename, symbols —
which all walk the same names.
"""

from __future__ import annotations

import itertools
import os
import re
import threading
from contextlib import contextmanager
from pathlib import Path

from ..cache import sharing
from ..compile.explorations import Explorations
from ..diagnostics import ERROR, RulesetError
from ..parse.sections import SectionNodes, nodes_of, reading_sections
from .index import GAME, Index, Name, SectionIndexes, build_index
from .completion import Completer
from .hovers import MAX_HOVER_STATES, bet_edge, Hovers, parent_said  # noqa: F401  (MAX_HOVER_STATES: found here too)
from .problems import problems_of
from .values import (Completion, Edit, Fix, Hover, Location, Place, Problem, QuickFix, RenameError, Span,  # noqa: F401
                     Symbol, span_of)

MAX_KEPT_EDGES = 256
MAX_EXTENDS = 16  # as the reader (parse.chain.MAX_EXTENDS_DEPTH)
RENAMABLE = ("phase", "variable", "label", "option", "bet", "fee")
# the author's word that a file is a rule file (`is_rule_file`): a comment line `# hazard-dsl`
# (`# hazard-dsl: rule file`), or a schema comment naming hazard-dsl's schema
_MODELINE = re.compile(r"^[ \t]*#[ \t]*(?:hazard-dsl[ \t]*(?::.*)?$"
                       r"|(?:yaml-language-server:[ \t]*)?\$schema[ \t]*[:=][ \t]*\S*hazard)", re.M | re.I)
_MODELINE_WITHIN = 4096  # characters at the head of a file where a modeline is looked for


# --------------------------------------------------------------------------- documents


def path_of(uri: str) -> Path | None:
    """The file a ``file:`` URI names, or None for any other URI."""
    if not uri.startswith("file:"):
        return None
    from urllib.parse import unquote, urlparse

    path = unquote(urlparse(uri).path)
    if os.name == "nt" and re.match(r"/[A-Za-z]:", path):
        path = path[1:]
    return Path(path) if path else None


def uri_of(path: Path) -> str:
    try:
        return Path(path).resolve().as_uri()
    except (OSError, ValueError):
        return Path(os.path.abspath(path)).as_uri()


class _Known:
    """What the versions of one document have found so far, shared by them all: the names of
    the newest version whose YAML read, the ruleset of the newest that checked (and whether it
    had errors). A version that does not read (yet) answers hover and completion from here.
    Each field is kept from the newest version that found it (`seq`, the order the versions
    were made in), so that a check of an old version finishing late changes nothing."""

    def __init__(self) -> None:
        self.names, self.names_seq = None, -1
        self.ruleset, self.errors, self.ruleset_seq = None, False, -1
        self.analysed = None  # the newest version whose check is done (`LanguageService.settled`)
        self.indexed = None  # the newest version whose names are read (`LanguageService.hover`)

    def found_analysed(self, doc) -> None:
        if self.analysed is None or doc.seq >= self.analysed.seq:
            self.analysed = doc

    def found_index(self, doc) -> None:
        if self.indexed is None or doc.seq >= self.indexed.seq:
            self.indexed = doc

    def found_names(self, seq: int, index) -> None:
        if seq >= self.names_seq:
            self.names, self.names_seq = index, seq

    def found_ruleset(self, seq: int, ruleset, errors: bool) -> None:
        if seq >= self.ruleset_seq:
            self.ruleset, self.errors, self.ruleset_seq = ruleset, errors, seq


_SEQ = itertools.count()  # the order versions are made in (an editor's version may be None)


class _Document:
    """One version of a document's text, and what is worked out from it, each once.

    Made cheaply: nothing is read until asked (an editor sends a version a keystroke). With
    `waits` false (the language server's), `ruleset_known` never starts a check itself: hover
    and completion answer from what the last analysed version found while a worker checks."""

    explorations = None  # the service's (set by it): lent to this version's check
    sections = None  # the service's `SectionIndexes` (set by it): the names of sections indexed before
    nodes = None  # the service's `SectionNodes` (set by it): the YAML of sections read before

    def __init__(self, uri: str, text: str, version=None, before: "_Document | None" = None,
                 waits: bool = True):
        self.uri, self.text, self.version = uri, text, version
        self.path = path_of(uri)
        self.name = self.path.name if self.path else (uri.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                                                       or "untitled.yaml")
        self.lines = text.split("\n")
        self.seq = next(_SEQ)
        self.waits = waits
        self._index: Index | None = None
        self._checked = None
        self._problems = None
        # one check of a version at a time: a request that needs it waits for the worker's
        self._checking = threading.Lock()
        # what the last version that read had: names to complete while this one does not read
        self._known = before._known if before is not None else _Known()
        # an edited version is checked without the reading cache on disk: a text typed a
        # keystroke at a time is seldom read again, and writing each version there (its ruleset
        # and its game's checks, pickled) was a fifth of a keystroke's check of craps
        self.on_disk = before is None
        if before is not None and waits:
            before.names, before.ruleset_known  # noqa: B018 - worked out now, as they always were

    @property
    def display(self) -> str:
        """The document's name in the checker's positions."""
        if self.path is None:
            return self.name
        from ..parse.files import display

        return display(self.path)

    @property
    def index(self) -> Index:
        if self._index is None:
            index = _index_of(self.text, self.display, self.sections, self.nodes)
            if index.definitions or index.uses:
                self._known.found_names(self.seq, index)
            self._index = index
            self._known.found_index(self)
        return self._index

    @property
    def names(self) -> Index:
        """The index of this version, or of the last one whose YAML read (for completion)."""
        index = self.index
        if not index.definitions and not index.uses and self._known.names is not None:
            return self._known.names
        return index

    @property
    def checked(self) -> tuple:
        """(the Ruleset or None, every diagnostic), as `check` finds them — a file it extends
        read as the editor holds it, where it is open (`overlay`), not as saved."""
        if self._checked is None:
            with self._checking:
                if self._checked is None:
                    self._checked = self._check()
        return self._checked

    def _check(self) -> tuple:
        if self.on_disk:
            from ..cache import check_ruleset
        else:
            from ..check import check_ruleset

        # the service's explorations lent: the bets checked against the same game are not played
        # out again for the next version (`compile.explorations.BetChecks`); and its sections'
        # nodes: a section as it was in the version before is not read again
        with sharing(self.explorations), reading_sections(self.nodes):
            if self.path is not None:
                with _reading(self.overlay()):
                    found = check_ruleset(self.path, text=self.text)
            else:
                found = check_ruleset(text=self.text, name=self.name)
        if found[0] is not None:
            self._known.found_ruleset(self.seq, found[0], any(d.severity == ERROR for d in found[1]))
        return found

    @property
    def analysed(self) -> bool:
        """Whether this version's check is done (its problems known without waiting)."""
        return self._checked is not None

    def overlay(self) -> dict:
        """{real path: text} of the files open in the editor (set by the service)."""
        return {}

    @property
    def ruleset_known(self):
        """The ruleset of this version if it reads, else of the last version that did."""
        if self._checked is None and (self._known.ruleset is not None or not self.waits):
            return self._known.ruleset  # not checked (yet): hover need not wait for it
        return self.checked[0] or self._known.ruleset

    def line(self, number: int) -> str:
        return self.lines[number].rstrip("\r") if 0 <= number < len(self.lines) else ""


_READING = threading.RLock()


@contextmanager
def _reading(overlay: dict):
    """While checking: a file of `overlay` (by real path) read as the text there, not from disk.
    The reader and its cache (`parse.chain`, `cache.disk`) open a parent file through
    `read_regular` and have no other way to be given its text; both are pointed here at once,
    so that the cache's digests are of the very text the reader parsed (a ruleset checked
    against an unsaved parent is kept under that parent's digest, never taken for the saved
    one). Serialized: the replacement is module-wide."""
    if not overlay:
        yield
        return
    from ..cache import disk as cache
    from ..parse import chain as reader

    original = reader.read_regular

    def read(path, max_bytes, *args, **kwargs):
        try:
            text = overlay.get(str(Path(path).resolve()))
        except (OSError, ValueError):
            text = None
        if text is None:
            return original(path, max_bytes, *args, **kwargs)
        data = text.encode("utf-8")
        if len(data) > max_bytes:
            from ..parse.files import TooLarge

            raise TooLarge(f"{path} is larger than {max_bytes:,} bytes")
        return data

    with _READING:
        reader.read_regular, cache.read_regular = read, read
        try:
            yield
        finally:
            reader.read_regular, cache.read_regular = original, original


def _index_of(text: str, display: str, kept: SectionIndexes | None = None,
              nodes: SectionNodes | None = None) -> Index:
    try:
        with reading_sections(nodes):
            root = nodes_of(text, display)
    except (RulesetError, RecursionError, ValueError):
        return Index()
    try:
        return build_index(root, text, kept)
    except RecursionError:
        return Index()


# --------------------------------------------------------------------------- the service


class LanguageService:
    """The open documents by URI, and every question an editor asks of them."""

    def __init__(self, waits: bool = True) -> None:
        # waits false: hover, completion and definition never start a check themselves, they
        # answer from the last analysed version (the language server checks in a worker)
        self.waits = waits
        self._open: dict[str, _Document] = {}
        self._disk: dict[str, tuple] = {}  # real path -> (stamp, _Document): parents read from disk
        self._edges: dict = {}  # (ruleset digest or text, bet) -> what hover says of its edge
        self._rule_files: set[str] = set()  # open documents once seen as rule files: checked while open
        self._globs: list = []  # the editor's `files` setting (`configure`)
        self._roots: list = []  # the editor's workspace folders, which a relative glob is read from
        self._explorations = Explorations()  # what compiling its documents' games lends the next (bounded)
        self._sections = SectionIndexes()  # the names of each section indexed lately, for the next version
        self._nodes = SectionNodes()  # ... and the YAML nodes of each section read lately

    # --- documents
    def open(self, uri: str, text: str, version=None) -> list[str]:
        """Hold the document as the editor has it; the URIs of the open documents that extend
        it, which are checked again against this text (the transport publishes them again)."""
        self._open[uri] = self._made(uri, text, version)
        return self._recheck_children(uri)

    def change(self, uri: str, text: str, version=None) -> list[str]:
        """The document's whole new text (an editor's incremental edits are applied by the
        transport); the URIs of the open documents that extend it, checked again against it."""
        before = self._open.get(uri)
        self._open[uri] = self._made(uri, text, version, before)
        return self._recheck_children(uri)

    def close(self, uri: str) -> list[str]:
        """Forget the document; the open documents that extended it now read it as saved: their
        URIs, checked again."""
        doc = self._open.get(uri)
        children = self._children(doc) if doc is not None else []
        self._open.pop(uri, None)
        self._rule_files.discard(uri)
        return self._remake(children)

    def _made(self, uri: str, text: str, version=None, before=None) -> _Document:
        doc = _Document(uri, text, version, before, self.waits)
        doc.explorations = self._explorations
        doc.sections = self._sections
        doc.nodes = self._nodes
        doc.overlay = lambda: self._overlay(doc)
        return doc

    def _overlay(self, doc: _Document) -> dict:
        """{real path: text} of the open files other than `doc`: what a check of `doc` reads for
        a file it extends, so that diagnostics, definition and hover read one version."""
        found = {}
        for other in self._open.values():
            if other is not doc and other.path is not None:
                try:
                    found[str(other.path.resolve())] = other.text
                except (OSError, ValueError):
                    continue
        return found

    def _recheck_children(self, uri: str) -> list[str]:
        return self._remake(self._children(self._open[uri]))

    def _remake(self, children: list) -> list[str]:
        """Each document afresh (its checks, index and figures to be worked out again), keeping
        its text and version."""
        for child in children:
            self._open[child.uri] = self._made(child.uri, child.text, child.version, child)
        return [child.uri for child in children]

    def text(self, uri: str) -> str:
        """The document's text as held, or as saved for a file not opened ("" when none)."""
        return self._doc(uri).text

    def _doc(self, uri: str) -> _Document:
        doc = self._open.get(uri)
        if doc is None:  # not opened: read it as saved, if it is a rule file on disk
            path = path_of(uri)
            doc = self._from_disk(path) if path is not None else None
            if doc is None:
                doc = _Document(uri, "")
        return doc

    def _from_disk(self, path: Path) -> _Document | None:
        """A file as saved, read once while it is unchanged (size and time)."""
        from ..parse.files import MAX_BYTES, read_regular

        try:
            real = path.resolve()
            info = real.stat()
        except (OSError, ValueError):
            return None
        stamp = (info.st_mtime_ns, info.st_size)
        kept = self._disk.get(str(real))
        if kept is not None and kept[0] == stamp:
            return kept[1]
        try:
            text = read_regular(real, MAX_BYTES).decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return None
        doc = self._made(real.as_uri(), text)
        self._disk[str(real)] = (stamp, doc)
        return doc

    def _parents(self, doc: _Document) -> list[_Document]:
        """The documents `doc` extends, nearest first: open ones as held, the rest as saved."""
        from ..parse.files import builtin_file, is_file, resolve

        chain, seen, current = [], {doc.uri}, doc
        while len(chain) < MAX_EXTENDS and current.index.extends is not None:
            named = current.index.extends[0]
            found = (resolve(named, current.path.parent) if current.path is not None
                     else builtin_file(named))
            if found is None or found.suffix.lower() not in (".yaml", ".yml") or not is_file(found):
                break
            uri = uri_of(found)
            if uri in seen:
                break
            seen.add(uri)
            parent = self._open.get(uri) or self._open_at(found) or self._from_disk(found)
            if parent is None:
                break
            chain.append(parent)
            current = parent
        return chain

    def _open_at(self, path: Path) -> _Document | None:
        """The open document of a file whose URI the editor spells otherwise than `uri_of`."""
        wanted = uri_of(path)
        for doc in self._open.values():
            if doc.path is not None and uri_of(doc.path) == wanted:
                return doc
        return None

    # --- which documents are rule files
    def configure(self, files=None, roots=None) -> None:
        """The editor's settings: `files`, globs of the files that are rule files (`rulesets/*.yaml`,
        `**/games/*.yml`; relative to a workspace folder of `roots`, a list of URIs or paths, or
        absolute); None leaves them as they were."""
        if files is not None:
            self._globs = [_glob(g) for g in files if isinstance(g, str) and g.strip()][:256]
        if roots is not None:
            self._roots = [r for r in (path_of(x) if x.startswith("file:") else Path(x)
                                       for x in roots if isinstance(x, str)) if r is not None]
        self._rule_files.clear()

    def is_rule_file(self, uri: str) -> bool:
        """Whether the author has said that the document is a rule file — never guessed from
        its keys (`extends:` and `labels:` are ESLint's and yamllint's too):

        - a modeline: a comment `# hazard-dsl` (alone, or `# hazard-dsl: …`), or a schema
          comment naming hazard-dsl's schema (`# yaml-language-server: $schema=…hazard…` or
          `# $schema: …hazard…`);
        - its name: `*.hazard.yaml` or `*.hazard.yml`;
        - a glob the editor configured (`configure`);
        - a built-in ruleset (the package's own files);
        - a file that an open rule file extends (its author said so with `extends:`).

        Once a rule file, always while open: deleting the modeline's line while editing hides nothing."""
        if uri in self._rule_files:
            return True
        said = self._says_rule_file(uri) or any(
            self._says_rule_file(d.uri) and any(_same(p, self._doc(uri)) for p in self._parents(d))
            for d in list(self._open.values()) if d.uri != uri)
        if said and uri in self._open:
            self._rule_files.add(uri)
        return said

    def _says_rule_file(self, uri: str) -> bool:
        doc = self._doc(uri)
        if _MODELINE.search(doc.text[:_MODELINE_WITHIN]):
            return True
        path = doc.path
        if path is None:
            return False
        if path.name.lower().endswith((".hazard.yaml", ".hazard.yml")):
            return True
        from ..parse.files import builtin_dir

        try:
            real = path.resolve()
            if real.parent == builtin_dir().resolve():
                return True
        except (OSError, ValueError):
            real = path
        for pattern in self._globs:
            if pattern.fullmatch(real.as_posix()) or pattern.fullmatch(path.as_posix()):
                return True
            for root in self._roots:
                for p in (path, real):
                    try:
                        relative = p.relative_to(root).as_posix()
                    except ValueError:
                        continue
                    if pattern.fullmatch(relative):
                        return True
        return False

    # --- diagnostics
    def diagnostics(self, uri: str) -> list[Problem]:
        """Every problem `check` finds in the document as it is held, sorted by place."""
        return self.problems(self._doc(uri))

    def held(self, uri: str):
        """The version of an open document held now (None when it is not open): a token for
        `problems` and `is_held`, so that a worker checks one version and its answer is
        published only while that version is still the newest."""
        return self._open.get(uri)

    def is_held(self, uri: str, version) -> bool:
        """Whether `version` (from `held`) is still the document's newest."""
        return version is not None and self._open.get(uri) is version

    def problems(self, doc: _Document) -> list[Problem]:
        """Every problem of one version (`held`), sorted by place; safe to ask from a worker
        thread (one check a version: a second asker waits for the first)."""
        if doc._problems is None:
            found = problems_of(doc)
            doc._problems = found
            doc._known.found_analysed(doc)
        return list(doc._problems)

    def settled(self, uri: str) -> tuple:
        """(the newest version of an open document whose check is done, a function from its
        lines to the lines of the version held now: `language.settled.line_map`), or (None, None)
        while no version has been checked. What a language server answers from while the
        version held waits for its check (`waits` false): nothing here checks."""
        from .settled import line_map

        held = self._open.get(uri)
        if held is None:
            return None, None
        found = held if held._problems is not None else held._known.analysed
        if found is None or found.uri != uri:
            return None, None
        return found, line_map(found.lines, held.lines)

    def settled_as(self, uri: str, doc) -> tuple:
        """`settled`'s answer for one version `doc` of the document (from `held`), checked."""
        from .settled import line_map

        return doc, line_map(doc.lines, self._open[uri].lines)

    def code_actions(self, uri: str, span: Span, settled: tuple | None = None) -> list[QuickFix]:
        """The quick fixes of the problems that touch `span`. With `settled` (from `settled`):
        those of that version's problems, placed in the text held now (`settled_problems`)."""
        if settled is None:
            return self._code_actions(uri, self._doc(uri), span, None)
        return self._code_actions(uri, settled[0], span, settled[1])

    def settled_problems(self, uri: str, settled: tuple) -> list[Problem]:
        """The problems of `settled`'s version (from `settled`) placed in the text held now; a
        problem on a line changed since is left out (`language.settled`)."""
        from . import settled as placing

        doc, where = settled
        return [p for p in (placing.problem(found, where) for found in self.problems(doc)) if p is not None]

    def _code_actions(self, uri: str, doc, span: Span, where) -> list[QuickFix]:
        from . import settled as placing

        found = []
        for problem in self.problems(doc):
            placed = problem if where is None else placing.problem(problem, where)
            if placed is None or not (placed.span.start <= span.end and span.start <= placed.span.end):
                continue
            fixes = [QuickFix(fix.title, problem, {uri: [Edit(fix.span, fix.new_text)]}) for fix in problem.fixes]
            fixes += self._fixes_beyond(uri, doc, problem)  # language.fixes: beyond "did you mean"
            if where is not None:
                fixes = [f for f in (placing.quick_fix(f, uri, where, placed) for f in fixes) if f is not None]
            found += fixes
        return found

    # --- names
    def _at(self, doc: _Document, place: Place) -> Name | None:
        return doc.index.at((place.line, place.column))

    def _key(self, doc: _Document, item: Name) -> tuple:
        """What a definition or use stands for: (kind, scope, name). A bet's rules read its own
        variables first, then the game's."""
        if item.kind == "value":
            return ("value", item.option, item.name)
        if item.kind == "variable" and item.scope != GAME and not item.definition:
            if not self._definitions(doc, ("variable", item.scope, item.name)):
                return ("variable", GAME, item.name)
        return (item.kind, item.scope, item.name)

    def _definitions(self, doc: _Document, key: tuple) -> list[tuple]:
        """(document, definition) of a key: the nearest file of the `extends` chain defining it
        (a file's own definition replaces its parent's)."""
        for d in [doc, *self._parents(doc)]:
            found = [(d, n) for n in d.index.definitions if self._key(d, n) == key]
            if found:
                return found
        return []

    def definition(self, uri: str, place: Place) -> list[Location]:
        """Where the name under `place` is defined (in this file or one it extends); on the
        value of `extends:`, the start of the file it names (a built-in ruleset's included)."""
        doc = self._doc(uri)
        parent = self._extended_at(doc, place)
        if parent is not None:
            return [Location(parent.uri, span_of((0, 0), (0, 0)))]
        item = self._at(doc, place)
        if item is None:
            return []
        return [Location(d.uri, span_of(n.start, n.end)) for d, n in self._definitions(doc, self._key(doc, item))]

    def _extended_at(self, doc: _Document, place: Place) -> _Document | None:
        """The file `extends:` names, where `place` is on its value (as held, where it is open)."""
        extends = doc.index.extends
        if extends is None or not (extends[1] <= (place.line, place.column) <= extends[2]):
            return None
        parents = self._parents(doc)
        return parents[0] if parents else None

    def references(self, uri: str, place: Place, include_declaration: bool = True) -> list[Location]:
        """Every use of the name under `place`: in this file, the files it extends, and the open
        files that extend this one (a child's `goto point` uses its parent's phase)."""
        doc = self._doc(uri)
        item = self._at(doc, place)
        if item is None:
            return []
        key = self._key(doc, item)
        found = []
        for d in [doc, *self._parents(doc), *self._children(doc)]:
            for n in d.index.uses + (d.index.definitions if include_declaration else []):
                if n.kind == key[0] and n.name == key[2] and self._key(d, n) == key:
                    found.append(Location(d.uri, span_of(n.start, n.end)))
        return sorted(set(found), key=lambda loc: (loc.uri != uri, loc.uri, loc.span.start))

    def _children(self, doc: _Document) -> list[_Document]:
        """The open documents that extend `doc`, directly or through others, as held."""
        return [d for d in self._open.values()
                if d is not doc and any(_same(p, doc) for p in self._parents(d))]

    def document_symbols(self, uri: str) -> list[Symbol]:
        """The phases, variables, options, labels, bets and fees the document defines, in file
        order; a bet's or a fee's own phases and variables under it."""
        doc = self._doc(uri)
        own: dict[str, list] = {}
        top = []
        for n in doc.index.definitions:
            if n.kind == "value":
                continue
            symbol = Symbol(n.name, n.kind, span_of(n.start, n.block_end or n.end), span_of(n.start, n.end))
            if n.scope == GAME:
                top.append(symbol)
            else:
                own.setdefault(n.scope, []).append(symbol)
        from ..records import replace

        return [replace(s, children=tuple(own.get(f"{s.kind} {s.name}", ()))) if s.kind in ("bet", "fee") else s
                for s in top]

    # --- rename
    def prepare_rename(self, uri: str, place: Place) -> tuple[Span, str]:
        """(the range of the name under `place`, the name) when it may be renamed; RenameError
        otherwise."""
        doc = self._doc(uri)
        item, key = self._renamable(doc, place)
        return span_of(item.start, item.end), item.name

    def rename(self, uri: str, place: Place, new_name: str) -> dict[str, list[Edit]]:
        """The edits, by URI, that rename the phase, variable, label, option, bet or fee under
        `place` everywhere it is named: its definition, every use in an expression, every word
        in quotes that names it (`phase == "point"`), a `say:`'s `{name}`, the keys that name one
        (`start:`, `backs:`, `after_labels:`, `by_option:`) — in this file and in every open file
        that extends it (a child's own definition of the name, which replaces the parent's, is
        renamed with it). RenameError, saying why, when the new name is no name, is reserved, is
        a fact, or is taken in any of those files or the files this one extends."""
        from ..model import BET_FACTS, DICE_FACTS, dice_shape, is_die_fact
        from ..parse.reader import KEYWORDS

        doc = self._doc(uri)
        item, key = self._renamable(doc, place)
        kind, scope, old = key
        if new_name == old:
            return {}
        if not new_name.isidentifier() or not new_name.isascii():
            raise RenameError(f"{new_name!r} is not a name: letters, digits and _, not starting with a digit")
        if new_name in KEYWORDS:
            raise RenameError(f"{new_name!r} is a reserved word of the rule language")
        if kind == "variable" and (new_name in DICE_FACTS or is_die_fact(new_name) or new_name in BET_FACTS
                                   or new_name in dice_shape(doc.ruleset_known).names):
            raise RenameError(f"{new_name!r} is a fact of the throw or of the game, which a variable cannot be named")
        children = self._children(doc)
        for d in [doc, *children]:
            taken = self._taken(d, kind, scope)
            if new_name in taken:
                where = "" if d is doc else f" in {d.name}, which extends this file"
                raise RenameError(f"{new_name!r} is already {taken[new_name]}{where}")
        edits: dict[str, list[Edit]] = {}
        for d in [doc, *children]:
            found = [Edit(span_of(n.start, n.end), new_name) for n in d.index.uses + d.index.definitions
                     if n.kind == kind and n.name == old and self._key(d, n) == key]
            if found:
                edits[d.uri] = sorted(set(found), key=lambda e: e.span.start)
        return edits

    def _renamable(self, doc: _Document, place: Place) -> tuple:
        item = self._at(doc, place)
        if item is None or item.kind not in RENAMABLE:
            raise RenameError("only a phase, a variable, a label, an option, a bet or a fee can be renamed")
        key = self._key(doc, item)
        defined = self._definitions(doc, key)
        if not defined:
            raise RenameError(f"{item.name!r} is defined nowhere: no {item.kind} of that name")
        if defined[0][0] is not doc:
            raise RenameError(f"the {item.kind} {item.name!r} is defined in {defined[0][0].name}, which this file "
                              f"extends: rename it there")
        for parent in self._parents(doc):
            # this file refines or replaces the parent's (a phase, an option's values key by key):
            # renamed here alone, it would be a new one, missing what it inherited
            if any(self._key(parent, n) == key for n in parent.index.definitions):
                raise RenameError(f"this file refines the {item.kind} {item.name!r} of {parent.name}, which it "
                                  f"extends: rename it there")
        return item, key

    def _taken(self, doc: _Document, kind: str, scope: str) -> dict[str, str]:
        """Names a renamed phase, variable, label, option, bet or fee may not take in `doc`
        (with the files it extends), and what each already is. A variable is not renamed to an
        option's name nor an option to a variable's, nor a bet to a fee's or back: a name that
        reads one way in a hover, a symbol list and an author's head."""
        shared = {"variable": ("variable", "option"), "option": ("variable", "option"),
                  "bet": ("bet", "fee"), "fee": ("bet", "fee")}.get(kind, (kind,))
        taken: dict[str, str] = {}
        for d in [doc, *self._parents(doc)]:
            for n in d.index.definitions:
                if n.kind not in shared:
                    continue
                if n.kind == "variable" and not (n.scope in (scope, GAME) or scope == GAME):
                    continue  # another bet's own variable
                if n.kind == "phase" and n.scope != scope:
                    continue
                taken.setdefault(n.name, f"the {n.kind} of that name")
        return taken

    # --- hover
    def hover(self, uri: str, place: Place) -> Hover | None:
        """What the name under `place` is: a variable's range, initial value and description; a
        phase's rules in words; a label's ending and what it says; an option's values and their
        meanings; a function's or a fact's meaning; a bet's payout and its exact edge."""
        doc = self._read_before(self._doc(uri), place)
        parent = self._extended_at(doc, place)
        if parent is not None:
            return Hover(span_of(doc.index.extends[1], doc.index.extends[2]), parent_said(parent))
        item = self._at(doc, place)
        if item is None:
            return None
        key = self._key(doc, item)
        try:
            text = Hovers(self, doc).say(item, key)
        except RecursionError:
            return None
        if not text and item.kind in ("phase", "variable", "label", "option", "bet", "fee"):
            text = self._where_defined(doc, key)
        return Hover(span_of(item.start, item.end), text) if text else None

    def _read_before(self, doc: _Document, place: Place) -> _Document:
        """`doc`, or where its names are not read yet (keystrokes since; the language server,
        `waits` false) the last version read, when it has as many lines and the line of `place`
        unchanged: every place on that line is the same in both, and reading the names of a
        long text anew (tens of milliseconds) would keep a hover waiting behind each keystroke."""
        older = doc._known.indexed
        if self.waits or doc._index is not None or older is None or older.uri != doc.uri:
            return doc
        if len(older.lines) == len(doc.lines) and older.line(place.line) == doc.line(place.line):
            return older
        return doc

    def _where_defined(self, doc: _Document, key: tuple) -> str | None:
        """What hover can say of a name while the file does not read (and no earlier version
        did): where it is defined, from the names alone."""
        defined = self._definitions(doc, key)
        if not defined:
            return None
        d, n = defined[0]
        whose = f" of the {key[1]}" if key[1] != GAME else ""
        where = f"line {n.start[0] + 1}" + ("" if d is doc else f" of {d.name}")
        return (f"**{key[0]}{whose}** `{key[2]}`, defined on {where}.\n\n"
                f"What it is, in words, is shown once the file checks clean.")

    def _bet_edge(self, doc: _Document, ruleset, name: str) -> str:
        """The exact edge of a bet, under the default options, for a file that checks clean; a
        note instead when it does not, or when its game is too large to solve while hovering."""
        if doc._problems is None and not self.waits:
            # not analysed yet: the ruleset is the last analysed version's, and so is the verdict
            errors = doc._known.errors if doc._known.ruleset is ruleset else True
        else:
            errors = any(p.severity == ERROR for p in self.diagnostics(doc.uri))
        if errors:
            return "Its exact edge is worked out once the file checks clean."
        key = (ruleset.digest or doc.text, name)
        if key not in self._edges:
            with sharing(self._explorations):
                self._edges[key] = bet_edge(ruleset, name)
            if len(self._edges) > MAX_KEPT_EDGES:
                self._edges.pop(next(iter(self._edges)))
        return self._edges[key]

    # --- completion
    def completion(self, uri: str, place: Place) -> list[Completion]:
        """What may be written at `place`: phases after `goto`, labels after `win`/`lose`/`push`,
        options after `option.` and their values inside quotes, variables, facts and functions
        in expressions, throws (`1-1`) where faces are read, names where a key's value names one."""
        doc = self._doc(uri)
        try:
            return Completer(self, doc, place).items()
        except RecursionError:
            return []

    # --- figures, highlighting and the file's shape (language.figures, .tokens, .structure, .fixes)
    def figures(self, uri: str):
        """The game's figures (`language.figures.Figures`) for the document as held, worked out
        once per version, or None while it has an error (figures are of a valid file only)."""
        return self.figures_of(self._doc(uri))

    def figures_of(self, doc):
        """`figures` of one version (`held`, `settled`): safe to ask from a worker thread."""
        from .figures import figures_of

        if getattr(doc, "_figures", None) is None:
            ruleset = doc.checked[0]
            if ruleset is None or any(p.severity == ERROR for p in self.problems(doc)):
                return None
            with sharing(self._explorations):
                doc._figures = figures_of(ruleset, doc.display)
        return doc._figures

    @staticmethod
    def figured(doc) -> bool:
        """Whether `figures_of(doc)` answers without working anything out."""
        return getattr(doc, "_figures", None) is not None or (
            doc._problems is not None and any(p.severity == ERROR for p in doc._problems))

    def inlay_hints(self, uri: str, settled: tuple | None = None) -> list:
        """Each rule's exact expected firings per game, at the end of its first line. With
        `settled` (from `settled`): that version's, on the lines of the text held now."""
        from . import settled as placing
        from .figures import hints

        doc = self._doc(uri) if settled is None else settled[0]
        found = self.figures_of(doc)
        found = hints(found, doc.lines) if found is not None else []
        return found if settled is None else placing.hints(found, settled[1], self._doc(uri).lines)

    def code_lenses(self, uri: str, settled: tuple | None = None) -> list:
        """Over each phase and bet: its exact figure and the commands to analyse, draw or play it.
        With `settled` (from `settled`): that version's, over the lines of the text held now."""
        from . import settled as placing
        from .figures import lenses

        doc = self._doc(uri) if settled is None else settled[0]
        found = self.figures_of(doc)
        found = lenses(found, doc.index, uri) if found is not None else []
        return found if settled is None else placing.lenses(found, settled[1])

    def semantic_tokens(self, uri: str) -> list:
        """Every token of the expression language in the document's strings (`language.tokens`)."""
        from .tokens import tokens

        doc = self._doc(uri)
        if getattr(doc, "_tokens", None) is None:  # once a version: an editor asks again and again
            doc._tokens = tokens(doc.text, doc.display)
        return list(doc._tokens)

    def folding_ranges(self, uri: str) -> list:
        from .structure import folding_ranges

        return folding_ranges([line.rstrip("\r") for line in self._doc(uri).lines])

    def document_links(self, uri: str) -> list:
        """`extends:`'s value as a link to the parent file."""
        from .structure import links

        doc = self._doc(uri)
        return links(doc.index, self._parents(doc))

    def workspace_symbols(self, query: str) -> list:
        """The definitions of every open rule file whose name holds `query`."""
        from .structure import workspace_symbols

        return workspace_symbols({u: d.index for u, d in self._open.items() if self.is_rule_file(u)}, query)

    def signature_help(self, uri: str, place: Place):
        """The signature of the function whose brackets hold `place` (`ways(`), or None."""
        from .structure import signature_help

        return signature_help(self._doc(uri).line(place.line), place.column)

    def formatting(self, uri: str) -> list[Edit]:
        """The edits that format the document without changing what it says (`language.formatting`:
        trailing spaces, the final line break; lines with a `#` untouched); [] when it cannot be
        formatted safely."""
        from .formatting import edits

        doc = self._doc(uri)
        return [Edit(span_of(a, b), text) for a, b, text in edits(doc.text, doc.display)]

    def _more_fixes(self, uri: str, problem: Problem) -> list:
        return self._fixes_beyond(uri, self._doc(uri), problem)

    def _fixes_beyond(self, uri: str, doc, problem: Problem) -> list:
        from .fixes import fixes

        extends = doc.index.extends
        if not problem.placed or (extends and (problem.span.start.line, problem.span.start.column) == extends[1]):
            return []  # of the file as a whole, or of a parent (shown on `extends:`): not this text's to mend
        return [QuickFix(title, problem, {uri: [Edit(span_of(a, b), text) for a, b, text in edits]})
                for title, edits in fixes(problem, doc.lines, doc.index)]



def _glob(pattern: str) -> re.Pattern:
    """A glob as a pattern of a whole path: `*` and `?` within one folder, `**` across folders
    (`**/` may be no folder at all), `{a,b}` either."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "{" and "}" in pattern[i:]:
            close = pattern.index("}", i)
            out.append("(?:" + "|".join(re.escape(a) for a in pattern[i + 1:close].split(",")) + ")")
            i = close + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def _same(one: _Document, other: _Document) -> bool:
    """Whether two documents are one file (an editor's URI and ours may spell it differently)."""
    if one.uri == other.uri:
        return True
    return one.path is not None and other.path is not None and uri_of(one.path) == uri_of(other.path)
