"""The errors of session logs and of the files a command writes (play.log), and of a record
replayed (play.replay): apart from both, so that each can raise them without importing the other.
"""

from __future__ import annotations

from ..errors import ArgumentError


class LogError(ValueError):
    """A log that cannot be replayed, or written where it would destroy data; the message names
    the file (and line)."""


class LogExists(LogError):
    """A new log named where a file already is (and not `force`d)."""


class FileRefused(ArgumentError, LogError):
    """A file to write named by an argument (`Arg('log', path)`; a schema's `Arg('output',
    path)`) that would destroy data or cannot be written: a LogError that names its argument, so
    that each front end words it."""


class FileExists(FileRefused, LogExists):
    """A file named by an argument that exists already (and not `force`d)."""
