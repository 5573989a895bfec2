"""Every name a rule file defines or uses, with where it stands: one pass over one version of a
document, for the language service (`language.service`) to answer "what is this word, where is
it defined, where is it used".

The pass reads the YAML into the loader's positioned nodes (`parse.yaml_nodes`) and each
condition, action list and payout through the expression parser (`parse.expressions`), the
very code `check` reads with: no second grammar. A part that does not read (bad YAML, an
expression with a syntax error) is left out of the index, never guessed; the checker reports it.

Places are ``(line, column)``, both from 0, the column in Unicode code points, as the language
service speaks them; a range's end is one past its last character.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..diagnostics import RulesetError
from ..model import COMMISSION_PAID
from ..parse import syntax as ex
from ..parse.yaml_nodes import YMap, YScalar, YSeq
from ..records import field, record

GAME = ""  # the scope of the game's own phases and variables; a bet's is "bet NAME", a fee's "fee NAME"

# the sections whose keys name things, and the kind of thing each names
DEFINING = {"phases": "phase", "variables": "variable", "options": "option", "labels": "label", "bets": "bet",
            "fees": "fee"}


@record(frozen=True)
class Name:
    """A definition or a use of a name. `scope` says which phases and variables a name of those
    kinds belongs to: the game's (GAME) or a bet's or fee's own. `block_end`, for a definition,
    is where everything written under its key ends (document symbols show the whole block)."""

    name: str
    kind: str  # phase variable option label bet fee | function fact (uses only) | value (an option's)
    scope: str
    start: tuple
    end: tuple
    definition: bool = False
    block_end: tuple | None = None
    option: str | None = None  # for a value: its option

    def contains(self, place: tuple) -> bool:
        return self.start <= place <= self.end


@record
class Index:
    """The names of one document: definitions and uses in file order, `extends:` (its value and
    range), the blocks of bets and fees (scope, start, end), and the extent of every YAML key and
    plain value (start → end), which a diagnostic pointing at one of them is widened to."""

    definitions: list = field(default_factory=list)
    uses: list = field(default_factory=list)
    extends: tuple | None = None  # (name, start, end)
    blocks: list = field(default_factory=list)
    spans: dict = field(default_factory=dict)
    throwless: set = field(default_factory=set)  # (scope, phase) of phases with `throw: false`

    def at(self, place: tuple) -> Name | None:
        """The definition or use under `place` (the end of a word counts, where a cursor stands
        after typing it)."""
        for item in self.uses + self.definitions:
            if item.contains(place):
                return item
        return None

    def scope_at(self, place: tuple) -> str:
        """The scope of the bet or fee whose block holds `place`, else the game's."""
        for scope, start, end in self.blocks:
            if start <= place <= end:
                return scope
        return GAME


def place(position) -> tuple:
    """A `diagnostics.Position` (line and column from 1) as a place (both from 0)."""
    return (position.line - 1, position.column - 1)


def build_index(root, text: str | None = None, kept: "SectionIndexes | None" = None) -> Index:
    """The index of a document whose YAML read into `root` (a YMap; anything else gives an empty
    index). With its `text` and `kept` (the caller's), a top-level section whose text is one
    indexed before is not walked again: its names are those found then, moved by the lines it
    moved (`SectionIndexes`)."""
    index = Index()
    if not isinstance(root, YMap):
        return index
    walk = _Walk(index)
    sections = kept.sections_of(root, text) if kept is not None and text is not None else None
    if sections is None:
        walk.ruleset(root)
    else:
        for key, (key_node, value) in root.entries.items():
            section, first = sections[key]
            part = kept.found(key, section, first)
            if part is None:
                part = Index()
                _Walk(part).section(key, key_node, value)
                kept.keep(key, section, first, part)
            _merge(index, part)
    index.definitions.sort(key=lambda n: n.start)
    index.uses.sort(key=lambda n: n.start)
    return index


def _merge(index: Index, part: Index) -> None:
    index.definitions += part.definitions
    index.uses += part.uses
    index.blocks += part.blocks
    index.spans.update(part.spans)
    index.throwless |= part.throwless
    if part.extends is not None:
        index.extends = part.extends


class SectionIndexes:
    """The names found in each top-level section of the texts indexed lately, kept by the
    section's key and text, for the next version of a document: a keystroke changes one section
    (a line typed moves the ones below it), so the others are not walked again. Owned by the
    caller (the language service, one for its documents) and bounded by `max_sections`, the
    least lately used dropped first.

    A section's names depend on its text alone, its place aside, where the text is cut into
    sections (`parse.sections.top_level`) exactly as its YAML read: the same top-level keys in
    the same order, each where its section begins, and no anchor (`&a`) anywhere, since an alias
    in one section is the nodes of another. Anything else is walked whole, as before."""

    def __init__(self, max_sections: int = 64):
        import threading
        from collections import OrderedDict

        self.max_sections = max_sections
        self._kept: OrderedDict = OrderedDict()  # (key, text) -> (its first line, Index)
        self._lock = threading.Lock()  # the language service indexes on its worker too
        self.walked = self.found_kept = 0  # sections walked, sections found here: what a test counts

    @staticmethod
    def sections_of(root: YMap, text: str) -> dict | None:
        """key -> (its section's text, the line it begins on, from 0), or None where the text is
        not cut as it read (see the class's docstring)."""
        from ..parse.sections import anchored, top_level

        if anchored(text):
            return None
        cut = top_level(text)
        if cut is None or list(cut) != list(root.entries):
            return None
        out, line, at = {}, 0, 0
        for key, (start, end) in cut.items():
            line += text.count("\n", at, start)
            at = start
            if root.entries[key][0].position.line != line + 1:
                return None
            out[key] = (text[start:end], line)
        return out

    def found(self, key: str, section: str, first: int) -> Index | None:
        """The names of this section, found before, placed as it stands now (from `first`)."""
        with self._lock:
            kept = self._kept.get((key, section))
            if kept is None:
                return None
            self._kept.move_to_end((key, section))
            self.found_kept += 1
        line, part = kept
        return part if line == first else _moved(part, first - line)

    def keep(self, key: str, section: str, first: int, part: Index) -> None:
        with self._lock:
            self.walked += 1
            self._kept[(key, section)] = (first, part)
            self._kept.move_to_end((key, section))
            while len(self._kept) > max(1, self.max_sections):
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)


def _moved(part: Index, lines: int) -> Index:
    """`part`'s names moved down by `lines` lines (up, if negative)."""
    def at(p):
        return None if p is None else (p[0] + lines, p[1])

    return Index(
        definitions=[Name(n.name, n.kind, n.scope, at(n.start), at(n.end), n.definition, at(n.block_end), n.option)
                     for n in part.definitions],
        uses=[Name(n.name, n.kind, n.scope, at(n.start), at(n.end), n.definition, at(n.block_end), n.option)
              for n in part.uses],
        extends=None if part.extends is None else (part.extends[0], at(part.extends[1]), at(part.extends[2])),
        blocks=[(scope, at(start), at(end)) for scope, start, end in part.blocks],
        spans={at(start): at(end) for start, end in part.spans.items()},
        throwless=set(part.throwless))


_NAME = r"([A-Za-z_][A-Za-z0-9_]*)"
_AFTER_END = re.compile(r"(?:win|lose|push)\s+" + _NAME)
_AFTER_OPTION = re.compile(r"option\s*\.\s*" + _NAME)
_AFTER_CHOOSE = re.compile(r"choose\s+" + _NAME)
_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)")
_TEMPLATE_WORDS = {"value", "caster", "total", "throw"}  # what a narration names besides the variables
_NAMING_FACTS = {"phase": "phase", "label": "label"}  # facts whose value is a name the file defines
_EXPRESSION_KEYS = {"when": "expression", "made": "expression", "do": "actions", "otherwise": "actions",
                    "pays": "payout"}


class _Walk:
    def __init__(self, index: Index):
        self.index = index

    # --- places
    def key(self, key: YScalar) -> tuple[tuple, tuple]:
        start, end = place(key.position), place(key.end())
        self.index.spans[start] = end
        return start, end

    def define(self, key: YScalar, kind: str, scope: str, value) -> None:
        start, end = self.key(key)
        self.index.definitions.append(Name(key.text, kind, scope, start, end, True, _block_end(value, end)))

    def use(self, name: str, kind: str, scope: str, start: tuple, option: str | None = None) -> None:
        self.index.uses.append(Name(name, kind, scope, start, (start[0], start[1] + len(name)), option=option))

    def scalar_use(self, node, kind: str, scope: str) -> None:
        """A plain value that names something (`start: come_out`, `backs: pass`)."""
        if isinstance(node, YScalar) and isinstance(node.value, str) and node.text.strip():
            start, end = place(node.position), place(node.end())
            self.index.spans[start] = end
            if node.text.isidentifier():
                self.use(node.text, kind, scope, start)

    # --- sections
    def ruleset(self, root: YMap) -> None:
        for key, (key_node, value) in root.entries.items():
            self.section(key, key_node, value)

    def section(self, key: str, key_node: YScalar, value) -> None:
        """One top-level key and what is written under it."""
        self.key(key_node)
        if key == "extends" and isinstance(value, YScalar) and isinstance(value.value, str):
            self.index.extends = (value.text, place(value.position), place(value.end()))
            self.index.spans[place(value.position)] = place(value.end())
        elif key in DEFINING and isinstance(value, YMap):
            getattr(self, key)(value)
        elif key == "start":
            self.scalar_use(value, "phase", GAME)
        elif key == "money" and isinstance(value, YMap):
            self.plain(value)
            self.scalar_use(value.get("stake"), "bet", GAME)
        elif key == "passing" and isinstance(value, YMap):
            self.plain(value)
            labels = value.get("after_labels")
            for item in labels.items if isinstance(labels, YSeq) else ():
                self.scalar_use(item, "label", GAME)
            losses = value.get("losses_in_a_row")
            if isinstance(losses, YScalar) and isinstance(losses.value, str):
                self.expression(losses, "expression", GAME)
        elif key == "cocked" and isinstance(value, YMap):
            self.plain(value)
            chance = value.get("chance")
            if isinstance(chance, YMap):
                self.plain(chance)
                self.scalar_use(chance.get("by_option"), "option", GAME)
            self.rules(value.get("rules"), GAME)
        elif key == "printed" and isinstance(value, YSeq):  # the sources' figures: of a label, a
            # bet, given variables' values, under options' values — renamed with them
            for item in value.items:
                if not isinstance(item, YMap):
                    continue
                self.plain(item)
                self.scalar_use(item.get("bet"), "bet", GAME)
                of = item.get("of")
                if isinstance(of, YScalar) and of.text not in ("win", "lose", "push", "edge"):
                    self.scalar_use(of, "label", GAME)
                given = item.get("given")
                for name, (name_node, _) in (given.entries.items() if isinstance(given, YMap) else ()):
                    self.key(name_node)
                    self.use(name, "variable", GAME, place(name_node.position))
                chosen = item.get("options")  # the rules it is a figure of: option and value
                for name, (name_node, chosen_value) in (chosen.entries.items() if isinstance(chosen, YMap)
                                                        else ()):
                    self.key(name_node)
                    self.use(name, "option", GAME, place(name_node.position))
                    if isinstance(chosen_value, YScalar) and chosen_value.text.strip().isidentifier():
                        start = place(chosen_value.position)
                        self.index.spans[start] = place(chosen_value.end())
                        self.use(chosen_value.text.strip(), "value", GAME, start, option=name)
        elif key == "dice" and isinstance(value, YMap):
            self.plain(value)
            self.scalar_use(value.get("by_option"), "option", GAME)
        elif isinstance(value, YScalar):
            self.index.spans[place(value.position)] = place(value.end())

    def plain(self, m: YMap, scope: str = GAME) -> None:
        """The keys of a mapping and its one-line plain values, as spans; the variables a `say:`
        names (`{main}`, `{main:word}`)."""
        for key, (key_node, value) in m.entries.items():
            self.key(key_node)
            if isinstance(value, YScalar) and value.position.line == value.end().line:
                self.index.spans[place(value.position)] = place(value.end())
            if key == "say":
                self.template(value, scope)

    def template(self, node, scope: str) -> None:
        if isinstance(node, YScalar) and isinstance(node.value, str):
            for found in _TEMPLATE.finditer(node.text):
                if found.group(1) not in _TEMPLATE_WORDS:
                    self.use(found.group(1), "variable", scope, place(node.position_at(found.start(1))))

    def phases(self, m: YMap, scope: str = GAME) -> None:
        for key_node, value in m.entries.values():
            self.define(key_node, "phase", scope, value)
            rules = value
            if isinstance(value, YMap):
                self.plain(value)
                rules = value.get("rules")
                throw = value.get("throw")
                if isinstance(throw, YScalar) and throw.value is False:
                    self.index.throwless.add((scope, key_node.text))
            self.rules(rules, scope)

    def rules(self, node, scope: str) -> None:
        for item in node.items if isinstance(node, YSeq) else ():
            if isinstance(item, YMap):
                self.plain(item, scope)
                for key, kind in _EXPRESSION_KEYS.items():
                    self.expression(item.get(key), kind, scope)

    def variables(self, m: YMap, scope: str = GAME) -> None:
        for key_node, value in m.entries.values():
            self.define(key_node, "variable", scope, value)
            if isinstance(value, YMap):
                self.plain(value, scope)

    def options(self, m: YMap) -> None:
        for key_node, value in m.entries.values():
            self.define(key_node, "option", GAME, value)
            if isinstance(value, YMap):
                self.plain(value)
                values = value.get("values")
                if isinstance(values, YMap):
                    for value_key, _ in values.entries.values():
                        start, end = self.key(value_key)
                        self.index.definitions.append(Name(value_key.text, "value", GAME, start, end, True,
                                                           option=key_node.text))

    def labels(self, m: YMap) -> None:
        for key_node, value in m.entries.values():
            self.define(key_node, "label", GAME, value)
            self.template(value, GAME)

    def bets(self, m: YMap) -> None:
        self.named(m, "bet")

    def fees(self, m: YMap) -> None:
        self.named(m, "fee")

    def named(self, m: YMap, kind: str) -> None:
        """A bet's or a fee's own variables and phases, in a scope of its own."""
        for key_node, spec in m.entries.values():
            self.define(key_node, kind, GAME, spec)
            if not isinstance(spec, YMap):
                continue
            scope = f"{kind} {key_node.text}"
            self.index.blocks.append((scope, place(key_node.position), _block_end(spec, place(key_node.end()))))
            self.plain(spec)
            for key, (_, value) in spec.entries.items():
                if key == "variables" and isinstance(value, YMap):
                    self.variables(value, scope)
                elif key == "phases" and isinstance(value, YMap):
                    self.phases(value, scope)
                elif key == "rules":
                    self.rules(value, scope)
                elif key == "start":
                    self.scalar_use(value, "phase", scope)
                elif key == "backs":
                    self.scalar_use(value, "bet", GAME)
                elif key in ("made", "pays"):
                    self.expression(value, _EXPRESSION_KEYS[key], scope)
                elif key == "multiples" and isinstance(value, YMap):
                    self.plain(value)
                    for _, multiple in value.entries.values():
                        self.expression(multiple, "expression", scope)
                elif key == "commission" and isinstance(value, YMap):
                    self.plain(value)
                    paid = value.get("paid")
                    if isinstance(paid, YScalar) and isinstance(paid.value, str) and paid.text not in COMMISSION_PAID:
                        self.expression(paid, "expression", scope)  # (a bare variable is an expression too)

    # --- expressions
    def expression(self, node, kind: str, scope: str) -> None:
        if not isinstance(node, YScalar) or not isinstance(node.value, (str, int)) or isinstance(node.value, bool):
            return
        for name, used_as, offset, option, of_game in _names_in(node.text, kind):
            start = place(node.position_at(offset))
            own = used_as in ("variable", "phase") and not of_game
            self.use(name, used_as, scope if own else GAME, start, option)


@lru_cache(maxsize=8192)
def _names_in(text: str, kind: str) -> tuple:
    """(name, what it names, its offset in the text, for a value its option, whether it is the
    game's) of every name an expression, action list or payout uses; () when it does not parse.
    A word in quotes compared with the facts `phase` or `label` (`phase == "point"`, `label in
    {"nick", "main"}`) names the game's phase or label, as the checker reads it
    (check.names: `_check_option_value`), wherever it is written — a bet's `made:` included.
    Kept by text: a rule file says `total == 7` many times, and an edit leaves all its other
    expressions as they were."""
    from ..parse.expressions import parse_actions, parse_expression, parse_payout
    from ..parse.yaml_nodes import scalar_of

    parse = {"expression": parse_expression, "actions": parse_actions, "payout": parse_payout}[kind]
    try:
        nodes = list(ex.walk(parse(scalar_of(text))))
    except (RulesetError, RecursionError):
        return ()  # the checker says what is wrong with it

    def offset(node) -> int:
        return node.position.column - 1

    def after(node, pattern: re.Pattern, name: str) -> int | None:
        found = pattern.match(text, offset(node))
        return found.start(1) if found and found.group(1) == name else None

    compared: dict = {}  # a string compared with an option: one of its values
    named: dict = {}  # a string compared with the fact `phase` or `label`: the name of one
    for n in nodes:
        if isinstance(n, ex.Binary) and n.op in ("==", "!="):
            for one, other in ((n.left, n.right), (n.right, n.left)):
                if isinstance(one, ex.OptionRef) and isinstance(other, ex.String):
                    compared[id(other)] = one.name
                elif isinstance(one, ex.Name) and one.name in _NAMING_FACTS and isinstance(other, ex.String):
                    named[id(other)] = _NAMING_FACTS[one.name]
        elif isinstance(n, ex.Member) and isinstance(n.element, ex.Name) and n.element.name in _NAMING_FACTS \
                and isinstance(n.collection, ex.SetLiteral):
            for item in n.collection.items:
                if isinstance(item, ex.String):
                    named[id(item)] = _NAMING_FACTS[n.element.name]

    def quoted(n) -> int | None:
        """The offset of a string's word, past its opening quote, where it is written as it reads."""
        at = offset(n) + 1
        return at if text[at:at + len(n.value)] == n.value else None

    found = []
    for n in nodes:
        if isinstance(n, ex.Name):
            found.append((n.name, "variable", offset(n), None))
        elif isinstance(n, ex.OptionRef):
            found.append((n.name, "option", after(n, _AFTER_OPTION, n.name), None))
        elif isinstance(n, ex.Call):
            found.append((n.function, "function", offset(n), None))
        elif isinstance(n, ex.Goto):
            found.append((n.phase, "phase", offset(n), None))
        elif isinstance(n, ex.End) and n.label != n.result:
            found.append((n.label, "label", after(n, _AFTER_END, n.label), None))
        elif isinstance(n, ex.Assign):
            found.append((n.variable, "variable", offset(n), None))
        elif isinstance(n, ex.Choose):
            found.append((n.variable, "variable", after(n, _AFTER_CHOOSE, n.variable), None))
        elif isinstance(n, ex.Pay):
            found.append((n.fee, "fee", offset(n), None))
        elif isinstance(n, ex.String) and id(n) in compared:
            found.append((n.value, "value", quoted(n), compared[id(n)]))
        elif isinstance(n, ex.String) and id(n) in named and n.value.isidentifier():
            found.append((n.value, named[id(n)], quoted(n), None, True))
    return tuple((*f, False) if len(f) == 4 else f for f in found if f[2] is not None)


def _block_end(node, default: tuple) -> tuple:
    """Where the last thing written under a node ends."""
    while True:
        if isinstance(node, YScalar):
            return max(place(node.end()), default)
        if isinstance(node, YSeq) and node.items:
            node = node.items[-1]
        elif isinstance(node, YMap) and node.entries:
            key_node, node = list(node.entries.values())[-1]
            if node is None or (isinstance(node, YScalar) and node.value is None and not node.text):
                return max(place(key_node.end()), default)
        else:
            return default
