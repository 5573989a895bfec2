"""Games without players (`run` without --players): the caster's games, one after another, on
seeded dice or a tape, with bets kept up if ordered."""

from __future__ import annotations

from ..records import record
from .dice import load_dice
from ..errors import ArgumentError
from .errors import CommandError, SettingError

DEFAULT_GAMES = 3
MAX_GAMES = 1_000_000


@record
class Games:
    """Games ready to play: the machine, the seed and the dice, the chooser of every choice,
    the bets kept up (play.wagers.Wagers, or None) and how many games (None: as many as the
    tape allows)."""

    machine: object
    seed: int
    dice: object
    chooser: object
    wagers: object
    count: int | None

    def records(self):
        """The games' records as they are played (play.game.play)."""
        from ..play.game import play

        return play(self.machine, self.dice, self.chooser, self.count, self.wagers)

    def never_made(self) -> tuple:
        """After the games: a Note for each bet ordered once, before a throw the games never
        reached (`small=5@99` in one game of one throw), which a net of 0 alone would hide."""
        from .notes import Note

        if self.wagers is None:
            return ()
        throws = self.wagers.throws
        return tuple(Note("bets", order.arg, f" was never made: the games ended after {throws} "
                          f"throw{'s' * (throws != 1)}, before throw {order.at_throw}")
                     for order in self.wagers.orders if order.at_throw is not None and not order.done)


def games_request(request) -> Games:
    """Games of a `RunRequest` without players (commands.requests): `games` of them (default 3;
    with a tape, as many as its throws allow), on dice seeded by `seed` (a new seed if none) or
    thrown as the tape `dice` says, choices made by `policy`, one bettor's `bets` (BetOrders,
    each made for its amount whenever it may, or once at its throw) kept up from `bankroll`
    (exact; None: no limit)."""
    import numpy as np

    from ..play.game import Chooser
    from ..solve.markov import PolicyError, Solver
    from .analyse import order_texts
    from .dice import seed_and_tape
    from .loading import load, machine_for

    ruleset = load(request.ruleset, request.text)
    orders = order_texts(request.bets, at_throw=True)
    machine = machine_for(ruleset, request.options, [name for name, _, _ in orders if name in ruleset.bets])
    count = request.games
    if count is not None and (type(count) is not int or not 1 <= count <= MAX_GAMES):
        raise SettingError("games", f"must be between 1 and {MAX_GAMES:,}")
    # a tape replays the same every time (mixed choices included) unless a seed is given
    seed, dice = seed_and_tape(request.seed, request.dice)
    load_dice(dice, machine)
    count = count if request.dice is not None or count is not None else DEFAULT_GAMES
    solver = Solver(machine)
    try:
        solver.set_policy(request.policy)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):
            raise
        raise CommandError(str(exc)) from None
    # Mixed choices draw from their own stream, so a tape replays the same whatever the policy.
    chooser = Chooser(solver, np.random.default_rng([seed, 1]))
    wagers = None
    if orders or request.bankroll is not None:
        from ..play.wagers import Order, Wagers
        from ..solve.bets import BetError

        if request.bankroll is not None and request.bankroll <= 0:
            raise SettingError("bankroll", "must be more than 0")
        try:
            wagers = Wagers(machine, [Order(name, amount, at) for name, amount, at in orders], request.bankroll)
        except ArgumentError:
            raise
        except BetError as exc:
            raise CommandError(str(exc)) from None
    return Games(machine, seed, dice, chooser, wagers, count)
