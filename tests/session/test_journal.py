"""The journal on a real SQLite file: sessions, players, damage and newer schemas reported."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.core.engine import Seat, Setup
from companion.core.errors import JournalError
from companion.session.journal import JOURNAL_SCHEMA, Journal

SETUP = Setup((Seat("Alice"), Seat("Les Rats", ("Bob", "Chloé"))), {"goal": 20})


def roll(a: int, b: int) -> dict:
    return {"action": {"type": "roll", "args": {"dice": [a, b]}, "player": 0}}


def test_events_come_back_in_order_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as j:
        sid = j.create_session("race", SETUP)
        assert [j.append(sid, "action", roll(1, 2)), j.append(sid, "undo", {})] == [1, 2]
    with Journal.open(path) as j:
        events = j.events(sid)
        assert [(e.seq, e.type) for e in events] == [(1, "action"), (2, "undo")]
        assert events[0].payload == roll(1, 2)
        info = j.session(sid)
        assert info.setup == SETUP and info.status == "playing" and info.event_count == 2


def test_the_file_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j:
        assert j._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_sessions_and_players_are_queryable_for_history(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j:
        first = j.create_session("race", SETUP)
        second = j.create_session("race", Setup.of("Alice", "Denis"))
        j.append(first, "action", roll(6, 6), status="finished", outcome={"winners": [0]})
        assert j.players() == ["Alice", "Bob", "Chloé", "Denis"]
        assert [s.id for s in j.sessions(player="Bob")] == [first]
        assert [s.id for s in j.sessions(player="Alice")] == [second, first]
        assert j.last_unfinished().id == second
        finished = j.session(first)
        assert finished.status == "finished" and finished.outcome == {"winners": [0]}
        assert finished.finished_at is not None
        j.abandon(second)
        assert j.last_unfinished() is None
        assert j.session(second).status == "abandoned"


def test_a_writer_that_lost_the_race_is_refused(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j:
        sid = j.create_session("race", SETUP)
        j.append(sid, "action", roll(1, 2), expected_seq=1)
        with pytest.raises(JournalError, match="expected 1"):
            j.append(sid, "action", roll(3, 4), expected_seq=1)
        assert len(j.events(sid)) == 1


def _tamper(path: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(sql, args)
    conn.close()


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ('UPDATE events SET payload=\'{"action": {"type": "roll"}}\' WHERE seq=2', "checksum"),
        ("UPDATE events SET schema=99 WHERE seq=2", "newer Table Companion"),
        ("UPDATE events SET type='teleport' WHERE seq=2", "unknown type 'teleport'"),
        ("DELETE FROM events WHERE seq=2", "event 2 is missing"),
    ],
)
def test_a_damaged_row_is_reported_with_its_row_number(
    tmp_path: Path, sql: str, message: str
) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as j:
        sid = j.create_session("race", SETUP)
        for a in range(1, 4):
            j.append(sid, "action", roll(a, a))
        row = j._conn.execute("SELECT id FROM events WHERE seq=?", (3 if "DELETE" in sql else 2,))
        row_id = row.fetchone()[0]
    _tamper(path, sql)
    before = path.read_bytes()
    with Journal.open(path) as j, pytest.raises(JournalError) as err:
        j.events(sid)
    assert message in str(err.value)
    assert f"row {row_id}" in str(err.value)
    assert path.read_bytes() == before, "a damaged journal must never be rewritten"


def test_a_journal_from_a_newer_companion_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal.open(path).close()
    _tamper(path, "UPDATE meta SET value=? WHERE key='journal_schema'", str(JOURNAL_SCHEMA + 1))
    before = path.read_bytes()
    with pytest.raises(JournalError, match="newer Table Companion"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not sqlite, just some garbage " * 200)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="journal.sqlite3 is not a readable journal"):
        Journal.open(path)
    assert path.read_bytes() == before


def test_another_apps_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    _tamper(path, "CREATE TABLE recipes (name TEXT)")
    with pytest.raises(JournalError, match="not a Table Companion journal"):
        Journal.open(path)
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["recipes"]
    conn.close()


def test_a_refused_file_keeps_its_own_journal_mode(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    _tamper(path, "CREATE TABLE recipes (name TEXT)")
    with pytest.raises(JournalError):
        Journal.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
