"""What each command is asked, as values: one frozen request per command, typed fields only.

The application layer (`hazard_dsl.commands`) takes these; it reads no command-line text. Each
front end builds them its own way: the command line from its flags (`hazard_dsl.cli.requests`
reads `NAME=VALUE`, `SEAT:NAME=AMOUNT`, money such as "10s 6d" and tapes such as "3-4 6-6"),
the Python API (`hazard_dsl.api`) from keywords, the web API from JSON. A request's field is
named as the Python API's keyword and the web API's JSON field, so that an `ArgumentError`'s
`Arg(name)` names it for all three (`Arg("bets", "odds", …)` is `bets['odds']` in Python,
`--bet odds=…` at the command line).

The types, all JSON-friendly (a `Fraction` travels as its text, "25/2"):

- `options`: {option: value}, each value as the rule file writes it (a str, an int, a bool).
- `Money`: an amount of money, exact (`Fraction`; an int is taken as one).
- `BetAmount`: money, or, for a bet that backs another, a multiple of that bet as the rule file
  names it ("2x", "3-4-5x"); a str means a multiple, never money.
- `bets` (one bettor's bets made together): a tuple of `BetOrder`s, each bet once, in the order
  given; `plans` (seats at a table): {seat: {bet: Money}}, a seat's own stake under the bet
  `"stake"`; `refusals`: (seat, bet) pairs.
- `dice`: a tape, a tuple of throws as `play.dice.DiceTape` holds them: a cast is a pair of
  faces ((3, 4), (6, 6)), None for a die that lands off ((None, 4)); a lone face (5, or None)
  is a die recast alone or a lot thrown for the first cast; "off" or "both" says what is
  recast. None: seeded random dice.
- `seed`, counts: ints; flags: bools; files: `str` paths.

A field left at its default means what the flag left out means at the command line.
Requests check nothing themselves: the command that takes one checks each field and raises
`hazard_dsl.errors.ArgumentError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ..records import field, record

Money = Fraction
# `X | Y`, not typing's Union: importing typing costs each command 3 ms
BetAmount = Fraction | str
Throw = tuple | int | str | None  # (3, 4), (None, 4), a lone face 5, or "off" / "both"
Tape = tuple  # tuple[Throw, ...]
Options = Mapping  # Mapping[str, str | int | bool]
Plans = Mapping  # Mapping[str, Mapping[str, Fraction]]: seat -> {bet: amount}

# The requests are records (hazard_dsl.records), not dataclasses: every command builds one, and
# fifteen dataclasses took 17 ms of each run's start (python -X importtime), a tenth of
# `analyse craps`. A request built on RulesetRequest or TableRequest has their fields first,
# in their order, then its own.


@record(frozen=True)
class BetOrder:
    """One bettor's bet: `bet` by its name in the rule file, `amount` money or a multiple of
    the bet it backs; `at_throw` (run only): made once, before that throw of the run, instead
    of standing (made again after each decision); `written` the amount as the caller wrote it
    ("12.50"), which a report that shows the amount as given shows (simulate's table and JSON
    have always said "12.50", not 25/2); None: written from the value. Never read for its
    value, and left out of comparison: BetOrder("pass", Fraction(25, 2)) is the same order
    however it was written."""

    bet: str
    amount: BetAmount
    at_throw: int | None = None
    written: str | None = field(default=None, repr=False, compare=False)


def _empty() -> Mapping:
    return {}


@record(frozen=True)
class RulesetRequest:
    """The ruleset every command but check, list and replay names: `ruleset` a built-in name
    or a path; `text` the rule file itself where it is held in a string (shown as `ruleset`);
    `options` the option values chosen; `policy` how choices are made ("optimal", "uniform" or
    a choice's value)."""

    ruleset: str
    options: Options = field(default_factory=_empty)
    policy: str = "optimal"
    text: str | None = None


@record(frozen=True)
class CheckRequest:
    """`check`: the rule files to check, each a path."""

    files: tuple = ()


@record(frozen=True)
class ListRequest:
    """`list`: the built-in rulesets (asks nothing)."""


@record(frozen=True)
class ShowRequest:
    """`show`: what a ruleset is."""

    ruleset: str
    text: str | None = None


@record(frozen=True)
class RulesRequest(RulesetRequest):
    """`rules`: a RulesetRequest's fields, and the rule sheet in `format` ("text", "markdown",
    "html", "json"), with `colour` for a terminal."""

    format: str = "text"
    colour: bool = False


@record(frozen=True)
class GraphRequest(RulesetRequest):
    """`graph`: a RulesetRequest's fields, and the machine drawn in `format`, `unfold`ed to one
    node per state, only the `phases` named (none: all), each of `bets` drawn beside the game."""

    format: str = "dot"
    unfold: bool = False
    phases: tuple = ()
    bets: tuple = ()


@record(frozen=True)
class AnalyseRequest(RulesetRequest):
    """`analyse`: a RulesetRequest's fields, and the exact figures, split `by` a variable's
    final value, with what is asked:

    - `bets` (one bettor's combination) or `plans` (each seat's figures at the table, with
      `players` round it, each setter staking `stake`);
    - `hand`: the caster's hand; `throws`: P(the game takes n throws);
    - `bankroll`, `goal`, `stake`: a caster's (or, with plans and players, each seat's) chance
      of reaching the goal;
    - the best stake and progressions: `best` ("best" or "kelly"), `strategy`, `cap`, `limit`,
      `side` ("caster" or "setter"), `risk` (a chance), `simulate` (sessions), `seed`;
    - risk: `spread`, `games`, `stop_loss`, `stop_win`, `tail` (throws);
    - `by_option`: the tables of each option's effect (the command line's --no-options is
      False)."""

    by: str | None = None
    bets: tuple = ()  # tuple[BetOrder, ...]
    plans: Plans = field(default_factory=_empty)
    players: tuple | None = None
    hand: bool = False
    throws: bool = False
    bankroll: Money | None = None
    goal: Money | None = None
    stake: Money | None = None
    best: str | None = None
    strategy: str | None = None
    cap: Money | None = None
    limit: Money | None = None
    side: str = "caster"
    risk: Fraction | None = None
    simulate: int | None = None
    seed: int | None = None
    spread: bool = False
    games: int | None = None
    stop_loss: Money | None = None
    stop_win: Money | None = None
    tail: int | None = None
    by_option: bool = True


@record(frozen=True)
class CompareRequest:
    """`compare`: rulesets side by side, each a `RulesetRequest` (its own options), under
    `policy`."""

    variants: tuple = ()  # tuple[RulesetRequest, ...]
    policy: str = "optimal"
    labels: tuple = ()  # each variant's name as shown (as given: "cotton:main=called"); default from its fields


@record(frozen=True)
class TableRequest(RulesetRequest):
    """A session at the table (run and simulate with players, play): a RulesetRequest's
    fields, and `players` in order round the table, each starting with `purse` and staking
    `stake` by `strategy` for `rounds` rounds; `plans` and `refusals` each seat's bets; `log`
    the file the session is written to (`force`: over an existing one)."""

    players: tuple | None = None
    purse: Money | None = None
    stake: Money | None = None
    strategy: str | None = None
    rounds: int | None = None
    plans: Plans = field(default_factory=_empty)
    refusals: tuple = ()  # tuple[tuple[str, str], ...]: (seat, bet)
    log: str | None = None
    force: bool = False


@record(frozen=True)
class RunRequest(TableRequest):
    """`run`: a TableRequest's fields, and `games` games (None: as many as the tape allows, or
    3), on dice seeded by `seed` or thrown as `dice`, with one bettor's `bets` standing (or
    made once at a throw) and a purse of `bankroll`; with `players`, a session at the table,
    `cap` a progression's largest stake."""

    games: int | None = None
    seed: int | None = None
    dice: Tape | None = None
    bets: tuple = ()  # tuple[BetOrder, ...]
    bankroll: Money | None = None
    cap: Money | None = None


@record(frozen=True)
class SimulateRequest(TableRequest):
    """`simulate`: a TableRequest's fields, and `games` games (or sessions, with `players`)
    seeded by `seed`, one bettor's `bets`, on `workers` processes or a Dask `scheduler`, with
    `engine` ("numpy" or "compiled"); with players and `goal`, each seat until its purse
    reaches it; `cap` a progression's largest stake on the way."""

    games: int | None = None
    seed: int | None = None
    bets: tuple = ()  # tuple[BetOrder, ...]
    workers: int | None = None
    scheduler: str | None = None
    engine: str | None = None
    goal: Money | None = None
    cap: Money | None = None


@record(frozen=True)
class PlayRequest(TableRequest):
    """`play` at this terminal: a TableRequest's fields, and a new table of `ruleset` (None
    with `resume`), on dice seeded by `seed` or thrown as `dice`; `resume` a log to go on from;
    `no_log`: write none."""

    ruleset: str | None = None  # None with resume: named again, it keeps its place
    seed: int | None = None
    dice: Tape | None = None
    resume: str | None = None
    no_log: bool = False


@record(frozen=True)
class ReplayRequest:
    """`replay`: the session in the log file `log`, checked against `rules` (a ruleset's name
    or path; None: the one its header names)."""

    log: str
    rules: str | None = None


@record(frozen=True)
class SchemaRequest:
    """`schema`: the JSON Schema, written to `output` (None: returned) over an existing file
    only with `force`."""

    output: str | None = None
    force: bool = False


__all__ = ["AnalyseRequest", "BetAmount", "BetOrder", "CheckRequest", "CompareRequest", "GraphRequest",
           "ListRequest", "Money", "Options", "Plans", "PlayRequest", "ReplayRequest", "RulesRequest",
           "RulesetRequest", "RunRequest", "SchemaRequest", "ShowRequest", "SimulateRequest", "TableRequest",
           "Tape", "Throw"]
