"""Explorations shared among option values: what one compilation of a ruleset can lend the next.

Compiling a ruleset under several settings of its options (`analyse`'s table of each option's
effect, `check` going through the combinations, the workbench's sweeps) explores the same game
again and again. Most of that work is the same work:

- settings that agree on every option the game reads reach the same game (`Explored.games`);
- settings that explore alike (`Shapes.key`: the options the rules read, whether dice land off,
  the dice's loading where a rule reads its weights) reach the same states, fire the same rules
  and find the same problems; only the chances on the steps differ (`Shapes.reshaped`);
- settings that explore differently still share their throws (`Shapes.throws_from`): what a
  throw does from the same values of a phase under the same values of the options it can read;
- a bet compiled against one exploration's machines is the same bet for all of them under the
  same values of the options it reads (`Shapes.compiled_bet`).

And between texts (`BetChecks`): what checking a bet against a game found (`check.game`) is
the same for the next text wherever the bet and the game are the same as data, so a keystroke
in one bet plays only that bet out again.

None of this lives in the module: the caller owns an `Explorations` and hands it to
`compile.compiler.compile_ruleset` (the command line one per run, the server one per folder, the
language service one per set of documents), and everything it holds is bounded by its fields,
so a long-running server holds nothing by accident. Without one, every compilation explores
from scratch: the same machines, only slower. Nothing here is keyed by an object's identity:
a ruleset or a machine is found by `is` among the few kept, and a ruleset not among them by
its game's value (`game_value`): the next text of a document whose game did not change (a
keystroke in a bet, a description) is not explored again.
"""

from __future__ import annotations

import io
import pickle
import threading

from ..model import Ruleset, dice_shape
from ..records import field, record, replace
from .evaluate import bet_options, options_read, reads_weights
from .machine import Machine, dice_for

MAX_REMEMBERED_THROWS = 100_000  # throws kept for other explorations of a ruleset (`Shapes`)
MAX_SHARED_BETS = 256  # compiled bets kept for the other machines of the same exploration (`Shapes`)
MAX_SHARED_BET_NODES = 200_000  # ... and their rows, at most
MAX_CHECKED_GAMES = 16  # games whose bets' checks are kept (`BetChecks`): a few settings of a few texts
MAX_CHECKED_BETS = 1_024  # bets' checks kept in all
MAX_CHECKED_BET_NODES = 400_000  # ... and the rows of their compiled bets, at most


@record
class Found:
    """An exploration kept for settings that explore alike (`Shapes.found`)."""

    exploration: object  # compile.compiler.Exploration
    budget: int  # the most conditions it could try: a larger budget may get further


@record
class Replay:
    """What working out one throw did to an exploration (`compile.compiler._Compiler.throw`), so
    that another exploration can do the same without working it out: the conditions it tried,
    the rules it fired, the phases it entered, the state it asked for (None: no rule handled the
    throw) and the step it made."""

    tests: int
    fired: list  # (phase, rule index)
    entered: list  # phase names
    made: tuple | None  # (key, kind, phase, values, extra): `_Compiler.state`'s arguments
    step: object  # compile.machine.Step


@record
class SharedBet:
    """A bet compiled against the machines of one exploration (`Shapes.compiled_bet`)."""

    states: tuple  # the game's states it was compiled against (held: compared by `is`)
    compiled: object  # compile.bets.CompiledBet


class Shapes:
    """Explorations of one ruleset shared among option values that explore alike (`explore`).

    Exploring reads of the options only what its rules and its `cocked:` rules read, whether
    dice land off at all, and the dice's loading only where a rule reads its weights
    (`weight(t)`): it follows every one of the 36 throws whatever their chances. Two settings
    that agree on these (`key`) reach the same states, fire the same rules and find the same
    problems; only the chances on the steps differ, which `reshaped` puts in.

    Settings that explore differently still share their throws (`throws`): what a throw does
    from a state of a phase reads, of the options, only those its phase's rules read and those
    of the phases without a throw that it may pass through (`throw_reads`); a throw from the same
    values under the same values of those is the same throw in every exploration."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        rules = tuple(ruleset.rules())
        if ruleset.cocked is not None:
            rules += tuple(ruleset.cocked.rules)
        self.reads = tuple(sorted(options_read(rules)))
        self.weights = ruleset.dice is not None and reads_weights(rules)
        self.found: dict = {}  # key -> Found
        self.throws: dict = {}  # (phase, values, what it reads) -> {dice: Replay} (`_Compiler.throw`)
        self.remembered = 0  # throws kept in `throws`
        self.bets: dict = {}  # (explored alike, bet, what it reads) -> SharedBet
        self._bet_reads: dict = {}  # bet -> (the options it reads, whether it reads the dice's weights)
        self._bet_nodes = 0  # (game state, bet state) rows of the bets kept
        self._groups = None  # (states, ThrowGroups): the last game's throws grouped (`compile.bets`)
        passed = options_read(tuple(r for p in ruleset.phases.values() if not p.throws for r in p.rules))
        self._reads = {name: tuple(sorted(options_read(phase.rules) | passed))
                       for name, phase in ruleset.phases.items()}

    def compiled_bet(self, machine: Machine, bet):
        """`compile_bet` of `bet` with `machine`, once for the machines of one exploration (the
        same states, `reshaped`) under the same values of the options the bet reads (and the
        same dice, where it reads their weights): the bet follows every one of the 36 throws
        whatever their chances, so it is the same bet."""
        from .bets import ThrowGroups, compile_bet

        reads = self._bet_reads.get(bet.name)
        if reads is None:
            weights = reads_weights((tuple(r for p in bet.phases.values() for r in p.rules), bet.pays, bet.made,
                                      bet.commission, tuple(bet.multiples.values())))
            reads = self._bet_reads[bet.name] = (tuple(sorted(bet_options(bet))), weights)
        key = (self.key(machine.options), bet.name, tuple(machine.options.get(name) for name in reads[0]),
               machine.dice if reads[1] else None)
        found = self.bets.get(key)
        if found is not None and found.states is machine.states:
            return found.compiled
        if self._groups is None or self._groups[0] is not machine.states:
            self._groups = (machine.states, ThrowGroups(machine.states, machine.outcomes))
        compiled = compile_bet(machine, bet, self._groups[1])
        self._bet_nodes += len(compiled.moves)
        if len(self.bets) >= MAX_SHARED_BETS or self._bet_nodes > MAX_SHARED_BET_NODES:
            self.bets.clear()
            self._bet_nodes = len(compiled.moves)
        self.bets[key] = SharedBet(machine.states, compiled)
        return compiled

    def throws_from(self, here: tuple) -> dict:
        """The throws kept from a state, (its phase, its values, what its throws read of the
        options): {dice: Replay}, filled as they are worked out."""
        return self.throws.setdefault(here, {})

    def remember(self, here: dict, dice, replay: Replay) -> None:
        """Keep what a throw did for other explorations, while fewer than MAX_REMEMBERED_THROWS are."""
        if self.remembered < MAX_REMEMBERED_THROWS:
            here[dice] = replay
            self.remembered += 1

    def forget_throws(self) -> None:
        self.throws.clear()
        self.remembered = 0

    def throw_reads(self, phase: str, options: dict) -> tuple:
        """The values of the options a throw in `phase` can read (and the dice's loading, where
        a rule reads its weights)."""
        read = tuple(options[name] for name in self._reads[phase])
        return (read, self.ruleset.dice.loading(options)) if self.weights else read

    def key(self, options: dict) -> tuple:
        cocked = self.ruleset.cocked
        return (tuple(options.get(name) for name in self.reads),
                self.ruleset.dice.loading(options) if self.weights else None,
                bool(cocked.chance(options)) if cocked is not None else None)

    def reshaped(self, machine: Machine, options: dict) -> Machine:
        """`machine`, explored under option values of the same `key` as `options`, under
        `options`: their dice and their chance of a die landing off (no bets, fees or passing)."""
        ruleset = self.ruleset
        dice = dice_for(ruleset.dice.loading(options) if ruleset.dice is not None else None, dice_shape(ruleset))
        recast = machine.recast
        if recast is not None:
            recast = replace(recast, chance=ruleset.cocked.chance(options))
        return replace(machine, options=dict(options), dice=dice, recast=recast, bets={}, fees={}, passing=None)


class BetChecks:
    """What checking one bet against one game found (`check.game._check_bets`), kept for the
    next text checked: a keystroke in one bet plays only that bet out again.

    Found by value, never by identity, since every keystroke reads a new ruleset: the game by
    `game_key` (its explored machine as data: states, start, dice, recasts, the option values,
    and the words a message may say), the bet by `bet_key` (its whole definition, positions
    included, so a bet moved by an edit above it is played again: its diagnostics stand
    elsewhere). What is kept is whatever the check needs to say the same again: the compiled
    bet (its rules fired, its rows counted against the bound) and the error its playing out
    raised. Bounded by MAX_CHECKED_GAMES, MAX_CHECKED_BETS and MAX_CHECKED_BET_NODES: past
    them the oldest game's are dropped."""

    def __init__(self, max_games: int = MAX_CHECKED_GAMES, max_bets: int = MAX_CHECKED_BETS,
                 max_nodes: int = MAX_CHECKED_BET_NODES):
        self.max_games, self.max_bets, self.max_nodes = max_games, max_bets, max_nodes
        self._lock = threading.Lock()  # the language service checks versions on worker threads
        self._games: dict = {}  # game key -> {bet key: (compiled bet or None, exception or None)}, oldest first
        self._bets = self._nodes = 0
        self._reads: dict = {}  # bet key -> the options it reads (`reads`)
        self.played = 0  # bets played out (not found here): what a test counts
        self.found = 0  # bets found here

    @staticmethod
    def game_key(machine: Machine) -> tuple:
        """The game a bet is played against, as data: everything of `machine` that compiling a
        bet (`compile.bets`) and playing it out (`solve.bets.BetTable`) read, and the ruleset's
        words, labels and name, which their messages may say. A step's rule stands as its phase
        and number (no bet reads more of it): hashing the rules' trees, positions and all, for
        every game of every keystroke cost more than the bets it spared. A variable's description
        is left out: no bet reads it, nor does a message say it."""
        def step(s) -> tuple:
            return s.target, s.events, (s.rule.phase, s.rule.index) if s.rule is not None else None

        states = tuple((s.index, s.kind, s.phase, s.values, tuple(map(step, s.steps)), s.chooser, s.variable,
                        tuple((value, step(at)) for value, at in s.alternatives), s.result, s.label, s.die, s.shown,
                        s.parent, s.off, s.outcomes, s.dice, s.kept) for s in machine.states)
        ruleset = machine.ruleset
        # the small parts as bytes (a recast's and some option values hold dicts)
        small = (pickle.dumps(machine.recast, 5),  # (explored: the same states where the game is)
                 _as_data((sorted(machine.options.items()), ruleset.name, ruleset.words, ruleset.labels,
                           _described_not(ruleset.variables))))
        return machine.variables, states, step(machine.start), machine.dice, small

    @staticmethod
    def bet_key(bet, rules: tuple = ()) -> bytes:
        """The bet as data, positions included; with the game's rules where it plays a game of
        its own (`rules`: it reads them, and a message may stand at one)."""
        return pickle.dumps((bet, rules) if bet.own_game else bet, 5)

    def reads(self, bet_key: bytes, bet) -> set:
        """`evaluate.bet_options(bet)`, the options the bet reads, kept by its key."""
        found = self._reads.get(bet_key)
        if found is None:
            from .evaluate import bet_options

            found = bet_options(bet)
            with self._lock:
                if len(self._reads) >= max(1, self.max_bets):
                    self._reads.clear()
                self._reads[bet_key] = found
        return found

    def of(self, game_key: tuple) -> dict:
        """The bets' checks kept for this game (filled by `keep`)."""
        with self._lock:
            found = self._games.pop(game_key, None)
            if found is None:
                found = {}
                while len(self._games) >= max(1, self.max_games):
                    self._drop()
            self._games[game_key] = found  # the newest last
            return found

    def keep(self, kept: dict, bet_key: bytes, result: tuple) -> None:
        """Keep `result` in `kept` (the newest game's, from `of`), the oldest games' dropped to
        make room."""
        nodes = len(result[0].moves) if result[0] is not None else 0
        with self._lock:
            if nodes > self.max_nodes:
                return
            while self._games and (self._bets >= max(1, self.max_bets) or self._nodes + nodes > self.max_nodes):
                self._drop()  # the oldest first: `kept`, the newest, last
            if not any(games is kept for games in self._games.values()):
                return  # dropped to make room (or by another thread's check): kept no more
            kept[bet_key] = result
            self._bets += 1
            self._nodes += nodes

    def _drop(self) -> None:
        oldest = self._games.pop(next(iter(self._games)))
        self._bets -= len(oldest)
        self._nodes -= sum(len(c.moves) for c, _ in oldest.values() if c is not None)

    def __len__(self) -> int:
        return self._bets


def _described_not(variables) -> tuple:
    """The variables as the game reads them: without their descriptions (prose for a reader)."""
    return tuple((name, replace(v, description=None)) for name, v in variables.items())


def game_value(ruleset: Ruleset) -> bytes:
    """The ruleset's game as data: everything an exploration of it reads (its phases and rules,
    positions included, so that a rule moved by an edit above it is explored again: its
    diagnostics stand elsewhere; its dice, options, variables, words and labels), and nothing
    it does not — its bets and fees, its prose (descriptions, sources, notes, printed
    figures), the reading's warnings and the digests of the text."""
    game = replace(ruleset, bets={}, fees={}, printed=(), sources=(), notes=(), description=None,
                   warnings=(), digest="", rules_digest="", variables=dict(_described_not(ruleset.variables)))
    return _as_data(game)


def _as_data(value) -> bytes:
    """`value` pickled without the pickler's memo: with it, the bytes say which parts are one
    object (a file's name held once or twice), and a text read partly from sections kept
    (`parse.sections.SectionNodes`) shares them otherwise than the same text read whole."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, 5)
    pickler.fast = True
    try:
        pickler.dump(value)
    except Exception:  # noqa: BLE001 - a part that holds itself (or that the fast pickler
        # cannot take): with the memo, which finds it again less often, never wrongly
        return pickle.dumps(value, 5)
    return out.getvalue()


@record
class Explored:
    """One ruleset's explorations (`Explorations`): the options its game reads, the game under
    each setting of them, and what its explorations share (`Shapes`)."""

    ruleset: Ruleset
    reads: frozenset  # the options the game reads (`evaluate.game_options`)
    shapes: Shapes
    games: dict = field(default_factory=dict)  # their values, sorted -> the game's Machine
    value: bytes | None = None  # `game_value(ruleset)`, once asked for

    def game_value(self) -> bytes:
        if self.value is None:
            self.value = game_value(self.ruleset)
        return self.value

    def lent_to(self, ruleset: Ruleset) -> "Explored":
        """These explorations for `ruleset`, another ruleset of the same `game_value`: the same
        games, explored alike and thrown alike, each machine now `ruleset`'s (a bet is compiled
        from its machine's ruleset, and a message says its words). The compiled bets are not
        lent: they are kept by the bet's name, and a bet of that name may differ."""
        def moved(machine):
            return None if machine is None else replace(machine, ruleset=ruleset)

        old = self.shapes
        shapes = Shapes.__new__(Shapes)
        shapes.__dict__.update(old.__dict__)
        shapes.ruleset = ruleset
        shapes.found = {key: replace(found, exploration=replace(found.exploration,
                                                                  machine=moved(found.exploration.machine)))
                        for key, found in old.found.items()}
        shapes.bets, shapes._bet_reads, shapes._bet_nodes, shapes._groups = {}, {}, 0, None
        return Explored(ruleset, self.reads, shapes, {key: moved(m) for key, m in self.games.items()},
                        self.value)


class Explorations:
    """What compilations of the same rulesets share (see the module's docstring), owned by the
    caller and bounded: the last `max_rulesets` rulesets compiled, for each the game under at
    most `max_games` settings of the options it reads, and no game of more than `max_states`
    states (a larger one costs more to hold than to explore again).

        explorations = Explorations()
        for value in ("lose", "rethrow"):
            compile_ruleset(ruleset, {"first_throw": value}, explorations=explorations)
    """

    def __init__(self, max_rulesets: int = 8, max_games: int = 16, max_states: int = 20_000,
                 bet_checks: bool = True):
        self.max_rulesets = max_rulesets
        self.max_games = max_games
        self.max_states = max_states
        self._explored: list = []  # Explored, the oldest first
        self._lock = threading.Lock()  # the language service compiles on worker threads
        # bets checked against games, for the next text checked; none for one run of a command,
        # which checks each text once (keying every game and bet was a tenth of a `check`)
        self.bet_checks = BetChecks() if bet_checks else None
        self.lent = 0  # explorations found by their game's value for another ruleset: what a test counts

    def of(self, ruleset: Ruleset) -> Explored:
        """The ruleset's explorations: its own, or those of a ruleset kept whose game is the same
        as data (`game_value`: the text before a keystroke outside the game), or begun now; the
        oldest ruleset's dropped to make room."""
        with self._lock:
            for explored in self._explored:
                if explored.ruleset is ruleset:
                    return explored
        value = game_value(ruleset)
        with self._lock:
            for k, explored in enumerate(self._explored):
                if explored.game_value() == value:
                    explored = explored.lent_to(ruleset)
                    del self._explored[k]  # the newest last: the text before it is seldom checked again
                    self._explored.append(explored)
                    self.lent += 1
                    return explored
        from .evaluate import game_options

        explored = Explored(ruleset, frozenset(game_options(ruleset)), Shapes(ruleset), value=value)
        with self._lock:
            while len(self._explored) >= max(1, self.max_rulesets):
                self._explored.pop(0)
            self._explored.append(explored)
        return explored

    def shapes(self, ruleset: Ruleset) -> Shapes:
        """What explorations of `ruleset` share (`explore(…, shared=)`, `Shapes.compiled_bet`)."""
        return self.of(ruleset).shapes

    def held(self) -> dict:
        """What is held now, by kind: rulesets, games, kept explorations, throws, bets."""
        return {"rulesets": len(self._explored),
                "games": sum(len(e.games) for e in self._explored),
                "explorations": sum(len(e.shapes.found) for e in self._explored),
                "throws": sum(e.shapes.remembered for e in self._explored),
                "bets": sum(len(e.shapes.bets) for e in self._explored),
                "checked bets": len(self.bet_checks or ())}

    def __repr__(self) -> str:
        held = ", ".join(f"{n} {k}" for k, n in self.held().items())
        return f"<Explorations: {held}>"
