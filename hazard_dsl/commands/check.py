"""`check`: every problem of each rule file, as data."""

from __future__ import annotations

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
    from ..parse.files import resolve

    for name in names:
        path = resolve(name)
        diagnostics = check_file(path) if path is not None else [Diagnostic(f"{name}: no such file")]
        yield Checked(name, diagnostics, sum(d.severity == ERROR for d in diagnostics),
                      sum(d.severity not in (ERROR, NOTE) for d in diagnostics))


def check_request(request):
    """`check_files` for a `CheckRequest` (commands.requests)."""
    return check_files(list(request.files))
