"""What the Python API returns (`hazard_dsl.api`): results as objects with attributes,
`.to_json()` (the dict `--json` prints), and tables for people in every form — `print()` gives
the command line's text, a notebook shows `_repr_html_` (or `_repr_markdown_`).

The engine's own results (`solve.analysis.Analysis`, `solve.session.Hand` and `Ruin`) know
nothing of printing: the solver does not import the renderers. This module sits below render
(parse < … < solve | simulate | play < results < render < … < the API, as the import contracts
in pyproject.toml say): it imports no renderer. A result is shown by the render functions the
API hands it when it makes it (`hazard_dsl.api.SHOWN`), so the rendering of results is reached
from above, never by the core. The classes here are thin subclasses of the engine's results that
add the displays; every attribute of the engine's result is there as it was, and each pickles as itself (a notebook hands results to worker processes and Dask). A simulation's report is
a dict in the engine (`simulate.report`): `Simulation` and `TableSimulation` read it into
attributes, an `Estimate` for each figure estimated.

Text from a rule file reaches these displays escaped as the command line escapes it
(`render.escape`, through `render.tables.render`): a ruleset named `<script>` is shown as typed,
in HTML and Markdown alike, and a `|` in a label cannot open a table cell.
"""

from __future__ import annotations

import copy
import warnings
from fractions import Fraction

from .records import field, fields, record
from .solve.analysis import Analysis as _Analysis
from .solve.seats import Seats as _Seats
from .solve.seats import TableRuin as _TableRuin
from .solve.session import Hand as _Hand, Ruin as _Ruin


class _Shown:
    """The displays every result shares, made from `_tables()`: (a header or None, the
    `render.tables.Table`s the command line prints)."""

    def _tables(self) -> tuple:
        raise NotImplementedError

    # How this result is shown: the render layer's functions, given by the API that made it
    # (`hazard_dsl.api.SHOWN`, its `get(name)`), so that this module, below render, never imports
    # it; pickled with the result, by reference.
    _shown = None

    def shown_by(self, shown) -> "_Shown":
        """This result, shown by `shown` (its `get(name)` gives a render function); returns it."""
        object.__setattr__(self, "_shown", shown)  # (a frozen record's fields stay as they are)
        return self

    def _show(self, name: str):
        if self._shown is None:
            raise TypeError(f"this {type(self).__name__} was made without the functions that show it: the API "
                            f"(hazard_dsl.api) makes results with them")
        return self._shown.get(name)

    def _render(self, fmt: str) -> str:
        header, tables = self._tables()
        return self._show("render")(tables, fmt, header)

    def __str__(self) -> str:
        return self._render("text")

    def _repr_markdown_(self) -> str:
        return self._render("markdown")

    def _repr_html_(self) -> str:
        return self._render("html")

    def to_json(self) -> dict:
        """The result as `--json` prints it: fractions as exact strings, ready for json.dumps."""
        raise NotImplementedError


class _Report(_Shown):
    """A result read from a report dict; `result["key"]`, the old way to read it, still works
    (with a DeprecationWarning)."""

    _report: dict

    def to_json(self) -> dict:
        return copy.deepcopy(self._report)

    def __getitem__(self, key: str):
        warnings.warn(f"{type(self).__name__}[{key!r}] is the old way to read a result: use its attributes, or "
                      f".to_json()[{key!r}]", DeprecationWarning, stacklevel=2)
        return self.to_json()[key]


def _fraction(text) -> Fraction | None:
    return None if text is None else Fraction(text)


# --------------------------------------------------------------------------- exact results


class Analysis(_Shown, _Analysis):
    """Exact figures of a game (`Variant.analyse`): `.win`, `.edge`, `.figures` (`.lose`,
    `.push`, `.labels`, `.expected_throws`), `.throws` (the chance of each number of throws),
    `.choices`, `.bets`, `.fees`, `.combination`, and the rest of `solve.analysis.Analysis`."""

    @classmethod
    def of(cls, analysis: _Analysis) -> "Analysis":
        return cls(**{name: getattr(analysis, name) for name in fields(analysis)})

    @property
    def edge_per_stake_laid(self):
        """The edge money meets: the stake bet's, per stake laid (`.edge` is P(lose) − P(win) per
        game, which counts games that end before any stake is laid)."""
        return self._show("stake_edge")(self)

    def to_json(self) -> dict:
        return self._show("analysis_json")(self)

    def _tables(self) -> tuple:
        return self._show("analysis_header")(self), self._show("analysis_tables")(self)


class Hand(_Shown, _Hand):
    """The caster's hand, until the dice pass (`Variant.hand`): `.games`, `.throws`, `.wins`,
    `.net` (staking 1 a game at even money) per hand, exact; `.rule`, when the dice pass."""

    @classmethod
    def of(cls, hand: _Hand) -> "Hand":
        return cls(**{name: getattr(hand, name) for name in fields(hand)})

    def to_json(self) -> dict:
        return self._show("hand_json")(self)

    def _tables(self) -> tuple:
        return None, [self._show("hand_table")(self)]


class Seats(_Shown, _Seats):
    """Each seat's figures at the table (`Variant.seats`): `.rows[seat]`, each bet of its plan as
    caster and as setter, its stake, the fees it pays, the bets of others it takes (`.per_game`,
    `.per_hand`, `.edge`; `.per_throw(row)`); `.per_round` with players, exact."""

    @classmethod
    def of(cls, figures: _Seats) -> "Seats":
        return cls(**{name: getattr(figures, name) for name in fields(figures)})

    def to_json(self) -> dict:
        return self._show("seats_json")(self)

    def _tables(self) -> tuple:
        return None, self._show("seats_tables")(self)


class TableRuin(_Shown, _TableRuin):
    """Each seat of a table from a bankroll to a goal (`Variant.table_ruin`): `.seats[seat]`
    (`.reach_goal`, `.ruin`, `.games`, `.final_purse`, `.need`, `.takes`), `.why_not[seat]`."""

    @classmethod
    def of(cls, figures: _TableRuin) -> "TableRuin":
        return cls(**{name: getattr(figures, name) for name in fields(figures)})

    def to_json(self) -> dict:
        return self._show("table_ruin_json")(self)

    def _tables(self) -> tuple:
        return None, [self._show("table_ruin_table")(self)]


class Ruin(_Shown, _Ruin):
    """From a bankroll to a goal or ruin, staking at even money (`Variant.ruin`): `.reach_goal`,
    `.ruin`, `.games` (expected), exact."""

    @classmethod
    def of(cls, ruin: _Ruin) -> "Ruin":
        return cls(**{name: getattr(ruin, name) for name in fields(ruin)})

    def to_json(self) -> dict:
        return self._show("ruin_json")(self)

    def _tables(self) -> tuple:
        return None, [self._show("ruin_table")(self)]


class Comparison(_Report):
    """Variants side by side (`Variant.compare`): `.variants`, `.analyses` (an `Analysis` each,
    in the same order), `.labels` (each one's name, with the options chosen for it), and
    `.differences`: for each variant after the first, {"base", "other", "rows"}, the throws
    that do something different in which state (rows None: their states do not match)."""

    def __init__(self, labels: list, variants: list, analyses: list, differences: list):
        self.labels = list(labels)
        self.variants = list(variants)
        self.analyses = list(analyses)
        self.differences = list(differences)

    @property
    def _report(self) -> dict:
        analysis_json = self._show("analysis_json")
        return {"rulesets": [dict(analysis_json(a), name=v.name) for v, a in zip(self.variants, self.analyses)],
                "differences": self.differences}

    def __repr__(self) -> str:
        return f"<Comparison of {', '.join(map(repr, self.labels))}>"

    def _tables(self) -> tuple:
        return self._show("comparison")(list(zip(self.labels, self.analyses)), [v.machine for v in self.variants])


# --------------------------------------------------------------------------- simulated results


@record(frozen=True, repr=False)
class Estimate:
    """A figure estimated by simulation: `.value` (a rate, a mean; also `.rate`), its standard
    error `.stderr`, the exact figure `.exact` (a Fraction, or None where there is none) and the
    z-score `.z`, (value − exact) / stderr."""

    value: float | None
    stderr: float | None
    exact: Fraction | None = None
    z: float | None = None

    @property
    def rate(self) -> float | None:
        return self.value

    @classmethod
    def of(cls, data: dict) -> "Estimate":
        return cls(data.get("rate", data.get("value")), data.get("stderr"), _fraction(data.get("exact")),
                   data.get("z"))

    def __repr__(self) -> str:
        if self.value is None:
            return "Estimate(none)"
        said = f"{self.value:.6g}" + (f" ± {self.stderr:.2g}" if self.stderr is not None else "")
        if self.exact is not None:
            said += f", exact {self.exact}" + (f", z {self.z:+.2f}" if self.z is not None else "")
        return f"Estimate({said})"


@record(frozen=True)
class Throws:
    """Throws per game, simulated: `.mean` (an Estimate), `.distribution` ({n: the share of
    games that took n throws, an Estimate}) and `.beyond` (games of `beyond_from` throws or more)."""

    mean: Estimate | None
    distribution: dict
    beyond: Estimate | None
    beyond_from: int | None


@record(frozen=True)
class BetEstimate:
    """A bet simulated: the `amount` ordered, how many were `made`, the money `staked`, and its
    net per unit staked (`net_per_unit`, an Estimate; the exact one is −edge)."""

    amount: str
    made: int
    staked: Fraction
    net_per_unit: Estimate


class Simulation(_Report):
    """Games simulated (`Variant.simulate`), each figure beside its exact value: `.win`, `.lose`,
    `.push` and `.labels[label]` (Estimates of their chance per game; `.label_results` says
    which result each label is), `.throws`, `.bets[name]` and `.all_bets` (BetEstimates),
    `.games`, `.seed`, `.complete`; `.to_json()` is `hazard-dsl simulate --json`."""

    def __init__(self, report: dict):
        self._report = report
        self.ruleset = report["ruleset"]
        self.options = dict(report["options"])
        self.policy = report["policy"]
        self.games = report["games"]
        self.requested = report["requested"]
        self.complete = report["complete"]
        self.seed = report["seed"]
        self.workers = report["workers"]
        self.win, self.lose, self.push = (Estimate.of(report[r]) for r in ("win", "lose", "push"))
        self.labels = {label: Estimate.of(data) for label, data in report["labels"].items()}
        self.label_results = {label: data.get("result") for label, data in report["labels"].items()}
        throws = report["throws"]
        beyond = throws.get("beyond")
        self.throws = Throws(Estimate.of(throws["mean"]) if throws.get("mean") else None,
                             {row["throws"]: Estimate.of(row) for row in throws.get("distribution", [])},
                             Estimate.of(beyond) if beyond else None, beyond["from"] if beyond else None)
        self.bets = {name: BetEstimate(data["amount"], data["made"], Fraction(data["staked"]),
                                       Estimate.of(data["net_per_unit"])) for name, data in report["bets"].items()}
        together = report.get("all_bets")
        self.all_bets = None if together is None else BetEstimate("", together["made"], Fraction(together["staked"]),
                                                                  Estimate.of(together["net_per_unit"]))
        self.seconds = report["seconds"]

    def __repr__(self) -> str:
        w = self.win
        said = f"win {w.value:.4%} ± {w.stderr:.4%}" if w.value is not None and w.stderr is not None else "no games"
        if w.exact is not None and w.z is not None:
            said += f" (exact {w.exact}, z {w.z:+.2f})"
        return f"<Simulation {self.ruleset!r}: {self.games:,} games, {said}>"

    def _tables(self) -> tuple:
        return self._show("games_tables")(self._report)


@record(frozen=True)
class Seat:
    """A seat's purse at the end of the sessions simulated: `.mean` (an Estimate, no exact
    value), `.sd`, `.quantiles` ({"min", "5%", …, "max": a Fraction}), `.ruined` (the share of
    sessions that left it with nothing, an Estimate) and `.distribution` ({purse: sessions})."""

    mean: Estimate
    sd: float | None
    quantiles: dict
    ruined: Estimate
    distribution: dict = field(repr=False)


class TableSimulation(_Report):
    """Sessions at the table simulated (`Variant.simulate(players=…)`): `.seats[name]` (a Seat
    each), `.sessions`, `.players`, `.purse`, `.stake`, `.strategy`, `.rounds`,
    `.games_per_session`, `.ended` ({why: sessions}), `.bank_per_session` and
    `.box_per_session` (Fractions), `.money_conserved`; `.to_json()` is `simulate --players
    … --json`."""

    def __init__(self, report: dict):
        self._report = report
        for key in ("ruleset", "policy", "sessions", "requested", "complete", "seed", "workers", "strategy",
                    "rounds", "unit", "units", "games", "games_per_session", "money_conserved", "rounded", "seconds"):
            setattr(self, key, report.get(key))
        self.options = dict(report["options"])
        self.players = list(report["players"])
        self.purse, self.stake = Fraction(report["purse"]), Fraction(report["stake"])
        self.ended = dict(report["ended"])
        self.bank_per_session = Fraction(report["bank_per_session"])
        self.box_per_session = Fraction(report["box_per_session"])
        self.minor_unit = Fraction(report["minor_unit"])
        self.seats = {name: Seat(Estimate.of(s["mean"]), s["sd"], {k: Fraction(v) for k, v in s["quantiles"].items()},
                                 Estimate.of(s["ruined"]),
                                 {Fraction(row["purse"]): row["sessions"] for row in s["distribution"]})
                      for name, s in report["seats"].items()}

    def __repr__(self) -> str:
        return (f"<TableSimulation {self.ruleset!r}: {self.sessions:,} sessions of {', '.join(self.players)}, "
                f"{self.games_per_session or 0:.2f} games a session>")

    def _tables(self) -> tuple:
        return self._show("sessions_tables")(self._report)


@record(frozen=True)
class GoalSeat:
    """A seat's sessions to the goal, simulated: `.reached` (the share of sessions that reached
    it), `.games` (games a session) and `.purse` (the purse at the end; None-valued where the
    report has none), each an Estimate beside the exact chain's figure where there is one;
    `.unfinished`, the sessions left out (past the bound on games); `.why_no_exact`, in words."""

    reached: Estimate
    games: Estimate
    purse: Estimate
    unfinished: int
    why_no_exact: str | None


class GoalSimulation(_Report):
    """Each seat's sessions from `purse` to `goal` or ruin (`Variant.simulate(players=…,
    goal=…)`): `.seats[name]` (a GoalSeat each), `.sessions`, `.bankroll`, `.goal`,
    `.strategy` and `.cap` (None for flat stakes), `.seed`, `.played` (how the games were
    played); `.to_json()` is `simulate --players … --goal … --json`."""

    def __init__(self, report: dict, seed: int, units: str = ""):
        def plain(v):
            return str(v) if isinstance(v, Fraction) else v

        staking = "strategy" in report
        self.sessions, self.seed, self.units = report["sessions"], seed, units
        self.bankroll, self.goal = Fraction(report["bankroll"]), Fraction(report["goal"])
        self.strategy = report.get("strategy")
        self.cap = _fraction(report.get("cap"))
        self.played = report.get("played")
        self._report = {"sessions": self.sessions, "bankroll": str(self.bankroll), "goal": str(self.goal),
                        **({"strategy": self.strategy, "cap": plain(report.get("cap"))} if staking else {}),
                        "seed": seed, "seats": {p: {k: plain(v) for k, v in row.items()}
                                                for p, row in report["seats"].items()}}
        self._figures = report  # exact Fractions, for the tables

        def estimate(row, value, short):
            return Estimate(row.get(value), row.get(f"{value}_stderr"), _fraction(row.get(f"exact_{short}")),
                            row.get(f"z_{short}"))

        self.seats = {p: GoalSeat(estimate(row, "reached", "reach"), estimate(row, "games", "games"),
                                  estimate(row, "purse", "purse"), row["unfinished"], row["why_no_exact"])
                      for p, row in report["seats"].items()}

    def __repr__(self) -> str:
        return (f"<GoalSimulation: {self.sessions:,} sessions of each of {', '.join(self.seats)}, from "
                f"{self.bankroll} to {self.goal}>")

    def _tables(self) -> tuple:
        return self._show("goal_tables")(self._figures, self.units)


__all__ = ["Analysis", "BetEstimate", "Comparison", "Estimate", "GoalSeat", "GoalSimulation", "Hand", "Ruin", "Seat",
           "Seats", "Simulation", "TableRuin", "TableSimulation", "Throws"]
