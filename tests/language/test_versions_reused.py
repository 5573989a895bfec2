"""What a language service keeps from one version of a document for the next (issue 39) never
changes what it says: after any run of keystrokes, the problems of each version — every one,
its range, words and fixes — and its names (`language.index`) are exactly those of a cold
service opening that text.

Kept between versions: the game's explorations, found by the game's value
(`compile.explorations.game_value`), the bets' checks (`BetChecks`), and each top-level
section's names (`language.index.SectionIndexes`). The keystrokes are drawn anywhere in craps
and Cotton — in the game (which must then be explored again), in a bet, in a description —
typed over, typed in or deleted, a line break among them (the sections below move), and many
break the YAML or the rules. The reference is a fresh `LanguageService` for every version,
with no reading cache on disk (`HAZARD_DSL_NO_CACHE`), so nothing it says was kept.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hazard_dsl.language.index import build_index
from hazard_dsl.language.service import LanguageService, uri_of

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
TEXTS = {name: (RULESETS / f"{name}.yaml").read_text(encoding="utf-8") for name in ("craps", "cotton")}
# craps with a rule of the game that never fires (a seven on the point is taken by the rule
# above it): an error at its place, which a line typed above it moves, and a keystroke in the
# game may mend or change
_SEVEN_OUT = "        do: lose seven_out\n"
TEXTS["craps, a game rule never fired"] = TEXTS["craps"].replace(
    _SEVEN_OUT, _SEVEN_OUT + "      - when: total == 7\n        do: win point_made\n", 1)
TYPED = "0123456789 aex-_:#'\"[\n"  # digits, letters, a space, YAML's marks, a line break


@st.composite
def keystroke(draw, text: str) -> str:
    """`text` after one keystroke: in the game (before `bets:`), in the bets, or anywhere; a
    character typed over, typed in or deleted, or an empty line typed (which keeps the YAML
    as it was, and moves what is below it)."""
    game_end = text.find("\nbets:")
    game_end = len(text) - 1 if game_end < 0 else game_end
    at = draw(st.one_of(st.integers(0, max(0, game_end)), st.integers(game_end, max(game_end, len(text) - 1)),
                        st.integers(0, max(0, len(text) - 1))))
    typed = draw(st.sampled_from(TYPED))
    how = draw(st.sampled_from(("replace", "insert", "delete", "line")))
    if how == "line":  # Enter at the start of a line: a line typed, every line below it moved
        at = text.rfind("\n", 0, at) + 1
        return text[:at] + "\n" + text[at:]
    if how == "insert":
        return text[:at] + typed + text[at:]
    return text[:at] + ("" if how == "delete" else typed) + text[at + 1:]


def _cold(uri: str, text: str) -> tuple:
    fresh = LanguageService(waits=False)
    fresh.open(uri, text, 1)
    return fresh.diagnostics(uri), fresh._open[uri].index


@pytest.mark.parametrize("name", sorted(TEXTS))
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_version_says_what_a_cold_service_says(name, data, tmp_path_factory, monkeypatch):
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    path = tmp_path_factory.mktemp("typed") / f"{name.split(',')[0]}.yaml"
    text = TEXTS[name]
    path.write_text(text, encoding="utf-8")
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    service.diagnostics(uri)
    for version in range(2, 2 + data.draw(st.integers(1, 3), label="keystrokes")):
        text = data.draw(keystroke(text), label=f"version {version}")
        service.change(uri, text, version)
        problems, index = _cold(uri, text)
        assert service.diagnostics(uri) == problems
        assert service._open[uri].index == index


@pytest.mark.parametrize("name", ["craps", "cotton"])
def test_a_line_typed_at_the_top_moves_every_kept_section_by_one(name, tmp_path, monkeypatch):
    """A line break typed at the very top: every section is found kept, none walked again, and
    each name stands one line lower than before (the cold index of the new text, computed apart)."""
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    path = tmp_path / f"{name}.yaml"
    text = TEXTS[name]
    uri = uri_of(path)
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    before = service._open[uri].index
    kept = service._sections
    walked, found = kept.walked, kept.found_kept
    service.change(uri, "\n" + text, 2)
    after = service._open[uri].index
    sections = [line for line in text.split("\n") if line[:1].isalpha()]  # its top-level keys
    assert kept.walked == walked and kept.found_kept - found == len(sections)
    assert [(n.name, n.start[0] + 1, n.start[1]) for n in before.definitions] == \
        [(n.name, n.start[0], n.start[1]) for n in after.definitions]
    _, cold = _cold(uri, "\n" + text)
    assert after == cold


def test_the_game_rule_never_fired_is_said(tmp_path, monkeypatch):
    """The text above says something at a place in the game: its rule that never fires."""
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    text = TEXTS["craps, a game rule never fired"]
    problems, _ = _cold(uri_of(tmp_path / "craps.yaml"), text)
    lines = text.split("\n")
    # the rule added: the second `when: total == 7` of the file, in the point phase
    line = [k for k, s in enumerate(lines) if s == "      - when: total == 7"][1]
    assert [(p.severity, p.span.start.line, "can never fire" in p.message) for p in problems] == [
        ("error", line, True)]


@pytest.mark.parametrize("edit", [
    ("      - when: total == 7\n        do: win point_made", "7\n        do: win", "8\n        do: win"),
    ("variables:", "variables:", "variables:\n"),  # an empty line above the game's rules
    ("  point:\n    range", "  point:", "  point:"),  # the text before, as it was: nothing changed
])
def test_a_keystroke_in_the_game_says_what_the_game_now_says(edit, tmp_path, monkeypatch):
    """The rule that never fired made to fire (`total == 8`: an eight when the point is not 8),
    and its error moved a line down: what a cold service says each time, not what the game
    before the keystroke said."""
    monkeypatch.setenv("HAZARD_DSL_NO_CACHE", "1")
    near, old, new = edit
    text = TEXTS["craps, a game rule never fired"]
    at = text.rindex(near) if near.startswith("      - when") else text.index(near)
    edited = text[:at] + text[at:].replace(old, new, 1)
    uri = uri_of(tmp_path / "craps.yaml")
    service = LanguageService(waits=False)
    service.open(uri, text, 1)
    said = service.diagnostics(uri)
    service.change(uri, edited, 2)
    problems, _ = _cold(uri, edited)
    assert service.diagnostics(uri) == problems
    assert (problems == said) == (edited == text)


def test_an_anchor_is_walked_whole(tmp_path):
    """An alias in one section is the nodes of another: a text with an anchor is not cut into
    sections for its names (`&` in prose, as craps' `C&E`, is no anchor)."""
    from hazard_dsl.language.index import SectionIndexes
    from hazard_dsl.parse.yaml_nodes import load_yaml

    kept = SectionIndexes()
    plain = "name: x\nvariables:\n  main: {range: 0..1}\nnotes: [C&E]\n"
    anchored = "name: x\nvariables:\n  main: &r {range: 0..1}\n  other: *r\nnotes: [C&E]\n"
    assert kept.sections_of(load_yaml(plain, "x.yaml", register=False), plain) is not None
    root = load_yaml(anchored, "x.yaml", register=False)
    assert kept.sections_of(root, anchored) is None
    assert build_index(root, anchored, kept) == build_index(root) and len(kept) == 0


def _scalars(node, out: list) -> list:
    """Every scalar under `node`, in order, with where it ends and where its characters stand."""
    from hazard_dsl.parse.yaml_nodes import YMap, YScalar, YSeq

    if isinstance(node, YScalar):
        out.append((node, node.end(), [node.position_at(k) for k in range(0, len(node.text) + 1, 7)]))
    elif isinstance(node, YSeq):
        for item in node.items:
            _scalars(item, out)
    elif isinstance(node, YMap):
        for key, value in node.entries.values():
            _scalars(key, out)
            _scalars(value, out)
    return out


def _loaded(text: str):
    from hazard_dsl.diagnostics import RulesetError
    from hazard_dsl.parse.yaml_nodes import load_yaml

    try:
        root = load_yaml(text, "typed.yaml", register=False)
    except RulesetError as exc:
        return "error", [str(d) for d in exc.diagnostics]
    return "read", root, _scalars(root, [])


NODE_TEXTS = sorted(p.stem for p in RULESETS.glob("*.yaml"))


@pytest.mark.parametrize("name", NODE_TEXTS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_text_read_by_its_sections_is_the_whole_text_read(name, data):
    """`parse.sections.SectionNodes` after keystrokes: the nodes of each version — every key and
    value, every scalar's end and the places of its characters — or its error, are exactly those
    of the whole text read alone (`yaml_nodes.load_yaml`)."""
    from hazard_dsl.parse.sections import SectionNodes, nodes_of, reading_sections

    text = (RULESETS / f"{name}.yaml").read_text(encoding="utf-8")
    kept = SectionNodes()
    for version in range(data.draw(st.integers(1, 4), label="keystrokes")):
        if version:
            text = data.draw(keystroke(text), label=f"version {version}")
        with reading_sections(kept):
            try:
                root = nodes_of(text, "typed.yaml")
                found = "read", root, _scalars(root, [])
            except Exception as exc:  # noqa: BLE001 - compared with the whole text's error
                from hazard_dsl.diagnostics import RulesetError

                assert isinstance(exc, RulesetError)
                found = "error", [str(d) for d in exc.diagnostics]
        assert found == _loaded(text)


def test_a_keystroke_reads_only_its_own_section_again():
    """A letter typed in the variables of craps: that section read again, every other found."""
    from hazard_dsl.parse.sections import SectionNodes, nodes_of, reading_sections, top_level

    text = TEXTS["craps"]
    kept = SectionNodes()
    with reading_sections(kept):
        nodes_of(text, "typed.yaml")
        read, found = kept.read, kept.found
        at = text.index("description: the point set by the come-out roll") + 10
        typed = text[:at] + "x" + text[at:]
        assert nodes_of(typed, "typed.yaml") == _loaded(typed)[1]
    assert (kept.read - read, kept.found - found) == (1, len(top_level(text)) - 1)


@pytest.mark.parametrize("head", ["# a bell \x07 in the comment at the head\n", "# a comment\n\n"])
def test_the_head_of_a_text_is_read_with_its_first_section(head):
    """What stands above the first key (comments) is read with the first section: a character
    YAML refuses there is the whole text's error, said as the whole text says it."""
    from hazard_dsl.parse.sections import SectionNodes, nodes_of, reading_sections

    text = head + TEXTS["cotton"]
    with reading_sections(SectionNodes()):
        try:
            found = "read", nodes_of(text, "typed.yaml")
        except Exception as exc:  # noqa: BLE001 - compared with the whole text's error
            found = "error", [str(d) for d in exc.diagnostics]
    whole = _loaded(text)
    assert found == whole[:2]
    assert whole[0] == ("error" if "\x07" in head else "read")
