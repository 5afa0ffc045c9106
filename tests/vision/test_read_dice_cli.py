"""``companion read-dice``: one line per image (JSON or human), error lines that do not stop the
run, exit codes, and the pips / rats routing to the live path's readers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.devices.synthetic import render_dice
from companion.vision.observation import DiceObservation, DieReading

DIE_KEYS = {"value": int, "x": float, "y": float, "confidence": float, "uncertain": bool}


def stub_observation(image: np.ndarray) -> DiceObservation:
    h, w = image.shape[:2]
    return DiceObservation(
        "pips",
        (
            DieReading(3, 312.44, 188.0, 0.98, False, 40.0),
            DieReading(5, 100.5, 60.25, 0.61, True, 40.0),
        ),
        w,
        h,
    )


@pytest.fixture
def stub_pips(monkeypatch) -> list[tuple[int, int]]:
    """read_pips replaced by a stub; returns the shapes of the images it was given."""
    dice = pytest.importorskip("companion.vision.dice")
    seen: list[tuple[int, int]] = []

    def read_pips(image: np.ndarray) -> DiceObservation:
        seen.append(image.shape[:2])
        return stub_observation(image)

    monkeypatch.setattr(dice, "read_pips", read_pips)
    return seen


@pytest.fixture
def images(tmp_path: Path) -> dict[str, str]:
    good = tmp_path / "roll.png"
    cv2.imwrite(str(good), np.full((48, 64, 3), 200, np.uint8))
    other = tmp_path / "roll two.jpg"
    cv2.imwrite(str(other), np.full((30, 40, 3), 90, np.uint8))
    text = tmp_path / "notes.png"
    text.write_text("this is not a picture", encoding="utf-8")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    return {
        "good": str(good),
        "other": str(other),
        "text": str(text),
        "empty": str(empty),
        "missing": str(tmp_path / "nowhere.jpg"),
        "folder": str(tmp_path),
    }


def run(capsys, *argv: str) -> tuple[int, list[str], str]:
    code = main(["read-dice", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_json_lines_have_exactly_the_documented_keys_and_types(capsys, stub_pips, images) -> None:
    code, lines, err = run(capsys, "--json", images["good"], images["other"])
    assert code == 0 and err == ""
    assert len(lines) == 2 and stub_pips == [(48, 64), (30, 40)]
    for line, name in zip(lines, (images["good"], images["other"]), strict=True):
        record = json.loads(line)
        assert list(record) == ["image", "dice", "total"]
        assert record["image"] == name  # the path as given
        assert type(record["total"]) is int and record["total"] == 8
        assert len(record["dice"]) == 2
        for die in record["dice"]:
            assert list(die) == list(DIE_KEYS)
            for key, kind in DIE_KEYS.items():
                assert type(die[key]) is kind, (key, die[key])
    first = json.loads(lines[0])["dice"]
    assert first[0] == {"value": 3, "x": 312.4, "y": 188.0, "confidence": 0.98,
                        "uncertain": False}  # fmt: skip
    assert first[1]["uncertain"] is True


def test_unreadable_files_get_an_error_line_and_the_run_goes_on(capsys, stub_pips, images):
    order = ["missing", "good", "text", "empty", "folder", "other"]
    code, lines, err = run(capsys, "--json", *(images[k] for k in order))
    assert code == 1
    records = [json.loads(line) for line in lines]
    assert [r["image"] for r in records] == [images[k] for k in order]
    errors = {k: r["error"] for k, r in zip(order, records, strict=True) if "error" in r}
    assert set(errors) == {"missing", "text", "empty", "folder"}
    for k in errors:
        record = records[order.index(k)]
        assert list(record) == ["image", "error"] and isinstance(record["error"], str)
    assert errors["missing"] == "no such file"
    assert errors["text"].startswith("not an image")
    assert errors["empty"] == "the file is empty"
    assert errors["folder"] == "a folder, not an image"
    assert records[1]["total"] == 8 and records[5]["total"] == 8  # read before and after
    assert len(stub_pips) == 2
    assert "Traceback" not in err


def test_a_reader_crashing_on_one_image_is_that_images_error(capsys, monkeypatch, images):
    dice = pytest.importorskip("companion.vision.dice")
    calls = []

    def read_pips(image: np.ndarray) -> DiceObservation:
        calls.append(1)
        if len(calls) == 1:
            raise ZeroDivisionError("division by zero")
        return stub_observation(image)

    monkeypatch.setattr(dice, "read_pips", read_pips)
    code, lines, _ = run(capsys, "--json", images["good"], images["other"])
    assert code == 1
    assert json.loads(lines[0]) == {
        "image": images["good"],
        "error": "the pips reader failed (ZeroDivisionError: division by zero)",
    }
    assert json.loads(lines[1])["total"] == 8


def test_human_lines_show_the_sum_and_the_uncertain_dice(capsys, stub_pips, images) -> None:
    code, lines, _ = run(capsys, images["good"], images["missing"])
    assert code == 1
    assert lines == [
        f"{images['good']}: 3 + 5 = 8 (die 2 uncertain)",
        f"{images['missing']}: error: no such file",
    ]


def test_every_image_read_is_exit_code_0(capsys, stub_pips, images) -> None:
    assert run(capsys, images["good"])[0] == 0


def test_kind_rats_goes_to_read_rats_and_pips_never_runs(capsys, monkeypatch, stub_pips, images):
    rats = pytest.importorskip("companion.vision.rats")
    given = []

    def read_rats(image: np.ndarray, model: object = None) -> DiceObservation:
        given.append((image.shape[:2], model))
        die = DieReading(2, 10.0, 12.0, 0.9, False, 20.0)
        return DiceObservation("rats", (die, die), image.shape[1], image.shape[0])

    monkeypatch.setattr(rats, "read_rats", read_rats)
    code, lines, _ = run(capsys, "--kind", "rats", "--json", images["good"])
    assert code == 0
    assert given == [((48, 64), None)] and stub_pips == []
    assert json.loads(lines[0])["total"] == 4
    # and the default kind is pips
    run(capsys, "--json", images["good"])
    assert stub_pips == [(48, 64)] and len(given) == 1


def test_missing_opencv_is_one_line_and_exit_2(capsys, monkeypatch, images) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` now raises ImportError
    code, lines, err = run(capsys, images["good"])
    assert code == 2 and lines == []
    assert err.strip().splitlines() == [
        "companion: OpenCV is missing: run ./setup.sh (on a Pi it installs python3-opencv "
        "and python3-numpy from apt)"
    ]


def test_help_tells_the_exit_codes(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["read-dice", "--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 when every image was read, 1 when any image could not be read" in out
    assert "--kind {pips,rats}" in out and "--json" in out


def test_the_real_pip_reader_on_a_synthetic_photo_prints_a_well_formed_line(
    capsys, tmp_path: Path
) -> None:
    pytest.importorskip("companion.vision.dice")
    image, truth = render_dice([4, 2, 6], seed=11)
    path = tmp_path / "three dice.png"
    assert cv2.imwrite(str(path), image)
    code, lines, err = run(capsys, "--json", str(path))
    assert code == 0, err
    record = json.loads(lines[0])
    assert list(record) == ["image", "dice", "total"] and record["image"] == str(path)
    assert record["total"] == sum(d["value"] for d in record["dice"])
    for die in record["dice"]:
        assert list(die) == list(DIE_KEYS)
        assert 0 <= die["x"] <= 640 and 0 <= die["y"] <= 480
        assert 0 <= die["confidence"] <= 1 and 1 <= die["value"] <= 6
    code, lines, _ = run(capsys, str(path))
    assert code == 0 and lines[0].startswith(f"{path}: ")
