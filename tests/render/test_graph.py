"""`hazard-dsl graph`: the compiled machine drawn. The DOT parses with Graphviz and names every
phase and label; the Mermaid is well formed; the arrows say the throws that take them, derived
from the machine (the nick/out table of seed texts 000-003 in parameters)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from hazard_dsl.cli import main
from hazard_dsl.cli.parser import GRAPH_FORMATS
from hazard_dsl.compile.compiler import compile_ruleset
from hazard_dsl.check.reading import read_ruleset
from hazard_dsl.render import graph as graph_module
from hazard_dsl.render.graph import FORMATS, Diagram, draw, to_dot, to_mermaid
from hazard_dsl.render.transitions import View
from tests.conftest import RULESETS, SHIPPED, machine

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed (apt-get install graphviz; "
                                                   ".ci/run installs it)")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def edges(m, unfold=False):
    """{(source name, target name): edge text} of a view, nodes named by phase and label."""
    view = View(m, unfold)
    diagram = Diagram(m, unfold)

    def name(node_id):
        node = view.nodes.get(node_id)
        return "start" if node is None else (node.label or node.phase)

    return {(name(e.source), name(e.target), e.source): diagram.edge_text(e) for e in view.edges}


def by_target(m, phase, unfold=False):
    view = View(m, unfold)
    diagram = Diagram(m, unfold)
    out = {}
    for e in view.edges:
        source = view.nodes.get(e.source)
        if source is None or source.phase != phase:
            continue
        target = view.nodes[e.target]
        out.setdefault(target.label or ("again" if e.target == e.source else target.phase), []).append(
            diagram.edge_text(e))
    return out


def test_the_cli_formats_are_the_module_formats():
    assert tuple(GRAPH_FORMATS) == tuple(FORMATS)


@pytest.mark.parametrize("command", ["graph", "rules"])
def test_help(command):
    import sys

    result = subprocess.run([sys.executable, "-m", "hazard_dsl", command, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and f"usage: hazard-dsl {command}" in result.stdout


def test_cottons_table_in_parameters():
    """Seed texts 000-003: with a main of m, m nicks, 11 nicks 7 and 12 nicks 6 and 8; 2 and 3
    are out to every main, 11 to all but 7, 12 to 5, 7 and 9. Folded, that is one arrow each."""
    arrows = by_target(machine("cotton"), "chance_throw")
    assert arrows["nick"] == ["m; 11 if m = 7; 12 if m ∈ {6, 8} — nick, 4–8/36"]
    assert arrows["out"] == ["2, 3; 11 if m ≠ 7; 12 if m ∉ {6, 8} — out, 4–6/36"]
    assert arrows["chance"] == ["any other throw — c = the throw, 24–26/36"]
    chance = by_target(machine("cotton"), "chance")
    assert chance["chance_win"] == ["c — chance_win, 3–6/36"]
    assert chance["chance_loss"] == ["m — chance_loss, 4–6/36"]
    assert chance["again"] == ["any other throw — throw again, 25–29/36"]


def test_petty_differs_where_barker_says():
    """Seed text 002: only the main nicks, only 2 and 3 are out, 11 and 12 are thrown again."""
    arrows = by_target(machine("petty"), "chance_throw")
    assert arrows["nick"] == ["m — nick, 4–6/36"]
    assert arrows["out"] == ["2, 3 — out, 3/36"]
    assert arrows["again"] == ["11, 12 — throw again, 3/36"]


def test_unfolded_arrows_name_the_throws_label_and_chance():
    """The issue's own example: with a main of 5, "2, 3, 11, 12 — out, 6/36"."""
    m = machine("cotton")
    view = View(m, unfold=True)
    diagram = Diagram(m, unfold=True)
    five = m.find("chance_throw", main=5).index
    texts = {view.nodes[e.target].label: diagram.edge_text(e) for e in view.edges
             if e.source == view.node_of[five] and view.nodes[e.target].label}
    assert texts == {"out": "2, 3, 11, 12 — out, 6/36", "nick": "5 — nick, 4/36"}
    assert len(view.nodes) == len(m.states)


def test_craps_point_and_a_choice(capsys):
    arrows = by_target(machine("craps"), "point")
    assert arrows["point_made"] == ["p — point_made, 3–5/36"] and arrows["seven_out"] == ["7 — seven_out, 6/36"]
    m = machine("chicken")
    view = View(m)
    choice = [n for n in view.nodes.values() if n.kind == "choice"]
    assert [(n.chooser, n.variable) for n in choice] == [("caster", "main")]
    assert [Diagram(m).edge_text(e) for e in view.edges if e.source == choice[0].id] == ["main = 5, 6, 7, 8, 9"]
    assert "caster chooses main" in to_dot(Diagram(m))


def test_faces_are_shown_where_the_rules_read_them(write_ruleset):
    path = write_ruleset("""
name: Doublets
labels: {pair: "A pair.", odd: "No pair."}
phases:
  roll:
    - when: doublet
      do: win pair
    - otherwise: lose odd
""")
    m = compile_ruleset(read_ruleset(path), {})
    arrows = by_target(m, "roll")
    assert arrows["pair"] == ["2, 2-2, 3-3, 4-4, 5-5, 12 — pair, 6/36"]
    assert arrows["odd"] == ["any other throw — odd, 30/36"]


@needs_dot
@pytest.mark.parametrize("name", SHIPPED)
def test_dot_parses_with_graphviz_and_names_every_phase_and_label(name):
    m = compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), {})
    for unfold in (False, True):
        text = to_dot(Diagram(m, unfold))
        done = subprocess.run([DOT, "-Tsvg"], input=text.encode(), capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
        svg = done.stdout.decode()
        for phase in {s.phase for s in m.states}:
            assert f"cluster_{phase}" in text and f">{phase}<" in svg, phase
        for label in m.labels():
            assert f">{label}<" in svg, label


@needs_dot
def test_bets_are_drawn_only_when_named():
    m = compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), {}, ["pass", "odds", "come"])
    plain = to_dot(Diagram(m))
    assert "cluster_bet" not in plain and "Bets not drawn: 39 (pass, dont_pass" in plain
    text = to_dot(Diagram(m, bets=["pass", "come"]))
    assert "cluster_bet_pass" in text and "cluster_bet_come" in text and "cluster_bet_odds" not in text
    assert "in come_out: 7, 11; in point: p" in text  # the pass line wins on a natural or the point
    done = subprocess.run([DOT, "-Tsvg"], input=text.encode(), capture_output=True, timeout=120)
    assert done.returncode == 0


MERMAID_LINE = [
    re.compile(r'^  start\(\(start\)\)$'),
    re.compile(r'^  subgraph (phase|bet)_\w+ \[(\w+|"[^"]*")\]$'),
    re.compile(r'^    (n\d+|b_\w+)(\["[^"]*"\]|\(\["[^"]*"\]\)|\{\{"[^"]*"\}\})$'),
    re.compile(r'^  end$'),
    re.compile(r'^  (to|from)_\w+>"[^"]*"\]$'),
    re.compile(r'^  (start|n\d+|b_\w+|(to|from)_\w+) (-->|==>|-\.->)(\|"[^"]*"\|)? (n\d+|b_\w+|(to|from)_\w+)$'),
    re.compile(r'^  classDef \w+ fill:#[0-9a-f]{6},stroke:#[0-9a-f]{6},stroke-width:[\d.]+px$'),
    re.compile(r'^  class [\w,]+ \w+$'),
]


def well_formed_mermaid(text: str) -> None:
    """A Mermaid flowchart as we write it: front matter, `flowchart`, subgraphs closed, every
    line one of the statements above, every arrow between nodes that are defined."""
    lines = text.splitlines()
    assert lines[0] == "---" and lines[1].startswith("title: ") and lines[2] == "---"
    json.loads(lines[1][len("title: "):])  # a quoted YAML (and JSON) string
    assert lines[3] == "flowchart TB"
    depth, defined, used = 0, {"start"}, set()
    for line in lines[4:]:
        assert any(p.match(line) for p in MERMAID_LINE), line
        if line.startswith("  subgraph"):
            depth += 1
            assert depth == 1
        elif line == "  end":
            depth -= 1
            assert depth == 0
        node = re.match(r"^ +(n\d+|b_\w+|(to|from)_\w+)[\[({>]", line)
        if node:
            defined.add(node.group(1))
        arrow = re.match(r"^  (\S+) (-->|==>|-\.->)(\|\"[^\"]*\"\|)? (\S+)$", line)
        if arrow:
            used |= {arrow.group(1), arrow.group(4)}
    assert depth == 0
    assert used <= defined, used - defined


@pytest.mark.parametrize("name", SHIPPED)
def test_mermaid_is_well_formed(name):
    m = compile_ruleset(read_ruleset(RULESETS / f"{name}.yaml"), {})
    well_formed_mermaid(to_mermaid(Diagram(m)))
    well_formed_mermaid(to_mermaid(Diagram(m, phases=["chance" if "chance" in m.variables else m.states[0].phase])))


def test_mermaid_with_bets_and_hostile_words(write_ruleset):
    m = compile_ruleset(read_ruleset(RULESETS / "craps.yaml"), {}, ["pass", "field"])
    well_formed_mermaid(to_mermaid(Diagram(m, bets=["pass", "field"])))
    path = write_ruleset('''
name: 'Quotes "and" <b>markup</b> | pipes & such'
labels: {w: 'He says "yes" <script>alert(1)</script> | ok', l: "no"}
phases:
  roll:
    description: 'a phase "quoted" <i>x</i>'
    rules:
      - when: total == 7
        do: win w
      - otherwise: lose l
''')
    m = compile_ruleset(read_ruleset(path), {})
    text = to_mermaid(Diagram(m))
    well_formed_mermaid(text)
    assert "<script>" not in text and "#lt;script#gt;" in text
    dot = to_dot(Diagram(m))
    assert "<script>" not in dot and "&lt;script&gt;" in dot
    if DOT:
        assert subprocess.run([DOT, "-Tsvg"], input=dot.encode(), capture_output=True).returncode == 0


def test_json_nodes_and_edges(capsys):
    code, out, _ = run(capsys, "graph", "cotton", "--json")
    data = json.loads(out)
    assert code == 0 and data["folded"] and data["phases"] == ["set_main", "chance_throw", "chance"]
    ids = {n["id"] for n in data["nodes"]} | {"start"}
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])
    nick = next(n for n in data["nodes"] if n["label"] == "nick")
    assert nick["result"] == "win" and nick["says"] == "The caster nicks it and sweeps the board."
    out_edge = next(e for e in data["edges"] if e["does"] == "out")
    assert out_edge["chance"] == {"low": "1/9", "high": "1/6"}


def test_a_part_of_the_machine(capsys):
    code, out, _ = run(capsys, "graph", "cotton", "--phase", "chance", "--format", "mermaid")
    assert code == 0 and "phase_chance_throw" not in out and "phase_chance " in out
    assert 'from_chance_throw>"from chance_throw"]' in out
    code, out, _ = run(capsys, "graph", "cotton", "--phase", "set_main,chance_throw")
    assert code == 0 and "to_chance" in out and "cluster_chance " not in out


@pytest.mark.parametrize("argv, words", [
    (["graph", "cotton", "--phase", "chanse"], ["no phase 'chanse'", "did you mean 'chance'"]),
    (["graph", "craps", "--bet", "pas"], ["no bet 'pas'", "did you mean 'pass'"]),
    (["graph", "cotten"], ["did you mean 'cotton'"]),
    (["graph", "cotton", "--format", "pgn"], ["did you mean 'png'"]),
    (["graph", "cotton", "--option", "main=caled"], ["did you mean 'called'"]),
])
def test_mistakes_are_clean_errors(capsys, argv, words):
    with pytest.raises(SystemExit) if "--format" in argv else _nothing():
        code, _, err = run(capsys, *argv)
        assert code == 2
    err = capsys.readouterr().err if "--format" in argv else err
    for word in words:
        assert word in err
    assert "Traceback" not in err


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_without_graphviz_svg_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setattr(graph_module.shutil, "which", lambda name: None)
    code, out, err = run(capsys, "graph", "petty", "--format", "svg")
    assert code == 1 and out == ""
    assert "apt-get install graphviz" in err and "brew install graphviz" in err and "--format dot" in err
    code, out, _ = run(capsys, "graph", "petty", "--format", "dot")  # dot and mermaid need nothing
    assert code == 0 and out.startswith("digraph")


@needs_dot
def test_svg_and_png_through_graphviz(capsys, tmp_path):
    code, out, _ = run(capsys, "graph", "petty", "--format", "svg")
    assert code == 0 and "<svg" in out and "Petty Hazard (Barker, 2003)" in out
    target = tmp_path / "petty.png"
    code, _, err = run(capsys, "graph", "petty", "--format", "png", "-o", str(target))
    data = target.read_bytes()
    assert code == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and str(target) in err
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 600 < width < 4000 and 600 < height < 4000


def test_recast_is_said_and_drawn_without_crashing():
    m = compile_ruleset(read_ruleset(RULESETS / "history_sheet.yaml"), {"cocked": "one_in_ten"})
    assert getattr(m, "recast", None) is not None
    diagram = Diagram(m)
    assert any("recast" in line for line in diagram.subtitle())
    dot = to_dot(diagram)
    assert "no_main" in dot
    # each throw node has its "a die off" node: the cast with a die off (1 − (9/10)² = 19%), what
    # the caster may recast, and the arrow back
    throws = [n for n in diagram.view.nodes.values() if n.kind == "throw"]
    offs = [n for n in diagram.view.nodes.values() if n.variable == "recast"]
    assert len(offs) == len(throws) == 3
    assert dot.count("a die off (cocked or wild) — 19.0%") == 3
    assert dot.count("caster recasts it alone") == 3
    well_formed_mermaid(to_mermaid(diagram))
    data = diagram.as_json()
    assert {n["id"] for n in data["nodes"]} >= {n.id for n in offs}
    if DOT:
        done = subprocess.run([DOT, "-Tsvg"], input=dot.encode(), capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode()
    plain = Diagram(compile_ruleset(read_ruleset(RULESETS / "history_sheet.yaml"), {}))
    assert not any("recast" in line for line in plain.subtitle())


def test_draw_returns_text_formats_as_utf8():
    m = machine("petty")
    assert draw(m, "dot").decode().startswith("digraph hazard {")
    assert draw(m, "mermaid").decode().splitlines()[3] == "flowchart TB"
