"""Ask policies about a hand position: the library side of ``mjcli advise`` for riichi hands.

:func:`advise_hand` takes a typed hand (14 tiles, 3 fewer per meld; the last tile written is the
one just drawn), builds the view a player in that seat would have, the legal actions
(:mod:`mjcli.riichi.policies.legal`), each policy's answer with its reason, and the shanten/ukeire table
of every discard. :func:`advise_view` does the same for a view and legal actions the engine built
(a log position). A three-player hand (``players=3``) sits at a table of three (seats E, S, W, 35000
points each, 55 tiles in the wall); it may not hold 2m-8m, has no chi, and may set a North aside.

Names come from a :class:`~mjcli.plugins.Registry` (built-ins, plugins, entry points, outside bots).
An outside mjai bot needs the game's events, not a view: at a log position it is shown the game up
to there; for a typed hand it is shown a round made up for it (:func:`hand_events`: its hand dealt,
the dora indicators, its draw), which cannot hold melds, seen tiles or riichi declarations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mjcli.errors import PLUGIN_FAULTS, InvalidHandError, UsageError
from mjcli.melds import Meld, melds_to_text
from mjcli.output import format_table, plural
from mjcli.plugins import BOT, Registry
from mjcli.riichi.hand_report import discard_name
from mjcli.riichi.policies import build_policy, builtin_registry, parse_policy_names
from mjcli.riichi.policies.base import PolicyError, answer_text
from mjcli.riichi.policies.hand_math import HandMath
from mjcli.riichi.policies.legal import draw_actions, reaction_actions
from mjcli.riichi.policies.view import Action, PlayerView, RiverTile, action_text
from mjcli.riichi.variant import variant_for
from mjcli.tiles import check_counts, counts34, kind, parse_tile, parse_tiles, sort_key, tile_name, to_mpsz

if TYPE_CHECKING:
    from mjcli.riichi.bots import MjaiBot

WIND_LETTERS = "ESWN"


def discard_rows(view: PlayerView, math: HandMath | None = None) -> list[dict[str, object]]:
    """The shanten and ukeire (unseen copies) left by every distinct discard, best first. The key
    ``tile`` is the tile discarded (as in ``mjcli shanten``: ``0m`` when the hand holds only the
    red five of that kind)."""
    counts = view.concealed_counts()
    if sum(counts) % 3 != 2:
        return []
    options = (math or HandMath()).discard_options(counts, view.visible_counts())
    options.sort(key=lambda o: (o.shanten, -o.ukeire, o.kind))
    return [
        {
            "tile": discard_name(view.concealed, o.kind),
            "shanten": o.shanten,
            "ukeire": o.ukeire,
            "tiles": to_mpsz(o.improving),
        }
        for o in options
    ]


@dataclass(frozen=True, slots=True)
class GameContext:
    """What an outside bot is shown to answer at a position: the game's events up to ``upto`` (the
    event after which the decision comes) and the players' names."""

    events: Sequence[object]
    upto: int
    names: Sequence[str] = ()


def policy_rows(
    view: PlayerView,
    legal: Sequence[Action],
    names: Sequence[str],
    choice_text: bool = False,
    math: HandMath | None = None,
    registry: Registry | None = None,
    context: GameContext | None = None,
) -> list[dict[str, object]]:
    """One row per policy; with ``choice_text`` also ``choice``, the answer as replay stores it.
    ``math``: the HandMath the policies share (see :func:`~mjcli.riichi.policies.get_policy`).
    A bot's row (asked through ``context``) adds ``answer`` (what it wrote), ``meta`` and ``fault``
    (its action is ``fault`` when it did not answer a legal action)."""
    registry = registry if registry is not None else builtin_registry()
    rows = []
    for name in names:
        spec = registry.spec(name)
        policy = build_policy(spec, math)
        if spec.source == BOT:  # an outside program: the bots' modules are imported only for one
            rows.append(_bot_row(policy, view, legal, context, choice_text))
            continue
        try:
            action = policy.decide(view, legal)
        except EOFError:  # a policy that asks a person met the end of input: "Aborted!", as Ctrl-D
            raise
        # a policy's bug (a plugin's, most often): one line saying whose
        except PLUGIN_FAULTS as exc:
            raise PolicyError(f"policy '{name}' failed ({type(exc).__name__}: {exc})") from exc
        if not isinstance(action, Action) or action not in legal:
            raise PolicyError(f"policy '{name}' answered {answer_text(action)}, not a legal action here")
        row: dict[str, object] = {
            "policy": name,
            "action": action.kind,
            "tile": None if action.tile is None else tile_name(action.tile),
            "consumed": to_mpsz(action.consumed) if action.consumed else None,
            "reason": action.reason,
        }
        if choice_text:
            row["choice"] = action_text(action)
        rows.append(row)
    return rows


def _bot_row(
    bot: MjaiBot, view: PlayerView, legal: Sequence[Action], context: GameContext | None, choice_text: bool
) -> dict[str, object]:
    from mjcli.riichi.bots.protocol import meta_text

    if context is None:
        context = GameContext(*hand_events(view))
    with bot:
        bot.start_game(context.events, context.names)
        got = bot.answer(view.seat, context.upto, legal)
    a = got.action
    row: dict[str, object] = {
        "policy": bot.name,
        "action": a.kind if a is not None else "fault",
        "tile": None if a is None or a.tile is None else tile_name(a.tile),
        "consumed": to_mpsz(a.consumed) if a is not None and a.consumed else None,
        "reason": "" if got.fault is None else f"{got.fault.kind}: {got.fault.detail}",
        "answer": got.text,
        "meta": meta_text(got.meta),
        "fault": None if got.fault is None else got.fault.kind,
    }
    if choice_text:
        row["choice"] = action_text(a) if a is not None else None
    return row


def hand_events(view: PlayerView) -> tuple[list[object], int, list[str]]:
    """A round made up to show a typed hand to an outside bot: the hand dealt to the view's seat
    (the others' hidden), the dora indicators, then its draw. Without a dora indicator the first
    honour (East first) that the hand does not hold is shown, since a round always has one.
    A hand with melds, other seats' discards or riichi declarations cannot be shown this way."""
    if view.drawn is None:
        raise UsageError("an outside bot is asked about a hand with a drawn tile only")
    if any(view.melds) or any(view.rivers) or any(view.riichi):
        raise UsageError(
            "an outside bot (--bot) sees a game's events: it can be asked about a typed hand without "
            "--melds, --seen and --riichi-by, or about a log position (LOG --round --honba --turn --seat)"
        )
    own = view.concealed_counts()
    # imported here: building its ~20 event classes is 14 ms of `advise HAND`'s start-up, and only
    # a position put to an outside bot needs them (bench_speed: "start-up: mjcli advise HAND")
    from mjcli.riichi.engine import events as ev

    shown = {s: h for s, h in enumerate(view.shown_hands) if h is not None}
    if any(len(h) != 13 for h in shown.values()):
        raise UsageError("an outside bot is shown other seats' hands of 13 tiles only (they are dealt)")
    for h in shown.values():
        for t in h:
            own[kind(t)] += 1
    dora = list(view.dora_indicators) or [next(27 + k for k in range(7) if not own[27 + k])]
    hidden = (0,) * 13
    seats = range(view.players)
    names = [str(s) for s in seats]
    hands = tuple(
        tuple(sorted(view.hand)) if s == view.seat else tuple(sorted(shown[s])) if s in shown else hidden
        for s in seats
    )
    events: list[object] = [
        ev.StartGame(
            names=tuple(names),
            rules=ev.GameRules(players=view.players, hands_shown=tuple(sorted(shown))),
        ),
        ev.StartRound(
            round_wind=view.round_wind,
            kyoku=view.dealer + 1,
            honba=view.honba,
            sticks=view.sticks,
            dealer=view.dealer,
            dora_marker=dora[0],
            scores=tuple(view.scores),
            hands=hands,
        ),
        *(ev.NewDora(t) for t in dora[1:]),
        ev.Draw(view.seat, view.drawn),
    ]
    return events, len(events) - 1, names


def advise_view(
    view: PlayerView,
    legal: Sequence[Action],
    policies: Sequence[str] | str = "all",
    actual: Action | None = None,
    choice_text: bool = False,
    registry: Registry | None = None,
    context: GameContext | None = None,
) -> dict[str, object]:
    """Every policy's answer at one decision point, beside the discard table.

    ``actual`` is what the player did at that point of a log (``None`` for a typed hand);
    ``choice_text`` adds each answer in replay's stored form (see :func:`policy_rows`);
    ``registry`` resolves the names, ``context`` is the game an outside bot is shown.
    """
    names = parse_policy_names(policies, registry) if isinstance(policies, str) else list(policies)
    math = HandMath()
    math.set_players(view.players)
    counts = view.concealed_counts()
    size = sum(counts)
    shanten = math.shanten(counts) if size % 3 in (1, 2) and size <= 14 else None
    result: dict[str, object] = {
        "hand": to_mpsz(view.concealed),
        "drawn": None if view.drawn is None else tile_name(view.drawn),
        "offered": None if view.offered is None else tile_name(view.offered),
        "offered_by": view.offered_by,
        "melds": melds_to_text(view.own_melds),
        "dora_indicators": to_mpsz(view.dora_indicators),
        "round_wind": WIND_LETTERS[view.round_wind],
        "seat_wind": WIND_LETTERS[view.seat_wind],
        "players": view.players,
        "shanten": shanten,
        "legal": [a.label() for a in legal],
        "actual": None if actual is None else actual.to_dict(),
        "policies": policy_rows(view, legal, names, choice_text, math, registry, context),
        "discards": discard_rows(view, math),
    }
    if any(h is not None for h in view.shown_hands):
        # the other seats' hands shown at the table, by seat (only when a seat shows one)
        result["shown_hands"] = {str(s): to_mpsz(h) for s, h in enumerate(view.shown_hands) if h is not None}
    return result


def build_view(
    hand: Sequence[int],
    melds: Sequence[Meld] = (),
    dora: Sequence[int] = (),
    seen: Sequence[int] = (),
    round_wind: int = 0,
    seat_wind: int = 0,
    riichi_by: Sequence[int] = (),
    wall_left: int | None = None,
    first_turn: bool = False,
    offered: int | None = None,
    offered_by: int | None = None,
    shown: dict[int, Sequence[int]] | None = None,
    players: int = 4,
) -> PlayerView:
    """The view of a player in seat wind ``seat_wind`` holding ``hand`` (last tile = the drawn one).

    Seats are numbered with the dealer as seat 0, so a seat number is its seat wind. ``seen`` are
    tiles the player has seen elsewhere (rivers of the others); they are laid in the next player's
    river. ``riichi_by`` are the seats (winds) that have declared riichi. ``players``: 4, or 3 for a
    three-player table (``wall_left`` defaults to the variant's full live wall: 70 or 55).

    With ``offered`` (a tile discarded by seat ``offered_by``) the position is a reaction: ``hand``
    is the 13 tiles held (3 fewer per meld), nothing drawn, and the tile lies last in the
    discarder's river. ``shown`` are the concealed tiles of other seats that play with their hand
    shown (:attr:`PlayerView.shown_hands`), by seat.
    """
    variant = variant_for(players)
    if wall_left is None:
        wall_left = variant.live_wall
    hand = list(hand)
    label = f"hand '{to_mpsz(hand, sort=False)}'"
    expected = 14 - 3 * len(melds) - (offered is not None)
    if len(hand) != expected:
        what = "to answer a discard" if offered is not None else "to advise"
        last = "" if offered is not None else " (the last one written is the tile just drawn)"
        melds_text = plural(len(melds), "meld")
        raise InvalidHandError(
            f"{label} has {len(hand)} tiles; with {melds_text} a hand {what} has {expected}{last}"
        )
    for name, w in (("round", round_wind), ("seat", seat_wind)):
        if not 0 <= w <= 3:
            raise UsageError(f"{name} wind {w} is not 0..3 (E S W N)")
    if seat_wind >= players:
        raise UsageError(f"seat wind {WIND_LETTERS[seat_wind]}: a three-player table has seats E, S, W")
    if (offered is None) != (offered_by is None):
        raise UsageError("a discard to answer needs both the tile and the seat that discarded it")
    last = players - 1
    if offered_by is not None and not (0 <= offered_by <= last and offered_by != seat_wind):
        raise UsageError(
            f"the discard of seat {offered_by}: give another seat than the player's own (0-{last})"
        )
    shown = dict(shown or {})
    for s in shown:
        if not 0 <= s <= last or s == seat_wind:
            raise UsageError(f"a hand shown by seat {s}: give another seat than the player's own (0-{last})")
    own = [*hand, *(t for m in melds for t in m.tiles)]
    check_counts(own, label)
    table = [*own, *dora, *seen, *([offered] if offered is not None else [])]
    check_counts(table, f"{label} with its dora indicators, seen and offered tiles")
    everything = [*table, *(t for tiles in shown.values() for t in tiles)]
    check_counts(everything, f"{label} with the hands shown")
    # Name the group that holds the absent tile: a 5m dora indicator blamed on the hand misleads.
    groups: list[tuple[str, Sequence[int]]] = [
        (f"{label}:", own),
        (f"{label}: the dora indicator", dora),
        (f"{label}: the seen tile", seen),
        (f"{label}: the discard to answer", [offered] if offered is not None else []),
        *((f"{label}: the hand shown by seat {s}", list(tiles)) for s, tiles in shown.items()),
    ]
    for where, tiles in groups:
        absent = [t for t in tiles if kind(t) in variant.absent_kinds]
        if absent:
            raise InvalidHandError(
                f"{where} {tile_name(absent[0])} is not in the set of {variant.name} mahjong (no 2m-8m)"
            )
    if players == 3 and any(m.kind == "chi" for m in melds):
        raise UsageError(f"{label}: there is no chi in three-player mahjong")
    riichi = [False] * players
    for s in riichi_by:
        if not 0 <= s < players:
            raise UsageError(f"riichi seat {s} is not 0..{players - 1} ({WIND_LETTERS[:players]})")
        riichi[s] = True
    if riichi[seat_wind] and any(m.opened for m in melds):
        raise UsageError(f"seat {WIND_LETTERS[seat_wind]} cannot be in riichi with an open meld")
    # In riichi, the tiles held before the draw are tenpai: the 14 with the drawn tile may be tenpai
    # one discard later while those 13 are not (123m456p789s11z23z drawing 2z), which no riichi holds.
    held = hand if offered is not None else hand[:-1]
    if riichi[seat_wind] and HandMath().shanten(counts34(held)) > 0:
        raise UsageError(
            f"seat {WIND_LETTERS[seat_wind]} cannot be in riichi: the hand is not tenpai "
            "(--riichi-by names the seats in riichi; the player's own seat only with a tenpai hand)"
        )
    seat = seat_wind
    rivers: list[list[RiverTile]] = [[] for _ in range(players)]
    rivers[(seat + 1) % players] = [RiverTile(t) for t in seen]
    if offered is not None and offered_by is not None:
        rivers[offered_by].append(RiverTile(offered))
    all_melds: list[tuple[Meld, ...]] = [()] * players
    all_melds[seat] = tuple(melds)
    shown_hands = (
        tuple(tuple(sorted(shown[s], key=sort_key)) if s in shown else None for s in range(players))
        if shown
        else ()
    )
    three = {} if players == 4 else {"scores": (35000,) * 3, "kita": (0, 0, 0)}
    return PlayerView(
        seat=seat,
        hand=tuple(hand[:-1]) if offered is None else tuple(sorted(hand, key=sort_key)),
        drawn=hand[-1] if offered is None else None,
        offered=offered,
        offered_by=offered_by,
        shown_hands=shown_hands,
        melds=tuple(all_melds),
        rivers=tuple(tuple(r) for r in rivers),
        dora_indicators=tuple(dora),
        round_wind=round_wind,
        dealer=0,
        riichi=tuple(riichi),
        wall_left=wall_left,
        first_turn=first_turn,
        **three,  # type: ignore[arg-type]
    )


def advise_hand(
    hand: str | Sequence[int],
    melds: Sequence[Meld] = (),
    dora: str | Sequence[int] = (),
    seen: str | Sequence[int] = (),
    round_wind: int = 0,
    seat_wind: int = 0,
    riichi_by: Sequence[int] = (),
    policies: Sequence[str] | str = "all",
    players: int = 4,
    registry: Registry | None = None,
    offered: str | int | None = None,
    offered_by: int | None = None,
    shown: dict[int, str | Sequence[int]] | None = None,
) -> dict[str, object]:
    """Each policy's action and reason for a typed hand, with the discard table (``players``: 3 for
    a three-player hand, see :func:`build_view`).

    With ``offered`` (a tile) and ``offered_by`` (the seat, 0-3 = its wind, that discarded it) the
    hand is the 13 tiles held and the question is the answer to that discard (ron, calls, pass):
    "would you call this?". ``shown``: other seats' hands shown at the table, by seat.

    Returns ``{"hand", "drawn", "offered" and "offered_by", "melds", "dora_indicators",
    "round_wind", "seat_wind", "shanten", "legal", "actual" (None here), "policies": [{"policy",
    "action", "tile", "consumed", "reason"}], "discards": [{"tile", "shanten", "ukeire", "tiles"}]}``.
    """
    tiles = parse_tiles(hand) if isinstance(hand, str) else list(hand)
    dora_tiles = parse_tiles(dora) if isinstance(dora, str) else list(dora)
    seen_tiles = parse_tiles(seen) if isinstance(seen, str) else list(seen)
    offered_tile = parse_tile(offered) if isinstance(offered, str) else offered
    shown_tiles = {s: parse_tiles(h) if isinstance(h, str) else list(h) for s, h in (shown or {}).items()}
    view = build_view(
        tiles,
        melds,
        dora_tiles,
        seen_tiles,
        round_wind,
        seat_wind,
        riichi_by,
        offered=offered_tile,
        offered_by=offered_by,
        shown=shown_tiles,
        players=players,
    )
    legal = reaction_actions(view) if offered_tile is not None else draw_actions(view)
    return advise_view(view, legal, policies, registry=registry)


# ---------------------------------------------------------------- a position from a log


def parse_round_label(text: str) -> tuple[int, int]:
    """``"E2"`` -> (round wind 0, kyoku 2); ``"S4"`` -> (1, 4)."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in WIND_LETTERS or t[1] not in "1234":
        raise UsageError(f"round '{text}' is not a round label like E1, E4, S2")
    return WIND_LETTERS.index(t[0]), int(t[1])


def split_round_honba(text: str, honba: int | None) -> tuple[str, int]:
    """``--round`` as the labels verify, replay and advise's own header write it, ``E2-1`` (round and
    honba), or ``E2`` with ``--honba`` (default 0); both honba given must agree."""
    label, dash, counter = text.strip().partition("-")
    if not dash:
        return label, honba or 0
    if not counter.isdigit():
        raise UsageError(f"round '{text}' is not a round label like E1, S2 or E2-1 (round and honba)")
    if honba is not None and honba != int(counter):
        raise UsageError(f"--round '{text}' names honba {int(counter)}, --honba {honba}: give one")
    return label, int(counter)


def advise_log(
    path: str,
    round_label: str,
    honba: int,
    turn: int,
    seat: int,
    policies: Sequence[str] | str = "all",
    game_index: int | None = None,
    registry: Registry | None = None,
    hands_shown: Sequence[str] | None = None,
    seat_is_wind: bool = False,
) -> dict[str, object]:
    """Each policy's answer at a position of a real game, with what the player did there.

    ``hands_shown``: the players whose seats play with their hand shown (None: as the log records;
    see :func:`mjcli.riichi.replay.with_hands_shown`).

    The position is a row of ``replay``'s ``decisions.parquet``: ``round_label`` (``E2``),
    ``honba``, ``turn`` (the index, from 0, of the move in the round - draw, discard, call or kan -
    right after which the decision comes) and ``seat`` (0..3, seat 0 = the first dealer), in the
    game ``game_index`` of the file (any format ``verify`` reads; None: the file's only game, and a
    usage error naming the count when it holds several, rather than the first one in silence).
    The decision points are those
    of :func:`mjcli.riichi.replay.decisions_of`, so the hand, the legal actions and the player's action
    are the row's. ``seat_is_wind``: ``seat`` is the seat's wind in that round (0..3 = E S W N) at
    the table of the log (three or four seats). Besides :func:`advise_view`'s keys: ``file``,
    ``round`` (``E2-0``), ``honba``, ``turn``, ``seat``, ``kind`` (the row's decision kind),
    ``actual_text`` and ``tsumogiri`` (the row's ``actual`` and ``tsumogiri``), and ``choice`` per
    policy (the row's ``choice``).
    """
    from mjcli.riichi.engine import events as ev
    from mjcli.riichi.engine.legality import IllegalEvent
    from mjcli.riichi.formats import read_log
    from mjcli.riichi.replay import decisions_of, with_hands_shown

    wind, kyoku = parse_round_label(round_label)
    name = f"{WIND_LETTERS[wind]}{kyoku}"
    label = f"{name}-{honba}"
    if not 0 <= seat <= 3:
        raise UsageError(f"seat {seat} is not 0..3")
    games = read_log(path)
    if game_index is None:
        if len(games) > 1:
            raise UsageError(
                f"{path} holds {len(games)} games: name one with --game-index 0-{len(games) - 1} "
                "(replay's game column)"
            )
        game_index = 0
    if not 0 <= game_index < len(games):
        raise UsageError(f"{path} holds {len(games)} game(s); game {game_index} does not exist")
    seats_n = games[game_index].players
    if seat >= seats_n:
        what = f"wind {WIND_LETTERS[seat]}" if seat_is_wind else f"seat {seat}"
        raise UsageError(f"{path} is a {seats_n}-player game: {what} does not sit there")
    if seat_is_wind:  # the seat that has this wind in the round asked about
        seat = (kyoku - 1 + seat) % seats_n
    turns: list[int] = []
    rounds_seen: list[str] = []
    events = games[game_index].events
    if hands_shown and events and isinstance(events[0], ev.StartGame):
        names = {n.lower() for n in events[0].names}
        missing = [p for p in hands_shown if p.lower() not in names]
        if missing:
            known = ", ".join(n for n in events[0].names if n) or "none"
            raise UsageError(
                f"--hands-shown {', '.join(missing)}: no such player in this game (players: {known})"
            )
    events = with_hands_shown(events, hands_shown)
    try:
        for d in decisions_of(events, seats=(seat,)):
            here = f"{d.round}-{d.honba}"
            if here not in rounds_seen:
                rounds_seen.append(here)
            if here != label:
                if turns:
                    break  # past the round asked about
                continue
            if d.turn == turn:
                game = games[game_index]
                players = list(game.start.names) if game.start is not None else []
                context = GameContext(events, d.event, players)
                result = advise_view(d.view, d.legal.actions, policies, d.actual, True, registry, context)
                discarded = d.actual.kind in ("discard", "riichi")
                result.update(
                    {
                        "file": str(path),
                        "round": label,
                        "honba": honba,
                        "turn": turn,
                        "seat": seat,
                        "kind": d.kind,
                        "actual_text": action_text(d.actual),
                        "tsumogiri": d.tsumogiri if discarded else None,
                    }
                )
                return result
            turns.append(d.turn)
    except IllegalEvent as exc:
        # The engine rejects the log at ``exc.index``: the position lies beyond that when it is in a
        # round not reached, or in that round after the move before the stop (whose decisions are
        # the ones that may have been refused: what the player did there is that event). A
        # position before the stop that is not a decision was said to lie beyond it ("the engine
        # stops before that position", for turn 3 of a round stopped after turn 31): it is named as
        # any other, with the turns that are decisions.
        stop_round, stop_turn = _round_and_moves(events, exc.index)
        before = (label in rounds_seen and label != stop_round) or (
            label == stop_round and turn < stop_turn - 1
        )
        if not before:
            reached = ", ".join(rounds_seen) or "none"
            where = f"after turn {stop_turn - 1}" if stop_turn else "at its start"
            raise UsageError(
                f"{path}: the engine stops before that position, in round {stop_round} {where} "
                f"({exc}); rounds with a decision of seat {seat} before it: {reached}"
            ) from None
    if label not in rounds_seen:
        known = ", ".join(rounds_seen) or "none"
        raise UsageError(
            f"{path}: no round {label} with a decision of seat {seat} in game {game_index} (rounds: {known})"
        )
    listed = ", ".join(map(str, turns))
    raise UsageError(
        f"{path}: seat {seat} has decisions at turn(s) {listed} in round {label}, not {turn} "
        "(turn: the decisions.parquet column)"
    )


def _round_and_moves(events: Sequence[object], index: int) -> tuple[str, int]:
    """The round (``E2-0``) that event ``index`` falls in and the moves made in it before that
    event (the turn numbering of :func:`mjcli.riichi.replay.decisions_of`)."""
    from mjcli.riichi.engine import events as ev
    from mjcli.riichi.replay import _MOVES

    label, moves = "none", 0
    for e in events[:index]:
        if isinstance(e, ev.StartRound):
            label, moves = f"{WIND_LETTERS[e.round_wind % 4]}{e.kyoku}-{e.honba}", 0
        elif type(e) in _MOVES:
            moves += 1
    return label, moves


# ---------------------------------------------------------------- as text


def render(result: dict) -> str:
    """The policies' answers, then the discard table, as plain text."""
    lines = []
    if "file" in result:
        kind = f"  {result['kind']} decision" if result.get("kind") else ""
        lines.append(
            f"{result['file']}  round {result['round']}  seat {result['seat']}  turn {result['turn']}{kind}"
        )
    if result["drawn"] is not None:
        came = f"  drawn {result['drawn']}"
    elif result.get("offered") is not None:
        came = f"  offered {result['offered']} by seat {result['offered_by']}"
    else:
        came = ""  # after a call: nothing drawn, nothing offered
    shown = result.get("shown_hands") or {}
    lines += [
        ("three-player  " if result.get("players") == 3 else "")
        + f"hand {result['hand']}{came}"
        + (f"  melds {result['melds']}" if result["melds"] else "")
        + (f"  dora indicators {result['dora_indicators']}" if result["dora_indicators"] else "")
        + f"  round {result['round_wind']}  seat {result['seat_wind']}  shanten {result['shanten']}",
        *(f"shown by seat {s}: {tiles}" for s, tiles in shown.items()),
        "",
    ]
    rows = []
    for p in result["policies"]:
        action = p["action"] if p["tile"] is None else f"{p['action']} {p['tile']}"
        if p.get("consumed"):
            action += f" ({p['consumed']})"
        reason = p["reason"]
        if p.get("fault") and p.get("answer"):
            # what the bot wrote, as the fault lines of replay and simulate quote it (a row said
            # "illegal: dahai is not legal here" without naming the tile)
            reason += f"; answered {p['answer']!r}"[:200]
        rows.append([p["policy"], action, reason])
    actual = result.get("actual")
    if actual:
        action = actual["action"] if actual["tile"] is None else f"{actual['action']} {actual['tile']}"
        if actual.get("consumed"):
            action += f" ({actual['consumed']})"
        did = "what the player did" + (" (the drawn tile)" if result.get("tsumogiri") else "")
        rows.append(["(actual)", action, did])
    lines.append(format_table(["policy", "action", "reason"], rows))
    if result["discards"]:
        lines.append("")
        table = [[d["tile"], d["shanten"], d["ukeire"], d["tiles"]] for d in result["discards"]]
        lines.append(format_table(["discard", "shanten", "ukeire", "tiles"], table, align="lrrl"))
    return "\n".join(lines)
