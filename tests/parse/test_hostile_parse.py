"""Rule files from strangers: whatever the bytes, `check` answers with diagnostics, quickly,
without quoting other files — never a traceback, a hang or a blow-up."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hazard_dsl.check import check_file
from hazard_dsl.diagnostics import NOTE, Diagnostic
from hazard_dsl.parse.numbers import exact_amount

SECONDS = 20


def _check(path):
    start = time.monotonic()
    diagnostics = check_file(path)
    assert time.monotonic() - start < SECONDS, path
    assert all(isinstance(d, Diagnostic) for d in diagnostics)
    # "checked once these are fixed" notes aside, and the warning that a file built with extends
    # cites no source of its own (these generated files are not meant to)
    return [d for d in diagnostics if d.severity != NOTE and "cites no source of its own" not in d.message]


GAME = "phases:\n  roll:\n    - when: total == 7\n      do: win\n    - otherwise: lose\n"


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + f"name: with a BOM\n{GAME}".encode())
    assert _check(path) == []


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_a_long_yaml_list_is_refused_while_it_is_read(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_text("name: long\nnotes:\n" + "- a\n" * 240_000)
    (d,) = _check(path)
    assert "more than 50000 YAML nodes" in d.message


def test_aliases_that_expand_are_bounded(tmp_path):
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for k, name in enumerate("bcdefgh"):
        prev = "abcdefgh"[k]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    assert any("YAML nodes" in d.message for d in _check(path))


def test_a_huge_sparse_file_is_not_read(tmp_path):
    path = tmp_path / "sparse.yaml"
    with path.open("wb") as handle:
        handle.truncate(2 * 1024**3)
    (d,) = _check(path)
    assert "larger than" in d.message


def test_extends_never_quotes_another_file(tmp_path, capsys):
    from hazard_dsl.cli import main

    secret = tmp_path / "secret.txt"
    secret.write_text("password: hunter2\n")
    notes = tmp_path / "notes.yaml"
    notes.write_text("password: hunter2\n")
    for target in (str(secret), str(notes), "/etc/passwd", "/proc/self/environ"):
        path = tmp_path / "r.yaml"
        path.write_text(f"name: r\nextends: {target}\n")
        assert main(["check", str(path)]) == 1
        err = capsys.readouterr().err
        assert "is not a rule file" in err and "hunter2" not in err and "root:" not in err


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_four_thousand_misspelt_names_are_checked_in_seconds(tmp_path):
    variables = "".join(f"  var_{i}: 0..1\n" for i in range(4000))
    rules = "".join(f"    - when: vra_{i} == 1\n      do: win\n" for i in range(4000))
    path = tmp_path / "names.yaml"
    path.write_text(f"name: names\nvariables:\n{variables}phases:\n  roll:\n{rules}    - otherwise: lose\n")
    diagnostics = _check(path)
    assert len(diagnostics) == 201 and "3800 more problems" in diagnostics[-1].message


# --- property tests (derandomised by the profile in conftest; HYPOTHESIS_PROFILE=explore to search)

@given(text=st.text(max_size=40))
def test_any_amount_text_is_read_or_refused(text):
    value = exact_amount(text)
    assert value is None or abs(value) < 10**16


@given(st.from_regex(r"[+-]?[0-9]{1,5}(\.[0-9]{1,3})?(/[1-9][0-9]{0,2})?%?", fullmatch=True))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_plain_amounts_are_exact(text):
    value = exact_amount(text)
    assert value is not None and "e" not in text


@given(depth=st.integers(0, 400), op=st.sampled_from(["not ", "-", "("]))
def test_any_nesting_is_checked_with_a_position(depth, op, tmp_path_factory):
    inner = "total == 7" if op == "not " else "total"
    close = ")" * depth if op == "(" else ""
    condition = op * depth + inner + close + ("" if op == "not " else " == 7")
    path = tmp_path_factory.mktemp("nest") / "n.yaml"
    path.write_text(f"name: n\nphases:\n  roll:\n    - when: {condition}\n      do: win\n    - otherwise: lose\n")
    diagnostics = _check(path)
    assert all(d.position is not None for d in diagnostics)


NAMEISH = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@given(name=NAMEISH, label=NAMEISH)
def test_any_names_are_checked(name, label, tmp_path_factory):
    import yaml

    document = {"name": name, "variables": {name: "0..3"}, "labels": {label: "{caster} wins"},
                "phases": {name: [{"when": "total == 7", "do": f"win {label}"}, {"otherwise": "lose"}]}}
    path = tmp_path_factory.mktemp("names") / "n.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    _check(path)


@given(body=st.binary(max_size=200), prefix=st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]))
def test_any_encoding_is_checked(body, prefix, tmp_path_factory):
    path = tmp_path_factory.mktemp("enc") / "e.yaml"
    path.write_bytes(prefix + body)
    _check(path)


@given(size=st.integers(0, 3_000_000))
def test_any_file_size_is_checked(size, tmp_path_factory):
    path = tmp_path_factory.mktemp("size") / "s.yaml"
    with path.open("wb") as handle:
        handle.truncate(size)
    diagnostics = _check(path)
    assert diagnostics  # empty, or all NUL bytes: never a ruleset


# --- long flat chains: a chain is no nesting (121 `and`s were once "nested too deeply"); bounded
# nesting is brackets, `not`, signs and if/then/else, tried above

CHAIN_TERMS = {"and": "total != 13", "or": "total == 13", "+": "1", "-": "0", "*": "1", "//": "1", "%": "100"}


def _seven_by_chain(op: str, length: int) -> str:
    """A condition true exactly when the total is 7, made of a chain of `length` terms."""
    chain = f" {op} ".join([CHAIN_TERMS[op]] * length)
    return {"and": f"({chain}) and total == 7", "or": f"({chain}) or total == 7",
            "+": f"total - {length} + ({chain}) == 7", "-": f"total - ({chain}) == 7",
            "*": f"total * ({chain}) == 7", "//": f"total * ({chain}) == 7",
            "%": f"total + ({chain}) == {107 if length == 1 else 7}"}[op]  # 100 % 100 … is 0


@settings(max_examples=30)  # each example reads, checks, compiles and solves up to 100,000 characters
@given(length=st.integers(1, 6000), op=st.sampled_from(list(CHAIN_TERMS)))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_long_flat_chain_is_accepted_and_computed(length, op, tmp_path_factory):
    from hazard_dsl.compile.compiler import compile_ruleset
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.solve.analysis import analyse

    condition = _seven_by_chain(op, length)
    path = tmp_path_factory.mktemp("chain") / "c.yaml"
    path.write_text(f"name: c\nphases:\n  roll:\n    - when: {condition}\n      do: win\n    - otherwise: lose\n")
    assert _check(path) == [], condition[:200]
    assert analyse(compile_ruleset(read_ruleset(path))).win == Fraction(1, 6), condition[:200]


@given(depth=st.integers(61, 300), kind=st.sampled_from(["(", "not ", "-", "if"]))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_nesting_past_the_bound_is_refused_at_its_place(depth, kind, tmp_path_factory):
    condition = {"(": "total == 7 and (" * depth + "true" + ")" * depth,
                 "not ": "not " * depth + "total == 7",
                 "-": "-" * depth + "total == 7",
                 "if": "if total == 2 then false else " * depth + "total == 7"}[kind]
    path = tmp_path_factory.mktemp("nest") / "n.yaml"
    path.write_text(f"name: n\nphases:\n  roll:\n    - when: {condition}\n      do: win\n    - otherwise: lose\n")
    (d,) = _check(path)
    assert "nested too deeply" in d.message and d.position.line == 4 and d.position.column > 12


# --- integers of any size in every base YAML 1.1 knows: read exactly, or refused with a position

def _yaml_integer(base: str, digits: int, underscores: bool) -> tuple[str, int]:
    """A YAML 1.1 integer of `digits` digits and its value."""
    body = {"0x": "f", "0b": "1", "0": "7", "": "9"}[base] * digits
    value = int(body or "0", {"0x": 16, "0b": 2, "0": 8, "": 10}[base]) if digits <= 4000 else None
    if underscores and digits > 1:
        body = body[0] + "_" + body[1:]
    return base + body, value


@example(base="0", digits=64, underscores=False, where="option")  # 0 + 64 octal digits: the largest allowed
@example(base="0", digits=65, underscores=True, where="year")
@example(base="0x", digits=64, underscores=True, where="year")
@given(base=st.sampled_from(["0x", "0b", "0", ""]), digits=st.one_of(st.integers(1, 70), st.integers(4000, 30_000)),
       underscores=st.booleans(), where=st.sampled_from(["option", "initial", "range", "year"]))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_any_yaml_integer_is_read_exactly_or_refused_with_a_position(base, digits, underscores, where,
                                                                   tmp_path_factory):
    from hazard_dsl.parse.numbers import MAX_YAML_DIGITS
    from hazard_dsl.check.reading import read_ruleset
    from hazard_dsl.parse.reader import MAX_WHOLE

    text, value = _yaml_integer(base, digits, underscores)
    if base == "0" and digits == 1:
        text, value = "07", 7
    body = {"option": f"extends: craps\noptions:\n  field_12:\n    values: [2, {text}]\n",
            "initial": f"extends: cotton\nvariables:\n  n:\n    range: [-{MAX_WHOLE}, {MAX_WHOLE}]\n    initial: {text}\n",
            "range": f"extends: cotton\nvariables:\n  n: [0, {text}]\n",
            "year": f"extends: cotton\nyear: {text}\n"}[where]
    path = tmp_path_factory.mktemp("int") / "i.yaml"
    path.write_text(f"name: big\n{body}")
    diagnostics = _check(path)
    assert all(d.position is not None and d.position.line > 1 for d in diagnostics)
    if digits > MAX_YAML_DIGITS:
        assert any("digits; no rule needs one so large" in d.message for d in diagnostics)
        return
    if where == "year":  # printed as it stands, never compared with anything
        assert diagnostics == [] and read_ruleset(path).year == value
    elif value > MAX_WHOLE:
        assert diagnostics and all("1,000,000,000" in d.message or "too large" in d.message for d in diagnostics)
    elif where == "option" and value != 2:
        assert diagnostics == [] and read_ruleset(path).options["field_12"].values == (2, value)
    elif where == "initial":
        assert diagnostics == [] and read_ruleset(path).variables["n"].initial == value


def test_libyaml_gets_long_flat_files_but_never_deep_ones():
    from hazard_dsl.parse import yaml_nodes

    rules = "".join(f"    - when: n == {i} and total == 7\n      do: win\n" for i in range(8000))
    flat = f"name: long\nvariables:\n  n: 0..7999\nphases:\n  roll:\n{rules}    - otherwise: lose\n"
    assert yaml_nodes._compose_fast(flat) is not None  # 24,000 `-` and `:`, but 6 levels deep
    for deep in ("x: " + "- " * 6000 + "a\n",  # one line
                 "".join(" " * k + f"k{k}:\n" for k in range(2600)) + " " * 2600 + "v\n",  # a staircase
                 "x: " + "[" * 5001 + "]" * 5001 + "\n"):
        assert yaml_nodes._nesting_bound(deep) > yaml_nodes.MAX_FAST_NESTING
        assert yaml_nodes._compose_fast(deep) is None


# --- YAML nested past Python's recursion: refused at the line the nesting is on, not at 1:1
# (issue 40's fuzz: a rule file with `notes: [[[[…]]]]` on its last line was said at line 1)

@pytest.mark.parametrize("opening", ["[", "{a: "])
def test_yaml_nested_past_the_recursion_is_refused_at_its_line(opening, tmp_path):
    path = tmp_path / "deep.yaml"
    closing = "]" if opening == "[" else "}"
    path.write_text("name: deep\nphases:\n  roll:\n    - otherwise: win\nnotes: "
                    + opening * 5000 + "1" + closing * 5000 + "\n")
    (d,) = _check(path)
    assert d.message == "the YAML is nested too deeply"
    assert d.position.line == 5  # the line of `notes:`, the fifth
