"""Write the expression parser's tables as a module: ``python grammar/tables.py``.

`hazard_dsl/parse/_tables.py` holds, as Python literals, what Lark computes from
`grammar/hazard.lark` with the options `parse.expressions` parses with: the lexer's one regular
expression and its keywords, and the LALR(1) parse table with, for each rule, how its children
become a tree (which tokens are dropped, which helper rules are inlined, where an absent `[x]`
leaves a None, whether a `?rule` of one child is that child). `parse.lalr` runs them: a command
builds no parser and imports no Lark, and its start-up reads a few literals (Lark's own
stand-alone module, which this replaces, was a fifth of a short command's imports and rebuilt
its parser from a serialised form at every start).

The module starts with the SHA-256 of the grammar it was made from; a test fails, naming this
command, when the grammar has changed since. Run it after any change to the grammar (it needs
Lark, which the `test` extra installs), then run the tests: they compare `parse.lalr`'s trees and
errors with those of the parser Lark builds from the grammar, on every expression of the corpus
and of the broken corpus and every prefix of them.

Lark numbers its parse states in an order that changes from run to run: they are numbered again
here by a walk from the start states, and the rules by what they are, so the same grammar and the
same Lark give the same file, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import pprint
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRAMMAR = HERE / "hazard.lark"
TARGET = HERE.parent / "hazard_dsl" / "parse" / "_tables.py"
COMMAND = "python grammar/tables.py"


def grammar_digest(text: str | None = None) -> str:
    text = GRAMMAR.read_text(encoding="utf-8") if text is None else text
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tables() -> dict:
    """What Lark makes of the grammar, as plain values (run in this process)."""
    import lark
    from lark import Lark

    sys.path.insert(0, str(HERE.parent))
    from hazard_dsl.parse.expressions import LARK_OPTIONS

    parser = Lark(GRAMMAR.read_text(encoding="utf-8"), **LARK_OPTIONS)
    lexer = parser.parser.lexer
    scanner = lexer.scanner
    assert len(scanner._mres) == 1, "one regular expression for every terminal"
    assert set(lexer.callback) == {"NAME"}, "keywords are the only callback"
    keywords = {}
    for pattern in lexer.callback["NAME"].scanner._mres:
        for name, index in pattern.groupindex.items():
            word = parser.get_terminal(name).pattern.value
            keywords[word] = name
    table = parser.parser.parser.parser.parse_table
    # Lark numbers states and meets rules in an order that differs from run to run: they are
    # numbered here by a walk from the start states (by name), symbols in sorted order, and the
    # rules by what they are, so the same grammar always gives the same numbers.
    order: dict = {}
    queue = [table.start_states[name] for name in sorted(table.start_states)]
    while queue:
        state = queue.pop(0)
        if state in order:
            continue
        order[state] = len(order)
        for symbol in sorted(table.states[state]):
            action, argument = table.states[state][symbol]
            if action.name == "Shift":
                queue.append(argument)
    assert len(order) == len(table.states)
    every_rule = {argument for row in table.states.values() for action, argument in row.values()
                  if action.name != "Shift"}
    rules = {rule: n for n, rule in enumerate(sorted(every_rule, key=lambda r: (
        r.origin.name, tuple(s.name for s in r.expansion), r.alias or "")))}
    actions = [None] * len(order)
    for state, number in order.items():
        row = {}
        for symbol, (action, argument) in table.states[state].items():
            row[symbol] = order[argument] if action.name == "Shift" else ~rules[argument]
        actions[number] = row
    shaped = []
    for rule in rules:  # in the order of their numbers
        expansion, options = rule.expansion, rule.options
        empty = options.empty_indices
        if empty:  # how many Nones go before each child (and after the last), as Lark counts them
            nones = [len(ones) for ones in "".join(str(int(b)) for b in empty).split("0")]
        else:
            nones = [0] * (len(expansion) + 1)
        include, pending = [], 0
        for i, symbol in enumerate(expansion):
            pending += nones[i]
            if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
                include.append((i, not symbol.is_term and symbol.name.startswith("_"), pending))
                pending = 0
        pending += nones[len(expansion)]
        filtered = bool(empty) or len(include) < len(expansion) or any(expand for _, expand, _ in include)
        shaped.append((rule.origin.name, len(expansion), rule.alias or rule.options.template_source or rule.origin.name,
                       bool(options.expand1 and not rule.alias), tuple(include) if filtered else None, pending))
    terminals = {t.name: (t.pattern.type, t.pattern.value) for t in parser.terminals}
    return {
        "lark": lark.__version__,
        "options": LARK_OPTIONS,
        "tokens": scanner._mres[0].pattern,
        "keywords": dict(sorted(keywords.items())),
        "ignore": sorted(lexer.ignore_types),
        "newline_types": sorted(lexer.newline_types),
        "allowed": sorted(scanner.allowed_types - lexer.ignore_types),
        "terminals": dict(sorted(terminals.items())),
        "start": {name: order[table.start_states[name]] for name in sorted(table.start_states)},
        "end": {name: order[table.end_states[name]] for name in sorted(table.end_states)},
        "rules": shaped,
        "actions": [dict(sorted(row.items())) for row in actions],
    }


def generate() -> str:
    """The module's text, its tables computed by the installed Lark (in a process of its own)."""
    made = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--json"], capture_output=True, text=True,
                          check=True)
    t = json.loads(made.stdout)
    rules = tuple((origin, size, name, expand1, None if include is None else tuple(tuple(x) for x in include), after)
                  for origin, size, name, expand1, include, after in t["rules"])

    def literal(value) -> str:
        return pprint.pformat(value, width=110, sort_dicts=False)

    return "\n".join([
        f'"""Generated by `{COMMAND}` from grammar/hazard.lark: do not edit.',
        "",
        f"The expression grammar's lexer and LALR(1) parse table as Lark {t['lark']} computes them, run by",
        "`parse.lalr`. ACTIONS[state][symbol]: a number n >= 0 shifts (or, for a rule's name, goes) to",
        "state n; a number ~r reduces by RULES[r] = (the rule's name, how many symbols it takes, the",
        "tree it makes, whether one child is kept as itself, which children are kept as (index,",
        "inlined, Nones before it) or None for all, Nones after the last).",
        "",
        "One piece, over a thousand lines, because it is data, not code: the tables of one",
        "automaton, written whole by the generator and read whole by the driver (a state's row",
        "names other states by number), checked against the grammar by its digest.",
        '"""',
        "# flake8: noqa",
        f'GRAMMAR_SHA256 = "{grammar_digest()}"',
        f"LARK_VERSION = {t['lark']!r}",
        f"OPTIONS = {literal(t['options'])}",
        f"TOKENS = {t['tokens']!r}",
        f"KEYWORDS = {literal(t['keywords'])}",
        f"IGNORE = frozenset({t['ignore']!r})",
        f"NEWLINE_TYPES = frozenset({t['newline_types']!r})",
        f"ALLOWED = frozenset({t['allowed']!r})",
        f"TERMINALS = {literal({k: tuple(v) for k, v in t['terminals'].items()})}",
        f"START = {literal(t['start'])}",
        f"END = {literal(t['end'])}",
        f"RULES = {literal(rules)}",
        f"ACTIONS = {literal(tuple(t['actions']))}",
        "",
    ])


def main() -> None:
    if sys.argv[1:] == ["--json"]:
        print(json.dumps(tables()))
        return
    TARGET.write_text(generate(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(HERE.parent)} (grammar {grammar_digest()[:12]})")


if __name__ == "__main__":
    main()
