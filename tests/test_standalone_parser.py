"""The expression parser shipped as a module (`parse._lalr`, Lark's stand-alone LALR parser made
at build time by ``python grammar/standalone.py``) is the parser Lark builds from grammar/ today:
in step with the grammar, the same trees with the same positions, the same errors at the same
places, on every expression of the corpus and of the broken corpus (and every prefix of them,
which is where most errors are)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from hazard_dsl.check import check_file
from hazard_dsl.parse import _lalr, expressions

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "tests" / "broken").glob("*.yaml"))
REGENERATE = "python grammar/standalone.py"


def test_the_shipped_parser_is_made_from_the_grammar_as_it_is():
    grammar = (ROOT / "grammar" / "hazard.lark").read_text(encoding="utf-8")
    assert _lalr.GRAMMAR_SHA256 == hashlib.sha256(grammar.encode("utf-8")).hexdigest(), (
        f"grammar/hazard.lark has changed since hazard_dsl/parse/_lalr.py was generated: run `{REGENERATE}`")
    flags = " ".join(_lalr.GENERATOR_FLAGS)
    options = expressions.LARK_OPTIONS
    assert all(f"-s {start}" in flags for start in options["start"]) and f"-l {options['lexer']}" in flags
    assert ("--propagate_positions" in flags) == options["propagate_positions"]
    assert ("--maybe_placeholders" in flags) == options["maybe_placeholders"], f"run `{REGENERATE}`"


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
    """A tree as plain values: rule names, tokens with their types and every position."""
    if node is None:
        return None
    if hasattr(node, "children"):
        meta = node.meta
        where = tuple(getattr(meta, k, None) for k in ("line", "column", "start_pos", "end_line", "end_column",
                                                       "end_pos")) if not meta.empty else None
        return ("tree", str(node.data), where, tuple(_shape(c) for c in node.children))
    return ("token", node.type, str(node), node.start_pos, node.line, node.column, node.end_line, node.end_column,
            node.end_pos)


def _outcome(parser, text: str, start: str):
    try:
        return ("tree", _shape(parser.parse(text, start=start)))
    except Exception as exc:  # noqa: BLE001 - the two parsers' errors are compared field by field
        token = getattr(exc, "token", None)
        return (type(exc).__name__, getattr(exc, "pos_in_stream", None), getattr(exc, "line", None),
                getattr(exc, "column", None), None if token is None else (token.type, str(token), token.start_pos),
                frozenset(getattr(exc, "expected", None) or ()), frozenset(getattr(exc, "allowed", None) or ()),
                frozenset(getattr(exc, "accepts", None) or ()) if hasattr(exc, "accepts") else None)


def test_the_same_trees_and_errors_on_the_corpus_and_every_prefix(texts, built):
    shipped = expressions._parser()
    cases = set(texts)
    for text, start in texts:
        cases |= {(text[:k], start) for k in range(1, len(text)) if len(text) <= 200}
    differ = [(text, start) for text, start in sorted(cases)
              if _outcome(shipped, text, start) != _outcome(built, text, start)]
    assert not differ, f"{len(differ)} texts parse differently, first {differ[:3]}: run `{REGENERATE}`"
    errors = sum(_outcome(built, t, s)[0] != "tree" for t, s in cases)
    assert errors > 1000  # the prefixes exercise the errors, not only the trees


def test_a_command_that_reads_a_rule_file_imports_no_lark():
    code = ("import sys; from hazard_dsl.cli import main; main(['check', 'rulesets/craps.yaml']); "
            "print('lark' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr
