"""Settings, in four tabs: general (language, all sound on/off, screen rotation applied
at once), sound (the speaker on/off and its volume, the buzzer kind, a test), camera (the source for
the next start and a live camera check) and the Le Docte Rat board file.

Each change applies at once where it safely can and is written into the config file when
it can be (comments kept, ``ctx.save_setting``); otherwise it is kept until the next
restart and the player is told why. What applies only at the next start (the camera
source; the buzzer when its pins cannot be reached from here) says so on screen.

Board files live in a ``boards`` folder beside the config file (``Config.boards_dir``,
created when the Board tab opens); the screen shows that folder. A chosen file is read and
checked with the game's own board rules before it is saved; a bad one shows its
line-numbered message and is not saved.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pygame

from ...config import BUZZER_KINDS, LANGUAGES
from ...core.errors import CompanionError
from .. import theme as th
from ..i18n import TABLES
from ..widgets import Button, draw_block, draw_text, grid, panel, stack
from .base import PageScene, Scene
from .devices import BEEP_PATTERNS, DevicesScene

log = logging.getLogger(__name__)

TABS = ("screen", "sound", "camera", "board")
CAMERA_CHOICES = ("auto", "picamera", "webcam", "webcam:1", "synthetic")
ROTATIONS = (0, 180)
VOLUME_STEP = 10
BOARDS_PER_PAGE = 6


def board_files(folder: Path) -> list[Path]:
    """The ``*.txt`` files of the boards folder, by name; [] when it cannot be read."""
    try:
        return sorted((p for p in folder.glob("*.txt") if p.is_file()),
                      key=lambda p: p.name.lower())
    except OSError:
        return []


def check_board_file(path: str) -> tuple[Any, str | None]:
    """(the board, None) when the file is a good board, else (None, its one-line error
    naming the file and line). Never raises."""
    from ...games.docte_rat.files import check_board, read_board_file

    try:
        board = read_board_file(path)
        return check_board(board, Path(path).name), None
    except CompanionError as exc:
        return None, str(exc)
    except Exception as exc:  # a checker bug must not take the screen down
        log.exception("checking the board file %s failed", path)
        return None, f"{Path(path).name}: {exc}"


def space_count(board: Any) -> int:
    return sum(len(track.spaces) for track in board.tracks)


class CameraCheckScene(DevicesScene):
    """The Camera & buttons check (live preview), opened from Settings: Back returns here."""

    def home(self) -> Scene:
        return SettingsScene(self.ctx, tab="camera")


class SettingsScene(PageScene):
    name = "settings"
    title_key = "settings.title"

    def __init__(self, ctx: Any, tab: str = "screen") -> None:
        super().__init__(ctx)
        self.tab = tab if tab in TABS else "screen"
        self.page = 0
        self._beeps = 0
        self._boards: list[Path] = []
        self._board_error: str | None = None  # the last chosen file's mistake
        self._board_info: tuple[str, int] | None = None  # (name, spaces) of the current board
        self._current_error: str | None = None  # the saved board's mistake, if it has one

    def enter(self) -> None:
        if self.tab == "board":
            self._open_boards()

    # -- state -----------------------------------------------------------------------------
    @property
    def board_setting(self) -> str:
        return str(getattr(getattr(self.ctx.config, "games", None), "docte_rat_board", "") or "")

    def layout_state(self) -> object:
        c = self.ctx.config
        return (self.tab, self.page, c.sound, c.devices.buzzer, c.devices.camera,
                c.display.rotation, self.board_setting, self.ctx.hardware.sound is None,
                tuple(self._boards))

    def screen_key(self) -> object:
        return (super().screen_key(), self._board_error)

    def _open_boards(self) -> None:
        folder = self.ctx.config.boards_dir
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("cannot create the boards folder %s: %s", folder, exc)
        self._boards = board_files(folder)
        current = self.board_setting
        if current and Path(current) not in self._boards:
            self._boards.insert(0, Path(current))
        self._board_error = None
        self._describe_current()

    def _describe_current(self) -> None:
        current = self.board_setting
        if current:
            board, error = check_board_file(current)
        else:
            from ...games.docte_rat.files import default_board

            try:
                board, error = default_board(), None
            except CompanionError as exc:
                board, error = None, str(exc)
        self._current_error = error
        self._board_info = None if board is None else (board.name, space_count(board))

    # -- layout ----------------------------------------------------------------------------
    def _areas(self) -> tuple[pygame.Rect, pygame.Rect]:
        c = self.content_rect()
        tabs_w = self.u(196)
        return (pygame.Rect(c.x, c.y, tabs_w, c.height),
                pygame.Rect(c.x + tabs_w + self.u(16), c.y, c.width - tabs_w - self.u(16),
                            c.height))

    def _rows(self, count: int) -> list[pygame.Rect]:
        _, pane = self._areas()
        return stack(pane, count, self.u(10))

    def _label_width(self, row: pygame.Rect) -> int:
        return min(self.u(200), row.width * 2 // 5)

    def _options(self, row: pygame.Rect, keys: list[str], labels: list[str],
                 selected: str | None, size: int = 21) -> None:
        """Choice buttons side by side in the right part of ``row``."""
        gap = self.u(10)
        area = pygame.Rect(row.x + self._label_width(row), row.y, 0, 0)
        area.width = row.right - self.u(12) - area.x
        bh = min(self.u(62), row.height - self.u(20))
        bw = min(self.u(170), (area.width - gap * (len(keys) - 1)) // len(keys))
        x = row.right - self.u(12) - len(keys) * bw - (len(keys) - 1) * gap
        for key, label in zip(keys, labels, strict=True):
            rect = pygame.Rect(x, row.centery - bh // 2, bw, bh)
            on = key == selected
            self.buttons.add(Button(key, rect, label, th.ACCENT if on else th.PANEL_LIGHT,
                                    selected=on, size=self.u(size)))
            x += bw + gap

    def build(self, size: tuple[int, int]) -> None:
        super().build(size)
        tabs, _ = self._areas()
        for key, rect in zip(TABS, stack(tabs, len(TABS), self.u(10)), strict=True):
            on = key == self.tab
            self.buttons.add(Button(f"tab:{key}", rect, self.tr(f"settings2.tab.{key}"),
                                    th.ACCENT if on else th.PANEL, selected=on,
                                    size=self.u(21)))
        getattr(self, f"_build_{self.tab}")()

    def _build_screen(self) -> None:
        lang_row, sound_row, rot_row, _ = self._rows(4)
        self._options(lang_row, [f"lang:{c}" for c in LANGUAGES],
                      [TABLES[c]["settings.language_value"] for c in LANGUAGES],
                      f"lang:{self.tr.language}")
        self._options(sound_row, ["sound:0", "sound:1"],
                      [self.tr("common.off"), self.tr("common.on")],
                      f"sound:{int(self.ctx.config.sound.enabled)}")
        self._options(rot_row, [f"rotation:{r}" for r in ROTATIONS],
                      [self.tr(f"settings2.rotation.{r}") for r in ROTATIONS],
                      f"rotation:{self.ctx.config.display.rotation}")

    def _build_sound(self) -> None:
        sound = self.ctx.config.sound
        speaker_row, volume_row, buzzer_row, _ = self._rows(4)
        self._options(speaker_row, ["speaker:0", "speaker:1"],
                      [self.tr("common.off"), self.tr("common.on")],
                      f"speaker:{int(sound.speaker)}")
        self._options(volume_row, ["volume:-", "volume:+", "test"],
                      ["−", "+", self.tr("settings2.test")], None)
        self._options(buzzer_row, [f"buzzer:{k}" for k in BUZZER_KINDS],
                      [self.tr(f"settings2.buzzer.{k}") for k in BUZZER_KINDS],
                      f"buzzer:{self.ctx.config.devices.buzzer}", size=20)

    def _camera_areas(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]:
        _, pane = self._areas()
        label = pygame.Rect(pane.x, pane.y, pane.width, self.u(34))
        choices = pygame.Rect(pane.x, label.bottom + self.u(6), pane.width, self.u(132))
        check = pygame.Rect(pane.x, pane.bottom - self.u(66), pane.width, self.u(66))
        note = pygame.Rect(pane.x, choices.bottom + self.u(10), pane.width,
                           check.y - self.u(10) - choices.bottom - self.u(10))
        return label, choices, note, check

    def _build_camera(self) -> None:
        _, choices, _, check = self._camera_areas()
        current = self.ctx.config.devices.camera
        for key, rect in zip(CAMERA_CHOICES, grid(choices, 3, 2, self.u(10)), strict=False):
            on = key == current
            self.buttons.add(Button(f"camera:{key}", rect, self.tr(f"settings2.camera.{key}"),
                                    th.ACCENT if on else th.PANEL_LIGHT, selected=on,
                                    size=self.u(19)))
        self.buttons.add(Button("camera_check", check, "▶ " + self.tr("settings2.camera_check"),
                                th.PANEL_LIGHT, size=self.u(21)))

    def _board_areas(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        _, pane = self._areas()
        head = pygame.Rect(pane.x, pane.y, pane.width, self.u(56))
        rows = 3
        item_h = self.u(56)
        items = pygame.Rect(pane.x, head.bottom + self.u(8), pane.width,
                            rows * item_h + (rows - 1) * self.u(8))
        status = pygame.Rect(pane.x, items.bottom + self.u(10), pane.width,
                             pane.bottom - items.bottom - self.u(10))
        return head, items, status

    def _board_entries(self) -> list[str]:
        return [""] + [str(p) for p in self._boards]

    def _pages(self) -> int:
        return max(1, -(-len(self._board_entries()) // BOARDS_PER_PAGE))

    def _build_board(self) -> None:
        head, items, _ = self._board_areas()
        entries = self._board_entries()
        self.page = min(self.page, self._pages() - 1)
        shown = entries[self.page * BOARDS_PER_PAGE:(self.page + 1) * BOARDS_PER_PAGE]
        current = self.board_setting
        for i, (entry, rect) in enumerate(zip(shown, grid(items, 2, 3, self.u(8)),
                                              strict=False)):
            on = entry == current
            label = Path(entry).stem if entry else self.tr("settings2.board_standard")
            self.buttons.add(Button(f"board:{self.page * BOARDS_PER_PAGE + i}", rect, label,
                                    th.ACCENT if on else th.PANEL_LIGHT, selected=on,
                                    size=self.u(19)))
        if self._pages() > 1:
            bw = self.u(64)
            for j, key in enumerate(("page:-", "page:+")):
                rect = pygame.Rect(head.right - (2 - j) * bw - (1 - j) * self.u(8), head.y,
                                   bw, head.height)
                self.buttons.add(Button(key, rect, "‹" if key == "page:-" else "›",
                                        th.PANEL_LIGHT, size=self.u(26),
                                        enabled=(self.page > 0) if j == 0
                                        else self.page < self._pages() - 1))

    # -- input -----------------------------------------------------------------------------
    def on_button(self, button: Button) -> Scene | None:
        kind, _, value = button.key.partition(":")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            result: Scene | None = handler(value)
            return result
        return super().on_button(button)

    def _say(self, saved_message: str, extra: str | None = None, error: bool = False) -> None:
        self.ctx.notify(saved_message if extra is None else f"{extra} {saved_message}",
                        error=error)

    def _on_tab(self, value: str) -> None:
        self.tab, self.page = value, 0
        if value == "board":
            self._open_boards()

    def _on_lang(self, code: str) -> None:
        if code != self.tr.language and code in LANGUAGES:
            self.tr.language = code
            _, message = self.ctx.save_setting("ui", "language", code)
            self._say(message)

    def _on_rotation(self, value: str) -> None:
        rotation = int(value)
        if rotation != self.ctx.config.display.rotation:
            # the loop follows display.rotation from the next frame: picture and touch
            _, message = self.ctx.save_setting("display", "rotation", rotation)
            self._say(message)

    def _on_sound(self, value: str) -> None:
        enabled = value == "1"
        if enabled == self.ctx.config.sound.enabled:
            return
        hw = self.ctx.hardware
        hw.set_muted(not enabled)
        if not enabled and hw.sound is not None:
            self._quietly(hw.sound.stop)
        _, message = self.ctx.save_setting("sound", "enabled", enabled)
        self._say(message, None if enabled else self.tr("settings2.sound_off"))
        if enabled:
            hw.beep("roll_accepted")

    def _on_speaker(self, value: str) -> None:
        enabled = value == "1"
        if enabled == self.ctx.config.sound.speaker:
            return
        hw = self.ctx.hardware
        _, message = self.ctx.save_setting("sound", "speaker", enabled)
        if hw.sound is None and enabled:
            from ..sound import open_speaker

            hw.sound = open_speaker(self.ctx.config)
        if hw.sound is None:
            self._say(message, self.tr("settings2.speaker_missing") if enabled else None)
            return
        hw.sound.enabled = enabled
        if not enabled:
            self._quietly(hw.sound.stop)
        self._say(message)
        if enabled and not hw.muted:
            self._quietly(hw.sound.play, "roll_accepted")

    def _on_volume(self, value: str) -> None:
        current = self.ctx.config.sound.volume
        volume = max(0, min(100, current + (VOLUME_STEP if value == "+" else -VOLUME_STEP)))
        if volume == current:
            return
        self.ctx.save_setting("sound", "volume", volume)  # the number on screen says it
        hw = self.ctx.hardware
        if hw.sound is not None:
            hw.sound.volume = volume
            if not hw.muted:
                self._quietly(hw.sound.play, "roll_accepted")

    def _on_test(self, value: str) -> None:
        self.ctx.hardware.beep(BEEP_PATTERNS[self._beeps % len(BEEP_PATTERNS)])
        self._beeps += 1

    def _on_buzzer(self, kind: str) -> None:
        if kind == self.ctx.config.devices.buzzer or kind not in BUZZER_KINDS:
            return
        _, message = self.ctx.save_setting("devices", "buzzer", kind)
        problem = self._rebuild_buzzer(kind)
        self._say(message, problem, error=problem is not None and kind != "none")
        if problem is None and kind != "none":
            self.ctx.hardware.beep("roll_accepted")

    def _rebuild_buzzer(self, kind: str) -> str | None:
        """Swap the BuzzerOut for one of ``kind`` on the same pin and pin factory; None
        when done, else what the player should know (applies at the next start)."""
        hw = self.ctx.hardware
        # the pin factory app.py made (real lgpio or simulated)
        factory = hw.pin_factory
        pin = self.ctx.config.pins.get("buzzer")
        if factory is None:
            return self.tr("settings2.buzzer_next_start")
        from ...devices.buzzer import BuzzerOut

        if hw.buzzer is not None:
            self._quietly(hw.buzzer.close)
        try:
            hw.buzzer = BuzzerOut(kind, pin, factory, muted=hw.muted)
            hw.buzzer_kind = kind
            return None
        except CompanionError as exc:
            log.warning("buzzer %s on pin %s: %s", kind, pin, exc)
            hw.buzzer = None
            hw.buzzer_kind = "none"
            return self.tr("settings2.buzzer_failed", message=str(exc))

    def _on_camera(self, source: str) -> None:
        if source in CAMERA_CHOICES and source != self.ctx.config.devices.camera:
            _, message = self.ctx.save_setting("devices", "camera", source)
            self._say(message)

    def _on_camera_check(self, value: str) -> Scene:
        return CameraCheckScene(self.ctx)

    def _on_page(self, value: str) -> None:
        self.page = max(0, min(self._pages() - 1, self.page + (1 if value == "+" else -1)))

    def _on_board(self, value: str) -> None:
        entries = self._board_entries()
        index = int(value)
        if not 0 <= index < len(entries):
            return
        chosen = entries[index]
        if chosen:
            board, error = check_board_file(chosen)
            if error is not None:
                self._board_error = error
                self.ctx.notify(self.tr("settings2.board_bad") + " " + error, error=True,
                                seconds=6.0)
                return
        self._board_error = None
        if chosen != self.board_setting:
            _, message = self.ctx.save_setting("games", "docte_rat_board", chosen)
            self._say(message)
        self._describe_current()

    @staticmethod
    def _quietly(fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except Exception:
            log.exception("sound call failed")

    # -- drawing ---------------------------------------------------------------------------
    def _row_label(self, surface: pygame.Surface, row: pygame.Rect, text: str,
                   note: str | None = None, note_colour: th.Colour = th.TEXT_MUTED) -> None:
        panel(surface, row, th.PANEL, radius=self.u(16), shadow=self.u(3))
        width = self._label_width(row) - self.u(24)
        if note is None:
            draw_text(surface, self.ctx.theme, text, (row.x + self.u(20), row.centery),
                      self.u(23), th.TEXT, bold=True, anchor="midleft", max_width=width)
            return
        draw_text(surface, self.ctx.theme, text, (row.x + self.u(20), row.centery - self.u(2)),
                  self.u(23), th.TEXT, bold=True, anchor="bottomleft",
                  max_width=width)
        draw_text(surface, self.ctx.theme, note, (row.x + self.u(20), row.centery + self.u(4)),
                  self.u(16), note_colour, anchor="topleft", max_width=width)

    def draw_content(self, surface: pygame.Surface) -> None:
        getattr(self, f"_draw_{self.tab}")(surface)

    def _draw_screen(self, surface: pygame.Surface) -> None:
        lang_row, sound_row, rot_row, info = self._rows(4)
        self._row_label(surface, lang_row, self.tr("settings.language"))
        self._row_label(surface, sound_row, self.tr("settings.sound"),
                        None if self.ctx.config.sound.enabled else self.tr("settings2.muted"),
                        th.ACCENT)
        self._row_label(surface, rot_row, self.tr("settings2.rotation"))
        text = (self.tr("settings2.rotation_hint") + "\n"
                + self.tr("settings2.file", path=str(self.ctx.config.path)))
        draw_block(surface, self.ctx.theme, text, info.inflate(-self.u(16), -self.u(8)),
                   self.u(17), th.TEXT_MUTED, align="left", valign="top")

    def _draw_sound(self, surface: pygame.Surface) -> None:
        sound, hw = self.ctx.config.sound, self.ctx.hardware
        speaker_row, volume_row, buzzer_row, info = self._rows(4)
        self._row_label(surface, speaker_row, self.tr("settings2.speaker"),
                        self.tr("settings2.no_speaker") if hw.sound is None else None)
        self._row_label(surface, volume_row,
                        self.tr("settings2.volume", percent=sound.volume))
        self._row_label(surface, buzzer_row, self.tr("settings2.buzzer"))
        if sound.enabled:
            text, colour = self.tr("settings2.sound_hint"), th.TEXT_MUTED
        else:
            text, colour = self.tr("settings2.muted_all"), th.ACCENT
        draw_block(surface, self.ctx.theme, text, info.inflate(-self.u(16), -self.u(8)),
                   self.u(17), colour, align="left", valign="center")

    def _draw_camera(self, surface: pygame.Surface) -> None:
        label, _, note, _ = self._camera_areas()
        draw_text(surface, self.ctx.theme, self.tr("settings2.camera"),
                  (label.x + self.u(4), label.centery), self.u(23), th.TEXT, bold=True,
                  anchor="midleft", max_width=label.width)
        current = self.ctx.config.devices.camera
        lines = [self.tr("settings2.camera_next_start", name=self.ctx.hardware.camera_name)]
        if current not in CAMERA_CHOICES:
            lines.insert(0, self.tr("settings2.camera_other", value=current))
        draw_block(surface, self.ctx.theme, "\n".join(lines), note, self.u(17), th.TEXT_MUTED,
                   align="left", valign="center")

    def _draw_board(self, surface: pygame.Surface) -> None:
        head, items, status = self._board_areas()
        theme = self.ctx.theme
        text_w = head.width - (self.u(150) if self._pages() > 1 else 0)
        title = self.tr("settings2.board")
        if self._pages() > 1:
            title += "  ·  " + self.tr("common.page", page=self.page + 1, pages=self._pages())
        draw_text(surface, theme, title, (head.x + self.u(4), head.y), self.u(21), th.TEXT,
                  bold=True, max_width=text_w)
        folder = self.tr("settings2.board_folder", path=str(self.ctx.config.boards_dir))
        draw_block(surface, theme, folder,
                   pygame.Rect(head.x + self.u(4), head.y + self.u(27), text_w, self.u(29)),
                   self.u(15), th.TEXT_MUTED, align="left", valign="top")
        if not self._boards:
            cell = grid(items, 2, 3, self.u(8))[1]
            draw_block(surface, theme, self.tr("settings2.board_none"), cell, self.u(15),
                       th.TEXT_MUTED)
        if status.height < self.u(30):
            return
        error = self._board_error or self._current_error
        if error is not None:
            heading = self.tr("settings2.board_bad" if self._board_error
                              else "settings2.board_current_bad")
            panel(surface, status, th.mix(th.TOAST, th.DANGER, 0.35), radius=self.u(14),
                  shadow=0, border=th.DANGER)
            draw_block(surface, theme, heading + "\n" + error,
                       status.inflate(-self.u(20), -self.u(12)), self.u(17), th.TEXT,
                       align="left", valign="top")
        elif self._board_info is not None:
            name, spaces = self._board_info
            panel(surface, status, th.PANEL, radius=self.u(14), shadow=0)
            draw_block(surface, theme, "✓ " + self.tr("settings2.board_ok", name=name,
                                                        spaces=spaces),
                       status.inflate(-self.u(20), -self.u(12)), self.u(18), th.OK,
                       align="left", valign="center")
