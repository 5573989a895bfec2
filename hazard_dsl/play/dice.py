"""Where throws come from: seeded random dice, or a tape of given throws for replay."""

from __future__ import annotations

import re

import numpy as np

from ..errors import Arg, ArgumentError

MAX_TAPE_THROWS = 100_000

# A throw is its faces, die1 first, joined by `-`: 3-4 for two dice, 3-3-5 for three; x: that die
# landed off (cocked or wild). How many faces, and which, the dice in play say (`DiceTape.load`).
_THROW = re.compile(r"^([1-9][0-9]?|[xX])(?:-([1-9][0-9]?|[xX])){1,4}$")
_DIE = re.compile(r"^([1-9][0-9]?|[xX])$")  # one die recast alone; or one die thrown
MAX_FACE = 20  # (parse.reader's MAX_SIDES: a face past it is no die's)
RECAST_WORDS = ("off", "both")  # a recast scripted on a tape: the off die alone, or both dice


class TapeEnded(Exception):
    """The scripted throws ran out."""


class RandomDice:
    """The dice from an explicit, seeded `numpy.random.Generator` (no global state): fair, or
    loaded as the machine's `Dice` say; two six-sided dice unless the machine's are others. A
    loaded die draws a whole number below its faces' common denominator and reads the face off
    the cumulative weights, so its chances are exact."""

    def __init__(self, seed: int | None = None, generator: np.random.Generator | None = None, dice=None):
        self.seed = seed
        self.generator = generator if generator is not None else np.random.default_rng(seed)
        self.loaded = None
        self.count, self.sides = 2, 6
        self.load(dice)

    def load(self, dice, recast=None, lots: bool = False) -> "RandomDice":
        """Throw with these dice (the machine's `Dice`; None or fair: two fair dice). Dice that may
        land off (`recast`), and a die thrown for the first cast (`lots`), need nothing more here:
        each cast is told their chance."""
        self.loaded = None
        if dice is not None:
            self.count, self.sides = dice.count, dice.sides
        if dice is not None and not dice.fair:
            from math import lcm

            self.loaded = []
            for die in range(1, dice.count + 1):
                faces = dice.faces(die)
                scale = lcm(*(p.denominator for p in faces))
                cumulative, running = [], 0
                for p in faces:
                    running += int(p * scale)
                    cumulative.append(running)
                self.loaded.append((scale, np.array(cumulative)))
        return self

    def throw(self) -> tuple:
        """The faces of one throw, die1 first."""
        if self.loaded is None:
            return tuple(int(d) for d in self.generator.integers(1, self.sides + 1, size=self.count))
        return tuple(self._face(k) for k in range(self.count))

    def _face(self, k: int) -> int:
        if self.loaded is None:
            return int(self.generator.integers(1, self.sides + 1))
        scale, cumulative = self.loaded[k]
        u = int(self.generator.integers(0, scale))
        return int(np.searchsorted(cumulative, u, side="right")) + 1

    def _off(self, chance) -> bool:
        """Whether a die lands off, exactly: a whole number below the chance's denominator."""
        return int(self.generator.integers(0, chance.denominator)) < chance.numerator

    def cast(self, chance) -> tuple:
        """The dice cast; a die that lands off (with `chance`, each on its own) shows None."""
        return tuple(None if self._off(chance) else d for d in self.throw())

    def cast_die(self, die: int, chance):
        """One die (1 for the first) recast alone: its face, or None if it lands off again."""
        face = self._face(die - 1)
        return None if self._off(chance) else face

    def cast_dice(self, dice: tuple, chance) -> tuple:
        """The dice `dice` (die numbers) recast together, each as `cast_die`: their faces, None
        for one that lands off again."""
        return tuple(self.cast_die(die, chance) for die in dice)

    def lot(self) -> int:
        """One die (the first, as the rules load it) thrown for the first cast. A lot's die that
        lands off is simply thrown again, which changes no face's chance, so it always shows one."""
        return self._face(0)


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


class DiceTape:
    """Throws given in advance, e.g. ``"3-4 6-6 1-2"`` (commas allowed between them). Where dice
    land off, ``x-4`` is a cast with the first die off and the second showing 4 (``x-x``: both
    off), a lone face ``5`` (or ``x``) is a die recast alone, and fewer faces than the dice
    (``5-x`` of three dice) the dice off recast together. Where the players throw one
    die each for the first cast (`passing: first: lowest_die`), those throws come first on the
    tape, each a lone face: ``"3 5 3 2 6 …"``."""

    def __init__(self, throws: list):
        self.throws = list(throws)  # (die1, die2, …) with None for a die off; or a single face (int or None)
        self.used = 0
        self.shape = None  # the dice's words, once `load` (or `parse` given a game) says them

    @classmethod
    def parse(cls, text: str, game=None) -> "DiceTape":
        """The throws `text` writes; ArgumentError (of the `dice` argument) saying what to write,
        in the words of `game`'s dice (a Ruleset or a Machine: how many dice, their faces, and
        whether they may land off; None: Hazard's two six-sided dice, which may)."""
        shape = _Shape.of(game)
        if not isinstance(text, str):
            # a Python caller's (or a JSON body's) number or list: the tape is text, as typed
            given = repr(text)
            raise ArgumentError(Arg("dice", value=text) if len(given) <= 40 else Arg("dice"),
                                f": a tape of throws is text, such as \"{shape.examples()}\", not "
                                f"{_a(type(text).__name__)}")
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise ArgumentError(Arg("dice"), f"needs throws such as \"{shape.examples()}\"")
        if len(tokens) > MAX_TAPE_THROWS:
            raise ArgumentError(Arg("dice"), f"takes at most {MAX_TAPE_THROWS} throws")
        throws: list = []
        for number, token in enumerate(tokens, 1):
            match = _THROW.match(token)
            if match:
                throws.append(tuple(_face(g) for g in token.split("-")))
                continue
            match = _DIE.match(token)
            if match:
                throws.append(_face(match.group(1)))
                continue
            if token.lower() in RECAST_WORDS:
                throws.append(token.lower())
                continue
            raise ArgumentError(Arg("dice"), f"throw {number} is {token[:20]!r}; {shape.words()}")
        tape = cls(throws)
        tape.shape = shape if game is not None else None
        return tape

    def load(self, dice=None, recast=None, lots: bool = False) -> "DiceTape":
        """Refuse casts these dice cannot make: a throw of other dice than these (too many or too
        few faces, a face no die of theirs has), a die off, or one recast alone, where dice never
        land off. With `lots` (each player throws one die for the first cast) the lone faces
        that open the tape are those throws. `dice`: the machine's Dice (None: two six-sided)."""
        count, sides = (2, 6) if dice is None else (dice.count, dice.sides)
        self.shape = shape = _Shape(count, sides, tuple(getattr(dice, "names", ()) or ()), recast is not None)
        for number, item in enumerate(self.throws, 1):
            faces = item if isinstance(item, tuple) else (item,) if isinstance(item, int) else ()
            # (narrower where dice land off: the dice off recast together, `5-x` of three dice)
            narrower = recast is not None and isinstance(item, tuple) and len(item) < count
            if isinstance(item, tuple) and len(item) != count and not narrower or \
                    any(f is not None and f > sides for f in faces):
                raise ArgumentError(Arg("dice"), f"throw {number} is {_token(item)!r}; {shape.words()}")
        if count == 1 and not lots:  # one die: a lone face is a throw (no die is ever recast alone)
            self.throws = [(item,) if isinstance(item, int) or item is None else item for item in self.throws]
        if recast is None:
            leading = 0
            while lots and leading < len(self.throws) and isinstance(self.throws[leading], int):
                leading += 1
            for number, item in enumerate(self.throws[leading:], leading + 1):
                if not isinstance(item, tuple) or None in item:
                    raise ArgumentError(Arg("dice"), f"throw {number} is {_token(item)!r}, but the dice of these "
                                        f"rules never land off (no cocked: chance): write {shape.faces()}, "
                                        f"like {shape.example()}")
        return self

    def _next(self):
        if self.used >= len(self.throws):
            raise TapeEnded
        self.used += 1
        item = self.throws[self.used - 1]
        if isinstance(item, str):
            raise _wrong(self.used, item, "a throw; `off` or `both` come only where a die is off and a player "
                         "picks what is recast")
        return item

    def recast(self, node):
        """The recast the tape scripts here (`off` or `both`, the index of that alternative), or
        None to leave it to the player or the policy."""
        if self.used < len(self.throws) and isinstance(self.throws[self.used], str):
            word = self.throws[self.used]
            values = [value for value, _ in node.alternatives]
            if word not in values:
                raise _wrong(self.used + 1, word, f"one of {', '.join(values)}")
            self.used += 1
            return values.index(word)
        return None

    def throw(self) -> tuple[int, int]:
        item = self._next()
        if not isinstance(item, tuple) or None in item:
            shape = self.shape or _Shape()
            raise _wrong(self.used, item, f"a throw of {shape.every()} that stands, like {shape.example()}")
        return item

    def cast(self, chance=None) -> tuple:
        item = self._next()
        # a cast is of every die: fewer faces are a recast's (5-x of three dice), never a cast
        if not isinstance(item, tuple) or (self.shape is not None and len(item) != self.shape.count):
            shape = self.shape or _Shape()
            raise _wrong(self.used, item, f"a cast of {shape.every()}, like {shape.example()} "
                         f"({shape.example(off=True)} if the first lands off)")
        return item

    def cast_die(self, die: int, chance=None):
        item = self._next()
        if isinstance(item, tuple):
            raise _wrong(self.used, item, f"die {die} recast alone: one face, like 5 (x if it lands off again)")
        return item

    def cast_dice(self, dice: tuple, chance=None) -> tuple:
        """The dice `dice` recast together: as many faces as there are dice, like 5-x."""
        item = self._next()
        if not isinstance(item, tuple) or len(item) != len(dice):
            many = "-".join(("5", "x", "3", "2")[:len(dice)])
            raise _wrong(self.used, item, f"dice {', '.join(map(str, dice))} recast together: {len(dice)} faces, like "
                         f"{many} (x for one that lands off again)")
        return item

    def lot(self) -> int:
        item = self._next()
        if not isinstance(item, int):
            raise _wrong(self.used, item, "one die thrown for the first cast: a lone face, like 5")
        return item

    @property
    def exhausted(self) -> bool:
        return self.used >= len(self.throws)


def tape_words(count: int, sides: int, names: tuple = (), off: bool = True) -> str:
    """How a tape writes a throw of these dice (`names`: the faces' names, face 1 first; `off`:
    the dice may land off, `cocked:`, and the tape says what is recast)."""
    return _Shape(count, sides, names, off).words()


class _Shape:
    """The dice a tape's words are about: how many, their faces (numbered, and named where the
    rules name them), and whether they may land off. Every example is made from these, so that
    a tape of three dice is never shown a throw of two."""

    def __init__(self, count: int = 2, sides: int = 6, names: tuple = (), off: bool = True):
        self.count, self.sides, self.names, self.off = count, sides, tuple(names), off

    @classmethod
    def of(cls, game) -> _Shape:
        """A Machine's dice (its `recast` says whether they land off), a Ruleset's (its
        `cocked:`), or Hazard's two six-sided dice, which may land off (None)."""
        if game is None:
            return cls()
        if hasattr(game, "recast"):  # a compiled Machine
            dice = game.dice
            return cls(dice.count, dice.sides, tuple(getattr(dice, "names", ()) or ()), game.recast is not None)
        from ..model import dice_shape

        shape = dice_shape(game)
        return cls(shape.count, shape.sides, shape.names, getattr(game, "cocked", None) is not None)

    def example(self, off: bool = False, turn: int = 0) -> str:
        """A throw of these dice as a tape writes it (`off`: the first die off): 3-4 for two
        six-sided dice, 3-4-3 for three; `turn` 1 and 2 give others (6-6, 1-2)."""
        low = self.sides < 5  # (a die of 2 to 4 faces has no 3-4-3-5)
        if turn == 1:
            faces = [str(self.sides)] * self.count
        elif turn == 2:
            faces = list(("2", "1") * 3 if low else ("1", "2") * 3)[:self.count]
        else:
            faces = list(("1", "2") * 3 if low else ("3", "4", "3", "5", "1"))[:self.count]
        if off:
            faces[0] = "x"
        return "-".join(faces)

    def examples(self) -> str:
        return " ".join(self.example(turn=turn) for turn in range(3))

    def many(self) -> str:
        from ..model import NUMBER_WORDS

        return NUMBER_WORDS[self.count] if self.count < len(NUMBER_WORDS) else str(self.count)

    def faces(self) -> str:
        """"two faces", "three faces", "one face"."""
        return "one face" if self.count == 1 else f"{self.many()} faces"

    def every(self) -> str:
        """"the die", "both dice", "all three dice"."""
        return "the die" if self.count == 1 else "both dice" if self.count == 2 else f"all {self.many()} dice"

    def words(self) -> str:
        """How a tape writes a throw of these dice, and, where they may land off, a die off and
        what is recast."""
        named = ""
        if self.names:
            shown = [f"{k} {name}" for k, name in enumerate(self.names[:6], 1)]
            named = f" ({', '.join(shown)}{', …' if len(self.names) > 6 else ''})"
        said = f"write each throw as {self.faces()} 1-{self.sides}{named}, like {self.example()}"
        if not self.off:
            return said
        if self.count <= 2:
            return (f"{said} (x for a die that lands off; then `off` or `both` for what is recast, and a lone "
                    f"face for a die recast alone)")
        return (f"{said} (x for a die that lands off; then `off` or `both` for what is recast, the dice off "
                f"or all {self.many()}, and the faces of the dice off for those recast alone, like 5 or 5-x)")


def _face(text: str):
    return None if text in "xX" else int(text)


def _token(item) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, tuple):
        return "-".join("x" if f is None else str(f) for f in item)
    return "x" if item is None else str(item)


def _wrong(number: int, item, wanted: str):
    from .casting import TapeError

    return TapeError(Arg("dice"), f"throw {number} is {_token(item)!r}, but here the dice want {wanted}")
