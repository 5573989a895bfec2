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
    if args.output:
        _not_a_rule_file(args.output, args.ruleset)
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


def _not_a_rule_file(path: str, ruleset: str) -> None:
    """Refuse `-o` naming the rule file drawn, a file it extends or a built-in ruleset (the
    files a session log is never written over, commands.sessions.protected): `graph mine.yaml
    -o mine.yaml` wrote the drawing over the rules it was drawn from. Any other file is replaced,
    as `-o` has always done (docs/build.py redraws docs/figures/petty.svg so)."""
    import os

    from ..commands.sessions import protected
    from ..errors import Arg, ArgumentError

    try:
        target = os.stat(path)
    except OSError:
        return  # a new file, or one open() will refuse in its own words
    for name in protected(ruleset):
        try:
            if os.path.samestat(target, os.stat(name)):
                raise ArgumentError(Arg("output", value=path),
                                    "that is a rule file (the one drawn, a file it extends, or a built-in "
                                    "ruleset); a drawing is never written over a rule file: give it a name "
                                    "of its own")
        except OSError:
            continue
