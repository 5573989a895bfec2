"""The Python API, for notebooks and scripts: the same pipeline the command runs.

    >>> import hazard_dsl
    >>> cotton = hazard_dsl.load("cotton")                 # a built-in name or a path
    >>> cotton.analyse().win
    Fraction(1979, 4032)
    >>> hazard_dsl.load("cotton", main="called").analyse().choices["main"]["best"]
    7
    >>> [r.dice for r in cotton.run(games=1, seed=1)]     # play records, as `run` narrates them
    >>> cotton.compare("petty")                           # {"rulesets": …, "differences": …}
    >>> cotton.simulate(games=10**6, seed=1)["win"]       # {"rate", "stderr", "exact", "z"}

Problems in a rule file raise `hazard_dsl.RulesetError`, whose `str()` lists each problem as
``file:line:col: message``; a bad option raises `ValueError` with "did you mean".
"""

from __future__ import annotations

from fractions import Fraction
from functools import cached_property
from pathlib import Path

from .diagnostics import RulesetError


class Variant:
    """A ruleset with chosen option values, compiled once: what `load` returns."""

    def __init__(self, ruleset, options: dict):
        self.ruleset = ruleset
        self._chosen = dict(options)

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
        return dict(self.machine.options)

    @property
    def bets(self) -> list[str]:
        return list(self.ruleset.bets)

    @cached_property
    def machine(self):
        """The compiled two-dice machine every figure is computed on."""
        from .compile.compiler import compile_ruleset

        return compile_ruleset(self.ruleset, self._chosen)

    def show(self) -> dict:
        """Description, sources, notes, options, bets and fees, as data (`hazard-dsl show --json`)."""
        from .render.show import show_json

        return show_json(self.ruleset)

    def with_options(self, **options) -> "Variant":
        """The same ruleset with other option values."""
        return load(self.ruleset.file, **dict(self._chosen, **options))

    # ------------------------------------------------------------------ figures

    def analyse(self, policy: str = "optimal", by: str | None = None, bets: dict | None = None):
        """Exact figures (`hazard_dsl.solve.analysis.Analysis`): `.win`, `.edge`, `.figures`
        (every label, expected throws), `.choices`, `.bets` (each bet's exact edge), `.fees`;
        `by="main"` splits them by a variable's final value; `bets={"pass": 10, "odds": "3-4-5x"}`
        adds the edge of those bets made together as `.combination`."""
        from .solve.analysis import analyse

        analysis = analyse(self.machine, policy, by)
        if bets:
            if analysis.bet_table is None:
                raise ValueError(f"{self.name} declares no bets")
            analysis.combination = analysis.bet_table.combination([(k, str(v)) for k, v in bets.items()])
        return analysis

    def run(self, games: int = 3, seed: int | None = 0, dice: str | None = None, bets: dict | None = None,
            bankroll: Fraction | int | str | None = None, policy: str = "optimal") -> list:
        """Play games and return their records (`ChoiceMade`, `Thrown`…, as `hazard-dsl run`
        narrates them). `seed` makes them reproducible; `dice="3-4 6-6"` replays given throws
        (then `games=None` plays as many as they allow); `bets={"pass": 10}` keeps bets up."""
        import numpy as np

        from .play.dice import DiceTape, RandomDice
        from .play.game import Chooser, play
        from .play.wagers import Order, Wagers
        from .solve.bets import parse_money
        from .solve.markov import Solver

        source = DiceTape.parse(dice) if dice is not None else RandomDice(seed, dice=self.machine.dice)
        solver = Solver(self.machine)
        solver.set_policy(policy)
        chooser = Chooser(solver, np.random.default_rng([seed or 0, 1]))
        wagers = None
        if bets or bankroll is not None:
            money = parse_money(str(bankroll), "bankroll") if bankroll is not None else None
            wagers = Wagers(self.machine, [Order.parse(f"{k}={v}") for k, v in (bets or {}).items()], money)
        return list(play(self.machine, source, chooser, games, wagers))

    def hand(self, policy: str = "optimal"):
        """The caster's hand, until the dice pass (`analyse --hand`): `.games`, `.throws`, `.wins`,
        `.net` per hand, exact."""
        from .solve.session import hand

        return hand(self.machine, policy)

    def ruin(self, bankroll, goal, stake=1, policy: str = "optimal"):
        """A caster staking `stake` at even money every game from `bankroll` until the purse
        reaches `goal` or cannot stake (`analyse --bankroll --goal --stake`): `.reach_goal`,
        `.ruin`, `.games`, exact."""
        from .solve.session import ruin

        return ruin(self.machine, Fraction(bankroll), Fraction(goal), Fraction(stake), policy)

    def session(self, players, purse=20, stake=1, strategy: str = "flat", rounds: int = 1, seed: int = 0,
                dice: str | None = None, policy: str = "optimal") -> list[dict]:
        """A session at the table (`run --players`): its events, as `--json` prints them."""
        import numpy as np

        from .compile.compiler import compile_ruleset
        from .play.dice import DiceTape, RandomDice
        from .play.game import Chooser
        from .play.session import Decider, Session
        from .solve.markov import Solver

        table = self.ruleset.table
        machine = compile_ruleset(self.ruleset, self._chosen, [table.stake] if table.stake else [])
        solver = Solver(machine)
        solver.set_policy(policy)
        decider = Decider(Fraction(stake), strategy, Chooser(solver, np.random.default_rng([seed, 1])))
        source = DiceTape.parse(dice) if dice is not None else RandomDice(seed, dice=machine.dice)
        return list(Session(machine, list(players), Fraction(purse), decider, source, rounds).events())

    def simulate(self, games: int = 1_000_000, seed: int = 0, bets=(), players=None, purse=20, stake=1,
                 strategy: str = "flat", rounds: int = 1, policy: str = "optimal", workers: int = 1) -> dict:
        """Monte Carlo on the compiled tables (`hazard-dsl simulate --json`): win / lose / push and
        each label with its standard error, exact value and z-score, throws per game,
        `bets=["pass=10", "odds=3-4-5x"]` each bet's net per unit staked; with `players`, that
        many sessions at the table (`games` counts them) and each seat's purse at the end."""
        from .compile.compiler import compile_ruleset
        from .commands import simulate as command

        if players is not None:
            table = self.ruleset.table
            machine = compile_ruleset(self.ruleset, self._chosen, [table.stake] if table.stake else [])
            return command.sessions(machine, list(players), games, seed, purse, stake, strategy, rounds, policy,
                                    workers)
        names = [text.partition("=")[0].strip() for text in bets]
        machine = compile_ruleset(self.ruleset, self._chosen, [n for n in names if n in self.ruleset.bets])
        return command.games(machine, games, seed, policy, list(bets), workers)

    def compare(self, *others, policy: str = "optimal") -> dict:
        """This variant beside others (variants, names or paths): each one's figures and the
        throws that do something different, as `hazard-dsl compare --json` gives them."""
        from .render.report import analysis_json, differences

        variants = [self] + [o if isinstance(o, Variant) else load(o) for o in others]
        return {
            "rulesets": [dict(analysis_json(v.analyse(policy)), name=v.name) for v in variants],
            "differences": [{"base": self.name, "other": v.name, "rows": differences(self.machine, v.machine)}
                            for v in variants[1:]],
        }


def load(name_or_path: str | Path, **options) -> Variant:
    """A built-in ruleset by name (`"cotton"`) or a rule file by path, with option values as
    keywords (`main="called"`). Raises `RulesetError` for a rule file with problems and
    `ValueError` for an unknown ruleset, option or value."""
    from .compile.compiler import OptionError, resolve_options
    from .diagnostics import did_you_mean
    from .parse.cache import read_ruleset
    from .parse.files import builtin_names, resolve

    path = resolve(str(name_or_path))
    if path is None:
        raise ValueError(f"no ruleset file or built-in ruleset named {str(name_or_path)!r}"
                         f"{did_you_mean(name_or_path, builtin_names())}")
    ruleset = read_ruleset(path)
    try:
        resolve_options(ruleset, options)
    except OptionError as exc:
        raise ValueError(str(exc)) from None
    return Variant(ruleset, options)


__all__ = ["RulesetError", "Variant", "load"]
