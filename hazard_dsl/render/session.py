"""Telling a table session from its events, in the period's words (`run --players`, `replay`).

The events are the session engine's plain dicts (play.session); the throws and calls are told by
the game's `Narrator` from the machine's states, so a log narrates the same as the live session.
"""

from __future__ import annotations

from fractions import Fraction

from ..compile.machine import Machine, index_of
from ..play.game import ChoiceMade, Thrown
import re

from ..money import money_mark
from .words import money_amount, sentences
from ..records import replace
from .narrate import Narrator, cast_text, face_text
from .terminal import fit, printable


_ENDED = re.compile(r"the game ended ([A-Za-z_][A-Za-z0-9_]*)")
_IN_PURSE = re.compile(r"\((-?\d+(?:\.\d+)?(?:/\d+)?) in the purse\)")


class SessionNarrator:
    def __init__(self, machine: Machine):
        self.machine = machine
        self.narrator = Narrator(machine)
        self.unit = machine.ruleset.money_unit
        self.people: set = set()  # every name seen at the table, told as written (render.words.sentences)

    def amount(self, text: str) -> str:
        return money_amount(self.machine.ruleset, Fraction(text))

    def _bet(self, name: str) -> str:
        """A bet as players call it (`called:` in the rule file, else its name's words: "the
        place 6 bet")."""
        return self.machine.ruleset.bet_words(name)

    def _settled_on(self, e: dict) -> str:
        """What a payment settles, in words: a fee, a commission, a bet (with the bet's own word
        for its decision, `hard`; a game's ending the throw's line has said), or the stake."""
        ruleset = self.machine.ruleset
        if "fee" in e:
            return ", " + ruleset.fee_words(e["fee"])
        if e.get("why") == "commission":
            return f", the commission on {self._bet(e['bet'])}"
        if "bet" in e:
            on = " on " + self._bet(e["bet"])
        else:  # (" on the stake" where the file names no bet for it: "pays Ben 1 unit on the stake")
            on = " on " + (self._bet(ruleset.table.stake) if ruleset.table.stake else "the stake")
        why = e.get("why")
        if why and why not in ruleset.labels and why not in ("win", "lose", "push"):
            on += f" ({ruleset.label_words(why)})"
        return on

    def _box_passes(self, said: str) -> str:
        """"The dice pass …" in the table's words where the rule file names what passes
        (`words: box: the shaker`: "The shaker passes …")."""
        box = self.machine.ruleset.words.box
        if not box:
            return said
        for dice, one in (("the dice pass", "passes"), ("the dice never pass", "never passes")):
            if said.lower().startswith(dice):
                head = f"{box} {one}"
                return (head[0].upper() if said[0].isupper() else head[0]) + head[1:] + said[len(dice):]
        return said

    def text(self, e: dict) -> str | None:
        """The event in words, printable (rule text's control characters shown) and fitted to the
        terminal; None for an event the throw's line has told."""
        said = self._text(e)
        return None if said is None else fit(printable(said))

    def said(self, e: dict) -> str | None:
        """The event in words, printable, not fitted to a terminal (a web page wraps it); None as
        for `text`."""
        said = self._text(e)
        return None if said is None else printable(said)

    def _text(self, e: dict) -> str | None:
        kind = e["event"]
        states = self.machine.states
        if kind == "session":
            self.people.update(e["purses"])
        if kind in ("choice", "throw"):  # the rules' "{caster}" is the player holding the box
            self.narrator.words = replace(self.machine.ruleset.words, caster=e["caster"])
            self.people.add(e["caster"])
            self.narrator.people = tuple(self.people)
        if kind == "session":
            purses = ", ".join(f"{name} {self.amount(p)}" for name, p in e["purses"].items())
            words = self.machine.ruleset.words  # the table's words where the rule file gives them
            settles = self.machine.ruleset.table.stake or any(s.result != "push" for s in self.machine.end_states())
            against = "no stake is laid on a game that settles nothing: the money is on the bets" if not settles \
                else "a bank answers every stake" if e["against"] == "bank" else \
                f"{words.setters} stake against {words.caster}" if words.setters else \
                "the setters stake against the caster"
            passing = self._box_passes(e["passing"])
            return f"{e['ruleset']} at the table: {purses}. {passing[0].upper()}{passing[1:]}; {against}."
        if kind == "lot":  # one die each for the first cast; a tie thrown again
            again = " again, to break the tie" if e["round"] > 1 else ""
            return f"{e['player']} throws {face_text(self.machine.ruleset.words, e['face'])} for the box{again}."
        if kind == "first":
            return f"{e['caster']} casts first: {e['why']}."
        if kind == "hand":
            box = self.machine.ruleset.words.box or "the box"
            return f"\n{e['caster']} takes {box} (hand {e['hand']}; purse {self.amount(e['purse'])})."
        if kind == "game":
            return f"Game {e['game']}: {e['caster']} {self.machine.ruleset.words.casts or 'casts'}."
        if kind == "stake":
            if e["layer"] == "bank":
                on = f"{e['caster']}'s own cast" if e["player"] == e["caster"] else e["caster"]
                return f"       {e['player']} stakes {self.amount(e['amount'])} with the bank on {on}."
            sets = "stakes" if self.machine.ruleset.words.setters else "sets"  # "sets" is Hazard's word
            return f"       {e['player']} {sets} {self.amount(e['amount'])}; {e['caster']} covers it."
        if kind == "bet":
            side = "backs" if e["side"] == "backer" else "lays"
            against = "with the bank" if e["against"] == "bank" else f"against {e['against']}"
            cut = f" ({e['cut']})" if e.get("cut") else ""  # a planned amount cut: why
            return "       " + sentences(f"{e['who']} {side} {self._bet(e['bet'])} for {self.amount(e['amount'])}{cut} "
                                          f"{against}.", keep=self.people | {e["who"], e["against"]} - {"bank"})
        if kind == "refuse" and "bet" in e:
            what = f"{e['who']}'s offer of {self._bet(e['bet'])} for {self.amount(e['amount'])}"
            if e.get("declined"):
                return f"       {e['against']} declines {what}."
            if "most" in e and "pays" in e:  # nobody who would take it could cover it: why
                who = "anyone" if e["against"] == "nobody" else e["against"]
                head = f"Nobody takes {what}: no purse" if e["against"] == "nobody" else \
                    f"{e['against']} cannot take {what}: the purse does not"
                return (f"       {head} cover{'s' * (e['against'] == 'nobody')} {e['pays']} on a stake of "
                        f"{self.amount(e['stake'])}; the most {who} can cover is {self.amount(e['most'])}.")
            return f"       Nobody takes {what}." if e["against"] == "nobody" else \
                f"       {e['against']} cannot take {what}."
        if kind == "refuse":
            if e.get("declined"):  # the caster's own choice: said once, not "refuses …: declines it"
                return f"       {e['caster']} declines {e['player']}'s stake of {self.amount(e['amount'])}."
            # the engine writes the purse exactly ("(113/8 in the purse)"); a person reads it in coin
            why = _IN_PURSE.sub(lambda m: "(nothing in the purse)" if Fraction(m.group(1)) == 0 else
                                f"({self.amount(m.group(1))} in the purse)", e["why"])
            return f"       {e['caster']} refuses {e['player']}'s stake of {self.amount(e['amount'])}: {why}."
        if kind == "choice":
            state = states[e["state"]]
            value, step = state.alternatives[[v for v, _ in state.alternatives].index(e["value"])]
            return self.narrator.text(ChoiceMade(e["game"], state, value, step, None, states[step.target]))
        if kind == "throw":
            state = states[e["state"]]
            thrown = tuple(e["dice"])
            step = state.steps[index_of(thrown, self.machine.dice.sides)]
            return self.narrator.text(Thrown(e["game"], e["throw"], thrown, state, step, states[step.target]))
        if kind in ("cast", "recast"):  # dice that landed off, and what was thrown again
            said = cast_text([e], self.machine.ruleset.words, e["caster"])
            return f"       {said}" if said else None
        if kind == "settle":
            payer = "The bank" if e["payer"] == "bank" else e["payer"]
            payee = "the box" if e["payee"] == "box" else "the bank" if e["payee"] == "bank" else e["payee"]
            mark = money_mark(self.machine.ruleset.table)
            return f"       {mark} {payer} pays {payee} {self.amount(e['amount'])}{self._settled_on(e)}."
        if kind == "pass":
            why = e["why"]
            ended = _ENDED.fullmatch(why)
            passing = self.machine.passing
            if ended and passing is not None and "after every game" in passing.says():
                # a layout's one-throw game: "the game ended in shaken" would say nothing
                return self._box_passes(f"The dice pass from {e['caster']} to {e['to']}, as after every game.")
            elif ended and ended.group(1) in self.machine.ruleset.labels:  # the engine's "the game ended no_main"
                why = f"the game ended in {self.machine.ruleset.label_words(ended.group(1))}"
            return self._box_passes(f"The dice pass from {e['caster']} to {e['to']}: {why}.")
        if kind == "end":
            lines = [f"\nThe session ends after {e['games']} game{'s' * (e['games'] != 1)} and {e['throws']} "
                     f"throw{'s' * (e['throws'] != 1)} ({e['why']}).", "Purses:"]
            width = max(len(name) for name in e["purses"])
            for name, purse in e["purses"].items():
                lines.append(f"  {name:<{width}}  {self.amount(purse)}")
            if Fraction(e["bank"]):
                lines.append(f"  the bank {'won' if Fraction(e['bank']) > 0 else 'lost'} "
                             f"{self.amount(str(abs(Fraction(e['bank']))))}")
            if Fraction(e["box"]):
                lines.append(f"  the box took {self.amount(e['box'])} in fees")
            return "\n".join(lines)
        return None  # "result": the throw's line has said it
