"""The rat-dice reader: how many rats the dice of The Rats in the Walls show.

Pure: a BGR numpy image in, a :class:`DiceObservation` (``kind="rats"``) out.

The dice are black wooden cubes; four faces are blank, one shows a rat, one two rats, printed
light on the dark wood. Reading goes in three steps:

1. **Find the dice.** The table's brightness under every pixel is a morphological closing far
   larger than a die (dark things smaller than the kernel vanish from it); pixels much darker
   than their table are die candidates. Each dark blob (thin printed lines cut off, the light
   marks inside filled in, smoothed at the dice's scale) is one die or several touching dice:
   its area against the typical single die (the median of the square-looking blobs; without
   one, of the blobs whose convex hull is square, a die whose glare notched its blob; else the
   widest inscribed circle) says how many, and k-means on its pixels splits it (a blob 1.35
   dice big or more, about twice as long as wide and of one wood, is two dice side by side).
   Each die cut from touching dice must be die-sized, square and whole (a notch in its
   outline needs a glare on its face to explain it); when one is not, the blob
   holds something dark that is not a die (a black token, a pen) and every die cut from it
   is asked: the thing may lie over the others' faces.
   A die seen off the camera's axis shows a strip of its sides towards the picture's centre: the top
   face's side, angle and centre are fitted from the blob's widths (see :func:`_top_face`); a
   blob that needs more side faces than the camera shows at its place is a die with something
   dark joined to it (a token beside it), asked.
   A die cut by the picture's edge, notched, not square, of odd size, hardly darker than its
   table, or with light far brighter than the table against its outline (only the wood
   between a die's marks found) is kept but asked (a partly hidden die); so is a die whose
   outline rises to the table slowly on both sides of a pair (out of focus, or moving: its
   print is blurred as much, see :func:`_outline_sharpness`); a die not square
   only because something dark joins it (its shadow, a board's line) is read from the largest
   square in its blob when that square is as big as the clean dice's faces (or, for a die
   alone, as the square part of its blob as dark as its wood) and fits at one place only,
   or slides only towards the picture's centre, no farther than the other dice's side faces
   show there (the top face is then the square farthest from the centre); what sticks out
   must not be thick and dark, the die's own side faces excepted; a notch
   of light inside a die's hull (a glare), on a die alone or cut from touching dice, is read
   over the hull when the hull is a clean die's size and no light carries on past it (on a
   coloured table, felt or wood, over its outline found by colour: the glare is grey, and
   the hull misses the corner a glare reaches). A mark
   whose thin wood margin is broken by blur (a narrow, deep bay of the blob) is filled in like
   a hole. On a dark mat, once one die barely stands out or is otherwise in doubt (a notch, odd
   size or shape: a piece of a die?), every die is asked.
2. **Measure the top face.** The light marks are a white top-hat of the die (broad light such
   as a glare stays out), cut at half the brightest marks' height inside the top face's core,
   provided they stand out enough from the wood (``min_contrast``). Light that lies mostly
   outside the core (the rounded rim, a lit side face) or is a thin sliver is not print, nor
   is light that runs into the die's outline and stays in a band along it (a lit rim or
   bevel: print keeps a margin from the edges and a rat reaches far into the face; a rat-sized
   crisp band is asked unless its light carries on out to the outline with no dark wood
   between, and then the face is measured again without it, as is such light lying mostly
   off the core when it sets the marks' height; light on the line splitting touching dice
   is kept; a thin crisp line deep in a face read blank is a rat's tail, asked); a round mark
   with soft edges on broad light is a glare. The rest
   is measured: total area, the largest and second largest marks relative to the face, their
   gap, how round the roundest is, how much touches the die's outline, and the Hu moments of
   the marks (rotation invariant shape).
3. **Decide.** Without a model, built-in rules tuned on the synthetic renders (tuning seeds
   only): no marks is 0; one rat-shaped mark of rat size is 1; two marks of similar rat-pair
   size is 2 (a soft mark beside crisp print is a rat under a glare: measured above the
   glare; a soft mark on a face without broad light is blurred print; a small speck or a
   glare's low round peak beside two rats is left out); anything else (a second mark of
   in-between size, two marks almost touching, odd sizes or shapes, a round mark, faint
   marks, glare, marks at the outline, a lone rat standing well under the height that set
   the cut, one of two marks falling low once light as broad as a glare is taken away (the
   glare's own peak), a lone mark under broad light that falls into two pieces of one size
   higher up (two rats joined by a glare), marks that are all a specular highlight's smooth,
   edgeless hump (a window's bars or a strip light on the varnish), a partly hidden die) is
   answered with
   ``uncertain=True``. With a :class:`RatModel` taught on the table's own dice
   (:func:`teach`), the features are scored against per-class Gaussians: the tempered
   posterior is the confidence, and a face far from its class is asked.

A wrong value reported as certain is the worst failure, so every doubt raises the flag.
Black dice on a black mat are mostly not found at all (the observation's notes say the table
is too dark); the few found there are asked.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.vision.doubts import doubt_of
from companion.vision.observation import DiceObservation, DieReading

if TYPE_CHECKING:
    import numpy as np

FEATURES = ("total", "largest", "second", "count", "balance", "hu1", "hu2")
"""What the model compares, per face: mark area / face area (total, largest and second
component), number of rat-sized marks, second / largest, and log Hu moments 1 and 2."""
STD_FLOOR = (0.008, 0.008, 0.006, 0.3, 0.08, 0.12, 0.4)
"""The smallest spread a taught class may have per feature: a few examples of one face are
always nearly identical, and the next throw's noise must not look like a stranger."""
BLANK_HU = (0.0, 0.0)  # the Hu features of a face without marks

# -- built-in rules (tuned on the synthetic renders' tuning seeds) ---------------------------
MIN_CONTRAST = 24.0  # grey levels between the wood and the brightest marks, for marks to count
CONTRAST_DOUBT = (24.0, 48.0)  # marks found with an in-between contrast: ask
BLANK_TOTAL = 0.004  # below: the face has no marks (fraction of the face's area)
MARK_MIN = 0.0025  # a mark smaller than this (fraction of the face) is dust or a worn speck
RAT_AREA = (0.035, 0.14)  # one rat's area, fraction of the face
RAT_HU = ((0.4, 0.68), (0.85, 2.1))  # one rat's log Hu moments 1 and 2 (a long body + tail)
PAIR_AREA = (0.008, 0.06)  # each of two rats
SECOND_MIN = 0.45  # two marks are two rats when the smaller is at least this of the larger
MIN_GAP = 0.035  # two rats closer than this (of the side) may be one broken rat
GLARE_MAX = 0.85  # broad light brighter than this (of the marks' contrast) may hide print
GLARE_ABS = 110.0  # or brighter than this many grey levels on a face without marks
CORNER = 0.12  # a die's corner radius, of the side
RIM = 0.085  # border left out of the marks' region (the top's lighter rim), of the side
TOPHAT = 0.5  # the top-hat's disk, of the side: wider than any print, narrower than a glare
GLARE_SHARP = 0.4  # a round mark whose edges are this soft is a glare...
WORK_SIZE = 480  # big pictures are read at this height when their dice stay resolved
RESOLVED = 40.0  # below this side (pixels) a rat's shape is not resolved: round blobs are asked
GLARE_DISK = 0.3  # broad light is what survives an opening this wide (of the side)...
GLARE_BROAD = 8.0  # ... a round soft mark is a glare if such light (grey levels) lies there
GLARE_BROAD_REL = 0.3  # ... of at least this fraction of the marks' contrast
SATURATED = 250  # grey level of a burnt-out glare
MIN_ELONGATION = 1.5  # a rat is long; a round light spot is a glare or dirt
MIN_SHARP = 0.15  # print has crisp edges: a rat-sized mark softer than this is asked...
PAIR_SHARP = 0.3  # ... unless it is one of two rats and the other is at least this crisp
RAT_SIZED = 0.1  # marks at least this fraction of the largest count (and are compared)
MIN_INNER = 0.4  # print lies at least this much inside the top face's core
EDGE_IN = 0.04  # the die's outline shrunk by this (of the side) bounds the marks' region
RIM_THICK = 0.03  # half-thickness (of the side) below which a long thin mark is rim, not print
EDGE_MAX = 0.12  # more of the marks than this touching the face's edge: part may be hidden
OUTLINE_REACH = 0.21  # light on the outline reaching less deep than this (of the side) is rim
OUTLINE_PRINT = (0.015, 0.3)  # ... unless as big as one of two rats and as crisp as print
RUNS_OUT = 0.5  # ... or it stays this bright (of its peak over the wood) out to the outline
CERTAIN = 0.9  # confidence below which a die is flagged
OUTLIER_Z2 = 30.0  # a face farther than this (squared z-score sum) from its taught class is asked
TAUGHT_SMALL = 0.6  # a largest mark under this of the taught class's is no whole rat: asked
TAUGHT_SOFT = 0.5  # a mark softer than this of the taught print's sharpness, on a face with a
TAUGHT_CRISP = 0.75  # glare, may be the glare: asked, unless beside a rat this crisp (of it)

# die finding
DARK_RATIO = 0.52  # a die pixel is at most this bright relative to its table
DARK_DROP = 28.0  # and at least this many grey levels darker
DARK_TABLE = 75.0  # a table darker than this hides black dice: the observation says so
BLACK_MAT = 52.0  # a table darker than this is a black mat: dice on it are found in pieces
MIN_DIE = 0.035  # smallest die side, fraction of the picture's short side
MAX_DIE = 0.32  # largest
MIN_TABLE_DROP = 30.0  # a die less darker than its table than this (or above 0.4 of it) is asked
LIT_BORDER = 0.15  # a die whose outline has more than this of it against light (brighter than
LIT_ABOVE = (40.0, 0.5)  # its table by this many grey levels, or this fraction of it) is asked
MAX_NOTCH = 0.075  # outline notch (of the hull) above which a die is asked
LARGER = 1.35  # a blob this much bigger than the typical die (area) is asked...
TWO_ASPECT = 1.5  # ... unless it is this elongated and both halves are wood: two dice
SQUARE_ASPECT = 1.3  # a single die's bounding box is at most this elongated
SQUARE_FILL = 0.8  # and at least this full
SMOOTH = 0.06  # blobs are opened by a disk of this radius (of a die's side)
INSCRIBED_AREA = 1.0  # a die's area over the square of its widest inscribed circle
PIECE = (0.8, 1.25)  # a die cut from touching dice: its top face's side over the typical die's
SQUARE_REFIT = (0.88, 1.12)  # a die not square is read when a square this size (of the clean
SQUARE_SLIDE = 0.1  # dice's side) fits in it at one place (it slides less than this, of the side)
STUB_THICK = 0.08  # ... unless what sticks out is thicker than this (of the side) and darker
STUB_WOOD = 20.0  # than the die's wood + this: something dark may lie over the face
LEAN_MARGIN = 1.33  # ... the die's own side faces (as far as the clean dice's show) excepted
PIECES_FINE = ("die cut by the picture's edge", "die larger")  # doubts that are not a piece
NOT_A_PIECE = "a die cut from touching dice"  # ... of odd size or shape: it is not a die
OWN_SIDE = (0.85, 1.1)  # a die's wood-dark part refitted: its face's side over the first fit's
FACE_TO_FACE = 10.0  # degrees: touching dice's outlines turned more than this to each other
LEAN_FIT = 0.15  # a die's side faces show at most this (of the side: the fit's own spread;
#                  clean dice near the centre: 0.13 at most; a die cocked 25 degrees: 0.21)...
CAMERA_HEIGHT = 0.6  # ... plus the side times its distance from the picture's centre over the
#                     camera's height, at least this of the picture's short side (80 degrees)
HULL_DOUBTS = ("a notch", "die not square", "die smaller")  # a notch's only doubts: read the hull
BROKEN_MOUTH = 0.5  # a bay of a die's blob opening this narrowly (of the side) is a mark
HULL_LIT = 0.05  # ... if at most this much of the hull's outline has light beyond it
TABLE_HUE = 15.0  # a table this coloured (grey levels from grey, the ring round a die: felt,
#                   wood) shows a die's whole outline by colour where a glare lifts the wood...
HUE_CUT = 0.5  # ... as the pixels whose colour lies this far (of the table's) from the table's
HUE_FILL = 0.9  # ... an outline that full of its bounding rectangle (a die's: 0.91-0.95)
JOINED = 0.6  # two marks one piece of light at this of the dimmer one's peak: one rat?
CLOSE_GAP = 0.1  # two marks closer than this (of the side) and one piece of light at
JOINED_CLOSE = 0.45  # this of the dimmer's peak, on a face without broad light: one worn rat
#                      broken where its print faded to half (one: 0.52, 0.035-0.06 apart; two
#                      rats read right that close, 0.07-0.09 apart: 0.375 at most)
HIDDEN_CUT = 0.25  # light above this of the marks' height apart from a lone rat, as big as
#                   one of two rats (OUTLINE_PRINT[0]): a second rat left under the cut?
PRINT_PEAK = 0.8  # light off the face standing this of the marks' height looks printed
LONE_PEAK = 0.9  # a lone rat standing under this of the marks' height: the cut is not
#                  print's (one-rat faces read right: 0.907 and up; a board's square on the
#                  face of an engraved two-rat die read 1: 0.80)
LINE_REACH = 0.18  # a thin crisp line of light reaching this deep into a die (of the side) is
#                   no rim's: print (a lit rim reaches 0.06-0.15)
SPECK_PEAK = 0.7  # a round third mark under this of the dimmer rat's peak, on a face with a
#                   glare, is the glare's own peak (print of one ink stands as high everywhere)
BLURRED = 0.14  # a die's outline rising less than this (of its step from the table) per pixel
#                 is blurred (out of focus, moving): its print may be blurred away, asked
NARROW_PEAK = 0.65  # one of two marks on a face with broad light standing under this of the
#                     print's height once light as broad as a glare is taken away: glare, asked
SPLIT_CUTS = (0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)  # a lone mark under broad light cut
#                     again at these of its own peak: two pieces of one size (SECOND_MIN), each
#                     as big as one of two rats, may be two rats joined by a glare: asked
HUMP_SHARP = 0.25  # a mark softer than this (a Gaussian hump: 0.21; print 0.3-0.6)...
HUMP_SOLID = 0.82  # ... this convex (its area over its hull's: an ellipse ~0.9, a rat 0.55-0.8)
HUMP_SPREAD = 1.35  # ... growing this much when cut at HUMP_CUT of its peak instead of half of it
#                     (a Gaussian: 1.52; print's steep edge: 1.1-1.25) is a specular highlight
HUMP_FLAT = (0.12, 2.4)  # a mark softer than this, growing this much, is a highlight whatever
#                         its outline (two highlights crossing: no ellipse, yet no ink's edge)
HUMP_CUT = 0.35  # (the lower cut, of the mark's own peak...)
HUMP_REACH = 0.12  # (... within this of the side around the mark: _spread)
OFF_FACE_REACH = 0.25  # light left out as off the top face's core yet reaching this deep into
#                     the die (of the side), as big, crisp and bright as print: the face was
#                     fitted off the die's print, asked (a lit rim reaches 0.06-0.15; such light
#                     on the small dice read right: 0.22 at most; the rat left out: 0.31)


@dataclass(frozen=True)
class FaceFeatures:
    """Measurements of one die's top face (areas relative to the face's area)."""

    contrast: float  # grey levels, brightest marks above the wood
    total: float
    areas: tuple[float, ...]  # rat-sized marks, largest first
    gap: float  # between the two largest marks, of the side (1.0 when fewer than two)
    glare: float  # grey levels of broad light on the face (a glare on the varnish)
    edge: float  # fraction of the marks' area on the face's edge
    hu: tuple[float, float]
    elongation: float = 9.9  # of the roundest rat-sized mark: length / thickness (a rat: ~3)
    spots: int = 0  # round soft light spots left out (glare on the varnish)
    burnt: bool = False  # a glare so bright the camera saturates: print could hide in it
    sharpness: float = 1.0  # of the softest rat-sized mark (print ~0.5, glare ~0.1-0.2)
    outline: int = 0  # light marks left out because they lie along the die's outline (rim)
    outline_print: bool = False  # one of them as big and crisp as a rat: print cut off?
    sharpest: float = 0.0  # of the crispest rat-sized mark (0 on a die under RESOLVED pixels)
    hidden: float = 0.0  # largest light apart from the marks above HIDDEN_CUT of their height
    joined: float = 0.0  # the highest cut (of the dimmer's peak) joining the two largest marks
    shine: bool = False  # broad light on a die of RESOLVED pixels and more: a glare is there
    specks: int = 0  # marks beside two rats left out as specks (a tail cut off, a glare's peak)
    peak: float = 1.0  # the highest rat-sized mark's peak, of the marks' height (``contrast``)
    line: float = 0.0  # the largest thin line of print-bright light deep in a blank face
    narrow: float = 1.0  # the lowest of two marks or more on a face with broad light, in the
    #                      light narrower than a glare, of the print's height there (else 1)
    split: float = 0.0  # a lone mark on a face with broad light (any die size): the best
    #                     balance of two pieces it falls into at a higher cut (SPLIT_CUTS)
    off_face: float = 0.0  # the deepest reach (of the side) of print-like light left out as
    #                        lying off the top face's core (OFF_FACE_REACH and more, else 0)
    highlight: bool = False  # every rat-sized mark (one or two) is a specular highlight's
    #                          smooth, convex hump of light, not print (_is_highlight)

    @property
    def count(self) -> int:
        return len(self.areas)

    def vector(self) -> list[float]:
        largest = self.areas[0] if self.areas else 0.0
        second = self.areas[1] if len(self.areas) > 1 else 0.0
        balance = second / largest if largest > 0 else 0.0
        return [self.total, largest, second, float(min(self.count, 3)), balance, *self.hu]


@dataclass(frozen=True)
class ClassStats:
    mean: tuple[float, ...]
    std: tuple[float, ...]
    n: int
    sharp: float = 0.0  # the taught faces' softest mark's sharpness, median (0: unknown)


@dataclass(frozen=True)
class RatModel:
    """What :func:`teach` learnt about one table's rat dice: per face kind (0, 1, 2 rats)
    the mean and spread of :data:`FEATURES` and how crisp its print is, the mark contrast
    that separates print from bare wood, and the usual die size in pixels (0: unknown).
    JSON, never pickle."""

    classes: dict[int, ClassStats]
    min_contrast: float = MIN_CONTRAST
    die_size: float = 0.0
    version: int = 1

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": self.version,
                "features": list(FEATURES),
                "min_contrast": round(self.min_contrast, 3),
                "die_size": round(self.die_size, 2),
                "classes": {
                    str(k): {"mean": [round(v, 6) for v in c.mean],
                             "std": [round(v, 6) for v in c.std], "n": c.n,
                             "sharp": round(c.sharp, 4)}  # fmt: skip
                    for k, c in sorted(self.classes.items())
                },
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str | dict[str, Any]) -> RatModel:
        data = json.loads(text) if isinstance(text, str) else text
        if data.get("version") != 1 or list(data.get("features", [])) != list(FEATURES):
            raise ValueError(
                f"rat model version {data.get('version')!r} with features "
                f"{data.get('features')!r} is not understood: teach the dice again"
            )
        classes = {}
        for key, c in data["classes"].items():
            mean, std = tuple(float(v) for v in c["mean"]), tuple(float(v) for v in c["std"])
            if len(mean) != len(FEATURES) or len(std) != len(FEATURES):
                raise ValueError(
                    f"rat model class {key}: {len(mean)} features, not {len(FEATURES)}"
                )
            # (a model taught before print's sharpness was kept: unknown, not checked)
            classes[int(key)] = ClassStats(mean, std, int(c["n"]), float(c.get("sharp", 0.0)))
        return cls(classes, float(data["min_contrast"]), float(data["die_size"]))


# -- finding the dice ------------------------------------------------------------------------
@dataclass
class _Die:
    region: Any  # uint8 mask (crop): the die, where light marks are segmented
    core: Any  # uint8 mask (crop): the top face without its rim, where print must lie
    x0: int
    y0: int
    area: float  # pixels of the die (holes filled)
    side: float  # estimated side of the top face, pixels
    cx: float
    cy: float
    notes: list[str] = field(default_factory=list)
    notch: float = 0.0  # how much of its convex hull the die's outline misses
    outer: Any = None  # a die cut out of touching dice: their blob, shrunk like ``region``
    lean: float = 0.0  # pixels of side faces showing towards the picture's centre
    blob: Any = None  # uint8 mask (crop): the die's blob the face was fitted to
    lean_max: float = math.inf  # the most side faces the other clean dice say it may show


def _imports() -> tuple[Any, Any]:
    import cv2
    import numpy

    return numpy, cv2


def _value_channel(image: Any) -> Any:
    np, cv2 = _imports()
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        image = image[..., :3]
    # the brightest channel; cv2's per-channel max is ~100x faster than ndarray.max(axis=2)
    # over the short last axis (that was half the reader's time)
    b, g, r = cv2.split(np.ascontiguousarray(image))
    return cv2.max(cv2.max(b, g), r)


def _table_level(v: Any) -> Any:
    """The table's brightness under every pixel: dark things smaller than a big kernel erased."""
    np, cv2 = _imports()
    h, w = v.shape
    f = 4 if min(h, w) >= 200 else 1
    small = cv2.resize(v, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = max(5, int(min(h, w) * 0.3 / f) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
    closed = cv2.GaussianBlur(closed, (0, 0), max(1.0, k / 6))
    return cv2.resize(closed, (w, h), interpolation=cv2.INTER_LINEAR)


def _dark_mask(v: Any) -> tuple[Any, Any]:
    """(pixels much darker than the table under them (255), the table's brightness)."""
    np, cv2 = _imports()
    bg = _table_level(v).astype(np.float32)
    vf = v.astype(np.float32)
    dark = (vf < DARK_RATIO * bg) & (bg - vf > DARK_DROP)
    return dark.astype(np.uint8) * 255, bg


def _filled_blobs(dark: Any, min_area: float, open_px: int = 3, solid: float = 0.6
                  ) -> list[tuple[Any, int, int, Any]]:  # fmt: skip
    """(filled mask crop, x0, y0, contour) per dark blob of at least ``min_area`` pixels that
    is mostly dark inside (a die with light marks, not the outline of a printed square).

    Thin dark lines (a board's printed lines) are cut off by an opening first; the holes
    (the light marks) are filled from the mask before the opening, so that a mark reaching
    close to the die's edge stays inside the die."""
    np, cv2 = _imports()
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (open_px, open_px))
    opened = cv2.morphologyEx(dark, cv2.MORPH_OPEN, k)
    raw_contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    raw_filled = np.zeros_like(dark)
    cv2.drawContours(raw_filled, raw_contours, -1, 255, -1)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    H, W = dark.shape
    for c in contours:
        if cv2.contourArea(c) < min_area:
            continue
        x, y, w, h = cv2.boundingRect(c)
        x, y = max(0, x - open_px), max(0, y - open_px)
        w, h = min(W - x, w + 2 * open_px), min(H - y, h + 2 * open_px)
        m = np.zeros((h, w), np.uint8)
        cv2.drawContours(m, [c - np.array([x, y])], -1, 255, -1)
        hull = np.zeros_like(m)
        cv2.fillConvexPoly(hull, cv2.convexHull(c - np.array([x, y])), 255)
        m |= raw_filled[y : y + h, x : x + w] & cv2.erode(hull, k)
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, k)
        cs, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cs:
            continue
        best = max(cs, key=cv2.contourArea)
        m[:] = 0
        cv2.drawContours(m, [best], -1, 255, -1)
        filled = float(np.count_nonzero(m))
        inside = float(np.count_nonzero(dark[y : y + h, x : x + w] & m))
        if inside < solid * filled:
            continue
        out.append((m, x, y, best + np.array([x, y])))
    return out


def _shape(contour: Any) -> tuple[float, float, float, tuple[float, float], float]:
    """(area, aspect, fill of the min-area rectangle, rect size, rect angle)."""
    np, cv2 = _imports()
    area = float(cv2.contourArea(contour))
    (_, _), (rw, rh), ang = cv2.minAreaRect(contour)
    rw, rh = max(rw, 1.0), max(rh, 1.0)
    return area, max(rw, rh) / min(rw, rh), area / (rw * rh), (rw, rh), ang


def _square(shape: tuple[float, float, float, tuple[float, float], float]) -> bool:
    """A :func:`_shape` as square and full as a die alone's outline."""
    return shape[1] <= SQUARE_ASPECT and shape[2] >= SQUARE_FILL


def _die_angle(contour: Any) -> float:
    """The die's rotation in degrees [0, 90): the dominant direction of its outline's straight
    pieces (the four edges of the top face outweigh the two short edges of the side faces)."""
    np, cv2 = _imports()
    poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    d = np.roll(poly, -1, axis=0) - poly
    length = np.hypot(d[:, 0], d[:, 1])
    theta = np.arctan2(d[:, 1], d[:, 0]) * 4  # period 90 degrees becomes 360
    c, s = float((length * np.cos(theta)).sum()), float((length * np.sin(theta)).sum())
    return (math.degrees(math.atan2(s, c)) / 4) % 90.0


def _top_face(filled: Any, x0: int, y0: int, width: int, height: int
              ) -> tuple[Any, Any, float, float, float]:  # fmt: skip
    """:func:`_fit_top_face` without the lean."""
    return _fit_top_face(filled, x0, y0, width, height)[:5]


def _fit_top_face(filled: Any, x0: int, y0: int, width: int, height: int
                  ) -> tuple[Any, Any, float, float, float, float]:  # fmt: skip
    """(region, core, side, centre x, centre y, lean) of the top face of one die's blob: the
    marks are segmented in ``region`` (the die, a little shrunk) and count when they lie
    mostly in ``core`` (the estimated top face without its rim).

    Seen from above but off the camera's axis, a die shows its top face plus a strip of side
    faces towards the picture's centre (the top is nearer the camera, so it is pushed
    outwards): the blob is the top face swept along a ``lean`` pointing to the centre. Its
    width along any direction ``w`` is ``side * a(w) + lean * |w . towards centre|`` (``a``:
    a rounded square's width), linear in side and lean: a least-squares fit over eight
    directions gives both, and the top face is the blob's middle moved half the lean
    outwards."""
    np, cv2 = _imports()
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    pts = contour.reshape(-1, 2).astype(np.float64)
    ang = _die_angle(contour)
    a = math.radians(ang)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    mid = (pts.max(axis=0) + pts.min(axis=0)) / 2
    towards = np.array([width / 2 - (x0 + mid[0]), height / 2 - (y0 + mid[1])])
    norm = float(np.hypot(*towards))
    towards = towards / norm if norm > 1e-6 else np.array([0.0, 0.0])
    rows, ext, centre_fit = [], [], []
    for k in range(8):
        t = math.pi * k / 8
        wv = np.array([math.cos(t), math.sin(t)])
        proj = pts @ wv
        lo, hi = float(proj.min()), float(proj.max()) + 1.0
        wu, ww = abs(float(wv @ u)), abs(float(wv @ v))
        rows.append([(1 - 2 * CORNER) * (wu + ww) + 2 * CORNER, abs(float(wv @ towards))])
        ext.append(hi - lo)
        centre_fit.append((wv, (hi + lo) / 2))
    (side, lean), *_ = np.linalg.lstsq(np.array(rows), np.array(ext), rcond=None)
    if lean < 0 or norm < 1e-6:
        lean = 0.0
        side = float(np.dot(np.array(rows)[:, 0], ext) / np.dot(np.array(rows)[:, 0],
                                                                  np.array(rows)[:, 0]))
    # the blob's middle (least squares over the same directions), then half the lean out
    m = np.array([w for w, _ in centre_fit])
    c = np.array([cc for _, cc in centre_fit])
    middle, *_ = np.linalg.lstsq(m, c, rcond=None)
    cx, cy = middle - towards * lean / 2
    inner = side * (1 - 2 * RIM)
    box = cv2.boxPoints(((float(cx), float(cy)), (inner, inner), ang))
    core = np.zeros_like(filled)
    cv2.fillConvexPoly(core, np.round(box * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    e = max(1, int(round(EDGE_IN * side)))
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1))
    region = cv2.erode(filled, k, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return region, core & region, float(side), x0 + float(cx), y0 + float(cy), float(lean)


def _inscribed_squares(filled: Any, angle: float) -> tuple[float, Any, Any]:
    """(side, centres x, centres y) of every largest square turned by ``angle`` degrees that
    fits in the mask (the centres in the mask's pixels; side 0: none): in the mask turned
    upright, the chessboard distance to the nearest outside pixel is the half side of the
    largest upright square centred there."""
    np, cv2 = _imports()
    h, w = filled.shape
    pad = int(0.5 * math.hypot(h, w)) + 2
    big = cv2.copyMakeBorder(filled, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    centre = (big.shape[1] / 2, big.shape[0] / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    upright = cv2.warpAffine(big, turn, (big.shape[1], big.shape[0]), flags=cv2.INTER_NEAREST)
    dist = cv2.distanceTransform((upright > 0).astype(np.uint8), cv2.DIST_C, 3)
    top = float(dist.max())
    if top < 1:
        return 0.0, np.zeros(0), np.zeros(0)
    ys, xs = np.nonzero(dist >= top)
    back = cv2.invertAffineTransform(turn)
    cx = back[0, 0] * xs + back[0, 1] * ys + back[0, 2] - pad
    cy = back[1, 0] * xs + back[1, 1] * ys + back[1, 2] - pad
    return 2 * top - 1, cx.astype(np.float64), cy.astype(np.float64)


def _refit_square(die: _Die, filled: Any, typical: float, v: Any, lean_rate: float = 0.0,
                  centre: tuple[float, float] = (0.0, 0.0)) -> None:  # fmt: skip
    """A die whose blob is not square (a shadow, a board's line or dark square joined to it)
    is read from the largest square inside its blob, if that square is as big as the clean
    dice's top faces (``typical`` side) and sits at one place only: the whole top face is
    then dark wood in the blob (its print, enclosed by wood, filled in), and what sticks out
    is not the die. The face's region is cut to that square and the doubt dropped. A blob
    missing part of the die (light cutting into it) holds no square that big: still asked.
    ``lean_rate``: how far the clean dice's side faces show per pixel from the picture's
    ``centre``; this die's own side faces show as far, towards the centre, and are its own.
    A square that slides only along them (towards the centre, no farther than they show) is
    the top face at the end farthest from the centre (:func:`_outer_square`)."""
    np, cv2 = _imports()
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    angle = _die_angle(max(contours, key=cv2.contourArea))
    inner, xs, ys = _inscribed_squares(filled, angle)
    # a sharp square inside a rounded one: its corners stop on the rounded corners
    side = inner / (1 - (2 - math.sqrt(2)) * CORNER)
    if not SQUARE_REFIT[0] <= side / typical <= SQUARE_REFIT[1]:
        return
    # the square's centre, and how far it can move with the square still fitting
    cx, cy = float(xs.mean()), float(ys.mean())
    if float(np.hypot(xs - cx, ys - cy).max()) > SQUARE_SLIDE * side:
        outer = _outer_square(xs, ys, die, side, lean_rate, centre)
        if outer is None:
            return
        cx, cy = outer

    def box(size: float) -> Any:
        m = np.zeros_like(filled)
        pts = cv2.boxPoints(((cx, cy), (size, size), angle))
        cv2.fillConvexPoly(m, np.round(pts * 16).astype(np.int32), 255, cv2.LINE_8, 4)
        return m

    # what sticks out must be a shadow or a line: a thick thing as dark as the die's wood (a
    # pen, a sleeve, a black token) may lie over the face too and hide its print (found by
    # review: a dark bar across a die read a certain 0 for a 1 or a 2)
    rh, rw = filled.shape
    crop = v[die.y0 : die.y0 + rh, die.x0 : die.x0 + rw].astype(np.float32)
    stub = (filled > 0) & ~(box(side * 1.05) > 0)
    tx, ty = centre[0] - (die.x0 + cx), centre[1] - (die.y0 + cy)
    far = math.hypot(tx, ty)
    if stub.any() and lean_rate > 0 and far > 0:
        # the die's own side faces: the square swept towards the picture's centre by the lean
        # the clean dice show at this distance (with a margin: a third more and 2 pixels)
        reach = LEAN_MARGIN * lean_rate * far + 2.0
        sides = np.zeros_like(filled)
        for t in np.linspace(0.0, reach, max(2, int(reach) + 2)):
            pts = cv2.boxPoints(((cx + t * tx / far, cy + t * ty / far), (side * 1.05, side * 1.05),
                                 angle))  # fmt: skip
            cv2.fillConvexPoly(sides, np.round(pts * 16).astype(np.int32), 255, cv2.LINE_8, 4)
        stub &= sides == 0
    if stub.any():
        wood = float(np.median(crop[(filled > 0) & (box(side * 0.8) > 0)]))
        thick = float(cv2.distanceTransform(stub.astype(np.uint8), cv2.DIST_L2, 3).max())
        if thick > STUB_THICK * side and float(np.median(crop[stub])) < wood + STUB_WOOD:
            return
    # the face may lie up to the slide away from the square: the region keeps that much more
    die.region = die.region & box(side * (1 + 2 * SQUARE_SLIDE))
    die.core = box(side * (1 - 2 * RIM)) & die.region
    die.side, die.cx, die.cy = side, die.x0 + cx, die.y0 + cy
    die.notes = []


def _outer_square(xs: Any, ys: Any, die: _Die, side: float, lean_rate: float,
                  centre: tuple[float, float]) -> tuple[float, float] | None:  # fmt: skip
    """Where the top face lies (centre, in the blob's crop) when the largest square slides
    along the blob (``xs``, ``ys``: the centres it fits at, :func:`_inscribed_squares`), if it
    slides only towards the picture's ``centre`` and no farther than
    the side faces the clean dice show at this distance (``lean_rate`` per pixel, with
    ``LEAN_MARGIN``'s margin): the blob is then the top face and its own side faces, and the
    top face, nearer the camera, is the square farthest from the centre. Else None."""
    if lean_rate <= 0:
        return None
    ox, oy = die.x0 + float(xs.mean()) - centre[0], die.y0 + float(ys.mean()) - centre[1]
    far = math.hypot(ox, oy)
    if far <= 0:
        return None
    along = (xs * ox + ys * oy) / far
    across = (ys * ox - xs * oy) / far
    reach = LEAN_MARGIN * lean_rate * far + 2.0
    if float(across.max() - across.min()) > 2 * SQUARE_SLIDE * side:
        return None  # it slides across the way to the centre too
    if float(along.max() - along.min()) > reach:
        return None  # farther than the die's side faces show here
    end = along >= float(along.max()) - 1.0
    return float(xs[end].mean()), float(ys[end].mean())


def _wood_square(die: _Die, filled: Any, v: Any) -> float:
    """The top face's side (pixels) of the part of a die's blob as dark as its wood, when
    that part is square; else 0. The wood: the median of the blob's darker half; what is
    lighter than it by ``STUB_WOOD`` is not the die (a board's coloured square, a shadow on
    a light table). Something as dark as the wood joined to the die (a pen, a sleeve) stays
    in the part, which is then not square: asked."""
    found = _wood_part(die, filled, v)
    if found is None:
        return 0.0
    h, w = v.shape
    return _top_face(found[0], die.x0, die.y0, w, h)[2]


def _wood_part(die: _Die, filled: Any, v: Any) -> tuple[Any, Any] | None:
    """The part of a die's blob ``filled`` as dark as its wood (the median of the blob's
    darker half, + ``STUB_WOOD``), opened at the dice's scale, its largest piece filled, when
    that piece is square: (uint8 mask in the blob's crop, that piece's contour); else None."""
    np, cv2 = _imports()
    rh, rw = filled.shape
    crop = v[die.y0 : die.y0 + rh, die.x0 : die.x0 + rw].astype(np.float32)
    inside = crop[filled > 0]
    wood = float(np.median(inside[inside <= np.median(inside)]))
    part = ((filled > 0) & (crop < wood + STUB_WOOD)).astype(np.uint8) * 255
    r = max(1, int(round(SMOOTH * die.side)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    part = cv2.morphologyEx(part, cv2.MORPH_OPEN, disk)
    cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return None
    best = max(cs, key=cv2.contourArea)
    if not _square(_shape(best)):
        return None
    m = np.zeros_like(part)
    cv2.drawContours(m, [best], -1, 255, -1)
    return m, best


def _broken_holes(filled: Any, side: float) -> Any:
    """The die's blob with the marks whose rim of wood is broken filled in.

    Print keeps a margin of wood from a die's edges, so a mark is a hole in the dark blob
    and filled; but blur can eat that margin where it is thin, and the mark becomes a bay
    open to the outside through a gap of a pixel or two: left out, the rat is not read. A
    bay of the blob (its convex hull less the blob) is such a mark when its mouth on the
    hull's outline is narrow (``BROKEN_MOUTH`` of the side) and it reaches as deep into the
    die as a rat's body does (``OUTLINE_REACH`` of the side: light along the outline, a rim
    or a lit side face, does not); a glare cutting into the die opens wide (a notch)."""
    np, cv2 = _imports()
    hull = _filled_hull(filled)
    bays = ((hull > 0) & (filled == 0)).astype(np.uint8)
    n, labels, stats, _c = cv2.connectedComponentsWithStats(bays, connectivity=8)
    if n <= 1:
        return filled
    framed = cv2.copyMakeBorder(hull, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    depth = cv2.distanceTransform(framed, cv2.DIST_L2, 3)[1:-1, 1:-1]
    out = filled.copy()
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < MARK_MIN * side**2:
            continue
        bay = labels == i
        mouth = int((bay & (depth < 1.5)).sum())
        if (mouth <= BROKEN_MOUTH * side and float(depth[bay].max()) >= OUTLINE_REACH * side
                and stats[i, cv2.CC_STAT_AREA] <= RAT_AREA[1] * side**2):  # fmt: skip
            out[bay] = 255
    return out


def _refit_hull(die: _Die, filled: Any, typical: float, v: Any, table: Any) -> None:
    """A die with a notch of light in its outline is read over its blob's convex hull when
    that light lies on the die: a glare on the varnish brightens part of the black top face
    past the dark cut, and the blob loses that part. Checked: the hull's top face is as big
    as the clean dice's (``SQUARE_REFIT``), so the hull is the whole die and not part of
    one; and the light does not carry on past the hull's outline (``_lit_border``: a card,
    a finger or a token lying over the die comes from outside it); and the face over the hull
    shows broad light (a glare, ``GLARE_BROAD``), on a die of ``RESOLVED`` pixels and more
    (below, print loses its margin in the blur and cuts into the outline itself). The face is
    then measured over the hull, glare included, and the glare rules decide (a glare bright
    enough to hide print is asked)."""
    np, cv2 = _imports()
    hull = _filled_hull(filled)
    # the hull is a die's outline, so it is square as a die alone is: a strip of something
    # dark joined along the die (a sleeve's shaded edge) makes it long, and the table's light
    # between the die and the strip is no glare (a navy sleeve over a one-rat die on a board
    # under a lamp: that light was read as a second rat, a certain 2)
    cs, _ = cv2.findContours(hull, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not _square(_shape(max(cs, key=cv2.contourArea))):
        return
    hulled = _hull_face(hull, die.x0, die.y0, v, die.area)
    if hulled.side < RESOLVED or not SQUARE_REFIT[0] <= hulled.side / typical <= SQUARE_REFIT[1]:
        return
    if _lit_border(v, table, hull, die.x0, die.y0) > HULL_LIT:
        return
    # the notch must be explained by a glare: broad light on the face. Without it, the notch
    # is print cutting into the outline (a small die's marks lose their margin in the blur)
    # or something else: asked (found on the fresh range: a small two-rat die read 1)
    if measure_face(v, hulled, MIN_CONTRAST).glare < GLARE_BROAD:
        return
    die.region, die.core, die.side = hulled.region, hulled.core, hulled.side
    die.cx, die.cy = hulled.cx, hulled.cy
    die.area = float(np.count_nonzero(hull))
    die.notes = []


def _refit_colour(die: _Die, filled: Any, typical: float, image: Any, v: Any, table: Any
                  ) -> None:  # fmt: skip
    """A die with a notch of light in its outline is read over its outline found by colour
    when the table is coloured (felt, wood) and a glare's light fills the notch.

    A glare on the varnish lifts the black wood to the table's brightness: the dark blob loses
    that part (a notch), and when the glare reaches the die's edge its convex hull loses the
    corner too (the hull is smaller than the die: :func:`_refit_hull` refuses it, and print in
    that corner would be left out). A specular glare has the lamp's colour, not the table's,
    and the wood and print are grey: against a coloured table the whole die stands out by
    its colour (its chroma, the pixel less its grey level, ``HUE_CUT`` of the table's chroma
    away from it), glare included. That outline must hold the blob, stay inside the crop, be
    square and fill its rectangle as a die's rounded square does (``HUE_FILL``: something
    lying over the die from outside, a finger, a card, a token, is not the table's colour
    either and sticks out past the die's square), give a face of the clean dice's size (when
    the picture has some) with no light beyond it (``HULL_LIT``); the face over it must show
    broad light (the glare that made the notch, ``GLARE_BROAD``) and, a glare being on it,
    no soft mark (``MIN_SHARP``: the glare's own light, not print blurred like the picture).
    The face is then measured over it, glare included, and the glare rules decide, as for
    :func:`_refit_hull`. Only on a die of ``RESOLVED`` pixels and more, alone in its blob."""
    np, cv2 = _imports()
    if image.ndim != 3 or die.outer is not None or die.side < RESOLVED:
        return
    h, w = v.shape
    bh, bw = filled.shape
    pad = int(round(0.3 * die.side))
    xa, ya = max(0, die.x0 - pad), max(0, die.y0 - pad)
    xb, yb = min(w, die.x0 + bw + pad), min(h, die.y0 + bh + pad)
    blob = np.zeros((yb - ya, xb - xa), np.uint8)
    blob[die.y0 - ya : die.y0 - ya + bh, die.x0 - xa : die.x0 - xa + bw] = filled
    crop = cv2.blur(np.ascontiguousarray(image[ya:yb, xa:xb, :3]), (3, 3)).astype(np.float32)
    hue = crop - crop.mean(axis=2, keepdims=True)
    # the table's colour: the ring between a tenth of a side and the crop's edge round the blob
    near = cv2.dilate(_filled_hull(blob), cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * (pad // 3) + 1, 2 * (pad // 3) + 1))) > 0  # fmt: skip
    if (~near).sum() < 0.5 * die.side**2:
        return
    tint = np.median(hue[~near], axis=0)
    strength = float(np.linalg.norm(tint))
    if strength < TABLE_HUE:
        return
    apart = (np.linalg.norm(hue - tint, axis=2) > HUE_CUT * strength).astype(np.uint8) * 255
    apart = cv2.morphologyEx(apart | blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, comp = cv2.connectedComponents(apart, connectivity=8)
    hits = comp[(blob > 0) & (comp > 0)]
    if hits.size < 0.95 * np.count_nonzero(blob):
        return
    own = (comp == np.bincount(hits).argmax()).astype(np.uint8) * 255
    cs, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(cs, key=cv2.contourArea)
    own[:] = 0
    cv2.drawContours(own, [outline], -1, 255, -1)
    x, y, ow, oh = cv2.boundingRect(outline)
    if x <= 0 or y <= 0 or x + ow >= own.shape[1] or y + oh >= own.shape[0]:
        return  # it runs on past the crop: not a die's outline
    shape = _shape(outline)
    if not _square(shape) or shape[2] < HUE_FILL:
        return
    face = _hull_face(own, xa, ya, v)
    if face.side < RESOLVED or (typical > 0 and not SQUARE_REFIT[0] <= face.side / typical
                                <= SQUARE_REFIT[1]):  # fmt: skip
        return
    if _lit_border(v, table, own, xa, ya) > HULL_LIT:
        return
    # the notch must be explained by a glare (broad light on the face); and a glare lies on
    # this face, so a soft mark on it may be the glare's own light, not print blurred like the
    # picture (a highlight across a two-rat die joined both rats into one soft mark, read a
    # certain 1 over this outline): the face is read over it only when its marks are crisp
    f = measure_face(v, face, MIN_CONTRAST)
    if f.glare < GLARE_BROAD or (f.count > 0 and f.sharpness < MIN_SHARP):
        return
    # and what colour adds holds no mark of its own: light standing out there lies in the glare
    # that made the notch, its own peak or print under it, which nothing tells apart (blank dice
    # under a highlight at the edge read 1 over the outline; one-rat dice there read right)
    if f.count != measure_face(v, die, MIN_CONTRAST).count:
        return
    die.region, die.core, die.side = face.region, face.core, face.side
    die.x0, die.y0, die.cx, die.cy = xa, ya, face.cx, face.cy
    die.area, die.blob = float(np.count_nonzero(own)), own
    die.notes = []


def _hull_glare(filled: Any, x0: int, y0: int, v: Any) -> float:
    """The broad light (grey levels) on the top face fitted over a blob's convex hull: a
    glare that cut a notch into the blob lies in the notch, outside the blob's own face."""
    return measure_face(v, _hull_face(_filled_hull(filled), x0, y0, v), MIN_CONTRAST).glare


def _filled_hull(filled: Any) -> Any:
    """The convex hull of a blob's outline (all its contours), filled (uint8, 0 / 255)."""
    np, cv2 = _imports()
    cs, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = np.zeros_like(filled)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.vstack(cs)), 255)
    return hull


def _hull_face(hull: Any, x0: int, y0: int, v: Any, area: float = 0.0) -> _Die:
    """The die whose top face is fitted over a filled ``hull`` (blob coordinates from
    ``x0``, ``y0`` in the picture ``v``)."""
    h, w = v.shape
    region, core, side, cx, cy = _top_face(hull, x0, y0, w, h)
    return _Die(region, core, x0, y0, area, side, cx, cy)


def _outline_sharpness(v: Any, blob: Any, piece: Any, outline: Any, x0: int, y0: int,
                       step: float) -> float:
    """How steeply a die's outline rises to its table, over ``step`` (the table's level minus
    the die's wood): per pair of opposite sides, the 90th percentile of the brightness
    gradient near the points of ``piece``'s ``outline`` (its contour, every point; a die
    moving blurs the sides across its motion only), the smaller of the two. Points on the
    picture's edge and, for a die
    cut from touching dice (``blob``: their blob; None for a die alone), on the cut between
    them are left out. A Gaussian blur of sigma pixels leaves about 0.4 / sigma; the dice of
    focused renders 0.15 and up (tuning, wide8: the lowest, sides in a lamp's shadow)."""
    np, cv2 = _imports()
    h, w = v.shape
    bh, bw = piece.shape
    xa, ya = max(0, x0 - 3), max(0, y0 - 3)
    xb, yb = min(w, x0 + bw + 3), min(h, y0 + bh + 3)
    crop = v[ya:yb, xa:xb]
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    grad = cv2.dilate(cv2.magnitude(gx, gy), np.ones((5, 5), np.uint8))
    pts = outline.reshape(-1, 2)
    px, py = pts[:, 0] + x0, pts[:, 1] + y0
    keep = (px > 2) & (py > 2) & (px < w - 3) & (py < h - 3)
    if blob is not None:  # the blob's own outline: its points within 2 px of the outside
        out = cv2.dilate(cv2.copyMakeBorder(255 - blob, 3, 3, 3, 3, cv2.BORDER_CONSTANT,
                                            value=255), np.ones((5, 5), np.uint8))  # fmt: skip
        keep &= out[pts[:, 1] + 3, pts[:, 0] + 3] > 0
    vals = grad[py - ya, px - xa] / 8.0  # Sobel's kernel weighs a unit step 8
    a = math.radians(cv2.minAreaRect(pts)[2])
    rel = (pts - pts.mean(axis=0)).astype(np.float32)
    along_u = rel[:, 0] * math.cos(a) + rel[:, 1] * math.sin(a)
    along_v = rel[:, 1] * math.cos(a) - rel[:, 0] * math.sin(a)
    across = np.abs(along_u) > np.abs(along_v)  # the sides facing +-u, else +-v
    sharp = 1.0
    for pair, sign in ((across, along_u > 0), (~across, along_v > 0)):
        # a shadow softens the side away from the lamp, a motion both sides across it: the
        # sharper of two opposite sides (both seen: not the cut, not the picture's edge)
        best = -1.0
        for sides in (keep & pair & sign, keep & pair & ~sign):
            g = vals[sides]
            n = len(g)
            if n < 8:
                best = -1.0
                break
            k = 0.9 * (n - 1)  # the 90th percentile (linear, as numpy's), by a partition
            lo, hi = int(k), min(int(k) + 1, n - 1)
            g = np.partition(g, (lo, hi))
            best = max(best, float(g[lo]) + (k - lo) * float(g[hi] - g[lo]))
        if best >= 0:
            sharp = min(sharp, best / max(step, 1.0))
    return sharp


def _lit_border(v: Any, table: Any, filled: Any, x0: int, y0: int) -> float:
    """The fraction of the pixels just outside a die's blob that are much brighter than the
    table there. A die lies on the table: around it are the table, its shadow, another die.
    Light far above the table against the outline is print or a glare on a die, so the blob
    is only part of a die (on a black mat, the wood between its rats)."""
    np, cv2 = _imports()
    pad = 3
    big = cv2.copyMakeBorder(filled, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    ring = (cv2.dilate(big, np.ones((2 * pad - 1, 2 * pad - 1), np.uint8)) > 0) & (big == 0)
    ys, xs = np.nonzero(ring)
    ys, xs = ys + y0 - pad, xs + x0 - pad
    h, w = v.shape
    ok = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    if not ok.any():
        return 0.0
    ys, xs = ys[ok], xs[ok]
    level = table[ys, xs]
    bright = v[ys, xs].astype(np.float32) > level + np.maximum(LIT_ABOVE[0], LIT_ABOVE[1] * level)
    return float(bright.mean())


def _split(filled: Any, k: int) -> list[Any]:
    """A blob of ``k`` touching dice cut into ``k`` masks by k-means on its pixels, started
    from ``k`` slices along the blob's long axis: deterministic, and right at once for dice in
    a row."""
    np, cv2 = _imports()
    ys, xs = np.nonzero(filled)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    centred = pts - pts.mean(axis=0)
    _e, vecs = np.linalg.eigh(centred.T @ centred)
    along = centred @ vecs[:, -1]
    start = np.minimum((np.argsort(np.argsort(along)) * k) // len(along), k - 1)
    labels = start.astype(np.int32).reshape(-1, 1)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
    _c, labels, _centres = cv2.kmeans(pts, k, labels, crit, 1,
                                      cv2.KMEANS_USE_INITIAL_LABELS)  # fmt: skip
    groups = []
    for j in range(k):
        g = np.zeros_like(filled)
        sel = labels.ravel() == j
        g[ys[sel], xs[sel]] = 255
        groups.append(g)
    return groups


def _same_wood(v: Any, x0: int, y0: int, parts: list[Any]) -> bool:
    """Whether every part of a blob is as dark as the others (the median under each within
    ``STUB_WOOD`` grey levels of the darkest): dice of one set are one wood; a shadow, a
    board's dark square or line joined to a die is lighter."""
    np, _cv2 = _imports()
    levels = []
    for g in parts:
        ys, xs = np.nonzero(g)
        if len(xs) == 0:
            return False
        levels.append(float(np.median(v[y0 + ys, x0 + xs])))
    return max(levels) - min(levels) <= STUB_WOOD


def _find_dice(image: Any, expected_side: float = 0.0) -> tuple[list[_Die], list[str]]:
    np, cv2 = _imports()
    v = _value_channel(image)
    h, w = v.shape
    short = min(h, w)
    min_side = MIN_DIE * short
    dark, table = _dark_mask(v)
    blobs = _filled_blobs(dark, 0.5 * min_side**2, max(3, int(min_side / 4) | 1))
    notes: list[str] = []
    level = float(np.median(table))
    if level < DARK_TABLE and not blobs:
        notes.append(f"the table is dark ({level:.0f}): black dice on it may go unseen, put a "
                     "light mat or the coaster under them")  # fmt: skip
    if not blobs:
        return [], notes
    shapes = [_shape(c) for _, _, _, c in blobs]
    # the widest inscribed circle: a die's side even when dice touch in a row or an L
    inscribed = [2.0 * float(cv2.distanceTransform(m, cv2.DIST_L2, 5).max()) for m, *_ in blobs]
    def die_like(shape: tuple[float, float, float, Any, float]) -> bool:  # square, full, sized
        return _square(shape) and min_side**2 <= shape[0] <= (MAX_DIE * short) ** 2

    singles = [s[0] for s in shapes if die_like(s)]
    # a die with a glare on its varnish loses the glare's part of its blob, not its size: the
    # blob's convex hull is the die. Without a square blob, a blob whose hull is square and
    # die-sized tells a die's size better than the inscribed circles, which the notch shrinks
    # (a pair of touching dice beside a die with a glare was cut in three: every die asked)
    hulls = [
        s[0] for s in (_shape(cv2.convexHull(c)) for _, _, _, c in blobs) if die_like(s)
    ] if not singles and expected_side <= 0 else []  # fmt: skip
    if singles:
        ref_area = float(np.median(singles))
    elif expected_side > 0:
        ref_area = (expected_side * 1.08) ** 2
    elif hulls:
        ref_area = float(np.median(hulls))
    else:  # only odd shapes (touching dice): the inscribed circles tell the side
        ref_area = INSCRIBED_AREA * float(np.median(inscribed)) ** 2
    ref_side = math.sqrt(ref_area)
    # smooth every blob at the dice's scale: stubs of printed lines and ragged dim edges go,
    # a die's rounded corners stay
    r = max(1, int(round(SMOOTH * ref_side)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    smoothed = []
    for m, x0, y0, _c in blobs:
        m2 = cv2.morphologyEx(m, cv2.MORPH_OPEN, disk)
        cs, _ = cv2.findContours(m2, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cs:
            continue
        best = max(cs, key=cv2.contourArea)
        m2[:] = 0
        cv2.drawContours(m2, [best], -1, 255, -1)
        smoothed.append((m2, x0, y0, best + np.array([x0, y0])))
    blobs = smoothed
    shapes = [_shape(c) for _, _, _, c in blobs]
    dice: list[_Die] = []
    not_square: list[tuple[_Die, Any]] = []
    notched: list[tuple[_Die, Any]] = []
    for (filled, x0, y0, _contour), (area, aspect, fill, _rect, _ang) in zip(
        blobs, shapes, strict=True
    ):
        if area < 0.3 * ref_area or area < min_side**2 * 0.6:
            continue  # a small dark thing (a shadow's corner, a line): not a die
        k = int(round(area / ref_area))
        bh, bw = filled.shape
        border = x0 <= 1 or y0 <= 1 or x0 + bw >= w - 1 or y0 + bh >= h - 1
        groups = [filled] if k <= 1 else _split(filled, k)
        pieces: list[_Die] = []  # the dice cut from this blob
        angles: list[float] = []  # and the angles of their outlines (touching dice only)
        if k == 1 and area > LARGER * ref_area and aspect >= TWO_ASPECT:
            # twice as long as wide and bigger than a die: two dice side by side. The typical
            # die's area includes the side faces the clean dice show, which grow with their
            # distance from the picture's centre; two dice near the centre show little of
            # theirs, and their blob reads 1.4-1.5 dice. Both halves must be wood as dark (a
            # die's shadow joined to it is lighter); each is then judged as a die cut from
            # touching dice (its size against the typical die's included)
            pair = _split(filled, 2)
            if _same_wood(v, x0, y0, pair):
                k, groups = 2, pair
        for g in groups:
            ys, xs = np.nonzero(g)
            if len(xs) == 0:
                continue
            if len(xs) < 0.6 * min_side**2:
                continue
            g = _broken_holes(g, ref_side)
            region, core, side, cx, cy, lean = _fit_top_face(g, x0, y0, w, h)
            if side < min_side:
                continue
            die = _Die(region, core, x0, y0, float(len(xs)), side, cx, cy, lean=lean, blob=g)
            # the side faces a die shows towards the picture's centre grow with its distance
            # from it (the die's height seen from the camera: none at the centre); a blob
            # that needs more to be one die is a die and something dark joined to it (a
            # round token beside a die near the centre: the top face was fitted over the
            # token, and the die read a certain 0 for a 1)
            most = side * (LEAN_FIT + math.hypot(cx - w / 2, cy - h / 2) / (CAMERA_HEIGHT * short))
            if lean > most:
                die.notes.append(f"the die's outline reaches {lean / side:.2f} of its side "
                                 f"towards the picture's centre, at most {most / side:.2f} "
                                 "here: joined to something dark that may lie over it")  # fmt: skip
            if k >= 2:  # where the region's edge is k-means' cut, not the dice's outline
                e = max(1, int(round(EDGE_IN * side)))
                disk_e = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * e + 1, 2 * e + 1))
                die.outer = cv2.erode(filled, disk_e, borderType=cv2.BORDER_CONSTANT,
                                      borderValue=0)  # fmt: skip
            # a notch in the outline: something light cuts into the die (a mark reaching the
            # edge, a finger, a card): what is in it is not looked at, so ask
            cs, _ = cv2.findContours(g, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            hull = cv2.contourArea(cv2.convexHull(np.vstack(cs)))
            notch = (hull - float(cv2.contourArea(max(cs, key=cv2.contourArea)))) / max(hull, 1.0)
            die.notch = notch
            if notch > MAX_NOTCH:
                die.notes.append(f"a notch in the die's outline ({notch:.2f})")
                # (a die cut from touching dice too: a glare on it cuts its outline the same)
                notched.append((die, g))
            if border:
                die.notes.append("die cut by the picture's edge")
            level = float(table[min(h - 1, max(0, int(cy))), min(w - 1, max(0, int(cx)))])
            gy, gx = np.nonzero(g)
            wood = float(np.median(v[y0 + gy, x0 + gx]))
            if level - wood < MIN_TABLE_DROP or wood > 0.4 * level:
                die.notes.append(f"dark table ({level:.0f} vs die {wood:.0f}): the die barely "
                                 "stands out")  # fmt: skip
            full, _ = cv2.findContours(g, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            outline = max(full, key=cv2.contourArea)
            blur = _outline_sharpness(v, filled if k >= 2 else None, g, outline, x0, y0,
                                      level - wood)  # fmt: skip
            if blur < BLURRED:
                die.notes.append(f"the die's outline is blurred ({blur:.2f}): out of focus or "
                                 "moving, its print may be blurred too faint")  # fmt: skip
            lit = _lit_border(v, table, g, x0, y0)
            if lit > LIT_BORDER:
                die.notes.append(f"light around the die ({lit:.2f} of its outline): only part "
                                 "of a die, between its marks?")  # fmt: skip
            if k <= 1 and (aspect > SQUARE_ASPECT or fill < SQUARE_FILL):
                die.notes.append(f"die not square (aspect {aspect:.2f}, fill {fill:.2f})")
                not_square.append((die, g))
            if k <= 1 and area < 0.7 * ref_area:
                die.notes.append(f"die smaller than the others ({area / ref_area:.2f})")
            if k <= 1 and area > LARGER * ref_area:
                die.notes.append(f"die larger than the others ({area / ref_area:.2f})")
            if k >= 2:
                ratio = area / (k * ref_area)
                if not 0.68 <= ratio <= 1.25:
                    die.notes.append(f"{k} touching dice of odd size ({ratio:.2f})")
                # and each die cut out of them must be die-sized itself: a piece is a bad cut
                # (part of a die, or parts of two), whose marks cannot be trusted
                piece = side / ref_side
                if not PIECE[0] <= piece <= PIECE[1]:
                    die.notes.append(f"a die cut from touching dice of odd size ({piece:.2f})")
                # and square, as a die alone must be: a piece of another shape is not a die
                # (its hull: a glare's notch in a die's outline does not make it less square)
                p_shape = _shape(cv2.convexHull(np.vstack(cs)))
                if not _square(p_shape):
                    die.notes.append(f"a die cut from touching dice not square (aspect "
                                     f"{p_shape[1]:.2f}, fill {p_shape[2]:.2f})")  # fmt: skip
                # and whole: a die touching another shows a die's outline all round. A notch
                # in a piece is light lying over the die (a glare on its varnish: broad light
                # on its face) or the piece is no die (a dark thing narrower than a die lying
                # along it: a pen, a bar over a die off the picture's centre, cut as a second
                # die whose outline steps where the thing meets the die). On a die of RESOLVED
                # pixels and more: on a smaller one print loses its margin in the blur and
                # notches the outline itself
                if (notch > MAX_NOTCH and side >= RESOLVED
                        and _hull_glare(g, x0, y0, v) < GLARE_BROAD):
                    die.notes.append(f"{NOT_A_PIECE} with a notch no glare explains "
                                     f"({notch:.2f})")  # fmt: skip
                angles.append(_die_angle(outline))
            dice.append(die)
            pieces.append(die)
        turn = max((min(abs(a - b) % 90, 90 - abs(a - b) % 90) for a in angles for b in angles),
                   default=0.0)  # fmt: skip
        if turn > FACE_TO_FACE:
            # touching dice lie face against face, their edges parallel; pieces whose edges
            # run at other angles are a die and something else lying across it (a card, a
            # token turned to it): the cut between them is no face, and each may be covered
            for d in pieces:
                d.notes.append(f"{NOT_A_PIECE} at {turn:.0f} degrees to another: not face "
                               "against face")  # fmt: skip
        if any(n.startswith(NOT_A_PIECE) for d in pieces for n in d.notes):
            # a piece of touching dice that is no die (odd size or shape) is something else
            # dark joined to the dice: a black token, a pen, a sleeve. It may lie over the
            # others' faces too (their blob then looks like touching dice, and the covered part
            # of a face like bare wood): every die cut from the blob is asked
            for d in pieces:
                if not any(n.startswith(NOT_A_PIECE) for n in d.notes):
                    d.notes.append("joined to something dark that is not a die: it may lie "
                                   "over this die")  # fmt: skip
    clean = sorted(d.side for d in dice if not d.notes)
    typical = clean[len(clean) // 2] if clean else 0.0  # the clean dice's side (0: none)
    # how far the side faces show, per pixel from the picture's centre (the camera's
    # geometry: the same for every die of a picture), from the clean dice
    rates = sorted(
        d.lean / r for d in dice if not d.notes
        for r in [math.hypot(d.cx - w / 2, d.cy - h / 2)] if r > 0.1 * short
    )  # fmt: skip
    rate = rates[len(rates) // 2] if rates else 0.0
    own_rates = [(d, d.lean / r) for d in dice if not d.notes
                 for r in [math.hypot(d.cx - w / 2, d.cy - h / 2)] if r > 0.1 * short]  # fmt: skip
    for die, g in not_square:
        if len(die.notes) != 1:  # only "not square": no notch, odd size, edge, dark table
            continue
        if clean:
            _refit_square(die, g, typical, v, rate, (w / 2, h / 2))
            continue
        # no clean die to say how big a face is: the part of the blob as dark as the die's
        # wood, if it is square, is the die (a board's coloured square or a shadow joined to
        # it is lighter), and says it
        own = _wood_square(die, g, v)
        if own > 0:
            _refit_square(die, g, own, v)
    for die, g in notched:
        # a notch (with the blob not square or small because of it) and nothing else
        if all(n.startswith(HULL_DOUBTS) for n in die.notes):
            if clean:
                _refit_hull(die, g, typical, v, table)
            if die.notes:
                _refit_colour(die, g, typical, image, v, table)
            if (clean and die.side >= RESOLVED and len(die.notes) == 2
                    and die.notes[1].startswith("die not square")):  # fmt: skip
                # a notch and a blob not square, no glare to explain them: a thin dark thing
                # joined to the die (a board's line) leaves a bay between it and the die. Read
                # as a blob not square is, from the largest square in it, when that square is a
                # clean die's face (light cutting into the face leaves none that big) and what
                # sticks out is not thick and dark. On a die of RESOLVED pixels and more: on a
                # smaller one print near the edge loses its margin in the blur and is a bay too
                _refit_square(die, g, typical, v, rate, (w / 2, h / 2))
    # on a dark mat, once one die barely stands out from it, what is found there may be
    # pieces of dice (the darkest wood between a die's marks) as well as dice: the same dice
    # lie on the same mat, so every die found in the picture is asked (dark set, seed
    # 1 000 522: a piece of wood beside a die's rat read as a certain blank die)
    # (after the square refit, which clears a refitted die's notes). On a black mat the same
    # holds once any die there has an outline in doubt (a notch, odd size or shape: pieces of
    # dice are found as notched or odd pieces as often as faint ones; wide dark seeds
    # 4 002 191 and 4 002 196: a piece of wood read a certain 0, a two-rat die found as its
    # one-rat half a certain 1). Not on a table only dimly lit (the dice stand out whole there,
    # and small dice are often in doubt: every die of such a picture would be asked)
    faint = [d for d in dice if any(n.startswith("dark table") for n in d.notes)]
    doubt = [d for d in dice if any(not n.startswith(PIECES_FINE) for n in d.notes)]
    mat = float(np.median(table)) if faint or doubt else 255.0  # (a median costs ~1 ms)
    if (faint and mat < DARK_TABLE) or (doubt and mat < BLACK_MAT):
        for die in dice:
            if not die.notes:
                die.notes.append("dark mat: another die here is in doubt, this may be part of "
                                 "a die")  # fmt: skip
    for die in dice:
        # the side faces this die may show, from the other clean dice (its own fit left out:
        # a line joined to it makes its fitted side faces wider), with LEAN_MARGIN's margin
        others = sorted(q for d, q in own_rates if d is not die)
        if others:
            far = math.hypot(die.cx - w / 2, die.cy - h / 2)
            die.lean_max = LEAN_MARGIN * others[len(others) // 2] * far + 2.0
    dice.sort(key=lambda d: (d.cy, d.cx))
    return dice, notes


def _own_face(v: Any, die: _Die, f: FaceFeatures, min_contrast: float
              ) -> tuple[_Die, FaceFeatures]:  # fmt: skip
    """(die, its face's features) with the top face fitted again to the part of its blob as
    dark as its wood, when rat-sized light lies along the outline of the face first fitted.

    A board's black line, a dark square's strip or the die's shadow joined to a die makes
    its blob wider on one side; the top face is fitted towards it (the fit takes the extra
    width for side faces showing, and moves the face outwards): the die's own lit rim, or
    the table past it, then lies inside the fitted face, along its outline, as big and crisp
    as print. What is joined is lighter than the die's wood (a coloured
    square, a shadow on the table) or thin (a line, opened away): the part as dark as the
    wood is the die. Its face, when square and about as big, is measured instead; the first
    face is kept when that part is not square or not the die's size, and the new face is
    asked the same way when light still lies along its outline. Only for a die whose first
    fit shows more side faces than the other clean dice say it may (``lean_max``): the
    joined thing was taken for side faces."""
    np, cv2 = _imports()
    g = die.blob
    if g is None or die.outer is not None:
        return die, f
    found = _wood_part(die, g, v)
    if found is None:
        return die, f
    part, best = found
    h, w = v.shape
    _region, _core, side, cx, cy, lean = _fit_top_face(part, die.x0, die.y0, w, h)
    if not OWN_SIDE[0] <= side / die.side <= OWN_SIDE[1]:
        return die, f
    # only the face is fitted to the part: the marks are still looked for in the whole die
    # (print near the outline is light, so it is not in the part; cut off with it, it would
    # be lost silently)
    inner = side * (1 - 2 * RIM)
    box = cv2.boxPoints(((cx - die.x0, cy - die.y0), (inner, inner), _die_angle(best)))
    core = np.zeros_like(die.region)
    cv2.fillConvexPoly(core, np.round(box * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    own = _Die(die.region, core & die.region, die.x0, die.y0, die.area, side, cx, cy,
               lean=lean, blob=g)  # fmt: skip
    return own, measure_face(v, own, min_contrast)


# -- measuring a face ------------------------------------------------------------------------
def _hu(mask: Any) -> tuple[float, float]:
    np, cv2 = _imports()
    m = cv2.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        return BLANK_HU
    hu = cv2.HuMoments(m).ravel()
    return (
        float(-math.copysign(1.0, hu[0]) * math.log10(abs(hu[0]) + 1e-12)),
        float(-math.copysign(1.0, hu[1]) * math.log10(abs(hu[1]) + 1e-12)),
    )


@dataclass(frozen=True)
class _Mark:
    label: int
    area: float  # pixels
    inner: float  # fraction of it inside the top face's core
    thick: float  # half its thickness (largest inscribed circle's radius), pixels
    length: float  # its longest extent (min-area rectangle's long side), pixels
    sharp: float  # its area above 3/4 of its height over that above 1/4: print ~0.6, glare ~0.2
    edge: float = 0.0  # fraction of it on the die region's very edge
    cut: float = 0.0  # fraction of it on the line that splits touching dice
    reach: float = 1.0  # how deep it reaches into the die from the region's edge, of the side
    light: Any = field(default=None, compare=False)  # its pixels' top-hat values (grey levels)


def _marks(v: Any, die: _Die, min_contrast: float, skip: Any = None
           ) -> tuple[float, float, Any, list[_Mark], Any]:  # fmt: skip
    """(contrast, glare, component labels, light marks of meaningful size, top-hat) on a face.

    The marks are what stands out of the face by a white top-hat (the face minus its
    morphological opening, which keeps broad light such as a glare on the varnish and drops
    the thin print), cut at half the brightest marks' height. ``skip`` (bool, the region's
    crop): light known not to be print, left out of that height."""
    np, cv2 = _imports()
    inside = die.region > 0
    if int(inside.sum()) < 16:
        return 0.0, 0.0, None, [], None
    rh, rw = die.region.shape
    wood, flat = _flat_face(v, die)
    tophat = flat.astype(np.float32) - _opening(flat, TOPHAT * die.side).astype(np.float32)
    # measured on the top face's core only: the lighter rim and lit side faces stay out
    face = (die.core > 0) if die.core.any() else inside
    # broad light: what survives an opening narrower than a glare but wider than a rat's body
    mid = _opening(flat, GLARE_DISK * die.side)
    glare = float(np.percentile(mid[face], 99.5)) - wood
    if skip is not None and (face & ~skip).any():
        face = face & ~skip
    contrast = float(np.percentile(tophat[face], 99.5))
    if contrast < min_contrast:
        return contrast, glare, None, [], tophat
    binary = ((tophat > 0.5 * contrast) & inside).astype(np.uint8)
    n, labels, stats, _c = cv2.connectedComponentsWithStats(binary, connectivity=8)
    core = die.core > 0
    min_px = max(3.0, MARK_MIN * die.side**2)
    depth = cv2.distanceTransform(die.region, cv2.DIST_L2, 3)
    if die.outer is not None:
        outer = cv2.distanceTransform(die.outer, cv2.DIST_L2, 3)
        split_line = (depth < 1.5) & (outer >= 1.5)
    else:
        split_line = np.zeros(depth.shape, bool)
    out = []
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area < min_px:
            continue
        x, y, bw, bh = (int(t) for t in stats[i, :4])
        own = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
        inner = float(core[y : y + bh, x : x + bw][own > 0].sum()) / area
        thick = float(cv2.distanceTransform(np.pad(own, 1), cv2.DIST_L2, 3).max())
        ys, xs = np.nonzero(own)
        _ctr, (ra, rb), _a = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
        pad = max(2, int(0.06 * die.side))
        ya, yb = max(0, y - pad), min(rh, y + bh + pad)
        xa, xb = max(0, x - pad), min(rw, x + bw + pad)
        th = np.where(inside[ya:yb, xa:xb], tophat[ya:yb, xa:xb], 0)
        height = float(tophat[y : y + bh, x : x + bw][own > 0].max())
        sharp = float((th > 0.75 * height).sum()) / max(1.0, float((th > 0.25 * height).sum()))
        own_depth = depth[y : y + bh, x : x + bw][own > 0]
        edge = float((own_depth < 1.5).sum()) / area
        cut = float(split_line[y : y + bh, x : x + bw][own > 0].sum()) / area
        reach = float(own_depth.max()) / die.side
        light = tophat[y : y + bh, x : x + bw][own > 0]
        out.append(_Mark(i, area, inner, thick, max(ra, rb, 1.0), sharp, edge, cut, reach,
                         light))  # fmt: skip
    out.sort(key=lambda m: -m.area)
    return contrast, glare, labels, out, tophat


def _flat_face(v: Any, die: _Die) -> tuple[float, Any]:
    """(the wood's level: the median of the die's core in ``v``, else of its region; the
    die's crop of ``v`` with everything off its region set to that level)."""
    np, _cv2 = _imports()
    rh, rw = die.region.shape
    crop = v[die.y0 : die.y0 + rh, die.x0 : die.x0 + rw]
    inside = die.region > 0
    wood = float(np.median(crop[die.core > 0] if die.core.any() else crop[inside]))
    flat = np.where(inside, crop, np.uint8(min(255.0, wood))).astype(np.uint8)
    return wood, flat


def _opening(flat: Any, width: float) -> Any:
    """``flat`` opened by a disc about ``width`` pixels across (odd, at least 3)."""
    _np, cv2 = _imports()
    k = max(3, int(round(width)) | 1)
    return cv2.morphologyEx(flat, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))  # fmt: skip


def _is_rim(m: _Mark, side: float) -> bool:
    """Light that is not print: mostly outside the top face (the top's lighter rounded rim,
    a lit side face), or a thin long sliver."""
    return m.inner < MIN_INNER or (m.thick < RIM_THICK * side and m.length > 6 * m.thick)


def _along_outline(m: _Mark) -> bool:
    """Light that runs into the die's outline and stays in a band along it: the top's rounded
    rim or bevel catching the light, or a lit side face. Print keeps a margin from a die's
    edges and a rat's body reaches far into the face, so neither does this. Light lying
    mostly on the line that splits touching dice is not dropped (that line is a guess: it
    may cut a rat in two)."""
    return m.edge - m.cut > EDGE_MAX and m.cut < m.edge - m.cut and m.reach < OUTLINE_REACH


def _runs_out(v: Any, die: _Die, labels: Any, m: _Mark) -> bool:
    """Light that stays bright out to the die's outline: no dark wood between it and the edge.

    Printed marks keep a margin of bare wood from a die's edges, so across the outline their
    light falls back to the wood before the edge; a lit bevel brightens towards the edge and
    the table (or another die's lit side) carries on past it. From every pixel where the
    mark touches the region's edge, the brightness is sampled outwards (along the region's
    normal) to just past the die's outline (``EDGE_IN`` of the side plus 2 pixels); where it
    stays above ``RUNS_OUT`` of the mark's peak over the wood on three rays in four (the
    marks' own cut is at half their height), the light runs out. A dark side face beyond a
    lit rim keeps its light as it was (asked when rat-sized and crisp)."""
    np, cv2 = _imports()
    rh, rw = die.region.shape
    crop = v[die.y0 : die.y0 + rh, die.x0 : die.x0 + rw]
    inside = die.region > 0
    wood = float(np.median(crop[die.core > 0] if die.core.any() else crop[inside]))
    own = labels == m.label
    peak = float(crop[own].max()) - wood
    depth = cv2.distanceTransform(die.region, cv2.DIST_L2, 3)
    ey, ex = np.nonzero(own & (depth < 1.5))
    if peak <= 0 or len(ex) == 0:
        return False
    smooth = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), max(1.0, EDGE_IN * die.side))
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)[ey, ex]
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)[ey, ex]
    norm = np.hypot(gx, gy)
    ok = norm > 1e-6
    if not ok.any():
        return False
    nx, ny = -gx[ok] / norm[ok], -gy[ok] / norm[ok]  # outwards
    ts = np.arange(0.0, EDGE_IN * die.side + 2.0 + 1e-6, 0.5, dtype=np.float32)
    mx = (die.x0 + ex[ok]).astype(np.float32)[:, None] + nx[:, None] * ts[None]
    my = (die.y0 + ey[ok]).astype(np.float32)[:, None] + ny[:, None] * ts[None]
    profile = cv2.remap(v, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)  # fmt: skip
    dip = (profile.min(axis=1) - wood) / peak
    return float(np.percentile(dip, 25)) >= RUNS_OUT


def _looks_printed(m: _Mark, side: float) -> bool:
    """Light along the outline as big as a rat and as crisp as print: a rat whose die
    outline was found too small would look like this, so it is not dropped silently."""
    return m.area >= OUTLINE_PRINT[0] * side**2 and m.sharp >= OUTLINE_PRINT[1]


def _soft_pair(rats: list[_Mark], side: float) -> tuple[float, float] | None:
    """Two marks, one soft and one crisp print: (their areas, of the face) with the soft one
    measured as print under a glare, else None.

    A glare on the varnish over a rat lifts the rat and the wood around it: the mark cut at
    half the face's contrast takes in the glare's halo, and its softness is the glare's. The
    print itself stands above that glare by the print's own height, which the crisp rat
    shows (same ink, same face): the soft mark's print is what lies above its peak less half
    the crisp rat's height. Only on dice of ``RESOLVED`` pixels and more (below, all print is
    soft)."""
    if len(rats) != 2 or side < RESOLVED:
        return None
    soft, crisp = sorted(rats, key=lambda m: m.sharp)
    if soft.sharp >= MIN_SHARP or crisp.sharp < PAIR_SHARP:
        return None
    cut = float(soft.light.max()) - 0.5 * float(crisp.light.max())
    face = side**2
    return float((soft.light > cut).sum()) / face, crisp.area / face


def _hidden(tophat: Any, die: _Die, labels: Any, known: list[_Mark], contrast: float,
            min_contrast: float, skip: Any = None) -> float:  # fmt: skip
    """The largest light on the face's core standing above ``HIDDEN_CUT`` of the marks'
    height and touching none of the ``known`` marks (of the face's area).

    Print of one ink stands about as high above the wood everywhere on a face; the marks are
    cut at half the brightest one's height. A glare lifting one rat of a pair (or a shadow or
    wear dimming the other) can put the second rat's peak at or under that cut: it is then
    lost or left as a speck, and the face reads a lone rat. At a quarter of the height it
    stands out again, as big as one of two rats (a lone rat's face shows no such light).
    Light reaching the region's edge or staying in a band along it (reaching less than
    ``OUTLINE_REACH`` into the die) is left to the outline rules, and light whose peak does
    not reach ``min_contrast`` (what marks need to count at all) is the wood's grain or noise:
    on faint print a quarter of the height lies in it."""
    np, cv2 = _imports()
    if tophat is None or labels is None or not known:
        return 0.0
    core = die.core > 0 if die.core.any() else die.region > 0
    low = ((tophat > HIDDEN_CUT * contrast) & core).astype(np.uint8)
    n, comp, stats, _c = cv2.connectedComponentsWithStats(low, connectivity=8)
    if n <= 1:
        return 0.0
    # light reaching the region's edge is the table, rim or a side face (the outline rules
    # judge it): print keeps a margin from the die's edges
    depth = cv2.distanceTransform(die.region, cv2.DIST_L2, 3)
    near = np.isin(labels, [m.label for m in known]) | (depth < 1.5)
    if skip is not None:
        near |= skip  # light left out as running out to the outline
    touched = np.unique(comp[near & (comp > 0)])
    areas = stats[1:, cv2.CC_STAT_AREA].astype(float)
    areas[touched - 1] = 0.0
    peaks = np.zeros(n, np.float32)
    np.maximum.at(peaks, comp[comp > 0], tophat[comp > 0])
    areas[peaks[1:] < min_contrast] = 0.0
    # light in a band along the outline is rim (a rat's body reaches deeper: _along_outline)
    reach = np.zeros(n, np.float32)
    np.maximum.at(reach, comp[comp > 0], depth[comp > 0])
    areas[reach[1:] < OUTLINE_REACH * die.side] = 0.0
    return float(areas.max()) / die.side**2


def _joined(tophat: Any, die: _Die, labels: Any, rats: list[_Mark]) -> float:
    """The highest cut, of the dimmer of the two largest marks' peak (0.9, 0.8, 0.7, 0.6,
    0.45), at which the two are one piece of light; 0 when they stay apart down to 0.45."""
    np, cv2 = _imports()
    inside = die.region > 0
    a = labels == rats[0].label
    b = labels == rats[1].label
    dimmer = min(float(tophat[a].max()), float(tophat[b].max()))
    for frac in (0.9, 0.8, 0.7, JOINED, JOINED_CLOSE):
        low = ((tophat > frac * dimmer) & inside).astype(np.uint8)
        _n, comp = cv2.connectedComponents(low, connectivity=8)
        if np.setdiff1d(np.intersect1d(comp[a], comp[b]), [0]).size:
            return frac
    return 0.0


def _narrow_tophat(v: Any, die: _Die) -> tuple[Any, float] | None:
    """(light narrower than ``GLARE_DISK`` of the side on the die's region, its 99.5th
    percentile on the top face's core): the print alone, a glare's broad light left out."""
    np, _cv2 = _imports()
    face = die.core > 0
    if not face.any():
        return None
    _wood, flat = _flat_face(v, die)
    narrow = flat.astype(np.float32) - _opening(flat, GLARE_DISK * die.side).astype(np.float32)
    return narrow, float(np.percentile(narrow[face], 99.5))


def _pair_under_glare(die: _Die, labels: Any, rats: list[_Mark], print_only: tuple[Any, float]
                      ) -> tuple[float, float] | None:  # fmt: skip
    """Two marks on a face with broad light: (their areas, of the face) measured on the light
    narrower than ``GLARE_DISK``, else None.

    A glare on the varnish lifts the rat under it and the wood around it; cut at half the
    face's contrast, that rat takes in the glare's halo and the other rat, not lifted, is cut
    near its own peak: the pair looks unbalanced ("second mark in between"). The glare is
    broader than a rat's body, so what stands out of an opening of ``GLARE_DISK`` of the
    side is the print alone, both rats at the ink's own height. Each of the two marks must be
    found again there, as a piece of its own (else None: the face is judged as measured).
    ``print_only``: :func:`_narrow_tophat`'s answer for the die."""
    np, cv2 = _imports()
    narrow, contrast = print_only
    binary = ((narrow > 0.5 * contrast) & (die.region > 0)).astype(np.uint8)
    n, comp, stats, _c = cv2.connectedComponentsWithStats(binary, connectivity=8)
    found = []
    for m in rats:
        hits = comp[(labels == m.label) & (comp > 0)]
        if hits.size == 0:
            return None
        found.append(int(np.bincount(hits).argmax()))
    if found[0] == found[1]:
        return None
    a, b = (float(stats[i, cv2.CC_STAT_AREA]) / die.side**2 for i in found)
    return a, b


def _split_higher(tophat: Any, labels: Any, m: _Mark, face_area: float) -> float:
    """The best balance (smaller over larger) of the two largest pieces a mark falls into when
    its own light is cut again at ``SPLIT_CUTS`` of its peak, both pieces at least
    ``PAIR_AREA[0]`` of the face; 0 when it stays one piece (or leaves only specks).

    A glare on the varnish lying between the two rats of a two-rat face lifts the wood between
    them to half the print's height or more: cut at half the marks' height, the two rats and
    the light between them are one mark, as big as one rat. Higher up only print stands: the two
    rats, of one ink and one size, are two pieces of one size again."""
    np, cv2 = _imports()
    own = labels == m.label
    peak = float(tophat[own].max())
    best = 0.0
    for frac in SPLIT_CUTS:
        high = ((tophat > frac * peak) & own).astype(np.uint8)
        n, _comp, stats, _c = cv2.connectedComponentsWithStats(high, connectivity=8)
        if n < 3:
            continue
        a = sorted((float(x) for x in stats[1:, cv2.CC_STAT_AREA]), reverse=True)
        if a[1] >= PAIR_AREA[0] * face_area:
            best = max(best, a[1] / a[0])
    return best


def _specks(rats: list[_Mark], face_area: float, shine: bool) -> list[_Mark]:
    """The marks beyond the two largest when every one of them is a speck beside a pair of
    rats, else none: a die shows two rats at the most, so a third piece of light is part of a
    rat or not print. A speck is smaller than the smallest rat of a pair (``PAIR_AREA[0]`` of
    the face: a thin tail the cut at half the marks' height broke off its rat, dust), or, on a
    face with broad light, round and standing under ``SPECK_PEAK`` of the dimmer rat's peak
    (print of one ink stands as high everywhere on a face: that is the glare's own peak,
    which the top-hat leaves crisp). The two largest are then judged as a pair with every
    check of a pair (size, balance, gap, join, shape, sharpness)."""
    if len(rats) < 3:
        return []
    dimmer = min(float(m.light.max()) for m in rats[:2])
    extra = rats[2:]
    for m in extra:
        small = m.area < PAIR_AREA[0] * face_area
        if not (small or (shine and _is_round(m) and float(m.light.max()) < SPECK_PEAK * dimmer)):
            return []
    return extra


def _off_face(found: list[_Mark], side: float, contrast: float) -> float:
    """The deepest reach (of the side) of light left out as lying mostly off the top face's
    core (not a thin sliver) that looks printed (as big as one of two rats, as crisp as print,
    standing ``PRINT_PEAK`` of the marks' height) and reaches ``OFF_FACE_REACH`` of the side
    or more into the die; 0 when there is none.

    The core is where the face was fitted in the die's blob; light off it is a lit rim or a
    side face, and those lie along the outline. Print reaching deep into the blob yet off the
    core means the face was fitted off the die's own face: the blob took in something dark
    joined to the die (a board's printed line, a shadow) on the side away from the picture's
    centre, the fit took it for the side faces a die shows there and moved the face onto it,
    and a rat of the face was left out (blind15 13 000 402, small set: a two-rat die on a
    board's line read a certain 1)."""
    thin = [m for m in found if m.thick < RIM_THICK * side and m.length > 6 * m.thick]
    return max((m.reach for m in found
                if m.inner < MIN_INNER and m not in thin and m.reach >= OFF_FACE_REACH
                and _looks_printed(m, side) and float(m.light.max()) >= PRINT_PEAK * contrast),
               default=0.0)  # fmt: skip


def _spread(tophat: Any, die: _Die, labels: Any, m: _Mark) -> float:
    """How much a mark grows when its own light is cut at ``HUMP_CUT`` of its peak instead of
    half of it: the area of the piece of light holding its peak above each cut (within
    ``HUMP_REACH`` of the side of the mark, other marks' pixels left out), the lower over the
    higher."""
    np, cv2 = _imports()
    own = labels == m.label
    height = float(tophat[own].max())
    ys, xs = np.nonzero(own)
    pad = max(2, int(math.ceil(HUMP_REACH * die.side)) + 1)
    rh, rw = labels.shape
    ya, yb = max(0, int(ys.min()) - pad), min(rh, int(ys.max()) + pad + 1)
    xa, xb = max(0, int(xs.min()) - pad), min(rw, int(xs.max()) + pad + 1)
    th = tophat[ya:yb, xa:xb]
    lab = labels[ya:yb, xa:xb]
    mine = (lab == m.label).astype(np.uint8)
    k = 2 * max(1, int(round(HUMP_REACH * die.side))) + 1
    near = cv2.dilate(mine, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    allowed = near & (die.region[ya:yb, xa:xb] > 0) & ((lab == 0) | (lab == m.label))
    peak_at = np.unravel_index(int(np.argmax(np.where(mine > 0, th, -1.0))), th.shape)
    areas = []
    for frac in (0.5, HUMP_CUT):
        light = ((th > frac * height) & allowed).astype(np.uint8)
        _n, comp = cv2.connectedComponents(light, connectivity=8)
        areas.append(float((comp == comp[peak_at]).sum()))
    return areas[1] / max(1.0, areas[0])


def _solidity(labels: Any, m: _Mark) -> float:
    """A mark's area over its convex hull's (the hull's own pixels counted: a filled convex
    shape ~0.9-1)."""
    np, cv2 = _imports()
    ys, xs = np.nonzero(labels == m.label)
    hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
    return m.area / max(1.0, cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + 1.0)


def _is_highlight(tophat: Any, die: _Die, labels: Any, m: _Mark) -> bool:
    """A specular highlight on the varnish, not print: soft (``HUMP_SHARP``), convex
    (``HUMP_SOLID``) and a smooth hump (``HUMP_SPREAD``).

    A highlight is the reflection of a light (a window's bars, a strip light) in the varnish:
    narrow or elongated, it is not broad enough for the glare tests (light surviving an
    opening of ``GLARE_DISK``) nor round enough for :func:`_is_glare`, and it is as long as a
    rat. But its light is a smooth hump: it rises steadily to one peak (a Gaussian's area
    above 3/4 of its peak is 0.21 of that above 1/4) and it grows as it is cut lower (at 0.35
    of its peak, 1.5 times its area at half of it), and its outline is an ellipse. Print is
    ink: a plateau ending at a crisp edge (it hardly grows when cut lower, even worn: its
    faded patches keep its outline) in a rat's silhouette, with ears, feet and a tail
    (concave). A rat under a glare takes in the glare's halo and grows too, but keeps its
    silhouette or its crisp plateau. Two highlights crossing (the bars of a window) make a
    mark of no convex outline; with almost no plateau (``HUMP_FLAT[0]``) and more than twice
    its area when cut lower (``HUMP_FLAT[1]``: the light rises slowly over a wide area) it
    has no ink's edge anywhere: a highlight too."""
    if m.sharp >= HUMP_SHARP:
        return False
    if _solidity(labels, m) >= HUMP_SOLID:
        return _spread(tophat, die, labels, m) >= HUMP_SPREAD
    return m.sharp < HUMP_FLAT[0] and _spread(tophat, die, labels, m) >= HUMP_FLAT[1]


def _is_glare(m: _Mark) -> bool:
    """A round light spot with soft edges: a glare on the varnish, not print."""
    return m.sharp <= GLARE_SHARP and _is_round(m)


def _is_round(m: _Mark) -> bool:
    """A mark not elongated enough for a rat's body: a spot."""
    return m.length < MIN_ELONGATION * 2 * m.thick


def measure_face(v: Any, die: _Die, min_contrast: float = MIN_CONTRAST) -> FaceFeatures:
    """The marks on one die's top face (``v``: the picture's brightness, uint8)."""
    np, cv2 = _imports()
    face_area = die.side**2
    contrast, glare, labels, found, tophat = _marks(v, die, min_contrast)
    comps = [m for m in found if not _is_rim(m, die.side)]
    # light along the outline is rim, not print (on a die of RESOLVED pixels and more: on a
    # smaller one print's margin from the edge, ~5 % of the side, is lost in the blur)
    outline = [m for m in comps if _along_outline(m)] if die.side >= RESOLVED else []
    # light that runs out to the outline (no dark wood before the edge) is not print at all:
    # it must not set the marks' height either (a strip of lit table inside a die's outline
    # can outshine faint print, which then falls under the cut), so the face is measured
    # again without it
    gone = [m for m in outline if _runs_out(v, die, labels, m)]
    # the same for light mostly off the top face's core that sets the marks' height: lit
    # table seen inside the outline where the face's fit is off (a board's square beside a
    # die whose blob took in a dark line) outshines faint print as well
    if die.side >= RESOLVED:
        gone += [m for m in found if _is_rim(m, die.side) and _along_outline(m)
                 and float(m.light.max()) >= contrast and _runs_out(v, die, labels, m)]
    skip = None
    if gone:
        skip = cv2.dilate(np.isin(labels, [m.label for m in gone]).astype(np.uint8),
                          np.ones((3, 3), np.uint8)) > 0  # fmt: skip
        contrast, glare, labels, found, tophat = _marks(v, die, min_contrast, skip)
        comps = [m for m in found if not _is_rim(m, die.side)]
        outline, gone = [], []
        for m in comps:
            if not _along_outline(m):
                continue
            own = labels == m.label
            inside = float(skip[own].mean())
            (gone if inside >= 0.5 else outline).append(m)
            if 0.5 <= inside < 0.9:
                # with the cut lower, the band may have merged with print near the edge:
                # judge it as light at the outline (asked when it looks printed)
                outline.append(m)
                gone.remove(m)
        comps = [m for m in comps if m not in outline and m not in gone]
    else:
        comps = [m for m in comps if m not in outline]
    outline_print = any(_looks_printed(m, die.side) for m in outline)
    # print-like light deep in the die but off the fitted face: the face was fitted off it
    off_face = _off_face(found, die.side, contrast)
    # a glare needs broad light under it; without, a round soft mark is small blurred print
    # (on a small die the print itself blurs into round soft blobs: no glare is assumed)
    broad = glare >= max(GLARE_BROAD, GLARE_BROAD_REL * contrast)
    shine = broad and die.side >= RESOLVED
    spots = [m for m in comps if shine and _is_glare(m)]
    comps = [m for m in comps if not (shine and _is_glare(m))]
    rh, rw = die.region.shape
    crop = v[die.y0 : die.y0 + rh, die.x0 : die.x0 + rw]
    burnt = bool(spots) and int(crop[die.core > 0].max(initial=0)) >= SATURATED
    # light dropped at the outline next to print of rat size may be the second rat of a pair
    # printed close to the edge: not dropped silently either
    if outline and any(m.area >= OUTLINE_PRINT[0] * face_area for m in comps):
        outline_print = True
    if not comps:
        # a blank face whose marks' height was set by light left out at the outline, or by
        # a glare's spot (left out as a glare: on a face read blank it was the brightest
        # light): print fainter than half that light would be under the cut
        hidden = 0.0
        if (outline or spots) and labels is not None:
            hidden = _hidden(tophat, die, labels, found, contrast, min_contrast, skip)
        # a thin line of light deep in the face (farther from the outline than a lit rim's
        # light reaches), as crisp and bright as print: a rat's tail, the rest hidden?
        lines = [m.area / face_area for m in found if _is_rim(m, die.side)
                 and m.inner >= MIN_INNER and m.edge < 0.5 and m.reach >= LINE_REACH
                 and m.sharp >= OUTLINE_PRINT[1]
                 and float(m.light.max()) >= min_contrast]  # fmt: skip
        return FaceFeatures(contrast, 0.0, (), 1.0, glare, 0.0, BLANK_HU,
                            spots=len(spots), burnt=burnt, outline=len(outline) + len(gone),
                            outline_print=outline_print, hidden=hidden,
                            line=max(lines, default=0.0), off_face=off_face)  # fmt: skip
    total = sum(m.area for m in comps) / face_area
    # rat-sized: at least a tenth of the largest mark (smaller ones are specks)
    rats = [m for m in comps if m.area >= RAT_SIZED * comps[0].area]
    specks = _specks(rats, face_area, shine) if die.side >= RESOLVED else []
    rats = [m for m in rats if m not in specks]
    areas = tuple(m.area / face_area for m in rats)
    soft_pair = _soft_pair(rats, die.side)
    # the print alone (light narrower than a glare), for two marks or more under broad light
    print_only = _narrow_tophat(v, die) if shine and len(rats) >= 2 else None
    if soft_pair is None and print_only is not None and len(rats) == 2:
        soft_pair = _pair_under_glare(die, labels, rats, print_only)
    narrow = 1.0
    if print_only is not None:
        # print of one ink stands about as high everywhere on a face, glare or not, in the
        # light narrower than a glare (a rat's body is narrower than GLARE_DISK); what the
        # top-hat keeps of a glare's own peak falls there to the glare's low remains
        light, height = print_only
        narrow = min(float(light[labels == m.label].max()) for m in rats) / max(height, 1.0)
    if soft_pair is not None:
        areas = tuple(sorted(soft_pair, reverse=True))
    # a lone mark under broad light, on a die of any size (the broad light is measured by an
    # opening, not from a mark's outline: it needs no resolved die): two rats joined by a glare?
    split = _split_higher(tophat, labels, rats[0], face_area) if broad and len(rats) == 1 else 0.0
    keep = np.isin(labels, [m.label for m in rats]).astype(np.uint8)
    # gap between the two largest marks
    gap = 1.0
    if len(rats) >= 2:
        a = (labels == rats[0].label).astype(np.uint8)
        b = labels == rats[1].label
        dist = cv2.distanceTransform(1 - a, cv2.DIST_L2, 3)
        gap = float(dist[b].min()) / die.side
    # how much of the marks lies on the region's very edge (print cut off: hidden?)
    depth = cv2.distanceTransform(die.region, cv2.DIST_L2, 3)
    rim = (die.region > 0) & (depth < 1.5)
    edge = float((keep.astype(bool) & rim).sum()) / max(1.0, float(keep.sum()))
    elongation = min(m.length / max(2 * m.thick, 1.0) for m in rats)
    sharpness = min(m.sharp for m in rats)
    # light apart from the marks known (rats, rim, outline bands, glare spots): specks stay
    known = [m for m in found if m not in comps or m in rats or m in spots]
    hidden = _hidden(tophat, die, labels, known, contrast, min_contrast, skip)
    joined = _joined(tophat, die, labels, rats) if len(rats) >= 2 else 0.0
    # every rat-sized mark a smooth convex hump of light: a highlight, not print (resolved dice:
    # on a smaller one print itself blurs into soft round blobs)
    highlight = die.side >= RESOLVED and all(_is_highlight(tophat, die, labels, m) for m in rats)
    return FaceFeatures(contrast, total, areas, gap, glare, edge, _hu(keep), elongation,
                        spots=len(spots), burnt=burnt, sharpness=sharpness,
                        outline=len(outline) + len(gone), outline_print=outline_print,
                        sharpest=max(m.sharp for m in rats) if die.side >= RESOLVED else 0.0,
                        hidden=hidden, joined=joined, shine=shine, specks=len(specks),
                        peak=max(float(m.light.max()) for m in rats) / max(contrast, 1.0),
                        narrow=narrow, split=split, off_face=off_face, highlight=highlight)


# -- deciding --------------------------------------------------------------------------------
def _clip01(x: float) -> float:
    return max(0.0, min(1.0, x))


def _ramp(x: float, bad: float, good: float) -> float:
    """0 at ``bad``, 1 at ``good`` (either direction), linear between."""
    if good == bad:
        return 1.0 if x >= good else 0.0
    return _clip01((x - bad) / (good - bad))


def _ask(decided: tuple[int, float, list[str]], cap: float, why: str
         ) -> tuple[int, float, list[str]]:  # fmt: skip
    """``decided`` (rats, confidence, reasons) asked: its confidence at most ``cap``, ``why``
    added to its reasons; the value is kept."""
    value, conf, reasons = decided
    return value, min(conf, cap), [*reasons, why]


def _outline_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
                   ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask when light left out as rim along the outline could be a rat cut off."""
    if f.outline_print:
        decided = _ask(decided, 0.5, "rat-sized light along the die's outline: print cut off?")
    return decided


def _cut_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
               ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask when the cut at half the marks' height may have miscounted the rats: a face read
    as one rat that shows, at a quarter of that height, light apart from the rat as big as
    one of two rats (a second rat left under the cut?); a face read as two rats whose two
    marks are still one piece of light at ``JOINED`` of the dimmer one's peak (two rats are
    printed apart: the light between them falls to the wood, or to a glare's level; one rat
    broken at a thin neck or tail by blur stays near the print's height there), or, closer
    than ``CLOSE_GAP`` on a face without broad light, at ``JOINED_CLOSE`` (one worn rat
    broken at a faded patch)."""
    value = decided[0]
    if value == 1 and f.hidden >= OUTLINE_PRINT[0]:
        decided = _ask(decided, 0.5, f"a second mark under the cut ({f.hidden:.3f} of the face)")
    if value == 1 and f.peak < LONE_PEAK:
        # the marks' height was set by light left out as not print (table light seen inside
        # the outline, a lit rim): the cut at half of it sits high on the print, which may
        # lose a second rat under it or keep only the joined rats' brightest part. Print of
        # one ink is the brightest light on a face that holds only print: a lone rat stands at
        # the marks' height (the standard and small dice read right: 1.0; faint engraved print
        # beside a lit bevel: 0.907 and up). A die lying on a board's square darker than the
        # dark cut takes part of it into its blob, and the face fitted over the blob holds the
        # square's light, brighter than faint print: an engraved two-rat die's one shape kept
        # only its brightest part and read as one rat (blind16 14 000 044, taught: a certain 1
        # for a 2, the rat standing 0.80)
        decided = _ask(decided, 0.5, "the cut set by light that is not print (the rat stands "
                                     f"{f.peak:.2f})")  # fmt: skip
    if value == 0 and f.hidden >= OUTLINE_PRINT[0]:
        # (or by a glare: a glare brighter than faint print, grey and worn, sets the cut above
        # both rats of a two-rat die, and its own spot is left out as a glare; the face read
        # a certain 0. The glare's category: move the lamp)
        by = "light at the outline" if f.outline else "a glare"
        decided = _ask(decided, 0.5, f"marks under the cut set by {by} ({f.hidden:.3f})")
    if value == 0 and f.line > 0:
        # print keeps to the face, the lit rim to its outline: a thin crisp line deep in a
        # blank face is print, a rat's tail whose body lies under something dark (a die-wide
        # bar over three quarters of a one-rat die: the die and the bar looked like two
        # blank dice touching, and the die read a certain 0)
        decided = _ask(decided, 0.5,
                       f"a thin line of light deep in the face ({f.line:.3f}): a rat's tail?")
    # close together on a face without broad light, lower: worn print fades in patches, and
    # a patch faded to about half the print's height breaks a rat, at the cut of half the
    # marks' height, into two pieces a few pixels apart that are still one piece of light just
    # under the cut (a worn one-rat die near a corner: 0.52 of the dimmer's peak, 0.035-0.06 of
    # the side apart, read a certain 2 once a dark bar joined to its edge enlarged its fitted
    # face and made the lower piece one pixel longer). Two rats are printed apart with bare
    # wood between them: blur joins them lower (two-rat dice read right, 9 000 standard scenes:
    # 0.425 at most, 0.375 for the three closer than CLOSE_GAP); under broad light the light
    # between two marks may be the glare's, judged by the glare rules
    bare = f.glare < max(GLARE_BROAD, GLARE_BROAD_REL * f.contrast)
    close = bare and f.joined >= JOINED_CLOSE and f.gap < CLOSE_GAP
    if value == 2 and (f.joined >= JOINED or close):
        decided = _ask(decided, 0.4,
                       f"two marks joined by light ({f.joined:.2f} of the dimmer): one rat?")
    return decided


def _glare_peak_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
                      ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask when one of two marks (or more) on a face with broad light is mostly that light:
    it stands under ``NARROW_PEAK`` of the print's height once light as broad as a glare is
    taken away. A rat's body is narrower than a glare, so print keeps its height there (a rat
    under the glare too); a glare's peak beside a rat, its edge roughened by the camera's noise
    in dim light so that it no longer looks round, was read as a second rat (blind13
    11 000 124: a one-rat die, a certain 2)."""
    if f.count >= 2 and f.narrow < NARROW_PEAK:
        decided = _ask(decided, 0.4, f"a mark mostly broad light ({f.narrow:.2f} of the print "
                                     "without it): a glare's peak?")  # fmt: skip
    return decided


def _glare_join_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
                      ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask when a face read as one rat shows one mark under broad light that falls into two
    pieces of one size (``SECOND_MIN``) at a higher cut of its own light: two rats with a
    glare between them, joined by it at half the marks' height (blind14 12 000 031, small set:
    a two-rat die on a white mat in dim light, the glare between the two small rats, read a
    certain 1). One rat under a glare stays one piece; worn print falls into patches, but
    without broad light no glare joins them, so the rule waits for it."""
    if decided[0] == 1 and f.count == 1 and f.split >= SECOND_MIN:
        decided = _ask(decided, 0.4, "one mark in two pieces of one size higher up "
                                     f"({f.split:.2f}): two rats joined by a glare?")  # fmt: skip
    return decided


def _highlight_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
                     ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask when every mark read as a rat is a specular highlight's smooth hump of light
    (:func:`_is_highlight`): narrow or elongated highlights on a blank die's varnish (a
    window's bars, a strip light) were read as certain rats (an adversarial set of 1 200
    dice under such light: 33 certain wrong, 29 of them blank dice read 1)."""
    if f.highlight and f.count in (1, 2):
        decided = _ask(decided, 0.4, "a smooth hump of light with no print's edge or rat's "
                                     "outline: a glare's highlight on the varnish?")  # fmt: skip
    return decided


def _off_face_doubt(f: FaceFeatures, decided: tuple[int, float, list[str]]
                    ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Ask, whatever the face reads, when print-like light deep in the die was left out as
    lying off the fitted top face (:func:`_off_face`): the face was fitted off the die's own
    face, and a rat of it may be among what was left out."""
    if f.off_face > 0:
        decided = _ask(decided, 0.4, f"print-like light off the fitted face, {f.off_face:.2f} "
                                     "of the side deep in the die: its outline joined to "
                                     "something dark, a rat left out?")  # fmt: skip
    return decided


def _doubts(f: FaceFeatures, decided: tuple[int, float, list[str]]
            ) -> tuple[int, float, list[str]]:  # fmt: skip
    """Every doubt judged after the face is read, by the built-in rules or the taught model."""
    decided = _glare_join_doubt(f, _glare_peak_doubt(f, _cut_doubt(f, _outline_doubt(f, decided))))
    return _highlight_doubt(f, _off_face_doubt(f, decided))


def decide_default(f: FaceFeatures) -> tuple[int, float, list[str]]:
    """The built-in rules: (rats, confidence, reasons for doubt)."""
    return _doubts(f, _decide_rules(f))


def _faint_marks(f: FaceFeatures) -> str:
    """The doubt of a face read blank that holds marks standing out as print, though too
    little of them for a rat (``""``: none)."""
    if f.contrast >= CONTRAST_DOUBT[0] and f.total > 0.5 * BLANK_TOTAL:
        return f"faint marks ({f.total:.3f} of the face)"
    return ""


def _decide_rules(f: FaceFeatures) -> tuple[int, float, list[str]]:
    why: list[str] = []
    if f.count == 0 or f.total < BLANK_TOTAL:
        conf = 1.0
        if faint := _faint_marks(f):
            conf = 0.6
            why.append(faint)
        if f.glare > GLARE_ABS or f.burnt:
            conf = min(conf, 0.5)
            why.append(f"glare on the face ({f.glare:.0f}) may hide marks")
        return 0, conf, why
    conf = 1.0
    if f.contrast < CONTRAST_DOUBT[1]:
        conf = min(conf, 0.5 + 0.5 * _ramp(f.contrast, CONTRAST_DOUBT[0], CONTRAST_DOUBT[1]))
        if conf < CERTAIN:
            why.append(f"marks barely stand out (contrast {f.contrast:.0f})")
    if f.glare > GLARE_MAX * f.contrast or f.burnt:
        conf = min(conf, 0.4)
        why.append(f"glare on the face ({f.glare:.0f} vs marks {f.contrast:.0f})")
    if f.edge > EDGE_MAX:
        conf = min(conf, 0.5)
        why.append(f"marks run into the die's edge ({f.edge:.2f})")
    if f.elongation < MIN_ELONGATION:
        conf = min(conf, 0.4)
        why.append(f"a round mark, not a rat: glare? (elongation {f.elongation:.2f})")
    # a soft mark is asked (a glare or a smudge?), unless it is one of two rats and the other
    # is crisp print: the face's print is then known crisp, and the soft one is a rat under a
    # glare or worn (the pair's size, balance, gap and shape checks below still apply)
    # without any broad light on the face (no glare to make it), a soft mark is print blurred
    # like the whole picture (out of focus, moving): the shape and size checks judge it
    soft_ok = (f.count == 2 and f.sharpest >= PAIR_SHARP) or (f.sharpest > 0 and not f.shine)
    if f.sharpness < MIN_SHARP and not soft_ok:
        conf = min(conf, 0.4)
        why.append(f"a blurred mark: glare or smudge? (sharpness {f.sharpness:.2f})")
    largest = f.areas[0]
    second = f.areas[1] / largest if f.count >= 2 else 0.0
    if f.count >= 3:
        conf = min(conf, 0.3)
        why.append(f"{f.count} marks")
    if f.count == 1:
        if not RAT_AREA[0] <= largest <= RAT_AREA[1]:
            conf = min(conf, 0.4)
            why.append(f"one mark of odd size ({largest:.3f} of the face)")
        (h1_lo, h1_hi), (h2_lo, h2_hi) = RAT_HU
        if not (h1_lo <= f.hu[0] <= h1_hi and h2_lo <= f.hu[1] <= h2_hi):
            conf = min(conf, 0.4)
            why.append(f"one mark of an unusual shape (Hu {f.hu[0]:.2f}, {f.hu[1]:.2f})")
        return 1, conf, why
    value = 2 if second >= 0.3 else 1
    if second < SECOND_MIN:
        conf = min(conf, 0.4)
        why.append(f"second mark in between ({second:.2f} of the first)")
    if f.gap < MIN_GAP:
        conf = min(conf, 0.4)
        why.append(f"two marks almost touching (gap {f.gap:.3f})")
    if not all(PAIR_AREA[0] <= a <= PAIR_AREA[1] for a in f.areas[:2]):
        conf = min(conf, 0.4)
        why.append("two marks of odd size")
    return value, conf, why


def decide_model(f: FaceFeatures, model: RatModel) -> tuple[int, float, list[str]]:
    """Score against the taught classes: (rats, confidence, reasons for doubt)."""
    if not model.classes:
        return decide_default(f)
    return _doubts(f, _decide_taught(f, model))


def _decide_taught(f: FaceFeatures, model: RatModel) -> tuple[int, float, list[str]]:
    x = f.vector()
    scores: dict[int, float] = {}
    z2s: dict[int, float] = {}
    for label, c in model.classes.items():
        z2 = 0.0
        logdet = 0.0
        for xi, mu, sd, floor in zip(x, c.mean, c.std, STD_FLOOR, strict=True):
            s = max(sd, floor)
            z2 += ((xi - mu) / s) ** 2
            logdet += math.log(s)
        z2s[label] = z2
        scores[label] = -0.5 * z2 - logdet
    if not scores:
        return decide_default(f)
    # tempered posterior: a few examples never justify Gaussian tails
    temp = 3.0
    best = max(scores, key=lambda k: scores[k])
    top = scores[best]
    norm = sum(math.exp((s - top) / temp) for s in scores.values())
    conf = 1.0 / norm
    why: list[str] = []
    if z2s[best] > OUTLIER_Z2:  # far from everything taught
        conf = min(conf, 0.4)
        why.append(f"face unlike the taught {best} (distance {math.sqrt(z2s[best]):.1f})")
    if not best and f.count and (faint := _faint_marks(f)):
        # a mark that stands out as print, too small for a rat, on a face the taught classes
        # call blank: the built-in rules ask it ("faint marks"), and so must the taught ones.
        # A rat engraved dark on the black wood, in dim light, shows a sliver of its outline
        # only; the taught blank faces have no mark at all, so it is no nearer a rat than a
        # blank face (blind23 21 000 863: a one-rat engraved die read a certain 0)
        conf = min(conf, 0.6)
        why.append(faint)
    taught = model.classes[best].mean[1] if best else 0.0  # the taught faces' largest mark
    if best and f.areas and f.areas[0] < TAUGHT_SMALL * taught:
        # a die's print is the same on every die of a set, and the taught pictures were taken
        # at this table, at its dice's size: a largest mark well under the taught rat's size is
        # not that print whole (a strip of lit table inside the fitted face, a rat partly
        # hidden). The built-in rules ask a mark of odd size; the taught ones did not, as a
        # few examples' spread is narrow and its floor wide (wide 4 000 504: a strip of a
        # board's light square along a blank die's outline, 0.027 of the face against the
        # taught rat's 0.056, read a certain 1)
        conf = min(conf, 0.5)
        why.append(f"a mark smaller than the taught rat ({f.areas[0]:.3f} vs {taught:.3f})")
    if best and f.contrast < 1.25 * model.min_contrast:
        conf = min(conf, 0.5)
        why.append(f"marks barely stand out (contrast {f.contrast:.0f})")
    if f.glare > (GLARE_MAX * f.contrast if best else GLARE_ABS):
        conf = min(conf, 0.4)
        why.append(f"glare on the face ({f.glare:.0f})")
    if f.edge > EDGE_MAX and best != 0:
        conf = min(conf, 0.5)
        why.append(f"marks run into the die's edge ({f.edge:.2f})")
    # on a face with broad light (a glare on the varnish: GLARE_BROAD, the light that explains
    # a notch), a mark far softer than the taught print may be the glare's own peak, not
    # print (a soft glare on a blank die read as a lone rat, blind12 10 000 296: 0.19 against
    # the taught 0.55), unless it is one of two rats and the other is as crisp as the print
    # (a rat under the glare beside a clean one). Without broad light a soft mark is print
    # softened by the light or the camera (engraved dice in dim light measure 0.05-0.3 of
    # the crispness taught in soft light): the taught shape judges it
    crisp = model.classes[best].sharp if best else 0.0
    if (f.count and f.glare >= GLARE_BROAD and f.sharpness < TAUGHT_SOFT * crisp
            and not (f.count == 2 and f.sharpest >= TAUGHT_CRISP * crisp)):  # fmt: skip
        conf = min(conf, 0.4)
        why.append(f"a mark softer than the taught print ({f.sharpness:.2f} vs {crisp:.2f}): "
                   "glare or smudge?")  # fmt: skip
    if conf < CERTAIN and not why:
        others = sorted(scores, key=lambda k: -scores[k])
        why.append(f"between {others[0]} and {others[1]} rats")
    return best, conf, why


def read_rats(image: np.ndarray, model: RatModel | None = None) -> DiceObservation:
    """Every rat die on the table in ``image`` (BGR uint8), with its number of rats.

    A big picture is read at about 480 pixels high when its dice stay large enough there
    (a face of 40 pixels and more): same answer, a fraction of the time."""
    np, cv2 = _imports()
    if image is None or image.ndim not in (2, 3) or image.size == 0:
        raise ValueError("read_rats needs an H x W x 3 BGR picture")
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    h, w = image.shape[:2]
    expected = model.die_size if model else 0.0
    scale = 1.0
    work = image
    found = None
    if min(h, w) > 1.25 * WORK_SIZE:
        f = WORK_SIZE / min(h, w)
        small = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
        found = _find_dice(small, expected * f)
        sides = sorted(d.side for d in found[0])
        if not sides or sides[len(sides) // 2] >= RESOLVED:
            work, scale = small, f
        else:
            found = None
    v = _value_channel(work)
    dice, notes = found if found is not None else _find_dice(work, expected * scale)
    min_contrast = model.min_contrast if model else MIN_CONTRAST
    readings = []
    all_notes = list(notes)
    for i, die in enumerate(dice):
        f = measure_face(v, die, min_contrast)
        if f.outline_print and not die.notes and die.lean > die.lean_max:
            die, f = _own_face(v, die, f, min_contrast)
        if model is not None and model.classes:
            value, conf, why = decide_model(f, model)
        else:
            value, conf, why = decide_default(f)
        if die.notes:
            conf = min(conf, 0.35)
            why = die.notes + why
        uncertain = conf < CERTAIN
        x, y = die.cx / scale, die.cy / scale
        if uncertain:
            all_notes.append(f"die {i + 1} at ({x:.0f}, {y:.0f}): " + "; ".join(why))
        readings.append(DieReading(value, x, y, round(conf, 3), uncertain, size=die.side / scale,
                                   doubt=doubt_of(why) if uncertain else ""))
    return DiceObservation("rats", tuple(readings), w, h, tuple(all_notes))


# -- teaching --------------------------------------------------------------------------------
def _close_up(v: Any) -> tuple[Any, int, int, Any] | None:
    """The die of a close-up picture (it fills a good part of it): Otsu's dark part, if it
    is one square-ish blob much darker than the rest."""
    np, cv2 = _imports()
    _t, dark = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    blobs = _filled_blobs(dark, 0.15 * v.size)
    if not blobs:
        return None
    filled, x0, y0, c = max(blobs, key=lambda b: cv2.contourArea(b[3]))
    _area, aspect, fill, _r, _a = _shape(c)
    wood = float(np.median(v[dark > 0]))
    table = float(np.median(v[dark == 0])) if (dark == 0).any() else 255.0
    if aspect <= 1.4 and fill >= 0.7 and wood < 0.5 * table and table - wood > DARK_DROP:
        return filled, x0, y0, c
    return None


def _one_die(image: Any) -> tuple[Any, _Die]:
    """The one die in a teaching picture: for a close-up whose die fills the picture, the dark
    part found by Otsu's threshold; else the biggest die found as :func:`read_rats` does."""
    np, cv2 = _imports()
    v = _value_channel(image)
    found = _close_up(v)
    if found is not None:
        filled, x0, y0, c = found
        h, w = v.shape
        region, core, side, cx, cy = _top_face(filled, x0, y0, w, h)
        return v, _Die(region, core, x0, y0, float(cv2.contourArea(c)), side, cx, cy)
    dice, _ = _find_dice(image)
    clean = [d for d in dice if not d.notes]
    if clean:
        return v, max(clean, key=lambda d: d.area)
    if dice:
        raise ValueError("the die in the teaching picture is not clearly seen ("
                         + "; ".join(dice[0].notes) + "): show it again")  # fmt: skip
    raise ValueError("no die found in the teaching picture: show one die on the table")


def teach(examples: Sequence[tuple[np.ndarray, int]]) -> RatModel:
    """Learn a table's rat dice from pictures of one die each, labelled 0, 1 or 2 rats.

    A few pictures of each face (three to five, turned and moved around) are enough. Faces
    never shown keep no class: a die unlike every taught face is then flagged.
    """
    if not examples:
        raise ValueError("teach needs at least one (picture, rats) example")
    located = []
    for image, label in examples:
        if isinstance(label, bool) or label not in (0, 1, 2):
            raise ValueError(f"a rat die shows 0, 1 or 2 rats, not {label!r}")
        v, die = _one_die(image)
        located.append((v, die, int(label)))
    # first the contrast that separates print from bare wood on these dice
    marked = [measure_face(v, d, 0.0).contrast for v, d, lab in located if lab > 0]
    blank = [measure_face(v, d, 0.0).contrast for v, d, lab in located if lab == 0]
    min_contrast = MIN_CONTRAST
    if marked:
        lo = min(marked)
        hi = max(blank) if blank else 0.0
        if hi < lo:
            min_contrast = max(hi + 0.35 * (lo - hi), 0.0) if blank else min(MIN_CONTRAST, 0.6 * lo)
        min_contrast = max(8.0, min(min_contrast, 0.7 * lo))
    feats: dict[int, list[list[float]]] = {}
    sharp: dict[int, list[float]] = {}
    for v, die, label in located:
        f = measure_face(v, die, min_contrast)
        feats.setdefault(label, []).append(f.vector())
        sharp.setdefault(label, []).append(f.sharpness if f.count else 0.0)
    classes = {}
    for label, rows in feats.items():
        n = len(rows)
        mean = tuple(sum(col) / n for col in zip(*rows, strict=True))
        std = tuple(
            math.sqrt(sum((x - m) ** 2 for x in col) / max(1, n - 1)) if n > 1 else 0.0
            for col, m in zip(zip(*rows, strict=True), mean, strict=True)
        )
        crisp = sorted(sharp[label])
        classes[label] = ClassStats(mean, std, n, crisp[len(crisp) // 2] if label else 0.0)
    sizes = sorted(d.side for _, d, _ in located)
    return RatModel(classes, float(min_contrast), float(sizes[len(sizes) // 2]))
