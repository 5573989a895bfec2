"""A throw that stands, from casts of the dice.

Where the rules say dice may land off (`cocked:`), one throw of the game can take several casts:
both dice cast, one (or both) off, the off die recast alone or both taken up again, a die recast
alone landing off again… The compiled machine says where each of these leads
(`Machine.recast`); this follows it, asking the dice for each cast and `choose` for each recast
a player picks, until a throw stands. Every front end — `run`, the table, `play`, `replay` —
throws through here, so they all follow the same compiled recast and log the same events.

The events are plain dicts, ready for JSON:

* ``{"cast": "both", "dice": [4, None]}`` — both dice cast; None: that die landed off;
* ``{"recast": "off", "die": 2, "shown": 4, "chooser": "caster"}`` — what is thrown again: the
  off die alone (`off`) or `both`; the chooser is None where the rules leave no choice;
* ``{"cast": "die", "die": 2, "face": 5}`` — one die recast alone (face None: off again).

A tape (`--dice "x-4 off 5"`) may script a recast choice with the word `off` or `both` after
the cast that left a die off; otherwise the player (or the policy) picks.
"""

from __future__ import annotations

MAX_CASTS = 10_000  # casts for one throw: dice that land off this often are no dice (a tape's loop)


class CastingError(ValueError):
    """The dice (a tape, a log) cannot make a throw here: the message says why."""


def throw_at(machine, state, dice, choose) -> tuple[tuple[int, int], tuple]:
    """The throw that stands at throw state `state`, and the casts and recasts on the way."""
    events: list = []
    casts = casting(machine, state, dice, choose)
    while True:
        try:
            events.append(next(casts))
        except StopIteration as done:
            return done.value, tuple(events)


def casting(machine, state, dice, choose):
    """Yields each cast and recast as it happens, and returns the throw that stands at throw
    state `state`. `dice` throws (`throw()`), casts dice that may land off (`cast(chance)`) and
    recasts one die (`cast_die(die, chance)`); `choose(node)` picks an alternative of a recast
    choice — after the events before it have been yielded, so a log can script it."""
    recast = machine.recast
    if recast is None:
        return dice.throw()
    # imported here, not above: the CLI imports this module for its error at start-up
    from ..compile.machine import CHOICE, Recast

    chance = recast.chance
    landed = recast.landed[state.index]
    here = state.index
    for _ in range(MAX_CASTS):
        if here == state.index:
            d1, d2 = dice.cast(chance)
            yield {"cast": "both", "dice": [d1, d2]}
            if d1 is not None and d2 is not None:
                return d1, d2
            if d1 is None and d2 is None:
                yield {"recast": "both", "die": None, "shown": None, "chooser": None}
                continue
            off, shown = (1, d2) if d1 is None else (2, d1)
            here = landed[Recast.way(off, shown)]
            if here == state.index:
                yield {"recast": "both", "die": off, "shown": shown, "chooser": None}
            elif machine.node(here).kind != CHOICE:
                yield {"recast": "off", "die": off, "shown": shown, "chooser": None}
            continue
        node = machine.node(here)
        if node.kind == CHOICE:
            scripted = dice.recast(node) if hasattr(dice, "recast") else None  # a tape's `off` / `both`
            value, step = node.alternatives[choose(node) if scripted is None else scripted]
            yield {"recast": value, "die": node.die, "shown": node.shown, "chooser": node.chooser}
            here = step.target
            continue
        face = dice.cast_die(node.die, chance)
        yield {"cast": "die", "die": node.die, "face": face}
        if face is not None:
            return (face, node.shown) if node.die == 1 else (node.shown, face)
        here = node.off
    raise CastingError(f"the dice landed off {MAX_CASTS:,} times in a row for one throw")
