"""Where throws come from: seeded random dice, or a tape of given throws for replay."""

from __future__ import annotations

import re

import numpy as np

MAX_TAPE_THROWS = 100_000

_THROW = re.compile(r"^([1-6])-([1-6])$")


class TapeEnded(Exception):
    """The scripted throws ran out."""


class RandomDice:
    """Two dice from an explicit, seeded `numpy.random.Generator` (no global state): fair, or
    loaded as the machine's `Dice` say. A loaded die draws a whole number below its faces'
    common denominator and reads the face off the cumulative weights, so its chances are exact."""

    def __init__(self, seed: int | None = None, generator: np.random.Generator | None = None, dice=None):
        self.seed = seed
        self.generator = generator if generator is not None else np.random.default_rng(seed)
        self.loaded = None
        self.load(dice)

    def load(self, dice) -> "RandomDice":
        """Throw with these dice (the machine's `Dice`; None or fair: two fair dice)."""
        self.loaded = None
        if dice is not None and not dice.fair:
            from math import lcm

            self.loaded = []
            for die in (1, 2):
                faces = dice.faces(die)
                scale = lcm(*(p.denominator for p in faces))
                cumulative, running = [], 0
                for p in faces:
                    running += int(p * scale)
                    cumulative.append(running)
                self.loaded.append((scale, np.array(cumulative)))
        return self

    def throw(self) -> tuple[int, int]:
        if self.loaded is None:
            d1, d2 = self.generator.integers(1, 7, size=2)
            return int(d1), int(d2)
        faces = []
        for scale, cumulative in self.loaded:
            u = int(self.generator.integers(0, scale))
            faces.append(int(np.searchsorted(cumulative, u, side="right")) + 1)
        return faces[0], faces[1]


class DiceTape:
    """Throws given in advance, e.g. ``"3-4 6-6 1-2"`` (commas allowed between them)."""

    def __init__(self, throws: list[tuple[int, int]]):
        self.throws = list(throws)
        self.used = 0

    @classmethod
    def parse(cls, text: str) -> "DiceTape":
        tokens = text.replace(",", " ").split()
        if not tokens:
            raise ValueError("--dice needs throws such as \"3-4 6-6 1-2\"")
        if len(tokens) > MAX_TAPE_THROWS:
            raise ValueError(f"--dice takes at most {MAX_TAPE_THROWS} throws")
        throws = []
        for number, token in enumerate(tokens, 1):
            match = _THROW.match(token)
            if not match:
                raise ValueError(f"--dice: throw {number} is {token[:20]!r}; write each throw as two faces 1-6, like 3-4")
            throws.append((int(match.group(1)), int(match.group(2))))
        return cls(throws)

    def throw(self) -> tuple[int, int]:
        if self.used >= len(self.throws):
            raise TapeEnded
        self.used += 1
        return self.throws[self.used - 1]

    @property
    def exhausted(self) -> bool:
        return self.used >= len(self.throws)
