"""Synthetic dice: top-down pictures of dice on a table, with the ground truth.

:func:`render_dice` draws one picture: a textured table (wood, felt, a printed game board, a
white or a dark mat) under a soft light, dice as rounded squares with a bevelled edge, the
standard pip layouts for 1 to 6, random rotation, non-overlapping random positions and a soft
shadow, then a little optical blur and sensor noise. Same arguments, same pixels.

:func:`render_oblique` draws dice as cubes seen by a camera tilted up to about 40 degrees:
the top face a squashed quadrilateral, the side faces in view with their own shading and
pips (legal neighbours of the top value, as a right-handed die has them), a shadow cast
along the lamp's light; its truth is each top face's projected centre, size and box.

:class:`SyntheticSource` is a frame source built on it: demo mode's "camera" (``R`` = a new
roll) and a test bench for the vision code. A roll can start with a few *motion* frames
(dice sliding, tumbling and blurred) before the dice settle, so settle logic can be tested.

Colours are BGR (OpenCV order). Sizes are ``(width, height)``; arrays are ``height x width``.
numpy and OpenCV are imported inside functions (see frames.py).
"""

from __future__ import annotations

import functools
import math
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.core.errors import DeviceError
from companion.devices.frames import _cv2, _numpy, _Source

if TYPE_CHECKING:
    import numpy as np

Colour = tuple[int, int, int]

COLOURS: dict[str, Colour] = {
    "white": (236, 240, 243),
    "ivory": (205, 232, 240),
    "black": (30, 30, 32),
    "red": (40, 40, 200),
    "green": (70, 150, 40),
    "blue": (170, 90, 30),
    "yellow": (40, 205, 235),
}
"""Named die / pip colours (BGR)."""

TABLES = ("wood", "felt", "board", "white", "dark")

# Pip centres in units of the die side, before rotation (x right, y down).
_D = 0.26
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_D, -_D), (_D, _D)),
    3: ((-_D, -_D), (0, 0), (_D, _D)),
    4: ((-_D, -_D), (_D, -_D), (-_D, _D), (_D, _D)),
    5: ((-_D, -_D), (_D, -_D), (0, 0), (-_D, _D), (_D, _D)),
    6: ((-_D, -_D), (-_D, 0), (-_D, _D), (_D, -_D), (_D, 0), (_D, _D)),
}
PIP_RADIUS = 0.092  # of the die side
CORNER_RADIUS = 0.17  # of the die side


@dataclass(frozen=True)
class DiceDesign:
    """How a set of dice is made (all lengths in units of the die's side). Real sets differ:
    pips far out or near the middle, a 2 and a 3 on a shorter diagonal than the 4 to 6, a
    big pip for the 1, sharp or very round corners."""

    spacing: float = _D  # the 4's to 6's pips, from the middle along each axis
    diagonal: float = _D  # the 2's and 3's corner pips, from the middle along each axis
    pip_radius: float = PIP_RADIUS
    one_radius: float = PIP_RADIUS  # the 1's pip
    corner: float = CORNER_RADIUS  # the body's rounded corners

    def pips(self, value: int) -> tuple[tuple[float, float, float], ...]:
        """(x, y, radius) of each pip of ``value``, before rotation."""
        d = self.diagonal if value in (2, 3) else self.spacing
        r = self.one_radius if value == 1 else self.pip_radius
        return tuple((x / _D * d, y / _D * d, r) for x, y in PIP_LAYOUTS[value])


STANDARD = DiceDesign()
BEVEL = 0.075  # width of the darker rounded edge, of the die side


@dataclass(frozen=True)
class DieTruth:
    """Where a die is in the picture and what it shows."""

    value: int  # 1..6, the top face
    x: float  # centre, pixels from the left
    y: float  # centre, pixels from the top
    size: float  # side of the top face, pixels
    angle: float  # rotation of the square, degrees in [0, 90)


@dataclass(frozen=True)
class _Die:
    value: int
    x: float
    y: float
    size: float
    angle: float  # full angle in degrees (pip layouts 2, 3, 6 are not 90-degree symmetric)
    colour: Colour
    pip_colour: Colour
    blur: tuple[float, float] = (0.0, 0.0)  # motion blur vector, pixels
    lift: float = 0.0  # 0 on the table; > 0 in the air (shadow further and softer)
    design: DiceDesign = STANDARD

    def truth(self) -> DieTruth:
        return DieTruth(self.value, self.x, self.y, self.size, self.angle % 90.0)


def _colour(value: str | Sequence[int], what: str) -> Colour:
    if isinstance(value, str):
        try:
            return COLOURS[value.lower()]
        except KeyError:
            raise ValueError(
                f'unknown {what} "{value}": use one of {", ".join(COLOURS)} or a (B, G, R) tuple'
            ) from None
    b, g, r = (int(c) for c in value)
    return (b, g, r)


def check_faces(values: Sequence[int], low: int = 1, high: int = 6,
                shows: str = "a die shows 1 to 6") -> list[int]:
    """The face values to render, each an int from ``low`` to ``high``; else ValueError."""
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"{shows}, not {v!r}")
        out.append(v)
    return out


# -- the table -------------------------------------------------------------------------------
def _smooth_noise(rng: Any, h: int, w: int, cells_y: int, cells_x: int) -> Any:
    """Value noise in [0, 1]: a small random grid resized smoothly to h x w."""
    np, cv2 = _numpy(), _cv2()
    grid = rng.random((max(2, cells_y), max(2, cells_x))).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _wood(rng: Any, w: int, h: int) -> Any:
    np = _numpy()
    light = np.array([152, 193, 224], np.float32)  # pale pine, BGR
    dark = np.array([96, 142, 188], np.float32)
    vertical = rng.random() < 0.5
    phi = rng.uniform(-0.12, 0.12) + (math.pi / 2 if vertical else 0.0)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    along = xs * math.cos(phi) + ys * math.sin(phi)  # along the grain
    across = -xs * math.sin(phi) + ys * math.cos(phi)
    warp = _smooth_noise(rng, h, w, 3, 4) * 40 + _smooth_noise(rng, h, w, 8, 10) * 10
    spacing = rng.uniform(18, 30) * (0.7 + 0.6 * _smooth_noise(rng, h, w, 2, 3))
    rings = (across + warp) / spacing + 0.001 * along
    grain = (0.5 + 0.5 * np.sin(rings * 2 * math.pi)) ** 4
    # fine fibres: noise stretched along the grain
    fine_cells = (h // 2, 6) if not vertical else (6, w // 2)
    fibre = _smooth_noise(rng, h, w, *fine_cells)
    broad = _smooth_noise(rng, h, w, 3, 3)
    t = 0.34 * grain + 0.18 * fibre + 0.3 * broad
    img = light * (1 - t[..., None]) + dark * t[..., None]
    # a seam between two planks, along the grain
    plank = rng.uniform(0.45, 0.7) * max(w, h)
    offset = rng.uniform(0, plank)
    gap = np.abs(((across - offset) % plank) - plank / 2) - (plank / 2 - 1.5)
    img *= (1 - 0.35 * np.clip(gap, 0, 1.5) / 1.5)[..., None]
    return img


def _felt(rng: Any, w: int, h: int) -> Any:
    np, cv2 = _numpy(), _cv2()
    base = np.array([62, 112, 34], np.float32)  # card-table green, BGR
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8) * 9
    mottle = (_smooth_noise(rng, h, w, 6, 8) - 0.5) * 18
    return base + (fine + mottle)[..., None]


def _board(rng: Any, w: int, h: int) -> Any:
    """A printed game board: cream card, a track of coloured squares, a few marks."""
    np, cv2 = _numpy(), _cv2()
    img = np.empty((h, w, 3), np.uint8)  # OpenCV draws text on 8-bit images only
    img[:] = (196, 222, 232)
    palette = [(60, 70, 190), (170, 120, 40), (60, 160, 220), (90, 150, 60), (150, 80, 130)]
    cell = int(min(w, h) * rng.uniform(0.13, 0.17))
    x0, y0 = int(rng.uniform(0.02, 0.08) * w), int(rng.uniform(0.02, 0.08) * h)
    cols, rows = max(3, (w - 2 * x0) // cell), max(3, (h - 2 * y0) // cell)
    k = 0
    for r in range(rows):
        for c in range(cols):
            if r in (0, rows - 1) or c in (0, cols - 1):
                colour = palette[k % len(palette)]
                k += 1
                p0 = (x0 + c * cell + 2, y0 + r * cell + 2)
                p1 = (x0 + (c + 1) * cell - 2, y0 + (r + 1) * cell - 2)
                cv2.rectangle(img, p0, p1, colour, -1)
                cv2.rectangle(img, p0, p1, (40, 40, 40), 2)
    centre = (w // 2, h // 2)
    cv2.circle(img, centre, int(min(w, h) * 0.18), (70, 90, 120), 3, cv2.LINE_AA)
    cv2.putText(img, "START", (x0 + 6, y0 + cell // 2 + 5), cv2.FONT_HERSHEY_SIMPLEX,
                cell / 110, (30, 30, 30), 1, cv2.LINE_AA)  # fmt: skip
    paper = (_smooth_noise(rng, h, w, 30, 40) - 0.5) * 10
    return img.astype(np.float32) + paper[..., None]


def _plain(rng: Any, w: int, h: int, colour: tuple[int, int, int], texture: float) -> Any:
    np = _numpy()
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    img += ((_smooth_noise(rng, h, w, 60, 80) - 0.5) * texture)[..., None]
    img += ((_smooth_noise(rng, h, w, 4, 5) - 0.5) * texture)[..., None]
    return img


@functools.lru_cache(maxsize=8)
def _table_layers(size: tuple[int, int], table: str, table_seed: int) -> tuple[Any, Any, Any]:
    """(table BGR float32 HxWx3, light field float32 HxW, unit vector of the shadows)."""
    np = _numpy()
    w, h = size
    rng = np.random.default_rng([table_seed, 7177])
    if table == "wood":
        base = _wood(rng, w, h)
    elif table == "felt":
        base = _felt(rng, w, h)
    elif table == "board":
        base = _board(rng, w, h)
    elif table == "white":
        base = _plain(rng, w, h, (232, 234, 236), 8)
    elif table == "dark":
        base = _plain(rng, w, h, (38, 36, 40), 8)
    else:
        raise ValueError(f'unknown table "{table}": use one of {", ".join(TABLES)}')
    # a soft lamp somewhere above the table
    lx, ly = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    spread = 0.6 * math.hypot(w, h)
    light = 0.80 + 0.27 * np.exp(-((xs - lx) ** 2 + (ys - ly) ** 2) / (2 * spread**2))
    # shadows fall away from the lamp, seen from the middle of the table
    dx, dy = w / 2 - lx, h / 2 - ly
    norm = math.hypot(dx, dy) or 1.0
    shadow_dir = np.array([dx / norm, dy / norm], np.float32)
    base = base.clip(0, 255).astype(np.float32)
    light = light.astype(np.float32)
    for a in (base, light, shadow_dir):
        a.flags.writeable = False
    return base, light, shadow_dir


# -- the dice --------------------------------------------------------------------------------
def _rounded_square(cx: float, cy: float, side: float, radius: float, angle: float) -> Any:
    """Polygon (N x 2 float) of a rounded square centred on (cx, cy), rotated by ``angle``°."""
    np = _numpy()
    half = side / 2 - radius
    points = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        for k in range(9):
            a = math.radians(start + k * 90 / 8)
            points.append((sx * half + radius * math.cos(a), sy * half + radius * math.sin(a)))
    pts = np.array(points, np.float32)
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    rot = np.array([[c, -s], [s, c]], np.float32)
    return pts @ rot.T + np.array([cx, cy], np.float32)


_SHIFT = 4  # sub-pixel bits for cv2 drawing


def _fill(mask: Any, polygon: Any) -> None:
    np, cv2 = _numpy(), _cv2()
    pts = np.round(polygon * (1 << _SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)


def _motion_kernel(blur: tuple[float, float]) -> Any:
    np, cv2 = _numpy(), _cv2()
    length = math.hypot(*blur)
    k = int(math.ceil(length)) | 1
    k = max(k, 3)
    kernel = np.zeros((k, k), np.float32)
    c = (k - 1) / 2
    p0 = (c - blur[0] / 2, c - blur[1] / 2)
    p1 = (c + blur[0] / 2, c + blur[1] / 2)
    scale = 1 << _SHIFT
    cv2.line(kernel, (round(p0[0] * scale), round(p0[1] * scale)),
             (round(p1[0] * scale), round(p1[1] * scale)), 1.0, 1, cv2.LINE_8, _SHIFT)  # fmt: skip
    total = kernel.sum()
    if total <= 0:
        kernel[int(c), int(c)] = 1.0
        total = 1.0
    return kernel / total


def _draw_die(img: Any, die: _Die, shadow_dir: Any) -> None:
    """Composite one die (shadow first) onto ``img`` (float32 BGR, modified in place)."""
    np, cv2 = _numpy(), _cv2()
    h, w = img.shape[:2]
    s = die.size
    shadow_off = (0.07 + 0.5 * die.lift) * s
    shadow_sigma = (0.07 + 0.25 * die.lift) * s
    reach = 0.75 * s + shadow_off + 3 * shadow_sigma + math.hypot(*die.blur) + 4
    x0, y0 = max(0, int(die.x - reach)), max(0, int(die.y - reach))
    x1, y1 = min(w, int(die.x + reach) + 2), min(h, int(die.y + reach) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    lx, ly = die.x - x0, die.y - y0

    body = np.zeros((rh, rw), np.uint8)
    face = np.zeros((rh, rw), np.uint8)
    pips = np.zeros((rh, rw), np.uint8)
    corner = die.design.corner
    _fill(body, _rounded_square(lx, ly, s, corner * s, die.angle))
    inner = s * (1 - 2 * BEVEL)
    _fill(face, _rounded_square(lx, ly, inner, corner * inner * 0.9, die.angle))
    c, sn = math.cos(math.radians(die.angle)), math.sin(math.radians(die.angle))
    scale = 1 << _SHIFT
    for px, py, pr in die.design.pips(die.value):
        qx = lx + (px * c - py * sn) * s
        qy = ly + (px * sn + py * c) * s
        cv2.circle(pips, (round(qx * scale), round(qy * scale)), round(pr * s * scale),
                   255, -1, cv2.LINE_AA, _SHIFT)  # fmt: skip

    a_body = body.astype(np.float32) / 255
    # a soft step from the rounded edge to the flat face
    a_face = cv2.GaussianBlur(face.astype(np.float32) / 255, (0, 0), max(0.02 * s, 0.3))
    a_pips = pips.astype(np.float32) / 255

    # the bevel catches the light on the side facing the lamp
    ys, xs = np.mgrid[0:rh, 0:rw].astype(np.float32)
    rx, ry = xs - lx, ys - ly
    dist = np.sqrt(rx * rx + ry * ry) + 1e-3
    facing = -(rx * shadow_dir[0] + ry * shadow_dir[1]) / dist
    colour = np.array(die.colour, np.float32)
    edge = colour * (0.74 + 0.16 * facing)[..., None]
    # the face is very slightly brighter towards the lamp
    face_col = colour * (1.0 + 0.035 * (facing * np.minimum(dist / (0.5 * s), 1)))[..., None]
    pip_col = np.array(die.pip_colour, np.float32)
    die_rgb = edge * (1 - a_face[..., None]) + face_col * a_face[..., None]
    pip_alpha = (a_pips * a_face)[..., None]
    die_rgb = die_rgb * (1 - pip_alpha) + pip_col * pip_alpha

    # shadow: the body's outline, moved away from the lamp and blurred
    m = np.float32([[1, 0, shadow_dir[0] * shadow_off], [0, 1, shadow_dir[1] * shadow_off]])
    shadow = cv2.warpAffine(a_body, m, (rw, rh))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(shadow_sigma, 0.5))
    strength = 0.55 / (1 + 2 * die.lift)

    premult = die_rgb * a_body[..., None]
    alpha = a_body
    if math.hypot(*die.blur) >= 1.0:
        kernel = _motion_kernel(die.blur)
        premult = cv2.filter2D(premult, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        alpha = cv2.filter2D(alpha, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        shadow = cv2.filter2D(shadow, -1, kernel, borderType=cv2.BORDER_CONSTANT)

    roi = img[y0:y1, x0:x1]
    roi *= (1 - strength * shadow)[..., None]
    roi *= (1 - alpha)[..., None]
    roi += premult


def _compose(
    size: tuple[int, int],
    table: str,
    table_seed: int,
    dice: Sequence[_Die],
    noise: float,
    noise_seed: int,
) -> Any:
    np, cv2 = _numpy(), _cv2()
    base, light, shadow_dir = _table_layers(size, table, table_seed)
    img = base.copy()
    for die in dice:
        _draw_die(img, die, shadow_dir)
    img *= light[..., None]
    img = cv2.GaussianBlur(img, (0, 0), 0.6)
    if noise > 0:
        rng = np.random.default_rng([noise_seed, 5])
        img += rng.standard_normal(img.shape, np.float32) * np.float32(noise)
    return img.clip(0, 255).astype(np.uint8)


def _place(
    rng: Any, count: int, size: tuple[int, int], side: float
) -> list[tuple[float, float, float]]:
    """Non-overlapping (x, y, angle) for ``count`` dice of side ``side``, inside the picture."""
    w, h = size
    margin = 0.75 * side + 2
    gap = side * math.sqrt(2) * 1.05 + 2  # circumscribed circles never touch
    if w <= 2 * margin or h <= 2 * margin:
        raise ValueError(f"dice of {side:.0f} px do not fit in a {w}x{h} picture")
    spots: list[tuple[float, float, float]] = []
    for _ in range(count):
        _add_spot(rng, spots, size, margin, gap, count, side)
    return spots


def _add_spot(
    rng: Any, spots: list[tuple[float, float, float]], size: tuple[int, int], margin: float,
    gap: float, count: int, side: float,
) -> None:
    """Append one random (x, y, angle) at least ``gap`` from every spot already taken."""
    w, h = size
    for _attempt in range(5000):
        x, y = rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)
        if all(math.hypot(x - px, y - py) >= gap for px, py, _ in spots):
            spots.append((x, y, rng.uniform(0, 360)))
            return
    raise ValueError(
        f"cannot place {count} dice of {side:.0f} px apart in a {w}x{h} picture: "
        "use fewer or smaller dice"
    )


def default_die_px(size: tuple[int, int]) -> float:
    """Side of a die in pixels when none is given: 12 % of the picture's short side."""
    return round(min(size) * 0.12)


def render_dice(
    values: Sequence[int],
    seed: int,
    size: tuple[int, int] = (640, 480),
    table: str = "wood",
    *,
    die_color: str | Sequence[int] = "white",
    pip_color: str | Sequence[int] = "black",
    die_px: float | None = None,
    table_seed: int | None = None,
    noise: float = 2.0,
    motion: tuple[float, float] = (0.0, 0.0),
    design: DiceDesign = STANDARD,
) -> tuple[np.ndarray, list[DieTruth]]:
    """A top-down picture of dice showing ``values`` on a ``table``, and where each die is.

    ``seed`` fixes positions, rotations and noise; ``table_seed`` (default: ``seed``) fixes the
    table's texture and the lamp, so several rolls can share one table. ``die_px`` is the side
    of a die in pixels (default 12 % of the short side). ``motion`` blurs every die along that
    vector (pixels), as if they were still sliding. ``design``: how the dice are made (pip
    spacing and size, corners; :class:`DiceDesign`). Returns ``(BGR uint8 H x W x 3, truths)``
    with truths in the order of ``values``.
    """
    np = _numpy()
    size = (int(size[0]), int(size[1]))
    vals = check_faces(values)
    if table not in TABLES:
        raise ValueError(f'unknown table "{table}": use one of {", ".join(TABLES)}')
    side = float(die_px) if die_px is not None else default_die_px(size)
    colour, pip = _colour(die_color, "die colour"), _colour(pip_color, "pip colour")
    rng = np.random.default_rng([seed, 1])
    spots = _place(rng, len(vals), size, side)
    dice = [
        _Die(v, x, y, side, angle, colour, pip, blur=(float(motion[0]), float(motion[1])),
             design=design)
        for v, (x, y, angle) in zip(vals, spots, strict=True)
    ]
    img = _compose(size, table, seed if table_seed is None else table_seed, dice, noise, seed)
    return img, [d.truth() for d in dice]


# -- the source ------------------------------------------------------------------------------
class SyntheticSource(_Source):
    """A pretend camera looking down at synthetic dice.

    ``roll()`` throws new dice (values from a ``random.Random(seed)`` sequence unless given):
    the next ``motion_frames`` reads show them sliding in, tumbling and blurred, then every
    read shows them settled (with fresh sensor noise, as a real camera would). The table and
    lamp stay the same for the source's life. ``read()`` renders on demand and never waits:
    pacing is the camera worker's job. Thread-safe: demo mode rolls from the UI thread while
    the worker reads.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        dice: int = 2,
        size: tuple[int, int] = (640, 480),
        table: str = "wood",
        motion_frames: int = 6,
        die_color: str | Sequence[int] = "white",
        pip_color: str | Sequence[int] = "black",
        die_px: float | None = None,
        noise: float = 2.0,
    ) -> None:
        if table not in TABLES:
            raise ValueError(f'unknown table "{table}": use one of {", ".join(TABLES)}')
        self.seed = int(seed)
        self.dice = int(dice)
        self.size = (int(size[0]), int(size[1]))
        self.table = table
        self.motion_frames = int(motion_frames)
        self.die_colour = _colour(die_color, "die colour")
        self.pip_colour = _colour(pip_color, "pip colour")
        self.die_px = float(die_px) if die_px is not None else default_die_px(self.size)
        self.noise = float(noise)
        self.name = f"synthetic:{self.seed}"
        self._random = random.Random(self.seed)
        self._lock = threading.RLock()
        self._opened = False
        self._settled_dice: list[_Die] = []
        self._motion: list[tuple[list[_Die], int]] = []  # frames still to show, in order
        self._clean: Any = None  # settled picture without noise
        self._noise_fields: list[Any] = []
        self._reads = 0
        self._rolled = False

    # -- FrameSource ------------------------------------------------------------------------
    def open(self) -> None:
        _numpy()
        _cv2()
        with self._lock:
            self._opened = True
            if not self._rolled:
                self.roll(motion=False)

    def read(self) -> np.ndarray | None:
        np = _numpy()
        with self._lock:
            if not self._opened:
                raise DeviceError(f"{self.name} is not open")
            self._reads += 1
            if self._motion:
                dice, noise_seed = self._motion.pop(0)
                return _compose(self.size, self.table, self.seed, dice, self.noise, noise_seed)
            if self._clean is None:
                self._clean = _compose(
                    self.size, self.table, self.seed, self._settled_dice, 0.0, 0
                ).astype(np.int16)
            if self.noise <= 0:
                return self._clean.astype(np.uint8)
            if not self._noise_fields:
                rng = np.random.default_rng([self.seed, 3])
                shape = self._clean.shape
                self._noise_fields = [
                    np.round(rng.standard_normal(shape, np.float32) * self.noise).astype(np.int16)
                    for _ in range(4)
                ]
            field = self._noise_fields[self._reads % len(self._noise_fields)]
            return (self._clean + field).clip(0, 255).astype(np.uint8)

    def close(self) -> None:
        with self._lock:
            self._opened = False

    # -- the table --------------------------------------------------------------------------
    def roll(self, values: Sequence[int] | None = None, motion: bool = True) -> list[DieTruth]:
        """Throw the dice; returns where they will settle. ``values`` defaults to ``dice``
        random values from the seed's sequence; ``motion=False`` skips the sliding frames."""
        np = _numpy()
        with self._lock:
            if values is None:
                vals = [self._random.randint(1, 6) for _ in range(self.dice)]
            else:
                vals = check_faces(values)
            roll_seed = self._random.getrandbits(32)
            rng = np.random.default_rng([roll_seed, 2])
            spots = _place(rng, len(vals), self.size, self.die_px)
            settled = [
                _Die(v, x, y, self.die_px, a, self.die_colour, self.pip_colour)
                for v, (x, y, a) in zip(vals, spots, strict=True)
            ]
            self._settled_dice = settled
            self._clean = None
            self._rolled = True
            self._motion = self._motion_frames(settled, rng, roll_seed) if motion else []
            return [d.truth() for d in settled]

    def _motion_frames(
        self, settled: list[_Die], rng: Any, roll_seed: int
    ) -> list[tuple[list[_Die], int]]:
        """Dice sliding in from one side, slowing down, faces changing as they tumble."""
        n = self.motion_frames
        if n <= 0 or not settled:
            return []
        heading = rng.uniform(0, 2 * math.pi)
        travel = [rng.uniform(2.0, 3.5) * self.die_px for _ in settled]
        spins = [rng.uniform(-400, 400) for _ in settled]
        frames = []
        for i in range(n):
            # remaining distance shrinks quadratically: fast at first, slow at the end
            remain = ((n - i) / (n + 1)) ** 2
            step = (2 * (n - i) - 1) / (n + 1) ** 2  # distance covered during this frame
            dice = []
            for die, dist, spin in zip(settled, travel, spins, strict=True):
                dx, dy = -math.cos(heading) * dist, -math.sin(heading) * dist
                speed = dist * step
                dice.append(
                    _Die(
                        value=int(rng.integers(1, 7)) if remain > 0.05 else die.value,
                        x=die.x + dx * remain,
                        y=die.y + dy * remain,
                        size=die.size,
                        angle=die.angle + spin * remain,
                        colour=die.colour,
                        pip_colour=die.pip_colour,
                        blur=(math.cos(heading) * speed, math.sin(heading) * speed),
                        lift=0.25 * remain,
                    )
                )
            frames.append((dice, roll_seed + i + 1))
        return frames

    def clear(self) -> None:
        """Take the dice off the table: reads show the empty table."""
        with self._lock:
            self._settled_dice = []
            self._motion = []
            self._clean = None
            self._rolled = True

    @property
    def truth(self) -> list[DieTruth]:
        """The dice as they lie (or will lie once settled)."""
        with self._lock:
            return [d.truth() for d in self._settled_dice]

    @property
    def settled(self) -> bool:
        """True once the motion frames of the last roll have all been read."""
        with self._lock:
            return not self._motion


# -- oblique views (issue 4, seventh pass) -------------------------------------------------------
# Each die is a cube resting on the table; a pinhole camera looks at the table tilted by
# ``tilt_deg`` from straight down. World units are pixels at the point the camera looks at:
# x to the right, y away from the camera (up the picture), z up from the table: a right-handed
# frame seen as it is (not mirrored), so a right-handed die looks right-handed.

# The faces of a right-handed die along its own axes +x, -x, +y, -y, +z, -z: 1, 2 and 3 meet
# at one corner and run counterclockwise seen from outside it; opposite faces sum to 7.
_AXES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
_CANON = {(1, 0, 0): 2, (-1, 0, 0): 5, (0, 1, 0): 3, (0, -1, 0): 4, (0, 0, 1): 1, (0, 0, -1): 6}


@functools.lru_cache(maxsize=1)
def _die_turns() -> tuple[dict[tuple[int, int, int], int], ...]:
    """The 24 ways a right-handed die can lie: each maps an axis (+x, ..., -z) to its value."""
    import itertools

    turns = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = [[0, 0, 0] for _ in range(3)]
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row][col] = sign
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                   - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))  # fmt: skip
            if det != 1:
                continue
            faces: dict[tuple[int, int, int], int] = {}
            for axis, value in _CANON.items():
                x, y, z = (sum(m[r][c] * axis[c] for c in range(3)) for r in range(3))
                faces[(x, y, z)] = value
            turns.append(faces)
    return tuple(turns)


def die_faces(top: int, rng: Any) -> dict[tuple[int, int, int], int]:
    """A right-handed die lying with ``top`` up: the value on each of its axes (+z = top),
    one of its four ways, drawn from ``rng`` (numpy Generator)."""
    ways = [t for t in _die_turns() if t[(0, 0, 1)] == top]
    return ways[int(rng.integers(len(ways)))]


@dataclass(frozen=True)
class ObliqueTruth:
    """A die seen at an angle: its top face's value and where that face is in the picture."""

    value: int  # the top face
    x: float  # the top face's projected centre, pixels
    y: float
    size: float  # square root of the top face's projected area, pixels
    box: tuple[float, float, float, float]  # the top face's bounding box x0, y0, x1, y1
    sides: tuple[tuple[int, float, float, float], ...]  # visible side faces: value, x, y, size
    view: float  # degrees from straight down at which the camera sees the top face's centre


class _Camera:
    """A pinhole camera ``tilt`` degrees from straight down, looking at the table's origin
    from ``focal`` world units away (1 world unit = 1 pixel there)."""

    def __init__(self, size: tuple[int, int], tilt: float, focal: float) -> None:
        np = _numpy()
        t = math.radians(tilt)
        self.f = focal
        self.cx, self.cy = size[0] / 2, size[1] / 2
        self.pos = np.array([0.0, -focal * math.sin(t), focal * math.cos(t)])
        self.fwd = np.array([0.0, math.sin(t), -math.cos(t)])
        self.right = np.array([1.0, 0.0, 0.0])
        self.down = np.cross(self.fwd, self.right)  # right x down = forward, as OpenCV's

    def project(self, pts: Any) -> tuple[Any, Any]:
        """(N x 2 pixel positions, N depths) of world points N x 3."""
        np = _numpy()
        d = np.asarray(pts, np.float64) - self.pos
        z = d @ self.fwd
        uv = np.stack([self.cx + self.f * (d @ self.right) / z,
                       self.cy + self.f * (d @ self.down) / z], axis=1)  # fmt: skip
        return uv, z

    def to_table(self, u: float, v: float) -> tuple[float, float]:
        """Where the ray through pixel (u, v) meets the table (z = 0)."""
        ray = self.fwd + ((u - self.cx) * self.right + (v - self.cy) * self.down) / self.f
        s = -self.pos[2] / ray[2]
        return float(self.pos[0] + s * ray[0]), float(self.pos[1] + s * ray[1])

    def homography(self, size: tuple[int, int]) -> Any:
        """3 x 3 map from table texture pixels (its centre at the world's origin, its y down
        where the world's y is up) to the image."""
        np, cv2 = _numpy(), _cv2()
        w, h = size
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        world = np.array([[x - w / 2, h / 2 - y, 0.0] for x, y in src])
        dst, _ = self.project(world)
        return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


@dataclass(frozen=True)
class _Cube:
    value: int
    x: float  # centre of the footprint on the table, world units
    y: float
    side: float
    yaw: float  # degrees
    faces: dict[tuple[int, int, int], int]  # axis (die's own) -> value
    turns: dict[tuple[int, int, int], int]  # axis -> quarter turns of that face's pip layout

    def frame(self, axis: tuple[int, int, int]) -> tuple[Any, Any, Any]:
        """World (centre, e1, e2) of a face: e1, e2 unit vectors along it, e1 x e2 = outward."""
        np = _numpy()
        n = np.array(axis, np.float64)
        e1 = np.array((0.0, 0.0, 1.0)) if n[2] == 0 else np.array((1.0, 0.0, 0.0))
        e1 = e1 - n * (e1 @ n)
        e2 = np.cross(n, e1)
        q = self.turns[axis] * math.pi / 2
        e1, e2 = math.cos(q) * e1 + math.sin(q) * e2, -math.sin(q) * e1 + math.cos(q) * e2
        c, s = math.cos(math.radians(self.yaw)), math.sin(math.radians(self.yaw))
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        centre = np.array([self.x, self.y, self.side / 2]) + rot @ n * (self.side / 2)
        return centre, rot @ e1, rot @ e2

    def corners(self, inset: float = 0.0) -> Any:
        """The 8 corners (world) of the cube shrunk by ``inset`` on each face."""
        np = _numpy()
        h = self.side / 2 - inset
        c, s = math.cos(math.radians(self.yaw)), math.sin(math.radians(self.yaw))
        out = []
        for sx in (-1, 1):
            for sy in (-1, 1):
                for sz in (-1, 1):
                    lx, ly = sx * h, sy * h
                    out.append((self.x + c * lx - s * ly, self.y + s * lx + c * ly,
                                self.side / 2 + sz * h))  # fmt: skip
        return np.array(out)


def _square_on(centre: Any, e1: Any, e2: Any, side: float, radius: float) -> Any:
    """World points (N x 3) of a rounded square of ``side`` on the plane (centre, e1, e2)."""
    np = _numpy()
    flat = _rounded_square(0.0, 0.0, side, radius, 0.0).astype(np.float64)
    return centre + flat[:, :1] * e1 + flat[:, 1:] * e2


def _circle_on(centre: Any, e1: Any, e2: Any, radius: float, n: int = 16) -> Any:
    np = _numpy()
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return centre + radius * (np.cos(a)[:, None] * e1 + np.sin(a)[:, None] * e2)


def _light_vector(shadow_dir: Any, elevation: float) -> Any:
    """Unit vector (world) towards the lamp: against the table's shadows (in texture pixels,
    y down), ``elevation`` degrees up."""
    np = _numpy()
    e = math.radians(elevation)
    return np.array([-shadow_dir[0] * math.cos(e), shadow_dir[1] * math.cos(e), math.sin(e)])


def _shade(normal: Any, light: Any) -> float:
    """Brightness of a face (1 for the top face): some ambient light, the rest from the lamp."""
    top = 0.42 + 0.58 * max(float(light[2]), 0.0)
    return (0.42 + 0.58 * max(float(normal @ light), 0.0)) / top


def _draw_cube(img: Any, cube: _Cube, cam: _Camera, light: Any, colour: Colour, pip: Colour,
               design: DiceDesign, glare: float, rng: Any) -> None:  # fmt: skip
    """Composite one cube (its shadow first) onto ``img`` (float32 BGR, in place)."""
    np, cv2 = _numpy(), _cv2()
    h, w = img.shape[:2]
    s = cube.side
    r = max(design.corner * s * 0.6, 0.5)  # rounding of the cube's edges, world units
    # shadow: the cube's corners cast along the light onto the table, and a contact shadow
    corners = cube.corners()
    cast = corners - corners[:, 2:3] / light[2] * light
    cast_uv, _ = cam.project(cast)
    foot_uv, _ = cam.project(corners[corners[:, 2] < s / 2])
    inner_uv, inner_z = cam.project(cube.corners(inset=r))
    rad = r * cam.f / inner_z
    a16 = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    ring = np.stack([np.cos(a16), np.sin(a16)], axis=1)
    hull_pts = (inner_uv[:, None, :] + rad[:, None, None] * ring[None]).reshape(-1, 2)
    body_poly = cv2.convexHull(hull_pts.astype(np.float32)).reshape(-1, 2)
    allpts = np.vstack([cast_uv, body_poly])
    pad = 0.35 * s + 4
    x0, y0 = max(0, int(allpts[:, 0].min() - pad)), max(0, int(allpts[:, 1].min() - pad))
    x1, y1 = min(w, int(allpts[:, 0].max() + pad) + 2), min(h, int(allpts[:, 1].max() + pad) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    off = np.array([x0, y0], np.float64)

    def mask(poly: Any) -> Any:
        m = np.zeros((rh, rw), np.uint8)
        _fill(m, (np.asarray(poly, np.float64) - off).astype(np.float32))
        return m.astype(np.float32) / 255

    shadow = mask(cv2.convexHull(cast_uv.astype(np.float32)).reshape(-1, 2))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.12 * s, 0.5)) * 0.45
    contact = mask(cv2.convexHull(foot_uv.astype(np.float32)).reshape(-1, 2))
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.05 * s, 0.5)) * 0.35
    shadow = np.minimum(shadow + contact, 0.75)

    a_body = mask(body_poly)
    col = np.array(colour, np.float64)
    pip_col = np.array(pip, np.float64)
    die_rgb = np.empty((rh, rw, 3), np.float32)
    die_rgb[:] = col * 0.7  # the rounded edges between the faces
    inner = s - 2 * r
    blur = max(0.02 * s, 0.3)
    for axis in _AXES:
        centre, e1, e2 = cube.frame(axis)
        normal = np.cross(e1, e2)
        if normal @ (cam.pos - centre) <= 0:
            continue  # faces away from the camera
        shade = _shade(normal, light)
        face_uv, _ = cam.project(_square_on(centre, e1, e2, inner, design.corner * inner * 0.6))
        a_face = cv2.GaussianBlur(mask(face_uv), (0, 0), blur)
        face_col = (col * min(shade, 1.08)).astype(np.float32)
        die_rgb = die_rgb * (1 - a_face[..., None]) + face_col * a_face[..., None]
        pips = np.zeros((rh, rw), np.uint8)
        for px, py, pr in design.pips(cube.faces[axis]):
            ring_uv, _ = cam.project(_circle_on(centre + px * s * e1 + py * s * e2, e1, e2, pr * s))
            _fill(pips, (ring_uv - off).astype(np.float32))
        a_pips = (pips.astype(np.float32) / 255 * a_face)[..., None]
        die_rgb = die_rgb * (1 - a_pips) + (pip_col * min(shade, 1.0)).astype(np.float32) * a_pips
        if glare > 0 and axis == (0, 0, 1):  # the lamp's reflection on the top face
            gx, gy = rng.uniform(-0.3, 0.3, 2) * s
            spot_uv, _ = cam.project(_circle_on(centre + gx * e1 + gy * e2, e1, e2, 0.15 * s))
            spot = cv2.GaussianBlur(mask(spot_uv), (0, 0), max(0.08 * s, 0.5)) * glare
            die_rgb = die_rgb * (1 - spot[..., None]) + np.float32(250) * spot[..., None]

    roi = img[y0:y1, x0:x1]
    roi *= (1 - shadow * (1 - a_body))[..., None]
    roi *= (1 - a_body)[..., None]
    roi += die_rgb * a_body[..., None]


def render_oblique(
    values: Sequence[int],
    seed: int,
    size: tuple[int, int] = (640, 480),
    tilt_deg: float = 25.0,
    die_px: float | None = None,
    table: str = "wood",
    die_colour: str | Sequence[int] = "white",
    pip_colour: str | Sequence[int] = "black",
    *,
    table_seed: int | None = None,
    focal: float | None = None,
    design: DiceDesign = STANDARD,
    glare: float = 0.0,
    noise: float = 2.0,
) -> tuple[np.ndarray, list[ObliqueTruth]]:
    """Dice showing ``values`` on a ``table``, seen by a camera tilted ``tilt_deg`` from
    straight down (0 to about 40), and where each die's top face is in the picture.

    Each die is a cube with rounded edges resting flat on the table at a random yaw and lying
    one of the ways a right-handed die can (its side faces show legal neighbours of the top
    value, opposite faces summing to 7). Every face the camera sees is drawn, shaded by the
    table's lamp (the top face brightest), with its pips. ``die_px``: a die's side in pixels
    at the middle of the picture (default 12 % of the short side); ``focal``: the camera's
    focal length in pixels (default 0.9 x the width, a webcam's field of view): nearer dice
    look bigger. ``glare`` (0 to 1): a bright spot on each top face. ``seed`` fixes the dice,
    ``table_seed`` (default ``seed``) the table and its lamp. Returns ``(BGR uint8, truths)``,
    truths in the order of ``values``."""
    np, cv2 = _numpy(), _cv2()
    size = (int(size[0]), int(size[1]))
    vals = check_faces(values)
    if table not in TABLES:
        raise ValueError(f'unknown table "{table}": use one of {", ".join(TABLES)}')
    if not 0 <= tilt_deg <= 60:
        raise ValueError(f"tilt_deg is 0 (straight down) to 60, not {tilt_deg}")
    w, h = size
    side = float(die_px) if die_px is not None else default_die_px(size)
    colour, pip = _colour(die_colour, "die colour"), _colour(pip_colour, "pip colour")
    cam = _Camera(size, float(tilt_deg), float(focal) if focal else 0.9 * w)
    base, lamp, shadow_dir = _table_layers(size, table, seed if table_seed is None else table_seed)
    light = _light_vector(shadow_dir, 55.0)
    rng = np.random.default_rng([seed, 11])

    cubes: list[_Cube] = []
    shapes: list[tuple[float, float, float]] = []  # projected centre and reach of each die
    margin = 3.0
    for v in vals:
        for _attempt in range(3000):
            u, vv = rng.uniform(0, w), rng.uniform(0, h)
            x, y = cam.to_table(u, vv)
            cube = _Cube(v, x, y, side, float(rng.uniform(0, 360)), die_faces(v, rng),
                         {a: int(rng.integers(4)) for a in _AXES})  # fmt: skip
            uv, _ = cam.project(cube.corners())
            if (uv[:, 0].min() < margin or uv[:, 1].min() < margin
                    or uv[:, 0].max() > w - margin or uv[:, 1].max() > h - margin):  # fmt: skip
                continue
            mid = uv.mean(axis=0)
            reach = float(np.hypot(*(uv - mid).T).max())
            if all(math.hypot(mid[0] - a, mid[1] - b) >= reach + c + 2 for a, b, c in shapes):
                cubes.append(cube)
                shapes.append((float(mid[0]), float(mid[1]), reach))
                break
        else:
            raise ValueError(
                f"cannot place {len(vals)} dice of {side:.0f} px apart in a {w}x{h} picture: "
                "use fewer or smaller dice"
            )

    img = cv2.warpPerspective(base, cam.homography(size), size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)  # fmt: skip
    far_first = sorted(range(len(cubes)),
                       key=lambda i: -float(cam.project([[cubes[i].x, cubes[i].y, 0]])[1][0]))
    glare_rng = np.random.default_rng([seed, 12])
    for i in far_first:
        _draw_cube(img, cubes[i], cam, light, colour, pip, design, glare, glare_rng)
    img *= lamp[..., None]
    img = cv2.GaussianBlur(img, (0, 0), 0.6)
    if noise > 0:
        img += np.random.default_rng([seed, 5]).standard_normal(img.shape, np.float32) * np.float32(
            noise
        )
    truths = []
    for cube in cubes:
        faces = []
        for axis in _AXES:
            centre, e1, e2 = cube.frame(axis)
            normal = np.cross(e1, e2)
            if normal @ (cam.pos - centre) <= 0:
                continue
            quad, _ = cam.project([centre + a * side / 2 * e1 + b * side / 2 * e2
                                   for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))])  # fmt: skip
            area = 0.5 * abs(float(np.dot(quad[:, 0], np.roll(quad[:, 1], 1))
                                   - np.dot(quad[:, 1], np.roll(quad[:, 0], 1))))  # fmt: skip
            ((cx, cy),), _ = cam.project([centre])
            faces.append((axis, cube.faces[axis], float(cx), float(cy), math.sqrt(area), quad))
        top = next(f for f in faces if f[0] == (0, 0, 1))
        quad = top[5]
        to_cam = cam.pos - np.array([cube.x, cube.y, side])
        view = math.degrees(math.acos(float(to_cam[2] / np.linalg.norm(to_cam))))
        truths.append(ObliqueTruth(
            top[1], top[2], top[3], top[4],
            (float(quad[:, 0].min()), float(quad[:, 1].min()),
             float(quad[:, 0].max()), float(quad[:, 1].max())),
            tuple((f[1], f[2], f[3], f[4]) for f in faces if f[0] != (0, 0, 1)),
            view,
        ))  # fmt: skip
    return img.clip(0, 255).astype(np.uint8), truths
