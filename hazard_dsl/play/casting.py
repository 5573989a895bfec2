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

A tape (dice "x-4 off 5") may script a recast choice with the word `off` or `both` after
the cast that left a die off; otherwise the player (or the policy) picks.
"""

from __future__ import annotations

from ..errors import ArgumentError
from ..records import record

MAX_CASTS = 10_000  # casts for one throw: dice that land off this often are no dice (a tape's loop)


class CastingError(ValueError):
    """The dice (a tape, a log) cannot make a throw here: the message says why."""


class TapeError(ArgumentError, CastingError):
    """A tape of throws given (the `dice` argument: `Arg('dice')`) that cannot make the cast the
    rules want here: a CastingError that names its argument."""


@record(frozen=True)
class Need:
    """What a throw needs next from outside the rules: dice (`throw`: both dice where they never
    land off; `cast`: both where they may; `cast_die`: die `die` recast alone) or a pick among
    the alternatives of a recast choice `node` (`choose`). Sent back into `casting`: the faces
    (a pair, or one face; None for a die off) or the index of the alternative."""

    what: str
    die: int | None = None
    node: object = None


def throw_at(machine, state, dice, choose) -> tuple[tuple[int, int], tuple]:
    """The throw that stands at throw state `state`, and the casts and recasts on the way:
    `casting` with its needs met by `dice` and `choose` (a tape may script a recast itself)."""
    events: list = []
    casts = casting(machine, state)
    answer = None
    while True:
        try:
            item = casts.send(answer)
        except StopIteration as done:
            return done.value, tuple(events)
        answer = None
        if isinstance(item, Need):
            answer = meet(item, dice, choose, machine)
        else:
            events.append(item)


def meet(need: Need, dice, choose, machine):
    """A need met from `dice` (a throw, a cast of both, a die alone) or `choose` (a recast's
    pick, unless the dice — a tape's `off` / `both` — script it)."""
    if need.what == "throw":
        return dice.throw()
    chance = machine.recast.chance
    if need.what == "cast":
        return dice.cast(chance)
    if need.what == "cast_die":
        return dice.cast_die(need.die, chance)
    scripted = dice.recast(need.node) if hasattr(dice, "recast") else None
    return choose(need.node) if scripted is None else scripted


def casting(machine, state):
    """Yields each cast and recast as it happens, and returns the throw that stands at throw
    state `state`. What it needs from outside — the faces of each cast, a player's pick at a
    recast choice — it yields as a `Need` and is sent back (`throw_at` and `meet` answer from
    dice; the table asks the people): a pick is asked after the events before it have been
    yielded, so a log can script it."""
    recast = machine.recast
    if recast is None:
        return (yield Need("throw"))
    # imported here, not above: the CLI imports this module for its error at start-up
    from ..compile.machine import CHOICE, Recast

    landed = recast.landed[state.index]
    here = state.index
    for _ in range(MAX_CASTS):
        if here == state.index:
            d1, d2 = yield Need("cast")
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
            value, step = node.alternatives[(yield Need("choose", node=node))]
            yield {"recast": value, "die": node.die, "shown": node.shown, "chooser": node.chooser}
            here = step.target
            continue
        face = yield Need("cast_die", die=node.die, node=node)  # the node: where the game stands now
        yield {"cast": "die", "die": node.die, "face": face}
        if face is not None:
            return (face, node.shown) if node.die == 1 else (node.shown, face)
        here = node.off
    raise CastingError(f"the dice landed off {MAX_CASTS:,} times in a row for one throw")
