"""What each throw does, grouped for people: the derivation that `graph` draws and `rules` writes.

Everything here reads the compiled machine — its states, each throw's `Step` and the rule that
fired — and nothing else; no rule is evaluated again and no number is special (7 is a total like
any other). Two views of a machine:

* **unfolded**: one node per state;
* **folded** (the default): the states of one phase and kind that differ only in the values of
  variables are one node — for an end, those with the same result and label — and the
  variables that vary among them are its *parameters* ("main m, chance c").

Transitions leave a node grouped by the node they reach. The throws that take them are worked
out state by state and then said in terms of the parameters: the throws common to every state
("2, 3"), a parameter's own value ("m": the main nicks), and the rest with the values they hold
for ("12 if m ∈ {6, 8}"). A group made entirely by `otherwise` rules is "any other throw".
A throw is its total when every way of throwing that total does the same, else its dice
("2-2"), as the rules read faces.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..compile.machine import CHOICE, END, OUTCOMES, THROW, Machine
from ..records import record

RESULT_WORDS = {"win": "wins", "lose": "loses", "push": "push"}


@record(frozen=True)
class Node:
    id: str  # n0, n1, … in the order play reaches them
    kind: str  # THROW, CHOICE or END
    phase: str
    members: tuple  # the machine's state numbers this node stands for
    params: tuple = ()  # folded: the variables that vary among the members
    values: tuple = ()  # ((variable, value), …) that are fixed and worth showing
    result: str | None = None
    label: str | None = None
    chooser: str | None = None
    variable: str | None = None


@record
class Edge:
    source: str
    target: str
    kind: str  # "throw", "choice" or "start"
    throws: str = ""  # "2, 3; 11 if m ≠ 7", "any other throw", or the values chosen
    does: str = ""  # "out", "throw again", "c = the throw"
    low: Fraction = Fraction(0)  # the least and greatest chance of this transition from a member
    high: Fraction = Fraction(0)
    chance: str = ""  # "6/36", "4–8/36" (fair dice), or percentages


def throw_keys(outcomes, table: tuple = OUTCOMES, names: tuple = ()) -> list:
    """The throws among the outcome indices `outcomes` (of `table`, the machine's throws): a
    total where all its ways are there, else each throw's faces, lowest first (3-5 for 5-3 too),
    that is — in order of total. Dice with named faces (`names`) have no totals worth a reader's
    while (crown and anchor make no 3): each throw is its faces."""
    chosen = set(outcomes)
    by_total: dict = {}
    for k, faces in enumerate(table):
        by_total.setdefault(sum(faces), []).append(k)
    keys = []
    for total in sorted(by_total):
        ways = by_total[total]
        inside = [k for k in ways if k in chosen]
        if not inside:
            continue
        if len(inside) == len(ways) and not names:
            keys.append(total)
            continue
        kinds = []
        for k in inside:
            kind = tuple(sorted(table[k]))
            if kind not in kinds:
                kinds.append(kind)
        keys += sorted(kinds)
    return keys


def key_order(key) -> tuple:
    return (key, 0) if isinstance(key, int) else (sum(key), key)


def key_text(key, names: tuple = ()) -> str:
    """A total, or a throw's faces: by their names where the dice name them (crown-crown-anchor)."""
    if isinstance(key, int):
        return str(key)
    return "-".join(names[f - 1] for f in key) if names else "-".join(map(str, key))


def keys_text(keys, names: tuple = ()) -> str:
    """"2, 3, 11, 12"; runs of four totals or more as "4–10"; faces by their `names`, if any."""
    keys = sorted(keys, key=key_order)
    out: list = []
    run: list = []

    def flush():
        if len(run) >= 4:
            out.append(f"{run[0]}–{run[-1]}")
        else:
            out.extend(map(str, run))
        run.clear()

    for key in keys:
        if isinstance(key, int) and run and key == run[-1] + 1:
            run.append(key)
            continue
        flush()
        if isinstance(key, int):
            run.append(key)
        else:
            out.append(key_text(key, names))
    flush()
    return ", ".join(out)


def values_text(values) -> str:
    values = sorted(values, key=lambda v: (not isinstance(v, int), v if isinstance(v, int) else str(v)))
    return ", ".join(map(str, values))


def chance_text(low: Fraction, high: Fraction, total: int) -> str:
    """A transition's chance per throw: "6/36" (fair dice: over their throws, 36 for two, as the
    period counted), a range "4–8/36" where it depends on the parameters; percentages for loaded
    dice (`total` 0)."""
    if total:
        a, b = int(low * total), int(high * total)
        return f"{a}/{total}" if a == b else f"{a}–{b}/{total}"

    def pct(x):
        return f"{float(x) * 100:.1f}%"

    return pct(low) if low == high else f"{pct(low)}–{pct(high)}"


def symbols(params, names: bool = False) -> dict:
    """How parameters are written: their first letter when those are distinct ("main m"),
    else the variable's name; with `names`, "the main" (for sentences)."""
    letters = [p[0] for p in params]
    if names:
        return {p: f"the {p}" for p in params}
    if len(set(letters)) != len(letters):
        return {p: p for p in params}
    return dict(zip(params, letters))


class View:
    """The nodes and edges of a machine, folded or not: what a diagram draws."""

    def __init__(self, machine: Machine, unfold: bool = False, names: bool = False, dice_of=None):
        """`dice_of(state number)`: the chance of each throw that stands there (a `Dice`), where
        dice that land off and are recast change it (`Solver.throw_dice`); else the machine's."""
        self.machine = machine
        self.unfold = unfold
        self.names = names
        states = machine.states
        self.dice_of = dice_of or (lambda number: machine.dice)
        # the variables worth showing in each phase: those that take more than one value there
        varying: dict = {}
        for s in states:
            if s.kind == THROW or s.kind == CHOICE:
                varying.setdefault(s.phase, [set() for _ in machine.variables])
                for k, v in enumerate(s.values):
                    varying[s.phase][k].add(v)
        self._matters = {phase: tuple(n for n, seen in zip(machine.variables, sets) if len(seen) > 1)
                         for phase, sets in varying.items()}
        groups: dict = {}
        order = self._play_order()
        for number in order:
            s = states[number]
            key = number if unfold else (s.kind, s.phase, s.result, s.label, s.chooser, s.variable)
            groups.setdefault(key, []).append(number)
        self.nodes: dict = {}
        self.node_of: dict = {}
        for k, members in enumerate(groups.values()):
            first = states[members[0]]
            params = () if unfold else tuple(
                name for p, name in enumerate(machine.variables)
                if len({states[m].values[p] for m in members}) > 1)
            shown = () if not unfold else tuple(
                (name, first.value(machine, name)) for name in self._matters.get(first.phase, ()))
            node = Node(f"n{k}", first.kind, first.phase, tuple(members), params, shown, first.result, first.label,
                        first.chooser, first.variable)
            self.nodes[node.id] = node
            for m in members:
                self.node_of[m] = node.id
        self.phases = list(dict.fromkeys(states[n].phase for n in order))
        self.edges: list = [Edge("start", self.node_of[machine.start.target], "start")]
        for node in self.nodes.values():
            if node.kind == THROW:
                self.edges += self._throw_edges(node)
            elif node.kind == CHOICE:
                self.edges += self._choice_edges(node)

    def _play_order(self) -> list:
        """State numbers in the order play first reaches them (breadth first from the start)."""
        states = self.machine.states
        seen = {self.machine.start.target}
        order = [self.machine.start.target]
        for number in order:
            s = states[number]
            targets = [step.target for step in s.steps] if s.kind == THROW else [
                step.target for _, step in s.alternatives]
            for t in targets:
                if t not in seen:
                    seen.add(t)
                    order.append(t)
        return order

    def symbol(self, node: Node) -> dict:
        return symbols(node.params, self.names)

    # ------------------------------------------------------------------ throws

    def _throw_edges(self, node: Node) -> list:
        states = self.machine.states
        targets: dict = {}  # target node -> {member: [outcomes]}
        for m in node.members:
            for k, step in enumerate(states[m].steps):
                targets.setdefault(self.node_of[step.target], {}).setdefault(m, []).append(k)
        edges = []
        for target, by_member in targets.items():
            members = [m for m in node.members]
            sets = [frozenset(throw_keys(by_member.get(m, ()), self.machine.outcomes, self.machine.dice.names))
                    for m in members]
            # "any other throw": in every member, exactly the throws its `otherwise` rules took
            otherwise = all(
                set(by_member.get(m, ())) == {k for k, step in enumerate(states[m].steps)
                                             if step.rule is not None and step.rule.is_otherwise} != set()
                for m in members)
            if otherwise and len(targets) > 1:
                throws = "any other throw"
            elif len(targets) == 1:
                throws = "any throw"
            else:
                throws = self.describe(node, members, sets)
            dice = [self.dice_of(m) for m in members]
            chances = [Fraction(sum(d.weights[k] for k in by_member.get(m, ())), d.total)
                       for m, d in zip(members, dice)]
            present = [c for c in chances if c] or [Fraction(0)]
            low, high = min(present), max(present)
            total = dice[0].total if all(d.total == dice[0].total == len(d.weights) for d in dice) else 0
            edges.append(Edge(node.id, target, "throw", throws, self._does(node, target, by_member), low, high,
                              chance_text(low, high, total)))
        return edges

    def describe(self, node: Node, members: list, sets: list) -> str:
        """The throws of a transition, said once for all the members of a folded node."""
        faces = self.machine.dice.names
        if len(members) == 1 or len(set(sets)) == 1:
            return keys_text(sets[0], faces)
        machine = self.machine
        sym = self.symbol(node)
        common = frozenset.intersection(*sets)
        rest = [s - common for s in sets]
        own = []
        for v in node.params:  # a parameter's own value: "m" (the main nicks)
            p = machine.variables.index(v)
            vals = [machine.states[m].values[p] for m in members]
            if all(val in r for val, r in zip(vals, rest)):
                own.append(sym[v])
                rest = [r - {val} for r, val in zip(rest, vals)]
        # "4–10 other than m": a run of throws that every member has, but for its own value
        remaining = sorted(frozenset().union(*rest), key=key_order)
        other = None
        for v in node.params:
            p = machine.variables.index(v)
            vals = [machine.states[m].values[p] for m in members]
            but = [key for key in remaining if all((key in r) == (key != val) for r, val in zip(rest, vals))]
            if len(but) >= 2:
                other = f"{keys_text(set(but) | common, faces)} other than {sym[v]}"
                rest = [r - set(but) for r in rest]
                remaining = [key for key in remaining if key not in but]
                break
        head = own + ([other] if other else ([keys_text(common, faces)] if common else []))
        conditions: dict = {}
        for key in remaining:
            having = [k for k, r in enumerate(rest) if key in r]
            if having:
                conditions.setdefault(self._condition(node, members, having), []).append(key)
        parts = [", ".join(head)] if head else []
        parts += [f"{keys_text(keys, faces)} {condition}" for condition, keys in conditions.items()]
        return "; ".join(parts)

    def _condition(self, node: Node, members: list, having: list) -> str:
        """When (for which members) a throw belongs: "if m = 7", "if m ∈ {6, 8}", "if m ≠ 7"."""
        machine = self.machine
        sym = self.symbol(node)
        inside = set(having)
        best = None
        for v in node.params:
            p = machine.variables.index(v)
            yes = {machine.states[m].values[p] for k, m in enumerate(members) if k in inside}
            no = {machine.states[m].values[p] for k, m in enumerate(members) if k not in inside}
            if yes & no:
                continue
            if len(no) < len(yes) and no:
                text = (f"if {sym[v]} ≠ {values_text(no)}" if len(no) == 1
                        else f"if {sym[v]} ∉ {{{values_text(no)}}}")
            else:
                text = f"if {sym[v]} = {values_text(yes)}" if len(yes) == 1 else f"if {sym[v]} ∈ {{{values_text(yes)}}}"
            if best is None or len(text) < len(best):
                best = text
        if best is not None:
            return best
        if len(having) <= 4 and node.params:
            tuples = []
            for k in having:
                state = machine.states[members[k]]
                tuples.append("(" + ", ".join(str(state.value(machine, v)) for v in node.params) + ")")
            return f"if ({', '.join(sym[v] for v in node.params)}) ∈ {{{', '.join(tuples)}}}"
        return f"in {len(having)} of its {len(members)} states"

    def _does(self, node: Node, target_id: str, by_member: dict) -> str:
        """What a transition does besides moving: the label it ends with, a throw again, the
        variables it sets ("c = the throw", "n = n + 1", "main = 5")."""
        machine = self.machine
        target = self.nodes[target_id]
        if target.kind == END:
            return target.label or target.result or ""
        states = machine.states
        pairs = [(states[m], k, states[states[m].steps[k].target]) for m, ks in by_member.items() for k in ks]
        if all(after.index == before.index for before, _, after in pairs):
            return "throw again"
        sym = symbols(tuple(dict.fromkeys(node.params + target.params)), self.names)
        said = []
        for p, v in enumerate(machine.variables):
            changes = [(before.values[p], sum(machine.outcomes[k]), after.values[p]) for before, k, after in pairs]
            if all(old == new for old, _, new in changes):
                continue
            name = sym.get(v, v)
            if all(new == total for _, total, new in changes):
                said.append(f"the throw is {name}" if self.names else f"{name} = the throw")
            elif len({new for _, _, new in changes}) == 1:
                said.append(f"{name} = {changes[0][2]}")
            elif len({new - old for old, _, new in changes
                      if isinstance(old, int) and isinstance(new, int)}) == 1 and all(
                    isinstance(old, int) and isinstance(new, int) for old, _, new in changes):
                step = changes[0][2] - changes[0][0]
                said.append(f"{name} = {name} {'+' if step > 0 else '−'} {abs(step)}")
            else:
                said.append(f"{name} changes")
        return "; ".join(said)

    # ------------------------------------------------------------------ choices

    def _choice_edges(self, node: Node) -> list:
        states = self.machine.states
        targets: dict = {}
        for m in node.members:
            for value, step in states[m].alternatives:
                targets.setdefault(self.node_of[step.target], []).append(value)
        edges = []
        sym = self.symbol(node)
        name = sym.get(node.variable, node.variable)
        for target, values in targets.items():
            edges.append(Edge(node.id, target, "choice", f"{name} = {values_text(set(values))}",
                              "", Fraction(0), Fraction(0), ""))
        return edges

    # ------------------------------------------------------------------ parts

    def select(self, phases) -> "View":
        """Only the nodes of these phases; a transition to or from elsewhere ends in a stub
        node named by the phase (id "to_PHASE" / "from_PHASE")."""
        chosen = set(phases)
        keep = {n for n, node in self.nodes.items() if node.phase in chosen}
        edges = []
        for e in self.edges:
            source_in = e.source in keep or (e.source == "start" and e.target in keep)
            target_in = e.target in keep
            if source_in and target_in:
                edges.append(e)
            elif e.source in keep:
                edges.append(Edge(e.source, f"to_{self.nodes[e.target].phase}", e.kind, e.throws, e.does, e.low,
                                  e.high, e.chance))
            elif target_in and e.source != "start":
                edges.append(Edge(f"from_{self.nodes[e.source].phase}", e.target, e.kind, e.throws, e.does, e.low,
                                  e.high, e.chance))
        merged: dict = {}  # one arrow from a node to a stub: the throws together, the chances added
        for e in edges:
            stub = e.target if e.target not in keep else (e.source if e.source not in keep and e.source != "start"
                                                         else None)
            key = (e.source, e.target) if stub else id(e)
            if key in merged:
                m = merged[key]
                merged[key] = Edge(m.source, m.target, m.kind, f"{m.throws}, {e.throws}",
                                   m.does if m.does == e.does else "", m.low + e.low, m.high + e.high,
                                   chance_text(m.low + e.low, m.high + e.high, _over(m.chance, e.chance)))
            else:
                merged[key] = e
        part = View.__new__(View)
        part.__dict__.update(self.__dict__)
        part.nodes = {n: node for n, node in self.nodes.items() if n in keep}
        part.edges = list(merged.values())
        part.phases = [p for p in self.phases if p in chosen]
        return part

    def stubs(self) -> list:
        """The stub nodes of a part: (id, phase, "to" | "from")."""
        seen = {}
        for e in self.edges:
            for end in (e.source, e.target):
                if end.startswith(("to_", "from_")) and end not in self.nodes:
                    way, _, phase = end.partition("_")
                    seen.setdefault(end, (end, phase, way))
        return list(seen.values())


def _over(*chances: str) -> int:
    """The fair throws two chances are both counted over ("6/36" and "1/36": 36), else 0."""
    overs = {c.rpartition("/")[2] for c in chances}
    over = overs.pop() if len(overs) == 1 else ""
    return int(over) if over.isdigit() and all("/" in c for c in chances) else 0


def phase_rows(machine: Machine, phase: str, variable: str, names: bool = True):
    """For a phase whose throw states differ in one variable: per value of it, the throws that
    lead to each outcome — the table of nicks, outs and chances, derived.

    Returns (columns, rows): columns are (key, heading data) in first-seen order, where key is
    ("end", result, label), ("again",) or ("move", phase, does); rows are (value, state number,
    {column key: [throw keys]})."""
    states = machine.states
    position = machine.variables.index(variable)
    members = sorted((s for s in states if s.kind == THROW and s.phase == phase), key=lambda s: s.values[position])
    columns: dict = {}
    rows = []
    for s in members:
        cells: dict = {}
        for k, step in enumerate(s.steps):
            after = states[step.target]
            if after.kind == END:
                key = ("end", after.result, after.label)
            elif after.index == s.index:
                key = ("again",)
            else:
                key = ("move", after.phase, _move_words(machine, s, after, k))
            columns.setdefault(key, None)
            cells.setdefault(key, []).append(k)
        rows.append((s.values[position], s.index, {key: throw_keys(ks, machine.outcomes, machine.dice.names)
                                             for key, ks in cells.items()}))
    return list(columns), rows


def _move_words(machine: Machine, before, after, outcome: int) -> str:
    """What a move to another state sets, in words general enough to head a column: a variable
    set to the throw is "chance = the throw" whatever the throw."""
    total = sum(machine.outcomes[outcome])
    said = []
    for p, v in enumerate(machine.variables):
        if before.values[p] != after.values[p]:
            said.append(f"{v} = the throw" if after.values[p] == total else f"{v} = {after.values[p]}")
    return "; ".join(said)


def label_results(machine: Machine) -> dict:
    """label -> result, from the end states."""
    out: dict = {}
    for s in machine.end_states():
        out.setdefault(s.label, s.result)
    return out


__all__ = ["Node", "Edge", "View", "phase_said", "throw_keys", "keys_text", "key_text", "phase_rows", "chance_text",
           "label_results", "RESULT_WORDS"]


# --------------------------------------------------------------------------- a phase in words


def phase_said(machine: Machine, phase: str, view: "View | None" = None) -> str:
    """What a phase is, for its heading: the file's description, unless the phase's rules read an
    option — then one description cannot be right for every value (Cotton's "throws until a main
    of 5 to 9 comes up" is wrong where a bad first throw loses the turn), and the phase is said
    from the compiled machine when it has a plain shape: "the caster throws until 5–9 comes up;
    that throw is the main", or "one throw for the main; outside 5–9 the caster loses the turn"."""
    from ..compile.evaluate import options_read

    ruleset = machine.ruleset
    written = " ".join((ruleset.phases[phase].description or "").split()) if phase in ruleset.phases else ""
    if phase in ruleset.phases and not options_read(tuple(ruleset.phases[phase].rules)):
        return written
    if view is None or view.unfold or not view.names:  # said with names ("the main"), over folded nodes
        view = View(machine, unfold=False, names=True)
    return _derived_phase(machine, view, phase) or written


_SETS = re.compile(r"the throw is (the \w+)")


def _derived_phase(machine: Machine, view: View, phase: str) -> str | None:
    """A phase of one throw node said from its transitions, when it sets one variable and
    otherwise throws again or ends one way; None for any other shape."""
    nodes = [n for n in view.nodes.values() if n.phase == phase and n.kind == THROW]
    if len(nodes) != 1:
        return None
    node = nodes[0]
    edges = [e for e in view.edges if e.source == node.id]
    again = [e for e in edges if e.target == node.id]
    moves = [e for e in edges if e.target != node.id and view.nodes[e.target].kind != END]
    ends = [e for e in edges if view.nodes[e.target].kind == END]
    if len(moves) != 1 or not _SETS.fullmatch(moves[0].does):
        return None
    caster = machine.ruleset.words.caster
    variable = _SETS.fullmatch(moves[0].does).group(1)
    throws = moves[0].throws
    if again and not ends:
        return f"{caster} throws until {throws} comes up; that throw is {variable}"
    if ends and not again and len({(view.nodes[e.target].result, view.nodes[e.target].label) for e in ends}) == 1:
        end = view.nodes[ends[0].target]
        passes = machine.passing is not None and end.label in machine.passing.after_labels
        ending = {"win": f"{caster} wins", "lose": f"{caster} loses",
                  "push": f"{caster} loses the turn" if passes else "no one wins"}.get(end.result)
        if ending is None:
            return None
        plain = not any(word in throws for word in ("if", "the", "other"))  # "5–9", not "the main; 12 if …"
        other = f"outside {throws}" if plain else "any other throw:"
        return f"one throw for {variable}; {other} {ending}"
    return None
