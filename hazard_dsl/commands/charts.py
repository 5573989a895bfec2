"""The file of a chart (analyse, compare and simulate --plot), checked before the work it shows."""

from __future__ import annotations

from .errors import CommandError


def check_chart_file(path: str | None, force: bool = False, rulesets=()) -> None:
    """A chart's file checked before any work: its type (PNG, SVG), matplotlib there to draw
    it, and a new file (`force`: or one to write over), never a rule file of `rulesets` (each
    one read, the files it extends, the built-ins: commands.outputs)."""
    if path is None:
        return
    from ..render.plot import PlotError, check_target
    from .outputs import check_new_file
    from .sessions import protected

    try:
        check_target(path)
    except PlotError as exc:
        raise CommandError(str(exc)) from None
    # each variant's files once (compare names the built-ins in every variant's list)
    rule_files = list(dict.fromkeys(name for ruleset in rulesets for name in protected(ruleset)))
    check_new_file(path, force, rule_files, "plot", "chart")
