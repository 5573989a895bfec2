"""A rule file and the files it extends, read into positioned YAML nodes and merged.

`load_chain` reads the file and each file it `extends:` (a built-in ruleset, or a file beside
it), most basic first, refusing a cycle, a chain too deep, a file too large or not regular, a
folder `extends:` may not leave; a layout error with one known mend (`yaml_errors.repair`) is
reported where the author wrote it and the file read on, so the rest of it is checked in the
same run (`unmended` places a later diagnostic back in the author's text). `merge` lays the
files over each other: a child's top-level keys replace its parent's; `phases` are replaced
name by name; `variables`, `options`, `labels`, `bets` and `fees` are refined key by key.

The first job of reading (`parse.reader` reads the sections from the merged nodes).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..diagnostics import SOURCES, Diagnostic, Diagnostics, Position, RulesetError, did_you_mean, nearest
from .files import (NotRegular, TooLarge, builtin_dir, builtin_file, builtin_names, display as _display, is_file,
                    read_regular, resolve)
from .keys import MERGED_BY_NAME
from .sections import nodes_of
from .yaml_nodes import MAX_BYTES, YMap, YScalar, load_yaml

MAX_EXTENDS_DEPTH = 16

MAX_MENDS = 12  # layout errors read past in one file: past this many, the rest is noise


def _mended(text: str, display: str, diags: Diagnostics, mends: dict):
    """The nodes of the file's own text, read on past each layout error a mend is known for
    (`yaml_errors.repair`): each error is reported at its place in the author's text and the
    rest of the file checked in the same run. `mends` receives the edits (`"edits"`), to map every
    later position back, and where each mended error is (`"at"`). Raises the first error no mend
    is known for, with those before it."""
    from .yaml_errors import repair, unmend
    from ..records import replace

    SOURCES.add(display, text)  # the author's text is the one quoted, never the mended one
    current = text
    edits = mends.setdefault("edits", [])
    mended_from = len(edits)
    for _ in range(MAX_MENDS):
        try:
            return nodes_of(current, display)  # (sections read before kept, while a reader lends them)
        except RulesetError as exc:
            if len(exc.diagnostics) != 1 or not exc.diagnostics[0].is_error:
                diags.extend(replace(d, position=unmend(d.position, edits),
                                     suggestion=_fix_unmended(d.suggestion, edits)) for d in exc.diagnostics)
                raise RulesetError(diags.items) from None
            d = exc.diagnostics[0]
            if d.position is not None and any(d.position.line == line for line, _, _ in edits[mended_from:]):
                # the error lies on a line the last mend changed: it may be the mend's own doing
                raise RulesetError(diags.items) from None
            diags.extend([replace(d, position=unmend(d.position, edits), end=None,
                                  suggestion=_fix_unmended(d.suggestion, edits))])
            mended_from = len(edits)
            mended = repair(current, d)
            if mended is None:
                raise RulesetError(diags.items) from None
            current, more = mended
            edits.extend(more)
            mends.setdefault("at", set()).add(diags.items[-1].position)
    raise RulesetError(diags.items)


def load_chain(path: Path, diags: Diagnostics, files: list | None = None, text: str | None = None,
                named: str | None = None, within: Path | None = None, repairs: dict | None = None) -> list[YMap]:
    """The file and every file it extends, most basic first. `files`, when given, receives
    (how `extends` named it, or None for the file itself; its real path; as displayed; its text)
    for each file read, for the reading cache to check later. `text`, when given, is the file's
    own text, already read: it is parsed rather than the file read again. `named`: the text is
    no file at all but a rule file held in a string (`hazard_dsl.load_text`), shown by that name
    in messages, with no real path; its `extends:` names a built-in ruleset only, since a text has
    no folder of its own to be beside (and the working folder is not one to trust). `within`: a
    folder (its real path) that `extends:` may not leave — only a built-in ruleset or a file whose
    real path lies inside it may be named (`serve`, whose folder's files anyone it serves may write)."""
    chain: list[YMap] = []
    seen: list[Path | None] = []
    current: Path | None = path
    via: tuple[Position, str] | None = None
    while current is not None:
        in_text = via is None and named is not None
        resolved = None if in_text else current.resolve()
        if resolved is not None and resolved in seen:
            cycle = " → ".join(named if p is None else _display(p) for p in seen + [resolved])
            diags.error(f"extends goes round in a cycle: {cycle}", via[0] if via else None)
            raise RulesetError(diags.items)
        if len(seen) >= MAX_EXTENDS_DEPTH:
            diags.error(f"extends is nested more than {MAX_EXTENDS_DEPTH} deep", via[0] if via else None)
            raise RulesetError(diags.items)
        seen.append(resolved)
        display = named if in_text else _display(current)
        where = via[0] if via else Position(display, 1, 1)
        if via is not None and not _may_extend(resolved):
            # a file named by `extends` must be a rule file: nothing else is read, let alone quoted
            diags.error(f"extends: {via[1]!r} is not a rule file (a built-in ruleset, or a .yaml file)", via[0])
            raise RulesetError(diags.items)
        text = _read(current, display, where, diags) if via is not None or text is None else text
        if files is not None:
            files.append((via[1] if via else None, None if resolved is None else str(resolved), display, text))
        # The text of a file reached through `extends` is quoted in messages only once it is
        # known to be a rule file (a mapping with name: or phases:).
        root = load_yaml(text, display, register=True) if via is not None or repairs is None \
            else _mended(text, display, diags, repairs)
        if root is None:
            diags.error("the file is empty: a ruleset needs at least a name and phases",
                        via[0] if via else Position(display, 1, 1))
            raise RulesetError(diags.items)
        if not isinstance(root, YMap) or (via is not None and not ({"name", "phases"} & set(root.entries))):
            if via is not None:
                diags.error(f"extends: {via[1]!r} is not a rule file (it has no name: or phases:)", via[0])
            else:
                diags.error("a ruleset must be a mapping of keys (name:, phases:, …)", root.position)
            raise RulesetError(diags.items)
        if via is not None:
            SOURCES.add(display, text)
        chain.append(root)
        parent = root.get("extends")
        current = None
        if parent is not None and not (isinstance(parent, YScalar) and parent.value is None):
            if not isinstance(parent, YScalar) or not isinstance(parent.value, str):
                diags.error("extends must name a ruleset file or a built-in ruleset", parent.position)
                raise RulesetError(diags.items)
            # only a file of the folder is held to it: a built-in ruleset (the one named, or one a
            # file of the folder extends) extends the built-ins beside it, wherever this copy of
            # hazard-dsl keeps them (the server's and its worker's copies may live apart)
            if within is not None and not in_text and _real_inside(resolved, within):
                found = _inside(parent.value, resolved.parent, within)
                if found is False:
                    # refused whether or not such a file exists: the answer tells nothing of what lies outside
                    diags.error(f"extends: {parent.value!r} leads outside the folder served", parent.position,
                                "a rule file of the folder extends a built-in ruleset or another rule file "
                                "of the folder")
                    raise RulesetError(diags.items)
            else:
                found = builtin_file(parent.value) if in_text else resolve(parent.value, resolved.parent)
            if found is None:
                near = builtin_names() if in_text else _rulesets_near(resolved)
                hint = f"built-in rulesets: {', '.join(builtin_names())}"
                if in_text:
                    hint += " (a rule file given as text extends a built-in ruleset; to extend a file, load " \
                            "a rule file beside it by its path)"
                there = None if in_text else resolved.parent / parent.value
                if there is not None and there.suffix.lower() in (".yaml", ".yml") and os.path.lexists(there):
                    diags.error(f"extends: {parent.value!r} is not a regular file (a folder, a device, a pipe or a "
                                f"link that leads to none)", parent.position)
                    raise RulesetError(diags.items)
                close = nearest(parent.value, near)
                diags.error(f"extends: no {'built-in ' if in_text else ''}ruleset named {parent.value!r}"
                            f"{did_you_mean(parent.value, near)}", parent.position, hint, code="unknown-ruleset",
                            suggestion=parent.replaced_by(close) if close is not None else None)
                raise RulesetError(diags.items)
            current, via = found, (parent.position, parent.value)
    return list(reversed(chain))


def _rulesets_near(path: Path) -> list[str]:
    """What the `extends:` of the file `path` could name: the built-in rulesets and the rule files
    beside it (by name with and without its extension), not the file itself."""
    names = list(builtin_names())
    try:
        beside = sorted(p for p in path.parent.glob("*.y*ml") if p.name != path.name)[:500]
        names += [p.stem for p in beside] + [p.name for p in beside]
    except OSError:
        pass
    return names


def _real_inside(path: Path, within: Path) -> bool:
    """Whether the real path of `path` (links followed) lies in the folder `within`."""
    try:
        return path.resolve().is_relative_to(within)
    except (OSError, RuntimeError, ValueError):
        return True  # unreadable as a path: held to the folder, which refuses it


def _inside(name: str, beside: Path, within: Path) -> Path | None | bool:
    """What `extends: name` of a file in the folder `beside` names when it may not leave the folder
    `within`: a file beside it (real path inside `within` or among the built-in rulesets, links
    followed), else a built-in ruleset; None if neither; False if the name leads outside (`..`,
    an absolute path, a link out)."""
    builtins = builtin_dir().resolve()
    for candidate in (beside / name, beside / f"{name}.yaml"):
        try:
            real = candidate.resolve()
        except ValueError:  # a NUL: no file has that name
            return None
        except (OSError, RuntimeError):  # a loop of links
            return False
        if not (real.is_relative_to(within) or real.is_relative_to(builtins)):
            return False
        if is_file(real):
            return real
    return builtin_file(name)


def _may_extend(path: Path) -> bool:
    """A built-in ruleset, or a regular file named *.yaml / *.yml."""
    return path.suffix.lower() in (".yaml", ".yml") and is_file(path)


def _read(path: Path, display: str, where: Position, diags: Diagnostics) -> str:
    """The file's text, refused before reading when it is not a regular file or too large
    (a 2 GiB file is not read to find out); a UTF-8 byte-order mark is dropped."""
    try:
        data = read_regular(path, MAX_BYTES)
    except NotRegular:
        diags.error(f"{display} is not a regular file", where)
        raise RulesetError(diags.items) from None
    except TooLarge:
        diags.error(f"{display} is larger than {MAX_BYTES:,} bytes; a rule file is much smaller", where)
        raise RulesetError(diags.items) from None
    except OSError as exc:
        diags.error(f"cannot read {display}: {exc.strerror or exc}", where)
        raise RulesetError(diags.items) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        diags.error("the file is not UTF-8 text (a byte that UTF-8 does not allow)", Position(display, line, column))
        raise RulesetError(diags.items) from None


def merge(chain: list[YMap]) -> YMap:
    merged: dict = {}
    for layer in chain:
        for key, (key_node, value) in layer.entries.items():
            if key in MERGED_BY_NAME and key in merged and isinstance(value, YMap) and isinstance(merged[key][1], YMap):
                entries = dict(merged[key][1].entries)
                for name, (name_node, spec) in value.entries.items():
                    parent = entries.get(name, (None, None))[1]
                    if key != "phases" and isinstance(spec, YMap) and isinstance(parent, YMap):
                        # a bet, fee, option, variable or label is refined key by key
                        # (chicken.yaml changes only the default of Cotton's option `main`)
                        entries[name] = (name_node, YMap({**parent.entries, **spec.entries}, spec.position))
                    else:
                        entries[name] = (name_node, spec)
                merged[key] = (key_node, YMap(entries, value.position))
            else:
                merged[key] = (key_node, value)
    return YMap(merged, chain[-1].position)




def unmended(d: Diagnostic, own: str, edits: list) -> Diagnostic:
    """`d` placed in the author's text when it lies in the mended one (`_mended`)."""
    from .yaml_errors import unmend
    from ..records import replace

    if d.position is None or d.position.file != own:
        return d
    return replace(d, position=unmend(d.position, edits), end=None, suggestion=_fix_unmended(d.suggestion, edits))


def _fix_unmended(fix, edits: list):
    """A suggestion made in the mended text, placed in the author's."""
    from .yaml_errors import unmend
    from ..records import replace

    if fix is None or not edits:
        return fix
    return replace(fix, start=unmend(fix.start, edits), end=unmend(fix.end, edits))




def rule_files(path: str | Path) -> list[str]:
    """The real paths of a rule file and of every file it extends, as far as they can be read:
    the files a session log must never be written over."""
    files: list = []
    try:
        load_chain(Path(path), Diagnostics(), files)
    except RulesetError:
        pass
    return [real for _, real, _, _ in files]


def built_on(chain: list[YMap], sources: list) -> tuple[str | None, list, str | None]:
    """For a file that extends another: the name of the ruleset it is built on, and — when it
    has no `sources:` of its own — the sources it merely inherits, with the name of the ruleset
    that cites them. A derived file must not present its parent's sources as its own."""
    if len(chain) < 2:
        return None, [], None

    def name_of(layers) -> str | None:
        for layer in reversed(layers):
            node = layer.get("name")
            if isinstance(node, YScalar) and isinstance(node.value, str):
                return node.value
        return None

    built_on = name_of(chain[:-1])
    if chain[-1].get("sources") is not None or not sources:
        return built_on, [], None
    citing = max(k for k, layer in enumerate(chain[:-1]) if layer.get("sources") is not None)
    return built_on, sources, name_of(chain[:citing + 1])


def rules_digest(files: list) -> str:
    """A hash of the text of the rule file and every file it extends: what a session log records,
    so that a log is never replayed against other rules (a renamed or moved file is the same)."""
    from .store import sha256

    h = sha256()
    for _, _, _, text in files:
        data = text.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:32]
