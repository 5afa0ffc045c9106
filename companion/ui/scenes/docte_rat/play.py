"""The Le Docte Rat play screen: a whole game, from the first roll to "Docte Rat!".

Always visible: whose turn it is, every pawn's Bulletin (large figures, its track and goal,
a progress bar), UNDO and a menu (home, redo, an infraction, a rules reminder). The main
panel follows the engine's phase: the dice input for a roll, the doubles choice, the space
reached in board-free mode, the question with big RIGHT / WRONG buttons (and the box's
YES / NO), the Mini-Test card, the series choice, the Que fais-je? card, Quitte ou double.

Every choice is an ``Intent`` to the referee, made against the state id the screen shows,
so a double tap or a bouncing button never applies twice. Points landing on a Bulletin are
animated and beeped only after a forward action (an action or a redo), never after an undo
or a resume. Nothing here reads the disk while drawing: the view is taken from the referee
when the state id changes.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from ....core.actions import Action, roll_action
from ....devices.events import ButtonName
from ....session.referee import Accepted, Intent, RejectCode, Verdict
from ... import theme as th
from ...dice_input import CAMERA, DiceInput, DiceResult
from ...i18n import EN
from ...intents import Back, Press, Tap, UIIntent
from ...widgets import (
    Button,
    draw_background,
    draw_block,
    draw_text,
    grid,
    panel,
    stack,
    wrap,
)
from ..base import Scene
from .play_bulletin import (
    bulletin_layout,
    draw_bulletin,
    draw_bulletin_row,
    members_text,
    seat_colour,
    visible,
)
from .play_phases import (
    ROLL_PHASES,
    Choice,
    Prompt,
    RollOffRound,
    notice_lines,
    phase_prompt,
    rolloff_round_lines,
)

if TYPE_CHECKING:
    from ...context import AppContext

log = logging.getLogger(__name__)

GAME_ID = "docte-rat"
#: seconds the Bulletin's figures take to count up to their new value
COUNT_UP = 0.9
#: seconds a Bulletin stays highlighted after points landed (count-up included)
GLOW = 2.2
#: seconds a "+10" or "Goal reached!" pop stays over a Bulletin
POP = 2.4
#: seconds after the screen changed during which a choice is not taken: the second tap
#: of a double tap (or a finger bouncing) lands on the NEW screen, with its new state id,
#: so the referee alone cannot tell it from a real choice (e.g. marking the next person of
#: a Call to All wrong as well)
DOUBLE_TAP = 0.35
#: seconds the play screen stays after the winning action, so the table sees the last
#: points count up on the winner's Bulletin before the end screen
END_DELAY = 1.8


class PlayScene(Scene):
    name = "docte-rat-play"

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.dice = DiceInput(ctx, 2)
        self.info: dict[str, Any] = {"session": None}
        self.legal: Sequence[Action] = ()
        self.prompt = Prompt("", kind="none")
        self.notices: list[str] = []
        self.seen_id = -1
        self.overlay: str | None = None  # menu | infraction | rules
        self.bon_mot_value: int | None = None
        self.anims: dict[int, tuple[int, int, float]] = {}  # seat -> (from, to, start)
        self.pops: dict[int, tuple[str, float]] = {}  # seat -> (text, start)
        self.number_rects: dict[int, pygame.Rect] = {}
        self._under: list[Button] = []
        self._areas: dict[str, pygame.Rect] = {}
        self.changed_at = float("-inf")
        self.rolloff: RollOffRound | None = None  # the last finished roll-off round seen
        self.over_at: float | None = None  # when this screen saw the winning action
        #: where the main panel's texts were laid out (title, lines, notices), for tests
        self.text_rects: dict[str, pygame.Rect] = {}
        self.refresh()

    # -- reading the referee ---------------------------------------------------------------
    @property
    def view(self) -> dict[str, Any]:
        return self.info.get("view") or {}

    @property
    def phase(self) -> str:
        return str(self.info.get("phase", ""))

    @property
    def live(self) -> bool:
        return self.info.get("session") is not None and self.info.get("game") == GAME_ID

    def refresh(self, forward: bool = False) -> None:
        """Read the referee's view (after a verdict, or when the state id moved)."""
        referee = self.ctx.referee
        before = self.info
        info = referee.view()
        self.info = info
        self.seen_id = referee.state_id
        if not self.live:
            self.legal, self.prompt, self.notices = (), Prompt("", kind="none"), []
            return
        engine, state = referee.engine, referee.state
        self.legal = [] if info["is_over"] or engine is None else list(
            engine.legal_actions(state))
        if before.get("state_id") != info["state_id"]:
            if before.get("session") is not None:
                self.changed_at = self.ctx.now()
            self.bon_mot_value = None
            if self.phase in ROLL_PHASES:
                self.dice.reset("")
            self._remember_rolloff(before)
        self._make_prompt()
        self.notices = notice_lines(self.tr, self.view)
        rnd = self.rolloff
        starts = [n.get("seat") for n in self.view.get("notices", []) if n.get("kind") == "starts"]
        if rnd is not None and rnd.starter is not None and starts == [rnd.starter]:
            # everyone's roll-off total and why this pawn starts, not only the last roll
            self.notices = rolloff_round_lines(self.tr, self.view, rnd)
        if forward and before.get("session") == info["session"]:
            self._celebrate(before)

    def _remember_rolloff(self, before: Mapping[str, Any]) -> None:
        """A roll-off round just ended (someone starts, or a tie): keep everyone's totals,
        which the engine's view no longer holds."""
        notices = self.view.get("notices", [])
        last = [n for n in notices if n.get("kind") == "rolloff"]
        ended = [n for n in notices if n.get("kind") in ("starts", "rolloff_tie")]
        old = (before.get("view") or {}).get("roll_off") or {}
        if (not last or not ended or before.get("session") != self.info.get("session")
                or before.get("phase") != "ROLL_OFF"):
            return
        contenders, totals = list(old.get("contenders", [])), list(old.get("totals", []))
        if len(totals) + 1 != len(contenders):
            return
        pairs = tuple(zip(contenders, [*totals, int(last[-1].get("value", 0))], strict=True))
        end = ended[-1]
        if end.get("kind") == "starts":
            self.rolloff = RollOffRound(pairs, starter=end.get("seat"))
        else:
            tied = tuple(int(x) for x in str(end.get("detail", "")).split(",") if x.strip())
            self.rolloff = RollOffRound(pairs, tied=tied)

    def _make_prompt(self) -> None:
        points: dict[int, int] = {}
        q = getattr(self.ctx.referee.state, "question", None)
        if q is not None and hasattr(q, "points"):
            points = {v: int(q.points(v)) for v in (5, 10)}
        settings = getattr(self.ctx.referee.state, "settings", None)
        most = int(getattr(settings, "double_or_quit_questions", 3))
        self.prompt = phase_prompt(
            self.tr, self.info, self.legal, bon_mot_value=self.bon_mot_value,
            bon_mot_points=points, double_or_quit_most=most,
            bonus=int(getattr(q, "bonus", 0) or 0),
            multiplier=int(getattr(q, "multiplier", 1) or 1), rolloff=self.rolloff)

    def _celebrate(self, before: Mapping[str, Any]) -> None:
        """Points landed: count up, highlight, pop and beep (forward actions only)."""
        now = self.ctx.now()
        old_seats = (before.get("view") or {}).get("seats", [])
        seats = self.view.get("seats", [])
        kinds = set()
        for n in self.view.get("notices", []):
            kind, seat = n.get("kind"), n.get("seat")
            if kind != "points" or int(n.get("value", 0)) > 0:  # a loss is not cheered
                kinds.add(kind)
            if not isinstance(seat, int) or not 0 <= seat < len(seats):
                continue
            if kind == "points":
                value = int(n.get("value", 0))
                sign = "+" if value >= 0 else "−"
                self.pops[seat] = (f"{sign}{abs(value)}", now)
                new = int(seats[seat]["bulletin"])
                old = new
                if seat < len(old_seats) and old_seats[seat]["track"] == seats[seat]["track"]:
                    old = int(old_seats[seat]["bulletin"])
                self.anims[seat] = (old, new, now)
            elif kind == "goal":
                self.pops[seat] = (self.tr("dr.banner.goal"), now)
                self.anims[seat] = (0, int(seats[seat]["bulletin"]), now)
        if "docte_rat" in kinds:
            self.over_at = now
            self.ctx.hardware.beep("winner")
        elif "goal" in kinds:
            self.ctx.hardware.beep("goal_reached")
        elif kinds & {"points", "rolled", "rolloff", "starts", "stake"}:
            self.ctx.hardware.beep("roll_accepted")

    def shown_bulletin(self, seat: int) -> int:
        """The number the Bulletin shows now (counting up while points land)."""
        value = int(self.view["seats"][seat]["bulletin"])
        anim = self.anims.get(seat)
        if anim is None:
            return value
        start, end, t0 = anim
        if end != value:
            return value
        t = (self.ctx.now() - t0) / COUNT_UP
        if t >= 1:
            return value
        return round(start + (end - start) * max(0.0, t))

    def glow(self, seat: int) -> float:
        anim = self.anims.get(seat)
        if anim is None:
            return 0.0
        t = (self.ctx.now() - anim[2]) / GLOW
        return 0.0 if t >= 1 else 1.0 - t * t

    # -- acting ------------------------------------------------------------------------------
    def submit(self, action: Action) -> Verdict:
        verdict = self.ctx.referee.submit(Intent("action", action, self.seen_id))
        self._after(verdict, forward=True)
        return verdict

    def undo(self) -> Verdict:
        verdict = self.ctx.referee.submit(Intent("undo", state_id=self.seen_id))
        if isinstance(verdict, Accepted):
            self.anims.clear()
            self.pops.clear()
            self.over_at = None
            self.ctx.notify(self.tr("dr.undone"))
        self._after(verdict, forward=False)
        return verdict

    def redo(self) -> Verdict:
        verdict = self.ctx.referee.submit(Intent("redo", state_id=self.seen_id))
        if isinstance(verdict, Accepted):
            self.ctx.notify(self.tr("dr.redone"))
        self._after(verdict, forward=True)
        return verdict

    def _after(self, verdict: Verdict, forward: bool) -> None:
        if isinstance(verdict, Accepted):
            self.refresh(forward=forward)
            return
        if verdict.code is RejectCode.STALE:  # a double tap or a bounce: already done
            log.info("stale intent dropped: %s", verdict.message)
            self.refresh()
            return
        log.info("rejected (%s): %s", verdict.code.value, verdict.message)
        key = f"dr.rejected.{verdict.code.value}"
        self.ctx.notify(self.tr(key if key in EN else "dr.rejected.other"), error=True)
        self.ctx.hardware.beep("error")
        self.refresh()

    def roll(self, result: DiceResult) -> Verdict:
        return self.submit(roll_action(result.values, self.info.get("current_player")))

    def too_soon(self) -> bool:
        """True right after the screen changed: a double tap's second half is dropped."""
        return self.ctx.now() - self.changed_at < DOUBLE_TAP

    def choose(self, choice: Choice) -> Scene | None:
        if self.too_soon():
            log.info("choice %s ignored: the screen changed %.2f s ago", choice.key,
                     self.ctx.now() - self.changed_at)
            return None
        if choice.key.startswith("bonmot:"):
            self.bon_mot_value = int(choice.key.split(":")[1])
            self._make_prompt()
            return None
        if choice.action is None:
            if choice.key in ("right", "wrong") and self.prompt.toggles:
                self.ctx.notify(self.tr("dr.q.bonmot_first"), error=True)
                self.ctx.hardware.beep("error")
            return None
        self.submit(choice.action)
        return self._next_scene()

    def _next_scene(self) -> Scene | None:
        if not self.live:
            from ..home import HomeScene

            return HomeScene(self.ctx)
        if self.info.get("is_over"):
            if self.over_at is not None and self.ctx.now() - self.over_at < END_DELAY:
                return None  # the winner's last points count up here first
            from .end import EndScene

            return EndScene(self.ctx)
        return None

    def _choice(self, key: str) -> Choice | None:
        for c in self.prompt.choices + self.prompt.toggles:
            if c.key == key:
                return c
        return None

    # -- input -------------------------------------------------------------------------------
    def handle(self, intent: UIIntent) -> Scene | None:
        if self.ctx.referee.state_id != self.seen_id or not self.live:
            self.refresh()
            nxt = self._next_scene()
            if nxt is not None:
                return nxt
        if isinstance(intent, Press) and intent.button is ButtonName.UNDO:
            self.overlay = None
            self.undo()
            return self._next_scene()
        if isinstance(intent, Back):
            self.overlay = None if self.overlay else "menu"
            return None
        if self.overlay is not None:
            if isinstance(intent, Press) and intent.button is ButtonName.NO:
                self.overlay = None
                return None
            return super().handle(intent) if isinstance(intent, Tap) else None
        if self.phase in ROLL_PHASES and not isinstance(intent, Tap):
            result = self.dice.handle(intent)
            if result is not None:
                self.roll(result)
                return self._next_scene()
            return None
        if isinstance(intent, Press):
            key = {
                ("QUESTION", ButtonName.YES): "right",
                ("QUESTION", ButtonName.NO): "wrong",
                ("DOUBLE_OR_QUIT", ButtonName.YES): "double",
                ("DOUBLE_OR_QUIT", ButtonName.NO): "stop",
            }.get((self.phase, intent.button))
            choice = self._choice(key) if key else None
            if choice is not None:
                return self.choose(choice)
            return None
        return super().handle(intent)

    def on_button(self, button: Button) -> Scene | None:
        key = button.key
        if key.startswith("dice:"):
            result = self.dice.on_button(button)
            if result is not None:
                self.roll(result)
                return self._next_scene()
            return None
        if key == "undo":
            self.undo()
            return self._next_scene()
        if key == "menu":
            self.overlay = "menu"
            return None
        if key == "close":
            self.overlay = None
            return None
        if key == "home":
            from ..home import HomeScene

            self.ctx.referee.close_session()  # the journal keeps it: Resume brings it back
            return HomeScene(self.ctx)
        if key == "redo":
            self.overlay = None
            self.redo()
            return self._next_scene()
        if key == "infraction":
            self.overlay = "infraction"
            return None
        if key == "rules":
            self.overlay = "rules"
            return None
        if key.startswith("cheat:"):
            seat = int(key.split(":")[1])
            self.overlay = None
            self.submit(Action("infraction", {"seat": seat}, seat))
            return self._next_scene()
        if key.startswith("c:"):
            choice = self._choice(key[2:])
            if choice is not None:
                return self.choose(choice)
        return None

    # -- time --------------------------------------------------------------------------------
    def update(self, dt: float) -> Scene | None:
        if self.ctx.referee.state_id != self.seen_id or not self.live:
            self.refresh()
        nxt = self._next_scene()
        if nxt is not None:
            return nxt
        if self.phase in ROLL_PHASES and self.overlay is None:
            result = self.dice.update(dt)
            if result is not None:
                self.roll(result)
                return self._next_scene()
        return None

    # -- layout ------------------------------------------------------------------------------
    def layout_state(self) -> Hashable:
        dice = self.dice.layout_state() if self.phase in ROLL_PHASES else None
        return (self.seen_id, self.overlay, self.bon_mot_value, dice,
                self.info.get("can_undo"), self.info.get("can_redo"), self.compact)

    @property
    def compact(self) -> bool:
        """While a roll is awaited or confirmed, the Bulletins shrink to one row per pawn
        (name, colour, number, goal) and the dice get the room: the camera preview with the
        dice outlined must read from a metre away. Not while points are still landing."""
        if not self.live or self.phase not in ROLL_PHASES:
            return False
        now = self.ctx.now()
        return not any(now - t0 < GLOW for _, _, t0 in self.anims.values())

    def build(self, size: tuple[int, int]) -> None:
        w, h = size
        m = self.u(10)
        bar_h = self.u(52)
        menu = pygame.Rect(w - m - self.u(110), m, self.u(110), bar_h)
        undo = pygame.Rect(menu.x - m - self.u(150), m, self.u(150), bar_h)
        self._areas["turn"] = pygame.Rect(m, m, undo.x - 2 * m, bar_h)
        body_y = m + bar_h + m
        left_w = round(w * (0.215 if self.compact else 0.34))
        self._areas["bulletins"] = pygame.Rect(m, body_y, left_w, h - body_y - m)
        main = pygame.Rect(m + left_w + m, body_y, w - left_w - 3 * m, h - body_y - m)
        self._areas["main"] = main
        self.buttons.add(Button("undo", undo, self.tr("dr.undo"), th.BUTTON_COLOURS[
            ButtonName.UNDO], enabled=bool(self.info.get("can_undo")), size=self.u(20)))
        self.buttons.add(Button("menu", menu, "☰ " + self.tr("dr.menu"), th.PANEL_LIGHT,
                                size=self.u(20)))
        if self.live:
            self._build_main(main)
        if self.overlay is not None:
            self._under = list(self.buttons.buttons)
            self.buttons.clear()
            self._build_overlay()
        else:
            self._under = []

    def _text_layout(self, inner: pygame.Rect) -> dict[str, pygame.Rect]:
        """Where the notices strip, the title and the lines go, from their wrapped heights
        (a long name wraps the title onto two lines: what follows moves down)."""
        theme = self.ctx.theme
        out: dict[str, pygame.Rect] = {}
        y = inner.y
        if self.notices and self.phase != "ROLL_OFF":
            size = self.u(15)
            rows = wrap(theme, "  ·  ".join(self.notices), size, inner.width - self.u(14))
            line_h = theme.font(size).get_linesize()
            h = min(3, len(rows)) * line_h + self.u(8)
            out["notices"] = pygame.Rect(inner.x, y, inner.width, h)
            y += h + self.u(6)
        if self.prompt.title and not self.title_in_dice and self.prompt.kind != "winner":
            size = self.title_size()
            rows = wrap(theme, self.prompt.title, size, inner.width, True)
            h = len(rows) * theme.font(size, True).get_linesize()
            out["title"] = pygame.Rect(inner.x, y, inner.width, h)
            y += h + self.u(4)
        for i, line in enumerate(self.prompt.lines):
            size = self.u(17)
            rows = wrap(theme, line, size, inner.width)
            h = len(rows) * theme.font(size).get_linesize()
            out[f"line{i}"] = pygame.Rect(inner.x, y, inner.width, h)
            y += h + self.u(2)
        return out

    @property
    def title_in_dice(self) -> bool:
        """While the camera awaits a roll, the prompt ("Alice, roll the dice") is the dice
        preview's own status line: the picture gets the title's room."""
        return self.phase in ROLL_PHASES and self.dice.mode == CAMERA

    def title_size(self) -> int:
        return self.u(24) if self.phase in ROLL_PHASES else self.u(26)

    def _build_main(self, main: pygame.Rect) -> None:
        pad = self.u(12)
        inner = main.inflate(-2 * pad, -2 * pad)
        texts = self._text_layout(inner)
        self.text_rects = dict(texts)
        top = max((r.bottom for r in texts.values()), default=inner.y) + self.u(8)
        area = pygame.Rect(inner.x, top, inner.width, inner.bottom - top)
        self._areas["choices"] = area
        p = self.prompt
        gap = self.u(10)
        if p.kind == "dice":
            self.dice.prompt = p.title if self.title_in_dice else ""
            self.dice.build(area, self)
            return
        if p.kind == "pair":
            hgt = min(area.height, self.u(150))
            row = pygame.Rect(area.x, area.centery - hgt // 2, area.width, hgt)
            for c, rect in zip(p.choices, grid(row, 2, 1, gap), strict=False):
                self._add_choice(c, rect, self.u(28))
            return
        if p.kind == "answer":
            if p.toggles:
                row = pygame.Rect(area.x, area.y, area.width, self.u(52))
                label_w = self.u(190)
                self._areas["toggle_label"] = pygame.Rect(row.x, row.y, label_w, row.height)
                slots = pygame.Rect(row.x + label_w, row.y, row.width - label_w, row.height)
                for c, rect in zip(p.toggles, grid(slots, len(p.toggles), 1, gap),
                                   strict=False):
                    self._add_choice(c, rect, self.u(20))
                area = pygame.Rect(area.x, row.bottom + gap, area.width,
                                   area.bottom - row.bottom - gap)
            hgt = min(area.height, self.u(170))
            row = pygame.Rect(area.x, area.bottom - hgt, area.width, hgt)
            for c, rect in zip(p.choices, grid(row, 2, 1, gap), strict=False):
                self._add_choice(c, rect, self.u(34))
            return
        if p.kind == "grid" and p.choices:
            cols = max(1, min(p.columns, len(p.choices)))
            rows = -(-len(p.choices) // cols)
            cell_h = min(self.u(96), (area.height - gap * (rows - 1)) // rows)
            block = pygame.Rect(area.x, area.y, area.width, cell_h * rows + gap * (rows - 1))
            size = self.u(20) if cols <= 3 else self.u(16)
            if p.choices[0].key.startswith("card:"):
                size = self.u(24)
            for c, rect in zip(p.choices, grid(block, cols, rows, gap), strict=False):
                self._add_choice(c, rect, size)

    def _add_choice(self, c: Choice, rect: pygame.Rect, size: int) -> None:
        enabled = c.action is not None or c.key.startswith("bonmot:") or (
            c.key in ("right", "wrong") and bool(self.prompt.toggles))
        self.buttons.add(Button("c:" + c.key, rect, c.label, c.colour, sublabel=c.sublabel,
                                enabled=enabled, size=size, selected=c.selected))

    def _overlay_rect(self) -> pygame.Rect:
        w, h = self.size
        box = pygame.Rect(0, 0, min(w - self.u(40), self.u(620)), h - self.u(60))
        box.center = (w // 2, h // 2)
        return box

    def _build_overlay(self) -> None:
        box = self._overlay_rect()
        pad = self.u(18)
        inner = box.inflate(-2 * pad, -2 * pad)
        head = self.u(48)
        close_h = self.u(56)
        close = pygame.Rect(0, 0, self.u(200), close_h)
        close.midbottom = inner.midbottom
        self.buttons.add(Button("close", close, self.tr("dr.menu.close"), th.PANEL_LIGHT,
                                size=self.u(20)))
        body = pygame.Rect(inner.x, inner.y + head, inner.width,
                           close.y - self.u(12) - inner.y - head)
        if self.overlay == "menu":
            items = [
                ("home", th.PANEL_LIGHT, True),
                ("redo", th.BUTTON_COLOURS[ButtonName.UNDO], bool(self.info.get("can_redo"))),
                ("infraction", th.DANGER, not self.info.get("is_over")),
                ("rules", th.ACCENT, True),
            ]
            for (key, colour, enabled), rect in zip(items, grid(body, 2, 2, self.u(12)),
                                                    strict=False):
                self.buttons.add(Button(key, rect, self.tr(f"dr.menu.{key}"), colour,
                                        sublabel=self.tr(f"dr.menu.{key}_sub"),
                                        enabled=enabled, size=self.u(22)))
        elif self.overlay == "infraction":
            seats = self.view.get("seats", [])
            hint = self.u(40)
            area = pygame.Rect(body.x, body.y + hint, body.width, body.height - hint)
            cols = 2 if len(seats) <= 4 else 3
            rows = -(-len(seats) // cols)
            for i, rect in enumerate(grid(area, cols, max(1, rows), self.u(10))[:len(seats)]):
                self.buttons.add(Button(f"cheat:{i}", rect, str(seats[i]["name"]),
                                        th.mix(seat_colour(seats[i], i), th.PANEL, 0.25),
                                        size=self.u(22)))

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        draw_background(surface)
        theme, now = self.ctx.theme, self.ctx.now()
        if not self.live:
            draw_block(surface, theme, self.tr("dr.no_game"), surface.get_rect(), self.u(26),
                       th.TEXT_MUTED)
            self.buttons.draw(surface, theme, now)
            return
        self._draw_turn(surface)
        self._draw_bulletins(surface, now)
        self._draw_main(surface)
        if self.overlay is None:
            self.buttons.draw(surface, theme, now)
            if self.phase in ROLL_PHASES:
                self.dice.draw(surface)
            return
        for b in self._under:
            b.draw(surface, theme)
        if self.phase in ROLL_PHASES:
            self.dice.draw(surface)
        self._draw_overlay(surface)
        self.buttons.draw(surface, theme, now)

    def _turn_seat(self) -> int:
        return int(self.view.get("current", 0))

    def turn_text(self) -> str:
        view = self.view
        seats = view.get("seats", [])
        if self.phase == "ROLL_OFF":
            ro = view["roll_off"]
            i = len(ro["totals"])
            seat = ro["contenders"][i] if i < len(ro["contenders"]) else 0
            return self.tr("dr.turn", name=seats[seat]["name"])
        text = self.tr("dr.turn", name=seats[self._turn_seat()]["name"])
        q = view.get("question")
        if self.phase == "QUESTION" and q and q["answering"] != q["owner"]:
            text += "  ·  " + self.tr("dr.answers", name=seats[q["answering"]]["name"])
        return text

    def banner_seat(self) -> int:
        """The pawn the turn banner is about: the roller, or the one answering now."""
        seat = self._turn_seat()
        if self.phase == "ROLL_OFF":
            ro = self.view["roll_off"]
            i = len(ro["totals"])
            seat = ro["contenders"][i] if i < len(ro["contenders"]) else 0
        q = self.view.get("question")
        if self.phase == "QUESTION" and q and q["answering"] != q["owner"]:
            seat = int(q["answering"])
        return seat

    def banner_members(self) -> str:
        """The team's members under the banner's text ("" for a player alone)."""
        seats = self.view.get("seats", [])
        for seat in (self.banner_seat(), self._turn_seat()):
            text = members_text(seats[seat]) if 0 <= seat < len(seats) else ""
            if text:
                return text
        return ""

    def _draw_turn(self, surface: pygame.Surface) -> None:
        rect = self._areas["turn"]
        seats = self.view["seats"]
        seat = self._turn_seat()
        if self.phase == "ROLL_OFF":
            seat = self.banner_seat()
        colour = seat_colour(seats[seat], seat)
        panel(surface, rect, th.mix(th.PANEL, visible(colour), 0.22), self.u(14),
              shadow=self.u(3), border=visible(colour))
        d = rect.height - self.u(18)
        chip = pygame.Rect(rect.x + self.u(12), rect.centery - d // 2, d, d)
        pygame.draw.ellipse(surface, colour, chip)
        pygame.draw.ellipse(surface, th.TEXT, chip, width=max(1, self.u(2)))
        x = chip.right + self.u(12)
        width = rect.right - x - self.u(10)
        members = self.banner_members()
        if not members:
            draw_text(surface, self.ctx.theme, self.turn_text(), (x, rect.centery),
                      self.u(26), th.TEXT, bold=True, anchor="midleft", max_width=width)
            return
        # a team: its members in small under the banner's line
        draw_text(surface, self.ctx.theme, self.turn_text(), (x, rect.y + self.u(4)),
                  self.u(22), th.TEXT, bold=True, max_width=width)
        draw_text(surface, self.ctx.theme, members, (x, rect.bottom - self.u(4)), self.u(15),
                  th.TEXT_MUTED, anchor="bottomleft", max_width=width)

    def _draw_bulletins(self, surface: pygame.Surface, now: float) -> None:
        seats = self.view["seats"]
        area = self._areas["bulletins"]
        q = self.view.get("question")
        answering = q["answering"] if (q and self.phase == "QUESTION") else None
        playing = self._turn_seat() if self.phase not in ("ROLL_OFF", "OVER") else None
        self.number_rects = {}
        if self.compact:
            gap = self.u(6)
            rows = stack(area, len(seats), gap)
            for i, rect in enumerate(rows):
                rect.height = min(rect.height, self.u(118))
                rect.y = area.y + i * (rect.height + gap)
                self.number_rects[i] = draw_bulletin_row(
                    surface, self.ctx.theme, self.tr, rect, seats[i], seat_colour(seats[i], i),
                    self.shown_bulletin(i), unit=self.unit, playing=playing == i,
                    badge=self._badge(seats[i], i, None, playing))
            return
        for i, rect in enumerate(bulletin_layout(area, len(seats), self.u(8))):
            seat = seats[i]
            badge = self._badge(seat, i, answering, playing)
            self.number_rects[i] = draw_bulletin(
                surface, self.ctx.theme, self.tr, rect, seat, seat_colour(seat, i),
                self.shown_bulletin(i), unit=self.unit, playing=playing == i,
                answering=answering == i and answering != playing, glow=self.glow(i),
                badge=badge)
            pop = self.pops.get(i)
            if pop is not None and now - pop[1] < POP:
                self._draw_pop(surface, rect, pop[0], (now - pop[1]) / POP)

    def _badge(self, seat: Mapping[str, Any], i: int, answering: int | None,
               playing: int | None) -> str | None:
        if answering == i and answering != playing:
            return self.tr("dr.answering_badge")
        if int(seat.get("rest", 0)):
            return self.tr("dr.rest_badge", count=seat["rest"])
        if int(seat.get("infractions", 0)):
            return self.tr("dr.warning_badge", count=seat["infractions"])
        return None

    def _draw_pop(self, surface: pygame.Surface, rect: pygame.Rect, text: str,
                  t: float) -> None:
        size = self.u(30) if len(text) <= 4 else self.u(20)
        img = self.ctx.theme.render(text, size, th.TEXT_DARK, True)
        pill = pygame.Rect(0, 0, img.get_width() + self.u(24), img.get_height() + self.u(8))
        rise = round(self.u(10) * t)
        pill.topright = (rect.right - self.u(8), rect.y + self.u(6) + self.u(10) - rise)
        pill.clamp_ip(rect)
        pygame.draw.rect(surface, th.ACCENT, pill, border_radius=pill.height // 2)
        surface.blit(img, img.get_rect(center=pill.center))

    def _draw_main(self, surface: pygame.Surface) -> None:
        theme = self.ctx.theme
        main = self._areas["main"]
        panel(surface, main, th.PANEL, self.u(16), shadow=self.u(3))
        texts = self.text_rects
        strip = texts.get("notices")
        if strip is not None:
            pygame.draw.rect(surface, th.mix(th.PANEL, th.SHADOW, 0.5), strip,
                             border_radius=self.u(8))
            draw_block(surface, theme, "  ·  ".join(self.notices),
                       strip.inflate(-self.u(14), -self.u(4)), self.u(15), th.ACCENT,
                       align="left")
        title = texts.get("title")
        if title is not None:
            draw_block(surface, theme, self.prompt.title, title, self.title_size(), th.TEXT,
                       bold=True, align="left", valign="top")
        for i, line in enumerate(self.prompt.lines):
            rect = texts.get(f"line{i}")
            if rect is not None:
                draw_block(surface, theme, line, rect, self.u(17), th.TEXT_MUTED,
                           align="left", valign="top")
        area = self._areas.get("choices")
        if self.prompt.kind == "winner" and area is not None:  # before the end screen
            draw_block(surface, theme, self.prompt.title, area, self.u(44), th.ACCENT,
                       bold=True)
        label = self._areas.get("toggle_label")
        if self.prompt.toggles and label is not None:
            draw_block(surface, theme, self.tr("dr.q.bonmot_value"), label, self.u(17),
                       th.TEXT, align="left")

    def _draw_overlay(self, surface: pygame.Surface) -> None:
        theme = self.ctx.theme
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        box = self._overlay_rect()
        panel(surface, box, th.PANEL, self.u(18), shadow=self.u(5), border=th.ACCENT)
        pad = self.u(18)
        inner = box.inflate(-2 * pad, -2 * pad)
        title = {"menu": "dr.menu.title", "infraction": "dr.infraction.title",
                 "rules": "dr.rules.title"}[self.overlay or "menu"]
        draw_text(surface, theme, self.tr(title), (inner.x, inner.y), self.u(26), th.ACCENT,
                  bold=True, max_width=inner.width)
        body_top = inner.y + self.u(48)
        if self.overlay == "infraction":
            draw_block(surface, theme, self.tr("dr.infraction.hint"),
                       pygame.Rect(inner.x, body_top, inner.width, self.u(34)), self.u(16),
                       th.TEXT_MUTED, align="left")
        elif self.overlay == "rules":
            close = self.buttons.get("close")
            bottom = close.rect.y - self.u(12) if close else inner.bottom
            key = f"dr.rules.{self.phase.lower()}"
            draw_block(surface, theme, self.tr(key),
                       pygame.Rect(inner.x, body_top, inner.width, bottom - body_top),
                       self.u(22), th.TEXT, align="left", valign="top")

    def screen_key(self) -> Hashable:
        return (self.name, self.tr.language, self.seen_id, self.overlay, self.bon_mot_value,
                self.dice.layout_state() if self.phase in ROLL_PHASES else None, self.compact)
