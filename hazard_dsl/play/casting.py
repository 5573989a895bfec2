"""A throw that stands, from casts of the dice.

Where the rules say dice may land off (`cocked:`), one throw of the game can take several casts:
every die cast, some (or all) off, the dice off recast alone (the others keeping their faces)
or all taken up again, a die recast alone landing off again… The compiled machine says where each of these leads
(`Machine.recast`); this follows it, asking the dice for each cast and `choose` for each recast
a player picks, until a throw stands. Every front end — `run`, the table, `play`, `replay` —
throws through here, so they all follow the same compiled recast and log the same events.

The events are plain dicts, ready for JSON:

* ``{"cast": "both", "dice": [4, None]}`` — every die cast; None: that die landed off;
* ``{"recast": "off", "die": 2, "shown": 4, "chooser": "caster"}`` — what is thrown again: the
  off die alone (`off`) or `both` (every die); `die` the die off where it is one, `shown` the
  total the others show; where more than one die is off or kept, `kept` too, every die's face
  (None off): ``{"recast": "off", "die": None, "shown": 4, "kept": [None, 4, None], …}``; the
  chooser is None where the rules leave no choice;
* ``{"cast": "die", "die": 2, "face": 5}`` — one die recast alone (face None: off again);
* ``{"cast": "dice", "thrown": [2, 3], "dice": [4, 6, None]}`` — dice recast together (die
  numbers), with every die's face after it (None: off again).

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
    """What a throw needs next from outside the rules: dice (`throw`: every die where they never
    land off; `cast`: every die where they may; `cast_die`: die `die` recast alone; `cast_dice`:
    the dice `dice` recast together) or a pick among the alternatives of a recast choice `node`
    (`choose`). Sent back into `casting`: the faces (one per die cast, or one face for a die
    alone; None for a die off) or the index of the alternative."""

    what: str
    die: int | None = None
    node: object = None
    dice: tuple = ()  # `cast_dice`: the dice recast together (die numbers), where more than one


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
    if need.what == "cast_dice":
        return dice.cast_dice(need.dice, chance)
    scripted = dice.recast(need.node) if hasattr(dice, "recast") else None
    return choose(need.node) if scripted is None else scripted


def casting(machine, state):
    """Yields each cast and recast as it happens, and returns the throw that stands at throw
    state `state`. What it needs from outside — the faces of each cast, a player's pick at a
    recast choice — it yields as a `Need` and is sent back (`throw_at` and `meet` answer from
    dice; the table asks the people): a pick is asked after the events before it have been
    yielded, so a log can script it. Any number of dice: the dice that land fair keep their
    faces, and the machine says where each way of landing off leads (`Machine.recast`)."""
    recast = machine.recast
    if recast is None:
        return (yield Need("throw"))
    # imported here, not above: the CLI imports this module for its error at start-up
    from ..compile.machine import CHOICE
    from ..compile.recasts import faces_of, way_numbers

    count, sides = machine.dice.count, machine.dice.sides
    numbers = way_numbers(count, sides)
    landed = recast.landed[state.index]
    here = state.index
    for _ in range(MAX_CASTS):
        if here == state.index:
            faces = tuple((yield Need("cast")))
            yield {"cast": "both", "dice": list(faces)}
        else:
            node = machine.node(here)
            if node.kind == CHOICE:
                value, step = node.alternatives[(yield Need("choose", node=node))]
                yield _recast(value, node, node.chooser)
                here = step.target
                continue
            if len(node.dice) == 1:  # one die recast alone: its face, or None off again
                face = yield Need("cast_die", die=node.die, node=node)  # the node: where the game stands now
                yield {"cast": "die", "die": node.die, "face": face}
                thrown = (face,)
            else:
                thrown = tuple((yield Need("cast_dice", node=node, dice=node.dice)))
                yield {"cast": "dice", "thrown": list(node.dice),
                       "dice": list(faces_of(count, node.dice, _kept(node), thrown))}
            faces = faces_of(count, node.dice, _kept(node), thrown)
        if None not in faces:
            return faces
        off = tuple(d for d, f in enumerate(faces, 1) if f is None)
        kept = tuple(f for f in faces if f is not None)
        target = landed[numbers[off, kept]]
        if len(off) == count:  # every die off: all thrown again, no choice
            yield {"recast": "both", "die": None, "shown": None, "chooser": None}
        elif target == state.index:
            yield _recast("both", _Way(off, faces), None)
        elif machine.node(target).kind != CHOICE and target != here:
            yield _recast("off", _Way(off, faces), None)
        here = target
    raise CastingError(f"the dice landed off {MAX_CASTS:,} times in a row for one throw")


@record(frozen=True)
class _Way:
    """Dice off (`dice`) and every die's face (`faces`, None for a die off), as a recast event
    reads them."""

    dice: tuple
    faces: tuple


def _kept(node) -> tuple:
    """The faces a recast state keeps, in die order (its `kept`, less the dice thrown again)."""
    return tuple(f for d, f in enumerate(node.kept, 1) if d not in node.dice)


def _recast(value: str, way, chooser) -> dict:
    """A recast event: what is thrown again (`off`: the dice off alone; `both`: every die), the
    die off where it is one (`die`, else None) and the total the others show (`shown`); where
    these cannot tell it (more than one die kept, or more than one off), every die's face too
    (`kept`, None for a die off)."""
    if isinstance(way, _Way):
        dice, faces = way.dice, way.faces
    else:  # a recast state
        dice, faces = way.dice, tuple(None if d in way.dice else f for d, f in enumerate(way.kept, 1))
    shown = sum(f for f in faces if f is not None)
    event = {"recast": value, "die": dice[0] if len(dice) == 1 else None, "shown": shown, "chooser": chooser}
    if len(faces) - len(dice) > 1 or len(dice) > 1:
        event["kept"] = list(faces)
    return event
