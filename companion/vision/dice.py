"""Read pip dice: every die in view, its top face's value, where it is, and how sure we are.

:func:`read_pips` is pure (image in, :class:`DiceObservation` out), deterministic and keeps
no state. The pipeline, all classical OpenCV:

1. normalise: long side to at most 640 px, a 3x3 median (kills salt-and-pepper noise);
2. pip candidates of both polarities (dark pips on light dice, light pips on dark or
   translucent dice) at three scales (:mod:`companion.vision.pips`);
3. group pips into faces: two pips belong to one face when they have the same polarity,
   similar sizes, shapes and ring colours, lie within a face's reach of each other, and the
   straight line between them stays on face-coloured pixels (no table, gap or die edge);
   a group that fits no layout is split again with stricter tolerances; a face with marks
   that are not its pips, or a group that fits no layout, is tried with the pips near it
   that those tests refused (a pip near a tilted face's edge has the bevel in its ring):
   one clean layout with them is offered, asked (:func:`_join_pips`); two lone pips whose
   rings took their die's edge, a clean line of face between them, may make a 2, asked
   (:func:`_edge_ringed_twos`); two long marks side by side, where no face was read, may be
   a small 6's columns of touching pips: cut into three pips each, a 6 kept only when the
   second opinion confirms it (:func:`_column_sixes`);
4. fit each group to the six canonical layouts (a 3x3 grid seen through an affine map for 4
   to 6 pips, a similarity along the diagonal for 2 and 3), then look at all nine grid cells
   and the rest of the face in the image: a cell that should be empty but looks like a pip,
   marks left unexplained, pips of unequal sizes, a squash that the pips do not share (in
   size, or for a 4 or a 5 in direction), a similar pip nearby left out of a 2 or a 3, pips
   too big for a 2 or 3 compared with the other dice in view (unless the die body is
   centred on it and it lies along the body's diagonal: dice that print their 2 and 3 on
   a shorter diagonal), a 2 with pips too small to prove that no other pip is there, a 2
   or 3 with no die body around it or with pip-like marks where the rest of a 4 or 6
   would be, a 4 or 5 whose layout carries on around it (a lattice of holes or dots), a
   face one of whose pips is a die read there, a 2 or 3 with a pip whose ring is not one
   flat colour (a die's edge), pips of no face above a squashed face (its die's top face,
   not read), pips in other light that make a bigger face with it (a shadow's edge): all
   make the die uncertain (it is never silently re-valued);
5. a lone pip is a 1 only when a closed face-coloured body surrounds it, centred on it;
6. two faces centred on one spot are one die read twice (pips found at two scales, or the
   light gaps between dark pips): the one with more pips is kept;
   oblique views: two faces closer than about a die apart are a top face and a side face
   of one die; the top one is kept (higher in the picture, least foreshortened). A face
   alone that looks like a side face (pips squashed sideways, die body above it) is flagged.
   This assumes an upright camera (the picture's top edge is the far side of the table),
   except that "sideways" is taken from the squash the dice in view share when at least
   three of them agree on it (a turned camera squashes all top faces alike).

7. a learned second opinion (:mod:`companion.vision.facenet`, :func:`_second_opinion`)
   looks at each die as a picture: a certain reading it disagrees with is asked; an asked
   reading it confirms, when every doubt is one a picture can settle, becomes certain. It
   never changes a value the pips gave. Pips that fit no face, where it clearly sees a die,
   are offered as a die with the value it sees, always asked (:func:`_rescue`). A learned
   die finder's places where no die was read are cut out and read enlarged
   (:func:`_found_elsewhere`); a place it is sure of that nothing reads is asked, with the
   face model's likeliest value (a die the finder sees is not left out of the roll).

A reading is ``uncertain`` whenever any of those checks is marginal: the players are asked
rather than told a wrong value. ``notes`` says why, per die.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import diefinder, facenet
from companion.vision.doubts import doubt_of
from companion.vision.observation import DiceObservation, DieReading
from companion.vision.pips import (
    DARK,
    GREY,
    LIGHT,
    Pip,
    column_pairs,
    column_pips,
    describe_blobs,
    find_pips,
    intensities,
    moments_ellipse,
    near_pairs,
)

WORK_SIZE = 640  # long side of the working image, pixels
# a picture bigger than WORK_SIZE is also read CLOSER times closer (never past its own
# pixels), and that reading is kept, with the dice it loses (_both_scales)
CLOSER = 2.0
SMALLER = 0.6  # a die read closer this much smaller than the others is asked
CLOSER_PIPS = 300  # more pip candidates closer: not read closer (at most 87 on far renders)
BUSY_FOUND = 4  # ... and at BUSY_FOUND times that before deduplication, not found further
MAX_DICE = 12
BIG_PIPS = 1.22  # a 2 or 3 whose pips are this much bigger for its side than a 4-6's: asked,
BIG_PIPS_CENTRED = 1.5  # ... unless it is centred on its die body (OFF_CENTRE) and below this
OFF_CENTRE = 0.3  # opposite rays' reach from a face's centre differ by this of their mean
OFF_RANK = 3  # ... the third largest such difference (one or two side faces in view)
OFF_DIAGONAL = 12.0  # ... and its pips lie within this many degrees of its body's diagonal
OPEN_RAYS = 4  # a 2 or 3 with more rays than this running on over its colour: no die body
BODY_REACH = 1.0  # ... or with more than half its rays running on past this many sides
PARALLEL_REACH = 1.6  # a 3 with a copy of its row this many spans beside it: asked
EDGE_RING = 0.7  # a 2's or 3's pip whose ring's grey spread exceeds this much of its contrast
SQUASHED = 0.85  # a face fitted this squashed (minor / major) or more is seen at an angle
ABOVE_REACH = 1.5  # pips of no face above a squashed face within this many sides: asked
COLUMN = 3.5  # ... or a mark as wide as its pips, up to this many times as long (merged pips)
BODY_TOL = 18.0  # ... joined to it over its colour in other light within this (BGR distance)
UNEQUAL_DARK = 2.0  # a face whose pips differ this much in contrast: asked
ABOVE_TURNS = (0.0, -40.0, 40.0)  # a side face's die body is looked for up, up-left, up-right
TOP_SPAN = (0.35, 1.25)  # ... its top face (with pips) this many sides from its centre
PAST_PIPS = 1.5  # ... its pips looked past: up to this many of the face's pips' half-length
SHADE_CHROMA = 0.04  # ... of its colour in other light: chromaticity within this
SHADE_RATIO = (0.75, 2.4)  # ... and this many times as bright
SHADE_LIT = 1.15  # ... for a white or grey die (a 1, or in a picture taken at an angle),
# at least this many times
SHADE_SATURATION = 0.06  # ... a coloured die: up to this much more saturated where lit brighter
JOIN_COLOUR = 2.0  # pips a face left out, tried again: ring colours within this many tolerances
JOIN_REACH = 1.0  # ... within this many face sides of its centre
JOIN_MAX = 4  # ... at most this many of them (more: a pattern, not tried)
JOIN_GROUPS = 2 * MAX_DICE  # more groups of pips that fit no face: a busy table, not tried
LONE_REACH = 12.0  # a lone pip is tried with pips within this many pip radii (a die's side)
HEAD_ON = 0.85  # ... when both are this round (minor / major axis): a face seen from above
EDGE_REACH = 1.2  # a 1-4 this many sides from the picture's edge, its body on the edge: asked
EDGE_STRIP = 5  # ... "on the edge": in the outermost EDGE_STRIP px (pips that near are lost)
EDGE_COLOUR = 60.0  # ... and within this (sum of |BGR| differences) of its face colour
CLEAR_SQUARE = 0.7  # ... unless its pips lie clear of the frame, a 4 this near square at least
HALO = 2.6  # a lone pip's rays start within this many radii, past its blurred rim
PIP_STOP = 1.8  # a lone pip's ray stopping this many radii of another pip short of it was
# stopped by that pip's blurred rim, not by its die's edge: a 2 whose pips were kept apart
HIT_RIM = 1.5  # ... a ray passing this many of the pip's radii from its centre (its rim)
ALIKE = (0.15, 1.4, 1.5)  # ... a pip of its face: roundness (minor / major) this close, radius
# and contrast within these factors
ALONG = 30.0  # ... and, both squashed, their long axes this many degrees apart at most
BETWEEN = 1.05  # ... the face between them lit no brighter than the brighter ring, within this
ONE_ROW = 0.15  # ... and not of a group of its own that with the lone pip is no row (this much
# as wide across its line as along it: a side face's pips)
FAR_SIDE = 0.2  # a face this much more squashed than a face of its die below it: asked
_MIN_SURE_PIP = 2.5  # pip radius (working pixels) below which a pip may vanish unseen
_SQUASH_SEEN = 1.0  # px: a pip this much longer than wide is seen squashed (smaller: pixels)
# The learned second opinion (assets/vision/pips_face.onnx, tools/train_face_net.py). Its
# thresholds were chosen on out-of-fold opinions of the train photos (docs/vision.md).
FACE_MODEL = "pips_face"
VETO = 0.2  # a certain reading the model gives less than this probability is asked
CONFIRM = 0.97  # an asked reading the model gives at least this is confirmed (see below)
JOIN_CONFIRM = 0.9  # ... a shadow's edge across it its only doubt, round pips (_confirm_bar)
_JOINED = "pips joined across uneven light"
_IN_SHADE = "a lone pip: its body runs on in shade (a shadow's edge across it?)"
RESCUE_SIDE = 9.0  # a die's side in pip radii, for pips that fit no face when no die is read
# The learned die finder (assets/vision/die_finder.onnx, tools/train_die_finder.py): dice it
# sees where none was read are read in a crop enlarged to FOUND_SIDE (_found_elsewhere)
FINDER_MODEL = "die_finder"
FOUND_SIDE = 60.0  # px across a found die once enlarged
FOUND_MARGIN = 1.0  # the crop reaches this many die sides from the die's centre
FOUND_AGREE = 0.5  # a die read there is kept if the face model gives its value this much,
FOUND_FIT = (0.4, 1.3)  # and certain if read so and its face is this many times the die's side
FOUND_SURE = (CONFIRM, 0.9)  # ... and the face model gives its value this much (2-3; 1, 4-6)
FOUND_BESIDE = 1.0  # ... and no certain die was read nearer than this many sides (either's)
FOUND_ASK = 0.7  # a die the finder is this sure of, not read: asked, the face model's guess
PAIR_SPAN = (4.0, 11.0)  # two lone pips this many radii apart may be a 2 (_edge_ringed_twos)
PAIR_ALONE = 400  # ... not tried among more lone pips than this (a busy table)
BEYOND = 0.55  # marks this many sides from a face's centre lie beyond it (_marks_elsewhere)
SHADE = (0.3, 0.9)  # a face in shade (a side face, a shadow) is this many times as bright
MARK_SHAPE = 0.12  # a pip-like mark is at least this round (minor / major axis)
ROW_SEAM = 0.05  # a 2's or 3's pip line crossed by a seam this much of its contrast off it
ROW_WIDTH = 0.5  # ... its body across that line ending within this many sides: dice in a row
ROW_TOL = 0.3  # ... "its body": within this much of its contrast of the face's colour
TOP_OVER_FRONT = 9  # a cluster of at most this many pips may be a top face over its front
BIGGER_TOL = 0.5  # a pip this many grid steps from where a bigger face of a 2's or 3's pips
BIGGER_LOST = 2  # has one, that face missing at most this many more, may be of it
BIGGER_MASS = 0.25  # marks of this much of a pip's area there may be such a face's pip
FAINT_PIP = 0.16  # a pip response this much of a face's pips' contrast where a bigger face
# has each of its other pips: faint pips (worn, under a glare) of that face, asked
ABOVE_FACE = 0.45  # marks this many sides above a 2's or 3's centre may be its top face's

# canonical layouts on a 3x3 grid (units: one pip spacing), x right, y down
_LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([(0, 0)], np.float64),
    2: np.array([(-1, -1), (1, 1)], np.float64),
    3: np.array([(-1, -1), (0, 0), (1, 1)], np.float64),
    4: np.array([(-1, -1), (1, -1), (-1, 1), (1, 1)], np.float64),
    5: np.array([(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], np.float64),
    6: np.array([(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)], np.float64),
}
_GRID = np.array([(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)], np.float64)
# pip spacing (centre to centre, one grid unit) as a fraction of the die side
_SPACING = 0.26
# a doubt the face model may settle: what may be a bigger face's pip lies nowhere it has one
_NO_BIGGER = "nor where a bigger face's pip would be"
_AROUND_LONE = "unexplained marks around a lone pip"


def _perm_pinv() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For n = 4..6: every ordering of the layout, and the pseudo-inverses for affine fits."""
    out = {}
    for n in (4, 5, 6):
        perms = np.array(list(itertools.permutations(range(n))))
        canon = _LAYOUTS[n][perms]  # P x n x 2
        homog = np.concatenate([canon, np.ones((*canon.shape[:2], 1))], axis=2)
        out[n] = (canon, np.linalg.pinv(homog))  # P x 3 x n
    return out


_PINV = _perm_pinv()


@dataclass
class _Face:
    value: int
    x: float
    y: float
    side: float
    confidence: float
    uncertain: bool
    isotropy: float  # minor/major singular value of the face's affine map (1: seen head-on)
    notes: list[str]
    pips: list[Pip]
    unsettled: bool = False  # a doubt a picture of the face cannot settle (see _second_opinion)
    side_doubt: bool = False  # "top or side face?" (see _drop_side_faces, _flag_side_faces)
    crowded: bool = False  # pip-like marks on the face that are not its pips (see _join_pips)
    edge_pair: bool = False  # a 2 from two lone pips whose rings took its edge (_edge_ringed_twos)
    columns: bool = False  # a 6 read from its two columns' marks (_column_sixes)


def read_pips(image: np.ndarray, *, second_opinion: bool = True,
              side_faces: list[DieReading] | None = None, find_dice: bool = True,
              edges: bool = True) -> DiceObservation:  # fmt: skip
    """Every pip die in ``image`` (BGR or grey uint8): value, top-face centre, confidence.

    The picture is read with its long side brought down to ``WORK_SIZE``; a bigger picture
    is also read ``CLOSER`` times closer, and that reading is kept, with the dice it loses
    (:func:`_both_scales`), so that dice far from the camera are read at a size their pips
    survive.

    ``second_opinion``: let the learned face classifier (:mod:`companion.vision.facenet`)
    look at every die found (see :func:`_second_opinion`); off, the classical reader alone.
    ``side_faces``: a list to which the faces dropped as side faces are added (what
    ``tools/train_face_net.py`` learns "not a top face" from). ``find_dice``: let the
    learned die finder look for dice the pips missed (:func:`_found_elsewhere`).
    ``edges=False``: the picture's borders are not the camera's (a crop), so a die there
    is not taken for one cut by the frame (:func:`_flag_cut_by_edge`).
    """
    img = np.asarray(image)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.ndim != 3 or img.shape[2] not in (3, 4) or img.size == 0:
        raise ValueError(f"expected an H x W x 3 BGR image, got shape {img.shape}")
    if img.shape[2] == 4:
        img = img[:, :, :3]
    if img.dtype != np.uint8:
        img = np.clip(img, 0, 255).astype(np.uint8)
    height, width = img.shape[:2]
    scale = min(1.0, WORK_SIZE / max(height, width))
    seen: list[int] = []
    faces, failed, notes, dropped = _read_classical(img, scale, edges=edges, pips_seen=seen)
    # more pip candidates than CLOSER_PIPS already at WORK_SIZE (a perforated mat, granite, a
    # dotted board): closer there are as many or more (every busy render), so the closer
    # reading would not be used; it is not made (it cost 0.1-0.3 s on such a table)
    if scale < 1.0 and seen[0] <= CLOSER_PIPS:
        closer = min(1.0, CLOSER * scale)
        near, near_failed, near_notes, near_dropped = _read_classical(img, closer, CLOSER_PIPS,
                                                                      edges)  # fmt: skip
        # more than MAX_DICE faces (or CLOSER_PIPS pips) closer: a speckled or grainy table
        # read as pips (every die would be asked, after seconds of grouping them); the
        # reading at WORK_SIZE stands alone, as before
        if near and len(near) <= MAX_DICE:
            faces = _both_scales(faces, near, closer / scale, near_notes)
            failed, notes, dropped, scale = near_failed, near_notes, near_dropped, closer
    if side_faces is not None:
        side_faces.extend(_reading(f, scale) for f in dropped)
    if len(faces) > MAX_DICE:
        notes.append(f"{len(faces)} dice found, more than {MAX_DICE}: all flagged")
        for f in faces:
            f.uncertain = True
    elif second_opinion:
        model = facenet.load(FACE_MODEL)
        if model is not None:
            if faces or failed:
                _second_opinion(model, img, scale, faces, notes)
                faces, notes = _unconfirmed_columns_dropped(faces, notes)
                faces.extend(_rescue(model, img, scale, failed, faces, notes))
            if find_dice:
                faces.extend(_found_elsewhere(model, img, scale, faces, notes))
            if len(faces) > MAX_DICE:
                notes.append(f"{len(faces)} dice with those offered: all flagged")
                for f in faces:
                    f.uncertain = True
    faces.sort(key=lambda f: (round(f.y / 8), f.x))
    dice = tuple(_reading(f, scale, notes) for f in faces)
    return DiceObservation("pips", dice, width, height, tuple(notes))


def _read_classical(img: np.ndarray, scale: float, max_pips: int | None = None,
                    edges: bool = True, pips_seen: list[int] | None = None
                    ) -> tuple[list[_Face], list[list[Pip]], list[str], list[_Face]]:  # fmt: skip
    """The classical reader on ``img`` shrunk by ``scale``: the faces kept, the pip groups
    that fit no face, the notes, and the faces dropped as side faces (working pixels).
    With more than ``max_pips`` pip candidates, nothing (a note says so). ``pips_seen``: a
    list to which the number of pip candidates is added."""
    height, width = img.shape[:2]
    work = img
    if scale < 1.0:
        work = cv2.resize(img, (round(width * scale), round(height * scale)),
                          interpolation=cv2.INTER_AREA)  # fmt: skip
    work = cv2.medianBlur(work, 3)
    planes = intensities(work)

    # more than BUSY_FOUND times max_pips before deduplication: a busy table whose count
    # would not fall to max_pips (at most 1.4 times fewer after it on the far renders,
    # 2.0 on busy tables); stop finding them
    limit = None if max_pips is None else BUSY_FOUND * max_pips
    pips, responses = find_pips(work, planes, limit)
    if pips_seen is not None:
        pips_seen.append(len(pips))
    if max_pips is not None and len(pips) > max_pips:
        return [], [], [f"{len(pips)} pip-like marks at {scale:.2f}: not read there"], []
    failed: list[list[Pip]] = []
    faces, notes = _read_faces(work, planes, pips, responses, failed)
    seen = faces = _merge_doubles(faces, notes)
    faces = _drop_side_faces(faces, notes, work.shape[0])
    kept = {id(f) for f in faces}
    dropped = [f for f in seen if id(f) not in kept]
    _flag_side_faces(work, faces, notes, responses)
    _flag_neighbour_pips(work, planes, responses, faces, pips, notes)
    _flag_rest_of_a_face(work, faces, responses, notes)
    faces = _column_of_a_six(faces, responses, notes)
    _flag_lattice(faces, responses, notes)
    _flag_pips_that_are_dice(faces, notes)
    _flag_odd_proportions(work, planes[GREY], faces, notes)
    _flag_no_body(work, planes[GREY], faces, notes)
    _flag_dice_in_a_row(work, faces, notes)
    if edges:
        _flag_cut_by_edge(work, faces, notes)
    # a 2 made of two lone pips stands only with no doubt a picture cannot settle: else the
    # place is left to the die finder (two pips of a 4 whose others were lost fit a 2)
    faces, notes = _without(faces, notes, lambda f: f.edge_pair and f.unsettled)
    return faces, failed, notes, dropped


def _flag_cut_by_edge(work: np.ndarray, faces: list[_Face], notes: list[str]) -> None:
    """A 1 to 4 whose die body reaches the picture's edge (:func:`_reaches_edge`) may be what
    is left of a bigger face cut by the frame, or whose pips near the border were lost (a 4
    whose two remaining pips read as a 2): asked, and no second opinion may settle it. A 5
    or a 6 is never what is left of a bigger face. Nor is a 2 to 4 whose pips, and the other
    pips of every bigger face they may be part of, all lie clear of the border
    (:func:`_clear_of_the_frame`): its body may run to the edge (a side face seen at an
    angle; a printed board's light squares of the die's colour at the frame), the frame hides
    none of its pips."""
    for f in faces:
        if (f.uncertain and f.unsettled) or f.value > 4 or not f.pips:
            continue
        if _clear_of_the_frame(work, f):
            continue
        colour = np.array([_median([p.face[c] for p in f.pips]) for c in range(3)])
        if _reaches_edge(work, f.x, f.y, f.side, colour):
            f.uncertain = f.unsettled = True
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): its body reaches the picture's edge")


def _clear_of_the_frame(work: np.ndarray, f: _Face) -> bool:
    """Whether the 2, 3 or 4 ``f`` (its own pips found) and the other pips of every bigger face
    it may be part of lie at least two pip radii and ``EDGE_STRIP`` px inside the picture: a
    pip there is whole in view. A 4's bigger faces (5, 6) put their pips between its own; a
    2's or a 3's are fitted (:func:`_bigger_faces_at`: the two adjacent pips of a 4, the
    column of a 6...). Two adjacent rows of a 6 make a rectangle twice as long as wide, which
    a 4's fit takes for a square seen at a steep angle, the 6's third row beyond: a 4 is clear
    only when its layout is near square (``f.isotropy`` at least ``CLEAR_SQUARE``; a square
    seen 35 degrees from straight down keeps 0.82)."""
    if f.value not in (2, 3, 4) or len(f.pips) != f.value:
        return False
    if f.value == 4 and f.isotropy < CLEAR_SQUARE:
        return False
    h, w = work.shape[:2]
    clear = 2 * _median([p.r for p in f.pips]) + EDGE_STRIP
    where = [complex(p.x, p.y) for p in f.pips]
    if f.value < 4:
        for _, there in _bigger_faces_at(f.pips):
            where.extend(complex(z) for z in there)
    return all(clear <= z.real <= w - 1 - clear and clear <= z.imag <= h - 1 - clear
               for z in where)  # fmt: skip


def _reaches_edge(img: np.ndarray, x: float, y: float, side: float, colour: np.ndarray
                  ) -> bool:  # fmt: skip
    """Whether a die face of ``colour`` (BGR) centred at (x, y), ``side`` px across, lies
    within ``EDGE_REACH`` sides of the picture's edge with its body on that edge: a quarter
    of the outermost ``EDGE_STRIP`` px beside it within ``EDGE_COLOUR`` of its colour (pips
    that near the border are lost)."""
    h, w = img.shape[:2]
    lo_x, hi_x = int(max(0, x - 0.5 * side)), int(min(w, x + 0.5 * side + 1))
    lo_y, hi_y = int(max(0, y - 0.5 * side)), int(min(h, y + 0.5 * side + 1))
    n = EDGE_STRIP
    edges = [(x + 0.5, img[lo_y:hi_y, :n]), (w - 0.5 - x, img[lo_y:hi_y, -n:]),
             (y + 0.5, img[:n, lo_x:hi_x]), (h - 0.5 - y, img[-n:, lo_x:hi_x])]  # fmt: skip
    for dist, strip in edges:
        if dist >= EDGE_REACH * side or strip.size == 0:
            continue
        near = np.abs(strip.reshape(-1, 3).astype(np.float64) - colour).sum(axis=1)
        if float(np.mean(near < EDGE_COLOUR)) > 0.25:
            return True
    return False


def _both_scales(far: list[_Face], near: list[_Face], zoom: float, notes: list[str]
                 ) -> list[_Face]:  # fmt: skip
    """The dice of one picture read at two scales, ``near`` ``zoom`` times closer than
    ``far``, as one list in the closer reading's pixels: the closer reading, plus the dice
    read certain further away that it lost (a die 300 px across read closer outgrows the
    pip finder's scales), without the faces read closer inside them (their pips).

    Reading closer is for dice far from the camera: a Pi camera at 50-60 cm sees a 16 mm
    die about 15-20 px across once its 1280 x 960 frame is shrunk to 640 px, and the dice
    lose their pips: they are missed, or worse, several of them are read as the pips of one
    big ghost face (which is not "lost": those dice are read closer, on it). Dice of ordinary
    size are read better closer too (renders of 60-90 px dice in 1280 x 960 frames: 93 %
    read at 640 px, 99.5 % at 1280). Three guards (from a review: each case made certain
    wrong readings or ghosts on upscaled photos or renders):
    - a face read closer on a die read certain further away, of about its size but with
      another value, is asked, and no second opinion may settle it (part of a die's pips
      read as a smaller face: a 4 read closer as a 1 or a 2);
    - a face one of whose pips is another die read closer is asked, unsettled (two tiny
      dice on a light table read as the two pips of a big "2");
    - a face read closer that is less than ``SMALLER`` times the median side of the other
      dice is asked, unsettled (two specks at a photo's edge read as a small "2"
      beside dice twice its size; one set of dice seen from above is one size)."""
    side = _median([f.side for f in near]) / zoom
    notes.insert(0, f"dice {side:.0f} px across at {WORK_SIZE} px: read at {zoom:g}x that")

    def on(g: _Face, f: _Face, reach: float) -> bool:  # g (closer) within reach of f (far)
        return math.hypot(_closer_px(g.x, 1 / zoom) - f.x,
                          _closer_px(g.y, 1 / zoom) - f.y) < reach * f.side  # fmt: skip

    # an asked 2 read closer from two lone pips (_edge_ringed_twos) gives way to a die read
    # certain further away
    lost = [f for f in far if not f.uncertain
            and not any(on(g, f, 0.5) for g in near if not (g.edge_pair and g.uncertain))]
    out = [g for g in near if not any(on(g, f, 0.5) for f in lost)]
    for g in out:
        for f in far:
            if (not f.uncertain and f.value != g.value and on(g, f, 0.5)
                    and 0.6 < g.side / (f.side * zoom) < 1.6):  # fmt: skip
                g.uncertain = g.unsettled = True
                notes.append(f"die at ({g.x:.0f}, {g.y:.0f}): read {g.value} closer, "
                             f"{f.value} at {WORK_SIZE} px")  # fmt: skip
                break
    _flag_pips_that_are_dice(out, notes)
    closer = list(out)
    for f in lost:
        pips = [dataclasses.replace(p, x=_closer_px(p.x, zoom), y=_closer_px(p.y, zoom),
                                    r=p.r * zoom, major=p.major * zoom, minor=p.minor * zoom)
                for p in f.pips]  # fmt: skip
        x, y = _closer_px(f.x, zoom), _closer_px(f.y, zoom)
        out.append(dataclasses.replace(f, x=x, y=y, side=f.side * zoom, pips=pips))
        notes.append(f"die at ({x:.0f}, {y:.0f}): read at {WORK_SIZE} px, not closer")
    for g in closer:
        others = [h.side for h in out if h is not g]
        if not g.uncertain and others and g.side < SMALLER * _median(others):
            g.uncertain = g.unsettled = True
            notes.append(f"die at ({g.x:.0f}, {g.y:.0f}): much smaller than the other dice")
    return out


def _flag_pips_that_are_dice(faces: list[_Face], notes: list[str]) -> None:
    """A face one of whose pips is a die read in the same picture (a face less than half
    its size there) is asked, and no second opinion may settle it: small dice on a table
    of their face's colour are the pips of a big ghost face (two dark dice on a light
    table, a "2" the table's size; or tiny dice read closer as the pips of a big "2")."""
    for g in faces:
        for h in faces:
            if h is not g and h.side < 0.5 * g.side and any(
                math.hypot(h.x - p.x, h.y - p.y) < max(1.5 * p.r, 0.5 * h.side) for p in g.pips
            ):
                g.uncertain = g.unsettled = True
                notes.append(f"die at ({g.x:.0f}, {g.y:.0f}): a pip of it is a die read at "
                             f"({h.x:.0f}, {h.y:.0f})")  # fmt: skip
                break


def _closer_px(v: float, zoom: float) -> float:
    """A coordinate of a picture, in pixels of the same picture ``zoom`` times bigger (or,
    with ``zoom`` < 1, smaller: an input coordinate at a working ``scale``)."""
    return (v + 0.5) * zoom - 0.5


def _input_px(v: float, scale: float) -> float:
    """A coordinate of the working image, in pixels of the input image."""
    return (v + 0.5) / scale - 0.5


def _reading(f: _Face, scale: float, notes: list[str] | None = None) -> DieReading:
    """A face found in the working image, in pixels of the input image. An asked one says
    why for the players (:mod:`companion.vision.doubts`): the first of its doubts among the
    picture's ``notes`` about it ("die at (x, y): ...", working pixels) and its own."""
    where = f"die at ({f.x:.0f}, {f.y:.0f}): "
    about = [n for n in notes or () if n.startswith(where)]
    return DieReading(
        value=f.value,
        x=_input_px(f.x, scale),
        y=_input_px(f.y, scale),
        confidence=round(float(min(1.0, max(0.0, f.confidence))), 3),
        uncertain=bool(f.uncertain),
        size=f.side / scale,
        doubt=doubt_of([*about, *f.notes]) if f.uncertain else "",
    )


def _second_opinion(model: facenet.FaceNet, img: np.ndarray, scale: float, faces: list[_Face],
                    notes: list[str]) -> None:  # fmt: skip
    """Let the learned classifier look at every face read, as a picture of the die.

    It may only make the reader more careful, or confirm what the reader already read:
    - a certain reading that the model finds unlikely (below ``VETO``) is asked;
    - an asked reading that the model gives the very same value with at least ``CONFIRM`` is
      confirmed, but only when every doubt about it is one a picture of the face can settle:
      low-contrast pips, a face squashed unlike its pips, a lone pip off the middle of an
      uneven or open body or whose body ends at a pip like it (:func:`_pip_stops_body`;
      unsettled, it asked 8 of the 151 right certain 1s of the webcam train photos, their
      side faces' pips), and whether it is a top or a side face (the model learned the
      side faces the reader drops as "not a top face", with their die around them); and
      a pip nearby or marks beside a 2 or a 3 that lie nowhere a bigger face of its pips
      (or, for marks, its top face above it) would have them. Every other doubt sets
      ``unsettled``: they say pips may be missing or belong to a bigger
      face (glare residue in an empty cell or on the face, a pip nearby left out, a row of
      a 6 lost, pips of unequal sizes, a loose fit, pips too big for a 2 or a 3, pips too
      small to prove a 2, other pips around a lone pip, a lone pip off its body's middle
      whose body also ends at a pip like it, 7+ pips in a cluster), and the model, shown
      the same pixels, can be fooled the same way.
    It never changes a value: a die it reads otherwise is asked, with its reading kept."""
    readings = [_reading(f, scale) for f in faces]
    centres = np.array([(d.x, d.y) for d in readings])
    sides = np.array([d.size for d in readings])
    probs = model.probabilities(img, centres, sides)
    classes = list(model.classes)
    for f, p in zip(faces, probs, strict=True):
        mine = float(p[classes.index(f.value)]) if f.value in classes else 0.0
        theirs = classes[int(np.argmax(p))]
        where = f"die at ({f.x:.0f}, {f.y:.0f})"
        if not f.uncertain and mine < VETO:
            f.uncertain = True
            f.confidence = min(f.confidence, mine)
            seen = "no die face" if theirs == 0 else f"a {theirs}"
            notes.append(f"{where}: the second opinion sees {seen} ({mine:.2f} for a {f.value})")
        elif f.uncertain and not f.unsettled and mine >= _confirm_bar(f, where, notes):
            f.uncertain = False
            f.confidence = max(f.confidence, 0.9)
            notes.append(f"{where}: confirmed by the second opinion ({mine:.3f})")


def _confirm_bar(f: _Face, where: str, notes: list[str]) -> float:
    """The face model's probability that confirms asked face ``f`` (``where``: its notes'
    prefix): ``CONFIRM``, or ``JOIN_CONFIRM`` when its one doubt is a shadow's edge across
    it, its pips all round (seen from above):
    - its pips were joined across uneven light (:func:`_join_pips`) into a face the layouts
      read with no doubt, a 4 to 6. Of the 720 such joins on the train renders (shadow
      1000-1999, oblique 1000-1649) and photos, those of round pips the model gave 0.75 or
      more were all right (456; eleventh pass); the two wrong ones of round pips were 2s
      (0.74 and 0.10), and on a validation range (shadow 7 000 000..) a 6's column in two
      lights joined into a 3 was given 0.91. A 2 or a 3 is what a bigger face's pips make
      when some are lost: joins into them keep ``CONFIRM``;
    - or it is a 1 whose body runs on in shade (:func:`_single`): on the same train data
      (twelfth pass) 42 such 1s, the 40 right ones given 0.81-0.995 (18 under 0.97), the two
      wrong ones 0.017 and 0.034."""
    only = len(f.notes) == 1 and all(
        n == f"{where}: {f.notes[0]}" for n in notes if n.startswith(where + ": "))
    round_ = _seen_from_above(f.pips)
    if only and round_ and (f.value >= 4 and f.notes[0].startswith(_JOINED)
                            or f.value == 1 and f.notes[0] == _IN_SHADE):  # fmt: skip
        return JOIN_CONFIRM
    return CONFIRM


def _rescue(model: facenet.FaceNet, img: np.ndarray, scale: float, failed: list[list[Pip]],
            faces: list[_Face], notes: list[str]) -> list[_Face]:  # fmt: skip
    """Pips were found but fit no face (a pip lost to a board line, a pip merged with a
    die's corner, a 1 whose die body the rays could not close): let the learned classifier
    look at the die they suggest. A die it reads with at least ``CONFIRM``, showing at
    least as many pips as were found, is offered to the players as a question (never
    certain: the pips did not prove it). The die's side is taken from its pips' size, at
    the side-to-pip ratio of the dice read in the picture (``RESCUE_SIDE`` with none)."""
    # dice of one set share their side to pip size ratio: take it from the dice read
    ratios = [f.side / _median([p.r for p in f.pips]) for f in faces if len(f.pips) >= 2]
    per_pip = _median(ratios) if ratios else RESCUE_SIDE
    cands = []
    for group in failed:
        if len(group) > 6:
            continue
        x = sum(p.x for p in group) / len(group)
        y = sum(p.y for p in group) / len(group)
        # (a 1's pip is often bigger than the others: a lone pip keeps the fixed ratio)
        side = (per_pip if len(group) > 1 else RESCUE_SIDE) * _median([p.r for p in group])
        if any(math.hypot(x - f.x, y - f.y) < 0.45 * (side + f.side)
               or (y > f.y and math.hypot(x - f.x, y - f.y) < 1.4 * max(side, f.side))
               for f in faces):  # fmt: skip
            # it would overlap a die already read (part of it), or lies just below one:
            # that die's front side face, whose squashed pips fit no layout either
            continue
        cands.append((group, x, y, side))
    if not cands:
        return []
    centres = np.array([(_input_px(x, scale), _input_px(y, scale)) for _, x, y, _ in cands])
    probs = model.probabilities(img, centres, np.array([side / scale for *_, side in cands]))
    classes = list(model.classes)
    out: list[_Face] = []
    for (group, x, y, side), p in zip(cands, probs, strict=True):
        k = int(np.argmax(p))
        value, sure = classes[k], float(p[k])
        if value < max(len(group), 1) or sure < CONFIRM:
            continue
        if any(math.hypot(x - f.x, y - f.y) < 0.45 * (side + f.side) for f in out):
            continue
        found = "a lone pip, no die body found" if len(group) == 1 else \
            f"{len(group)} pips that fit no face"
        note = f"{found}; the second opinion sees a {value} ({sure:.2f})"
        out.append(_Face(value, x, y, side, 0.5 * sure, True, 1.0, [note], group, True))
        notes.append(f"die at ({x:.0f}, {y:.0f}): {note}")
    return out


def _proposals(img: np.ndarray) -> list[diefinder.Proposal]:
    """Die bodies the learned finder sees in ``img`` (input pixels), none without it."""
    finder = diefinder.load(FINDER_MODEL)
    return [] if finder is None else finder.find(img)


def _found_elsewhere(model: facenet.FaceNet, img: np.ndarray, scale: float, faces: list[_Face],
                     notes: list[str]) -> list[_Face]:  # fmt: skip
    """Dice the learned die finder sees where no die was read (tiny dice whose pips the
    reader lost, coloured or blurred dice): each is cut out, enlarged so that it is about
    ``FOUND_SIDE`` px across, and read by the pip reader in that crop. The reading nearest
    the die is kept only when the face model gives its value at least ``FOUND_AGREE``
    (on the photos, the readings it doubts are mostly specks read as a 2 on texture), and
    is certain only when the pip reader was certain in the crop, its face fits the die
    found (``FOUND_FIT`` times its side) and the face model confirms it (``FOUND_SURE``):
    enlarged pips are not the pixels the reader was made on, and a clean 6 of 30 px, read
    2.6x enlarged, gave a certain 3 that the face model gave only 0.65. A 2 or a 3 needs
    ``CONFIRM``; a 4 to 6, fitted from its own pips, 0.9 (twentieth pass: 68 found dice
    asked for the model's 0.5-0.97 alone were all right, but a 4 with two pips faded was
    read as a 2 that the model gave 0.92-0.95); a 1, whose lone pip passed the body checks
    in the crop, 0.9 too (twenty-first pass: the 16 found 1s asked for the model's 0.9-0.97
    alone, over every set, were all right); and only when it is
    the one face read there (a domino's half was a certain ghost), and no certain die was read
    within ``FOUND_BESIDE`` sides of it (the finder may propose a die's body and its front
    face apart). Where the crop gave no reading, the face model's own (at least ``CONFIRM``)
    is offered, asked. Not where a die was read, nor past ``MAX_DICE`` dice or crops."""
    out: list[_Face] = []
    reads = 0
    for prop in _proposals(img):
        x, y = _closer_px(prop.x, scale), _closer_px(prop.y, scale)
        side = prop.side * scale
        there = [f for f in [*faces, *out]
                 if math.hypot(x - f.x, y - f.y) < 0.6 * max(side, f.side)]
        if there:
            # (the rescue's "just below a read die" guard: 3 real webcam dice lost)
            if (len(there) == 1 and reads < MAX_DICE and _crowded_small(there[0])
                    and any(there[0] is f for f in faces)):  # fmt: skip
                reads += 1
                _reread_crowded(model, img, prop, scale, there[0], faces, notes)
            continue
        if reads == MAX_DICE or len(faces) + len(out) == MAX_DICE:
            # no room: a die found past MAX_DICE would have every die asked; and on a
            # patterned table the finder may propose dozens of places (time)
            notes.append(f"die finder: more places than {MAX_DICE} dice, the rest not read")
            break
        reads += 1
        face = _read_found(model, img, prop, scale)
        if face is not None:
            if not face.uncertain and _certain_die_beside(face, faces):
                # (seventeenth pass) the finder proposed a die's body and its front face
                # apart: the 3 read there was a certain die under its top 1, read already
                face.uncertain = True
                face.confidence = min(face.confidence, 0.5)
                face.notes.append("found within a side of a die read: its side face?")
            out.append(face)
            notes.extend(f"die at ({face.x:.0f}, {face.y:.0f}): {t}" for t in face.notes)
    return out


def _certain_die_beside(face: _Face, faces: list[_Face]) -> bool:
    """Whether a certain die of ``faces`` lies within ``FOUND_BESIDE`` sides (either's) of
    ``face``, a die read in the die finder's crop."""
    return any(math.hypot(face.x - g.x, face.y - g.y) < FOUND_BESIDE * max(face.side, g.side)
               for g in faces if not g.uncertain)  # fmt: skip


def _crowded_small(f: _Face) -> bool:
    """Whether ``f`` is an asked 1, 2 or 3 with pip-like marks on or around it that are not
    its pips: a bigger face whose other pips were lost at the working size?"""
    if not f.uncertain:
        return False
    if len(f.pips) in (2, 3):
        return f.crowded
    return len(f.pips) == 1 and any(n.startswith(_AROUND_LONE) for n in f.notes)


def _reread_crowded(model: facenet.FaceNet, img: np.ndarray, prop: diefinder.Proposal,
                    scale: float, f: _Face, faces: list[_Face],
                    notes: list[str]) -> None:  # fmt: skip
    """An asked 1, 2 or 3 ``f`` with pip-like marks on or around it that are not its pips
    (:func:`_crowded_small`), where the die finder sees a die: read in its enlarged crop as
    a found die is (:func:`_read_found`). Seen small, the other pips of a 3 to 6 are lost
    at the working size and what is left reads a 1 or a 2: a bigger value read there
    replaces ``f``. It is certain when the crop's reading is (its pips were found, the face
    fits the die, the face model gives it ``FOUND_SURE``) and no certain die was read
    within ``FOUND_BESIDE`` sides of it; otherwise it is asked, the players being offered
    the crop's value (on the oblique renders' train and spent ranges it was the die's in 79
    such cases, the reading it replaced in 8, neither in 30)."""
    face = _read_found(model, img, prop, scale)
    if face is None or face.value <= f.value:
        return
    if not face.uncertain and _certain_die_beside(face, [g for g in faces if g is not f]):
        face.uncertain = True
        face.confidence = min(face.confidence, 0.5)
    where = f"die at ({face.x:.0f}, {face.y:.0f}): "
    if face.uncertain:
        face.notes.insert(0, f"pips too small to be sure: a {f.value} at the working size, a "
                             f"{face.value} closer")  # fmt: skip
    else:
        notes.append(f"{where}read a {face.value} where the pips read a {f.value} with "
                     "marks on its face")  # fmt: skip
    faces[next(i for i, g in enumerate(faces) if g is f)] = face
    notes.extend(where + t for t in face.notes)


def _read_found(model: facenet.FaceNet, img: np.ndarray, prop: diefinder.Proposal,
                scale: float) -> _Face | None:  # fmt: skip
    """The die at a proposal, read in a crop enlarged to ``FOUND_SIDE`` px (working pixels
    of ``scale``), or None."""
    h, w = img.shape[:2]
    half = FOUND_MARGIN * prop.side
    x0, y0 = max(0, int(prop.x - half)), max(0, int(prop.y - half))
    x1, y1 = min(w, int(math.ceil(prop.x + half))), min(h, int(math.ceil(prop.y + half)))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    zoom = FOUND_SIDE / max(prop.side, 1.0)
    crop = cv2.resize(img[y0:y1, x0:x1], None, fx=zoom, fy=zoom,
                      interpolation=cv2.INTER_CUBIC if zoom > 1 else cv2.INTER_AREA)  # fmt: skip
    seen = read_pips(crop, find_dice=False, edges=False)
    best = None
    inside = 0
    for d in seen.dice:
        dx, dy = _input_px(d.x, zoom) + x0, _input_px(d.y, zoom) + y0
        dist = math.hypot(dx - prop.x, dy - prop.y)
        inside += dist < 0.5 * prop.side
        if dist < 0.5 * prop.side and (best is None or dist < best[0]):
            best = (dist, d, dx, dy)
    classes = list(model.classes)
    if best is not None:
        _, d, dx, dy = best
        side = d.size / zoom
        p = model.probabilities(img, np.array([[dx, dy]]), np.array([side]))[0]
        agree = float(p[classes.index(d.value)]) if d.value in classes else 0.0
        if agree < FOUND_AGREE:
            # mostly specks read as a 2 or a 1 on texture, not worth a question; or a
            # die whose pips the crop misread, which the face model may see
            return _face_model_offer(model, img, prop, scale, f"the pips read a {d.value}")
        fits = FOUND_FIT[0] <= side / prop.side <= FOUND_FIT[1]  # a face of the die found
        # two faces in one place found: a domino, or two dice touching (which one?)
        sure = (not d.uncertain and fits and inside == 1
                and agree >= FOUND_SURE[d.value not in (2, 3)])  # fmt: skip
        # a 1-4 whose body reaches the picture's edge may be cut by it (the crop's own
        # borders are not the picture's: the crop was read with edges=False)
        if sure and d.value <= 4:
            q = max(1, int(side / 4))
            body = img[max(0, int(dy) - q):int(dy) + q + 1, max(0, int(dx) - q):int(dx) + q + 1]
            colour = np.median(body.reshape(-1, 3), axis=0)  # the face around its pips
            sure = not _reaches_edge(img, dx, dy, side, colour)
        note = (f"found by the die finder, read {zoom:.1f}x enlarged{'' if sure else ', asked'}"
                f" (face {side / prop.side:.2f} of the die, face model {agree:.2f})")
        return _Face(d.value, _closer_px(dx, scale), _closer_px(dy, scale), side * scale,
                     d.confidence if sure else min(d.confidence, 0.5), not sure, 1.0, [note],
                     [], True)  # fmt: skip
    return _face_model_offer(model, img, prop, scale, "no pips read")


def _face_model_offer(model: facenet.FaceNet, img: np.ndarray, prop: diefinder.Proposal,
                      scale: float, pips: str) -> _Face | None:  # fmt: skip
    """The face model's reading of a found die, asked, when it is sure of it (``CONFIRM``);
    or, when the finder is sure of the die (``FOUND_ASK``) and the model does not take it
    for something other than a top face, the model's likeliest value, asked all the same: a
    die in view left out of the roll changes the total as silently as a wrong value
    (eighteenth pass: a die whose top 2 and front 4 made one group of six pips was left
    out, webcam heldout-a ``valid_valid_10``)."""
    classes = list(model.classes)
    p = model.probabilities(img, np.array([[prop.x, prop.y]]), np.array([prop.side]))[0]
    k = int(np.argmax(p))
    if classes[k] != 0 and float(p[k]) >= CONFIRM:
        note = f"found by the die finder, {pips}; the face model sees a {classes[k]}"
    else:
        not_face = float(p[classes.index(0)]) if 0 in classes else 0.0
        if prop.score < FOUND_ASK or not_face >= 0.5:
            return None
        k = max((i for i in range(len(classes)) if classes[i] != 0), key=lambda i: p[i])
        note = (f"found by the die finder ({prop.score:.2f}), {pips}: asked, the face "
                f"model's guess a {classes[k]} ({p[k]:.2f})")
    return _Face(classes[k], _closer_px(prop.x, scale), _closer_px(prop.y, scale),
                 prop.side * scale, 0.5 * float(p[k]), True, 1.0, [note], [], True)  # fmt: skip


def _median(values: list[float]) -> float:
    """``np.median`` of a short list (the same number: the middle value, or the mean of the
    two middle ones), without numpy's overhead."""
    return float(statistics.median(values))


# -- grouping --------------------------------------------------------------------------------
def _colour_dist(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    return math.sqrt(sum((p - q) ** 2 for p, q in zip(a, b, strict=True)))


def _colour_tol(p: Pip, q: Pip) -> float:
    """How far apart two pips' ring colours may be for one face (grey levels; the vectorised
    grouping in :func:`_groups` computes the same)."""
    return _contrast_tol(min(p.contrast, q.contrast))


def _contrast_tol(contrast: float) -> float:
    """:func:`_colour_tol` for pips (or marks) of this contrast."""
    return max(18.0, 0.22 * contrast)


def _other_light(f: _Face, colour: tuple[float, float, float], contrast: float) -> bool:
    """Whether a ring of ``colour`` (around a pip or a mark of ``contrast``) is further from
    every one of face ``f``'s pips' rings than :func:`_join_pips` would take (``JOIN_COLOUR``
    times the grouping's tolerance): another surface, or another light."""
    return all(_colour_dist(p.face, colour) > JOIN_COLOUR * _contrast_tol(min(p.contrast, contrast))
               for p in f.pips)  # fmt: skip


def _line_colours(work: np.ndarray, p: Pip, q: Pip, pip_mask: np.ndarray) -> np.ndarray | None:
    """The colours (float32 BGR rows) along the segment p-q, outside every pip
    (``pip_mask``); None when fewer than two samples are left (pip against pip)."""
    dist = math.hypot(q.x - p.x, q.y - p.y)
    n = max(6, int(dist))
    t = np.arange(n) * (1.0 / (n - 1))  # np.linspace(0, 1, n), without its overhead
    t[-1] = 1.0
    xs = np.minimum(np.maximum(np.round(p.x + (q.x - p.x) * t).astype(int), 0), work.shape[1] - 1)
    ys = np.minimum(np.maximum(np.round(p.y + (q.y - p.y) * t).astype(int), 0), work.shape[0] - 1)
    keep = pip_mask[ys, xs] == 0
    if keep.sum() < 2:
        return None
    return work[ys[keep], xs[keep]].astype(np.float32)


def _on_face_line(work: np.ndarray, p: Pip, q: Pip, pip_mask: np.ndarray, tol: float) -> bool:
    """True when the segment p-q (outside every pip) stays on face-coloured pixels."""
    samples = _line_colours(work, p, q, pip_mask)
    if samples is None:
        return True
    face = (np.array(p.face, np.float32) + np.array(q.face, np.float32)) / 2
    d = np.sqrt(((samples - face) ** 2).sum(axis=1))
    bad = d > tol
    if bad.sum() == 0:
        return True
    # allow a single stray sample (noise), not a run (an edge or a gap)
    return bool(bad.sum() <= 1 and len(d) >= 8)


def _same_shape(p: Pip, q: Pip, strict: float) -> bool:
    """Pips of one face are foreshortened alike (same ellipse shape and direction)."""
    rp, rq = p.minor / p.major, q.minor / q.major
    if abs(rp - rq) > 0.25 * strict:
        return False
    if rp < 0.8 and rq < 0.8:
        da = abs(p.angle - q.angle) % math.pi
        da = min(da, math.pi - da)
        if da > math.radians(35) * strict:
            return False
    return True


_FEW_PIPS = 40  # see _groups


_Near = tuple[np.ndarray, np.ndarray, np.ndarray]  # pairs i < j of pips, and "test again"


def _near_pips(pips: list[Pip]) -> _Near:
    """The pairs of ``pips`` that pass the tests of :func:`_groups_pairwise` that do not
    depend on its strictness (polarity, sizes, distance), in the order of the pips; and
    which of them lie so near a limit that the test must be made again in Python."""
    x = np.array([p.x for p in pips])
    y = np.array([p.y for p in pips])
    r = np.array([p.r for p in pips])
    pol = np.array([p.polarity for p in pips])
    # only pairs within 11 mean radii can pass: within 11 radii of the larger pip
    ci, cj = near_pairs(x, y, 11.0 * r * (1 + 1e-6) + 1e-3)
    ri, rj = r[ci], r[cj]
    rm = (ri + rj) / 2
    # math.hypot and np.hypot (and ** 2 and a product) may differ in the last bit: a pair
    # within _EPS of a limit is tested again in Python; every other test here is the same
    # arithmetic as in Python
    d = np.hypot(x[ci] - x[cj], y[ci] - y[cj])
    near = (pol[ci] == pol[cj]) & (np.maximum(ri, rj) <= 1.6 * np.minimum(ri, rj))
    near &= (d <= 11.0 * rm * (1 + _EPS)) & (d >= 1.8 * rm * (1 - _EPS))
    unsure = (d > 11.0 * rm * (1 - _EPS)) | (d < 1.8 * rm * (1 + _EPS))
    return ci[near], cj[near], unsure[near]


def _near_within(near: _Near, index: dict[int, int], n: int, group: list[Pip]) -> _Near:
    """The pairs of ``near`` (pairs of ``n`` pips, ``index``: a pip's place among them)
    between pips of ``group`` (in their order there), numbered in ``group``."""
    local = np.full(n, -1, np.intp)
    local[[index[id(p)] for p in group]] = np.arange(len(group))
    ci, cj, unsure = near
    li, lj = local[ci], local[cj]
    both = (li >= 0) & (lj >= 0)
    return li[both], lj[both], unsure[both]


_EPS = 1e-9  # see _near_pips


def _groups(work: np.ndarray, pips: list[Pip], strict: float = 1.0, near: _Near | None = None
            ) -> list[list[Pip]]:  # fmt: skip
    """Pips of one face: joined when a pair passes every test (polarity, sizes, distance,
    shapes, ring colours, a line on face-coloured pixels between them), in groups that are
    the connected parts of those pairs.

    On a busy table (a perforated mat, granite, a printed board) there are thousands of
    candidates and most of them are near one another; testing pair after pair in Python
    took seconds. Here the pairs near each other come from :func:`near_pairs`, the cheap
    tests run on all of them at once with a little slack, and then in rounds: each group
    tests its first pair (in the order of the pips) that joins it to another group, the
    exact tests in Python, the line tests all at once (:func:`_on_face_lines`). A pair
    inside one group is never tested: it would change nothing. The groups are those of
    :func:`_groups_pairwise` (the reference: pair by pair), in the same order, which is
    quicker for a few pips (up to ``_FEW_PIPS``: the usual face or die) and is used then.
    ``near``: :func:`_near_pips` of ``pips``, when known (a group split again)."""
    n = len(pips)
    if n <= _FEW_PIPS:
        return _groups_pairwise(work, pips, strict)
    pip_mask = _pip_mask(work, pips)
    ci, cj, unsure = _near_pips(pips) if near is None else near
    x = np.array([p.x for p in pips])
    y = np.array([p.y for p in pips])
    eps = _EPS
    # shapes and ring colours (_same_shape, _colour_dist)
    ratio = np.array([p.minor / p.major for p in pips])
    angle = np.array([p.angle for p in pips])
    face = np.array([p.face for p in pips], np.float64).reshape(-1, 3)
    face32 = face.astype(np.float32)
    con = np.array([p.contrast for p in pips])
    rp, rq = ratio[ci], ratio[cj]
    shaped = np.abs(rp - rq) <= 0.25 * strict
    da = np.abs(angle[ci] - angle[cj]) % math.pi
    da = np.minimum(da, math.pi - da)
    shaped &= (rp >= 0.8) | (rq >= 0.8) | (da <= math.radians(35) * strict)
    tol = np.maximum(18.0, 0.22 * np.minimum(con[ci], con[cj])) * strict
    colour = np.sqrt(((face[ci] - face[cj]) ** 2).sum(axis=1))
    shaped &= colour <= tol * (1 + eps)
    unsure = unsure | (colour > tol * (1 - eps))
    ci, cj, unsure, tol = ci[shaped], cj[shaped], unsure[shaped], tol[shaped]
    parent = np.arange(n)
    while len(ci):
        roots = _roots(parent)
        ra, rb = roots[ci], roots[cj]
        live = ra != rb
        ci, cj, ra, rb = ci[live], cj[live], ra[live], rb[live]
        unsure, tol = unsure[live], tol[live]
        if not len(ci):
            break
        # each group's first pair out of it
        pick = np.union1d(np.unique(ra, return_index=True)[1], np.unique(rb, return_index=True)[1])
        ti, tj, tt = ci[pick], cj[pick], tol[pick]
        good = np.ones(len(pick), bool)
        for k in np.flatnonzero(unsure[pick]).tolist():  # the tests of _groups_pairwise
            p, q = pips[int(ti[k])], pips[int(tj[k])]
            rm_pq = (p.r + q.r) / 2
            dist = math.hypot(p.x - q.x, p.y - q.y)
            good[k] = (1.8 * rm_pq <= dist <= 11.0 * rm_pq
                       and _colour_dist(p.face, q.face) <= float(tt[k]))  # fmt: skip
        ti, tj, tt = ti[good], tj[good], tt[good]
        ok = _on_face_lines(work, pips, x, y, face32, ti, tj, tt, pip_mask)
        up = parent.tolist()
        for i, j in zip(ti[ok].tolist(), tj[ok].tolist(), strict=True):
            up[_root(up, i)] = _root(up, j)
        parent = np.array(up)
        done = np.ones(len(ci), bool)
        done[pick] = False  # tested: joined, or never to be joined
        ci, cj, unsure, tol = ci[done], cj[done], unsure[done], tol[done]
    groups: dict[int, list[Pip]] = {}
    for i, root in enumerate(_roots(parent).tolist()):
        groups.setdefault(root, []).append(pips[i])
    return list(groups.values())


def _roots(parent: np.ndarray) -> np.ndarray:
    """Every point's group (union-find roots), all at once; ``parent`` is compressed."""
    while True:
        up = parent[parent]
        if np.array_equal(up, parent):
            return parent
        parent[:] = up


def _root(parent: list[int], i: int) -> int:
    """The root of ``i`` (path halving)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def _on_face_lines(work: np.ndarray, pips: list[Pip], x: np.ndarray, y: np.ndarray,
                   face32: np.ndarray, ti: np.ndarray, tj: np.ndarray, tols: np.ndarray,
                   pip_mask: np.ndarray) -> np.ndarray:  # fmt: skip
    """:func:`_on_face_line` for many pairs of ``pips`` at once (pairs ``ti[k], tj[k]`` with
    tolerance ``tols[k]``; ``x``, ``y``, ``face32``: the pips' centres and ring colours as
    arrays): the same samples, the same arithmetic (float32 colours, the tolerance as
    float32), the same answers."""
    m = len(ti)
    if not m:
        return np.zeros(0, bool)
    h, w = work.shape[:2]
    px, py = x[ti], y[ti]
    dx, dy = x[tj] - px, y[tj] - py
    dist = np.hypot(dx, dy)
    # samples per line: int(math.hypot(...)); np.hypot may differ from it in the last bit,
    # which matters only next to a whole number
    counts = np.floor(dist).astype(np.int64)
    for k in np.flatnonzero(np.abs(dist - np.round(dist)) < 1e-9 * np.maximum(dist, 1)):
        p, q = pips[int(ti[k])], pips[int(tj[k])]
        counts[k] = int(math.hypot(q.x - p.x, q.y - p.y))
    counts = np.maximum(counts, 6)
    seg = np.repeat(np.arange(m), counts)
    ends = np.cumsum(counts)
    starts = ends - counts
    t = (np.arange(len(seg)) - starts[seg]) * (1.0 / (counts - 1))[seg]
    t[ends - 1] = 1.0
    xs = np.minimum(np.maximum(np.round(px[seg] + dx[seg] * t).astype(int), 0), w - 1)
    ys = np.minimum(np.maximum(np.round(py[seg] + dy[seg] * t).astype(int), 0), h - 1)
    keep = pip_mask[ys, xs] == 0
    kseg = seg[keep]
    samples = work[ys[keep], xs[keep]].astype(np.float32)
    faces = (face32[ti] + face32[tj]) / 2
    d = np.sqrt(((samples - faces[kseg]) ** 2).sum(axis=1))
    tol32 = tols.astype(np.float32)
    bad = np.bincount(kseg[d > tol32[kseg]], minlength=m)
    kept = np.bincount(kseg, minlength=m)
    # no samples left, no bad one, or a single stray one (noise) on a long enough line
    return (kept < 2) | (bad == 0) | ((bad <= 1) & (kept >= 8))


def _groups_pairwise(work: np.ndarray, pips: list[Pip], strict: float = 1.0
                     ) -> list[list[Pip]]:  # fmt: skip
    """:func:`_groups` pair by pair, over n x n pair matrices: the reference (tests)."""
    n = len(pips)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # drawn when a pair first needs its line looked at (most calls have none: lone pips)
    pip_mask: np.ndarray | None = None
    # the cheap tests for all pairs at once, with a little slack: the exact ones follow
    x = np.array([p.x for p in pips])
    y = np.array([p.y for p in pips])
    r = np.array([p.r for p in pips])
    pol = np.array([p.polarity for p in pips])
    rm_all = (r[:, None] + r[None, :]) / 2
    d_all = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :])
    near = (pol[:, None] == pol[None, :]) & np.triu(np.ones((n, n), bool), k=1)
    near &= np.maximum(r[:, None], r[None, :]) <= 1.6 * np.minimum(r[:, None], r[None, :]) + 1e-9
    near &= (d_all <= 11.0 * rm_all + 1e-6) & (d_all >= 1.8 * rm_all - 1e-6)
    for i, j in zip(*(idx.tolist() for idx in np.nonzero(near)), strict=True):
        a, b = find(i), find(j)
        if a == b:
            continue  # already joined through other pips: the tests below would change nothing
        p, q = pips[i], pips[j]
        if p.polarity != q.polarity:
            continue
        rm = (p.r + q.r) / 2
        if max(p.r, q.r) > 1.6 * min(p.r, q.r):
            continue
        d = math.hypot(p.x - q.x, p.y - q.y)
        if d > 11.0 * rm or d < 1.8 * rm:
            continue
        if not _same_shape(p, q, strict):
            continue
        tol = _colour_tol(p, q) * strict
        if _colour_dist(p.face, q.face) > tol:
            continue
        if pip_mask is None:
            pip_mask = _pip_mask(work, pips)
        if not _on_face_line(work, p, q, pip_mask, tol):
            continue
        parent[a] = b
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(pips[i])
    return list(groups.values())


# -- layouts -------------------------------------------------------------------------------
def _fit_affine(points: np.ndarray) -> tuple[np.ndarray, float, int] | None:
    """Best affine map from a canonical layout (n = 4..6 points) onto ``points``.

    Returns (3x2 matrix M with [gx, gy, 1] @ M = image xy, relative residual, index of the
    best pip order)."""
    n = len(points)
    canon, pinv = _PINV[n]
    m = pinv @ points  # P x 3 x 2
    homog = np.concatenate([canon, np.ones((*canon.shape[:2], 1))], axis=2)
    pred = homog @ m  # P x n x 2
    err = np.sqrt(((pred - points) ** 2).sum(axis=2)).max(axis=1)
    lin = m[:, :2, :]
    det = np.abs(lin[:, 0, 0] * lin[:, 1, 1] - lin[:, 0, 1] * lin[:, 1, 0])
    unit = np.sqrt(np.maximum(det, 1e-9))
    rel = err / unit
    best = int(np.argmin(rel))
    if det[best] < 1e-6:
        return None
    return m[best], float(rel[best]), best


def _similarity(points: np.ndarray, n: int) -> tuple[np.ndarray, float] | None:
    """For 2 and 3 pips (a diagonal): a similarity map from the layout, and a residual."""
    a, b = points[0], points[-1]
    if n == 3:
        # the middle one must be the centre; ends are the two farthest apart
        dmat = np.linalg.norm(points[:, None] - points[None], axis=2)
        i, j = np.unravel_index(int(np.argmax(dmat)), dmat.shape)
        a, b = points[i], points[j]
        k = 3 - i - j
        mid = points[k]
    centre = (a + b) / 2
    v = (b - a) / 2  # image vector for grid (1, 1)
    # grid x axis = rotate v by -45 deg and scale by 1/sqrt2
    c, s = math.cos(-math.pi / 4), math.sin(-math.pi / 4)
    ex = np.array([v[0] * c - v[1] * s, v[0] * s + v[1] * c]) / math.sqrt(2)
    ey = np.array([-ex[1], ex[0]])
    m = np.array([ex, ey, centre])
    unit = float(np.linalg.norm(ex))
    if unit < 1e-6:
        return None
    res = 0.0
    if n == 3:
        res = float(np.linalg.norm(mid - centre)) / unit
    return m, res


def _cell_scores(
    grey: np.ndarray, m: np.ndarray, pip_r: float, face_grey: float, pip_grey: float
) -> np.ndarray:
    """How pip-like each of the 9 grid cells looks: 0 = plain face, 1 = a full pip."""
    pts = np.concatenate([_GRID, np.ones((9, 1))], axis=1) @ m
    h, w = grey.shape
    rad = max(1, round(0.5 * pip_r))
    span = pip_grey - face_grey
    xi, yi = np.rint(pts[:, 0]), np.rint(pts[:, 1])  # round(): half to even too
    if xi.min() >= rad and yi.min() >= rad and xi.max() < w - rad and yi.max() < h - rad:
        # every square whole in the picture (almost always): the nine gathered at once. A
        # uint8 square's mean is its integer sum over its size, as patch.mean() gives it
        sq = _square_pixels(grey, xi.astype(np.intp), yi.astype(np.intp), rad)
        v = sq.sum(axis=1, dtype=np.int64) / sq.shape[1]
        return (v - face_grey) / span if abs(span) > 1e-3 else np.zeros(9)
    out = np.zeros(9)
    for k, (x, y) in enumerate(pts):
        xi, yi = round(x), round(y)
        if not (0 <= xi < w and 0 <= yi < h):
            out[k] = 0.5  # outside the picture: unknown
            continue
        patch = grey[max(0, yi - rad) : yi + rad + 1, max(0, xi - rad) : xi + rad + 1]
        v = float(patch.mean())
        out[k] = (v - face_grey) / span if abs(span) > 1e-3 else 0.0
    return out


def _marks_within(resp: np.ndarray, corners: np.ndarray, contrast: float,
                  holes: Sequence[Pip] = ()) -> int:  # fmt: skip
    """How many pixels of pip-like response (for pips of ``contrast``) lie inside the polygon
    ``corners`` (its part in the picture), outside the pips ``holes`` (1.6 radii each)."""
    return len(_mark_pixels(resp, corners, contrast, holes))


def _mark_pixels(resp: np.ndarray, corners: np.ndarray, contrast: float,
                 holes: Sequence[Pip] = ()) -> np.ndarray:  # fmt: skip
    """The pixels (x, y; k x 2) that :func:`_marks_within` counts."""
    h, w = resp.shape
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros((0, 2), np.float64)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(corners - (x0, y0)).astype(np.int32)], 255)
    for p in holes:
        cv2.circle(mask, (round(p.x - x0), round(p.y - y0)), max(2, round(1.6 * p.r)), 0, -1)
    ys, xs = np.nonzero((resp[y0:y1, x0:x1] > _mark_level(contrast)) & (mask > 0))
    return np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)


def _stray_marks(resp: np.ndarray, corners: np.ndarray, group: list[Pip], contrast: float) -> float:
    """Pip-like response inside the face polygon but outside the group's own pips, in units
    of one pip's area: a missed or merged pip shows up here."""
    marks = _marks_within(resp, corners, contrast, group)
    r = _median([p.r for p in group])
    return marks / (math.pi * r * r)


def _marks_of_a_bigger_face(pix: np.ndarray, m: np.ndarray, side: float,
                            group: list[Pip]) -> bool:  # fmt: skip
    """Whether the marks ``pix`` around the 2 or the 3 ``group`` (layout map ``m``, die side
    ``side`` px; :func:`_mark_pixels` on its wide square) may be pips of a bigger face of
    which the group's pips are some, or of the top face above it. Each counts from ``BIGGER_MASS``
    of a pip's area:
    - marks on the face's own square;
    - marks above the face (up the picture, within 45 degrees of straight up, ``ABOVE_FACE``
      sides out or more): seen at an angle, a die's top face lies above its front face,
      and a front 3 under its top 6 was given 0.96 by the face model (oblique render 1177;
      right 2s and 3s have their own side faces below them);
    - marks within ``BIGGER_TOL`` grid steps of where some 3 to 6 of these pips has
      another pip (:func:`_bigger_faces_at`)."""
    r = _median([p.r for p in group])
    enough = BIGGER_MASS * math.pi * r * r
    lin, t = m[:2, :], m[2, :]
    try:
        grid = (pix - t) @ np.linalg.inv(lin)
    except np.linalg.LinAlgError:
        return True
    edge = 0.5 / _SPACING  # the face's own square, in grid steps from its centre
    if np.count_nonzero(np.abs(grid).max(axis=1) < edge) >= enough:
        return True
    dx, dy = (pix[:, 0] - t[0]) / side, (pix[:, 1] - t[1]) / side
    if np.count_nonzero((dy < -ABOVE_FACE) & (np.abs(dx) < 0.3 - dy)) >= enough:
        return True
    q = pix[:, 0] + 1j * pix[:, 1]
    for step, there in _bigger_faces_at(group):
        near = np.abs(q[:, None] - there[None]) < BIGGER_TOL * step
        if (np.count_nonzero(near, axis=0) >= enough).any():
            return True
    return False


def _completions(n: int) -> list[np.ndarray]:
    """The grid cells (k x 2) each bigger face that holds the ``n`` pips' layout
    (:data:`_LAYOUTS`, in any of the square's eight symmetries) has besides them."""
    own = {(int(x), int(y)) for x, y in _LAYOUTS[n]}
    out: dict[tuple[tuple[int, int], ...], np.ndarray] = {}
    for v in range(n + 1, 7):
        for sx, sy, swap in itertools.product((1, -1), (1, -1), (False, True)):
            cells = {(sx * int(y if swap else x), sy * int(x if swap else y))
                     for x, y in _LAYOUTS[v]}  # fmt: skip
            if own <= cells:
                rest = tuple(sorted(cells - own))
                out.setdefault(rest, np.array(rest, np.float64))
    return list(out.values())


_COMPLETIONS = {n: _completions(n) for n in range(2, 5)}


def _faint_completion(resp: np.ndarray, m: np.ndarray, pip_r: float, contrast: float,
                      n: int) -> tuple[float, int]:  # fmt: skip
    """How faint a pip lies at every place a bigger face of the ``n`` pips (grid ``m``)
    has its other pips, at the likeliest such face: the least pip response (black- or
    top-hat; the median over a square of about half a pip's radius, so that a speck of noise
    does not count) over those places, in units of the pips' ``contrast`` (0 on a plain face,
    1 a full pip); and that face's value (0, 0 when none). A place outside the picture counts
    0. The response takes out the face's shading, so a worn pip stands out however the face
    is lit; on the benchmark sets' certain right faces it stays under 0.04 (99 %; 0.12 on a
    webcam photo blurred by a shaking camera)."""
    best, value = 0.0, 0
    h, w = resp.shape
    rad = max(1, round(0.5 * pip_r))
    # the places of every completion at once; a completion with a place outside the picture
    # counts 0 (never more than ``best``), so only those wholly inside are measured
    places = []
    for rest in _COMPLETIONS.get(n, []):
        pts = np.round(np.concatenate([rest, np.ones((len(rest), 1))], axis=1) @ m).astype(int)
        xs, ys = pts[:, 0], pts[:, 1]
        if ((xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)).all():
            places.append((n + len(rest), xs, ys))
    if not places:
        return best, value
    xs = np.concatenate([x for _, x, _ in places])
    ys = np.concatenate([y for _, _, y in places])
    meds = _patch_medians(resp, xs, ys, rad) / max(contrast, 1.0)
    start = 0
    for bigger, x, _ in places:
        least = float(meds[start : start + len(x)].min())
        start += len(x)
        if least > best:
            best, value = least, bigger
    return best, value


def _square_pixels(img: np.ndarray, xs: np.ndarray, ys: np.ndarray, rad: int) -> np.ndarray:
    """The pixels of the square of half-side ``rad`` around each place (``xs``, ``ys``, each
    square whole in ``img``), one row a square, its rows one after another."""
    d = np.arange(-rad, rad + 1)
    dy, dx = np.repeat(d, len(d)), np.tile(d, len(d))
    return img[ys[:, None] + dy[None, :], xs[:, None] + dx[None, :]]


def _patch_medians(resp: np.ndarray, xs: np.ndarray, ys: np.ndarray, rad: int) -> np.ndarray:
    """``np.median`` of the square of half-side ``rad`` around each place (``xs``, ``ys``,
    inside ``resp``; clipped at the picture's edge) as float64: the squares lying whole in
    the picture gathered at once (an odd number of pixels: the middle one), the others one
    by one."""
    h, w = resp.shape
    out = np.empty(len(xs), np.float64)
    whole = (xs >= rad) & (ys >= rad) & (xs + rad < w) & (ys + rad < h)
    if whole.any():
        vals = _square_pixels(resp, xs[whole], ys[whole], rad)
        k = vals.shape[1] // 2
        out[whole] = np.partition(vals, k, axis=1)[:, k]
    for i in np.flatnonzero(~whole).tolist():
        x, y = int(xs[i]), int(ys[i])
        out[i] = np.median(resp[max(0, y - rad) : y + rad + 1, max(0, x - rad) : x + rad + 1])
    return out


def _mark_level(contrast: float) -> float:
    """The pip response above which a pixel counts as a mark, around pips of ``contrast``."""
    return max(16.0, 0.45 * contrast)


def _classify(grey: np.ndarray, group: list[Pip], resp: np.ndarray,
              lights: bool = False) -> _Face | None:
    """The face ``group`` reads as, with its doubts, or None. ``lights``: the pips may lie in
    two lights (joined across a shadow's edge, :func:`_joined`)."""
    n = len(group)
    pts = np.array([(p.x, p.y) for p in group], np.float64)
    radii = np.array([p.r for p in group])
    r_med = _median(radii.tolist())
    notes: list[str] = []
    uncertain = unsettled = False
    conf = 1.0
    if n > 6:
        centre = pts.mean(axis=0)
        spread = float(np.linalg.norm(pts - centre, axis=1).max())
        note = f"{n} pips in one cluster (touching dice?)"
        side = 2 * spread + 4 * r_med
        return _Face(min(6, n), float(centre[0]), float(centre[1]), side, 0.1, True, 1.0,
                     [note], group, unsettled=True)  # fmt: skip
    if n >= 4:
        fit = _fit_affine(pts)
        if fit is None:
            return None
        m, res, _ = fit
    else:
        sim = _similarity(pts, n)
        if sim is None:
            return None
        m, res = sim
    lin = m[:2, :]
    sv = np.linalg.svd(lin, compute_uv=False)
    isotropy = float(sv[1] / sv[0]) if sv[0] > 0 else 0.0
    unit = float(math.sqrt(abs(np.linalg.det(lin))))
    side = unit / _SPACING
    ratio = r_med / side  # pip radius over die side: ~0.06..0.13 on real dice
    if res > 0.45 or isotropy < 0.5 or not 0.035 <= ratio <= 0.2:
        return None  # not a die face (text, texture, two dice...)
    contrast = _median([p.contrast for p in group])
    if contrast < 30:
        return None  # faint marks: wood grain, print, shadows
    if contrast < 45:
        uncertain = True
        notes.append(f"low contrast pips ({contrast:.0f})")
    pip_shape = _median([p.minor / p.major for p in group])
    if n <= 3:
        isotropy = pip_shape  # a similarity fit cannot see the squash: the pips can
    if n >= 4 and abs(pip_shape - isotropy) > 0.3:
        uncertain = True
        notes.append(f"face squashed {isotropy:.2f} but pips {pip_shape:.2f}")
    elif n in (4, 5) and max(isotropy, pip_shape) < 0.8:
        # pips are printed flat on their face: the view squashes both the same way. Four
        # pips of a 6 (two of its three rows) fit a 4 squashed across the 6's own squash.
        # (4 and 5 only: their layout is a square on every die; a 6's rows and columns
        # are spaced differently from one maker to another)
        turn = _squash_turn(lin, group)
        if turn > 35:
            uncertain = unsettled = True
            notes.append(f"face squashed {turn:.0f} deg away from its pips")
    if res > 0.25:
        uncertain = unsettled = True
        notes.append(f"layout fit loose ({res:.2f})")
    conf -= min(0.5, res)
    if radii.max() > 1.45 * radii.min():
        uncertain = unsettled = True
        notes.append("pip sizes inconsistent")
    # one print, one darkness: a pip twice as dark as another is of another face (a top
    # 4's pips with its front face's squashed, shaded columns read as one 6; seventh pass)
    contrasts = [p.contrast for p in group]
    lights = lights and _seen_from_above(group)
    if lights:
        # a shadow's edge across a face seen from above: each pip as dark as its own light
        # makes it (its contrast scales with the light on its ring; tenth pass)
        contrasts = [p.contrast / max(p.face_grey, 1.0) for p in group]
    if max(contrasts) > UNEQUAL_DARK * min(contrasts):
        uncertain = unsettled = True
        notes.append(f"pips unequally dark ({max(contrasts) / min(contrasts):.1f}x)")
    face_grey = _median([p.face_grey for p in group])
    pip_grey = _median([p.pip_grey for p in group])
    scores = _cell_scores(grey, m, r_med, face_grey, pip_grey)
    expected = np.zeros(9, bool)
    for gx, gy in _LAYOUTS[n]:
        expected[int(gy + 1) * 3 + int(gx + 1)] = True
    empty = scores[~expected]
    worst_empty = float(empty.max()) if empty.size else 0.0
    if worst_empty > 0.3:
        # a pip half washed out by glare looks like this: so it does to the second opinion
        uncertain = unsettled = True
        notes.append(f"a cell that should be empty looks like a pip ({worst_empty:.2f})")
    conf -= max(0.0, worst_empty - 0.1)
    faint, bigger = _faint_completion(resp, m, r_med, contrast, n)
    if faint > FAINT_PIP and worst_empty <= 0.3:
        # a worn pip, or one under a glare: too faint to be found as a pip, but where the
        # face's missing pips would be (a 5's middle pip faded, read as a certain 4)
        uncertain = unsettled = True
        notes.append(f"a faint pip where a {bigger} has one ({faint:.2f})")
        conf -= 0.2
    if n in (2, 3):
        conf -= 0.05  # a similarity fit cannot see an oblique squash
    if n == 2 and r_med < _MIN_SURE_PIP:
        # a 2 rests on two pips only: any two pips of a 3, 4, 5 or 6 fit it, and it is
        # told apart from them by pips it does not have. Pips this small can vanish in
        # the 3x3 median and the blur, so their absence proves nothing (a lone pip this
        # small is not read as a 1 either). 4 to 6 are fitted from their own pips.
        uncertain = unsettled = True
        notes.append(f"pips too small ({r_med:.1f} px) to tell a 2 from part of a die")
    if (n in (2, 3) and not lights
            and any(p.ring_spread > EDGE_RING * p.contrast + 8 for p in group)):
        # a pip whose ring is not one flat colour lies at the face's edge or off the die: a
        # light corner of table beside a blue die's lone pip made a certain 2 (tenth pass).
        # A 2 or a 3 rests on each of its pips; the face model sees the same corner. (Pips
        # joined in two lights have the shadow's edge in a ring: their join is asked.)
        uncertain = unsettled = True
        notes.append("a pip's ring is not one flat face (a die's edge?)")
    b = 1.7 if n >= 4 else 2.4  # a 2 or 3 could be part of a 6: look wider
    box = np.array([(-b, -b, 1), (b, -b, 1), (b, b, 1), (-b, b, 1)])
    marks = _mark_pixels(resp, box @ m, contrast, group)
    stray = len(marks) / (math.pi * r_med * r_med)  # (as _stray_marks counts them)
    if stray > 0.5:
        uncertain = True
        if n >= 4 or _marks_of_a_bigger_face(marks, m, side, group):
            unsettled = True
            notes.append(f"unexplained marks on the face ({stray:.1f} pips)")
        else:
            notes.append(f"unexplained marks beside the face ({stray:.1f} pips, {_NO_BIGGER})")
        conf -= min(0.4, 0.2 * stray)
    centre = np.array([0.0, 0.0, 1.0]) @ m
    return _Face(n, float(centre[0]), float(centre[1]), side, conf, uncertain, isotropy,
                 notes, group, unsettled, crowded=worst_empty > 0.3 or stray > 0.5)  # fmt: skip


def _squash_turn(lin: np.ndarray, group: list[Pip]) -> float:
    """Degrees between the long axis of a face (its layout's affine map ``lin``, rows: the
    image vectors of one grid step in x and in y) and the pips' common long axis; 0 when
    the pips do not agree on one (small pips: their outline is too coarse to tell)."""
    doubled = np.array([2 * p.angle for p in group])
    c, s = float(np.cos(doubled).mean()), float(np.sin(doubled).mean())
    if math.hypot(c, s) < 0.9:
        return 0.0
    pips = math.degrees(math.atan2(s, c) / 2)
    u, _, _ = np.linalg.svd(lin.T)
    face = math.degrees(math.atan2(u[1, 0], u[0, 0]))
    d = abs(face - pips) % 180
    return min(d, 180 - d)


def _seen_from_above(pips: list[Pip]) -> bool:
    """Whether every one of ``pips`` is round (its minor axis ``HEAD_ON`` of its major or
    more): pips of a face seen from above, where no side face shows."""
    return all(p.minor >= HEAD_ON * p.major for p in pips)


def _clean_pip(p: Pip) -> bool:
    """Round, contrasted, big enough and on a flat face: a pip worth a lone look."""
    return (p.minor / p.major >= 0.55 and p.contrast >= 40 and p.r >= _MIN_SURE_PIP
            and p.ring_spread <= 0.25 * p.contrast + 8)  # fmt: skip


def _squashed_view(pips: list[Pip]) -> bool | None:
    """Whether the picture's clean pips (contrasted, big enough) are, by their median,
    seen squashed (an oblique view); None with fewer than three of them."""
    shapes = [p.minor / p.major for p in pips if p.contrast >= 40 and p.r >= _MIN_SURE_PIP]
    return _median(shapes) < 0.9 if len(shapes) >= 3 else None


def _single(work: np.ndarray, grey: np.ndarray, p: Pip, resp: np.ndarray,
            view: bool | None = None, others: np.ndarray | None = None
            ) -> _Face | None:  # fmt: skip
    """A lone pip: a 1 if a face-coloured body of a sensible size surrounds it.

    ``view``: whether the picture is seen obliquely (:func:`_squashed_view`). Seen so, the
    die's front face may lie below the pip's face, face-coloured, and rays going down are
    not trusted. A small pip's own outline is too coarse to tell (a few pixels squash a
    round pip), so unless the view says so, the pip must look squashed by ``_SQUASH_SEEN``
    px: a 2's pip off its die's middle, the other pip not found, was a certain 1."""
    if not _clean_pip(p):
        return None
    face = np.array(p.face, np.float32)
    tol = max(18.0, 0.18 * p.contrast)
    h, w = grey.shape
    edge = max(5.0, 0.08 * p.contrast)
    # 16 rays out from the pip, sampled every quarter radius: where does the face end?
    steps = np.arange(max(1.6, 1.4 * p.major / p.r), 10.0, 0.25)
    angles = np.arange(16) * (2 * math.pi / 16)
    xs = np.rint(p.x + np.outer(np.cos(angles), steps) * p.r).astype(int)
    ys = np.rint(p.y + np.outer(np.sin(angles), steps) * p.r).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    xc, yc = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
    colour = np.sqrt(((work[yc, xc].astype(np.float32) - face) ** 2).sum(axis=2))
    m = int(10.5 * p.r) + 3
    x0, y0 = max(0, round(p.x) - m), max(0, round(p.y) - m)
    grad = _gradient(grey[y0 : round(p.y) + m + 1, x0 : round(p.x) + m + 1])
    stop = inside & ((grad[yc - y0, xc - x0] > edge) | (colour > tol))
    # a blurred pip's faint rim (a webcam's smear) stops rays at once: each ray starts where
    # it first reaches the face's colour, flat, within HALO radii, over samples less than
    # half the pip's contrast from the face's colour (darker is the pip itself, or a ring
    # around it: a domino's pip); one that does not stops where it starts, as before
    near = steps < HALO
    flat = ~stop[:, near]
    faint = np.cumprod(colour[:, near] < 0.5 * p.contrast, axis=1).astype(bool)
    starts = np.where(flat.any(axis=1), flat.argmax(axis=1), 0)
    starts = np.where(faint[np.arange(len(starts)), np.maximum(starts - 1, 0)], starts, 0)
    stop &= np.arange(len(steps))[None, :] >= starts[:, None]
    first_stop = np.where(stop.any(axis=1), stop.argmax(axis=1), len(steps))
    first_out = np.where((~inside).any(axis=1), (~inside).argmax(axis=1), len(steps))
    face_ = _lone_body(work, grey, p, resp, view, steps, angles, xs, ys, first_stop, first_out,
                       others)
    if (face_ is not None and not face_.uncertain
            and _one_face_with(work, p, others, steps[np.minimum(first_stop, len(steps) - 1)] * p.r,
                               face, tol)):  # fmt: skip
        # (sixteenth pass) a soft shadow's edge between a blurred 2's pips, which the
        # grouping kept apart: one pip's body ended at the edge, evenly enough for a 1, short
        # of the other pip (webcam two_47 and two_38 under a shadow: certain 1s, no note)
        face_.uncertain = True
        face_.confidence = min(face_.confidence, 0.4)
        face_.notes.append("a lone pip: one face with a pip like it (a shadow across it?)")
    if (face_ is not None and (not face_.uncertain or face_.unsettled)
            or p.minor < HEAD_ON * p.major):
        return face_
    # a shadow's edge across its die may have stopped rays short (ninth pass: a 1 crossed
    # by one was missed): those that run on over its face's colour in less light are let
    # run on to where that ends; a body closed, even and centred so is a 1, asked (tenth
    # pass). Round pips only, seen from above: at an angle a side face is that colour too
    shaded = _through_shade(work, p, xc, yc, inside & (colour <= tol), first_stop)
    if shaded is None:
        return face_
    again = _lone_body(work, grey, p, resp, view, steps, angles, xs, ys, shaded, first_out,
                       others)
    if again is None or again.uncertain:
        return face_
    again.uncertain = True
    again.confidence = 0.5
    again.notes.append(_IN_SHADE)
    return again


def _through_shade(work: np.ndarray, p: Pip, xc: np.ndarray, yc: np.ndarray, lit: np.ndarray,
                   first_stop: np.ndarray) -> np.ndarray | None:  # fmt: skip
    """Where :func:`_single`'s rays (sample positions ``xc``, ``yc``; ``lit``: samples of
    the face's colour) stop when each may cross one edge into the face's colour in less
    light (within two samples of its first stop) and run on over it; None when no ray
    does."""
    n = xc.shape[1]
    colours = work[yc, xc].astype(np.float32)
    shade = _in_shade_of(colours.reshape(-1, 3), p.face, p.contrast).reshape(xc.shape)
    out = first_stop.copy()
    moved = False
    for k in range(len(first_stop)):
        j = int(first_stop[k])
        start = next((i for i in range(j, min(j + 3, n)) if shade[k, i]), None)
        if start is None:
            continue
        on = shade[k, start:] | lit[k, start:]
        out[k] = start + (int(np.argmin(on)) if not on.all() else n - start)
        moved = True
    return out if moved else None


def _faint_pair_around(resp: np.ndarray, p: Pip, angles: np.ndarray, reach: np.ndarray
                       ) -> bool:  # fmt: skip
    """Whether two faint marks of a pip's size lie on either side of the lone pip ``p``, as
    far from it (2 to 7 of its radii), the pip halfway between them, each on its body (no
    further than a pip's radius past where the body's ray that way, ``angles`` and
    ``reach`` in pip radii, stopped: the table's print and grain lie beyond): a 3's or a
    5's corner pips faded (worn, under a glare) below the mark level (``_mark_level``) but
    above ``FAINT_PIP`` of what ``p`` gives in its pip response (:func:`_full_pip_response`:
    its contrast, about half of it on a die of 70-80 px). One faint mark may be a
    speck or grain; a pair set about the pip like a face's pips is a face's."""
    h, w = resp.shape
    half = int(math.ceil(7.5 * p.r))
    x0, y0 = max(0, int(p.x) - half), max(0, int(p.y) - half)
    x1, y1 = min(w, int(p.x) + half + 1), min(h, int(p.y) + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    crop = resp[y0:y1, x0:x1]
    full = _full_pip_response(crop, p.x - x0, p.y - y0, p)
    mask = (crop > max(6.0, FAINT_PIP * full)).astype(np.uint8)
    cv2.circle(mask, (round(p.x - x0), round(p.y - y0)), max(2, round(1.6 * p.r)), 0, -1)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = math.pi * p.r * p.r
    spots = []
    peaks = np.zeros(n)
    np.maximum.at(peaks, labels.ravel().astype(np.intp), crop.ravel().astype(np.float64))
    for k in range(1, n):
        if peaks[k] > _mark_level(p.contrast):
            continue  # a mark, not a faint one: the marks around a lone pip count it
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        z = complex(cents[k][0] + x0 - p.x, cents[k][1] + y0 - p.y)
        if (0.15 * area <= stats[k, cv2.CC_STAT_AREA] <= 2.5 * area
                and max(bw, bh) <= 2.5 * min(bw, bh) and 2.0 * p.r <= abs(z) <= 7.0 * p.r):
            ray = int(round(math.atan2(z.imag, z.real) / (2 * math.pi) * len(angles)))
            if abs(z) <= (reach[ray % len(angles)] + 1.0) * p.r:
                spots.append(z)  # pip-sized, roundish, as far out as a face's corner pips
    return any(abs(a + b) < 1.2 * p.r and abs(abs(a) - abs(b)) < 0.25 * max(abs(a), abs(b))
               for a, b in itertools.combinations(spots, 2))


def _full_pip_response(crop: np.ndarray, x: float, y: float, p: Pip) -> float:
    """What a whole pip like ``p`` gives in the pip response ``crop`` (``p`` at ``x``, ``y``
    in it): its contrast, or less when the response cuts it. The black- or top-hat's
    structuring element is ``pips._KERNEL`` (15) px across; a pip nearly as wide (a big die
    at the working size: 70-80 px, its pips 13-15 px across) no longer fits under it, and
    keeps about half its contrast in the response (a 79 px 3's middle pip: 87 of 157), as
    its faded corner pips keep about half of theirs. The highest response over the pip's
    middle (within half its radius) tells it; on smaller pips it is the contrast, and
    nothing changes."""
    rad = max(1, round(0.5 * p.r))
    xi, yi = round(x), round(y)
    h, w = crop.shape
    patch = crop[max(0, yi - rad) : min(h, yi + rad + 1), max(0, xi - rad) : min(w, xi + rad + 1)]
    own = float(patch.max()) if patch.size else p.contrast
    return min(p.contrast, max(own, 1.0))


def _lone_body(work: np.ndarray, grey: np.ndarray, p: Pip, resp: np.ndarray,
               view: bool | None, steps: np.ndarray, angles: np.ndarray, xs: np.ndarray,
               ys: np.ndarray, first_stop: np.ndarray, first_out: np.ndarray,
               others: np.ndarray | None = None) -> _Face | None:  # fmt: skip
    """:func:`_single`'s judgement of the body its rays found (``first_stop``: the sample
    where each stopped; ``first_out``: where each left the picture; ``others``: the other
    pips, rows of x, y, r, polarity, roundness, contrast, long axis (radians) and the grey
    of the face around it: :func:`_pip_stops_body`)."""
    h, w = grey.shape
    xc, yc = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
    pip_thr = _mark_level(p.contrast)
    if np.any(first_out < first_stop) or np.sum(first_stop >= len(steps)) > 2:
        return None  # no edge in several directions: not a bounded die face
    open_mask = first_stop >= len(steps)
    open_rays = int(np.sum(open_mask))
    first_stop = np.minimum(first_stop, len(steps) - 1)
    upto = np.arange(len(steps))[None, :] <= first_stop[:, None]
    hits = int(((resp[yc, xc] > pip_thr) & upto).sum())
    reach = steps[first_stop]
    reach_a = np.array(reach)
    if np.median(reach_a) < 2.4 or reach_a.min() < 1.5:
        return None
    # the pip of a 1 is in the middle of its face: opposite rays reach about as far
    # (seen obliquely, with the camera upright, the die's front face lies below its top
    # face: a ray going down may run on over it, so those pairs do not count)
    diff = reach_a[:8] - reach_a[8:]  # ray k minus the opposite ray k + 8
    down = np.sin(angles)  # > 0: the ray goes down the picture
    longer_down = np.where(diff > 0, down[:8], down[8:]) > 0.3
    oblique = p.minor / p.major < 0.9 and (view or p.major - p.minor >= _SQUASH_SEEN)
    pairs = ~longer_down if oblique else np.ones(8, bool)
    asym = float(np.max(np.abs(diff[pairs]), initial=0.0) / np.mean(reach_a))
    if oblique:
        open_rays = int(np.sum(open_mask & (down <= 0.3)))
    # a square face seen from above: edge distances between side/2 and side/sqrt2
    side = 2 * float(np.percentile(reach_a, 30)) * p.r
    ratio = p.r / side
    if not 0.06 <= ratio <= 0.3:
        return None
    level = reach_a[down <= 0.3] if oblique else reach_a  # rays that stay on the top face
    spread = float(level.max() / max(level.min(), 1e-3))
    notes = []
    uncertain = False
    conf = 0.85
    uneven, off_middle = spread > 2.2, asym > 0.6
    why = [
        text
        for bad, text in (
            (uneven, f"body reach uneven ({spread:.1f})"),
            (off_middle, f"pip off the middle ({asym:.2f})"),
            (hits > 1, "other pips on its body"),
            (open_rays > 0, "body not closed"),
        )
        if bad
    ]
    if uneven and off_middle:
        return None  # an uneven body with the pip off its middle: no 1 (a side face's pip)
    unsettled = hits > 1  # more pips may be there: a 1 is then part of a face
    if why:
        uncertain = True
        notes.append("a lone pip: " + ", ".join(why))
        conf = 0.4
    half = max(0.45 * side, 3.5 * p.r)
    box = np.array([(p.x - half, p.y - half), (p.x + half, p.y - half),
                    (p.x + half, p.y + half), (p.x - half, p.y + half)])  # fmt: skip
    stray = _stray_marks(resp, box, [p], p.contrast)
    if stray > 0.5 and hits > 1 and (uneven or off_middle):
        return None  # marks all around on an uneven body: print or text, no 1
    if stray > 0.5:
        uncertain = unsettled = True
        notes.append(f"{_AROUND_LONE} ({stray:.1f} pips)")
        conf = min(conf, 0.4)
    if not unsettled and _faint_pair_around(resp, p, angles, reach_a):
        # a 3's or a 5's corner pips worn or under a glare, too faint to be found as pips
        uncertain = unsettled = True
        notes.append("a faint pip where a 3 has one (a pair about the lone pip)")
        conf = min(conf, 0.4)
    gap = _pip_stops_body(p, others, angles, reach_a * p.r)
    if gap < PIP_STOP:
        uncertain = True  # a picture of the face settles it: two pips or one (_second_opinion)
        # ... unless its pip is off its body's middle or the body uneven too: two signs of
        # one pip of a 2 (fifteenth pass: webcam two_28 under a soft shadow and two_33 with
        # its hue turned, 1s the face model confirmed at 0.974 and 0.982)
        unsettled = unsettled or uneven or off_middle
        notes.append(f"a lone pip: its body ends at another pip ({gap:.1f} radii short of it)")
        conf = min(conf, 0.4)
    return _Face(1, p.x, p.y, side, conf, uncertain, float(p.minor / p.major), notes, [p],
                 unsettled)  # fmt: skip


def _pip_stops_body(p: Pip, others: np.ndarray | None, angles: np.ndarray,
                    reach: np.ndarray) -> float:  # fmt: skip
    """How far short of a pip like ``p`` (its polarity, size, shape and contrast:
    ``ALIKE``) a ray of ``p``'s body stopped, in that pip's radii (the ray passing within
    ``HIT_RIM`` radii of it; ``reach`` in px), the least over such pips; ``inf`` when none.

    A ray stopped just short of a pip like it may have been stopped by that pip's blurred
    rim: the two pips of a blurred 2 that the grouping kept apart (the line between them
    runs over their faint rims). One pip's body then ends at the other's rim on one side and
    at the die's edge elsewhere, even enough for a 1 (webcam ``train_two_47`` with its
    contrast turned down or up: a certain 1). It may as well be a 1 on a die seen at an
    angle, a side face's pip just past its top face's edge, little squashed: the doubt is
    one the face model may settle (on the webcam photos it confirms those 1s)."""
    if others is None or not len(others):
        return math.inf
    dx, dy = others[:, 0] - p.x, others[:, 1] - p.y
    dist = np.hypot(dx, dy)
    # a pip like it: the same size, shape and contrast (a side face's pips beyond its top
    # face's edge are squashed, fainter or smaller: a 1 seen from a webcam's angle)
    alike = _alike(p, others)
    near = ((others[:, 3] == p.polarity) & alike & (dist > p.r)
            & (dist <= reach.max() + 3 * others[:, 2]))  # fmt: skip
    if not near.any():
        return math.inf
    step = angles[1] - angles[0]
    turn = np.arctan2(dy[near], dx[near]) / step
    ray = np.rint(turn).astype(int) % len(angles)
    dist, r = dist[near], others[near, 2]
    across = dist * np.abs(np.sin((turn - np.rint(turn)) * step))  # the ray passes this far
    gap = (dist - reach[ray]) / r
    # a pip the ray passes through (within its rim) and that it did not run past
    hit = (across <= HIT_RIM * r) & (gap >= -1.0)
    return float(np.min(gap[hit])) if hit.any() else math.inf


def _one_face_with(work: np.ndarray, p: Pip, others: np.ndarray | None, reach: np.ndarray,
                   face: np.ndarray, tol: float) -> bool:  # fmt: skip
    """Whether a pip like ``p`` (:func:`_alike`, squashed along the same axis: ``ALONG``)
    lies within its body's ``reach`` (px, per ray) and three of its own radii, with the
    straight line between the two pips' rims all of ``p``'s face colour: within ``tol`` of
    ``face``, or ``p.face`` in other light (``SHADE[0]`` times as bright, up to the light
    of the other pip's ring, within ``BETWEEN`` and the grouping's tolerance:
    :func:`_light_and_offset`). Two pips of one face, whatever the light across it: a
    shadow's edge between them ends one pip's body short of the other, the lit pip's or the
    shaded one's. A side face's pips, beyond the top face's edge, are squashed across another
    axis (a pip seen round, from above, has none to compare), and a die's edge lit brighter
    than both faces' is no face between them.

    Nor is a pip of a face of its own (seventeenth pass): one that ended in a group of two or
    more pips (``others``' columns 8 and 9, :func:`_read_faces`) that, with ``p``, is no row
    (:func:`_in_one_row`). A 2's pip that a shadow's edge kept apart is alone, and a 3's
    other two pips lie in a row with it; the pips of a top 1's front face below it, in less
    light and squashed like it in a picture taken at an angle, are a face of their own (14
    right 1s of the spent oblique ranges were asked)."""
    if others is None or not len(others):
        return False
    h, w = work.shape[:2]
    shape = p.minor / p.major
    for q in others[_alike(p, others)]:
        dist = math.hypot(q[0] - p.x, q[1] - p.y)
        if q[3] != p.polarity or dist <= p.r or dist > reach.max() + 3 * q[2]:
            continue
        turn = abs(math.degrees(q[6] - p.angle)) % 180
        if min(turn, 180 - turn) > ALONG and max(q[4], shape) < HEAD_ON:
            continue
        if q[9] >= 2 and not _in_one_row(others[others[:, 8] == q[8], :2], p):
            continue  # a pip of a face of its own (a side face's), not the lone pip's
        ts = np.arange(1.6 * p.r, dist - 1.6 * q[2], 1.0)
        if len(ts) < 2:
            continue
        xs = np.clip(np.rint(p.x + (q[0] - p.x) / dist * ts).astype(int), 0, w - 1)
        ys = np.clip(np.rint(p.y + (q[1] - p.y) / dist * ts).astype(int), 0, h - 1)
        colours = work[ys, xs].astype(np.float32)
        lit = np.sqrt(((colours - face) ** 2).sum(axis=1)) <= tol
        k, off = _light_and_offset(colours, p.face)
        brightest = BETWEEN * max(1.0, q[7] / max(p.face_grey, 1.0))  # the lit pip's light
        other_light = (k >= SHADE[0]) & (k <= brightest) & (off <= _contrast_tol(p.contrast))
        if (lit | other_light).all():
            return True
    return False


def _in_one_row(points: np.ndarray, p: Pip) -> bool:
    """Whether ``points`` (x, y rows) and pip ``p`` lie in one row: their spread across
    their main line is at most ``ONE_ROW`` of their spread along it."""
    pts = np.vstack([points, [[p.x, p.y]]])
    spread = np.linalg.svd(pts - pts.mean(axis=0), compute_uv=False)
    return bool(spread[1] <= ONE_ROW * spread[0])


def _alike(p: Pip, others: np.ndarray) -> np.ndarray:
    """Which of ``others`` (rows as :func:`_lone_body` says) are pips like ``p``: the same
    size, shape and contrast (``ALIKE``)."""
    return ((np.abs(others[:, 4] - p.minor / p.major) <= ALIKE[0])
            & (np.abs(np.log(others[:, 2] / p.r)) <= math.log(ALIKE[1]))
            & (np.abs(np.log(np.maximum(others[:, 5], 1.0) / max(p.contrast, 1.0)))
               <= math.log(ALIKE[2])))  # fmt: skip


def _read_faces(
    work: np.ndarray,
    planes: dict[int, np.ndarray],
    pips: list[Pip],
    responses: dict[int, np.ndarray],
    failed: list[list[Pip]] | None = None,
) -> tuple[list[_Face], list[str]]:
    """The faces the pips form; groups that fit no face (a clean lone pip with no die body
    found around it, or 2 or more pips) go to ``failed``."""
    notes: list[str] = []
    faces: list[_Face] = []
    # the pairs near each other, found once for all the pips: a group split again (a
    # cluster of thousands of texture "pips" on a busy table) keeps its own
    near = _near_pips(pips) if len(pips) > _FEW_PIPS else None
    index = {id(p): k for k, p in enumerate(pips)}
    # each pip's final group (its id and size, columns 8 and 9; a lone pip's id is its own
    # index, a group's counts on from len(pips)), known once every group of two or more pips
    # is split and read: lone pips are read last (see _one_face_with)
    others = np.array([(p.x, p.y, p.r, p.polarity, p.minor / p.major, p.contrast, p.angle,
                        p.face_grey, k, 1) for k, p in enumerate(pips)],
                      np.float64).reshape(-1, 10)  # fmt: skip
    todo = [(g, 1.0) for g in _groups(work, pips, near=near)]
    singles: list[tuple[list[Pip], float]] = []
    ended = len(pips)
    view = _squashed_view(pips)
    lost: list[list[Pip]] = []
    unfit: list[list[Pip]] = []  # groups that fit no face, before they are split again
    unclean: list[Pip] = []  # lone pips no face took, not clean (a die's edge in the ring)
    while todo or singles:
        if todo:
            group, strict = todo.pop()
            if len(group) == 1:
                singles.append((group, strict))
                continue
        else:
            group, strict = singles.pop(0)
        resp = responses[group[0].polarity]
        grey = planes[group[0].polarity]
        if len(group) == 1:
            face = _single(work, planes[GREY], group[0], resp, view, others)
        else:
            face = _classify(grey, group, resp)
        if face is None and len(group) > 1 and strict == 1.0:
            unfit.append(group)
        if (face is None or len(group) > 6) and len(group) > 2 and strict > 0.4:
            # maybe two faces (a top and a side face, or two touching dice): split harder
            within = None
            if near is not None and len(group) > _FEW_PIPS:
                within = _near_within(near, index, len(pips), group)
            parts = _groups(work, group, strict * 0.6, within)
            if len(parts) > 1:
                todo.extend((g, strict * 0.6) for g in parts)
                continue
        if 6 < len(group) <= TOP_OVER_FRONT:
            halves = _top_over_front(grey, group, resp)
            if halves is not None:
                todo.extend((g, strict) for g in halves)
                continue
        if len(group) > 1:
            ended += 1
            others[[index[id(q)] for q in group], 8:10] = (ended, len(group))
        if face is not None:
            faces.append(face)
        elif len(group) > 1 or _clean_pip(group[0]):
            lost.append(group)
        else:
            unclean.append(group[0])
    faces = _join_pips(work, planes, pips, responses, faces, lost, unfit)
    taken = {id(p) for f in faces for p in f.pips}
    alone = unclean + [g[0] for g in lost if len(g) == 1]
    faces.extend(_edge_ringed_twos(work, planes, responses,
                                   [p for p in alone if id(p) not in taken], faces))
    faces.extend(_column_sixes(work, planes, responses, faces))
    for face in faces:
        notes.extend(f"die at ({face.x:.0f}, {face.y:.0f}): {t}" for t in face.notes)
    if failed is not None:
        failed.extend(lost)
    return faces, notes


def _top_over_front(grey: np.ndarray, group: list[Pip], resp: np.ndarray
                    ) -> tuple[list[Pip], list[Pip]] | None:  # fmt: skip
    """A cluster of 7 to ``TOP_OVER_FRONT`` pips that no split parted, cut into a top face
    and its die's front face below it (twentieth pass: a white 5 and the diagonal 3 of its
    front face, seen from a webcam above and in front, were one cluster of 8 pips read as an
    asked 6): its 4 to 6 highest pips, when they read as a face with no doubt, and the 1 to 3
    others, every one lower in the picture than they are and than that face's lower half
    (camera upright: a front face shows below its top). The most pips that do win."""
    ordered = sorted(group, key=lambda p: p.y)
    for k in (6, 5, 4):
        top, rest = ordered[:k], ordered[k:]
        if not 1 <= len(rest) <= 3 or rest[0].y <= top[-1].y:
            continue
        fit = _fit_affine(np.array([(p.x, p.y) for p in top], np.float64))
        if fit is None or fit[1] > 0.25:
            continue
        face = _classify(grey, top, resp)
        if face is not None and not face.uncertain and \
                all(p.y > face.y + 0.5 * face.side for p in rest):  # fmt: skip
            return top, rest
    return None


def _edge_ringed_twos(work: np.ndarray, planes: dict[int, np.ndarray],
                      responses: dict[int, np.ndarray], alone: list[Pip],
                      faces: list[_Face]) -> list[_Face]:
    """2s whose two pips were left alone: each pip near a corner of its face, its ring half
    the die's edge, so the line between them (clean face) was further from the rings'
    colour than the grouping takes, and neither pip was clean enough for a lone look
    (eighteenth pass: white 2s on wood seen nearly from above, missed, spent heldout-d
    4 000 050), or each was clean but no die body was found around it alone (nineteenth
    pass: light pips of red and black dice, spent heldout-d 4 000 076). ``alone``: such pips
    no face took; ``faces``: the faces read.

    Two of them make a 2 when they are alike (polarity, size, contrast, round, one shape),
    ``PAIR_SPAN`` radii apart, the line between them one colour, at least as bright as their
    rings (the die's edge darkens the rings, under dark pips and light ones), and no face was
    read within 1.4 sides (part of it, or its top face) other than a front face below the
    pair with smaller pips (:func:`_side_face_below`), and the layouts read the pair as a
    2. It is asked, for the second opinion to confirm; with a doubt a picture cannot settle
    it is dropped (:func:`_read_classical`): two pips of a 4 whose other two
    were lost fit a 2, and the die finder may read that 4 there."""
    out: list[_Face] = []
    if len(alone) > PAIR_ALONE:
        return out
    used: set[int] = set()
    mask = None
    for i, j in _alike_pairs(alone):
        p, q = alone[i], alone[j]
        if id(p) in used or id(q) in used or not _same_shape(p, q, 1.0):
            continue
        d = math.hypot(p.x - q.x, p.y - q.y)
        r = 0.5 * (p.r + q.r)
        if not PAIR_SPAN[0] * r <= d <= PAIR_SPAN[1] * r:
            continue
        if mask is None:
            mask = _pip_mask(work, alone)
        cols = _line_colours(work, p, q, mask)
        if cols is None or len(cols) < 4:
            continue
        med = np.median(cols, axis=0)
        spread = float(np.sqrt(((cols - med) ** 2).sum(axis=1)).max())
        tol = _colour_tol(p, q)
        if spread > tol:
            continue
        line_grey = float(med.mean())
        ring_grey = 0.5 * (p.face_grey + q.face_grey)
        # the line is face, at least as bright as their rings (the die's edge darkens them,
        # under dark pips and light ones alike)
        if line_grey < ring_grey:
            continue
        mx, my = 0.5 * (p.x + q.x), 0.5 * (p.y + q.y)
        if any(math.hypot(mx - f.x, my - f.y) < 1.4 * max(f.side, d / 0.735)
               and not _side_face_below(f, my, r) for f in faces):  # fmt: skip
            continue  # beside a face read: part of it, or its top face (it is a side face)
        face = _asked_face(planes, responses, [p, q], 2,
                           "a 2 whose pips' rings took its die's edge")  # fmt: skip
        if face is None:
            continue
        face.edge_pair = True
        out.append(face)
        used |= {id(p), id(q)}
    return out


def _alike_pairs(pips: list[Pip]) -> Iterator[tuple[int, int]]:
    """The pairs (i, j), i < j, in ``itertools.combinations`` order, of pips alike enough
    for :func:`_edge_ringed_twos` (one polarity, sizes, contrasts, round): its first tests,
    on all pairs at once (up to ``PAIR_ALONE`` lone pips, 80 000 pairs, on a busy table,
    tested one by one in Python). The same float64 divisions and comparisons, so the same
    pairs."""
    if len(pips) < 2:
        return iter(())
    pol, r, contrast, minor, major = (np.array([getattr(p, k) for p in pips], np.float64)
                                      for k in ("polarity", "r", "contrast", "minor",
                                                "major"))  # fmt: skip
    i, j = np.triu_indices(len(pips), 1)  # row-major: combinations order
    ratio = minor / major
    with np.errstate(divide="ignore", invalid="ignore"):
        size, light = r[i] / r[j], contrast[i] / contrast[j]
    ok = ((pol[i] == pol[j]) & (0.7 <= size) & (size <= 1.43)
          & (np.minimum(r[i], r[j]) >= _MIN_SURE_PIP)
          & (0.67 <= light) & (light <= 1.5) & (np.minimum(contrast[i], contrast[j]) >= 40)
          & (np.minimum(ratio[i], ratio[j]) >= 0.55))  # fmt: skip
    return zip(i[ok].tolist(), j[ok].tolist(), strict=True)


def _asked_face(planes: dict[int, np.ndarray], responses: dict[int, np.ndarray],
                pips: list[Pip], value: int, note: str) -> _Face | None:
    """The face ``pips`` make if the layouts read it as ``value``: asked, with ``note``, its
    confidence at most 0.5 (pips put together by a rule the grouping does not make, for the
    second opinion to confirm); else None."""
    polarity = pips[0].polarity
    face = _classify(planes[polarity], pips, responses[polarity])
    if face is None or face.value != value:
        return None
    face.uncertain = True
    face.confidence = min(face.confidence, 0.5)
    face.notes.append(note)
    return face


def _column_sixes(work: np.ndarray, planes: dict[int, np.ndarray],
                  responses: dict[int, np.ndarray], faces: list[_Face]) -> list[_Face]:
    """Small 6s whose pips touch in their columns (a die of about 20 px seen at an angle):
    each column is one long mark, not a pip, and no pip of the die is found. Two such marks
    side by side (:func:`companion.vision.pips.column_pairs`), where no face was read, are
    cut into three pips each; if the layouts read the six as a 6, it is asked, for the second
    opinion to confirm (nineteenth pass: oblique train 1250, spent heldout-b..l)."""
    out: list[_Face] = []
    for polarity in (DARK, LIGHT):
        for p, q in column_pairs(responses[polarity]):
            mx, my = 0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])
            span = p[3] * math.sqrt(3)
            if any(math.hypot(mx - f.x, my - f.y) < max(f.side, 1.5 * span)
                   for f in faces + out):  # fmt: skip
                continue
            pips = describe_blobs(work, planes[polarity], column_pips(p) + column_pips(q),
                                  polarity)  # fmt: skip
            if len(pips) != 6:
                continue
            face = _asked_face(planes, responses, pips, 6,
                               "a 6 read from its two columns of touching pips")  # fmt: skip
            if face is not None:
                face.columns = True
                out.append(face)
    return out


def _unconfirmed_columns_dropped(faces: list[_Face], notes: list[str]
                                 ) -> tuple[list[_Face], list[str]]:  # fmt: skip
    """The faces and notes without the 6s read from two column marks (:func:`_column_sixes`)
    that the second opinion did not confirm: long marks side by side are also a label's
    letters or a keyboard's keys on a webcam's table (a question about nothing, in 11 of
    310 webcam photos); the place is left to the die finder."""
    return _without(faces, notes, lambda f: f.columns and f.uncertain)


def _without(faces: list[_Face], notes: list[str], drop: Callable[[_Face], bool]
             ) -> tuple[list[_Face], list[str]]:  # fmt: skip
    """``faces`` without those ``drop`` picks, and ``notes`` without the notes about them."""
    gone = tuple(f"die at ({f.x:.0f}, {f.y:.0f}): " for f in faces if drop(f))
    if not gone:
        return faces, notes
    return [f for f in faces if not drop(f)], [n for n in notes if not n.startswith(gone)]


def _side_face_below(f: _Face, y: float, r: float) -> bool:
    """Whether face ``f`` lies below height ``y`` with pips under 0.8 of radius ``r``: the
    front face of a die whose top face has pips of that size at that height (a front face is
    seen lower and more foreshortened than its top face; an upright camera)."""
    return f.y > y and bool(f.pips) and _median([p.r for p in f.pips]) < 0.8 * r


def _join_pips(work: np.ndarray, planes: dict[int, np.ndarray], pips: list[Pip],
               responses: dict[int, np.ndarray], faces: list[_Face], lost: list[list[Pip]],
               unfit: list[list[Pip]]) -> list[_Face]:  # fmt: skip
    """Pips of one face that the grouping kept apart, joined again (eighth pass).

    Two pips are grouped when their rings have one colour and the line between them stays
    on it. A pip near the edge of a face seen at an angle has the bevel or the side face in
    its ring, and a face in uneven light is brighter between its pips than at their rings:
    the face's pips then fall apart, and a 4 is read as a 2 with pips where its empty cells
    should be (asked, with a wrong value), or three of its pips fit no face and the die is
    missed. A face with pip-like marks that are not its pips (``crowded``), and a group of
    pips that fit no face (``unfit``, before it was split again), is tried with the pips
    near it (``JOIN_REACH`` sides; for a group, that many times its own span) of its
    polarity, size and shape and nearly its colour (``JOIN_COLOUR`` times the grouping's
    tolerance, no line test; not when there are more than ``JOIN_MAX``: a speckled or
    dotted table). When one set of them, added, makes a face the layouts read
    with no doubt (the most pips if several do, and one value), that face replaces the faces
    and groups its pips were in. It stays asked: joined across a line the grouping refused,
    it may hold pips of a side face; the second opinion may confirm it. A crowded face that
    joins nothing may have pips of another surface among its marks: :func:`_marks_elsewhere`.
    """
    out = list(faces)
    seeds: list[tuple[list[Pip], float, float, float, _Face | None]] = []
    for f in faces if len(faces) <= JOIN_GROUPS else []:
        if f.crowded and len(f.pips) < 6:
            seeds.append((f.pips, f.x, f.y, JOIN_REACH * f.side, f))
    # on a busy table (granite, a perforated mat) hundreds of texture groups fit no face,
    # or read as faces: they are not tried (time; none of them is a die's face)
    for g in unfit if len(unfit) <= JOIN_GROUPS else []:
        if len(g) < 6:
            span = max(math.hypot(p.x - q.x, p.y - q.y) for p, q in itertools.combinations(g, 2))
            seeds.append((g, statistics.fmean(p.x for p in g), statistics.fmean(p.y for p in g),
                          JOIN_REACH * 1.5 * span, None))  # fmt: skip
    # a lone pip no face took (no die body found around it: a shadow's edge across its die)
    # is tried with the pips of its face in the other light only; both round and big enough
    # to tell it: seen at an angle, a top face's pip and its side face's, in shade, look
    # like one face in two lights (oblique render 1015: a 1 and a side pip, a certain 2)
    alone = [g[0] for g in lost
             if len(g) == 1 and g[0].r >= _MIN_SURE_PIP and g[0].minor >= HEAD_ON * g[0].major]
    for p in alone if len(alone) <= JOIN_GROUPS else []:
        seeds.append(([p], p.x, p.y, LONE_REACH * p.r, None))
    taken: set[int] = set()
    xs = np.array([p.x for p in pips])
    ys = np.array([p.y for p in pips])
    mask: np.ndarray | None = None
    for group, cx, cy, reach, seed in seeds:
        if seed is not None and not any(g is seed for g in out):
            continue  # a face already joined into another
        if any(id(p) in taken for p in group):
            continue
        near = [pips[k] for k in np.flatnonzero(np.hypot(xs - cx, ys - cy) <= reach).tolist()]
        joined, bigger = _joined(planes, near, responses, group, cx, cy, reach)
        for part in out if joined is None else []:
            if not part.uncertain and any(id(p) in bigger for p in part.pips):
                part.uncertain = part.unsettled = True  # read from part of a face in two lights
                part.confidence = min(part.confidence, 0.5)
                part.notes.append("its pips with pips like them in other light make a bigger "
                               "face (a shadow's edge across it?)")
        note = (f"{_JOINED} ({len(group)} + "
                f"{0 if joined is None else len(joined.pips) - len(group)})")  # fmt: skip
        if joined is None and seed is None and len(group) == 2:
            joined = _third_pip(planes, responses, group)
            note = "a 3 whose third pip is a mark only, not found as a pip"
        if joined is None:
            if seed is not None:
                if mask is None:
                    mask = _pip_mask(work, pips)
                clear = _marks_elsewhere(work, planes, responses, seed, near, mask)
                out = [clear if g is seed and clear is not None else g for g in out]
            continue
        ids = {id(p) for p in joined.pips}
        # the faces its pips were read in go whole, or nothing is joined
        holders = [g for g in out if any(id(p) in ids for p in g.pips)]
        if any(id(p) not in ids for g in holders for p in g.pips):
            continue
        out = [g for g in out if not any(g is h for h in holders)]
        joined.uncertain = True
        joined.notes.append(note)
        out.append(joined)
        taken |= ids
        lost[:] = [rest for g in lost if (rest := [p for p in g if id(p) not in ids])]
    return out


def _third_pip(planes: dict[int, np.ndarray], responses: dict[int, np.ndarray],
               group: list[Pip]) -> _Face | None:
    """Two pips that fit no face (too big for a 2 that far apart: two neighbours on a 3's
    diagonal) and a mark like them one step on beyond one of them, not beyond the other:
    a 3 whose third pip the pip finder lost (eighth pass: near the die's edge, a pip runs
    into the edge's own darkness and is no round blob; big 3s of dice seen at an angle were
    missed). The 3 is read with a pip put there; it must fit as a 3 with no doubt, and it
    stays asked (the mark may be something else), for the second opinion to settle."""
    p, q = group
    ends = []
    for a, b in ((p, q), (q, p)):
        x, y = 2.0 * b.x - a.x, 2.0 * b.y - a.y
        if _pips_at(responses, group, np.array([[x, y]])):
            ends.append(dataclasses.replace(b, x=x, y=y))
    if len(ends) != 1:
        return None
    face = _classify(planes[p.polarity], [p, q, ends[0]], responses[p.polarity])
    return face if face is not None and not face.uncertain else None


def _marks_elsewhere(work: np.ndarray, planes: dict[int, np.ndarray],
                     responses: dict[int, np.ndarray], f: _Face, near: list[Pip],
                     pip_mask: np.ndarray) -> _Face | None:  # fmt: skip
    """Face ``f`` read again without the marks of pips that lie on another surface
    (:func:`_other_surface`; eighth pass): the face certain then, or None.

    The marks a 2 or a 3 must not have around it are looked for beyond its die (a 6's other
    column lies there). A die seen at an angle shows its side face's pips there, in another
    light, and the top 2 or 3 was asked for "unexplained marks". Only the marks of pips
    found on another surface are left out; a mark on the face (glare residue, a pip the
    finder did not separate) and a mark that is no pip (a board's line) still count, and
    every other check is made again.

    Failing that (ninth pass), the face is read again without every mark in other light
    (:func:`_other_light`): pips in other light whose line to the face's pips cannot be
    told from the face's colour (too short, or crossing a bevel of the in-between colour),
    and pip-sized marks in other light that were not found as pips
    (:func:`_marks_in_other_light`: a side face's squashed pips). Clean then, it is read,
    asked: only the second opinion, which sees the die, may confirm it (``CONFIRM``)."""
    pol = f.pips[0].polarity
    own = {id(p) for p in f.pips}
    mine = [q for q in near if id(q) not in own and q.polarity == pol]
    others = [q for q in mine if _other_surface(work, f, q, pip_mask)]
    apart = others + [q for q in mine if all(q is not o for o in others)
                      and _other_light(f, q.face, q.contrast) and _beyond(f, q.x, q.y)
                      and _in_shade(f, q.face)]  # fmt: skip
    for left, sure in ((others, True), (apart, False)):
        if sure and not left:
            continue
        resp = responses[pol].copy()
        for q in left:
            cv2.circle(resp, (round(q.x), round(q.y)), max(2, round(1.6 * q.r)), 0.0, -1)
        marks = 0 if sure else _marks_in_other_light(work, resp, f)
        if not sure and ((len(left) == len(others) and not marks) or len(left) + marks < 2):
            continue  # nothing more left out than above, or a single mark (anything)
        face = _classify(planes[pol], f.pips, resp)
        if face is None or face.uncertain:
            continue
        if sure:
            face.notes.append(f"marks of {len(left)} pips on another surface beside it left out")
        else:
            face.uncertain = True
            face.notes.append(f"marks of {len(left)} pips and {marks} pip-like marks in other "
                              "light beside it left out")  # fmt: skip
        return face
    return None


def _in_shade(f: _Face, colour: tuple[float, float, float]) -> bool:
    """Whether ``colour`` is the colour of face ``f``'s pips' rings in less light: the same
    material seen darker, as a die's side face turned away from the light is
    (:func:`_darker_alike`). Not glare (brighter), not most tables and boards (another
    colour)."""
    return all(_darker_alike(p.face, colour, p.contrast) for p in f.pips)


def _darker_alike(lit: tuple[float, float, float], colour: tuple[float, float, float],
                  contrast: float) -> bool:  # fmt: skip
    """Whether ``colour`` is ``lit`` in less light (:func:`_in_shade_of`)."""
    return bool(_in_shade_of(np.array([colour], np.float32), lit, contrast)[0])


def _in_shade_of(colours: np.ndarray, lit: tuple[float, float, float] | np.ndarray,
                 contrast: float) -> np.ndarray:  # fmt: skip
    """For each of ``colours`` (rows, BGR): whether it is ``lit`` in less light, ``SHADE``
    times as bright, within the grouping's tolerance (for pips of ``contrast``) of that."""
    k, alike = _in_light_of(colours, lit, contrast)
    return alike & (k.astype(np.float64) <= SHADE[1])


def _in_light_of(colours: np.ndarray, lit: tuple[float, float, float] | np.ndarray,
                 contrast: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each of ``colours`` (rows, BGR): how bright it is as ``lit`` in some light (the
    factor k along ``lit``), and whether it is ``lit`` in that light, down to ``SHADE[0]``
    and up to as bright, within the grouping's tolerance for pips of ``contrast``."""
    k, off = _light_and_offset(colours, lit)
    return k, (k >= SHADE[0]) & (k <= 1.0) & (off <= _contrast_tol(contrast))


def _light_and_offset(colours: np.ndarray, lit: tuple[float, float, float] | np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each of ``colours`` (rows, BGR): the factor k along ``lit`` (how bright it is as
    ``lit`` in some light) and its distance from ``k`` times ``lit``."""
    face = np.asarray(lit, np.float32)
    k = colours @ face / max(float(face @ face), 1.0)
    return k, np.linalg.norm(colours - k[:, None] * face, axis=1)


def _one_face_in_two_lights(p: Pip, q: Pip) -> bool:
    """Whether pips ``p`` and ``q`` may be on one face with a shadow's edge between them
    (ninth pass): one's ring the other's in less light, and its pip as much less dark."""
    for lit, dim in ((p, q), (q, p)):
        if _darker_alike(lit.face, dim.face, min(p.contrast, q.contrast)):
            k = dim.face_grey / max(lit.face_grey, 1.0)
            return abs(dim.contrast - k * lit.contrast) <= 0.25 * lit.contrast
    return False


def _beyond(f: _Face, x: float, y: float) -> bool:
    """Whether (x, y) lies beyond face ``f``'s own square (further from its centre than half
    its side and a bit: every cell of its layout lies within 0.37 of a side)."""
    return math.hypot(x - f.x, y - f.y) > BEYOND * f.side


def _marks_in_other_light(work: np.ndarray, resp: np.ndarray, f: _Face) -> int:
    """Pip-sized marks around face ``f`` (in ``resp``, which is changed: they are cleared)
    that were not found as pips and whose surroundings are in other light than the face's
    pips' rings (:func:`_other_light`): the squashed pips of a side face seen at an angle,
    where the pip finder saw no ellipse. How many. A mark bigger than two and a half pips
    or longer than three pips across (a shadow), smaller than a fifth of a pip (a speck),
    thinner than ``MARK_SHAPE``, or running on out of 1.5 sides around the face (a board's
    line) is kept."""
    h, w = resp.shape
    reach = 1.5 * f.side  # the marks counted lie within 0.9 sides (_classify)
    x0, y0 = max(0, math.floor(f.x - reach)), max(0, math.floor(f.y - reach))
    x1, y1 = min(w, math.ceil(f.x + reach) + 1), min(h, math.ceil(f.y + reach) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 0
    r = _median([p.r for p in f.pips])
    contrast = _median([p.contrast for p in f.pips])
    thr = _mark_level(contrast)
    on = (resp[y0:y1, x0:x1] > thr).astype(np.uint8)
    for p in f.pips:
        cv2.circle(on, (round(p.x - x0), round(p.y - y0)), max(2, round(1.6 * p.r)), 0, -1)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(on, connectivity=8)
    ring_k = np.ones((5, 5), np.uint8)
    cleared = 0
    for k in range(1, count):
        bx, by, bw, bh, area = (int(v) for v in stats[k])
        if area > 2.5 * math.pi * r * r or max(bw, bh) > 6 * r:
            continue  # a shadow or a stain, no pip
        if bx == 0 or by == 0 or bx + bw == x1 - x0 or by + bh == y1 - y0:
            continue  # it runs on out of the die's surroundings: a line
        if not _beyond(f, float(centres[k][0]) + x0, float(centres[k][1]) + y0):
            continue  # on the face: glare residue, a washed-out pip
        part = (labels[by : by + bh, bx : bx + bw] == k).astype(np.uint8)
        _, _, _, major, minor, _ = moments_ellipse(part)
        if area < 0.2 * math.pi * r * r or minor < MARK_SHAPE * major:
            continue  # a speck, or a piece of a line
        pad = np.pad(part, 2)
        ring = (cv2.dilate(pad, ring_k) > 0) & (pad == 0)
        ys, xs = np.nonzero(ring)
        ys, xs = ys + y0 + by - 2, xs + x0 + bx - 2
        inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        ys, xs = ys[inside], xs[inside]
        ys, xs = ys[resp[ys, xs] <= thr], xs[resp[ys, xs] <= thr]
        if len(ys) < 4:
            continue
        b, g, rr = (float(v) for v in np.median(work[ys, xs].astype(np.float32), axis=0))
        if _other_light(f, (b, g, rr), contrast) and _in_shade(f, (b, g, rr)):
            sub = resp[y0 + by : y0 + by + bh, x0 + bx : x0 + bx + bw]
            sub[part > 0] = 0.0
            cleared += 1
    return cleared


def _joined(planes: dict[int, np.ndarray], pips: list[Pip], responses: dict[int, np.ndarray],
            group: list[Pip], cx: float, cy: float, reach: float
            ) -> tuple[_Face | None, set[int]]:  # fmt: skip
    """:func:`_join_pips` for one face or group: the one clean face it makes with pips near
    it, or None; and the ids of the pips in other light (:func:`_one_face_in_two_lights`)
    with which it makes a bigger face, 4 round pips or more, that the layouts read with
    doubts only (tenth pass: a 4 halved by a shadow's edge along its columns, its shaded
    cells darker than its lit face, was a certain 2 from its lit pips and an asked 2 from
    its shaded ones)."""
    pol = group[0].polarity
    own = {id(p) for p in group}
    r = _median([p.r for p in group])
    cands = []
    other_light: set[int] = set()
    for p in pips:
        if id(p) in own or p.polarity != pol or max(p.r, r) > 1.6 * min(p.r, r):
            continue
        if math.hypot(p.x - cx, p.y - cy) > reach:
            continue
        if len(group) == 1 and p.minor < HEAD_ON * p.major:
            continue  # (a lone pip: see _join_pips)
        shaped = [q for q in group if _same_shape(p, q, 1.0)]
        if any(_one_face_in_two_lights(p, q) for q in shaped):
            other_light.add(id(p))
            cands.append(p)
        elif len(group) > 1 and any(_colour_dist(p.face, q.face)
                                    <= JOIN_COLOUR * _colour_tol(p, q) for q in shaped):
            cands.append(p)
    if len(cands) > JOIN_MAX:
        return None, set()  # more such pips around it than a face could take: texture
    clean: list[_Face] = []
    bigger: set[int] = set()
    for k in range(1, 7 - len(group)):
        for extra in itertools.combinations(cands, k):
            face = _classify(planes[pol], group + list(extra), responses[pol], lights=True)
            if face is not None and not face.uncertain:
                clean.append(face)
            elif face is not None and len(face.pips) >= 4 and _seen_from_above(face.pips):
                # round pips only, seen from above: at an angle a side face's pips are
                # a top face's in other light (oblique renders: right top faces asked)
                ids = {id(p) for p in extra}
                if ids & other_light:
                    bigger |= ids
    if not clean:
        return None, bigger
    most = max(len(c.pips) for c in clean)
    clean = [c for c in clean if len(c.pips) == most]
    return (clean[0] if len({c.value for c in clean}) == 1 else None), bigger


def _gradient(grey: np.ndarray) -> np.ndarray:
    smooth = cv2.GaussianBlur(grey, (0, 0), 1.0)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) / 8.0  # grey levels per pixel


def _merge_doubles(faces: list[_Face], notes: list[str]) -> list[_Face]:
    """Two faces centred on one spot (within a third of the larger one's side) are one die
    read twice: from pips found twice at two scales, or from its pips and the light gaps
    between them (the other polarity). Keep the face with more pips. Ask about it when the
    two disagree on pips of one polarity (its pips may be the doubles), or when it has fewer
    than 4 pips against gaps (too few pips to be sure which are the gaps)."""
    order = sorted(range(len(faces)), key=lambda i: (-len(faces[i].pips), -faces[i].confidence))
    kept: list[_Face] = []
    for i in order:
        f = faces[i]
        same = next((k for k in kept
                     if math.hypot(f.x - k.x, f.y - k.y) < 0.33 * max(f.side, k.side)),
                    None)  # fmt: skip
        if same is None:
            kept.append(f)
            continue
        gaps = same.pips[0].polarity != f.pips[0].polarity
        if (same.value != f.value and not gaps) or (gaps and len(same.pips) < 4):
            same.uncertain = True
            same.confidence = min(same.confidence, 0.5)
            notes.append(f"die at ({same.x:.0f}, {same.y:.0f}): read twice, as a {same.value} "
                         f"and a {f.value}")  # fmt: skip
    return [f for f in faces if any(f is k for k in kept)]


def _drop_side_faces(faces: list[_Face], notes: list[str], height: float) -> list[_Face]:
    """Two faces closer than about one die apart are faces of one die: keep the top one
    (``height``: the picture's, in the faces' pixels).

    In an oblique view the camera sees the top face and the sides facing it. With the camera
    upright (the picture's top edge away from it) a side face lies below or beside the top
    face: the top face is the higher one, and beside it the least foreshortened one. When
    the cues disagree the die is flagged."""
    order = sorted(range(len(faces)), key=lambda i: faces[i].y)
    dropped: set[int] = set()
    for a_pos, i in enumerate(order):
        if i in dropped:
            continue
        for j in order[a_pos + 1 :]:
            if j in dropped:
                continue
            top, low = faces[i], faces[j]  # top.y <= low.y
            size = max(top.side, low.side)
            dx, dy = low.x - top.x, low.y - top.y
            if math.hypot(dx, dy) >= 1.4 * size:
                continue
            if min(top.isotropy, low.isotropy) > 0.85:
                continue  # seen from above: no side faces in view, two dice side by side
            if dy > 0.3 * size and dy >= 0.6 * abs(dx) and low.isotropy > top.isotropy - 0.03:
                # as square as the face above it: another die's top face right in front
                # (seventh pass: unsettled when _flag_side_faces finds the die body above
                # it lit brighter: seen steeply, a front side face is as square as its top
                # face, and the face model confirmed such side faces)
                low.uncertain = low.side_doubt = True
                notes.append(f"die at ({low.x:.0f}, {low.y:.0f}): top or side face?")
                if (top.isotropy < low.isotropy - FAR_SIDE and top.y > height / 2
                        and not top.uncertain):
                    # ... and the face above it clearly more squashed, in the picture's lower
                    # half: a picture taken straight down shows a die's side faces turned to
                    # its middle, so above the top face of a die low in it (sixteenth pass:
                    # heldout-j's far side 2 above a top 1). Higher up, that is the view of a
                    # tilted camera, seeing a front face steeply below its top face
                    top.uncertain = True
                    notes.append(f"die at ({top.x:.0f}, {top.y:.0f}): "
                                 "a side face above a squarer face?")
                continue
            if dy > 0.3 * size and dy >= 0.6 * abs(dx):
                keep, drop = top, low  # the lower one is a front side face
                unsure = top.isotropy < low.isotropy - 0.2
            else:
                keep, drop = (top, low) if top.isotropy >= low.isotropy else (low, top)
                unsure = abs(top.isotropy - low.isotropy) < 0.1
            if unsure or (keep.value == 1 and drop.value != 1 and keep.confidence < 0.6):
                keep.uncertain = True
                notes.append(f"die at ({keep.x:.0f}, {keep.y:.0f}): top face vs side face unclear")
            if drop is top:
                dropped.add(i)
                break
            dropped.add(j)
    return [f for k, f in enumerate(faces) if k not in dropped]


def _flag_side_faces(work: np.ndarray, faces: list[_Face], notes: list[str],
                     responses: dict[int, np.ndarray]) -> None:  # fmt: skip
    """A face alone may still be a side face whose die's top face was not read: flag a face
    whose pips are squashed sideways (a left or right face) or that has more of its die's
    body right above it (a front face; the camera is upright), or up-left or up-right of it
    (a die turned on the table; seventh pass), in the same colour or, for a coloured die,
    the same hue lit differently (:func:`_body_like`).

    "Sideways" is measured from the squash the dice in view share (:func:`_view_axis`) when
    they agree on one; otherwise the camera is taken as upright (top faces squashed up and
    down, so their pips' long axes are level)."""
    view = _view_axis(faces)
    level = 0.0 if view is None else view
    # in a picture taken at an angle (most faces squashed) a face seen head-on may be a side
    # face seen steeply, squarer than its top face: its die body is looked for too
    squashed = [g.isotropy for g in faces if g.pips]
    oblique = bool(squashed) and _median(squashed) < 0.85
    for f in faces:
        # a lone pip's roundness says nothing of its face's squash: a 1 is always looked at
        # (the 1 of a side face below its top face, lit darker, was a certain 1 or a ghost)
        lone = f.value == 1
        if f.side_doubt and f.pips and not f.unsettled:
            if _lit_body_above(work, f, ABOVE_TURNS):
                f.unsettled = True
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a die body lit brighter above it")
            continue
        if f.uncertain or not f.pips or (f.isotropy > 0.85 and not oblique and not lone):
            continue  # seen head-on: a top face (side faces are foreshortened)
        if f.isotropy > 0.85 and not oblique:
            # a 1 in a picture seen from above: only a body of its hue lit clearly brighter
            # (a light table of the die's colour beside a top face is no top face above it)
            if _lit_body_above(work, f, ABOVE_TURNS):
                f.uncertain = True
                f.confidence = min(f.confidence, 0.4)
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a die body lit brighter above it")
            continue
        ratio = _median([p.minor / p.major for p in f.pips])
        turns = [abs(math.degrees(p.angle) - level) % 180 for p in f.pips]
        vertical = _median([min(a, 180 - a) for a in turns])  # 90: across the level axis
        if ratio < 0.75 and vertical > 50:
            f.uncertain = True
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): pips squashed sideways (a side face?)")
            if _lit_body_above(work, f, (-90.0, -60.0, -30.0, 0.0, 30.0, 60.0, 90.0)):
                f.unsettled = True
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a die body lit brighter beside it")
            continue
        face = np.array(np.median([p.face for p in f.pips], axis=0), np.float32)
        contrast = _median([p.contrast for p in f.pips])
        tol = max(20.0, 0.2 * contrast)
        grey_too = lone or oblique  # a white die's side face below its top, lit brighter
        # its top face's pips are looked past, not another die's read there (the body and
        # pips of a white 6 above a white 6, touching it, are no top face of it)
        light = _face_light_once(work, f)
        if any(_top_face_marks(responses, f, turn)
               and _body_like(work, f, turn, face, tol, grey_too,
                              past_pips=not _die_read_there(f, faces, turn), light=light)
               for turn in ABOVE_TURNS):  # fmt: skip
            f.uncertain = True
            f.confidence = min(f.confidence, 0.4)
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): die body above this face (side face?)")
            if _lit_body_above(work, f, ABOVE_TURNS):
                # lit brighter too: unsettled, as below (seventeenth pass: once the body was
                # seen past its top 6's pips, the face model confirmed a front 5)
                f.unsettled = True
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a die body lit brighter above it")
        elif _lit_body_above(work, f, ABOVE_TURNS):
            # its top face, lit more than twice as much (a small red die on a dark table at
            # 30 degrees, its top 2 not read: its front 4 was a certain die; ninth pass). The
            # face model has confirmed such side faces (seventh pass): unsettled
            f.uncertain = f.unsettled = True
            f.confidence = min(f.confidence, 0.4)
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a die body lit brighter above it")


def _above(f: _Face, turn: float, reach: float) -> tuple[float, float]:
    """The place ``reach`` side from ``f``'s centre, ``turn`` degrees from straight up."""
    a = math.radians(turn)
    return f.x + reach * f.side * math.sin(a), f.y - reach * f.side * math.cos(a)


def _die_read_there(f: _Face, faces: list[_Face], turn: float, reach: float = 0.95) -> bool:
    """Whether the place :func:`_body_like` looks at (:func:`_above`) lies within a side of
    another face read."""
    x, y = _above(f, turn, reach)
    return any(g is not f and math.hypot(x - g.x, y - g.y) < g.side for g in faces)


def _top_face_marks(responses: dict[int, np.ndarray], f: _Face, turn: float) -> bool:
    """Whether the top face that would lie above side face ``f`` (``turn`` degrees from
    straight up; from ``TOP_SPAN[0]`` to ``TOP_SPAN[1]`` sides from its centre, a side
    across) shows pip-like marks of ``f``'s polarity: half a pip's area of them at least.
    A die's top face has pips, 1 to 6, seen at any angle the camera allows; a light table
    of the die's colour has none (eleventh pass: white dice on a white table, seen at 45
    degrees, were asked as side faces under a "die body" that was the table)."""
    resp = responses[f.pips[0].polarity]
    h, w = resp.shape
    a = math.radians(turn)
    up, across = np.array([math.sin(a), -math.cos(a)]), np.array([math.cos(a), math.sin(a)])
    near, far = TOP_SPAN[0] * f.side, TOP_SPAN[1] * f.side
    centre = np.array([f.x, f.y])
    corners = np.array([centre + d * up + s * 0.5 * f.side * across
                        for d, s in ((near, -1), (near, 1), (far, 1), (far, -1))])  # fmt: skip
    if corners[:, 0].min() < 0 or corners[:, 1].min() < 0 or corners[:, 0].max() >= w \
            or corners[:, 1].max() >= h:
        return True  # partly out of the picture: it may be there
    marks = _marks_within(resp, corners, _median([p.contrast for p in f.pips]))
    r = _median([p.r for p in f.pips])
    return marks >= 0.5 * math.pi * r * r


def _lit_body_above(work: np.ndarray, f: _Face, turns: tuple[float, ...]) -> bool:
    """Whether a die body of ``f``'s hue, lit clearly brighter, lies 0.6 or 0.95 side from
    it in one of the directions ``turns`` (degrees from straight up): its top face, when
    ``f`` is a side face (:func:`_body_like` with ``lit``)."""
    face = np.array(np.median([p.face for p in f.pips], axis=0), np.float32)
    tol = max(20.0, 0.2 * _median([p.contrast for p in f.pips]))
    light = _face_light_once(work, f)
    return any(_body_like(work, f, turn, face, tol, True, lit=True, reach=reach, light=light)
               for turn in turns for reach in (0.6, 0.95))  # fmt: skip


def _body_like(work: np.ndarray, f: _Face, turn: float, face: np.ndarray, tol: float,
               grey_too: bool = False, lit: bool = False, reach: float = 0.95,
               past_pips: bool = False, light: Callable[[], float] | None = None) -> bool:
    """True when the patch ``reach`` side from ``f``'s centre, ``turn`` degrees from straight
    up, is mostly of its face's colour: within ``tol`` (a white or grey die: only straight up
    from a squashed face, as before the seventh pass), or, for a coloured die (any light die
    with ``grey_too``), of the same hue in other light (chromaticity within ``SHADE_CHROMA``,
    ``SHADE_RATIO`` times as bright: a top face is lit up to twice as much as a side face; a
    white or grey die's ``SHADE_LIT`` times its own light at least). ``lit``: the patch's
    median colour, of the same hue and clearly brighter only. ``past_pips``: the patch with
    its pips filled (:func:`_pips_filled`; not with ``lit``). ``light``: the face's own
    light (:func:`_face_light`) when the caller has it (:func:`_face_light_once`)."""
    h, w = work.shape[:2]
    half = max(2, round(0.18 * f.side))
    x, y = _above(f, turn, reach)
    cx, cy = round(x), round(y)
    if cy - half < 0:
        return False
    patch = work[cy - half : cy + half + 1, max(0, cx - half) : min(w, cx + half + 1)]
    if patch.size == 0:
        return False
    if past_pips and not lit:
        patch = _pips_filled(work, f, cx, cy, half)
    patch = patch.astype(np.float32)
    if lit:  # a body lit clearly brighter (a top face above its front face), pips and all:
        # the patch's median colour
        patch = np.median(patch.reshape(-1, 3), axis=0).reshape(1, 1, 3)
    like = np.sqrt(((patch - face) ** 2).sum(axis=2)) < tol
    total = float(face.sum())
    coloured = float(face.max() - face.min()) > 0.3 * float(face.max())
    if lit or (not coloured and (turn != 0 or f.isotropy > 0.85)):
        # a white or grey die's colour is any light table's: beyond the straight-up test on
        # a squashed face (as before this pass), only a body lit clearly brighter counts
        like[:] = False
    if total > 100 and (coloured or grey_too):
        bright = patch.sum(axis=2)
        ratio = bright / total
        if not coloured:
            # a white face's own light: the rings around its pips are darkened by them
            # (a white table beside a white top face looked "lit brighter" than the rings)
            own = light() if light is not None else _face_light(work, f)
            ratio = bright / max(total, own)
        chroma = patch / np.maximum(bright, 1)[..., None] - face / total
        # a white or grey die's hue is any light table's: only a body lit clearly more (a
        # top face above its side face) counts then
        low = SHADE_RATIO[0] if coloured and not lit else SHADE_LIT
        like |= (_same_hue(chroma, face / total, ratio, coloured)
                 & (ratio > low) & (ratio < SHADE_RATIO[1]))  # fmt: skip
    return float(like.mean()) > 0.6


def _pips_filled(work: np.ndarray, f: _Face, cx: int, cy: int, half: int) -> np.ndarray:
    """The square of ``work`` of ``half`` px around (``cx``, ``cy``), its pip-like marks
    filled with the colour around them: marks of ``f``'s polarity up to ``PAST_PIPS`` of its
    pips' half-length across (a grey closing or opening), that change a pixel by 0.3 of
    their contrast or more and end within a side of the square (a board's line running on
    is no pip: it stays). A 6's columns above a front face covered half the patch a die body
    was looked for in (seventeenth pass)."""
    h, w = work.shape[:2]
    k = math.ceil(PAST_PIPS * _median([p.major for p in f.pips]))
    m = max(k, round(f.side))
    y0, x0 = max(0, cy - half - m), max(0, cx - half - m)
    around = work[y0 : min(h, cy + half + m + 1), x0 : min(w, cx + half + m + 1)]
    fill = cv2.MORPH_CLOSE if f.pips[0].polarity == DARK else cv2.MORPH_OPEN
    filled = cv2.morphologyEx(around, fill, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                      (2 * k + 1, 2 * k + 1)))
    changed = (np.abs(filled.astype(np.int16) - around).sum(axis=2)
               > 0.3 * _median([p.contrast for p in f.pips])).astype(np.uint8)
    _, marks = cv2.connectedComponents(changed)
    border = np.unique(np.concatenate([marks[0], marks[-1], marks[:, 0], marks[:, -1]]))
    pips = (changed > 0) & ~np.isin(marks, border[border > 0])
    filled = np.where(pips[..., None], filled, around)
    return filled[cy - half - y0 : cy + half + 1 - y0,
                  max(0, cx - half) - x0 : min(w, cx + half + 1) - x0]


def _same_hue(chroma: np.ndarray, own: np.ndarray, ratio: np.ndarray, coloured: bool
              ) -> np.ndarray:  # fmt: skip
    """Where ``chroma`` (chromaticity minus the face's own, ``own``) is its face's colour in
    other light, ``ratio`` times as bright: within ``SHADE_CHROMA``; for a coloured die,
    also up to ``SHADE_SATURATION`` further along its own colour where lit brighter, or
    duller where darker (fifteenth pass). The light a table and the room throw into shade is
    whiter than the lamp's share a coloured die sends back, so its face in shade is duller
    than its top: a red die's front 3 in shade was a certain die under its top face, 0.05
    more saturated (oblique render 10 000 028), as no die body of its colour was seen above.
    """
    within = np.sqrt((chroma**2).sum(axis=-1)) < SHADE_CHROMA
    if not coloured:
        return within
    away = own - 1.0 / 3.0  # the face's colour away from grey
    along = (chroma @ away) / max(float(np.linalg.norm(away)), 1e-6)
    across = np.sqrt(np.maximum((chroma**2).sum(axis=-1) - along**2, 0.0))
    more = np.where(ratio >= 1.0, along, -along)  # more saturated where brighter
    return within | ((across < SHADE_CHROMA) & (more > -SHADE_CHROMA)
                     & (more < SHADE_CHROMA + SHADE_SATURATION))  # fmt: skip


def _face_light(work: np.ndarray, f: _Face) -> float:
    """The brightest tenth of ``f``'s face (B + G + R, 90th percentile over the square of
    half its side around its centre): the face's own light, its pips aside."""
    h, w = work.shape[:2]
    half = max(2, round(0.5 * f.side))
    x0, y0 = max(0, round(f.x) - half), max(0, round(f.y) - half)
    x1, y1 = min(w, round(f.x) + half + 1), min(h, round(f.y) + half + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    return float(np.percentile(work[y0:y1, x0:x1].astype(np.float32).sum(axis=2), 90))


def _face_light_once(work: np.ndarray, f: _Face) -> Callable[[], float]:
    """:func:`_face_light` of ``f``, computed on the first call only: the same for every
    direction and reach :func:`_body_like` looks in (up to 14 for one face; a percentile
    over the face's square each time was a fifth of the side-face checks' time)."""
    known: list[float] = []

    def light() -> float:
        if not known:
            known.append(_face_light(work, f))
        return known[0]

    return light


def _view_axis(faces: list[_Face]) -> float | None:
    """The long axis (degrees) of the pips of the dice in view, when at least three clearly
    squashed faces agree on it within 15 degrees; else None.

    Every top face lies flat on the table, so one view squashes them all the same way (the
    camera may be turned: the axis need not be level). Side faces turn with their dice, and
    dice land at any angle, so side faces seldom agree; and a die's top face is its best seen
    face, so three side faces read without their top faces is unlikely."""
    axes = []
    for f in faces:
        if not f.pips or _median([p.minor / p.major for p in f.pips]) >= 0.85:
            continue
        doubled = [2 * p.angle for p in f.pips]
        c = sum(math.cos(a) for a in doubled) / len(doubled)
        s = sum(math.sin(a) for a in doubled) / len(doubled)
        if math.hypot(c, s) >= 0.9:
            axes.append(math.atan2(s, c))
    if len(axes) < 3:
        return None
    mean = math.atan2(sum(math.sin(a) for a in axes), sum(math.cos(a) for a in axes))
    spread = max(abs(math.remainder(a - mean, 2 * math.pi)) for a in axes)
    if math.degrees(spread) / 2 > 15:
        return None
    return math.degrees(mean) / 2


def _flag_neighbour_pips(work: np.ndarray, planes: dict[int, np.ndarray],
                         responses: dict[int, np.ndarray], faces: list[_Face], pips: list[Pip],
                         notes: list[str]) -> None:  # fmt: skip
    """A pip like this face's own, lying on the face but left out of it, means the face was
    read from part of its pips (a 4 seen as two 2s, a 6 as a 3): flag it.

    A 1's body check counts pip-like response around it at full resolution, where a big
    pip (a die near the camera: pips 20 px across) leaves none inside; so a pip like a 1's
    within 0.8 of its side, joined to it over face-coloured pixels, and not below it (where
    its die's front face may show), flags it too (seventh pass: the middle pip of a 67 px 5
    whose corner pips were not grouped was a certain 1).

    A 2 or a 3 with such a pip nearby is asked. The face model may settle it (twentieth
    pass) only when that pip is of no bigger face those pips could be part of: with them it
    fits no face (:func:`_classify`), and it lies nowhere a 3 to 6 made of them has a pip
    (:func:`_where_a_bigger_face_has_pips`). On the oblique renders the pip beside a right
    2 or 3 was mostly its die's side face's, in the same light, or another die's; a 2 read
    from two adjacent pips of a 4 has the 4's others beside it, where a 4 has them."""
    pip_mask: np.ndarray | None = None
    for f in faces:
        if f.uncertain or len(f.pips) != 1:
            continue
        p = f.pips[0]
        tol = max(18.0, 0.22 * p.contrast)
        for q in pips:
            if q is p or q.polarity != p.polarity or q.contrast < 0.5 * p.contrast:
                continue
            if not 0.6 * p.r <= q.r <= 1.6 * p.r or math.hypot(q.x - p.x, q.y - p.y) > 0.8 * f.side:
                continue
            if not _same_shape(p, q, 0.6):
                continue  # a pip on a side face is squashed another way
            if q.y - p.y > 0.3 * math.hypot(q.x - p.x, q.y - p.y):
                continue  # below it: maybe the pips of its die's front face (camera upright)
            if pip_mask is None:
                pip_mask = _pip_mask(work, pips)
            if _on_face_line(work, p, q, pip_mask, tol):
                f.uncertain = f.unsettled = True
                f.confidence = min(f.confidence, 0.4)
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a pip nearby is not part of it")
                break
    read = {id(p) for g in faces for p in g.pips}
    loose = [p for p in pips if id(p) not in read]  # pips of no face read
    for f in faces:
        if f.uncertain or len(f.pips) not in (2, 3):
            continue  # 4, 5 and 6 are checked cell by cell
        own = {id(p) for p in f.pips}
        r = _median([p.r for p in f.pips])
        pts = np.array([(p.x, p.y) for p in f.pips])
        span = float(np.max(np.linalg.norm(pts[:, None] - pts[None], axis=2)))
        reach = 1.15 * span
        near = []
        for q in pips:
            if id(q) in own or q.polarity != f.pips[0].polarity:
                continue
            if not 0.6 * r <= q.r <= 1.6 * r or q.contrast < 0.5 * f.pips[0].contrast:
                continue
            if not any(_same_shape(p, q, 1.0) for p in f.pips):
                continue  # a pip on a side face is squashed another way
            if math.hypot(q.x - f.x, q.y - f.y) >= reach:
                continue
            if pip_mask is None:
                pip_mask = _pip_mask(work, pips)
            if not _other_surface(work, f, q, pip_mask):
                near.append(q)
        if near:
            f.uncertain = True
            f.confidence = min(f.confidence, 0.5)
            pol = f.pips[0].polarity
            union = [*f.pips, *near]
            part = (len(union) <= 6 and _classify(planes[pol], union, responses[pol]) is not None
                    or _where_a_bigger_face_has_pips(f.pips, near))  # fmt: skip
            f.unsettled = f.unsettled or part
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a pip nearby is not part of it"
                         + ("" if part else f" ({_NO_BIGGER})"))
        if not f.uncertain and len(f.pips) == 3 and _parallel_copy(f, loose, span, r):
            f.uncertain = f.unsettled = True
            f.confidence = min(f.confidence, 0.5)
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a row of pips like it beside it "
                         "(the other column of a 6?)")
    for f in faces:
        if f.uncertain or f.isotropy >= SQUASHED:
            continue
        if pip_mask is None:
            pip_mask = _pip_mask(work, pips)
        if _loose_pips_above(work, f, faces, loose, pip_mask) >= 2:
            f.uncertain = f.unsettled = True
            f.confidence = min(f.confidence, 0.5)
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): pips of no face above it "
                         "(its top face not read?)")


def _bigger_faces(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every way ``n`` pips (2 or 3) can be some of the pips of a bigger face: pairs of the
    layout points (complex numbers) of those ``n`` pips, in every order, and of the face's
    other pips."""
    out = []
    for value in range(n + 1, 7):
        layout = _LAYOUTS[value][:, 0] + 1j * _LAYOUTS[value][:, 1]
        for some in itertools.permutations(range(value), n):
            z = layout[list(some)]
            if n == 3 and abs((z[1] - z[0]) - (z[2] - z[1])) > 1e-9:
                continue  # a 3's pips: a straight row, evenly spaced
            rest = np.delete(layout, list(some))
            out.append((z, rest))
    return out


_BIGGER = {n: _bigger_faces(n) for n in (2, 3)}


def _where_a_bigger_face_has_pips(own: list[Pip], near: list[Pip]) -> bool:
    """Whether a pip of ``near`` lies where a bigger face of which the 2 or the 3 ``own``
    were some pips has another (a 4's two adjacent pips read as a 2: its others lie beside
    them, outside the 2's own square), that face having lost at most ``BIGGER_LOST`` pips.
    Each way the pips can be part of a 3, 4, 5 or 6 is fitted by a similarity
    (:func:`_bigger_faces_at`)."""
    w = np.array([p.x + 1j * p.y for p in own])
    q = np.array([p.x + 1j * p.y for p in near])
    # seen at an angle a face is sheared, which a similarity does not fit: two pips side by
    # side as the 2's or the 3's own (a step of the row) are its face's next row or column
    apart = np.abs(w[:, None] - w[None])
    i, j = np.unravel_index(int(np.argmax(apart)), apart.shape)
    step = (w[j] - w[i]) / (len(own) - 1)
    pairs = (q[:, None] - q[None]).ravel()
    if (np.abs(pairs - step) < BIGGER_TOL * 0.5 * abs(step)).any():
        return True
    for grid_step, there in _bigger_faces_at(own):
        found = int((np.abs(q[:, None] - there[None]) < BIGGER_TOL * grid_step).any(axis=0).sum())
        if found and len(there) - found <= BIGGER_LOST:
            return True
    return False


def _bigger_faces_at(own: list[Pip]) -> Iterator[tuple[float, np.ndarray]]:
    """Each way the 2 or the 3 ``own`` can be some of the pips of a 3 to 6 (:data:`_BIGGER`)
    that its pips' spacing fits (a similarity, within ``BIGGER_TOL`` grid steps): that
    face's grid step (px) and where its other pips lie (complex x + iy)."""
    w = np.array([p.x + 1j * p.y for p in own])
    wm = w.mean()
    wc = w - wm
    for zc, zn, rest_c in _BIGGER_CENTRED[len(own)]:
        a = (wc * np.conj(zc)).sum() / zn
        if np.abs(a * zc - wc).max() > BIGGER_TOL * abs(a):
            continue  # these pips are not spaced so in that face
        yield float(abs(a)), a * rest_c + wm


# :data:`_BIGGER` with what :func:`_bigger_faces_at` takes of each layout, computed once (the
# same numbers it computed for every 2 or 3, each time): its pips about their mean, the sum
# of their squared moduli, and the other pips about the same mean
_BIGGER_CENTRED = {n: [(z - z.mean(), (np.abs(z - z.mean()) ** 2).sum(), rest - z.mean())
                       for z, rest in faces] for n, faces in _BIGGER.items()}


def _loose_pips_above(work: np.ndarray, f: _Face, faces: list[_Face], loose: list[Pip],
                      pip_mask: np.ndarray) -> int:  # fmt: skip
    """How many pips of no face read, like ``f``'s (polarity, size, contrast), lie above it
    within ``ABOVE_REACH`` sides, joined to its nearest pip over its die's material in any
    light (tenth pass): seen at an angle, with the camera upright, a die's top face lies
    above its side faces, lit otherwise; when its squashed pips were not read, the side face
    below them was a certain die (a black die's right face 5 under its top 6, oblique
    render 2 000 133). Another die's pips above it are across the table, or below that
    die's face read (its front face): not counted. Seen steeply, a top face's column of
    pips may merge into one long mark: such a mark (``COLUMN``) counts as two pips, beside
    another mark (one alone was a board's line, three times on the spent ranges)."""
    r = _median([p.r for p in f.pips])
    contrast = _median([p.contrast for p in f.pips])
    pol = f.pips[0].polarity
    face = np.array(np.median([p.face for p in f.pips], axis=0), np.float32)
    count = marks = 0
    width = _median([p.minor for p in f.pips])
    length = _median([p.major for p in f.pips])
    for q in loose:
        # a column of a 6 (or a 4's side) whose pips merged into one long mark: as wide as a
        # pip, up to COLUMN times as long (seventeenth pass: a black die's front 4 under its
        # top 6, read as two such marks, was a certain die; heldout-l 13 000 110); two pips
        column = (q.polarity == pol and q.contrast >= 0.5 * contrast
                  and q.major >= 1.6 * q.minor and 0.6 * width <= q.minor <= 1.6 * length
                  and q.major <= COLUMN * length)
        if not column and (q.polarity != pol or not 0.6 * r <= q.r <= 1.6 * r
                           or q.contrast < 0.5 * contrast):
            continue
        if f.y - q.y < 0.4 * f.side or math.hypot(q.x - f.x, q.y - f.y) > ABOVE_REACH * f.side:
            continue
        if any(g is not f and g.y < q.y and math.hypot(q.x - g.x, q.y - g.y) < 1.4 * g.side
               for g in faces):  # fmt: skip
            continue  # below another die's face read: that die's front face
        p = min(f.pips, key=lambda a: math.hypot(a.x - q.x, a.y - q.y))
        colours = _line_colours(work, p, q, pip_mask)
        if colours is not None:
            k, off = _light_and_offset(colours, face)
            # the die's own material: its colour in other light, closer than the grouping
            # takes (a wooden desk is a white die's colour in shade within its tolerance)
            body = (k >= SHADE[0]) & (k <= SHADE_RATIO[1]) & (off <= BODY_TOL)
            if body.mean() < 0.8:
                continue
        # (colours None: pip against pip, one die's)
        count += 1 + column
        marks += 1
    return count if marks >= 2 else marks


def _other_surface(work: np.ndarray, f: _Face, q: Pip, pip_mask: np.ndarray) -> bool:
    """Whether pip ``q`` lies on another surface than face ``f``'s pips (eighth pass): its
    ring is in other light (:func:`_other_light`) and the line to each of them leaves the
    face's colour (``pip_mask``: the pips' discs, left out of the line). On a die seen at an
    angle, the pips of its side face, in another light, lie next to the pips on its top."""
    return _other_light(f, q.face, q.contrast) and not any(
        _on_face_line(work, p, q, pip_mask, _colour_tol(p, q)) for p in f.pips)


def _pip_mask(work: np.ndarray, pips: list[Pip]) -> np.ndarray:
    """The pips' discs (what a line between two pips leaves out: :func:`_on_face_line`)."""
    mask = np.zeros(work.shape[:2], np.uint8)
    for p in pips:
        cv2.circle(mask, (round(p.x), round(p.y)), max(2, round(1.45 * p.r)), 255, -1)
    return mask


def _parallel_copy(f: _Face, pips: list[Pip], span: float, r: float) -> bool:
    """Whether ``pips`` (pips of no face read) hold a copy of the 3 ``f``'s row, shifted by
    0.5-``PARALLEL_REACH`` of its span, not downwards, each pip within a pip radius: the
    other column of a 6 whose rows were not joined (seen squashed, the line between the
    columns crossed a face brighter than the pips' rings: a certain 3, oblique render 1069).
    Pips alike (polarity, size, contrast, shape); a die in front of it (below: its front
    face, camera upright) and another die's 3, read as a face, do not count.

    A 6 seen from above (its pips round) shows no front face: there the copy may lie below
    it, and in shade (twelfth pass: a shadow's edge along a blue 6's columns, the lit one
    read as a certain 3, shadow render 7 000 256): pips of the face in less light
    (:func:`_one_face_in_two_lights`), and one of the three may be any mark of its polarity
    half its size or more (a pip the shadow's edge cuts: part lit, part shaded)."""
    own = {id(p) for p in f.pips}
    polarity = f.pips[0].polarity
    above = f.isotropy >= HEAD_ON and _seen_from_above(f.pips)

    def alike(q: Pip) -> bool:
        if not any(_same_shape(p, q, 0.6) for p in f.pips):
            return False
        if 0.6 * r <= q.r <= 1.6 * r and q.contrast >= 0.5 * f.pips[0].contrast:
            return True
        return above and q.r >= 0.5 * r and any(_one_face_in_two_lights(p, q) for p in f.pips)

    mine = [q for q in pips if id(q) not in own and q.polarity == polarity]
    like = [q for q in mine if alike(q)]
    if len(like) < (2 if above else 3):
        return False
    qs = np.array([(q.x, q.y) for q in like])
    ps = np.array([(p.x, p.y) for p in f.pips])
    marks = np.array([(q.x, q.y) for q in mine if q.r >= 0.5 * r]) if above else qs
    for v in (qs[:, None] - (ps if above else ps[:1])[None]).reshape(-1, 2):
        if not 0.5 * span <= float(np.hypot(*v)) <= PARALLEL_REACH * span:
            continue
        if v[1] > 0.5 * float(np.hypot(*v)) and not above:
            continue  # below it: maybe its die's front face (camera upright)
        found = [float(np.min(np.hypot(*(qs - (p + v)).T))) < r for p in ps]
        if sum(found) == 3 or (above and sum(found) == 2 and all(
                float(np.min(np.hypot(*(marks - (p + v)).T))) < r for p in ps)):  # fmt: skip
            return True
    return False


def _flag_rest_of_a_face(work: np.ndarray, faces: list[_Face], responses: dict[int, np.ndarray],
                         notes: list[str]) -> None:  # fmt: skip
    """A 2 or a 3 may be part of a bigger face whose other pips were not found as pips (on a
    small die, a pip whose dark response runs into the die's shadow or a board's line is
    no ellipse): two pips of a 4's side, or of a 6's row, with the others one pair's length
    beside them; two adjacent pips of a 6's column, or the whole column read as a 3, with the
    other column twice the step beside them. Where every one of those places, on one side,
    shows a pip-like response (as `_stray_marks` counts it), the face is asked, and no
    second opinion may settle it (the pips are there in the picture; a true 2's or 3's
    such places lie off its die). A place in shade needs a response only as much weaker as
    its light (ninth pass: a shadow's edge across a 6, between its columns or through its
    middle row, left one column a certain 3 or the lit row a certain 2; :func:`_pips_at`)."""
    for f in faces:
        if f.uncertain or len(f.pips) not in (2, 3):
            continue
        pts, beside = _row(f)
        for k in (1.0, -1.0, 2.0, -2.0) if len(pts) == 2 else (2.0, -2.0):
            if _pips_at(responses, f.pips, pts + k * beside, work):
                f.uncertain = f.unsettled = True
                f.confidence = min(f.confidence, 0.5)
                notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): pip-like marks where the rest "
                             "of a bigger face would be")  # fmt: skip
                break


def _row(f: _Face) -> tuple[np.ndarray, np.ndarray]:
    """A 2's or a 3's pips in a row (x, y rows, in order along it), and the step from one
    to the next turned a quarter turn (the way to a parallel row beside it)."""
    pts = np.array([(p.x, p.y) for p in _in_row(f.pips)])
    step = (pts[-1] - pts[0]) / (len(pts) - 1)
    return pts, np.array([-step[1], step[0]])


def _in_row(pips: list[Pip]) -> list[Pip]:
    """Pips in a row, in order along it."""
    pts = np.array([(p.x, p.y) for p in pips])
    along = np.linalg.svd(pts - pts.mean(axis=0))[2][0]
    return [pips[i] for i in np.argsort((pts - pts.mean(axis=0)) @ along)]


def _column_of_a_six(faces: list[_Face], responses: dict[int, np.ndarray], notes: list[str]
                     ) -> list[_Face]:  # fmt: skip
    """An asked 3 with marks on its face that are not its pips, which is a 6's column whose
    other column was not found as pips (eighth pass): on a small die a pip near the die's
    shadowed edge runs into it, or a column's pips merge, and the 3 is read with marks beside
    it. Where the other column's three places, on exactly one side, show pip-like responses
    (`_pips_at`), the die is offered as a 6, centred between the columns, still asked; its
    doubt is one a picture settles (are those marks pips?), so the second opinion may
    confirm it. It never makes a certain reading by itself.

    The other column may have been read as a 3 of its own (a review's row of touching dice,
    thirteenth pass: the two 3s each offered the 6, and the face model confirmed both, two
    6s for one die): a 3 whose pips are those places joins the 6, which then has its six
    pips."""
    out: list[_Face] = []
    joined: set[int] = set()
    for f in faces:
        if id(f) in joined:
            continue
        if not (f.uncertain and f.crowded and len(f.pips) == 3 and not f.side_doubt):
            out.append(f)
            continue
        pts, beside = _row(f)
        sides = [k for k in (2.0, -2.0) if _pips_at(responses, f.pips, pts + k * beside)]
        if len(sides) != 1:
            out.append(f)
            continue
        centre = pts.mean(axis=0) + 0.5 * sides[0] * beside
        other = next((g for g in faces if g is not f and len(g.pips) == 3
                      and _pips_on(g.pips, pts + sides[0] * beside)), None)  # fmt: skip
        pips = f.pips
        if other is not None:
            joined.add(id(other))
            out = [g for g in out if g is not other]
            pips = f.pips + other.pips
        six = _Face(6, float(centre[0]), float(centre[1]), f.side * math.sqrt(2),
                    min(f.confidence, 0.5), True, f.isotropy,
                    ["a 3 with pip-like marks beside it: a 6's column?"], pips)  # fmt: skip
        notes.append(f"die at ({six.x:.0f}, {six.y:.0f}): {six.notes[0]}")
        out.append(six)
    return out


def _pips_on(pips: list[Pip], places: np.ndarray) -> bool:
    """Whether each of ``places`` (x, y rows) has one of ``pips`` within its radius."""
    return all(any(math.hypot(p.x - x, p.y - y) <= p.r for p in pips) for x, y in places)


def _pips_at(responses: dict[int, np.ndarray], pips: list[Pip], places: np.ndarray,
             work: np.ndarray | None = None) -> bool:  # fmt: skip
    """Whether every one of ``places`` (x, y rows) shows a response like ``pips`` (a face's
    own, as `_stray_marks` counts it): its mean over a square of half a pip radius around it
    (False when one lies off the picture). With ``work`` (the picture), a place whose
    surroundings are the pips' face in shade (:func:`_shade_at`) needs a response only as
    much weaker as its light is (ninth pass: a pip's contrast falls with the light on it)."""
    resp = responses[pips[0].polarity]
    h, w = resp.shape
    rad = max(1, round(0.5 * _median([p.r for p in pips])))
    thr = _mark_level(_median([p.contrast for p in pips]))
    xy = np.rint(places).astype(int)
    if xy.min() < rad or np.any(xy[:, 0] >= w - rad) or np.any(xy[:, 1] >= h - rad):
        return False
    for x, y in xy:
        level = thr if work is None else thr * _shade_at(work, resp, pips, x, y, thr)
        if float(resp[y - rad : y + rad + 1, x - rad : x + rad + 1].mean()) <= level:
            return False
    return True


def _shade_at(work: np.ndarray, resp: np.ndarray, pips: list[Pip], x: int, y: int,
              thr: float) -> float:  # fmt: skip
    """How much of the light on ``pips``' face falls around (x, y): the lower quartile (a
    place on a shadow's edge is lit on one side), over the pixels two to three pip radii out
    that are no mark and are the face's colour in that or less light (:func:`_darker_alike`,
    brightness down to ``SHADE[0]``), of their brightness against the face's; 1.0 where
    fewer than a quarter of them are (a table, not the face)."""
    r = _median([p.r for p in pips])
    out = round(3 * r)
    y0, x0 = max(0, y - out), max(0, x - out)
    y1, x1 = min(resp.shape[0], y + out + 1), min(resp.shape[1], x + out + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dist = np.hypot(xx - x, yy - y)
    ring = (dist >= 2 * r) & (dist <= 3 * r) & (resp[y0:y1, x0:x1] <= 0.5 * thr)
    colours = work[y0:y1, x0:x1][ring].astype(np.float32)
    if len(colours) < 8:
        return 1.0
    face = np.median(np.array([p.face for p in pips], np.float32), axis=0)
    k, alike = _in_light_of(colours, face, _median([p.contrast for p in pips]))
    if alike.sum() < 0.25 * len(colours):
        return 1.0
    return float(np.percentile(k[alike], 25))


def _flag_lattice(faces: list[_Face], responses: dict[int, np.ndarray], notes: list[str]
                  ) -> None:  # fmt: skip
    """A 4 or a 5 whose layout carries on around it, pip-like marks a layout's width
    beyond it on two sides or more (every place of the shifted layout that is not its own),
    is part of a lattice: the holes of a perforated mat, the dots of a printed pattern,
    where four of them fit a 4 with nothing in its empty cells. Asked, unsettled (a real 4
    on such a mat is asked too). A 6, or a lattice as fine as its rows, has pips in the
    cells a 4 or a 5 leaves empty: those are caught by the cells."""
    for f in faces:
        if f.uncertain or len(f.pips) not in (4, 5):
            continue
        fit = _fit_affine(np.array([(p.x, p.y) for p in f.pips]))
        if fit is None:
            continue
        m = fit[0]
        own = {(int(x), int(y)) for x, y in _LAYOUTS[len(f.pips)]}
        sides = 0
        for dx, dy in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            grid = [(x + dx, y + dy) for x, y in _LAYOUTS[len(f.pips)]]
            grid = [g for g in grid if (int(g[0]), int(g[1])) not in own]
            sides += _pips_at(responses, f.pips, np.c_[np.array(grid), np.ones(len(grid))] @ m)
        if sides >= 2:
            f.uncertain = f.unsettled = True
            f.confidence = min(f.confidence, 0.5)
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): its layout carries on around it "
                         f"on {sides} sides (a lattice of dots or holes?)")  # fmt: skip


def _flag_odd_proportions(work: np.ndarray, grey: np.ndarray, faces: list[_Face],
                          notes: list[str]) -> None:  # fmt: skip
    """Dice of one set share their pip size to side ratio. A 2 or a 3 is fitted from a single
    diagonal, so a pair of adjacent pips (part of a 4 or a 6) also fits, with a ratio about
    40 % too high (a "knight's move" pair of a 6, 26 %): compare with the faces of 4 to 6
    pips, whose fit is tight.

    Some dice have their 2 and 3 on a shorter diagonal than their 4 to 6 (real photos: 3s at
    1.25 to 1.32 times the 6's ratio). Such a face is let through when the die body around it
    is centred on it (:func:`_off_body_centre`): pips that are part of a bigger face lie off
    their die's middle by a quarter of its side (an eighth for a knight's move), a 2 or a 3
    on its middle. Not beyond ``BIG_PIPS_CENTRED``: a 5's corner and centre (2.0) lie on
    its diagonal. The middle row of a 6 (1.23-1.67) is centred too, but runs along a side,
    45 degrees off the diagonal; the bar was 1.36 until the eighteenth pass, from before the
    diagonal was checked, and asked the centred 2s of webcam heldout-a's short-diagonal set
    (1.37-1.42, ``valid_valid_80``)."""

    def ratio(f: _Face) -> float:
        return _median([p.r for p in f.pips]) / f.side

    ref = [ratio(f) for f in faces if len(f.pips) >= 4 and not f.uncertain]
    if not ref:
        return
    typical = _median(ref)
    for f in faces:
        if f.uncertain or len(f.pips) not in (2, 3):
            continue
        big = ratio(f) / typical
        if big <= BIG_PIPS:
            continue
        off = _off_body_centre(work, grey, f) if big <= BIG_PIPS_CENTRED else None
        turn = _off_body_diagonal(work, f) if off is not None and off <= OFF_CENTRE else None
        if off is not None and turn is not None and turn <= OFF_DIAGONAL:
            notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): pips {big:.2f}x the others' for "
                         f"its side, its body centred on them ({off:.2f}), along its diagonal "
                         f"({turn:.0f} deg): short diagonal")  # fmt: skip
            continue
        f.uncertain = f.unsettled = True
        f.confidence = min(f.confidence, 0.5)
        notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): pips too big for a {len(f.pips)}")


def _off_body_centre(work: np.ndarray, grey: np.ndarray, f: _Face) -> float | None:
    """How far the face-coloured body around a face lies off the face's centre: a large
    difference between opposite rays' reach from the centre to the body's edge
    (:func:`_body_rays`), over their mean reach (0: centred; the pips of a face on a
    quarter of its die, about 1). Seen obliquely, if the edge of a die's top face does not
    show, a ray going down the picture may run on over the die's front face, and a centred
    face looks off-centre: asked, never the other way. None: the body is not closed (a ray
    runs on past 1.5 times the face's side) or the picture's edge cuts it.

    Not the largest difference: the third largest (tenth pass). A die seen at an angle
    shows one or two side faces of its colour beyond its top face's edge, where the edge
    may not show, and the rays run on over them in one or two directions (the centred 2s
    and 3s of the webcam's dice were asked). What is left of a bigger face lies a quarter
    of its die off the body's middle: the rays along and near that way all differ."""
    reach, open_, out = _body_rays(work, grey, f)
    if np.any(open_ | out):
        return None
    diff = np.sort(np.abs(reach[:8] - reach[8:]))
    return float(diff[-OFF_RANK] / np.mean(reach))


def _off_body_diagonal(work: np.ndarray, f: _Face) -> float | None:
    """Degrees between a 2's or 3's line of pips and the nearer diagonal of the die body
    around it: the face-coloured region joined to its centre (its own pips filled in),
    fitted with the smallest rectangle. A 2 or a 3 lies along its die's diagonal; what is
    left of a bigger face does not: a 4's side, a 6's row or column at 0 degrees to the
    sides, a knight's-move pair of a 6 at 27 (45 and 18 degrees off a diagonal). None when
    that region is not one square die (part of it in shadow, joined to a side face seen
    obliquely or to another die of its colour). From a review: a 6 whose other pips were
    faded, glared or shadowed read as a centred "2" from its middle row."""
    pips = f.pips
    contrast = _median([p.contrast for p in pips])
    face = _face_colour(pips)
    tol = 1.6 * max(18.0, 0.18 * contrast)
    m = int(1.2 * f.side) + 2
    x0, y0 = max(0, round(f.x) - m), max(0, round(f.y) - m)
    win = work[y0 : round(f.y) + m + 1, x0 : round(f.x) + m + 1].astype(np.float32)
    mask = (np.sqrt(((win - face) ** 2).sum(axis=2)) <= tol).astype(np.uint8)
    for p in pips:
        cv2.circle(mask, (round(p.x - x0), round(p.y - y0)), max(2, round(1.6 * p.r)), 1, -1)
    _, labels = cv2.connectedComponents(mask)
    cx, cy = round(f.x) - x0, round(f.y) - y0
    if not (0 <= cy < labels.shape[0] and 0 <= cx < labels.shape[1]) or labels[cy, cx] == 0:
        return None
    ys, xs = np.nonzero(labels == labels[cy, cx])
    if len(xs) < 10:
        return None
    _, (a, b), angle = cv2.minAreaRect(np.c_[xs, ys].astype(np.float32))
    if min(a, b) < 0.75 * max(a, b) or max(a, b) > 2.0 * f.side:
        return None
    pts = np.array([(p.x, p.y) for p in pips])
    axis = np.linalg.svd(pts - pts.mean(axis=0))[2][0]
    along = math.degrees(math.atan2(axis[1], axis[0]))
    return abs(((along - angle) % 90.0) - 45.0)


def _face_colour(pips: list[Pip]) -> np.ndarray:
    """The colour of the face around ``pips``: their rings' median, channel by channel."""
    return np.array([_median([p.face[c] for p in pips]) for c in range(3)], np.float32)


def _body_rays(work: np.ndarray, grey: np.ndarray, f: _Face
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """16 rays from a face's centre over the face-coloured pixels around it, to where the
    colour or a gradient says the die body ends: each ray's reach (px), whether it ran on
    past 1.5 times the face's side (open), and whether it left the picture first (out).
    Rays cross the face's own pips (and their dark rims); any other mark stops them."""
    contrast = _median([p.contrast for p in f.pips])
    angles = np.arange(16) * (2 * math.pi / 16)
    steps, xs, ys, inside, colour, near_pip = _face_rays(work, f, angles, 1.8)
    m = int(1.5 * f.side) + 3
    x0, y0 = max(0, round(f.x) - m), max(0, round(f.y) - m)
    grad = _gradient(grey[y0 : round(f.y) + m + 1, x0 : round(f.x) + m + 1])
    # a pip's own dark rim: a ray that stops within one step of a pip is on its edge
    grown = near_pip.copy()
    grown[:, 1:] |= near_pip[:, :-1]
    grown[:, :-1] |= near_pip[:, 1:]
    tol = max(18.0, 0.18 * contrast)
    edge = max(5.0, 0.08 * contrast)
    stop = ((grad[ys - y0, xs - x0] > edge) | (colour > tol)) & ~grown & inside
    return _ray_ends(steps, stop, inside)


def _face_rays(work: np.ndarray, f: _Face, angles: np.ndarray, clear: float
               ) -> tuple[np.ndarray, ...]:  # fmt: skip
    """Rays from face ``f``'s centre at ``angles``, sampled every quarter of its pips' radius
    out to 1.5 sides: the steps (px), the samples' positions (clipped to the picture), which
    lie in it, each sample's colour distance from the face (its pips' rings), and which lie
    within ``clear`` radii of one of its pips (or 1.5 px past its outline)."""
    pips = f.pips
    face = _face_colour(pips)
    r = _median([p.r for p in pips])
    h, w = work.shape[:2]
    step = max(0.5, 0.25 * r)
    steps = np.arange(step, 1.5 * f.side, step)
    xs = np.rint(f.x + np.outer(np.cos(angles), steps)).astype(int)
    ys = np.rint(f.y + np.outer(np.sin(angles), steps)).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    xs, ys = np.clip(xs, 0, w - 1), np.clip(ys, 0, h - 1)
    colour = np.sqrt(((work[ys, xs].astype(np.float32) - face) ** 2).sum(axis=2))
    near_pip = np.zeros(xs.shape, bool)
    for p in pips:
        near_pip |= np.hypot(xs - p.x, ys - p.y) < max(clear * p.r, p.major + 1.5)
    return steps, xs, ys, inside, colour, near_pip


def _ray_ends(steps: np.ndarray, stop: np.ndarray, inside: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Where rays sampled at ``steps`` first ``stop``: each one's reach (px; the last step
    when it never stops), whether it never stopped (open), and whether it left the picture
    (not ``inside``) first (out)."""
    first_stop = np.where(stop.any(axis=1), stop.argmax(axis=1), len(steps))
    first_out = np.where((~inside).any(axis=1), (~inside).argmax(axis=1), len(steps))
    out = first_out < first_stop
    open_ = ~out & (first_stop >= len(steps))
    return steps[np.minimum(first_stop, len(steps) - 1)], open_, out


def _flag_no_body(work: np.ndarray, grey: np.ndarray, faces: list[_Face], notes: list[str]
                  ) -> None:  # fmt: skip
    """A 2 or a 3 is pips alone: two or three specks on a plain table fit one as well (on
    a table of one colour, the table is the "face", and the face model, shown them, may see
    a 2 too). A die's top face ends at its outline, about half a side from its middle: a 2
    or a 3 from whose centre more than ``OPEN_RAYS`` of the rays that stay in the picture
    run on past 1.5 sides over face-coloured pixels (:func:`_body_rays`: another die
    touching it takes two or three) has no die body found, and is asked, unsettled. (A 1
    has its own body test; 4 to 6 have their cells.)

    On a speckled table (granite, crumbs) the specks stop most rays, at any distance, so
    few run on to 1.5 sides. A die's top face ends at its outline, within 0.71 of a side
    (its corners) of its middle; seen at an angle, its side faces carry its colour at most
    about 0.6 of a side further, on the far side only (two side faces: half the turn). A 2
    or a 3 more than half of whose rays in the picture run on past ``BODY_REACH`` sides has
    no die body either (heldout-q busy granite-3000 18 000 005: two light specks, 12 of 16
    rays past a side, were a certain 2; on the benchmark's certain right 2s and 3s at most
    4 rays reach so far)."""
    for f in faces:
        if f.uncertain or len(f.pips) not in (2, 3):
            continue
        reach, open_, out = _body_rays(work, grey, f)
        n_in, n_open = int(np.sum(~out)), int(np.sum(open_))
        far = int(np.sum(~out & (reach > BODY_REACH * f.side)))
        if n_in < 8 or n_open > OPEN_RAYS:
            why = f"{n_open} of {n_in} rays open"
        elif 2 * far > n_in:
            why = f"{far} of {n_in} rays past a side"
        else:
            continue
        f.uncertain = f.unsettled = True
        f.confidence = min(f.confidence, 0.5)
        notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): no die body around its pips ({why})")


def _flag_dice_in_a_row(work: np.ndarray, faces: list[_Face], notes: list[str]) -> None:
    """Dice pressed side by side in a row, each a 1 (or corner to corner), blurred, fit a 2
    or a 3 whose pips are their pips: the grouping's line between two pips crosses the
    seam between the dice (their bevelled edges, the table in a gap) where blur brings it
    within the face's colour, and no die body is missing around them (the row is one). Two
    things tell them from one die (from a review: three black 1s on felt read a certain 3,
    two a certain 2, with the face model sure too):
    - across the pip line, a 2's or a 3's face reaches its die's corners, 0.6 to 0.7 sides
      from its centre (the rounded corner, a blurred edge); a row of 1s, half a die's side:
      0.37 of the 2 they fit, 0.19 of the 3 (:func:`_reach_across`);
    - on the line between two pips, halfway, the seam (:func:`_seam`).
    Either alone comes near real faces (on every train set and the review's renders, right
    2s reach 0.48 and more, seen at 30 degrees; a blurred 3, 0.29; seams up to 0.032 of the
    pips' contrast on a webcam's 2s, 0.063 to 0.9 between the dice); together they ask only
    the rows. Asked, unsettled: the face model, shown the row, sees the 2 or 3 too."""
    for f in faces:
        if f.unsettled or len(f.pips) not in (2, 3):
            continue
        seam = _seam(work, f)
        if seam < ROW_SEAM:
            continue
        width = _reach_across(work, f)
        if width >= ROW_WIDTH:
            continue
        f.uncertain = f.unsettled = True
        f.confidence = min(f.confidence, 0.5)
        notes.append(f"die at ({f.x:.0f}, {f.y:.0f}): a seam across its pips ({seam:.2f}), "
                     f"its body {width:.2f} sides across them: dice in a row?")  # fmt: skip


def _reach_across(work: np.ndarray, f: _Face) -> float:
    """How far face ``f``'s colour (within ``ROW_TOL`` of its pips' contrast) reaches from
    its centre across its line of pips, in sides: the longest of ten rays, square to the
    line and 12 and 24 degrees either side of that, both ways. Its pips and their blurred
    rims (``HALO`` radii) are crossed; a ray that runs on or leaves the picture counts as
    long (a die of its colour beside it, the frame: nothing known)."""
    pts, _ = _row(f)
    along = math.atan2(pts[-1][1] - pts[0][1], pts[-1][0] - pts[0][0])
    tilts = np.radians([-24.0, -12.0, 0.0, 12.0, 24.0])
    angles = np.concatenate([along + math.pi / 2 + tilts, along - math.pi / 2 + tilts])
    steps, _, _, inside, colour, near_pip = _face_rays(work, f, angles, HALO)
    tol = max(18.0, ROW_TOL * _median([p.contrast for p in f.pips]))
    reach, open_, out = _ray_ends(steps, (colour > tol) & ~near_pip & inside, inside)
    if np.any(open_ | out):
        return math.inf
    return float(reach.max() / f.side)


def _seam(work: np.ndarray, f: _Face) -> float:
    """The strongest seam across a 2's or a 3's line of pips: on the segment between each two
    neighbouring pips, outside their rims (1.8 radii), the colour distance from the face
    that its middle third reaches above the more distant of its two end quarters (medians),
    over the pips' contrast; -inf when no segment leaves enough samples (a 3's pips close)."""
    contrast = _median([p.contrast for p in f.pips])
    face = _face_colour(f.pips)
    h, w = work.shape[:2]
    best = -math.inf
    row = _in_row(f.pips)
    for p, q in zip(row, row[1:], strict=False):
        dist = math.hypot(q.x - p.x, q.y - p.y)
        t = np.linspace(0.0, 1.0, max(9, int(2 * dist)))
        xs = np.clip(np.rint(p.x + t * (q.x - p.x)).astype(int), 0, w - 1)
        ys = np.clip(np.rint(p.y + t * (q.y - p.y)).astype(int), 0, h - 1)
        free = (t * dist > 1.8 * p.r) & ((1 - t) * dist > 1.8 * q.r)
        if free.sum() < 5:
            continue
        t = t[free]
        d = np.sqrt(((work[ys[free], xs[free]].astype(np.float32) - face) ** 2).sum(axis=1))
        lo, span = t[0], t[-1] - t[0]
        ends = (d[t < lo + span / 4], d[t > lo + 3 * span / 4])
        middle = d[(t > lo + span / 3) & (t < lo + 2 * span / 3)]
        if min(len(ends[0]), len(ends[1]), len(middle)) == 0:
            continue
        bump = (float(middle.max()) - max(float(np.median(e)) for e in ends)) / contrast
        best = max(best, bump)
    return best
