"""Games without players (`run` without --players): the caster's games, one after another, on
seeded dice or a tape, with bets kept up if ordered."""

from __future__ import annotations

from ..records import record
from .dice import load_dice, seed_and_dice
from ..errors import ArgumentError
from .errors import CommandError, SettingError
from .loading import build_machine

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


def games_to_play(ruleset, option_texts=(), bets=(), bankroll: str | None = None, count: int | None = None,
                  seed: int | None = None, tape: str | None = None, policy: str = "optimal") -> Games:
    """Games of `ruleset` with these options: `count` of them (default 3; with a tape, as many
    as its throws allow), on dice seeded by `seed` (a new seed if none) or thrown as `tape`
    says ("3-4 6-6"), choices made by `policy`, the bets ordered (`NAME=AMOUNT[@THROW]`) kept
    up from `bankroll` (a text of money; None: no limit)."""
    import numpy as np

    from ..play.game import Chooser
    from ..solve.markov import PolicyError, Solver

    # only the bets ordered are played (a name that is no bet is refused with the orders)
    ordered = [name for name in (text.partition("=")[0].strip() for text in bets) if name in ruleset.bets]
    machine = build_machine(ruleset, list(option_texts), ordered)
    if count is not None and not 1 <= count <= MAX_GAMES:
        raise SettingError("games", f"must be between 1 and {MAX_GAMES}")
    # a tape replays the same every time (mixed choices included) unless a seed is given
    seed, dice = seed_and_dice(seed, tape)
    load_dice(dice, machine)
    count = count if tape is not None or count is not None else DEFAULT_GAMES
    solver = Solver(machine)
    try:
        solver.set_policy(policy)
    except PolicyError as exc:
        if isinstance(exc, ArgumentError):  # names its argument: each front end words it
            raise
        raise CommandError(str(exc)) from None
    # Mixed choices draw from their own stream, so a tape replays the same whatever the policy.
    chooser = Chooser(solver, np.random.default_rng([seed, 1]))
    wagers = None
    if bets or bankroll is not None:
        from ..play.wagers import Order, Wagers
        from ..solve.bets import BetError, parse_money

        try:
            money = parse_money(bankroll, "--bankroll") if bankroll is not None else None
            from .analyse import each_once

            orders = [Order.parse(text) for text in bets]
            each_once(orders)
            wagers = Wagers(machine, orders, money)
        except ArgumentError:  # a bet ordered, named (play.wagers.OrderError): each front end words it
            raise
        except BetError as exc:
            raise CommandError(str(exc)) from None
    return Games(machine, seed, dice, chooser, wagers, count)


def games_request(request) -> Games:
    """`games_to_play` for a `RunRequest` without players (commands.requests): one bettor's
    BetOrders, money and the tape as values."""
    import numpy as np

    from ..play.game import Chooser
    from ..solve.markov import PolicyError, Solver
    from .analyse import order_texts
    from .loading import machine_for
    from .dice import seed_and_tape
    from .loading import load

    ruleset = load(request.ruleset, request.text)
    orders = order_texts(request.bets, at_throw=True)
    machine = machine_for(ruleset, request.options, [name for name, _, _ in orders if name in ruleset.bets])
    count = request.games
    if count is not None and (type(count) is not int or not 1 <= count <= MAX_GAMES):
        raise SettingError("games", f"must be between 1 and {MAX_GAMES}")
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


def replay_command(ruleset: str, seed: int, count: int | None = None, option_texts=(), policy: str = "optimal",
                   bets=(), bankroll: str | None = None) -> str:
    """The command that plays the same games again: every setting that shaped them, quoted for
    a shell."""
    import shlex

    words = ["hazard-dsl", "run", ruleset, "--seed", str(seed)]
    if count is not None:
        words += ["--games", str(count)]
    for option in option_texts:
        words += ["--option", option]
    if policy != "optimal":
        words += ["--policy", policy]
    for bet in bets:
        words += ["--bet", bet]
    if bankroll is not None:
        words += ["--bankroll", bankroll]
    return " ".join(shlex.quote(w) for w in words)
