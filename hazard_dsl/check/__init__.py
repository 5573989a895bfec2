"""Checking a rule file: shape and expressions (`parse.reader`), names and types
(`check.names`) — the two read together by `check.reading.read_ruleset` — then the explored
game (`check.game`).

`check_ruleset` is the one place these run in order: `hazard-dsl check` (`check_file`) reports
what it finds, and the Python API's `load` and `load_text` raise it (`RulesetError`) when any
of it is an error, so that a file `check` rejects is never loaded, analysed or played.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import NOTE, Diagnostic, Position, RulesetError


class _Plain:
    """Reading a rule file and checking its game with no cache: the check layer's own way. The
    cache, a layer above, hands `check_ruleset` its own (`hazard_dsl.cache.check_ruleset`), so
    that a file checked before, unchanged, is not read or explored again."""

    @staticmethod
    def read_ruleset(path, text=None):
        from .reading import read_ruleset

        return read_ruleset(Path(path), text=text)

    @staticmethod
    def read_text(text, name):
        from .reading import read_ruleset

        return read_ruleset(Path(name), [], text=text, named=name)

    @staticmethod
    def kept(ruleset, kind, what, build, expect):
        return build()


def check_file(path: str | Path, reading=_Plain) -> list[Diagnostic]:
    """Every problem of a rule file (errors and warnings), sorted by position. Never raises."""
    return check_ruleset(path, reading=reading)[1]


def check_ruleset(path: str | Path | None = None, text: str | None = None,
                  name: str | None = None, reading=_Plain) -> tuple:
    """(the Ruleset, or None when it does not read; every problem, errors and warnings, sorted
    by position) of a rule file — or, with `text` and `name`, of a rule file held in a string
    (`hazard_dsl.cache.read_text`); with `text` and `path`, of the file at `path` as an editor holds
    it, not yet saved (its `extends:` resolved beside it). Never raises: a ruleset that reads may
    still have errors here, found when its game is explored (a game unable to end, a throw no
    rule handles). `reading`: how the file is read and what its game checks found is kept
    (`read_ruleset`, `read_text`, `kept`), the cache's when `hazard_dsl.cache` calls this."""
    def place(found: list) -> list:
        return _placed(path, text, name, found)

    ruleset, found = _checked(path, text, name, place, reading)
    return ruleset, place(found)


def _placed(path, text, name, found: list) -> list:
    """Each problem in the file the author can change (`check.placed`)."""
    from ..parse.files import display

    if not any(d.position is not None for d in found):
        return found
    own = name if text is not None and name is not None else display(Path(path))
    if all(d.position is None or d.position.file == own for d in found):
        return found
    from .placed import placed_in

    try:
        return sorted(placed_in(own, found, text), key=lambda d: (d.position is None and d.severity == NOTE,
                                                                   d.sort_key()))
    except (RecursionError, ValueError):
        return found


def _checked(path, text, name, place, reading) -> tuple:
    kept, read_ruleset, read_text = reading.kept, reading.read_ruleset, reading.read_text
    in_string = text is not None and name is not None
    where = name if in_string else str(path)
    try:
        ruleset = read_text(text, name) if in_string else read_ruleset(path, text)
    except RulesetError as exc:
        return None, _held_back(exc, place)
    except RecursionError:
        return None, [Diagnostic("the file is nested too deeply to check", Position(where, 1, 1))]
    try:
        # what the game checks found is kept with the ruleset (by hazard_dsl.cache's reading): a
        # file checked before, unchanged, under the same code, is not explored again
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


_GAME = ("the game itself (every throw handled, every game able to end, rules that can never fire, "
         "the bets played out)")


def _held_back(exc: RulesetError, place=list) -> list[Diagnostic]:
    """The errors of a file that does not read, and what was held back for them: only what cannot
    be judged, named with the reason. A file whose only errors leave the game as it is (a rule
    after `otherwise`) has its game explored all the same."""
    found = place(list(exc.diagnostics))  # the lines named below are the author's
    game_ruleset = getattr(exc, "game_ruleset", None)
    if game_ruleset is not None:
        try:
            unmend = getattr(exc, "unmend", lambda d: d)  # the game read in a mended layout: the author's places
            return place(sorted(found + [unmend(d) for d in _check_game(game_ruleset)], key=Diagnostic.sort_key))
        except (RulesetError, RecursionError):
            pass  # the game cannot be explored after all: said below
    lines = sorted({d.position.line for d in found if d.is_error and d.position is not None})
    where = f"line{'s' * (len(lines) > 1)} {_lines(lines)}" if lines else "the file"
    partial = getattr(exc, "partial_ruleset", None)
    if partial is not None:
        from .static import static_problems

        try:
            seen = {(d.position, d.message) for d in found}
            unmend = getattr(exc, "unmend", lambda d: d)
            found = place(sorted(found + [s for s in map(unmend, static_problems(partial))
                                          if (s.position, s.message) not in seen], key=Diagnostic.sort_key))
        except (RecursionError, AttributeError, TypeError):
            pass  # a part too odd to judge alone: the game check says it once it runs
    if getattr(exc, "names_checked", False):
        return found + [Diagnostic(f"held back: {_GAME}, which is explored once the errors at {where} are "
                                   f"fixed: the game they leave is not known", None, NOTE)]
    failed = sorted(getattr(exc, "failed_sections", set()) & {"dice", "words", "money", "variables", "options", "labels"})
    if failed:
        sections = " and ".join(f"`{s}:`" for s in failed)
        why = (f"since the rules read {sections}, which {'has' if len(failed) == 1 else 'have'} errors of "
               f"{'its' if len(failed) == 1 else 'their'} own: checked against "
               f"{'it' if len(failed) == 1 else 'them'}, every use would look wrong")
    elif hasattr(exc, "failed_sections"):
        why = f"since no phase reads ({where})"
    else:
        why = f"since the file does not read ({where}): what its lines mean is not known until it does"
    return found + [Diagnostic(f"held back: the names and types of the rules, then {_GAME}, {why}", None, NOTE)]


def _lines(lines: list) -> str:
    shown = [str(n) for n in lines[:8]] + (["…"] if len(lines) > 8 else [])
    return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
