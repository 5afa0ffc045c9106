"""The board and the "Que fais-je?" deck as plain-text files a family can edit.

The real board's 77 spaces and the real 24 cards are not printed in the rulebook, so they
are kept in two line-based files (``assets/docte_rat/board.txt`` and
``assets/docte_rat/que-fais-je.txt``; the README beside them explains both to a family).
Every mistake raises :class:`BoardFileError` with a one-line message that names the file, the
line, the fault and what was expected::

    board.txt line 12: unknown space type "eruditon"; expected one of petite_colle, ...

Board file (``#`` starts a comment; blank lines are ignored)::

    board "My board"              # optional: the name shown on screen
    default no                    # yes only for the shipped guess
    track school                  # then track college, then track university
    start
    petite_colle call=left        # a space: its type, then key=value parameters
    bonus bonus=5
    ...

Deck file, one card per line (``#`` lines are comments)::

    1 | placeholder | Tu as trouvé un raccourci : avance de 3 cases. | advance 3
    2 | Oubli de devoir : recule de 2 cases et perds 5 points. | back 2, lose 5

``parse(to_text(x)) == x`` for both.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from ...core.errors import InvalidAction
from .board import (
    BOARD_SPACES,
    CALL_DIRECTIONS,
    CALLABLE_SERIES,
    EFFECT_KINDS,
    SERIES,
    SPACE_TYPES,
    TRACK_NAMES,
    TRACKS,
    Board,
    Card,
    Deck,
    Effect,
    Space,
    Track,
)

BOARD_FILE = "board.txt"
DECK_FILE = "que-fais-je.txt"
DEFAULT_NAME = "My board"
MIN_TRACK_SPACES = 5

#: French (or plainer) words accepted for a few space types; the file is written back with
#: the canonical names.
TYPE_ALIASES = {"depart": "start", "sortie": "exit", "repos": "rest", "blanc": "rest"}
#: Words that are not types but that a family may try: say what to write instead.
TYPE_HINTS = {
    "appel_a_tous": 'an "Appel à tous" space is a question space with call=left or '
    "call=right, e.g. petite_colle call=left",
    "call_to_all": 'a Call to All space is a question space with call=left or call=right, '
    "e.g. petite_colle call=left",
    "loto_didacte": 'write the Loto-didacte as bon_mot multiplier=2 label="Loto-didacte"',
}
TRACK_ALIASES = {"ecole": "school", "universite": "university"}
CALL_ALIASES = {"gauche": "left", "droite": "right"}
YES = ("yes", "oui", "true")
NO = ("no", "non", "false")

#: Parameter -> the space types it is allowed on.
PARAMETERS: dict[str, tuple[str, ...]] = {
    "call": CALLABLE_SERIES,
    "bonus": SERIES + ("bonus",),
    "multiplier": SERIES,
    "turns": ("rest",),
    "series": ("quitte_ou_double",),
    "label": SPACE_TYPES,
}
#: Numeric parameters and effects: their allowed range.
PARAMETER_RANGES = {"bonus": (1, 50), "multiplier": (1, 3), "turns": (1, 3)}
EFFECT_RANGES = {
    "advance": (1, 12),
    "back": (1, 12),
    "rest": (1, 3),
    "gain": (1, 50),
    "lose": (1, 50),
}
EFFECT_ALIASES = {
    "avance": "advance",
    "recule": "back",
    "repos": "rest",
    "gagne": "gain",
    "perds": "lose",
    "rejoue": "roll_again",
}
PLACEHOLDER = "placeholder"
QUOTES = '"“”'


class BoardFileError(InvalidAction):
    """A board or deck file is wrong; ``str(err)`` names the file, the line and the fix."""


# --- small helpers ------------------------------------------------------------------------


def _word(text: str) -> str:
    """Lower case, accents dropped, hyphens as underscores: "Érudition" -> "erudition"."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.lower().replace("-", "_")


def _either(words: Iterable[str], last: str = "or") -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return f'; did you mean "{close[0]}"?' if close else ""


def _lines(text: str) -> list[str]:
    return text.removeprefix("\ufeff").splitlines()


class _Where:
    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, line: int | None, message: str) -> BoardFileError:
        at = f"{self.source} line {line}" if line is not None else self.source
        return BoardFileError(f"{at}: {message}")


def _number(text: str, low: int, high: int) -> int | None:
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if low <= value <= high else None


# --- board --------------------------------------------------------------------------------


def _strip_comment(line: str) -> tuple[str, bool]:
    """The line without its ``# comment``; True when a quote is left open."""
    quoted = False
    for i, char in enumerate(line):
        if char in QUOTES:
            quoted = not quoted
        elif char == "#" and not quoted:
            return line[:i], False
    return line, quoted


def _tokens(text: str, where: _Where, lineno: int | None) -> list[tuple[str, str | None]]:
    """Split ``type key=value key="some words"`` into (word, None) and (key, value) pairs."""
    out: list[tuple[str, str | None]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        if text[i] in QUOTES:
            raise where.error(
                lineno, 'quoted text without a parameter name; expected label="..."'
            )
        j = i
        while j < n and not text[j].isspace() and text[j] != "=" and text[j] not in QUOTES:
            j += 1
        word = text[i:j]
        k = j
        while k < n and text[k].isspace():
            k += 1
        if k < n and text[k] == "=":
            if not word:
                raise where.error(lineno, '"=" without a parameter name; expected key=value')
            k += 1
            while k < n and text[k].isspace():
                k += 1
            if k < n and text[k] in QUOTES:
                end = k + 1
                while text[end] not in QUOTES:  # _strip_comment made sure it is closed
                    end += 1
                value = text[k + 1 : end]
                i = end + 1
            else:
                end = k
                while end < n and not text[end].isspace():
                    end += 1
                value = text[k:end]
                if not value:
                    raise where.error(lineno, f'"{word}=" has no value; expected {word}=...')
                i = end
            out.append((word, value))
        else:
            out.append((word, None))
            i = j
    return out


def _space(
    tokens: list[tuple[str, str | None]], where: _Where, lineno: int | None
) -> Space:
    raw_type, value = tokens[0]
    if value is not None:
        raise where.error(
            lineno, f'a space line starts with its type, not "{raw_type}="; '
            f"expected one of {', '.join(SPACE_TYPES)}"
        )
    kind = _word(raw_type)
    kind = TYPE_ALIASES.get(kind, kind)
    if kind not in SPACE_TYPES:
        hint = TYPE_HINTS.get(kind)
        if hint:
            raise where.error(lineno, f'"{raw_type}" is not a space type: {hint}')
        raise where.error(
            lineno,
            f'unknown space type "{raw_type}"; expected one of {", ".join(SPACE_TYPES)}'
            + _suggest(kind, SPACE_TYPES),
        )
    numbers: dict[str, int] = {}
    words: dict[str, str] = {}
    for raw_key, raw_value in tokens[1:]:
        if raw_value is None:
            raise where.error(
                lineno,
                f'unexpected word "{raw_key}" after {kind}; expected parameters written '
                "key=value, e.g. call=left",
            )
        key = _word(raw_key)
        allowed_here = [p for p, types in PARAMETERS.items() if kind in types]
        if key not in PARAMETERS:
            raise where.error(
                lineno,
                f'unknown parameter "{raw_key}" on {_a(kind)} space; expected '
                f"{_either(allowed_here)}" + _suggest(key, allowed_here),
            )
        if kind not in PARAMETERS[key]:
            why = " (a Call to All needs a single-question series)" if key == "call" else ""
            raise where.error(
                lineno,
                f"{key}= is not allowed on {_a(kind)} space; expected it only on "
                f"{_either(PARAMETERS[key])} spaces{why}",
            )
        if key in numbers or key in words:
            raise where.error(lineno, f"{key}= is given twice; expected it once")
        parsed = _parameter(key, raw_value, where, lineno)
        if isinstance(parsed, int):
            numbers[key] = parsed
        else:
            words[key] = parsed
    if kind == "bonus" and "bonus" not in numbers:
        low, high = PARAMETER_RANGES["bonus"]
        raise where.error(
            lineno,
            f"a bonus space needs its points; expected bonus bonus=N with N from {low} "
            f"to {high}, e.g. bonus bonus=5",
        )
    return Space(
        kind,
        call=words.get("call"),
        bonus=numbers.get("bonus", 0),
        multiplier=numbers.get("multiplier", 1),
        turns=numbers.get("turns", 1),
        series=words.get("series"),
        label=words.get("label"),
    )


def _parameter(key: str, raw: str, where: _Where, lineno: int | None) -> int | str:
    if key in PARAMETER_RANGES:
        low, high = PARAMETER_RANGES[key]
        number = _number(raw.strip(), low, high)
        if number is None:
            raise where.error(
                lineno,
                f'bad value "{raw}" for {key}; expected a whole number from {low} to {high}',
            )
        return number
    if key == "call":
        direction = CALL_ALIASES.get(_word(raw), _word(raw))
        if direction not in CALL_DIRECTIONS:
            raise where.error(
                lineno, f'bad value "{raw}" for call; expected {_either(CALL_DIRECTIONS)}'
            )
        return direction
    if key == "series":
        series = _word(raw)
        if series not in SERIES:
            raise where.error(
                lineno, f'bad value "{raw}" for series; expected {_either(SERIES)}'
            )
        return series
    label = raw.strip()  # key == "label"
    if not label:
        raise where.error(
            lineno, 'the label is empty; expected some words in quotes, e.g. label="Loto-didacte"'
        )
    return label


class _TrackDraft:
    def __init__(self, key: str, lineno: int) -> None:
        self.key = key
        self.lineno = lineno
        self.spaces: list[tuple[Space, int]] = []


def _add_space(draft: _TrackDraft, space: Space, where: _Where, lineno: int) -> None:
    if draft.spaces and draft.spaces[-1][0].type == "exit":
        raise where.error(
            draft.spaces[-1][1],
            f"exit must be the last space of the {draft.key} track; expected no space after "
            f"it (found one on line {lineno})",
        )
    if space.type == "start":
        if draft.key != "school":
            raise where.error(
                lineno,
                f"start is not allowed on the {draft.key} track; expected exactly one start, "
                "as the first space of the school track",
            )
        if draft.spaces:
            raise where.error(
                lineno,
                f"a second start space (the first is on line {draft.spaces[0][1]}); expected "
                "exactly one, as the first space of the school track",
            )
    elif draft.key == "school" and not draft.spaces:
        raise where.error(
            lineno,
            f'the school track must begin with the start space, found {space.type}; expected '
            '"start" as its first line',
        )
    if space.type == "exit" and draft.key == "school":
        raise where.error(
            lineno,
            "exit is not allowed on the school track (you go round it until your goal); "
            "expected an exit only as the last space of the college and university tracks",
        )
    draft.spaces.append((space, lineno))


def _close(draft: _TrackDraft, where: _Where) -> None:
    count = len(draft.spaces)
    if count < MIN_TRACK_SPACES:
        raise where.error(
            draft.lineno,
            f"track {draft.key} has only {count} space{'s' if count != 1 else ''}; expected "
            f"at least {MIN_TRACK_SPACES}",
        )
    last, lineno = draft.spaces[-1]
    if draft.key != "school" and last.type != "exit":
        raise where.error(
            lineno,
            f'the {draft.key} track must end with the exit space, found {last.type}; expected '
            '"exit" as its last line',
        )


def parse_board(text: str, source: str = BOARD_FILE) -> Board:
    """Read a board file; raise BoardFileError naming the first wrong line."""
    where = _Where(source)
    name: str | None = None
    default: bool | None = None
    header_lines: dict[str, int] = {}
    drafts: list[_TrackDraft] = []
    for lineno, raw in enumerate(_lines(text), start=1):
        body, open_quote = _strip_comment(raw)
        if open_quote:
            raise where.error(lineno, 'a quote (") is not closed; expected "..." around a label')
        if not body.strip():
            continue
        first = _word(body.split()[0])
        if first in ("board", "default"):
            if drafts:
                raise where.error(
                    lineno, f'the "{first}" line must come before the first track line'
                )
            if first in header_lines:
                raise where.error(
                    lineno,
                    f'a second "{first}" line (the first is on line {header_lines[first]}); '
                    "expected one",
                )
            header_lines[first] = lineno
            rest = body.strip()[len(body.split()[0]) :].strip()
            if first == "board":
                name = rest[1:-1].strip() if len(rest) >= 2 and rest[0] in QUOTES else rest
                if not name:
                    raise where.error(
                        lineno, 'the board has no name; expected e.g. board "Our board"'
                    )
            else:
                flag = _word(rest)
                if flag not in YES + NO:
                    raise where.error(
                        lineno, f'bad value "{rest}" for default; expected yes or no'
                    )
                default = flag in YES
            continue
        tokens = _tokens(body, where, lineno)
        if first == "track":
            if len(tokens) != 2 or tokens[1][1] is not None:
                raise where.error(
                    lineno,
                    f'a track line names one track; expected "track {TRACKS[len(drafts) % 3]}"',
                )
            raw_key = tokens[1][0]
            key = TRACK_ALIASES.get(_word(raw_key), _word(raw_key))
            if key not in TRACKS:
                raise where.error(
                    lineno, f'unknown track "{raw_key}"; expected {_either(TRACKS)}'
                )
            if drafts:
                _close(drafts[-1], where)
            for draft in drafts:
                if draft.key == key:
                    raise where.error(
                        lineno,
                        f"track {key} appears twice (first on line {draft.lineno}); expected "
                        "each track once",
                    )
            expected = TRACKS[len(drafts)]
            if key != expected:
                raise where.error(
                    lineno,
                    f"track {key} comes before track {expected}; expected the tracks in the "
                    f"order {', '.join(TRACKS)}",
                )
            drafts.append(_TrackDraft(key, lineno))
            continue
        space = _space(tokens, where, lineno)
        if not drafts:
            raise where.error(
                lineno, 'a space comes before any track line; expected "track school" first'
            )
        _add_space(drafts[-1], space, where, lineno)
    if drafts:
        _close(drafts[-1], where)
    if len(drafts) < len(TRACKS):
        missing = TRACKS[len(drafts)]
        raise where.error(
            None,
            f"track {missing} is missing; expected "
            f"{_either([f'track {t}' for t in TRACKS], 'and')}, in that order",
        )
    counts = [len(d.spaces) for d in drafts]
    total = sum(counts)
    if total != BOARD_SPACES:
        split = ", ".join(f"{d.key} {c}" for d, c in zip(drafts, counts, strict=True))
        gap = abs(total - BOARD_SPACES)
        plural = "s" if gap > 1 else ""
        fault = (
            f"{gap} space{plural} {'are' if gap > 1 else 'is'} missing"
            if total < BOARD_SPACES
            else f"{gap} space{plural} too many"
        )
        raise where.error(
            None,
            f"the board has {total} spaces ({split}); Le Docte Rat's board has "
            f"{BOARD_SPACES}: {fault}",
        )
    tracks = tuple(
        Track(d.key, TRACK_NAMES[d.key], tuple(space for space, _ in d.spaces)) for d in drafts
    )
    return Board(name=name or DEFAULT_NAME, tracks=tracks, default=bool(default))


def _quoted(text: str, what: str) -> str:
    if any(q in text for q in QUOTES) or "\n" in text or "\r" in text:
        raise BoardFileError(f"cannot write the {what} {text!r}: it holds a quote or a new line")
    return f'"{text}"'


def space_to_text(space: Space) -> str:
    """One board line, e.g. ``bon_mot multiplier=2 label="Loto-didacte"``."""
    parts = [space.type]
    if space.call is not None:
        parts.append(f"call={space.call}")
    if space.bonus:
        parts.append(f"bonus={space.bonus}")
    if space.multiplier != 1:
        parts.append(f"multiplier={space.multiplier}")
    if space.turns != 1:
        parts.append(f"turns={space.turns}")
    if space.series is not None:
        parts.append(f"series={space.series}")
    if space.label is not None:
        parts.append(f"label={_quoted(space.label, 'label')}")
    return " ".join(parts)


def board_to_text(board: Board) -> str:
    """The board as a file that parse_board reads back to an equal Board."""
    out = [
        "# Le Docte Rat board: one line per space, from the Start space.",
        "# How to edit it: README.md beside the shipped file (assets/docte_rat/).",
        f"board {_quoted(board.name, 'board name')}",
        f"default {'yes' if board.default else 'no'}",
    ]
    for track in board.tracks:
        out += ["", f"track {track.key}  # {track.name}"]
        out += [space_to_text(space) for space in track.spaces]
    return "\n".join(out) + "\n"


# --- deck ---------------------------------------------------------------------------------

_EFFECT_HELP = (
    "advance N, back N, rest N, gain N, lose N, question SERIES or roll_again"
)


def _effect(piece: str, where: _Where, lineno: int) -> Effect:
    words = piece.split()
    whole = "_".join(_word(w) for w in words)
    if EFFECT_ALIASES.get(whole, whole) == "roll_again":
        return Effect("roll_again")
    kind = _word(words[0])
    kind = EFFECT_ALIASES.get(kind, kind)
    if kind not in EFFECT_KINDS:
        raise where.error(
            lineno,
            f'unknown effect "{piece}"; expected {_EFFECT_HELP}'
            + _suggest(kind, EFFECT_KINDS),
        )
    if kind == "roll_again":
        raise where.error(
            lineno, f'roll_again takes nothing after it, found "{piece}"; expected roll_again'
        )
    arg = " ".join(words[1:])
    if kind == "question":
        if not arg:
            raise where.error(
                lineno, f"question needs a series; expected question {_either(SERIES)}"
            )
        series = "_".join(_word(w) for w in words[1:])
        if series not in SERIES:
            raise where.error(
                lineno, f'unknown series "{arg}" for question; expected {_either(SERIES)}'
            )
        return Effect("question", series=series)
    low, high = EFFECT_RANGES[kind]
    if not arg:
        raise where.error(
            lineno, f"{kind} needs a number; expected {kind} N with N from {low} to {high}"
        )
    n = _number(arg, low, high)
    if n is None:
        raise where.error(
            lineno, f'bad number "{arg}" for {kind}; expected a whole number from {low} to {high}'
        )
    return Effect(kind, n=n)


def parse_deck(text: str, source: str = DECK_FILE) -> Deck:
    """Read a "Que fais-je?" file; raise BoardFileError naming the first wrong line."""
    where = _Where(source)
    cards: list[Card] = []
    first_line: dict[int, int] = {}
    for lineno, raw in enumerate(_lines(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        columns = [c.strip() for c in line.split("|")]
        if len(columns) == 4:
            number_text, mark, card_text, effects_text = columns
            if _word(mark) != PLACEHOLDER:
                raise where.error(
                    lineno,
                    f'the second column is "{mark}"; expected "{PLACEHOLDER}" or no column '
                    "there (number | text | effects)",
                )
        elif len(columns) == 3:
            number_text, card_text, effects_text = columns
            mark = ""
        else:
            raise where.error(
                lineno,
                f"found {len(columns)} column{'s' if len(columns) != 1 else ''}; expected "
                "number | text | effects (or number | placeholder | text | effects)",
            )
        number = _number(number_text, 1, 10**6)
        if number is None:
            raise where.error(
                lineno, f'bad card number "{number_text}"; expected a whole number from 1 up'
            )
        if number in first_line:
            raise where.error(
                lineno,
                f"card number {number} is used twice (first on line {first_line[number]}); "
                "expected each number once",
            )
        first_line[number] = lineno
        if not card_text:
            raise where.error(
                lineno, f"card {number} has no text; expected the words shown on screen"
            )
        effects_text = effects_text.split("#", 1)[0].strip()
        if not effects_text:
            raise where.error(
                lineno, f"card {number} has no effect; expected at least one, e.g. advance 3"
            )
        effects = []
        for piece in effects_text.split(","):
            if not piece.strip():
                raise where.error(
                    lineno, "an empty effect between commas; expected e.g. back 2, lose 5"
                )
            effects.append(_effect(piece.strip(), where, lineno))
        cards.append(Card(number, card_text, tuple(effects), placeholder=bool(mark)))
    if not cards:
        raise where.error(
            None, "no cards; expected one line per card, e.g. 1 | Avance de 3 cases. | advance 3"
        )
    return Deck(tuple(cards))


def effect_to_text(effect: Effect) -> str:
    if effect.kind == "roll_again":
        return "roll_again"
    if effect.kind == "question":
        return f"question {effect.series}"
    return f"{effect.kind} {effect.n}"


def card_to_text(card: Card) -> str:
    """One deck line, e.g. ``6 | placeholder | Oubli de devoir ... | back 2, lose 5``."""
    if "|" in card.text or "\n" in card.text or "\r" in card.text:
        raise BoardFileError(
            f"cannot write card {card.number}: its text holds a | or a new line"
        )
    effects = ", ".join(effect_to_text(e) for e in card.effects)
    mark = f" {PLACEHOLDER} |" if card.placeholder else ""
    return f"{card.number} |{mark} {card.text} | {effects}"


def deck_to_text(deck: Deck) -> str:
    """The deck as a file that parse_deck reads back to an equal Deck."""
    out = [
        '# "Que fais-je?" cards, one per line: number | text | effects',
        "# (placeholder cards: number | placeholder | text | effects).",
        "# How to edit it: README.md beside the shipped file (assets/docte_rat/).",
    ]
    out += [card_to_text(card) for card in deck.cards]
    return "\n".join(out) + "\n"


# --- shipped defaults ---------------------------------------------------------------------


def default_board() -> Board:
    """The shipped layout (a guess that follows the rulebook; Board.default is True)."""
    from ...resources import asset  # here: importlib.resources pulls in tempfile and random

    text = asset("docte_rat", BOARD_FILE).read_text(encoding="utf-8")
    return parse_board(text, BOARD_FILE)


def default_deck() -> Deck:
    """The shipped 24 placeholder cards."""
    from ...resources import asset  # here: importlib.resources pulls in tempfile and random

    text = asset("docte_rat", DECK_FILE).read_text(encoding="utf-8")
    return parse_deck(text, DECK_FILE)


def _read(path: str, what: str) -> tuple[str, str]:
    """A user's file as text and the name messages use; one-line errors."""
    from pathlib import Path

    file = Path(path).expanduser()
    try:
        return file.read_text(encoding="utf-8"), file.name
    except FileNotFoundError:
        raise BoardFileError(f"the {what} file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BoardFileError(f"cannot read the {what} file {path}: {exc}") from None


def read_board_file(path: str) -> Board:
    """A table's own board file (validated; messages name the file and line)."""
    text, name = _read(path, "board")
    return parse_board(text, name)


def read_deck_file(path: str) -> Deck:
    """A table's own Que fais-je? deck file."""
    text, name = _read(path, "Que fais-je? deck")
    return parse_deck(text, name)


def check_space(space: Space, source: str = "landed space") -> Space:
    """Check a space given as data (board-free mode) by the same rules as a board line."""
    where = _Where(source)
    text = space_to_text(space)
    return _space(_tokens(text, where, None), where, None)


def check_board(board: Board, source: str = "board") -> Board:
    """Check a board given as data (e.g. inline in a setup) by the board file's rules."""
    return parse_board(board_to_text(board), source)


def check_deck(deck: Deck, source: str = "deck") -> Deck:
    """Check a Que fais-je? deck given as data by the deck file's rules."""
    return parse_deck(deck_to_text(deck), source)
