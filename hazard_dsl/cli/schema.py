"""`hazard-dsl schema`: the JSON Schema of rule files (commands.schema), to standard output or to a
new file."""

from __future__ import annotations

import sys

from ..commands.schema import schema_request
from .parser import UsageError
from .requests import schema_request as request_of


def command(args) -> int:
    # JSON is the only format; --format json and --json are taken so that scripts may say so
    if args.output is None and args.force:
        raise UsageError("--force lets --output write over an existing file; give --output FILE too")
    text = schema_request(request_of(args))
    if text is not None:
        sys.stdout.write(text)
        return 0
    print(f"hazard-dsl: wrote {args.output}", file=sys.stderr)
    return 0
