"""The reading cache on disk (`hazard_dsl.cache`): a rule file that has not changed since it was
last read is not read again, and a machine already compiled from it is not compiled again. It
can only ever save time: what it returns is what reading and compiling the same bytes would
give, or it returns nothing.

Reading is the slow part of a short command — YAML, then every expression through the Lark
parser, then the names and types — and the rulesets people analyse again and again (the
built-ins, a parent they extend) seldom change. `read_ruleset` here is `check.reading.read_ruleset`
remembered, and `compiled` keeps what `compile.compiler.compile_ruleset` compiles, on these terms:

- **Each file is read once.** The rule file's bytes are read, hashed for the key, and those very
  bytes are parsed; the file is not opened a second time, so an editor's save in between cannot
  pair one version's key with the other version's figures. A file reached through `extends` is
  read once by the reader, and its hash is kept beside the ruleset; a kept ruleset is used only
  when every such file still has that hash.
- **Keys name what the value depends on:** the rule file's text, the path as given and the working
  folder (positions and file names in messages depend on both), and the code that reads (its
  version and every module). A ruleset read through the cache carries its key
  (`Ruleset.digest`), which also names every extended file; what `kept` keeps for it — the
  machines, the checks' findings, the option tables — is keyed on that.
- **Entries are checked before use** (`parse.store`): a regular file of bounded size, whole,
  carrying the key asked for, matching its checksum; then unpickled by an unpickler that makes
  only the package's own values, and accepted only in the shape the caller expects. Anything
  else is a miss: it is built again, never trusted and never waited on.
- **Written atomically** (a temporary file renamed over the entry), in a folder of this user's
  alone (`files.cache_folder`); only rulesets that read without errors are kept (their warnings
  ride along), so every error is found by the reader itself, with today's positions.

Why pickle: a machine is a graph of the package's records that the solver reads as it is; a
format of our own would be a second description of every record to keep in step. The checksum
and the restricted unpickler make it safe to read; the key inside the entry makes it the right
one. ``HAZARD_DSL_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
from pathlib import Path
from types import MappingProxyType

from ..diagnostics import SOURCES
from ..version import __version__
from ..parse.files import MAX_BYTES, builtin_dir, builtin_file, cache_folder, read_regular, resolve
from ..parse.store import read_entry, sha256, write_entry

MAX_ENTRIES = 256  # kept per kind (rulesets, machines); beyond it the oldest go, so the cache cannot grow without bound
MAX_ENTRY_BYTES = 64 << 20  # a kept machine is well under this; a larger file in the folder is not ours
FORMAT = 5  # bump when what is kept changes shape
SUFFIX = ".entry"


def read_ruleset(path: str | Path, text: str | None = None, within: Path | None = None):
    """The checked Ruleset of a rule file, from the cache when its files are unchanged.
    Raises RulesetError with every problem, exactly as `check.reading.read_ruleset`. `text`: the
    file's text as an editor holds it, not yet saved; it is read in place of the file's (and
    `extends:` still resolves beside the file). `within`: a folder `extends:` may not leave
    (`reader._load_chain`); a kept ruleset read from files outside it is read again, and refused."""
    path = Path(path)
    folder = _folder("rulesets")
    if text is not None and len(text) > MAX_BYTES:  # as the reader bounds a file it opens
        from ..check.reading import read_ruleset as read

        return read(path, text=text, within=within)
    text = text if text is not None else _text(path) if folder else None
    if text is None or folder is None:  # (no cache: HAZARD_DSL_NO_CACHE=1, or no folder for it)
        from ..check.reading import read_ruleset as read

        return read(path, text=text, within=within)
    key = _hash(str(FORMAT), _code(), _cwd(), str(path), _digest(text))
    entry = os.path.join(folder, key + SUFFIX)
    kept = _load(entry, key, _is_kept_ruleset)
    if kept is not None and kept["files"][0][3] == _digest(text) and (
            within is None or all(_within(real, within) for _, real, _, _ in kept["files"][1:])) and _unchanged(
            kept["files"], text):
        return kept["ruleset"]
    from ..records import replace
    from ..check.reading import read_ruleset as read

    files: list = []
    # The reader parses the very text the key was made from (it does not open the file again):
    # a file saved between the two reads would otherwise be kept under one version's key with
    # the other version's figures.
    ruleset = read(path, files, text=text, within=within)
    kept_files = [(named, real, display, _digest(t)) for named, real, display, t in files]
    # The ruleset's own key names every file it was read from (the entry's key names only the
    # file asked for): what is kept under it, the machines, changes when a parent file does.
    ruleset = replace(ruleset, digest=_hash(key, *(f"{real}:{digest}" for _, real, _, digest in kept_files)))
    _store(entry, key, {"files": kept_files, "ruleset": ruleset})
    return ruleset


def read_text(text: str, name: str):
    """The checked Ruleset of a rule file held in a string (`hazard_dsl.load_text`), shown as
    `name` in messages; from the cache when the same text under the same name was read before
    and the built-in rulesets it extends are unchanged. Raises RulesetError as `read_ruleset`.
    The key holds neither a path nor the working folder: such a text is found by no path, and
    extends only built-in rulesets (`reader._load_chain`)."""
    from ..records import replace
    from ..check.reading import read_ruleset as read

    folder = _folder("rulesets")
    key = _hash(str(FORMAT), _code(), "text", name, _digest(text))
    entry = os.path.join(folder, key + SUFFIX) if folder else None
    kept = _load(entry, key, _is_kept_ruleset) if entry else None
    if kept is not None and kept["files"][0][3] == _digest(text) and _unchanged(kept["files"], text):
        return kept["ruleset"]
    files: list = []
    ruleset = read(Path(name), files, text=text, named=name)
    kept_files = [(named, real, display, _digest(t)) for named, real, display, t in files]
    ruleset = replace(ruleset, digest=_hash(key, *(f"{real}:{digest}" for _, real, _, digest in kept_files)))
    if entry:
        _store(entry, key, {"files": kept_files, "ruleset": ruleset})
    return ruleset


def compiled(ruleset, options: dict, bets, compile):
    """`compile()`'s machine for this ruleset, these option values (all of them, resolved) and
    these bets (None: all), from the cache when it was compiled before. What is kept leaves out
    the ruleset itself, its game rules, bets and fees: they are the ones in memory again when
    the machine is loaded, so the machine and the ruleset stay one."""
    from ..compile.machine import Machine

    return kept(ruleset, "machines", (repr(sorted(options.items())), repr(None if bets is None else sorted(bets))),
                compile, lambda value: isinstance(value, Machine) and value.ruleset is ruleset)


def kept(ruleset, kind: str, what: tuple, build, expect):
    """`build()`'s value for this ruleset and `what` (strings), from the cache folder `kind` when
    it was built before from the same rule files by the same code; built and kept otherwise.
    `expect(value)` says whether a loaded value has the shape `build` gives: one that does not
    is rebuilt, never returned. Only values are kept: an exception from `build` goes to the
    caller, every time."""
    folder = _folder(kind) if ruleset.digest else None
    if folder is None:
        return build()
    key = _hash(ruleset.digest, kind, *what)
    entry = os.path.join(folder, key + SUFFIX)
    shared = _shared(ruleset)
    value = _load(entry, key, expect, shared)
    if value is None:
        value = build()
        _store(entry, key, value, shared)
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
        return read_regular(path, MAX_BYTES).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def _digest(text: str) -> str:
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
    in a working copy) is a new key, so nothing built by other code is ever used. (Read with
    `os.scandir` and plain strings: it runs at the start of every command that reads a rule
    file, and pathlib's objects for a hundred modules cost a millisecond or two.)"""
    if not _CODE:
        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        parts = [__version__, sys.version]
        for folder in [""] + sorted(_subfolders(package)):
            try:
                with os.scandir(os.path.join(package, folder)) as entries:
                    found = sorted((e.name, e) for e in entries if e.name.endswith(".py") and e.is_file())
            except OSError:
                continue
            shown = folder + "/" if folder else ""
            for name, entry in found:  # (the entry's own stat: no path made for each module)
                try:
                    info = entry.stat()
                except OSError:
                    continue
                parts.append(f"{shown}{name}:{info.st_size}:{info.st_mtime_ns}")
        try:
            from ..parse.files import grammar_path

            grammar = str(grammar_path())
            info = os.stat(grammar)
            parts.append(f"{os.path.basename(grammar)}:{info.st_size}:{info.st_mtime_ns}")
        except OSError:  # (FileNotFoundError: an installation without its grammar)
            pass
        _CODE.append(_hash(*parts))
    return _CODE[0]


def _subfolders(package: str) -> list[str]:
    try:
        with os.scandir(package) as entries:
            return [e.name for e in entries if e.is_dir() and not e.name.startswith((".", "__"))]
    except OSError:
        return []


def _within(real: str, folder: Path) -> bool:
    """Whether a kept ruleset's file (its real path) is a built-in one or lies inside `folder`."""
    return Path(real).is_relative_to(folder) or Path(real).is_relative_to(builtin_dir().resolve())


def _unchanged(files: list, text: str) -> bool:
    """Whether every file a kept ruleset extends still resolves to the same file with the same
    text; if so, their texts are registered for messages to quote."""
    texts = [text]
    for (named, real, _display, digest), (_, parent, _, _) in zip(files[1:], files):
        # a text held in a string (no real path) extends only a built-in ruleset
        found = builtin_file(named) if parent is None else resolve(named, Path(parent).parent)
        if found is None or str(found.resolve()) != real:
            return False
        extended = _text(found)
        if extended is None or _digest(extended) != digest:
            return False
        texts.append(extended)
    for (_, _, display, _), kept_text in zip(files, texts):
        SOURCES.add(display, kept_text)  # so that later messages can quote these files' lines
    return True


class _Unpickler(pickle.Unpickler):
    """Loads only what this package keeps: its own classes, fractions, NumPy arrays and Python's
    plain containers. A kept entry has passed its checksum before it gets here; this is the
    second wall, so that nothing in the folder can make loading call an arbitrary function.
    `shared`: what the entry names rather than holds (`_shared`), found by its name (`_named`)."""

    def __init__(self, file, shared: dict | None = None):
        super().__init__(file)
        self.shared = shared

    def find_class(self, module: str, name: str):
        if (module, name) == (__name__, "_named") and self.shared is not None:
            return self.shared.__getitem__  # a name it does not hold: KeyError, a miss
        if (module, name) in _ALLOWED or (module.split(".")[0] in ("hazard_dsl", "numpy") and "." not in name):
            found = super().find_class(module, name)
            if isinstance(found, type) or found is frozen_mapping or (module.split(".")[0] == "numpy"
                                                                      and name in _NUMPY_FUNCTIONS):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not something the cache keeps")


_ALLOWED = frozenset({("fractions", "Fraction"), ("builtins", "frozenset"), ("builtins", "set"),
                      ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict"), ("builtins", "int"),
                      ("builtins", "str"), ("builtins", "bytes"), ("builtins", "bool"), ("builtins", "float"),
                      ("builtins", "complex"), ("builtins", "range"), ("builtins", "slice"),
                      ("collections", "OrderedDict"), ("collections", "Counter"), ("copyreg", "_reconstructor"),
                      ("builtins", "object")})
_NUMPY_FUNCTIONS = frozenset({"_reconstruct", "_frombuffer", "scalar"})


def _load(entry: str, key: str, expect, shared: dict | None = None):
    """What is kept under `entry` for `key` when it is whole, of the expected shape and loads
    without surprise; None otherwise (a miss, never a failure)."""
    payload = read_entry(entry, key, MAX_ENTRY_BYTES)
    if payload is None:
        return None
    try:
        value = _Unpickler(io.BytesIO(payload), shared).load()
        return value if expect(value) else None
    except Exception:  # noqa: BLE001 - checksummed but foreign (another code's shapes): a miss
        return None


def _store(entry: str, key: str, value, shared: dict | None = None) -> None:
    import copyreg

    table = copyreg.dispatch_table.copy()
    table[MappingProxyType] = _reduce_mapping
    if shared:
        # What is shared is named through the dispatch table of its classes, which the pickler
        # consults only for objects of those classes; a persistent_id would be called for every
        # object kept, and was a third of the cost of keeping a machine (a first `analyse`).
        by_name = _by_name({id(v): k for k, v in shared.items()})
        for kind in {type(v) for v in shared.values()}:
            table[kind] = by_name
    buffer = io.BytesIO()
    try:
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(value)
    except Exception:  # noqa: BLE001 - an unpicklable value: just not kept
        return
    if buffer.tell() <= MAX_ENTRY_BYTES and write_entry(entry, key, buffer.getvalue()):
        _prune(os.path.dirname(entry))


def _by_name(names: dict):
    """How an object of a shared value's class is kept: the shared value itself by its name
    (`_named`, which the loader's `shared` answers), any other as pickle would keep it."""

    def reduce(value):
        name = names.get(id(value))
        return (_named, (name,)) if name is not None else value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

    return reduce


def _named(name: str):
    """Stands for a shared value in a kept entry; loading answers it from the values in memory
    (`_Unpickler.shared`), and without them refuses it."""
    raise pickle.UnpicklingError(f"{name} is named, not kept")


def _is_kept_ruleset(kept) -> bool:
    from ..model import Ruleset

    return (isinstance(kept, dict) and isinstance(kept.get("ruleset"), Ruleset)
            and isinstance(kept.get("files"), list) and len(kept["files"]) >= 1
            and all(isinstance(f, tuple) and len(f) == 4 and all(isinstance(x, (str, type(None))) for x in f)
                    for f in kept["files"]))


def _reduce_mapping(mapping):
    return (frozen_mapping, (dict(mapping),))


def frozen_mapping(items: dict) -> MappingProxyType:
    """How a kept Ruleset's read-only mappings are rebuilt (a mapping proxy cannot be pickled)."""
    return MappingProxyType(items)


def _prune(folder: str) -> None:
    """Keep the newest MAX_ENTRIES of a kind."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(SUFFIX) and e.is_file(follow_symlinks=False)]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime_ns)
        for old in entries[:len(entries) - MAX_ENTRIES]:
            os.unlink(old.path)
    except OSError:
        pass
