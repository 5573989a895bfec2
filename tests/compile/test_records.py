"""`hazard_dsl.records`: the subset of dataclasses the pipeline uses, with the same behaviour."""

from __future__ import annotations

import pickle

import pytest

from hazard_dsl.records import FrozenRecordError, field, fields, record, replace


@record(frozen=True, order=True)
class Point:
    x: int
    y: int = 0
    tags: tuple = field(default_factory=tuple)
    note: str = field(default="", repr=False, compare=False)


@record(frozen=True)
class Near(Point):  # a record built on a record (test_a_record_built_on_a_record_has_its_fields_first)
    near: bool = True
    note: str = "near"


@record
class Tally:
    name: str
    counts: dict = field(default_factory=dict)


def test_init_takes_fields_by_position_and_by_name_with_defaults():
    assert Point(1) == Point(x=1, y=0, tags=())
    assert Point(1, 2, ("a",)).tags == ("a",)
    assert Point.y == 0  # a default is also the class attribute, as with dataclasses
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, z=3)


def test_a_default_factory_makes_a_new_value_for_each_record():
    a, b = Tally("a"), Tally("b")
    a.counts["x"] = 1
    assert b.counts == {}


def test_equality_is_by_class_and_compared_fields_only():
    assert Point(1, 2, note="one") == Point(1, 2, note="two")
    assert Point(1, 2) != Point(1, 3)

    @record(frozen=True)
    class Other:
        x: int
        y: int = 0
        tags: tuple = ()

    assert Point(1) != Other(1)  # same values, another class: not equal (unlike tuples)


def test_frozen_records_hash_by_value_and_refuse_changes():
    assert hash(Point(1, 2)) == hash(Point(1, 2, note="x"))
    assert len({Point(1), Point(1), Point(2)}) == 2
    p = Point(1)
    with pytest.raises(FrozenRecordError):
        p.x = 2
    with pytest.raises(AttributeError):
        del p.y


def test_mutable_records_are_unhashable_as_with_dataclasses():
    with pytest.raises(TypeError):
        hash(Tally("a"))
    t = Tally("a")
    t.name = "b"
    assert t == Tally("b")


def test_order_compares_fields_in_order():
    assert Point(1, 5) < Point(2, 0) and Point(1, 1) <= Point(1, 1) and Point(3) > Point(2, 9)
    assert sorted([Point(2), Point(1, 3), Point(1, 2)]) == [Point(1, 2), Point(1, 3), Point(2)]


def test_repr_names_the_shown_fields():
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=())"


def test_replace_and_fields():
    assert replace(Point(1, 2, note="n"), y=5) == Point(1, 5)
    assert replace(Point(1, 2, note="n"), y=5).note == "n"
    assert fields(Point) == ("x", "y", "tags", "note") == fields(Point(1))
    with pytest.raises(TypeError):
        replace(Point(1), z=1)


def test_records_pickle():
    p = Point(1, 2, ("a",), "n")
    assert pickle.loads(pickle.dumps(p)) == p


def test_what_records_do_not_support_fails_loudly():
    with pytest.raises(TypeError, match="follows one with a default"):
        @record
        class Bad:
            a: int = 0
            b: int

    with pytest.raises(TypeError, match="__post_init__"):
        @record
        class Checked:
            a: int = 0

            def __post_init__(self):
                pass


def test_a_record_built_on_a_record_has_its_fields_first():
    """As a dataclass's: the base's fields in their order, then its own; a field named again
    keeps its place and takes the new default (the commands' requests share their fields so)."""
    assert fields(Near) == ("x", "y", "tags", "note", "near")
    n = Near(1)
    assert (n.x, n.y, n.tags, n.note, n.near) == (1, 0, (), "near", True)
    assert n == Near(1) and n != Point(1) and hash(n) == hash(Near(1))
    assert replace(n, near=False).near is False
    assert pickle.loads(pickle.dumps(n)) == n
    with pytest.raises(TypeError, match="follows one with a default"):
        @record
        class Bad(Point):
            z: int


def test_the_pipelines_values_are_records():
    from hazard_dsl.compile.machine import State
    from hazard_dsl.diagnostics import Position
    from hazard_dsl.model import Ruleset
    from hazard_dsl.parse.syntax import Binary

    for cls in (State, Position, Ruleset, Binary):
        assert fields(cls)
    assert Position("f", 1, 2) < Position("f", 2, 1)
    assert Ruleset.__dict__["__eq__"].__qualname__ == "Ruleset.__eq__"


def test_init_is_compiled_when_the_first_record_is_made_and_then_is_the_class_own():
    """records: `__init__` is compiled on first use, then replaces the stand-in; every record made
    before and after is alike (positional, by name, defaults, frozen)."""
    from hazard_dsl.records import FrozenRecordError, field, record

    @record(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple = field(default_factory=tuple)

    stand_in = Point.__init__
    first = Point(1, y=2)
    assert Point.__init__ is not stand_in and Point.__init__.__qualname__.endswith("Point.__init__")
    assert first == Point(1, 2) == Point(x=1, y=2, tags=()) and Point(3).y == 0 and Point(3).tags == ()
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(FrozenRecordError):
        first.x = 5
