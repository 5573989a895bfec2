"""Bets and fees on top of the compiled game machine.

A bet is a small machine of its own, run in step with the game: on each throw its rules read
the throw, the game's variables and phase *before* the throw, how the game ended on it
(`result`, `label`, "none" while it goes on) and the bet's own variables, and either decide
the bet (win with a payout, lose, push) or leave it up in a new bet state. `BetMachine.step`
evaluates those rules; `compile_bet` runs it once over every (game state, bet state) the bet
can reach and keeps the outcome of each throw as data, a `CompiledBet`. The exact analysis
(`solve.bets`) and the table (`play.wagers`) read only that table, so a bet means the same
thing when it is analysed and when it is played, and neither re-reads the rules.

Money is exact: payouts are `Fraction`s per unit staked. `30 to 1` nets 30; `30 for 1` returns
30 including the stake, so nets 29.
"""

from __future__ import annotations

from fractions import Fraction

from ..diagnostics import Diagnostic, RulesetError
from ..model import DICE_FACTS, Bet, Ruleset
from ..parse import syntax as ex
from ..records import record, replace
from .evaluate import EvaluationError, Scope, closure, names_read, throw_kind
from .machine import CHOICE, END, OUTCOMES, THROW, Machine, State, index_of

MAX_CACHED_STEPS = 1_000_000  # a bet's transitions remembered; beyond this they are recomputed
MAX_BET_NODES = 50_000  # (game state, bet state) pairs a bet may reach: each holds a row of 36 throws
# ... and all the bets compiled with one game, together (a few seconds' work): a rule file of
# 1,500 bets with counters of their own took a minute and half a gigabyte. The shipped rulesets
# need a few hundred.
MAX_BET_NODES_TOTAL = 100_000


@record(frozen=True)
class BetState:
    phase: str
    values: tuple  # the bet's own variables, in declaration order
    game: int | None = None  # for a bet with a game of its own: that game's state (a throw state)


@record(frozen=True)
class Decision:
    """How a throw decided a bet: net per unit staked (before commission) and the word for it."""

    result: str  # "win" | "lose" | "push"
    net: Fraction  # +payout on a win, −1 on a loss, 0 on a push
    label: str


def payout_value(kind: str, win, stake, position) -> Fraction:
    if stake <= 0 or win < 0:
        raise EvaluationError(f"a payout of {win} {kind} {stake} makes no sense", position)
    ratio = Fraction(win, stake)
    return ratio if kind == "to" else ratio - 1


def in_range(owner: str, variables, action, value):
    """The value a `set` puts into a bet's or fee's variable, refused outside its range."""
    variable = variables[action.variable]
    if not variable.allows(value):
        raise RulesetError([Diagnostic(f"{owner}: set {action.variable} = {value} is outside its range "
                                       f"{variable.bounds()}", action.position)])
    return value


class BetMachine:
    """The transitions of one bet, computed on demand and cached."""

    def __init__(self, machine: Machine, bet: Bet):
        self.machine = machine
        self.bet = bet
        self.ruleset: Ruleset = machine.ruleset
        self.options = machine.options
        self.own = tuple(bet.variables)
        scope = Scope.of(set(machine.variables) | set(self.own) | {"phase", "result", "label"},
                         machine.dice.by_total(), machine.dice)
        self._fn = {}
        self._scope = scope
        self._cache: dict = {}
        self._game_keys: dict = {}  # game state -> what `step` reads of it (the same for its 36 throws)
        self.fired: set = set()  # (phase, rule index) of the bet's rules that have fired
        self.carried_over = False  # seen still up when its game ended (set by whoever runs it)
        own_start = None
        if bet.own_game:
            own_start = machine.start.target
            if machine.states[own_start].kind != THROW:
                raise RulesetError([Diagnostic(
                    f"bet {bet.name!r} plays a game of its own, but the game does not start with a throw "
                    f"(it starts at {machine.states[own_start].describe(machine)})", bet.position,
                    hint="a bet's own game cannot make choices; drop `game: own` and read the table's game")])
        self.start = BetState(bet.start, tuple(v.initial for v in bet.variables.values()), own_start)
        # Rules that read only the total decide 2-5 and 5-2 alike: cache them by total; rules that
        # read no single die, by the throw's faces as a multiset (a bet with a game of its own also
        # follows that game's rules, which may read the faces).
        read = [r for p in bet.phases.values() for r in p.rules] + [bet.pays]
        if bet.own_game:
            read += list(machine.ruleset.rules())
        self.kind = throw_kind(read)
        self.by_total = self.kind is sum
        # What the bet's rules and payout read of the game: a throw is decided alike in every
        # game state that agrees on these, so it is evaluated once for all of them (the stake
        # on the main reads only the game's result, whatever the main and the chance are).
        reads = names_read((tuple(r for p in bet.phases.values() for r in p.rules), bet.pays, bet.commission))
        self._reads_game = tuple(i for i, v in enumerate(machine.variables) if v in reads)
        self._reads = ("phase" in reads, "result" in reads, "label" in reads)

    def fn(self, expression, scope=None):
        key = id(expression)
        found = self._fn.get(key)
        if found is None:
            found = self._fn[key] = closure(expression, Scope.of(scope, self._scope.weights, self.machine.dice) if scope
                                              else self._scope)
        return found

    def _values(self, game: State, bet_state: BetState, after: State | None) -> dict:
        values = dict(zip(self.machine.variables, game.values))
        values.update(zip(self.own, bet_state.values))
        values["phase"] = game.phase
        values["result"] = after.result if after is not None and after.kind == END else "none"
        values["label"] = after.label if after is not None and after.kind == END else ""
        return values

    def may_be_made(self, game: State) -> bool:
        if self.bet.made is None:
            return True
        values = dict(zip(self.machine.variables, game.values))
        values["phase"] = game.phase
        return bool(self._eval(self.bet.made, values, None))

    def _eval(self, expression, values, dice):
        try:
            return self.fn(expression)(values, dice, self.options)
        except EvaluationError as exc:
            raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: {exc}", exc.position)]) from None

    def ever_made(self) -> bool:
        """Whether some throw state of the game lets the bet be made (its made: can hold)."""
        return any(s.kind == THROW and self.may_be_made(s) for s in self.machine.states)

    def default_payout(self, game: State, dice=None) -> Fraction:
        """The bet's `pays:` in a game state (what a win would net per unit staked)."""
        values = self._values(game, self.start, None)
        return self._payout(self.bet.pays, values, dice, None, game)

    def _payout(self, payout, values: dict, dice, action, game: State) -> Fraction:
        """A win's net per unit staked; a payout that makes no sense is the rule file's error,
        reported where the win is (the user's own file), with the state it happened in."""
        win, stake = self._eval(payout.win, values, dice), self._eval(payout.stake, values, dice)
        try:
            return payout_value(payout.kind, win, stake, payout.position)
        except EvaluationError as exc:
            shown = ", ".join(f"{n} = {values[n]}" for n in self.machine.variables)
            where = f"in game phase {game.phase!r}" + (f" with {shown}" if shown else "")
            if dice is not None:
                where += f", on the throw {'-'.join(map(str, dice))}"  # every die of the file's throw
            position = action.position if action is not None else self.bet.position
            pays = f" (its payout is at {payout.position})" if payout.position.file != position.file else ""
            hint = None
            if self.carried_over:
                hint = ("this bet can still be up when its game ends, and a new game starts with every variable "
                        "at its initial value; decide the bet when the game ends (e.g. `when: result != \"none\"`), "
                        "or make its payout read only what the new game sets")
            raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: {exc} {where}{pays}", position,
                                           hint=hint)]) from None

    def multiple(self, name: str, game: State) -> Fraction:
        """An amount given as a multiple of the backed bet: `2x`, or one the bet names (`3-4-5x`)."""
        values = dict(zip(self.machine.variables, game.values))
        if name in self.bet.multiples:
            return Fraction(self._eval(self.bet.multiples[name], values, None))
        return Fraction(name[:-1])

    def commission_paid(self) -> str | None:
        commission = self.bet.commission
        if commission is None or not commission.rate:
            return None
        return self._eval(commission.paid, {}, None)

    def step(self, game: State, bet_state: BetState, dice: tuple, after: State) -> Decision | BetState:
        """The bet on a throw: decided, or up in a new state. `game` is the table's game before
        the throw and `after` where the throw (and any choices it led to) left it; a bet with a
        game of its own reads that game instead, moved by the same throw."""
        if bet_state.game is not None:
            game = self.machine.states[bet_state.game]
            after = self.machine.states[game.steps[index_of(dice, self.machine.dice.sides)].target]
            if after.kind == CHOICE:
                raise RulesetError([Diagnostic(
                    f"bet {self.bet.name!r} plays a game of its own, and that game reaches a choice "
                    f"({after.describe(self.machine)}), which a bet's own game cannot make", self.bet.position)])
            key = (None, bet_state, dice if self.kind is None else self.kind(dice), None)
        else:
            phase, result, label = self._reads
            ended = after.kind == END
            read = self._game_keys.get(game.index)
            if read is None:
                read = self._game_keys[game.index] = (tuple(game.values[i] for i in self._reads_game),
                                                      game.phase if phase else None)
            # the bet state as its fields (it has no game of its own here): hashed as a tuple is
            key = (bet_state.phase, bet_state.values, dice if self.kind is None else self.kind(dice), read,
                   (after.result if ended else "none") if result else None, (after.label if ended else "") if label else None)
        found = self._cache.get(key)
        if found is not None:
            if after.kind == END and isinstance(found, BetState):
                self.carried_over = True
            return found
        values = self._values(game, bet_state, after)
        result = self._run(bet_state.phase, values, dice, game, after)
        if isinstance(result, BetState) and bet_state.game is not None:
            # its own game goes on, or starts again if it ended with the bet still up
            result = replace(result, game=self.machine.start.target if after.kind == END else after.index)
        if after.kind == END and isinstance(result, BetState):
            self.carried_over = True
        if len(self._cache) < MAX_CACHED_STEPS:
            self._cache[key] = result
        return result

    def _run(self, phase_name: str, values: dict, dice, game: State, after: State):
        phase = self.bet.phases[phase_name]
        for rule in phase.rules:
            if rule.condition is not None and not self._eval(rule.condition, values, dice):
                continue
            self.fired.add((phase_name, rule.index))
            own = dict(values)
            for action in rule.actions:
                if isinstance(action, ex.Assign):
                    own[action.variable] = in_range(f"bet {self.bet.name!r}", self.bet.variables, action,
                                                     self._eval(action.value, own, dice))
                elif isinstance(action, ex.End):
                    label = action.label
                    if self.bet.own_game and label == action.result and after.kind == END:
                        label = after.label  # a bet that follows its own game speaks the game's words
                    if action.result == "win":
                        net = self._payout(action.payout or self.bet.pays, own, dice, action, game)
                        return Decision("win", net, label)
                    return Decision(action.result, Fraction(-1) if action.result == "lose" else Fraction(0), label)
                elif isinstance(action, ex.Goto):
                    return BetState(action.phase, tuple(own[v] for v in self.own))
                elif isinstance(action, ex.ThrowAgain):
                    break
            return BetState(phase_name, tuple(own[v] for v in self.own))
        thrown = f"of total {sum(dice)}" if self.by_total else "-".join(map(str, dice))  # faces only if read
        raise RulesetError([Diagnostic(f"bet {self.bet.name!r}: no rule of {phase_name!r} handles the throw "
                                       f"{thrown} in game phase {values['phase']!r}", phase.position,
                                       hint="add an `otherwise: throw again`")])


@record(frozen=True, repr=False)
class CompiledBet:
    """One bet compiled against the game: what each of the 36 throws does to it in every
    (game throw state, bet state) it can reach, from every state where it may be made, over
    every choice the game offers (so any policy, and any player at the table, finds its row).

    A bet state is a number (an index of `states`, 0 where the bet starts); a decision is a
    negative code, ``~i`` for ``decisions[i]``. An entry of `moves` is that code, or — where the
    throw leads to a choice, and so to one of several game states — {game state: code}."""

    bet: Bet
    states: tuple  # BetState by number
    decisions: tuple  # Decision by ~code
    made: frozenset  # game throw states at which the bet may be made
    moves: dict  # (game throw state, bet state) -> 36 entries in OUTCOMES order
    pays: dict  # game state where made -> a win's net there, or the RulesetError why it needs the throw
    multiples: dict  # (multiple's name, game state where made) -> factor of the backed bet
    commission_paid: str | None  # "on_win" / "up_front", None without a commission
    fired: frozenset  # (phase, rule index) of the bet's rules that can fire

    @property
    def name(self) -> str:
        return self.bet.name

    def __repr__(self) -> str:
        return (f"<CompiledBet {self.bet.name!r}: made in {len(self.made)} game states, {len(self.states)} bet "
                f"states, {len(self.moves)} rows>")

    def move(self, game: int, bet_state: int, outcome: int, final: int) -> int:
        """The code after a throw: the game was at `game`, the throw was OUTCOMES[outcome] and the
        game is now at `final` (after any choices the throw led to)."""
        entry = self.moves[game, bet_state][outcome]
        return entry if entry.__class__ is int else entry[final]

    def payout_at(self, game: int) -> Fraction:
        """The bet's `pays:` where it was made (what a win would net per unit staked)."""
        value = self.pays[game]
        if isinstance(value, RulesetError):
            raise value
        return value

    def up_front(self, made_at: int, stake: Fraction) -> Fraction:
        """The commission a backer of `stake` pays as he makes the bet at game state `made_at`
        (`commission: … paid: up_front`): a share of his stake, or of what a win would pay from
        there; nothing where the commission is taken from a win, or there is none."""
        commission = self.bet.commission
        if commission is None or self.commission_paid != "up_front":
            return Fraction(0)
        return commission.rate * stake * (1 if commission.of == "bet" else self.payout_at(made_at))

    def taken_from_win(self, stake: Fraction, won: Fraction) -> Fraction:
        """The commission taken from a win of `won` on a backer's `stake` (`paid: on_win`): a
        share of the stake or of the win; nothing otherwise."""
        commission = self.bet.commission
        if commission is None or self.commission_paid != "on_win":
            return Fraction(0)
        return commission.rate * (stake if commission.of == "bet" else won)

    def multiple(self, name: str, game: int) -> Fraction:
        """An amount given as a multiple of the backed bet: one the bet names (`3-4-5x`) or `2x`."""
        if name in self.bet.multiples:
            return self.multiples[name, game]
        return Fraction(name[:-1])


def compile_bet(machine: Machine, bet: Bet, groups: ThrowGroups | None = None) -> CompiledBet:
    """Run the bet's rules once for every throw in every (game state, bet state) it can reach.
    `groups`: the game's throws grouped (`ThrowGroups` of `machine.states`), shared by the bets
    compiled with it (made here when not given)."""
    bm = BetMachine(machine, bet)
    states = machine.states
    made = frozenset(s.index for s in states if s.kind == THROW and bm.may_be_made(s))
    bet_states = [bm.start]
    # numbered by their fields as tuples: a record hashes in Python, a tuple of them in C
    numbers: dict = {(bm.start.phase, bm.start.values, bm.start.game): 0}
    decisions: dict = {}

    def code(result) -> int:
        if result.__class__ is Decision:
            net = result.net  # (a Fraction hashes in Python too; its two terms in C)
            key = (result.result, net.numerator, net.denominator, result.label)
            return ~decisions.setdefault(key, (len(decisions), result))[0]
        key = (result.phase, result.values, result.game)
        number = numbers.get(key)
        if number is None:
            number = numbers[key] = len(bet_states)
            bet_states.append(result)
        return number

    finals = _Finals(machine)
    moves: dict = {}
    queue = [(g, 0) for g in sorted(made)]
    seen = set(queue)
    if groups is None or groups.states is not states:
        groups = ThrowGroups(states, machine.outcomes)
    kind = bm.kind
    throws_of = len(machine.dice.weights)
    most = min(MAX_BET_NODES, MAX_BET_NODES * 36 // throws_of)  # (each node a row of every throw)
    while queue:
        g, b = queue.pop()
        game, bet_state = states[g], bet_states[b]
        row = [0] * throws_of
        for dice, target, throws in groups.of(g, kind):  # the throws alike for the bet, in the order they come
            if states[target].kind == CHOICE:
                entry = {f: code(bm.step(game, bet_state, dice, states[f])) for f in finals.after_choices(target)}
                outcomes = entry.items()
            else:
                entry = code(bm.step(game, bet_state, dice, states[target]))
                outcomes = ((target, entry),)
            for k in throws:
                row[k] = entry
            for final, c in outcomes:
                if c < 0:
                    continue
                for g2 in finals.before_throw(final):
                    if (g2, c) not in seen:
                        if len(seen) >= most:
                            raise RulesetError([Diagnostic(
                                f"bet {bet.name!r} has more than {most} states with the game", bet.position,
                                hint="give the bet's variables smaller ranges, or decide it sooner")])
                        seen.add((g2, c))
                        queue.append((g2, c))
        moves[g, b] = tuple(row)
    pays: dict = {}
    if bet.pays is not None and not names_read(bet.pays).isdisjoint(DICE_FACTS):
        # a payout that reads the deciding throw (`total to 1`, the field) has no value before it
        why = RulesetError([Diagnostic(f"bet {bet.name!r}: its payout reads the throw, so it has no value when the "
                                       f"bet is made (a commission up front of the win cannot be worked out)",
                                       bet.pays.position)])
        pays = dict.fromkeys(made, why)
    elif bet.pays is not None:
        for g in made:
            try:
                pays[g] = bm.default_payout(states[g])
            except RulesetError as exc:  # a payout that makes no sense where the bet is made
                pays[g] = exc
    multiples = {(name, g): bm.multiple(name, states[g]) for name in bet.multiples for g in made}
    return CompiledBet(bet, tuple(bet_states), tuple(d for _, d in decisions.values()), made, moves, pays, multiples,
                       bm.commission_paid(), frozenset(bm.fired))


class ThrowGroups:
    """For each throw state of a game, its throws grouped as a bet sees them — by the state each
    reaches and by what the bet reads of a throw (`throw_kind`: its total, 2-5 as 5-2; its faces
    as a multiset; or the ordered throw itself) — each group as (its first throw, the state
    reached, the indices of its throws), in the order of their first throw. Made as they are
    asked for, once for every bet compiled with the same game (its `states`):
    `compile.compiler.compile_bets` and `Shapes.compiled_bet` hand one to each."""

    def __init__(self, states: tuple, outcomes: tuple = OUTCOMES):
        self.states = states
        self.outcomes = outcomes
        self._grouped: dict = {}  # the bet's kind of throw -> {game state: groups}

    def of(self, g: int, kind=None) -> list:
        grouped = self._grouped.setdefault(kind, {})
        out = grouped.get(g)
        if out is None:
            outcomes = self.outcomes
            first: dict = {}
            out = []
            for k, step in enumerate(self.states[g].steps):
                alike = (k if kind is None else kind(outcomes[k]), step.target)
                at = first.get(alike)
                if at is None:
                    first[alike] = len(out)
                    out.append((outcomes[k], step.target, [k]))
                else:
                    out[at][2].append(k)
            grouped[g] = out
        return out


class TooManyBetNodes(RulesetError):
    """The bets compiled with one game are too large together: no use compiling more."""


def count_bet_nodes(total: int, compiled: CompiledBet) -> int:
    """`total` (game state, bet state) pairs compiled so far, with this bet's added; a
    TooManyBetNodes naming the bet that goes past MAX_BET_NODES_TOTAL."""
    return counted(total + len(compiled.moves), MAX_BET_NODES_TOTAL, TooManyBetNodes,
                    f"the bets have more than {MAX_BET_NODES_TOTAL:,} states with the game in all (bet "
                    f"{compiled.name!r} goes past it)", compiled.bet.position,
                    "fewer bets, or smaller ranges for their variables")


def counted(total: int, limit: int, error, what: str, position, hint: str) -> int:
    """`total`, or `error` saying that `what` goes past the bound on rule files this large."""
    if total > limit:
        raise error([Diagnostic(f"{what}; hazard-dsl refuses rule files this large", position, hint=hint)])
    return total


class _Finals:
    """Where the game can stand after reaching a state, over every alternative of every choice."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self._after: dict = {}
        self._before: dict = {}

    def after_choices(self, target: int) -> tuple:
        """The throw and end states a state leads to through choices (itself, if no choice)."""
        found = self._after.get(target)
        if found is None:
            states = self.machine.states
            out, seen, work = [], {target}, [target]
            while work:
                s = work.pop()
                if states[s].kind != CHOICE:
                    out.append(s)
                    continue
                for _, step in states[s].alternatives:
                    if step.target not in seen:
                        seen.add(step.target)
                        work.append(step.target)
            found = self._after[target] = tuple(sorted(out))
        return found

    def before_throw(self, final: int) -> tuple:
        """The throw states the game can be at before its next throw, once at `final`: a new
        game starts after an end state."""
        found = self._before.get(final)
        if found is None:
            states = self.machine.states
            if states[final].kind != END:
                found = (final,)
            else:
                start = self.machine.start.target
                found = tuple(s for s in self.after_choices(start) if states[s].kind != END)
            self._before[final] = found
        return found


def most_paid(cb) -> Fraction:
    """The most a unit backed can win on the bet anywhere."""
    return max((d.net for d in cb.decisions if d.result == "win"), default=Fraction(1))


def most_paid_from(cb, machine: Machine, made: int) -> Fraction:
    """The most a unit backed can win on a wager made at game state `made`: the largest net of
    the decisions its moves can reach from there; where the game can end with the bet up, every
    state it could go on from counts (play.table_bets sets aside what a layer could lose so, and solve.seats counts it)."""
    states = machine.states
    seen, todo, best = set(), [(made, 0)], None
    while todo:
        key = todo.pop()
        if key in seen or key not in cb.moves:
            continue
        seen.add(key)
        game = states[key[0]]
        for k, entry in enumerate(cb.moves[key]):
            for after, code in (entry.items() if isinstance(entry, dict) else [(game.steps[k].target, entry)]):
                if code < 0:
                    decision = cb.decisions[~code]
                    if decision.result == "win":
                        best = decision.net if best is None else max(best, decision.net)
                elif states[after].kind == THROW:
                    todo.append((after, code))
                else:
                    todo.extend((g, b) for g, b in cb.moves if b == code)
    return best if best is not None else most_paid(cb)


def plays(role: str, seat_role: str) -> bool:
    """Whether a seat that is the caster or a setter this game plays the bet role `role`
    (`player`: anyone at the table)."""
    return role == "player" or role == seat_role


def side_of(bet, seat_role: str):
    """(side, the other side's role) that a seat in `seat_role` plays on `bet` when it proposes
    it, or None where it plays neither side: the table's rule (play.table_bets) and the seats'
    figures' (solve.seats) alike."""
    if plays(bet.backer, seat_role) and bet.backer != "bank":
        return "backer", bet.layer
    if plays(bet.layer, seat_role) and bet.layer != "bank":
        return "layer", bet.backer
    return None
