"""A label declared and never used is told (audit 42, A: the fifth of an author's five breaks,
`lucky: "{caster} is lucky."`, was passed as ok): once, where it is declared, and only in the
file that declares it (a file built with `extends` cannot take out what it inherits); where a
misspelt use is close to it, the misspelling's own warning says so, and it is not told twice."""

from __future__ import annotations

from pathlib import Path

from hazard_dsl.check import check_file
from hazard_dsl.parse.files import builtin_dir

COTTON = (builtin_dir() / "cotton.yaml").read_text(encoding="utf-8")


def warnings_of(path: Path) -> list:
    return [(d.code, d.subject, d.position.line if d.position else None) for d in check_file(path)
            if not d.is_error]


def test_a_label_never_used_is_told_where_it_is_declared(tmp_path):
    text = COTTON.replace("labels:\n", 'labels:\n  lucky: "{caster} is lucky."\n', 1)
    line = text.split("\n").index('  lucky: "{caster} is lucky."') + 1
    (tmp_path / "mine.yaml").write_text(text, encoding="utf-8")
    assert warnings_of(tmp_path / "mine.yaml") == [("unused-label", "lucky", line)]


def test_every_built_in_uses_every_label_it_declares():
    for path in sorted(builtin_dir().glob("*.yaml")):
        assert [w for w in warnings_of(path) if w[0] == "unused-label"] == [], path.name


def test_a_misspelt_use_is_told_once_not_again_as_an_unused_label(tmp_path):
    (tmp_path / "mine.yaml").write_text(COTTON.replace("do: win nick", "do: win nikc", 1), encoding="utf-8")
    assert [w[:2] for w in warnings_of(tmp_path / "mine.yaml")] == [("undeclared-label", "nikc")]


def test_labels_a_file_inherits_and_leaves_unused_are_not_its_to_take_out(tmp_path):
    # a child whose main is called, never thrown: cotton's no_main and bad_main end nothing here
    (tmp_path / "cotton.yaml").write_text(COTTON, encoding="utf-8")
    (tmp_path / "child.yaml").write_text(
        "name: Child\nextends: cotton.yaml\nsources:\n  - title: mine\n"
        "phases:\n  set_main:\n    rules:\n      - when: total in 5..9\n"
        "        do: set main = total; goto chance_throw\n      - otherwise: throw again\n",
        encoding="utf-8")
    assert [w for w in warnings_of(tmp_path / "child.yaml") if w[0] == "unused-label"] == []
