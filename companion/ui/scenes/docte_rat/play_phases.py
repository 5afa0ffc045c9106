"""What the play screen says and offers in each phase of a Le Docte Rat turn.

``phase_prompt`` turns the referee's view (and the engine's legal actions) into a title,
a few explanatory lines and the choices to offer; ``notice_lines`` renders the engine's
notices (data) in the table's language. No drawing here: the scene lays the choices out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....core import codec
from ....core.actions import Action
from ... import theme as th
from ...i18n import EN, Translator
from ...theme import Colour

ROLL_PHASES = ("ROLL_OFF", "ROLL")
RIGHT: Colour = (70, 190, 105)
WRONG: Colour = (225, 85, 80)
SERIES_COLOURS: dict[str, Colour] = {
    "petite_colle": (236, 196, 60),  # yellow
    "erudition": (214, 76, 70),  # red
    "mini_test": (72, 128, 220),  # blue
    "bon_mot": (80, 170, 100),  # green
}
PURPOSE_NONE = ""


@dataclass
class Choice:
    key: str
    label: str
    sublabel: str | None = None
    colour: Colour = th.PANEL_LIGHT
    action: Action | None = None  # None: a choice on the screen only (e.g. Bon Mot value)
    selected: bool = False


@dataclass
class Prompt:
    title: str
    lines: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    kind: str = "grid"  # dice | answer | pair | grid | winner | none
    columns: int = 2
    toggles: list[Choice] = field(default_factory=list)  # small choices above (Bon Mot)


@dataclass(frozen=True)
class RollOffRound:
    """A finished round of the roll-off, as the table saw it: the engine's view forgets the
    totals once the round is over, the screen remembers them to show why someone starts."""

    totals: tuple[tuple[int, int], ...]  # (seat, total) in rolling order
    tied: tuple[int, ...] = ()  # the seats that roll again (empty: ``starter`` starts)
    starter: int | None = None


def names_text(tr: Translator, names: Sequence[str]) -> str:
    """"Alice", "Alice et Bob", "Alice, Bob et Chloé"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + tr("dr.and") + names[-1]


def rolloff_round_lines(tr: Translator, view: Mapping[str, Any],
                        rnd: RollOffRound) -> list[str]:
    """Everyone's total of a finished roll-off round, then who starts or who rolls again."""
    totals = "  ·  ".join(tr("dr.rolloff.entry", name=_name(view, seat), total=total)
                          for seat, total in rnd.totals)
    by_seat = dict(rnd.totals)
    lines = [tr("dr.rolloff.round", totals=totals)]
    if rnd.tied:
        lines.append(tr("dr.rolloff.tie", total=by_seat.get(rnd.tied[0], "?"),
                        names=names_text(tr, [_name(view, s) for s in rnd.tied])))
    elif rnd.starter is not None:
        lines.append(tr("dr.rolloff.starts", name=_name(view, rnd.starter),
                        total=by_seat.get(rnd.starter, "?")))
    return lines


def _name(view: Mapping[str, Any], seat: int | None) -> str:
    seats = view["seats"]
    if seat is None or not 0 <= seat < len(seats):
        return "?"
    return str(seats[seat]["name"])


def space_label(tr: Translator, space: Mapping[str, Any]) -> tuple[str, str | None]:
    """A landing choice: the space's name and what it holds."""
    kind = str(space.get("type", "?"))
    label = tr(f"dr.space.{kind}")
    call = space.get("call")
    if call in ("left", "right"):
        return label, tr(f"dr.call.{call}")
    if kind == "rest":
        return label, tr("dr.space.rest_sub")
    if kind == "bonus":
        return label, tr("dr.space.bonus_sub", points=space.get("bonus", 0))
    if kind == "exit":
        return label, tr("dr.space.exit_sub")
    return label, None


def phase_prompt(
    tr: Translator,
    info: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    bon_mot_value: int | None = None,
    bon_mot_points: Mapping[int, int] | None = None,
    double_or_quit_most: int = 3,
    bonus: int = 0,
    multiplier: int = 1,
    rolloff: RollOffRound | None = None,
) -> Prompt:
    """``info`` is ``Referee.view()``; ``legal`` the engine's legal actions now;
    ``rolloff`` the last finished roll-off round the screen saw (if any)."""
    view = info["view"]
    phase = str(info["phase"])
    current = int(view["current"])
    me = _name(view, current)
    actions = [a for a in legal if a.type != "infraction"]
    if phase == "ROLL_OFF":
        ro = view["roll_off"]
        contenders, totals = list(ro["contenders"]), list(ro["totals"])
        roller = contenders[len(totals)] if len(totals) < len(contenders) else None
        lines = [tr("dr.rolloff.title")]
        parts = []
        for i, seat in enumerate(contenders):
            if i < len(totals):
                parts.append(tr("dr.rolloff.total", name=_name(view, seat), total=totals[i]))
            else:
                parts.append(tr("dr.rolloff.waiting", name=_name(view, seat)))
        if rolloff is not None and rolloff.tied and list(rolloff.tied) == contenders:
            lines.insert(1, rolloff_round_lines(tr, view, rolloff)[-1])
        elif len(contenders) < len(view["seats"]):
            lines.insert(1, tr("dr.rolloff.tie_round"))
        lines.append("  ·  ".join(parts))
        return Prompt(tr("dr.rolloff.prompt", name=_name(view, roller)), lines, kind="dice")
    if phase == "ROLL":
        kinds = [n["kind"] for n in view["notices"]]
        again = ("roll_again" in kinds or "repeat_year" in kinds) and "skips" not in kinds
        key = "dr.roll.again" if again else "dr.roll.prompt"
        return Prompt(tr(key, name=me), kind="dice")
    if phase == "DOUBLES":
        die = int(view["steps"])
        at_entrance = view["seats"][current]["position"] == -1
        here = view["seats"][current].get("space")
        stay_sub = tr("dr.doubles.stay_entrance" if at_entrance else "dr.doubles.stay_sub")
        if here and not at_entrance:
            stay_sub = tr("dr.doubles.stay_space", space=space_label(tr, here)[0])
        stay = next((a for a in actions if a.type == "stay"), None)
        advance = next((a for a in actions if a.type == "advance"), None)
        choices = [
            Choice("stay", tr("dr.doubles.stay"), stay_sub, th.PANEL_LIGHT, stay),
            Choice("advance", tr("dr.doubles.advance", n=die), tr("dr.doubles.advance_sub"),
                   th.ACCENT, advance),
        ]
        return Prompt(tr("dr.doubles.prompt", die=die, name=me), choices=choices, kind="pair")
    if phase == "LANDING":
        steps = int(view["steps"])
        if steps > 0:
            title = tr("dr.landing.prompt", name=me, n=steps)
        elif steps < 0:
            title = tr("dr.landing.back", name=me, n=-steps)
        else:
            title = tr("dr.landing.here", name=me)
        choices = []
        for i, a in enumerate(actions):
            space = a.arg("space") or {}
            label, sub = space_label(tr, space)
            colour = SERIES_COLOURS.get(str(space.get("type")), th.PANEL_LIGHT)
            choices.append(Choice(f"land{i}", label, sub, colour, a))
        return Prompt(title, choices=choices, kind="grid", columns=5)
    if phase == "MINI_TEST_CARD":
        choices = []
        seen: set[tuple[int, ...]] = set()
        for a in actions:
            kind = a.arg("kind")
            if kind == "single":
                choices.append(Choice("mini:single", tr("dr.mini.single"),
                                      tr("dr.mini.single_sub"), SERIES_COLOURS["mini_test"], a))
            elif kind == "clues":
                choices.append(Choice("mini:clues", tr("dr.mini.clues"),
                                      tr("dr.mini.clues_sub"), SERIES_COLOURS["mini_test"], a))
            elif kind == "questions":
                seen.add(tuple(a.arg("values")))
        # the cards print 5 and 10 point questions in any order (at most 15 in all)
        printed: tuple[tuple[int, ...], ...] = ((5, 10), (10, 5), (5, 5), (5, 5, 5))
        seen.update(printed)
        player = actions[0].player if actions else None
        for values in sorted(seen, key=lambda v: (len(v), v)):
            a = Action("mini_test_card", {"kind": "questions", "values": list(values)}, player)
            choices.append(Choice(
                "mini:" + "-".join(map(str, values)),
                tr("dr.mini.questions", values=" + ".join(map(str, values))),
                tr("dr.mini.questions_sub", count=len(values)), th.PANEL_LIGHT, a))
        return Prompt(tr("dr.mini.prompt"), choices=choices, kind="grid", columns=3)
    if phase == "CHOOSE_SERIES":
        purpose = "dilemme" if set(view["choices"]) <= {"petite_colle", "erudition"} and len(
            view["choices"]) == 2 else "free"
        choices = []
        for a in actions:
            series = str(a.arg("series"))
            points = {"petite_colle": 5, "erudition": 10, "mini_test": 15, "bon_mot": 10}
            sub = (tr("dr.q.bonmot_unknown") if series == "bon_mot"
                   else tr("dr.space.points_sub", points=points.get(series, 0)))
            choices.append(Choice(f"series:{series}", tr(f"dr.space.{series}"), sub,
                                  SERIES_COLOURS.get(series, th.PANEL_LIGHT), a))
        return Prompt(tr(f"dr.choose.{purpose}", name=me), [tr(f"dr.choose.{purpose}_sub")],
                      choices, kind="grid", columns=2 if len(choices) <= 4 else 3)
    if phase == "DRAW_CARD":
        choices = [Choice(f"card:{a.arg('card')}", str(a.arg("card")), None, th.PANEL_LIGHT, a)
                   for a in actions]
        cols = 8 if len(choices) > 18 else 6
        return Prompt(tr("dr.draw.prompt", name=me), [tr("dr.draw.sub")], choices,
                      kind="grid", columns=cols)
    if phase == "DOUBLE_OR_QUIT":
        q = view["question"] or {}
        stake = int(q.get("stake", 0))
        stop = next((a for a in actions if a.type == "stop"), None)
        double = next((a for a in actions if a.type == "double"), None)
        choices = [
            Choice("stop", tr("dr.dq.stop"), tr("dr.dq.stop_sub", stake=stake), RIGHT, stop),
            Choice("double", tr("dr.dq.double"), tr("dr.dq.double_sub", double=2 * stake),
                   th.ACCENT, double),
        ]
        lines = [tr("dr.dq.rounds", round=int(q.get("round", 0)) + 1, most=double_or_quit_most)]
        return Prompt(tr("dr.dq.prompt", name=me, stake=stake), lines, choices, kind="pair")
    if phase == "OVER":
        winner = view.get("winner")
        return Prompt(tr("dr.end.winner", name=_name(view, winner if isinstance(winner, int)
                                                       else None)), kind="winner")
    if phase == "QUESTION":
        prompt = _question(tr, view, actions, bon_mot_value, bon_mot_points or {})
        if multiplier > 1:
            prompt.lines.append(tr("dr.q.double_value"))
        if bonus:
            prompt.lines.append(tr("dr.q.bonus", bonus=bonus))
        return prompt
    return Prompt("", kind="none")


def _question(
    tr: Translator,
    view: Mapping[str, Any],
    actions: Sequence[Action],
    bon_mot_value: int | None,
    bon_mot_points: Mapping[int, int],
) -> Prompt:
    q = view["question"] or {}
    series = str(q.get("series", ""))
    series_name = tr(f"dr.space.{series}")
    answering = _name(view, q.get("answering"))
    purpose = str(q.get("purpose", "space"))
    points = q.get("points_if_right")
    bon_mot = q.get("value") is None
    if bon_mot and bon_mot_value is not None:
        points = bon_mot_points.get(bon_mot_value, bon_mot_value)
    shown_points = points if points is not None else tr("dr.q.bonmot_unknown")
    lines: list[str] = []
    mini = q.get("mini_kind")
    if q.get("in_call"):
        title = tr("dr.q.call_title", name=answering, points=shown_points)
        left = [_name(view, s) for s in q.get("callers_left", [])]
        lines.append(tr("dr.q.call_next", names=", ".join(left)) if left
                     else tr("dr.q.call_last"))
    elif mini:
        values = list(q.get("mini_values", []))
        n, count = int(q.get("index", 0)) + 1, len(values)
        value = values[n - 1] if n - 1 < len(values) else 0
        title = tr(f"dr.q.mini_{mini}", n=n, count=count, points=value)
        if int(q.get("earned", 0)):
            lines.append(tr("dr.q.mini_earned", points=q.get("earned")))
    elif purpose == "duo1":
        title = tr("dr.q.duo1")
        lines.append(tr("dr.q.duo1_sub"))
    elif purpose == "duo2":
        title = tr("dr.q.duo2")
    elif purpose == "dilemme":
        title = tr("dr.q.dilemme", series=series_name, points=shown_points)
    elif purpose == "double_or_quit":
        stake = int(q.get("stake", 0))
        if int(q.get("round", 0)) == 0:
            title = tr("dr.q.dq_first", series=series_name)
        else:
            title = tr("dr.q.dq_round", stake=stake, double=2 * stake)
    elif bon_mot and bon_mot_value is None:
        title = tr("dr.q.draw_bonmot", points=shown_points)
    else:
        title = tr("dr.q.draw", series=series_name, points=shown_points)
    if purpose == "free":
        lines.append(tr("dr.q.free"))
    elif purpose == "card":
        lines.append(tr("dr.q.card"))
    if q.get("call") and not q.get("in_call"):
        lines.append(tr("dr.q.call_ahead", direction=tr(f"dr.call.{q['call']}_long")))
    if not q.get("in_call"):
        lines.insert(0, tr("dr.q.reads_mini" if mini else "dr.q.reads", name=answering))
    toggles: list[Choice] = []
    if bon_mot:
        for v in (5, 10):
            toggles.append(Choice(f"bonmot:{v}", tr("dr.q.bonmot_points", points=v), None,
                                  SERIES_COLOURS["bon_mot"], None, selected=bon_mot_value == v))

    def pick(correct: bool) -> Action | None:
        for a in actions:
            if a.type != "answer" or a.arg("correct") is not correct:
                continue
            if bon_mot and a.arg("points") != bon_mot_value:
                continue
            return a
        return None

    choices = [
        Choice("right", "✓ " + tr("dr.q.right"), tr("button.yes"), RIGHT, pick(True)),
        Choice("wrong", "✗ " + tr("dr.q.wrong"), tr("button.no"), WRONG, pick(False)),
    ]
    return Prompt(title, lines, choices, kind="answer", toggles=toggles)


def notice_lines(tr: Translator, view: Mapping[str, Any]) -> list[str]:
    """What the last action did, in words (the engine's notices are data)."""
    out: list[str] = []
    for n in view.get("notices", []):
        line = notice_text(tr, view, n)
        if line:
            out.append(line)
    return out


def notice_text(tr: Translator, view: Mapping[str, Any], n: Mapping[str, Any]) -> str:
    kind = str(n.get("kind"))
    seat = n.get("seat")
    name = _name(view, seat) if seat is not None else ""
    value = int(n.get("value", 0) or 0)
    detail = str(n.get("detail", "") or "")
    if kind == "rolled":
        return tr("dr.n.rolled", name=name, dice=detail.replace("-", " + ") + f" = {value}")
    if kind == "rolloff":
        return tr("dr.n.rolloff", name=name, value=value)
    if kind == "rolloff_tie":
        names = ", ".join(_name(view, int(s)) for s in detail.split(",") if s.strip())
        return tr("dr.n.rolloff_tie", value=value, names=names)
    if kind in ("starts", "stays", "right", "wrong", "call_to_all", "docte_rat", "skips",
                "roll_again", "warning", "loses_turn", "no_deck"):
        return tr(f"dr.n.{kind}", name=name)
    if kind == "moves":
        if value == 0:
            return ""
        return tr("dr.n.moves" if value > 0 else "dr.n.moves_back", name=name, n=abs(value))
    if kind == "lands":
        key = f"dr.space.{detail}"
        space = tr(key) if key in EN else detail
        return tr("dr.n.lands", space=space)
    if kind in ("stake", "stake_lost", "repeat_year", "rests"):
        return tr(f"dr.n.{kind}", name=name, value=value)
    if kind == "points":
        if value >= 0:
            return tr("dr.n.points", name=name, value=value)
        return tr("dr.n.points_lost", name=name, value=-value)
    if kind == "goal":
        track = tr(f"dr.track.{detail}") if detail else ""
        return tr("dr.n.goal_univ" if detail == "university" else "dr.n.goal", name=name,
                  track=track)
    if kind == "card":
        return tr("dr.n.card", value=value, text=detail)
    return ""


def landing_space(action: Action) -> dict[str, Any]:
    return dict(codec.dump(action.arg("space") or {}))
