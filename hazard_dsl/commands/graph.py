"""`graph`: the compiled machine drawn (render.graph) as DOT, Mermaid, SVG, PNG or JSON."""

from __future__ import annotations

from .errors import CommandError, SettingError
from .loading import load


def _known_bets(ruleset, bets) -> None:
    for bet in bets:
        if bet not in ruleset.bets:
            from ..diagnostics import did_you_mean

            raise SettingError("bet", f"{bet}: {ruleset.name} has no bet {bet!r}{did_you_mean(bet, ruleset.bets)}"
                               + (f" (bets: {', '.join(ruleset.bets)})" if ruleset.bets else " (it declares no bets)"))


def request_machine(request):
    """The machine a `GraphRequest` (commands.requests) draws: its ruleset with the options'
    values and the bets to draw beside the game; a bet the ruleset does not have is refused
    with "did you mean"."""
    from .loading import machine_for

    ruleset = load(request.ruleset, request.text)
    _known_bets(ruleset, request.bets)
    return machine_for(ruleset, request.options, list(request.bets))


def graph_request(request, machine=None) -> bytes:
    """The drawing a `GraphRequest` asks for, as bytes (see `graph`); `machine`: its
    `request_machine`, where the caller has it already."""
    machine = request_machine(request) if machine is None else machine
    return graph(machine, request.format, request.unfold, list(request.phases), list(request.bets))


def graph(machine, fmt: str = "dot", unfold: bool = False, phases=(), bets=()) -> bytes:
    """The drawing of `machine` in `fmt`, as bytes. `render.graph.GraphvizMissing` (svg and png
    need Graphviz's dot) is left to the caller; any other reason it cannot be drawn is a
    CommandError."""
    from ..render.graph import GraphError, GraphvizMissing, draw

    try:
        return draw(machine, fmt, unfold, phases, bets)
    except GraphvizMissing:
        raise
    except GraphError as exc:
        raise CommandError(str(exc)) from None
