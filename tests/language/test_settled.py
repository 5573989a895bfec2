"""Answers from the last version checked, placed in the text held now (`language.settled`,
`LanguageService.settled`; issue 39): what the language server answers a quick fix, an inlay
hint or a lens from while the newest version waits for its check. Places are (line, column)
from 0; every expected place below is counted in the texts the test writes itself."""

from __future__ import annotations

from pathlib import Path

from hazard_dsl.language.service import LanguageService, Place, Span
from hazard_dsl.language.settled import line_map

CRAPS = Path(__file__).resolve().parents[2] / "rulesets" / "craps.yaml"
URI = "untitled:craps.yaml"


def test_a_line_keeps_its_number_above_the_change_moves_below_it_and_is_dropped_within():
    old = ["a", "b", "c", "d", "e"]
    new = ["a", "b", "x", "y", "d", "e"]  # c replaced by two lines: d and e one lower
    where = line_map(old, new)
    assert [where(n) for n in range(5)] == [0, 1, None, 4, 5]
    # a line deleted: those below one higher
    assert [line_map(old, ["a", "c", "d", "e"])(n) for n in range(5)] == [0, None, 1, 2, 3]
    # the same text: every line where it was
    assert [line_map(old, list(old))(n) for n in range(5)] == [0, 1, 2, 3, 4]
    # a line repeated ("b" typed again below "b"): the head is matched first, and head and
    # tail never share a line (both "b"s stay where they were, the third is new)
    assert [line_map(["b", "b"], ["b", "b", "b"])(n) for n in range(2)] == [0, 1]
    assert [line_map(["b", "c"], ["b", "b", "c"])(n) for n in range(2)] == [0, 2]


def _service_with_an_error_checked():
    """Craps with `total == point` written `total == xpoint`, checked: (service, text, line of it)."""
    text = CRAPS.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, s in enumerate(lines) if s.strip() == "- when: total == point")
    lines[line] = lines[line].replace("point", "xpoint")
    service = LanguageService(waits=False)
    service.open(URI, "\n".join(lines), 1)
    service.problems(service.held(URI))  # as the worker checks it
    return service, lines, line


def test_a_quick_fix_of_the_version_checked_is_placed_in_the_newest_text_without_a_check():
    service, lines, line = _service_with_an_error_checked()
    column = lines[line].index("xpoint")
    # two comment lines typed at the top: not checked yet, the error two lines lower
    service.change(URI, "# one\n# two\n" + "\n".join(lines), 2)
    held = service.held(URI)
    settled = service.settled(URI)
    assert settled[0] is not held and held._problems is None
    fixes = service.code_actions(URI, Span(Place(line + 2, column), Place(line + 2, column)), settled)
    assert held._problems is None  # answered without checking the version held
    renames = [f for f in fixes if f.edits[URI][0].new_text == "point"]
    assert renames, [f.title for f in fixes]
    [edit] = renames[0].edits[URI]
    assert (edit.span.start, edit.span.end) == (Place(line + 2, column), Place(line + 2, column + 6))
    assert renames[0].problem.span.start == Place(line + 2, column)
    # the problems as published for the text held: the error on its new line
    errors = [p for p in service.settled_problems(URI, settled) if p.severity == "error"]
    assert [(p.span.start.line, p.span.start.column) for p in errors] == [(line + 2, column)]


def test_a_quick_fix_on_a_line_changed_since_is_not_offered():
    service, lines, line = _service_with_an_error_checked()
    column = lines[line].index("xpoint")
    changed = list(lines)
    changed[line] = changed[line].replace("xpoint", "ypoint")  # the same line typed over
    service.change(URI, "\n".join(changed), 2)
    settled = service.settled(URI)
    assert service.code_actions(URI, Span(Place(line, column), Place(line, column + 6)), settled) == []
    assert [p for p in service.settled_problems(URI, settled) if p.severity == "error"] == []


def test_the_figures_of_the_version_checked_stand_on_the_lines_that_did_not_change():
    text = CRAPS.read_text(encoding="utf-8")
    service = LanguageService(waits=False)
    service.open(URI, text, 1)
    service.problems(service.held(URI))
    before = service.inlay_hints(URI, service.settled(URI))
    lenses = service.code_lenses(URI, service.settled(URI))
    assert before and lenses
    lines = text.split("\n")
    # a line added at the top: every figure one line lower, a hint at the end of its line
    service.change(URI, "\n".join(["# top"] + lines), 2)
    settled = service.settled(URI)
    after = service.inlay_hints(URI, settled)
    assert [(h.line, h.label) for h in after] == [(h.line + 1, h.label) for h in before]
    held = ["# top"] + lines
    assert all(h.column == len(held[h.line]) for h in after)
    assert [(k.line, k.title) for k in service.code_lenses(URI, settled)] == [(k.line + 1, k.title) for k in lenses]
    # a note typed at the end of the third rule's first line: its hint is left out (the line
    # changed), the others stay where they were, each at its line's end
    third = before[2].line
    lines[third] += " # a note"
    service.change(URI, "\n".join(lines), 3)
    after = service.inlay_hints(URI, service.settled(URI))
    assert [(h.line, h.label) for h in after] == [(h.line, h.label) for h in before if h.line != third]
    assert all(h.column == len(lines[h.line]) for h in after)


def test_a_hover_behind_keystrokes_reads_the_names_of_the_last_version_read():
    """The language server's service (`waits` false): after keystrokes on another line, hover
    answers from the last version whose names were read, without reading the new text, when the
    line hovered and the number of lines are unchanged; otherwise it reads the new text."""
    text = CRAPS.read_text(encoding="utf-8")
    lines = text.split("\n")
    used = next(i for i, s in enumerate(lines) if s.strip() == "- when: total == point")
    place = Place(used, lines[used].index("point"))
    service = LanguageService(waits=False)
    service.open(URI, text, 1)
    first = service.hover(URI, place)
    described = next(i for i, s in enumerate(lines) if "description: the point set by" in s)
    lines[described] += " and kept"  # a word typed on another line
    service.change(URI, "\n".join(lines), 2)
    again = service.hover(URI, place)
    assert service.held(URI)._index is None  # the new text not read for it
    assert again == first and "**variable** `point`" in again.markdown
    # a line added: the new text is read, and the same variable found one line lower
    service.change(URI, "# top\n" + "\n".join(lines), 3)
    lower = service.hover(URI, Place(place.line + 1, place.column))
    assert service.held(URI)._index is not None
    assert lower.span.start == Place(place.line + 1, place.column)
    # (the variable is defined a line lower too: the words of the new text's own reading)
    defined = next(i for i, s in enumerate(lines) if s.strip() == "point:") + 1  # from 1
    assert f"`point`, defined on line {defined}." in first.markdown
    assert lower.markdown == first.markdown.replace(f"line {defined}.", f"line {defined + 1}.")
