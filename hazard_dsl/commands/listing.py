"""`list`: the built-in rulesets."""

from __future__ import annotations


def builtin_rulesets() -> list[dict]:
    """Each built-in ruleset: its name, title and year (None for a file that does not check)
    and its file."""
    from ..diagnostics import RulesetError
    from ..cache import read_ruleset
    from ..parse.files import builtin_dir, builtin_names

    entries = []
    for name in builtin_names():
        path = builtin_dir() / f"{name}.yaml"
        try:
            ruleset = read_ruleset(path)
            entries.append({"name": name, "title": ruleset.name, "year": ruleset.year, "file": str(path)})
        except RulesetError:
            entries.append({"name": name, "title": None, "year": None, "file": str(path)})
    return entries


def list_request(request) -> list[dict]:
    """`builtin_rulesets` for a `ListRequest` (commands.requests), which asks nothing."""
    return builtin_rulesets()
