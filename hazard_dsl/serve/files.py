"""The folder boundary: the rule files `serve` may read and write, and nothing else.

A name from a request is hostile until it is checked here. It is one file name (no folder part,
no `..`, no NUL, no backslash, nothing absolute) ending in `.yaml`, and the file it names, once
symbolic links are followed, lies inside the folder. A file is read as the checker reads it (a
regular file of at most `parse.files.MAX_BYTES`); it is written whole or not at all (a temporary
file beside it, then a rename), and only over the version the writer read: its SHA-256 is sent
back, and a file changed on disk since is refused (`Conflict`), never overwritten.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import tempfile
import threading
from pathlib import Path

from ..parse.files import MAX_BYTES, NotRegular, TooLarge, read_regular

# A plain file name: letters, digits, and `_ - .` and spaces inside; no leading dot (hidden files
# and the editor's temporary files are not rule files).
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_. -]{0,120}\.yaml")


class FileRefused(ValueError):
    """A name outside the boundary (status 400), a file that is not there (404) or too large
    (413), a name held by what cannot be written over, such as a folder (409), a folder that
    cannot be written (403) or a full disk (507)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Conflict(Exception):
    """The file changed on disk since the writer read it: `current` is its hash now (None: it
    has gone), `sent` the hash the writer read (None: the writer meant a new file)."""

    def __init__(self, current: str | None, sent: str | None):
        super().__init__("the file changed on disk since it was opened")
        self.current, self.sent = current, sent


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Folder:
    """The user's folder of rule files (`serve --folder`)."""

    def __init__(self, path: str | Path):
        self.root = Path(path).resolve(strict=True)
        if not self.root.is_dir():
            raise NotADirectoryError(f"{path} is not a folder")
        self._writing = threading.Lock()  # one save at a time: the check of the hash and the rename go together

    def names(self) -> list[str]:
        """The rule files of the folder (not its sub-folders), by name."""
        found = []
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            try:
                self.path(entry.name)
            except FileRefused:
                continue
            if os.path.isfile(entry.path):
                found.append(entry.name)
        return found

    def path(self, name: str) -> Path:
        """The real path of the rule file `name` inside the folder (it need not exist yet);
        FileRefused when the name is not one plain `.yaml` file name or leads outside."""
        if not isinstance(name, str) or "\x00" in name or "/" in name or "\\" in name:
            raise FileRefused("a rule file is named by its file name alone (no folder, no NUL)")
        if not NAME.fullmatch(name):
            raise FileRefused(f"{name[:80]!r}: a rule file's name is letters, digits, _ - . and spaces, ending in .yaml")
        real = (self.root / name).resolve()
        if not real.is_relative_to(self.root):
            raise FileRefused(f"{name}: a link to a file outside the folder")
        if real.suffix != ".yaml":
            raise FileRefused(f"{name}: a link to a file that is not a .yaml rule file")
        return real

    def read(self, name: str) -> tuple[str, str]:
        """(the text of the rule file `name`, the SHA-256 of its bytes)."""
        path = self.path(name)
        try:
            data = read_regular(path, MAX_BYTES, follow_links=False)
        except FileNotFoundError:
            raise FileRefused(f"{name}: no such file in the folder", 404) from None
        except TooLarge:
            raise FileRefused(f"{name}: larger than {MAX_BYTES:,} bytes", 413) from None
        except NotRegular:
            raise FileRefused(f"{name}: not a regular file") from None
        except OSError as exc:  # a link swapped in after the check (O_NOFOLLOW), no permission
            raise FileRefused(f"{name}: cannot be read ({exc.strerror or exc})") from None
        try:
            return data.decode("utf-8-sig"), digest(data)
        except UnicodeDecodeError:
            raise FileRefused(f"{name}: not UTF-8 text") from None

    def current(self, path: Path) -> str | None:
        try:
            return digest(read_regular(path, MAX_BYTES, follow_links=False))
        except FileNotFoundError:
            return None
        except (OSError, TooLarge, NotRegular):
            return "unreadable"

    def write(self, name: str, text: str, base: str | None) -> str:
        """Write `text` to the rule file `name` over the version whose hash is `base` (None: a
        new file, which must not exist); returns the new hash. Conflict if the file on disk is
        not that version."""
        path = self.path(name)
        data = text.encode("utf-8")
        if len(data) > MAX_BYTES:
            raise FileRefused(f"{name}: larger than {MAX_BYTES:,} bytes", 413)
        with self._writing:
            now = self.current(path)
            if now != base:
                raise Conflict(now, base)
            if now == "unreadable":
                # a folder, a device, a file too large or not ours to read: nothing a save may
                # replace ("Save mine over it" after a conflict sends this base back)
                what = "a folder" if path.is_dir() else "not a regular rule file this server can read"
                raise FileRefused(f"{name}: {what} has this name; it is not written over: save under another name",
                                  409)
            try:
                handle, temporary = tempfile.mkstemp(dir=self.root, prefix=".hazard-dsl-", suffix=".tmp")
            except OSError as exc:
                raise FileRefused(f"{name}: the folder cannot be written ({exc.strerror or exc})", 403) from None
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
                if path.exists():
                    os.chmod(temporary, path.stat().st_mode & 0o777)
                else:  # mkstemp's 0600 is for secrets; a rule file is as readable as any other
                    os.chmod(temporary, 0o644)
                os.replace(temporary, path)
            except BaseException as exc:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                if isinstance(exc, OSError):  # a full disk, a folder swapped in meanwhile, no permission
                    status = 507 if exc.errno in (errno.ENOSPC, errno.EDQUOT) else 409
                    raise FileRefused(f"{name}: cannot be written ({exc.strerror or exc})", status) from None
                raise
        return digest(data)

