"""The commands a code lens offers (`language.figures`), run for an editor (a front end: it calls the
notebook API, which the language service, engine-side, may not) on the document as it
is held: `hazard-dsl.analyse` gives `hazard-dsl analyse`'s text and JSON, `hazard-dsl.draw` a
phase's or a bet's drawing (Mermaid, and DOT for Graphviz), `hazard-dsl.play` the command line
that plays the file at a terminal (play is a conversation with a person, not an answer).

Arguments are [uri] for analyse and play, [uri, "phase" or "bet", name] for draw. A command on a
document with errors, or one not open, is refused with `CommandRefused`, saying why.
"""

from __future__ import annotations

from ..language.figures import ANALYSE, DRAW, PLAY


class CommandRefused(ValueError):
    """A command that cannot be run: the message says why."""


def run_command(service, command: str, arguments: list, is_open=lambda uri: True) -> dict:
    if command not in (ANALYSE, DRAW, PLAY):
        raise CommandRefused(f"no command {command!r}: the commands are {ANALYSE}, {DRAW} and {PLAY}")
    if not arguments or not isinstance(arguments[0], str) or not is_open(arguments[0]):
        raise CommandRefused(f"{command} takes the URI of an open rule file first")
    uri = arguments[0]
    if command == PLAY:
        from ..language.service import path_of

        path = path_of(uri)
        if path is None:
            raise CommandRefused("a text that is not saved in a file is played in the workbench (hazard-dsl serve)")
        return {"command": ["hazard-dsl", "play", str(path)],
                "text": f"hazard-dsl play {path}   (run it in a terminal; save the file first)"}
    variant = _variant(service, uri)
    if command == ANALYSE:
        analysis = variant.analyse()
        return {"text": str(analysis), "json": analysis.to_json()}
    kind = arguments[1] if len(arguments) > 1 else None
    name = arguments[2] if len(arguments) > 2 else None
    if kind not in (None, "phase", "bet") or (kind is not None and not isinstance(name, str)):
        raise CommandRefused(f"{DRAW} takes [uri], [uri, 'phase', NAME] or [uri, 'bet', NAME]")
    try:
        phases = [name] if kind == "phase" else []
        bets = [name] if kind == "bet" else []
        return {"mermaid": variant.graph("mermaid", phases=phases, bets=bets),
                "dot": variant.graph("dot", phases=phases, bets=bets)}
    except ValueError as exc:
        raise CommandRefused(str(exc)) from None


def _variant(service, uri: str):
    from ..api import Variant
    from ..diagnostics import ERROR

    doc = service._doc(uri)
    ruleset = doc.checked[0]
    if ruleset is None or any(p.severity == ERROR for p in service.diagnostics(uri)):
        raise CommandRefused("the file has errors: its figures are worked out once it checks clean")
    return Variant(ruleset, {})
