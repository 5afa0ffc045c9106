"""The board and "Que fais-je?" files: the shipped defaults, round trips, and every message a
family sees when a line is wrong (file, line, fault, what was expected)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.core.errors import InvalidAction
from companion.games.docte_rat.board import (
    BOARD_SPACES,
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
from companion.games.docte_rat.files import (
    BoardFileError,
    board_to_text,
    deck_to_text,
    default_board,
    default_deck,
    parse_board,
    parse_deck,
)
from companion.resources import asset

ROOT = Path(__file__).resolve().parents[3]
SHIPPED_BOARD = (ROOT / "assets" / "docte_rat" / "board.txt").read_text(encoding="utf-8")
SHIPPED_DECK = (ROOT / "assets" / "docte_rat" / "que-fais-je.txt").read_text(encoding="utf-8")
TYPES = (
    "petite_colle, erudition, mini_test, bon_mot, start, carte_blanche, duo, dilemme, "
    "que_fais_je, rest, bonus, quitte_ou_double, exit"
)


def board_error(text: str) -> str:
    with pytest.raises(BoardFileError) as info:
        parse_board(text)
    return str(info.value)


def deck_error(text: str) -> str:
    with pytest.raises(BoardFileError) as info:
        parse_deck(text)
    return str(info.value)


def school(*spaces: str) -> str:
    """A board file that goes wrong within its school track (line 1 = track school)."""
    return "\n".join(["track school", *spaces]) + "\n"


SCHOOL_OK = ["start"] + ["petite_colle"] * 32  # lines 2..34
COLLEGE_OK = ["erudition"] * 23 + ["exit"]
UNIVERSITY_OK = ["mini_test"] * 19 + ["exit"]


def full(school_spaces=SCHOOL_OK, college=COLLEGE_OK, university=UNIVERSITY_OK) -> str:
    return "\n".join(
        ["track school", *school_spaces, "track college", *college,
         "track university", *university]
    ) + "\n"


def shipped_lines_of(kind: str, track: str) -> list[int]:
    """Indexes (0-based) of the shipped file's lines holding a `kind` space of `track`."""
    current, found = None, []
    for i, line in enumerate(SHIPPED_BOARD.splitlines()):
        words = line.split("#")[0].split()
        if words[:1] == ["track"]:
            current = words[1]
        elif current == track and words[:1] == [kind]:
            found.append(i)
    return found


# --- the shipped board --------------------------------------------------------------------


def test_the_shipped_board_has_77_spaces_split_as_documented() -> None:
    board = default_board()
    assert [t.key for t in board.tracks] == list(TRACKS)
    assert [len(t.spaces) for t in board.tracks] == [33, 24, 20]
    assert sum(len(t.spaces) for t in board.tracks) == BOARD_SPACES == 77
    assert [t.name for t in board.tracks] == [TRACK_NAMES[k] for k in TRACKS]
    assert board.default is True
    assert board.name == "Default layout (adjust to your board)"


def test_the_shipped_board_starts_at_start_and_ends_its_upper_tracks_at_exit() -> None:
    school_track, college, university = default_board().tracks
    assert school_track.spaces[0] == Space("start")
    assert [s.type for s in school_track.spaces].count("start") == 1
    assert "exit" not in [s.type for s in school_track.spaces]
    for track in (college, university):
        types = [s.type for s in track.spaces]
        assert types[-1] == "exit" and types.count("exit") == 1 and "start" not in types


def test_the_shipped_board_follows_the_rulebook_colours_and_spaces() -> None:
    board = default_board()
    main_series = {"school": "petite_colle", "college": "erudition", "university": "mini_test"}
    for track in board.tracks:
        questions = Counter(s.type for s in track.spaces if s.type in SERIES)
        assert questions.most_common(1)[0][0] == main_series[track.key], track.key
    spaces = [s for t in board.tracks for s in t.spaces]
    types = Counter(s.type for s in spaces)
    for kind in ("bon_mot", "carte_blanche", "duo", "dilemme", "que_fais_je", "rest"):
        assert types[kind] >= 2, kind
    assert types["bonus"] >= 2 and types["quitte_ou_double"] >= 1
    calls = [s for s in spaces if s.call]
    assert {s.call for s in calls} == {"left", "right"} and len(calls) >= 8
    assert all(s.type != "mini_test" for s in calls)  # a Mini-Test is never a Call to All
    assert [s for s in spaces if s.label] == [Space("bon_mot", multiplier=2, label="Loto-didacte")]
    assert any(s.multiplier == 2 and s.type != "bon_mot" for s in spaces)  # double the value
    assert all(s.type != "quitte_ou_double" for s in board.tracks[0].spaces)


def test_the_shipped_files_say_at_the_top_that_they_are_guesses() -> None:
    assert "DEFAULT LAYOUT" in SHIPPED_BOARD.splitlines()[0]
    assert "PLACEHOLDERS" in SHIPPED_DECK.splitlines()[0]


def test_the_readme_explains_every_space_type_parameter_and_effect() -> None:
    readme = (ROOT / "assets" / "docte_rat" / "README.md").read_text(encoding="utf-8")
    words = [*SPACE_TYPES, "call=left", "call=right", "bonus=", "multiplier=", "turns=",
             "series=", 'label="', *EFFECT_KINDS, "placeholder"]
    assert [w for w in words if f"`{w}" not in readme] == []
    assert "exactly **77**" in readme


def test_the_board_round_trips_through_text() -> None:
    board = default_board()
    assert parse_board(board_to_text(board)) == board
    edited = Board(
        "Notre plateau #2",
        tuple(
            Track(t.key, t.name, (Space("rest", turns=3, label="Infirmerie"),) + t.spaces[1:])
            if t.key != "school" else t
            for t in board.tracks
        ),
        default=False,
    )
    assert parse_board(board_to_text(edited)) == edited


def test_assets_are_found_through_importlib_resources() -> None:
    assert asset("docte_rat", "board.txt").read_text(encoding="utf-8") == SHIPPED_BOARD
    assert default_board() == parse_board(SHIPPED_BOARD)
    assert default_deck() == parse_deck(SHIPPED_DECK)


# --- the shipped deck ---------------------------------------------------------------------


def test_the_shipped_deck_has_24_french_placeholder_cards_using_every_effect() -> None:
    deck = default_deck()
    assert [c.number for c in deck.cards] == list(range(1, 25))
    assert all(c.placeholder for c in deck.cards)
    assert all(c.text and c.effects for c in deck.cards)
    assert {e.kind for c in deck.cards for e in c.effects} == set(EFFECT_KINDS)
    assert {e.series for c in deck.cards for e in c.effects if e.kind == "question"} == set(
        SERIES
    )
    assert deck.card(6) == Card(
        6,
        "Oubli de devoir : recule de 2 cases et perds 5 points.",
        (Effect("back", 2), Effect("lose", 5)),
        placeholder=True,
    )


def test_the_deck_round_trips_through_text() -> None:
    deck = default_deck()
    assert parse_deck(deck_to_text(deck)) == deck
    real = Deck((Card(7, "Va en retenue.", (Effect("rest", 2), Effect("roll_again"))),))
    assert parse_deck(deck_to_text(real)) == real


# --- board: what a family may write -------------------------------------------------------


def test_comments_case_accents_spaces_and_french_words_are_accepted() -> None:
    text = full(
        school_spaces=["Départ   # the Start space", "", "PETITE-COLLE call = Gauche",
                       'Bon_Mot label=“Jeu # de mots”', "Repos", "blanc turns=2"]
        + ["petite_colle"] * 28,
        college=["Érudition call=droite"] + ["erudition"] * 22 + ["Sortie"],
    ).replace("track university", "track Université")
    board = parse_board(text)
    assert board.tracks[0].spaces[:5] == (
        Space("start"),
        Space("petite_colle", call="left"),
        Space("bon_mot", label="Jeu # de mots"),
        Space("rest"),
        Space("rest", turns=2),
    )
    assert board.tracks[1].spaces[0] == Space("erudition", call="right")
    assert board.tracks[1].spaces[-1] == Space("exit")
    assert board.name == "My board" and board.default is False


def test_every_parameter_reaches_the_space() -> None:
    text = full(
        school_spaces=["start", "erudition bonus=5 multiplier=3 call=left",
                       "bonus bonus=50", "rest turns=3", 'duo label="Le Duo"']
        + ["petite_colle"] * 28,
        college=["quitte_ou_double series=mini-test"] + ["erudition"] * 22 + ["exit"],
    )
    board = parse_board('board "Chez nous"\ndefault oui\n' + text)
    assert board.tracks[0].spaces[1:5] == (
        Space("erudition", call="left", bonus=5, multiplier=3),
        Space("bonus", bonus=50),
        Space("rest", turns=3),
        Space("duo", label="Le Duo"),
    )
    assert board.tracks[1].spaces[0] == Space("quitte_ou_double", series="mini_test")
    assert (board.name, board.default) == ("Chez nous", True)


# --- board: one test per rule -------------------------------------------------------------


def test_errors_are_invalid_actions_on_one_line() -> None:
    with pytest.raises(InvalidAction) as info:
        parse_board(school("start", "eruditon"), source="mon-plateau.txt")
    assert str(info.value).startswith("mon-plateau.txt line 3: ")
    assert "\n" not in str(info.value)


def test_unknown_space_type() -> None:
    assert board_error(school("start", "eruditon  # typo")) == (
        f'board.txt line 3: unknown space type "eruditon"; expected one of {TYPES}; '
        'did you mean "erudition"?'
    )
    assert board_error(school("start", "chocolat")) == (
        f'board.txt line 3: unknown space type "chocolat"; expected one of {TYPES}'
    )


def test_appel_a_tous_is_not_a_type_and_the_message_says_what_to_write() -> None:
    assert board_error(school("start", "appel_a_tous")) == (
        'board.txt line 3: "appel_a_tous" is not a space type: an "Appel à tous" space is a '
        "question space with call=left or call=right, e.g. petite_colle call=left"
    )


def test_unknown_parameter() -> None:
    assert board_error(school("start", "petite_colle bonsu=5")) == (
        'board.txt line 3: unknown parameter "bonsu" on a petite_colle space; expected call, '
        'bonus, multiplier or label; did you mean "bonus"?'
    )
    assert board_error(school("start", "rest colour=white")) == (
        'board.txt line 3: unknown parameter "colour" on a rest space; expected turns or label'
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("petite_colle call=up", 'bad value "up" for call; expected left or right'),
        ("petite_colle bonus=60", 'bad value "60" for bonus; expected a whole number from 1 to 50'),
        ("petite_colle bonus=five",
         'bad value "five" for bonus; expected a whole number from 1 to 50'),
        ("bon_mot multiplier=4",
         'bad value "4" for multiplier; expected a whole number from 1 to 3'),
        ("rest turns=0", 'bad value "0" for turns; expected a whole number from 1 to 3'),
        ("quitte_ou_double series=history",
         'bad value "history" for series; expected petite_colle, erudition, mini_test or bon_mot'),
        ('duo label=""',
         'the label is empty; expected some words in quotes, e.g. label="Loto-didacte"'),
    ],
)
def test_bad_value(line: str, message: str) -> None:
    assert board_error(school("start", line)) == f"board.txt line 3: {message}"


def test_call_is_not_allowed_on_a_mini_test() -> None:
    assert board_error(school("start", "mini_test call=left")) == (
        "board.txt line 3: call= is not allowed on a mini_test space; expected it only on "
        "petite_colle, erudition or bon_mot spaces (a Call to All needs a single-question "
        "series)"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("petite_colle turns=2", "turns= is not allowed on a petite_colle space; expected it "
         "only on rest spaces"),
        ("rest bonus=5", "bonus= is not allowed on a rest space; expected it only on "
         "petite_colle, erudition, mini_test, bon_mot or bonus spaces"),
        ("erudition series=bon_mot", "series= is not allowed on an erudition space; expected it "
         "only on quitte_ou_double spaces"),
        ("carte_blanche multiplier=2", "multiplier= is not allowed on a carte_blanche space; "
         "expected it only on petite_colle, erudition, mini_test or bon_mot spaces"),
    ],
)
def test_a_parameter_not_allowed_on_that_type(line: str, message: str) -> None:
    assert board_error(school("start", line)) == f"board.txt line 3: {message}"


def test_a_parameter_given_twice() -> None:
    assert board_error(school("start", "bon_mot call=left call=right")) == (
        "board.txt line 3: call= is given twice; expected it once"
    )


def test_a_word_without_equals() -> None:
    assert board_error(school("start", "petite_colle left")) == (
        'board.txt line 3: unexpected word "left" after petite_colle; expected parameters '
        "written key=value, e.g. call=left"
    )


def test_a_bonus_space_needs_its_points() -> None:
    assert board_error(school("start", "bonus")) == (
        "board.txt line 3: a bonus space needs its points; expected bonus bonus=N with N from "
        "1 to 50, e.g. bonus bonus=5"
    )


def test_an_unclosed_quote() -> None:
    assert board_error(school("start", 'bon_mot label="Loto-didacte')) == (
        'board.txt line 3: a quote (") is not closed; expected "..." around a label'
    )


def test_a_space_before_any_track_line() -> None:
    assert board_error('# my board\nboard "Ours"\n\nstart\ntrack school\n') == (
        'board.txt line 4: a space comes before any track line; expected "track school" first'
    )


def test_an_unknown_track() -> None:
    assert board_error("track garden\n") == (
        'board.txt line 1: unknown track "garden"; expected school, college or university'
    )


def test_tracks_out_of_order() -> None:
    assert board_error("track college\nerudition\n") == (
        "board.txt line 1: track college comes before track school; expected the tracks in "
        "the order school, college, university"
    )
    text = full().replace("track college", "track university", 1)
    assert board_error(text) == (
        "board.txt line 35: track university comes before track college; expected the tracks "
        "in the order school, college, university"
    )


def test_a_track_given_twice() -> None:
    text = full(college=COLLEGE_OK + ["track school"] + SCHOOL_OK)
    assert board_error(text) == (
        "board.txt line 60: track school appears twice (first on line 1); expected each track "
        "once"
    )


def test_a_missing_track() -> None:
    text = full().split("track university")[0]
    assert board_error(text) == (
        "board.txt: track university is missing; expected track school, track college and "
        "track university, in that order"
    )
    assert board_error("# nothing yet\n") == (
        "board.txt: track school is missing; expected track school, track college and "
        "track university, in that order"
    )


def test_the_school_track_must_begin_with_start() -> None:
    assert board_error(school("petite_colle", "start")) == (
        "board.txt line 2: the school track must begin with the start space, found "
        'petite_colle; expected "start" as its first line'
    )


def test_only_one_start() -> None:
    assert board_error(school("start", "petite_colle", "start")) == (
        "board.txt line 4: a second start space (the first is on line 2); expected exactly "
        "one, as the first space of the school track"
    )
    text = full(university=["start"] + UNIVERSITY_OK[1:])
    assert board_error(text) == (
        "board.txt line 61: start is not allowed on the university track; expected exactly "
        "one start, as the first space of the school track"
    )


def test_no_exit_on_the_school_track() -> None:
    assert board_error(school("start", "petite_colle", "exit")) == (
        "board.txt line 4: exit is not allowed on the school track (you go round it until "
        "your goal); expected an exit only as the last space of the college and university "
        "tracks"
    )


def test_exit_must_be_the_last_space() -> None:
    text = full(college=["erudition"] * 10 + ["exit", "erudition"] + ["erudition"] * 11 + ["exit"])
    assert board_error(text) == (
        "board.txt line 46: exit must be the last space of the college track; expected no "
        "space after it (found one on line 47)"
    )


def test_upper_tracks_must_end_with_exit() -> None:
    text = full(college=["erudition"] * 24)
    assert board_error(text) == (
        "board.txt line 59: the college track must end with the exit space, found erudition; "
        'expected "exit" as its last line'
    )
    text = full(university=["mini_test"] * 20)
    assert board_error(text) == (
        "board.txt line 80: the university track must end with the exit space, found "
        'mini_test; expected "exit" as its last line'
    )


def test_each_track_needs_five_spaces() -> None:
    text = full(college=["erudition", "erudition", "exit"])
    assert board_error(text) == (
        "board.txt line 35: track college has only 3 spaces; expected at least 5"
    )
    assert board_error("track school\ntrack college\n") == (
        "board.txt line 1: track school has only 0 spaces; expected at least 5"
    )


def test_a_board_file_with_76_spaces() -> None:
    lines = SHIPPED_BOARD.splitlines()
    del lines[shipped_lines_of("petite_colle", "school")[0]]
    assert board_error("\n".join(lines)) == (
        "board.txt: the board has 76 spaces (school 32, college 24, university 20); "
        "Le Docte Rat's board has 77: 1 space is missing"
    )


def test_a_board_file_with_78_spaces() -> None:
    lines = SHIPPED_BOARD.splitlines()
    lines.insert(shipped_lines_of("mini_test", "university")[0], "mini_test")
    assert board_error("\n".join(lines)) == (
        "board.txt: the board has 78 spaces (school 33, college 24, university 21); "
        "Le Docte Rat's board has 77: 1 space too many"
    )
    assert board_error(full(school_spaces=SCHOOL_OK[:-3])) == (
        "board.txt: the board has 74 spaces (school 30, college 24, university 20); "
        "Le Docte Rat's board has 77: 3 spaces are missing"
    )


def test_header_lines() -> None:
    assert board_error("track school\nboard \"Ours\"\n") == (
        'board.txt line 2: the "board" line must come before the first track line'
    )
    assert board_error("default maybe\n") == (
        'board.txt line 1: bad value "maybe" for default; expected yes or no'
    )
    assert board_error('board "A"\nboard "B"\n') == (
        'board.txt line 2: a second "board" line (the first is on line 1); expected one'
    )
    assert board_error("board\n") == (
        'board.txt line 1: the board has no name; expected e.g. board "Our board"'
    )


# --- deck ---------------------------------------------------------------------------------


def test_a_real_card_has_three_columns_and_french_effect_words_work() -> None:
    deck = parse_deck(
        "# our cards\n\n"
        "3 | Va au tableau ! | avance 2, Question Petite Colle, rejoue   # note\n"
        "12 | placeholder | Repos. | repos 3, roll again, gagne 50, perds 1, recule 12\n"
    )
    assert deck.cards == (
        Card(3, "Va au tableau !", (
            Effect("advance", 2), Effect("question", series="petite_colle"),
            Effect("roll_again"),
        )),
        Card(12, "Repos.", (
            Effect("rest", 3), Effect("roll_again"), Effect("gain", 50), Effect("lose", 1),
            Effect("back", 12),
        ), placeholder=True),
    )


def test_a_family_that_lost_cards_still_has_a_deck() -> None:
    lines = SHIPPED_DECK.splitlines()
    deck = parse_deck("\n".join(line for line in lines if not line.startswith("24 ")))
    assert len(deck.cards) == 23


def test_unknown_effect() -> None:
    assert deck_error("1 | Saute ! | jump 3\n") == (
        'que-fais-je.txt line 1: unknown effect "jump 3"; expected advance N, back N, rest N, '
        "gain N, lose N, question SERIES or roll_again"
    )
    assert deck_error("1 | Avance ! | advence 3\n") == (
        'que-fais-je.txt line 1: unknown effect "advence 3"; expected advance N, back N, '
        'rest N, gain N, lose N, question SERIES or roll_again; did you mean "advance"?'
    )


@pytest.mark.parametrize(
    ("effects", "message"),
    [
        ("advance 13", 'bad number "13" for advance; expected a whole number from 1 to 12'),
        ("back 0", 'bad number "0" for back; expected a whole number from 1 to 12'),
        ("rest 4", 'bad number "4" for rest; expected a whole number from 1 to 3'),
        ("gain five", 'bad number "five" for gain; expected a whole number from 1 to 50'),
        ("lose 51", 'bad number "51" for lose; expected a whole number from 1 to 50'),
        ("gain", "gain needs a number; expected gain N with N from 1 to 50"),
        ("question", "question needs a series; expected question petite_colle, erudition, "
         "mini_test or bon_mot"),
        ("question histoire", 'unknown series "histoire" for question; expected petite_colle, '
         "erudition, mini_test or bon_mot"),
        ("roll_again 2", 'roll_again takes nothing after it, found "roll_again 2"; expected '
         "roll_again"),
        ("advance 3,, lose 5", "an empty effect between commas; expected e.g. back 2, lose 5"),
    ],
)
def test_bad_effect(effects: str, message: str) -> None:
    assert deck_error(f"# c\n5 | Une carte. | {effects}\n") == f"que-fais-je.txt line 2: {message}"


def test_duplicate_card_number() -> None:
    assert deck_error("1 | A. | gain 5\n\n1 | B. | lose 5\n") == (
        "que-fais-je.txt line 3: card number 1 is used twice (first on line 1); expected each "
        "number once"
    )


def test_missing_text() -> None:
    assert deck_error("4 | placeholder |  | gain 5\n") == (
        "que-fais-je.txt line 1: card 4 has no text; expected the words shown on screen"
    )


def test_missing_effect() -> None:
    assert deck_error("4 | Rien. |   # to do\n") == (
        "que-fais-je.txt line 1: card 4 has no effect; expected at least one, e.g. advance 3"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("Avance de 3 cases, advance 3",
         "found 1 column; expected number | text | effects (or number | placeholder | text | "
         "effects)"),
        ("1 | Avance de 3 cases.",
         "found 2 columns; expected number | text | effects (or number | placeholder | text | "
         "effects)"),
        ("1 | a | b | c | advance 3",
         "found 5 columns; expected number | text | effects (or number | placeholder | text | "
         "effects)"),
        ("1 | exemple | Avance. | advance 3",
         'the second column is "exemple"; expected "placeholder" or no column there '
         "(number | text | effects)"),
        ("un | Avance. | advance 3",
         'bad card number "un"; expected a whole number from 1 up'),
        ("0 | Avance. | advance 3",
         'bad card number "0"; expected a whole number from 1 up'),
    ],
)
def test_bad_card_line(line: str, message: str) -> None:
    assert deck_error(line + "\n") == f"que-fais-je.txt line 1: {message}"


def test_an_empty_deck() -> None:
    assert deck_error("# all our cards are lost\n") == (
        "que-fais-je.txt: no cards; expected one line per card, e.g. 1 | Avance de 3 cases. | "
        "advance 3"
    )


def test_what_cannot_be_written_back_is_refused_not_garbled() -> None:
    with pytest.raises(BoardFileError, match="card 1"):
        deck_to_text(Deck((Card(1, "a | b", (Effect("gain", 5),)),)))
    board = default_board()
    with pytest.raises(BoardFileError, match="label"):
        board_to_text(
            Board(board.name, (Track("school", "S", (Space("duo", label='say "hi"'),)),))
        )
