"""Completion: the keys, names and words a rule file may have where the cursor is.
`service.LanguageService.completion` asks `Completer`."""

from __future__ import annotations

import re
from functools import lru_cache

from .hovers import BET_FACT_MEANINGS
from .index import GAME, Name
from .values import Completion, Place



_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s?(.*)$")
_KEY_START = re.compile(r"^(\s*)(-\s+)?([A-Za-z0-9_-]*)$")
_ACTION_WORDS = ("win", "lose", "push", "goto", "set", "throw again", "choose", "pay")
_NAMED_BY = {"start": "phase", "backs": "bet", "stake": "bet", "by_option": "option", "extends": "ruleset"}


class Completer:
    def __init__(self, service, doc, place: Place):
        self.service, self.doc = service, doc
        self.place = (place.line, place.column)
        self.before = doc.line(place.line)[:place.column]
        self.names = doc.names
        self.scope = self.names.scope_at(self.place)

    def defined(self, kind: str, scope: str | None = None) -> list[Name]:
        """The definitions of a kind in this file and those it extends, a name once."""
        seen, found = set(), []
        for d in [self.doc, *self.service._parents(self.doc)]:
            index = self.names if d is self.doc else d.index
            for n in index.definitions:
                if n.kind == kind and (scope is None or n.scope == scope) and n.name not in seen:
                    seen.add(n.name)
                    found.append(n)
        return found

    def of(self, kind: str, scope: str | None = None) -> list[Completion]:
        return [Completion(n.name, kind, f"{kind}" + (f" of the {n.scope}" if n.scope != GAME else ""))
                for n in self.defined(kind, scope)]

    def items(self) -> list[Completion]:
        path = _key_path(self.doc, self.place)
        key_line = _KEY_LINE.match(self.before)
        if key_line is None:
            if path[-2:] == ["words", "throws"] and _KEY_START.match(self.before):
                return self.throws()
            if path[-1:] == ["after_labels"] and self.before.strip().startswith("-"):
                return self.of("label")
            if _KEY_START.match(self.before):
                present = _present_keys(self.doc, self.place)
                return [c for c in _keys(path) if c.label not in present]
            return []
        key, value = key_line.group(2), key_line.group(3)
        if path[-2:] == ["words", "throws"] and not value:
            return []
        if key in ("when", "do", "otherwise", "made", "pays", "losses_in_a_row") or (
                path[-1:] == ["multiples"]) or (key == "paid" and path[-1:] == ["commission"]):
            return self.expression(value, actions=key in ("do", "otherwise"))
        if key in _NAMED_BY and not value.strip(" \"'").count(" "):
            kind = _NAMED_BY[key]
            if kind == "ruleset":
                from ..parse.files import builtin_names

                return [Completion(n, "ruleset", "built-in ruleset") for n in builtin_names()]
            return self.of(kind, self.scope if kind == "phase" else None)
        if key in ("backer", "layer", "payer", "role"):
            from ..model import ROLES

            return [Completion(r, "role") for r in ROLES]
        words = _schema_node([*path, key]).get("enum")  # a key whose value is one of a few words
        if words and not value.strip().count(" "):
            return [Completion(str(w), "value") for w in words]
        if key == "default" and len(path) >= 2 and path[-2] == "options":
            option = self.doc.ruleset_known.options.get(path[-1]) if self.doc.ruleset_known else None
            return [Completion(str(v), "value", f"a value of {option.name}") for v in option.values] if option else []
        return []

    def expression(self, written: str, actions: bool) -> list[Completion]:
        word = re.search(r"[A-Za-z0-9_]*$", written).group(0)
        before = written[:len(written) - len(word)]
        quoted = re.search(r"\boption\s*\.\s*([A-Za-z_]\w*)\s*(?:==|!=)\s*[\"']([^\"']*)$", written)
        if quoted:
            option = self.doc.ruleset_known.options.get(quoted.group(1)) if self.doc.ruleset_known else None
            values = option.values if option else [n.name for n in self.defined("value")
                                                   if n.option == quoted.group(1)]
            return [Completion(str(v), "value", f"a value of {quoted.group(1)}",
                               option.value_notes.get(v) if option else None) for v in values]
        if re.search(r"\bgoto\s+$", before):
            return self.of("phase", self.scope if self.defined("phase", self.scope) else GAME)
        if re.search(r"\b(?:win|lose|push)\s+$", before):
            return self.of("label")
        if re.search(r"\boption\s*\.\s*$", before):
            return self.of("option")
        if re.search(r"\bpay\s+$", before):
            return self.of("fee")
        if re.search(r"\b(?:set|choose)\s+$", before):
            return self.variables()
        if re.search(r"[\"']", before.split("==")[-1]) and before.count('"') % 2:
            return []  # inside a string that is no option's value
        from ..check.names import FUNCTIONS, MEANINGS
        from ..model import dice_shape, throw_facts
        from ..render.in_words import FACTS

        found = self.variables()
        throwless = self.place_is_throwless()
        shape = dice_shape(self.doc.ruleset_known)
        if not throwless:
            found += [Completion(f, "fact", f"a fact of the throw ({t})", FACTS.get(f))
                      for f, t in throw_facts(shape).items()]
        found += [Completion(face, "face", f"face {k} of the dice", f"the face {face}: count({face}) is how many "
                             f"dice show it") for k, face in enumerate(shape.names, 1)]
        if self.scope != GAME:
            found += [Completion(f, "fact", "a fact of the game", BET_FACT_MEANINGS[f]) for f in BET_FACT_MEANINGS]
        found += [Completion(f, "function", f"{f}({', '.join(('x', 'y')[:n]) if n is not None else 'a, b, …'})",
                             MEANINGS.get(f), f"{f}(") for f, (n, _) in FUNCTIONS.items()]
        found.append(Completion("option", "keyword", "option.NAME: an option's value", insert_text="option."))
        if actions and (not before.strip() or before.rstrip().endswith(";")):
            found = [Completion(w, "keyword", "an action") for w in _ACTION_WORDS] + found
        return found

    def variables(self) -> list[Completion]:
        own = self.of("variable", self.scope) if self.scope != GAME else []
        return own + [c for c in self.of("variable", GAME) if c.label not in {o.label for o in own}]

    def place_is_throwless(self) -> bool:
        """Whether the place is in a phase with `throw: false` (no facts of the throw there)."""
        phases = [n for n in self.names.definitions if n.kind == "phase" and n.scope == self.scope
                  and n.start <= self.place <= (n.block_end or n.end)]
        return bool(phases) and (self.scope, phases[-1].name) in self.names.throwless

    def throws(self) -> list[Completion]:
        """The throws a `words: throws:` key may name: each throw's faces (lowest first), each total."""
        from itertools import combinations_with_replacement

        from ..model import Words, dice_shape

        shape = dice_shape(self.doc.ruleset_known)
        words = self.doc.ruleset_known.words if self.doc.ruleset_known is not None else Words()
        if shape.throws > 1296:  # (a list an author can read; totals are offered all the same)
            found = []
        else:
            found = [Completion("-".join(map(str, kind)), "throw",
                                "-".join(words.face(f) for f in kind))
                     for kind in combinations_with_replacement(range(1, shape.sides + 1), shape.count)]
        return found + [Completion(str(t), "throw", f"any throw of {t}")
                        for t in range(shape.count, shape.count * shape.sides + 1)]


def _schema_node(path: list[str]) -> dict:
    """The part of the rule files' JSON Schema (`language.schema`) that describes the value at
    the keys `path` ({} when the schema has no such place). A list on the way is entered (a
    rule's keys are those of an item of `rules:`); a mapping of names (`phases:`) takes any name."""
    root = _schema()
    node: dict = root
    for key in path:
        node = _entered(root, node)
        if key in node.get("properties", {}):
            node = node["properties"][key]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        else:
            return {}
    return _resolved(root, node, "object")


def _entered(root: dict, node: dict) -> dict:
    node = _resolved(root, node, "object")
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        node = _resolved(root, node["items"], "object")
    return node


def _resolved(root: dict, node: dict, want: str) -> dict:
    """`node` with its `$ref` followed and, where it is one thing or another by the type of the
    value (`if: {type: …}`), the branch for a value of type `want`."""
    for _ in range(32):  # a schema's references could go round; ours do not, and this cannot hang
        if "$ref" in node:
            target = root.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
            node = {**target, **{k: v for k, v in node.items() if k != "$ref" and k not in target}}
        elif "if" in node and not ({"properties", "additionalProperties", "items"} & set(node)):
            chosen = node.get("then") if node["if"].get("type") == want else node.get("else")
            if not isinstance(chosen, dict):
                return node
            node = chosen
        else:
            return node
    return node


def _keys(path: list[str]) -> list[Completion]:
    """The keys the schema allows in the mapping at `path`, each with what it means."""
    node = _entered(_schema(), _schema_node(path))
    return [Completion(key, "key", " ".join(str(spec.get("description", "")).split()[:12]) or None,
                       spec.get("description"), f"{key}: ")
            for key, spec in node.get("properties", {}).items()]


def _present_keys(doc, place: tuple) -> set[str]:
    """The keys already written in the mapping where a key is being typed at `place` (the lines
    above and below at its indentation, within its block; a list item's keys from its `- `), so
    that completion offers only keys still missing."""
    line, column = place
    start = re.match(r"^(\s*)(-\s+)?", doc.line(line)[:column])
    indent, new_item = len(start.group(0)), start.group(2) is not None
    present: set[str] = set()
    for step in ((1,) if new_item else (-1, 1)):
        k = line + step
        while 0 <= k < len(doc.lines):
            text = doc.line(k)
            stripped = text.lstrip(" ")
            k += step
            if not stripped or stripped.startswith("#"):
                continue
            found = re.match(r"(-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s|$)", stripped)
            at = len(text) - len(stripped)
            dash = len(found.group(1) or "") if found else (2 if stripped.startswith("- ") else 0)
            if at + dash < indent:
                break  # the block ends
            if at + dash > indent:
                continue  # inside a key's value
            if dash and step == 1:
                break  # (below) the next item begins
            if found:
                present.add(found.group(2))
            if dash:
                break  # (above) the `- ` that begins this item: its first key, and the item's start
    return present


@lru_cache(maxsize=1)
def _schema() -> dict:
    """The rule files' JSON Schema, made once (it is read, never changed, here)."""
    from .schema import rule_file_schema

    return rule_file_schema()


def _key_path(doc, place: tuple) -> list[str]:
    """The keys of the blocks that hold `place`, outermost first, read from the indentation of
    the lines above it (so that it works while the YAML does not read)."""
    line, column = place
    text = doc.line(line)[:column]
    dash = re.match(r"^(\s*)(-\s+)?", text)
    current = len(dash.group(0)) if text.strip() else column
    path: list[str] = []
    for k in range(line - 1, -1, -1):
        if current <= 0:
            break
        above = doc.line(k)
        stripped = above.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(above) - len(stripped)
        found = re.match(r"(-\s+)?([^\s:#'\"][^:#]*?|'[^']*'|\"[^\"]*\")\s*:(?:\s|$)", stripped)
        key_indent = indent + len(found.group(1) or "") if found else indent
        if found and key_indent < current:
            path.insert(0, found.group(2).strip("'\""))
            current = indent if found.group(1) else key_indent
        elif indent < current:
            current = indent
    return path
