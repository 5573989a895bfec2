"""`hazard-dsl check FILE…`: every problem of each rule file, as `file:line:col: …`, a table or JSON."""

from __future__ import annotations

import sys

from ..commands.check import check_request
from ..render.diagnostics import print_diagnostics
from .output import output_format
from .requests import check_request as request_of


def command(args) -> int:
    fmt = output_format(args)
    results = []
    for checked in check_request(request_of(args)):
        results.append(checked)
        if fmt == "text":
            _say(checked, args.quiet)
    if fmt == "json":
        import json  # imported only for --json

        print(json.dumps([{"file": c.name, "ok": c.ok, "errors": c.errors, "warnings": c.warnings,
                           "diagnostics": [diagnostic_json(d) for d in c.diagnostics]} for c in results], indent=2))
    elif fmt != "text":
        from ..render.tables import Table, render

        t = Table("Problems found", ["file", "line", "column", "severity", "message"])
        for c in results:
            for d in c.diagnostics:
                p = d.position
                t.add(p.file if p else c.name, p.line if p else "", p.column if p else "", d.severity,
                      d.message + (f" (hint: {d.hint})" if d.hint else ""))
            if not c.diagnostics:
                t.add(c.name, "", "", "ok", "no problems")
        print(render([t], fmt), end="")
    return 0 if all(c.ok for c in results) else 1


def _say(checked, quiet: bool) -> None:
    """One file's problems as `file:line:col: …`, and its count of errors and warnings."""
    print_diagnostics(checked.diagnostics)
    errors, warnings = checked.errors, checked.warnings
    if errors:
        print(f"{checked.name}: {_plural(errors, 'error')}" + (f", {_plural(warnings, 'warning')}" if warnings else ""),
              file=sys.stderr)
    elif not quiet:
        print(f"{checked.name}: ok" + (f" ({_plural(warnings, 'warning')})" if warnings else ""))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def diagnostic_json(d) -> dict:
    """One diagnostic; `code` its kind (docs/diagnostics.md), `suggestion` its repair as data:
    the text to put from line:column up to end_line:end_column (from 1), or null; `subject` the
    name a repair needs (a label to declare, a phase to complete), or null."""
    p, fix = d.position, d.suggestion
    return {"file": p.file if p else None, "line": p.line if p else None, "column": p.column if p else None,
            "severity": d.severity, "message": d.message, "hint": d.hint, "code": d.code,
            "suggestion": None if fix is None else {"text": fix.text, "line": fix.start.line,
                                                    "column": fix.start.column, "end_line": fix.end.line,
                                                    "end_column": fix.end.column},
            "subject": d.subject}
