"""Every key a rule file may use, mapping by mapping: the one table the reader checks a file's keys
against (`parse.reader`, "unknown key … did you mean") and the JSON Schema for editors is written
from (`hazard_dsl.language.schema`), so that the two cannot drift apart.

Each `Keys` lists the keys of one kind of mapping in the order the README names them, and the
keys that mapping must have once a file and the files it extends are merged. Light on purpose
(no YAML): the schema is built without reading a rule file.
"""

from __future__ import annotations

from ..records import record


@record(frozen=True)
class Keys:
    """The keys one kind of mapping may have (`allowed`, in the README's order) and those it must
    have (`required`)."""

    allowed: tuple
    required: tuple = ()

# The top level of a rule file. `name` and `phases` may come from the file it extends.
RULESET = Keys(("name", "year", "description", "sources", "notes", "extends", "dice", "cocked", "words",
                "variables", "options", "labels", "start", "phases", "passing", "money", "bets", "fees",
                "printed"),
               required=("name", "phases"))
# The top-level sections a file that extends another refines name by name (the rest it replaces).
MERGED_BY_NAME = ("phases", "variables", "options", "labels", "bets", "fees")

SOURCE = Keys(("title", "author", "year", "page", "url", "note"), required=("title",))
# A figure a source prints (`printed:`), set beside the exact one (hazard_dsl.check.printed).
PRINTED = Keys(("source", "page", "words", "figure", "of", "bet", "given", "options", "note"),
               required=("source", "figure", "of"))
# How many dice and what faces (`dice: {count: 3, sides: 6}`, or `faces: [crown, anchor, …]`).
DICE_SIZE = Keys(("count", "sides", "faces"))
# One loading of the dice: each die's chances (as many dice as are thrown), or one list for every die.
LOADING = Keys(("die1", "die2", "die3", "die4", "die5", "both"))
# The key naming the option whose value picks one of several loadings (dice) or chances (cocked).
BY_OPTION = "by_option"
COCKED = Keys(("chance", "rules", "description"), required=("chance",))
WORDS = Keys(("faces", "throws", "caster", "setters", "box", "casts"))
VARIABLE = Keys(("initial", "range", "description", "say"), required=("range",))
OPTION = Keys(("description", "values", "default"), required=("values",))
PHASE = Keys(("description", "throw", "rules"), required=("rules",))
# A rule: `when` and `do`, or `otherwise` (checked apart: neither one is required alone).
RULE = Keys(("when", "do", "otherwise", "say"))
PASSING = Keys(("losses_in_a_row", "after_labels", "voluntary_after_win", "first", "description"))
MONEY = Keys(("unit", "units", "against", "when_short", "stake", "refuse", "coins", "sums"))
# One coin of `money: coins:` (a penny: `worth: 1/12`, `plural: pence`, `short: "{n}d"`).
COIN = Keys(("worth", "plural", "short", "places"), required=("worth",))
BET = Keys(("description", "called", "backer", "layer", "made", "backs", "pays", "commission", "multiples",
            "variables", "rules", "phases", "start", "game", "wins", "pushes"))
COMMISSION = Keys(("rate", "of", "paid"), required=("rate",))
FEE = Keys(("description", "called", "payer", "payee", "amount", "variables", "rules"), required=("amount", "rules"))

# Every mapping of a rule file whose keys are fixed, by the name the schema gives it.
TABLES = {"ruleset": RULESET, "source": SOURCE, "dice_size": DICE_SIZE, "loading": LOADING, "cocked": COCKED,
          "words": WORDS, "variable": VARIABLE, "option": OPTION, "phase": PHASE, "rule": RULE,
          "passing": PASSING, "money": MONEY, "coin": COIN, "bet": BET, "commission": COMMISSION, "fee": FEE,
          "printed": PRINTED}

MAX_WHOLE = 10**9  # a whole number in a rule file: a variable's range and initial value, an option's value
MAX_NARRATION_CHARS = 500  # a `say:` or a label's words
MAX_CALLED_CHARS = 80  # what a bet or a fee is called, a coin's name or a named sum's words
MAX_COINS = 12  # coins in a coinage (£ s d and the farthing are four)
MAX_PLACES = 6  # decimal places of a coin's count
# The reserved words of the grammar: no phase, variable, option, label, bet or fee may be named so.
KEYWORDS = {"win", "lose", "push", "throw", "again", "set", "goto", "choose", "from", "by", "and",
            "or", "not", "in", "true", "false", "if", "then", "else", "option", "pay", "pays", "to", "for",
            "recast"}

# The fixed words of values that are not the model's (those are in hazard_dsl.model)
BET_GAMES = ("table", "own")  # a bet reads the table's game (the default) or plays one of its own
COMMISSION_OF = ("bet", "win")  # a commission is a share of the bet, or of the win

# The words the sources use for a role, where the file's own word differs: a key, a chooser or a
# narration's {name} written in the sources' words is answered with what it is called here.
# (`fader` is also a role of its own, Barker's name for the setter: `by fader`, `layer: fader`.)
SOURCE_WORDS = {
    "fader": ("setter", "Barker's word for the setter, the player who stakes against the caster"),
    "faders": ("setter", "Barker's word for the setters, the players who stake against the caster"),
    "setter": ("setter", "the role of a player who stakes against the caster, not a word of the game's text"),
    "setters": ("setter", "the players who stake against the caster (the role is `setter`, one of them)"),
    "shooter": ("caster", "craps' word for the caster, the player who throws"),
    "thrower": ("caster", "the player who throws, here the caster"),
    "banker": ("bank", "the one who keeps the bank, here the role `bank`"),
    "house": ("bank", "the bank"),
    "adversary": ("setter", "the French books' word for the caster's opponent, here a setter"),
}


def source_word(word: str) -> str | None:
    """"`fader` is Barker's word for the setter, …" for a word of the sources, or None."""
    found = SOURCE_WORDS.get(str(word).lower())
    return f"`{word}` is {found[1]}" if found else None
