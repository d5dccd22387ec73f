"""Rule sets as data, with named presets.

A :class:`Rules` value is plain data shared by scoring and the game engine. Variants are made with
``dataclasses.replace(base, field=value)`` (or :func:`variant`) rather than by copying a preset, so a
new rule set states only what differs from the one it is based on.

The ``tenhou`` preset follows Tenhou.net's ranked four-player rules (red fives on, open tanyao on):
what each field is set to and why is noted beside it. Facts checked against the translation of
Tenhou's rules (arcturus.su/mjw "Tenhou.net rules") and the project's recorded Tenhou logs.

``players`` picks the :class:`~mjcli.riichi.variant.Variant` the engine plays (``rules.variant``):
four-player, or three-player (sanma). The ``tenhou-sanma`` preset is Tenhou's three-player lobby,
each value checked against real Tenhou sanma logs (``fixtures/sanma/README.md``): 35000 to start,
40000 to return, uma +20/0/-20 (the oka, 3 x 5000, to first place), 200 per honba on a ron and 100
from each payer on a tsumo, 2000 in all for noten payments, and tsumo-son: on a tsumo the absent
North seat's share is simply not paid. ``sanma-split`` is the same table with that share split
between the two payers (北家折半), as many clubs play.

``site`` says whose rules a set is ("tenhou", "majsoul"): :func:`for_players` keeps to that site
when a log has another number of players, and a log that names the site it was played on (a Mahjong
Soul room in a tenhou.net/6 ``rule.disp``) is played under that site's preset unless ``--rules``
forces another (:func:`site_preset`). The ``majsoul`` and ``majsoul-sanma`` presets are Mahjong
Soul's ranked rooms; what each value is and which source decided it is noted beside the preset.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from mjcli.errors import UsageError
from mjcli.riichi.variant import Variant, variant_for

if TYPE_CHECKING:  # the library is imported where it scores: the rules are read by quick commands too
    from mahjong.hand_calculating.hand_config import OptionalRules


@dataclass(frozen=True)
class Rules:
    """One rule set. Defaults are Tenhou's four-player ranked rules."""

    name: str
    players: int = 4
    # Whose rules these are ("tenhou", "majsoul"): the preset for another number of players and the
    # one a log naming its site is played under come from the same site.
    site: str = "tenhou"
    # Tables: one red five per suit (ids 16/52/88), counted as aka dora.
    red_fives: bool = True
    # Kuitan: tanyao also counts on an open hand.
    open_tanyao: bool = True
    # "hanchan" (East + South) or "tonpuu" (East only).
    length: str = "hanchan"
    start_points: int = 25000
    # Points needed back at the end (the difference, times players, is the oka for first place).
    return_points: int = 30000
    # Points first place needs for the game to end after the last round (the extension goes on
    # until someone has them); None: the return points (Tenhou). Mahjong Soul has no oka (return =
    # start) but still asks 30000 (40000 in three-player) to end.
    goal_points: int | None = None
    # Uma per rank, in thousands (Tenhou: +20/+10/-10/-20).
    uma: tuple[int, ...] = (20, 10, -10, -20)
    # How (score - return points) becomes final points: "decimal" (thousands with one decimal, no
    # rounding: Tenhou today, seen from 2022-01-31 on) or "score-5-up" (the score rounded to whole
    # thousands, a hundreds digit of 5 away from zero: Tenhou from 2008-12 until at least 2020-08-12).
    # The other places are rounded and first place takes the rest. See mjcli.riichi.engine.eras for
    # the evidence and how a log's date picks one (settlement.ROUNDINGS has the others).
    points_rounding: str = "decimal"
    # Two players may win on one discard (honba and sticks go to the first after the discarder).
    double_ron: bool = True
    # Three players calling ron on one discard abort the round (sanchahou) instead of all winning.
    triple_ron_abort: bool = True
    # A player below zero points ends the game (Tenhou: exactly 0 does not end it).
    bust_ends: bool = True
    # Round 4 han 30 fu and 3 han 60 fu up to mangan (Tenhou: no).
    kiriage: bool = False
    # Count suuankou tanki, 13-sided kokushi, junsei chuuren and daisuushii as double yakuman.
    # Tenhou: no, each is a single yakuman; different yakuman in one hand still add up.
    double_yakuman: bool = False
    # 13 han or more of ordinary yaku and dora is a yakuman (else it stops at sanbaiman).
    kazoe_yakuman: bool = True
    # All-terminal-and-honour discards, none called, pay as a mangan tsumo at an exhaustive draw.
    nagashi_mangan: bool = True
    # Renhou (ron before one's first draw) as a yaku: Tenhou has none.
    renhou: bool = False
    # Abortive draws: nine terminals, four winds, four riichi, four kans by several players.
    abortive_draws: bool = True
    # Thirteen orphans may rob a closed kan (ron on an ankan's tile). Tenhou: no (RiichiEnv's
    # docs/RULES.md, `allows_ron_on_ankan_for_kokushi_musou` false in `default_tenhou()`;
    # riichi.wiki "Chankan", a Tenhou game captioned "Kokushi Denied"; Mortal's libriichi offers no
    # ron there); Mahjong Soul: yes ([E] below: true in `default_mjsoul()`). An added kan may be
    # robbed by any hand with a yaku under both.
    kokushi_robs_closed_kan: bool = False
    # Responsibility payment (pao) for daisangen and daisuushii.
    pao: bool = True
    # What the liable seat answers for: the whole hand, other yakuman in it included (Tenhou's
    # manual: "複合役満を含む得点を、ツモ＝全額・ロン＝折半で支払う。積み棒は包。"), or only the liable
    # yakuman, the rest paid as usual (Mahjong Soul).
    pao_whole_hand: bool = True
    # Game extends into the next wind while nobody has return_points (Tenhou: yes, one wind at most).
    sudden_death: bool = True
    # The dealer winning in first place at the last round stops the game (agari-yame).
    agariyame: bool = True
    # The dealer tenpai in first place at the last round's exhaustive draw stops it too (tenpai-yame;
    # only where agari-yame is played). Tenhou: yes today (its manual), no in February 2009;
    # mjcli.riichi.engine.eras says which Tenhou games are known to be played without it.
    tenpaiyame: bool = True
    # Points per honba on a ron (Tenhou: 300; three-player 200).
    honba_points: int = 300
    # Points per honba paid by each payer of a tsumo (Tenhou: 100, in three-player too).
    honba_tsumo_points: int = 100
    # What the noten players pay in all at an exhaustive draw (Tenhou: 3000; three-player 2000).
    noten_payment: int = 3000
    # Three-player tsumo: the absent North seat's share is "lost" (tsumo-son, Tenhou) or "split":
    # each payer adds half North's four-player payment (mjcli.riichi.scoring.absent_half).
    absent_share: str = "lost"
    # A riichi costs one 1000-point stick; a player needs at least this many points to declare it.
    riichi_stick: int = 1000
    # Riichi sticks still on the table at the end go to the player in first place.
    leftover_sticks_to_first: bool = True
    # Open riichi, a house rule (Tenhou, WRC and EMA have none): the riichi of a seat playing with
    # its hand shown (seed 001's table: "패를 모두 공개한 채로", "항상 오픈 리치로 간주한다") is an open
    # riichi, its waits visible to all. The values chosen, the common ones:
    # * 2 han (riichi 1 + open 1): seed 001's own arithmetic "오픈리치멘젠쯔모 3판" (open riichi and
    #   menzen tsumo, 3 han); riichi.wiki "Riichi" § Open riichi ("worth 1 extra han"); ja.wikipedia
    #   "開立直" ("二飜"); the ``mahjong`` library's ``OpenRiichi`` (han 2, replaces ``Riichi``).
    # * double riichi + open: 3 han (ja.wikipedia: "「オープン」+「ダブル」+「リーチ」の三飜とするルールと
    #   ... 四飜とするルールがあるが、一般的には前者が多い"; the library's ``DaburuOpenRiichi``, han 3).
    # * a ron on it paid by a player not in riichi is a yakuman (ja.wikipedia: "立直をしていない者が
    #   オープンリーチに振り込んだ場合は、「役満払い」とするルールが多い"; riichi.wiki, as a further
    #   option; kinmaweb.jp "オープンリーチ": the most common of three rulings; the library's
    #   ``Sashikomi``). A player already in riichi (its stick paid) pays the hand's normal value; one
    #   whose riichi is declared with the very tile is not yet in riichi. A tsumo scores normally.
    # Not taken: the stricter ja.wikipedia variant (only a riichi made before the open riichi pays
    # normally), the 4-han double open riichi, the extra 1,000-point deposit some houses ask for.
    open_riichi: bool = False

    def __post_init__(self) -> None:
        try:
            variant_for(self.players)
        except ValueError as exc:
            raise UsageError(f"rule set '{self.name}': {exc}") from None
        if len(self.uma) != self.players:
            raise UsageError(f"rule set '{self.name}': uma {self.uma} does not name {self.players} places")
        if self.site not in SITES:
            raise UsageError(f"rule set '{self.name}': site '{self.site}' (known: {', '.join(SITES)})")
        if self.absent_share not in ABSENT_SHARES:
            known = ", ".join(ABSENT_SHARES)
            raise UsageError(f"rule set '{self.name}': absent_share '{self.absent_share}' (known: {known})")

    def __hash__(self) -> int:
        # The name only: equal rule sets have equal names, so the hash stays a hash of the value,
        # and two sets sharing a name are told apart by ``==``. Every scored win hashes its rules
        # (the library configuration's cache key, ScoreCache keys); the dataclass's hash of all ~30
        # fields cost ~2 us of it (bench_speed: "score one win, engine path").
        return hash(self.name)

    @property
    def goal(self) -> int:
        """The score first place needs for the game to end after the last round."""
        return self.return_points if self.goal_points is None else self.goal_points

    @property
    def variant(self) -> Variant:
        """The game these rules are played on (four- or three-player)."""
        return variant_for(self.players)

    def hand_options(self, sashikomi: bool = False) -> OptionalRules:
        """The ``mahjong`` library's options for these rules (cached: one object per rule set).

        ``sashikomi``: the win is a ron on an open riichi paid by a player not in riichi, which the
        library scores as a yakuman (it cannot tell who dealt in, so it is asked per win).
        """
        return _hand_options(self, sashikomi)


#: what happens to the absent seat's share of a three-player tsumo
ABSENT_SHARES = ("lost", "split")
#: whose rules a rule set follows (``Rules.site``)
SITES = ("tenhou", "majsoul")


@lru_cache(maxsize=64)
def _hand_options(rules: Rules, sashikomi: bool) -> OptionalRules:
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_sashikomi_yakuman=sashikomi,
        has_open_tanyao=rules.open_tanyao,
        has_aka_dora=rules.red_fives,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=HandConstants.KAZOE_LIMITED if rules.kazoe_yakuman else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules.kiriage,
        # An open hand with no fu won by ron is 30 fu, and pinfu tsumo is 20 fu: the standard rule.
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=False,
        is_three_player=rules.players == 3,
    )


#: the policies whose seats play with their hand shown at a simulated table unless told otherwise:
#: seed 001's table rule for its NPC, "패를 모두 공개한 채로 게임을 진행한다" (the game is played with
#: its tiles all shown). A table fact, not a rule of scoring: logs record the seats
#: (``GameRules.hands_shown``).
DEFAULT_HANDS_SHOWN = ("akagi",)

TENHOU = Rules(name="tenhou")
# Tenhou's three-player lobby (三麻); see the module docstring.
TENHOU_SANMA = dataclasses.replace(
    TENHOU,
    name="tenhou-sanma",
    players=3,
    start_points=35000,
    return_points=40000,
    uma=(20, 0, -20),
    honba_points=200,
    noten_payment=2000,
)

# Mahjong Soul (雀魂) ranked rooms, four-player. Sources, each named where it decides a value:
# [W] riichi.wiki "Majsoul", rev. 20005 (2019-07-22) § Calculations and rev. 26381 (2024-11-07)
#     § Ladder: "EndScore = (MatchResult - StartingPts) / 1000 + UmaPts", uma 4P +15/+5/-5/-15 and
#     3P +15/±0/-15, starting points 4P 25000 and 3P 35000 (rank points come on top of the end
#     score; they are the ladder's, not the game's);
# [R] riichi.wiki "Majsoul" rev. 19575/19582 (2019-04) § Rules: bankruptcy below zero (not at
#     zero), pao for yakuman, multiple rons, triple ron (sanchahou) not an abortive draw, 3 red fives;
# [S] riichi.wiki "Majsoul" rev. 19195 § 3P-Mahjong: "Most of the rules are identical to Tenhou
#     Sanma", tsumo-loss by default (north-bisection an option), a North may be robbed by any hand
#     with a yaku (no chankan), a North triplet is a guest wind;
# [E] RiichiEnv (smly/RiichiEnv, Apache-2.0) docs/RULES.md `default_mjsoul()`: the double yakuman
#     patterns (suuankou tanki, 13-sided kokushi, junsei chuuren, daisuushii), pao limited to the
#     liable yakuman, triple ron scored; riichienv-core state_3p `_initialize_next_round`: in
#     three-player the game ends at 40000 (agari-yame of a top dealer at 40000 or more, one wind
#     of extension);
# [G] a Steam guide to Mahjong Soul's ranked rules (steamcommunity.com app 2739990, discussion
#     4521136490640935003): agari-yame in all-last, extension while nobody has 30000, forced end
#     after West 4;
# [L] the Mahjong Soul three-player logs of hidacow/mjai-reviewer3p (tensoul's tenhou.net/6): the
#     converter's ``sc`` is Mahjong Soul's ``total_point / 1000`` (Equim-chan/tensoul convert.js),
#     and every one of them is (score - 35000) / 1000 + 15/0/-15 to one decimal, unrounded
#     (59000 -> 39.0, 25800 -> -9.2, 20200 -> -29.8); 200 per honba on a ron (3900 + 200 = 4100) and
#     tsumo-son (2000-3900 paid as -3900/-2000).
MAJSOUL = dataclasses.replace(
    TENHOU,
    name="majsoul",
    site="majsoul",
    # [W]: the end score is counted from the start, so no oka; [G]: 30000 to end the game
    return_points=25000,
    goal_points=30000,
    uma=(15, 5, -5, -15),  # [W]
    points_rounding="decimal",  # [W]/[L]: the end score is not rounded (the ladder's rank points are)
    double_yakuman=True,  # [E]
    pao_whole_hand=False,  # [E] (and the comment on ``pao_whole_hand``)
    triple_ron_abort=False,  # [R], [E]
    kokushi_robs_closed_kan=True,  # [E]
)
# Mahjong Soul's three-player ranked rooms: Tenhou's three-player table [S] with Mahjong Soul's end
# score and yakuman rules. 35000 start [W], no oka, 40000 to end [E], uma +15/0/-15 [W]/[L],
# tsumo-son [S]/[L], 200 per honba on a ron and 2000 noten payments as Tenhou's [S]/[L].
MAJSOUL_SANMA = dataclasses.replace(
    TENHOU_SANMA,
    name="majsoul-sanma",
    site="majsoul",
    return_points=35000,
    goal_points=40000,
    uma=(15, 0, -15),
    points_rounding="decimal",
    double_yakuman=True,
    pao_whole_hand=False,
    triple_ron_abort=False,
    kokushi_robs_closed_kan=True,
)

PRESETS: dict[str, Rules] = {
    "tenhou": TENHOU,
    # Tenhou's East-only game, same rules otherwise.
    "tenhou-tonpuu": dataclasses.replace(TENHOU, name="tenhou-tonpuu", length="tonpuu"),
    # Tenhou lobbies without red fives ("nashi") and without open tanyao (GO type bits 0x02, 0x04).
    "tenhou-nored": dataclasses.replace(TENHOU, name="tenhou-nored", red_fives=False),
    "tenhou-nokuitan": dataclasses.replace(TENHOU, name="tenhou-nokuitan", open_tanyao=False),
    # Tenhou before its final points went to one decimal (from 2008-12 until at least 2020-08).
    "tenhou-integer": dataclasses.replace(TENHOU, name="tenhou-integer", points_rounding="score-5-up"),
    "tenhou-sanma": TENHOU_SANMA,
    "tenhou-sanma-tonpuu": dataclasses.replace(TENHOU_SANMA, name="tenhou-sanma-tonpuu", length="tonpuu"),
    "sanma-split": dataclasses.replace(TENHOU_SANMA, name="sanma-split", absent_share="split"),
    "majsoul": MAJSOUL,
    "majsoul-tonpuu": dataclasses.replace(MAJSOUL, name="majsoul-tonpuu", length="tonpuu"),
    "majsoul-sanma": MAJSOUL_SANMA,
    "majsoul-sanma-tonpuu": dataclasses.replace(MAJSOUL_SANMA, name="majsoul-sanma-tonpuu", length="tonpuu"),
}

#: each site's preset by number of players (what a log of that site and size is played under)
_SITE_PRESETS: dict[tuple[str, int], Rules] = {
    ("tenhou", 4): TENHOU,
    ("tenhou", 3): TENHOU_SANMA,
    ("majsoul", 4): MAJSOUL,
    ("majsoul", 3): MAJSOUL_SANMA,
}


def get_rules(name: str) -> Rules:
    """A preset by name; :class:`UsageError` naming the unknown preset and the known ones."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise UsageError(f"unknown rule set '{name}' (known: {known})") from None


def for_players(rules: Rules, players: int) -> Rules:
    """``rules`` for a game of ``players`` players: the same rules when they fit, else the preset of
    the same site for that many players with ``rules``' red fives, open tanyao, length and open riichi (what a
    log's own rules ask for: a three-player log read with the default ``tenhou`` rules is played as
    ``tenhou-sanma``)."""
    if rules.players == players:
        return rules
    base = site_preset(rules.site, players)
    return dataclasses.replace(
        base,
        red_fives=rules.red_fives,
        open_tanyao=rules.open_tanyao,
        length=rules.length,
        open_riichi=rules.open_riichi,
    )


def site_preset(site: str, players: int) -> Rules:
    """The preset of ``site`` ("tenhou", "majsoul") for a game of ``players`` players."""
    if players not in (3, 4):
        raise UsageError(f"riichi is played by three or four players, not {players}")
    try:
        return _SITE_PRESETS[(site, players)]
    except KeyError:
        raise UsageError(f"unknown rule site '{site}' (known: {', '.join(SITES)})") from None


def preset_name(rules: Rules) -> str | None:
    """The name of the preset ``rules`` equal in every field but their name, or None."""
    for name, preset in PRESETS.items():
        if dataclasses.replace(rules, name=name) == preset:
            return name
    return None


def rules_label(rules: Rules) -> str:
    """The name a summary gives ``rules``: the preset they equal (whatever name they carry: a log's
    own length or red fives turn ``tenhou`` into ``tenhou-tonpuu``), else their name and what
    differs from the preset of that name."""
    name = preset_name(rules)
    if name is not None:
        return name
    base = PRESETS.get(rules.name) or site_preset(rules.site, rules.players)
    diff = [
        f"{f.name}={getattr(rules, f.name)}"
        for f in dataclasses.fields(Rules)
        if f.name != "name" and getattr(rules, f.name) != getattr(base, f.name)
    ]
    return f"{rules.name} ({', '.join(diff)})" if diff else rules.name


def variant(base: Rules, name: str | None = None, **changes: object) -> Rules:
    """A rule set that differs from ``base`` only in ``changes`` (unknown fields are a UsageError)."""
    fields = {f.name for f in dataclasses.fields(Rules)}
    unknown = sorted(set(changes) - fields)
    if unknown:
        raise UsageError(f"unknown rule field(s) {', '.join(unknown)} for rule set '{base.name}'")
    return dataclasses.replace(base, name=name or f"{base.name}+custom", **changes)  # type: ignore[arg-type]
