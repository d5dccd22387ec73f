"""Replay game logs through the rules engine and compare every outcome with what the log recorded.

For each round the engine settles the outcome itself (who won, han, fu, yaku, the hand's value,
every score delta, tenpai at a draw, the next round's start, the final scores and points) and each
difference from the log becomes a :class:`Mismatch`; so does any other number the log records
(the scores beside a payment or a riichi stick, the honba and sticks an outcome settles). Final
points are checked by the rule of the game's date (:mod:`mjcli.riichi.engine.eras`), which the
report names, as it names the rule set played (a log naming a Mahjong Soul room is played under the
``majsoul`` presets unless rules are given). Where a log's recorded deltas disagree with the
engine but the log's own scores after the round agree with the engine, the difference is the log's
and the mismatch says so (a log defect: e.g. a converter leaving the riichi sticks out of a
winner's delta). An event the rules do not allow stops the
replay of that game and is reported with its index. A log that cannot be read, or that ends early,
is reported as an error for that file only: the batch goes on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mjcli.errors import MjcliError, UnsupportedError, printable
from mjcli.inputs import name_text
from mjcli.riichi.engine import events as ev
from mjcli.riichi.engine.legality import IllegalEvent
from mjcli.riichi.engine.settlement import ron_order
from mjcli.riichi.engine.state import Round
from mjcli.riichi.engine.table import Game, RoundRecord
from mjcli.riichi.rules import Rules
from mjcli.runner import Backend, ordered_map, shared
from mjcli.tiles import sort_key, to_mpsz

if TYPE_CHECKING:
    import polars as pl

# Polars (and mjcli.ledger, which imports it) only where a table is made: the workers of a verify
# and a verify without --out never import it (~0.25 s CPU of the forkserver's preload, on the
# critical path of --jobs 2, and of every verify without --out; bench_speed ``jobs_and_memory``).

OK, MISMATCH, ERROR = "ok", "mismatch", "error"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One difference between the log and the engine."""

    round: str  # "E1-0", or "game" for the final result
    what: str
    log: Any
    engine: Any
    # set where the log contradicts itself and the engine agrees with the rest of it: what is wrong
    # in the log (the engine is not at fault)
    defect: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"round": self.round, "what": self.what, "log": self.log, "engine": self.engine}
        if self.defect is not None:
            out["defect"] = self.defect
        return out

    def to_row(self, file: str, game: str) -> dict[str, Any]:
        """A row of ``verify_mismatches.parquet``: the two values as text (they are of any type)."""
        return {
            "file": file,
            "game": game,
            "round": self.round,
            "what": self.what,
            "log": _fmt(self.log),
            "engine": _fmt(self.engine),
        }

    def __str__(self) -> str:
        text = f"{self.round} {self.what}: log {_fmt(self.log)}, engine {_fmt(self.engine)}"
        return text + (f" (log defect: {self.defect})" if self.defect else "")


@dataclass(slots=True)
class RoundRow:
    """One round of one game, as written to ``verify.parquet``."""

    file: str
    game: str
    round: str
    honba: int
    kind: str  # the engine's result: tsumo, ron, or a draw reason
    recorded_kind: str
    recorded_deltas: list[int] | None
    engine_deltas: list[int]
    han: list[int]
    fu: list[int]
    yaku: str
    match: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "game": self.game,
            "round": self.round,
            "honba": self.honba,
            "kind": self.kind,
            "recorded_kind": self.recorded_kind,
            "recorded_deltas": self.recorded_deltas,
            "engine_deltas": self.engine_deltas,
            "han": self.han,
            "fu": self.fu,
            "yaku": self.yaku,
            "match": self.match,
        }


@dataclass(slots=True)
class GameReport:
    file: str
    game: str = ""
    format: str = ""
    status: str = OK
    rows: list[RoundRow] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    error: str | None = None
    # The final-points rule applied (rounding and uma) and why: the log's date, or the record
    # where the date leaves more than one possible (see mjcli.riichi.engine.eras).
    points_rule: str | None = None
    # the rule set the game was played under (rules.rules_label)
    rules: str | None = None

    @property
    def rounds(self) -> int:
        return len(self.rows)

    def to_row(self) -> dict[str, Any]:
        """A row of ``verify_games.parquet``: one game's verdict."""
        return {
            "file": self.file,
            "game": self.game,
            "format": self.format,
            "status": self.status,
            "rounds": self.rounds,
            "rounds_matching": sum(1 for row in self.rows if row.match),
            "mismatches": len(self.mismatches),
            "error": self.error,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "game": self.game,
            "status": self.status,
            "rounds": self.rounds,
            "mismatches": [m.to_dict() for m in self.mismatches],
            "error": self.error,
            "points_rule": self.points_rule,
            "rules": self.rules,
        }


# ---------------------------------------------------------------- one game


def verify_log(game: Any, rules: Rules | None = None) -> GameReport:
    """Replay one :class:`~mjcli.riichi.formats.GameLog` and compare every round with its record."""
    report = GameReport(
        file=name_text(str(game.path)), game=str(game.game_id or ""), format=str(game.format or "")
    )
    engine = Game(rules)
    failure: str | None = None
    illegal: Mismatch | None = None
    # scores a log records as a riichi stick is paid, checked there (the round's later state differs)
    stick_problems: dict[int, list[Mismatch]] = {}
    try:
        for i, e in enumerate(game.events):
            engine.apply(e, i)
            if type(e) is ev.RiichiAccepted and e.scores is not None:
                _check_riichi_scores(engine, e, stick_problems)
    except IllegalEvent as exc:
        rec = engine.rounds[-1] if engine.rounds else None
        label = rec.label if rec is not None else "game"
        illegal = Mismatch(label, "illegal event", _describe_at(game.events, exc.index), exc.reason)
    except UnsupportedError as exc:
        failure = str(exc)
    for k, rec in enumerate(engine.rounds):
        if rec.outcome is None:
            # The round the log stops in (or the engine stopped at): only its start can be compared.
            report.mismatches.extend(Mismatch(rec.label, w, log, mine) for w, log, mine in rec.start_problems)
            continue
        row, problems = _compare_round(rec, report, stick_problems.get(rec.index, []))
        report.rows.append(row)
        report.mismatches.extend(_log_defects(problems, rec, _recorded_after(engine, k)))
    if illegal is not None:
        report.mismatches.append(illegal)
    if engine.result is not None and engine.recorded_end is not None:
        report.mismatches.extend(_compare_end(engine, report))
    report.rules = engine.rules_name()
    if not game.complete and failure is None:
        failure = f"incomplete log: {game.problem or 'it ends before the game does'}"
    unknown = _unknown_rules(game.events, engine.rules.start_points)
    if unknown and report.mismatches:
        # the log says it was played under rules mjcli does not know: its differences from the rules
        # played may be those rules', not the log's fault, so the game is not called mismatching
        n = len(report.mismatches)
        note = (
            f"played under rules mjcli does not know: {unknown}; "
            f"{n} difference{'s' if n != 1 else ''} from the rules played ({report.rules}) below"
        )
        failure = f"{failure}; {note}" if failure else note
    if failure is not None:
        report.error = failure
    if report.mismatches and not unknown:
        report.status = MISMATCH
    elif failure is not None:
        report.status = ERROR
    return report


def _unknown_rules(events: Sequence[object], start_points: int) -> str:
    """What the log says of its rules that mjcli does not know how to play ("" if nothing): what its
    start says, and a first round (East 1, no honba) where every seat starts with the same score
    other than the rules' (a league's or a tournament's 30000, written as tenhou.net/6 by their
    viewers: their other rules are not in the log)."""
    start = events[0] if events else None
    said = [start.rules.unknown] if isinstance(start, ev.StartGame) and start.rules.unknown else []
    first = next((e for e in events[:2] if isinstance(e, ev.StartRound)), None)
    if first is not None and (first.round_wind, first.kyoku, first.honba, first.sticks) == (0, 1, 0, 0):
        scores = set(first.scores)
        if len(scores) == 1 and start_points not in scores:
            said.append(f"a start of {scores.pop()} points each")
    return "; ".join(said)


def _recorded_after(engine: Game, k: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The scores the log records after round ``k`` (the next round's start, or the final scores)
    and the engine's for the same moment; None where the log records none."""
    rounds = engine.rounds
    if k + 1 < len(rounds):
        return tuple(rounds[k + 1].start.scores), tuple(rounds[k].state.scores)
    end, result = engine.recorded_end, engine.result
    if end is not None and end.scores is not None and result is not None:
        return tuple(end.scores), tuple(result.scores)
    return None


def _log_defects(
    problems: list[Mismatch], rec: RoundRecord, after: tuple[tuple[int, ...], tuple[int, ...]] | None
) -> list[Mismatch]:
    """``problems`` with a win's deltas that contradict the log's own later scores named as the log's
    defect: the scores the log records after the round are the engine's, not those its deltas give."""
    if after is None or after[0] != after[1]:
        return problems
    out = []
    for m in problems:
        if m.what.endswith(" deltas") and m.what.startswith("seat ") and isinstance(m.log, list):
            gap = [a - b for a, b in zip(m.engine, m.log, strict=True)]
            seat = int(m.what.split()[1])
            missing = ""
            if gap[seat] > 0 and gap[seat] % 1000 == 0 and not any(g for s, g in enumerate(gap) if s != seat):
                missing = f"; the {gap[seat]} of riichi sticks the winner takes is left out"
            scores = "[" + ",".join(map(str, after[0])) + "]"
            defect = (
                f"the log's own scores after the round, {scores}, are what the engine's deltas give{missing}"
            )
            m = Mismatch(m.round, m.what, m.log, m.engine, defect)
        out.append(m)
    return out


def _describe_at(events: Sequence[object], index: int) -> str:
    from mjcli.riichi.engine.legality import describe

    return f"event {index}: {describe(events[index])}" if 0 <= index < len(events) else f"event {index}"


def _check_riichi_scores(engine: Game, e: ev.RiichiAccepted, into: dict[int, list[Mismatch]]) -> None:
    rec = engine.current
    if rec is None or e.scores is None:
        return
    mine = list(rec.state.scores)
    if list(e.scores) != mine:
        what = f"seat {e.actor} riichi: scores"
        into.setdefault(rec.index, []).append(Mismatch(rec.label, what, list(e.scores), mine))


def _check_recorded_scores(rec: RoundRecord) -> list[Mismatch]:
    """The numbers a log writes beside an outcome's deltas (Tenhou XML ``ba`` and ``sc``, classic
    mjai ``scores``): honba and sticks settled, every score before and after, against the engine."""
    out = rec.outcome
    assert out is not None
    st = rec.state
    label = rec.label
    problems: list[Mismatch] = []
    running = [st.scores[s] - out.deltas[s] for s in range(len(st.scores))]  # before any payment
    # the sticks go to the first winner in turn order from the discarder (the only one on a tsumo)
    first = ron_order(out.wins[0].target, [w.actor for w in out.wins])[0] if out.wins else None
    engine_wins = {w.actor: w for w in out.wins}
    for w in rec.recorded_wins:
        mine = engine_wins.get(w.actor)
        if mine is None:
            return problems  # the winner itself differs: reported as such
        who = f"seat {w.actor} win"
        _check_outcome_numbers(label, who, w, running, mine.deltas, st, w.actor == first, problems)
        running = [a + b for a, b in zip(running, mine.deltas, strict=True)]
    if rec.recorded_draw is not None:
        _check_outcome_numbers(label, "draw", rec.recorded_draw, running, out.deltas, st, True, problems)
    return problems


def _check_outcome_numbers(
    label: str,
    who: str,
    e: ev.Win | ev.RoundDraw,
    before: list[int],
    deltas: Sequence[int],
    st: Round,
    takes_sticks: bool,
    problems: list[Mismatch],
) -> None:
    # Tenhou writes the round's honba for every winner of a double ron, but the sticks (taken by
    # the first) as 0 for the second.
    honba = st.honba
    sticks = st.sticks if takes_sticks else 0
    if e.honba is not None and e.honba != honba:
        problems.append(Mismatch(label, f"{who}: honba", e.honba, honba))
    if e.sticks is not None and e.sticks != sticks:
        problems.append(Mismatch(label, f"{who}: riichi sticks", e.sticks, sticks))
    if e.scores_before is not None and list(e.scores_before) != before:
        problems.append(Mismatch(label, f"{who}: scores before", list(e.scores_before), before))
    after = [a + b for a, b in zip(before, deltas, strict=True)]
    if e.scores_after is not None and list(e.scores_after) != after:
        problems.append(Mismatch(label, f"{who}: scores after", list(e.scores_after), after))


def _compare_round(
    rec: RoundRecord, report: GameReport, stick_problems: Sequence[Mismatch] = ()
) -> tuple[RoundRow, list[Mismatch]]:
    out = rec.outcome
    assert out is not None
    label = rec.label
    problems = [Mismatch(label, what, log, mine) for what, log, mine in rec.start_problems]
    problems.extend(stick_problems)
    problems.extend(_check_recorded_scores(rec))
    recorded_kind = ""
    recorded_deltas: list[int] | None = None
    if rec.recorded_wins:
        first = rec.recorded_wins[0]
        recorded_kind = "tsumo" if first.actor == first.target else "ron"
        if all(w.deltas is not None for w in rec.recorded_wins):
            recorded_deltas = [sum(w.deltas[s] for w in rec.recorded_wins) for s in range(rec.state.n)]  # type: ignore[index]
        engine_wins = {w.actor: w for w in out.wins}
        for w in rec.recorded_wins:
            mine = engine_wins.get(w.actor)
            if mine is None:
                problems.append(Mismatch(label, "winner", w.actor, sorted(engine_wins)))
                continue
            problems.extend(_compare_win(label, w, mine))
    elif rec.recorded_draw is not None:
        d = rec.recorded_draw
        recorded_kind = d.reason
        recorded_deltas = list(d.deltas) if d.deltas is not None else None
        if d.reason != out.kind:
            problems.append(Mismatch(label, "draw", d.reason, out.kind))
        if d.tenpai is not None and out.tenpai is not None and tuple(d.tenpai) != out.tenpai:
            problems.append(Mismatch(label, "tenpai", list(d.tenpai), list(out.tenpai)))
        if d.deltas is not None and list(d.deltas) != out.deltas:
            problems.append(Mismatch(label, "deltas", list(d.deltas), out.deltas))
        for seat, shown in enumerate(d.hands or ()):
            mine = tuple(sorted(rec.state.players[seat].hand, key=sort_key))
            if shown is not None and tuple(sorted(shown, key=sort_key)) != mine:
                problems.append(Mismatch(label, f"seat {seat} hand", to_mpsz(shown), to_mpsz(mine)))
    row = RoundRow(
        file=report.file,
        game=report.game,
        round=label,
        honba=rec.start.honba,
        kind=out.kind,
        recorded_kind=recorded_kind,
        recorded_deltas=recorded_deltas,
        engine_deltas=list(out.deltas),
        han=[w.scored.han for w in out.wins],
        fu=[w.scored.fu for w in out.wins],
        yaku=" | ".join(_yaku_text(w.scored.yaku) for w in out.wins),
        match=not problems,
    )
    return row, problems


def _compare_win(label: str, w: ev.Win, mine: Any) -> list[Mismatch]:
    """One recorded win against the engine's: han, fu, yaku, value, deltas, pao."""
    out: list[Mismatch] = []
    sc = mine.scored
    who = f"seat {w.actor}"
    if w.target != mine.target:
        out.append(Mismatch(label, f"{who} won from", w.target, mine.target))
    if w.yaku is not None:
        log_yaku = {(y, h) for y, h in w.yaku if h}
        if log_yaku != set(sc.yaku):
            out.append(Mismatch(label, f"{who} yaku", _yaku_text(sorted(log_yaku)), _yaku_text(sc.yaku)))
    if sc.yakuman == 0:
        # Fu and han mean nothing for a yakuman hand (the log may state anything there).
        if w.han is not None and w.han != sc.han:
            out.append(Mismatch(label, f"{who} han", w.han, sc.han))
        if w.fu is not None and w.fu != sc.fu:
            out.append(Mismatch(label, f"{who} fu", w.fu, sc.fu))
    if w.points is not None and w.points != mine.value:
        out.append(Mismatch(label, f"{who} points", w.points, mine.value))
    if w.deltas is not None and list(w.deltas) != list(mine.deltas):
        out.append(Mismatch(label, f"{who} deltas", list(w.deltas), list(mine.deltas)))
    if w.hand is not None and tuple(sorted(w.hand, key=sort_key)) != mine.hand:
        out.append(Mismatch(label, f"{who} hand", to_mpsz(w.hand), to_mpsz(mine.hand)))
    if w.pao is not None and w.pao != mine.pao:
        out.append(Mismatch(label, f"{who} pao", w.pao, mine.pao))
    elif w.pao is None and w.pao_known and mine.pao is not None and w.deltas is not None:
        out.append(Mismatch(label, f"{who} pao", None, mine.pao))
    return out


def _compare_end(engine: Game, report: GameReport) -> list[Mismatch]:
    out = [Mismatch("game", "end", "game over", p) for p in engine.end_problems]
    rec = engine.recorded_end
    res = engine.result
    assert rec is not None and res is not None
    if rec.scores is not None and tuple(rec.scores) != res.scores:
        out.append(Mismatch("game", "final scores", list(rec.scores), list(res.scores)))
    # the engine applied the rule the recorded points fit, if one of the game's choice does
    choice, applied, fits = engine.points_choice, engine.points_applied, engine.points_fit
    if rec.points is not None and not fits:
        out.append(Mismatch("game", f"final points ({applied})", list(rec.points), list(res.points)))
    how = "; the one the recorded points fit" if fits and len(choice.candidates) > 1 else ""
    report.points_rule = f"{applied} ({choice.why}{how})"
    return out


def _yaku_text(yaku: Iterable[tuple[str, int]]) -> str:
    return ",".join(f"{y}:{h}" for y, h in yaku)


def _fmt(v: Any) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(map(str, v)) + "]"
    return str(v)


# ---------------------------------------------------------------- files and batches


def verify_file(path: str | os.PathLike[str], rules: Rules | None = None) -> list[GameReport]:
    """Read one file (one or several games) and verify each game; a read failure is one error report."""
    from mjcli.riichi.formats import read_log

    try:
        games = read_log(path)
    except MjcliError as exc:
        return [GameReport(file=name_text(str(path)), status=ERROR, error=name_text(str(exc)))]
    except OSError as exc:
        return [
            GameReport(file=name_text(str(path)), status=ERROR, error=f"cannot read: {exc.strerror or exc}")
        ]
    reports = []
    for g in games:
        try:
            reports.append(verify_log(g, rules))
        except (MjcliError, ArithmeticError, LookupError, TypeError, ValueError) as exc:
            # Whatever one strange log does to the engine, the batch goes on and says where.
            if not isinstance(exc, MjcliError):
                exc = MjcliError(f"engine failure ({type(exc).__name__}: {exc})")
            reports.append(
                GameReport(
                    file=name_text(str(path)),
                    game=str(g.game_id or ""),
                    status=ERROR,
                    error=name_text(str(exc)),
                )
            )
    return reports


def verify_task(rules: Rules | None, path: str) -> list[GameReport]:
    return verify_file(path, rules)


def verify_paths(
    paths: Sequence[str | os.PathLike[str]],
    rules: Rules | None = None,
    jobs: int = 1,
    backend: Backend | None = None,
) -> Iterator[list[GameReport]]:
    """Verify files in order (the order of ``paths`` whatever ``jobs`` or ``backend`` is); one list
    per file."""
    tasks = [str(p) for p in paths]
    yield from ordered_map(
        verify_task, tasks, jobs=jobs, setup=shared(rules), backend=backend, main_helps=True
    )


#: the tables of a verify: files ``NAME.parquet``, or a parted run's folders (see :mod:`mjcli.ledger`)
TABLES = ("verify", "verify_games", "verify_mismatches")


def verify_frames(reports: Sequence[GameReport]) -> dict[str, pl.DataFrame]:
    """The rows of one log's reports in each table (typed by the tables' schemas)."""
    from mjcli.ledger import to_frame

    return {
        "verify": to_frame([row.to_dict() for r in reports for row in r.rows], round_schema()),
        "verify_games": to_frame([r.to_row() for r in reports], game_schema()),
        "verify_mismatches": to_frame(
            [m.to_row(r.file, r.game) for r in reports for m in r.mismatches], mismatch_schema()
        ),
    }


@dataclass(frozen=True, slots=True)
class ReportNote:
    """What the command prints of a game's report, and counts, as JSON values: what a parted run
    keeps of it in its manifest, so that a resumed run prints the same for the games it keeps."""

    data: dict[str, Any]  # :meth:`GameReport.to_dict`
    lines: list[str]  # :func:`report_lines`
    status: str
    rounds: int
    rounds_matching: int

    @classmethod
    def of(cls, r: GameReport) -> ReportNote:
        data = json.loads(json.dumps(r.to_dict(), ensure_ascii=False))
        matching = sum(1 for row in r.rows if row.match)
        return cls(data, report_lines(r), r.status, len(r.rows), matching)

    def to_json(self) -> dict[str, Any]:
        return {
            "data": self.data,
            "lines": self.lines,
            "status": self.status,
            "rounds": self.rounds,
            "rounds_matching": self.rounds_matching,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ReportNote:
        return cls(d["data"], list(d["lines"]), d["status"], int(d["rounds"]), int(d["rounds_matching"]))


def verify_split(reports: list[GameReport]) -> tuple[dict[str, pl.DataFrame], dict[str, Any]]:
    """A task's result in a parted run: its tables, and its reports' notes."""
    return verify_frames(reports), {"reports": [ReportNote.of(r).to_json() for r in reports]}


def verify_fingerprint(path: str) -> tuple[str, str]:
    from mjcli.ledger import file_sha256

    return path, file_sha256(path)


def parted_options(rules: Rules | None) -> dict[str, Any]:
    """What a verify's rows depend on besides the logs (a parted run's options)."""
    return {"command": "verify", "game": "riichi", "rules": rules.name if rules is not None else None}


@dataclass(slots=True)
class Summary:
    logs: int = 0
    ok: int = 0
    mismatch: int = 0
    error: int = 0
    rounds: int = 0
    rounds_matching: int = 0
    # games by the rule set they were played under
    rules: dict[str, int] = field(default_factory=dict)

    def add(self, r: GameReport) -> None:
        self.add_note(ReportNote.of(r))

    def add_note(self, note: ReportNote) -> None:
        self.logs += 1
        setattr(self, note.status, getattr(self, note.status) + 1)
        self.rounds += note.rounds
        self.rounds_matching += note.rounds_matching
        name = note.data.get("rules")
        if name:
            self.rules[name] = self.rules.get(name, 0) + 1

    def rules_text(self) -> str:
        """The rule sets played, for the summary line: one name, or each with its games."""
        if len(self.rules) == 1:
            return next(iter(self.rules))
        return ", ".join(f"{name} {count}" for name, count in sorted(self.rules.items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": True,
            "logs": self.logs,
            "ok": self.ok,
            "mismatch": self.mismatch,
            "error": self.error,
            "rounds": self.rounds,
            "rounds_matching": self.rounds_matching,
            "rules": dict(sorted(self.rules.items())),
        }


_STATUS_WORD = {OK: "ok", MISMATCH: "MISMATCH", ERROR: "ERROR"}


def report_lines(report: GameReport) -> list[str]:
    """A game's verdict as text: status, rounds and file, then the error and each mismatch indented."""
    name = report.file + (f" [{report.game}]" if report.game and report.game not in report.file else "")
    lines = [f"{_STATUS_WORD[report.status]:<9}{report.rounds:>4} rounds  {printable(name)}"]
    if report.error:
        lines.append(f"    {printable(report.error)}")
    lines.extend(f"    {m}" for m in report.mismatches)
    return lines


def round_schema() -> dict[str, Any]:
    """Column types of ``verify.parquet`` (one row per round, :class:`RoundRow`)."""
    import polars as pl

    return {
        "file": pl.String,
        "game": pl.String,
        "round": pl.String,
        "honba": pl.Int32,
        "kind": pl.String,
        "recorded_kind": pl.String,
        "recorded_deltas": pl.List(pl.Int64),
        "engine_deltas": pl.List(pl.Int64),
        "han": pl.List(pl.Int32),
        "fu": pl.List(pl.Int32),
        "yaku": pl.String,
        "match": pl.Boolean,
    }


def game_schema() -> dict[str, Any]:
    """Column types of ``verify_games.parquet`` (one row per game, :meth:`GameReport.to_row`)."""
    import polars as pl

    return {
        "file": pl.String,
        "game": pl.String,
        "format": pl.String,
        "status": pl.String,
        "rounds": pl.Int32,
        "rounds_matching": pl.Int32,
        "mismatches": pl.Int32,
        "error": pl.String,
    }


def mismatch_schema() -> dict[str, Any]:
    """Column types of ``verify_mismatches.parquet`` (one row per difference, :meth:`Mismatch.to_row`)."""
    import polars as pl

    return {name: pl.String for name in ("file", "game", "round", "what", "log", "engine")}
