"""Where rule files are: paths, names beside a file, the built-in corpus; and the user's cache
folder, where what is built from the grammar and from unchanged rule files is kept between runs.

Light on purpose (no YAML, no Lark): every command resolves its files before it knows whether
it must read them.
"""

from __future__ import annotations

import os
from pathlib import Path

# A rule file is a few kilobytes; a file larger than this is refused before it is read.
MAX_BYTES = 1_000_000


class NotRegular(OSError):
    """The path is not a regular file (a FIFO, a device, a folder)."""


class TooLarge(OSError):
    """The file is larger than the bound it was read with."""


def read_regular(path: Path | str, max_bytes: int, follow_links: bool = True) -> bytes:
    """The bytes of a regular file of at most `max_bytes`. The file is opened without waiting
    (a FIFO opened for reading would wait for a writer) and checked after opening, on what was
    opened: a file swapped for a FIFO between a check and an open cannot make a command hang.
    `follow_links=False` refuses a symbolic link too. Raises NotRegular, TooLarge or OSError."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path} is not a regular file")
        if info.st_size > max_bytes:
            raise TooLarge(f"{path} is larger than {max_bytes:,} bytes")
        chunks, size = [], 0
        while True:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:  # it grew while being read
                raise TooLarge(f"{path} is larger than {max_bytes:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def builtin_dir() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "rulesets", here.parent / "rulesets"):
        if candidate.is_dir():
            return candidate
    return here / "_data" / "rulesets"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_dir().glob("*.yaml"))


def builtin_file(name: str) -> Path | None:
    """The built-in ruleset of this name (`cotton`, or `cotton.yaml`), or None."""
    if "/" in name or "\\" in name or name in ("", ".", ".."):
        return None
    for candidate in (builtin_dir() / name, builtin_dir() / f"{name}.yaml"):
        if candidate.suffix == ".yaml" and is_file(candidate):
            return candidate
    return None


def resolve(name: str, relative_to: Path | None = None) -> Path | None:
    """A path, a name beside `relative_to`, or a built-in ruleset name."""
    candidates = [Path(name)]
    if relative_to is not None:
        candidates = [relative_to / name, relative_to / f"{name}.yaml"] + candidates
    if "/" not in name and "\\" not in name:
        candidates.append(builtin_dir() / f"{name}.yaml")
    for candidate in candidates:
        if is_file(candidate):
            return candidate
    return None


def is_file(path: Path) -> bool:
    """Whether `path` is a file, False for any name the system refuses (too long, a NUL byte):
    `Path.is_file` raises on those, and a name in a rule file or on the command line can be
    anything."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def not_a_file(path: Path) -> str | None:
    """What is at `path` where it is no regular file, in words for a message ("a folder", "a
    device", "a pipe", "a socket", "a link to nothing"), or None where nothing is there: "no
    such file" was said of /dev/zero and of a folder, which are there (audit 10 finding 13)."""
    import stat

    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        try:
            return "a link to nothing" if path.is_symlink() else None
        except (OSError, ValueError):
            return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def display(path: Path) -> str:
    """The path as a user would write it: relative to the working folder when inside it,
    otherwise as found (a real path either way, so `file:line:col` opens in an editor)."""
    try:
        resolved = path.resolve()
    except OSError:
        return str(path)
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):  # outside it, or the working folder was deleted
        return str(path)


def grammar_path() -> Path:
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "grammar" / "hazard.lark", here.parent / "grammar" / "hazard.lark"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("grammar/hazard.lark is missing from the installation")


def cache_folder(part: str) -> str | None:
    """A folder of the user's own cache (``$XDG_CACHE_HOME/hazard-dsl/PART``, or the platform's
    equivalent), created private; None when there is none usable. Never a shared folder: what
    is kept there is loaded as pickles, so it must be writable by this user alone."""
    # The XDG specification: a relative path in $XDG_CACHE_HOME is invalid and is ignored (it
    # would put a cache folder in whatever folder the command happens to run in).
    root = next((os.environ[name] for name in ("XDG_CACHE_HOME", "LOCALAPPDATA")
                 if os.path.isabs(os.environ.get(name) or "")), None)
    root = root or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(root):
        return None  # no home folder to speak of
    folder = os.path.join(root, "hazard-dsl", part)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o022):
        return None  # someone else's, or writable by others: not to be trusted
    if not os.access(folder, os.W_OK):
        return None
    return folder
