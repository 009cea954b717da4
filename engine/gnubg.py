"""A client for the real GNU Backgammon binary (``gnubg``), like python-chess's ``chess.engine``.

This is the only module of :mod:`engine` that does I/O: it runs ``gnubg -t -q -r -p driver.py``
as a subprocess.  The driver (:data:`DRIVER_SOURCE`, run by gnubg's embedded Python with its
``gnubg`` module) reads one JSON request per line from a pipe and writes one JSON answer per
line to another pipe, so thousands of queries go through one gnubg process.  gnubg's own chatter
(boards, banners) goes to a log file that is quoted when something goes wrong.

What it offers (all answers come from gnubg itself):

* :meth:`Gnubg.legal_plays` / :meth:`Gnubg.legal_result_ids`: every legal play of a roll, from
  gnubg's 0-ply hint of all moves;
* :meth:`Gnubg.position_id_from_xgid`: gnubg's Position ID and Match ID for an XGID (gnubg reads
  XGIDs but cannot write them), and :meth:`Gnubg.read_ids` for the other direction (gnubg reads
  a Position ID / Match ID and writes back its own, with its reading of every field);
* :meth:`Gnubg.play_move`: gnubg's own ``move`` command applied to a position;
* :meth:`Gnubg.play_match`: gnubg plays a whole match against itself and exports ``.mat`` and
  ``.sgf``;
* :func:`replay_file` / :func:`replay_match`: gnubg imports a ``.mat`` or ``.sgf`` (in a process
  of its own, with a timeout, because gnubg 1.07 aborts on some files) and reports, for every
  record, the Position ID and Match ID after it.

Players are gnubg's numbers: ``1`` is :data:`engine.position.X` and ``0`` is
:data:`engine.position.O`.  (Beware: gnubg's Python ``match()`` dictionary calls player 0 "X"
and player 1 "O"; this module never passes those letters on.)

Errors: :class:`GnubgNotFound` when the binary is missing, :class:`GnubgDied` when the process
ends or breaks its pipe, :class:`GnubgTimeout` when an answer does not come in time (the process
is then killed), :class:`GnubgError` when gnubg refuses a request (a bad ID, an unreadable file).

>>> try:
...     Gnubg(binary="/nonexistent/gnubg")
... except GnubgNotFound as exc:
...     print(exc)
gnubg not found at '/nonexistent/gnubg' (Debian: apt-get install gnubg)

With gnubg installed (skipped here; the tests in ``tests/gnubg`` run it)::

    with Gnubg() as gnubg:
        gnubg.legal_result_ids("4HPwATDgc/ABMA", (6, 2))      # 14 Position IDs
        gnubg.position_id_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10")
        # ('4HPwATDgc/ABMA', 'cImqAAAAAAAE')
        files = gnubg.play_match(3, seed=1)                  # {"mat": ..., "sgf": ...}
    records = replay_file("match.mat")                       # list of ReplayRecord
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from engine import ids
from engine.position import Position

#: Where Debian puts gnubg (not on ``PATH``); ``$BGBRIDGE_GNUBG`` overrides it.
DEFAULT_BINARY = "/usr/games/gnubg"

#: Seconds to wait for one ordinary answer.
DEFAULT_TIMEOUT = 60.0

#: Seconds an import of a match file may take before its gnubg process is killed.
DEFAULT_REPLAY_TIMEOUT = 120.0

#: Players' names written into matches gnubg plays against itself: player 0 (O), player 1 (X).
DEFAULT_NAMES = ("gnubg_O", "gnubg_X")


class GnubgError(RuntimeError):
    """gnubg refused a request, or could not be run."""


class GnubgNotFound(GnubgError):
    """The gnubg binary is not installed where we looked."""


class GnubgDied(GnubgError):
    """The gnubg process ended (crashed, aborted or was killed) while we needed it."""


class GnubgTimeout(GnubgError):
    """gnubg did not answer in time; the process has been killed."""


def find_binary(binary: str | os.PathLike[str] | None = None) -> str:
    """The gnubg executable to run: ``binary``, else ``$BGBRIDGE_GNUBG``, else ``gnubg`` on
    ``PATH``, else Debian's ``/usr/games/gnubg``.

    >>> find_binary("/nonexistent/gnubg")
    Traceback (most recent call last):
    ...
    engine.gnubg.GnubgNotFound: gnubg not found at '/nonexistent/gnubg' (Debian: apt-get install gnubg)
    """
    candidate = (
        str(binary) if binary is not None
        else os.environ.get("BGBRIDGE_GNUBG") or shutil.which("gnubg") or DEFAULT_BINARY
    )
    path = candidate if os.sep in candidate else shutil.which(candidate)
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise GnubgNotFound(f"gnubg not found at {candidate!r} (Debian: apt-get install gnubg)")
    return path


# --- answers -------------------------------------------------------------------------------

Step = tuple[int, int]


@dataclass(frozen=True)
class GnubgPlay:
    """One legal play as gnubg lists it.

    ``move`` is gnubg's notation in the mover's numbering (``"24/18 13/11"``, ``"bar/20*/16"``);
    ``steps`` are gnubg's parse of it, ``(from, to)`` single-die steps with 25 = bar, 0 = off;
    ``result_id`` is the Position ID of the board right after the play, seen from the mover:
    the mover is still the side "on roll" (unswapped), the convention of gnubg's move generator
    and of ``Play.result``.  The driver builds it by applying gnubg's parsed steps to gnubg's
    board and encoding with gnubg's ``positionid``; gnubg's own ``move`` command then swaps
    sides for the opponent.  ``tests/gnubg`` checks both: these IDs swapped equal what gnubg's
    ``move`` command reaches (hits and bear-offs included), and unswapped they equal the keys of
    gnubg's C move generator (gnubg-nn's ``moves``).
    gnubg shortens some moves (``"2/off"`` for a 3-1 that plays 2/1/off); ``steps`` follow
    the text, so compare plays by ``result_id``, not by steps.
    """

    move: str
    steps: tuple[Step, ...]
    result_id: str


@dataclass(frozen=True)
class GnubgState:
    """gnubg's reading of its current position and match state.

    ``board`` is gnubg's ``board()``: ``(side not on roll, side on roll)`` in own numbering;
    ``cube_owner`` is ``None`` when centred; ``player_on_roll`` is gnubg's ``fMove``, ``turn``
    its ``fTurn`` (they differ while a double waits for an answer).
    """

    position_id: str
    match_id: str
    board: tuple[tuple[int, ...], tuple[int, ...]]
    player_on_roll: int
    turn: int
    dice: tuple[int, int]
    cube_value: int
    cube_owner: int | None
    match_length: int
    score: tuple[int, int]
    crawford: bool
    jacoby: bool
    doubled: bool
    resigned: int
    game_state: int

    def position(self) -> Position:
        """The board as an engine :class:`Position`, with ``player_on_roll`` to move."""
        return Position.from_position_id(self.position_id, turn=self.player_on_roll)

    def match_fields(self) -> ids.MatchIdFields:
        """Our decoding of gnubg's Match ID (compare with the fields gnubg reported)."""
        return ids.decode_match_id(self.match_id)


@dataclass(frozen=True)
class ReplayRecord:
    """One record of a match as gnubg replays an imported file.

    ``game`` counts from 1, ``index`` from 0 within the game.  ``action`` is gnubg's:
    ``"move"``, ``"double"``, ``"take"``, ``"drop"`` or ``"resign"`` (gnubg 1.07 records the
    end of a game whose last checker was borne off in a ``.mat`` as a resignation when the file
    says ``Wins N points``).  ``player`` is gnubg's number (1 = X, 0 = O).  For moves: ``dice``
    as recorded (gnubg puts the larger die first when it writes), ``move`` in gnubg's notation
    (``""`` when the player could not move), ``steps`` its ``(from, to)`` steps in the mover's
    numbering (25 = bar, 0 = off).  ``position_id_before`` is the board before the record, from
    the mover's side (``None`` for takes, drops and resignations, where gnubg keeps none).

    ``position_id`` and ``match_id`` are gnubg's IDs right *after* the record, as gnubg shows
    them when you step onto it: the Position ID is from the side to act next (after a move:
    the opponent; compare with ``play.result.pass_turn().position_id()``), and the Match ID
    holds the score, cube, whose turn it is and the next dice already recorded (``0, 0`` when
    the next record is a cube action or the game ended).
    """

    game: int
    index: int
    player: int
    action: str
    dice: tuple[int, int] | None
    move: str | None
    steps: tuple[Step, ...] | None
    position_id_before: str | None
    position_id: str
    match_id: str

    def position_after(self) -> Position:
        """The board after the record, with the side gnubg has on roll then to move."""
        fields = ids.decode_match_id(self.match_id)
        return Position.from_position_id(self.position_id, turn=fields.player_on_roll)


@dataclass(frozen=True)
class GnubgReplay:
    """A whole imported match: players' names (player 0, player 1), its length (0 = money),
    each game's summary from gnubg (``winner``, ``points``, ``resigned``, score before it) and
    every record."""

    names: tuple[str, str]
    match_length: int
    games: tuple[dict[str, Any], ...]
    records: tuple[ReplayRecord, ...]


# --- the client ----------------------------------------------------------------------------

class Gnubg:
    """One long-lived gnubg process answering requests; use it as a context manager.

    Each call sends one JSON request and waits for its answer (``timeout`` seconds, else the
    process is killed and :class:`GnubgTimeout` raised).  After the process has died every call
    raises :class:`GnubgDied`; open a new :class:`Gnubg`.  Not thread-safe: use one client per
    thread.

    gnubg waits for its evaluation threads by polling every 10 ms.  With its default of one
    thread a hint costs ~10.5 ms; the driver sets two threads, after which the work is often
    done before the first poll (measured ~1.4 ms per hint on an idle 2-core machine; a busy
    machine brings the 10 ms back now and then).
    """

    def __init__(
        self,
        binary: str | os.PathLike[str] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.binary = find_binary(binary)
        self.timeout = timeout
        self._tmp = tempfile.TemporaryDirectory(prefix="bgbridge-gnubg-")
        self._dir = Path(self._tmp.name)
        driver = self._dir / "driver.py"
        driver.write_text(DRIVER_SOURCE, encoding="utf-8")
        self._log_path = self._dir / "gnubg.log"
        self._log = open(self._log_path, "wb")
        request_read, self._request_write = os.pipe()
        self._answer_read, answer_write = os.pipe()
        env = dict(os.environ)
        env["BGBRIDGE_GNUBG_REQUESTS"] = str(request_read)
        env["BGBRIDGE_GNUBG_ANSWERS"] = str(answer_write)
        env["BGBRIDGE_GNUBG_TMP"] = str(self._dir)
        self._process: subprocess.Popen[bytes] | None = None
        try:
            self._process = subprocess.Popen(
                [self.binary, "-t", "-q", "-r", "-p", str(driver)],
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=subprocess.STDOUT,
                pass_fds=(request_read, answer_write),
                cwd=self._dir,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            for fd in (self._request_write, self._answer_read):
                os.close(fd)
            self._log.close()
            self._tmp.cleanup()
            raise GnubgNotFound(f"cannot run {self.binary}: {exc}") from None
        finally:
            # The child holds its own copies; keeping ours would hide the child's death.
            os.close(request_read)
            os.close(answer_write)
        self._buffer = b""
        try:
            hello = self._request({"op": "hello"})
        except GnubgError:
            self.close()
            raise
        #: gnubg's version line, e.g. ``"GNU Backgammon 1.07.001"``.
        self.version: str = hello.get("version", "")

    # --- context manager and lifetime ---------------------------------------------------

    def __enter__(self) -> "Gnubg":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter shutdown
        try:
            self.close()
        except Exception:
            pass

    @property
    def alive(self) -> bool:
        """True while the gnubg process runs."""
        return self._process is not None and self._process.poll() is None

    def close(self) -> None:
        """Ask gnubg to quit, kill it if it does not, and remove the temporary files."""
        process = self._process
        if process is None:
            return
        self._process = None
        try:
            os.close(self._request_write)  # end of requests: the driver returns, gnubg exits
        except OSError:
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _kill(process)
        try:
            os.close(self._answer_read)
        except OSError:
            pass
        self._log.close()
        self._tmp.cleanup()

    # --- transport ----------------------------------------------------------------------

    def _log_tail(self, limit: int = 600) -> str:
        try:
            self._log.flush()
            data = self._log_path.read_bytes()
        except OSError:
            return ""
        text = data.decode("utf-8", "replace").strip()
        return text[-limit:]

    def _died(self, what: str) -> GnubgDied:
        process = self._process
        status = None
        if process is not None:
            try:  # the pipe closes a moment before the exit status is there
                status = process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        tail = self._log_tail()
        self._abandon()
        detail = f" (exit status {status})" if status is not None else ""
        return GnubgDied(f"gnubg died {what}{detail}" + (f"; its last output: {tail}" if tail else ""))

    def _abandon(self) -> None:
        """Forget a dead or hung process (killing it if needed) but keep the log readable."""
        process = self._process
        if process is None:
            return
        self._process = None
        if process.poll() is None:
            _kill(process)
        for fd in (self._request_write, self._answer_read):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        self._tmp.cleanup()

    def _request(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if self._process is None:
            raise GnubgDied("this gnubg client is closed (open a new Gnubg)")
        line = memoryview((json.dumps(request) + "\n").encode("utf-8"))
        try:
            while line:
                line = line[os.write(self._request_write, line):]
        except OSError:
            raise self._died(f"before request {request['op']!r}") from None
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                tail = self._log_tail()
                self._abandon()
                raise GnubgTimeout(
                    f"gnubg gave no answer to {request['op']!r} within "
                    f"{self.timeout if timeout is None else timeout:g} s; killed it"
                    + (f"; its last output: {tail}" if tail else "")
                )
            ready, _, _ = select.select([self._answer_read], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._answer_read, 1 << 16)
            if not chunk:
                raise self._died(f"during request {request['op']!r}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        try:
            answer = json.loads(raw)
        except ValueError:
            raise GnubgError(f"gnubg's driver answered {request['op']!r} with {raw[:200]!r}") from None
        if not answer.get("ok"):
            raise GnubgError(answer.get("error", "gnubg refused the request"))
        return answer

    # --- moves --------------------------------------------------------------------------

    def legal_plays(self, position_id: str, dice: Iterable[int]) -> list[GnubgPlay]:
        """Every legal play of ``dice`` for the side on roll of ``position_id``, by gnubg.

        gnubg's 0-ply hint of all moves lists exactly its move generator's output: one entry
        per distinct resulting position, in gnubg's order (best first).  Empty when the side on
        roll cannot move.  See :class:`GnubgPlay` for how results are keyed (unswapped).
        """
        d1, d2 = _dice(dice)
        answer = self._request({"op": "legal", "position_id": position_id, "dice": [d1, d2]})
        return [
            GnubgPlay(p["move"], tuple(tuple(s) for s in p["steps"]), p["result_id"])  # type: ignore[misc]
            for p in answer["plays"]
        ]

    def legal_result_ids(self, position_id: str, dice: Iterable[int]) -> set[str]:
        """The Position IDs after every legal play of ``dice``, by real gnubg.

        The side that moved is still the side "on roll" in these IDs (unswapped), as gnubg's
        move generator keys them; with the engine that is
        ``{play.result.position_id() for play in position.legal_plays(dice)}``.
        The set is empty when the side on roll cannot move.
        """
        return {play.result_id for play in self.legal_plays(position_id, dice)}

    def play_move(self, position_id: str, dice: Iterable[int], move: str) -> str:
        """Play ``move`` (gnubg notation) with gnubg's own ``move`` command; return gnubg's
        Position ID afterwards, which is from the opponent's side (swapped, as gnubg hands the
        turn over).  Raises :class:`GnubgError` if gnubg rejects the move."""
        d1, d2 = _dice(dice)
        answer = self._request(
            {"op": "move", "position_id": position_id, "dice": [d1, d2], "move": move}
        )
        return answer["position_id"]

    # --- identifiers --------------------------------------------------------------------

    def position_id_from_xgid(self, xgid: str) -> tuple[str, str]:
        """gnubg's ``(Position ID, Match ID)`` after ``set xgid`` (players not swapped)."""
        state = self.state_from_xgid(xgid)
        return state.position_id, state.match_id

    def state_from_xgid(self, xgid: str) -> GnubgState:
        """Everything gnubg read from ``xgid``: IDs, board and its own cube/score/dice fields."""
        return _state(self._request({"op": "xgid", "xgid": xgid})["state"])

    def position_id_of(self, board: Iterable[Iterable[int]]) -> str:
        """gnubg's own Position ID encoder (``gnubg.positionid(board)``) applied to ``board``,
        given as ``(side not on roll, side on roll)``, 25 counts each in own numbering (gnubg's
        layout; for an engine position ``(pos.board[other(pos.turn)], pos.board[pos.turn])``).
        """
        sides = [list(side) for side in board]
        return self._request({"op": "position_id_of", "board": sides})["position_id"]

    def board_of(self, position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's own decoding of a Position ID (``gnubg.positionfromid``):
        ``(side not on roll, side on roll)``."""
        board = self._request({"op": "board_of", "position_id": position_id})["board"]
        return tuple(board[0]), tuple(board[1])

    def read_ids(self, position_id: str, match_id: str | None = None) -> GnubgState:
        """Let gnubg read a Position ID (``set board``) or both IDs (``set gnubgid POS:MATCH``)
        and report its own IDs and fields back: the direction gnubg cannot take through XGID.
        """
        request: dict[str, Any] = {"op": "ids", "position_id": position_id}
        if match_id is not None:
            request["match_id"] = match_id
        return _state(self._request(request)["state"])

    # --- whole matches ------------------------------------------------------------------

    def play_match(
        self,
        length: int,
        seed: int,
        *,
        names: tuple[str, str] = DEFAULT_NAMES,
        timeout: float | None = None,
    ) -> dict[str, str]:
        """gnubg plays a ``length``-point match against itself and exports it.

        Both players are gnubg at 0 plies (cube decisions too), dice from the Mersenne Twister
        seeded with ``seed``, so the same ``(length, seed)`` gives the same match.  Returns
        ``{"mat": <Jellyfish .mat text from "export match mat">, "sgf": <SGF text from
        "save match">}``.  ``names`` are player 0's (O) and player 1's (X); gnubg's .mat puts
        player 0 in the left column.  Costs up to ~12 ms per move (gnubg's polling, see
        :class:`Gnubg`): measured 0.3-3 s for a 7-point match of ~235 records.
        """
        if not isinstance(length, int) or not 1 <= length <= 64:
            raise GnubgError(f"match length must be 1-64 points, got {length!r}")
        if not isinstance(seed, int) or seed < 0:
            raise GnubgError(f"seed must be a whole number >= 0, got {seed!r}")
        for name in names:
            if not re.fullmatch(r"[A-Za-z0-9_.-]{1,31}", name):
                raise GnubgError(
                    f"player names are 1-31 letters, digits, '_', '.' or '-', got {name!r}"
                )
        answer = self._request(
            {"op": "play_match", "length": length, "seed": seed, "names": list(names)},
            timeout=timeout if timeout is not None else max(self.timeout, 30.0 + 5.0 * length),
        )
        return {"mat": answer["mat"], "sgf": answer["sgf"]}

    def replay_file(self, path: str | os.PathLike[str], *, timeout: float = DEFAULT_REPLAY_TIMEOUT) -> list[ReplayRecord]:
        """:func:`replay_file` with this client's binary (in a separate gnubg process)."""
        return replay_file(path, binary=self.binary, timeout=timeout)


def replay_match(
    path: str | os.PathLike[str],
    *,
    binary: str | os.PathLike[str] | None = None,
    timeout: float = DEFAULT_REPLAY_TIMEOUT,
) -> GnubgReplay:
    """gnubg imports ``path`` (``.mat``: ``import mat``; ``.sgf``: ``load match``) in a gnubg
    process of its own and steps through every record with ``gnubg.navigate``.

    Raises :class:`GnubgError` when gnubg cannot read the file, :class:`GnubgDied` when gnubg
    aborts on it (1.07 does on some ``.mat`` files), :class:`GnubgTimeout` after ``timeout``.
    """
    source = Path(path)
    kind = source.suffix.lower()
    if kind not in (".mat", ".sgf"):
        raise GnubgError(f"{source}: gnubg replays .mat or .sgf files, not {kind or 'no suffix'!r}")
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise GnubgError(f"cannot read {source}: {exc.strerror or exc}") from None
    with Gnubg(binary, timeout=timeout) as gnubg:
        # A plain name in gnubg's own directory: gnubg's command line parser and odd paths.
        local = gnubg._dir / ("match" + kind)
        local.write_bytes(data)
        answer = gnubg._request({"op": "replay", "path": str(local), "kind": kind[1:]})
    records = tuple(
        ReplayRecord(
            game=r["game"],
            index=r["index"],
            player=r["player"],
            action=r["action"],
            dice=tuple(r["dice"]) if r["dice"] else None,  # type: ignore[arg-type]
            move=r["move"],
            steps=tuple(tuple(s) for s in r["steps"]) if r["steps"] is not None else None,  # type: ignore[misc]
            position_id_before=r["position_id_before"],
            position_id=r["position_id"],
            match_id=r["match_id"],
        )
        for r in answer["records"]
    )
    return GnubgReplay(
        names=tuple(answer["names"]),  # type: ignore[arg-type]
        match_length=answer["match_length"],
        games=tuple(answer["games"]),
        records=records,
    )


def replay_file(
    path: str | os.PathLike[str],
    *,
    binary: str | os.PathLike[str] | None = None,
    timeout: float = DEFAULT_REPLAY_TIMEOUT,
) -> list[ReplayRecord]:
    """Every record of the match in ``path`` (``.mat`` or ``.sgf``) as gnubg replays it:
    game number, player, action, dice, move (gnubg's notation) and gnubg's Position ID and
    Match ID after it.  See :class:`ReplayRecord` and :func:`replay_match`."""
    return list(replay_match(path, binary=binary, timeout=timeout).records)


# --- helpers -------------------------------------------------------------------------------

def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)  # gnubg's worker threads live in its group
    except (ProcessLookupError, PermissionError):
        process.kill()
    process.wait()


def _dice(dice: Iterable[int]) -> tuple[int, int]:
    values = tuple(dice)
    if len(values) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in values):
        raise GnubgError(f"dice are two numbers 1-6, got {values!r}")
    return values[0], values[1]


def _state(raw: dict[str, Any]) -> GnubgState:
    return GnubgState(
        position_id=raw["position_id"],
        match_id=raw["match_id"],
        board=(tuple(raw["board"][0]), tuple(raw["board"][1])),
        player_on_roll=raw["player_on_roll"],
        turn=raw["turn"],
        dice=tuple(raw["dice"]),  # type: ignore[arg-type]
        cube_value=raw["cube_value"],
        cube_owner=None if raw["cube_owner"] < 0 else raw["cube_owner"],
        match_length=raw["match_length"],
        score=tuple(raw["score"]),  # type: ignore[arg-type]
        crawford=bool(raw["crawford"]),
        jacoby=bool(raw["jacoby"]),
        doubled=bool(raw["doubled"]),
        resigned=raw["resigned"],
        game_state=raw["game_state"],
    )


#: The script gnubg runs (``gnubg -p``) inside its embedded Python.  It must not import
#: bgbridge: it runs in gnubg's interpreter, not ours.
DRIVER_SOURCE = r'''
import ctypes
import json
import os
import sys

import gnubg

REQUESTS = os.fdopen(int(os.environ["BGBRIDGE_GNUBG_REQUESTS"]), "r", encoding="utf-8")
ANSWERS = os.fdopen(int(os.environ["BGBRIDGE_GNUBG_ANSWERS"]), "w", encoding="utf-8")
TMP = os.environ["BGBRIDGE_GNUBG_TMP"]
LIBC = ctypes.CDLL(None)
ERROR_MARKS = ("Unknown keyword", "Illegal", "not a valid", "Not a valid", "You must",
               "No game", "no game", "cannot", "Cannot", "error", "Error", "invalid", "Invalid",
               "failed", "Failed", "doesn't", "not legal")


class Refused(Exception):
    pass


CAPTURE = open(os.path.join(TMP, "capture.txt"), "w+b")


def run(command):
    """Run one gnubg command; return what it printed on stdout and stderr."""
    LIBC.fflush(None)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    CAPTURE.seek(0)
    CAPTURE.truncate()
    os.dup2(CAPTURE.fileno(), 1)
    os.dup2(CAPTURE.fileno(), 2)
    try:
        gnubg.command(command)
    finally:
        LIBC.fflush(None)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
    CAPTURE.seek(0)
    return CAPTURE.read().decode("utf-8", "replace")


def run_checked(command, marks=ERROR_MARKS):
    out = run(command)
    for line in out.splitlines():
        # gnubg's messages start in column 0; its board diagrams (which show player names)
        # are indented.
        if line[:1].isspace():
            continue
        if any(mark in line for mark in marks):
            raise Refused("gnubg: %s: %s" % (command, line.strip()))
    return out


def human_session():
    """Both players human, 0-ply hints, a money game in progress."""
    for command in ("set player 0 human", "set player 1 human", "set automatic game off",
                    "set evaluation chequerplay evaluation plies 0",
                    "set evaluation cubedecision evaluation plies 0",
                    "new session", "new game"):
        run(command)


def ensure_game():
    if gnubg.posinfo()["gamestate"] != 1:
        run("new game")


def state():
    cube = gnubg.cubeinfo()
    pos = gnubg.posinfo()
    return {
        "position_id": gnubg.positionid(),
        "match_id": gnubg.matchid(),
        "board": [list(side) for side in gnubg.board()],
        "player_on_roll": cube["move"],
        "turn": pos["turn"],
        "dice": list(pos["dice"]),
        "cube_value": cube["cube"],
        "cube_owner": cube["cubeowner"],
        "match_length": cube["matchto"],
        "score": list(cube["score"]),
        "crawford": cube["crawford"],
        "jacoby": cube["jacoby"],
        "doubled": pos["doubled"],
        "resigned": pos["resigned"],
        "game_state": pos["gamestate"],
    }


def set_board(position_id):
    ensure_game()
    run_checked("set board " + position_id)
    if gnubg.positionid() != position_id:
        raise Refused("gnubg: set board %s gave %s" % (position_id, gnubg.positionid()))


def apply_steps(board, steps):
    """The board (not on roll, on roll) after the mover's steps, mover unswapped."""
    opp = list(board[0])
    me = list(board[1])
    for src, dst in steps:
        me[src - 1] -= 1
        if dst > 0:
            if opp[24 - dst] == 1:  # a blot hit: it goes to its bar
                opp[24 - dst] = 0
                opp[24] += 1
            me[dst - 1] += 1
    return (opp, me)


def op_hello(request):
    lines = run("show version").strip().splitlines()
    return {"version": lines[0].strip() if lines else ""}


def op_legal(request):
    set_board(request["position_id"])
    d1, d2 = request["dice"]
    run_checked("set dice %d%d" % (d1, d2))
    board = gnubg.board()
    try:
        entries = gnubg.hint(1000000)["hint"]
    except Exception as exc:
        if "no legal moves" not in str(exc).lower():
            raise
        entries = []  # a dance
    plays = []
    for entry in entries:
        move = entry["move"]
        steps = [list(s) for s in gnubg.parsemove(move)] if move else []
        plays.append({"move": move, "steps": steps,
                      "result_id": gnubg.positionid(apply_steps(board, steps))})
    return {"plays": plays}


def op_move(request):
    set_board(request["position_id"])
    d1, d2 = request["dice"]
    run_checked("set dice %d%d" % (d1, d2))
    before = gnubg.positionid()
    run_checked("move " + request["move"], ERROR_MARKS + ("must", "Can't", "can't"))
    after = gnubg.positionid()
    if after == before and request["move"]:
        raise Refused("gnubg did not play %r" % request["move"])
    result = {"position_id": after}
    ensure_game()
    return result


def op_xgid(request):
    ensure_game()
    run_checked("set xgid " + request["xgid"])
    return {"state": state()}


def op_ids(request):
    ensure_game()
    if "match_id" in request:
        run_checked("set gnubgid %s:%s" % (request["position_id"], request["match_id"]))
    else:
        set_board(request["position_id"])
    return {"state": state()}


def op_position_id_of(request):
    board = request["board"]
    if len(board) != 2 or any(len(side) != 25 for side in board):
        raise Refused("a board is two sides of 25 counts")
    return {"position_id": gnubg.positionid((tuple(board[0]), tuple(board[1])))}


def op_board_of(request):
    try:
        board = gnubg.positionfromid(request["position_id"])
    except Exception as exc:
        raise Refused("gnubg cannot read Position ID %r: %s" % (request["position_id"], exc))
    return {"board": [list(side) for side in board]}


def op_play_match(request):
    names = request["names"]
    for command in ("set player 0 gnubg", "set player 1 gnubg",
                    "set player 0 chequerplay evaluation plies 0",
                    "set player 1 chequerplay evaluation plies 0",
                    "set player 0 cubedecision evaluation plies 0",
                    "set player 1 cubedecision evaluation plies 0",
                    "set automatic game on", "set automatic roll on",
                    "set rng mersenne", "set seed %d" % request["seed"]):
        run_checked(command)
    run("new match %d" % request["length"])
    if gnubg.posinfo()["gamestate"] == 1:
        raise Refused("gnubg did not finish the match it played against itself")
    # gnubg resets player 1's name to the login name when a match starts: name them now.
    run_checked("set player 0 name %s" % names[0])
    run_checked("set player 1 name %s" % names[1])
    mat = os.path.join(TMP, "played.mat")
    sgf = os.path.join(TMP, "played.sgf")
    for path in (mat, sgf):
        if os.path.exists(path):
            os.remove(path)
    run("export match mat " + mat)
    run("save match " + sgf)
    texts = {}
    for key, path in (("mat", mat), ("sgf", sgf)):
        if not os.path.exists(path):
            raise Refused("gnubg wrote no %s file" % key)
        with open(path, encoding="utf-8", errors="replace") as f:
            texts[key] = f.read()
        os.remove(path)
    human_session()
    return texts


def op_replay(request):
    command = ("import mat " if request["kind"] == "mat" else "load match ") + request["path"]
    run_checked(command)
    try:
        match = gnubg.match(0, 1, 0, 0)
    except Exception as exc:
        raise Refused("gnubg read no match from the file (%s)" % exc)
    if not match or not match.get("games"):
        raise Refused("gnubg read no games from the file")
    info = match["match-info"]
    # gnubg's match() calls player 0 "X" and player 1 "O".
    number = {"X": 0, "O": 1}
    names = [info.get("X", {}).get("name", ""), info.get("O", {}).get("name", "")]
    games = []
    records = []
    for g, game in enumerate(match["games"]):
        gi = game["info"]
        games.append({"game": g + 1, "winner": number.get(gi.get("winner"), -1),
                      "points": gi.get("points-won", 0), "resigned": bool(gi.get("resigned")),
                      "score": [gi.get("score-X", 0), gi.get("score-O", 0)],
                      "crawford": bool(gi.get("crawford", False))})
        gnubg.navigate()
        if g:
            gnubg.navigate(game=g)
        for k, rec in enumerate(game["game"]):
            moved = gnubg.navigate(next=1)
            if moved is not None:
                raise Refused("gnubg could not step onto record %d of game %d" % (k, g + 1))
            steps = move = None
            if rec["action"] == "move":
                steps = [list(s) for s in rec.get("move") or ()]
                move = ""
                if steps and rec.get("board"):
                    move = gnubg.movetupletostring(tuple(rec["move"]),
                                                   gnubg.positionfromid(rec["board"])) or ""
            dice = rec.get("dice")
            records.append({
                "game": g + 1, "index": k, "player": number[rec["player"]],
                "action": rec["action"], "dice": list(dice) if dice else None,
                "move": move, "steps": steps, "position_id_before": rec.get("board"),
                "position_id": gnubg.positionid(), "match_id": gnubg.matchid(),
            })
    return {"names": names, "match_length": info.get("match-length", 0), "games": games,
            "records": records}


OPS = {"hello": op_hello, "legal": op_legal, "move": op_move, "xgid": op_xgid, "ids": op_ids,
       "position_id_of": op_position_id_of, "board_of": op_board_of,
       "play_match": op_play_match, "replay": op_replay}


def main():
    # With one calculation thread gnubg polls for its worker every 10 ms (a hint costs
    # ~10.5 ms); with two it is woken at once (~1.4 ms), at no extra CPU time.
    run("set threads 2")
    run("set confirm default no")
    run("set confirm new off")
    run("set display off")
    human_session()
    for line in REQUESTS:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            answer = OPS[request["op"]](request)
            answer["ok"] = True
        except Refused as exc:
            answer = {"ok": False, "error": str(exc)}
        except Exception as exc:
            answer = {"ok": False, "error": "gnubg driver: %s: %s" % (type(exc).__name__, exc)}
            try:
                ensure_game()
            except Exception:
                pass
        ANSWERS.write(json.dumps(answer) + "\n")
        ANSWERS.flush()


main()
'''
