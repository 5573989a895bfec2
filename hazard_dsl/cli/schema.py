"""`hazard-dsl schema`: the JSON Schema of rule files (commands.schema), to standard output or to a
new file."""

from __future__ import annotations

import sys

from ..commands.schema import schema_text, write_schema
from .parser import UsageError


def command(args) -> int:
    # JSON is the only format; --format json and --json are taken so that scripts may say so
    if args.output is None:
        if args.force:
            raise UsageError("--force lets --output write over an existing file; give --output FILE too")
        sys.stdout.write(schema_text())
        return 0
    write_schema(args.output, args.force)
    print(f"hazard-dsl: wrote {args.output}", file=sys.stderr)
    return 0
