"""The expression parser shipped with the package (`parse.lalr`, running the tables `parse._tables`
that ``python grammar/tables.py`` computes with Lark at build time) is the parser Lark builds from
grammar/ today: in step with the grammar, the same trees with the same positions, the same errors
at the same places, with the same terminals expected and accepted, on every expression of the
corpus and of the broken corpus (and every prefix of them, which is where most errors are)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hazard_dsl.check import check_file
from hazard_dsl.parse import _tables, expressions, lalr

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "tests" / "data" / "broken").glob("*.yaml"))
REGENERATE = "python grammar/tables.py"


def test_the_shipped_tables_are_made_from_the_grammar_as_it_is():
    grammar = (ROOT / "grammar" / "hazard.lark").read_text(encoding="utf-8")
    assert _tables.GRAMMAR_SHA256 == hashlib.sha256(grammar.encode("utf-8")).hexdigest(), (
        f"grammar/hazard.lark has changed since hazard_dsl/parse/_tables.py was generated: run `{REGENERATE}`")
    assert _tables.OPTIONS == expressions.LARK_OPTIONS, f"run `{REGENERATE}`"


def test_the_tables_are_written_alike_every_time():
    """Lark numbers its states differently from run to run; the generator numbers them again."""
    sys.path.insert(0, str(ROOT / "grammar"))
    try:
        import tables
    finally:
        sys.path.pop(0)
    assert tables.generate() == (ROOT / "hazard_dsl" / "parse" / "_tables.py").read_text(encoding="utf-8"), (
        f"run `{REGENERATE}`")


@pytest.fixture(scope="module")
def texts():
    """Every (text, start) the reader hands the parser when reading the corpus and the broken corpus."""
    seen: dict = {}
    parse = expressions._parse

    def recording(scalar, start, what):
        seen[(scalar.text, start)] = None
        return parse(scalar, start, what)

    expressions._parse = recording
    patch = pytest.MonkeyPatch()
    patch.setenv("HAZARD_DSL_NO_CACHE", "1")  # every file read afresh, every expression parsed
    try:
        for path in CORPUS:
            check_file(path)
    finally:
        expressions._parse = parse
        patch.undo()
    assert len(seen) > 150
    return list(seen)


@pytest.fixture(scope="module")
def built():
    from lark import Lark

    return Lark((ROOT / "grammar" / "hazard.lark").read_text(encoding="utf-8"), **expressions.LARK_OPTIONS)


def _shape(node):
    """A tree as plain values: rule names, tokens with their types, and where each starts (a
    tree where Lark places it, a token with its line and column: what messages are made of)."""
    if node is None:
        return None
    if hasattr(node, "children"):
        meta = getattr(node, "meta", None)
        if meta is None:  # parse.lalr's tree
            where = node.start_pos
        else:  # Lark's
            where = None if meta.empty else meta.start_pos
        return ("tree", str(node.data), where, tuple(_shape(c) for c in node.children))
    return ("token", node.type, str(node), node.start_pos, node.line, node.column)


def _outcome(parse, text: str, start: str):
    try:
        return ("tree", _shape(parse(text, start)))
    except Exception as exc:  # noqa: BLE001 - the two parsers' errors are compared field by field
        token = getattr(exc, "token", None)
        return (type(exc).__name__, getattr(exc, "pos_in_stream", None), getattr(exc, "line", None),
                getattr(exc, "column", None), None if token is None else (token.type, str(token), token.start_pos),
                frozenset(getattr(exc, "expected", None) or ()), frozenset(getattr(exc, "allowed", None) or ()),
                frozenset(getattr(exc, "accepts", None) or ()) if hasattr(exc, "accepts") else None)


def _lark(built):
    return lambda text, start: built.parse(text, start=start)


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_the_same_trees_and_errors_on_the_corpus_and_every_prefix(texts, built):
    cases = set(texts)
    for text, start in texts:
        cases |= {(text[:k], start) for k in range(1, len(text)) if len(text) <= 200}
    differ = [(text, start) for text, start in sorted(cases)
              if _outcome(lalr.parse, text, start) != _outcome(_lark(built), text, start)]
    assert not differ, f"{len(differ)} texts parse differently, first {differ[:3]}: run `{REGENERATE}`"
    errors = sum(_outcome(_lark(built), t, s)[0] != "tree" for t, s in cases)
    assert errors > 1000  # the prefixes exercise the errors, not only the trees


def test_a_command_that_reads_a_rule_file_imports_no_lark():
    code = ("import sys; from hazard_dsl.cli import main; main(['check', 'rulesets/craps.yaml']); "
            "print('lark' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr


# Pieces of the language and of what is not: sequences of them make texts near the language,
# where the trees and the errors are most varied.
PIECES = ["total", "main", "chance", "==", "!=", "<=", "<", "and", "or", "not", "in", "(", ")", "{", "}", ",",
          "..", ".", "7", "12", "+", "-", "*", "//", "%", "if", "then", "else", "win", "lose", "push", "pay",
          "pays", "to", "for", "set", "=", "goto", "throw", "again", "choose", "from", "by", "recast", "option",
          ";", '"a b"', "'x'", "true", "false", "ways", " ", "\n", "$", "é", "0x1f", "1_000"]


@given(pieces=st.lists(st.sampled_from(PIECES), max_size=14), start=st.sampled_from(["expression", "actions", "payout"]),
       spaced=st.booleans())
def test_the_same_trees_and_errors_as_lark_on_texts_near_the_language(built, pieces, start, spaced):
    text = (" " if spaced else "").join(pieces)
    assert _outcome(lalr.parse, text, start) == _outcome(_lark(built), text, start), (text, start)
