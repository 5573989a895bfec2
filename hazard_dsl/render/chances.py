"""The caster's chances in a person's words: what `odds` says at the prompt, and what the web
tables show after a throw. The figures are play.odds's; this module only words them.
"""

from __future__ import annotations

from fractions import Fraction


def chance_words(p: Fraction) -> str:
    """"1 time in 3", "244 times in 495 (49.29%)": a person's words for an exact chance."""
    p = Fraction(p)
    if p == 0:
        return "never"
    if p == 1:
        return "for certain"
    if p.numerator == 1 and p.denominator < 10**6:  # with its percentage, as every other chance
        return f"1 time in {p.denominator:,} ({float(p):.2%})"
    if p.denominator < 10**6:
        return f"{p.numerator:,} times in {p.denominator:,} ({float(p):.2%})"
    return f"about {float(p):.2%} of the time"


def value_words(value) -> str:
    """A value to choose as the prompt shows it: a number in words ("six"), else as it is."""
    from .words import number_word

    return number_word(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def standing_words(standing) -> str:
    """Where the game stands (play.odds.Standing) as `odds` says it: "From here Ann wins …",
    "A new game: …", or at a choice each value's chance."""
    if standing.choices is not None:
        said = choices_words(standing.choices, standing.caster)
    else:
        said = f"{standing.caster} wins {chance_words(standing.win)}."
        if not standing.new_game:
            return f"From here {said}"
    return f"A new game: {said}" if standing.new_game else said


def choices_words(choices, caster: str) -> str:
    """At a choice (play.odds.Choices): the caster's chance with each value, the chooser's best
    marked where the values differ."""
    whose = "the best" if choices.for_caster else f"the {choices.chooser}'s best"
    lines = [f"{caster}'s chance with each answer:" if choices.recast
             else f"{caster}'s chance with each {choices.variable}:"]
    for pick in choices.picks:
        mark = f", {whose}" if pick.best and choices.differ else ""
        shown = {"off": "the off die alone (off)", "both": "both dice (both)"}.get(pick.value, pick.value) \
            if choices.recast and choices.dice == 2 else \
            {"off": "the dice off alone (off)", "both": "every die (both)"}.get(pick.value, pick.value) \
            if choices.recast else value_words(pick.value)
        lines.append(f"  {shown}: wins {chance_words(pick.win)}{mark}")
    return "\n".join(lines)
