"""`check`: every problem of each rule file, as data."""

from __future__ import annotations

from pathlib import Path

from ..records import record


@record
class Checked:
    """One file checked: its diagnostics, and how many are errors and how many warnings (notes
    are neither)."""

    name: str
    diagnostics: list
    errors: int
    warnings: int

    @property
    def ok(self) -> bool:
        return not self.errors


def check_files(names):
    """Each file (a path or a built-in ruleset's name) checked, in order, one at a time as it is
    done; a name that is no file is one error."""
    from ..cache import check_file
    from ..diagnostics import ERROR, NOTE, Diagnostic
    from ..parse.files import not_a_file, resolve

    for name in names:
        path = resolve(name)
        if path is None:  # what is there, if anything: a folder, a device, a pipe
            there = not_a_file(Path(name))
            diagnostics = [Diagnostic(f"{name}: {there}, not a rule file" if there else f"{name}: no such file")]
        else:
            diagnostics = check_file(path)
        yield Checked(name, diagnostics, sum(d.severity == ERROR for d in diagnostics),
                      sum(d.severity not in (ERROR, NOTE) for d in diagnostics))


def check_request(request):
    """`check_files` for a `CheckRequest` (commands.requests)."""
    return check_files(list(request.files))
