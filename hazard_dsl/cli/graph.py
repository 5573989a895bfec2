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
    from ..commands.outputs import check_new_file, open_new_file
    from ..commands.sessions import protected
    from ..render.graph import GraphvizMissing

    fmt = output_format(args)
    request = request_of(args, load(args.ruleset))
    # -o names a new file (--force: or one to write over), never a rule file of the game: `graph
    # mine.yaml -o mine.yaml` wrote the drawing over the rules it was drawn from (audit 42)
    rule_files = protected(args.ruleset) if args.output else ()
    check_new_file(args.output, args.force, rule_files, "output", "drawing")
    machine = request_machine(request)
    if fmt == "png" and not args.output and sys.stdout.isatty():
        raise UsageError("a PNG is not for the terminal: give --output FILE.png (or redirect the output)")
    try:
        data = graph_request(request, machine)
    except GraphvizMissing as exc:
        say_error(str(exc))
        return 1
    if args.output:
        with open_new_file(args.output, args.force, rule_files, "output", "drawing") as handle:
            handle.write(data)
        print(f"hazard-dsl: wrote {args.output}", file=sys.stderr)
    elif fmt == "png":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data.decode("utf-8"))
    return 0
