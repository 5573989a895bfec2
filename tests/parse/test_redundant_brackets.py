"""Redundant brackets, `((total))`, count toward the documented bound of 60 levels of nesting
(docs/rule-files.md, "Limits"): they leave no node in the parse tree, so the tree's depth alone
let 5,000 and 49,000 of them pass `check` (audit 10 finding 16), while 61 brackets each round
an `and` were refused."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.diagnostics import NOTE

PREFIX = "    - when: "  # the condition starts at column len(PREFIX) + 1


def _file(tmp_path, condition: str):
    path = tmp_path / "n.yaml"
    path.write_text(f"name: n\nphases:\n  roll:\n{PREFIX}{condition}\n      do: win\n    - otherwise: lose\n")
    return path


def _problems(path):
    return [d for d in check_file(path) if d.severity != NOTE and "cites no source" not in d.message]


@pytest.mark.parametrize("depth", [61, 62, 5_000, 49_000])
def test_redundant_brackets_past_sixty_are_refused_at_the_sixty_first(tmp_path, depth):
    (problem,) = _problems(_file(tmp_path, "(" * depth + "total" + ")" * depth + " == 7"))
    assert problem.message == ("the condition is nested too deeply (more than 60 levels of brackets, `not`, "
                               "signs or if … then … else)")
    # the 61st bracket: 60 before it, after the prefix
    assert (problem.position.line, problem.position.column) == (4, len(PREFIX) + 61)


def test_sixty_redundant_brackets_are_read_as_the_bracketed_value(tmp_path):
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.solve.analysis import analyse

    path = _file(tmp_path, "(" * 60 + "total" + ")" * 60 + " == 7")
    assert _problems(path) == []
    # the caster wins on a total of 7 and loses otherwise: 6 of the 36 throws of two dice,
    # counted here by enumeration
    sevens = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b == 7)
    assert analyse(compile_ruleset(read_ruleset(path))).win == Fraction(sevens, 36) == Fraction(1, 6)


def test_brackets_side_by_side_or_in_quotes_are_no_nesting(tmp_path):
    # 70 brackets one after another, never more than one open: no nesting
    assert _problems(_file(tmp_path, " or ".join(["(total == 7)"] * 70))) == []
    # 61 open brackets inside a quoted text are no brackets of the expression
    problems = _problems(_file(tmp_path, "total == 7 and option.x == '" + "(" * 61 + "'"))
    assert all("nested too deeply" not in d.message for d in problems)
