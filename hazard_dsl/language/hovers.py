"""Hover: what a word of a rule file is, in Markdown — a name's definition and meaning, a fact
of the throw, a rule's or an action's words, a bet's edge (worked out for games of at most
`MAX_HOVER_STATES` states), a parent's file. `service.LanguageService.hover` asks `Hovers`."""

from __future__ import annotations

from fractions import Fraction

from ..diagnostics import RulesetError
from .index import GAME, Name


MAX_HOVER_STATES = 20_000  # a bet's edge is worked out for hover only for a game of at most this many states


BET_FACT_MEANINGS = {"phase": "the game's phase before the throw (a word: the phase's name)",
                      "result": "how the game ended on this throw: win, lose, push, or none while it goes on",
                      "label": "the label the game ended with on this throw (its word for the ending), "
                               "or none while it goes on"}


class Hovers:
    def __init__(self, service, doc):
        self.service, self.doc = service, doc
        self.ruleset = doc.ruleset_known

    def say(self, item: Name, key: tuple) -> str | None:
        kind, scope, name = key
        if kind == "function":
            return self.function(name)
        if kind == "variable":
            return self.variable(scope, name)
        if kind == "value":
            return self.value(scope, name)
        return getattr(self, kind)(scope, name) if kind in ("phase", "label", "option", "bet", "fee") else None

    def _scoped(self, scope: str):
        """The bet or fee a scope names (None for the game's or when unknown)."""
        rs = self.ruleset
        if rs is None or scope == GAME:
            return None
        kind, _, name = scope.partition(" ")
        return (rs.bets if kind == "bet" else rs.fees).get(name)

    def function(self, name: str) -> str | None:
        from ..check.names import FUNCTIONS, MEANINGS

        if name not in FUNCTIONS:
            return None
        count = FUNCTIONS[name][0]
        args = ", ".join(("x", "y")[:count]) if count is not None else "a, b, …"
        return f"**function** `{name}({args})`\n\n{MEANINGS.get(name, '')}"

    def variable(self, scope: str, name: str) -> str | None:
        from ..model import BET_FACTS, dice_shape, throw_facts
        from ..render.in_words import FACTS

        shape = dice_shape(self.ruleset)
        facts = throw_facts(shape)
        if name in facts:
            return f"**fact of the throw** `{name}` ({facts[name]}): {FACTS.get(name, name)}"
        if name in shape.names:
            return (f"**face** `{name}`: face {shape.names.index(name) + 1} of the {shape.sides} of each die "
                    f"(`count({name})`: how many dice show it)")
        if name in BET_FACTS:
            return f"**fact of the game**, read by a bet's or a fee's rules: `{name}`, {BET_FACT_MEANINGS[name]}"
        owner = self._scoped(scope)
        variables = owner.variables if owner is not None else (self.ruleset.variables if self.ruleset else {})
        v = variables.get(name)
        if v is None:
            return None
        whose = f" of the {scope}" if scope != GAME else ""
        lines = [f"**variable{whose}** `{name}`: range {v.bounds()}, starts at {v.initial}"]
        if v.description:
            lines.append(" ".join(v.description.split()))
        if v.say:
            lines.append(f"When set, it says: “{v.say}”")
        return "\n\n".join(lines)

    def phase(self, scope: str, name: str) -> str | None:
        owner = self._scoped(scope)
        phases = owner.phases if owner is not None and hasattr(owner, "phases") else (
            self.ruleset.phases if self.ruleset and scope == GAME else {})
        if owner is not None and not hasattr(owner, "phases"):  # a fee: its rules are its one phase
            rules, throws, description = owner.rules, True, owner.description
        else:
            phase = phases.get(name)
            if phase is None:
                return None
            rules, throws, description = phase.rules, phase.throws, phase.description
        whose = f" of the {scope}" if scope != GAME else ""
        lines = [f"**phase{whose}** `{name}`" + ("" if throws else " (no throw: decided from the variables)")]
        if description:
            lines.append(" ".join(description.split()))
        lines.append("\n".join(f"- {_rule_said(rule)}" for rule in rules))
        return "\n\n".join(lines)

    def label(self, scope: str, name: str) -> str | None:
        rs = self.ruleset
        if rs is None or name not in rs.labels:
            return None
        from ..parse import syntax as ex

        endings = sorted({a.result for rule in rs.rules() for a in rule.actions
                          if isinstance(a, ex.End) and a.label == name})
        said = f"ends the game: {' or '.join(endings)} for the caster" if endings else "no rule of the game ends with it"
        lines = [f"**label** `{name}`: {said}"]
        if rs.labels[name].say:
            lines.append(f"It says: “{rs.labels[name].say}”")
        return "\n\n".join(lines)

    def option(self, scope: str, name: str) -> str | None:
        rs = self.ruleset
        option = rs.options.get(name) if rs else None
        if option is None:
            return None
        lines = [f"**option** `{name}` (`--option {name}=VALUE`)"]
        if option.description:
            lines.append(" ".join(option.description.split()))
        lines.append("\n".join(f"- `{v}`{' (default)' if v == option.default else ''}"
                               + (f": {' '.join(option.value_notes[v].split())}" if option.value_notes.get(v) else "")
                               for v in option.values))
        return "\n\n".join(lines)

    def value(self, option_name: str, name: str) -> str | None:
        rs = self.ruleset
        option = rs.options.get(option_name) if rs else None
        if option is None:
            return None
        known = next((v for v in option.values if str(v) == name), None)
        if known is None:
            return f"`{name}` is not a value of the option `{option_name}` (values: {', '.join(map(str, option.values))})"
        note = option.value_notes.get(known)
        default = " (the default)" if known == option.default else ""
        return f"**value** `{name}` of the option `{option_name}`{default}" + (f": {' '.join(note.split())}" if note else "")

    def bet(self, scope: str, name: str) -> str | None:
        rs = self.ruleset
        bet = rs.bets.get(name) if rs else None
        if bet is None:
            return None
        from ..render.in_words import payout

        lines = [f"**bet** `{name}`: the {bet.backer} backs it, the {bet.layer} lays it"]
        if bet.description:
            lines.append(" ".join(bet.description.split()))
        if bet.pays is not None:
            lines.append(f"Pays {payout(bet.pays)} (`{bet.pays_text}`).")
        lines.append(self.service._bet_edge(self.doc, rs, name))
        return "\n\n".join(lines)

    def fee(self, scope: str, name: str) -> str | None:
        rs = self.ruleset
        fee = rs.fees.get(name) if rs else None
        if fee is None:
            return None
        from ..render.tables import exact

        lines = [f"**fee** `{name}`: {exact(fee.amount)} {rs.money_units} from the {fee.payer} to {fee.payee}"]
        if fee.description:
            lines.append(" ".join(fee.description.split()))
        lines.append("\n".join(f"- {_rule_said(rule)}" for rule in fee.rules))
        return "\n\n".join(lines)


def parent_said(parent) -> str:
    """Hover on `extends:`: the ruleset the file is built on — its name, where it is, what it says
    of itself."""
    from ..parse.files import builtin_dir

    ruleset = parent.ruleset_known
    title = getattr(ruleset, "name", None) or parent.name
    try:
        builtin = parent.path is not None and parent.path.resolve().parent == builtin_dir().resolve()
    except (OSError, ValueError):
        builtin = False
    lines = [f"**extends** {title}", f"{'the built-in ruleset' if builtin else 'the rule file'} `{parent.display}`"]
    description = getattr(ruleset, "description", None)
    if description:
        lines.append(" ".join(str(description).split()))
    return "\n\n".join(lines)


def _rule_said(rule) -> str:
    """A rule in words: when it fires and what it does."""
    from ..render.in_words import expression

    when = "otherwise" if rule.condition is None else f"when {expression(rule.condition)}"
    return f"{when}: {'; '.join(_action_said(a) for a in rule.actions)}"


def _action_said(action) -> str:
    from ..parse import syntax as ex
    from ..render.in_words import expression, payout

    if isinstance(action, ex.End):
        said = action.result + (f" ({action.label})" if action.label != action.result else "")
        return said + (f", paying {payout(action.payout)}" if action.payout is not None else "")
    if isinstance(action, ex.ThrowAgain):
        return "throw again"
    if isinstance(action, ex.Assign):
        return f"{action.variable} becomes {expression(action.value)}"
    if isinstance(action, ex.Goto):
        return f"go to {action.phase}"
    if isinstance(action, ex.Choose):
        return f"the {action.role} chooses {action.variable}, {expression(action.collection)}"
    if isinstance(action, ex.Pay):
        return f"the fee {action.fee} falls due"
    if isinstance(action, ex.Recast):
        return f"recast {' or '.join(action.ways)}" + (f", as the {action.role} chooses" if action.role else "")
    return "?"


def bet_edge(ruleset, name: str) -> str:
    """What hover says of a bet's exact edge, under the default options."""
    from ..cache import compile_ruleset
    from ..solve.analysis import bet_edges

    try:
        machine = compile_ruleset(ruleset, None, [name])
        if len(machine.states) > MAX_HOVER_STATES:
            return (f"Its exact edge is not worked out here: the game has {len(machine.states):,} states "
                    f"(`hazard-dsl analyse {ruleset.file}` works it out).")
        edge = bet_edges(machine, "optimal").get(name)
    except (RulesetError, ValueError, KeyError, ArithmeticError) as exc:
        return f"Its exact edge cannot be worked out: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    if edge is None:
        return "It can never be made under the default options."
    return (f"Edge against the backer: **{_fraction(edge)}** ({float(edge):.3%}), with the default options "
            f"and the optimal choices.")


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
