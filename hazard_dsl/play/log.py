"""Session logs: JSON Lines written as the session happens, read back to replay or resume it.

A log is trusted only as far as the rules agree with it. Replaying runs the session engine again
with the log as its script — the logged throws are the dice, the logged stakes, covers, calls and
passes are the people's decisions — and compares every event the engine makes with the logged
one. A log of other rules (its `rules` hash), a damaged line, or an event the rules would not
have made is refused, naming the line.

A new log never destroys data (`create_log`): it is not written over an existing file unless the
user says so (`--force`), never over a rule file of the game, even then, and it is locked
(`fcntl.flock`) while a session writes it, so that a second session cannot append to it.
"""

from __future__ import annotations

import json
import os

from ..records import record

MAX_LOG_BYTES = 200_000_000
MAX_LOG_EVENTS = 2_000_000
HEADER_KEYS = ("event", "file", "rules", "players", "purse", "stake", "strategy", "rounds", "policy", "options")


class LogError(ValueError):
    """A log that cannot be replayed, or written where it would destroy data; the message names
    the file (and line)."""


class LogEnded(Exception):
    """The engine asked for a decision past the end of the log, with nobody live to answer."""


@record
class Log:
    path: str
    header: dict
    events: list  # every event, the header first
    cut_short: bool = False  # the last line was cut off mid-way (the session was killed writing it)


def read_log(path: str) -> Log:
    import os
    import stat

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise LogError(f"{path}: not a log file (a regular file written by --log)")
        if info.st_size > MAX_LOG_BYTES:
            raise LogError(f"{path}: larger than {MAX_LOG_BYTES:,} bytes; not a session log")
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    cut_short = False
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:  # no newline at the end: the last event was being written when the session stopped
        lines.pop()
        cut_short = True
    if len(lines) > MAX_LOG_EVENTS:
        raise LogError(f"{path}: more than {MAX_LOG_EVENTS:,} events; not a session log")
    events = []
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise LogError(f"{path}:{number}: this line is not a JSON event (the log is damaged)") from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise LogError(f"{path}:{number}: this line is not a session event (no \"event\")")
        events.append(event)
    if not events:
        raise LogError(f"{path}: empty: no session was logged here")
    header = events[0]
    if header.get("event") != "session":
        raise LogError(f"{path}:1: a session log begins with its \"session\" event")
    for key in HEADER_KEYS:
        if key not in header:
            raise LogError(f"{path}:1: the session event lacks {key!r}; not a log written by hazard-dsl --log")
    return Log(path, header, events, cut_short)


# --------------------------------------------------------------------------- writing


class LogWriter:
    """A new log, open and locked for one session (`create_log`)."""

    def __init__(self, path: str, fd: int):
        self.path, self.fd = path, fd

    def write(self, event: dict) -> None:
        """Append one event, at once: a session killed at any moment leaves a log valid up to
        its last event."""
        data = (json.dumps(event) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError as exc:
            raise LogError(f"{self.path}: cannot write the log: {exc.strerror or exc}") from None

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock goes with the descriptor
            self.fd = -1


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


def create_log(path: str, force: bool = False, rule_files=()) -> LogWriter:
    """A new log at `path`, locked for this session. An existing file is refused unless `force`;
    a rule file (`rule_files`: the file played and every file it extends) always is."""
    import stat

    if not path:
        raise LogError("--log: the name of the log is empty; give a file name")
    protected = []
    for name in rule_files:
        try:
            protected.append(os.stat(name))
        except OSError:
            pass

    def is_rule_file(info) -> bool:
        return any(info.st_dev == p.st_dev and info.st_ino == p.st_ino for p in protected)

    def rule_file_refused() -> LogError:
        return LogError(f"--log {path}: that is a rule file (the one played, a file it extends, or a built-in ruleset); a log is never written "
                        f"over a rule file, not even with --force: give the log a name of its own")

    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise LogError(f"--log {path}: cannot write it: {exc.strerror or exc}") from None
    if info is not None and is_rule_file(info):
        raise rule_file_refused()
    exists = LogError(f"--log {path}: the file exists, and a log is not written over a file: give a fresh name, "
                      f"or --force to write over it")
    if info is not None and not force:
        raise exists
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | (0 if force else os.O_EXCL)
    try:
        fd = os.open(path, flags, 0o666)
    except FileExistsError:  # made meanwhile by someone else
        raise exists from None
    except OSError as exc:
        raise LogError(f"--log {path}: cannot write it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if is_rule_file(info):  # a link made meanwhile
            raise rule_file_refused()
        if not stat.S_ISREG(info.st_mode):
            raise LogError(f"--log {path}: not a regular file; a log is written to a file of its own")
        _lock(fd, path)
        if force:
            os.ftruncate(fd, 0)  # only now that it is ours alone
    except BaseException as exc:
        os.close(fd)
        if isinstance(exc, OSError):
            raise LogError(f"--log {path}: cannot write it: {exc.strerror or exc}") from None
        raise
    return LogWriter(path, fd)


# --------------------------------------------------------------------------- replaying


class Script:
    """The decisions and dice of a logged session, handed to the engine in order; past the end of
    the log, the `live` decider and dice take over (`play --resume`)."""

    def __init__(self, log: Log, live_decider=None, live_dice=None):
        self.log = log
        self.position = 0  # the index of the event the engine is about to make
        self.live = live_decider
        self.live_dice = live_dice
        self.throws = [(line, e.get("dice")) for line, e in enumerate(log.events, 1) if e["event"] == "throw"]
        self.thrown = 0
        # where dice land off, the casts that made each throw (both dice, or one recast alone)
        self.casts = [(line, e) for line, e in enumerate(log.events, 1) if e["event"] == "cast"]
        self.cast_count = 0

    def next_event(self) -> dict | None:
        events = self.log.events
        return events[self.position] if self.position < len(events) else None

    def _live(self):
        if self.live is None:
            raise LogEnded
        return self.live

    @property
    def scripted(self) -> bool:
        return self.position < len(self.log.events)

    # --- the Decider's questions
    def stake(self, setter, caster, session):
        if not self.scripted:
            return self._live().stake(setter, caster, session)
        e = self.next_event()
        if e["event"] in ("stake", "refuse") and e.get("player") == setter.name:
            return _amount(e.get("amount"))
        return 0

    def cover(self, caster, setter, amount, session) -> bool:
        if not self.scripted:
            return self._live().cover(caster, setter, amount, session)
        e = self.next_event()
        return not (e["event"] == "refuse" and e.get("player") == setter.name and e.get("declined"))

    def keep_after_win(self, caster, session) -> bool:
        if not self.scripted:
            return self._live().keep_after_win(caster, session)
        e = self.next_event()
        return not (e["event"] == "pass" and e.get("voluntary"))

    def choose(self, state, session) -> int:
        if not self.scripted:
            return self._live().choose(state, session)
        e = self.next_event()
        values = [value for value, _ in state.alternatives]
        if e["event"] in ("choice", "recast") and e.get("value") in values:
            return values.index(e["value"])
        return 0  # the comparison of events will say what is wrong

    # --- the dice
    def throw(self):
        if self.thrown < len(self.throws):
            line, d = self.throws[self.thrown]
            self.thrown += 1
            if (not isinstance(d, list) or len(d) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                                 and 1 <= x <= 6 for x in d)):
                raise LogError(f"{self.log.path}:{line}: the dice of this throw must be two faces from 1 to 6")
            return d[0], d[1]
        if self.live_dice is None:
            from .dice import TapeEnded

            raise TapeEnded
        return self.live_dice.throw()

    def cast(self, chance):
        """Both dice cast where they may land off: the logged cast, then the live dice."""
        if self.cast_count < len(self.casts):
            line, e = self.casts[self.cast_count]
            self.cast_count += 1
            d = e.get("dice")
            if (not isinstance(d, list) or len(d) != 2 or not all(
                    x is None or (isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6) for x in d)):
                raise LogError(f"{self.log.path}:{line}: this cast must be of both dice: two faces from 1 to 6, "
                               f"null for a die off")
            return d[0], d[1]
        return self._live_dice().cast(chance)

    def cast_die(self, die: int, chance):
        """One die recast alone: the logged cast, then the live dice."""
        if self.cast_count < len(self.casts):
            line, e = self.casts[self.cast_count]
            self.cast_count += 1
            face = e.get("face", 0)
            if e.get("die") != die or not (face is None or (isinstance(face, int) and not isinstance(face, bool)
                                                             and 1 <= face <= 6)):
                raise LogError(f"{self.log.path}:{line}: this cast must be die {die} recast alone: a face from 1 to "
                               f"6, or null if it lands off again")
            return face
        return self._live_dice().cast_die(die, chance)

    def _live_dice(self):
        if self.live_dice is None:
            from .dice import TapeEnded

            raise TapeEnded
        return self.live_dice


def _amount(text):
    from fractions import Fraction

    from ..parse.numbers import exact_amount

    value = exact_amount(str(text), percent=False) if isinstance(text, (str, int)) else None
    return value if value is not None and value >= 0 else Fraction(0)


def differs(made: dict, logged: dict) -> str | None:
    """What differs between the event the rules make and the logged one, or None."""
    for key in sorted(set(made) | set(logged)):
        if made.get(key) != logged.get(key):
            return f"{key} is {json.dumps(logged.get(key))} in the log, but the rules make it {json.dumps(made.get(key))}"
    return None


def replayed(session, script: Script):
    """The session's events, each checked against the log while the log lasts; then, if the
    script has live deciders, the session goes on live. Raises LogError at the first event the
    rules would not have made."""
    log = script.log
    events = session.events()
    while True:
        try:
            made = next(events)
        except (StopIteration, LogEnded):
            return
        logged = script.next_event()
        if logged is not None:
            if made["event"] == "session":
                wrong = differs({k: made[k] for k in ("players", "purses", "options")},
                                {k: logged.get(k) for k in ("players", "purses", "options")})
            else:
                wrong = differs(made, logged)
            if wrong:
                raise LogError(f"{log.path}:{script.position + 1}: the log contradicts the rules: {wrong}")
        elif script.live is None:
            return
        yield made, logged is not None
        script.position += 1
