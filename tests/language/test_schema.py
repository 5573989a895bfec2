"""The JSON Schema of rule files (hazard_dsl.language.schema, `hazard-dsl schema`): the shipped file is
the one the code writes; every rule file `check` accepts satisfies it; broken files fail it at the
key that is wrong; and its keys are the checker's keys, both ways."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from hazard_dsl.check import check_file
from hazard_dsl.cli import main
from hazard_dsl.diagnostics import ERROR
from hazard_dsl.language.schema import SCHEMA_FILE, rule_file_schema, schema_text
from hazard_dsl.parse import keys as K
from hazard_dsl.parse.yaml_nodes import YMap, YSeq, load_yaml

ROOT = Path(__file__).resolve().parents[2]
EVERY_KEY = ROOT / "tests" / "data" / "schema" / "every_key.yaml"
SCHEMA = rule_file_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def as_json(text: str, name: str = "<test>"):
    """A rule file's YAML as a schema-aware editor sees it: keys as strings, values as the
    project's own safe loader reads them (the loader `check` uses)."""

    def plain(node):
        if isinstance(node, YMap):
            return {key: plain(value) for key, (_, value) in node.entries.items()}
        if isinstance(node, YSeq):
            return [plain(item) for item in node.items]
        return node.value

    return plain(load_yaml(text, name, register=False))


def errors_of(text: str) -> list[tuple[str, str]]:
    """(path, keyword) of each error the schema finds, innermost first where one is a branch of another."""
    found = []

    def walk(error):
        found.append(("/".join(map(str, error.absolute_path)), error.validator))
        for sub in error.context or ():
            walk(sub)

    for error in VALIDATOR.iter_errors(as_json(text)):
        walk(error)
    return found


def check_errors(tmp_path: Path, text: str, name: str = "rules.yaml") -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return [d.message for d in check_file(path) if d.severity == ERROR]


# ------------------------------------------------------------------ the shipped file


def test_the_shipped_schema_is_the_one_the_code_writes():
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "hazard_dsl/language/rule-file.schema.json is out of date: regenerate it with "
        "`python -m hazard_dsl.language.schema --write` and commit it")
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == SCHEMA


def test_the_schema_is_a_draft_2020_12_schema_with_a_title_and_an_id():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] and SCHEMA["title"] and SCHEMA["description"]
    assert schema_text().endswith("}\n") and schema_text() == json.dumps(SCHEMA, indent=2, sort_keys=True,
                                                                         ensure_ascii=False) + "\n"


def test_the_schema_file_is_inside_the_package_so_the_wheel_ships_it():
    assert SCHEMA_FILE.parent == ROOT / "hazard_dsl" / "language"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'packages = ["hazard_dsl"]' in pyproject


# ------------------------------------------------------------------ valid files satisfy it


def rule_files() -> list[Path]:
    return sorted([*ROOT.glob("rulesets/*.yaml"), *ROOT.glob("docs/examples/*.yaml"),
                   *ROOT.glob("tests/data/rulesets/*.yaml"), *ROOT.glob("tests/data/broken/*.yaml"), EVERY_KEY])


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_rule_file_check_accepts_satisfies_the_schema():
    accepted = [path for path in rule_files()
                if not any(d.severity == ERROR for d in check_file(path))]
    # the corpus, the tutorial's finished files, the tests' rule files and this file's own
    assert {p.name for p in ROOT.glob("rulesets/*.yaml")} <= {p.name for p in accepted}
    assert {"tavern.yaml", "tavern-cocked.yaml", "side_bets.yaml", "every_key.yaml"} <= {p.name for p in accepted}
    assert len(accepted) >= 15
    for path in accepted:
        errors = list(VALIDATOR.iter_errors(as_json(path.read_text(encoding="utf-8"), str(path))))
        assert not errors, f"{path}: {jsonschema.exceptions.best_match(errors).message}"


# Forms of values the corpus may not use, each checked clean by `check` (built on Cotton's game).
FORMS = {
    "dice 2d6": "dice: 2d6\n",
    "dice the long way": "dice: {count: 2, sides: 6}\n",
    "dice by option, fair when not named": "options: {d: {values: [a, b]}}\ndice: {by_option: d, b: {both: "
                                           "[0.1, 0.1, 0.1, 0.1, 0.1, 0.5]}}\n",
    "cocked chance by option": "options: {c: {values: [never, often]}}\n"
                               "cocked: {chance: {by_option: c, often: 10%}}\n",
    "a range as a list": "variables: {chance: [0, 12]}\n",
    "option values as a list of numbers": "options: {n: {values: [1, 3], default: 3}}\n",
    "a label that says nothing": "labels: {out: null}\n",
    "losses in a row as an expression": "passing: {losses_in_a_row: 'if option.passing == \"three_losses\" "
                                        "then 3 else 1'}\n",
    "notes as one text": "notes: one note\n",
    "a year as text": "year: c. 1674\n",
    "a name that YAML reads as a number": "name: 1674\n",
}


@pytest.mark.parametrize("form", FORMS)
def test_other_forms_the_checker_accepts_satisfy_the_schema(tmp_path, form):
    text = "extends: cotton\n" + FORMS[form]
    assert check_errors(tmp_path, text) == []
    assert errors_of(text) == []


# ------------------------------------------------------------------ broken files fail it where they are wrong

BASE = EVERY_KEY.read_text(encoding="utf-8")

# (what is wrong, the text changed from → to, the path of the error, the schema keyword that refuses it)
BROKEN = [
    ("a misspelt top-level key", "\nstart: set_main", "\nstrat: set_main", "", "additionalProperties"),
    ("a misspelt key of a phase", "    throw: true\n", "    throws: true\n", "phases/set_main", "additionalProperties"),
    ("a misspelt key of a rule", "        say: \"{throw}", "        sya: \"{throw}", "phases/set_main/rules/0",
     "additionalProperties"),
    ("a misspelt key of a bet", "    backs: stake", "    back: stake", "bets/odds", "additionalProperties"),
    ("a misspelt key of a fee", "    payee: the box", "    payer_to: the box", "fees/box", "additionalProperties"),
    ("a misspelt key of passing", "  voluntary_after_win: true", "  voluntary_after_a_win: true", "passing",
     "additionalProperties"),
    ("a misspelt key of money", "  unit: penny", "  unti: penny", "money", "additionalProperties"),
    ("a misspelt key of an option", "    default: even", "    defualt: even", "options/dice", "additionalProperties"),
    ("a misspelt key of a variable", "    initial: 0", "    inital: 0", "variables/main", "additionalProperties"),
    ("a misspelt key of a commission", "of: bet,", "off: bet,", "bets/odds/commission", "additionalProperties"),
    ("a misspelt key of cocked", "  description: a die may", "  descripton: a die may", "cocked",
     "additionalProperties"),
    ("a misspelt key of a source", "    page: 168-173", "    pages: 168-173", "sources/0", "additionalProperties"),
    ("a misspelt key of a die's loading", "    both: [", "    bothe: [", "dice/even", "additionalProperties"),
    ("a string where a mapping is", "money:\n  unit: penny", "money: penny\nmoney_was:\n  unit: penny", "money",
     "type"),
    ("a string where a list of rules is", "  chance:\n    - when: total == chance",
     "  chance: throw again\n  chance_was:\n    - when: total == chance", "phases/chance", "type"),
    ("a list where a number is", "  losses_in_a_row: 1", "  losses_in_a_row: [1]", "passing/losses_in_a_row",
     "type"),
    ("a list where a whole number is", "    initial: 0", "    initial: [0]", "variables/main/initial", "type"),
    ("a mapping where a condition is", "made: phase == \"chance\"\n", "made: {phase: chance}\n", "bets/odds/made",
     "type"),
    ("text where true or false is", "    throw: true", "    throw: sometimes", "phases/set_main/throw", "type"),
    ("a value outside money: refuse", "  refuse: at_will", "  refuse: always", "money/refuse", "enum"),
    ("a value outside passing: first", "  first: lowest_die", "  first: youngest", "passing/first", "enum"),
    ("a value outside money: against", "  against: setters", "  against: house", "money/against", "enum"),
    ("a bet's backer outside the roles", "    backer: caster\n    layer: setter\n    made: phase == \"chance_throw\"",
     "    backer: house\n    layer: setter\n    made: phase == \"chance_throw\"", "bets/stake/backer", "enum"),
    ("a bet's game outside own and table", "    game: table", "    game: mine", "bets/odds/game", "enum"),
    ("a commission of neither bet nor win", "of: bet,", "of: stake,", "bets/odds/commission/of", "enum"),
    ("one face for a die", "    both: [1/6, 1/6, 1/6, 1/6, 1/6, 1/6]", "    both: [1]",
     "dice/even/both", "minItems"),
    ("a chance that is no amount", "  chance: 1/10", "  chance: one in ten", "cocked/chance", "pattern"),
    ("a reserved word as a phase's name", "  chance_throw:\n", "  then:\n", "phases", "not"),
    ("a rule with otherwise and do", "      - otherwise: throw again\n  chance_throw:",
     "      - otherwise: throw again\n        do: win nick\n  chance_throw:", "phases/set_main/rules/1/do", "not"),
]


@pytest.mark.parametrize("what, old, new, path, keyword", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_fails_at_the_key_that_is_wrong(tmp_path, what, old, new, path, keyword):
    assert BASE.count(old) == 1, f"the test's text {old!r} is not once in every_key.yaml"
    text = BASE.replace(old, new)
    found = errors_of(text)
    assert found, f"{what}: the schema finds nothing wrong"
    assert (path, keyword) in found, f"{what}: expected {keyword} at /{path}, found {found}"
    # and the checker refuses the same file: the schema never reports what check accepts
    assert check_errors(tmp_path, text), f"{what}: check accepts it"


# ------------------------------------------------------------------ the schema's keys are the checker's, both ways


def table_schemas() -> dict[str, dict]:
    """Each table of parse.keys as the schema has it (the rule file itself is the top level)."""
    return {name: SCHEMA if name == "ruleset" else SCHEMA["$defs"][name] for name in K.TABLES}


@pytest.mark.parametrize("name", list(K.TABLES))
def test_every_key_the_checker_accepts_is_in_the_schema_and_no_other(name):
    schema = table_schemas()[name]
    assert list(schema["properties"]) == list(K.TABLES[name].allowed)
    assert schema["additionalProperties"] is False
    for key, value in schema["properties"].items():
        assert value.get("description") or SCHEMA["$defs"][value["$ref"].split("/")[-1]].get("description"), \
            f"{name}: {key} has no description"


# Where each table's mappings are in every_key.yaml (and, for the dice said the long way, in a file
# of its own): between them they use every key of the table.
PLACES = {
    "ruleset": [()], "source": [("sources", 0)], "loading": [("dice", "loaded"), ("dice", "even")],
    "cocked": [("cocked",)], "words": [("words",)], "variable": [("variables", "main")],
    "option": [("options", "dice")], "phase": [("phases", "set_main")],
    "rule": [("phases", "set_main", "rules", 0), ("phases", "set_main", "rules", 1)],
    "passing": [("passing",)], "money": [("money",)],
    "coin": [("money", "coins", "shilling"), ("money", "coins", "penny")], "bet": [("bets", "stake"), ("bets", "odds"), ("bets", "doublets")],
    "commission": [("bets", "odds", "commission")], "fee": [("fees", "box")],
    "printed": [("printed", 0), ("printed", 1)],
}
DICE_SIZE = "extends: cotton\ndice: {count: 2, sides: 6}\n"
# Five dice of three named faces, each loaded its own way: the keys of a loading past die2.
MANY_DICE = """name: Five dice
sources: [{title: Written for the schema's tests}]
dice:
  count: 5
  faces: [sun, moon, star]
  die1: [1/3, 1/3, 1/3]
  die2: [1/2, 1/4, 1/4]
  die3: [1/4, 1/2, 1/4]
  die4: [1/4, 1/4, 1/2]
  die5: [1/3, 1/3, 1/3]
phases:
  come_out:
    rules:
      - when: count(sun) >= 3
        do: win
      - otherwise: lose
"""


def test_the_file_of_every_key_uses_every_key_of_the_schema():
    assert set(PLACES) | {"dice_size"} == set(K.TABLES)
    document = as_json(BASE)
    for name, places in PLACES.items():
        used = set()
        for place in places:
            node = document
            for step in place:
                node = node[step]
            used |= set(node)
        if name == "loading":  # the dice past the second are used by a file of five dice
            used |= set(as_json(MANY_DICE)["dice"]) - set(K.DICE_SIZE.allowed)
        assert used == set(table_schemas()[name]["properties"]), name
    assert set(as_json(DICE_SIZE)["dice"]) | {"faces"} == set(SCHEMA["$defs"]["dice_size"]["properties"])
    assert set(as_json(MANY_DICE)["dice"]) >= {"count", "faces"}


def test_every_key_of_the_schema_is_accepted_by_the_checker(tmp_path):
    # every_key.yaml checks clean: no key of it is unknown to the checker, and the schema takes it
    assert check_errors(tmp_path, BASE, "every_key.yaml") == []
    assert errors_of(BASE) == []
    assert check_errors(tmp_path, DICE_SIZE) == [] and errors_of(DICE_SIZE) == []
    assert check_errors(tmp_path, MANY_DICE) == [] and errors_of(MANY_DICE) == []


def test_a_key_the_checker_does_not_know_is_refused_by_both(tmp_path):
    # the converse, on every table at once: one unknown key in each kind of mapping
    text = BASE.replace("\nstart: set_main", "\nstart: set_main\nzzz: 1").replace(
        "    throw: true", "    throw: true\n    zzz: 1").replace("  unit: penny", "  unit: penny\n  zzz: 1")
    messages = check_errors(tmp_path, text)
    assert sum("unknown key 'zzz'" in m for m in messages) == 3
    assert {p for p, k in errors_of(text) if k == "additionalProperties"} == {"", "phases/set_main", "money"}


def test_a_file_that_extends_another_need_not_repeat_what_it_inherits(tmp_path):
    text = "extends: cotton\noptions: {main: {default: called}}\nvariables: {main: {initial: 5}}\n"
    assert check_errors(tmp_path, text) == []
    assert errors_of(text) == []
    # the same without a parent lacks name, phases, the option's values and the variable's range
    found = {p for p, k in errors_of(text.replace("extends: cotton", "extends: null")) if k == "required"}
    assert found == {"", "options/main", "variables/main"}


# ------------------------------------------------------------------ the command


def test_the_command_prints_the_shipped_schema(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert main(["schema", "--json"]) == 0
    assert capsys.readouterr().out == SCHEMA_FILE.read_text(encoding="utf-8")


def test_the_command_writes_a_new_file_and_refuses_an_existing_one_unless_forced(tmp_path, capsys):
    out = tmp_path / "hazard-dsl.schema.json"
    assert main(["schema", "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == SCHEMA_FILE.read_text(encoding="utf-8")
    out.write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["schema", "--output", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hazard-dsl: error: --output ") and "--force" in err and len(err.splitlines()) == 1
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert main(["schema", "--output", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8") == SCHEMA_FILE.read_text(encoding="utf-8")


def test_the_command_never_writes_over_a_built_in_ruleset_and_takes_no_other_format(capsys):
    from hazard_dsl.parse.files import builtin_file

    cotton = builtin_file("cotton")
    before = cotton.read_bytes()
    assert main(["schema", "--output", str(cotton), "--force"]) == 2
    assert cotton.read_bytes() == before
    assert "rule file" in capsys.readouterr().err
    assert main(["schema", "--force"]) == 2
    with pytest.raises(SystemExit) as exit_:
        main(["schema", "--format", "yaml"])
    assert exit_.value.code == 2
