"""The JSON Schema (draft 2020-12) of a rule file, for any schema-aware editor (yaml-language-server,
VS Code's YAML extension): every key, its type and allowed values, and what it means.

The keys come from the reader's own table (`hazard_dsl.parse.keys`), the fixed words of values
from the model's (`FIRST_CASTER`, `ROLES`, …): a key added to the reader without a description
here stops `rule_file_schema` with a KeyError, so the schema cannot fall behind the checker.
Every mapping whose keys the reader checks is closed (`additionalProperties: false`).

What a schema can say is the shape of a file, not its meaning: an expression is a string (the
grammar checks it), a name used is not looked up, `low..high` is not compared. Where a file
extends another, the keys a merged file must have may come from the parent, so they are required
only of a file that extends nothing. The schema is meant never to refuse a file `check` accepts.

`python -m hazard_dsl.language.schema --write` writes `rule-file.schema.json` beside this module
(the file shipped in the package; a test keeps it equal to `rule_file_schema()`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..model import MAX_DICE, MAX_SIDES, AGAINST, COMMISSION_PAID, DICE_FACTS, FIRST_CASTER, REFUSE, ROLES, WHEN_SHORT
from ..parse import keys as K
from ..parse.numbers import MAX_DIGITS

SCHEMA_FILE = Path(__file__).resolve().parent / "rule-file.schema.json"
SCHEMA_ID = "urn:hazard-dsl:rule-file"

_SCALAR_TEXT = ["string", "number", "boolean"]  # YAML reads `name: 1674` as a number; the reader takes its text
_DIGITS = f"[0-9]{{1,{MAX_DIGITS}}}"
# parse.numbers.exact_amount: 12, 10.5, 21/2, 5% (ASCII digits, at most MAX_DIGITS in each part)
_AMOUNT = rf"^\s*[+-]?{_DIGITS}(\.{_DIGITS})?(/{_DIGITS})?(\s*%)?\s*$"
_NAME = "^[A-Za-z_][A-Za-z0-9_]*$"


def _ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


def _text(limit: int = 10_000, description: str | None = None) -> dict:
    schema = {"type": _SCALAR_TEXT, "maxLength": limit}
    return {**schema, "description": description} if description else schema


def _enum(words, description: str) -> dict:
    return {"type": "string", "enum": list(words), "description": description}


def _either(json_type: str, when: dict, otherwise: dict) -> dict:
    """`when` for a value of `json_type`, else `otherwise`: chosen by the value's type rather than
    tried in turn (`anyOf`), so that a mistake is reported where it is, not as "not valid under
    any of the given schemas" on the mapping around it."""
    return {"if": {"type": json_type}, "then": {"type": json_type, **when}, "else": otherwise}


def _named(value: dict, of_what: str, name: dict | None = None) -> dict:
    """A mapping of names (`phases:`, `bets:` …) to one kind of value."""
    return {"type": "object", "propertyNames": name or _ref("name"), "additionalProperties": value,
            "description": of_what}


# ------------------------------------------------------------------------- the values of the keys

# What each key of each table of parse.keys holds: its schema and, in the README's words, what it
# means. Keyed as parse.keys.TABLES is.
KEYS: dict[str, dict[str, dict]] = {
    "ruleset": {
        "name": _text(200, "the ruleset's name, as shown by `list`, `show` and every report (required, unless a "
                           "file it extends has one)"),
        "year": {"type": ["integer", "string", "number", "null"],
                 "description": "the year of the rules (`null`: undated, where a parent has one)"},
        "description": _text(description="what the game is, in a few sentences"),
        "sources": {"type": "array", "items": _ref("source"),
                    "description": "where the rules come from, each with its page: `[{title: The Compleat Gamester, "
                                   "author: Charles Cotton, year: 1674, page: 168-173}]`; a file built with `extends` "
                                   "gives its own"},
        "notes": {**_either("array", {"items": _text()}, _text()),
                  "description": "what is reconstructed, and why: a list of notes (or one)"},
        "extends": {"type": ["string", "null"], "minLength": 1,
                    "description": "another ruleset to build on: a built-in name (`cotton`) or a `.yaml` file beside "
                                   "this one. The child's top-level keys replace the parent's; `phases` are replaced "
                                   "name by name, and `variables`, `options`, `labels`, `bets` and `fees` are refined "
                                   "key by key"},
        "dice": _ref("dice"),
        "cocked": _ref("cocked"),
        "words": _ref("words"),
        "variables": _ref("variables"),
        "options": _named(_ref("option"), "named alternatives a user picks at run time: `--option main=called`"),
        "labels": _named({**_text(K.MAX_NARRATION_CHARS), "type": [*_SCALAR_TEXT, "null"]},
                         "the period's word for each ending (`win nick`), and what the narrator says: "
                         "`nick: \"{caster} nicks it.\"`"),
        "start": {**_ref("name"), "description": "the first phase (default: the first listed)"},
        "phases": _named(_ref("phase_value"), "the phases of the game, by name: each a list of rules, the first whose "
                                        "condition holds on the throw firing"),
        "passing": _ref("passing"),
        "money": _ref("money"),
        "bets": _named(_ref("bet"), "bets that ride alongside the game and are decided by their own rules on "
                                    "each throw"),
        "fees": _named(_ref("fee"), "fees paid at the end of a game, by their own rules (Hoyle's box: half a "
                                    "guinea after three successive mains)"),
        "printed": {"type": "array", "items": _ref("printed"),
                    "description": "the figures the sources print, each set beside the exact one by `show`, `rules` "
                                   "and `analyse`: `[{source: 12, page: \"90\", figure: 244 to 251, of: win, "
                                   "given: {main: 7}}]`; a file built with `extends` gives its own"},
    },
    "printed": {
        "source": {"type": "integer", "minimum": 1,
                   "description": "which of `sources:` prints it: its place in the list, from 1 (required)"},
        "page": _text(description="the page it is printed on: `\"90\"`"),
        "words": _text(description="the words as printed: `so the hazard of the Caster is to that of the Setter "
                                   "244, 251`"),
        "figure": {"type": ["string", "number"],
                   "description": "the figure as printed (required): a ratio `244 to 251` (the chance against the "
                                  "rest: 244/495), a fraction `244/495` or a percentage `49.29%`"},
        "of": _text(description="what it is a figure of (required): `win`, `lose`, `push`, `edge` (the caster's), "
                                "a label, or `edge` with `bet:`"),
        "bet": {**_ref("name"), "description": "the bet whose edge it is (with `of: edge`)"},
        "given": {"type": "object", "propertyNames": _ref("name"),
                  "additionalProperties": {"anyOf": [{"type": "integer"},
                                                     {"type": "array", "items": {"type": "integer"}, "minItems": 1}]},
                  "maxProperties": 1,
                  "description": "the value (or values) of one variable it is conditioned on: `{main: 7}`, "
                                 "`{main: [6, 8]}`"},
        "options": {"type": "object", "propertyNames": _ref("name"),
                    "additionalProperties": {"type": ["string", "integer"]},
                    "description": "the option values whose rules it is a figure of, whatever the options in "
                                   "force: `{payoff: for}` (a source paying \"for 1\")"},
        "note": _text(description="what is to be said of it (a misprint, where it is quoted)"),
    },
    "source": {
        "title": _text(description="the title of the book or sheet (required)"),
        "author": _text(description="who wrote it"),
        "year": {"type": ["integer", "string", "number", "null"], "description": "when it was published"},
        "page": _text(description="the pages the rules are on: `168-173`"),
        "url": _text(description="where it can be read"),
        "note": _text(description="what it is cited for"),
    },
    "dice_size": {
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_DICE,
                  "description": f"how many dice are thrown, 1 to {MAX_DICE} (two when not said)"},
        "sides": {"type": "integer", "minimum": 2, "maximum": MAX_SIDES,
                  "description": f"how many faces each die has, 2 to {MAX_SIDES} (six when not said)"},
        "faces": {"type": "array", "minItems": 2, "maxItems": MAX_SIDES, "uniqueItems": True, "items": _ref("name"),
                  "description": "the faces' names, in order (`[crown, anchor, heart, diamond, club, spade]`): "
                                 "a rule reads a face by its name (`count(crown) == 2`)"},
    },
    "loading": {
        "die1": {**_ref("faces"), "description": "the first die's chance of each face"},
        "die2": {**_ref("faces"), "description": "the second die's chance of each face"},
        "die3": {**_ref("faces"), "description": "the third die's chance of each face (three dice or more)"},
        "die4": {**_ref("faces"), "description": "the fourth die's chance of each face (four dice or more)"},
        "die5": {**_ref("faces"), "description": "the fifth die's chance of each face (five dice)"},
        "both": {**_ref("faces"), "description": "every die's chance of each face (or `die1`, `die2`…, "
                                                 "not both)"},
    },
    "cocked": {
        "chance": {**_either("object", {
            "required": [K.BY_OPTION],
            "properties": {K.BY_OPTION: {**_ref("name"), "description": "the option whose value picks the chance"}},
            "additionalProperties": _ref("off_chance")}, _ref("off_chance")),
            "description": "each die's chance of landing off, on its own (0 ≤ c < 1): `1/10`, or one per value "
                           "of an option: `{by_option: cocked, one_in_ten: 1/10, one_in_six: 1/6}` (a value not "
                           "named: the dice always land flat) (required)"},
        "rules": {**_ref("rules"), "description": "read when a die is off: `off` (how many dice), `shown` (the "
                                                  "total the others show: with two dice the other's face; 0 if "
                                                  "none), `phase`, the variables, options; the "
                                                  "actions `recast both`, `recast off`, `recast off or both by "
                                                  "caster` (without rules: recast both)"},
        "description": _text(description="what landing off means at this table"),
    },
    "words": {
        "faces": {"type": "array", "items": _text(40), "minItems": 2, "maxItems": MAX_SIDES,
                  "description": "a name for each face, as many as the dice have: `[ace, deuce, trey, cater, "
                                 "cinque, sice]`"},
        "throws": {"type": "object",
                   "propertyNames": {"pattern": r"^ *([0-9]{1,3}|[0-9]{1,2}( *- *[0-9]{1,2}){1,4}) *$"},
                   "additionalProperties": _text(60),
                   "description": "the period's names of throws, by their dice or their total: `{1-1: ames-ace, "
                                  "1-2: deuce-ace, 11: …}` (`1-1-2: …` for three dice)"},
        "caster": _text(60, "how the narration names the caster (default: the caster)"),
        "setters": _text(40, "how the table names those who stake against the caster (default: the setters; "
                             "sic bo's `the punters`)"),
        "box": _text(40, "what the caster takes up and passes on (default: the box, and the dice pass; sic "
                         "bo's `the shaker`)"),
        "casts": _text(40, "what the caster does to begin a game (default: casts; sic bo's `shakes`)"),
    },
    "variable": {
        "initial": {"type": "integer", "minimum": -K.MAX_WHOLE, "maximum": K.MAX_WHOLE,
                    "description": "the value a game starts with (default 0)"},
        "range": {**_ref("range"), "description": "the values it may take, `low..high` (required)"},
        "description": _text(description="what the variable is"),
        "say": {**_ref("narration"), "description": "what the narrator says when it is set: "
                                                    "`\"{value:Word} is the main.\"`"},
    },
    "option": {
        "description": _text(description="what the option decides"),
        "values": {**_either(
            "object", {"minProperties": 1, "propertyNames": {"pattern": r"\S"}, "additionalProperties": _text()},
            {"type": "array", "minItems": 1, "uniqueItems": True, "anyOf": [  # all words, or all numbers
                {"items": {"type": "string", "pattern": r"\S"}},
                {"items": {"type": "integer", "minimum": -K.MAX_WHOLE, "maximum": K.MAX_WHOLE}}]}),
            "description": "the values it may take, all words or all whole numbers: a list, or an object of each "
                           "value to what it means (`{thrown: the caster throws until 5-9, called: the caster "
                           "calls a main}`) (required)"},
        "default": {"type": ["string", "integer"], "description": "the value used unless another is picked "
                                                                  "(default: the first listed)"},
    },
    "phase": {
        "description": _text(description="what happens in this phase"),
        "throw": {"type": "boolean", "description": "`false`: the phase is decided at once, without a throw "
                                                    "(default: true)"},
        "rules": {**_ref("rules"), "description": "the phase's rules (required)"},
    },
    "rule": {
        "when": {**_ref("condition"), "description": "an expression: the condition on the throw, e.g. "
                                                     "`total == main or total in {2, 3}`"},
        "do": {**_ref("actions"), "description": "the actions when the condition holds, separated by `;`: "
                                                 "`set main = total; goto chance`"},
        "otherwise": {**_ref("actions"), "description": "the actions when no rule before it fired (the last "
                                                        "rule): `throw again`"},
        "say": {**_ref("narration"), "description": "what the narrator says when the rule fires"},
    },
    "passing": {
        "losses_in_a_row": {"type": ["integer", "string"], "minimum": 0, "maximum": 100,
                            "description": "the dice pass after this many losses in a row (a push leaves the "
                                           "count as it is, a win resets it; 0: losses never pass them); or an "
                                           "expression over the options: "
                                           "`'if option.passing == \"three_losses\" then 3 else 1'`"},
        "after_labels": {"type": "array", "items": _ref("name"),
                         "description": "a game ending with one of these labels passes the dice: `[seven_out]`"},
        "voluntary_after_win": {"type": "boolean", "description": "the caster may pass the dice after a win"},
        "first": _enum(FIRST_CASTER, "who casts the first game of a session: `seat_order` (the first player "
                                     "named; the default), `lowest_die` (each throws one die, the lowest takes "
                                     "the box) or `highest_die`"),
        "description": _text(description="how the dice pass, in words"),
    },
    "money": {
        "unit": _text(40, "the unit of money: a shilling, a dollar"),
        "units": _text(40, "the unit's plural, where adding an s will not do (`unit: penny`, `units: pence`)"),
        "against": _enum(AGAINST, "`setters` (each setter stakes against the caster, who answers him; the "
                                  "default) or `bank` (the bank answers every stake)"),
        "when_short": _enum(WHEN_SHORT, "`refuse` (the caster refuses the stakes he cannot cover; the default) "
                                        "or `forfeit` (hard play: he gives up the dice)"),
        "stake": {**_ref("name"), "description": "the bet a stake at the table is laid on, settled by that bet's "
                                                 "table (Cotton's `stake`; craps' `pass`); without it, even money "
                                                 "on the game"},
        "refuse": _enum(REFUSE, "`at_will` (the caster may refuse any bet put to him; the default) or "
                                "`when_short` (only one he cannot cover)"),
        "coins": {"type": "object", "propertyNames": {"type": "string", "minLength": 1, "maxLength": K.MAX_CALLED_CHARS},
                  "additionalProperties": _ref("coin"), "maxProperties": K.MAX_COINS,
                  "description": "the coinage a sum is told in, each coin by its name with its worth in the unit: "
                                 "`{pound: {worth: 20, short: \"£{n}\"}, shilling: {worth: 1, short: \"{n}s\"}, "
                                 "penny: {worth: 1/12, plural: pence, short: \"{n}d\"}}` tells 21/2 as 10s 6d"},
        "sums": {"type": "object", "propertyNames": {"type": "string", "minLength": 1, "maxLength": K.MAX_CALLED_CHARS},
                 "additionalProperties": {**_ref("amount"), "description": "the sum, in the unit"},
                 "description": "sums the period names, words to amount: `{half a guinea: 21/2}`"},
    },
    "coin": {
        "worth": {**_ref("amount"), "description": "what one is worth in the unit, more than 0: `1/12` (required)"},
        "plural": _text(K.MAX_CALLED_CHARS, "its plural, where adding an s will not do: `pence`"),
        "short": _text(K.MAX_CALLED_CHARS, "how a count of it is written, `{n}` the count: `\"{n}d\"`, `\"£{n}\"` "
                                           "(without it, in words: 6 pence)"),
        "places": {"type": "integer", "minimum": 0, "maximum": K.MAX_PLACES,
                   "description": "its count written as a decimal to this many places where exact: `2` for "
                                  "`$12.50` (default 0)"},
    },
    "bet": {
        "description": _text(description="what the bet is"),
        "called": _text(K.MAX_CALLED_CHARS, "what players call it, in the narration: `a side bet on the caster` "
                                            "(default: its name's words, `the side bet`)"),
        "backer": _enum(ROLES, "whose money makes the bet: caster, setter, fader, bank, player (default: caster)"),
        "layer": _enum(ROLES, "who takes the other side: caster, setter, fader, bank, player (default: setter)"),
        "made": {**_ref("condition"), "description": "an expression: when the bet may be made, e.g. "
                                                     "`phase != \"come_out\"` (default: any time)"},
        "backs": {**_ref("name"), "description": "the bet this one backs: made only while that bet is up, for "
                                                 "amounts like `2x` or `3-4-5x`"},
        "pays": {"type": "string", "description": "the payout: `7 to 6` (nets 7 for 6), `30 for 1` (nets 29), "
                                                  "`ways(7) to ways(point)` (expressions on either side)"},
        "commission": _ref("commission"),
        "multiples": {"type": "object", "additionalProperties": _ref("expression"),
                      "description": "named multiples of the backed bet, each an expression: "
                                     "`{3-4-5x: \"if point in {4, 10} then 3 else if point in {5, 9} then 4 else 5\"}`"},
        "variables": {**_ref("variables"), "description": "the bet's own variables"},
        "rules": {**_ref("rules"), "description": "the bet's rules, read on each throw: the throw, the game's "
                                                  "variables and phase before it, `result`/`label` if the throw "
                                                  "ended the game, its own variables (or `phases:`, not both)"},
        "phases": {**_named(_ref("phase_value"), "the bet's phases, when its rules need several (or `rules:`, not both)")},
        "start": {**_ref("name"), "description": "the bet's first phase (default: the first listed)"},
        "game": _enum(K.BET_GAMES, "`table` (it reads the table's game; the default) or `own` (it plays a game "
                                   "of its own, from the throw after it is made)"),
        "wins": {**_ref("expression"), "description": "a bet settled by one throw: the condition on which it wins "
                                                      "(`total in 4..10 and most < 3`); it loses on any other throw "
                                                      "(unless `pushes:`); instead of `rules:`"},
        "pushes": {**_ref("expression"), "description": "with `wins:`: the condition on which the bet is a push "
                                                        "(read after `wins:`)"},
    },
    "commission": {
        "rate": {**_ref("amount"), "description": "the commission's rate, 0% to 100%: `5%` (required)"},
        "of": _enum(K.COMMISSION_OF, "what the rate is of: the `bet` (default) or the `win`"),
        "paid": {**_ref("expression"), "examples": list(COMMISSION_PAID),
                 "description": "when it is paid: `on_win` (the default) or `up_front`, or an expression over the "
                                "options giving one of them: `option.vig`"},
    },
    "fee": {
        "description": _text(description="what the fee is"),
        "called": _text(K.MAX_CALLED_CHARS, "what players call it, in the narration: `the box's fee` "
                                            "(default: its name's words, `the box fee`)"),
        "payer": _enum(ROLES, "who pays: caster, setter, fader, bank, player (default: caster)"),
        "payee": _text(60, "who is paid (default: the box)"),
        "amount": {**_ref("amount"), "description": "the amount, 0 or more: `21/2` (required)"},
        "variables": {**_ref("variables"), "description": "the fee's own counters: `{mains: 0..2}`"},
        "rules": {**_ref("rules"), "description": "run at the end of each game; `pay FEE` pays it (required)"},
    },
}

# How each table of parse.keys is described as a whole.
TABLE_DESCRIPTIONS = {
    "ruleset": "a rule file: one variant of Hazard",
    "source": "a source of the rules",
    "printed": "a figure a source prints, set beside the exact one: `{source: 12, figure: 244 to 251, of: win}`",
    "dice_size": "two six-sided dice, the long way: `{count: 2, sides: 6}`",
    "loading": "loaded dice: each die's chance of each face",
    "cocked": "dice that land off (cocked or wild) and are thrown again",
    "words": "the period's words, for the narration only",
    "variable": "a whole number with a range; the state is a phase plus these values",
    "option": "a named alternative a user picks at run time",
    "phase": "a phase, with rules and a description",
    "rule": "a rule: `when:` and `do:`, or `otherwise:` (last); may have `say:`",
    "passing": "when the dice pass to the caster's left",
    "money": "the money at the table",
    "coin": "a coin of the table's coinage",
    "bet": "a bet that rides alongside the game, decided by its own rules on each throw",
    "commission": "a commission on a bet: `{rate: 5%, of: bet, paid: up_front}`",
    "fee": "a fee, run at the end of each game",
}


def _defs() -> dict:
    """The shared definitions: one per table of parse.keys, and the kinds of value."""
    defs = {}
    for name, table in K.TABLES.items():
        values = KEYS[name]
        properties = {key: values[key] for key in table.allowed}  # a key without a description: KeyError
        defs[name] = {"type": "object", "description": TABLE_DESCRIPTIONS[name], "properties": properties,
                      "additionalProperties": False}
    # what is required of a mapping that is replaced whole, never refined by a file that extends it
    for name in ("source", "cocked", "phase", "commission", "printed"):
        defs[name]["required"] = list(K.TABLES[name].required)
    # a rule has `when` and `do`, or `otherwise` and neither of them
    defs["rule"].update({"if": {"required": ["otherwise"]},
                         # `not: {}` rather than `false`: validators report it at the key itself
                         "then": {"properties": {key: {"not": {}, "description": "not with `otherwise:`"}
                                                 for key in ("when", "do")}},
                         "else": {"required": ["when", "do"]}})
    # one of rules:, phases: or wins:
    defs["bet"]["not"] = {"anyOf": [{"required": ["rules", "phases"]}, {"required": ["rules", "wins"]},
                                    {"required": ["phases", "wins"]}]}
    by_option = {"required": [K.BY_OPTION],
                 "properties": {K.BY_OPTION: {**_ref("name"), "description": "the option whose value picks the "
                                                                           "loading"}},
                 "additionalProperties": _ref("loading")}
    size = defs["dice_size"]["properties"]
    by_option["properties"].update(size)
    defs["dice"] = {
        **_either("object", {"if": {"required": [K.BY_OPTION]}, "then": by_option,
                             "else": {"type": "object", "additionalProperties": False,
                                      "properties": {**size, **defs["loading"]["properties"]}}},
                  {"type": "string", "pattern": r"^\s*[1-9][dD][0-9]{1,2}\s*$"}),
        "description": "the dice: `2d6` when not said; `3d6`, `4d6`, `2d8`… (how many dice, how many faces); "
                       "or a mapping: `count`, `sides` or named `faces`, and each die's chance of each face "
                       "(`die1`, `die2`… or `both`, exact chances adding up to 1); with `by_option: OPTION`, "
                       "one such loading per value of that option, a value not named playing fair dice"}
    defs["variables"] = {**_named(_ref("variable_value"), "whole numbers with a range; the state is a phase plus "
                                                         "these values"),
                         "propertyNames": {"allOf": [_ref("name"), {"not": {"enum": sorted(DICE_FACTS)}}]}}
    defs["variable_value"] = {**_either("object", _ref("variable"), _ref("range")),
                              "description": "`low..high`, or an object with `range`, `initial`, `description`, `say`"}
    defs["range"] = {**_either(
        "array", {"minItems": 2, "maxItems": 2,
                  "items": {"type": "integer", "minimum": -K.MAX_WHOLE, "maximum": K.MAX_WHOLE}},
        {"type": "string", "pattern": r"^\s*[+-]?[0-9]+\s*\.\.\s*[+-]?[0-9]+\s*$"}),
        "description": "whole numbers `low..high` (e.g. `0..12`), or `[low, high]`"}
    defs["rules"] = {"type": "array", "minItems": 1, "items": _ref("rule"),
                     "description": "a list of rules (`- when: … do: …`, `- otherwise: …`): the first whose "
                                    "condition holds on the throw fires"}
    defs["phase_value"] = {**_either("array", _ref("rules"), _ref("phase")),
                     "description": "a list of rules, or an object with `rules`, `throw: false`, `description`"}
    defs["name"] = {"type": "string", "pattern": _NAME, "not": {"enum": sorted(K.KEYWORDS)},
                    "description": "a name (letters, digits, _), not a reserved word"}
    defs["condition"] = {"type": ["string", "boolean"],
                         "description": "an expression: `total in 5..9`, `main == 7 and total == 11`"}
    defs["expression"] = {"type": _SCALAR_TEXT,
                          "description": "an expression: `main == 7`, `if point in {4, 10} then 3 else 5`"}
    defs["actions"] = {"type": "string",
                       "description": "actions separated by `;`: `win LABEL`, `lose LABEL`, `push LABEL`, `throw "
                                      "again`, `set VAR = VALUE`, `goto PHASE`, `choose VAR from SET by caster`; in "
                                      "a bet `win pays A to B`; in a fee `pay FEE`; in `cocked:` `recast both`"}
    defs["narration"] = _text(K.MAX_NARRATION_CHARS,
                              "what the narrator says: fills `{caster}`, `{total}`, `{throw}` and the variables; "
                              "`{main:word}` spells a number, `{main:Word}` capitalises it")
    # a pattern constrains only a string, a minimum only a number: one schema says both
    defs["amount"] = {"type": ["number", "string"], "pattern": _AMOUNT,
                      "description": "an exact number: `12`, `10.5`, `21/2` or `5%`"}
    defs["off_chance"] = {"type": ["number", "string"], "pattern": _AMOUNT, "minimum": 0, "exclusiveMaximum": 1,
                          "description": "a die's chance of landing off, at least 0 and less than 1: `1/10`"}
    defs["faces"] = {"type": "array", "minItems": 2, "maxItems": MAX_SIDES,
                     "items": {"type": ["number", "string"], "pattern": _AMOUNT, "minimum": 0},
                     "description": "the chance of each face, 1 to the dice's sides, adding up to 1: "
                                    "`[1/12, 1/12, 1/12, 1/4, 1/4, 1/4]`"}
    for name, title in TITLES.items():
        defs[name]["title"] = title
    return defs


# What each definition is called where an editor names it. yaml-language-server says "Incorrect type.
# Expected X" with X a definition's title, else the last part of its `$ref` ("money"): an author
# is told what kind of value is meant, in words (an object, a list, a number), not the schema's name.
TITLES = {
    **{name: "an object" for name in K.TABLES if name != "ruleset"},
    "dice": "`2d6`, or an object of each die's chances",
    "variables": "an object: each variable by name",
    "variable_value": "a range `low..high`, or an object",
    "range": "a range `low..high`, or a list `[low, high]`",
    "rules": "a list of rules",
    "phase_value": "a list of rules, or an object",
    "name": "a name",
    "condition": "an expression",
    "expression": "an expression",
    "actions": "actions",
    "narration": "a text",
    "amount": "a number",
    "off_chance": "a chance",
    "faces": "a list of chances, one per face",
}


def rule_file_schema() -> dict:
    """The JSON Schema (draft 2020-12) of a rule file: the same on every call, built from the
    reader's table of keys (`hazard_dsl.parse.keys`)."""
    defs = _defs()
    ruleset = defs.pop("ruleset")
    # A file that extends nothing is the whole ruleset: what a merged file must have, it must have.
    # One that extends another may refine a parent's bet, fee, option or variable key by key.
    # (said under `patternProperties`, each key's pattern matching that key alone: an editor offers
    # the keys of `properties` for completion, and would offer `fees` and the others twice)
    whole = {
        "required": list(K.RULESET.required),
        "patternProperties": {
            "^phases$": {"minProperties": 1},
            "^variables$": {"additionalProperties": {"if": {"type": "object"},
                                                   "then": {"required": list(K.VARIABLE.required)}}},
            "^options$": {"additionalProperties": {"required": list(K.OPTION.required)}},
            "^bets$": {"additionalProperties": {"anyOf": [{"required": ["rules"]}, {"required": ["phases"]}, {"required": ["wins"]}]}},
            "^fees$": {"additionalProperties": {"required": list(K.FEE.required)}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "hazard-dsl rule file",
        "description": "A variant of the dice game Hazard (or craps) as a hazard-dsl rule file. The schema "
                       "says its shape; `hazard-dsl check FILE` checks it whole (expressions, names, the game).",
        "type": "object",
        "properties": ruleset["properties"],
        "additionalProperties": False,
        "if": {"required": ["extends"], "properties": {"extends": {"type": "string"}}},
        "else": whole,
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as the shipped file has it: pretty, keys sorted, a final newline."""
    return json.dumps(rule_file_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m hazard_dsl.language.schema [--write]`: print the schema, or write the shipped file."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--write"]:
        SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_FILE}", file=sys.stderr)
        return 0
    if argv:
        print("usage: python -m hazard_dsl.language.schema [--write]", file=sys.stderr)
        return 2
    sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
