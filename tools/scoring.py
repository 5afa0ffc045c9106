"""How the dice benchmarks count, in one place: a reading matched to a die on the picture
is *correct* (right value, certain), *silent wrong* (wrong value, certain: the worst
failure) or *asked* (uncertain); a die with no reading is *missed*; a reading with no die
is a *ghost* (a *certain ghost* adds a die that is not there to the total, silently); an
*exact* image has every die correct and no ghost."""

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
    certain_ghosts: int = 0
    exact: int = 0
    seconds: float = 0.0

    def score(
        self,
        truth: Sequence[int],
        pairs: Sequence[tuple[int, DieReading]],
        readings: int | Sequence[DieReading],
        seconds: float,
    ) -> list[tuple[int, DieReading]]:
        """Count one picture: ``truth`` values, ``pairs`` (truth index, reading) matched one to
        one, and the readings (or just how many). Returns the silent wrong pairs (for the
        log)."""
        self.images += 1
        self.dice += len(truth)
        self.seconds += seconds
        if isinstance(readings, int):
            ghosts = readings - len(pairs)
        else:
            found = {id(die) for _, die in pairs}
            unmatched = [d for d in readings if id(d) not in found]
            ghosts = len(unmatched)
            self.certain_ghosts += sum(not d.uncertain for d in unmatched)
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
