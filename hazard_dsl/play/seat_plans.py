"""Seats the computer plays at a table where people play the others (`play --plan SEAT:PLAN`):
each planned seat answers its questions by a strategy of play.strategies (a progression, the
best stake, flat…), the very function `run --strategy` plays every seat by, so that a seat
stakes here what it would stake there; the other seats' questions go to the people.

A strategy's state (a progression's step, the best stake's goal) is made from the stake
questions its seats were asked, in order. A session resumed from its log is given them again
(`follow`): the logged stakes of each planned seat are fed to its strategy and must be what it
stakes, so that the session goes on exactly as it would have without the stop.
"""

from __future__ import annotations

import difflib
from fractions import Fraction

from ..errors import Arg, ArgumentError
from ..solve.progressions import PROGRESSIONS
from .log_errors import LogError
from .strategies import STRATEGIES, strategy


def read_plans(texts, players: list[str]) -> dict:
    """`SEAT:STRATEGY` texts ({seat: strategy}), each seat once and at the table, each strategy one
    of play.strategies: ArgumentError naming the entry (and the nearest name) otherwise."""
    planned: dict = {}
    for text in texts:
        seat, colon, name = str(text).partition(":")
        seat, name = seat.strip(), name.strip()
        if not colon or not seat or not name:
            raise ArgumentError(Arg("plan", value=text), f"is a seat and the strategy the computer plays it by, "
                                                         f"such as Ben:martingale ({', '.join(STRATEGIES)})")
        if seat not in players:
            close = difflib.get_close_matches(seat, players, n=1)
            raise ArgumentError(Arg("plan", key=name, seat=seat), f"names no seat at the table: "
                                f"{', '.join(players)}", nearest=close[0] if close else None, offered=players)
        if name not in STRATEGIES:
            close = difflib.get_close_matches(name, STRATEGIES, n=1)
            raise ArgumentError(Arg("plan", key=name, seat=seat), f"is not a strategy: one of "
                                f"{', '.join(STRATEGIES)}", nearest=close[0] if close else None,
                                offered=STRATEGIES)
        if seat in planned:
            raise ArgumentError(Arg("plan", key=name, seat=seat), f"gives {seat} a second plan; "
                                f"{seat} plays by {planned[seat]}")
        planned[seat] = name
    return planned


class ComputerSeats:
    """A function from the table's question to an action, like a strategy: the `planned` seats
    ({seat: strategy}) answer by their strategy (first stake, or the best stake's largest, `stake`;
    a progression's largest stake `cap`), every other question goes to `people`. `say(text)`
    tells, in the game's words, what each planned seat stakes and why; `money(amount)` words an
    amount."""

    def __init__(self, planned: dict, stake, chooser, people=None, say=None, money=str, cap=None):
        if cap is not None and not any(name in PROGRESSIONS for name in planned.values()):
            raise ArgumentError(Arg("cap", value=cap), f"is a progression's largest stake "
                                f"({', '.join(PROGRESSIONS)}), and no seat is planned to play one")
        self.planned = dict(planned)
        self.people, self.say, self.money = people, say, money
        # one strategy for the seats of a plan, as run's one for every seat: each keeps its
        # seats' steps apart, by name
        self.strategies = {name: strategy(name, Fraction(stake), chooser, cap=cap if name in PROGRESSIONS else None)
                           for name in sorted(set(planned.values()))}
        self.first = Fraction(stake)
        self.last: dict = {}  # seat -> (his purse at his last stake, what he staked)

    def __call__(self, question) -> dict:
        seat = question.player
        if question.ask == "bet":
            # the bets beside the stake are the people's; a table of planned seats alone makes none
            if all(s in self.planned for s in question.facts["bets"]) or self.people is None:
                return {"action": "done"}
            return self.people(question)
        if seat not in self.planned:
            return self.people(question)
        action = self.strategies[self.planned[seat]](question)
        if question.ask == "stake":
            said = self.why(question, Fraction(action["amount"]))
            if self.say is not None:
                self.say(said)
        return action

    def follow(self, question, action: dict) -> None:
        """A logged action at `question` (a resumed session's log read again): a planned seat's
        stake fed to its strategy, which must stake the same (LogError otherwise)."""
        if question is None or question.ask != "stake" or question.player not in self.planned:
            return
        seat, name = question.player, self.planned[question.player]
        mine = Fraction(self.strategies[name](question)["amount"])
        self.why(question, mine)
        try:
            logged = Fraction(str(action.get("amount")))
        except (ValueError, ZeroDivisionError):
            logged = None
        if logged != mine:  # both amounts in the game's money, as the people read them
            said = self.money(logged) if logged is not None else repr(action.get("amount"))[:40]
            raise LogError(f"the log has {seat} staking {said}, but {seat}'s plan ({name}) stakes "
                           f"{self.money(mine)} there: the log was not played by the plan its session event "
                           f"names")

    def why(self, question, amount: Fraction) -> str:
        """What the seat stakes and why, in the game's words: "Ben doubles his stake to 4 after a
        loss (martingale)."; and the seat's last stake kept for the next."""
        seat, name = question.player, self.planned[question.player]
        purse = Fraction(question.facts["purse"])
        before = self.last.get(seat)
        self.last[seat] = (purse, amount)
        plan = name
        if name == "best":
            policies = getattr(self.strategies[name], "policies", None)
            goal = None if policies is None else (policies.goal or policies.goals.get(seat))
            plan = "the best stake" + (f" towards a purse of {self.money(goal)}" if goal else "")
        words = self.money(amount)
        if amount == 0:
            return f"{seat} sits out this game ({plan})."
        if before is None or not before[1]:
            return f"{seat} stakes {words} ({plan})."
        was, laid = before
        after = "after a win" if purse > was else "after a loss" if purse < was else "after a push"
        if amount == laid:
            return f"{seat} stakes {words} again {after} ({plan})."
        if amount == 2 * laid:
            return f"{seat} doubles his stake to {words} {after} ({plan})."
        if amount == self.first and amount < laid:
            return f"{seat} goes back to his first stake, {words}, {after} ({plan})."
        return f"{seat} {'raises' if amount > laid else 'lowers'} his stake to {words} {after} ({plan})."


__all__ = ["ComputerSeats", "read_plans"]
