"""Why a die is asked, in the players' terms: the readers' notes (free text for the logs)
mapped to a handful of categories the touchscreen can explain and advise on.

An asked die (``DieReading.uncertain``) carries one of these keys in ``DieReading.doubt``,
from the first of its own doubts (:func:`doubt_of`); a die read for sure carries "". The
keys are stable (the screens translate them: ``dice.why.<key>`` in companion/ui/words):

* ``light``: a glare or a shadow on it (pips joined across a shadow's edge, a body running on
  in shade, a rat die's glare or round blurred mark): move the lamp;
* ``unclear``: pips (or rats) faint or tiny, marks the pips do not explain (a cell that
  should be empty looks like a pip: a pip missed, glare residue, a side face's pip), the die
  barely standing out from the table;
* ``side``: a side face, or a die leaning (a die body lit brighter above it, pips squashed
  unlike their face, a pip's ring across a die's edge);
* ``hidden``: touching something or partly covered (a pip nearby not part of it, touching
  dice, a notch in a rat die's outline or an outline not square, something dark joined to
  it);
* ``edge``: its body reaches the picture's edge (a bigger face may be cut by it);
* ``frames``: the still frames of one roll read it differently, or some missed it
  (:func:`companion.vision.settle.combine`);
* ``offered``: a die the learned models found where the pips did not prove it;
* ``other``: any other doubt (a loose fit, the two readers disagree, a mark of odd shape).

Pure: strings in, a key out. A note the rules do not know is ``other``, never a crash.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

LIGHT, UNCLEAR, SIDE, HIDDEN = "light", "unclear", "side", "hidden"
EDGE, FRAMES, OFFERED, OTHER = "edge", "frames", "offered", "other"
KEYS = (LIGHT, UNCLEAR, SIDE, HIDDEN, EDGE, FRAMES, OFFERED, OTHER)

#: (words in a note, its category; None: not a doubt). The first rule that matches a note
#: decides; the order matters where a note holds words of two rules ("a die body lit brighter
#: beside it" is a side face, not something beside it; "two marks almost touching" is the
#: rat die's own print, not touching dice).
RULES: tuple[tuple[str, str | None], ...] = (
    # notes that are no doubt (the die may still be asked for another reason)
    ("confirmed by the second opinion", None),
    ("not closer", None),  # "read at 640 px, not closer"
    ("short diagonal", None),  # why big pips were NOT flagged
    ("on another surface beside it left out", None),  # a certain face's side marks ignored
    # the picture's edge (a rat die's "marks run into the die's edge" is not it)
    ("picture's edge", EDGE),
    # found by the learned models where the pips proved nothing
    ("enlarged (face", None),  # found by the die finder and read for sure
    ("found by the die finder", OFFERED),
    ("; the second opinion sees", OFFERED),  # a rescue: pips that fit no face
    ("fit no face", OFFERED),
    ("no die body found", OFFERED),
    # a side face or a leaning die
    ("side face", SIDE),
    ("lit brighter", SIDE),
    ("squashed", SIDE),
    ("unequally dark", SIDE),  # a top face's pips with its front face's, shaded
    ("not one flat face", SIDE),  # a pip's ring across a die's edge
    ("top face not read", SIDE),  # pips of no face above it: a side face's
    # the rat die's own print: before "touching"
    ("two marks", OTHER),
    ("a 6's column", OTHER),  # a 3 with marks beside it: part of a 6?
    ("other column of a 6", OTHER),
    # touching something, or partly covered
    ("not face against face", HIDDEN),
    ("rat's tail", HIDDEN),  # a rat die's print showing only past something lying over it
    ("touching", HIDDEN),
    ("nearby", HIDDEN),
    ("beside it", HIDDEN),
    ("notch", HIDDEN),
    ("die not square", HIDDEN),  # a rat die's blob joined to a board's line, a shadow...
    ("joined to something", HIDDEN),
    ("print cut off", HIDDEN),  # a rat die's print runs past its outline: something cuts it
    ("is a die read at", HIDDEN),  # a pip of it is another die
    ("other pips on its body", HIDDEN),
    ("in one cluster", HIDDEN),
    # a glare, a shadow
    ("glare", LIGHT),
    ("uneven light", LIGHT),
    ("shade", LIGHT),  # "a lone pip: its body runs on in shade"
    ("shadow", LIGHT),
    ("light that is not print", LIGHT),  # a rat die's cut set by a lit rim or the table's light
    ("light around the die", OTHER),  # a rat die's outline with light around: part of one?
    ("blurred mark", LIGHT),
    # pips not clear: faint, tiny, stray marks among them; a die that barely stands out
    ("should be empty looks like a pip", UNCLEAR),
    ("unexplained marks", UNCLEAR),
    ("low contrast", UNCLEAR),
    ("too small", UNCLEAR),
    ("barely stand", UNCLEAR),
    ("faint", UNCLEAR),
    ("dark table", UNCLEAR),
    ("dark mat", UNCLEAR),
    ("a mark only", UNCLEAR),  # a 3 whose third pip is a mark only
    ("rings took", UNCLEAR),  # a 2 of two lone pips whose rings took its die's edge
)

_WHERE = re.compile(r"^die (?:\d+ )?at \(-?\d+, -?\d+\): ")


def category(note: str) -> str | None:
    """The category of one note (with or without its "die at (x, y): " prefix), None when
    it is no doubt; ``other`` when no rule knows it."""
    text = _WHERE.sub("", note).lower()
    for words, key in RULES:
        if words in text:
            return key
    return OTHER


def doubt_of(notes: Iterable[str]) -> str:
    """The category of the first doubt among a die's notes; ``other`` when none is known."""
    for note in notes:
        key = category(note)
        if key is not None:
            return key
    return OTHER
