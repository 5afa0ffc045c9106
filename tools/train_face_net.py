"""Train the pip dice's second opinion (companion/vision/facenet.py) and ship it as ONNX.

    # once, in a separate venv (PyTorch is needed to train, never to run the companion):
    python3 -m venv .venv-train && .venv-train/bin/pip install -r tools/requirements-train.txt
    PYTHONPATH=. .venv-train/bin/python tools/train_face_net.py [--folds 4] [--epochs 12]

What it learns from (never from a held-out photo; tools/benchmark_dice.py decides which are):
- webcam-white train photos: every die the classical reader finds there, labelled with the
  value of the label box it matches, every reading matching no box as class 0 (a ghost:
  a side face, desk texture), the faces it dropped as side faces (class 0), and patches of
  bare desk;
- tabletop-augmented train photos: dice the reader finds (matched), and every labelled die
  cut around its box (the reader misses many of them);
- synthetic top-down renders (companion.devices.synthetic.render_dice, seeds from 300 000, far
  from the benchmark's 1 000.. and 50 000..), dice and bare table;
- ``--oblique N`` 3D renders seen by a tilted camera (render_oblique, the benchmark's
  synthetic-oblique sampling: tilt 0-35 degrees, its styles and die sizes, but seeds from
  450 000, far from its 1 000.., 50 000.. and 2 000 000..): every top face as its value,
  every side face in view big enough to crop as class 0, the reader's readings (matched to
  a top face: its value, else class 0), the faces it dropped as side faces, bare table.
  A photo's die counts 3, a top-down render's 1, an oblique render's ``--oblique-weight``
  (its top faces ``--oblique-face-weight`` when given).

Each die is cut by ``facenet.face_crops`` (the same code the reader runs) several times with
its centre and size jittered, then turned by quarter turns and mirrored at random while
training. First ``--folds`` models are trained, each without one fold of the photos and
renders, to give every training die an opinion from a model that never saw it
(``--oof FILE``, what the reader's thresholds are chosen on); then the shipped model is
trained on everything (not with ``--oof-only``). It writes ``assets/vision/pips_face.onnx``
and ``pips_face.json`` (``--out``: elsewhere, to compare a candidate before shipping it).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tools"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from benchmark_dice import (  # noqa: E402
    DEFAULT_DATA,
    SYNTH_STYLES,
    Label,
    match,
    photo_samples,
    render_oblique_sample,
)

from companion.devices.synthetic import render_dice  # noqa: E402
from companion.vision import facenet  # noqa: E402
from companion.vision.dice import read_pips  # noqa: E402

CLASSES = (0, 1, 2, 3, 4, 5, 6)  # 0: not a die's top face
SYNTH_FIRST_SEED = 300_000
OBLIQUE_FIRST_SEED = 450_000  # the benchmark's oblique renders: 1 000.., 50 000.., 2 000 000..


@dataclass
class Die:
    source: str  # which set
    image: int  # index into the image list
    x: float
    y: float
    side: float
    label: int  # 0..6
    fold: int
    from_reader: bool  # cut where the classical reader put it (what the model sees at run time)
    read: int = -1  # the classical reader's value (-1: not a reading)
    asked: bool = False  # the classical reader flagged it


def _fold(name: str, folds: int) -> int:
    """Photos close in number are near-duplicates (video frames, augmented copies of one
    photo): they go to the same fold, so out-of-fold opinions are honest."""
    nums = re.findall(r"\d+", name)
    n = int(nums[0]) if nums else sum(map(ord, name))
    return (n // 8) % folds


def _bare_spots(rng: np.random.Generator, img: np.ndarray, boxes: list[tuple[float, float, float]],
                side: float, count: int) -> list[tuple[float, float]]:  # fmt: skip
    h, w = img.shape[:2]
    out = []
    for _ in range(count * 10):
        x, y = rng.uniform(side, w - side), rng.uniform(side, h - side)
        if all(abs(x - bx) > 1.2 * (bs / 2 + side) or abs(y - by) > 1.2 * (bs / 2 + side)
               for bx, by, bs in boxes):  # fmt: skip
            out.append((x, y))
            if len(out) >= count:
                break
    return out


def collect(data: Path, synth: int, folds: int, seed: int, oblique: int = 0
            ) -> tuple[list[np.ndarray], list[Die]]:  # fmt: skip
    rng = np.random.default_rng(seed)
    images: list[np.ndarray] = []
    dice: list[Die] = []

    def from_readings(src: str, labels: list, img: np.ndarray, fold: int, ghosts: bool) -> None:
        sides: list = []
        obs = read_pips(img, second_opinion=False, side_faces=sides)
        pairs, _ = match(labels, list(obs.dice))
        matched = {id(d) for _, d in pairs}
        k = len(images) - 1
        for lab, d in pairs:
            if d.size > 0:
                dice.append(Die(src, k, d.x, d.y, d.size, lab.value, fold, True, d.value,
                                d.uncertain))  # fmt: skip
        if ghosts:
            for d in obs.dice:
                if id(d) not in matched and d.size > 0:
                    dice.append(Die(src, k, d.x, d.y, d.size, 0, fold, True, d.value,
                                    d.uncertain))  # fmt: skip
            # faces the reader dropped as side faces: "not a top face", with their die
            # around them (unless one lies on a labelled top face: a part of it read twice)
            for d in sides:
                if d.size > 0 and all(math.hypot(d.x - lab.cx, d.y - lab.cy) > 0.5 * d.size
                                      for lab in labels):  # fmt: skip
                    dice.append(Die(src, k, d.x, d.y, d.size, 0, fold, False))

    # as_labelled: the shipped model was trained on the photos' own labels (benchmark_dice's
    # LABEL_FIXES came later), so this script still makes it
    for s in photo_samples(data, "webcam-white", "train", None, as_labelled=True):
        images.append(s.image)
        fold = _fold(s.name, folds)
        from_readings("webcam", s.labels, s.image, fold, ghosts=True)
        # the box covers the pip pattern only: a face is about 1.35 times as wide
        sides = [1.35 * max(lab.w, lab.h) for lab in s.labels if lab.value > 1]
        side = float(np.median(sides)) if sides else 50.0
        boxes = [(lab.cx, lab.cy, side) for lab in s.labels]
        for x, y in _bare_spots(rng, s.image, boxes, side, 2):
            dice.append(Die("webcam", len(images) - 1, x, y, side, 0, fold, False))

    for s in photo_samples(data, "tabletop-augmented", "train", None):
        images.append(s.image)
        fold = _fold(s.name, folds)
        from_readings("tabletop", s.labels, s.image, fold, ghosts=False)
        for lab in s.labels:  # the box covers the whole visible die
            dice.append(Die("tabletop", len(images) - 1, lab.cx, lab.cy,
                            0.8 * min(lab.w, lab.h), lab.value, fold, False))  # fmt: skip

    for k in range(synth):
        sd = SYNTH_FIRST_SEED + k
        r = np.random.default_rng([sd, 7])
        table, die, pip = SYNTH_STYLES[k % len(SYNTH_STYLES)]
        values = [int(v) for v in r.integers(1, 7, int(r.integers(1, 7)))]
        px = float(r.uniform(24, 90))
        try:
            img, truth = render_dice(values, sd, table=table, die_color=die, pip_color=pip,
                                     die_px=px, noise=float(r.uniform(1, 6)))  # fmt: skip
        except ValueError:
            continue
        images.append(img)
        fold = k % folds
        labels = [Label(t.value, t.x, t.y, t.size, t.size) for t in truth]
        from_readings("synthetic", labels, img, fold, ghosts=True)
        for t in truth:
            dice.append(Die("synthetic", len(images) - 1, t.x, t.y, t.size, t.value, fold,
                            False))  # fmt: skip
        for x, y in _bare_spots(rng, img, [(t.x, t.y, t.size) for t in truth], px, 1):
            dice.append(Die("synthetic", len(images) - 1, x, y, px, 0, fold, False))

    for k in range(oblique):
        try:
            sample, otruth = render_oblique_sample(OBLIQUE_FIRST_SEED + k)
        except ValueError:
            continue
        images.append(sample.image)
        fold = k % folds
        n = len(images) - 1
        # the reader's readings: a top face's value only when it sits on that top face, not
        # on one of its side faces (the benchmark's match accepts a reading anywhere in the
        # top face's box enlarged by half, where a side face's centre may lie)
        sides: list = []
        obs = read_pips(sample.image, second_opinion=False, side_faces=sides)
        pairs, _ = match(sample.labels, list(obs.dice))
        top_of = {id(d): lab for lab, d in pairs}
        for d in obs.dice:
            if d.size <= 0:
                continue
            value = 0
            lab = top_of.get(id(d))
            if lab is not None:
                t = next(t for t in otruth if (t.x, t.y) == (lab.cx, lab.cy))
                mine = math.hypot(d.x - t.x, d.y - t.y)
                if all(mine < math.hypot(d.x - sx, d.y - sy) for _, sx, sy, _ in t.sides):
                    value = t.value
            dice.append(Die("oblique", n, d.x, d.y, d.size, value, fold, True, d.value,
                            d.uncertain))  # fmt: skip
        for d in sides:  # dropped as side faces: class 0 unless on a top face
            if d.size > 0 and all(math.hypot(d.x - t.x, d.y - t.y) > 0.5 * d.size
                                  for t in otruth):  # fmt: skip
                dice.append(Die("oblique", n, d.x, d.y, d.size, 0, fold, False))
        for t in otruth:  # a face is cut by its own side: the top face's, a side face's
            dice.append(Die("oblique", n, t.x, t.y, t.size, t.value, fold, False))
            for _, sx, sy, ss in t.sides:
                if ss >= facenet.MIN_SIDE:
                    dice.append(Die("oblique", n, sx, sy, ss, 0, fold, False))
        px = float(np.median([t.size for t in otruth]))
        boxes = [(t.x, t.y, 2.0 * t.size) for t in otruth]  # the die body around its top
        for x, y in _bare_spots(rng, sample.image, boxes, px, 1):
            dice.append(Die("oblique", n, x, y, px, 0, fold, False))
    return images, dice


def crops_for(images: list[np.ndarray], dice: list[Die], variants: int, seed: int) -> np.ndarray:
    """variants x N crops (float16): the first variant unjittered, the others jittered."""
    rng = np.random.default_rng(seed)
    out = np.zeros((variants, len(dice), 3, facenet.CROP_PX, facenet.CROP_PX), np.float16)
    by_image: dict[int, list[int]] = {}
    for i, d in enumerate(dice):
        by_image.setdefault(d.image, []).append(i)
    for k, idx in by_image.items():
        img = images[k]
        centres = np.array([(dice[i].x, dice[i].y) for i in idx])
        sides = np.array([dice[i].side for i in idx])
        for v in range(variants):
            if v == 0:
                c, s = centres, sides
            else:
                s = sides * rng.uniform(0.85, 1.2, len(idx))
                c = centres + rng.normal(0, 0.06, (len(idx), 2)) * sides[:, None]
            out[v, idx] = facenet.face_crops(img, c, s).astype(np.float16)
    return out


def build_net():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(
        *block(3, 16), nn.MaxPool2d(2),        # 20
        *block(16, 32), nn.MaxPool2d(2),       # 10
        *block(32, 48), nn.MaxPool2d(2),       # 5
        *block(48, 64),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(64 * 5 * 5, 64), nn.ReLU(),
        nn.Linear(64, len(CLASSES)),
    )  # fmt: skip


def train(crops: np.ndarray, labels: np.ndarray, weights: np.ndarray, epochs: int, seed: int):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    variants, n = crops.shape[:2]
    steps = epochs * ((n + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    lab = torch.from_numpy(labels.astype(np.int64))
    wt = torch.from_numpy(weights.astype(np.float32))
    loss_fn = torch.nn.CrossEntropyLoss(reduction="none", label_smoothing=0.02)
    net.train()
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for b in range(0, n, 128):
            idx = order[b:b + 128]
            v = rng.integers(0, variants, len(idx))
            x = crops[v, idx].astype(np.float32)
            # quarter turns and mirrors: a face read upside down is the same face
            x = np.rot90(x, int(rng.integers(0, 4)), axes=(2, 3))
            if rng.random() < 0.5:
                x = x[:, :, :, ::-1]
            x = x * rng.uniform(0.8, 1.25, (len(idx), 1, 1, 1))
            x = x + rng.normal(0, rng.uniform(0, 0.15), x.shape)
            xt = torch.from_numpy(np.ascontiguousarray(x, np.float32))
            out = net(xt)
            loss = (loss_fn(out, lab[idx]) * wt[idx]).sum() / wt[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"    epoch {epoch + 1}/{epochs}: loss {total / n:.4f}", flush=True)
    net.eval()
    return net


def predict(net, crops: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    import torch

    with torch.no_grad():
        out = [torch.softmax(net(torch.from_numpy(crops[b:b + 512].astype(np.float32))), 1)
               for b in range(0, len(crops), 512)]  # fmt: skip
    return torch.cat(out).numpy()


def export(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    import torch

    dummy = torch.zeros(1, 3, facenet.CROP_PX, facenet.CROP_PX)
    torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=11,
                      dynamo=False)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--synthetic", type=int, default=800, help="renders to learn from")
    ap.add_argument("--oblique", type=int, default=0,
                    help="oblique 3D renders to learn from (top faces and side faces)")  # fmt: skip
    ap.add_argument("--oblique-weight", type=float, default=1.0,
                    help="an oblique render's die counts this much (a top-down render's 1, "
                    "a photo's 3)")  # fmt: skip
    ap.add_argument("--oblique-face-weight", type=float, default=None,
                    help="an oblique render's top face (class 1-6) counts this much (default: "
                    "--oblique-weight); its side faces, ghosts, bare table keep that")  # fmt: skip
    ap.add_argument("--folds", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--variants", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--oof", type=Path, default=None, help="write out-of-fold opinions (.npz)")
    ap.add_argument("--out", type=Path, default=ROOT / "assets" / "vision" / "pips_face.onnx")
    ap.add_argument("--oof-only", action="store_true",
                    help="with --oof: write no model, only the out-of-fold opinions")  # fmt: skip
    args = ap.parse_args(argv)
    if args.oof_only and (args.oof is None or args.folds < 2):
        ap.error("--oof-only needs --oof FILE and --folds 2 or more")

    import torch

    torch.set_num_threads(2)
    t0 = time.time()
    images, dice = collect(args.data, args.synthetic, args.folds, args.seed, args.oblique)
    crops = crops_for(images, dice, args.variants, args.seed)
    labels = np.array([d.label for d in dice])
    folds = np.array([d.fold for d in dice])
    # the real photos are few: each counts three times a render
    weight = {"webcam": 3.0, "tabletop": 3.0, "synthetic": 1.0, "oblique": args.oblique_weight}
    weights = np.array([weight[d.source] for d in dice])
    if args.oblique_face_weight is not None:
        weights[[d.source == "oblique" and d.label > 0 for d in dice]] = args.oblique_face_weight
    sources = ("webcam", "tabletop", "synthetic", "oblique")
    counts = {src: n for src in sources if (n := sum(d.source == src for d in dice))}
    print(f"{len(dice)} dice crops from {len(images)} pictures {counts}, "
          f"per class {np.bincount(labels, minlength=7).tolist()} ({time.time() - t0:.0f} s)",
          flush=True)  # fmt: skip

    oof = np.full((len(dice), len(CLASSES)), np.nan, np.float32)
    if args.folds > 1 and args.oof is not None:
        for f in range(args.folds):
            tr = folds != f
            print(f"  fold {f + 1}/{args.folds}: training on {tr.sum()} dice", flush=True)
            net = train(crops[:, tr], labels[tr], weights[tr], args.epochs, args.seed + f)
            oof[~tr] = predict(net, crops[0, ~tr])
        ok = oof.argmax(1) == labels
        for src in counts:
            m = np.array([d.source == src and d.from_reader for d in dice])
            print(f"  out-of-fold, dice the reader found, {src}: "
                  f"{100 * ok[m].mean():.1f}% right of {m.sum()}")
        np.savez_compressed(args.oof, probs=oof, labels=labels, folds=folds,
                            source=np.array([d.source for d in dice]),
                            from_reader=np.array([d.from_reader for d in dice]),
                            image=np.array([d.image for d in dice]),
                            read=np.array([d.read for d in dice]),
                            asked=np.array([d.asked for d in dice]),
                            x=np.array([d.x for d in dice]),
                            y=np.array([d.y for d in dice]))  # fmt: skip

    if args.oof_only:
        return 0
    print(f"  final model: training on {len(dice)} dice", flush=True)
    net = train(crops, labels, weights, args.epochs, args.seed + 100)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out)
    info = {
        "classes": list(CLASSES),
        "crop_px": facenet.CROP_PX,
        "crop_scale": facenet.CROP_SCALE,
        "trained_on": counts,
        "per_class": np.bincount(labels, minlength=7).tolist(),
        "epochs": args.epochs,
        "seed": args.seed,
        "synthetic_seeds": [SYNTH_FIRST_SEED, SYNTH_FIRST_SEED + args.synthetic - 1],
        "oblique_seeds": [OBLIQUE_FIRST_SEED, OBLIQUE_FIRST_SEED + args.oblique - 1]
        if args.oblique else [],
        "oblique_weight": args.oblique_weight,
        "oblique_face_weight": args.oblique_weight if args.oblique_face_weight is None
        else args.oblique_face_weight,
        "made_by": "tools/train_face_net.py",
    }
    args.out.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
