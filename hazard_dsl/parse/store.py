"""Entries of the private cache folder as bytes: written whole or not at all, read back only when
they are exactly what was written.

An entry on disk is ``MAGIC``, the SHA-256 of the rest, the length of its key, the key, then the
payload. `read_entry` returns the payload only when the file is a regular file (never a FIFO, a
device or a symbolic link: opening one could wait for ever or read without end), no larger than
the bound it is given, begins with the magic, carries the key it was asked for, and hashes to its
checksum. Anything else — a truncated write, a flipped bit, an entry renamed under another key,
a file of another program — is a miss, and the caller builds the value again. The key inside the
entry matters: the file's name is only a hint, and an entry moved to another name must not answer
for another rule file.

`write_entry` writes a temporary file made with O_EXCL beside the entry and renames it over the
entry, so a reader sees the old entry or the new one, never half of one; a failure to write is
silent (a cache that cannot keep something only runs slower).
"""

from __future__ import annotations

import os

try:  # SHA-256 alone: `hashlib` loads OpenSSL and every digest first (2 ms of a short command)
    from _sha2 import sha256  # Python 3.12 on
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # a Python built without them
        from hashlib import sha256

MAGIC = b"hazard-dsl cache 3\n"
_DIGEST = 32  # bytes of SHA-256


def read_entry(path: str, key: str, max_bytes: int) -> bytes | None:
    """The payload kept at `path` under `key`, or None when anything about it is unexpected."""
    from .files import read_regular

    try:
        data = read_regular(path, max_bytes + len(MAGIC) + _DIGEST + 8 + len(key.encode("utf-8")),
                            follow_links=False)
    except OSError:  # missing, not a regular file, a link, too large
        return None
    if not data.startswith(MAGIC):
        return None
    body = data[len(MAGIC) + _DIGEST:]
    if sha256(body).digest() != data[len(MAGIC):len(MAGIC) + _DIGEST]:
        return None
    named = key.encode("utf-8")
    if len(body) < 8 or int.from_bytes(body[:8], "big") != len(named) or body[8:8 + len(named)] != named:
        return None
    return body[8 + len(named):]


def write_entry(path: str, key: str, payload: bytes) -> bool:
    """Keep `payload` at `path` under `key`, atomically; False when it could not be kept."""
    named = key.encode("utf-8")
    body = len(named).to_bytes(8, "big") + named + payload
    data = MAGIC + sha256(body).digest() + body
    folder = os.path.dirname(path) or "."
    try:
        descriptor, temporary = _temporary(folder)
    except OSError:
        return False
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)  # whole or not at all: a reader never sees half a file
        return True
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        return False


# as tempfile.mkstemp opens its file (importing tempfile, with shutil, random, bz2 and lzma, was
# a tenth of a short command's imports)
_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | \
    getattr(os, "O_BINARY", 0)


def _temporary(folder: str) -> tuple[int, str]:
    """A new file of its own beside the entries, for this user only: (its descriptor, its path)."""
    for _ in range(100):
        temporary = os.path.join(folder, "." + os.urandom(8).hex() + ".tmp")
        try:
            return os.open(temporary, _FLAGS, 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError("no name left for a temporary file")
