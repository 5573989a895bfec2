"""Dice that land off, solved as classes of the faces kept, where no rule tells the dice apart.

A cocked: rule reads how many dice are off and the total the others show, never which dice, so
the ways of landing off (`compile.recasts.ways`) that keep the same faces on other dice lead
alike. Where, besides, every die has the same faces' chances and the throw state's steps lead
where the same faces in any order lead, no rule tells the dice apart: a recast state is worth
what any state keeping the same faces is worth, and stands the same throws up to the order of
the dice. Five six-sided dice have 9,031 ways of landing off and 210 such classes (the faces
kept, sorted); solving the classes (`standing_alike`, `choose_alike`) is what makes five dice
landing off a second's work, not a minute's. Told apart, the ways are solved one by one, and the
solver judges their size before the work (`ungrouped_work`).

The solver's work, so it lives in `solve/` and reads the compiled machine from below.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, factorial, prod

from ..compile.machine import CHOICE, DIE, index_of, maximises
from ..compile.recasts import ways

ONE, ZERO = Fraction(1), Fraction(0)


def alike(machine, number: int, alone) -> dict | None:
    """The classes of throw state `number`'s ways of landing off, where no rule tells its dice
    apart (else None): the faces kept, sorted -> [(kind, the share recast alone, chooser, the
    alternatives), [the way's target, …]], kind "back" (every die taken up again), "die" (the dice
    off recast alone) or "choice" (`alone(choice state)` saying the share; None: the shares
    left out); every way of a class must lead alike, or None."""
    dice = machine.dice
    count, sides = dice.count, dice.sides
    if len({dice.faces(d) for d in range(1, count + 1)}) != 1:
        return None
    steps = machine.states[number].steps
    for k, faces in enumerate(dice.outcomes):
        if steps[k].target != steps[index_of(sorted(faces), sides)].target:
            return None
    classes: dict = {}
    for (off, kept), target in zip(ways(count, sides), machine.recast.landed[number]):
        if target == number:
            what = ("back", ZERO, None, ())
        else:
            node = machine.node(target)
            if node.kind == CHOICE:
                alternatives = tuple(value for value, _ in node.alternatives)
                if sorted(alternatives) != ["both", "off"]:
                    return None
                what = ("choice", ZERO if alone is None else alone(target), node.chooser, alternatives)
            else:
                what = ("die", ONE, None, ())
        found = classes.setdefault(tuple(sorted(kept)), [what, []])
        if found[0] != what:
            return None
        found[1].append(target)
    return classes


def ungrouped_work(machine) -> int:
    """The places of the casts the exact solver weighs one by one, every way of landing off apart:
    for each recast die state of a throw state whose dice are told apart (not `alike`), the
    (sides + 1)^m places of a cast of its m dice (each off, or showing a face). Counted from
    the states alone, before any chance is worked out: what a solver judges its size by. Where
    every way together is small (`_NEVER_TOO_LARGE`), the places of all of them: a bound above."""
    recast = machine.recast
    places = machine.dice.sides + 1
    every = [node for node in recast.nodes if node.kind == DIE]
    total = sum(places ** len(node.dice) for node in every)
    if total <= _NEVER_TOO_LARGE:
        return total  # every way together is small work: at most this, told apart or not
    apart = {s for s in recast.landed if alike(machine, s, None) is None}
    return sum(places ** len(node.dice) for node in every if node.parent in apart)


# Below this many places in all, the ways told apart are never worth counting one by one: a
# first run of a two-dice game with dice landing off skipped `alike` over every throw state
# (a few milliseconds of history_sheet's 0.2 s), whatever the bound the solver judges by.
_NEVER_TOO_LARGE = 20_000


@lru_cache(maxsize=64)
def _landings(chances: tuple, c, m: int) -> tuple:
    """A cast of m dice alike (each face's chance `chances`, each die off with c): ((the faces
    that land fair, sorted, chance), …), every die off again first (no faces), all of them
    adding up to 1."""
    out = []
    for j in range(m + 1):
        weight = comb(m, j) * c ** (m - j) * (ONE - c) ** j
        for faces in combinations_with_replacement(range(1, len(chances) + 1), j):
            orders = factorial(j)
            for f in set(faces):
                orders //= factorial(faces.count(f))
            p = weight * orders * prod(chances[f - 1] for f in faces)
            if p:
                out.append((faces, p))
    return tuple(out)


def _orders(faces: tuple) -> int:
    """The orders of the dice that show these faces."""
    out = factorial(len(faces))
    for f in set(faces):
        out //= factorial(faces.count(f))
    return out


def standing_alike(machine, number: int, classes: dict) -> tuple[dict, Fraction]:
    """`standing` over the classes of `alike`: the same recursion, a class for each state."""
    count, c = machine.dice.count, machine.recast.chance
    chances = machine.dice.faces(1)
    solved: dict = {}

    def reach(kept: tuple):
        found = solved.get(kept)
        if found is not None:
            return found
        kind, share = classes[kept][0][:2]
        if kind == "back":
            found = solved[kept] = ({}, ONE, ZERO)
            return found
        m = count - len(kept)
        total, back, casts, again = {}, ZERO, ONE, ZERO
        for faces, p in _landings(chances, c, m):
            if len(faces) == m:
                every = tuple(sorted(kept + faces))
                total[every] = total.get(every, ZERO) + p
            elif not faces:
                again += p
            else:
                s2, b2, c2 = reach(tuple(sorted(kept + faces)))
                for o, q in s2.items():
                    total[o] = total.get(o, ZERO) + p * q
                back += p * b2
                casts += p * c2
        scale = share / (ONE - share * again)
        found = solved[kept] = ({o: q * scale for o, q in total.items()},
                                back * scale + (ONE - share) / (ONE - share * again), casts * scale)
        return found

    stands, back, casts = {}, ZERO, ONE
    for faces, p in _landings(chances, c, count):
        if len(faces) == count:
            stands[faces] = stands.get(faces, ZERO) + p
            continue
        s2, b2, c2 = reach(faces)
        for o, q in s2.items():
            stands[o] = stands.get(o, ZERO) + p * q
        back += p * b2
        casts += p * c2
    rest = ONE - back
    each = {faces: q / (_orders(faces) * rest) for faces, q in stands.items()}
    out = {}
    for k, faces in enumerate(machine.dice.outcomes):
        q = each.get(tuple(sorted(faces)))
        if q:
            out[k] = q
    return out, casts / rest


def choose_alike(machine, number: int, classes: dict, value: dict, fixed) -> tuple | None:
    """The recast choices of throw state `number` at their best, over the classes of `alike`
    (as `Solver._recast_alone` makes them for one die off): every class is worth a + b·v, v the
    throw state's own value, solved from the most faces kept down; policy iteration on v, in
    floats to find the choices, then exactly until none changes. `value`: the values known (every
    state a throw that stands leads to but this one); `fixed(target)`: a choice kept as it is.
    Returns (v, {state: value}, {choice state: alternative}), or None where a throw leads to a
    state of unknown value."""
    count, sides, c = machine.dice.count, machine.dice.sides, machine.recast.chance
    steps = machine.states[number].steps
    chances = machine.dice.faces(1)
    shares: dict = {}  # class -> the share recast alone, as chosen
    choosing = []  # classes whose choice is made here
    for kept, ((kind, share, chooser, alternatives), targets) in classes.items():
        shares[kept] = share
        if kind == "choice" and not any(fixed(t) for t in targets):
            choosing.append(kept)
            shares[kept] = ONE if alternatives[0] == "off" else ZERO  # the first alternative, to start
    target_of: dict = {}
    for faces in combinations_with_replacement(range(1, sides + 1), count):
        t = steps[index_of(faces, sides)].target
        if t != number and t not in value:
            return None
        target_of[faces] = t

    def solve(exact: bool):
        number_of = (lambda x: x) if exact else float
        one, zero = number_of(ONE), number_of(ZERO)
        worth = {faces: ((zero, one) if t == number else (number_of(value[t]), zero))
                 for faces, t in target_of.items()}
        casts = {m: tuple((faces, number_of(p)) for faces, p in _landings(chances, c, m))
                 for m in range(1, count + 1)}
        share_of = {kept: number_of(s) for kept, s in shares.items()}
        rests: dict = {}  # class -> (a, b, again): its dice cast once, landing off again aside

        def rest(kept):
            found = rests.get(kept)
            if found is None:
                m = count - len(kept)
                a = b = again = zero
                for faces, p in casts[m]:
                    if len(faces) == m:
                        wa, wb = worth[tuple(sorted(kept + faces))]
                    elif not faces:
                        again += p
                        continue
                    else:
                        wa, wb = reached(tuple(sorted(kept + faces)))
                    a += p * wa
                    b += p * wb
                found = rests[kept] = (a, b, again)
            return found

        def reached(kept):
            """What reaching a class is worth: a + b·v."""
            if classes[kept][0][0] == "back":
                return zero, one
            a, b, again = rest(kept)
            share = share_of[kept]
            under = one - share * again
            return share * a / under, (share * b + one - share) / under

        total_a = total_b = zero
        for faces, p in casts[count]:
            wa, wb = worth[faces] if len(faces) == count else reached(faces)
            total_a += p * wa
            total_b += p * wb
        return total_a / (one - total_b), rest

    for exact in (False, True):
        for _ in range(200):
            v, rest = solve(exact)
            changed = False
            for kept in choosing:
                (_, _, chooser, alternatives), _ = classes[kept]
                a, b, again = rest(kept)
                scores = [(a + b * v) / (1 - again) if alt == "off" else v for alt in alternatives]
                current = alternatives.index("off" if shares[kept] == ONE else "both")
                best = (max if maximises(chooser) else min)(scores)
                if scores[current] != best and (exact or abs(scores[current] - best) > 1e-12):
                    shares[kept] = ONE if alternatives[scores.index(best)] == "off" else ZERO
                    changed = True
            if not changed:
                break
        else:  # pragma: no cover - two alternatives per class, each round better: it ends
            return None
    values, picks = {number: v}, {}
    for kept, ((kind, _, _, alternatives), targets) in classes.items():
        if kind == "back":
            continue
        a, b, again = rest(kept)
        share = shares[kept]
        if kind == "die":
            worth = (a + b * v) / (ONE - again)
            for t in targets:
                values[t] = worth
            continue
        at_choice = (share * (a + b * v) + (ONE - share) * v) / (ONE - share * again)
        thrown = a + b * v + again * at_choice
        pick = alternatives.index("off" if share == ONE else "both")
        for t in targets:
            values[t] = at_choice
            values[t + 1] = thrown  # the dice off thrown alone: numbered next to their choice
            if kept in choosing:
                picks[t] = pick
    return v, values, picks
