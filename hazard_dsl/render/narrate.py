"""Telling a game in the period's words, as text or as one JSON object per throw.

All the words come from the rule file: the names of faces and throws (`words:`), what a
variable says when it is set, what a rule or a label says. Nothing here knows a variant.
"""

from __future__ import annotations

import json
from collections import Counter
from ..records import field, record

from ..compile.machine import Machine
from ..model import NUMBER_WORDS, plural
from ..play.game import ChoiceMade, EndedAtOnce, TapeRanOut, Thrown
from ..money import money_mark
from .words import fill, money_amount, number_word, sentences

RESULT_VERBS = {"win": "wins", "lose": "loses", "push": "neither wins nor loses"}


class Narrator:
    def __init__(self, machine: Machine):
        self.machine = machine
        self.ruleset = machine.ruleset
        self.words = machine.ruleset.words
        # a game that ends only in pushes (a layout's one throw: sic bo) settles nothing for the
        # caster (play.session's `staked`): his "neither wins nor loses" would only stand above
        # the bets that carry the money, so it is not said
        self.settles = settles_for_caster(machine)
        # the names of the people at a table (render.session sets them): left as written where
        # a sentence begins with one ("van Dyke throws out.")
        self.people: tuple = ()

    def _sentence(self, text: str) -> str:
        return sentences(text, keep=self.people)

    def _values(self, state, dice=None) -> dict:
        values = dict(zip(self.machine.variables, state.values))
        values["caster"] = self.words.caster
        if dice:
            values["total"] = sum(dice)
            values["throw"] = self.words.throw_name(*dice)
        else:  # a choice or an ending before any throw: the rule file may still name the throw
            values["total"] = "no total"
            values["throw"] = "no throw"
        return values

    def _sentences(self, step, after, dice, rule_said: bool = False) -> list[str]:
        """What a step says: the rule's `say` (unless already said at the throw that led to a
        choice), each variable set, and the ending."""
        values = self._values(after, dice)
        said = []
        if step is not None and step.rule is not None and step.rule.say and not rule_said:
            said.append(self._sentence(fill(step.rule.say, values)))
        for event in (step.events if step is not None else ()):
            if event.kind in ("set", "choose"):
                variable = self.ruleset.variables[event.name]
                if variable.say:
                    said.append(self._sentence(fill(variable.say, dict(values, value=event.value))))
                elif event.kind == "set":
                    said.append(self._sentence(f"{variable_words(variable)} is {event.value}."))
        if after.kind == "end":
            label = self.ruleset.labels.get(after.label)
            if label and label.say:  # the label's own sentence says how; the tag says who won
                told = self._sentence(fill(label.say, values))
                said.append(told)
                verdict = f"{values['caster']} {RESULT_VERBS[after.result]}"
                if self.settles and verdict.casefold() not in " ".join(told.split()).casefold():  # not where it repeats it
                    said.append(f"[{self._sentence(verdict)}]")
            elif not self.settles:
                said.append(f"[{self._sentence(self.ruleset.label_words(after.label))}]")
            else:
                said.append(f"[{self._sentence(values['caster'])} {RESULT_VERBS[after.result]}: "
                            f"{self.ruleset.label_words(after.label)}]")
        return said

    def text(self, record) -> str | None:
        if isinstance(record, ChoiceMade):
            return self._choice(record)
        if isinstance(record, EndedAtOnce):
            said = [] if record.after_choice else self._sentences(None, record.state, None)
            return "       " + " ".join(["The game is decided without a throw."] + said)
        if isinstance(record, Thrown):
            name = self.words.throw_name(*record.dice)
            if self.machine.dice.names:  # marks, not numbers: no digits and no total to tell
                head = f"  {record.number:>3}. {name}"
            else:
                head = f"  {record.number:>3}. {name} ({'-'.join(map(str, record.dice))}), {total_words(record.total)}"
            said = self._sentences(record.step, record.after, record.dice)
            if not said and not record.choices:
                said = ["No decision; the dice go on."]
            lines = [self._money(e) for e in record.made]
            told = cast_text(record.casts, self.words) if record.casts else ""
            if told:
                from .terminal import fit

                lines.append(fit("       " + told))
            lines.append(f"{head}: {' '.join(said)}".rstrip(": ") if said else f"{head}.")
            lines += [self._choice(choice) for choice in record.choices]
            lines += [self._money(e) for e in record.settled]
            return "\n".join(lines)
        return None

    def _choice(self, record: ChoiceMade) -> str:
        after = self.machine.states[record.step.target]
        said = self._sentences(record.step, after, record.dice, rule_said=record.dice is not None)
        value = number_word(record.value) if isinstance(record.value, int) else record.value
        who = self.words.caster if record.state.chooser == "caster" else f"the {record.state.chooser}"
        variable = self.ruleset.variables[record.state.variable]
        head = (f"{self._sentence(who)} calls {value}." if variable.say
                else f"{self._sentence(who)} chooses {variable_words(variable)}: {record.value}.")
        return f"       {' '.join([head] + said)}"

    def _money(self, e: dict) -> str:
        """One line of money: a bet made, refused, won, lost or pushed, or a fee paid, in the
        ruleset's money and its words for bets and fees (the JSON keeps the exact figures)."""
        from fractions import Fraction

        ruleset = self.ruleset

        def told(key: str) -> str:
            return money_amount(ruleset, Fraction(e[key]))

        tail = f"  [bankroll {told('bankroll')}]" if "bankroll" in e else ""
        amount = told("amount") if "amount" in e else ""
        kind = e["event"]
        name = ruleset.fee_words(e["fee"]) if kind == "paid" else ruleset.bet_words(e.get("bet") or "")
        if kind == "made":
            extra = f" (and {told('commission')} commission)" if "commission" in e else ""
            text = f"bets {amount} on {name}{extra}"
        elif kind == "refused":
            text = f"{name} refused: {e['reason']}"
        elif kind == "win":
            extra = f" after {told('commission')} commission" if "commission" in e else ""
            text = f"{name}, {amount}, wins {told('won')}{extra}{_said(e, ruleset)}"
        elif kind == "lose":
            text = f"{name}, {amount}, loses{_said(e, ruleset)}"
        elif kind == "push":
            text = f"{name}, {amount}, is a push ({ruleset.label_words(e['label'])}): the stake comes back"
        else:
            text = f"{amount} paid to {e['payee']} ({name})"
        return f"       {money_mark(ruleset.table)} {self._sentence(text)}{tail}"

    def json(self, record, pending_choices: list, seed: int | None = None) -> str | None:
        """One JSON line per throw (choices made before it ride along as `choices`, those it led
        to as `then`); a game that ends at a choice before any throw gets a line of its own."""
        if isinstance(record, EndedAtOnce):
            obj = {"game": record.game, "throw": 0, "result": record.state.result, "label": record.state.label}
            if pending_choices:
                obj["choices"] = list(pending_choices)
                pending_choices.clear()
            if seed is not None:
                obj["seed"] = seed
            return json.dumps(obj)
        if isinstance(record, ChoiceMade):
            pending_choices.append(_choice_json(record))
            return None
        if not isinstance(record, Thrown):
            return None
        obj = {"game": record.game, "throw": record.number, "dice": list(record.dice), "total": sum(record.dice),
               "name": self.words.throw_name(*record.dice), "phase": record.state.phase}
        if seed is not None:  # every line says how to get it again
            obj["seed"] = seed
        if pending_choices:
            obj["choices"] = list(pending_choices)
            pending_choices.clear()
        sets = {e.name: e.value for e in record.step.events if e.kind == "set"}
        if sets:
            obj["set"] = sets
        if record.step.rule is not None:
            obj["rule"] = record.step.rule.index + 1
        if len(record.casts) > 1:  # a die landed off: how the throw came to stand
            obj["casts"] = [dict(c) for c in record.casts]
        if record.choices:
            obj["then"] = [_choice_json(c) for c in record.choices]
        if record.made or record.settled:
            obj["bets"] = [dict(e) for e in record.made + record.settled]
            last = (record.made + record.settled)[-1]
            if "bankroll" in last:
                obj["bankroll"] = last["bankroll"]
        if record.ends_game:
            obj["result"] = record.outcome.result
            obj["label"] = record.outcome.label
        else:
            obj["next"] = record.outcome.phase
        return json.dumps(obj)


_ORDINALS = ("first", "second", "third", "fourth", "fifth")


_TEENS = ("thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}


def total_words(total: int) -> str:
    """A throw's total in words, as two dice's are ("eleven"), also past twelve where three or
    more dice throw it ("seventeen", "twenty-four"; five dice of twenty faces reach a hundred)."""
    if total < len(NUMBER_WORDS):
        return number_word(total)
    if total < 20:
        return _TEENS[total - 13]
    if total < 100:
        tens, units = divmod(total, 10)
        return _TENS[tens] + (f"-{NUMBER_WORDS[units]}" if units else "")
    return "one hundred" if total == 100 else str(total)


def cast_text(casts, words, caster: str | None = None) -> str:
    """Dice that landed off and what was thrown again, in a sentence: "x-4: the first die is off,
    a cater showing; the caster recasts the off die alone: a sice." (play.casting's events), for
    any number of dice: "the first die lands off (x-4-5), a cater and a cinque showing"."""
    people = (caster,) if caster else ()  # a player's name, as written; the rules' "the caster" begins a sentence
    caster = caster or words.caster
    parts: list = []
    for cast in casts:
        if cast.get("cast") == "both":
            dice = cast["dice"]
            off = [k for k, f in enumerate(dice) if f is None]
            if not off:
                continue  # the throw that stands: its own line tells it
            written = "-".join("x" if f is None else str(f) for f in dice)
            if len(off) == len(dice):
                every = "both dice" if len(dice) == 2 else f"all {NUMBER_WORDS[len(dice)]} dice"
                parts.append(f"{every} land off ({written})")
            else:
                shown = [f for f in dice if f is not None]
                kept = f"{NUMBER_WORDS[len(shown)]} {plural(words.faces[shown[0] - 1])}" \
                    if len(shown) > 1 and len(set(shown)) == 1 else " and ".join(_a(words.faces[f - 1]) for f in shown)
                parts.append(f"the {dice_named(off)} land{'s' * (len(off) == 1)} off ({written}), {kept} showing")
        elif cast.get("cast") == "die":
            face = cast.get("face")
            parts.append("it lands off again" if face is None else f"it shows {_a(words.faces[face - 1])}")
        elif cast.get("cast") == "dice":  # dice recast together: every die's face, None off again
            dice = cast["dice"]
            thrown = [dice[d - 1] for d in cast["thrown"]]
            parts.append("they show " + " and ".join(_a(words.faces[f - 1]) for f in thrown) if None not in thrown
                         else ", ".join(f"the {dice_named([k])} lands off again" if f is None else
                                        f"the {dice_named([k])} shows {_a(words.faces[f - 1])}"
                                        for k, f in enumerate(dice) if k + 1 in cast["thrown"]))
        elif cast.get("die") is None and cast.get("chooser") is None and "kept" not in cast:
            continue  # every die off: all are thrown again, as the cast already says
        elif cast.get("recast") == "off" or cast.get("value") == "off":
            who = caster if cast.get("chooser") == "caster" else (f"the {cast['chooser']}" if cast.get("chooser")
                                                                  else None)
            what = "the off die" if cast.get("die") is not None else "the off dice"
            parts.append(f"{who} recasts {what} alone" if who else f"{what} {'is' if cast.get('die') else 'are'} "
                         f"recast alone")
        else:
            who = caster if cast.get("chooser") == "caster" else (f"the {cast['chooser']}" if cast.get("chooser")
                                                                  else None)
            every = "both dice" if "kept" not in cast else "all the dice"
            parts.append(f"{who} takes up {every} again" if who else f"{every} are thrown again")
    return sentences("; ".join(parts), keep=people) + "." if parts else ""


def dice_named(dice) -> str:
    """Dice by their places (0 for the first): "first die", "first and third dice"."""
    names = [_ORDINALS[k] if k < len(_ORDINALS) else f"die {k + 1}" for k in dice]
    if len(names) == 1:
        return f"{names[0]} die"
    return ", ".join(names[:-1]) + f" and {names[-1]} dice"


def face_text(words, face: int) -> str:
    """One die's face in the period's words, with its number: "a cater (4)", "an ace (1)"."""
    return f"{_a(words.faces[face - 1])} ({face})"


def _a(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def _choice_json(record: ChoiceMade) -> dict:
    return {"by": record.state.chooser, "variable": record.state.variable, "value": record.value}


def _said(event: dict, ruleset) -> str:
    """The bet's own word for its decision, when it has one (`hard`, `bar`)."""
    label = event.get("label")
    return f" ({ruleset.label_words(label)})" if label not in (None, "", event["event"]) else ""


def variable_words(variable) -> str:
    """A variable as a person reads it, where it has no `say:`: its description's first phrase
    ("the main, the number thrown…" → "the main"), else its name's words."""
    from ..model import readable

    if variable.description:
        first = variable.description.strip().split(",")[0].split(";")[0].split("(")[0].strip()
        if first and len(first) <= 40:
            return first
    return readable(variable.name)


@record
class Tally:
    """What a run of games came to, for the summary."""

    games: int = 0
    throws: int = 0
    results: Counter = field(default_factory=Counter)
    labels: Counter = field(default_factory=Counter)
    unfinished: int = 0

    def add(self, record) -> None:
        end = None
        if isinstance(record, Thrown):
            self.throws += 1
            end = record.outcome
        elif isinstance(record, EndedAtOnce):  # at the start, or at a choice before any throw
            end = record.state
        if end is not None and end.kind == "end":
            self.games += 1
            self.results[end.result] += 1
            self.labels[end.label] += 1
        elif isinstance(record, TapeRanOut) and record.throws:
            self.unfinished += 1

    def summary(self, label_results: dict, caster: str = "the caster", ruleset=None) -> str:
        parts = []
        for result, verb in (("win", "won"), ("lose", "lost"), ("push", "pushed")):
            n = self.results.get(result, 0)
            if n:
                detail = ", ".join(f"{ruleset.label_words(label) if ruleset else label} {count}"
                                   for label, count in self.labels.items()
                                   if label_results.get(label) == result)
                parts.append(f"{verb} {n} ({detail})")
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        throws = f"{self.throws} throw{'s' if self.throws != 1 else ''}"
        if label_results and all(result == "push" for result in label_results.values()) and self.games:
            # a game that settles nothing for the caster (Narrator.settles): how the games ended
            detail = ", ".join(f"{ruleset.label_words(label) if ruleset else label} {count}"
                               for label, count in self.labels.items())
            out = f"{games}, {throws} ({detail})."
        else:
            out = f"{games}, {throws}: {caster} {', '.join(parts) or 'finished no game'}."
        if self.unfinished:
            out += " One game was left unfinished."
        return out


def settles_for_caster(machine) -> bool:
    """Whether a game settles anything for the caster: a stake is laid on it (`table: stake:`),
    or some ending is no push (as play.session's `staked` says)."""
    table = machine.ruleset.table
    staked = bool(table.stake) and machine.bets.get(table.stake) is not None
    return staked or any(s.result != "push" for s in machine.end_states())


def money_summary(wagers, ruleset) -> str:
    """What the bets of a run of games came to, for the summary: the net won or lost in the
    ruleset's money, and the bankroll left when there was one."""
    net = wagers.net
    sign = "+" if net >= 0 else "−"
    line = f"Money: net {sign}{money_amount(ruleset, abs(net))}"
    if wagers.bankroll is not None:
        line += f"; bankroll {money_amount(ruleset, wagers.bankroll)}"
    return line + "."
