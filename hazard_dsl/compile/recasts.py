"""Dice that land off, for any number of dice: the ways of landing off, and one cast's chances.

Each die of a cast lands off with the `cocked:` chance c, on its own; the dice that land fair
keep their faces, and the rules say what is thrown again: the dice off alone, or every die. A
*way* of landing off is the dice off (die numbers, in order) and the faces the others show, in
die order. `ways` numbers them as `Recast.landed` holds them: every die off first, then by how
many dice are off (most first), which dice (in order), and the faces kept (the first kept die's
face changing slowest). Two dice: [0] both off, [f] the first off with the second showing f,
[6 + f] the second off with the first showing f.

A cast, from a throw state (every die) or from a recast state (the dice thrown again), either
stands — every die thrown lands fair, and the faces kept with them make a throw of the game —
or leaves some of its dice off: then the game goes where `Recast.landed` sends that way of the
parent throw state, with the faces that landed fair now kept too. So dice thrown again never
lose a face they landed with, and every way leads to a way with as many dice kept or more, or
back to the throw state (every die taken up again). `standing` follows that order to the
throws that stand, in closed form, for any number of dice.

Where no rule tells the dice apart, the solver works on classes of ways instead
(`solve.recast_classes`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product
from math import prod

ONE, ZERO = Fraction(1), Fraction(0)


@lru_cache(maxsize=16)
def ways(count: int, sides: int) -> tuple:
    """Every way of landing off: (the dice off, the faces the others show), in `landed` order."""
    out = []
    for n_off in range(count, 0, -1):
        for off in combinations(range(1, count + 1), n_off):
            out.extend((off, kept) for kept in product(range(1, sides + 1), repeat=count - n_off))
    return tuple(out)


@lru_cache(maxsize=16)
def way_numbers(count: int, sides: int) -> dict:
    """(dice off, faces kept) -> its place in `ways`."""
    return {way: n for n, way in enumerate(ways(count, sides))}


def steps_per_throw_state(count: int, sides: int) -> int:
    """The steps the recast states of one throw state can hold: for each way with some die kept,
    a step for each face the dice off can show (Σ over k dice off of C(n, k)·s^(n−k)·s^k)."""
    return (2 ** count - 2) * sides ** count


def faces_of(count: int, off: tuple, kept: tuple, thrown: tuple) -> tuple:
    """The faces of every die, die 1 first: `thrown` for the dice `off`, `kept` for the others.
    (The dice off in order, as `ways` makes them: each face goes in at its die's place, the
    dice before it placed already; the compiler asks this for every throw of every way.)"""
    every = list(kept)
    for d, f in zip(off, thrown):
        every.insert(d - 1, f)
    return tuple(every)


def _kept_faces(count: int, off: tuple, faces: tuple) -> tuple:
    """The faces of the dice not in `off`, in die order (faces: every die, 0 for a die off)."""
    return tuple(faces[d - 1] for d in range(1, count + 1) if d not in off)


def cast(machine, number: int, stands: bool = True) -> tuple[dict | None, dict]:
    """One cast from throw state `number` (every die) or recast die state `number` (the dice it
    throws again): the chance of each throw that stands (outcome index -> chance; None without
    `stands`: from a throw state they are the dice's own chances times (1 − c)^n) and of each
    state the dice that land off lead to (state number -> chance). Together they add up to 1."""
    recast, dice = machine.recast, machine.dice
    node = machine.node(number)
    if number < len(machine.states):  # a throw state: every die cast
        parent, thrown, kept, outcomes = number, tuple(range(1, dice.count + 1)), (), None
    else:
        parent, thrown, outcomes = node.parent, node.dice, node.outcomes
        kept = _kept_faces(dice.count, thrown, node.kept)
    thrown_fair, off = _cast_chances(dice, recast.chance, thrown, kept)
    landed = recast.landed[parent]
    moves: dict = {}
    for way, p in off:
        target = landed[way]
        moves[target] = moves.get(target, ZERO) + p
    if not stands:
        return None, moves
    if outcomes is None:
        return dict(thrown_fair), moves
    return {outcomes[k]: p for k, p in thrown_fair}, moves


@lru_cache(maxsize=4096)
def _cast_chances(dice, c, thrown: tuple, kept: tuple) -> tuple[tuple, tuple]:
    """What a cast of the dice `thrown` does with the others showing `kept`, whatever the state:
    ((the throw's place — an outcome index for every die thrown, else its place among the
    throws of the dice thrown —, chance), …) for the throws that stand, and ((way, chance), …)
    for each way some land off. Made once for each shape of cast: every state shares it."""
    count, sides = dice.count, dice.sides
    chances = [dice.faces(d) for d in range(1, count + 1)]
    numbers = way_numbers(count, sides)
    fair = (ONE - c) ** len(thrown)
    stands = []
    for k, faces in enumerate(product(range(1, sides + 1), repeat=len(thrown))):
        p = fair * prod(chances[d - 1][f - 1] for d, f in zip(thrown, faces))
        if p:
            stands.append((k, p))
    off = []
    before = faces_of(count, thrown, kept, (0,) * len(thrown))  # the kept faces, 0 where thrown
    for n_off in range(len(thrown), 0, -1):
        for dice_off in combinations(thrown, n_off):
            landed_fair = tuple(d for d in thrown if d not in dice_off)
            weight = c ** n_off * (ONE - c) ** len(landed_fair)
            for faces in product(range(1, sides + 1), repeat=len(landed_fair)):
                p = weight * prod(chances[d - 1][f - 1] for d, f in zip(landed_fair, faces))
                if p:
                    now = dict(zip(landed_fair, faces))
                    every = tuple(now.get(d, f) for d, f in enumerate(before, 1))
                    off.append((numbers[dice_off, _kept_faces(count, dice_off, every)], p))
    return tuple(stands), tuple(off)


def landing(machine, number: int) -> tuple:
    """Where the dice of recast die state `number` go once they all land fair: ((outcome index,
    chance), …), the chances adding up to 1 (its cast's throws that stand over (1 − c)^n). Made
    once for each shape of cast (`_landing_fair`), then read with the state's own outcomes."""
    node = machine.node(number)
    kept = _kept_faces(machine.dice.count, node.dice, node.kept)
    outcomes = node.outcomes
    return tuple((outcomes[k], p) for k, p in _landing_fair(machine.dice, machine.recast.chance, node.dice, kept))


@lru_cache(maxsize=4096)
def _landing_fair(dice, c, thrown: tuple, kept: tuple) -> tuple:
    stands, _ = _cast_chances(dice, c, thrown, kept)
    fair = (ONE - c) ** len(thrown)
    return tuple((k, p / fair) for k, p in stands)


def standing(machine, number: int, alone) -> tuple[dict, Fraction]:
    """The throws that stand at throw state `number` (outcome index -> chance, adding up to 1)
    and the casts per throw that stands, with the recast choices made as `alone(choice state)`
    says: the chance the dice off are thrown alone there (the rest: every die taken up again).

    Each way leads to a way with more dice kept, to itself (every die thrown again off again)
    or back to the throw state, so the ways are solved one by one: a die state reached with
    chance 1 is left for good with 1 − q (q: every die it throws off again), and a choice that
    throws the dice alone with chance a is visited 1 / (1 − a·q) times. What comes back to the
    throw state starts the throw over: dividing by what does not gives the throws that stand.
    (Where no rule tells the dice apart, the solver runs the same recursion over classes of
    ways instead: `solve.recast_classes.standing_alike`.)"""
    solved: dict = {}  # target -> (stands, back to the throw state, casts): once reached

    def reach(target: int):
        found = solved.get(target)
        if found is not None:
            return found
        if target == number:
            return {}, ONE, ZERO
        node = machine.node(target)
        if node.kind == "die":
            thrown, share, loop = node, ONE, node.index
        else:
            share = alone(target)
            thrown = next(machine.node(step.target) for value, step in node.alternatives
                          if step.target != number)
            loop = target
        stands, moves = cast(machine, thrown.index)
        again = moves.pop(loop, ZERO)
        total, back, casts = dict(stands), ZERO, ONE
        for t, p in moves.items():
            s2, b2, c2 = reach(t)
            for o, q in s2.items():
                total[o] = total.get(o, ZERO) + p * q
            back += p * b2
            casts += p * c2
        scale = share / (ONE - share * again)
        found = ({o: q * scale for o, q in total.items()}, back * scale + (ONE - share) / (ONE - share * again),
                 casts * scale)
        solved[target] = found
        return found

    stands, moves = cast(machine, number)
    total, back, casts = dict(stands), moves.pop(number, ZERO), ONE
    for t, p in moves.items():
        s2, b2, c2 = reach(t)
        for o, q in s2.items():
            total[o] = total.get(o, ZERO) + p * q
        back += p * b2
        casts += p * c2
    return {o: q / (ONE - back) for o, q in total.items()}, casts / (ONE - back)


def reached(machine, number: int) -> list:
    """The states one cast from throw state or recast die state `number` can lead to, in the
    order of `cast` (the throws that stand first, then the ways of landing off), without their
    chances: what a solver's graph of the states needs."""
    recast, dice = machine.recast, machine.dice
    node = machine.node(number)
    if number < len(machine.states):
        parent, thrown, kept, outcomes = number, tuple(range(1, dice.count + 1)), (), range(len(dice.outcomes))
    else:
        parent, thrown, outcomes = node.parent, node.dice, node.outcomes
        kept = _kept_faces(dice.count, thrown, node.kept)
    stands, off = _cast_places(dice.count, dice.sides, dice.loaded, thrown, kept)
    steps, landed = machine.states[parent].steps, recast.landed[parent]
    return list(dict.fromkeys([*(steps[outcomes[k]].target for k in stands), *(landed[w] for w in off)]))


@lru_cache(maxsize=16384)
def _cast_places(count: int, sides: int, loaded: tuple, thrown: tuple, kept: tuple) -> tuple[tuple, tuple]:
    """The places of `_cast_chances` without their chances, in its order: what `reached` needs,
    without a product of fractions for each (keyed by the dice's faces, not their weights;
    kept for every state of a machine: each solver of an analysis asks again). A way's number
    is worked out, not looked up: its first place (`way_numbers`) and the kept faces' place in
    their product, the first kept die's face changing slowest."""
    chances = [loaded[d - 1] if d <= len(loaded) and loaded[d - 1] is not None else None
               for d in range(1, count + 1)]
    shows = [tuple(f for f in range(1, sides + 1) if die is None or die[f - 1]) for die in chances]
    numbers = way_numbers(count, sides)
    stands = tuple(k for k, faces in enumerate(product(range(1, sides + 1), repeat=len(thrown)))
                   if all(f in shows[d - 1] for d, f in zip(thrown, faces)))
    faces_before = dict(zip((d for d in range(1, count + 1) if d not in thrown), kept))
    off = []
    for n_off in range(len(thrown), 0, -1):
        for dice_off in combinations(thrown, n_off):
            others = [d for d in range(1, count + 1) if d not in dice_off]
            first = numbers[dice_off, (1,) * len(others)]
            base, steps = first, []
            for place, d in enumerate(others):
                weight = sides ** (len(others) - 1 - place)
                if d in faces_before:
                    base += (faces_before[d] - 1) * weight
                else:
                    steps.append(tuple((f - 1) * weight for f in shows[d - 1]))
            off.extend(base + sum(each) for each in product(*steps))
    return stands, tuple(off)

