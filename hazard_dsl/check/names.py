"""Names and types: every name defined, every expression of the right type, actions well formed.

Types are few: ``int``, ``bool``, ``set`` (of ints), and ``str`` (option values that are words).
A condition must be ``bool``; a value set into a variable must be ``int``; `choose` picks from a
``set``. The facts of the throw (``total``, ``die1``…) exist only in phases where the dice are
thrown. Problems are collected and raised together.

One piece, over 600 lines: every section (phases, bets, fees, cocked:) is checked through the
one walk of types (`_Types.of`) with the same budget of near names and the same collector; cut
by section, each part would take all three from the others.
"""

from __future__ import annotations

from ..records import field, record, replace

from ..diagnostics import SOURCES, Diagnostics, Position, Suggestion, nearest
from ..model import (BET_FACTS, COMMISSION_PAID, DICE_FACTS, GAME_RESULTS, OFF_FACTS, ROLES, THROW_FUNCTIONS, MAX_DICE, Phase,
                     Ruleset, DiceShape, dice_shape, is_die_fact, throw_facts)
from ..parse import syntax as ex


@record(frozen=True)
class Context:
    """What an expression may read where it stands."""

    throws: bool  # the facts of the throw are there
    variables: frozenset  # int variables in scope
    facts: dict = field(default_factory=dict)  # other names and their types (a bet's `phase`…)

FUNCTIONS = {  # name: (argument count, result type); None: one or more
    "ways": (1, "int"),  # the number of the fair throws with this total: ways(7) == 6 with two dice
    "weight": (1, "int"),  # the chance of this total under the dice in play, over a common denominator
    "abs": (1, "int"),
    "min": (2, "int"),
    "max": (2, "int"),
    "count": (1, "int"),  # how many dice show this face: count(3)
    "shows": (None, "bool"),  # the throw holds these faces: shows(3, 3), shows(crown, anchor)
}
MEANINGS = {  # what each function gives, for an author (an editor's hover, completion)
    "ways": "the number of the throws of fair dice that make this total: of the 36 throws of two six-sided "
            "dice, ways(7) is 6 and ways(12) is 1; of the 216 of three, ways(10) is 27",
    "weight": "the chance of this total under the dice in play (loaded or fair), as a whole weight over a "
              "common denominator: with fair dice, weight(t) is ways(t)",
    "abs": "the size of a number, without its sign: abs(main - chance)",
    "min": "the smaller of two numbers",
    "max": "the larger of two numbers",
    "count": "how many dice show this face: count(6) == 2 is a pair of sixes (count(crown) for named faces)",
    "shows": "whether the throw holds these faces, each as many times as named: shows(1, 2) is an ace and a "
             "deuce among the dice, shows(5, 5) two cinques at least",
}


MAX_COMPARISONS = 20_000  # name comparisons spent on "did you mean" per file (about 0.3 s)


class _Budget:
    """How many name comparisons "did you mean" may still spend on the file being checked."""

    left = MAX_COMPARISONS


def _nearest(name: str, known) -> str | None:
    """A close known name, while the budget lasts: 4,000 misspelt names against 4,000
    variables would otherwise take minutes. The budget is reset for each file checked."""
    if _Budget.left <= 0:
        return None
    known = [k for k in known if abs(len(k) - len(name)) <= 3][:_Budget.left]  # only these can be close
    _Budget.left -= len(known)
    from difflib import get_close_matches  # (only for a name that is wrong)

    close = get_close_matches(name, known, n=1) if known else []
    return close[0] if close else None


def _said_over(name: ex.Name, text: str) -> Suggestion:
    """`text` in place of a name written in an expression (a name is one word on one line,
    starting where its node is placed)."""
    return _word_at(name.position, name.name, text)


def _word_at(at: Position | None, word: str, text: str | None) -> Suggestion | None:
    """`text` in place of `word`, written from `at` (a name: one word on one line), or None
    where there is no text or no place."""
    if text is None or at is None:
        return None
    return Suggestion(text, at, Position(at.file, at.line, at.column + len(word)))


def _written(at: Position | None, word: str) -> Position | None:
    """Where `word` is first written, as a whole word, on the line of `at` from `at` on (an item
    of a flow list `[a, b]` placed on its `[`), or None where the line does not show it."""
    import re

    line = SOURCES.line(at) if at is not None else None
    whole = rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])"
    found = re.search(whole, line[at.column - 1:]) if line else None
    return None if found is None else Position(at.file, at.line, at.column + found.start())


def _repair(word: str, known, at: Position | None) -> tuple[str | None, Suggestion | None]:
    """(the hint "did you mean 'x'?", the repair replacing `word` written at `at`) for a close
    known name, else (None, None)."""
    close = _nearest(word, known)
    if close is None:
        return None, None
    return f"did you mean {close!r}?", _word_at(at, word, close)


def _close(word, known) -> tuple[str, tuple]:
    """(" (did you mean 'x'?)", the name offered) from `_nearest`'s budget, or ("", ()): said for
    every reference to a value or a label, so a file of thousands of them must not cost
    thousands of full comparisons each."""
    close = _nearest(str(word), [str(k) for k in known])
    return (f" (did you mean {close!r}?)", (close,)) if close is not None else ("", ())


def _offered(word, known) -> tuple[str, tuple]:
    """(`did_you_mean`'s words, the name offered in them), from one look-up."""
    close = nearest(word, known)
    return (f" (did you mean {close!r}?)", (close,)) if close is not None else ("", ())


def _quoted(*words) -> tuple:
    """The names and words of a message as `Diagnostic.names`: those it shows in quotes (a
    word; a number is shown bare)."""
    return tuple(w for w in words if isinstance(w, str))


# What a problem was judged against beyond its own place (`Diagnostic.reads`): a bet's (a stake
# naming one, a bet's pays or commission) may follow from a bet or a fee read with an error; a
# label no rule ends a game with, from a phase (or a cocked: rule) that did not read.
_BETS = ("bets", "fees")
_ENDINGS = ("phases", "cocked")


class _Types:
    def __init__(self, ruleset: Ruleset, diags: Diagnostics):
        self.ruleset = ruleset
        self.diags = diags
        self.shape = dice_shape(ruleset)
        self.dice_facts = throw_facts(self.shape)  # die1, die2 … as many as the dice
        self.faces = frozenset(self.shape.names)  # named faces (crown, anchor…): numbers 1..sides

    def _faces_on_the_dice(self, e) -> None:
        """A face written as a number that no die has (`count(7)` on six-faced dice) or more faces
        than there are dice (`shows(1, 1, 1, 1)` on three): the rule could only never fire, so it
        is told where it is written, not left to the check of rules that never fire."""
        sides = self.shape.sides
        faces = (f"faces 1 to {sides}" if not self.shape.names else
                 "faces 1 to {} ({})".format(sides, ", ".join(self.shape.names)))
        for arg in e.args:
            if isinstance(arg, ex.Number) and not 1 <= arg.value <= sides:
                self.diags.error(f"{e.function}({arg.value}): no face {arg.value} on these dice", arg.position,
                                 f"each die has {faces}")
        if e.function == "shows" and len(e.args) > self.shape.count:
            many = self.shape.count
            self.diags.error(f"shows() names {len(e.args)} faces, but the throw is of {many} "
                             f"{'die' if many == 1 else 'dice'}: it can never hold them all", e.position)

    def of(self, e, throws: Context) -> str | None:
        """The type of `e`, or None after reporting why it has none."""
        rs, d = self.ruleset, self.diags
        if isinstance(e, ex.Number):
            return "int"
        if isinstance(e, ex.Boolean):
            return "bool"
        if isinstance(e, ex.String):
            return "str"
        if isinstance(e, ex.Name):
            if e.name in throws.variables:
                return "int"
            if e.name in throws.facts:
                return throws.facts[e.name]
            if e.name in self.dice_facts:
                if not throws.throws:
                    d.error(f"{e.name!r} is a fact of the throw, but no dice are thrown in this phase", e.position,
                            names=(e.name,))
                    return None
                return self.dice_facts[e.name]
            if e.name in self.faces:
                return "int"
            if is_die_fact(e.name):
                d.error(f"{e.name!r} reads die {e.name[3:]}, but this game throws {self.shape.count} "
                        f"{'die' if self.shape.count == 1 else 'dice'}", e.position,
                        f"the dice are {', '.join(f for f in self.dice_facts if is_die_fact(f))}"
                        + ("" if self.shape.count > 2 else "; `dice: 3d6` throws three"), code="unknown-name",
                        names=(e.name,))
                return None
            if e.name[:3] == "die" and e.name[3:].isdigit():  # die0, die01: no die is numbered so
                d.error(f"{e.name!r} reads no die: the dice are counted from 1", e.position,
                        f"the dice are {', '.join(f for f in self.dice_facts if is_die_fact(f))}",
                        code="unknown-name", names=(e.name,))
                return None
            if e.name in rs.options:
                d.error(f"{e.name!r} is an option: write option.{e.name}", e.position, names=(e.name,))
                return None
            known = (set(throws.variables) | set(self.dice_facts) | set(throws.facts) | self.faces) \
                if _Budget.left > 0 else ()
            close = _nearest(e.name, known)
            d.error(f"undefined name {e.name!r}", e.position,
                    f"did you mean {close!r}?" if close is not None else
                    "declare it under variables:, or use a fact of the throw: " + ", ".join(self.dice_facts),
                    code="unknown-name", suggestion=_said_over(e, close) if close is not None else None,
                    names=(e.name,))
            return None
        if isinstance(e, ex.OptionRef):
            option = rs.options.get(e.name)
            if option is None:
                said, fix = _repair(e.name, rs.options, e.name_position)
                d.error(f"there is no option {e.name!r}", e.position, said, code="unknown-option", suggestion=fix,
                        names=(e.name,))
                return None
            return option.type
        if isinstance(e, ex.Call):
            spec = FUNCTIONS.get(e.function)
            if spec is None:
                d.error(f"unknown function {e.function!r}", e.position, f"functions: {', '.join(FUNCTIONS)}",
                        names=(e.function,))
                return None
            if spec[0] is None and not e.args:
                d.error(f"{e.function}() takes one face or more", e.position)
            elif spec[0] is not None and len(e.args) != spec[0]:
                d.error(f"{e.function}() takes {spec[0]} argument{'s' if spec[0] > 1 else ''}, not {len(e.args)}", e.position)
            if e.function in THROW_FUNCTIONS and not throws.throws:
                d.error(f"{e.function}() reads the throw, but no dice are thrown in this phase", e.position)
                return None
            for arg in e.args:
                self.expect(arg, "int", throws, f"an argument of {e.function}()")
            if e.function in THROW_FUNCTIONS:
                self._faces_on_the_dice(e)
            return spec[1]
        if isinstance(e, ex.Unary):
            want = "bool" if e.op == "not" else "int"
            self.expect(e.operand, want, throws, f"the operand of {e.op!r}")
            return want
        if isinstance(e, ex.Binary):
            if e.op in ("and", "or"):
                self.expect(e.left, "bool", throws, f"each side of {e.op!r}")
                self.expect(e.right, "bool", throws, f"each side of {e.op!r}")
                return "bool"
            if e.op in ("==", "!="):
                left, right = self.of(e.left, throws), self.of(e.right, throws)
                if left and right and left != right:
                    d.error(f"cannot compare {_a(left)} with {_a(right)} using {e.op}", e.position)
                self._check_option_value(e.left, e.right)
                self._check_option_value(e.right, e.left)
                return "bool"
            if e.op in ("<", "<=", ">", ">="):
                self.expect(e.left, "int", throws, f"each side of {e.op!r}")
                self.expect(e.right, "int", throws, f"each side of {e.op!r}")
                return "bool"
            self.expect(e.left, "int", throws, f"each side of {e.op!r}")
            self.expect(e.right, "int", throws, f"each side of {e.op!r}")
            return "int"
        if isinstance(e, ex.Chain):  # a + b - c …: flat, so checked in a loop
            self.expect(e.first, "int", throws, f"each side of {e.steps[0].op!r}")
            for step in e.steps:
                self.expect(step.operand, "int", throws, f"each side of {step.op!r}")
            return "int"
        if isinstance(e, ex.Member):
            self.expect(e.element, "int", throws, "the left of 'in'")
            self.collection(e.collection, throws)
            return "bool"
        if isinstance(e, ex.Conditional):
            self.expect(e.test, "bool", throws, "the test of 'if'")
            then, other = self.of(e.then, throws), self.of(e.otherwise, throws)
            if then and other and then != other:
                d.error(f"the two branches of 'if' differ: {_a(then)} and {_a(other)}", e.position)
            return then or other
        if isinstance(e, (ex.SetLiteral, ex.Range)):
            self.collection(e, throws)
            return "set"
        d.error("this expression cannot be used here", getattr(e, "position", None))  # pragma: no cover
        return None

    def collection(self, e, throws: Context) -> None:
        if isinstance(e, ex.Range):
            self.expect(e.low, "int", throws, "the start of a range")
            self.expect(e.high, "int", throws, "the end of a range")
        elif isinstance(e, ex.SetLiteral):
            for item in e.items:
                if isinstance(item, ex.Range):
                    self.collection(item, throws)
                else:
                    self.expect(item, "int", throws, "an element of a set")
        else:
            self.diags.error("expected a set such as {2, 3} or a range such as 4..10", getattr(e, "position", None))

    def expect(self, e, want: str, throws: Context, what: str, reads: tuple = ()) -> None:
        got = self.of(e, throws)
        if got is not None and got != want:
            self.diags.error(f"{what} must be {_a(want)}, not {_a(got)}", e.position, reads=reads)

    def _check_option_value(self, ref, literal) -> None:
        """A word compared with an option, a phase, a result or a label must be one of its values."""
        if not isinstance(literal, (ex.String, ex.Number)):
            return
        if isinstance(ref, ex.OptionRef):
            option = self.ruleset.options.get(ref.name)
            if option is not None and literal.value not in option.values:
                said, offered = _close(literal.value, option.values)
                self.diags.error(f"option {ref.name!r} has no value {literal.value!r}{said}", literal.position,
                                 f"its values: {', '.join(map(str, option.values))}",
                                 names=_quoted(ref.name, literal.value, *offered))
            return
        if isinstance(ref, ex.Name) and ref.name in BET_FACTS and isinstance(literal, ex.String):
            known = {"phase": list(self.ruleset.phases), "result": list(GAME_RESULTS),
                     "label": sorted(self.labels) + [""]}[ref.name]
            if literal.value not in known:
                # '' is a game ended with no label (`win` alone): said in words, not listed bare
                said, offered = _close(literal.value, [k for k in known if k])
                self.diags.error(f"the game has no {ref.name} {literal.value!r}{said}", literal.position,
                                 f"{ref.name}s: {', '.join(repr(k) for k in known if k) or 'none'}"
                                 + ("; or \"\" for a game ended without a label" if "" in known else ""),
                                 names=_quoted(literal.value, *offered),
                                 reads=_ENDINGS if ref.name == "label" else ())


def _role_hint(role: str) -> str | None:
    from ..parse.keys import SOURCE_WORDS, source_word

    said = source_word(role)
    return f"{said}: write `by {SOURCE_WORDS[role.lower()][0]}`" if said else None


def _a(type_: str) -> str:
    return {"int": "a number", "bool": "true or false", "set": "a set", "str": "a word"}.get(type_, type_)


def check_names(ruleset: Ruleset, root=None) -> Ruleset:
    _Budget.left = MAX_COMPARISONS
    diags = Diagnostics()
    types = _Types(ruleset, diags)
    for name, variable in ruleset.variables.items():
        if name in types.faces:  # `crown` reads the face: a variable of that name would hide it
            diags.error(f"variable {name!r} has the name of a face of the dice", variable.position,
                        "name it otherwise", names=(name,))
    results_of_label: dict[str, tuple[str, object]] = {}
    game_variables = frozenset(ruleset.variables)
    types.labels = {a.label for r in ruleset.rules() for a in r.actions if isinstance(a, ex.End)}

    if not ruleset.phases:
        diags.error("a ruleset needs at least one phase")
    for phase in ruleset.phases.values():
        context = Context(phase.throws, game_variables)
        for rule in phase.rules:
            if rule.condition is not None:
                types.expect(rule.condition, "bool", context, "a condition")
            _check_actions(ruleset, phase, rule, types, diags, results_of_label, context, ruleset.phases,
                           ruleset.variables, game=True)
    _unused_labels(ruleset, results_of_label, diags)
    _check_money(ruleset, types, diags, game_variables)
    _check_cocked(ruleset, types, diags, game_variables)
    _inherited_bets(ruleset, diags)
    _own_sources(ruleset, root, diags)
    warnings = tuple(d for d in diags.items if not d.is_error)
    if ruleset.passing:
        for label in ruleset.passing.after_labels:
            if label and label not in results_of_label:
                said, offered = _offered(label, results_of_label)
                diags.error(f"passing: no rule ends a game with the label {label!r}{said}", ruleset.passing.position,
                            f"labels that end a game: {', '.join(sorted(results_of_label))}" if results_of_label else None,
                            code="unknown-label", suggestion=_word_at(
                                _written(ruleset.passing.position, label), label, *offered or (None,)),
                            names=(label, *offered), reads=_ENDINGS)
        losses = ruleset.passing.losses_in_a_row
        if losses is not None and not isinstance(losses, int):  # an expression: over the options only
            types.expect(losses, "int", Context(False, frozenset()), "losses_in_a_row")
    dice = ruleset.dice
    if dice is not None and dice.by_option is not None:
        option = ruleset.options.get(dice.by_option)
        if option is None:
            said, offered = _offered(dice.by_option, ruleset.options)
            diags.error(f"dice: by_option names no option: {dice.by_option!r}{said}", dice.position,
                        code="unknown-option", names=_quoted(dice.by_option, *offered), reads=("dice",))
        else:
            for value in dice.loadings:
                if value not in {str(v) for v in option.values}:
                    said, offered = _offered(value, [str(v) for v in option.values])
                    diags.error(f"dice: option {dice.by_option!r} has no value {value!r}{said}", dice.position,
                                code="unknown-value", names=_quoted(dice.by_option, value, *offered),
                                reads=("dice",))
    stake = ruleset.table.stake
    if stake is not None and stake not in ruleset.bets:
        said, offered = _offered(stake, ruleset.bets)
        diags.error(f"money: stake names no bet: {stake!r}{said}", ruleset.table.position, code="unknown-bet",
                    names=_quoted(stake, *offered), reads=("money", *_BETS))
    elif stake is not None and (ruleset.bets[stake].backer not in ("caster", "player") or
                                ruleset.bets[stake].layer not in ("setter", "bank")):
        diags.error(f"money: stake {stake!r} must be a bet on the caster (backed by caster or player) that a setter or the bank lays",
                    ruleset.bets[stake].position, names=_quoted(stake), reads=("money", *_BETS))
    diags.raise_if_errors()
    return replace(ruleset, warnings=warnings) if warnings else ruleset


def _check_money(ruleset, types, diags, game_variables) -> None:
    """Bets read the throw, the game (variables, phase, result, label) and their own variables;
    fees read only how each game ended and their own variables."""
    for bet in ruleset.bets.values():
        scope = game_variables | frozenset(bet.variables)
        in_play = Context(True, scope, dict(BET_FACTS))
        at_rest = Context(False, game_variables, {"phase": "str"})
        if bet.made is not None:
            types.expect(bet.made, "bool", at_rest, "the condition for making a bet", _BETS)
        if bet.pays is not None:
            _check_payout(types, bet.pays, in_play)
        if bet.commission is not None:
            _check_commission_paid(bet, types, diags, game_variables)
        for expression in bet.multiples.values():
            types.expect(expression, "int", Context(False, game_variables), "a multiple")
        labels: dict = {}
        for phase in bet.phases.values():
            for rule in phase.rules:
                if rule.condition is not None:
                    types.expect(rule.condition, "bool", in_play, "a condition")
                _check_actions(ruleset, phase, rule, types, diags, labels, in_play, bet.phases, bet.variables,
                               game=False, bet=bet)
    for fee in ruleset.fees.values():
        context = Context(False, frozenset(fee.variables), {"result": "str", "label": "str"})
        phase = Phase(fee.name, True, fee.rules, None, fee.position)
        for rule in fee.rules:
            if rule.condition is not None:
                types.expect(rule.condition, "bool", context, "a condition")
            _check_actions(ruleset, phase, rule, types, diags, {}, context, {}, fee.variables, game=False, fee=fee)




def _check_commission_paid(bet, types, diags, game_variables) -> None:
    """A commission's `paid:` is one rule for every bet of its kind, settled when the bet is
    compiled (`compile.bets`: the solver, the simulator and the table read one word per bet):
    it may depend on the options (`paid: option.vig`), never on the game as it stands."""
    paid = bet.commission.paid
    reads_game = False
    for x in ex.walk(paid):
        if not isinstance(x, ex.Name):
            continue
        if x.name in game_variables or x.name in bet.variables:
            what = f"a variable of the {'game' if x.name in game_variables else 'bet'}"
        elif x.name in DICE_FACTS or is_die_fact(x.name):
            what = "a fact of the throw"
        elif x.name in BET_FACTS:
            what = "a fact of the game"
        else:
            continue
        reads_game = True
        diags.error(f"bet {bet.name!r}: commission paid: is the same whenever the bet is made, so it may read the "
                    f"options but not {x.name!r}, {what}", x.position,
                    "write on_win, up_front, or an expression of the options (paid: option.vig)",
                    names=(bet.name, x.name), reads=_BETS)
    if reads_game:
        return
    types.expect(paid, "str", Context(False, frozenset()), "commission paid:")
    if isinstance(paid, ex.String) and paid.value not in COMMISSION_PAID:
        said, offered = _offered(paid.value, COMMISSION_PAID)
        diags.error(f"bet {bet.name!r}: commission paid: is on_win or up_front, not {paid.value!r}{said}",
                    paid.position, code="unknown-value", names=_quoted(bet.name, paid.value, *offered), reads=_BETS)


def _check_cocked(ruleset, types, diags, game_variables) -> None:
    """`cocked:` rules read the game's variables, `off`, `shown` and `phase`, and only recast."""
    cocked = ruleset.cocked
    if cocked is None:
        return
    if cocked.by_option is not None:
        option = ruleset.options.get(cocked.by_option)
        if option is None:
            said, offered = _offered(cocked.by_option, ruleset.options)
            diags.error(f"cocked: chance: by_option names no option: {cocked.by_option!r}{said}", cocked.position,
                        code="unknown-option", names=_quoted(cocked.by_option, *offered))
        else:
            values = [str(v) for v in option.values]
            for value in cocked.chances:
                if value not in values:
                    said, offered = _offered(value, values)
                    diags.error(f"cocked: option {cocked.by_option!r} has no value {value!r}{said}", cocked.position,
                                code="unknown-value", names=_quoted(cocked.by_option, value, *offered))
    context = Context(False, game_variables, dict(OFF_FACTS))
    for rule in cocked.rules:
        if rule.condition is not None:
            types.expect(rule.condition, "bool", context, "a condition")
        if not rule.actions:
            continue
        for action in rule.actions:
            if not isinstance(action, ex.Recast):
                diags.error("cocked: rules only recast: `recast both`, `recast off`, or `recast off or both by "
                            "caster`", action.position)
                continue
            _check_recast(action, diags)
        if len(rule.actions) > 1:
            diags.error("a cocked: rule recasts once: one `recast …` action", rule.actions[1].position)


def _check_recast(action, diags) -> None:
    for way in action.ways:
        if way not in ex.RECAST_WAYS:
            said, offered = _offered(way, ex.RECAST_WAYS)
            # words for any number of dice: `both` takes up every die, however many
            diags.error(f"recast {way}: recast names the dice thrown again, `off` (the dice that landed off) "
                        f"or `both` (every die){said}", action.position, code="unknown-value", names=offered)
    if len(set(action.ways)) != len(action.ways):
        diags.error("recast names the same dice twice", action.position)
    elif len(action.ways) == 1 and action.role is not None:
        diags.error(f"recast {action.ways[0]} by {action.role}: there is nothing to choose (write `recast off or "
                    f"both by {action.role}`)", action.position)
    if action.role is not None and action.role not in ROLES:
        said, offered = ("", ()) if _role_hint(action.role) else _offered(action.role, ROLES)
        diags.error(f"recast … by {action.role!r}: the chooser must be one of {', '.join(ROLES)}{said}",
                    action.position, _role_hint(action.role), code="unknown-value",
                    names=_quoted(action.role, *offered))


def _inherited_bets(ruleset, diags) -> None:
    """Warn where a bet inherited through `extends` decides on the throw itself in a game phase
    this file replaces: its rule restates the parent's game (don't pass's bar 12 on the
    come-out), which may no longer be this game. Bets that decide on `result` or play their
    own game follow whatever game this file defines, and are not warned about."""
    if not ruleset.extends:
        return
    mine = ruleset.file
    changed = {name: phase for name, phase in ruleset.phases.items() if phase.position.file == mine}
    if not changed:
        return
    for bet in ruleset.bets.values():
        for phase in bet.phases.values():
            for rule in phase.rules:
                if rule.position.file == mine or rule.condition is None:
                    continue
                named = _phases_named(rule.condition) & set(changed)
                reads_throw = _reads(rule.condition, set(throw_facts(DiceShape(MAX_DICE))))
                decides = any(isinstance(a, ex.End) for a in rule.actions)
                own = bet.own_game and not named
                if named and reads_throw and decides and not own:
                    where = sorted(named)[0]
                    diags.warning(f"bet {bet.name!r}, inherited from {rule.position.file}, decides on the throw in "
                                  f"phase {where!r}, which this file changes: its rule at line {rule.position.line} "
                                  f"was written for the game it came from", changed[where].position,
                                  "redefine the bet here, or make it decide on `result` so that it follows this game",
                                  names=(bet.name, where), reads=_BETS)


def _unused_labels(ruleset, results_of_label: dict, diags) -> None:
    """Warn of a label declared under `labels:` that no rule of the game ends with: its words are
    never said, and a misspelt ending (`win nikc`, itself warned of) often leaves one so."""
    # a misspelt use (`win chance_wim`) is warned of where it is, with the name it is close to:
    # that name is not warned of again
    meant = {_nearest(used, ruleset.labels) for used in results_of_label if used not in ruleset.labels}
    for name, label in ruleset.labels.items():
        if label.position is not None and label.position.file != ruleset.file:
            continue  # inherited (`extends`): this file cannot take it out, and the file it is in uses it
        if name not in results_of_label and name not in meant:
            diags.warning(f"label {name!r} is declared but no rule ends a game with it", label.position,
                          f"end a game with it (`do: win {name}`), or take it out of labels:",
                          code="unused-label", subject=name, names=_quoted(name))


def _own_sources(ruleset, root, diags) -> None:
    """Warn where a file built with `extends` cites nothing of its own: what it changes is its
    author's, and the parent's sources do not vouch for it (they are shown as the parent's)."""
    if ruleset.built_on is None or ruleset.sources:
        return
    where = root.key_position("extends") if root is not None and root.get("extends") is not None else None
    inherited = (f", whose sources are those of {ruleset.inherited_from}"
                 if ruleset.inherited_from not in (None, ruleset.built_on) else "")
    diags.warning(f"this ruleset cites no source of its own: it is built on {ruleset.built_on}{inherited}", where,
                  "add `sources:` for what this file changes (title, author, year, page; the address of a web "
                  "page), or say in a source's note that the change is your own")


def _phases_named(e) -> set:
    """Phase names an expression compares `phase` with (`phase == "come_out"`)."""
    return {b.value for x in ex.walk(e) if isinstance(x, ex.Binary) and x.op in ("==", "!=")
            for a, b in ((x.left, x.right), (x.right, x.left))
            if isinstance(a, ex.Name) and a.name == "phase" and isinstance(b, ex.String)}


def _reads(e, names: set) -> bool:
    return any(isinstance(x, ex.Name) and x.name in names for x in ex.walk(e))


def _check_payout(types, payout, context) -> None:
    types.expect(payout.win, "int", context, "what a bet pays", _BETS)
    types.expect(payout.stake, "int", context, "what a bet pays", _BETS)


def _check_actions(ruleset, phase, rule, types, diags, results_of_label, context, phases, variables,
                   game: bool, bet=None, fee=None) -> None:
    actions = rule.actions
    finished = None  # the action after which nothing may follow
    moves_on = False
    for action in actions:
        if finished is not None:
            diags.error(f"nothing can follow {finished}", action.position)
            break
        if isinstance(action, ex.End):
            finished, moves_on = f"`{action.result} {action.label}`", True
            if fee is not None:
                diags.error("a fee's rules only set variables and pay: they do not win or lose", action.position)
            if action.payout is not None:
                if bet is None:
                    diags.error("only a bet's win says what it pays", action.payout.position, reads=_BETS)
                else:
                    _check_payout(types, action.payout, context)
            elif bet is not None and action.result == "win" and bet.pays is None:
                diags.error(f"bet {bet.name!r} has no pays:, so this win must say what it pays (win pays 7 to 6)",
                            action.position, names=(bet.name,), reads=_BETS)
            if game and ruleset.labels and action.label not in ruleset.labels:
                said, fix = _repair(action.label, ruleset.labels, action.label_position)
                diags.warning(f"label {action.label!r} is not among the labels: declared above", action.position,
                              said or "declare it under labels:", code="undeclared-label", suggestion=fix,
                              subject=action.label, names=(action.label,))
            seen = results_of_label.get(action.label)
            if seen and seen[0] != action.result:
                diags.error(f"label {action.label!r} is used for a {action.result} here and for a {seen[0]} at line "
                            f"{seen[1].line}", action.position, "a label names one kind of ending; use another word",
                            names=(action.label,))
            else:
                results_of_label.setdefault(action.label, (action.result, action.position))
        elif isinstance(action, ex.ThrowAgain):
            finished = "`throw again`"
            if not phase.throws:
                diags.error(f"`throw again` in phase {phase.name!r}, where no dice are thrown", action.position,
                            "a phase with throw: false must goto another phase or end the game",
                            names=(phase.name,))
        elif isinstance(action, ex.Goto):
            finished, moves_on = f"`goto {action.phase}`", True
            if action.phase not in phases:
                said, fix = _repair(action.phase, phases, action.position)
                diags.error(f"goto: there is no phase {action.phase!r}", action.position,
                            said or f"phases: {', '.join(phases) or 'none'}", code="unknown-phase", suggestion=fix,
                            names=(action.phase,))
        elif isinstance(action, ex.Assign):
            if action.variable not in variables:
                own = "" if game else " (a bet or fee sets only its own variables)"
                said, fix = _repair(action.variable, variables, action.position)
                diags.error(f"set: undefined variable {action.variable!r}{own}", action.position,
                            said or "declare it under variables:", code="unknown-variable", suggestion=fix,
                            names=(action.variable,), reads=() if game else _BETS)
            types.expect(action.value, "int", context, "a value set into a variable")
        elif isinstance(action, ex.Pay):
            finished = finished  # pay may be followed by more
            if fee is None:
                diags.error("`pay` is for a fee's rules", action.position)
            elif action.fee != fee.name:
                diags.error(f"this fee is {fee.name!r}; it cannot pay {action.fee!r}", action.position,
                            names=(fee.name, action.fee))
        elif isinstance(action, ex.Recast):
            finished = "`recast`"
            diags.error("recast: no die is off here; dice that land off are recast by the rules under cocked:",
                        action.position, "move the rule to cocked: rules: (- when: off == 1 … do: recast off)")
        elif isinstance(action, ex.Choose):
            if not game:
                diags.error("only the game's rules offer choices", action.position)
            if action.variable not in variables:
                said, fix = _repair(action.variable, variables, action.variable_position)
                diags.error(f"choose: undefined variable {action.variable!r}", action.position,
                            said or "declare it under variables:", code="unknown-variable", suggestion=fix,
                            names=(action.variable,))
            types.collection(action.collection, context)
            if action.role not in ROLES:
                said, offered = ("", ()) if _role_hint(action.role) else _offered(action.role, ROLES)
                diags.error(f"choose … by {action.role!r}: the chooser must be one of {', '.join(ROLES)}{said}",
                            action.position, _role_hint(action.role), code="unknown-value",
                            names=_quoted(action.role, *offered))
    if game and not phase.throws and not moves_on and actions:
        diags.error(f"in phase {phase.name!r} no dice are thrown, so each rule must goto a phase or end the game",
                    rule.position, names=(phase.name,))
