"""The board and the "Que fais-je?" deck as data (the rulebook does not print them).

The layout of the 77 spaces and the text of the 24 cards are not public, so they live in
editable files in ``assets/docte_rat/`` (see ``files.py`` for the format and validation);
these frozen dataclasses are what the engine reads. A game's setup carries the whole board
and deck, so a journal replays the same way even after someone edits the files.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The four series of question cards and the points a right answer is worth.
#: Bon Mot is 5 or 10 "as indicated at the beginning of the question"; Mini-Test is at most
#: 15 (per-question values on the card).
SERIES = ("petite_colle", "erudition", "mini_test", "bon_mot")
SERIES_POINTS = {"petite_colle": 5, "erudition": 10, "mini_test": 15, "bon_mot": 10}
BON_MOT_VALUES = (5, 10)
#: Series whose cards hold a single question: the only ones a Call to All applies to.
CALLABLE_SERIES = ("petite_colle", "erudition", "bon_mot")

TRACKS = ("school", "college", "university")
TRACK_NAMES = {
    "school": "Chemin des écoliers",
    "college": "Collège Saint-Lauréat",
    "university": "Université Gens-Brillants",
}
DEFAULT_GOALS = (25, 50, 75)
BOARD_SPACES = 77  # "The Docte Rat board has 77 spaces arranged in three tracks."

#: Space types. A question space is one of SERIES; the others:
SPACE_TYPES = SERIES + (
    "start",  # the Start space of the Schoolchildren's Path (nothing happens on it)
    "carte_blanche",  # the player picks the series; no penalty for a miss
    "duo",  # a Petite Colle then an Érudition: 15 or 0
    "dilemme",  # choose Petite Colle or Érudition: right = plus, wrong = minus
    "que_fais_je",  # draw a card and follow it
    "rest",  # white space: rest `turns` turn(s)
    "bonus",  # gain `bonus` points at once
    "quitte_ou_double",  # a question, then double or nothing (docs/rules-decisions.md)
    "exit",  # the Exit of the College or the University: on or past it, repeat the year
)
CALL_DIRECTIONS = ("left", "right")

#: Effects a "Que fais-je?" card may combine (docs/rules-decisions.md).
EFFECT_KINDS = (
    "advance",  # advance n spaces (then meet the space landed on)
    "back",  # go back n spaces (then meet the space landed on)
    "rest",  # rest n turns
    "gain",  # gain n points
    "lose",  # lose n points
    "question",  # answer a question of `series` (worth its usual points)
    "roll_again",  # roll the dice again at once
)


@dataclass(frozen=True)
class Space:
    type: str
    call: str | None = None  # Appel à tous: "left" or "right" (question spaces only)
    bonus: int = 0  # question spaces: added to a right answer; bonus space: points gained
    multiplier: int = 1  # question spaces: "double the value" = 2 (Loto-didacte: Bon Mot x2)
    turns: int = 1  # rest spaces: turns to rest
    series: str | None = None  # quitte_ou_double: the series asked (default: the track's)
    label: str | None = None  # a name printed on the board, e.g. "Loto-didacte"


@dataclass(frozen=True)
class Track:
    key: str  # "school", "college" or "university"
    name: str
    spaces: tuple[Space, ...]


@dataclass(frozen=True)
class Board:
    name: str
    tracks: tuple[Track, ...]  # school, college, university in that order
    default: bool = False  # True for the shipped layout, which is a guess to adjust

    def track(self, index: int) -> Track:
        return self.tracks[index]


@dataclass(frozen=True)
class Effect:
    kind: str
    n: int = 0
    series: str | None = None


@dataclass(frozen=True)
class Card:
    number: int
    text: str
    effects: tuple[Effect, ...]
    placeholder: bool = False  # True: made up, to replace with the real card's text


@dataclass(frozen=True)
class Deck:
    cards: tuple[Card, ...]

    def card(self, number: int) -> Card | None:
        for card in self.cards:
            if card.number == number:
                return card
        return None
