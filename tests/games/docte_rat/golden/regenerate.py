"""Write the golden games anew: seeded "tables" play whole games of Le Docte Rat.

    .venv/bin/python -m tests.games.docte_rat.golden.regenerate

Each table answers right about 60 % of the time, now and then mistypes a roll and undoes
it, reports an infraction, and makes every choice at random; the seed makes it exact.
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.core import codec
from companion.core.actions import Action
from companion.core.engine import Setup
from companion.games.docte_rat.engine import ENGINE, DocteRatState, Phase
from companion.games.registry import default_registry
from companion.session.journal import Journal
from companion.session.referee import Accepted, Intent, Referee

from . import HERE, play

GAMES: dict[str, dict[str, Any]] = {
    "two-players-full-game": {
        "seed": 1,
        "seats": [{"name": "Alice"}, {"name": "Bob"}],
        "options": {"board": "default"},
    },
    "team-and-two-players-shortened": {
        "seed": 2,
        "seats": [{"name": "Alice"}, {"name": "Les Rats", "members": ["Bob", "Chloé"]},
                  {"name": "Denis"}],
        "options": {"board": "default", "goals": [20, 30, 40]},
    },
    "four-players-board-free": {
        "seed": 3,
        "seats": [{"name": n} for n in ("Alice", "Bob", "Chloé", "Denis")],
        "options": {"board": "free", "goals": [15, 20, 25]},
    },
    "six-players-short-negative-bulletins": {
        "seed": 4,
        "seats": [{"name": f"Joueur {i}"} for i in range(1, 7)],
        "options": {"board": "default", "goals": [10, 15, 20],
                    "settings": {"negative_bulletin": True}},
    },
}


def choose(rng: random.Random, state: DocteRatState) -> Action:
    legal = [a for a in ENGINE.legal_actions(state) if a.type != "infraction"]
    if state.phase is Phase.QUESTION:
        right = rng.random() < 0.6
        legal = [a for a in legal if a.arg("correct") is right]
    if state.phase is Phase.ROLL and rng.random() < 0.01:
        return Action("infraction", {"seat": rng.randrange(len(state.seats))})
    return rng.choice(legal)


def line(action: Action | None, kind: str = "action") -> str:
    if action is None:
        return json.dumps({"type": kind})
    return json.dumps({"type": "action", "action": action.to_json()}, ensure_ascii=False)


def generate(spec: dict[str, Any]) -> list[str]:
    rng = random.Random(spec["seed"])
    setup = {"seats": spec["seats"], "options": spec["options"]}
    lines = [json.dumps({"type": "setup", **setup}, ensure_ascii=False)]
    with Journal.open(":memory:") as journal:
        referee = Referee(journal, default_registry())
        assert isinstance(referee.start(ENGINE.id, Setup.from_json(setup)), Accepted)
        while not ENGINE.is_over(referee.state) and len(lines) < 2000:
            action = choose(rng, referee.state)
            assert isinstance(referee.submit(Intent("action", action)), Accepted)
            lines.append(line(action))
            if action.type == "roll" and rng.random() < 0.03:  # a misread roll, corrected
                assert isinstance(referee.submit(Intent("undo")), Accepted)
                lines.append(line(None, "undo"))
    return lines


def main() -> None:
    for name, spec in GAMES.items():
        lines = generate(spec)
        (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        expected = play(lines)
        (HERE / f"{name}.expected.json").write_text(
            json.dumps(codec.dump(expected), indent=1, ensure_ascii=False, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        final = expected["final"]
        print(f"{name}: {len(lines)} lines, over={final['is_over']}, "
              f"winner={final['outcome']}")


if __name__ == "__main__":
    main()
