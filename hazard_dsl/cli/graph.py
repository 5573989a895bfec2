"""`hazard-dsl graph RULESET`: the compiled machine drawn (commands.graph): DOT, Mermaid, SVG,
PNG or JSON, to standard output or a file."""

from __future__ import annotations

import sys

from ..commands.graph import graph_request, request_machine
from ..commands.loading import load
from .output import output_format, say_error
from .parser import UsageError
from .requests import graph_request as request_of


def command(args) -> int:
    from ..render.graph import GraphvizMissing

    fmt = output_format(args)
    request = request_of(args, load(args.ruleset))
    machine = request_machine(request)
    if fmt == "png" and not args.output and sys.stdout.isatty():
        raise UsageError("a PNG is not for the terminal: give --output FILE.png (or redirect the output)")
    try:
        data = graph_request(request, machine)
    except GraphvizMissing as exc:
        say_error(str(exc))
        return 1
    if args.output:
        with open(args.output, "wb") as handle:
            handle.write(data)
        print(f"hazard-dsl: wrote {args.output}", file=sys.stderr)
    elif fmt == "png":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0
