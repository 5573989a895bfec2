"""Session logs: JSON Lines written as the session happens, read back to replay or resume it.

A log is the table's record (play.table): the `session` event with its settings, then each
action in turn followed by the events it caused. It is trusted only as far as the rules agree
with it. Replaying applies the logged actions to a new table of the same settings (a log of
events alone, as first written, by the actions its events imply) and compares every event the
table makes with the logged one (play.replay). A log of other rules (its `rules` hash), a
damaged line, an action the rules do not allow, an event they would not have made, or anything
after the session's end is refused, naming the line.

A log is a person's data, so it is never destroyed:

- a new log is never written over an existing file unless the user says so (`force`), and
  never over a rule file of the game, even then (`create_log`);
- a log being written is locked (`fcntl.flock`), so that a second session cannot append to it;
- a log is read line by line (each at most `MAX_LINE_BYTES`), never whole, so that its size
  costs time, not memory; and `play`, resuming a log, checks it whole before it changes anything
  (the line a kill cut off is dropped only once everything before it has been replayed);
- the header's `file` is never opened: the rules a log is replayed against are a built-in
  ruleset the header names, or the rule file the user names (`rules_file`); either way their
  hash must be the header's `rules`.
"""

from __future__ import annotations

import json
import os

from ..errors import PYTHON, Arg
from ..records import record
from .log_errors import FileExists, FileRefused, LogError, LogExists  # noqa: F401 - the log's errors, named here too
from .replay import replaying

MAX_LINE_BYTES = 1_000_000  # one event; the longest a session writes (fifty purses) is a few kilobytes
_CHUNK = 1 << 16  # read this much at a time
HEADER_KEYS = ("event", "file", "rules", "players", "purse", "stake", "strategy", "rounds", "policy", "options")


# --------------------------------------------------------------------------- reading


@record
class Reading:
    """What reading a log to its end found: its complete lines, the offset just after the last
    of them, and the bytes of a line cut off after it (a session killed while writing it)."""

    lines: int
    end: int
    tail: int


class _Lines:
    """The complete lines of an open log, read with `os.pread` from the start (up to `stop`),
    one piece at a time: memory is bounded by MAX_LINE_BYTES whatever the log's size. Once the
    iteration ends, `reading` says where it ended."""

    def __init__(self, fd: int, path: str, stop: int | None = None):
        self.fd, self.path, self.stop = fd, path, stop
        self.reading: Reading | None = None

    def __iter__(self):
        fd, stop = self.fd, self.stop
        offset = 0  # of the first byte of `buffer` in the file
        number = 0
        buffer = b""
        while True:
            want = _CHUNK if stop is None else min(_CHUNK, stop - offset - len(buffer))
            try:
                chunk = os.pread(fd, want, offset + len(buffer)) if want > 0 else b""
            except OSError as exc:
                raise LogError(f"{self.path}: cannot read it: {exc.strerror or exc}") from None
            if not chunk:
                self.reading = Reading(number, offset, len(buffer))
                return
            buffer += chunk
            start = 0
            while True:
                k = buffer.find(b"\n", start)
                if k < 0:
                    break
                number += 1
                if k - start > MAX_LINE_BYTES:
                    raise _too_long(self.path, number)
                yield number, buffer[start:k]
                start = k + 1
            offset += start
            buffer = buffer[start:]
            if len(buffer) > MAX_LINE_BYTES:
                raise _too_long(self.path, number + 1)


def _too_long(path: str, number: int) -> LogError:
    return LogError(f"{path}:{number}: this line is longer than {MAX_LINE_BYTES:,} bytes; "
                    f"not a session event (the log is damaged)")


class _TwiceKey(ValueError):
    """A JSON object of a log's line with a key twice."""


def _once_each(pairs: list) -> dict:
    # json.loads keeps the last of two values of a key, silently: a line edited so (a throw's
    # "dice" written twice) would be replayed with one of them, and the line after it blamed
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise _TwiceKey(key)
        seen[key] = value
    return seen


def _json_line(path: str, number: int, line: bytes):
    """A line of a log as JSON, each object's keys once; LogError naming the line otherwise."""
    try:
        return json.loads(line.decode("utf-8"), object_pairs_hook=_once_each)
    except _TwiceKey as twice:
        raise LogError(f"{path}:{number}: this line has {json.dumps(twice.args[0])[:40]} twice; a log writes each "
                       f"key once (the log is damaged)") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LogError(f"{path}:{number}: this line is not a JSON event (the log is damaged)") from None


def _event(path: str, number: int, line: bytes) -> dict:
    event = _json_line(path, number, line)
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        raise LogError(f"{path}:{number}: this line is not a session event (no \"event\")")
    return event


class LogFile:
    """An open session log. Opened to read (`open_log`), to resume (`open_to_resume`: locked,
    read and then appended to) or new (`create_log`: locked, written). Read line by line, never
    whole; `check` replays it all against the rules before anything is printed or changed."""

    def __init__(self, path: str, fd: int, writable: bool = False):
        self.path, self.fd, self.writable = path, fd, writable
        self.header: dict | None = None
        self.reading: Reading | None = None  # set by `check`: the log as checked
        self.throws = 0  # throws in the log, once checked
        self.ended = False  # whether the log holds the session's end

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock goes with the descriptor
            self.fd = -1

    # ---------------------------------------------------------------- reading

    def events(self):
        """(line number, event) for each complete line, in order; a damaged line raises
        LogError naming it. Once the log has been checked, only what was checked is read."""
        return _Events(self)

    def entries(self):
        """(line number, entry) for each complete line: events and the actions written before
        the events they caused (play.table); read as `events` reads."""
        return _Events(self, _entry)

    def check_on(self, table) -> list:
        """Replay the whole log on `table` (a new table of the log's settings: `replaying`) and
        print nothing; afterwards `reading` says how far the log was read, `throws` how many
        throws it holds and `ended` whether it holds the session's end. Returns the events the
        table made that the log lacks (a kill between an action and its events)."""
        run = replaying(self, table)
        while True:
            try:
                _, event = next(run)
            except StopIteration as done:
                unlogged, self.reading = done.value
                break
            self.throws += event["event"] == "throw"
            self.ended = event["event"] == "end"
        return unlogged

    def _read_header(self) -> None:
        read = self.events()
        first = next(iter(read), None)
        if first is None:
            self._no_line(read.reading.tail if read.reading is not None else 0)
        header = first[1]
        if header.get("event") != "session":
            raise LogError(f"{self.path}:1: a session log begins with its \"session\" event")
        for key in HEADER_KEYS:
            if key not in header:
                raise LogError(f"{self.path}:1: the session event lacks {key!r}; not a session log written by "
                               f"hazard-dsl")
        self.header = header

    def _no_line(self, tail: int) -> None:
        """Raise LogError for a log without one whole line: empty, or its first line cut short
        (`tail` bytes and no line end: a session killed as it wrote its first event), which is
        not "empty" to a person who sees its bytes."""
        if not tail:
            raise LogError(f"{self.path}: empty: no session was logged here")
        try:
            first = os.pread(self.fd, 1, 0)
        except OSError as exc:
            raise LogError(f"{self.path}: cannot read it: {exc.strerror or exc}") from None
        size = f"{tail:,} byte{'s' * (tail != 1)} and no line end"
        if first == b"{":  # the start of an event as the writer writes it
            raise LogError(f"{self.path}:1: its only line is cut short ({size}): the session was stopped as it "
                           f"wrote its first event, so no session was logged here")
        raise LogError(f"{self.path}:1: its only line ({size}) is not a session event; not a session log "
                       f"written by hazard-dsl")

    # ---------------------------------------------------------------- writing

    def drop_cut_line(self) -> None:
        """Cut off a last line left incomplete by a kill, so the session goes on after the last
        whole event. Only after `check`, and only on a log opened to resume."""
        assert self.writable and self.reading is not None, "a log is cut only once checked and locked"
        if self.reading.tail:
            # what a kill leaves is the start of one event as the writer writes it (a JSON object);
            # anything else after the last line was put there by something else, and is not ours
            # to destroy
            try:
                first = os.pread(self.fd, 1, self.reading.end)
            except OSError as exc:
                raise LogError(f"{self.path}: cannot read it: {exc.strerror or exc}") from None
            if first != b"{":
                raise LogError(f"{self.path}:{self.reading.lines + 1}: the log ends in text that is not an event "
                               f"cut off by a kill; it is left as it is: remove that line to resume")
            try:
                os.ftruncate(self.fd, self.reading.end)
            except OSError as exc:
                raise LogError(f"{self.path}: cannot write it: {exc.strerror or exc}") from None

    def write(self, event: dict) -> None:
        """Append one event, at once: a session killed at any moment leaves a log valid up to
        its last event."""
        data = (json.dumps(event) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as exc:
            raise LogError(f"{self.path}: cannot write the log: {exc.strerror or exc}") from None


class _Events:
    def __init__(self, log: LogFile, parse=None):
        self.log = log
        self.parse = parse or _event
        self.lines = _Lines(log.fd, log.path, log.reading.end if log.reading is not None else None)

    @property
    def reading(self) -> Reading | None:
        return self.lines.reading

    def __iter__(self):
        path = self.log.path
        for number, line in self.lines:
            yield number, self.parse(path, number, line)


def _open(path: str, flags: int, what: str) -> int:
    """A descriptor of a regular file; never blocks (a FIFO named as a log is refused, not waited on)."""
    import stat

    try:
        fd = os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LogError(f"{path}: cannot {what} it: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LogError(f"{path}: not a log file (a regular file a session was logged to)")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _lock(fd: int, path: str) -> None:
    """Hold the log for this session alone (released when the descriptor is closed); another
    session holding it is refused, not waited for."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock on this platform: nothing to hold
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise LogError(f"{path}: another session is writing this log (it is locked); "
                       f"wait until it ends, or log to another file") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot lock it: {exc.strerror or exc}") from None


def open_log(path: str) -> LogFile:
    """A log to read (`replay`): its header read and checked for the keys a session log has."""
    log = LogFile(path, _open(path, os.O_RDONLY, "read"))
    try:
        log._read_header()
    except BaseException:
        log.close()
        raise
    return log


def open_to_resume(path: str) -> LogFile:
    """A log to go on with (`play`, resuming it): locked for this session, its header read. Nothing
    is changed until it has been checked (`LogFile.check`)."""
    log = LogFile(path, _open(path, os.O_RDWR | os.O_APPEND, "write"), writable=True)
    try:
        _lock(log.fd, path)
        log._read_header()
    except BaseException:
        log.close()
        raise
    return log


def create_log(path: str, force: bool = False, rule_files=(), argument: str | None = "log") -> LogFile:
    """A new log at `path`, locked for this session. An existing file is refused unless `force`;
    a rule file (`rule_files`: the file played and every file it extends) always is. `argument`
    names the path (None: a name chosen here, not given)."""
    return LogFile(path, create_new_file(path, force, rule_files, argument=argument, lock=True), writable=True)


def create_new_file(path: str, force: bool = False, rule_files=(), argument: str | None = "log", what: str = "log",
                    lock: bool = False) -> int:
    """A descriptor open for writing on a new regular file at `path` (empty), `lock`ed for this
    process if asked. The house rule for every file a command writes that a person may care about:
    an existing file is refused unless `force`, and a rule file (`rule_files`) always is, even with
    `force`. Raises FileRefused (FileExists for a file that exists) naming `argument`, the request
    field that gave `path` (`Arg(argument, path)`), and saying what is written ("log",
    "schema"); where the name was chosen here (`argument` None), LogError (LogExists) naming the
    path."""
    import stat

    def refused(*problem, exists: bool = False) -> LogError:
        if argument is None:
            said = "".join(part if isinstance(part, str) else PYTHON.arg(part) for part in problem)
            return (LogExists if exists else LogError)(f"{path}{said}")
        return (FileExists if exists else FileRefused)(Arg(argument, value=path), *problem)

    if not path:
        raise refused(f": the name of the {what} is empty; give a file name")
    protected = []
    for name in rule_files:
        try:
            protected.append(os.stat(name))
        except OSError:
            pass

    def is_rule_file(info) -> bool:
        return any(info.st_dev == p.st_dev and info.st_ino == p.st_ino for p in protected)

    def rule_file_refused() -> LogError:
        return refused(f": that is a rule file (the game's own, a file it extends, or a built-in ruleset); a "
                       f"{what} is never written over a rule file, not even with ", Arg("force"),
                       f": give the {what} a name of its own")

    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise refused(f": cannot write it: {exc.strerror or exc}") from None
    if info is not None and is_rule_file(info):
        raise rule_file_refused()
    if info is not None and stat.S_ISDIR(info.st_mode):  # said as a folder, not as a file that exists
        raise refused(f": that is a folder; a {what} is written to a file: give a file name, in that "
                      f"folder or elsewhere")
    exists = refused(f": the file exists, and a {what} is not written over a file: give a fresh name, or ",
                     Arg("force"), " to write over it", exists=True)
    if info is not None and not force:
        raise exists
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | (0 if force else os.O_EXCL)
    try:
        fd = os.open(path, flags, 0o666)
    except FileExistsError:  # made meanwhile by someone else
        raise exists from None
    except OSError as exc:
        raise refused(f": cannot write it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if is_rule_file(info):  # a link made meanwhile
            raise rule_file_refused()
        if not stat.S_ISREG(info.st_mode):
            raise refused(f": not a regular file; a {what} is written to a file of its own")
        if lock:
            _lock(fd, path)
        if force:
            os.ftruncate(fd, 0)  # only now that it is ours alone
    except BaseException as exc:
        os.close(fd)
        if isinstance(exc, OSError):
            raise refused(f": cannot write it: {exc.strerror or exc}") from None
        raise
    return fd


def sessions_folder() -> str:
    """The folder of the logs `play` writes by default: ``$XDG_DATA_HOME/hazard-dsl/sessions``
    when XDG_DATA_HOME is an absolute path (the XDG specification ignores a relative one), else
    ``~/.local/share/hazard-dsl/sessions``. Every folder of it that is missing is made private
    (0700): a log holds who played and for what. Raises LogError saying why there is none."""
    root = os.environ.get("XDG_DATA_HOME") or ""
    if not os.path.isabs(root):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            raise LogError("no data folder for session logs: there is no home folder (set XDG_DATA_HOME)")
        root = os.path.join(home, ".local", "share")
    folder = os.path.join(root, "hazard-dsl", "sessions")
    missing = []
    here = folder
    while not os.path.isdir(here):
        missing.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    try:
        for path in reversed(missing):  # os.makedirs gives its mode to the last folder alone
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                if not os.path.isdir(path):
                    raise
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as exc:
        raise LogError(f"no data folder for session logs: cannot make or write {folder}: "
                       f"{exc.strerror or exc}") from None
    return folder


def log_name(ruleset: str, when: float | None = None) -> str:
    """A log's file name from the ruleset played (a built-in name, or a rule file's name without
    its folder and .yaml) and the local time: ``cotton-2025-03-01-142233.jsonl``."""
    import re
    import time

    stem = os.path.basename(ruleset.rstrip("/\\")) or "session"
    for ending in (".yaml", ".yml"):
        if stem.lower().endswith(ending) and len(stem) > len(ending):
            stem = stem[:-len(ending)]
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")[:40] or "session"
    return f"{stem}-{time.strftime('%Y-%m-%d-%H%M%S', time.localtime(when))}.jsonl"


def create_session_log(ruleset: str, rule_files=(), when: float | None = None) -> LogFile:
    """A new log in `sessions_folder()`, named by the ruleset and the time (`log_name`), locked
    as `create_log` makes it. A name already taken is never written over: ``-2``, ``-3``… is
    added until one is free. Raises LogError where no folder can be made or written."""
    folder = sessions_folder()
    name = log_name(ruleset, when)
    base, ending = name[:-len(".jsonl")], ".jsonl"
    for number in range(1, 1000):
        path = os.path.join(folder, name if number == 1 else f"{base}-{number}{ending}")
        try:
            return create_log(path, False, rule_files, argument=None)  # no name given: errors name the file
        except LogExists:
            continue  # taken (perhaps just now, by another session): the next suffix
    raise FileRefused(Arg("log"), f": {folder} holds a thousand logs named {base}… already: give the log a name "
                                  f"of its own")


def rules_file(log: LogFile):
    """The built-in rule file the header of `log` names, as a path. The header's `file` is never
    opened as a path: it chooses only among the built-in rulesets, and a log of any other rule
    file is refused here, asking the user to name that file. The caller compares the rules' hash
    with the header's either way."""
    from pathlib import Path

    from ..parse.files import builtin_dir, builtin_names

    file = log.header["file"]
    if isinstance(file, str) and file in builtin_names():
        return Path(builtin_dir()) / f"{file}.yaml"
    shown = repr(file[:80]) if isinstance(file, str) else json.dumps(file)[:80]
    raise LogError(f"{log.path}:1: this session was played with the rule file {shown}, and a log never opens the "
                   f"file its header names: name the rule file to check the log against (the RULESET of "
                   f"replay, or of play resuming the log)")


# --------------------------------------------------------------------------- a line of a log


def _entry(path: str, number: int, line: bytes) -> dict:
    """One line of a log: an event (`"event"`) or an action (`"action"`, written before the
    events it caused)."""
    entry = _json_line(path, number, line)
    if not isinstance(entry, dict) or not (isinstance(entry.get("event"), str) or
                                           (isinstance(entry.get("action"), str) and "event" not in entry)):
        raise LogError(f"{path}:{number}: this line is neither a session event nor an action (no \"event\")")
    return entry
