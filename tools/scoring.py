"""How the dice benchmarks count, in one place: a reading matched to a die on the picture
is *correct* (right value, certain), *silent wrong* (wrong value, certain: the worst
failure) or *asked* (uncertain); a die with no reading is *missed*; a reading with no die
is a *ghost*; an *exact* image has every die correct and no ghost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.vision.observation import DieReading


@dataclass
class Counts:
    images: int = 0
    dice: int = 0
    correct: int = 0
    silent_wrong: int = 0
    asked: int = 0
    missed: int = 0
    ghosts: int = 0
    exact: int = 0
    seconds: float = 0.0

    def score(
        self,
        truth: Sequence[int],
        pairs: Sequence[tuple[int, DieReading]],
        readings: int,
        seconds: float,
    ) -> list[tuple[int, DieReading]]:
        """Count one picture: ``truth`` values, ``pairs`` (truth index, reading) matched one to
        one, ``readings`` in all. Returns the silent wrong pairs (for the log)."""
        self.images += 1
        self.dice += len(truth)
        self.seconds += seconds
        ghosts = readings - len(pairs)
        self.ghosts += ghosts
        self.missed += len(truth) - len(pairs)
        exact = ghosts == 0 and len(pairs) == len(truth)
        wrong = []
        for index, die in pairs:
            if die.uncertain:
                self.asked += 1
                exact = False
            elif die.value == truth[index]:
                self.correct += 1
            else:
                self.silent_wrong += 1
                exact = False
                wrong.append((index, die))
        self.exact += exact
        return wrong
