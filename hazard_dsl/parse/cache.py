"""The reading cache: a rule file that has not changed since it was last read is not read again,
and a machine already compiled from it is not compiled again.

Reading is the slow part of a short command — YAML, then every expression through the Lark
parser, then the names and types — and the rulesets people analyse again and again (the
built-ins, a parent they extend) seldom change. `read_ruleset` here is `parse.reader.read_ruleset`
remembered: the checked `Ruleset` is kept as a pickle in the user's private cache folder, under
a key made of the file's text, the path as given and the working folder (positions and file
names in messages depend on both), and the code that reads. It is used only when every file
of the `extends` chain still resolves to the same file with the same text. Only rulesets that
read without errors are kept (their warnings ride along), so every error is always found by
the reader itself, with today's positions. A ruleset read through the cache carries its key
(`Ruleset.digest`); `compiled` keeps the machines compiled from it, under that key, the option
values and the bets asked for. Like Python's own ``.pyc`` files, what is kept is
loaded without question; that is why the folder must belong to this user alone
(`files.cache_folder`). ``HAZARD_DSL_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from types import MappingProxyType

from ..diagnostics import SOURCES
from .files import MAX_BYTES, cache_folder, resolve

MAX_ENTRIES = 256  # kept per kind (rulesets, machines); beyond it the oldest go, so the cache cannot grow without bound
FORMAT = 2  # bump when what is kept changes shape


def read_ruleset(path: str | Path):
    """The checked Ruleset of a rule file, from the cache when its files are unchanged.
    Raises RulesetError with every problem, exactly as `parse.reader.read_ruleset`."""
    path = Path(path)
    folder = _folder("rulesets")
    text = _text(path) if folder else None
    if text is None:
        from .reader import read_ruleset as read

        return read(path)
    key = _hash(str(FORMAT), _code(), _cwd(), str(path), _digest(text))
    entry = os.path.join(folder, key + ".pickle")
    kept = _load(entry)
    if kept is not None and _unchanged(kept["files"], text):
        return kept["ruleset"]
    from ..records import replace
    from .reader import read_ruleset as read

    files: list = []
    ruleset = read(path, files)
    kept_files = [(named, real, display, _digest(t)) for named, real, display, t in files]
    # The ruleset's own key names every file it was read from (the entry's key names only the
    # file asked for): what is kept under it, the machines, changes when a parent file does.
    ruleset = replace(ruleset, digest=_hash(key, *(f"{real}:{digest}" for _, real, _, digest in kept_files)))
    _store(entry, {"files": kept_files, "ruleset": ruleset})
    return ruleset


def compiled(ruleset, options: dict, bets, compile):
    """`compile()`'s machine for this ruleset, these option values (all of them, resolved) and
    these bets (None: all), from the cache when it was compiled before. What is kept leaves out
    the ruleset itself, its game rules, bets and fees: they are the ones in memory again when
    the machine is loaded, so the machine and the ruleset stay one."""
    return kept(ruleset, "machines", (repr(sorted(options.items())), repr(None if bets is None else sorted(bets))),
                compile)


def kept(ruleset, kind: str, what: tuple, build):
    """`build()`'s value for this ruleset and `what` (strings), from the cache folder `kind` when
    it was built before from the same rule files by the same code; built and kept otherwise.
    Only values are kept: an exception from `build` goes to the caller, every time."""
    folder = _folder(kind) if ruleset.digest else None
    if folder is None:
        return build()
    entry = os.path.join(folder, _hash(ruleset.digest, *what) + ".pickle")
    shared = _shared(ruleset)
    value = _load(entry, shared)
    if value is None:
        value = build()
        _store(entry, value, shared)
    return value


def _shared(ruleset) -> dict:
    """What a kept machine names rather than holds, by a stable name of each."""
    shared = {"ruleset": ruleset}
    for phase in ruleset.phases.values():
        for rule in phase.rules:
            shared[f"rule {phase.name} {rule.index}"] = rule
    for kind, section in (("bet", ruleset.bets), ("fee", ruleset.fees)):
        for name, value in section.items():
            shared[f"{kind} {name}"] = value
    return shared


def _folder(kind: str) -> str | None:
    return None if os.environ.get("HAZARD_DSL_NO_CACHE") else cache_folder(kind)


def _text(path: Path) -> str | None:
    """The file's text if it is a regular file of a sensible size in UTF-8; None otherwise (the
    reader then reads it and says what is wrong)."""
    try:
        info = path.stat()  # before opening: opening a FIFO would wait for a writer
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
        return data.decode("utf-8-sig") if len(data) <= MAX_BYTES else None
    except (OSError, UnicodeDecodeError):
        return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _hash(*parts: str) -> str:
    return _digest("\0".join(parts))[:40]


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the working folder was deleted
        return ""


_CODE: list[str] = []


def _code() -> str:
    """What identifies the code that reads and compiles: the version, and the size and time of
    every module of the package and of the grammar. A change to any of them (an upgrade, an edit
    in a working copy) is a new key, so nothing built by other code is ever used."""
    if not _CODE:
        from .. import __version__

        package = Path(__file__).resolve().parent.parent
        modules = sorted(package.glob("*.py")) + sorted(package.glob("*/*.py"))
        parts = [__version__, sys.version]
        try:
            from .files import grammar_path

            modules.append(grammar_path())
        except FileNotFoundError:
            pass
        for module in modules:
            try:
                info = module.stat()
            except OSError:
                continue
            parts.append(f"{module.relative_to(package) if module.is_relative_to(package) else module.name}:"
                         f"{info.st_size}:{info.st_mtime_ns}")
        _CODE.append(_hash(*parts))
    return _CODE[0]


def _unchanged(files: list, text: str) -> bool:
    """Whether every file a kept ruleset extends still resolves to the same file with the same
    text; if so, their texts are registered for messages to quote."""
    texts = [text]
    for (named, real, _display, digest), (_, parent, _, _) in zip(files[1:], files):
        found = resolve(named, Path(parent).parent)
        if found is None or str(found.resolve()) != real:
            return False
        extended = _text(found)
        if extended is None or _digest(extended) != digest:
            return False
        texts.append(extended)
    for (_, _, display, _), kept_text in zip(files, texts):
        SOURCES.add(display, kept_text)  # so that later messages can quote these files' lines
    return True


def _load(entry: str, shared: dict | None = None):
    """What is kept under `entry`, or None."""
    import pickle

    try:
        with open(entry, "rb") as handle:
            unpickler = pickle.Unpickler(handle)
            if shared is not None:
                unpickler.persistent_load = shared.__getitem__
            return unpickler.load()
    except Exception:  # noqa: BLE001 - missing, truncated or foreign: a miss, never a failure
        return None


def _store(entry: str, value, shared: dict | None = None) -> None:
    import copyreg
    import pickle

    names = {id(v): k for k, v in (shared or {}).items()}
    table = copyreg.dispatch_table.copy()
    table[MappingProxyType] = _reduce_mapping
    temporary = f"{entry}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as handle:
            pickler = pickle.Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dispatch_table = table
            if names:
                pickler.persistent_id = lambda obj: names.get(id(obj))
            pickler.dump(value)
        os.replace(temporary, entry)  # whole or not at all: a reader never sees half a file
    except Exception:  # noqa: BLE001 - a full disk or an unpicklable value: just not kept
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return
    _prune(os.path.dirname(entry))


def _reduce_mapping(mapping):
    return (frozen_mapping, (dict(mapping),))


def frozen_mapping(items: dict) -> MappingProxyType:
    """How a kept Ruleset's read-only mappings are rebuilt (a mapping proxy cannot be pickled)."""
    return MappingProxyType(items)


def _prune(folder: str) -> None:
    """Keep the newest MAX_ENTRIES of a kind."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".pickle")]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for old in entries[:len(entries) - MAX_ENTRIES]:
            os.unlink(old.path)
    except OSError:
        pass
