"""The mjai wire format as bots speak it: what a seat is sent, and what its answers mean.

The protocol of mjai.app and Mortal (checked against PyPI ``mjai`` 0.2.1, whose RiichiBot is the
tests' peer):

* A bot reads lines on stdin and writes one JSON object per line it is sent. The ``array`` framing
  (mjai.app, the default) sends a JSON **array** of the events since the bot last answered; the
  ``event`` framing (gimite's original mjai, Mortal with ``MORTAL_REVIEW_MODE=1``) sends one event
  object per line, each answered.
* Events are those of the game as the seat sees them: the other seats' starting hands and draws are
  ``"?"``, except those of a seat playing with its hand shown (``GameRules.hands_shown``: sent
  unmasked); nothing else is hidden. Only the types every mjai bot knows are sent: ``start_game``,
  ``start_kyoku``, ``tsumo``, ``dahai``, ``reach``, ``reach_accepted``, ``chi``, ``pon``,
  ``daiminkan``, ``kakan``, ``ankan``, ``dora``, ``end_kyoku``, ``end_game``; at a three-player
  table (three names, three hands and scores) also ``nukidora`` (``{"type":"nukidora","actor":S,
  "pai":"N"}``, a North set aside, followed by the replacement's ``tsumo``: the dialect of the
  three-player Mortal forks and mjai-reviewer3p; mjai has no official one). As in mjai.app,
  ``hora`` and ``ryukyoku`` are never sent (the events of a round after a seat's last prompt are
  dropped and ``end_kyoku`` follows), and ``start_game``, ``end_kyoku`` and ``end_game`` each come
  alone; their answers are read and ignored.
* A seat is sent a line when it has a decision to make (in ``array`` framing). The answer is
  ``{"type":"none"}`` (pass), ``dahai`` (``pai``; ``tsumogiri`` is not checked: the tile decides),
  ``reach`` (then the seat is sent ``{"type":"reach","actor":S}`` alone and answers the ``dahai``),
  ``hora`` (tsumo or ron, whichever is on offer), ``chi``/``pon``/``daiminkan`` (``pai`` and
  ``consumed``), ``ankan`` (``consumed``), ``kakan`` (``pai`` and ``consumed``: the pon's tiles),
  ``nukidora`` or ``kita`` (three-player: set a North aside) or ``ryukyoku`` (nine terminals). Red
  fives are ``5mr 5pr 5sr`` and count: an answer naming a tile the hand does not hold is not legal.
  An answer may carry a ``meta`` object (Mortal's q-values).

:func:`parse_answer` turns an answer into one of the engine's legal actions (through
:mod:`mjcli.riichi.policies.bridge`'s :class:`~mjcli.riichi.policies.bridge.Legal`) or says why it
is not one; :func:`q_by_index` and :func:`action_index` read Mortal's ``meta`` (the q-values of the
legal actions, in the order of its 46-action table, with ``mask_bits`` saying which they are).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mjcli.riichi.engine import events as ev
from mjcli.riichi.policies.view import Action
from mjcli.tiles import MJAI_TO_TILE, NUM_TILES, kind, sort_key, tile_to_mjai

FRAMINGS = ("array", "event")

#: the answer that passes
NONE = '{"type":"none"}'

_NAMES = tuple(tile_to_mjai(t) for t in range(NUM_TILES))
_HIDDEN_HAND = '["?","?","?","?","?","?","?","?","?","?","?","?","?"]'


def _j(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _tiles(tiles: Sequence[int]) -> str:
    return "[" + ",".join(f'"{_NAMES[t]}"' for t in tiles) + "]"


# ---------------------------------------------------------------- what a seat is sent

#: how a canonical event reaches the bots: not at all, as the round's end, or as a line
SKIP, END_ROUND, PUBLIC, MASKED = 0, 1, 2, 3


def start_game(seat: int, names: Sequence[str], players: int = 4) -> str:
    """The ``start_game`` line's event: the players' names and the seat's own id (as mjai.app);
    ``players`` names at a three-player table."""
    shown = [str(n) for n in names][:players]
    shown += [str(s) for s in range(len(shown), players)]
    return _j({"type": "start_game", "names": shown, "id": seat})


END_KYOKU = '{"type":"end_kyoku"}'
END_GAME = '{"type":"end_game"}'


def reach(seat: int) -> str:
    return f'{{"type":"reach","actor":{seat}}}'


def classify(e: object) -> tuple[int, str]:
    """How ``e`` is sent, and its text when it is the same for every seat (``PUBLIC``)."""
    t = type(e)
    if t is ev.Discard:
        return PUBLIC, (
            f'{{"type":"dahai","actor":{e.actor},"pai":"{_NAMES[e.tile]}",'
            f'"tsumogiri":{"true" if e.tsumogiri else "false"}}}'
        )
    if t is ev.Draw or t is ev.StartRound:
        return MASKED, ""
    if t is ev.Chi or t is ev.Pon or t is ev.OpenKan:
        name = "chi" if t is ev.Chi else "pon" if t is ev.Pon else "daiminkan"
        return PUBLIC, (
            f'{{"type":"{name}","actor":{e.actor},"target":{e.target},"pai":"{_NAMES[e.tile]}",'
            f'"consumed":{_tiles(e.consumed)}}}'
        )
    if t is ev.ClosedKan:
        return PUBLIC, f'{{"type":"ankan","actor":{e.actor},"consumed":{_tiles(e.consumed)}}}'
    if t is ev.AddedKan:
        return PUBLIC, (
            f'{{"type":"kakan","actor":{e.actor},"pai":"{_NAMES[e.tile]}","consumed":{_tiles(e.consumed)}}}'
        )
    if t is ev.NewDora:
        return PUBLIC, f'{{"type":"dora","dora_marker":"{_NAMES[e.marker]}"}}'
    if t is ev.Nukidora:
        return PUBLIC, f'{{"type":"nukidora","actor":{e.actor},"pai":"{_NAMES[e.tile]}"}}'
    if t is ev.Riichi:
        return PUBLIC, reach(e.actor)
    if t is ev.RiichiAccepted:
        return PUBLIC, f'{{"type":"reach_accepted","actor":{e.actor}}}'
    if t is ev.EndRound:
        return END_ROUND, END_KYOKU
    return SKIP, ""  # start_game and end_game are sent apart; hora, ryukyoku never (as mjai.app)


def masked(e: object, seat: int, shown: Sequence[int] | frozenset[int] = ()) -> str:
    """A ``tsumo`` or ``start_kyoku`` as ``seat`` sees it: others' tiles are ``"?"``, except those of
    the seats in ``shown`` (playing with their hand shown: their starting hand and every draw)."""
    if type(e) is ev.Draw:
        see = e.actor == seat or e.actor in shown
        pai = _NAMES[e.tile] if see and e.tile is not None else "?"
        return f'{{"type":"tsumo","actor":{e.actor},"pai":"{pai}"}}'
    s: ev.StartRound = e  # type: ignore[assignment]
    hands = ",".join(_tiles(h) if i == seat or i in shown else _HIDDEN_HAND for i, h in enumerate(s.hands))
    return (
        f'{{"type":"start_kyoku","bakaze":"{"ESWN"[s.round_wind % 4]}",'
        f'"dora_marker":"{_NAMES[s.dora_marker]}",'
        f'"kyoku":{s.kyoku},"honba":{s.honba},"kyotaku":{s.sticks},"oya":{s.dealer},'
        f'"scores":{_j(list(s.scores))},"tehais":[{hands}]}}'
    )


# ---------------------------------------------------------------- what an answer means


@dataclass(frozen=True, slots=True)
class Reading:
    """One answer read: the legal ``action`` it names (``reach`` when the riichi discard is still to
    be asked), or the ``problem`` that makes it a fault; ``meta`` as the bot sent it."""

    action: Action | None
    reach: bool = False
    problem: str | None = None
    kind: str = ""  # the fault's kind when there is a problem: "not_json" or "illegal"
    meta: Any = None


def _sorted(tiles: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(tiles, key=sort_key))


def _tile(o: dict[str, Any], key: str) -> int:
    name = o.get(key)
    if not isinstance(name, str) or name not in MJAI_TO_TILE:
        raise ValueError(f"'{key}' is not an mjai tile")
    return MJAI_TO_TILE[name]


def _consumed(o: dict[str, Any], n: int) -> tuple[int, ...]:
    c = o.get("consumed")
    if not isinstance(c, list) or len(c) != n or not all(isinstance(x, str) and x in MJAI_TO_TILE for x in c):
        raise ValueError(f"'consumed' is not a list of {n} mjai tiles")
    return _sorted([MJAI_TO_TILE[x] for x in c])


def _named(o: dict[str, Any], t: str) -> Action:
    """The action an answer names, whether legal or not (ValueError when it names none)."""
    if t == "dahai":
        return Action("discard", _tile(o, "pai"))
    if t in ("chi", "pon", "daiminkan"):
        kind_name = {"chi": "chi", "pon": "pon", "daiminkan": "open_kan"}[t]
        return Action(kind_name, _tile(o, "pai"), _consumed(o, 3 if t == "daiminkan" else 2))
    if t == "ankan":
        tiles = _consumed(o, 4)
        return Action("closed_kan", tiles[0], tiles)
    if t == "kakan":
        return Action("added_kan", _tile(o, "pai"), _consumed(o, 3))
    if t == "ryukyoku":
        return Action("nine_terminals")
    raise ValueError(f"'{t}' is not an answer type")


def parse_answer(line: str, seat: int, legal: Sequence[Action], riichi_discard: bool = False) -> Reading:
    """The legal action (of ``legal``) that the answer ``line`` names.

    ``riichi_discard``: the answer is the ``dahai`` asked after the seat's ``reach`` (it names a
    riichi action). A line that is not a JSON object is a ``not_json`` problem; a JSON answer that
    names no legal action (``none`` where the seat must act, a tile not in hand, a call not on offer,
    another seat's ``actor``) an ``illegal`` one.
    """
    try:
        o = json.loads(line)
    except ValueError:
        return Reading(None, problem="not JSON", kind="not_json")
    except RecursionError:  # '[[[[...' thousands deep: the parser gives up, as on any bad line
        return Reading(None, problem="not JSON (nested too deeply)", kind="not_json")
    if not isinstance(o, dict) or not isinstance(o.get("type"), str):
        return Reading(None, problem="not a JSON object with a type", kind="not_json")
    meta = o.get("meta")
    t = o["type"]
    actor = o.get("actor")
    if actor is not None and actor != seat and t != "none":
        # the value as JSON wrote it: a string "0" read "actor 0 is not the bot's seat 0"
        problem = f"actor {_j(actor)} is not the bot's seat {seat}"
        return Reading(None, problem=problem, kind="illegal", meta=meta)
    if riichi_discard:
        if t != "dahai":
            return Reading(None, problem=f"'{t}' after reach (a dahai was asked)", kind="illegal", meta=meta)
        try:
            a = Action("riichi", _tile(o, "pai"))
        except ValueError as exc:
            return Reading(None, problem=str(exc), kind="illegal", meta=meta)
        if a in legal:
            return Reading(a, meta=meta)
        return Reading(
            None, problem=f"riichi discard {_NAMES[a.tile]} is not legal", kind="illegal", meta=meta
        )  # type: ignore[index]
    if t == "none":
        for a in legal:
            if a.kind == "pass":
                return Reading(a, meta=meta)
        return Reading(None, problem="none where the seat must act", kind="illegal", meta=meta)
    if t == "reach":
        if any(a.kind == "riichi" for a in legal):
            return Reading(None, reach=True, meta=meta)
        return Reading(None, problem="reach is not legal here", kind="illegal", meta=meta)
    if t == "hora":
        for a in legal:
            if a.kind in ("tsumo", "ron"):
                return Reading(a, meta=meta)
        return Reading(None, problem="hora is not legal here", kind="illegal", meta=meta)
    if t in ("nukidora", "kita"):  # three-player: a North set aside (both names are in use)
        for a in legal:
            if a.kind == "nukidora":
                return Reading(a, meta=meta)
        return Reading(None, problem=f"{t} is not legal here", kind="illegal", meta=meta)
    try:
        a = _named(o, t)
    except ValueError as exc:
        return Reading(None, problem=str(exc), kind="illegal", meta=meta)
    if a in legal:
        for b in legal:  # the legal object itself (a discard may stand for the drawn copy)
            if b == a:
                return Reading(b, meta=meta)
    return Reading(None, problem=f"{t} is not legal here", kind="illegal", meta=meta)


# ---------------------------------------------------------------- Mortal's meta

#: Mortal's 46 actions: 0-36 discard (tile codes, red fives 34-36), 37 riichi, 38-40 chi with the
#: called tile lowest / middle / highest, 41 pon, 42 any kan, 43 hora, 44 nine terminals, 45 pass
RIICHI_INDEX, CHI_LOW, CHI_MID, CHI_HIGH, PON_INDEX, KAN_INDEX, HORA_INDEX, ABORT_INDEX, PASS_INDEX = (
    37,
    38,
    39,
    40,
    41,
    42,
    43,
    44,
    45,
)
ACTION_SPACE = 46


def action_index(a: Action) -> int | None:
    """The index of ``a`` in Mortal's action table (as mjai-reviewer's ``to_label``): a riichi is
    the ``reach`` itself (37), whatever tile follows; None for an action the table lacks."""
    k = a.kind
    if k == "discard":
        return a.tile
    if k == "riichi":
        return RIICHI_INDEX
    if k == "chi":
        called = kind(a.tile)  # type: ignore[arg-type]
        others = [kind(t) for t in a.consumed]
        if called < min(others):
            return CHI_LOW
        if called > max(others):
            return CHI_HIGH
        return CHI_MID
    if k == "pon":
        return PON_INDEX
    if k in ("open_kan", "closed_kan", "added_kan"):
        return KAN_INDEX
    if k in ("tsumo", "ron"):
        return HORA_INDEX
    if k == "nine_terminals":
        return ABORT_INDEX
    if k == "pass":
        return PASS_INDEX
    return None


def q_by_index(meta: Any) -> dict[int, float] | None:
    """Mortal's q-values by action index: ``q_values`` hold the legal actions' values only, in
    ascending index order, ``mask_bits`` has bit i set for each legal action i. None when the meta
    has no such pair (or they do not fit together)."""
    if not isinstance(meta, dict):
        return None
    q, bits = meta.get("q_values"), meta.get("mask_bits")
    if not isinstance(q, list) or not isinstance(bits, int) or isinstance(bits, bool) or bits < 0:
        return None
    indices = [i for i in range(ACTION_SPACE) if bits >> i & 1]
    if len(indices) != len(q) or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in q):
        return None
    return {i: float(v) for i, v in zip(indices, q, strict=True)}


def meta_text(meta: Any) -> str | None:
    """The meta as stored (compact JSON), or None."""
    return None if meta is None else _j(meta)
