"""Safe YAML loading that keeps where every key and value came from.

PyYAML's safe composer gives a node tree with marks; we turn it into small `YMap` / `YSeq` /
`YScalar` values that remember their `Position`, so later stages can point at the exact key or
value (and, for expressions inside a scalar, at the exact character). Nothing is ever
constructed from a tag: only the plain YAML types are accepted. Size is bounded (bytes, nodes,
depth) so no file can make the loader hang or eat memory.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from ..diagnostics import Position, RulesetError, Diagnostic, SOURCES, Suggestion
from ..records import field, record
from .files import MAX_BYTES
from .numbers import MAX_YAML_DIGITS, yaml_int_digits
from .yaml_errors import dash_before, explain

MAX_NODES = 50_000
_LINE_BREAK = re.compile("\n")
# YAML's other line breaks (a lone \r, NEL, LS, PS): PyYAML's marks count them as lines, so the
# places worked out here from the line starts must too (fuzz42 P1: an old Mac file's errors
# were placed at 1:11762)
_YAML_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029")

# PyYAML is imported when a text is first read, not with this module: importing it takes about
# 18 ms (python -X importtime), and a command that finds its ruleset in the cache reads no YAML,
# though it imports the reader's names (a printed figure's value, say).
yaml = None


def _pyyaml():
    """The PyYAML module, imported on first use (and named `yaml` in this module from then on)."""
    global yaml
    if yaml is None:
        import yaml as module

        yaml = module
    return yaml


_INT = "tag:yaml.org,2002:int"
_STR = "tag:yaml.org,2002:str"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
# a whole number PyYAML's safe constructor reads as Python's int() does (ASCII digits, no leading 0)
_PLAIN_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}  # (PyYAML's)
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@record(frozen=True)
class YScalar:
    value: object  # str, int, float, bool or None as YAML resolved it
    text: str  # the scalar's text before typing: what expressions are parsed from
    position: Position
    _span: "_Span | None" = field(repr=False, compare=False, default=None)

    def position_at(self, offset: int) -> Position:
        """The file position of character `offset` of `text` (best effort for folded scalars)."""
        span = self._span
        if span is None:
            return self.position
        positions = span.positions
        if positions is None:
            positions = span.positions = {}
        found = positions.get(offset)  # an expression's nodes often start where another does
        if found is None:
            index = span.index(self.text, offset)
            line, line_start = span.line_of(index)
            found = positions[offset] = Position(self.position.file, line + 1, index - line_start + 1)
        return found

    def replaced_by(self, text: str):
        """A `Suggestion` putting `text` in place of this scalar's text as written (inside its
        quotes, if any, so the repair keeps them), or None where the scalar is not one line of
        the file (folded, or standing alone without a place)."""
        if self._span is None:
            return None
        start, end = self.position_at(0), self.position_at(len(self.text))
        if start.line != end.line or end.column - start.column != len(self.text):
            return None  # escapes or a fold: the written text is not the value's
        return Suggestion(text, start, end)

    def end(self) -> Position:
        """The file position just past the scalar's last character as written (its closing
        quote included, trailing spaces and line breaks not); its start when unknown."""
        if self._span is None:
            return self.position
        raw = self._span.raw.rstrip()
        index = self._span.start + len(raw)
        line_starts = self._span.line_starts
        line = bisect_right(line_starts, index) - 1
        return Position(self.position.file, line + 1, index - line_starts[line] + 1)


class _Span:
    """Where a scalar's text lies in the file. Each character's place is worked out only when
    a position inside the scalar is asked for (an expression's node, an error), since most
    scalars — descriptions, notes — never are."""

    __slots__ = ("raw", "start", "line_starts", "_offsets", "positions", "_line")

    def __init__(self, raw: str, start: int, line_starts: tuple):
        self.raw, self.start, self.line_starts, self._offsets = raw, start, line_starts, None
        # offset in the value -> its Position (they are immutable), made when the first is asked
        # for: most scalars never are, and each dict made is one more for the collector to scan
        self.positions: dict | None = None
        self._line = None  # the line the scalar starts on: (its number from 0, its start, the next's)

    def line_of(self, index: int) -> tuple:
        """The line (from 0) that holds index `index` of the file, and where it starts: the
        scalar's first line looked up once (most scalars are one line), any other by halves."""
        line = self._line
        if line is None:
            starts = self.line_starts
            number = bisect_right(starts, self.start) - 1
            line = self._line = (number, starts[number], starts[number + 1] if number + 1 < len(starts) else None)
        number, start, after = line
        if start <= index and (after is None or index < after):
            return number, start
        starts = self.line_starts
        number = bisect_right(starts, index) - 1
        return number, starts[number]

    def index(self, value: str, offset: int) -> int:
        """The index in the file of character `offset` of the scalar's `value` (`_align`; past
        either end, its first character or one past its last)."""
        offsets = self._offsets
        if offsets is None:
            # written as it reads (nearly every expression): character k at start + k, worked
            # out when asked for rather than laid out for every character
            offsets = self._offsets = len(value) if self.raw.startswith(value) else _align(
                value, self.raw, self.start)
        if offsets.__class__ is int:
            return self.start + min(max(offset, 0), offsets)
        return offsets[min(max(offset, 0), len(offsets) - 1)]


def scalar_of(text: str) -> YScalar:
    """A scalar standing alone, as if it were the whole of a one-line file: character k of its
    text is at line 1, column k + 1 (what is parsed from it is placed by offsets in the text)."""
    return YScalar(text, text, Position("", 1, 1), _Span(text, 0, (0,)))


@record(frozen=True)
class YSeq:
    items: tuple
    position: Position


@record(frozen=True)
class YMap:
    """A mapping; `entries` maps a key's text to (key scalar, value node), in file order."""

    entries: dict
    position: Position

    def get(self, key: str):
        entry = self.entries.get(key)
        return entry[1] if entry else None

    def key_position(self, key: str) -> Position:
        entry = self.entries.get(key)
        return entry[0].position if entry else self.position


YNode = YScalar | YSeq | YMap


def _align(value: str, raw: str, raw_start: int) -> tuple[int, ...]:
    """Map each character of a scalar's value to an index in the file.

    A visible character is found by scanning forward (past indentation, quotes and escapes); a
    space or line break in the value takes the next raw whitespace character if there is one
    (so indentation kept by a block scalar stays aligned) and otherwise stands where the
    folding happened."""
    if raw.startswith(value):  # written as it reads (nearly every expression): character k at k
        return tuple(range(raw_start, raw_start + len(value) + 1))
    offsets = []
    i = 0
    n = len(raw)
    for ch in value:
        if ch.isspace():
            if i < n and raw[i].isspace():
                offsets.append(raw_start + i)
                i += 1
            else:  # an escape such as \t, or folding that left no whitespace here
                offsets.append(raw_start + max(min(i, n) - 1, 0))
            continue
        j, limit = i, min(n, i + 200)
        while j < limit and raw[j] != ch:
            j += 1
        if j >= limit:
            j = min(i, max(n - 1, 0))
        offsets.append(raw_start + j)
        i = j + 1
    offsets.append(raw_start + min(i, n))  # one past the end, for "unexpected end"
    return tuple(offsets)


class _Loader:
    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.nodes = 0
        # where each line starts (past each `\n`), by the regular expression's loop, not Python's
        breaks = _YAML_BREAK if any(other in text for other in _OTHER_BREAKS) else _LINE_BREAK
        self.line_starts = (0, *[found.end() for found in breaks.finditer(text)])
        self.constructor = None  # PyYAML's, for a scalar that is not text (`constructed`)

    def constructed(self, node):
        """A scalar that is not text (a number, true, null…) as PyYAML's safe constructor makes
        it, the constructor made at the first of them. A plain whole number, a boolean and null
        are made here as that constructor makes them (`construct_yaml_int`, `_bool`, `_null`):
        making the constructor costs more than reading a whole game (30 of 45 µs for Cotton's)."""
        tag, text = node.tag, node.value
        if tag == _INT and _PLAIN_INT.match(text):  # (no 0x, 0b, octal 0…, 1_000 or 1:30)
            return int(text)
        if tag == _BOOL:
            found = _BOOLS.get(text.lower())
            if found is not None:
                return found
        if tag == _NULL:
            return None
        if self.constructor is None:
            self.constructor = _pyyaml().SafeLoader("")
        return self.constructor.construct_object(node)

    def scalar(self, value, text: str, position: Position, start: int, end: int, style) -> YScalar:
        """A scalar written from `start` to `end` of the file (its quotes, or its block header,
        left out of where its characters are)."""
        raw = self.text[start:end]
        if style == "'" or style == '"':
            raw, start = raw[1:], start + 1
        elif style == "|" or style == ">":
            skip = raw.find("\n") + 1 if "\n" in raw else len(raw)
            raw, start = raw[skip:], start + skip
        return YScalar(value, text, position, _Span(raw, start, self.line_starts))

    def from_events(self, parser) -> YNode | None:
        """The nodes of a document read from `parser`'s events (PyYAML's C parser), without the
        composer's tree between: each event is let go as soon as it is read, where the tree of
        nodes and marks the composer builds (some 800 objects for Cotton's game) lived until
        converted, for the collector to scan. The same nodes as `convert` of the composer's
        tree, for a document of plain nodes; None for anything else (an anchor, an alias, a
        tag, a key twice, a key that is no scalar, too many nodes or too deep, a second
        document), which is then composed and converted as before, and its problems said."""
        events = _pyyaml().events
        scalar_event, start_events = events.ScalarEvent, (events.MappingStartEvent, events.SequenceStartEvent)
        mapping_start, mapping_end, sequence_end = events.MappingStartEvent, events.MappingEndEvent, \
            events.SequenceEndEvent
        nodes = _pyyaml().nodes
        scalar_node, sequence_node, mapping_node = nodes.ScalarNode, nodes.SequenceNode, nodes.MappingNode
        get, resolve, file = parser.get_event, parser.resolve, self.file

        def node(event, depth: int):
            self.nodes += 1
            kind = event.__class__
            if self.nodes > MAX_NODES or depth > 100 or event.anchor is not None or \
                    kind is not scalar_event and kind not in start_events:
                raise _NotPlain
            tag = event.tag
            mark = event.start_mark
            position = Position(file, mark.line + 1, mark.column + 1)
            if kind is scalar_event:  # (the composer's tag: `compose_scalar_node`)
                text = event.value
                if tag is None or tag == "!":
                    tag = resolve(scalar_node, text, event.implicit)
                if tag == _STR:
                    return self.scalar(text, text, position, mark.index, event.end_mark.index, event.style)
                if tag not in _PLAIN_TAGS or tag == _INT and yaml_int_digits(text) > MAX_YAML_DIGITS:
                    raise _NotPlain
                try:
                    value = self.constructed(scalar_node(tag, text, mark, event.end_mark, event.style))
                except Exception:  # e.g. a malformed !!int: keep the text (as `convert`)
                    value = text
                return self.scalar(value, text, position, mark.index, event.end_mark.index, event.style)
            if tag is None or tag == "!":
                tag = resolve(mapping_node if kind is mapping_start else sequence_node, None, event.implicit)
            if tag not in _PLAIN_TAGS:
                raise _NotPlain
            depth += 1
            if kind is not mapping_start:
                items = []
                event = get()
                while event.__class__ is not sequence_end:
                    items.append(node(event, depth))
                    event = get()
                return YSeq(tuple(items), position)
            entries: dict = {}
            event = get()
            while event.__class__ is not mapping_end:
                key = node(event, depth)
                if key.__class__ is not YScalar or key.text in entries:
                    raise _NotPlain
                entries[key.text] = (key, node(get(), depth))
                event = get()
            return YMap(entries, position)

        get()  # the stream's start
        event = get()
        if event.__class__ is events.StreamEndEvent:
            return _EMPTY
        root = node(get(), 0)  # (past the document's start)
        if get().__class__ is not events.DocumentEndEvent or get().__class__ is not events.StreamEndEvent:
            raise _NotPlain  # a second document
        return root

    def pos(self, mark) -> Position:
        return Position(self.file, mark.line + 1, mark.column + 1)

    def convert(self, node, depth: int = 0) -> YNode:
        # (every node of a text read passes here: names are taken once into locals, and a
        # mapping's keys and values converted by a local name, which was a tenth of the time)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise RulesetError([Diagnostic(f"the file has more than {MAX_NODES} YAML nodes", self.pos(node.start_mark))])
        if depth > 100:
            raise RulesetError([Diagnostic("the YAML is nested more than 100 levels deep", self.pos(node.start_mark))])
        tag = node.tag
        if tag not in _PLAIN_TAGS:
            raise RulesetError([_foreign(node, self.text, self.pos(node.start_mark))])
        mark = node.start_mark
        position = Position(self.file, mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            text = node.value
            if tag == _STR:  # (nearly every scalar: the constructor would return its text)
                value = text
            else:
                if tag == _INT and yaml_int_digits(text) > MAX_YAML_DIGITS:
                    # not converted at all: 0x + 5,000 digits is a Python int that str() refuses
                    # (the 4,300-digit limit), and 1:2:3:… of a megabyte takes minutes to build
                    shown = text if len(text) <= 16 else text[:12] + "…"
                    raise RulesetError([Diagnostic(
                        f"the number {shown} has more than {MAX_YAML_DIGITS} digits; no rule needs one so large",
                        position, hint="quote it if it is text")])
                try:
                    value = self.constructed(node)
                except Exception:  # e.g. a malformed !!int: keep the text
                    value = text
            return self.scalar(value, text, position, mark.index, node.end_mark.index, node.style)
        convert = self.convert
        depth += 1
        if isinstance(node, yaml.SequenceNode):
            return YSeq(tuple([convert(item, depth) for item in node.value]), position)
        entries: dict = {}
        problems = []
        for key_node, value_node in node.value:
            key = convert(key_node, depth)
            if not isinstance(key, YScalar):
                problems.append(Diagnostic("a key must be a plain word", key.position))
                continue
            name = key.text
            if name in entries:
                problems.append(Diagnostic(
                    f"duplicate key {name!r} (first at line {entries[name][0].position.line})", key.position,
                    hint="a rule is a list item: start the next rule with `- when: …`" if name in ("when", "otherwise") else None,
                    code="duplicate-key", suggestion=dash_before(key.position) if name in ("when", "otherwise") else None))
                continue
            entries[name] = (key, convert(value_node, depth))
        if problems:
            raise RulesetError(problems)
        return YMap(entries, position)


# what YAML makes of a plain scalar written without a tag, in the author's words (fuzz42 Y2)
_IMPLICIT = {"tag:yaml.org,2002:timestamp": "a date", "tag:yaml.org,2002:merge": "YAML's merge key",
             "tag:yaml.org,2002:value": "YAML's value key"}


def _foreign(node, text: str, position: Position) -> Diagnostic:
    """A node of a type no rule file takes: a tag written (`!!binary`), or a plain scalar YAML
    reads as something other than text (`1674-05-01` is a date, `<<` a merge key), said so."""
    kind = _IMPLICIT.get(node.tag)
    if kind is None or "!" in text[node.start_mark.index:node.end_mark.index]:
        return Diagnostic(f"YAML tag {node.tag!r} is not allowed in a rule file", position)
    if node.tag == "tag:yaml.org,2002:timestamp":
        return Diagnostic(f"{node.value} reads as {kind} in YAML, which a rule file does not take", position,
                          hint=f"quote it if it is text: '{node.value}'")
    return Diagnostic(f"`{node.value}` is {kind}, which a rule file does not take", position,
                      hint="write the keys out in full" if node.value == "<<" else f"quote it if it is text: '{node.value}'")


class _TooManyNodes(Exception):
    def __init__(self, mark):
        self.mark = mark


@lru_cache(maxsize=1)
def _counting_loader():
    """`_CountingLoader`, made when first needed (it is built on PyYAML's loader)."""

    class _CountingLoader(_pyyaml().SafeLoader):
        """The safe loader, counting nodes as it composes them: a list of 240,000 items is refused
        at its 50,001st item, before the rest of the tree is built."""

        def __init__(self, stream):
            super().__init__(stream)
            self.composed = 0

        def compose_node(self, parent, index):
            self.composed += 1
            if self.composed > MAX_NODES:
                raise _TooManyNodes(self.peek_event().start_mark)
            return super().compose_node(parent, index)

    return _CountingLoader


def load_yaml(text: str, file: str, register: bool = True) -> YNode | None:
    """Parse one YAML document into positioned nodes, or raise RulesetError. `register`:
    remember the text so that messages can quote its lines."""
    if register:
        SOURCES.add(file, text)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise RulesetError([Diagnostic(f"the file is larger than {MAX_BYTES} bytes", Position(file, 1, 1))])
    return _load(text, file)


@lru_cache(maxsize=4)
def _load(text: str, file: str) -> YNode | None:
    """The nodes of a text, kept for the last few texts: an editor's language service reads each
    version of a document twice, once to check it and once for the names in it (the nodes are
    immutable; a failure is raised again each time, never kept)."""
    root = _read_events(text, file)
    if root is not None:
        return None if root is _EMPTY else root
    root = _compose_fast(text)
    if root is _EMPTY:
        return None
    if root is not None:
        try:
            return _Loader(file, text).convert(root)  # it counts the nodes (and aliases' nodes) as it goes
        except RulesetError:
            pass  # the pure loader reads it again and reports the problem, as it always has
    root = _compose(text, file)
    if root is _EMPTY:
        return None
    return _Loader(file, text).convert(root)


# libyaml's composer recurses in C: past some thousands of levels it overflows the C stack
# (a segfault, not an exception). So a text is handed to it only when it cannot nest deeper
# than MAX_FAST_NESTING (`_nesting_bound`).
_BLOCK_MARKS = "-?:"
MAX_FAST_NESTING = 5_000
_EMPTY = object()


def _compose_fast(text: str):
    """The node tree by libyaml's C composer (an order of magnitude faster), or None when it is
    not installed, the text could nest too deep for it, or anything goes wrong: the pure-Python
    composer then reads the file again and reports the problem in today's words and positions
    (as it does when the tree has a problem: too many nodes, a tag, a key twice; see `_load`)."""
    loader_class = _c_loader()
    if loader_class is None or (_quick_nesting_bound(text) > MAX_FAST_NESTING
                                and _nesting_bound(text) > MAX_FAST_NESTING):
        return None
    loader = None
    try:
        loader = loader_class(text)
        root = loader.get_single_node()
    except Exception:  # noqa: BLE001 - every failure is re-read, and reported, by the pure loader
        return None
    finally:
        if loader is not None:
            loader.dispose()
    return _EMPTY if root is None else root


MAX_RESOLVED = 4096  # the tags kept (`_c_loader`): a rule file has a few hundred scalars


@lru_cache(maxsize=1)
def _c_loader():
    """PyYAML's C loader (None without libyaml), each plain scalar's tag resolved once and kept.

    The C composer asks PyYAML's resolver, in Python, for the tag of every node: for `when`,
    `do`, `throw again`… again and again, in every text, and to the same answer (the resolver
    matches the scalar's text against the safe loader's fixed patterns for numbers, booleans
    and nulls). Kept by (kind, text, implicit), a bounded table: composing Cotton's game took
    a sixth less (0.30 -> 0.25 ms, best of 40)."""
    base = getattr(_pyyaml(), "CSafeLoader", None)
    if base is None:
        return None
    resolved: dict = {}

    class _CLoader(base):
        def resolve(self, kind, value, implicit):
            key = (kind, value, implicit)
            tag = resolved.get(key)
            if tag is None:  # (the mending below is on this path only: a call per scalar is hot)
                if len(resolved) >= MAX_RESOLVED:
                    resolved.clear()
                if implicit == (False, False) and value == "":
                    # libyaml calls an empty scalar tagged `!` (`k: !`) not plain, where PyYAML's
                    # own parser calls it plain, and reads it as null: read as PyYAML does (fuzz42)
                    implicit = (True, False)
                tag = resolved[key] = super().resolve(kind, value, implicit)
            return tag

    return _CLoader


class _NotPlain(Exception):
    """A document the event reader leaves to the composer (`_Loader.from_events`)."""


def _read_events(text: str, file: str):
    """The nodes of a plain document by libyaml's parser, event by event (`_Loader.from_events`),
    or None where it is not installed, the document is not plain, or anything goes wrong: the
    composer then reads the text (`_load`), as before."""
    loader_class = _c_loader()
    if loader_class is None:
        return None
    parser = None
    try:
        parser = loader_class(text)
        return _Loader(file, text).from_events(parser)
    except Exception:  # noqa: BLE001 - every such text is composed, and its problems said, as before
        return None
    finally:
        if parser is not None:
            parser.dispose()


def _quick_nesting_bound(text: str) -> int:
    """A bound of `_nesting_bound` made without a loop in Python (a tenth of its time): a line's
    indentation and its marks together are no longer than the line, so 2 × (indentation + 1) +
    marks is at most 2 × its length + 2. Only a text with a line past some 2,000 characters, or
    thousands of brackets, is counted line by line."""
    return 2 * max(map(len, text.split("\n"))) + 2 + text.count("[") + text.count("{")


def _nesting_bound(text: str) -> int:
    """How deep the text could nest, at most. A flow collection opens with `[` or `{`: there
    can be no more levels of them than there are of these characters in the whole text. A block
    collection is indented deeper than the one around it, or opens on the same line with `- `,
    `? ` or `: ` (`- - a`, `- a: b`), or is a sequence at its key's indentation, so at a line
    indented by i spaces there are at most 2(i + 1) block levels, and as many more as the line
    has of those characters. (Counting every such character of the file, as before, sent a rule
    file of 8,000 rules — 24,000 of them — to the pure-Python composer, eight times slower.)"""
    block = 0
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        if stripped:
            block = max(block, 2 * (len(line) - len(stripped) + 1) + sum(stripped.count(c) for c in _BLOCK_MARKS))
    return block + text.count("[") + text.count("{")


def _compose(text: str, file: str):
    loader = None
    try:
        loader = _counting_loader()(text)  # the reader checks the characters here already
        root = loader.get_single_node()
    except _TooManyNodes as exc:
        raise RulesetError([Diagnostic(f"the file has more than {MAX_NODES} YAML nodes", Position(
            file, exc.mark.line + 1, exc.mark.column + 1))]) from None
    except yaml.MarkedYAMLError as exc:
        raise RulesetError([explain(exc, text, file)]) from None
    except yaml.YAMLError as exc:  # e.g. several documents, reader errors on control characters
        mark = getattr(exc, "problem_mark", None)
        position = Position(file, mark.line + 1, mark.column + 1) if mark else Position(file, 1, 1)
        if isinstance(exc, yaml.reader.ReaderError):  # it knows only a character index
            before = text[:exc.position]
            position = Position(file, before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1)
        raise RulesetError([Diagnostic(f"YAML: {exc}".splitlines()[0], position)]) from None
    except RecursionError:  # where the reader stood: the line the nesting is on, not 1:1
        mark = loader.get_mark() if loader is not None else None
        position = Position(file, mark.line + 1, mark.column + 1) if mark else Position(file, 1, 1)
        raise RulesetError([Diagnostic("the YAML is nested too deeply", position)]) from None
    finally:
        if loader is not None:
            loader.dispose()
    return _EMPTY if root is None else root
