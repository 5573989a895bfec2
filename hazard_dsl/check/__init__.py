"""Checking a rule file: shape and expressions (`parse.reader`), names and types
(`check.names`), then the explored game (`check.game`)."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import NOTE, Diagnostic, Position, RulesetError


def check_file(path: str | Path) -> list[Diagnostic]:
    """Every problem of a rule file (errors and warnings), sorted by position. Never raises."""
    from ..parse.cache import kept, read_ruleset
    from .game import check_game

    try:
        ruleset = read_ruleset(path)
    except RulesetError as exc:
        # The game can only be explored once every rule reads: say so, rather than let
        # "2 errors" look like all there is.
        if getattr(exc, "names_checked", False):  # the names and types of every other part were checked
            return exc.diagnostics + [_later("the checks of the game itself (every throw handled, every game able "
                                             "to end, the bets played out)")]
        return exc.diagnostics + [_later("the later checks (names and types, then the game itself: every throw "
                                         "handled, every game able to end, the bets played out)")]
    except RecursionError:
        return [Diagnostic("the file is nested too deeply to check", Position(str(path), 1, 1))]
    try:
        # what the game checks found is kept with the ruleset (parse.cache): a file checked
        # before, unchanged, under the same code, is not explored again
        game = kept(ruleset, "checks", ("check_game",), lambda: check_game(ruleset),
                    lambda found: isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found))
        found = sorted(list(ruleset.warnings) + game, key=Diagnostic.sort_key)
    except RulesetError as exc:
        return exc.diagnostics
    except RecursionError:
        return [Diagnostic("the file is nested too deeply to check", Position(str(path), 1, 1))]
    return found


def _later(what: str) -> Diagnostic:
    return Diagnostic(f"{what} run once these errors are fixed", None, NOTE)
