"""docs/events.md stays true to the code.

Its replay files replay through the real referee (and print what the doc says they print),
its rejections stop with the messages it quotes, its Le Docte Rat action examples are actions
the engine knows, and every Le Docte Rat action, phase, setting and notice kind is documented.

The doc marks its blocks with a comment alone on the line before a fenced block:
``<!-- replay: GAME -->`` (a whole replay file), ``<!-- replay-output -->`` (the exact output
of the replay file above it), ``<!-- rejected: GAME -->`` (a replay file that must stop with
the one line of the text block after it). In the Le Docte Rat section every other ``json``
block holds one action a line. The last tests break the real doc on purpose to show that
every check can fail.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from companion.core.actions import Action
from companion.core.errors import CompanionError
from companion.games.docte_rat import engine as docte_rat
from companion.games.docte_rat.engine import ENGINE, Phase, Settings
from companion.games.registry import Registry, default_registry
from companion.replay import ReplayError, replay_lines
from tests.toygame import RaceGame

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "events.md"
SECTION = "### Le Docte Rat"
MARKER = re.compile(r"<!--\s*(?:(replay|rejected):\s*([\w-]+)|(replay-output))\s*-->")
KNOWN_ACTIONS: set[str] = set().union(*ENGINE.allowed.values())


@dataclass(frozen=True)
class Block:
    line: int  # the opening fence's line number in the doc
    lang: str
    text: str
    marker: tuple[str, str] | None  # ("replay", game), ("rejected", game), ("replay-output", "")
    in_docte_rat: bool


def parse_blocks(doc: str) -> list[Block]:
    lines = doc.splitlines()
    out: list[Block] = []
    section = ""
    previous = ""  # the last non-blank line before the current one, outside blocks
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            assert end < len(lines), f"events.md line {i + 1}: the code block is never closed"
            found = MARKER.fullmatch(previous.strip())
            marker = None
            if found:
                marker = ("replay-output", "") if found[3] else (found[1], found[2])
            text = "\n".join(lines[i + 1 : end])
            out.append(Block(i + 1, line[3:].strip(), text, marker, section == SECTION))
            previous, i = "```", end + 1
            continue
        if line.startswith("#") and len(line) - len(line.lstrip("#")) <= 3:
            section = line.strip()
        if line.strip():
            previous = line
        i += 1
    return out


def section_text(doc: str) -> str:
    start = doc.find("\n" + SECTION + "\n")
    assert start >= 0, f"events.md has no {SECTION!r} section"
    rest = doc[start + len(SECTION) + 2 :]
    end = re.search(r"^#{2,3} ", rest, re.M)
    return rest[: end.start()] if end else rest


def registry() -> Registry:
    reg = default_registry()
    reg.register(RaceGame())  # the test-only game of the general example
    return reg


def _replay(block: Block, reg: Registry) -> dict:
    assert block.marker is not None
    return replay_lines(block.marker[1], block.text.splitlines(), reg)


# -- the checks: each returns what is wrong ------------------------------------------------


def replay_problems(doc: str, reg: Registry) -> list[str]:
    problems = []
    blocks = parse_blocks(doc)
    for n, block in enumerate(blocks):
        if block.marker is None or block.marker[0] != "replay":
            continue
        where = f"events.md line {block.line} ({block.marker[1]})"
        try:
            view = _replay(block, reg)
        except CompanionError as exc:
            problems.append(f"{where}: {exc}")
            continue
        nxt = blocks[n + 1] if n + 1 < len(blocks) else None
        if nxt is not None and nxt.marker == ("replay-output", ""):
            try:
                shown = json.loads(nxt.text)
            except json.JSONDecodeError as exc:
                problems.append(f"events.md line {nxt.line}: the output is not JSON: {exc}")
                continue
            if shown != view:
                actual = json.dumps(view, indent=2, ensure_ascii=False, sort_keys=True)
                problems.append(
                    f"events.md line {nxt.line}: the output differs from the replay's:\n{actual}"
                )
    for n, block in enumerate(blocks):
        above = blocks[n - 1].marker if n > 0 else None
        if block.marker == ("replay-output", "") and (above is None or above[0] != "replay"):
            problems.append(f"events.md line {block.line}: an output with no replay file above")
    return problems


def rejected_problems(doc: str, reg: Registry) -> list[str]:
    problems = []
    blocks = parse_blocks(doc)
    for n, block in enumerate(blocks):
        if block.marker is None or block.marker[0] != "rejected":
            continue
        where = f"events.md line {block.line}"
        nxt = blocks[n + 1] if n + 1 < len(blocks) else None
        if nxt is None or nxt.lang != "text" or not nxt.text.startswith("companion: "):
            problems.append(f"{where}: expected a text block with the 'companion: ...' line")
            continue
        try:
            _replay(block, reg)
        except ReplayError as exc:
            if f"companion: {exc}" != nxt.text.strip():
                problems.append(f"{where}: the replay stops with\ncompanion: {exc}")
        else:
            problems.append(f"{where}: the replay was accepted; the doc says it is rejected")
    return problems


def unmarked_setup_problems(doc: str) -> list[str]:
    """A replay file the tests would not run: a json block starting with a setup line."""
    problems = []
    for block in parse_blocks(doc):
        first = next((ln for ln in block.text.splitlines() if ln.strip()), "")
        try:
            data = json.loads(first)
        except json.JSONDecodeError:
            continue
        is_setup = isinstance(data, dict) and data.get("type") == "setup"
        if is_setup and (block.marker is None or block.marker[0] not in ("replay", "rejected")):
            problems.append(f"events.md line {block.line}: a replay file with no replay marker")
    return problems


def action_examples(doc: str) -> tuple[list[str], set[str]]:
    """Problems with the Docte Rat section's one-line action examples, and their types."""
    problems: list[str] = []
    types: set[str] = set()
    for block in parse_blocks(doc):
        if not block.in_docte_rat or block.lang != "json" or block.marker is not None:
            continue
        for offset, text in enumerate(block.text.splitlines(), start=1):
            if not text.strip():
                continue
            where = f"events.md line {block.line + offset}"
            try:
                action = Action.from_json(json.loads(text))
            except (json.JSONDecodeError, CompanionError) as exc:
                problems.append(f"{where}: not an action: {exc}")
                continue
            if action.type not in KNOWN_ACTIONS:
                problems.append(f"{where}: Le Docte Rat has no action {action.type!r}")
            types.add(action.type)
    return problems, types


def notice_kinds() -> set[str]:
    """Every kind the engine passes to ``_notice`` (a literal, or either side of an if)."""
    tree = ast.parse(Path(docte_rat.__file__).read_text(encoding="utf-8"))
    kinds: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_notice"):
            continue
        arg = node.args[1]
        options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
        for option in options:
            value = option.value if isinstance(option, ast.Constant) else None
            assert isinstance(value, str), f"engine.py line {node.lineno}: not a literal kind"
            kinds.add(value)
    return kinds


def undocumented(doc: str, names: set[str]) -> set[str]:
    """Names that start no table row of the Docte Rat section (first cell: `name`)."""
    first_cells = [
        line.split("|")[1] for line in section_text(doc).splitlines() if line.startswith("| ")
    ]
    return {name for name in names if not any(f"`{name}`" in cell for cell in first_cells)}


# -- the real doc --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def test_the_doc_has_docte_rat_replays_and_examples(doc: str) -> None:
    blocks = parse_blocks(doc)
    assert any(b.marker == ("replay", "docte-rat") for b in blocks)
    assert any(b.marker == ("replay-output", "") for b in blocks)
    assert any(b.marker == ("rejected", "docte-rat") for b in blocks)
    assert action_examples(doc)[1], "no action examples in the Le Docte Rat section"


def test_every_replay_file_replays_and_prints_what_the_doc_shows(doc: str) -> None:
    assert replay_problems(doc, registry()) == []


def test_every_rejected_file_stops_with_the_quoted_line(doc: str) -> None:
    assert rejected_problems(doc, registry()) == []


def test_no_replay_file_escapes_the_checks(doc: str) -> None:
    assert unmarked_setup_problems(doc) == []


def test_every_action_example_is_a_docte_rat_action(doc: str) -> None:
    problems, _ = action_examples(doc)
    assert problems == []


def test_every_docte_rat_action_has_an_example(doc: str) -> None:
    _, types = action_examples(doc)
    assert KNOWN_ACTIONS - types == set()


def test_every_phase_setting_and_notice_kind_is_in_a_table(doc: str) -> None:
    assert undocumented(doc, {p.name for p in Phase}) == set()
    assert undocumented(doc, {f.name for f in fields(Settings)}) == set()
    kinds = notice_kinds()
    assert len(kinds) > 20  # the AST walk found the engine's notices
    assert undocumented(doc, kinds) == set()


# -- every check can fail -------------------------------------------------------------------


def broken(doc: str, old: str, new: str) -> str:
    assert old in doc, f"the doc no longer holds {old!r}: update this test"
    return doc.replace(old, new, 1)


WORKED_ROLL = '"dice": [5, 2]}, "player": 0}}'  # a line of the worked example


def test_the_replay_check_catches_a_bad_line_and_a_wrong_output(doc: str) -> None:
    reg = registry()
    bad_die = broken(doc, WORKED_ROLL, '"dice": [5, 7]}, "player": 0}}')
    assert any("a die shows 1 to 6, got 7" in p for p in replay_problems(bad_die, reg))
    bad_output = broken(doc, '"state_id": 19,', '"state_id": 18,')
    assert any("output differs" in p for p in replay_problems(bad_output, reg))


def test_the_rejection_check_catches_a_wrong_message_or_an_accepted_file(doc: str) -> None:
    reg = registry()
    other_message = broken(doc, "a die shows 1 to 6, got 7\n```", "a die shows 1 to 6\n```")
    assert rejected_problems(other_message, reg)
    accepted = broken(doc, '"dice": [7, 1]', '"dice": [6, 1]')
    assert any("was accepted" in p for p in rejected_problems(accepted, reg))


def test_the_marker_check_catches_an_unmarked_replay_file(doc: str) -> None:
    assert unmarked_setup_problems(broken(doc, "<!-- replay: docte-rat -->\n", "\n"))


def test_the_example_checks_catch_unknown_and_missing_actions(doc: str) -> None:
    example = '```json\n{"type": "%s", "player": 0}\n```'
    unknown = broken(doc, example % "stop", example % "quit")
    problems, types = action_examples(unknown)
    assert any("no action 'quit'" in p for p in problems)
    assert "stop" in KNOWN_ACTIONS - types
    malformed = broken(doc, example % "stay", example.replace('"player"', '"seat"') % "stay")
    assert any("not an action" in p for p in action_examples(malformed)[0])


def test_the_table_check_catches_a_missing_notice_kind(doc: str) -> None:
    missing = broken(doc, "| `no_deck` |", "| no deck |")
    assert undocumented(missing, notice_kinds()) == {"no_deck"}
