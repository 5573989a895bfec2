"""The language service (`hazard_dsl.language.service`) asked as an editor asks it: the checker's
problems with their ranges and quick fixes, hover, completion, definitions and uses across
`extends`, symbols and rename, on tests/data/rulesets/editor/small.yaml (a come-out throw, a point, a
bet at even money) and child.yaml, which extends it. Places are (line, column) from 0."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from hazard_dsl.language.service import LanguageService, Place, RenameError, Span, uri_of

EDITOR = Path(__file__).resolve().parents[1] / "data" / "rulesets" / "editor"


@pytest.fixture
def files(tmp_path):
    """small.yaml and child.yaml copied to a folder of the test's own: (folder, service)."""
    for name in ("small.yaml", "child.yaml"):
        shutil.copy(EDITOR / name, tmp_path / name)
    return tmp_path, LanguageService()


def opened(service: LanguageService, path: Path, text: str | None = None) -> tuple[str, str]:
    uri = uri_of(path)
    text = path.read_text(encoding="utf-8") if text is None else text
    service.open(uri, text)
    return uri, text


def find(text: str, word: str, after: str = "", nth: int = 0) -> Place:
    """The place of the `nth` `word` on the first line holding `after` (or anywhere)."""
    for number, line in enumerate(text.split("\n")):
        if after in line:
            column = -1
            for _ in range(nth + 1):
                column = line.index(word, column + 1)
            return Place(number, column)
    raise AssertionError(f"{after!r} is not in the text")


def cut(text: str, span: Span) -> str:
    lines = text.split("\n")
    assert span.start.line == span.end.line
    return lines[span.start.line][span.start.column:span.end.column]


def apply(text: str, edits) -> str:
    """The text with the edits made (last first, so places stay right)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: e.span.start, reverse=True):
        s, e = edit.span.start, edit.span.end
        assert s.line == e.line
        lines[s.line] = lines[s.line][:s.column] + edit.new_text + lines[s.line][e.column:]
    return "\n".join(lines)


# --------------------------------------------------------------------------- diagnostics


def test_a_misspelt_phase_after_goto_is_a_problem_on_the_word_with_a_fix_that_replaces_it(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace("goto point", "goto piont")
    uri, _ = opened(service, folder / "small.yaml", text)
    errors = [p for p in service.diagnostics(uri) if p.severity == "error"]
    assert len(errors) == 1
    (problem,) = errors
    where = find(text, "piont", "goto piont")
    assert problem.span == Span(where, Place(where.line, where.column + len("piont")))
    assert cut(text, problem.span) == "piont"
    assert "piont" in problem.message
    (fix,) = problem.fixes
    assert fix.new_text == "point" and fix.span == problem.span
    # the code action of the problem's range is that fix, as edits of this document
    (action,) = service.code_actions(uri, problem.span)
    assert action.edits == {uri: [service.code_actions(uri, problem.span)[0].edits[uri][0]]}
    fixed = apply(text, action.edits[uri])
    assert fixed == (folder / "small.yaml").read_text()
    service.change(uri, fixed)
    assert service.diagnostics(uri) == []
    data = problem.to_json()
    assert data["range"] == {"start": {"line": where.line, "column": where.column},
                             "end": {"line": where.line, "column": where.column + 5}}
    assert data["severity"] == "error" and data["fixes"][0]["new_text"] == "point"


@pytest.mark.parametrize("good, bad, word", [
    ("do: win made", "do: win mdae", "mdae"),  # the checker places it on the whole action
    ("when: total == main", "when: total == mian", "mian"),  # on the condition
    ("{caster} makes {main}.", "{caster} makes {mian}.", "mian"),  # on the whole template
])
def test_a_did_you_mean_inside_a_wider_range_is_fixed_on_its_word(files, good, bad, word):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace(good, bad, 1)
    uri, _ = opened(service, folder / "small.yaml", text)
    (problem,) = [p for p in service.diagnostics(uri) if word in p.message]
    assert cut(text, problem.span) == word  # the range is the misspelt word, not its surroundings
    (fix,) = problem.fixes
    assert apply(text, [service.code_actions(uri, problem.span)[0].edits[uri][0]]) == \
        (folder / "small.yaml").read_text()
    assert fix.span == problem.span


def test_a_misspelt_label_in_a_flow_list_is_fixed_on_its_word(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace(
        "start: come_out", "start: come_out\npassing: {after_labels: [seven_uot]}", 1)
    uri, _ = opened(service, folder / "small.yaml", text)
    problems = [p for p in service.diagnostics(uri) if "seven_uot" in p.message]
    assert problems and cut(text, problems[0].span) == "seven_uot"
    assert problems[0].fixes[0].new_text == "seven_out"


def test_a_rule_file_stays_one_while_open_though_its_modeline_is_deleted(files):
    folder, service = files
    text = "# hazard-dsl\n" + (folder / "small.yaml").read_text()
    uri, text = opened(service, folder / "small.yaml", text)
    assert service.is_rule_file(uri)
    service.change(uri, text.replace("# hazard-dsl\n", "").replace("phases:", "phaces:"))
    assert service.is_rule_file(uri)
    assert any("phaces" in p.message for p in service.diagnostics(uri))
    service.close(uri)
    service.open(uri, (folder / "small.yaml").read_text())  # no modeline, no glob: not said to be one
    assert not service.is_rule_file(uri)


@pytest.mark.parametrize("name, text", [
    (".eslintrc.yml", "extends: airbnb\nrules:\n  semi: error\n"),
    (".yamllint.yaml", "extends: default\nrules:\n  line-length: disable\n"),
    ("kustomization.yaml", "labels:\n  - pairs: {app: web}\nresources: [a.yaml]\n"),
    (".github/workflows/ci.yml", "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"),
    ("notes.yaml", "# the hazard-dsl rules are in rulesets/\nphases: [one, two]\n"),
])
def test_keys_other_tools_share_do_not_make_a_rule_file(tmp_path, name, text):
    service = LanguageService()
    service.configure(["rulesets/*.yaml"], [tmp_path.as_uri()])
    uri, _ = opened(service, tmp_path / name, text)
    assert not service.is_rule_file(uri)


@pytest.mark.parametrize("name, head", [
    ("mine.yaml", "# hazard-dsl\n"),
    ("mine.yaml", "# hazard-dsl: a rule file\n"),
    ("mine.yaml", "# yaml-language-server: $schema=../hazard-dsl.schema.json\n"),
    ("mine.yaml", "# $schema: /venv/site-packages/hazard_dsl/language/rule-file.schema.json\n"),
    ("mine.hazard.yaml", ""),
    ("mine.hazard.yml", ""),
    ("rulesets/mine.yaml", ""),  # by the configured glob
    ("rulesets/deeper/mine.yaml", "# hazard-dsl\n"),
])
def test_the_author_says_a_file_is_a_rule_file(tmp_path, name, head):
    service = LanguageService()
    service.configure(["rulesets/*.yaml"], [tmp_path.as_uri()])
    uri, _ = opened(service, tmp_path / name, head + "name: Mine\nextends: craps\n")
    assert service.is_rule_file(uri)


def test_a_glob_reaches_no_deeper_than_it_says_and_a_file_extended_is_a_rule_file(tmp_path):
    service = LanguageService()
    service.configure(["rulesets/*.yaml"], [tmp_path.as_uri()])
    folder = tmp_path / "rulesets" / "deeper"
    folder.mkdir(parents=True)
    (folder / "base.yaml").write_text("name: Base\nextends: craps\n")
    (folder / "child.yaml").write_text("# hazard-dsl\nname: C\nextends: base.yaml\n")
    base, _ = opened(service, folder / "base.yaml")
    assert not service.is_rule_file(base)
    opened(service, folder / "child.yaml")
    assert service.is_rule_file(base)  # the open child's author named it by `extends:`
    service.configure(["**/deeper/*.yaml"])
    assert service.is_rule_file(uri_of(tmp_path / "rulesets" / "deeper" / "other.yaml"))


def test_hover_while_the_file_does_not_read_says_where_the_name_is_defined(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace("goto point", "goto piont")
    uri, _ = opened(service, folder / "small.yaml", text)  # never read clean: nothing known before
    hover = service.hover(uri, find(text, "main", "total == main"))
    assert hover is not None and "`main`" in hover.markdown and "line 6" in hover.markdown
    (defined,) = service.definition(uri, find(text, "main", "total == main"))
    assert defined.span.start.line == 5


def test_a_misspelt_key_is_a_problem_on_the_whole_key(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace("    description: the point", "    descripton: the point")
    uri, _ = opened(service, folder / "small.yaml", text)
    (problem,) = [p for p in service.diagnostics(uri) if p.severity == "error"]
    assert cut(text, problem.span) == "descripton"
    assert problem.fixes[0].new_text == "description"


def test_a_problem_of_the_file_extended_stands_on_extends(files):
    folder, service = files
    # the point phase is the parent's alone (child.yaml replaces the come-out)
    (folder / "small.yaml").write_text((folder / "small.yaml").read_text().replace("total == 7", "total == seven"))
    uri, text = opened(service, folder / "child.yaml")
    problems = [p for p in service.diagnostics(uri) if p.severity == "error"]
    # in the child's text: on `extends:` where check places it in the parent, or where check
    # places it in the child (the part that inherits it); either way naming the parent's line
    assert problems and all(cut(text, p.span) == "small.yaml" or p.span.start.line == text.split("\n").index(
        "phases:") for p in problems), problems
    assert "small.yaml" in problems[0].message and not problems[0].fixes  # the fix is the parent's to make


def test_text_not_yet_saved_is_checked_as_held(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    assert service.diagnostics(uri) == []
    service.change(uri, text.replace("total == 7", "total == seven"))
    (problem,) = [p for p in service.diagnostics(uri) if p.severity == "error"]
    assert cut(text.replace("total == 7", "total == seven"), problem.span) == "seven"
    assert (folder / "small.yaml").read_text() == text  # nothing written


# --------------------------------------------------------------------------- hover


def test_hover_over_main_in_a_condition_gives_its_range_and_description(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    at = find(text, "main", "when: total == main")
    found = service.hover(uri, Place(at.line, at.column + 2))
    assert found.span == Span(at, Place(at.line, at.column + 4))
    assert "range 0..12" in found.markdown and "starts at 0" in found.markdown
    assert "the point the caster must throw again" in found.markdown


def test_hover_over_a_phase_says_its_rules_in_words(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    found = service.hover(uri, find(text, "point", "goto point"))
    assert "**phase** `point`" in found.markdown
    assert "when the total thrown is the main: win (made)" in found.markdown
    assert "otherwise: throw again" in found.markdown


def test_hover_over_a_label_gives_its_ending_and_what_it_says(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    found = service.hover(uri, find(text, "crabs", "do: lose crabs"))
    assert "ends the game: lose" in found.markdown and "throws crabs." in found.markdown


def test_hover_over_a_bet_gives_its_payout_and_exact_edge(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    found = service.hover(uri, find(text, "line", "  line:"))
    # the pass line's edge: 7/495 (the caster's game at even money)
    assert f"**{Fraction(7, 495)}**" in found.markdown and "1.414%" in found.markdown
    assert "Pays 1 to 1" in found.markdown


def test_a_bet_of_a_file_with_errors_gets_no_edge_but_a_note(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace("goto point", "goto piont")
    uri, _ = opened(service, folder / "small.yaml", text)
    found = service.hover(uri, find(text, "line", "  line:"))
    assert found is None or "once the file checks clean" in found.markdown


def test_hover_over_a_function_an_option_and_its_value(files):
    folder, service = files
    text = (folder / "child.yaml").read_text().replace("when: total in {7, 11}", "when: ways(total) == 6")
    uri, _ = opened(service, folder / "child.yaml", text)
    assert "36 throws" in service.hover(uri, find(text, "ways", "ways(total)")).markdown
    option = service.hover(uri, find(text, "crabs", 'option.crabs'))
    assert "**option** `crabs`" in option.markdown and "`again`: crabs are thrown again" in option.markdown
    value = service.hover(uri, find(text, "lose", 'option.crabs == "lose"'))
    assert "**value** `lose` of the option `crabs` (the default): crabs lose" in value.markdown


# --------------------------------------------------------------------------- completion


def test_completion_after_goto_offers_the_phases(files):
    folder, service = files
    text = (folder / "small.yaml").read_text().replace("goto point", "goto ")
    uri, _ = opened(service, folder / "small.yaml", text)
    at = find(text, "goto ", "goto ")
    labels = [c.label for c in service.completion(uri, Place(at.line, at.column + 5))]
    assert labels == ["come_out", "point"]


def test_completion_in_expressions_labels_options_and_values(files):
    folder, service = files
    uri, text = opened(service, folder / "child.yaml")
    at = find(text, "lose crabs", "do: lose crabs")
    assert "seven_out" in [c.label for c in service.completion(uri, Place(at.line, at.column + 5))]
    at = find(text, '"lose"', 'option.crabs == "lose"')
    values = service.completion(uri, Place(at.line, at.column + 1))
    assert [c.label for c in values] == ["lose", "again"] and values[1].documentation == "crabs are thrown again"
    at = find(text, "crabs", "option.crabs")
    assert [c.label for c in service.completion(uri, at)] == ["crabs"]
    at = find(text, "total", "when: total in {7, 11}")
    names = {c.label: c.kind for c in service.completion(uri, at)}
    assert names["main"] == "variable" and names["total"] == "fact" and names["ways"] == "function"


def test_completion_of_keys_by_place_from_the_schema():
    service = LanguageService()
    text = "name: x\nphases:\n  a:\n    rules:\n      - wh\n      - otherwise: throw again\nbets:\n  b:\n    backer: \n    \n"
    service.open("untitled:x.yaml", text)
    rule = service.completion("untitled:x.yaml", Place(4, 10))
    assert [c.label for c in rule] == ["when", "do", "otherwise", "say"] and rule[0].insert_text == "when: "
    assert "condition" in rule[0].documentation
    bet = [c.label for c in service.completion("untitled:x.yaml", Place(9, 4))]
    assert {"layer", "pays", "made", "backs"} <= set(bet) and "when" not in bet
    assert "backer" not in bet  # written already
    top = [c.label for c in service.completion("untitled:x.yaml", Place(10, 0))]
    assert "money" in top and "phases" not in top
    # a value that is one of a few words
    assert [c.label for c in service.completion("untitled:x.yaml", Place(8, 12))] == [
        "caster", "setter", "fader", "bank", "player"]


def test_completion_of_keys_leaves_out_the_keys_already_written(files):
    folder, service = files
    text = (folder / "small.yaml").read_text()
    lines = text.split("\n")
    at_top = lines.index("labels:")
    lines.insert(at_top, "")  # a new top-level line between variables and labels
    in_point = lines.index("  point:") + 2
    lines.insert(in_point, "    ")  # a new key of the phase point, under rules:
    in_rule = lines.index("      - when: total == main") + 1
    lines.insert(in_rule, "        ")  # a new key of that rule, beside when: and do:
    text = "\n".join(lines)
    uri, _ = opened(service, folder / "small.yaml", text)

    def offered(line: int) -> set:
        return {c.label for c in service.completion(uri, Place(line, len(text.split("\n")[line])))}

    top = offered(at_top)
    assert {"year", "notes", "money"} <= top and not {"name", "variables", "labels", "phases"} & top
    phase = offered(lines.index("    "))
    assert "rules" not in phase and "description" in phase
    rule = offered(lines.index("        "))
    assert "when" not in rule and "say" in rule


def test_completion_of_throws_where_faces_are_named(files):
    folder, service = files
    text = (folder / "small.yaml").read_text() + "words:\n  throws:\n    \n"
    uri, _ = opened(service, folder / "small.yaml", text)
    line = len(text.split("\n")) - 2
    found = service.completion(uri, Place(line, 4))
    assert found[0].label == "1-1" and found[0].detail == "ace-ace" and len(found) == 21 + 11


# --------------------------------------------------------------------------- definitions, uses, symbols


def test_definition_of_a_phase_in_the_file_and_across_extends(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    (found,) = service.definition(uri, find(text, "point", "goto point"))
    assert found.uri == uri and found.span.start == find(text, "point", "  point:")
    child, child_text = opened(service, folder / "child.yaml")
    (found,) = service.definition(child, find(child_text, "point", "goto point"))
    assert found.uri == uri and found.span.start == find(text, "point", "  point:")
    (found,) = service.definition(child, find(child_text, "main", "set main"))
    assert found.uri == uri and cut(text, found.span) == "main"


def test_definition_in_a_built_in_ruleset_from_text_held_in_memory():
    service = LanguageService()
    text = "name: mine\nextends: cotton\nphases:\n  begin:\n    rules:\n      - otherwise: goto set_main\n"
    service.open("untitled:mine.yaml", text)
    (found,) = service.definition("untitled:mine.yaml", find(text, "set_main", "goto"))
    assert found.uri.endswith("/cotton.yaml")


def test_references_of_a_variable_include_its_uses_and_say_templates(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    found = service.references(uri, find(text, "main", "  main:"))
    assert [cut(text, f.span) for f in found] == ["main"] * 4  # defined, {main} said, set, compared
    assert len(service.references(uri, find(text, "main", "  main:"), include_declaration=False)) == 3


def test_document_symbols(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    symbols = service.document_symbols(uri)
    assert [(s.name, s.kind) for s in symbols] == [
        ("main", "variable"), ("natural", "label"), ("crabs", "label"), ("made", "label"), ("seven_out", "label"),
        ("come_out", "phase"), ("point", "phase"), ("line", "bet")]
    point = symbols[6]
    assert cut(text, point.name_span) == "point" and point.span.end.line == find(text, "throw again", "otherwise: throw again").line


# --------------------------------------------------------------------------- rename


def test_rename_of_a_variable_everywhere_in_the_file(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    span, name = service.prepare_rename(uri, find(text, "main", "total == main"))
    assert name == "main"
    edits = service.rename(uri, find(text, "main", "total == main"), "point_value")
    renamed = apply(text, edits[uri])
    assert "main" not in renamed.replace("maine", "")
    assert "{caster} makes {point_value}." in renamed and "set point_value = total" in renamed
    service.change(uri, renamed)
    assert service.diagnostics(uri) == []


def test_rename_refuses_what_is_no_name_or_is_taken(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    main = find(text, "main", "total == main")
    for name, said in (("2nd", "is not a name"), ("goto", "reserved"), ("total", "fact"),
                       ("main", None)):
        if said is None:
            assert service.rename(uri, main, name) == {}
            continue
        with pytest.raises(RenameError, match=said):
            service.rename(uri, main, name)
    with pytest.raises(RenameError, match="already the phase"):
        service.rename(uri, find(text, "point", "goto point"), "come_out")
    child, child_text = opened(service, folder / "child.yaml")
    with pytest.raises(RenameError, match="defined in small.yaml"):
        service.rename(child, find(child_text, "main", "set main"), "other")


def test_rename_of_a_phase(files):
    folder, service = files
    uri, text = opened(service, folder / "small.yaml")
    renamed = apply(text, service.rename(uri, find(text, "point", "goto point"), "the_point")[uri])
    assert "goto the_point" in renamed and "  the_point:" in renamed
    service.change(uri, renamed)
    assert service.diagnostics(uri) == []


# --------------------------------------------------------------------------- hostile text


_PIECES = st.sampled_from(["name: x\n", "phases:\n", "  a:\n", "    rules:\n", "      - when: total == 7\n",
                           "        do: goto a\n", "      - otherwise: throw again\n", "extends: cotton\n",
                           "variables:\n  main: 0..12\n", "  {", "[", ": :", "\t", "é", "😋", "\r\n", "\x85", "\u2028", "'", '"',
                           "option.", "win ", "{main}", "bets:\n  b:\n    pays: 1 to 1\n"])


@given(st.lists(_PIECES | st.text(max_size=8), max_size=14), st.integers(0, 30), st.integers(0, 40),
       st.text(max_size=6))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_text_and_no_place_makes_the_service_raise(pieces, line, column, new_name):
    service = LanguageService()
    uri = "untitled:hostile.yaml"
    text = "".join(pieces)
    service.open(uri, text)
    service.change(uri, text[: len(text) // 2])
    service.change(uri, text)
    place = Place(line, column)
    for problem in service.diagnostics(uri):
        assert problem.span.start <= problem.span.end
        problem.to_json()
    service.hover(uri, place)
    service.completion(uri, place)
    service.definition(uri, place)
    service.references(uri, place)
    service.document_symbols(uri)
    service.code_actions(uri, Span(Place(0, 0), place))
    try:
        service.rename(uri, place, new_name or "x")
    except RenameError:
        pass


@given(st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 12), _PIECES | st.text(max_size=4)), max_size=6),
       st.integers(0, 45), st.integers(0, 50))
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_no_edit_of_a_rule_file_makes_the_service_raise(edits, line, column):
    service = LanguageService()
    text = (EDITOR / "small.yaml").read_text(encoding="utf-8")
    uri = "untitled:small.yaml"  # (a text held in memory: extends resolves to built-ins only)
    service.open(uri, text)
    for at, cut_out, piece in edits:
        at = at % (len(text) + 1)
        text = text[:at] + piece + text[at + cut_out:]
        service.change(uri, text)
        place = Place(line, column)
        for problem in service.diagnostics(uri):
            assert problem.span.start <= problem.span.end
        service.hover(uri, place)
        service.completion(uri, place)
        service.references(uri, place)
        service.document_symbols(uri)
        try:
            service.prepare_rename(uri, place)
            service.rename(uri, place, "renamed")
        except RenameError:
            pass


# --- rename and references find every use; a parent's unsaved text is what its children read

CRAPS = Path(__file__).resolve().parents[2] / "rulesets" / "craps.yaml"


def test_renaming_craps_point_phase_renames_the_bets_strings_and_the_file_checks_clean(tmp_path):
    from hazard_dsl.check import check_ruleset

    service = LanguageService()
    text = CRAPS.read_text(encoding="utf-8")
    uri, _ = opened(service, tmp_path / "craps.yaml", text)
    # the phase's key (the variable `point:` comes first, under variables:)
    phase = Place(text.split("\n").index("  point:", text.split("\n").index("phases:")), 2)
    found = service.references(uri, phase)
    # the definition, `goto point` and the four bets made while the point is on: come, don't come,
    # the odds and the odds laid (`made: phase == "point"`, craps.yaml lines 142, 156, 173, 189)
    assert sorted(loc.span.start.line + 1 for loc in found) == [59, 60, 142, 156, 173, 189]
    edits = service.rename(uri, phase, "point_on")
    renamed = apply(text, edits[uri])
    assert renamed.count('phase == "point_on"') == 4 and "goto point_on" in renamed
    assert "set point = total" in renamed and "ways(point)" in renamed  # the variable of that name is left
    (tmp_path / "craps.yaml").write_text(renamed, encoding="utf-8")
    ruleset, problems = check_ruleset(tmp_path / "craps.yaml")
    assert ruleset is not None and problems == []


@pytest.mark.parametrize("new, why", [("come_out", "already the phase"), ("goto", "reserved word"),
                                      ("2nd", "not a name")])
def test_a_rename_that_would_break_the_file_is_refused_saying_why(tmp_path, new, why):
    service = LanguageService()
    text = CRAPS.read_text(encoding="utf-8")
    uri, _ = opened(service, tmp_path / "craps.yaml", text)
    with pytest.raises(RenameError, match=why):
        service.rename(uri, find(text, "point", 'made: phase == "point"'), new)


def test_rename_in_a_parent_reaches_its_open_child_and_refuses_a_name_the_child_took(files):
    folder, service = files
    small, small_text = opened(service, folder / "small.yaml")
    child, child_text = opened(service, folder / "child.yaml")
    at_label = find(small_text, "crabs", "do: lose crabs")
    uses = service.references(small, at_label)
    assert {(loc.uri, loc.span.start.line) for loc in uses} == {
        (small, 10), (small, 20), (child, 15)}  # the child's `lose crabs` is the parent's label
    edits = service.rename(small, find(small_text, "point", "goto point"), "rolling")
    assert apply(child_text, edits[child]).count("goto rolling") == 1
    assert apply(small_text, edits[small]).count("rolling") == 2
    with pytest.raises(RenameError, match="in child.yaml"):
        service.rename(small, find(small_text, "main", "set main"), "crabs")  # the child's option


def test_an_open_child_is_checked_again_against_its_parents_unsaved_text(files):
    folder, service = files
    small, small_text = opened(service, folder / "small.yaml")
    child, child_text = opened(service, folder / "child.yaml")
    assert [p for p in service.diagnostics(child) if p.severity == "error"] == []
    edited = small_text.replace("  point:\n", "  rolling:\n")  # not saved: the disk still says point
    assert service.change(small, edited) == [child]
    errors = [p.message for p in service.diagnostics(child) if p.severity == "error"]
    assert any("'point'" in m for m in errors), errors
    # definition and hover read the same (edited) version: `main` is now two lines lower
    service.change(small, "# two\n# lines\n" + small_text)
    assert [p for p in service.diagnostics(child) if p.severity == "error"] == []
    (defined,) = service.definition(child, find(child_text, "main", "set main"))
    assert (defined.uri, defined.span.start.line) == (small, 7)
    # closed unsaved, the parent is read as saved again
    service.change(small, edited)
    assert service.close(small) == [child]
    assert [p for p in service.diagnostics(child) if p.severity == "error"] == []


def test_definition_and_hover_on_extends_reach_the_parent_file(files):
    folder, service = files
    child, text = opened(service, folder / "child.yaml")
    (parent,) = service.definition(child, find(text, "small", "extends:"))
    assert parent.uri == uri_of(folder / "small.yaml") and parent.span == Span(Place(0, 0), Place(0, 0))
    assert "A small dice game" in service.hover(child, find(text, "small", "extends:")).markdown
    mine = "untitled:mine.yaml"
    service.open(mine, "name: Mine\nextends: craps\n")
    (built_in,) = service.definition(mine, Place(1, 10))
    assert built_in.uri == uri_of(CRAPS.resolve()) or built_in.uri.endswith("/craps.yaml")


def test_hover_and_definition_inside_commission_and_in_a_string_naming_a_phase(tmp_path):
    service = LanguageService()
    text = CRAPS.read_text(encoding="utf-8")
    uri, _ = opened(service, tmp_path / "craps.yaml", text)
    hover = service.hover(uri, find(text, "vig", "commission: {"))
    assert hover is not None and hover.markdown.startswith("**option** `vig`")
    at = find(text, "point", 'made: phase == "point"')
    assert service.hover(uri, at).markdown.startswith("**phase** `point`")
    (defined,) = service.definition(uri, at)
    assert text.split("\n")[defined.span.start.line] == "  point:" and defined.span.start.line == 59


def _builtin_names():
    from hazard_dsl.parse.files import builtin_names

    return sorted(builtin_names())


@pytest.mark.parametrize("name", _builtin_names())
@pytest.mark.slow  # seconds, not milliseconds: left out of -m "not slow"
def test_every_name_of_a_builtin_renamed_leaves_the_file_checking_as_before(tmp_path, name):
    """Each phase, variable, label, option, bet and fee a built-in ruleset defines, renamed in a
    copy of it: the copy has no error the file had not (a name the file refines from the
    ruleset it extends is refused instead: renamed here alone it would lose what it inherits)."""
    from hazard_dsl.check import check_ruleset
    from hazard_dsl.language.service import RENAMABLE
    from hazard_dsl.parse.files import builtin_file

    text = builtin_file(name).read_text(encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    before = sorted(p.message for p in check_ruleset(path)[1] if p.severity == "error")
    service = LanguageService()
    uri, _ = opened(service, path, text)
    renamed = refused = 0
    for defined in [n for n in service._doc(uri).index.definitions if n.kind in RENAMABLE]:
        try:
            edits = service.rename(uri, Place(*defined.start), f"{defined.name}_renamed")
        except RenameError as exc:
            assert "rename it there" in str(exc)
            refused += 1
            continue
        renamed += 1
        path.write_text(apply(text, edits[uri]), encoding="utf-8")
        after = sorted(p.message for p in check_ruleset(path)[1] if p.severity == "error")
        assert after == before, (defined.kind, defined.name, after)
    assert renamed + refused > 0
    if "\nextends:" not in text:
        assert refused == 0 and renamed > 0
