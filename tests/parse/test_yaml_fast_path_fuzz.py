"""The YAML reader's own plain scalars against PyYAML's safe loader (fuzz42), over generated
scalars: the loader makes a plain whole number, a boolean and null itself without making
PyYAML's constructor (`yaml_nodes._Loader.constructed`, d5893af), and reads a plain document
event by event (`_Loader.from_events`) rather than through the composer. The second method is
PyYAML itself: `SafeLoader.construct_object` for each (tag, text), and `yaml.safe_load` of the
whole document, whose values the rest of the reader must see.

Where the two are meant to differ, the test says so: a tag outside the plain ones (a date,
!!binary, !!set, a merge key `<<`) is refused by the reader with a positioned error where
PyYAML builds a value, and a malformed explicit scalar (`!!int 'x'`, `!!bool 'y'`) keeps its
text where PyYAML's constructor raises."""

from __future__ import annotations

import math

import pytest
import yaml
from hypothesis import example, given, strategies as st

from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse import yaml_nodes as Y
from hazard_dsl.parse.numbers import MAX_YAML_DIGITS, yaml_int_digits

_INT, _BOOL, _NULL, _FLOAT, _STR = (f"tag:yaml.org,2002:{kind}" for kind in ("int", "bool", "null", "float", "str"))
_PLAIN_TAGS = {_INT, _BOOL, _NULL, _FLOAT, _STR}

# the characters YAML 1.1's resolver and PyYAML's constructors look at: signs, digits of every
# base, `_` and `:` (sexagesimal), `.`, the letters of inf/nan/true/yes/on/null, `~`, and a few
# that are none of these (a non-ASCII digit, a space, a line break)
_ALPHABET = "0123456789+-_.:xXbBoOeEaAcCdDfFiInNlLsSrRtTuUyY~ \n\u0663\u00a0"
FORMS = ["0o17", "0x1F", "0X1F", "0b101", "1_000", "+5", "-0", "+0", "0", "-0x1f", ".inf", "-.Inf", ".nan",
         "~", "null", "Null", "NULL", "nULL", "", "yes", "no", "on", "off", "YES", "Yes", "y", "n", "True",
         "TRUE", "tRUE", "1e3", "1.0e3", "1.e3", "012", "09", "08", "0_1", "-012", "1:30", "1:30:00", "-1:30",
         "190:20:30.15", "0.", "-.5", "+.5", "1__0", "_1", "0x_1F", "0b", "0x", "-", "+", "00", "-00",
         "9" * 30, "-" + "9" * 30, "0x" + "f" * 40, "0b" + "1" * 60, "0" + "7" * 60, "1" * 64, "1" * 65,
         "1." + "0" * 300, "\u0663", "1\u0661", " 3", "3\n", "1e999"]
TEXTS = st.one_of(st.sampled_from(FORMS), st.text(alphabet=_ALPHABET, max_size=12),
                  st.from_regex(r"[-+]?(0[xXbBoO]?)?[0-9_]{0,8}(:[0-9]{1,2}){0,2}(\.[0-9_]*)?([eE][-+]?[0-9]+)?",
                                fullmatch=True))


def _resolved(text: str) -> str:
    return yaml.SafeLoader("").resolve(yaml.ScalarNode, text, (True, False))


def _pyyaml(tag: str, text: str):
    """PyYAML's safe constructor's value of a scalar, or the exception it raises."""
    try:
        return yaml.SafeLoader("").construct_object(yaml.ScalarNode(tag, text))
    except Exception as exc:  # noqa: BLE001 - what PyYAML does with it is the answer
        return exc


def _same(mine, theirs) -> bool:
    if type(mine) is not type(theirs):
        return False
    if isinstance(mine, float) and math.isnan(mine):
        return math.isnan(theirs)
    return mine == theirs


@given(text=TEXTS, tag=st.sampled_from([None, _INT, _BOOL, _NULL, _FLOAT, _STR]))
@example(text="-0", tag=_INT)
@example(text="+0", tag=_INT)
@example(text="3\n", tag=_INT)  # `\Z`, not `$`: a line break after the digits is no plain int
@example(text="\u0663", tag=_INT)  # a non-ASCII digit: int() takes it, PyYAML's constructor too
@example(text="TRUE", tag=_BOOL)
@example(text="anything", tag=_NULL)
def test_the_loaders_own_scalars_are_pyyamls(text, tag):
    tag = _resolved(text) if tag is None else tag  # None: the tag the resolver gives the plain text
    if tag == _INT and yaml_int_digits(text) > MAX_YAML_DIGITS:
        return  # refused before any value is made (tests/parse/test_hostile_parse.py)
    theirs = _pyyaml(tag, text)
    try:
        mine = Y._Loader("f.yaml", text).constructed(yaml.ScalarNode(tag, text))
    except Exception as exc:  # noqa: BLE001
        mine = exc
    if isinstance(theirs, Exception):  # the same failure, which the reader turns into the text
        assert type(mine) is type(theirs), (text, tag, mine, theirs)
    else:
        assert _same(mine, theirs), (text, tag, mine, theirs)


def _value(node):
    if isinstance(node, Y.YScalar):
        return node.value
    if isinstance(node, Y.YSeq):
        return [_value(item) for item in node.items]
    if isinstance(node, Y.YMap):
        return {name: _value(entry[1]) for name, entry in node.entries.items()}
    return node


def _composed(text: str):
    root = Y._compose(text, "f.yaml")
    return None if root is Y._EMPTY else Y._Loader("f.yaml", text).convert(root)


_WRITTEN = st.sampled_from(["{}", "'{}'", '"{}"', "!!int {}", "!!str {}", "!!bool {}", "!!null {}", "!!float {}",
                            "!!int '{}'", "!!int \"{}\"", "!<tag:yaml.org,2002:int> {}", "! {}",
                            "&a {}\nj: *a", "[{}]", "{{v: {}}}"])


@given(text=TEXTS, written=_WRITTEN)
@example(text="1", written="&a {}\nj: *a")
@example(text="2001-12-14", written="{}")
@example(text="3", written="!!str {}")
@example(text="", written="! {}")  # libyaml's empty `!` scalar: PyYAML reads it as null (fuzz42 Y1)
@example(text="", written="[! {}]")
def test_a_document_reads_as_pyyamls_safe_load_reads_it(text, written):
    """`k: <scalar>` as a rule file's reader reads it (event by event, or the composer where the
    document is not plain) against yaml.safe_load: the same value under `k`, of the same type;
    or, where PyYAML cannot read the text, a RulesetError at the place PyYAML names."""
    if "'" in written:
        text = text.replace("'", "''")
    if '"' in written:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    if "\n" in text or any(ch in text for ch in ":#{}[],&*!|>%@`") and "'" not in written and '"' not in written:
        text = text.replace("\n", " ").strip() or "0"  # a plain scalar of one line, not a key or a flow's end
        if any(ch in text for ch in ":#{}[],&*!|>%@`"):
            return
    document = "k: " + written.format(text) + "\n"
    Y._load.cache_clear()
    try:
        theirs = yaml.safe_load(document)
    except yaml.MarkedYAMLError as exc:
        theirs = exc
    except Exception as exc:  # noqa: BLE001 - a constructor's own (KeyError for `!!bool 'y'`)
        theirs = exc
    try:
        mine = Y.load_yaml(document, "f.yaml", register=False)
    except RulesetError as exc:
        mine = exc
    if isinstance(mine, RulesetError):
        tags = {node.tag for node in _nodes(yaml.compose(document, Loader=yaml.SafeLoader))} \
            if not isinstance(theirs, Exception) else set()
        if not isinstance(theirs, Exception):
            # a tag no rule file may use (a date, a merge key), or a number of too many digits
            foreign = tags - _PLAIN_TAGS - {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
            assert foreign or any("digits" in d.message for d in mine.diagnostics), (document, mine, theirs)
        elif isinstance(theirs, yaml.MarkedYAMLError) and theirs.problem_mark is not None \
                and not isinstance(theirs, yaml.constructor.ConstructorError):
            first = mine.diagnostics[0].position
            assert (first.line, first.column) == (theirs.problem_mark.line + 1, theirs.problem_mark.column + 1), \
                (document, mine, theirs)
        return
    events = Y._read_events(document, "f.yaml")
    composed = _composed(document)
    if events is not None:  # the event reader and the composer read a plain document alike
        assert _value(events) == _value(composed) or _nan(_value(composed))
    value = _value(mine)
    if isinstance(theirs, Exception):  # a malformed explicit scalar: its text kept
        assert not isinstance(theirs, yaml.MarkedYAMLError) or isinstance(
            theirs, yaml.constructor.ConstructorError), (document, value, theirs)
        return
    assert list(value) == list(theirs) == ["k"] + (["j"] if "*a" in written else []), (document, value, theirs)
    for name in value:
        assert _deep_same(value[name], theirs[name]), (document, value, theirs)


def _nan(value) -> bool:
    return any(isinstance(v, float) and math.isnan(v) for v in _leaves(value))


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _deep_same(mine, theirs) -> bool:
    if isinstance(theirs, dict):  # the reader's keys are their text
        return isinstance(mine, dict) and list(mine) == [str(k) if not isinstance(k, bool) else k for k in theirs] \
            and all(_deep_same(m, t) for m, t in zip(mine.values(), theirs.values()))
    if isinstance(theirs, list):
        return isinstance(mine, list) and len(mine) == len(theirs) and all(map(_deep_same, mine, theirs))
    return _same(mine, theirs)


def _nodes(node):
    yield node
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _nodes(item)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _nodes(key)
            yield from _nodes(value)


@pytest.mark.parametrize("document, line, column, message, hint", [
    # an unquoted date: PyYAML makes a date; the author wrote no tag (fuzz42 Y2)
    ("k: 2001-12-14\n", 1, 4, "2001-12-14 reads as a date in YAML, which a rule file does not take",
     "quote it if it is text: '2001-12-14'"),
    ("a: {x: 1}\nk:\n  <<: {y: 2}\n", 3, 3, "`<<` is YAML's merge key, which a rule file does not take",
     "write the keys out in full"),
    ("k: =\n", 1, 4, "`=` is YAML's value key, which a rule file does not take", "quote it if it is text: '='"),
    # a tag written: said as the tag it is
    ("k: !!timestamp 2001-12-14\n", 1, 4, "YAML tag 'tag:yaml.org,2002:timestamp' is not allowed in a rule file",
     None),
    ("k: &d !!timestamp 2001-12-14\n", 1, 4, "YAML tag 'tag:yaml.org,2002:timestamp' is not allowed in a rule file",
     None),
    ("k: !!binary aGk=\n", 1, 4, "YAML tag 'tag:yaml.org,2002:binary' is not allowed in a rule file", None),
    ("k: !!set {a}\n", 1, 4, "YAML tag 'tag:yaml.org,2002:set' is not allowed in a rule file", None),
])
def test_a_type_pyyaml_builds_and_the_reader_refuses_is_placed_and_said(document, line, column, message, hint):
    with pytest.raises(RulesetError) as caught:
        Y.load_yaml(document, "f.yaml", register=False)
    first = caught.value.diagnostics[0]
    assert (first.message, first.hint) == (message, hint)
    assert (first.position.line, first.position.column) == (line, column)


@pytest.mark.parametrize("document, value", [("k: !\n", None), ("k: ! \n", None), ("- !\n- ! ~\n", [None, None]),
                                             ("k: ! ''\n", None), ("k: !!str\n", "")])
def test_an_empty_scalar_tagged_bang_is_null_as_pyyaml_reads_it(document, value):
    # yaml.safe_load's values (PyYAML's pure parser calls `k: !` plain, libyaml does not), by
    # the event reader, libyaml's composer and the pure composer alike (fuzz42 Y1)
    expected = {"k": value} if document.startswith("k") else value
    assert yaml.safe_load(document) == expected
    Y._load.cache_clear()
    read = Y.load_yaml(document, "f.yaml", register=False)
    assert _value(read) == expected
    root = Y._compose_fast(document)
    assert _value(Y._Loader("f.yaml", document).convert(root)) == _value(read)
