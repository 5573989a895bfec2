"""The Python API, for notebooks and scripts: the same pipeline the command runs.

    >>> import hazard_dsl
    >>> cotton = hazard_dsl.load("cotton")                  # a built-in name or a path
    >>> cotton.analyse().win
    Fraction(1979, 4032)
    >>> hazard_dsl.load("cotton", main="called").analyse().choices["main"]["best"]
    7
    >>> craps = hazard_dsl.load("craps")
    >>> craps.analyse(bets={"pass": 10, "odds": "3-4-5x"}).combination.edge
    Fraction(7, 1870)
    >>> records = cotton.run(games=1, seed=1)               # play records, as `run` narrates them
    >>> cotton.simulate(games=10_000, seed=1).win.exact      # each estimate beside its exact value
    Fraction(1979, 4032)

`load` runs every check `hazard-dsl check` runs (`check.check_ruleset`): a rule file with an
error raises `hazard_dsl.RulesetError`, whose `.diagnostics` are check's and whose `str()` lists
each problem as ``file:line:col: message``; warnings are kept as `Variant.warnings`.
`load_text` does the same for a rule file held in a string. A mistake in an argument (an
option, a bet, an amount, a count) raises `hazard_dsl.errors.ArgumentError` (a `ValueError`; a
wrong type is also a `TypeError`) naming the keyword, with "did you mean": the API checks its
arguments itself (`hazard_dsl.arguments`), and the engine's own errors name the argument as the
API's keyword (`bets['odds'] = '2x'`), so nothing here rewrites a message.

Results are objects (`hazard_dsl.results`): attributes, `.to_json()` (what `--json` prints), and
a table in a notebook (`_repr_html_`, `_repr_markdown_`) or from `print()`. Variants, results,
tables and errors pickle as themselves.

A `Variant` holds its checked ruleset and its compiled machine, so its methods ask the engine
with values; where the application layer does the work (seats' plans at the table:
`commands.analyse.seat_plans`), the API hands it the same values a request holds
(`commands.requests`), never command-line text to parse again. This module is the doors and
the Variant's methods; the checking of arguments is `hazard_dsl.arguments`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from pathlib import Path

from . import arguments
from .arguments import (exact as _exact, made as _made, money as _money, names as _names,
                        old_bets as _old_bets, one_of as _one_of, orders as _orders,
                        table_settings as _table_settings, whole as _whole)
from .diagnostics import RulesetError
from .errors import Arg, ArgumentError


def _bet_orders(orders) -> list:
    """`arguments.orders`' (bet, amount as written, throw) as the requests' BetOrders: money as
    a value, a multiple ("2x", "3-4-5x") as its text, each shown as it was written (12.50)."""
    from .commands.requests import BetOrder
    from .parse.numbers import exact_amount

    out = []
    for name, written, at in orders:
        amount = exact_amount(written, percent=False)
        out.append(BetOrder(name, written if amount is None else amount, at, written=written))
    return out


def _simulator():
    """The simulator's entry points (`simulate_request`, `ENGINES`, `DEFAULT_GAMES`,
    `DEFAULT_SESSIONS`, `MAX_GAMES`): imported here only, so that where they live is said once."""
    from .commands import simulate

    return simulate


class Variant:
    """A ruleset with chosen option values, checked (`warnings`: what `check` warned of) and
    compiled once: what `load` and `load_text` return."""

    def __init__(self, ruleset, options: dict, warnings=()):
        self.ruleset = ruleset
        self._chosen = dict(options)
        self.warnings = list(warnings)  # Diagnostic values: check's warnings, which do not stop a load

    def __repr__(self) -> str:
        chosen = ", ".join(f"{k}={v!r}" for k, v in self._chosen.items())
        return f"<Variant {self.ruleset.name!r}{' (' + chosen + ')' if chosen else ''}>"

    # ------------------------------------------------------------------ what it is

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def options(self) -> dict:
        """Every option's value in force (the defaults, with those chosen)."""
        return _resolve_options(self.ruleset, self._chosen)

    @property
    def bets(self) -> list[str]:
        """The names of the ruleset's bets: the keys `bets={…}` takes."""
        return list(self.ruleset.bets)

    @cached_property
    def machine(self):
        """The compiled two-dice machine every figure is computed on."""
        from .cache import compile_ruleset

        return compile_ruleset(self.ruleset, self._chosen, explorations=self._explorations())

    def _explorations(self):
        """What compiling the ruleset under one setting lends the next (`compile.explorations`),
        held by this variant and those `with_options` makes from it (one ruleset: bounded), and
        not pickled: a variant sent to a worker makes its own."""
        found = self.__dict__.get("_shared")
        if found is None:
            from .compile.explorations import Explorations

            found = self.__dict__["_shared"] = Explorations(max_rulesets=1)
        return found

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_shared", None)
        return state

    def show(self) -> dict:
        """Description, sources, notes, options, bets and fees, as data (`hazard-dsl show --json`)."""
        from .render.show import show_json

        return show_json(self.ruleset)

    def with_options(self, **options) -> "Variant":
        """The same ruleset with other option values (the file is not read again).

            >>> hazard_dsl.load("cotton").with_options(main="called").options["main"]
            'called'
        """
        chosen = dict(self._chosen, **options)
        _resolve_options(self.ruleset, chosen)
        variant = Variant(self.ruleset, chosen, self.warnings)
        variant._shared = self._explorations()  # (the same ruleset: what one compiled lends the other)
        return variant

    # ------------------------------------------------------------------ the rule sheet and the diagram

    def rules(self, format: str = "text", policy: str = "optimal") -> str:  # noqa: A002 - the CLI's word
        """The rule sheet (`hazard-dsl rules`), written from the compiled machine and the file's
        words: `format` is "text", "markdown", "html" (a page to print) or "json".

            >>> print(hazard_dsl.load("petty").rules("markdown"))  # doctest: +ELLIPSIS
            # Petty Hazard...
        """
        from .render.rulesheet import FORMATS, rule_sheet

        _one_of("format", format, FORMATS)
        return rule_sheet(self.machine, format, policy)

    def graph(self, format: str = "dot", unfold: bool = False, phases=(), bets=()):  # noqa: A002
        """The compiled machine drawn (`hazard-dsl graph`): `format` "dot", "mermaid" or "json"
        (text), "svg" (text) or "png" (bytes) — those two need Graphviz's `dot`. `unfold=True`
        draws every state; `phases=["chance"]` only those phases; `bets=["pass"]` each bet's
        own machine beside the game.

            >>> print(hazard_dsl.load("petty").graph("mermaid"))  # doctest: +ELLIPSIS
            ---
            title: "Petty Hazard...
        """
        from .render.graph import FORMATS, GraphvizMissing, draw

        _one_of("format", format, FORMATS)
        phases, bets = _names("phases", phases), _names("bets", bets)
        known = list(self.ruleset.phases)
        for phase in phases:
            _one_of("phases", phase, known, f"{self.name} has no phase {phase!r}")
        for bet in bets:
            _one_of("bets", bet, self.bets, f"{self.name} has no bet {bet!r}")
        try:
            data = draw(self.machine, format, unfold, phases, bets)
        except GraphvizMissing:
            raise GraphvizMissing(f"format={format!r} needs Graphviz's `dot` program, which is not installed (or "
                                  f"not on PATH): install Graphviz (https://graphviz.org/download/), or draw "
                                  f"format='dot' or format='mermaid', which need nothing else") from None
        return data if format == "png" else data.decode("utf-8")

    # ------------------------------------------------------------------ figures

    def analyse(self, policy: str = "optimal", by: str | None = None, bets: dict | None = None):
        """Exact figures (`hazard_dsl.Analysis`): `.win`, `.edge`, `.figures` (every label,
        expected throws), `.choices`, `.bets` (each bet's exact edge), `.fees`; `by="main"`
        splits them by a variable's final value; `bets={"pass": 10, "odds": "3-4-5x"}` adds the
        edge of those bets made together as `.combination`."""
        from .results import Analysis
        from .solve.analysis import analyse

        if by is not None and by not in self.machine.variables:
            from .diagnostics import did_you_mean

            raise ArgumentError(Arg("by", value=by), f": {self.name} has no variable {by!r}"
                                f"{did_you_mean(by, self.machine.variables)} (variables: "
                                f"{', '.join(self.machine.variables) or 'none'})", offered=self.machine.variables)
        orders = _orders(self.ruleset, bets)
        analysis = Analysis.of(analyse(self.machine, policy, by)).shown_by(SHOWN)
        if orders:
            _made(self.machine, orders)
            analysis.combination = analysis.bet_table.combination([(name, amount) for name, amount, _ in orders])
        return analysis

    def printed(self, policy: str = "optimal") -> list[dict]:
        """The figures the ruleset's sources print (`printed:` in the rule file), each beside the
        exact figure under this variant's options: one dict per figure with `cited`, `words`,
        `figure` (as printed), `exact`, `agrees` and, where it differs, `difference` — what
        `show`, `rules` and `analyse` print as the sources' ledger. [] when the file lists none.

            >>> [(row["figure"], row["agrees"]) for row in hazard_dsl.load("cotton").printed()][2]
            ('1396 to 1493', False)
        """
        from .render.printed import ledger
        from .solve.solver import checked_policy_text

        checked_policy_text(policy)  # before the ledger joins it into its words
        return ledger(self.ruleset, dict(self.options), policy, self.machine)

    def run(self, games: int | None = 3, seed: int | None = 0, dice: str | None = None, bets: dict | None = None,
            bankroll=None, policy: str = "optimal") -> list:
        """Play games and return their records (`ChoiceMade`, `Thrown`…, as `hazard-dsl run`
        narrates them). `seed` makes them reproducible; `dice="3-4 6-6"` replays given throws
        (then `games=None` plays as many as they allow; random dice need a number of games);
        `bets={"pass": 10}` keeps bets up
        (standing: made again after each is decided; an amount "5@3" makes the bet once, before
        throw 3), `bankroll=100` follows a purse."""
        import numpy as np

        from .commands.dice import load_dice
        from .play.dice import DiceTape, RandomDice
        from .play.game import Chooser, play
        from .play.wagers import Order, Wagers
        from .solve.markov import Solver

        if games is None and dice is None:
            raise ArgumentError(Arg("games"), "cannot be None (as many games as the dice allow) without ",
                                Arg("dice"), " (a tape of throws): random dice never run out")
        if games is not None:
            games = _whole("games", games, 1, _simulator().MAX_GAMES)
        if seed is not None:
            seed = arguments.seed(seed)
        source = DiceTape.parse(dice, self.machine) if dice is not None else RandomDice(seed, dice=self.machine.dice)
        if dice is not None:
            load_dice(source, self.machine)  # (a throw of other dice than these is refused here)
        solver = Solver(self.machine)
        solver.set_policy(policy)
        chooser = Chooser(solver, np.random.default_rng([seed or 0, 1]))
        wagers = None
        orders = _orders(self.ruleset, bets, once=True)
        if orders or bankroll is not None:
            _made(self.machine, orders)
            money = _money(bankroll, "bankroll") if bankroll is not None else None
            wagers = Wagers(self.machine, [Order(name, amount, at) for name, amount, at in orders], money)
        return list(play(self.machine, source, chooser, games, wagers))

    def hand(self, policy: str = "optimal"):
        """The caster's hand, until the dice pass (`analyse --hand`; `hazard_dsl.Hand`): `.games`,
        `.throws`, `.wins`, `.net` per hand, exact."""
        from .results import Hand
        from .solve.session import hand

        return Hand.of(hand(self.machine, policy)).shown_by(SHOWN)

    def seats(self, plans: dict, players=None, stake=1, policy: str = "optimal"):
        """Each seat's exact expected net at the table (`analyse --bet SEAT:NAME=AMOUNT`;
        `hazard_dsl.Seats`), a seat making each bet of its plan ({seat: {bet: amount}}, the
        amount what it puts at risk) whenever the table allows, each setter staking `stake`:
        `.rows[seat]`, each with `.per_game`, `.per_hand`, `.role` and `.side`; with `players`
        (in order round the table) who takes each bet, and `.per_round`.

            >>> hoyle = hazard_dsl.load("hoyle")
            >>> [(r.role, r.side, r.per_game) for r in hoyle.seats({"Ben": {"odds": 2}}).rows["Ben"] if r.bet == "odds"]
            [('caster', 'backer', Fraction(0, 1)), ('setter', 'layer', Fraction(0, 1))]
        """
        from .commands.analyse import seat_plans
        from .results import Seats
        from .solve.seats import seats

        plans = _plans(self.ruleset, plans)
        if players is not None:
            players = arguments.players(players)
        chosen, names = seat_plans(self.ruleset, plans, players, _money(stake, "stake"))
        bets = sorted({bet for plan in chosen.values() for bet in plan})
        return Seats.of(seats(self._table_machine(bets), chosen, _money(stake, "stake"), names,
                              policy)).shown_by(SHOWN)

    def seats_over_games(self, players, games: int, plans=None, stake=1, policy: str = "optimal") -> dict:
        """Each seat's exact net over `games` games at a table of `players` (`analyse --players
        … --bet SEAT:NAME=AMOUNT --games N`): {seat: `hazard_dsl.solve.distribution.SessionNet`}
        with `.outcomes`, `.ahead`, `.even`, `.behind`, `.quantiles()`, `.coin_in` (what the
        seat puts at risk) and `.return_on_coin_in`; `plans` as for `seats`."""
        from .commands.analyse import nets_over_games, seat_plans
        from .solve.seats import seats

        plans = _plans(self.ruleset, plans or {})
        chosen, names = seat_plans(self.ruleset, plans, arguments.players(players), _money(stake, "stake"))
        machine = self._table_machine(sorted({bet for plan in chosen.values() for bet in plan}))
        figures = seats(machine, chosen, _money(stake, "stake"), names, policy)
        return nets_over_games(figures, machine, None, _whole("games", games, 1, 1_000_000), policy)

    def table_ruin(self, players, bankroll, goal, plans=None, stake=1, policy: str = "optimal"):
        """Each seat of a table of `players` from `bankroll` until its purse reaches `goal` or
        can no longer play a game as its plan says (`analyse --players … --bet SEAT:NAME=AMOUNT
        --bankroll B --goal G`; `hazard_dsl.TableRuin`): `.seats[seat]` with `.reach_goal`,
        `.ruin`, `.games`, `.final_purse`, exact; `.why_not[seat]` where that is not solved.
        `plans` as for `seats`, each setter staking `stake`.

            >>> t = hazard_dsl.load("cotton").table_ruin(["Ann", "Ben", "Cat"], 5, 10, {"Ben": {"side": 1}})
            >>> t.seats["Cat"].takes, f"{float(t.seats['Ben'].reach_goal):.4f}"
            ((('Ben', 'side'),), '0.3212')
        """
        from .commands.analyse import seat_plans
        from .results import TableRuin
        from .solve.seats import SeatError, table_ruin

        plans = _plans(self.ruleset, {} if plans is None else plans)
        chosen, names = seat_plans(self.ruleset, plans, arguments.players(players), _money(stake, "stake"))
        bankroll, goal, stake = _money(bankroll, "bankroll"), _money(goal, "goal"), _money(stake, "stake")
        if not bankroll < goal or stake <= 0:
            raise ArgumentError(Arg("bankroll"), f"must be less than the goal ({goal}) and stake more than 0")
        bets = sorted({bet for plan in chosen.values() for bet in plan})
        try:
            return TableRuin.of(table_ruin(self._table_machine(bets), chosen, names, bankroll, goal, stake,
                                           policy)).shown_by(SHOWN)
        except SeatError as exc:
            if isinstance(exc, ArgumentError):
                raise
            raise ValueError(str(exc)) from None

    def ruin(self, bankroll, goal, stake=1, policy: str = "optimal"):
        """A caster staking `stake` at even money every game from `bankroll` until the purse
        reaches `goal` or cannot stake (`analyse --bankroll --goal --stake`; `hazard_dsl.Ruin`):
        `.reach_goal`, `.ruin`, `.games`, exact. Amounts as for bets: 10, "12.50", Fraction(21, 2)."""
        from .results import Ruin
        from .solve.session import ruin

        bankroll, goal, stake = _money(bankroll, "bankroll"), _money(goal, "goal"), _money(stake, "stake")
        if not stake <= bankroll < goal:
            raise ArgumentError(Arg("bankroll"), f"must be at least the stake ({stake}) and less than the goal ({goal}), "
                             f"not {bankroll}")
        return Ruin.of(ruin(self.machine, bankroll, goal, stake, policy)).shown_by(SHOWN)

    # ------------------------------------------------------------------ risk (analyse --spread, --games, --tail)

    def _bet_table(self, policy: str):
        from .solve.analysis import analyse

        analysis = analyse(self.machine, policy)
        if analysis.bet_table is None:
            raise ArgumentError(Arg("bets"), f"{self.name} declares no bets")
        return analysis

    def spread(self, bets=None, policy: str = "optimal"):
        """The spread of one decision (`analyse --spread`, `--bet`; `hazard_dsl.solve.spread.Spread`):
        with `bets={"pass": 1, "odds": "3-4-5x"}`, of those bets made together; with a bet's name
        (`"dont_pass"`), of that bet per unit; without, {bet: Spread} for every bet. A Spread has
        `.outcomes` ({net: chance}), `.variance`, `.sd_exact` ("√5920646/495"), `.sd`, `.skew`,
        `.hit`, `.edge_per_made`, `.edge_per_resolved`, `.edge_per_throw`, `.edge` (per unit of
        total action), all exact but the SD's decimal and the skew."""
        from .solve.spread import bet_spread, plan_spread

        analysis = self._bet_table(policy)
        table = analysis.bet_table
        if isinstance(bets, str):
            if bets not in analysis.bets:
                from .diagnostics import did_you_mean

                raise ArgumentError(Arg("bets", value=bets), f"is not a bet of {self.name}"
                                                             f"{did_you_mean(bets, analysis.bets)}",
                                    offered=analysis.bets)
            return bet_spread(table, bets)
        orders = _orders(self.ruleset, bets)
        if not orders:
            return {name: bet_spread(table, name) for name in analysis.bets}
        _made(self.machine, orders)
        return plan_spread(table, [(name, amount) for name, amount, _ in orders])

    def session_net(self, games: int | None = None, bets=None, stop_loss=None, stop_win=None,
                    policy: str = "optimal", simulate: int | None = None, seed: int = 0):
        """The exact distribution of a session's net (`analyse --games N --stop-loss L --stop-win W`;
        `hazard_dsl.solve.distribution.SessionNet`): `games` decisions of the `bets` plan (without
        bets, the caster staking 1 at even money), stopping once it has lost `stop_loss` or won
        `stop_win`; without `games`, until one of the two. `.ahead`, `.even`, `.behind`,
        `.outcomes`, `.quantiles()`, `.expected_games`, `.coin_in`, `.return_on_coin_in`. With
        `simulate=M` (`--simulate M`), `.simulated` sets M simulated sessions from `seed` beside
        them (`hazard_dsl.simulate.risk.Simulated`: `.figures[name]` has `.exact`, `.mean`,
        `.se`, `.z`)."""
        from .solve.distribution import even_money, session

        if games is not None:
            games = _whole("games", games, 1, 1_000_000)
        loss = _money(stop_loss, "stop_loss") if stop_loss is not None else None
        win = _money(stop_win, "stop_win") if stop_win is not None else None
        from .commands.analyse import check_risk_settings
        from .commands.errors import SettingError

        check_risk_settings(games, loss, win, None)  # one stop without games: as analyse words it
        if simulate is not None:  # its size judged before the exact work, as analyse judges it
            from .commands.analyse import check_drawn

            check_drawn(simulate, games, loss, win)
        if games is None and loss is None and win is None:
            raise SettingError("games", "or both stops are needed: a session ends after N games or at a stop")
        plan = None
        if bets:
            plan = self.spread(bets, policy)
            outcomes, staked = plan.outcomes, plan.staked
        else:
            from .solve.session import game_endings

            game = game_endings(self.machine, policy)
            given = "games" if games is not None else "stop_loss" if loss is not None else "stop_win"
            outcomes, staked = even_money(game.chance("win"), game.chance("lose"), given,
                                          self.machine.ruleset.words.caster), Fraction(1)
        net = session(outcomes, games, loss, win, staked)
        if simulate is None:
            return net
        from .commands.analyse import simulated_beside

        return simulated_beside(self.machine, None, simulate, _whole("seed", seed, 0, 2 ** 64 - 1), session=net,
                                plan=plan, policy=policy)[0]

    def best_stake(self, goal, bankroll=None, limit=None, side: str = "caster", policy: str = "optimal"):
        """The stake by purse of greatest chance to reach `goal` before ruin, on the caster's (or
        with `side="setter"`, the setter's) game at even money (`analyse --stake best --goal G`;
        `hazard_dsl.solve.policy.BestStake`): `.stakes[purse]`, `.chance(purse)` exactly, and
        `.flat[purse]`, the chance staking 1 every game; stakes 1 to `limit` (default: the purse).
        `bankroll`, when given, is checked as the command line checks it (less than the goal).

            >>> f"{hazard_dsl.load('cotton').best_stake(20).chance(10)}"
            '1979/4032'
        """
        from types import SimpleNamespace

        from .commands import staking
        from .solve.analysis import analyse

        asked = SimpleNamespace(stake="best", bet=(), players=None, strategy=None, cap=None, risk=None,
                                simulate=None, seed=None, games=None, side=side,
                                bankroll=None if bankroll is None else _money(bankroll, "bankroll"),
                                goal=_money(goal, "goal"), limit=None if limit is None else _money(limit, "limit"))
        staking.check(asked)
        return staking.figures(asked, analyse(self.machine, policy), self.ruleset).best

    def table_strategy(self, players, bankroll, goal, strategy: str, stake=1, cap=None, policy: str = "optimal"):
        """Each seat of a table of `players` staking by `strategy` (a progression from a first
        stake of `stake`, capped at `cap`, or "best": the best stake 1 to `stake` by whole purse)
        from `bankroll` until its purse reaches `goal` or it is ruined, casting and setting as
        the box passes, the other seats staking `stake` flat (`analyse --players … --bankroll
        --goal --strategy`; `hazard_dsl.solve.table_strategy.TableStrategy`): {seat: with
        `.reach_goal`, `.ruin`, `.games`, `.games_casting`, `.staked` (coin-in), `.net`, `.nets`
        ({net: chance})}, exact. A seat not solved exactly is a ValueError saying why.

            >>> t = hazard_dsl.load("cotton").table_strategy(["Ann", "Ben"], 3, 6, "martingale")
            >>> sorted(t), t["Ann"].reach_goal + t["Ann"].ruin
            (['Ann', 'Ben'], Fraction(1, 1))
        """
        from types import SimpleNamespace

        from .commands import staking
        from .commands.errors import CommandError

        from .commands.sessions import checked_players

        if not isinstance(strategy, str):  # told in the API's words, not Python's
            raise arguments.WrongType(Arg("strategy"), f"is the name of a progression or 'best', such as "
                                                       f"'martingale', not {strategy!r}")
        least = 1 if self.ruleset.table.against == "bank" else 2
        asked = SimpleNamespace(stake=_money(stake, "stake"), bet=(),
                                players=checked_players(arguments.players(players), least),
                                strategy=strategy, cap=None if cap is None else _money(cap, "cap"), risk=None,
                                simulate=None, seed=None, games=None, side="caster", limit=None, policy=policy,
                                bankroll=_money(bankroll, "bankroll"), goal=_money(goal, "goal"))
        staking.check(asked)
        try:
            found = staking.at_table(asked, self.machine).table
        except CommandError as exc:
            if isinstance(exc, ArgumentError):  # names its keyword
                raise
            raise ValueError(str(exc)) from None
        for seat, (run, why) in found.items():
            if run is None:
                raise ValueError(f"{seat}: {why}")
        return {seat: run for seat, (run, _) in found.items()}

    def tail(self, throws: int, hand: bool = False, policy: str = "optimal", simulate: int | None = None,
             seed: int = 0):
        """P(a game — or with `hand=True`, a hand — lasts `throws` throws or more), exactly, as
        the command line's `analyse --tail N` (a game) and `--hand --tail N` (a hand) give it
        (`hazard_dsl.solve.tails.Lengths`: `.at_least(throws)`). With
        `simulate=M`, `.simulated` sets M simulated hands (or games) from `seed` beside it, as
        for `session_net`."""
        from .solve.tails import lengths

        found = lengths(self.machine, _whole("throws", throws, 1, 1_000_000), hand=hand, policy=policy)
        if simulate is None:
            return found
        from .commands.analyse import simulated_beside

        return simulated_beside(self.machine, None, simulate, _whole("seed", seed, 0, 2 ** 64 - 1), tail=found,
                                policy=policy)[1]

    def table(self, players, purse=20, rounds: int = 1, seed: int = 0, dice: str | None = None,
              policy: str = "optimal", bets=None):
        """A session at the table as a state machine (`hazard_dsl.play.table.Table`, docs/table.md):
        `players` in order round the table, each with `purse`; the box goes round `rounds` times.
        `.waiting` is what it waits for (who must act, the legal actions), `.apply(action)` takes
        one action and returns the events it caused, `.play(strategy)` goes on to the end,
        `.wagers` the wagers up (who backs and who lays what, each one's risk, what a win pays),
        `.to_json()` where it stands (with the wagers), and `.log` is the actions and events. Its dice are seeded by `seed`, or a tape (`dice="3-4
        6-6"`); a throw may also give its own dice. `bets`: the bets besides the stake the people
        may make at the table (default: every one the rules declare)."""
        from .commands.dice import load_dice
        from .play.dice import DiceTape
        from .play.table import Table

        settings = _table_settings(self.ruleset, players, purse, 1, "flat", rounds)
        _whole("seed", seed, 0, 2 ** 64 - 1)
        stake = self.ruleset.table.stake
        offered = [b for b in self.ruleset.bets if b != stake] if bets is None else _names("bets", bets)
        for name in offered:
            _one_of("bets", name, [b for b in self.ruleset.bets if b != stake], f"no bet {name!r} at this table")
        machine = self._table_machine(offered)
        tape = DiceTape.parse(dice, machine) if dice is not None else None
        if tape is not None:
            load_dice(tape, machine)
        table = Table(machine, settings["players"], settings["purse"], tape, settings["rounds"], seed, policy,
                      bets=offered)
        table.chooser  # the policy solved now: an unknown one is refused here, not at the first choice
        return table

    def session(self, players, purse=20, stake=1, strategy: str = "flat", rounds: int = 1, seed: int = 0,
                dice: str | None = None, policy: str = "optimal", cap=None) -> list[dict]:
        """A whole session at the table under a strategy (`run --players`): its events, as `--json`
        prints them. The same as `table(...)` played to the end by `table.strategy(strategy, stake)`.
        `cap`: a progression's largest stake, past which it starts again (`run --cap`)."""
        _table_settings(self.ruleset, players, purse, stake, strategy, rounds)
        table = self.table(players, purse, rounds, seed, dice, policy, bets=())
        if cap is None:
            table.play(table.strategy(strategy, _money(stake, "stake")))
        else:
            from .play.strategies import strategy as staking

            table.play(staking(strategy, _money(stake, "stake"), table.chooser, cap=_money(cap, "cap")))
        return table.events

    def _table_machine(self, bets=()):
        """The machine of a session at the table: the game with its table's stake bet and `bets`."""
        from .cache import compile_ruleset

        stake = self.ruleset.table.stake
        return compile_ruleset(self.ruleset, self._chosen, ([stake] if stake else []) + list(bets),
                               explorations=self._explorations())

    def simulate(self, games: int | None = None, seed: int = 0, bets: dict | None = None, players=None, purse=20,
                 stake=1, strategy: str = "flat", rounds: int = 1, policy: str = "optimal", workers: int = 1,
                 engine: str = "numpy", goal=None, cap=None):
        """Monte Carlo on the compiled tables (`hazard-dsl simulate`), each figure beside its exact
        value: a `hazard_dsl.Simulation` of `games` games (default 1,000,000) with win / lose /
        push and each label as an `Estimate` (`.rate`, `.stderr`, `.exact`, `.z`), throws per
        game, and with `bets={"pass": 10, "odds": "3-4-5x"}` each bet's net per unit staked.
        With `players=["Ann", "Ben"]`: a `hazard_dsl.TableSimulation` of `games` sessions at the
        table (default 1,000), each seat's purse at the end (`purse`, `stake`, `strategy`,
        `rounds` as for `session`). The same `seed` gives the same numbers, whatever `workers`.
        `engine="compiled"` plays games, or sessions, on the compiled kernels (`pip install
        'hazard-dsl[fast]'`; their own random numbers: the same seed, the same numbers with the same
        engine).

        With `players` and `goal`: a `hazard_dsl.results.GoalSimulation` of `games` sessions of
        each seat in turn from `purse` until its purse reaches `goal` or it is ruined (`simulate
        --players … --goal`), staking by `strategy`: "flat" (`stake` a game), "best" (the
        computed best stake, 1 to `stake` whole units) or a progression from a first stake of
        `stake` ("martingale", "paroli", "dalembert", "labouchere", "fibonacci"), capped at
        `cap`; each seat's `.reached`, `.games` and `.purse` beside the exact chain where there
        is one. `rounds` is not taken with a goal, nor `workers` past 1.

            >>> run = hazard_dsl.load("craps").simulate(players=["Ann"], purse=10, goal=20,
            ...                                         strategy="martingale", cap=8, games=200, seed=1)
            >>> round(float(run.seats["Ann"].reached.exact), 4), abs(run.seats["Ann"].reached.z) < 4
            (0.4771, True)

        (`bets` as a list of "NAME=AMOUNT" strings is the old form: still taken, with a
        DeprecationWarning.)"""
        from .commands.requests import SimulateRequest
        from .results import Simulation, TableSimulation

        simulator = _simulator()
        _whole("seed", seed, 0, 2 ** 64 - 1)
        _whole("workers", workers, 1, 1024)
        if engine not in simulator.ENGINES:
            raise ArgumentError(Arg("engine", value=engine), f": one of {', '.join(map(repr, simulator.ENGINES))}")
        if engine == "compiled":
            from .simulate.compiled import available

            if not available():
                raise ArgumentError(Arg("engine", value="compiled"), "needs Numba: pip install 'hazard-dsl[fast]'")
        # the arguments checked here, in the API's words; then the request the command line
        # builds from its flags, run by the same function (commands.simulate.simulate_request),
        # on this variant's own compiled machine
        fields = dict(ruleset=str(self.ruleset.file or self.name), options=dict(self._chosen), policy=policy,
                      seed=seed, workers=workers, engine=engine)
        if goal is not None or cap is not None:
            return self._to_goal(fields, games, players, purse, stake, strategy, rounds, bets, goal, cap)
        if players is not None:
            if bets:
                raise ArgumentError(Arg("bets", value=bets), "is for games without ", Arg("players"),
                                    ": sessions at the table stake by ", Arg("strategy"), " and ", Arg("stake"))
            count = simulator.DEFAULT_SESSIONS if games is None else _whole("games", games, 1, simulator.MAX_GAMES)
            settings = _table_settings(self.ruleset, players, purse, stake, strategy, rounds)
            from .simulate.sessions import VECTORISED

            if strategy not in VECTORISED:  # a progression: each seat's history, played move by move
                raise ArgumentError(Arg("strategy", value=strategy), f": simulate() plays sessions at the table "
                                                                     f"with {', '.join(VECTORISED)}; session() "
                                                                     f"plays it at the table")
            machine = self._table_machine()  # (with the table's stake bet, as the request asks)
            if machine.passing is None or not machine.passing.ever_passes:
                raise ArgumentError(Arg("players"), f"{self.name}: the dice never pass (no passing: rule that can "
                                                    f"apply), so a round of the table never ends")
            request = SimulateRequest(**fields, players=tuple(settings["players"]), purse=settings["purse"],
                                      stake=settings["stake"], strategy=settings["strategy"],
                                      rounds=settings["rounds"], games=count)
            result = simulator.simulate_request(request, self.ruleset, compiled=self._compiled(machine))
            return TableSimulation(result.report).shown_by(SHOWN)
        count = simulator.DEFAULT_GAMES if games is None else _whole("games", games, 1, simulator.MAX_GAMES)
        orders = _orders(self.ruleset, _old_bets(bets))
        machine = self._machine_with([name for name, _, _ in orders])
        _made(machine, orders)
        request = SimulateRequest(**fields, games=count, bets=tuple(_bet_orders(orders)))
        return Simulation(simulator.simulate_request(request, self.ruleset,
                                                     compiled=self._compiled(machine)).report).shown_by(SHOWN)

    def _to_goal(self, fields: dict, games, players, purse, stake, strategy: str, rounds: int, bets, goal, cap):
        """`simulate(goal=…, cap=…)`: the request `simulate --players … --goal` builds, checked in
        the API's words (a keyword the sessions to a goal do not take is refused, naming it)."""
        from .commands import simulate as simulator
        from .commands.notes import said
        from .commands.requests import SimulateRequest
        from .errors import PYTHON
        from .results import GoalSimulation

        if players is None:
            raise ArgumentError(Arg("goal" if goal is not None else "cap"), "is for sessions at the table: give ",
                                Arg("players", value=["Ann", "Ben", "Cat"]), " too")
        if bets:
            raise ArgumentError(Arg("bets", value=bets), "is for games without ", Arg("players"),
                                ": sessions to a goal stake by ", Arg("strategy"), " and ", Arg("stake"))
        if goal is None:  # cap alone: the request's own refusal names cap, goal and strategy
            goal_amount = None
        else:
            goal_amount = _money(goal, "goal")
        cap_amount = None if cap is None else _money(cap, "cap")
        count = simulator.DEFAULT_ROUNDS if games is None else _whole("games", games, 1,
                                                                       simulator.MAX_PLANNED_SESSIONS)
        settings = _table_settings(self.ruleset, players, purse, stake, strategy, rounds)
        if rounds != 1:  # a session to a goal ends there or at ruin, never after rounds
            raise ArgumentError(Arg("rounds", value=rounds), ": with ", Arg("goal"), " a session ends at the goal "
                                                             "or at ruin, not after a number of rounds")
        # sessions to a goal are played in this process: no workers, no compiled engine
        fields = dict(fields, workers=None if fields["workers"] == 1 else fields["workers"],
                      engine="compiled" if fields["engine"] == "compiled" else None)
        request = SimulateRequest(**fields, players=tuple(settings["players"]), purse=settings["purse"],
                                  stake=settings["stake"], strategy=settings["strategy"], games=count,
                                  goal=goal_amount, cap=cap_amount)
        result = simulator.simulate_request(request, self.ruleset)
        report = dict(result.report, seats={p: {k: said(v, PYTHON) for k, v in row.items()}
                                            for p, row in result.report["seats"].items()})
        return GoalSimulation(report, result.seed, self.ruleset.money_units).shown_by(SHOWN)

    def _machine_with(self, bets):
        """The game's machine with these bets compiled (held by this variant's explorations)."""
        from .cache import compile_ruleset

        return compile_ruleset(self.ruleset, self._chosen, list(bets), explorations=self._explorations())

    def _compiled(self, machine):
        """How a request compiles this variant (`simulate_request`'s `compiled`): `machine`,
        already compiled to check the arguments, when it carries the bets asked for."""
        have = tuple(machine.bets)
        return lambda bets: machine if tuple(bets) == have else self._machine_with(bets)

    def compare(self, *others, policy: str = "optimal"):
        """This variant beside others (variants, names or paths): a `hazard_dsl.Comparison` of
        each one's figures (`.analyses`) and the throws that do something different
        (`.differences`); `.to_json()` is what `hazard-dsl compare --json` prints."""
        from .render.comparison import differences
        from .results import Comparison

        variants = [self] + [o if isinstance(o, Variant) else load(o) for o in others]
        analyses = [v.analyse(policy) for v in variants]
        return Comparison([_label(v) for v in variants], variants, analyses,
                          [{"base": self.name, "other": v.name, "rows": differences(self.machine, v.machine)}
                           for v in variants[1:]]).shown_by(SHOWN)


class Shown:
    """How the API's results are shown (`hazard_dsl.results`, which sits below render and so
    imports no renderer): the render functions by name, handed to each result the API makes.
    One instance, `SHOWN`; a result pickles with it by reference."""

    def get(self, name: str):
        from .render import comparison, phrases, report, seats, simulation, tables

        return {"render": tables.render, "stake_edge": phrases.stake_edge, "analysis_json": report.analysis_json,
                "analysis_header": report.analysis_header, "analysis_tables": report.analysis_tables,
                "hand_json": seats.hand_json, "hand_table": seats.hand_table, "seats_json": seats.seats_json,
                "seats_tables": seats.seats_tables, "table_ruin_json": seats.table_ruin_json,
                "table_ruin_table": seats.table_ruin_table, "ruin_json": seats.ruin_json,
                "ruin_table": seats.ruin_table, "comparison": comparison.comparison,
                "games_tables": simulation.games_tables, "sessions_tables": simulation.sessions_tables,
                "goal_tables": _goal_tables}[name]


def _goal_tables(report: dict, units: str) -> tuple:
    """A GoalSimulation's table: with a strategy, `simulate --goal`'s (render.policy), its notes
    in its caption; with flat stakes, each seat's chance of the goal and games."""
    from .render.policy import strategy_goal_table
    from .render.tables import Table

    if "strategy" in report:
        # the caption in the API's words: its keyword, and the result's exact figures
        t, notes = strategy_goal_table(report, units, stake="stake", exact=".to_json()")
    else:
        t = Table(f"Each seat from {report['bankroll']} to {report['goal']} {units}: {report['sessions']:,} sessions "
                  f"each, beside the exact figures", ["seat", "reaches the goal", "exact", "z", "games", "exact", "z"],
                  align=["left", "right", "right", "right", "right", "right", "right"])
        notes = []

        def num(x, how):
            return "—" if x is None else format(float(x), how)

        for p, row in report["seats"].items():
            t.add(p, num(row["reached"], ".2%"), num(row["exact_reach"], ".2%"), num(row["z_reach"], "+.2f"),
                  num(row["games"], ".2f"), num(row["exact_games"], ".2f"), num(row["z_games"], "+.2f"))
            if row["why_no_exact"]:
                notes.append(f"{p}: no exact figure: {row['why_no_exact']}.")
    if notes:
        t.caption = " ".join(filter(None, [t.caption, *notes]))
    return None, [t]


SHOWN = Shown()


def _plans(ruleset, given) -> dict:
    """Seats' plans {seat: {bet: amount}} with exact amounts: an int, a Fraction, a Decimal, or
    a string in the file's unit or the ruleset's coin ("2s 6d"), each named as the caller gave
    it (`plans['Ben']['odds']`) when it is no amount of money."""
    from .render.words import MoneyText, money_examples, money_typed

    out: dict = {}
    for seat, plan in arguments.plans(given).items():
        out[seat] = {}
        for bet, amount in plan.items():
            what = Arg("plans", bet, seat=seat)
            if not isinstance(amount, str):  # a number: exact as it is, not written out and read back
                out[seat][bet] = _exact(amount, what)
                continue
            try:  # a text: in the file's unit or the ruleset's coin
                out[seat][bet] = money_typed(ruleset, amount.strip())
            except MoneyText:
                raise ArgumentError(what, f"{amount!r} is not an amount of money (write it as "
                                          f"{money_examples(ruleset.table)})") from None
    return out


def _label(variant: Variant) -> str:
    """A variant's name with the options chosen for it, to tell two of one ruleset apart."""
    chosen = ", ".join(f"{k}={v}" for k, v in variant._chosen.items())
    return f"{variant.name} ({chosen})" if chosen else variant.name


def load(name_or_path: str | Path, **options) -> Variant:
    """A built-in ruleset by name (`"cotton"`) or a rule file by path, with option values as
    keywords (`main="called"`), checked as `hazard-dsl check` checks it. Raises `RulesetError`
    listing every problem check finds, when any is an error (its warnings are the variant's
    `.warnings`), `ValueError` for an unknown ruleset, option or value, and `TypeError` for a
    name that is neither a str nor a path.

        >>> hazard_dsl.load("petty")
        <Variant 'Petty Hazard (Barker, 2003)'>
    """
    from .cache import check_ruleset
    from .diagnostics import did_you_mean
    from .parse.files import builtin_names, not_a_file, resolve

    import os

    if not isinstance(name_or_path, (str, os.PathLike)):  # load(None) looked for a ruleset named 'None'
        raise TypeError(f"load takes a built-in ruleset's name or a rule file's path, as a str or a Path, "
                        f"not {type(name_or_path).__name__}")
    path = resolve(str(name_or_path))
    if path is None:
        there = not_a_file(Path(name_or_path))
        if there is not None:  # a folder, a device, a pipe: there, but no rule file
            raise ValueError(f"{str(name_or_path)!r} is {there}, not a rule file")
        raise ValueError(f"no ruleset file or built-in ruleset named {str(name_or_path)!r}"
                         f"{did_you_mean(name_or_path, builtin_names())}")
    return _checked(*check_ruleset(path), options)


def load_text(text: str, /, name: str = "<text>", **options) -> Variant:
    """A rule file held in a string, checked as `load` checks a file; `name` is what its
    messages call it (`my-variant:4:13: undefined name 'totl'`). Its `extends:` names a built-in
    ruleset only (a string has no folder of its own to find files beside; load a file by its
    path to extend another file). Option values as keywords, as for `load` (an option called
    `name` is given by `.with_options`).

        >>> petty = hazard_dsl.load_text("name: Mine\\nextends: petty\\n", name="mine")
        >>> petty.analyse().win
        Fraction(5629, 11088)
    """
    from .cache import check_ruleset

    if not isinstance(text, str):
        raise TypeError(f"load_text takes the rule file's text as a str, not {type(text).__name__}"
                        + (" (decode it: text.decode('utf-8'))" if isinstance(text, (bytes, bytearray)) else ""))
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise ArgumentError(Arg("name", value=name), ": the text's name is printable text, such as 'my-variant'")
    return _checked(*check_ruleset(text=text.removeprefix("\ufeff"), name=name), options)


def _checked(ruleset, found: list, options: dict) -> Variant:
    """The variant, when check found no error; else `RulesetError` with all it found."""
    if ruleset is None or any(d.is_error for d in found):
        raise RulesetError(found)
    _resolve_options(ruleset, options)
    return Variant(ruleset, options, [d for d in found if not d.is_error])


def _resolve_options(ruleset, options: dict) -> dict:
    from .compile.compiler import OptionError, resolve_options

    try:
        return resolve_options(ruleset, options)
    except OptionError as exc:
        if isinstance(exc, ArgumentError):  # naming the option: said in the caller's terms already
            raise
        raise ValueError(str(exc)) from None


__all__ = ["RulesetError", "Variant", "load", "load_text"]
