"""A rule file's text with some top-level sections left unread: what the game's reading parses.

`without(text, names)` gives the text with the named top-level sections (the game's reading,
`check.reading.read_game`, names `bets`, `fees`, `printed`, `sources`, `notes` and
`description`) turned into empty lines, so that every other line keeps its number and its
characters their columns, and the YAML reader builds nodes for the game alone: craps' 39 bets
are two thirds of its lines, and composing and positioning them was most of the cost of
reading it from a new text (docs/performance.md, "From the rule text to P(win)").

The cut is made on the text, before any YAML is read, so it is made only where it is certain to
give the nodes the whole text gives for the sections kept: a block mapping at the top whose
every line at the left margin is a comment or a known key written plainly (`bets:`), each once;
no `extends:` (the sections are then merged with another file's); no document markers, no line
break but `\\n`; and no line of a section left out that opens a quoted scalar or a flow
collection it does not close on that line (PyYAML lets one run on over a line at the margin:
`x: "a` then `phases: b"` is one string), a block scalar's prose aside. Anything else returns
None: the whole text is read. A section kept that runs on into the next swallows its key, and
is caught after reading (`kept_as_cut`). tests/parse/test_game_reading.py holds the cut to the
whole text's nodes over generated texts.

`SectionNodes` reads a text's nodes section by section, for a language service that reads a
new version of a document every keystroke: a section whose text and first line are those of
one read before is not read again (`nodes_of`, while `reading_sections` lends one).
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

from ..diagnostics import RulesetError
from .files import MAX_BYTES
from .keys import RULESET
from .yaml_nodes import MAX_NODES, YMap, YSeq, load_yaml

# a line at the left margin that holds something: a key, a comment or anything else
# (searched for after a line break, which is eight times quicker than `^` in re.M mode)
_MARGIN = re.compile(r"\n[^\s#]")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?:[ \t]|$)", re.M)
_KNOWN = frozenset(RULESET.allowed)
# YAML 1.1 reads these as line breaks too: with any of them the lines are not `\n`'s
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029", "\ufeff")
# a single-quoted scalar opens after a key's colon, a list's dash, a flow opener or a comma
_SINGLE_OPENS = re.compile(r"(?:^|[:\-\[{,][ \t]*)'")
# what could open a quoted scalar or a flow collection (most lines of a section have none)
_OPENER = re.compile(r"[\"'\[{]")
# a block scalar's header ends its line: `key: >`, `- |-`, `key: >2 # a comment`
_BLOCK_HEADER = re.compile(r"[ \t][|>][-+0-9]*[ \t]*(?:#[^\n]*)?$", re.M)
# a line's indentation and list dashes: where its key starts
_LEAD = re.compile(r" *(?:-(?: +|$))*")


def top_level(text: str) -> dict | None:
    """The top-level keys of `text` → (start, end) of each one's lines in the text, in file
    order, or None where the text cannot be cut safely on its lines (see the module's docstring)."""
    if any(mark in text for mark in _OTHER_BREAKS):
        return None
    starts: list = []
    for margin in _MARGIN.finditer("\n" + text):  # (a line break before the first line)
        at = margin.start()  # in the text: the margin's character, one past the break
        key = _KEY.match(text, at)
        if key is None or key.group(1) not in _KNOWN:
            return None  # `---`, `- item`, `{…}`, `"name":`, a misspelt key: read the whole text
        starts.append((key.group(1), at))
    sections: dict = {}
    for k, (name, at) in enumerate(starts):
        if name in sections or name == "extends":
            return None
        sections[name] = (at, starts[k + 1][1] if k + 1 < len(starts) else len(text))
    if not sections or text[:starts[0][1]].strip("\n") and not _comments(text[:starts[0][1]]):
        return None
    return sections


def _comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in text.split("\n"))


def without(text: str, names, sections: dict | None = None) -> tuple[str, tuple] | None:
    """`text` with the sections `names` that it has turned into empty lines, and the names it
    had; None where the text cannot be cut (then the whole of it is to be read) or has none of
    them. `sections`: the text's `top_level`, when known."""
    sections = top_level(text) if sections is None else sections
    if sections is None:
        return None
    cut = [name for name in names if name in sections]
    if not cut:
        return None
    # what runs on from a section left out can reach only the sections after it: those after
    # the last one kept (craps' bets) need no look
    last_kept = max((start for name, (start, _) in sections.items() if name not in cut), default=-1)
    pieces, last = [], 0
    for start, end in sorted(sections[name] for name in cut):
        part = text[start:end]
        if start < last_kept and not _closed_on_each_line(part):
            return None
        pieces.append(text[last:start])
        pieces.append("\n" * part.count("\n"))
        last = end
    pieces.append(text[last:])
    return "".join(pieces), tuple(cut)


@lru_cache(maxsize=4)
def game_cut(text: str, names: tuple) -> tuple[dict, str, tuple] | None:
    """The text's `top_level`, and the text `without` the sections `names` with the names it
    had (None where it cannot be cut), kept for the last few texts: a language service reads
    each version of a document twice (`yaml_nodes._load` keeps their nodes the same way)."""
    sections = top_level(text)
    cut = None if sections is None else without(text, names, sections)
    return None if cut is None else (sections, *cut)


def kept_as_cut(root, sections: dict, cut: tuple) -> bool:
    """Whether the nodes read from the cut text have, at the top, exactly the keys the text was
    cut around (`sections`, its `top_level`): a section kept that ran on into the next would
    have swallowed its key."""
    entries = getattr(root, "entries", None)
    return entries is not None and list(entries) == [name for name in sections if name not in cut]


def _block_scalars(part: str) -> list:
    """Where the block scalars of `part` (`description: >`, `- |`) hold their lines: (start,
    end) of each one's lines after its header. Prose with quotes in it is written so, and
    nothing in those lines opens anything. A line is the scalar's while it is blank or indented
    past its key (past the dash of `- |`: a cautious bound, as YAML's is the list's own)."""
    spans: list = []
    covered = -1
    for header in _BLOCK_HEADER.finditer(part):
        line_start = part.rfind("\n", 0, header.start()) + 1
        if line_start < covered:
            continue  # a header's look inside a scalar already found
        before = part[line_start:header.start()]
        lead = _LEAD.match(before).end()
        if before[lead:] and not before.endswith(":"):
            continue  # `when: total >`: a plain scalar ending in `>`, no header
        start = part.find("\n", header.end()) + 1
        if not start:
            continue  # a header on the last line holds nothing
        # the scalar ends before the first line indented no further than its key, blank lines aside
        after = _scalar_end(lead).search(part, start - 1)
        end = after.start() + 1 if after else len(part)
        spans.append((start, end))
        covered = end
    return spans


@lru_cache(maxsize=64)
def _scalar_end(lead: int):
    """A line break before a line indented by at most `lead` spaces that holds something."""
    return re.compile(r"\n {0,%d}(?=[^ \n])" % lead)


def _closed_on_each_line(part: str) -> bool:
    """Whether no line of `part` leaves a quoted scalar or a flow collection open (a cautious
    count: a line it cannot judge, such as one with an odd number of double quotes in a plain
    word, counts as open, and the whole text is read). Only the lines with a quote or a
    bracket are looked at, and not those of a block scalar, which open nothing whatever they
    hold (found when a line first looks open: most sections have none)."""
    spans = starts = None
    at = 0
    while True:
        opener = _OPENER.search(part, at)
        if opener is None:
            return True
        at = opener.start()
        if spans:
            k = bisect_right(starts, at) - 1
            if k >= 0 and at < spans[k][1]:
                at = spans[k][1]  # past the block scalar
                continue
        line_end = part.find("\n", at)
        line_end = len(part) if line_end < 0 else line_end
        if not _closed(part[part.rfind("\n", 0, at) + 1:line_end]):
            if spans is None:
                spans = _block_scalars(part)
                starts = [start for start, _ in spans]
                k = bisect_right(starts, at) - 1
                if k >= 0 and at < spans[k][1]:
                    at = spans[k][1]
                    continue
            return False
        at = line_end


def _closed(line: str) -> bool:
    """Whether one line leaves nothing open: by counts where it has quotes or brackets but not
    both, else character by character (`[a, "]"` is open: a bracket in quotes is no bracket)."""
    quoted = '"' in line or "'" in line
    if quoted and ("[" in line or "{" in line or "]" in line or "}" in line):
        return _scanned_closed(line)
    hash_at = line.find(" #")
    if hash_at >= 0 and not quoted:
        line = line[:hash_at]
    if '"' in line and (line.count('"') - line.count('\\"')) % 2:
        return False
    if "'" in line and line.count("'") % 2 and _SINGLE_OPENS.search(line.lstrip()):
        return False
    return not (("[" in line or "{" in line) and
                line.count("[") + line.count("{") != line.count("]") + line.count("}"))


def _scanned_closed(line: str) -> bool:
    """`_closed` read character by character: a quote opens a quoted scalar where a scalar may
    start (the line's start, after `: `, `- `, a flow opener or a comma), which must end on the
    line; brackets outside quotes and before a comment must balance."""
    depth, i, n, may_start = 0, 0, len(line), True
    while i < n:
        c = line[i]
        if c in "\"'" and may_start:
            j = i + 1
            while True:  # the closing quote: not `\"` in double quotes, not `''` in single
                k = line.find(c, j)
                if k < 0:
                    return False  # runs on past the line
                if c == '"':
                    slashes = k - 1
                    while slashes > i and line[slashes] == "\\":
                        slashes -= 1
                    if (k - 1 - slashes) % 2:
                        j = k + 1
                        continue
                elif line.startswith("''", k):
                    j = k + 2
                    continue
                break
            i, may_start = k + 1, False
            continue
        if c == "#" and (i == 0 or line[i - 1] in " \t"):
            break  # a comment
        if c in "[{,":
            depth += c != ","
            may_start = True
        elif c in "]}":
            depth -= 1
            may_start = False
        elif c in ":-?" and (i + 1 == n or line[i + 1] in " \t"):
            may_start = True
        elif c not in " \t":
            may_start = False
        if depth < 0:
            return False
        i += 1
    return depth == 0


# --------------------------------------------------------------------------- sections kept

def anchored(text: str) -> bool:
    """Whether `text` may hold an anchor: a `&` where a node may start (`key: &a`, `- &a`,
    `[&a`) followed by its name; prose with `C&E` in it holds none. (Found by `str.find`: a
    text has few `&`, and a pattern tried at every character took longer than a keystroke's
    reading of the sections kept.)"""
    at = text.find("&")
    while at >= 0:
        if (at == 0 or text[at - 1].isspace() or text[at - 1] in "[{,") and \
                at + 1 < len(text) and not text[at + 1].isspace():
            return True
        at = text.find("&", at + 1)
    return False

# the sections' nodes lent to the reading under way (`reading_sections`); none by default
_LENT: ContextVar = ContextVar("hazard_dsl_section_nodes", default=None)


@contextmanager
def reading_sections(kept: "SectionNodes | None"):
    """While inside, `nodes_of` reads a text's nodes through `kept` (the caller's)."""
    token = _LENT.set(kept)
    try:
        yield
    finally:
        _LENT.reset(token)


def nodes_of(text: str, file: str):
    """`yaml_nodes.load_yaml(text, file, register=False)`: the same nodes, or the same error;
    read through the `SectionNodes` lent now (`reading_sections`), if any."""
    kept = _LENT.get()
    if kept is not None:
        root = kept.assembled(text, file)
        if root is not None:
            return root
    return load_yaml(text, file, register=False)


class SectionNodes:
    """The nodes of each top-level section of the texts read lately, kept by the file's name,
    the section's text and the line it begins on, for the next version of a document: a
    keystroke changes one section, so the others are not read again. Owned by the caller (the
    language service: one for its documents) and bounded by `max_sections`, the least lately
    used dropped first.

    A section is read alone, after as many empty lines as stand above it, so that each node
    stands where it stands in the whole text; the first section takes what is above it (the
    comments at the head) with it. Its nodes are the whole text's wherever the text is cut
    into sections (`top_level`) and each one reads alone: a quoted scalar or a flow collection
    that ran on into the next section does not read alone (its close is not in it), and an
    alias in one section of an anchor in another is refused outright (`anchored`: such a
    text is read whole), as is a text whose sections hold more nodes together than one text may
    (`yaml_nodes.MAX_NODES`). Anything else, and every error, is the whole text's to read and
    say (`assembled` gives None): nothing that fails is kept."""

    def __init__(self, max_sections: int = 64):
        self.max_sections = max_sections
        self._kept: OrderedDict = OrderedDict()  # (file, name, text, first line) -> (YMap, nodes)
        self._lock = threading.Lock()  # the language service reads on its worker too
        self.read = self.found = 0  # sections read, sections found here: what a test counts

    def assembled(self, text: str, file: str):
        """The nodes of `text` from its sections' (a YMap), or None where they are the whole
        text's to read."""
        if len(text) * 4 > MAX_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            return None  # the reader refuses it, saying so
        sections = top_level(text)
        if sections is None or anchored(text):
            return None
        entries: dict = {}
        position = None
        nodes = 1
        line, at = 0, 0
        for n, (name, (start, end)) in enumerate(sections.items()):
            if n == 0:
                start = 0  # the head's comments with it: an odd character there is the text's error
            line += text.count("\n", at, start)
            at = start
            part = (file, name, text[start:end], line)
            with self._lock:
                found = self._kept.get(part)
                if found is not None:
                    self._kept.move_to_end(part)
                    self.found += 1
            if found is None:
                try:
                    root = load_yaml("\n" * line + part[2], file, register=False)
                except (RulesetError, RecursionError, ValueError):
                    return None
                if not isinstance(root, YMap) or list(root.entries) != [name]:
                    return None
                found = (root, _count(root))
                with self._lock:
                    self.read += 1
                    self._kept[part] = found
                    while len(self._kept) > max(1, self.max_sections):
                        self._kept.popitem(last=False)
            root, count = found
            position = root.position if position is None else position
            entries[name] = root.entries[name]
            nodes += count - 1
        if nodes > MAX_NODES:
            return None
        return YMap(entries, position)

    def __len__(self) -> int:
        return len(self._kept)


def _count(root) -> int:
    """The nodes under `root`, itself included, as the loader counts them (keys too)."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, YMap):
            for key, value in node.entries.values():
                stack.append(key)
                stack.append(value)
        elif isinstance(node, YSeq):
            stack.extend(node.items)
    return count
