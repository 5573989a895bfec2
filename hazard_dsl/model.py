"""The validated, immutable ruleset: what the checker hands to the compiler.

Nothing downstream of `hazard_dsl.parse` reads YAML; it reads these values. Conditions and
actions are the syntax trees of `hazard_dsl.parse.syntax`, already checked for names and
types.
"""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from .diagnostics import Position
from .records import field, record


def frozen_mapping(items: dict) -> MappingProxyType:
    """A read-only mapping of a Ruleset, rebuilt from its items when unpickled."""
    return MappingProxyType(items)


# A Ruleset's mappings are read-only views (MappingProxyType), which pickle cannot take by
# itself: pickled as their items, a Ruleset, and the machines, analyses and tables that hold
# one, travel to worker processes and Dask (issue 36).
copyreg.pickle(MappingProxyType, lambda mapping: (frozen_mapping, (dict(mapping),)))

# Facts of the throw a condition may use (only in phases where the dice are thrown), for two
# dice; `throw_facts(shape)` gives them for any dice (die3, die4… for more dice).
DICE_FACTS = {
    "total": "int",  # the sum of the dice
    "die1": "int",  # the first die
    "die2": "int",  # the second die
    "high": "int",  # the highest face
    "low": "int",  # the lowest face
    "doublet": "bool",  # two dice (or more) show the same face
    "most": "int",  # the most dice showing one face: 1 none alike, 2 a doublet, 3 a raffle (triple)
    "pairs": "int",  # the pairs among the dice (four of a kind is two pairs)
}
# Functions of the throw: count(f) — how many dice show face f; shows(a, b, …) — the throw
# holds these faces (as many times as named: shows(3, 3) is a pair of treys at least).
THROW_FUNCTIONS = {"count": "int", "shows": "bool"}
# The most dice and faces a ruleset may declare, and the most throws they may make together:
# every throw state holds a step for each throw (four six-sided dice: 1,296).
MAX_DICE = 5
MAX_SIDES = 20
MAX_THROWS = 10_000


@record(frozen=True)
class DiceShape:
    """How many dice are thrown and what faces each has: faces 1..sides, named (`names`, in
    order: face k is names[k - 1]) or numbered. Two six-sided dice unless a file says otherwise."""

    count: int = 2
    sides: int = 6
    names: tuple = ()

    @property
    def throws(self) -> int:
        """The ordered throws: sides ** count."""
        return self.sides ** self.count

    def written(self) -> str:
        """`2d6`, `3d6`, `3 dice of crown, anchor, …`."""
        if self.names:
            return f"{self.count} {'die' if self.count == 1 else 'dice'} of {', '.join(self.names)}"
        return f"{self.count}d{self.sides}"


TWO_DICE = DiceShape()


def throw_facts(shape: DiceShape) -> dict:
    """The facts of a throw of these dice: DICE_FACTS with one `dieK` per die."""
    facts = {"total": "int", **{f"die{k}": "int" for k in range(1, shape.count + 1)}}
    facts.update((k, v) for k, v in DICE_FACTS.items() if not k.startswith("die"))
    return facts


def is_die_fact(name: str) -> bool:
    """`die1`, `die2`, … — a name that reads one die (whether or not this file has that die)."""
    return name.startswith("die") and name[3:].isdigit() and name[3:4] != "0"


# Who can make a choice or back a bet. A chooser who is the caster (or a player at craps)
# maximises the caster's expectation; the others (his adversaries) minimise it.
ROLES = ("caster", "setter", "fader", "bank", "player")

# What a bet's rules may read besides the throw and the variables: the game's phase before the
# throw, and how the game ended on it ("none" while it goes on).
BET_FACTS = {"phase": "str", "result": "str", "label": "str"}
GAME_RESULTS = ("win", "lose", "push", "none")

FACE_WORDS = ("ace", "deuce", "trey", "cater", "cinque", "sice")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")


def plural(word: str) -> str:
    """An English noun made plural by rule, for a unit whose file gives no plural of its own:
    shilling → shillings, penny → pennies (a file says `units: pence`), cross → crosses."""
    if word[-1:] == "y" and word[-2:-1].lower() not in ("", *"aeiou"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def readable(name: str) -> str:
    """An identifier of a rule file as words, where the file gives none: `no_main` → "no main"."""
    return " ".join(name.replace("_", " ").split())


@record(frozen=True)
class Source:
    title: str
    author: str | None = None
    year: int | str | None = None
    page: str | None = None
    url: str | None = None
    note: str | None = None


@record(frozen=True)
class Printed:
    """A figure a source prints (`printed:`), to be set beside the exact one (check.printed):
    which source (its place in `sources:`, from 1), the page, the words and the figure as
    printed, what it is a figure of (`win`, `lose`, `push`, `edge`, a label, or a bet's edge)
    and the values of variables it is conditioned on ({variable: (values, …)}), and the option
    values whose rules it is a figure of (a source paying "for 1" where an option pays "to 1")."""

    source: int
    figure: str
    of: str
    position: object
    page: str | None = None
    words: str | None = None
    bet: str | None = None
    given: tuple = ()  # ((variable, (value, …)), …)
    note: str | None = None
    options: tuple = ()  # ((option, value), …): the rules the figure is of, whatever the options in force


@record(frozen=True)
class Variable:
    name: str
    initial: int
    low: int | None
    high: int | None
    description: str | None
    say: str | None  # narration when it is set, e.g. "{value:word} is the main"
    position: Position

    def allows(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def bounds(self) -> str:
        return f"{self.low}..{self.high}"


@record(frozen=True)
class Option:
    name: str
    values: tuple  # str or int
    default: object
    description: str | None
    value_notes: Mapping[object, str]
    position: Position

    @property
    def type(self) -> str:
        return "int" if all(isinstance(v, int) for v in self.values) else "str"


@record(frozen=True)
class Label:
    name: str
    say: str | None
    position: Position


@record(frozen=True, repr=False)
class Rule:
    phase: str
    index: int  # 0-based within its phase
    condition: object | None  # None for `otherwise`
    actions: tuple
    say: str | None
    position: Position

    def __repr__(self) -> str:
        return f"<Rule {self.index + 1} of {self.phase!r} at {self.position}>"

    @property
    def is_otherwise(self) -> bool:
        return self.condition is None

    def describe(self) -> str:
        return f"rule {self.index + 1} of phase {self.phase!r}"


@record(frozen=True)
class Phase:
    name: str
    throws: bool  # False: decided at once from the variables, without a throw
    rules: tuple
    description: str | None
    position: Position


@record(frozen=True)
class Passing:
    """When the caster gives up the dice: a rule of the table, compiled with the game
    (compile.passing) and read by hands, sessions and their analysis.

    `losses_in_a_row` is a number (0: losses alone never pass the dice) or an expression over
    the options, so that a question the sources leave open can be an option."""

    losses_in_a_row: object  # int | None | an expression (syntax tree) giving an int
    after_labels: tuple
    voluntary_after_win: bool
    description: str | None
    position: Position | None = None
    losses_text: str | None = None  # losses_in_a_row as written, for people
    first: str = "seat_order"  # who casts first: one of FIRST_CASTER


# Who casts the first game of a session: the first player named (seat order), or the lot — each
# player throws one die, and the lowest (or the highest) takes the box, those tied throwing again
# ("History of Hazard & Craps": "each casting a die, the lowest going first").
FIRST_CASTER = ("seat_order", "lowest_die", "highest_die")


@record(frozen=True)
class Loading:
    """The chance of each face of each die (faces 1..sides, exact), None for a fair die;
    `dice` holds one entry per die (die1 first)."""

    dice: tuple = ()

    @property
    def die1(self):
        return self.die(1)

    @property
    def die2(self):
        return self.die(2)

    def die(self, k: int):
        return self.dice[k - 1] if k <= len(self.dice) else None


@record(frozen=True)
class DiceSpec:
    """`dice:` in a rule file: how many dice and what faces (`shape`), and their loadings, one
    for all, or one per value of an option."""

    by_option: str | None  # the option whose value picks the loading; None: `loadings[""]`
    loadings: Mapping  # option value (or "") -> Loading; a value not named plays fair dice
    position: Position | None = None
    shape: DiceShape = TWO_DICE

    def loading(self, options: dict) -> Loading:
        key = "" if self.by_option is None else str(options.get(self.by_option))
        return self.loadings.get(key, Loading())


def dice_shape(ruleset) -> DiceShape:
    """The dice a ruleset throws (two six-sided dice unless its `dice:` says otherwise)."""
    spec = getattr(ruleset, "dice", None)
    return spec.shape if spec is not None else TWO_DICE


# What a `cocked:` rule may read besides the game's variables: how many dice landed off (1 or 2),
# the face the other die shows (0 when both are off), and the game's phase at the throw.
OFF_FACTS = {"off": "int", "shown": "int", "phase": "str"}


@record(frozen=True)
class Cocked:
    """`cocked:` in a rule file: each die lands off — cocked against something, or wild off the
    table — with a chance of its own, and the rules say what is then thrown again (the "History
    of Hazard & Craps" sheet: both dice if both are off; if one is, the caster recasts it alone
    or both together)."""

    chances: Mapping  # option value (or "" for one chance) -> Fraction; a value not named: never off
    by_option: str | None
    rules: tuple  # Rule (phase "cocked"), read when a die is off; () means `recast both`
    description: str | None
    position: Position | None = None

    def chance(self, options: dict) -> Fraction:
        key = "" if self.by_option is None else str(options.get(self.by_option))
        return self.chances.get(key, Fraction(0))


# Who stakes against the caster, and what he does when his purse cannot answer every stake.
AGAINST = ("setters", "bank")
WHEN_SHORT = ("refuse", "forfeit")
# When the caster may refuse a bet a player puts to him ("Hazard – a Game of Dice": at will; some
# tables only when he cannot cover it)
REFUSE = ("at_will", "when_short")
COMMISSION_PAID = ("on_win", "up_front")  # when a commission is paid: with the win, or when the bet is made


@record(frozen=True)
class Coin:
    """One coin (or money of account) of a ruleset's coinage: `money: coins:` in a rule file.
    Its `worth` is in the file's unit (a penny is 1/12 of a shilling); `short` is how a count
    of it is written ("{n}d", "£{n}"); `places` writes its count as a decimal to that many
    places where that is exact (a dollar's "12.50")."""

    name: str
    worth: Fraction
    plural: str | None = None
    short: str | None = None
    places: int = 0
    position: Position | None = None

    @property
    def names(self) -> str:
        return self.plural or plural(self.name)


@record(frozen=True)
class Sum:
    """A sum the period names, `money: sums:` ("half a guinea" for 21/2 shillings): said so
    wherever exactly that sum is told."""

    words: str
    amount: Fraction
    position: Position | None = None


@record(frozen=True)
class Table:
    """The money of the table: `money:` in a rule file."""

    unit: str = "unit"
    against: str = "setters"  # each setter stakes against the caster; or a bank answers him
    when_short: str = "refuse"  # the caster refuses stakes he cannot cover; or forfeits the dice (hard play)
    stake: str | None = None  # the bet a setter's stake is laid on (None: even money on the game)
    position: Position | None = None
    units: str | None = None  # the unit's plural when the file gives it (`units: pence`); else by rule
    refuse: str = "at_will"  # the caster refuses a bet put to him at will, or only when he cannot cover it
    coins: tuple = ()  # Coin, largest first: how a sum is told (£ s d); () tells it as a number of units
    sums: tuple = ()  # Sum: sums the period names ("half a guinea")


@record(frozen=True)
class Words:
    """The period's names for faces and throws, used only to narrate."""

    faces: tuple = FACE_WORDS
    throws: Mapping = field(default_factory=lambda: MappingProxyType({}))  # (low, high) or total -> name
    caster: str = "the caster"
    # The table's words where the game is not Hazard's (a banker and punters): None keeps Hazard's
    setters: str | None = None  # those who stake against the caster ("the punters")
    box: str | None = None  # what the caster takes up and passes on ("the shaker"); None: the box, the dice
    casts: str | None = None  # what he does to begin a game ("shakes"); None: casts

    def throw_name(self, *faces: int) -> str:
        """The period's name of a throw (`words: throws:`, by its faces or its total), else its
        faces in words: all different, highest first ("cinque-trey", "sice-cinque-ace"); else by
        how many show each face ("two sices", "three treys", "two cinques and an ace")."""
        ordered = tuple(sorted(faces))
        for key in (ordered, sum(faces)):
            if key in self.throws:
                return self.throws[key]
        if len(set(ordered)) == len(ordered):
            return "-".join(self.face(f) for f in reversed(ordered))
        counted = sorted(((ordered.count(f), f) for f in set(ordered)), reverse=True)
        parts = [(NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)) + " " + plural(self.face(f)) if n > 1
                 else ("an " if self.face(f)[:1].lower() in "aeiou" else "a ") + self.face(f) for n, f in counted]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def face(self, face: int) -> str:
        """A face in the period's word (`words: faces:`), or its number where none is given."""
        return self.faces[face - 1] if 0 < face <= len(self.faces) else str(face)


@record(frozen=True)
class Commission:
    """A commission ("vig"): `rate` of the bet or of the win, paid on a win or up front."""

    rate: Fraction
    of: str  # "bet" | "win"
    paid: object  # an expression giving "on_win" or "up_front" (often an option)
    position: Position


@record(frozen=True)
class Bet:
    """A wager that rides alongside the game, decided by its own rules on each throw.

    Its rules read the throw, the game's variables and phase before the throw, the game's
    `result` and `label` if the throw ended it, and the bet's own variables. A bet stays up
    across games until its rules decide it (a place bet), or is decided with the game (the
    pass line)."""

    name: str
    description: str | None
    backer: str
    layer: str
    made: object | None  # condition on the game (no dice) for when it may be made; None: any time
    backs: str | None  # the bet this one rides on (odds on the pass line)
    pays: object | None  # the Payout of a win, unless a `win … pays …` says otherwise
    pays_text: str | None
    commission: Commission | None
    multiples: Mapping  # name -> expression: amounts as multiples of the backed bet ("3-4-5x")
    variables: Mapping
    phases: Mapping
    start: str
    position: Position
    # `game: own`: the bet plays a game of its own, started when it is made, on the table's
    # throws (a come bet is a pass bet of its own); its rules read that game, not the table's
    own_game: bool = False
    called: str | None = None  # what players call it, in words ("a side bet on the caster")


@record(frozen=True)
class Fee:
    """Money that falls due at the end of some games (the box fee after three mains)."""

    name: str
    description: str | None
    payer: str
    payee: str
    amount: Fraction
    variables: Mapping
    rules: tuple  # evaluated once at the end of each game
    position: Position
    called: str | None = None  # what players call it, in words ("the box's fee")


@record(frozen=True, repr=False)
class Ruleset:
    name: str
    file: str
    year: int | str | None
    description: str | None
    sources: tuple  # what this file cites itself (not what a file it extends cites)
    notes: tuple
    extends: str | None
    variables: Mapping[str, Variable]
    options: Mapping[str, Option]
    labels: Mapping[str, Label]
    phases: Mapping[str, Phase]
    start: str
    words: Words
    passing: Passing | None
    bets: Mapping = field(default_factory=lambda: MappingProxyType({}))
    fees: Mapping = field(default_factory=lambda: MappingProxyType({}))
    money_unit: str = "unit"
    table: Table = field(default_factory=Table)
    warnings: tuple = ()  # diagnostics of the reading and name checks that are not errors
    # what the reading cache knows this ruleset by ("" when read without it), so that machines
    # compiled from it can be kept too (hazard_dsl.cache)
    digest: str = field(default="", repr=False, compare=False)
    # a hash of the rule files' text alone (parse.chain): what a session log records
    rules_digest: str = field(default="", repr=False, compare=False)
    dice: DiceSpec | None = None  # loaded dice; None: two fair dice
    cocked: Cocked | None = None  # dice that land off and are recast; None: they always land flat
    # `extends`: the name of the ruleset this one is built on ("Hazard (Cotton, 1674)"); and,
    # when this file has no `sources:` of its own, the sources it rests on and whose they are,
    # kept apart so that nothing presents another file's sources as this one's
    built_on: str | None = None
    inherited_sources: tuple = ()
    inherited_from: str | None = None
    printed: tuple = ()  # the figures the sources print (`printed:`, Printed), in file order

    def __repr__(self) -> str:
        parts = [f"{len(self.phases)} phases"]
        if self.options:
            parts.append(f"options {', '.join(self.options)}")
        if self.bets:
            parts.append(f"{len(self.bets)} bets")
        return f"<Ruleset {self.name!r} ({self.file}): {'; '.join(parts)}>"

    @property
    def money_units(self) -> str:
        """The money unit's plural ("shillings", "pence"): the file's `units:`, else by rule."""
        return self.table.units or plural(self.money_unit)

    def label_words(self, name: str) -> str:
        """A label as a person reads it in a phrase ("a game ending in no main"): its name's
        words; the label's `say` is a whole sentence, told where the game ends."""
        return readable(name)

    def bet_words(self, name: str) -> str:
        """A bet by what players call it (`called:`), else its name's words ("the side bet")."""
        bet = self.bets.get(name)
        if bet is not None and bet.called:
            return bet.called
        return f"the {readable(name)} bet"

    def fee_words(self, name: str) -> str:
        """A fee by what players call it (`called:`), else its name's words ("the box fee")."""
        fee = self.fees.get(name)
        if fee is not None and fee.called:
            return fee.called
        return f"the {readable(name)} fee"

    def default_options(self) -> dict:
        return {name: option.default for name, option in self.options.items()}

    def rules(self):
        for phase in self.phases.values():
            yield from phase.rules
