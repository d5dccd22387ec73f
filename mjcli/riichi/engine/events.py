"""Canonical game events: what every log reader produces and every writer consumes.

Modelled on the mjai event stream (the most explicit of the formats), with tiles as ``mjcli.tiles``
tile codes (0..36, red fives 34-36) and seats 0..3 in the order of the game's first dealer (seat 0
is East in the first round). What a log *recorded* about an outcome (deltas, han, fu, yaku) is kept
on the outcome events so that ``verify`` can compare it with what the engine computes; the engine
itself never reads those fields.

Yaku are named by canonical ids: the attribute names of the ``mahjong``
library's ``YakuConfig`` ("riichi", "tsumo", "pinfu", "haku", "seat_wind_east", "dora",
"aka_dora", "ura_dora", ...). Readers translate Tenhou ids and Japanese names into these.

Events are frozen dataclasses with slots: cheap to create, hashable, comparable with ``==`` (the
cross-format test compares whole event lists). Recorded numbers that only some formats carry (the
scores Tenhou XML writes beside every payment, ...) are kept out of ``==``: two formats of one game
are the same game; ``verify`` checks those numbers wherever a log has them.

Canonical conventions (where formats differ, every reader produces these, so that the same game read
from Tenhou XML, tenhou.net/6 JSON or mjai gives identical lists; see ``mjcli.riichi.formats``):

* Tile groups that have no order of their own are sorted with ``tiles.sort_key`` (a red five just
  before the plain fives of its suit): dealt hands, ``consumed`` of calls, shown hands.
* A round is ``StartRound``, its actions, one ``Win`` per winner or one ``RoundDraw``, ``EndRound``;
  a game ends with ``EndGame`` (absent when the log stops before the game's end).
* ``Riichi`` comes right before the declaring ``Discard``; ``RiichiAccepted`` right after that
  discard unless it is ronned (before any call or draw; before the ``RoundDraw`` of four riichi).
* ``Draw.rinshan`` is True for the draw right after the same player's kan (or kita).
* ``NewDora`` (Tenhou rules): right after a ``ClosedKan``; for an ``OpenKan``/``AddedKan``, just
  before that player's next ``Discard`` or right after their next kan; never if the round ends first.
* ``Win.yaku`` is sorted by Tenhou's yaku number and holds only entries worth han (Tenhou's
  "ura dora 0" is dropped); ``han`` is their sum; ``fu`` is given only below mangan (tenhou.net/6
  writes "満貫" without fu, and fu does not change a limit hand's value); ``ura_markers`` only for a
  winner in riichi; ``hand`` is the concealed tiles with the winning tile, sorted.
* ``RoundDraw.hands`` holds the hands Tenhou shows: tenpai hands at an exhaustive draw (also with
  nagashi mangan), the declarer's 14 tiles at nine terminals, all at four riichi, the three
  claimants' at a triple ron, none at four winds / four kans. Abortive draws have zero deltas.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mjcli.inputs import utf8_text

Tiles = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameRules:
    """The rule facts a log states about its game (Tenhou's GO type bits, mjai's start_game)."""

    players: int = 4
    red_fives: bool = True
    open_tanyao: bool = True
    # "hanchan" (east+south) or "tonpuu" (east only); "" where the log does not say (converters of
    # Mahjong Soul logs before 2024-11 wrote three-player rooms without it): the game's end decides
    length: str = "hanchan"
    # whose rules the log says the game was played under ("majsoul": a Mahjong Soul room named in
    # the header); "" where it names none (Tenhou's own logs, mjai, the project's own)
    site: str = ""
    # the open-riichi house rule (mjcli.riichi.rules.Rules.open_riichi): a riichi of a seat in
    # ``hands_shown`` is an open riichi
    open_riichi: bool = False
    # seats that play the whole game with their concealed hand (and every draw) shown to the table
    hands_shown: tuple[int, ...] = ()
    # a three-player tsumo's absent North share (mjcli.riichi.rules.Rules.absent_share): "split"
    # where the game was played so (mjcli's own key, written only then); "" where the log does not
    # say (its site's rule: tsumo-son on Tenhou and Mahjong Soul)
    absent_share: str = ""
    # what the log says of its rules that mjcli does not know how to play ("" where nothing): a
    # Tenhou lobby with chips (祝儀), a private lobby's own rules. ``verify`` does not call such a
    # game's differences from the rules it plays mismatches. Not compared: a format that cannot
    # say it still holds the same game.
    unknown: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Header:
    """What a log says of its game and players besides the play, as the source wrote it: ``convert``
    carries it from one format to another; the engine reads none of it. Empty where the source has
    none (mjai has no place for it)."""

    title: tuple[str, ...] = ()  # tenhou.net/6 ``title`` (a tournament's name and round, say)
    dan: tuple[str, ...] = ()  # the players' ranks by name (Tenhou's 新人 ... 十段, 天鳳)
    rate: tuple[float, ...] = ()  # their ratings
    sex: tuple[str, ...] = ()  # Tenhou's ``sx``: M, F, C (a computer)
    disp: str = ""  # the rule line as written (tenhou.net/6 ``rule.disp``, with its lobby marks)

    def __post_init__(self) -> None:
        # text a log wrote that no output takes (a lone surrogate) as its escape (inputs.utf8_text)
        object.__setattr__(self, "title", tuple(map(utf8_text, self.title)))
        object.__setattr__(self, "dan", tuple(map(utf8_text, self.dan)))
        object.__setattr__(self, "sex", tuple(map(utf8_text, self.sex)))
        object.__setattr__(self, "disp", utf8_text(self.disp))


@dataclass(frozen=True, slots=True)
class StartGame:
    names: tuple[str, ...]
    rules: GameRules = field(default_factory=GameRules)
    game_id: str = ""
    # not compared: two formats of one game are the same game whatever header each could carry
    header: Header = field(default_factory=Header, compare=False)

    def __post_init__(self) -> None:
        # a player's name as a log wrote it, but writable: an mjai "\ud800" (a lone surrogate, valid
        # JSON) stopped replay with a UnicodeEncodeError traceback where Parquet took the name
        object.__setattr__(self, "names", tuple(map(utf8_text, self.names)))
        object.__setattr__(self, "game_id", utf8_text(self.game_id))


@dataclass(frozen=True, slots=True)
class StartRound:
    round_wind: int  # 0 East, 1 South, 2 West, 3 North
    kyoku: int  # 1..4 within the wind
    honba: int
    sticks: int  # riichi sticks on the table at the start
    dealer: int  # seat 0..3
    dora_marker: int
    scores: tuple[int, ...]  # in points (not hundreds)
    hands: tuple[Tiles, ...]  # 13 tiles per seat, sorted (tiles.sort_key)


@dataclass(frozen=True, slots=True)
class Draw:
    actor: int
    tile: int | None  # None where the log hides it (another player's draw in a player-view log)
    rinshan: bool = False  # draw from the dead wall after a kan


@dataclass(frozen=True, slots=True)
class Discard:
    actor: int
    tile: int
    tsumogiri: bool  # the tile just drawn was discarded


@dataclass(frozen=True, slots=True)
class Riichi:
    """Riichi declared; the next Discard of ``actor`` is the riichi tile."""

    actor: int


@dataclass(frozen=True, slots=True)
class RiichiAccepted:
    """Nobody won on the riichi tile: the 1000-point stick is paid."""

    actor: int
    # Recorded: every seat's score once the stick is paid (Tenhou's REACH step 2, classic mjai).
    scores: tuple[int, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Chi:
    actor: int
    target: int
    tile: int  # the called tile
    consumed: Tiles  # the two tiles from the hand, sorted


@dataclass(frozen=True, slots=True)
class Pon:
    actor: int
    target: int
    tile: int
    consumed: Tiles


@dataclass(frozen=True, slots=True)
class OpenKan:
    """Daiminkan: a kan called on another player's discard."""

    actor: int
    target: int
    tile: int
    consumed: Tiles  # three tiles


@dataclass(frozen=True, slots=True)
class ClosedKan:
    """Ankan: four tiles from the hand."""

    actor: int
    consumed: Tiles


@dataclass(frozen=True, slots=True)
class AddedKan:
    """Kakan (shouminkan): a fourth tile added to an own pon."""

    actor: int
    tile: int
    consumed: Tiles  # the three tiles of the pon


@dataclass(frozen=True, slots=True)
class Nukidora:
    """Three-player: a North set aside (kita, 抜きドラ) instead of a discard; the same player's next
    ``Draw`` (``rinshan``) is its replacement, unless another player's ``Win`` on the North comes first."""

    actor: int
    tile: int


@dataclass(frozen=True, slots=True)
class NewDora:
    marker: int


@dataclass(frozen=True, slots=True)
class Win:
    """A win (hora). For a multiple ron, one Win event per winner in the log's order."""

    actor: int
    target: int  # == actor for tsumo
    tile: int  # the winning tile
    # What the log recorded (None where the format does not carry it):
    deltas: tuple[int, ...] | None = None  # score change of each seat, sticks and honba included
    han: int | None = None
    fu: int | None = None
    points: int | None = None  # the hand's value as the log states it (before honba and sticks)
    yaku: tuple[tuple[str, int], ...] | None = None  # (canonical yaku id, han); yakuman as 13 per unit
    ura_markers: Tiles | None = None
    pao: int | None = None  # seat liable (big three dragons, big four winds, four kans)
    hand: Tiles | None = None  # the winner's concealed tiles as shown, winning tile included
    # False where the log's dialect leaves pao out altogether (Mortal's ``hora``): then ``pao=None``
    # means "not said", not "no pao".
    pao_known: bool = field(default=True, compare=False)
    # False where a riichi winner's ura indicators are not in the log (an mjai ``hora`` without any
    # ura field, a tenhou.net/6 round with an empty ura list): ``ura_markers=None`` then means "not
    # said", and the engine takes the ura dora count that gives the recorded deltas.
    ura_known: bool = field(default=True, compare=False)
    # Recorded numbers some formats carry beside the deltas (Tenhou XML ``ba`` and ``sc``, classic
    # mjai ``scores``): the honba and riichi sticks this win settles, every score before and after it.
    honba: int | None = field(default=None, compare=False)
    sticks: int | None = field(default=None, compare=False)
    scores_before: tuple[int, ...] | None = field(default=None, compare=False)
    scores_after: tuple[int, ...] | None = field(default=None, compare=False)


#: reasons for a round ending without a win
EXHAUSTIVE = "exhaustive"
NINE_TERMINALS = "nine_terminals"
FOUR_RIICHI = "four_riichi"
FOUR_WINDS = "four_winds"
FOUR_KANS = "four_kans"
TRIPLE_RON = "triple_ron"
NAGASHI_MANGAN = "nagashi_mangan"
DRAW_REASONS = (EXHAUSTIVE, NINE_TERMINALS, FOUR_RIICHI, FOUR_WINDS, FOUR_KANS, TRIPLE_RON, NAGASHI_MANGAN)


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """Ryuukyoku: an exhaustive draw (possibly with nagashi mangan) or an abortive draw."""

    reason: str  # one of DRAW_REASONS
    deltas: tuple[int, ...] | None = None  # recorded
    tenpai: tuple[bool, ...] | None = None  # recorded, for an exhaustive draw
    hands: tuple[Tiles | None, ...] | None = None  # hands shown at the draw, where recorded
    # Recorded beside the deltas, as for Win: honba and sticks on the table, scores before and after.
    honba: int | None = field(default=None, compare=False)
    sticks: int | None = field(default=None, compare=False)
    scores_before: tuple[int, ...] | None = field(default=None, compare=False)
    scores_after: tuple[int, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class EndRound:
    pass


@dataclass(frozen=True, slots=True)
class EndGame:
    scores: tuple[int, ...] | None = None  # recorded final scores in points (sticks settled)
    points: tuple[float, ...] | None = None  # recorded final result after uma/oka, where given


Event = (
    StartGame
    | StartRound
    | Draw
    | Discard
    | Riichi
    | RiichiAccepted
    | Chi
    | Pon
    | OpenKan
    | ClosedKan
    | AddedKan
    | Nukidora
    | NewDora
    | Win
    | RoundDraw
    | EndRound
    | EndGame
)
