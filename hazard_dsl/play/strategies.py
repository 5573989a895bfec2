"""How players at the table decide when nobody is asked: functions from the table's question
(play.actions.Question) to an action.

* ``flat`` stakes the same amount every game (or the purse, if less);
* ``fraction`` stakes a tenth of the purse, in whole units where it can be;
* ``cautious`` stakes flat, but sits out when the purse holds less than three stakes.

* ``martingale``, ``paroli``, ``dalembert``, ``labouchere``, ``fibonacci``: the betting
  progressions of solve.progressions, from a first stake of `stake`, each player's own. A
  progression reads the player's purse: higher than at his last stake is a win, lower a loss,
  the same a push (what a player at the table can tell); the stake it asks for is laid up to
  the purse and the table's most.

* ``best``: the stake by purse of greatest chance to double the purse the player held at his
  first stake (or to reach `goal`, where one is given), stakes 1 to `stake` whole units
  (solve.policy.best_stake, exact), on his side of the game at even money: the caster's against
  a bank, the setter's against the caster.

A progression given a `cap` starts again from its first stake when it would ask for more (as
solve.progressions does), so that a seat at the table plays the chain that is solved.

All of them cover every stake they can, keep the dice after a win, throw with the table's dice
(the game's throws, and the one die each player throws for the first cast where the rules cast
lots for it) and make the rules' choices (a main called, a die recast) under the table's policy.
With `plans` ({seat: {bet: amount}}) a seat makes each of its bets whenever it may (for at most
what it can), and takes every bet put to it, save those `refuse` names ({(seat, bet)}); with
`stakes` ({seat: amount}) a seat stakes its own amount (0: it sits out, an onlooker).
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import Arg, ArgumentError
from .actions import Question

from ..solve.progressions import PROGRESSIONS, Progression

STRATEGIES = ("flat", "fraction", "cautious", "best") + PROGRESSIONS


def strategy(name: str = "flat", stake=1, chooser=None, plans=None, refuse=(), stakes=None, goal=None, cap=None):
    """The strategy `name` staking `stake` (flat and cautious; a seat named in `stakes` stakes its
    own amount there, 0 to sit out), with `chooser` (play.game.Chooser) making the rules' choices
    and each seat betting as `plans` say: a function from a question to an action. `goal`: the
    purse the best stake aims at (default: twice the purse at the first stake); `cap`: a
    progression's largest stake."""
    if name not in STRATEGIES:
        import difflib

        close = difflib.get_close_matches(str(name), STRATEGIES, n=1)
        raise ArgumentError(Arg("strategy", value=name), f"is not a strategy: one of {', '.join(STRATEGIES)}",
                            nearest=close[0] if close else None, offered=STRATEGIES)
    size = Fraction(stake)
    refusing = set(refuse)
    if size <= 0:
        raise ArgumentError(Arg("stake"), f"must be more than 0, not {stake}")

    if cap is not None and name not in PROGRESSIONS:
        raise ArgumentError(Arg("cap"), f"is a progression's largest stake ({', '.join(PROGRESSIONS)}), not "
                                        f"{name}'s")
    progressions = Progressions(name, size, cap) if name in PROGRESSIONS else None
    policies = BestPolicies(size, chooser, goal) if name == "best" else None

    def decide(question: Question) -> dict:
        ask = question.ask
        if ask == "stake":
            if stakes and question.player in stakes:  # its own, flat (0: it sits out)
                return {"action": "stake", "amount": stake_of("flat", Fraction(stakes[question.player]), question)}
            if progressions is not None:
                return {"action": "stake", "amount": progressions.stake(question)}
            if policies is not None:
                return {"action": "stake", "amount": policies.stake(question)}
            return {"action": "stake", "amount": stake_of(name, size, question)}
        if ask == "bet":  # the first seat, from the caster round, with a planned bet open
            for seat, offered in question.facts["bets"].items():
                mine = (plans or {}).get(seat, {})
                for bet in offered:
                    if bet["bet"] in mine:
                        planned = Fraction(mine[bet["bet"]])
                        amount = min(planned, Fraction(bet["most"]))
                        if amount > 0:  # `cut`: less than planned, and the table says why
                            return {"action": "bet", "player": seat, "bet": bet["bet"], "amount": amount,
                                    **({"cut": True} if amount < planned else {})}
            return {"action": "done"}
        if ask == "accept":
            return {"action": "decline" if (question.player, question.facts["bet"]) in refusing else "accept"}
        if ask == "cover":
            if "bet" in question.facts and (question.player, question.facts["bet"]) in refusing:
                return {"action": "refuse"}
            return {"action": "cover"}
        if ask == "keep":
            return {"action": "keep"}
        if ask == "throw":  # the caster's throw, or anyone's die for the first cast: the table's dice
            return {"action": "throw"}
        if chooser is None:
            raise ValueError("this strategy has no policy to choose by (give it a chooser)")
        return {"action": "choose", "value": question.facts["values"][chooser.pick(question.node)]}

    decide.__name__ = decide.__qualname__ = name
    decide.policies = policies  # the best stake's goals, for a seat's plan told (play.seat_plans)
    return decide


def stake_of(name: str, size: Fraction, question: Question) -> Fraction:
    """What strategy `name` stakes at a stake question, within its bounds."""
    purse, most = Fraction(question.facts["purse"]), Fraction(question.facts["most"])
    if name == "fraction":  # a tenth of the purse, in whole units where it can be
        amount = purse / 10
        amount = Fraction(int(amount)) if amount >= 1 else amount
    else:
        amount = size
    if name == "cautious" and purse < 3 * amount:
        return Fraction(0)  # a cautious player sits out when he could not stake three times more
    return max(Fraction(0), min(amount, purse, most))


class Progressions:
    """Each player's progression (solve.progressions.Progression) from a first stake `size`:
    his state and his purse at his last stake, by name."""

    def __init__(self, name: str, size: Fraction, cap=None):
        self.rule = Progression(name, size, None if cap is None else Fraction(cap))
        self.players: dict = {}  # player -> (state, purse at his last stake, what he laid)

    def stake(self, question: Question) -> Fraction:
        purse, most = Fraction(question.facts["purse"]), Fraction(question.facts["most"])
        state, before, laid = self.players.get(question.player, (self.rule.start, None, None))
        if before is not None and laid:
            # what the purse did since his last stake: a win, a loss, or nothing (a push)
            state = self.rule.after(state, (purse > before) - (purse < before), laid)
        amount = max(Fraction(0), self.rule.stake(state, purse, most))
        self.players[question.player] = (state, purse, amount)
        return amount


class BestPolicies:
    """Each player's best policy (solve.policy.best_stake) towards twice the purse he held at his
    first stake (or towards `goal`), stakes 1 to `most` whole units, made once per (side, goal)."""

    def __init__(self, most: Fraction, chooser, goal=None):
        if chooser is None:
            raise ArgumentError(Arg("chooser"), "is needed by the best stake: the game's solver (play.game.Chooser)")
        if most < 1 or Fraction(most).denominator != 1:
            raise ArgumentError(Arg("stake"), f"(the best stake's largest stake) must be a whole number of units, "
                                              f"not {most}")
        self.most, self.solver = int(most), chooser.solver
        self.goal = None
        if goal is not None:
            from ..solve.policy import whole

            self.goal = whole(goal, Arg("goal"))
        self.goals: dict = {}  # player -> his goal
        self.made: dict = {}  # (side, goal) -> BestStake

    def stake(self, question: Question) -> Fraction:
        from ..solve.policy import PolicyTooLarge, best_stake, caster_outcomes, other_side
        from ..solve.session import game_endings

        purse, most = Fraction(question.facts["purse"]), Fraction(question.facts["most"])
        goal = self.goal or self.goals.setdefault(question.player, max(2, 2 * int(purse)))
        side = "caster" if question.facts.get("layer") == "bank" else "setter"
        if (side, goal) not in self.made:
            game = game_endings(self.solver.machine, solver=self.solver)
            outcomes = caster_outcomes(game.chance("win"), game.chance("lose"))
            try:
                self.made[side, goal] = best_stake(outcomes if side == "caster" else other_side(outcomes), goal,
                                                   self.most)
            except PolicyTooLarge as exc:  # a purse grown large before the first stake: said, not a crash
                raise ArgumentError(Arg("purse"), f"is too large for the best stake at the table: {exc}") from None
        policy = self.made[side, goal]
        units = int(purse)
        if units < 1:  # less than a unit: what is left
            return max(Fraction(0), min(purse, most))
        return max(Fraction(0), min(Fraction(policy.stakes.get(units, 1)), purse, most))
