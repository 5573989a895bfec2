"""The file of a chart (analyse, compare and simulate --plot), checked before the work it shows."""

from __future__ import annotations

from .errors import CommandError


def check_chart_file(path: str | None) -> None:
    """A chart's file checked before any work: its type (PNG, SVG), and matplotlib there to
    draw it."""
    if path is None:
        return
    from ..render.plot import PlotError, check_target

    try:
        check_target(path)
    except PlotError as exc:
        raise CommandError(str(exc)) from None
