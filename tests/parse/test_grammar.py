"""The expression grammar (grammar/hazard.lark): what parses, into what, and where errors point."""

from __future__ import annotations

import pytest

from hazard_dsl.diagnostics import RulesetError
from hazard_dsl.parse import expressions as ex
from hazard_dsl.parse.yaml_nodes import load_yaml


def scalar(text: str):
    return load_yaml(f"x: {text}\n", "t.yaml").get("x")


def expr(text: str):
    return ex.parse_expression(scalar(text))


def actions(text: str):
    return ex.parse_actions(scalar(text))


def test_precedence_and_binds_tighter_than_or():
    tree = expr("total == main or main in {6, 8} and total == 12")
    assert isinstance(tree, ex.Binary) and tree.op == "or"
    assert tree.right.op == "and"
    assert isinstance(tree.right.left, ex.Member)


def test_parentheses_override_precedence():
    tree = expr("(total == 2 or total == 3) and not doublet")
    assert tree.op == "and"
    assert tree.left.op == "or"
    assert isinstance(tree.right, ex.Unary) and tree.right.op == "not"


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparisons(op):
    tree = expr(f"total {op} 7")
    assert tree.op == op and tree.right.value == 7


def test_sets_and_ranges():
    tree = expr("total in {2, 3, 11..12}")
    items = tree.collection.items
    assert [type(i) for i in items] == [ex.Number, ex.Number, ex.Range]
    tree = expr("total not in 4..10")
    assert tree.negated and isinstance(tree.collection, ex.Range)


def test_arithmetic_conditional_calls_and_options():
    tree = expr("if option.main == 'called' then ways(main) * 2 else -1")
    assert isinstance(tree, ex.Conditional)
    assert isinstance(tree.test.left, ex.OptionRef) and tree.test.right.value == "called"
    assert tree.then.op == "*" and isinstance(tree.then.left, ex.Call)
    assert isinstance(tree.otherwise, ex.Unary)


def test_actions():
    parsed = actions("set main = total; goto chance_throw")
    assert parsed[0] == ex.Assign("main", parsed[0].value, parsed[0].position)
    assert parsed[1].phase == "chance_throw"
    (choose, goto) = actions("choose main from 5..9 by caster; goto x")
    assert choose.variable == "main" and choose.role == "caster"
    (end,) = actions("lose chance_loss")
    assert (end.result, end.label) == ("lose", "chance_loss")
    (end,) = actions("push")
    assert (end.result, end.label) == ("push", "push")
    assert isinstance(actions("throw again")[0], ex.ThrowAgain)


def test_positions_point_into_the_yaml_line():
    tree = expr("total == main")  # "x: total == main": total at column 4, main at 13
    assert (tree.left.position.line, tree.left.position.column) == (1, 4)
    assert tree.right.position.column == 13


def test_positions_in_quoted_scalars():
    tree = ex.parse_expression(load_yaml('x: "total == main"\n', "t.yaml").get("x"))
    assert tree.right.position.column == 14


@pytest.mark.parametrize("text, column, words", [
    ("total ==== 3", 12, "unexpected '=='"),  # the second ==
    ("total in", 12, "ends too soon"),
    ("total == 3 )", 15, "unexpected ')'"),
    ("total @ 3", 10, "unexpected character '@'"),
    ("1234567890123 == total", 4, "too large"),
])
def test_syntax_errors_have_positions(text, column, words):
    with pytest.raises(RulesetError) as caught:
        expr(text)
    (d,) = caught.value.diagnostics
    assert d.position.column == column and words in d.message


def test_keywords_are_reserved_as_names(write_ruleset):
    from hazard_dsl.check import check_file

    path = write_ruleset("name: x\nvariables:\n  win: 0..1\nphases:\n  p:\n    - otherwise: win nick\n")
    (d,) = [d for d in check_file(path) if d.is_error]
    assert (d.position.line, d.position.column) == (3, 3) and "reserved" in d.message


def test_a_chain_of_and_is_a_balanced_tree_in_order():
    """`a and b and c and d` is ((a and b) and (c and d)): the same value, evaluated left to
    right, at a depth of log2 n rather than n."""
    tree = expr(" and ".join(f"total != {n}" for n in range(2, 10)))
    assert isinstance(tree, ex.Binary) and tree.op == "and"
    assert tree.left.op == tree.right.op == "and" and tree.left.left.op == "and"
    leaves = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.op == "and":
            stack += [node.right, node.left]
        else:
            leaves.append(node.right.value)
    assert leaves == list(range(2, 10))
    assert (tree.position.column, tree.right.position.column) == (4, 4 + len("total != 2 and ") * 4)  # after "x: "


def test_a_chain_of_arithmetic_is_flat_and_keeps_its_operators():
    tree = expr("main + 1 - 2 + 3")
    assert isinstance(tree, ex.Chain) and tree.first.name == "main"
    assert [(s.op, s.operand.value, s.position.column) for s in tree.steps] == [("+", 1, 9), ("-", 2, 13), ("+", 3, 17)]
    assert isinstance(expr("main + 1"), ex.Binary)  # two operands stay a Binary
    product = expr("total * 2 // 3 % 4 + 1")
    assert isinstance(product, ex.Binary) and product.op == "+" and isinstance(product.left, ex.Chain)
    assert [s.op for s in product.left.steps] == ["*", "//", "%"]


@pytest.mark.parametrize("text", ["", "a: 1", "a: 1\n", "\n\nb: 2\n", "a: |\n  x\n  y\n\nb: 'c'\n", "a: 1\r\nb: 2\r\n"])
def test_a_scalar_is_placed_on_the_lines_counted_by_hand(text):
    """Where each line starts (`_Loader.line_starts`) and so where a scalar's characters are:
    counted here character by character, a line starting after each `\\n` only."""
    from hazard_dsl.parse.yaml_nodes import _Loader

    by_hand = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
    assert list(_Loader("f.yaml", text).line_starts) == by_hand
    root = load_yaml(text, "f.yaml", register=False)
    for key, (key_node, value) in (root.entries.items() if root is not None else ()):
        index = text.index(key + ":")
        line = text.count("\n", 0, index)
        assert (key_node.position_at(0).line, key_node.position_at(0).column) == (line + 1, index - by_hand[line] + 1)
        assert value.position_at(0).line >= key_node.position.line


def test_a_place_inside_a_scalar_is_counted_from_its_line():
    """`YScalar.position_at` on a scalar's own line (its first line looked up once): the
    columns counted here by hand, `b: ` being three characters, and past the end the place
    just after the last character."""
    scalar = load_yaml("a: 'x'\nb: total == main or total in {6, 8}\n", "f.yaml", register=False).get("b")
    text = "total == main or total in {6, 8}"
    for offset, column in ((0, 4), (9, 4 + 9), (len(text), 4 + len(text)), (99, 4 + len(text))):
        place = scalar.position_at(offset)
        assert (place.file, place.line, place.column) == ("f.yaml", 2, column)
