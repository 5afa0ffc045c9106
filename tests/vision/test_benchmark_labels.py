"""The dice benchmark scores the shared photos by their labels, with the known wrong labels fixed
(``benchmark_dice.LABEL_FIXES``): a fixed label changes the figures a pass reports, so the fix
must apply by default, be printed, and be undone by ``--as-labelled``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
import benchmark_dice  # noqa: E402

MANIFEST = "image,label,split,width,height,n_dice\n"


def _folder(root: Path, name: str, split: str, lines: list[str]) -> None:
    folder = root / "webcam-white"
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "images" / name), np.full((480, 640, 3), 200, np.uint8))
    stem = Path(name).stem
    (folder / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = folder / "manifest.csv"
    if not manifest.exists():
        manifest.write_text(MANIFEST, encoding="utf-8")
    with manifest.open("a", encoding="utf-8") as f:
        f.write(f"images/{name},labels/{stem}.txt,{split},640,480,{len(lines)}\n")


def _values(root: Path, split: str, as_labelled: bool) -> list[int]:
    return [lab.value for s in benchmark_dice.photo_samples(root, "webcam-white", split, None,
                                                             as_labelled=as_labelled)
            for lab in s.labels]  # fmt: skip


def test_a_known_wrong_label_is_scored_as_fixed_and_said(tmp_path: Path, capsys) -> None:
    # valid_valid_56: its third box (line 2) says 4 around a die showing a 1
    _folder(tmp_path, "valid_valid_56.jpg", "valid",
            ["4 0.39 0.50 0.07 0.11", "3 0.60 0.66 0.06 0.11", "3 0.74 0.57 0.02 0.02",
             "5 0.75 0.28 0.06 0.11"])  # fmt: skip
    assert _values(tmp_path, "heldout", as_labelled=False) == [5, 4, 1, 6]
    assert "valid_valid_56.jpg line 2: 4 -> 1" in capsys.readouterr().out
    assert _values(tmp_path, "heldout", as_labelled=True) == [5, 4, 4, 6]


def test_a_box_on_empty_table_is_no_die_to_find(tmp_path: Path) -> None:
    _folder(tmp_path, "train_five_1.jpg", "train",
            ["0 0.725 0.434 0.106 0.131", "4 0.561 0.450 0.094 0.142"])
    assert _values(tmp_path, "train", as_labelled=False) == [5]
    assert _values(tmp_path, "train", as_labelled=True) == [1, 5]


def test_other_photos_keep_their_labels(tmp_path: Path) -> None:
    _folder(tmp_path, "train_five_2.jpg", "train", ["0 0.725 0.434 0.106 0.131"])
    assert _values(tmp_path, "train", as_labelled=False) == [1]
