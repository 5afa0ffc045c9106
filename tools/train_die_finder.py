"""Train the die-body finder (companion/vision/diefinder.py), ship it as ONNX, and measure it.

    # once, in a separate venv (PyTorch is needed to train, never to run the companion):
    python3 -m venv .venv-train && .venv-train/bin/pip install -r tools/requirements-train.txt
    PYTHONPATH=. .venv-train/bin/python tools/train_die_finder.py [--minutes 18]
    PYTHONPATH=. .venv/bin/python tools/train_die_finder.py --eval-only [--split heldout]

What it learns from (never from a held-out photo; tools/benchmark_dice.py decides which are):
- tabletop-augmented train photos: every labelled die (the box covers the visible die: its
  centre, and max(w, h) as side); photos crowded with dice (more than 12 labels) have some
  dice unlabelled, so the "no die here" loss counts half there;
- webcam-white train photos: the box covers the top face's pip pattern only, so its centre is
  the die's, its side times 1.4 the die's for values 2 to 6, and for a 1 (a box around one
  pip) the side is not learned at all; ``train_five_1`` (a box on empty desk) is left out;
- synthetic renders (companion.devices.synthetic.render_dice, seeds from 400 000, far from
  the benchmark's 1 000.. and 50 000.. and the face net's 300 000..): the 10 benchmark
  styles, 0 to 10 dice of 9 to 130 px; their side is that of the square box around
  the turned die, as the tabletop boxes have it.

A part of the train photos is kept for validation (the threshold is chosen there, and the
shipped model never sees it): tabletop photos with source number % 4 == 2, webcam photos with
(number // 8) % 4 == 2 (runs of 8 neighbouring frames, which are near-duplicates), and the
benchmark's synthetic tuning renders (seeds 1 000..).

Training works on random 128 x 128 crops of the letterboxed pictures (the network is fully
convolutional), zoomed by 0.65 to 1.5, mirrored, with colour, contrast, blur and noise
jitter, until ``--minutes`` have passed (2 threads; the learning rate follows the clock).
``--eval-only`` measures the shipped model through companion.vision.diefinder (OpenCV DNN):
per set and split, recall (a label is found when a proposal's centre lies inside its box
enlarged by 50 %, one to one, greedily), false proposals per image (matching no label) and
ms per image (letterbox, network, decode).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tools"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from benchmark_dice import (  # noqa: E402
    DEFAULT_DATA,
    SYNTH_STYLES,
    Label,
    Sample,
    match,
    photo_samples,
    synthetic_samples,
)

from companion.devices.synthetic import render_dice  # noqa: E402
from companion.vision import diefinder  # noqa: E402

SYNTH_FIRST_SEED = 400_000
CROP = 128  # training crops (letterboxed pixels); a multiple of diefinder.STRIDE
WEBCAM_SIDE = 1.4  # die side / pip-pattern box side on the webcam photos (values 2..6)
CROWDED = 12  # more labels than this: some dice are probably unlabelled
THRESHOLDS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)


@dataclass
class Pic:
    source: str
    name: str
    image: np.ndarray  # shrunk by the letterbox's scale (not padded), BGR uint8
    dice: np.ndarray  # N x 4: x, y, side (letterboxed px), 1 if the side is known else 0
    neg_weight: float  # weight of "no die here" on this picture


def _number(name: str) -> int:
    nums = re.findall(r"\d+", name)
    return int(nums[0]) if nums else 0


def is_validation(source: str, name: str) -> bool:
    """The part of the TRAIN photos kept back to choose the threshold and measure."""
    if source == "tabletop":
        return _number(name) % 4 == 2
    if source == "webcam":
        return (_number(name) // 8) % 4 == 2
    return False


INPUT_PX = diefinder.INPUT_PX  # what this run trains for (--input-px)


def _pic(source: str, name: str, image: np.ndarray, labels: list[Label], sides: list[float],
         known: list[bool]) -> Pic:  # fmt: skip
    h, w = image.shape[:2]
    scale = INPUT_PX / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    dice = np.array([[lab.cx * scale, lab.cy * scale, s * scale, float(k)]
                     for lab, s, k in zip(labels, sides, known, strict=True)],
                    np.float32).reshape(-1, 4)  # fmt: skip
    neg = 0.5 if len(labels) > CROWDED else 1.0
    return Pic(source, name, small, dice, neg)


def photo_pics(data: Path, split: str) -> Iterator[tuple[Pic, bool]]:
    """(picture, is it a validation picture) for the tabletop and webcam photos of ``split``."""
    for s in photo_samples(data, "tabletop-augmented", split, None):
        sides = [max(lab.w, lab.h) for lab in s.labels]
        yield (_pic("tabletop", s.name, s.image, s.labels, sides, [True] * len(sides)),
               is_validation("tabletop", s.name))  # fmt: skip
    # as_labelled: the shipped model was trained on the photos' own labels (benchmark_dice's
    # LABEL_FIXES came later); train_five_1's empty box is left out just below
    for s in photo_samples(data, "webcam-white", split, None, as_labelled=True):
        if s.name.startswith("train_five_1."):
            continue  # one box on empty desk
        pattern = [max(lab.w, lab.h) for lab in s.labels]
        known = [lab.value != 1 for lab in s.labels]
        typical = [WEBCAM_SIDE * p for p, k in zip(pattern, known, strict=True) if k]
        guess = float(np.median(typical)) if typical else 4.0 * max(pattern, default=10.0)
        sides = [WEBCAM_SIDE * p if k else guess for p, k in zip(pattern, known, strict=True)]
        yield _pic("webcam", s.name, s.image, s.labels, sides, known), is_validation("webcam",
                                                                                     s.name)


def synthetic_pics(count: int, first_seed: int = SYNTH_FIRST_SEED) -> Iterator[Pic]:
    for k in range(count):
        seed = first_seed + k
        rng = np.random.default_rng([seed, 7])
        table, die, pip = SYNTH_STYLES[k % len(SYNTH_STYLES)]
        n = int(rng.integers(0, 11))
        values = [int(v) for v in rng.integers(1, 7, n)]
        die_px = float(math.exp(rng.uniform(math.log(9), math.log(130))))
        try:
            img, truth = render_dice(values, seed, table=table, die_color=die, pip_color=pip,
                                     die_px=die_px)  # fmt: skip
        except ValueError:
            continue
        labels = [Label(t.value, t.x, t.y, t.size, t.size) for t in truth]
        # the side of the square box around the turned die, as the tabletop labels have it
        sides = [t.size * (abs(math.cos(math.radians(t.angle))) +
                           abs(math.sin(math.radians(t.angle)))) for t in truth]  # fmt: skip
        yield _pic("synthetic", f"synth-{seed}", img, labels, sides, [True] * len(truth))


# -- training ---------------------------------------------------------------------------------
def build_net():  # type: ignore[no-untyped-def]
    import torch
    from torch import nn

    def cbr(i: int, o: int, s: int = 1, d: int = 1) -> nn.Module:
        return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False),
                             nn.BatchNorm2d(o), nn.ReLU())  # fmt: skip

    class Res(nn.Module):
        def __init__(self, c: int, d: int) -> None:
            super().__init__()
            self.b = cbr(c, c, 1, d)

        def forward(self, x):  # type: ignore[no-untyped-def]
            return x + self.b(x)

    class Net(nn.Module):
        def __init__(self, c: int = 24) -> None:
            super().__init__()
            # stride 4, then growing dilation: a view of ~130 px without losing resolution
            self.body = nn.Sequential(cbr(3, 16, 2), cbr(16, c, 2),
                                      *[Res(c, d) for d in (1, 2, 4, 8)])  # fmt: skip
            self.head = nn.Sequential(nn.Conv2d(c, c, 1), nn.ReLU(),
                                      nn.Conv2d(c, diefinder.OUTPUTS, 1))  # fmt: skip
            with torch.no_grad():
                self.head[2].bias.zero_()
                self.head[2].bias[0] = -2.2  # a die is rare: start near p = 0.1

        def forward(self, x):  # type: ignore[no-untyped-def]
            return self.head(self.body(x))

    return Net()


def crop_sample(rng: np.random.Generator, pic: Pic) -> tuple[np.ndarray, np.ndarray]:
    """A jittered CROP x CROP picture (float32, 3 x CROP x CROP, normalised) and its dice."""
    zoom = math.exp(rng.uniform(math.log(0.65), math.log(1.5)))
    h, w = pic.image.shape[:2]
    if len(pic.dice) and rng.random() < 0.6:
        d = pic.dice[rng.integers(len(pic.dice))]
        cx, cy = d[0] + rng.uniform(-50, 50), d[1] + rng.uniform(-50, 50)
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    sx = -zoom if rng.random() < 0.5 else zoom
    sy = -zoom if (pic.source == "synthetic" and rng.random() < 0.5) else zoom
    m = np.array([[sx, 0, CROP / 2 - sx * cx], [0, sy, CROP / 2 - sy * cy]], np.float32)
    img = cv2.warpAffine(pic.image, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(diefinder.PAD_VALUE,) * 3)  # fmt: skip
    x = img.astype(np.float32)
    x = x * rng.uniform(0.9, 1.1, 3)  # colour balance
    mean = x.mean()
    x = (x - mean) * rng.uniform(0.7, 1.3) + mean + rng.uniform(-25, 25)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.0))
    if rng.random() < 0.5:
        x = x + rng.normal(0, rng.uniform(1, 6), x.shape)
    x = np.clip(x, 0, 255)
    dice = pic.dice.copy()
    if len(dice):
        dice[:, 0] = sx * dice[:, 0] + m[0, 2]
        dice[:, 1] = sy * dice[:, 1] + m[1, 2]
        dice[:, 2] *= zoom
    return diefinder.to_blob(x)[0], dice


def targets(dice: np.ndarray, cells: int) -> tuple[np.ndarray, ...]:
    """Heat map (Gaussian bumps, 1 at each centre cell), centre mask, size and offset targets."""
    heat = np.zeros((cells, cells), np.float32)
    pos = np.zeros((cells, cells), np.float32)
    size_ok = np.zeros((cells, cells), np.float32)
    size = np.zeros((cells, cells), np.float32)
    off = np.zeros((2, cells, cells), np.float32)
    g = np.arange(cells, dtype=np.float32) + 0.5
    for x, y, side, known in dice:
        u, v, s = x / diefinder.STRIDE, y / diefinder.STRIDE, side / diefinder.STRIDE
        sigma = max(0.5, 0.12 * s + 0.2)
        bump = np.exp(-((g[None, :] - u) ** 2 + (g[:, None] - v) ** 2) / (2 * sigma**2))
        np.maximum(heat, bump, out=heat)
        j, i = int(math.floor(u)), int(math.floor(v))
        if 0 <= i < cells and 0 <= j < cells:
            heat[i, j] = 1.0
            pos[i, j] = 1.0
            size_ok[i, j] = known
            size[i, j] = math.log(max(s, 0.5))
            off[:, i, j] = (u - j, v - i)
    return heat, pos, size_ok, size, off


def train(pics: list[Pic], minutes: float, seed: int, batch: int = 32):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net()
    # crops: 40 % tabletop, 30 % webcam, 30 % renders (the photos are few, the renders many)
    by_source: dict[str, list[int]] = {}
    for k, p in enumerate(pics):
        by_source.setdefault(p.source, []).append(k)
    sources = sorted(by_source)
    share = {"tabletop": 0.4, "webcam": 0.3, "synthetic": 0.3}
    probs = np.array([share.get(s, 1.0) for s in sources])
    probs /= probs.sum()
    cells = CROP // diefinder.STRIDE
    # within a source, a picture with more dice is picked more often (crowded tables are few)
    pick = {}
    for src, ids in by_source.items():
        w = np.sqrt(1.0 + np.array([len(pics[k].dice) for k in ids], np.float64))
        pick[src] = w / w.sum()
    # the learning rate follows the clock (warm up, then a cosine down to zero when the
    # minutes are up), so a busy machine gives fewer steps, never a longer run
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    t0 = time.time()
    budget = minutes * 60
    step = 0
    running = 0.0
    net.train()
    while (elapsed := time.time() - t0) < budget:
        frac = elapsed / budget
        lr = 3e-3 * (frac / 0.05 if frac < 0.05 else 0.5 * (1 + math.cos(math.pi * frac)))
        for group in opt.param_groups:
            group["lr"] = max(lr, 1e-5)
        xs, ts = [], []
        for src in rng.choice(len(sources), batch, p=probs):
            ids = by_source[sources[src]]
            pic = pics[ids[rng.choice(len(ids), p=pick[sources[src]])]]
            x, d = crop_sample(rng, pic)
            xs.append(x)
            ts.append((*targets(d, cells), pic.neg_weight))
        x_t = torch.from_numpy(np.stack(xs))
        heat = torch.from_numpy(np.stack([t[0] for t in ts]))
        pos = torch.from_numpy(np.stack([t[1] for t in ts]))
        size_ok = torch.from_numpy(np.stack([t[2] for t in ts]))
        size = torch.from_numpy(np.stack([t[3] for t in ts]))
        off = torch.from_numpy(np.stack([t[4] for t in ts]))
        neg_w = torch.tensor([t[5] for t in ts], dtype=torch.float32)[:, None, None]
        out = net(x_t)
        p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
        pos_l = -((1 - p) ** 2 * torch.log(p) * pos).sum()
        neg_l = -((1 - heat) ** 4 * p**2 * torch.log(1 - p) * (1 - pos) * neg_w).sum()
        npos = pos.sum().clamp(min=1.0)
        heat_l = (pos_l + neg_l) / npos
        size_l = ((out[:, 1] - size).abs() * size_ok).sum() / size_ok.sum().clamp(min=1.0)
        off_l = ((out[:, 2:4] - off).abs() * pos[:, None]).sum() / npos
        loss = heat_l + 0.5 * size_l + off_l
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 250 == 0:
            print(f"  step {step}: loss {running:.3f}, lr {lr:.5f} ({elapsed:.0f} s)", flush=True)
    print(f"  {step} steps of {batch} crops in {time.time() - t0:.0f} s", flush=True)
    net.eval()
    return net


def export(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    import onnx
    import torch

    dummy = torch.zeros(1, 3, INPUT_PX, INPUT_PX)
    torch.onnx.export(net, dummy, str(path), input_names=["image"], output_names=["maps"],
                      opset_version=11, dynamo=False)  # fmt: skip
    model = onnx.load(str(path))
    graph = model.graph
    # drop Identity nodes (folded batch norms leave some): fewer ops for old OpenCV
    alias = {n.output[0]: n.input[0] for n in graph.node if n.op_type == "Identity"}
    keep = [n for n in graph.node if n.op_type != "Identity"]
    for n in keep:
        for k, name in enumerate(n.input):
            while name in alias:
                name = alias[name]
            n.input[k] = name
    del graph.node[:]
    graph.node.extend(keep)
    ops = {n.op_type for n in graph.node}
    if not ops <= {"Conv", "Relu", "Add"}:
        raise SystemExit(f"unexpected operators {ops}")
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


# -- measuring --------------------------------------------------------------------------------
@dataclass
class Score:
    images: int = 0
    labels: int = 0
    found: int = 0
    false: int = 0
    seconds: float = 0.0

    def row(self, name: str) -> str:
        return (f"{name:<40} {self.images:>6} {self.labels:>6} "
                f"{100 * self.found / max(self.labels, 1):>6.1f}% "
                f"{self.false / max(self.images, 1):>7.2f} "
                f"{1000 * self.seconds / max(self.images, 1):>7.1f}")  # fmt: skip


HEADER = f"{'set / split':<40} {'images':>6} {'dice':>6} {'recall':>7} {'false/im':>7} {'ms/im':>7}"


def measure(finder: diefinder.DieFinder, samples: Iterator[Sample],
            thresholds: tuple[float, ...]) -> dict[float, Score]:  # fmt: skip
    """Recall and false proposals at each threshold; time of one default find per image."""
    scores = {t: Score() for t in thresholds}
    low = min(thresholds)
    for s in samples:
        t0 = time.perf_counter()
        finder.find(s.image)
        dt = time.perf_counter() - t0
        props = finder.find(s.image, threshold=low)
        for t, sc in scores.items():
            kept = [p for p in props if p.score >= t]
            pairs, false = match(s.labels, kept)  # type: ignore[arg-type]
            sc.images += 1
            sc.labels += len(s.labels)
            sc.found += len(pairs)
            sc.false += false
            sc.seconds += dt
    return scores


def evaluate(finder: diefinder.DieFinder, data: Path, split: str,
             thresholds: tuple[float, ...]) -> None:  # fmt: skip
    """Print the table for ``split``: "validation" (the kept-back train part) or "heldout"."""
    sets: list[tuple[str, Iterator[Sample]]] = []
    if split == "validation":
        sets.append(("tabletop-augmented / validation",
                     (s for s in photo_samples(data, "tabletop-augmented", "train", None)
                      if is_validation("tabletop", s.name))))  # fmt: skip
        sets.append(("webcam-white / validation",
                     (s for s in photo_samples(data, "webcam-white", "train", None,
                                               as_labelled=True)
                      if is_validation("webcam", s.name))))  # fmt: skip
        sets.append(("synthetic / tuning (seeds 1000..)", synthetic_samples(100)))
    else:
        sets.append(("tabletop-augmented / heldout",
                     photo_samples(data, "tabletop-augmented", "heldout", None)))
        sets.append(("webcam-white / heldout", photo_samples(data, "webcam-white", "heldout",
                                                             None, as_labelled=True)))  # fmt: skip
        sets.append(("synthetic / heldout (seeds 50000..)",
                     synthetic_samples(100, first_seed=50_000)))  # fmt: skip
    print(f"threshold {finder.threshold} (default) ->")
    print(HEADER)
    for name, samples in sets:
        scores = measure(finder, samples, thresholds)
        for t, sc in scores.items():
            mark = " <- default" if t == finder.threshold else ""
            print(sc.row(f"{name} @{t:.2f}") + mark, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--synthetic", type=int, default=1500, help="renders to learn from")
    ap.add_argument("--minutes", type=float, default=18.0, help="training time")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--input-px", type=int, default=diefinder.INPUT_PX)
    ap.add_argument("--out", type=Path, default=ROOT / "assets" / "vision" / "die_finder.onnx")
    ap.add_argument("--eval-only", action="store_true", help="measure the model at --out")
    ap.add_argument("--split", choices=("validation", "heldout"), default="validation")
    args = ap.parse_args(argv)
    cv2.setNumThreads(2)
    global INPUT_PX
    INPUT_PX = args.input_px

    if not args.eval_only:
        import torch

        torch.set_num_threads(2)
        t0 = time.time()
        pics = [p for p, val in photo_pics(args.data, "train") if not val]
        pics += list(synthetic_pics(args.synthetic))
        counts = {src: sum(p.source == src for p in pics) for src in ("tabletop", "webcam",
                                                                      "synthetic")}  # fmt: skip
        n_dice = {src: int(sum(len(p.dice) for p in pics if p.source == src)) for src in counts}
        print(f"{len(pics)} pictures {counts}, dice {n_dice} ({time.time() - t0:.0f} s)",
              flush=True)  # fmt: skip
        net = train(pics, args.minutes, args.seed)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        export(net, args.out)
        info = {
            "input_px": INPUT_PX,
            "stride": diefinder.STRIDE,
            "outputs": diefinder.OUTPUTS,
            "pad_value": diefinder.PAD_VALUE,
            "trained_on": counts,
            "dice": n_dice,
            "minutes": args.minutes,
            "seed": args.seed,
            "synthetic_seeds": [SYNTH_FIRST_SEED, SYNTH_FIRST_SEED + args.synthetic - 1],
            "validation": "tabletop source % 4 == 2, webcam (number // 8) % 4 == 2: not trained on",
            "made_by": "tools/train_die_finder.py",
        }
        args.out.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n",
                                                 encoding="utf-8")  # fmt: skip
        print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in "
              f"{time.time() - t0:.0f} s", flush=True)  # fmt: skip

    finder = diefinder.load_path(args.out)
    if finder is None:
        print("no usable model to measure")
        return 1
    evaluate(finder, args.data, args.split, THRESHOLDS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
