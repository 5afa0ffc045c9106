"""The journal: an append-only SQLite event log, one per machine, holding every game session.

It is the source of truth. A session's state is a fold of its events over the game engine
(see referee.py); nothing else about a game in progress is stored. Design points:

* SQLite in WAL mode with ``synchronous=FULL``: once ``append`` returns, the event survives
  a power cut; a half-written transaction is rolled back by SQLite on the next open.
* Rows are never updated or deleted (undo and redo are events too). Only a session's
  summary row (status, outcome) changes, in the same transaction as the event causing it.
* Every event row carries its schema version and a CRC32 of its payload. Reading a damaged
  row, or one written by a newer Table Companion, raises ``JournalError`` naming the row;
  rows are never skipped silently and the file is never rewritten or replaced.
* Sessions and players are queryable for the history screens.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core.actions import SCHEMA_VERSION
from ..core.engine import Setup
from ..core.errors import CompanionError, JournalError

#: Layout of the tables. Bump with a migration when the tables change.
JOURNAL_SCHEMA = 1

EVENT_TYPES = frozenset({"action", "undo", "redo"})

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    setup       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    finished_at TEXT,
    status      TEXT NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    outcome     TEXT
);
CREATE TABLE IF NOT EXISTS players (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat       INTEGER NOT NULL,
    pawn       TEXT NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (session_id, seat, name)
);
CREATE TABLE IF NOT EXISTS events (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq        INTEGER NOT NULL,
    schema     INTEGER NOT NULL,
    type       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    crc        INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (session_id, seq)
);
CREATE INDEX IF NOT EXISTS players_by_name ON players(name);
"""


@dataclass(frozen=True)
class JournalEvent:
    row: int  # the events table's row id: what error messages name
    session_id: int
    seq: int  # 1, 2, 3... within the session; the state id after this event
    schema: int
    type: str
    payload: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    setup: Setup
    created_at: str
    finished_at: str | None
    status: str
    outcome: dict[str, Any] | None
    event_count: int

    @property
    def player_names(self) -> list[str]:
        return [seat.name for seat in self.setup.seats]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _crc(payload: str) -> int:
    return zlib.crc32(payload.encode("utf-8"))


class Journal:
    """One SQLite file (or ``":memory:"``) of game sessions and their events."""

    def __init__(self, conn: sqlite3.Connection, name: str) -> None:
        self._conn = conn
        self.name = name

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | Path) -> Journal:
        name = str(path) if str(path) == ":memory:" else Path(path).name
        hint = "the file was left untouched; move it aside to start a new journal"
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), isolation_level=None)
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"cannot open the journal {path}: {exc}") from None
        try:
            # Read-only checks first: a file we refuse must not be touched, not even by
            # switching it to WAL mode.
            check = conn.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                problems = "; ".join(str(r[0]) for r in check[:3])
                raise JournalError(f"{name} is damaged ({problems}); {hint}")
            journal = cls(conn, name)
            fresh = journal._check_identity()
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            if fresh:
                journal._create_tables()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise JournalError(f"{name} is not a readable journal ({exc}); {hint}") from None
        except CompanionError:
            conn.close()
            raise
        return journal

    def _check_identity(self) -> bool:
        """Refuse files that are not our journal or are newer; True when the file is new."""
        tables = {
            r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        if tables and "meta" not in tables:
            raise JournalError(
                f"{self.name} is an SQLite file but not a Table Companion journal "
                f"(tables: {', '.join(sorted(tables))}); it was left untouched"
            )
        if "meta" in tables:
            row = self._conn.execute("SELECT value FROM meta WHERE key='journal_schema'").fetchone()
            version = int(row[0]) if row and str(row[0]).isdigit() else None
            if version is None:
                raise JournalError(f"{self.name}: meta has no valid journal_schema; left untouched")
            if version > JOURNAL_SCHEMA:
                raise JournalError(
                    f"{self.name} was written by a newer Table Companion (journal schema "
                    f"{version}, this one reads up to {JOURNAL_SCHEMA}); update the companion "
                    f"(./setup.sh run). The file was left untouched"
                )
            return False
        return True

    def _create_tables(self) -> None:
        with self._tx():
            for statement in _TABLES.split(";"):  # executescript() would COMMIT early
                if statement.strip():
                    self._conn.execute(statement)
            self._conn.execute(
                "INSERT INTO meta(key, value) VALUES ('journal_schema', ?)", (str(JOURNAL_SCHEMA),)
            )

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(f"could not write to {self.name}: {exc}") from None

    # -- writing -------------------------------------------------------------------------
    def create_session(self, game: str, setup: Setup) -> int:
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO sessions(game, setup, created_at) VALUES (?, ?, ?)",
                (game, json.dumps(setup.to_json(), sort_keys=True), _now()),
            )
            sid = int(cur.lastrowid or 0)
            for seat_no, seat in enumerate(setup.seats):
                for name in dict.fromkeys(seat.members or (seat.name,)):
                    conn.execute(
                        "INSERT INTO players(session_id, seat, pawn, name) VALUES (?, ?, ?, ?)",
                        (sid, seat_no, seat.name, name),
                    )
        return sid

    def append(
        self,
        session_id: int,
        type: str,
        payload: dict[str, Any],
        *,
        expected_seq: int | None = None,
        status: str | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> int:
        """Append one event and return its seq once it is durably on disk.

        ``expected_seq`` (the seq the caller believes is next) guards against two writers;
        ``status``/``outcome`` update the session summary in the same transaction.
        """
        if type not in EVENT_TYPES:
            raise JournalError(
                f"unknown event type {type!r}; expected one of {sorted(EVENT_TYPES)}"
            )
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        with self._tx() as conn:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id=?", (session_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            if expected_seq is not None and seq != expected_seq:
                raise JournalError(
                    f"session {session_id} moved on elsewhere (next event {seq}, "
                    f"expected {expected_seq})"
                )
            conn.execute(
                "INSERT INTO events(session_id, seq, schema, type, payload, crc, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, seq, SCHEMA_VERSION, type, text, _crc(text), _now()),
            )
            if status is not None:
                conn.execute(
                    "UPDATE sessions SET status=?, outcome=?, finished_at=? WHERE id=?",
                    (
                        status,
                        None if outcome is None else json.dumps(outcome, sort_keys=True),
                        _now() if status != "playing" else None,
                        session_id,
                    ),
                )
        return seq

    def abandon(self, session_id: int) -> None:
        """Mark an unfinished session as abandoned (its events stay; it can still be read)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE sessions SET status='abandoned', finished_at=? "
                "WHERE id=? AND status='playing'",
                (_now(), session_id),
            )

    # -- reading -------------------------------------------------------------------------
    def events(self, session_id: int) -> list[JournalEvent]:
        rows = self._conn.execute(
            "SELECT id, session_id, seq, schema, type, payload, crc, created_at "
            "FROM events WHERE session_id=? ORDER BY seq",
            (session_id,),
        ).fetchall()
        out = []
        for expected_seq, (row, sid, seq, schema, type_, payload, crc, created) in enumerate(
            rows, start=1
        ):
            where = f"{self.name}: event row {row} (session {sid}, event {seq})"
            if seq != expected_seq:
                raise JournalError(f"{where}: event {expected_seq} is missing before it")
            if not isinstance(schema, int) or schema > SCHEMA_VERSION:
                raise JournalError(
                    f"{where} was written by a newer Table Companion (event schema {schema}, "
                    f"this one reads up to {SCHEMA_VERSION}); update the companion"
                )
            if type_ not in EVENT_TYPES:
                raise JournalError(f"{where} has unknown type {type_!r}")
            if not isinstance(payload, str) or _crc(payload) != crc:
                raise JournalError(f"{where} is damaged (checksum mismatch)")
            try:
                data = json.loads(payload)
            except ValueError:
                raise JournalError(f"{where} is damaged (payload is not JSON)") from None
            if not isinstance(data, dict):
                raise JournalError(f"{where} is damaged (payload is not an object)")
            out.append(JournalEvent(row, sid, seq, schema, type_, data, created))
        return out

    def _session(self, row: tuple[Any, ...]) -> SessionInfo:
        sid, game, setup, created, finished, status, outcome, count = row
        where = f"{self.name}: session {sid}"
        try:
            setup_obj = Setup.from_json(json.loads(setup))
            outcome_obj = None if outcome is None else json.loads(outcome)
        except (ValueError, CompanionError) as exc:
            raise JournalError(f"{where} is damaged ({exc})") from None
        return SessionInfo(sid, game, setup_obj, created, finished, status, outcome_obj, count)

    _SESSION_SQL = (
        "SELECT s.id, s.game, s.setup, s.created_at, s.finished_at, s.status, s.outcome, "
        "(SELECT COUNT(*) FROM events e WHERE e.session_id = s.id) FROM sessions s "
    )

    def session(self, session_id: int) -> SessionInfo:
        row = self._conn.execute(self._SESSION_SQL + "WHERE s.id=?", (session_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.name} has no session {session_id}")
        return self._session(row)

    def sessions(
        self, unfinished_only: bool = False, player: str | None = None
    ) -> list[SessionInfo]:
        """Sessions, newest first; optionally only unfinished ones or those of one player."""
        sql = self._SESSION_SQL
        where, args = [], []
        if unfinished_only:
            where.append("s.status='playing'")
        if player is not None:
            where.append("s.id IN (SELECT session_id FROM players WHERE name=?)")
            args.append(player)
        if where:
            sql += "WHERE " + " AND ".join(where) + " "
        rows = self._conn.execute(sql + "ORDER BY s.id DESC", args).fetchall()
        return [self._session(r) for r in rows]

    def last_unfinished(self) -> SessionInfo | None:
        found = self.sessions(unfinished_only=True)
        return found[0] if found else None

    def players(self) -> list[str]:
        """Every name that ever sat at the table, alphabetically (for the history screen)."""
        rows = self._conn.execute("SELECT DISTINCT name FROM players ORDER BY name COLLATE NOCASE")
        return [r[0] for r in rows]
