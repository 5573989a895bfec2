"""Checking a rule file: shape and expressions (`parse.reader`), names and types
(`check.names`), then the explored game (`check.game`).

`check_ruleset` is the one place these run in order: `hazard-dsl check` (`check_file`) reports
what it finds, and the Python API's `load` and `load_text` raise it (`RulesetError`) when any
of it is an error, so that a file `check` rejects is never loaded, analysed or played.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import NOTE, Diagnostic, Position, RulesetError


def check_file(path: str | Path) -> list[Diagnostic]:
    """Every problem of a rule file (errors and warnings), sorted by position. Never raises."""
    return check_ruleset(path)[1]


def check_ruleset(path: str | Path | None = None, text: str | None = None,
                  name: str | None = None) -> tuple:
    """(the Ruleset, or None when it does not read; every problem, errors and warnings, sorted
    by position) of a rule file — or, with `text` and `name`, of a rule file held in a string
    (`parse.cache.read_text`); with `text` and `path`, of the file at `path` as an editor holds
    it, not yet saved (its `extends:` resolved beside it). Never raises: a ruleset that reads may
    still have errors here, found when its game is explored (a game unable to end, a throw no
    rule handles)."""
    from ..parse.cache import kept, read_ruleset, read_text

    in_string = text is not None and name is not None
    where = name if in_string else str(path)
    try:
        ruleset = read_text(text, name) if in_string else read_ruleset(path, text)
    except RulesetError as exc:
        # The game can only be explored once every rule reads: say so, rather than let
        # "2 errors" look like all there is.
        if getattr(exc, "names_checked", False):  # the names and types of every other part were checked
            return None, exc.diagnostics + [_later("the checks of the game itself (every throw handled, every game "
                                                   "able to end, the bets played out)")]
        return None, exc.diagnostics + [_later("the later checks (names and types, then the game itself: every "
                                               "throw handled, every game able to end, the bets played out)")]
    except RecursionError:
        return None, [Diagnostic("the file is nested too deeply to check", Position(where, 1, 1))]
    try:
        # what the game checks found is kept with the ruleset (parse.cache): a file checked
        # before, unchanged, under the same code, is not explored again
        game = kept(ruleset, "checks", ("check_game",), lambda: _check_game(ruleset),
                    lambda found: isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found))
        found = sorted(list(ruleset.warnings) + game, key=Diagnostic.sort_key)
    except RulesetError as exc:
        return ruleset, exc.diagnostics
    except RecursionError:
        return ruleset, [Diagnostic("the file is nested too deeply to check", Position(where, 1, 1))]
    return ruleset, found


def _check_game(ruleset) -> list[Diagnostic]:
    from .game import check_game  # (the compiler with it: not imported when the cache has the answer)

    return check_game(ruleset)


def _later(what: str) -> Diagnostic:
    return Diagnostic(f"{what} run once these errors are fixed", None, NOTE)
