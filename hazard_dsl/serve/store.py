"""Where the shared tables live: one SQLite file (stdlib `sqlite3`, WAL), held by one server.

For each table the store keeps what it was set up with (`spec`: the ruleset, options, settings,
seed or dice tape, and the hashes of its seats' and onlookers' tokens) and its log: the same JSON
Lines entries `play --log` writes — the `session` event with its settings first, then each action
followed by the events it caused — one row per entry, numbered from 1. A server rebuilds a table
by replaying those entries through the code that resumes a log (commands.sessions.check_log), so
the store holds nothing that could disagree with the log.

An action sent with a key (serve.tables: a page's id, an `Idempotency-Key`) has its first answer
kept in `answers`, written in the same transaction as its entries: a repeat of it, even after a
restart, is given that answer and never applied again.

Durability: every action's entries are written in one transaction, committed (and, with
`synchronous=FULL`, the write-ahead log synced) before the server answers; a server killed at any
moment has every acknowledged action on disk, and an action it had not acknowledged is either all
there or not there at all.

One server at a time: the store takes an exclusive `fcntl.flock` on the database file itself,
never waited for. A lock belongs to the file, not to its name, so a second server is refused
(`StoreLocked`) whatever name it is given — a symbolic link, a hard link, another path to the same
folder; a lock file beside the database would have been one per name. The lock dies with the
process that held it, even under SIGKILL; its descriptor is close-on-exec, so no process the
server starts holds it after the server dies. `flock` and SQLite's own locks (POSIX byte-range
locks) do not meet on a local file system; on NFS, where Linux makes `flock` a POSIX lock, SQLite
is not safe to begin with.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,          -- JSON: ruleset, options, settings, seed, dice, seats, watch
    created REAL NOT NULL,
    touched REAL NOT NULL,       -- the last action (or the creation): idle tables are closed
    closed TEXT                  -- why it was closed (null: open)
);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,          -- the entry's line in the table's log, from 1 (the session event)
    entry TEXT NOT NULL,         -- one JSON object, as `play --log` writes it
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS answers (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,          -- the seat whose key it is: each seat's keys are its own
    key TEXT NOT NULL,           -- the action's key (a page's id, an Idempotency-Key)
    action TEXT NOT NULL,        -- the SHA-256 of the action as sent: a key is one action's alone
    answer TEXT NOT NULL,        -- JSON: the first answer, given again to a repeat
    PRIMARY KEY (table_id, seat, key)
) WITHOUT ROWID;
"""


class StoreLocked(Exception):
    """Another server holds the database: the message says which file and what to do."""


class StoreError(Exception):
    """The database cannot be opened or written; the message names the file."""


def default_path() -> str:
    """The tables' database in the data folder of `play`'s logs (play.log.sessions_folder)."""
    from ..play.log import sessions_folder

    return os.path.join(sessions_folder(), "tables.db")


class Store:
    """The open database, locked for this process. Every method is one short transaction, taken
    under a lock of its own, so that the server's event loop and the thread that commits a batch
    of actions (`append_many`, serve.tables.Committer) never interleave."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        self._lock_fd, self._held = _lock(self.path)
        self._using = threading.RLock()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            # FULL: the write-ahead log is synced at each commit, so an acknowledged action survives
            # a power cut too, not only a killed process
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            _unlock(self._lock_fd, self._held)
            raise StoreError(f"{self.path}: cannot open the tables' database: {exc}") from None

    def close(self) -> None:
        if self._lock_fd >= 0:
            self.db.close()  # before the descriptor: see _lock
            _unlock(self._lock_fd, self._held)  # the lock goes with the descriptor
            self._lock_fd = -1

    # ------------------------------------------------------------------ writing

    def create(self, table_id: str, spec: dict, entries: list[dict]) -> None:
        """A new table with its first entries (the session event and what it opened with), in one
        transaction."""
        now = time.time()
        with self._transaction():
            self.db.execute("INSERT INTO tables (id, spec, created, touched) VALUES (?, ?, ?, ?)",
                            (table_id, json.dumps(spec), now, now))
            self._insert(table_id, 1, entries)

    def append(self, table_id: str, first: int, entries: list[dict]) -> None:
        """An action and the events it caused, numbered from `first`, committed before this returns."""
        self.append_many([(table_id, first, entries)])

    def append_many(self, batch: list[tuple]) -> None:
        """Several tables' actions and events in one transaction: one sync of the write-ahead log
        for all of them (a group commit), committed before this returns. Each item is (table_id,
        first, entries) or (table_id, first, entries, answer), `answer` being (seat, key, action's
        digest, the answer as JSON text) or None; a table whose session the action ended is
        closed ("finished") in the same transaction when `finished` is True (a fifth item)."""
        now = time.time()
        with self._transaction():
            for table_id, first, entries, *more in batch:
                self._insert(table_id, first, entries)
                answer = more[0] if more else None
                if answer is not None:
                    self.db.execute("INSERT INTO answers (table_id, seat, key, action, answer) VALUES (?, ?, ?, ?, ?)",
                                    (table_id, *answer))
                if len(more) > 1 and more[1]:
                    self.db.execute("UPDATE tables SET closed = ? WHERE id = ?", ("finished", table_id))
            self.db.executemany("UPDATE tables SET touched = ? WHERE id = ?",
                                [(now, table_id) for table_id in dict.fromkeys(b[0] for b in batch)])

    def close_table(self, table_id: str, why: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET closed = ? WHERE id = ?", (why, table_id))

    def prune(self, keep: int) -> list[str]:
        """Keep the logs of the `keep` most recently closed tables (finished, idle…); the older
        ones' logs and answers are deleted and the table marked "pruned" (its row stays, so that
        its links are told what became of it). Returns the ids pruned."""
        with self._using:  # read first: nothing to prune, no write (and no sync) at all
            kept = self.db.execute("SELECT count(*) FROM tables WHERE closed IS NOT NULL AND closed != 'pruned'"
                                   ).fetchone()[0]
        if kept <= keep:
            return []
        with self._transaction():
            rows = self.db.execute("SELECT id FROM tables WHERE closed IS NOT NULL AND closed != 'pruned' "
                                   "ORDER BY touched DESC, created DESC LIMIT -1 OFFSET ?", (keep,)).fetchall()
            gone = [r[0] for r in rows]
            for table_id in gone:
                self.db.execute("DELETE FROM entries WHERE table_id = ?", (table_id,))
                self.db.execute("DELETE FROM answers WHERE table_id = ?", (table_id,))
                self.db.execute("UPDATE tables SET closed = 'pruned' WHERE id = ?", (table_id,))
        return gone

    def _insert(self, table_id: str, first: int, entries: list[dict]) -> None:
        self.db.executemany("INSERT INTO entries (table_id, n, entry) VALUES (?, ?, ?)",
                            [(table_id, first + i, json.dumps(e)) for i, e in enumerate(entries)])

    def _transaction(self):
        return _Transaction(self)

    # ------------------------------------------------------------------ reading

    def tables(self, open_only: bool = True) -> list[tuple[str, dict, float, str | None]]:
        """(id, spec, touched, closed) of each table, oldest first."""
        with self._using:
            rows = self.db.execute("SELECT id, spec, touched, closed FROM tables" +
                                   (" WHERE closed IS NULL" if open_only else "") + " ORDER BY created").fetchall()
        return [(i, json.loads(spec), touched, closed) for i, spec, touched, closed in rows]

    def table(self, table_id: str):
        with self._using:
            row = self.db.execute("SELECT spec, touched, closed FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), row[1], row[2])

    def answer(self, table_id: str, seat: str, key: str) -> tuple[str, str] | None:
        """(the action's digest, the first answer as JSON text) of the action sent with `key` by
        `seat`, or None: not seen."""
        with self._using:
            row = self.db.execute("SELECT action, answer FROM answers WHERE table_id = ? AND seat = ? AND key = ?",
                                  (table_id, seat, key)).fetchone()
        return None if row is None else (row[0], row[1])

    def lines(self, table_id: str) -> list[str]:
        """The table's log, one JSON text per entry, in order."""
        with self._using:
            return [row[0] for row in self.db.execute("SELECT entry FROM entries WHERE table_id = ? ORDER BY n",
                                                      (table_id,))]


class _Transaction:
    def __init__(self, store: Store):
        self.db, self.path, self.using = store.db, store.path, store._using

    def __enter__(self):
        self.using.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            self.using.release()
            raise StoreError(f"{self.path}: cannot write the tables' database: {exc}") from None

    def __exit__(self, kind, exc, tb):
        try:
            return self._end(kind, exc)
        finally:
            self.using.release()

    def _end(self, kind, exc):
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        except sqlite3.Error as error:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            raise StoreError(f"{self.path}: cannot write the tables' database: {error}") from None
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"{self.path}: cannot write the tables' database: {exc}") from None
        return False


# The files this process holds, by (device, inode). Closing any descriptor of a file drops every
# POSIX lock the process has on it, SQLite's among them (its connection keeps a shared lock on the
# database in WAL mode); so a second Store of a file this process already holds is refused before
# a descriptor of it is opened, not after.
_HELD: set[tuple[int, int]] = set()
_HELD_LOCK = threading.Lock()


def _lock(path: str) -> tuple[int, tuple[int, int]]:
    """An exclusive lock on the database file `path` (made if it is missing: SQLite takes an empty
    file for a new database) for this process, or StoreLocked at once. Returns the descriptor that
    holds it and the file's (device, inode)."""
    import fcntl

    locked = StoreLocked(f"{path}: another hazard-dsl serve is using this tables' database (under this name or "
                         f"another: a link to the same file); stop that server, or give this one another file "
                         f"with --db FILE")
    with _HELD_LOCK:
        try:
            known = os.stat(path)
        except OSError:
            pass  # not made yet: nobody in this process holds it
        else:
            if (known.st_dev, known.st_ino) in _HELD:
                raise locked
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError as exc:
            raise StoreError(f"{path}: cannot open the tables' database: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            opened = os.fstat(fd)
        except BlockingIOError:
            os.close(fd)
            raise locked from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"{path}: cannot lock the tables' database: {exc.strerror or exc}") from None
        held = (opened.st_dev, opened.st_ino)
        _HELD.add(held)
        return fd, held


def _unlock(fd: int, held: tuple[int, int]) -> None:
    with _HELD_LOCK:
        os.close(fd)
        _HELD.discard(held)
