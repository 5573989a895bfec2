"""`hazard-dsl graph`: the compiled machine drawn — as Graphviz DOT, Mermaid, SVG or PNG (through
Graphviz's own `dot` program), or as data (JSON).

Phases are clusters; a transition is labelled with the throws that take it, what it does and its
chance ("2, 3; 11 if m ≠ 7 — out, 4–6/36"); end states are coloured by result (win green, lose
red, push amber) and named by their label with what the narrator says; a choice is a hexagon
naming who chooses. By default the states that differ only in variables' values are one node
with those variables as parameters (`transitions.View`); `unfold` draws every state. Bets are
not drawn unless named: each then is a cluster of its own, with dashed arrows from where it may
be made. Everything is read from the compiled machine and the ruleset's words.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import textwrap

from ..compile.machine import CHOICE, END, THROW, Machine
from .escape import dot_html, dot_string, mermaid, mermaid_title
from .terminal import printable
from .transitions import Edge, Node, View, throw_keys
from .words import fill

FORMATS = ("dot", "mermaid", "svg", "png", "json")
MAX_NODES = 1500  # more than this is no picture anyone can read (and takes dot minutes)

COLOURS = {  # fill, border: readable in print and in grey
    "win": ("#d8efd9", "#2e7d32"),
    "lose": ("#f7d9d9", "#b3261e"),
    "push": ("#fbefc9", "#8a6d00"),
    THROW: ("#e6edf7", "#34558b"),
    CHOICE: ("#ede3f5", "#6a3d8f"),
    "bet": ("#f3f3f3", "#555555"),
}


class GraphError(ValueError):
    """A graph that cannot be drawn as asked (a phase or bet that is not there, too many nodes,
    Graphviz missing): reported as `error: …`."""


class GraphvizMissing(GraphError):
    pass


GRAPHVIZ_HELP = ("--format {fmt} needs Graphviz's `dot` program, which is not installed (or not on PATH). "
                 "Install Graphviz — Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; "
                 "Windows and others: https://graphviz.org/download/ — or use --format dot or --format mermaid, "
                 "which need nothing else.")


# --------------------------------------------------------------------------- the picture, as data


class Diagram:
    """What is drawn: the view of the game, the bets asked for, the words that go with them."""

    def __init__(self, machine: Machine, unfold: bool = False, phases=(), bets=()):
        from ..diagnostics import did_you_mean

        self.machine = machine
        self.ruleset = machine.ruleset
        self.recast_ways: dict = {}  # the "a die off" nodes drawn: node id -> what is recast there
        dice_of = None
        if machine.recast is not None:  # the throws that stand, recast as the chooser likes best
            from ..solve.markov import Solver

            solver = Solver(machine)
            solver.set_policy("optimal")
            dice_of = solver.throw_dice
        view = View(machine, unfold, dice_of=dice_of)
        if len(view.nodes) > MAX_NODES:
            raise GraphError(f"the unfolded machine has {len(view.nodes)} states, too many to draw (at most "
                             f"{MAX_NODES}); drop --unfold, or pick phases with --phase")
        phases = [p for text in phases for p in text.split(",") if p.strip()]
        for phase in phases:
            if phase not in view.phases:
                known = view.phases
                raise GraphError(f"--phase {phase}: the machine has no phase {phase!r}{did_you_mean(phase, known)} "
                                 f"(phases: {', '.join(known)})")
        self.whole = view
        self.view = view.select([p.strip() for p in phases]) if phases else view
        self.bets = [BetPart(machine, view, name) for name in bets]
        if machine.recast is not None:
            self._draw_recasts()

    def _draw_recasts(self) -> None:
        """Dice that land off, drawn beside each throw node: an arrow to a node "a die off" (with
        the chance that a cast has a die off), which says what is recast and who chooses, and an
        arrow back (the recast: the dice are cast again, or the off die alone until the throw
        stands). Which recast is chosen, face by face, is `analyse`'s table."""
        machine, view = self.machine, self.view
        recast = machine.recast
        c = recast.chance
        off = 1 - (1 - c) ** 2
        nodes = list(view.nodes.values())
        number = 1 + max((int(n.id[1:]) for n in nodes if n.id[1:].isdigit()), default=0)  # ids go on: n12, n13…
        for node in nodes:
            if node.kind != THROW:
                continue
            ways = set()  # what the rules do with one die off in these states: "both", "off", or a chooser
            for s in node.members:
                for target in recast.landed.get(s, ())[1:]:
                    here = machine.node(target) if target != s else None
                    ways.add("both" if here is None else here.chooser if here.kind == CHOICE else "off")
            if not ways:
                continue
            node_id = f"n{number}"
            number += 1
            choosers = sorted(w for w in ways if w not in ("both", "off"))
            view.nodes[node_id] = Node(node_id, CHOICE, node.phase, (), chooser=" or ".join(choosers) or None,
                                       variable="recast")
            self.recast_ways[node_id] = ways
            pct = f"{float(off) * 100:.1f}%"
            view.edges.append(Edge(node.id, node_id, "throw", "a die off (cocked or wild)", "", off, off, pct))
            view.edges.append(Edge(node_id, node.id, "choice", self._recast_words(ways)))

    @staticmethod
    def _recast_words(ways: set) -> str:
        if ways == {"both"}:
            return "both dice cast again"
        if ways == {"off"}:
            return "the off die cast again alone"
        return "the off die alone, or both, cast again"

    # the words ----------------------------------------------------------------

    def saying(self, label: str | None) -> str:
        """What the narrator says at this label, with the caster named and variables as words."""
        entry = self.ruleset.labels.get(label) if label else None
        if entry is None or not entry.say:
            return ""
        values = {"caster": self.ruleset.words.caster, "throw": "the throw", "total": "the throw"}
        values.update({v: f"the {v}" for v in self.machine.variables})
        text = " ".join(fill(entry.say, values).split())
        return text[:1].upper() + text[1:]

    def node_lines(self, node: Node) -> tuple[str, list]:
        """The first (bold) line of a node and the lines under it."""
        view = self.view
        if node.kind == END:
            lines = [node.result or ""]
            if node.values:
                lines.append(", ".join(f"{k} {v}" for k, v in node.values))
            said = self.saying(node.label)
            if said:
                lines += textwrap.wrap(said, 28)
            return node.label or node.result, lines
        if node.id in self.recast_ways:  # dice that land off (_draw_recasts)
            ways = self.recast_ways[node.id]
            both = "both dice off: both recast"
            if node.chooser:
                return "a die off", [f"{node.chooser} recasts it alone", "or both", both]
            return "a die off", ["it is recast alone" if ways == {"off"} else "both are recast"]
        params = [f"{v} {s}" for v, s in view.symbol(node).items()]
        fixed = [f"{k} {v}" for k, v in node.values]
        if node.kind == CHOICE:
            return f"{node.chooser} chooses {node.variable}", [", ".join(params + fixed)] if params or fixed else []
        return "throw", [", ".join(params + fixed)] if params or fixed else []

    def edge_text(self, edge: Edge) -> str:
        if edge.kind == "start":
            return ""
        if edge.kind == "choice":
            return edge.throws
        tail = ", ".join(part for part in (edge.does, edge.chance) if part)
        return f"{edge.throws} — {tail}" if tail else edge.throws

    def phase_words(self, phase: str) -> str:
        from .transitions import phase_said

        return phase_said(self.machine, phase, self.view)

    def title(self) -> str:
        return self.ruleset.name

    def subtitle(self) -> list:
        """Options, what is folded, and where the rules come from: the diagram's caption."""
        from .phrases import options_text

        lines = []
        if self.machine.options:
            lines.append(f"options: {options_text(self.machine.options)}")
        if not self.view.unfold:
            lines.append("Folded: states differing only in a variable's value are one node, the values as "
                         "parameters; chances are per throw.")
        if not self.machine.dice.fair:
            from .phrases import dice_text

            lines.append(f"Loaded dice: {dice_text(self.machine.dice)}.")
        undrawn = [name for name in self.ruleset.bets if name not in {bet.name for bet in self.bets}]
        if undrawn:
            lines.append(f"Bets not drawn: {len(undrawn)} ({', '.join(undrawn[:6])}{', …' if len(undrawn) > 6 else ''}); "
                         f"--bet NAME draws one beside the game.")
        if self.machine.recast is not None:
            from .tables import exact

            lines.append(f"Dice that land off (each die {exact(self.machine.recast.chance)} of casts) are recast as the "
                         f"'a die off' nodes say; a throw's chance is that of a throw that stands, the recasts chosen "
                         f"as best for the chooser (face by face: hazard-dsl analyse).")
        sources = source_line(self.ruleset)
        file = self.ruleset.file.replace("\\", "/").rsplit("/", 1)[-1]
        if self.ruleset.extends and not self.ruleset.sources:
            # a derived file that cites nothing: say what it is built on, not its parent's sources
            lines.append(f"Built on {self.ruleset.built_on or self.ruleset.extends}; no source of its own — "
                         f"drawn by hazard-dsl from {file}")
        else:
            lines.append(f"Source: {sources} — drawn by hazard-dsl from {file}" if sources
                         else f"Drawn by hazard-dsl from {file}")
        return lines

    # data -----------------------------------------------------------------------

    def as_json(self) -> dict:
        from .tables import exact

        view = self.view
        nodes = []
        for node in view.nodes.values():
            head, _ = self.node_lines(node)
            nodes.append({"id": node.id, "kind": node.kind, "phase": node.phase, "name": head,
                          "parameters": {v: s for v, s in view.symbol(node).items()},
                          "values": dict(node.values), "result": node.result, "label": node.label,
                          "says": self.saying(node.label) or None, "chooser": node.chooser,
                          "variable": node.variable, "states": list(node.members)})
        for stub, phase, way in view.stubs():
            nodes.append({"id": stub, "kind": "stub", "phase": phase, "name": f"{way} {phase}"})
        edges = [{"source": e.source, "target": e.target, "kind": e.kind, "throws": e.throws, "does": e.does,
                  "chance": {"low": exact(e.low), "high": exact(e.high)} if e.kind == "throw" else None}
                 for e in view.edges]
        return {"ruleset": self.ruleset.name, "file": self.ruleset.file, "options": dict(self.machine.options),
                "folded": not view.unfold, "phases": view.phases, "nodes": nodes, "edges": edges,
                "bets": [bet.as_json() for bet in self.bets]}


def source_line(ruleset) -> str:
    """The ruleset's sources with authors, years and pages, shortly: "Charles Cotton, The
    Compleat Gamester (1674), pp. 168-173"."""
    parts = []
    for source in ruleset.sources:
        if not (source.author or source.year or source.page):
            continue
        text = f"{source.author + ', ' if source.author else ''}{source.title}"
        if source.year:
            text += f" ({source.year})"
        if source.page:
            page = str(source.page)
            text += f", {'pp. ' if '-' in page else 'p. '}{page}" if page[:1].isdigit() or page[:1] == "~" \
                else f", {page}"
        parts.append(text)
    return "; ".join(parts[:2])


class BetPart:
    """A bet drawn beside the game: its states (folded by its phase), its decisions (by result
    and label, with what a win pays) and the throws that decide it, in the game's terms."""

    def __init__(self, machine: Machine, view: View, name: str):
        from ..diagnostics import did_you_mean

        if name not in machine.ruleset.bets:
            known = list(machine.ruleset.bets)
            raise GraphError(f"--bet {name}: the ruleset has no bet {name!r}{did_you_mean(name, known)}"
                             + (f" (bets: {', '.join(known)})" if known else " (it declares no bets)"))
        compiled = machine.bets.get(name)
        if compiled is None:
            raise GraphError(f"--bet {name}: the bet was not compiled with the machine")
        self.name = name
        self.bet = machine.ruleset.bets[name]
        self.compiled = compiled
        prefix = f"b_{_ident(name)}_"
        states: dict = {}  # bet state number -> node id
        self.nodes: dict = {}  # id -> (kind, text lines)
        for number, state in enumerate(compiled.states):
            node = prefix + _ident(state.phase)
            states[number] = node
            self.nodes.setdefault(node, ("bet", [f"{name}: {state.phase}" if state.phase != name else name, "up"]))
        decisions: dict = {}
        for code, decision in enumerate(compiled.decisions):
            node = prefix + f"{decision.result}_{_ident(decision.label)}"
            decisions[code] = node
            pays = self.nodes.get(node, (decision.result, [decision.label, ""]))[1][1:]
            if decision.result == "win":
                from .phrases import ratio

                pays = sorted(set(pays[0].removeprefix("pays ").split(", ")) | {ratio(decision.net)}
                              if pays and pays[0] else {ratio(decision.net)})
                pays = ["pays " + ", ".join(pays)]
            else:
                pays = [decision.result] if decision.result != decision.label else []
            self.nodes[node] = (decision.result, [decision.label, *pays])
        # the throws that decide or move it, gathered per (from, to) and game node
        flows: dict = {}
        for (g, b), row in compiled.moves.items():
            source = states[b]
            for k, entry in enumerate(row):
                codes = entry.values() if isinstance(entry, dict) else (entry,)
                for c in codes:
                    target = decisions[~c] if c < 0 else states[c]
                    if target == source:
                        continue  # still up: not drawn
                    flows.setdefault((source, target), {}).setdefault(view.node_of[g], {}).setdefault(g, set()).add(k)
        self.edges = []
        for (source, target), by_node in flows.items():
            parts = []
            for node_id, by_state in by_node.items():
                node = view.nodes[node_id]
                members = [m for m in node.members if m in by_state]
                sets = [frozenset(throw_keys(by_state[m], view.machine.outcomes, view.machine.dice.names)) for m in members]
                part = view.nodes[node_id]
                sub = Node(part.id, part.kind, part.phase, tuple(members), part.params, part.values)
                parts.append(f"in {node.phase}: {view.describe(sub, members, sets)}")
            self.edges.append((source, target, "; ".join(parts)))
        self.start = states[0]
        made = sorted({view.node_of[g] for g in compiled.made}, key=lambda n: int(n[1:]))
        self.made = made
        self.backs = self.bet.backs

    def as_json(self) -> dict:
        return {"bet": self.name, "backer": self.bet.backer, "layer": self.bet.layer, "backs": self.backs,
                "made_at": self.made, "nodes": [{"id": n, "kind": k, "name": lines[0], "lines": lines[1:]}
                                                for n, (k, lines) in self.nodes.items()],
                "edges": [{"source": s, "target": t, "throws": text} for s, t, text in self.edges]}


def _ident(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in str(text))


# --------------------------------------------------------------------------- DOT


def _wrap(text: str, width: int = 34) -> str:
    """Lines of about `width`, broken after "; " or before " — " where possible, so that a
    condition ("12 if m ∈ {6, 8}") stays on one line."""
    pieces = []
    for part in text.replace(" — ", "\x00— ").split("; "):
        bits = part.split("\x00")
        pieces += [bit + ("" if k < len(bits) - 1 else ";") for k, bit in enumerate(bits)]
    if pieces:
        pieces[-1] = pieces[-1][:-1]
    lines: list = []
    for piece in pieces:
        if lines and len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += " " + piece
        elif len(piece) <= width + 8:
            lines.append(piece)
        else:
            lines += textwrap.wrap(piece, width, break_on_hyphens=False)
    return "\n".join(lines) or text


def to_dot(diagram: Diagram) -> str:
    view = diagram.view
    font = "Helvetica"
    out = ["digraph hazard {",
           f'  graph [rankdir=TB, fontname="{font}", fontsize=12, nodesep=0.35, ranksep=0.45, newrank=true, '
           f'labelloc=t, labeljust=l, pad=0.2];',
           f'  node [fontname="{font}", fontsize=11, penwidth=1.3];',
           f'  edge [fontname="{font}", fontsize=9, color="#444444", arrowsize=0.7];']
    title = f'<FONT POINT-SIZE="16"><B>{dot_html(diagram.title())}</B></FONT>'
    lines = "".join(f'<BR ALIGN="LEFT"/><FONT POINT-SIZE="9">{dot_html(part)}</FONT>'
                    for line in diagram.subtitle() for part in textwrap.wrap(line, 120))
    out.append(f"  label=<{title}{lines}<BR ALIGN=\"LEFT\"/>>;")
    if any(e.source == "start" for e in view.edges):
        out.append('  start [shape=circle, style=filled, fillcolor="#222222", label="", width=0.18, fixedsize=true];')
    for phase in view.phases:
        members = [n for n in view.nodes.values() if n.phase == phase]
        words = diagram.phase_words(phase)
        left = '<BR ALIGN="LEFT"/>'
        label = f"<B>{dot_html(phase)}</B>{left}" + (f'<FONT POINT-SIZE="9">{left.join(dot_html(x) for x in textwrap.wrap(words, 56))}</FONT>{left}'
                                                  if words else "")
        out.append(f"  subgraph cluster_{_ident(phase)} {{")
        out.append(f'    label=<{label}>; style="rounded,dashed"; color="#8c8c8c"; fontsize=12; margin=12; labeljust=l;')
        for node in members:
            out.append("    " + _dot_node(diagram, node))
        out.append("  }")
    for stub, phase, way in view.stubs():
        out.append(f'  {stub} [shape=plaintext, fontcolor="#555555", label={dot_string(("→ " if way == "to" else "from ") + phase)}];')
    for e in view.edges:
        text = diagram.edge_text(e)
        attrs = [f"label={dot_string(_wrap(text))}"] if text else []
        if e.kind == "choice":
            attrs.append('style=bold, color="#6a3d8f"')
        target = view.nodes.get(e.target)
        if target is not None and target.kind == END:
            attrs.append(f'color="{COLOURS[target.result][1]}", fontcolor="{COLOURS[target.result][1]}"')
        out.append(f"  {e.source} -> {e.target}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    for bet in diagram.bets:
        out += _dot_bet(bet)
    out.append("}")
    return "\n".join(out) + "\n"


def _dot_node(diagram: Diagram, node: Node) -> str:
    head, lines = diagram.node_lines(node)
    body = "".join(f'<BR/><FONT POINT-SIZE="9">{dot_html(line)}</FONT>' for line in lines if line)
    label = f"<<B>{dot_html(head)}</B>{body}>"
    if node.kind == END:
        fill_colour, border = COLOURS[node.result]
        return (f'{node.id} [shape=box, style="rounded,filled,bold", fillcolor="{fill_colour}", color="{border}", '
                f"label={label}];")
    if node.kind == CHOICE:
        fill_colour, border = COLOURS[CHOICE]
        return f'{node.id} [shape=hexagon, style=filled, fillcolor="{fill_colour}", color="{border}", label={label}];'
    fill_colour, border = COLOURS[THROW]
    return f'{node.id} [shape=box, style="rounded,filled", fillcolor="{fill_colour}", color="{border}", label={label}];'


def _dot_bet(bet: BetPart) -> list:
    b = bet.bet
    head = f"bet {bet.name}: {b.backer} against {b.layer}" + (f", backs {bet.backs}" if bet.backs else "")
    out = [f"  subgraph cluster_bet_{_ident(bet.name)} {{",
           f'    label=<<B>{dot_html(head)}</B>>; style="rounded,filled"; fillcolor="#fafafa"; color="#999999";']
    for node, (kind, lines) in bet.nodes.items():
        fill_colour, border = COLOURS.get(kind, COLOURS["bet"])
        body = "".join(f'<BR/><FONT POINT-SIZE="9">{dot_html(x)}</FONT>' for x in lines[1:] if x)
        out.append(f'    {node} [shape=box, style="rounded,filled", fillcolor="{fill_colour}", color="{border}", '
                   f"label=<<B>{dot_html(lines[0])}</B>{body}>];")
    out.append("  }")
    for source, target, text in bet.edges:
        kind = bet.nodes[target][0]
        colour = COLOURS.get(kind, COLOURS["bet"])[1]
        out.append(f'  {source} -> {target} [label={dot_string(_wrap(text))}, color="{colour}", fontcolor="{colour}"];')
    for node in bet.made:
        out.append(f'  {node} -> {bet.start} [style=dashed, color="#777777", fontcolor="#555555", '
                   f'label="made", constraint=false];')
    return out


# --------------------------------------------------------------------------- Mermaid


def _mermaid_lines(head: str, lines) -> str:
    return "<br/>".join([f"<b>{mermaid(head)}</b>"] + [mermaid(x) for x in lines if x])


def to_mermaid(diagram: Diagram) -> str:
    view = diagram.view
    out = ["---", f"title: {mermaid_title(diagram.title())}", "---", "flowchart TB"]
    if any(e.source == "start" for e in view.edges):
        out.append("  start((start))")
    for phase in view.phases:
        title = phase if phase.isidentifier() else f'"{mermaid(phase)}"'  # a phase's name is a word
        out.append(f"  subgraph phase_{_ident(phase)} [{title}]")
        for node in view.nodes.values():
            if node.phase != phase:
                continue
            head, lines = diagram.node_lines(node)
            label = _mermaid_lines(head, lines)
            if node.kind == CHOICE:
                out.append(f'    {node.id}{{{{"{label}"}}}}')
            elif node.kind == END:
                out.append(f'    {node.id}(["{label}"])')
            else:
                out.append(f'    {node.id}["{label}"]')
        out.append("  end")
    for stub, phase, way in view.stubs():
        out.append(f'  {stub}>"{mermaid(("to " if way == "to" else "from ") + phase)}"]')
    for e in view.edges:
        text = diagram.edge_text(e)
        arrow = "==>" if e.kind == "choice" else "-->"
        out.append(f'  {e.source} {arrow}|"{mermaid(text)}"| {e.target}' if text else f"  {e.source} {arrow} {e.target}")
    for bet in diagram.bets:
        b = bet.bet
        out.append(f'  subgraph bet_{_ident(bet.name)} ["{mermaid(f"bet {bet.name}: {b.backer} against {b.layer}")}"]')
        for node, (kind, lines) in bet.nodes.items():
            out.append(f'    {node}["{_mermaid_lines(lines[0], lines[1:])}"]')
        out.append("  end")
        for source, target, text in bet.edges:
            out.append(f'  {source} -->|"{mermaid(text)}"| {target}')
        for node in bet.made:
            out.append(f'  {node} -.->|"made"| {bet.start}')
    for kind in ("win", "lose", "push", THROW, CHOICE):
        fill_colour, border = COLOURS[kind]
        out.append(f"  classDef {kind} fill:{fill_colour},stroke:{border},stroke-width:1.5px")
    by_class: dict = {}
    for node in view.nodes.values():
        by_class.setdefault(node.result if node.kind == END else node.kind, []).append(node.id)
    for bet in diagram.bets:
        for node, (kind, _) in bet.nodes.items():
            if kind in COLOURS and kind != "bet":
                by_class.setdefault(kind, []).append(node)
    for kind, ids in by_class.items():
        out.append(f"  class {','.join(ids)} {kind}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- through Graphviz


def graphviz_available() -> bool:
    return shutil.which("dot") is not None


def render_with_graphviz(dot_text: str, fmt: str) -> bytes:
    """SVG or PNG from DOT by Graphviz's `dot` program."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizMissing(GRAPHVIZ_HELP.format(fmt=fmt))
    args = [program, f"-T{fmt}"] + (["-Gdpi=150"] if fmt == "png" else [])
    try:
        done = subprocess.run(args, input=dot_text.encode("utf-8"), capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise GraphError("Graphviz took more than two minutes to lay the diagram out; draw a part of it "
                         "(--phase) or fold it (drop --unfold)") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GraphError(f"Graphviz's dot failed: {printable(message[-1] if message else done.returncode)}")
    return done.stdout


def draw(machine: Machine, fmt: str = "dot", unfold: bool = False, phases=(), bets=()) -> bytes:
    """The diagram of a compiled machine in a format: text formats as UTF-8 bytes."""
    if fmt not in FORMATS:
        from ..diagnostics import did_you_mean

        raise GraphError(f"--format takes {', '.join(FORMATS)}, not {fmt!r}{did_you_mean(fmt, FORMATS)}")
    if fmt in ("svg", "png") and not graphviz_available():
        raise GraphvizMissing(GRAPHVIZ_HELP.format(fmt=fmt))
    diagram = Diagram(machine, unfold, phases, bets)
    if fmt == "json":
        return (json.dumps(diagram.as_json(), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    if fmt == "mermaid":
        return to_mermaid(diagram).encode("utf-8")
    dot_text = to_dot(diagram)
    if fmt == "dot":
        return dot_text.encode("utf-8")
    return render_with_graphviz(dot_text, fmt)


__all__ = ["Diagram", "GraphError", "GraphvizMissing", "FORMATS", "draw", "to_dot", "to_mermaid",
           "graphviz_available", "source_line"]
