"""The match journal: every event of every match, appended to SQLite as it happens.

One database file, ``bgbridge.sqlite3`` under the data directory (``$BGBRIDGE_HOME``, else
``platformdirs.user_data_dir("bgbridge")``), never in the source tree.  It runs in WAL mode with
``synchronous=FULL``: an event is on disk when :meth:`RecordedMatch.record` returns, and a process
killed at any moment (SIGKILL, a pulled cable) loses nothing that was committed; the next open
finds a clean database.

The journal stores :mod:`engine.match` events as the plain dicts of ``Event.to_dict()``; a match
is rebuilt by replaying them (so it can be listed, reopened and resumed after a restart), and an
event is written only after the match model has accepted it.  Imports of whole files go in one
transaction: all or nothing.

>>> import tempfile, os
>>> from engine.match import Match, OpeningRoll, Move
>>> from engine.position import X, O
>>> home = tempfile.mkdtemp()
>>> with Journal(os.path.join(home, "bgbridge.sqlite3")) as journal:
...     rec = journal.new_match(Match(5, players={X: "Xavier", O: "Olga"}))
...     _ = rec.record(OpeningRoll(x=3, o=1))
...     _ = rec.record(Move(X, "8/5 6/5"))
...     match_id = rec.id
>>> with Journal(os.path.join(home, "bgbridge.sqlite3")) as journal:
...     [(s.id, s.players, s.events) for s in journal.matches()]
...     again = journal.open(match_id)
[(1, ('Xavier', 'Olga'), 2)]
>>> again.match.game.turn == O
True
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Iterator

from engine.match import Event, GameError, GameResult, Match, event_from_dict
from engine.position import O, X

DB_NAME = "bgbridge.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    source TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    result TEXT,
    PRIMARY KEY (match_id, seq)
);
"""


class JournalError(Exception):
    """The journal cannot do what was asked (no such match, unreadable database...)."""


def data_dir() -> Path:
    """``$BGBRIDGE_HOME``, else the per-user data directory of platformdirs."""
    home = os.environ.get("BGBRIDGE_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("bgbridge"))


def default_path() -> Path:
    return data_dir() / DB_NAME


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class MatchSummary:
    """One line of :meth:`Journal.matches`: ``players`` is ``(X's name, O's name)``, ``score``
    ``(X's, O's)``; ``status`` is ``"playing"``, ``"between games"`` or ``"finished"``."""

    id: int
    created: str
    source: str
    length: int
    players: tuple[str, str]
    score: tuple[int, int]
    games: int
    events: int
    status: str

    def __str__(self) -> str:
        kind = f"{self.length}-point match" if self.length else "money session"
        return (f"{self.id:4d}  {self.created[:16].replace('T', ' ')}  {self.players[0]} - {self.players[1]}  "
                f"{kind}  score {self.score[0]}-{self.score[1]}  {self.games} games  {self.status}  ({self.source})")


def _status(match: Match) -> str:
    if match.over:
        return "finished"
    if match.game is None or match.game.over:
        return "between games"
    return "playing"


class Journal:
    """The SQLite journal; a context manager.  ``path`` defaults to :func:`default_path`."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the data directory {self.path.parent}: {exc.strerror}") from None
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise JournalError(f"{self.path} was written by a newer bgbridge (schema {row[0]})")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # --- writing ------------------------------------------------------------------------

    def new_match(self, match: Match, source: str = "live") -> "RecordedMatch":
        """Start recording ``match`` (its events so far, if any, are written too)."""
        return self.open(self.add_match(match, source))

    def add_match(self, match: Match, source: str = "live") -> int:
        """Write ``match`` and all its events in one transaction; returns its id."""
        try:
            with _transaction(self._db):
                cur = self._db.execute(
                    "INSERT INTO matches (created, source, settings) VALUES (?, ?, ?)",
                    (_now(), source, json.dumps(match.settings())),
                )
                match_id = int(cur.lastrowid)  # type: ignore[arg-type]
                replay = Match.from_settings(match.settings())
                rows = []
                for seq, event in enumerate(match.events, start=1):
                    result = replay.apply(event)
                    rows.append((match_id, seq, _now(), json.dumps(event.to_dict()),
                                 _result_json(result)))
                self._db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None
        return match_id

    def _append(self, match_id: int, seq: int, event: Event, result: GameResult | None) -> None:
        try:
            with _transaction(self._db):
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                 (match_id, seq, _now(), json.dumps(event.to_dict()), _result_json(result)))
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from None

    # --- reading ------------------------------------------------------------------------

    def _settings(self, match_id: int) -> tuple[dict, str, str]:
        row = self._db.execute("SELECT settings, created, source FROM matches WHERE id=?", (match_id,)).fetchone()
        if row is None:
            raise JournalError(f"no match {match_id} in the journal {self.path}")
        return json.loads(row[0]), row[1], row[2]

    def events(self, match_id: int) -> Iterator[Event]:
        self._settings(match_id)
        for seq, text in self._db.execute("SELECT seq, event FROM events WHERE match_id=? ORDER BY seq",
                                          (match_id,)):
            try:
                yield event_from_dict(json.loads(text))
            except (ValueError, GameError) as exc:
                raise JournalError(f"match {match_id}, event {seq} cannot be read: {exc}") from None

    def load(self, match_id: int) -> Match:
        """Rebuild match ``match_id`` from its events."""
        settings, _, _ = self._settings(match_id)
        try:
            match = Match.from_settings(settings)
        except GameError as exc:
            raise JournalError(f"match {match_id} has unreadable settings: {exc}") from None
        for seq, event in enumerate(self.events(match_id), start=1):
            try:
                match.apply(event)
            except GameError as exc:
                raise JournalError(f"match {match_id}, event {seq} ({event}) does not replay: {exc}") from None
        return match

    def open(self, match_id: int) -> "RecordedMatch":
        """Reopen a match to go on recording it (after a restart, say)."""
        return RecordedMatch(self, match_id, self.load(match_id))

    def matches(self) -> list[MatchSummary]:
        out = []
        for match_id, created, source in self._db.execute(
                "SELECT id, created, source FROM matches ORDER BY id").fetchall():
            match = self.load(match_id)
            out.append(MatchSummary(
                id=match_id, created=created, source=source, length=match.length,
                players=(match.players[X], match.players[O]), score=(match.score[X], match.score[O]),
                games=len(match.games), events=self.event_count(match_id),
                status=_status(match),
            ))
        return out

    def event_count(self, match_id: int) -> int:
        (rows,) = self._db.execute("SELECT COUNT(*) FROM events WHERE match_id=?", (match_id,)).fetchone()
        return int(rows)

    def check(self) -> str:
        """SQLite's own integrity check: ``"ok"`` for a sound database."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])


def _result_json(result: GameResult | None) -> str | None:
    if result is None:
        return None
    return json.dumps({"winner": "X" if result.winner == X else "O", "points": result.points,
                       "kind": result.kind, "reason": result.reason})


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")


class RecordedMatch:
    """A match being recorded: :meth:`record` applies an event to :attr:`match` (refusing what
    the rules refuse, with :class:`~engine.match.GameError`) and commits it to the journal."""

    def __init__(self, journal: Journal, match_id: int, match: Match) -> None:
        self.journal = journal
        self.id = match_id
        self.match = match
        self.seq = journal.event_count(match_id)

    def record(self, event: Event) -> GameResult | None:
        """Apply and commit ``event``; returns the game result when it ended a game."""
        result = self.match.apply(event)  # raises GameError, changing nothing, if refused
        try:
            self.journal._append(self.id, self.seq + 1, event, result)
        except JournalError:
            # Keep memory and disk in step: what is not on disk did not happen.
            self.match = self.journal.load(self.id)
            raise
        self.seq += 1
        return result

    def record_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.record(event)
