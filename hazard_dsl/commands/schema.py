"""`schema`: the JSON Schema of rule files (hazard_dsl.language.schema), as text or written to a new
file."""

from __future__ import annotations

import os

from ..errors import ArgumentError
from .errors import CommandError


def schema_text() -> str:
    """The schema as JSON text, as the file shipped in the package has it."""
    from ..language.schema import schema_text as text

    return text()


def write_schema(path: str, force: bool = False) -> None:
    """Write the schema to `path`, a new file: an existing file is refused unless `force`, and a
    built-in ruleset always is (play.log.create_new_file, the house rule `run --log` follows).
    Raises CommandError saying why it was not written."""
    from ..parse.files import builtin_dir
    from ..play.log import LogError, create_new_file

    text = schema_text().encode("utf-8")
    try:
        fd = create_new_file(path, force, [str(p) for p in builtin_dir().glob("*.yaml")],
                             argument="output", what="schema")
    except ArgumentError as exc:  # the file named by `output`: refused as a bad argument, not a log
        raise ArgumentError(exc.argument, *exc.problem) from None
    except LogError as exc:
        raise CommandError(str(exc)) from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(text)


def schema_request(request) -> str | None:
    """A `SchemaRequest` (commands.requests): the schema's text when it names no `output`, else
    the schema written there (`write_schema`) and None."""
    if request.output is None:
        return schema_text()
    write_schema(request.output, request.force)
    return None
