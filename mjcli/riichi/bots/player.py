"""An outside mjai bot at the table: one process per seat, fed the game's events, asked at decisions.

:class:`MjaiBot` is what replay, simulate and advise hold for a ``--bot NAME=COMMAND``. It follows a
game through its events (the caller's list, which a simulated game appends to as it goes) and, when
the caller asks a seat for a decision (:meth:`MjaiBot.answer`, at the event after which the
decision comes), sends that seat's process what it has not seen yet (:mod:`~mjcli.riichi.bots.protocol`)
and reads its answer, turned into one of the engine's legal actions. A riichi is asked in two steps
(``reach``, then the discard); when a replay's player did not declare riichi there, the bot's
``reach`` is its choice and the discard is not asked (the log goes on without the riichi, and the
bot must not be told one that did not happen).

A process serves its seat game after game (``start_game`` resets it). An answer that does not come
in time, a process that ends, a line that is not JSON or an action that is not legal is a
:class:`Fault`, returned with the answer; a process that failed is killed, is not asked again in
that game (its later decisions are ``unanswered`` faults) and is started afresh for the next game.
What the caller does with a fault (a fallback move, a row, a stop) is the caller's.
"""

from __future__ import annotations

import shlex
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjcli.errors import UsageError
from mjcli.plugins import BOT, PolicySpec, split_assignment
from mjcli.riichi.bots import protocol as wire
from mjcli.riichi.bots.process import BotError, BotProcess
from mjcli.riichi.engine import events as ev
from mjcli.riichi.policies.view import Action

#: seconds per decision when --bot-timeout is not given (mjai.app allows 2-3)
DEFAULT_TIMEOUT = 5.0
#: the first answer of a process (to start_game, after its start-up) and a round's first prompt
#: (mjai.app allows more time there too) may take this many timeouts
START_FACTOR = 4.0


@dataclass(frozen=True, slots=True)
class BotSettings:
    """How a run talks to its bots (``--bot-timeout``, ``--bot-framing``) and where their stderr goes."""

    timeout: float = DEFAULT_TIMEOUT
    framing: str = "array"
    log_dir: str | None = None  # stderr of NAME's processes goes to LOG_DIR/NAME.stderr.log

    @property
    def start_timeout(self) -> float:
        return self.timeout * START_FACTOR


def check_settings(timeout: float | None, framing: str | None) -> BotSettings:
    t = DEFAULT_TIMEOUT if timeout is None else float(timeout)
    if not t > 0:  # (NaN too)
        raise UsageError(f"--bot-timeout {timeout}: give a number of seconds above 0, or inf for no limit")
    f = (framing or "array").strip().lower()
    if f not in wire.FRAMINGS:
        raise UsageError(f"--bot-framing '{framing}': use {' or '.join(wire.FRAMINGS)}")
    return BotSettings(t, f)


def bot_spec(text: str, settings: BotSettings) -> PolicySpec:
    """``NAME=COMMAND`` (``{seat}`` in COMMAND becomes the seat 0-3) as a registry spec; the program
    must exist (a usage error before any work otherwise)."""
    name, command = split_assignment(text, "--bot")
    argv = command_argv(command, 0, name)
    if shutil.which(argv[0]) is None:
        raise UsageError(f"--bot {name}=...: no program '{argv[0]}' (the command is '{command}')")
    return PolicySpec(name, BOT, command, settings=settings)


def command_argv(command: str, seat: int, name: str = "") -> list[str]:
    """The command split as a shell would (no shell runs it), ``{seat}`` replaced."""
    try:
        parts = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--bot {name}: cannot split the command '{command}': {exc}") from None
    if not parts:
        raise UsageError(f"--bot {name}: the command is empty")
    return [p.replace("{seat}", str(seat)) for p in parts]


@dataclass(frozen=True, slots=True)
class Fault:
    """A decision the bot did not answer with a legal action.

    ``kind``: ``timeout``, ``exited``, ``not_json``, ``illegal`` or ``unanswered`` (the process had
    failed earlier in the game); ``unasked`` at the game's end, for lines written without being
    asked; ``answer``: what it wrote (None if nothing); ``detail``: why, with the end of its stderr
    for a process that failed.
    """

    bot: str
    seat: int
    kind: str
    detail: str
    answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seat": self.seat,
            "fault": self.kind,
            "detail": self.detail,
            "answer": self.answer,
        }


@dataclass(slots=True)
class BotAnswer:
    """A bot's answer at one decision: the legal ``action`` (None on a fault; ``Action("riichi")``
    without a tile when it declared riichi where the replayed player did not), the lines it wrote,
    its ``meta``, the fault if any and the seconds it took."""

    action: Action | None
    text: str | None = None
    meta: Any = None
    fault: Fault | None = None
    seconds: float = 0.0
    reach: bool = False  # it answered reach and was asked the riichi discard


@dataclass(slots=True)
class _Seat:
    """One seat's process and how far it has followed the game."""

    seat: int
    proc: BotProcess | None = None
    cursor: int = 0  # next event of the game to go through
    pending: list[str] = field(default_factory=list)  # events of the round not sent yet
    riichi_sent: bool = False  # its own reach was sent as the riichi's first step
    failed: str | None = None  # why the process failed in this game (not asked again)
    in_game: bool = False  # start_game sent for the current game
    unasked: list[str] = field(default_factory=list)  # lines written without being asked, this game


class MjaiBot:
    """An outside mjai program (``--bot NAME=COMMAND``) playing one or more seats.

    Use: :meth:`start_game` with the game's event list (and players' names), :meth:`answer` at each
    decision of a seat it plays, :meth:`end_game`, and :meth:`close` at the end of the run (also a
    context manager). Seats are started when first asked.
    """

    def __init__(self, spec: PolicySpec) -> None:
        self.name = spec.name
        self.command = spec.target
        self.settings: BotSettings = spec.settings if spec.settings is not None else BotSettings()
        self.seats: dict[int, _Seat] = {}
        self.events: Sequence[object] = ()
        self.names: Sequence[str] = ()
        self.hands_shown: frozenset[int] = frozenset()
        self.answers = 0  # decisions answered, this run
        self.seconds = 0.0  # time the bot took for them
        self.durations: list[float] = []  # seconds of each answered decision, this run
        self.start_seconds: list[float] = []  # time each process took to answer start_game
        self.start_failures: list[str] = []  # processes that did not answer start_game

    # ------------------------------------------------------------ the run

    def __enter__(self) -> MjaiBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every process (each exits on end of input, or is killed)."""
        for s in self.seats.values():
            if s.proc is not None:
                s.proc.close()
                s.proc = None

    def abort(self) -> None:
        """Kill every process at once, without a word: the run was stopped (Ctrl-C, SIGTERM). A bot
        then in the middle of an answer, or one that hangs at ``end_kyoku``, held the stop up for
        its timeout when told the game was over (for ever under ``--bot-timeout inf``)."""
        for s in self.seats.values():
            if s.proc is not None:
                s.proc.kill()
                s.proc = None
            s.in_game = False

    def log_path(self) -> Path | None:
        d = self.settings.log_dir
        return None if d is None else Path(d) / f"{self.name}.stderr.log"

    # ------------------------------------------------------------ a game

    def start_game(self, events: Sequence[object], names: Sequence[str] = ()) -> None:
        """Follow a new game: ``events`` is its event list (read as far as each decision asks; a
        simulated game appends to it as it goes)."""
        self.events = events
        self.names = list(names)
        self.hands_shown = frozenset()  # the game's StartGame says which (read as it comes)
        for s in self.seats.values():
            s.cursor = 0
            s.pending.clear()
            s.riichi_sent = False
            s.failed = None
            s.in_game = False
            s.unasked.clear()

    def end_game(self) -> list[Fault]:
        """Tell each running seat the game is over (``end_kyoku`` of the rounds left, ``end_game``);
        the faults of a bot that hangs or dies there (no decision to hang them on: the caller
        records them apart; they were dropped, unreported)."""
        faults: list[Fault] = []
        for s in self.seats.values():
            if s.unasked:
                # a protocol fault, not a decision's: mjai asks one line per request, and a second
                # answer left unread is taken for the next request's (dropped when seen before it,
                # noted in NAME.stderr.log; it was counted nowhere)
                faults.append(
                    Fault(
                        self.name,
                        s.seat,
                        "unasked",
                        f"wrote {len(s.unasked)} line(s) without being asked in the game (answered a "
                        "request twice?); each was dropped, or taken for the next request's answer "
                        "if it came after that request",
                        s.unasked[0][:200],
                    )
                )
                s.unasked.clear()
            if s.proc is None or s.failed is not None or not s.in_game:
                continue
            try:
                self._advance(s, len(self.events) - 1)
                self._line(s, wire.END_GAME, alone=True)
            except BotError as exc:
                faults.append(Fault(self.name, s.seat, exc.kind, f"at the game's end: {exc}"))
                self._fail(s, exc)
            s.in_game = False
        return faults

    # ------------------------------------------------------------ a decision

    def answer(
        self, seat: int, upto: int, legal: Sequence[Action], recorded: Action | None = None
    ) -> BotAnswer:
        """The bot's answer for ``seat``, deciding right after event ``upto`` among ``legal``.

        ``recorded``: in a replay, what the player did (the riichi discard is asked only when the
        player declared riichi); None when the answer is played (simulate, advise).
        """
        s = self.seats.get(seat)
        if s is None:
            s = self.seats[seat] = _Seat(seat)
        started = time.perf_counter()
        if s.failed is not None:
            return BotAnswer(None, fault=Fault(self.name, seat, "unanswered", f"not asked: {s.failed}"))
        texts: list[str] = []
        reached = False
        try:
            try:
                self._ensure_started(s)
            except BotError as exc:
                self.start_failures.append(str(exc))
                raise
            self._advance(s, upto)
            line = self._prompt(s)
            texts.append(line)
            reading = wire.parse_answer(line, seat, legal)
            meta = reading.meta
            if reading.reach and (recorded is None or recorded.kind == "riichi"):
                s.riichi_sent = reached = True
                second = self._line(s, wire.reach(seat), alone=True)
                texts.append(second)
                reading = wire.parse_answer(second, seat, legal, riichi_discard=True)
            elif reading.reach:
                reading = wire.Reading(Action("riichi"), meta=meta)
        except BotError as exc:
            self._fail(s, exc)
            spent = time.perf_counter() - started
            fault = Fault(self.name, seat, exc.kind, str(exc))
            return BotAnswer(None, " / ".join(texts) or None, None, fault, spent, reached)
        spent = time.perf_counter() - started
        self.answers += 1
        self.seconds += spent
        self.durations.append(spent)
        text = " / ".join(texts)
        if reading.problem is not None:
            fault = Fault(self.name, seat, reading.kind, reading.problem, text)
            return BotAnswer(None, text, meta, fault, spent, reached)
        return BotAnswer(reading.action, text, meta, None, spent, reached)

    # ------------------------------------------------------------ the wire

    def _ensure_started(self, s: _Seat) -> None:
        if s.in_game:
            return
        if s.proc is None or not s.proc.alive:
            if s.proc is not None:
                s.proc.close()
            argv = command_argv(self.command, s.seat, self.name)
            s.proc = BotProcess(argv, f"bot '{self.name}' seat {s.seat}", self.log_path())
            t0 = time.perf_counter()
            self._line(
                s,
                wire.start_game(s.seat, self.names, self._players()),
                alone=True,
                timeout=self.settings.start_timeout,
            )
            self.start_seconds.append(time.perf_counter() - t0)
        else:
            self._line(s, wire.start_game(s.seat, self.names, self._players()), alone=True)
        s.in_game = True

    def _players(self) -> int:
        """Seats at the game's table: the first round's hands (a seat is asked only once one is dealt)."""
        return next((len(e.hands) for e in self.events if type(e) is ev.StartRound), 4)  # type: ignore[attr-defined]

    def _advance(self, s: _Seat, upto: int) -> None:
        """Go through the game's events up to ``upto``: the round's events queue up for the next
        prompt, a round's end drops them and sends ``end_kyoku`` alone."""
        events = self.events
        seat = s.seat
        pending = s.pending
        for i in range(s.cursor, upto + 1):
            e = events[i]
            how, text = wire.classify(e)
            if how == wire.SKIP and type(e) is ev.StartGame:
                # seats playing with their hand shown: their tiles go unmasked to every seat
                self.hands_shown = frozenset(e.rules.hands_shown)  # type: ignore[attr-defined]
            elif how == wire.PUBLIC:
                if s.riichi_sent and type(e) is ev.Riichi and e.actor == seat:  # type: ignore[attr-defined]
                    s.riichi_sent = False  # sent already, as the riichi's first step
                    continue
                pending.append(text)
            elif how == wire.MASKED:
                if type(e) is ev.StartRound:
                    pending.clear()
                pending.append(wire.masked(e, seat, self.hands_shown))
            elif how == wire.END_ROUND:
                pending.clear()
                s.riichi_sent = False
                try:
                    self._line(s, wire.END_KYOKU, alone=True)
                except BotError as exc:
                    # sent on the way to the next decision, which the fault is filed under: say
                    # that it was the round's end the bot failed at (a reviewer found it misleading)
                    raise type(exc)(f"at end_kyoku, the end of the round before: {exc}") from None
        s.cursor = max(s.cursor, upto + 1)

    def _prompt(self, s: _Seat) -> str:
        """Send what is pending and return the answer to its last event."""
        pending = s.pending
        if not pending:  # asked twice at one point (it never is): ask with nothing new
            return self._line(s, "[]" if self.settings.framing == "array" else wire.NONE, alone=False)
        # a round's first prompt may take as long as a start (as mjai.app allows: bots set up there)
        timeout = self.settings.start_timeout if pending[0].startswith('{"type":"start_kyoku"') else None
        if self.settings.framing == "array":
            line = "[" + ",".join(pending) + "]"
            pending.clear()
            return self._request(s, line, timeout)
        answer = ""
        for text in pending:
            answer = self._request(s, text, timeout)
        pending.clear()
        return answer

    def _line(self, s: _Seat, event: str, alone: bool, timeout: float | None = None) -> str:
        """One event sent alone (``[event]`` in array framing); the answer."""
        line = f"[{event}]" if self.settings.framing == "array" and alone else event
        return self._request(s, line, timeout)

    def _request(self, s: _Seat, line: str, timeout: float | None = None) -> str:
        proc = s.proc
        assert proc is not None
        extra = proc.drop_unread()
        if extra:
            proc.note(f"dropped {len(extra)} line(s) written without being asked: {extra[:3]}")
            s.unasked.extend(extra)
        return proc.request(line, timeout if timeout is not None else self.settings.timeout)

    def _fail(self, s: _Seat, exc: BotError) -> None:
        s.failed = str(exc)
        if s.proc is not None:
            s.proc.kill()
        s.in_game = False


def fallback(legal: Sequence[Action], drawn: int | None, riichi: bool = False) -> Action:
    """The safe move played for a fault: pass when offered, else the drawn tile (the riichi
    discard of it, when the bot had declared riichi), else the first legal discard."""
    for a in legal:
        if a.kind == "pass":
            return a
    want = "riichi" if riichi else "discard"
    firsts = [a for a in legal if a.kind == want]
    for a in firsts:
        if a.tile == drawn:
            return a
    if firsts:
        return firsts[0]
    return next((a for a in legal if a.kind == "discard"), legal[0])
