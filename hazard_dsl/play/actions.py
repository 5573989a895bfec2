"""What the table waits for, and what a person at it may do: questions and actions as data.

The session engine (play.session) stops at every point where someone at the table decides —
a setter's stake, the caster's cover, a call of the main, keeping the dice after a win, the
throw itself, the recast of a die that landed off — and yields a `Question`. A front end answers
with an action: a plain dict, ready for JSON, checked here against the question before it
touches the table (`check`): an action that is not legal now is refused with a reason
(`IllegalAction`) and changes nothing.

The schema (every value is JSON; amounts are exact, written as strings such as "3" or "5/2"):

=========  ===================================================  ==================================
question   asked of                                             its actions
=========  ===================================================  ==================================
stake      a setter (with a bank, every player) before a game    {"action": "stake", "amount": A}
                                                                 with least <= A <= most; "0": none
cover      the caster, for one setter's stake                    {"action": "cover"} or
                                                                 {"action": "refuse"}
keep       the caster, after a win, where the rules let him      {"action": "keep"} or
           pass the dice                                         {"action": "pass"}
choose     whoever the rules name (`chooser`): the main called,  {"action": "choose", "value": V}
           a die off recast alone or both (variable "recast")   with V one of `values`
throw      the caster, whenever the dice are thrown (`cast`:     {"action": "throw"}: the table's
           "both", or "die" with `die` 1 or 2 recast alone);     dice; or with "dice": [d1, d2]
           before the first game, where the rules cast lots      ([face] for a die alone or a
           for the first cast, each player (`cast`: "lot",       lot; null for a die off, where
           one die; `round` 1, and 2… for those tied)            dice may land off)
=========  ===================================================  ==================================

Every action may name its `player`; the table refuses one named for someone other than the
player asked. Random dice, dice scripted for a replay and a remote player's throw are all the
same action: a throw without dice is thrown by the table's own dice (seeded, or a tape).
"""

from __future__ import annotations

from fractions import Fraction

from ..parse.numbers import exact_amount, exact_money
from ..records import field, record

QUESTIONS = ("stake", "cover", "keep", "choose", "throw", "bet", "accept")
ACTIONS = {"stake": ("stake",), "cover": ("cover", "refuse"), "keep": ("keep", "pass"), "choose": ("choose",),
           "throw": ("throw",), "bet": ("bet", "done"), "accept": ("accept", "decline")}
MAX_ACTION_TEXT = 200  # characters of a value or amount looked at; more is no action


class IllegalAction(ValueError):
    """An action that is not legal now: the message says why. The table is unchanged."""


@record(frozen=True)
class Question:
    """What the table waits for: who must act (`player`, a seat's name; None where the rules'
    chooser is nobody at the table, such as the bank) and what he is asked. `facts` are the
    question's own data (the bounds of a stake, the values of a choice…), plain JSON; `node` is
    the machine's choice state behind a `choose` (for a strategy's policy), never serialised."""

    ask: str
    player: str | None
    facts: dict = field(default_factory=dict)
    node: object = field(default=None, repr=False, compare=False)

    def actions(self) -> list[dict]:
        """The legal actions, as data: each one a front end may send (a stake's amount is a
        range, given as its bounds)."""
        if self.ask == "stake":
            return [{"action": "stake", "amount": {"least": self.facts["least"], "most": self.facts["most"]}}]
        if self.ask == "choose":
            return [{"action": "choose", "value": value} for value in self.facts["values"]]
        if self.ask == "throw":
            return [{"action": "throw"}, {"action": "throw", "dice": "given"}]
        if self.ask == "bet":
            return [{"action": "bet", "player": seat, "bet": o["bet"], "side": o["side"],
                     "amount": {"least": o["least"], "most": o["most"]}}
                    for seat, offered in self.facts["bets"].items() for o in offered] + [{"action": "done"}]
        return [{"action": name} for name in ACTIONS[self.ask]]

    def to_json(self) -> dict:
        return dict(ask=self.ask, player=self.player, **self.facts, actions=self.actions())


def check(question: Question, action, money=None) -> dict:
    """The action made legal and exact (amounts as exact strings, dice as lists), or
    IllegalAction saying why it is not an answer to `question`. With `money` (the ruleset's
    `Table`) an amount may be written in its coin too ("1s 6d", money.money_read), and
    a refusal tells amounts so."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a JSON object such as {\"action\": \"throw\"}")
    name = action.get("action")
    if not isinstance(name, str) or name not in ACTIONS[question.ask]:
        wanted = " or ".join(repr(a) for a in ACTIONS[question.ask])
        who = question.player or ("the table" if question.ask == "bet" else "the rules")
        raise IllegalAction(f"the table waits for {who} to {_doing(question)}: "
                            f"the action is {wanted}, " + (f"not {quoted(name)}" if "action" in action
                                                            else 'and the object has no "action"'))
    player = action.get("player", question.player)
    if question.ask == "bet" and name == "bet":  # the table is asked: the action names who bets
        if not isinstance(player, str) or player not in question.facts["bets"]:
            raise IllegalAction(f"a bet names its player, one of {', '.join(question.facts['bets'])} (those who may "
                                f"bet now), not {quoted(player)}")
    elif not (player is None or isinstance(player, str)) or player != question.player:
        raise IllegalAction(f"it is {question.player or 'nobody at the table'}'s turn to {_doing(question)}, "
                            f"not {quoted(player)}'s")
    # keys of any type (a Python caller's dict): ordered by their text, never compared
    extra = sorted(set(action) - {"action", "player"} - set(_FIELDS[name]), key=quoted)
    if extra:
        raise IllegalAction(f"{name} takes no {quoted(extra[0])}")
    made = {"action": name}
    if question.player is not None:
        made["player"] = question.player
    elif question.ask == "bet" and name == "bet":
        made["player"] = player
    if name == "stake":
        made["amount"] = exact_money(_amount(question, action.get("amount"), question.facts, money=money))
    elif name == "bet":
        offered: dict = {}  # bet -> its options, the backer's side first (a side bet may be backed or laid)
        for o in question.facts["bets"][player]:
            offered.setdefault(o["bet"], []).append(o)
        bet = action.get("bet")
        if not isinstance(bet, str) or bet not in offered:
            from ..diagnostics import did_you_mean

            raise IllegalAction(f"{player} may make {', '.join(offered)} now, not {quoted(bet)}"
                                + (did_you_mean(bet, offered) if isinstance(bet, str) else ""))
        # no side: the first offered, as before a bet could be laid (old logs name none)
        side = action.get("side", offered[bet][0]["side"])
        option = next((o for o in offered[bet] if o["side"] == side), None)
        if option is None:
            sides = " or ".join(repr(o["side"]) for o in offered[bet])
            raise IllegalAction(f"{player} may make {bet} as {sides} now, not {quoted(side)}")
        amount = _amount(question, action.get("amount"), option, player, money)
        if amount <= 0:
            raise IllegalAction("a bet's amount is more than 0 (done: no more bets)")
        made.update(bet=bet, amount=exact_money(amount))
        if "side" in action or len(offered[bet]) > 1:  # said where it could be either
            made["side"] = side
        if action.get("cut") is True:  # a strategy's plan cut to the most offered: narrated with why
            made["cut"] = True
    elif name == "choose":
        made["value"] = _value(question, action.get("value", _NOTHING))
    elif name == "throw" and "dice" in action:
        made["dice"] = _dice(question, action["dice"])
    return made


_NOTHING = object()
_FIELDS = {"stake": ("amount",), "cover": (), "refuse": (), "keep": (), "pass": (), "choose": ("value",),
           "throw": ("dice",), "bet": ("bet", "amount", "side", "cut"), "done": (), "accept": (), "decline": ()}


def _doing(question: Question) -> str:
    f = question.facts
    throw = "throw one die for the first cast" if f.get("cast") == "lot" else "throw"
    return {"stake": "stake", "cover": f"cover or refuse {f.get('setter')}'s {f.get('bet', 'stake')}",
            "keep": "keep or pass the dice", "choose": f"choose {f.get('variable')}", "throw": throw,
            "bet": "bet or be done", "accept": f"accept or decline {f.get('maker')}'s {f.get('bet')}"}[question.ask]


def quoted(value) -> str:
    """A value as a refusal quotes it: its repr, cut to 40 characters; a number too long to
    write out (Python refuses ints of more than 4,300 digits) said so. An action is a JSON
    object, so null, true and a list or object are written as JSON writes them (a web client
    sent `null`, never Python's None); a text keeps its quotes ('Ann')."""
    try:
        text = repr(value)
        if value is None or isinstance(value, (bool, list, dict)):
            import json

            try:
                text = json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError):  # a Python caller's object JSON cannot write
                pass
    except ValueError:
        return f"<a number of about {int(value.bit_length() * 0.30103):,} digits>"
    return text if len(text) <= 40 else text[:37] + "..."


def _amount(question: Question, amount, bounds: dict, player: str | None = None, money=None) -> Fraction:
    from decimal import Decimal

    if isinstance(amount, bool) or not isinstance(amount, (str, int, Fraction, Decimal)) or \
            (isinstance(amount, Decimal) and not amount.is_finite()):
        raise IllegalAction("a stake's amount is a number or an exact amount as text, such as 2, \"1.50\" or "
                            "\"5/2\"")
    if isinstance(amount, (int, Fraction, Decimal)):  # exact already (a Decimal as written): never as text
        value = Fraction(amount)
    else:
        text = str(amount)
        value = exact_amount(text, percent=False, written=True) if len(text) <= MAX_ACTION_TEXT else None
        if value is None and money is not None and len(text) <= MAX_ACTION_TEXT:
            from ..money import MoneyText, money_read

            try:
                value = money_read(money, text)
            except MoneyText as exc:
                raise IllegalAction(str(exc)) from None
        if value is None:
            raise IllegalAction(f"{quoted(amount)} is not an amount; write one such as 2, \"1.50\" or \"5/2\"")
    least, most = Fraction(bounds["least"]), Fraction(bounds["most"])
    told = exact_money
    if money is not None:
        from ..money import money_told

        told = lambda value: money_told(money, value)  # noqa: E731 — amounts in the table's coin
    if value < least:
        raise IllegalAction(f"a stake is at least {told(least)} (0: no stake this game)")
    if value > most:
        doing = "stake" if question.ask == "stake" else \
            f"{'lay' if bounds.get('side') == 'layer' else 'back'} {bounds.get('bet')} for"
        raise IllegalAction(f"{player or question.player} can {doing} at most {told(most)} here "
                            f"({bounds.get('why_most', 'the purse, less what is up')})")
    return value


def _value(question: Question, value):
    values = question.facts["values"]
    for v in values:
        if value == v and type(value) is type(v):  # 7 is not "7", nor True 1
            return v
    shown = ", ".join(map(str, values))
    raise IllegalAction(f"{question.facts['variable']} is one of {shown}, not {quoted(value) if value is not _NOTHING else 'nothing'}")


def _dice(question: Question, dice) -> list:
    cast = question.facts.get("cast")
    alone = cast in ("die", "lot")  # a die recast alone, or the one die thrown for the first cast
    off = question.facts.get("may_land_off", False)
    dice_count, sides = question.facts.get("count", 2), question.facts.get("sides", 6)
    count = 1 if alone else dice_count
    if not isinstance(dice, list) or len(dice) != count:
        one = "[face]: the one die thrown for the first cast" if cast == "lot" else "[face]: the one die recast alone"
        every = "[" + ", ".join(f"die{k}" for k in range(1, count + 1)) + "]"
        raise IllegalAction(f"dice are {one if alone else every}, "
                            f"each a face from 1 to {sides}" + (" or null for a die off" if off else ""))
    for face in dice:
        if face is None and off:
            continue
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise IllegalAction(f"a die shows a face from 1 to {sides}, not {quoted(face)}"
                                + ("" if off else " (these dice never land off)" if face is None else ""))
    return list(dice)
