"""The YAML read event by event (`yaml_nodes._Loader.from_events`) against the composer's tree
converted (`_Loader.convert`), the second method here: the same nodes, in the same order, at
the same places, with the same values, for every rule file the project holds and for texts of
each kind of scalar; and the documents that are not plain left to the composer (None)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hazard_dsl.parse import yaml_nodes as Y

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.joinpath("rulesets").glob("*.yaml")) + sorted(ROOT.joinpath("tests", "data").rglob("*.yaml"))


def _composed(text: str):
    root = Y._compose_fast(text)
    return root if root is None or root is Y._EMPTY else Y._Loader("f.yaml", text).convert(root)


def _same(a, b) -> None:
    assert type(a) is type(b) and a == b and a.position == b.position
    if isinstance(a, Y.YScalar):
        assert type(a.value) is type(b.value)
        assert (a._span.raw, a._span.start) == (b._span.raw, b._span.start)
        assert [a.position_at(k) for k in range(len(a.text) + 2)] == [b.position_at(k) for k in range(len(b.text) + 2)]
    elif isinstance(a, Y.YSeq):
        for x, y in zip(a.items, b.items, strict=True):
            _same(x, y)
    else:
        assert list(a.entries) == list(b.entries)
        for name in a.entries:
            _same(a.entries[name][0], b.entries[name][0])
            _same(a.entries[name][1], b.entries[name][1])


def test_every_rule_file_reads_as_the_composer_reads_it():
    read = 0
    for path in FILES:
        text = path.read_text(encoding="utf-8", errors="surrogatepass")
        try:
            events = Y._read_events(text, "f.yaml")
        except Exception as exc:  # pragma: no cover - the reader says None, never raises
            raise AssertionError(path) from exc
        if events is None:
            continue
        read += 1
        composed = _composed(text)
        if events is Y._EMPTY:
            assert composed is Y._EMPTY, path
            continue
        _same(events, composed)
    assert read >= len(FILES) * 3 // 4  # (most are plain: the others are composed, as before)


@pytest.mark.parametrize("text", [
    "a: 1\nb: -2\nc: 0x1f\nd: 1.5\ne: true\nf: null\ng: ~\nh: ''\ni: \"x\\ty\"\nj: 'it''s'\n",
    "a: |\n  one\n  two\nb: >-\n  folded\n  text\nc: [1, 'two', {d: 3}]\n",
    "- when: total == 7\n  do: win nick\n- otherwise: throw again\n",
    "# a comment\n\nname: x   # and another\nphases: {}\n",
    "a: !!str 5\nb: !!int '7'\n",
    "",
    "# only a comment\n",
])
def test_texts_of_each_kind_read_as_the_composer_reads_them(text):
    events = Y._read_events(text, "f.yaml")
    assert events is not None
    composed = _composed(text)
    if events is Y._EMPTY:
        assert composed is Y._EMPTY
    else:
        _same(events, composed)


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n",  # an anchor and its alias
    "a: !custom 1\n",  # a tag no rule file may use
    "a: 1\na: 2\n",  # a key twice: the composer's reading says so
    "? [1, 2]\n: x\n",  # a key that is no scalar
    "a: 1\n---\nb: 2\n",  # a second document
    "a: [1, 2\n",  # broken
    "a: " + "[" * 120 + "]" * 120 + "\n",  # deeper than a rule file may nest
])
def test_what_is_not_plain_is_left_to_the_composer(text):
    assert Y._read_events(text, "f.yaml") is None


@pytest.mark.parametrize("text", ["0", "-0", "+0", "7", "-12", "+5", "010", "0x1F", "0b11", "1_000", "190:20:30",
                                  "12345678901234567890", "true", "True", "TRUE", "yes", "Yes", "NO", "off", "On",
                                  "null", "~", "Null", "NULL", "", "1e3", ".5", ".inf"])
def test_a_number_a_boolean_and_null_are_made_as_pyyaml_makes_them(text):
    # the loader's own plain ints, booleans and nulls (`_Loader.constructed`) against PyYAML's
    # safe constructor, the second method, for every kind the resolver tags (octal, hex,
    # sexagesimal and floats are left to PyYAML itself)
    yaml = Y._pyyaml()
    tag = yaml.SafeLoader("").resolve(yaml.ScalarNode, text, (True, False))
    mine = Y._Loader("f.yaml", text).constructed(yaml.ScalarNode(tag, text))
    theirs = yaml.SafeLoader("").construct_object(yaml.ScalarNode(tag, text))
    assert type(mine) is type(theirs) and mine == theirs
