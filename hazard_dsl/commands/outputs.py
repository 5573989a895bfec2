"""The files a command writes beside what it prints (graph's drawing, a chart of analyse,
compare and simulate): new files, as a session's log and the schema are (play.log's house rule,
`create_new_file`): an existing file is refused unless the caller says `force`, and a rule
file of the game (the one read, a file it extends, a built-in ruleset) always is. Refused before
the work where the file exists already (`check_new_file`), and the file made only when its
contents are ready (`open_new_file`), so that a drawing that fails leaves nothing behind."""

from __future__ import annotations

import os

from ..errors import ArgumentError
from .errors import CommandError


def _created(path: str, force: bool, rule_files, argument: str, what: str) -> int:
    from ..play.log import LogError, create_new_file

    try:
        return create_new_file(path, force, list(rule_files), argument=argument, what=what)
    except ArgumentError as exc:  # the file a setting names: refused as a bad argument (exit 2), not a log
        raise ArgumentError(exc.argument, *exc.problem) from None
    except LogError as exc:
        raise CommandError(str(exc)) from None


def _is_one_of(path: str, files) -> bool:
    try:
        target = os.stat(path)
    except OSError:
        return False
    for name in files:
        try:
            if os.path.samestat(target, os.stat(name)):
                return True
        except OSError:
            continue
    return False


def check_new_file(path: str | None, force: bool, rule_files, argument: str, what: str) -> None:
    """Refuse `path` before any work, in `create_new_file`'s words, where it exists and `force`
    is not given, or where it is one of `rule_files` (always); a new file passes, and is made
    by `open_new_file` once there is something to write."""
    if path is None or not os.path.lexists(path):
        return
    if force and not _is_one_of(path, rule_files):
        return
    # the file exists: create_new_file refuses it (a rule file first) before it makes anything;
    # should it be gone meanwhile, the empty file made in its place is ours, and removed
    fd = _created(path, False, rule_files, argument, what)
    os.close(fd)
    os.unlink(path)


def open_new_file(path: str, force: bool, rule_files, argument: str, what: str):
    """A binary file object open for writing on `path`, made new (`force`: or written over,
    never over one of `rule_files`), refused otherwise as `check_new_file` says."""
    return os.fdopen(_created(path, force, rule_files, argument, what), "wb")
