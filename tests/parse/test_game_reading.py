"""The game's reading (`check.reading.read_game`, issue 39 point 2): P(win) from a new text reads
only the game; the bets, fees and printed figures wait until asked for, with the same positioned
errors the whole reading (`read_ruleset`, what `check` and every command read) reports."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from hazard_dsl.check.reading import read_game, read_ruleset
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.compile.machine import END
from hazard_dsl.diagnostics import Position, RulesetError
from hazard_dsl.parse.sections import top_level, without
from hazard_dsl.records import fields
from hazard_dsl.solve.markov import Solver

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
CRAPS = (RULESETS / "craps.yaml").read_text(encoding="utf-8")
UNREAD = ("bets", "fees", "printed", "sources", "notes", "description")


def _p_win(ruleset) -> Fraction:
    machine = compile_ruleset(ruleset, bets=())
    solver = Solver(machine)
    solver.set_policy("optimal")
    visits = solver.forward()
    return visits.total(s.index for s in machine.states if s.kind == END and s.result == "win")


def _pass_line() -> Fraction:
    """The pass line counted here by the 36 throws of two dice, not by the tool: a natural (7,
    11) wins, craps (2, 3, 12) loses, a point wins if thrown again before a seven."""
    ways = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}
    win = Fraction(ways[7] + ways[11], 36)
    for point in (4, 5, 6, 8, 9, 10):
        win += Fraction(ways[point], 36) * Fraction(ways[point], ways[point] + ways[7])
    return win  # 244/495 (Scarne; Thorp)


def _errors(read, text: str, name: str = "t.yaml"):
    with pytest.raises(RulesetError) as caught:
        ruleset = read(name, text=text, named=name)
        dict(ruleset.bets), dict(ruleset.fees)  # the game's reading is asked for them here
    return list(caught.value.diagnostics)  # each Diagnostic whole: words, place, hint, mend


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_built_in_game_reads_as_the_whole_file_does(path):
    text = path.read_text(encoding="utf-8")
    game = read_game(path.name, text=text, named=path.name)
    whole = read_ruleset(path.name, text=text, named=path.name)
    for name in fields(whole):
        if name not in UNREAD:
            assert getattr(game, name) == getattr(whole, name), name
    assert dict(game.bets) == dict(whole.bets) and dict(game.fees) == dict(whole.fees)
    if without(text, UNREAD) is not None:  # cut to its game: what it says of the game is unread
        assert (game.sources, game.notes, game.printed, game.description) == ((), (), (), None)


def test_craps_is_cut_to_its_game_and_its_lines_keep_their_numbers():
    cut, unread = without(CRAPS, UNREAD)
    assert unread == ("bets", "sources", "notes", "description")
    lines, cut_lines = CRAPS.split("\n"), cut.split("\n")
    assert len(cut_lines) == len(lines) and len(cut) < len(CRAPS) / 2
    # each line kept as it was, or emptied where it is one of those sections' (by its key)
    section = None
    for line, cut_line in zip(lines, cut_lines):
        if line[:1].isalpha():
            section = line.split(":")[0]
        assert cut_line == ("" if section in unread else line), line


def test_craps_pass_line_from_its_game_alone():
    game = read_game("craps.yaml", text=CRAPS, named="craps.yaml")
    assert _p_win(game) == _pass_line() == Fraction(244, 495)
    assert len(game.bets) == 39  # read when asked for


BAD_BET = CRAPS.replace("    made: phase == \"come_out\"\n    pays: 1 to 1\n",
                        "    made: phaze == \"come_out\"\n    pays: 1 to 1\n", 1)


def test_a_bad_bet_leaves_p_win_and_stops_whatever_reads_the_bets():
    assert BAD_BET != CRAPS
    whole = _errors(read_ruleset, BAD_BET)
    assert [(d.message, d.position, d.hint) for d in whole] == [
        ("undefined name 'phaze'", Position("t.yaml", 114, 11), "did you mean 'phase'?")]
    game = read_game("t.yaml", text=BAD_BET, named="t.yaml")
    assert _p_win(game) == Fraction(244, 495)  # the question reads no bet
    assert _errors(read_game, BAD_BET) == whole  # the same positioned errors, at first use
    with pytest.raises(RulesetError):
        game.bets["pass"]  # and again at each use: an error is never kept as a value


def test_a_command_still_stops_at_a_bad_bet():
    import hazard_dsl

    with pytest.raises(RulesetError) as caught:
        hazard_dsl.load_text(BAD_BET, name="t")
    assert any(d.position is not None and d.position.line == 114 and "phaze" in d.message
               for d in caught.value.diagnostics)


@pytest.mark.parametrize("command", ["check", "analyse"])
def test_check_and_analyse_still_report_a_bad_bet(command, tmp_path, capsys, monkeypatch):
    from hazard_dsl.cli import main

    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    path = tmp_path / "bad_bet.yaml"
    path.write_text(BAD_BET, encoding="utf-8")
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    assert code == 1  # stopped by the bet's error (a traceback would be 70)
    assert "bad_bet.yaml:114:11: error: undefined name 'phaze'" in out + err


@pytest.mark.parametrize("text", [
    # an error in the game, after the bets: every error of the file, as the whole reading gives them
    CRAPS.replace("      - when: total == point\n", "      - when: totl == point\n", 1) + "fees: 3\n",
    CRAPS.replace("      - when: total == point\n", "      - when: totl == point\n", 1).replace(
        "    made: phase ==", "    made: phaze ==", 1),
    # the stake names a bet the file lacks (checked with the bets)
    CRAPS.replace("  stake: pass ", "  stake: pas  ", 1),
    # a kept section runs on over the margin into the next: read whole
    CRAPS.replace("notes:\n", "notes: [a,\n", 1),
    # a section left out that runs on over the margin into the game
    CRAPS.replace("passing:\n", 'fees: "x\npassing:\n', 1),
], ids=["game-error", "game-and-bet-errors", "stake", "kept-runs-on", "unread-runs-on"])
def test_errors_are_the_whole_readings(text):
    assert _errors(read_game, text) == _errors(read_ruleset, text)


@pytest.mark.parametrize("text", [
    "name: x\nbets:\n  a: 'q\nphases: 1'\n",  # a single quote running on over the margin
    'name: x\nbets:\n  a: "q\nphases: 1"\n',
    "name: x\nbets:\n  a: [1,\nphases: 1]\n",
    "name: x\nextends: craps\nbets: {}\n",  # merged with another file
    "---\nname: x\nbets: {}\n",
    "name: x\r\nbets: {}\r\n",
    "name: x\nbets: {}\nbets: {}\n",  # twice: the whole reading says so
    "name: x\nbest: {}\n",  # misspelt: the whole reading says which key it stands for
    "name: x\n\"bets\": {}\n",
    "  indented: 1\nname: x\nbets: {}\n",
])
def test_a_text_that_cannot_be_cut_safely_is_read_whole(text):
    assert without(text, UNREAD) is None


def test_the_top_level_is_found_by_its_lines():
    text = "# a comment\nname: x   # its name\n\nbets:\n  a: {pays: 1 to 1}\n# between\nphases: {}\n"
    name, bets, phases = text.index("name:"), text.index("bets:"), text.index("phases:")
    assert top_level(text) == {"name": (name, bets), "bets": (bets, phases), "phases": (phases, len(text))}
    cut, unread = without(text, UNREAD)
    assert unread == ("bets",) and cut == "# a comment\nname: x   # its name\n\n\n\n\nphases: {}\n"


def test_a_block_scalars_prose_opens_nothing_but_a_plain_line_does():
    prose = 'name: x\nnotes:\n  - >\n    Cotton\'s "main\n    is thrown\n  - |\n    [sic\nphases: {}\n'
    notes_lines = prose.count("\n") - 2  # all but `name:` and `phases:`
    assert without(prose, UNREAD) == ("name: x\n" + "\n" * notes_lines + "phases: {}\n", ("notes",))
    # the same line not in a block scalar: a double-quoted string run on over the margin
    assert without(prose.replace("  - >\n", "  -\n"), UNREAD) is None
    # `when: total >` is a plain scalar, no header: its next line is not prose
    assert without('name: x\nbets:\n  a: total >\n    "1\nphases: {}\n', UNREAD) is None


@given(st.text(alphabet=" -?:[{]}\nab#'\"", max_size=400))
def test_the_quick_nesting_bound_is_never_below_the_line_by_line_one(text):
    # a text goes to libyaml's C composer only when one of the two says it cannot nest past
    # MAX_FAST_NESTING: the quick one must never say less than the line-by-line count
    from hazard_dsl.parse import yaml_nodes

    assert yaml_nodes._quick_nesting_bound(text) >= yaml_nodes._nesting_bound(text)


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.yaml")), ids=lambda p: p.stem)
def test_a_rule_file_is_composed_by_libyaml_as_before(path):
    from hazard_dsl.parse import yaml_nodes

    text = path.read_text(encoding="utf-8")
    assert yaml_nodes._quick_nesting_bound(text) <= yaml_nodes.MAX_FAST_NESTING  # (no line-by-line count)
    assert yaml_nodes._nesting_bound(text) <= yaml_nodes.MAX_FAST_NESTING


_KEYS = ("name", "notes", "sources", "bets", "phases", "fees", "money")
_VALUES = ("plain words", '"a', 'b"', "'c", "d'", "it's", "[e,", "f]", "{g: 1,", "h}", '"q"', "'r'",
           "[1, 2]", "{s: 1}", ">", "|", "x: y", "- z", "'t''s'", '"u\\" v"', "# note")
_LINE = st.one_of(
    st.tuples(st.sampled_from(_KEYS), st.sampled_from(("",) + _VALUES)).map(
        lambda kv: f"{kv[0]}:{' ' + kv[1] if kv[1] else ''}"),
    st.tuples(st.sampled_from(("  ", "    ", "  - ", "    - ", "")), st.sampled_from(_VALUES),
              st.sampled_from(("", "k: ", "- "))).map(lambda t: t[0] + t[2] + t[1]),
    st.sampled_from(("", "# a comment", "  # indented comment")),
)

_INDENTED = st.tuples(st.sampled_from(("  ", "    ", "  - ", "    - ")), st.sampled_from(_VALUES),
                      st.sampled_from(("", "k: ", "- "))).map(lambda t: t[0] + t[2] + t[1])


@st.composite
def _texts(draw):
    """Sections under keys each once (most such texts are cut), now and then a line at the margin
    that is no key, or a key twice (such texts are not)."""
    keys = draw(st.lists(st.sampled_from(_KEYS), unique=True, min_size=1, max_size=len(_KEYS)))
    lines = []
    for key in keys:
        value = draw(st.sampled_from(("",) + _VALUES))
        lines.append(f"{key}:{' ' + value if value else ''}")
        lines += draw(st.lists(st.one_of(_INDENTED, _INDENTED, _INDENTED, _LINE), max_size=4))
    return "\n".join(lines) + "\n"


@given(_texts())
def test_a_cut_text_reads_its_kept_sections_as_the_whole_text_does(text):
    # the cut is made on lines, before YAML is read: wherever the game's reading keeps it (the
    # cut text reads, with the keys it was cut around: `kept_as_cut`), the sections kept are the
    # nodes the whole text gives them (unless the whole text is no YAML at all: a section left
    # out is where it fails, and the bets' reading reports it)
    from hazard_dsl.parse import yaml_nodes
    from hazard_dsl.parse.sections import kept_as_cut, top_level

    cut = without(text, UNREAD)
    if cut is None:
        return
    cut_text, unread = cut
    try:
        whole = yaml_nodes._load(text, "f.yaml")
        kept = yaml_nodes._load(cut_text, "f.yaml")
    except RulesetError:
        return  # either read is refused: the game's reading reads the whole text, or the bets' does
    if whole is None or kept is None or not kept_as_cut(kept, top_level(text), unread):
        return  # read whole too
    assert {k: v for k, v in whole.entries.items() if k not in unread} == kept.entries


@pytest.mark.parametrize("line, closed", [
    ('  k: [a, "]"', False),  # the bracket in quotes is no bracket: the list runs on
    ('  k: [a, "b"]', True),
    ("  - {x: 'it''s', y: [1]}", True),  # '' is a quote inside single quotes
    ("  - {x: 'it''s, y: [1]}", False),
    ('  k: {a: "x\\"]"}', True),  # \" inside double quotes
    ('  k: {a: "x\\\\"]"}', False),  # \\ then the closing quote: the ] is outside, one too many
    ("  k: it's [fine]", True),  # an apostrophe in a plain word opens nothing
    ("  k: a [b", False),  # (a bracket in a plain word opens nothing either: judged open, cautiously)
    ("  k: ['a] # [", False),  # the quote runs on past the line
    ('  k: "a" # [', True),  # a comment's bracket
    ("  k: [x] # it's", True),
    ('  note: "a', False),
    ("  - 'b", False),
])
def test_a_line_is_closed_or_open(line, closed):
    from hazard_dsl.parse.sections import _closed

    assert _closed(line) is closed


def test_a_section_left_out_after_every_kept_one_is_not_looked_into():
    # what runs on from it reaches nothing the game's reading reads (its YAML's own error is the
    # bets' reading's to report)
    text = "name: x\nphases: {}\nbets:\n  a: 'q\n"
    assert without(text, UNREAD) == ("name: x\nphases: {}\n\n\n", ("bets",))
    assert without(text + "money: {}\n", UNREAD) is None  # a kept section after it: looked into
