r"""Exact solution of a compiled machine: an absorbing Markov chain with decision states.

Fix a policy π (at each choice state, a probability for each alternative). The game is then
an absorbing chain over the transient states T (throw and choice states) and the end states E:

    P = | Q  R |      Q[s, t] = P(s → t), s, t ∈ T;  R[s, e] = P(s → e), e ∈ E
        | 0  I |

with N = (I − Q)⁻¹ the fundamental matrix. We never form N. Two linear solves suffice:

* **forward** (expected visits from the start): x = e_start N, i.e. x (I − Q) = e_start.
  Then P(the game ends in e) = x R[:, e], and the expected number of throws is Σ x_s over
  throw states (a choice takes no throw).
* **backward** (a value per state): v = Q v + c + R r, for a terminal reward r and a cost c
  per visit; v(s) is the expected reward from s (with r = 1 on wins: P(win | at s)).

Both are solved one strongly connected component at a time, in topological order (Tarjan):
most states of a dice game are a component of one with a self-loop ("throw again"), solved
by a single division, v = (c + Σ_{t≠s} p_t v_t) / (1 − p_self). Larger components fall back to
Gaussian elimination over `Fraction`s. Everything is exact rational arithmetic.

The optimal policy is found component by component, sinks first: at a choice state the caster
picks the alternative of greatest expectation (+1 win, −1 lose, 0 push), any other chooser the
least. Where choices sit inside a cycle, policy iteration runs within the component.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from ..compile.machine import CHOICE, END, THROW, Machine, maximises
from ..diagnostics import Diagnostic, RulesetError
from ..errors import Arg, ArgumentError

ZERO, ONE = Fraction(0), Fraction(1)
MAX_POLICY_ROUNDS = 200


class PolicyError(ValueError):
    pass


class PolicyArgumentError(PolicyError, ArgumentError):
    """A policy given (`Arg('policy', value=…)`) that the game's choices cannot follow: each
    front end names it (`policy='foo'`, `--policy foo`)."""


# n throws of the 36: the chance of every row entry of a throw state, made once
THROWS_OF_36 = tuple(Fraction(n, 36) for n in range(37))


def _throw_transitions(state, dice=None) -> dict:
    """Where a throw state's throws lead, with their chances under the dice in play."""
    counts: dict[int, int] = {}
    if dice is None or dice.fair:
        for step in state.steps:
            counts[step.target] = counts.get(step.target, 0) + 1
        return {t: THROWS_OF_36[n] for t, n in counts.items()}
    for step, w in zip(state.steps, dice.weights):
        if w:  # a face a loaded die never shows leads nowhere
            counts[step.target] = counts.get(step.target, 0) + w
    return {t: Fraction(n, dice.total) for t, n in counts.items()}


def strongly_connected(nodes, successors) -> list[list]:
    """Tarjan's algorithm, iterative; components come out sinks first. `successors(n)` may name
    nodes outside `nodes` (absorbing ones): they are skipped."""
    members = set(nodes)
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list[list] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in members:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(successors(nxt))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(component)
    return out


def solve_component(component, row, value: dict, cost: dict) -> None:
    """Fill value[s] for s in the component: v = Q v + c, the values outside already known."""
    if len(component) == 1:
        s = component[0]
        out = row(s)
        p_self = out.get(s, ZERO)
        rest = sum((p * value[t] for t, p in out.items() if t != s), ZERO) + cost.get(s, ZERO)
        value[s] = rest / (ONE - p_self)
        return
    members = {s: k for k, s in enumerate(component)}
    rows: list[dict] = []
    rhs: list[Fraction] = []
    for s in component:
        a = {members[s]: ONE}
        b = cost.get(s, ZERO)
        for t, p in row(s).items():
            k = members.get(t)
            if k is None:
                b += p * value[t]
            else:
                a[k] = a.get(k, ZERO) - p
        rows.append(a)
        rhs.append(b)
    for s, x in zip(component, sparse_solve(rows, rhs)):
        value[s] = x


class TooLargeToSolve(RulesetError):
    """A cycle of the game too large to solve exactly in reasonable time: the rule file's
    problem (reported like any other), not an internal error."""

    def __init__(self, message: str):
        super().__init__([Diagnostic(message, None, hint="give the variables that go round the cycle smaller "
                                                          "ranges, or end the game sooner")])


# Exact elimination costs grow with the fill-in and with the digits of the fractions; beyond
# this many multiply-adds a solve would take minutes, so it is refused with a clear message.
MAX_ELIMINATION_WORK = 300_000  # about 2 s: a cycle of 100 states that fills in completely


def sparse_solve(rows: list[dict], rhs: list) -> list[Fraction]:
    """Solve A x = b exactly, A given by sparse rows ({column: coefficient}).

    A here is always I − Q (or its transpose) for the transient states of one strongly
    connected component of an absorbing chain: a nonsingular M-matrix, whose leading principal
    minors are all positive, so Gaussian elimination in the given order needs no pivoting.
    Rows stay sparse: a dice game's states have few successors, and a cycle fills in little."""
    n = len(rows)
    rows = [dict(r) for r in rows]
    rhs = list(rhs)
    below: list[set] = [set() for _ in range(n)]  # column -> rows below the diagonal using it
    for r, a in enumerate(rows):
        for c in a:
            if c < r:
                below[c].add(r)
    work = 0
    for k in range(n):
        pivot_row = rows[k]
        lead = pivot_row.pop(k, ZERO)
        if not lead:
            raise ArithmeticError("singular system: some states never reach an end")
        for c in pivot_row:
            pivot_row[c] /= lead
        rhs[k] /= lead
        pivot_row[k] = ONE
        for r in sorted(below[k]):
            a = rows[r]
            factor = a.pop(k, ZERO)
            if not factor:
                continue
            for c, x in pivot_row.items():
                if c == k:
                    continue
                a[c] = a.get(c, ZERO) - factor * x
                if c < r:
                    below[c].add(r)
            rhs[r] -= factor * rhs[k]
            # cost ~ entries touched × the size of the numbers (digits grow as a cycle fills in)
            work += len(pivot_row) * (1 + (rhs[k].denominator.bit_length() >> 6))
        if work > MAX_ELIMINATION_WORK:
            raise TooLargeToSolve(f"the game has a cycle of {n} states, too large to solve exactly in reasonable "
                                  f"time (the game can go round it in too many ways)")
    sparse_solve.last_work = work
    x = [ZERO] * n
    for k in range(n - 1, -1, -1):
        total = rhs[k]
        for c, a in rows[k].items():
            if c > k:
                total -= a * x[c]
        x[k] = total
    return x


class Chain:
    """An absorbing chain given by its rows: node → {next node: probability}. Nodes without a
    row are absorbing. Solved one strongly connected component at a time (see above)."""

    def __init__(self, rows: dict):
        self.rows = rows
        self.components = strongly_connected(list(rows), lambda n: rows[n].keys())  # sinks first

    def row(self, node) -> dict:
        return self.rows[node]

    def backward(self, reward, cost: dict | None = None, absorbing=()) -> dict:
        """Expected reward(absorbing node) at the end plus cost(node) per visit, from every node
        (and the reward itself for the absorbing nodes named in `absorbing`)."""
        value: dict = {t: Fraction(reward(t)) for t in absorbing}
        for targets in self.rows.values():
            for t in targets:
                if t not in self.rows and t not in value:
                    value[t] = Fraction(reward(t))
        for component in self.components:
            solve_component(component, self.row, value, cost or {})
        return value

    def forward(self, start: dict, smooth: bool | None = None) -> "Visits":
        """Expected visits to each transient node, and the probability of ending in each
        absorbing node, from a starting distribution. `smooth`: over Smooth numbers where they
        can be (None: for chains of SMOOTH_FROM nodes or more), else over Fractions."""
        if smooth if smooth is not None else len(self.rows) >= SMOOTH_FROM:
            try:
                return Visits(self._forward(start, SMOOTH), SMOOTH)
            except _Rough:
                pass
        return Visits(self._forward(start, FRACTIONS), FRACTIONS)

    def _forward(self, start: dict, number) -> dict:
        """The forward pass, sources first, in the arithmetic `number` (FRACTIONS or SMOOTH).
        What flows into a node is summed once, when the node is reached (see exact_sum)."""
        inflows: dict = {}
        for s, p in start.items():
            inflows.setdefault(s, []).append(number.of(p))
        visits: dict = {}
        for component in reversed(self.components):
            if len(component) == 1:
                s = component[0]
                parts = inflows.pop(s, None)
                if parts is None:
                    continue
                x = number.total(parts)
                if number.nonzero(x):
                    out = self.rows[s]
                    p_self = out.get(s)
                    if p_self:
                        x = number.leave(x, p_self)
                    for t, p in out.items():
                        if t != s:
                            inflows.setdefault(t, []).append(number.times(x, p))
                visits[s] = x
                continue
            # a cycle: solved in Fractions (the Smooth results are Smooth again where they can be)
            xs = self._solve_cycle(component, {s: number.fraction(number.total(inflows.pop(s, ())))
                                               for s in component})
            members = set(component)
            for s, x in zip(component, xs):
                x = visits[s] = number.of(x)
                for t, p in self.rows[s].items():
                    if t not in members:
                        inflows.setdefault(t, []).append(number.times(x, p))
        for t, parts in inflows.items():  # the absorbing nodes
            visits[t] = number.total(parts)
        return visits

    def _solve_cycle(self, component, inflow: dict) -> list:
        """Visits to the states of one cycle: x (I − Q_CC) = inflow ⇔ (I − Q_CC)ᵀ xᵀ = inflowᵀ."""
        members = {s: k for k, s in enumerate(component)}
        rows: list[dict] = [{k: ONE} for k in range(len(component))]
        for s, k in members.items():
            for t, p in self.rows[s].items():
                j = members.get(t)
                if j is not None:
                    rows[j][k] = rows[j].get(k, ZERO) - p
        return sparse_solve(rows, [inflow[s] for s in component])


# A short chain's chances have few digits, and Fractions (in C-backed integers) beat Smooth's
# Python bookkeeping there; from this many nodes on, the digits grow enough for Smooth to win.
SMOOTH_FROM = 500

# Denominators below this are factored (by trial division, once each): a dice game's chances
# are counts over 36, their complements, and a choice's 1/n.
SMALL_DENOMINATOR = 1 << 20


class _Rough(ArithmeticError):
    """A chance whose denominator is too large to factor: the chain is solved in Fractions."""


_FACTORS: dict = {}


def _factors(n: int) -> tuple:
    """The prime factors of a small positive integer, with multiplicity: 36 → (2, 2, 3, 3)."""
    found = _FACTORS.get(n)
    if found is None:
        out, m, p = [], n, 2
        while p * p <= m:
            while m % p == 0:
                out.append(p)
                m //= p
            p += 1
        if m > 1:
            out.append(m)
        found = _FACTORS[n] = tuple(out)
    return found


_POWERS: dict = {}


def _power(p: int, e: int) -> int:
    """p ** e, remembered: the same large powers recur when terms from different parts of a
    long game are summed (bounded, so a long solve cannot fill memory with them)."""
    found = _POWERS.get((p, e))
    if found is None:
        if len(_POWERS) > 4096:
            _POWERS.clear()
        found = _POWERS[p, e] = p ** e
    return found


class Smooth:
    """An exact non-negative rational numerator / Π pᵉ kept unnormalised, its denominator a
    product of small primes held as exponents. Multiplying by a small fraction cancels what it
    can against the exponents and multiplies the rest; sums bring the terms to the larger
    exponents. Nothing takes a gcd until `fraction()`, once per figure reported."""

    __slots__ = ("numerator", "exponents")

    def __init__(self, numerator: int, exponents: dict):
        self.numerator = numerator
        self.exponents = exponents  # prime -> power of the denominator

    @classmethod
    def of(cls, value) -> "Smooth":
        value = Fraction(value)
        if value.denominator >= SMALL_DENOMINATOR:
            raise _Rough
        return cls(value.numerator, {}).times(1, value.denominator)

    def times(self, k: int, m: int) -> "Smooth":
        """self · k / m, for a small m (k any non-negative integer)."""
        if m >= SMALL_DENOMINATOR:
            raise _Rough
        if not k:
            return Smooth(0, {})
        exponents = dict(self.exponents)
        numerator = self.numerator
        if k < SMALL_DENOMINATOR:
            for p in _factors(k):
                if exponents.get(p):
                    exponents[p] -= 1
                else:
                    numerator *= p
        else:
            numerator *= k
        for p in _factors(m):
            exponents[p] = exponents.get(p, 0) + 1
        return Smooth(numerator, exponents)

    @staticmethod
    def total(parts) -> "Smooth":
        """The exact sum. Terms arrive roughly in order of growing exponents (sources first), so
        bringing the running sum up to each term multiplies it by a small number."""
        parts = list(parts)
        if len(parts) == 1:
            return parts[0]
        numerator, exponents = 0, {}
        for part in parts:
            n = part.numerator
            if not n:
                continue
            up_sum = up_part = 1
            for p, e in part.exponents.items():
                have = exponents.get(p, 0)
                if e > have:
                    up_sum *= _power(p, e - have)
                    exponents[p] = e
            for p, have in exponents.items():
                e = part.exponents.get(p, 0)
                if have > e:
                    up_part *= _power(p, have - e)
            numerator = numerator * up_sum + n * up_part
        return Smooth(numerator, exponents)

    def fraction(self) -> Fraction:
        denominator = 1
        for p, e in self.exponents.items():
            denominator *= p ** e
        return Fraction(self.numerator, denominator)


class _Fractions:
    """The forward pass's arithmetic in Fractions: short chains, and large prime denominators."""

    of = staticmethod(Fraction)
    fraction = staticmethod(lambda x: x)
    nonzero = staticmethod(bool)

    @staticmethod
    def total(parts) -> Fraction:
        return exact_sum(parts)

    @staticmethod
    def leave(x: Fraction, p_self: Fraction) -> Fraction:
        """x / (1 − p_self): the visits of a state that throws again with chance p_self."""
        return x / (ONE - p_self)

    @staticmethod
    def times(x: Fraction, p: Fraction) -> Fraction:
        return x * p


class _Smooths:
    """The same arithmetic over `Smooth` numbers: no gcd until a figure is read."""

    of = staticmethod(lambda value: Smooth.of(value))
    fraction = staticmethod(lambda x: x.fraction())
    nonzero = staticmethod(lambda x: bool(x.numerator))

    @staticmethod
    def total(parts) -> "Smooth":
        return Smooth.total(parts)

    @staticmethod
    def leave(x: "Smooth", p_self: Fraction) -> "Smooth":
        return x.times(p_self.denominator, p_self.denominator - p_self.numerator)  # x · b / (b − a)

    @staticmethod
    def times(x: "Smooth", p: Fraction) -> "Smooth":
        return x.times(p.numerator, p.denominator)


FRACTIONS, SMOOTH = _Fractions, _Smooths


class Visits:
    """The forward pass's result, {node: expected visits or probability}, read like a dict. Its
    values are made Fractions when read; `total` sums a set of nodes exactly first, so a figure
    over thousands of end states is normalised once, not once per state."""

    def __init__(self, raw: dict, number=FRACTIONS):
        self._raw = raw
        self._number = number  # the arithmetic the values are in
        self._read: dict = {}

    def __getitem__(self, node) -> Fraction:
        found = self._read.get(node)
        if found is None:
            found = self._read[node] = self._number.fraction(self._raw[node])
        return found

    def get(self, node, default=None):
        return self[node] if node in self._raw else default

    def __contains__(self, node) -> bool:
        return node in self._raw

    def __iter__(self):
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def items(self):
        return ((node, self[node]) for node in self._raw)

    def total(self, nodes) -> Fraction:
        """Σ visits over `nodes` (those never reached count 0), normalised once."""
        raw = self._raw
        parts = [raw[n] for n in nodes if n in raw]
        if not parts:
            return ZERO
        return self._number.fraction(self._number.total(parts))


def exact_sum(values) -> Fraction:
    """The exact sum of Fractions, normalised once at the end. The chances of a dice game have
    denominators that divide one another (powers of 36, mostly), so the running sum is kept
    over the larger denominator with a division, not a gcd per addition — the difference
    between seconds and milliseconds when the denominators have thousands of digits."""
    if values.__class__ is list and len(values) == 1 and values[0].__class__ is Fraction:
        return values[0]  # already in lowest terms: no gcd at all
    numerator, denominator = 0, 1
    for value in values:
        n, d = value.numerator, value.denominator
        if d == denominator:
            numerator += n
        elif denominator % d == 0:
            numerator += n * (denominator // d)
        elif d % denominator == 0:
            numerator = numerator * (d // denominator) + n
            denominator = d
        else:
            g = gcd(denominator, d)
            numerator = numerator * (d // g) + n * (denominator // g)
            denominator = denominator // g * d
    return Fraction(numerator, denominator)


def policy_for(machine: Machine, policy: str) -> str:
    """A value policy (`--policy 7`) means something only where there is a choice to make:
    elsewhere (another ruleset of a comparison, another option's machine) it is `optimal`."""
    if policy in ("optimal", "uniform"):
        return policy
    if policy.rpartition("=")[0].strip() == "recast":  # where dice are recast by choice
        recast = machine.recast
        return policy if recast is not None and any(n.kind == CHOICE for n in recast.nodes) else "optimal"
    return policy if any(s.kind == CHOICE for s in machine.states) else "optimal"


class Solver:
    """A machine under a policy: chooses the policy, then solves the chain it makes."""

    def __init__(self, machine: Machine):
        self.machine = machine
        states = machine.states
        self.transient = [s.index for s in states if s.kind != END]
        self.throw_rows = {s.index: _throw_transitions(s, machine.dice) for s in states if s.kind == THROW}
        # the rows of the dice's own throws: where dice are recast, `throw_rows` become the throws
        # that stand under the policy (_stand), and a policy is chosen from these
        self._cast_rows = dict(self.throw_rows)
        self.successors = {s.index: (list(self.throw_rows[s.index]) if s.kind == THROW
                                     else [step.target for _, step in s.alternatives])
                           for s in states if s.kind != END}
        self.recast = machine.recast
        self._landing: dict = {}  # recast: each throw state's and die state's row, off included
        self._alone: dict = {}  # recast: die state -> {where it leads once it lands: chance}
        self._standing: dict = {}  # recast: throw state -> the Dice of the throws that stand there
        self.casts: dict = {}  # recast: throw state -> expected casts (recasts included) per throw that stands
        self._extended = False  # while choosing a policy: rows through the recast states
        self.policy: dict[int, dict[int, Fraction]] = {}  # choice state -> {alternative index: p}
        self._chain: Chain | None = None
        nodes = self._recast_rows() if self.recast is not None else []
        self.components = strongly_connected(self.transient + nodes, lambda n: self.successors[n])

    def _recast_rows(self) -> list[int]:
        """Where the recast states lead, for the components the policy is chosen in, and what
        every solve through them shares: the chance of each way of landing off (`_off`: [0] both
        dice, [way] one die off with the other showing a face, as `Recast.landed` numbers them)
        and where a die thrown alone leads once it lands (`_alone`). The rows themselves are
        made only where a component needs them (`_landing_row`)."""
        machine, recast = self.machine, self.recast
        c = recast.chance
        faces = self._faces = (machine.dice.faces(1), machine.dice.faces(2))
        # one die off, the other showing `shown`: c(1 − c) times the chance of that face
        self._off = [c * c] + [c * (ONE - c) * faces[2 - die_off][shown - 1]
                               for die_off in (1, 2) for shown in range(1, 7)]
        for s, targets in recast.landed.items():
            following = dict.fromkeys(self._cast_rows[s])
            following[s] = None
            following.update(dict.fromkeys(targets[way] for way in range(1, 13) if self._off[way]))
            self.successors[s] = list(following)
        for node in recast.nodes:
            if node.kind == CHOICE:
                self.successors[node.index] = [step.target for _, step in node.alternatives]
                continue
            alone: dict = {}  # where the die thrown alone leads once it lands, and with what chance
            for step, p in zip(node.steps, faces[node.die - 1]):
                if p:
                    alone[step.target] = alone.get(step.target, ZERO) + p
            self._alone[node.index] = alone
            self.successors[node.index] = list(dict.fromkeys([*alone, node.off]))
        # Until a policy is set the dice are taken up again whenever one is off, which leaves
        # the throws that stand with the dice's own chances: `throw_rows` as they are.
        return [node.index for node in recast.nodes]

    def _landing_row(self, number: int) -> dict:
        """The row of a throw state or die state through the recast states: a throw state's
        throws stand with (1 − c)², both dice land off with c², one with c(1 − c) times the
        other's face; a die thrown alone lands with 1 − c, off again with c."""
        found = self._landing.get(number)
        if found is not None:
            return found
        c = self.recast.chance
        if number < len(self.machine.states):
            flat = (ONE - c) ** 2
            row = {t: p * flat for t, p in self._cast_rows[number].items()}
            row[number] = row.get(number, ZERO) + self._off[0]
            targets = self.recast.landed[number]
            for way in range(1, 13):
                if self._off[way]:
                    row[targets[way]] = row.get(targets[way], ZERO) + self._off[way]
        else:
            node = self.machine.node(number)
            row = {t: (ONE - c) * p for t, p in self._alone[number].items()}
            row[node.off] = row.get(node.off, ZERO) + c
        self._landing[number] = row
        return row

    def alone(self, choice: int) -> Fraction:
        """The chance that at recast choice state `choice` the off die is recast alone (rather
        than both dice), under the policy (none set yet: both)."""
        alternatives = self.machine.node(choice).alternatives
        return sum((p for k, p in self.policy.get(choice, {}).items() if alternatives[k][0] == "off"), ZERO)

    def throw_dice(self, number: int):
        """The chance of each of the 36 throws that *stand* at throw state `number` (a `Dice`):
        the machine's dice, unless dice land off and are recast by the players' choices, which
        change, state by state, which throws stand. Consumers that weigh a throw state's 36
        steps (bets, the throw distribution, the simulator) read this, not `machine.dice`."""
        return self._standing.get(number, self.machine.dice)

    def _stand(self) -> None:
        """The throws that stand at each throw state under the recast policy, in closed form.

        From a throw state, a cast stands with (1 − c)²; both dice off, or one die off and the
        dice taken up again, start over; one die off with the other showing f goes to where the
        rules send it. A die thrown alone until it lands gives face g with its own chance; at a
        choice, recasting the off die alone with probability a (and both with 1 − a) visits the
        choice 1 / (1 − a·c) times, so the throw (f, g) stands with a(1 − c)·p(g) / (1 − a·c)
        and the dice start over with (1 − a) / (1 − a·c). Normalising by what does not start
        over gives the chance of each throw that stands; the casts count every throw of both
        dice and of one die."""
        from math import lcm

        from ..compile.machine import Dice

        machine, recast = self.machine, self.recast
        c = recast.chance
        faces = self._faces
        flat = [Fraction(w, machine.dice.total) * (ONE - c) ** 2 for w in machine.dice.weights]
        lands_by_way = self._off
        known: dict = {}  # what each way of landing off does -> (the Dice that stand, casts)
        for s, targets in recast.landed.items():
            ways = []  # per way: None (the dice start over) or (the die state, chance it is thrown alone)
            for way in range(1, 13):
                target = targets[way]
                node = machine.node(target) if target != s else None
                if node is None or not lands_by_way[way]:
                    ways.append(None)
                elif node.kind == CHOICE:
                    alone = self.alone(target)
                    thrown = next(step.target for v, step in node.alternatives if v == "off")
                    ways.append((machine.node(thrown).outcomes, alone) if alone else None)
                else:
                    ways.append((node.outcomes, None))
            key = tuple(ways)
            found = known.get(key)
            if found is None:
                stands = list(flat)
                again = lands_by_way[0]
                die_casts = ZERO
                for way, how in enumerate(ways, 1):
                    m = lands_by_way[way]
                    if how is None:
                        again += m
                        continue
                    outcomes, alone = how
                    if alone is None:  # a die thrown alone until it lands
                        lands, die_casts = m, die_casts + m / (ONE - c)
                    else:
                        visits = ONE / (ONE - alone * c)
                        again += m * (ONE - alone) * visits
                        lands, die_casts = m * alone * (ONE - c) * visits, die_casts + m * alone * visits
                    die = 1 if way <= 6 else 2
                    for o, p in zip(outcomes, faces[die - 1]):
                        stands[o] += lands * p
                stands = [p / (ONE - again) for p in stands]
                scale = lcm(*(p.denominator for p in stands))
                found = known[key] = (Dice(tuple(int(p * scale) for p in stands), scale),
                                      (ONE + die_casts) / (ONE - again))
            self._standing[s], self.casts[s] = found
            self.throw_rows[s] = _throw_transitions(machine.states[s], found[0])
        self._chain = None

    def row(self, number: int) -> dict:
        """Transition probabilities out of a transient state under the current policy (while a
        policy is chosen where dice are recast: through the recast states)."""
        if self._extended and (number in self.recast.landed or number in self._alone):
            return self._landing_row(number)
        if number in self.throw_rows:
            return self.throw_rows[number]
        state = self.machine.node(number)
        row: dict[int, Fraction] = {}
        for alt, p in self.policy[number].items():
            target = state.alternatives[alt][1].target
            row[target] = row.get(target, ZERO) + p
        return row

    @property
    def chain(self) -> Chain:
        if self._chain is None:
            self._chain = Chain({s: self.row(s) for s in self.transient})
        return self._chain

    # ------------------------------------------------------------------ policies

    def set_policy(self, policy: str = "optimal") -> None:
        """`optimal`, `uniform`, or a value to choose wherever it is offered (`7` or `main=7`).
        Where dice are recast, `recast=off` or `recast=both` fixes the caster's recast; any
        other value policy leaves the recast to his best reply."""
        choice_states = [s for s in self.machine.states if s.kind == CHOICE]
        recasts = [n for n in self.recast.nodes if n.kind == CHOICE] if self.recast is not None else []
        self.policy = {}
        self._chain = None
        try:
            self._set_policy(policy, choice_states, recasts)
        finally:
            if self.recast is not None:
                self._stand()

    def _set_policy(self, policy: str, choice_states: list, recasts: list) -> None:
        if policy == "optimal":
            self._optimal()
            return
        variable, _, wanted = policy.rpartition("=")
        of_recast = variable.strip() == "recast"
        if of_recast and not recasts:
            raise PolicyArgumentError(Arg("policy", value=policy),
                                      f"no dice are recast by choice in {self.machine.ruleset.name}")
        if policy != "uniform" and not choice_states and not recasts:
            raise PolicyArgumentError(Arg("policy", value=policy), f"{self.machine.ruleset.name} has no choices "
                                                                   f"to make (use optimal or uniform)")
        for state in choice_states + recasts:
            n = len(state.alternatives)
            if policy == "uniform":
                self.policy[state.index] = {k: Fraction(1, n) for k in range(n)}
                continue
            if (state.variable == "recast" and state.index >= len(self.machine.states)) != of_recast:
                continue  # chosen below, as the chooser's best reply to the policy given
            if variable and variable.strip() != state.variable:
                raise PolicyArgumentError(Arg("policy", value=policy),
                                          f"the choice here is of {state.variable!r}, not {variable!r}")
            matches = [k for k, (value, _) in enumerate(state.alternatives) if str(value) == wanted.strip()]
            if not matches:
                offered = ", ".join(str(v) for v, _ in state.alternatives)
                raise PolicyArgumentError(Arg("policy", value=policy), f"use optimal, uniform, or a value the "
                                          f"{state.chooser} can choose for {state.variable}: {offered}")
            self.policy[state.index] = {matches[0]: ONE}
        if policy != "uniform" and len(self.policy) < len(choice_states) + len(recasts):
            self._optimal(fixed=set(self.policy))

    def _optimal(self, fixed: set = frozenset()) -> None:
        """Each chooser's best reply, solved sinks first (policy iteration inside cycles); the
        choices in `fixed` keep the policy they have."""
        node = self.machine.node
        if not any(node(n).kind == CHOICE for component in self.components for n in component):
            return  # nothing to choose: no values to weigh
        value: dict[int, Fraction] = {}
        for s in self.machine.end_states():
            value[s.index] = ONE if s.result == "win" else (-ONE if s.result == "lose" else ZERO)
        self._extended = self.recast is not None
        try:
            for component in self.components:
                if self.recast is not None and self._recast_alone(component, value, fixed):
                    continue
                choices = [n for n in component if node(n).kind == CHOICE and n not in fixed]
                for n in choices:
                    self.policy[n] = {0: ONE}
                for _ in range(MAX_POLICY_ROUNDS):
                    solve_component(component, self.row, value, {})
                    changed = False
                    for n in choices:
                        state = node(n)
                        current = next(iter(self.policy[n]))
                        scores = [value[step.target] for _, step in state.alternatives]
                        pick = max if maximises(state.chooser) else min
                        best = pick(scores)
                        if scores[current] != best:
                            self.policy[n] = {scores.index(best): ONE}
                            changed = True
                    if not changed:
                        break
                else:  # pragma: no cover - policy iteration on a finite game ends
                    raise PolicyError("the choices of this game do not settle on an optimal policy")
        finally:
            self._extended = False

    def _recast_alone(self, component: list, value: dict, fixed) -> bool:
        """One throw state and its recast states, their choices made, in closed form (False:
        the component is not that, and is solved as any other).

        Whatever is chosen, the component's value is a function of v, the throw state's own
        value: a throw that stands leads out (known values) or back (v); recasting both is v;
        the off die recast alone until it lands is worth a + b·v, the mean over its faces (the
        landings off again start the same choice over, so they do not weigh). So v solves
        v = (1 − c)²·E[W] + c²·v + Σ m·(v or a + b·v), one linear equation per set of choices:
        policy iteration on that one number, instead of on a system of 25 states."""
        states, recast = self.machine.states, self.recast
        throws = [n for n in component if n < len(states)]
        if len(throws) != 1 or states[throws[0]].kind != THROW:
            return False
        s = throws[0]
        node = self.machine.node
        c = recast.chance

        flat = (ONE - c) ** 2
        base_a, base_b = ZERO, self._off[0]  # reaching a target is worth a + b·v: (value, 0), or (0, 1) for s
        for target, p in self._cast_rows[s].items():
            if target == s:
                base_b += flat * p
            else:
                base_a += flat * p * value[target]
        ways = []  # (m, the choice state or None, (a, b) of the off die alone)
        landed = recast.landed[s]
        for way in range(1, 13):
            m = self._off[way]
            target = landed[way]
            if not m:
                continue
            if target == s:
                base_b += m
                continue
            here = node(target)
            thrown = here if here.kind != CHOICE else node(next(st.target for v, st in here.alternatives if v == "off"))
            a = b = ZERO
            for t, q in self._alone[thrown.index].items():
                if t == s:
                    b += q
                else:
                    a += q * value[t]
            ways.append((m, here if here.kind == CHOICE else None, (a, b), thrown))
            if here.kind == CHOICE:
                self.policy.setdefault(here.index, {0: ONE})

        def alone_share(choice) -> Fraction:
            return ONE if choice is None else self.alone(choice.index)

        # In floats first, to find the choices in a round or two; then exactly, from those
        # choices, until no choice changes (normally one round: it proves them best).
        floats = [(float(m), choice, (float(a), float(b)), thrown) for m, choice, (a, b), thrown in ways]
        for exact in (False, True):
            one = ONE if exact else 1.0
            number = (lambda x: x) if exact else float
            terms = ways if exact else floats  # (each way's figures converted once, not each round)
            for _ in range(MAX_POLICY_ROUNDS):
                total_a, total_b = number(base_a), number(base_b)
                for m, choice, (a, b), _ in terms:
                    alone = number(alone_share(choice))
                    total_a += m * alone * a
                    total_b += m * (alone * b + one - alone)
                v = total_a / (one - total_b)
                changed = False
                for m, choice, (a, b), _ in terms:
                    if choice is None or choice.index in fixed:
                        continue
                    scores = [a + b * v if alt == "off" else v for alt, _ in choice.alternatives]
                    current = next(iter(self.policy[choice.index]))
                    best = (max if maximises(choice.chooser) else min)(scores)
                    if scores[current] != best and (exact or abs(scores[current] - best) > 1e-12):
                        self.policy[choice.index] = {scores.index(best): ONE}
                        changed = True
                if not changed:
                    break
            else:  # pragma: no cover - two alternatives per choice, each round better: it ends
                raise PolicyError("the recast choices do not settle on an optimal policy")
        value[s] = v
        for m, choice, (a, b), thrown in ways:
            alone_value = a + b * v
            if choice is None:
                value[thrown.index] = alone_value
                continue
            alone = self.alone(choice.index)
            value[choice.index] = alone * alone_value + (ONE - alone) * v
            # the die thrown alone: it lands (its mean) or is off again, back at the choice
            value[thrown.index] = (ONE - c) * alone_value + c * value[choice.index]
        return True

    # ------------------------------------------------------------------ solving

    def backward(self, reward, cost=None) -> dict[int, Fraction]:
        """Expected reward(end state) at the end plus cost(state) per visit, from every state."""
        return self.chain.backward(lambda n: reward(self.machine.states[n]), cost,
                                   [s.index for s in self.machine.end_states()])

    def forward(self) -> dict[int, Fraction]:
        """Expected visits to each transient state, and the probability of each end state, from the start."""
        return self.chain.forward({self.machine.start.target: ONE})


def gauss(matrix: list[list[Fraction]]) -> list[Fraction]:
    """Solve an augmented square system exactly (Gauss-Jordan with pivot search), in place. For a
    small dense system whose matrix is no M-matrix (a bet's long-run shares, solve.bets): the
    chain's own solves use `sparse_solve`, which needs no pivots and bounds its work."""
    size = len(matrix)
    for col in range(size):
        pivot = next((r for r in range(col, size) if matrix[r][col] != 0), None)
        if pivot is None:  # pragma: no cover - the checker refuses games that may never end
            raise ArithmeticError("singular system: some states never reach an end")
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        lead = matrix[col][col]
        pivot_row = [x / lead for x in matrix[col]]
        matrix[col] = pivot_row
        for r in range(size):
            if r != col and matrix[r][col] != 0:
                factor = matrix[r][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], pivot_row)]
    return [matrix[r][size] for r in range(size)]
