"""The corpus of broken rule files in tests/data/broken/, and fuzzing of the checker.

Every file in tests/data/broken/ starts with comment lines saying what `hazard-dsl check` must report:

    # expect: LINE:COL: error: SUBSTRING OF THE MESSAGE
    # expect: LINE:COL: warning: SUBSTRING OF THE MESSAGE
    # expect: OTHER_FILE.yaml:LINE:COL: error: …   (when the problem lies in a file it extends)

LINE:COL are 1-based: where the caret goes. Every expected diagnostic must be reported (others
may be too), every file must have at least one error, and the CLI must exit 1 with
`file:line:col: error:` and a caret, never a traceback.

The fuzz tests feed `check_file` arbitrary text and arbitrary YAML-ish rule files: it must
always return a list of diagnostics, never raise, never hang.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hazard_dsl.check import check_file
from hazard_dsl.diagnostics import Diagnostic

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))

EXPECT = re.compile(
    r"^#\s*expect:\s*(?:(?P<file>[\w.-]+\.ya?ml):)?(?P<line>\d+):(?P<column>\d+):\s*"
    r"(?P<severity>error|warning):\s*(?P<message>.*?)\s*$"
)

CHECK_SECONDS = 60  # a generous bound: the slowest corpus file takes a few seconds
FUZZ_SECONDS = 20  # per generated example


@dataclass(frozen=True)
class Expected:
    file: str  # the base name of the file the diagnostic is in
    line: int
    column: int
    severity: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"


def expectations(path: Path) -> list[Expected]:
    """The `# expect:` lines of the comment block at the top of `path`."""
    out = []
    with path.open(encoding="utf-8", newline="") as handle:
        for raw in handle:
            line = raw.rstrip("\r\n")
            if not line.startswith("#"):
                break
            if line.lstrip("# ").startswith("expect"):
                m = EXPECT.match(line)
                assert m, f"{path.name}: malformed expect line: {line!r}"
                out.append(Expected(m["file"] or path.name, int(m["line"]), int(m["column"]),
                                    m["severity"], m["message"]))
    return out


@contextlib.contextmanager
def time_limit(seconds: int, what: str):
    """Fail (instead of hanging the suite) if the block runs longer than `seconds`."""

    def expired(signum, frame):
        raise TimeoutError(f"{what} took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def shown(diagnostics) -> str:
    return "\n".join(f"  {d.position}: {d.severity}: {d.message}" for d in diagnostics) or "  (nothing)"


# --------------------------------------------------------------------------- the corpus


def test_corpus_is_there():
    assert len(FILES) >= 40
    assert {p.name for p in CLI_FILES} >= CLI_SUBSET, "a file of the CLI subset is missing"
    for path in FILES:
        assert expectations(path), f"{path.name} has no `# expect:` line"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_check_file_reports_what_is_expected(path: Path):
    expected = expectations(path)
    assert any(e.severity == "error" for e in expected), f"{path.name} expects no error"
    with time_limit(CHECK_SECONDS, f"check_file({path.name})"):
        diagnostics = check_file(path)
    assert isinstance(diagnostics, list)
    assert all(isinstance(d, Diagnostic) for d in diagnostics)
    assert any(d.severity == "error" for d in diagnostics), f"{path.name}: no error reported:\n{shown(diagnostics)}"
    for d in diagnostics:  # a note saying which checks wait for these errors has no place to point at
        assert d.position is not None or d.severity == "note", f"{path.name}: a diagnostic without a position: {d.message}"
    for e in expected:
        found = [d for d in diagnostics if d.position is not None
                 and Path(d.position.file).name == e.file and d.position.line == e.line
                 and d.position.column == e.column and d.severity == e.severity and e.message in d.message]
        assert found, f"{path.name}: expected\n  {e}\nbut check_file reported:\n{shown(diagnostics)}"


# The CLI runs on every file of the corpus (about 0.25 s a run). The runs start together in a
# module fixture, a few at a time, and each parametrised test looks at its own result.
# HAZARD_DSL_CLI_QUICK=1 runs it only on a representative subset: one file per stage of the
# checker, and the tricky positions.
CLI_SUBSET = {
    "yaml_unclosed_bracket.yaml", "yaml_tab_indent.yaml", "yaml_python_tag.yaml", "empty_file.yaml",
    "not_a_mapping.yaml", "unknown_top_key_phaces.yaml", "expr_quoted_double.yaml", "expr_folded_scalar.yaml",
    "crlf_line_endings.yaml", "action_set_without_equals.yaml", "undefined_name_in_condition.yaml",
    "type_set_boolean.yaml", "unhandled_throw.yaml", "game_never_ends.yaml", "set_outside_range.yaml",
    "extends_cycle_a.yaml", "label_win_and_lose.yaml",
}
CLI_FILES = [p for p in FILES if p.name in CLI_SUBSET] if os.environ.get("HAZARD_DSL_CLI_QUICK") else FILES


def _run_cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hazard_dsl", "check", path.name], cwd=BROKEN,
                          capture_output=True, text=True, encoding="utf-8", timeout=CHECK_SECONDS)


@pytest.fixture(scope="module")
def cli_results():
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip((p.name for p in CLI_FILES), pool.map(_run_cli, CLI_FILES)))


@pytest.mark.parametrize("path", CLI_FILES, ids=[p.name for p in CLI_FILES])
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_cli_check_fails_cleanly(path: Path, cli_results):
    result = cli_results[path.name]
    first = next(e for e in expectations(path) if e.severity == "error")
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    assert result.returncode == 1, f"exit {result.returncode}\n{result.stderr}"
    assert f"{first.file}:{first.line}:{first.column}: error:" in result.stderr, result.stderr
    assert re.search(r"^\s*\^\s*$", result.stderr, re.MULTILINE), f"no caret line:\n{result.stderr}"


def test_truly_empty_file(tmp_path: Path):
    """A 0-byte file (the corpus' empty_file.yaml must hold its `# expect:` comment)."""
    path = tmp_path / "empty.yaml"
    path.write_bytes(b"")
    diagnostics = [d for d in check_file(path) if d.severity != "note"]
    assert [(d.position.line, d.position.column, d.severity) for d in diagnostics] == [(1, 1, "error")]
    assert "the file is empty" in diagnostics[0].message


# --------------------------------------------------------------------------- fuzzing

WORDS = ["main", "chance", "point", "n", "come_out", "begin", "nick", "out", "x", "caster", "dealer",
         "total", "doublet", "called", "thrown", "rethrow", "2d6", "3d6", "cotton", "fuzz", "nowhere",
         "0..12", "5..9", "9..5", "0..1", "true", "false", "", "{caster} wins", "{value:word}", "{nope}"]
GOOD_CONDITIONS = ["total == main", "total in {2, 3, 12}", "total in 5..9", "total == 7",
                   "main in {6, 8} and total == 12", "option.main == \"called\"", "doublet", "not doublet",
                   "ways(total) > 3", "if total == 7 then main == 5 else false", "die1 < die2",
                   "total == chance", "main == 0", "main != 0 and total in {7, 11}", "min(main, total) == 2"]
BAD_CONDITIONS = ["option.main == \"caled\"", "total + 1", "total ==== 3", "total in", "(total == 7",
                  "total in {2, 3", "total // (total - 7) == 1", "main", "total == \"seven\"", "odds(total)",
                  "total == 13", "and and", "mian == 3", "option.x == 1"]
GOOD_ACTIONS = ["win", "win nick", "lose out", "push", "throw again", "goto chance", "goto come_out",
                "set main = total", "set main = total; goto chance", "set chance = total; goto chance",
                "set main = main + 1; throw again", "choose main from 5..9; goto chance",
                "choose main from 5..9 by caster; goto chance", "choose main from {4, 10} by setter; goto come_out",
                "set point = total; goto point", "goto begin"]
BAD_ACTIONS = ["goto x", "set main = total == 7", "choose main from 5..9 by dealer",
               "choose main from 9..5; goto chance", "win nick extra", "set main total", "winner",
               "win nick; throw again", "lose nick", "choose main from 0..20; goto chance", "set n = n + 1",
               "recast both", "recast off or both by caster"]
SNIPPETS = GOOD_CONDITIONS + BAD_CONDITIONS + GOOD_ACTIONS + BAD_ACTIONS
KEYS = ["name", "phases", "variables", "options", "labels", "start", "extends", "dice", "words",
        "passing", "rules", "when", "do", "otherwise", "say", "throw", "range", "initial", "values",
        "default", "description", "main", "chance", "come_out", "begin", "phaces", "cocked"]

scalars = st.one_of(st.sampled_from(WORDS), st.sampled_from(SNIPPETS), st.integers(-20, 20), st.booleans(),
                    st.none(), st.text(max_size=12))
yamlish = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(KEYS) | st.sampled_from(WORDS), inner, max_size=4)),
    max_leaves=25,
)


def mostly(good, bad, times=3):
    """Usually a well-formed value, so that fuzzing reaches the checks of names, types and the game."""
    return st.integers(0, times).flatmap(lambda i: bad if i == 1 else good)


# Rule files close to real ones.
conditions = mostly(st.sampled_from(GOOD_CONDITIONS), st.sampled_from(BAD_CONDITIONS) | scalars)
actions = mostly(st.sampled_from(GOOD_ACTIONS), st.sampled_from(BAD_ACTIONS) | scalars)
rules = st.lists(mostly(st.fixed_dictionaries({"when": conditions, "do": actions},
                                              optional={"say": st.sampled_from(["{caster} wins", "{nope}", "{main:word}"])}),
                        yamlish, times=10),
                 min_size=1, max_size=5).map(lambda rs: rs + [{"otherwise": "throw again"}] if len(rs) % 2 else rs)
phase_names = st.sampled_from(["come_out", "chance", "begin", "point"])
phases = st.dictionaries(
    phase_names,
    mostly(st.fixed_dictionaries({"rules": rules}, optional={"throw": st.booleans()}), yamlish, times=10),
    min_size=1, max_size=4,
)
variables = st.dictionaries(
    st.sampled_from(["main", "chance", "point", "n", "total", "goto"]),
    mostly(st.sampled_from(["0..12", "0..20"]),
           st.sampled_from(["5..9", "0..5", "0..1", "9..5", "x"])
           | st.fixed_dictionaries({"range": st.sampled_from(["0..12", "0..3", "[0, 12]"])},
                                   optional={"initial": st.integers(-2, 14), "say": scalars})),
    max_size=3,
)
options = st.dictionaries(
    st.sampled_from(["main", "first_throw"]),
    st.fixed_dictionaries({"values": st.lists(st.sampled_from(["thrown", "called", "lose", 1, 2]),
                                              min_size=1, max_size=3, unique=True)},
                          optional={"default": st.sampled_from(["thrown", "called", "caled", 1])}),
    max_size=2,
)
rulesets = st.fixed_dictionaries(
    {"name": mostly(st.just("Fuzz"), scalars, times=10), "phases": phases},
    optional={"variables": variables, "options": options, "start": phase_names | st.just("nowhere"),
              "labels": st.dictionaries(st.sampled_from(["nick", "out", "win"]), scalars, max_size=2),
              "extends": st.sampled_from(["cotton", "craps", "cotton", "fuzz", "nowhere"]),
              "dice": st.sampled_from(["2d6", "3d6"]),
              "cocked": st.sampled_from([{"chance": "1/10"}, {"chance": "1/6", "rules": [{"otherwise": "recast off"}]},
                                         {"chance": "1/3", "rules": [{"when": "off == 1 and shown > 3",
                                                                      "do": "recast off or both by caster"},
                                                                     {"otherwise": "recast both"}]},
                                         {"chance": 1}, {"chance": "x", "rules": "recast"}, "often"])},
)


def _check_never_raises(path: Path) -> list:
    with time_limit(FUZZ_SECONDS, f"check_file on {path.read_bytes()[:300]!r}"):
        diagnostics = check_file(path)
    assert isinstance(diagnostics, list)
    assert all(isinstance(d, Diagnostic) for d in diagnostics)
    return diagnostics


FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # examples: the profile (conftest)


@FUZZ
@given(text=st.text(max_size=300))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_fuzz_arbitrary_text(text, tmp_path_factory):
    path = tmp_path_factory.mktemp("text") / "fuzz.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    _check_never_raises(path)


@FUZZ
@given(data=st.binary(max_size=100))
def test_fuzz_arbitrary_bytes(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("bytes") / "fuzz.yaml"
    path.write_bytes(data)
    _check_never_raises(path)


@FUZZ
@given(document=st.one_of(yamlish, rulesets))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_fuzz_yamlish_rule_files(document, tmp_path_factory):
    path = tmp_path_factory.mktemp("yamlish") / "fuzz.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _check_never_raises(path)


# --- money: bets, fees and their small languages (payouts, commissions, multiples)
BET_CONDITIONS = GOOD_CONDITIONS + ['result == "win"', 'result == "lose"', 'phase == "come_out"', 'result == "wn"',
                                    'label == "nick"', 'phase == "nowhere"', "come_point == total", "total"]
BET_ACTIONS = ["win", "lose", "push bar", "win pays 2 to 1", "win pays 1 to 0", "win pays 30 for 1",
               "set come_point = total; goto on_point", "throw again", "pay box", "choose main from 5..9",
               "set main = 3", "goto nowhere"]
PAYOUTS = ["1 to 1", "7 to 6", "30 for 1", "ways(7) to ways(point)", "ways(main) to ways(chance)", "0 to 0",
           "1 to 0", "x to y", "-1 to 1", "7 to", "total to 1"]
bet_rules = st.lists(mostly(st.fixed_dictionaries({"when": st.sampled_from(BET_CONDITIONS),
                                                   "do": st.sampled_from(BET_ACTIONS)}), yamlish),
                     min_size=1, max_size=3).map(lambda rs: rs + [{"otherwise": "throw again"}])
bets = st.dictionaries(
    st.sampled_from(["pass", "odds", "place_6", "stake"]),
    mostly(st.fixed_dictionaries(
        {"rules": bet_rules},
        optional={"pays": st.sampled_from(PAYOUTS), "made": st.sampled_from(BET_CONDITIONS[:4] + ["false", "total == 7"]),
                  "backs": st.sampled_from(["pass", "stake", "nothing"]), "backer": st.sampled_from(["player", "dealer"]),
                  "variables": st.just({"come_point": "0..12"}),
                  "commission": st.fixed_dictionaries(
                      {"rate": st.sampled_from(["5%", "1/20", "x", "-5%", 3])},
                      optional={"of": st.sampled_from(["bet", "win", "stake"]),
                                "paid": st.sampled_from(["on_win", "up_front", "option.vig", "sideways", "total", "point",
                                                                 "if main == 5 then \"on_win\" else \"up_front\"",
                                                                 "\"sometimes\"", "phase"])}),
                  "multiples": st.dictionaries(st.sampled_from(["3-4-5x", "2x"]),
                                               st.sampled_from(["3", "0", "-1", "point", "total", "x"]), max_size=2)}),
           yamlish),
    max_size=3)
fees = st.dictionaries(
    st.sampled_from(["box", "fee"]),
    st.fixed_dictionaries({"amount": st.sampled_from(["21/2", "5", "x", "-1", 0]), "rules": bet_rules},
                          optional={"variables": st.just({"mains": "0..2"})}),
    max_size=2)
money_rulesets = st.fixed_dictionaries(
    {"name": st.just("Fuzzed money"), "extends": st.sampled_from(["cotton", "craps", "hoyle"])},
    optional={"bets": bets, "fees": fees, "money": st.sampled_from([{"unit": "crown"}, {"currency": "x"}, "x"])},
)


@FUZZ
@given(document=money_rulesets)
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_fuzz_bets_and_fees(document, tmp_path_factory):
    path = tmp_path_factory.mktemp("money") / "fuzz.yaml"
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _check_never_raises(path)


# --------------------------------------------------------------------------- the author's words

# What PyYAML and Lark call things: an author never wrote them and should never read them.
YAML_WORDS = ("<block end>", "<block mapping start>", "<block sequence start>", "<scalar>", "<stream end>",
              "found '?'", "while scanning", "while parsing", "simple key", "mapping values are not allowed")


def _lark_words() -> set[str]:
    from hazard_dsl.parse._tables import TERMINALS

    return set(TERMINALS) | {"$END"}


def _foreign_words(diagnostics, lark_words) -> list[str]:
    found = []
    for d in diagnostics:
        text = f"{d.message} {d.hint or ''}"
        found += [w for w in YAML_WORDS if w in text]
        found += [w for w in lark_words if re.search(rf"(?<![\w$]){re.escape(w)}(?!\w)", text)]
    return found


@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_message_of_the_corpus_uses_a_parser_s_words():
    lark_words = _lark_words()
    for path in FILES:
        diagnostics = check_file(path)
        assert not _foreign_words(diagnostics, lark_words), f"{path.name}:\n{shown(diagnostics)}"


GOOD = """\
name: A good rule file
variables:
  main: 0..12
options:
  first:
    values: [thrown, called]
phases:
  set_main:
    rules:
      - when: total in 5..9
        do: set main = total; goto chance
        say: "a main"
      - otherwise: throw again
  chance:
    rules:
      - when: total == main and option.first == "thrown"
        do: win nick
      - when: total in {2, 3}
        do: lose out
      - otherwise: throw again
"""


def _mutations(text: str):
    """Every line of a good file spoilt the ways authors spoil them: indented one more or one less,
    the colon dropped, the `- ` dropped, a tab for the indentation, a quote or a bracket left open,
    a colon in a value, `==` written `=`."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        variants = {" " + line, line[1:] if line.startswith(" ") else None, line.replace(": ", " ", 1),
                    line.replace("- ", "  ", 1), "\t" + line.lstrip(" "), line + ' "open', line.replace(": ", ": [", 1),
                    line + ": more", line.replace("==", "=", 1), line.replace(": ", ': "', 1)}
        for variant in variants - {None, line}:
            yield i + 1, "\n".join(lines[:i] + [variant] + lines[i + 1:])


def test_a_spoilt_line_is_told_in_the_author_s_words(tmp_path: Path):
    from hazard_dsl.check import check_file as check

    path = tmp_path / "spoilt.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert not [d for d in check(path) if d.is_error], shown(check(path))
    lark_words = _lark_words()
    for number, text in _mutations(GOOD):
        path.write_text(text, encoding="utf-8")
        diagnostics = check(path)
        foreign = _foreign_words(diagnostics, lark_words)
        assert not foreign, f"line {number} spoilt:\n{text}\n{shown(diagnostics)}\n{foreign}"
        for d in diagnostics:
            assert len(re.findall(r"`[^`]*`|'[^']*'", d.message.split("expected", 1)[-1])) <= 8, d.message


@pytest.mark.parametrize("text, expected", [
    ("total = 7", "unexpected '=' in condition: to compare, write `==`"),
    ("total == 7 total", "expected `and`, `or` or the end of the condition"),
    ("total in {2, 3", "expected `}`, `,` or `..`"),
    ("total ==", "expected a value (a number, a name or a quoted word)"),
    ("(total == 7", "expected `)`"),
])
def test_a_condition_s_syntax_error_names_a_few_things_in_words(text, expected):
    from hazard_dsl.parse.expressions import parse_expression
    from hazard_dsl.parse.yaml_nodes import YScalar
    from hazard_dsl.diagnostics import Position, RulesetError

    with pytest.raises(RulesetError) as caught:
        parse_expression(YScalar(text, text, Position("f.yaml", 1, 1)), "condition")
    (d,) = caught.value.diagnostics
    assert expected in d.message
    assert not _foreign_words([d], _lark_words())
