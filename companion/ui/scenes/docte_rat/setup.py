"""Le Docte Rat's table setup: who plays (1 to 6 pawns, players or teams, their colours and
seating order round the table), how long (full, shortened or custom goals), on which board
(the standard layout, the table's own board file, or board-free) and who starts (a roll-off
read by the camera on the play screen, or a pawn chosen here).

Sensible defaults make a family's game three taps away: the Le Docte Rat tile, "Start",
and the roll-off. Names are typed on an on-screen keyboard (there is no keyboard at a real
table). Nothing reaches the journal until "Start".
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import pygame

from ....core.errors import CompanionError
from ....session.referee import Accepted
from ... import theme as th
from ...intents import Back, Press, UIIntent
from ...keyboard import CANCEL, OK, PREFIX, Keyboard
from ...widgets import Button, draw_background, draw_block, draw_text, grid
from ..base import PageScene, Scene
from .setup_model import MAX_MEMBERS, MIN_TEAM, TableDraft
from .setup_widgets import OptionButton

if TYPE_CHECKING:
    from ...context import AppContext

GAME_ID = "docte-rat"
TRACK_KEYS = ("school", "college", "university")



def board_file_setting(ctx: AppContext) -> str:
    """The board file set in the settings (``games.docte_rat_board``), or ""."""
    value = getattr(getattr(ctx.config, "games", None), "docte_rat_board", "")
    return str(value or "")


class SetupScene(PageScene):
    name = "docte-rat-setup"
    title_key = "drsetup.title"

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.table = TableDraft.default(board_file_setting(ctx))
        #: None, ("team", pawn index) or ("pick", "length" | "board" | "first")
        self.sheet: tuple[str, Any] | None = None
        self.keyboard: Keyboard | None = None
        #: what the keyboard edits: ("name", pawn) or ("member", pawn, member or -1 for new)
        self.kb_target: tuple[Any, ...] = ()

    # -- state -------------------------------------------------------------------------------
    def layout_state(self) -> Hashable:
        kb = (self.keyboard.text, self.keyboard.shift) if self.keyboard else None
        return (self.table.snapshot(), self.sheet, kb, self.kb_target)

    def screen_key(self) -> Hashable:
        return (self.name, self.tr.language, self.table.snapshot(), self.sheet,
                self.keyboard is not None)

    def colour_word(self, colour: str) -> str:
        return self.tr(f"drsetup.colour.{colour}")

    # -- layout ------------------------------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        if self.keyboard is not None:
            self._build_keyboard(size)
        elif self.sheet is not None and self.sheet[0] == "team":
            self._build_team(size)
        elif self.sheet is not None:
            self._build_picker(size)
        else:
            self._build_main(size)

    def _start_rect(self) -> pygame.Rect:
        m = self.u(14)
        w = self.u(210)
        return pygame.Rect(self.size[0] - m - w, m, w, self.header_height() - 2 * m)

    def _columns(self) -> tuple[pygame.Rect, pygame.Rect]:
        c = self.content_rect()
        gap = self.u(14)
        left_w = round(c.width * 0.62)
        left = pygame.Rect(c.x, c.y, left_w, c.height)
        right = pygame.Rect(left.right + gap, c.y, c.width - left_w - gap, c.height)
        return left, right

    def _pawn_caption_h(self) -> int:
        return self.u(26)

    def _build_main(self, size: tuple[int, int]) -> None:
        super().build(size)  # the Back button
        self.buttons.add(Button("start", self._start_rect(), self.tr("drsetup.start"), th.OK,
                                size=self.u(24)))
        left, right = self._columns()
        self._build_pawns(left)
        self._build_options(right)

    def _build_pawns(self, area: pygame.Rect) -> None:
        table, tr, u = self.table, self.tr, self.u
        gap = u(6)
        top = area.y + self._pawn_caption_h()
        n = len(table.pawns)
        slots = n + (1 if n < 6 else 0)
        row_h = min(u(64), (area.bottom - top - gap * (slots - 1)) // slots)
        small = u(48)
        swatch_w, team_w = u(56), u(84)
        for i, pawn in enumerate(table.pawns):
            y = top + i * (row_h + gap)
            x = area.x
            swatch = pygame.Rect(x, y, swatch_w, row_h)
            x = swatch.right + gap
            fixed_right = team_w + 3 * small + 4 * gap
            name = pygame.Rect(x, y, area.right - x - fixed_right, row_h)
            team = pygame.Rect(name.right + gap, y, team_w, row_h)
            up = pygame.Rect(team.right + gap, y, small, row_h)
            down = pygame.Rect(up.right + gap, y, small, row_h)
            remove = pygame.Rect(down.right + gap, y, small, row_h)
            rgb = th.PAWN_RGB[pawn.colour]
            self.buttons.add(Button(f"colour:{i}", swatch, str(i + 1), rgb, size=u(24)))
            members = ", ".join(pawn.members) if pawn.team else None
            self.buttons.add(Button(f"name:{i}", name, pawn.shown_name(tr), th.PANEL_LIGHT,
                                    sublabel=members or None, size=u(22)))
            self.buttons.add(Button(
                f"team:{i}", team, tr("drsetup.team" if pawn.team else "drsetup.solo"),
                th.mix(th.PANEL_LIGHT, th.ACCENT, 0.45) if pawn.team else th.PANEL_LIGHT,
                size=u(18)))
            self.buttons.add(Button(f"up:{i}", up, "▲", th.PANEL_LIGHT, enabled=i > 0,
                                    size=u(20)))
            self.buttons.add(Button(f"down:{i}", down, "▼", th.PANEL_LIGHT,
                                    enabled=i < n - 1, size=u(20)))
            self.buttons.add(Button(f"remove:{i}", remove, "✕",
                                    th.mix(th.PANEL_LIGHT, th.DANGER, 0.35), enabled=n > 1,
                                    size=u(20)))
        if n < 6:
            y = top + n * (row_h + gap)
            self.buttons.add(Button("add", pygame.Rect(area.x, y, area.width, row_h),
                                    tr("drsetup.add_pawn"), th.mix(th.PANEL, th.OK, 0.3),
                                    size=u(20)))

    def _option_h(self) -> int:
        return self.u(70)

    def _build_options(self, area: pygame.Rect) -> None:
        table, tr, u = self.table, self.tr, self.u
        gap = u(6)
        y = area.y
        h = self._option_h()
        goals = table.goals()
        goal_words = tr("drsetup.goals", school=goals[0], college=goals[1],
                        university=goals[2])
        self.buttons.add(OptionButton("opt:length", pygame.Rect(area.x, y, area.width, h),
                                      tr(f"drsetup.length.{table.length}"), th.PANEL_LIGHT,
                                      sublabel=goal_words, size=u(20),
                                      caption=tr("drsetup.length.title")))
        y += h + gap
        if table.length == "custom":
            step = u(48)
            for t in range(3):
                row = pygame.Rect(area.x, y, area.width, step)
                plus = pygame.Rect(row.right - u(56), y, u(56), step)
                minus = pygame.Rect(plus.x - u(60) - u(56), y, u(56), step)
                self.buttons.add(Button(f"goal:{t}:-", minus, "−", th.PANEL_LIGHT, size=u(26)))
                self.buttons.add(Button(f"goal:{t}:+", plus, "+", th.PANEL_LIGHT, size=u(26)))
                y += step + gap
        label, detail = self._board_words()
        self.buttons.add(OptionButton("opt:board", pygame.Rect(area.x, y, area.width, h),
                                      label, th.PANEL_LIGHT, sublabel=detail, size=u(20),
                                      caption=tr("drsetup.board.title")))
        y += h + gap
        label, detail = self._first_words()
        self.buttons.add(OptionButton("opt:first", pygame.Rect(area.x, y, area.width, h),
                                      label, th.PANEL_LIGHT, sublabel=detail, size=u(20),
                                      enabled=len(table.pawns) > 1,
                                      caption=tr("drsetup.first.title")))

    def _board_words(self, board: str | None = None) -> tuple[str, str]:
        board = board or self.table.board
        if board == "file":
            return self.tr("drsetup.board.file"), self.table.board_file.replace("\\", "/")
        return (self.tr(f"drsetup.board.{board}"), self.tr(f"drsetup.board.{board}_detail"))

    def _first_words(self) -> tuple[str, str]:
        if len(self.table.pawns) == 1:
            return self.tr("drsetup.first.alone"), self.tr("drsetup.first.pawn_detail")
        index = self.table.first_index()
        if index is None:
            return self.tr("drsetup.first.rolloff"), self.tr("drsetup.first.rolloff_detail")
        name = self.table.pawns[index].shown_name(self.tr)
        return self.tr("drsetup.first.pawn", name=name), self.tr("drsetup.first.pawn_detail")

    # the modal sheets: a header with a button on the left (cancel) or right (OK)
    def _sheet_header(self, key: str, label: str, right: bool = False) -> None:
        m = self.u(14)
        w = self.u(170)
        x = self.size[0] - m - w if right else m
        rect = pygame.Rect(x, m, w, self.header_height() - 2 * m)
        colour = th.OK if right else th.PANEL_LIGHT
        self.buttons.add(Button(key, rect, label, colour, size=self.u(22)))

    def _picker_options(self, which: str) -> list[tuple[str, str, str, th.Colour]]:
        tr, table = self.tr, self.table
        if which == "length":
            out = []
            for length in ("full", "short", "custom"):
                if length == "custom":
                    goals = table.custom_goals if table.length == "custom" else table.goals()
                else:
                    saved = table.length
                    table.length = length
                    goals = table.goals()
                    table.length = saved
                detail = tr("drsetup.goals", school=goals[0], college=goals[1],
                            university=goals[2])
                if length == "custom" and table.length != "custom":
                    detail = tr("drsetup.length.custom_detail")
                out.append((length, tr(f"drsetup.length.{length}"), detail, th.PANEL_LIGHT))
            return out
        if which == "board":
            return [(b, *self._board_words(b), th.PANEL_LIGHT) for b in table.boards()]
        out = [("rolloff", tr("drsetup.first.rolloff"), tr("drsetup.first.rolloff_detail"),
                th.PANEL_LIGHT)]
        for i, pawn in enumerate(table.pawns):
            out.append((f"pawn:{pawn.number}", pawn.shown_name(tr),
                        tr("drsetup.first.seat", seat=i + 1), th.PAWN_RGB[pawn.colour]))
        return out

    def _picker_current(self, which: str) -> str:
        if which == "length":
            return self.table.length
        if which == "board":
            return self.table.board
        return "rolloff" if self.table.first is None else f"pawn:{self.table.first}"

    def _build_picker(self, size: tuple[int, int]) -> None:
        assert self.sheet is not None
        which = self.sheet[1]
        self._sheet_header("cancel", "‹ " + self.tr("drsetup.cancel"))
        options = self._picker_options(which)
        c = self.content_rect()
        cols = 1 if len(options) <= 3 else 2
        rows = -(-len(options) // cols)
        gap = self.u(10)
        cell_h = min(self.u(90), (c.height - gap * (rows - 1)) // rows)
        area = pygame.Rect(c.x, c.y, c.width, cell_h * rows + gap * (rows - 1))
        current = self._picker_current(which)
        for (key, label, detail, colour), rect in zip(options, grid(area, cols, rows, gap),
                                                      strict=False):
            self.buttons.add(Button(f"pick:{key}", rect, label, colour, sublabel=detail,
                                    size=self.u(24), selected=key == current))

    def _build_team(self, size: tuple[int, int]) -> None:
        assert self.sheet is not None
        pawn = self.table.pawns[self.sheet[1]]
        tr, u = self.tr, self.u
        self._sheet_header("team_ok", tr("drsetup.ok"), right=True)
        c = self.content_rect()
        toggle = pygame.Rect(c.x, c.y, min(c.width, u(420)), u(60))
        for (key, word), rect in zip((("solo", "drsetup.solo"), ("team", "drsetup.team")),
                                     grid(toggle, 2, 1, u(10)), strict=True):
            chosen = pawn.team == (key == "team")
            self.buttons.add(Button(f"kind:{key}", rect, tr(word),
                                    th.ACCENT if chosen else th.PANEL_LIGHT, selected=chosen,
                                    size=u(22)))
        if not pawn.team:
            return
        top = toggle.bottom + u(40)
        gap = u(8)
        slots = len(pawn.members) + (1 if len(pawn.members) < MAX_MEMBERS else 0)
        row_h = min(u(60), (c.bottom - top - gap * (max(1, slots) - 1)) // max(1, slots))
        width = min(c.width, u(560))
        for m, member in enumerate(pawn.members):
            y = top + m * (row_h + gap)
            name = pygame.Rect(c.x, y, width - u(56) - gap, row_h)
            remove = pygame.Rect(name.right + gap, y, u(56), row_h)
            self.buttons.add(Button(f"member:{m}", name, member, th.PANEL_LIGHT, size=u(22)))
            self.buttons.add(Button(f"unmember:{m}", remove, "✕",
                                    th.mix(th.PANEL_LIGHT, th.DANGER, 0.35), size=u(20)))
        if len(pawn.members) < MAX_MEMBERS:
            y = top + len(pawn.members) * (row_h + gap)
            self.buttons.add(Button("add_member", pygame.Rect(c.x, y, width, row_h),
                                    tr("drsetup.add_member"), th.mix(th.PANEL, th.OK, 0.3),
                                    size=u(20)))

    def _keyboard_rect(self) -> pygame.Rect:
        m = self.u(12)
        return pygame.Rect(m, m, self.size[0] - 2 * m, self.size[1] - 2 * m)

    def _build_keyboard(self, size: tuple[int, int]) -> None:
        assert self.keyboard is not None
        for button in self.keyboard.buttons(self._keyboard_rect(), self.unit):
            self.buttons.add(button)

    # -- input -------------------------------------------------------------------------------
    def handle(self, intent: UIIntent) -> Scene | None:
        if isinstance(intent, Back) and (self.keyboard is not None or self.sheet is not None):
            return self._close_overlay()
        if isinstance(intent, Press) and self.keyboard is not None:
            # the box's YES and NO buttons answer the keyboard too
            name = intent.button.value
            if name in ("yes", "no"):
                return self._keyboard_key(OK if name == "yes" else CANCEL)
        return super().handle(intent)

    def _close_overlay(self) -> Scene | None:
        if self.keyboard is not None:
            return self._keyboard_key(CANCEL)
        if self.sheet is not None and self.sheet[0] == "team":
            return self._team_done()
        self.sheet = None
        return None

    def on_button(self, button: Button) -> Scene | None:
        key = button.key
        if key.startswith(PREFIX):
            return self._keyboard_key(key)
        if self.sheet is not None and self.sheet[0] == "team":
            return self._team_button(key)
        if self.sheet is not None:
            return self._pick(key)
        return self._main_button(button)

    def _main_button(self, button: Button) -> Scene | None:
        key = button.key
        table = self.table
        action, _, arg = key.partition(":")
        if not button.enabled:
            if action == "remove":
                self.ctx.notify(self.tr("drsetup.min_pawns"))
            return None
        if key == "back":
            return self.home()
        if key == "start":
            return self.start()
        if key == "add":
            if table.add_pawn() is None:
                self.ctx.notify(self.tr("drsetup.max_pawns"))
            return None
        if action == "colour":
            table.next_colour(int(arg))
        elif action == "name":
            self._open_name(int(arg))
        elif action == "team":
            self.sheet = ("team", int(arg))
        elif action == "up":
            table.move_pawn(int(arg), -1)
        elif action == "down":
            table.move_pawn(int(arg), +1)
        elif action == "remove":
            table.remove_pawn(int(arg))
        elif action == "goal":
            track, _, sign = arg.partition(":")
            table.step_goal(int(track), -1 if sign == "-" else 1)
        elif action == "opt":
            self.sheet = ("pick", arg)
        return None

    def _pick(self, key: str) -> Scene | None:
        assert self.sheet is not None
        which = self.sheet[1]
        self.sheet = None
        if not key.startswith("pick:"):
            return None  # cancel
        choice = key.split(":", 1)[1]
        if which == "length":
            self.table.set_length(choice)
        elif which == "board":
            self.table.board = choice
        elif choice == "rolloff":
            self.table.first = None
        else:
            self.table.first = int(choice.split(":", 1)[1])
        return None

    def _team_button(self, key: str) -> Scene | None:
        assert self.sheet is not None
        index = self.sheet[1]
        pawn = self.table.pawns[index]
        action, _, arg = key.partition(":")
        if key == "team_ok":
            return self._team_done()
        if action == "kind":
            pawn.team = arg == "team"
            if pawn.team and not pawn.members:
                self._open_member(index, -1)
        elif action == "member":
            self._open_member(index, int(arg))
        elif action == "unmember":
            del pawn.members[int(arg)]
        elif key == "add_member":
            if len(pawn.members) >= MAX_MEMBERS:
                self.ctx.notify(self.tr("drsetup.max_members"))
            else:
                self._open_member(index, -1)
        return None

    def _team_done(self) -> Scene | None:
        assert self.sheet is not None
        pawn = self.table.pawns[self.sheet[1]]
        if pawn.team and len(pawn.members) < MIN_TEAM:
            self.ctx.notify(self.tr("drsetup.team_too_small", name=pawn.shown_name(self.tr)),
                            error=True)
            return None
        self.sheet = None
        return None

    # -- the keyboard ------------------------------------------------------------------------
    def _new_keyboard(self, text: str, prompt: str) -> Keyboard:
        labels = {OK: self.tr("drsetup.ok"), CANCEL: self.tr("drsetup.cancel"),
                  "space": self.tr("drsetup.space")}
        layout = "azerty" if self.tr.language == "fr" else "qwerty"
        return Keyboard(text, prompt=prompt, layout=layout, labels=labels)

    def _open_name(self, index: int) -> None:
        pawn = self.table.pawns[index]
        prompt = self.tr("drsetup.name_prompt", colour=self.colour_word(pawn.colour))
        self.keyboard = self._new_keyboard(pawn.name or "", prompt)
        self.kb_target = ("name", index)

    def _open_member(self, index: int, member: int) -> None:
        pawn = self.table.pawns[index]
        prompt = self.tr("drsetup.member_prompt", team=pawn.shown_name(self.tr))
        text = pawn.members[member] if member >= 0 else ""
        self.keyboard = self._new_keyboard(text, prompt)
        self.kb_target = ("member", index, member)

    def _keyboard_key(self, key: str) -> Scene | None:
        keyboard = self.keyboard
        if keyboard is None:
            return None
        verdict = keyboard.press(key)
        if verdict == CANCEL:
            self.keyboard, self.kb_target = None, ()
        elif verdict == OK:
            if self._keyboard_done(keyboard.text):
                self.keyboard, self.kb_target = None, ()
        return None

    def _keyboard_done(self, text: str) -> bool:
        """Apply the typed text; False keeps the keyboard open (with a message)."""
        kind, index = self.kb_target[0], self.kb_target[1]
        pawn = self.table.pawns[index]
        if kind == "name":
            if text and self.table.name_taken(text, index, self.tr):
                self.ctx.notify(self.tr("drsetup.name_taken", name=text), error=True)
                return False
            pawn.name = text or None  # an empty name goes back to "Joueur N"
            return True
        member = self.kb_target[2]
        if not text:
            if member >= 0:
                del pawn.members[member]
            return True
        if any(m.casefold() == text.casefold() for i, m in enumerate(pawn.members)
               if i != member):
            self.ctx.notify(self.tr("drsetup.name_taken", name=text), error=True)
            return False
        if member >= 0:
            pawn.members[member] = text
        else:
            pawn.members.append(text)
        return True

    # -- start -----------------------------------------------------------------------------
    def start(self) -> Scene | None:
        tr = self.tr
        for i, pawn in enumerate(self.table.pawns):
            if self.table.name_taken(pawn.shown_name(tr), i, tr):
                self.ctx.notify(tr("drsetup.name_taken", name=pawn.shown_name(tr)),
                                error=True)
                return None
            if pawn.team and len(pawn.members) < MIN_TEAM:
                self.ctx.notify(tr("drsetup.team_too_small", name=pawn.shown_name(tr)),
                                error=True)
                return None
        try:
            setup = self.table.setup(tr)
            engine = self.ctx.registry.get(GAME_ID)
            setup = engine.prepare_setup(setup)
        except CompanionError as exc:  # a board file missing or wrong (ConfigError too)
            self.ctx.notify(tr("drsetup.board_problem", message=str(exc)), error=True,
                            seconds=8.0)
            return None
        verdict = self.ctx.referee.start(GAME_ID, setup)
        if not isinstance(verdict, Accepted):
            self.ctx.notify(tr("drsetup.not_started", message=verdict.message), error=True,
                            seconds=8.0)
            return None
        self.ctx.hardware.beep("roll_accepted")
        from . import open_scene

        try:
            return open_scene(self.ctx)
        except ModuleNotFoundError as exc:  # the play screen is not installed yet
            if not (exc.name or "").endswith("docte_rat.play"):
                raise
            self.ctx.notify(tr("drsetup.no_play_screen"))
            return self.home()

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if self.keyboard is not None:
            self._draw_modal_background(surface)
            self.keyboard.draw(surface, self.ctx.theme, self._keyboard_rect(), self.unit)
            self.buttons.draw(surface, self.ctx.theme, self.ctx.now())
            return
        if self.sheet is not None:
            self._draw_modal_background(surface)
            self._draw_sheet(surface)
            self.buttons.draw(surface, self.ctx.theme, self.ctx.now())
            return
        draw_background(surface)
        back = self.buttons.get("back")
        left = (back.rect.right if back else 0) + self.u(20)
        self._draw_title(surface, self.tr(self.title_key), left,
                         self._start_rect().x - self.u(16))
        self.buttons.draw(surface, self.ctx.theme, self.ctx.now())
        self.draw_content(surface)

    def _draw_modal_background(self, surface: pygame.Surface) -> None:
        draw_background(surface)

    def _draw_title(self, surface: pygame.Surface, text: str, left: int, right: int) -> None:
        draw_text(surface, self.ctx.theme, text, (left, self.header_height() // 2),
                  self.u(28), th.TEXT, bold=True, anchor="midleft", max_width=right - left)

    def _draw_sheet(self, surface: pygame.Surface) -> None:
        assert self.sheet is not None
        kind, arg = self.sheet
        m = self.u(14)
        if kind == "team":
            pawn = self.table.pawns[arg]
            ok = self.buttons.get("team_ok")
            right = (ok.rect.x if ok else self.size[0]) - self.u(16)
            self._draw_title(surface, self.tr("drsetup.team_title",
                                              name=pawn.shown_name(self.tr)), m + self.u(6),
                             right)
            c = self.content_rect()
            toggle = self.buttons.get("kind:team")
            x = (toggle.rect.right if toggle else c.x) + self.u(20)
            hint = pygame.Rect(x, c.y, c.right - x, self.u(60))
            if hint.width > self.u(120):
                draw_block(surface, self.ctx.theme, self.tr("drsetup.team_hint"), hint,
                           self.u(16), th.TEXT_MUTED, align="left")
            if pawn.team:
                draw_text(surface, self.ctx.theme, self.tr("drsetup.team_members"),
                          (c.x + self.u(4), c.y + self.u(70)), self.u(20), th.ACCENT,
                          bold=True)
            return
        cancel = self.buttons.get("cancel")
        left = (cancel.rect.right if cancel else 0) + self.u(20)
        self._draw_title(surface, self.tr(f"drsetup.{arg}.title"), left,
                         self.size[0] - self.u(16))

    def draw_content(self, surface: pygame.Surface) -> None:
        theme, u = self.ctx.theme, self.u
        left, right = self._columns()
        draw_text(surface, theme, self.tr("drsetup.pawns"), (left.x + u(2), left.y),
                  u(16), th.TEXT_MUTED, max_width=left.width)
        rows = [b.rect for b in self.buttons if b.key.startswith(("name:", "add"))]
        below = max(r.bottom for r in rows) + u(12) if rows else left.bottom
        if left.bottom - below >= u(40):
            draw_block(surface, theme, self.tr("drsetup.hint"),
                       pygame.Rect(left.x, below, left.width, min(u(60), left.bottom - below)),
                       u(17), th.TEXT_MUTED, align="left", valign="top")
        if self.table.length == "custom":
            for t, goal in enumerate(self.table.custom_goals):
                minus = self.buttons.get(f"goal:{t}:-")
                plus = self.buttons.get(f"goal:{t}:+")
                if minus is None or plus is None:
                    continue
                draw_text(surface, theme, self.tr(f"drsetup.track.{TRACK_KEYS[t]}"),
                          (right.x + u(6), minus.rect.centery), u(18), th.TEXT,
                          anchor="midleft", max_width=minus.rect.x - right.x - u(10))
                draw_text(surface, theme, str(goal),
                          ((minus.rect.right + plus.rect.x) // 2, minus.rect.centery), u(24),
                          th.ACCENT, bold=True, anchor="center")
        # a pale ring keeps the dark pawns visible on the dark screen
        for button in self.buttons:
            if button.key.startswith("colour:"):
                radius = max(10, button.rect.height // 5)
                pygame.draw.rect(surface, th.mix(th.TEXT, th.PANEL, 0.4), button.rect,
                                 width=max(2, u(2)), border_radius=radius)
