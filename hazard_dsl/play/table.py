"""The table as a state machine that any front end drives.

A `Table` is one session (play.session) held between actions: it says what it waits for
(`waiting`, a play.actions.Question: who must act, and the legal actions with their bounds),
applies one action at a time (`apply`), and returns the events that action causes — a throw,
a settlement, the box passing. It knows no terminal, no argument parser, no browser: `play` at
a keyboard, `run` with players under strategies, a replay of a log, a web table and a test are all
drivers that read `waiting` and call `apply`.

    >>> from hazard_dsl.play.table import Table                        # doctest: +SKIP
    >>> table = Table(machine, ["Ann", "Ben", "Cat"], purse=20, seed=1)
    >>> table.waiting.to_json()["ask"]                                  # Ben sets his stake first
    'stake'
    >>> table.apply({"action": "stake", "amount": 2})                   # the events it caused

An action that is not legal now is refused with `IllegalAction` and changes nothing. Its record
(`log`) is the list of actions and events in order, plain JSON: replaying the actions on a new
table of the same settings makes the same events (`replay`).
"""

from __future__ import annotations

from fractions import Fraction

from .actions import IllegalAction, Question, check
from .session import Session

__all__ = ["Table", "IllegalAction", "Question"]


class Table:
    def __init__(self, machine, players: list[str], purse=20, dice=None, rounds: int | None = 1, seed: int = 0,
                 policy: str = "optimal", games: int | None = None, history: bool = True, bets=()):
        """A new session of `machine` (compiled with its table's stake bet) for `players` in order
        round the table, each with `purse`; `dice` are the table's own (a play.dice RandomDice or
        DiceTape; by default seeded random dice loaded as the rules say); `rounds` times round
        the table (None: until the money or `games` runs out); `bets`, the bets besides the stake
        the people may make (compiled in `machine`: play.table_bets). With `history` false the table
        keeps no `events` and `log` of its own (a driver that writes them out as they come: a long
        session costs no memory); `opening` keeps the events made before the first question."""
        # what the table was made with, its dice as they start: a pickled table is a new one of
        # these, its log replayed (`__reduce__`), as a live session (a generator) cannot be pickled
        self._made_with = (machine, list(players), purse, _fresh(dice), rounds, seed, policy, games, history,
                           tuple(bets))
        if dice is None:
            from .dice import RandomDice

            dice = RandomDice(seed, dice=machine.dice)
        self.machine = machine
        self.seed = seed
        self.policy = policy
        self.session = Session(machine, list(players), Fraction(purse), dice, rounds, games, bets)
        self._run = self.session.run()
        self.history = history
        self.events: list[dict] = []  # every event so far
        self.log: list[dict] = []  # actions and events, in the order they happened
        self.waiting: Question | None = None
        self._chooser = None
        self.last_action: dict | None = None  # the last action applied, as the log writes it
        self.opening = self._go(None)
        if history:
            self.events.extend(self.opening)
            self.log.extend(self.opening)

    # ------------------------------------------------------------------ where it stands

    @property
    def over(self) -> bool:
        return self.waiting is None

    def legal_actions(self) -> list[dict]:
        """The actions a front end may send now (none once the session is over)."""
        return self.waiting.actions() if self.waiting is not None else []

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.session.seats]

    @property
    def purses(self) -> dict:
        """Each player's purse, exactly."""
        return {seat.name: seat.purse for seat in self.session.seats}

    @property
    def wagers(self) -> list[dict]:
        """The wagers up now, each with who backs it and who lays it, the amount, what each
        party could lose and what a win pays (play.session.Session.open_wagers)."""
        return self.session.open_wagers()

    @property
    def caster(self) -> str:
        return self.session.seats[self.session.caster].name

    def to_json(self) -> dict:
        """Where the table stands, as data: what it waits for, the purses, the caster, the game,
        the wagers up (Session.open_wagers) and the caster's run of losses as the passing counts
        them (`losses`: 0 where losses alone never pass the dice)."""
        from ..parse.numbers import exact_money

        session = self.session
        return {"waiting": self.waiting.to_json() if self.waiting is not None else None,
                "over": self.over, "caster": self.caster, "game": session.game, "round": session.round,
                "throws": session.throws, "purses": {k: exact_money(v) for k, v in self.purses.items()},
                "bank": exact_money(session.bank), "box": exact_money(session.box),
                "wagers": session.open_wagers(), "losses": session.losses}

    # ------------------------------------------------------------------ acting

    def apply(self, action: dict) -> list[dict]:
        """Apply one action (checked against `waiting`: IllegalAction if it is not legal now, and
        the table is unchanged) and return the events it caused, in order."""
        if self.waiting is None:
            raise IllegalAction("the session is over: it waits for nothing")
        made = check(self.waiting, action, self.machine.ruleset.table)  # amounts in its coin too
        try:
            caused = self._go(made)
        except BaseException:
            self.waiting = None  # the dice (a tape) could not make the throw: the session cannot go on
            raise
        if made["action"] == "throw" and "dice" not in made:
            thrown = _thrown(caused)
            if thrown is not None:  # the log says what the table's dice threw (none: a tape ran out)
                made["dice"] = thrown
        self.last_action = made
        if self.history:
            self.log.append(made)
            self.log.extend(caused)
            self.events.extend(caused)
        return caused

    def __reduce__(self):
        if not self.history or self._made_with[3] is _UNCOPIED:
            raise TypeError("a table pickles as its settings and its log: this one keeps no log (history=False) "
                            "or has dice that cannot be copied")
        return (_rebuilt, (self._made_with, list(self.log)))

    def _go(self, answer) -> list[dict]:
        """Run the session on from `answer` to its next question (or its end); the events made."""
        run = self._run
        made = []
        while True:
            try:
                item = run.send(answer)
            except StopIteration:
                self.waiting = None
                break
            answer = None
            if isinstance(item, Question):
                self.waiting = item
                break
            made.append(item)
        return made

    # ------------------------------------------------------------------ strategies

    @property
    def chooser(self):
        """Makes the rules' choices under the table's policy (solved once, when first wanted)."""
        if self._chooser is None:
            import numpy as np

            from ..solve.markov import Solver
            from .game import Chooser

            solver = Solver(self.machine)
            solver.set_policy(self.policy)
            # mixed choices draw from a stream of their own, so the dice are the same whatever the policy
            self._chooser = Chooser(solver, np.random.default_rng([self.seed, 1]))
        return self._chooser

    def strategy(self, name: str = "flat", stake=1, plans=None, refuse=(), stakes=None):
        """A strategy (play.strategies) for this table: a function from its question to an action;
        `plans` ({seat: {bet: amount}}) the bets each seat makes, `refuse` ({(seat, bet)}) those
        a seat refuses when they are put to it, `stakes` ({seat: amount}) a seat's own stake
        in place of `stake` (0: it sits out of the stakes)."""
        from .strategies import strategy

        return strategy(name, stake, self.chooser, plans, refuse, stakes)

    def play(self, strategy=None, until=None) -> list[dict]:
        """Apply `strategy`'s action (a function from the question to an action; default flat
        stakes of 1) until the session is over, or until `until(question)` is true; returns the
        events."""
        strategy = strategy if strategy is not None else self.strategy()
        made = []
        while self.waiting is not None and not (until is not None and until(self.waiting)):
            made += self.apply(strategy(self.waiting))
        return made


_UNCOPIED = "dice that cannot be copied"


def _fresh(dice):
    """A copy of the dice as they start (None: the table's own, seeded), for a pickled table."""
    import copy

    try:
        return copy.deepcopy(dice)
    except Exception:  # noqa: BLE001 - a caller's own dice: that table is not pickled
        return _UNCOPIED


def _rebuilt(made_with: tuple, log: list) -> "Table":
    """A table unpickled: a new one of the same settings and dice, its log replayed."""
    return replay(Table(*made_with), log)


def _thrown(events: list[dict]):
    """The dice an action threw: those of the first cast or throw it caused (or its die, thrown
    for the first cast)."""
    for event in events:
        if event["event"] == "lot":
            return [event["face"]]
        if event["event"] == "cast":
            return [event["face"]] if event["cast"] == "die" else list(event["dice"])  # "dice": every die
        if event["event"] == "throw":
            return list(event["dice"])
    return None


def replay(table: Table, entries) -> Table:
    """Apply the actions among `entries` (a table's `log`: actions and events) to `table`, a new
    table of the same settings and dice, and check that it makes the recorded events, as a log
    file is checked (play.replay.replayed): raises ValueError (play.log.LogError) at the first
    action that is not legal there or event that differs. The table's own dice throw beside
    every throw the record gives, so that a throw it leaves to them (or a tape that ran out)
    comes out as it did."""
    from .log_errors import LogError
    from .replay import replayed

    run = replayed(enumerate(entries, 1), table, lambda number: f"entry {number}")
    table.session.follow_dice = True
    try:
        while True:
            try:
                next(run)
            except StopIteration as done:
                unlogged = done.value
                break
    finally:
        table.session.follow_dice = False
    if unlogged:
        raise LogError(f"the entries end before the {unlogged[0]['event']} event the last action made")
    return table
