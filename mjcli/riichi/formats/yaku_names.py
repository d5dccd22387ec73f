"""Yaku names of every log format, mapped to the canonical ids of :mod:`mjcli.riichi.engine.events`.

Canonical ids are the attribute names of the ``mahjong`` library's ``YakuConfig`` ("riichi",
"seat_wind_east", "aka_dora", ...). Tenhou numbers its yaku 0..54 (mjlog ``yaku``/``yakuman``
attributes); the tenhou.net/6 JSON writes the same yaku by Japanese name; the classic mjai
dialect (gimite/mjai, akochan) uses romaji names derived from Tenhou's ids, but loses which wind or
dragon a yakuhai was, so those need the hand to be resolved (see :func:`mjai_yaku_to_canonical`).
"""

from __future__ import annotations

from mjcli.errors import UnsupportedError

#: Tenhou yaku id -> canonical id (index = Tenhou id).
TENHOU_YAKU: tuple[str, ...] = (
    "tsumo",  # 0 門前清自摸和
    "riichi",  # 1
    "ippatsu",  # 2
    "chankan",  # 3
    "rinshan",  # 4
    "haitei",  # 5
    "houtei",  # 6
    "pinfu",  # 7
    "tanyao",  # 8
    "iipeiko",  # 9
    "seat_wind_east",  # 10
    "seat_wind_south",  # 11
    "seat_wind_west",  # 12
    "seat_wind_north",  # 13
    "round_wind_east",  # 14
    "round_wind_south",  # 15
    "round_wind_west",  # 16
    "round_wind_north",  # 17
    "haku",  # 18
    "hatsu",  # 19
    "chun",  # 20
    "daburu_riichi",  # 21
    "chiitoitsu",  # 22
    "chantai",  # 23
    "ittsu",  # 24
    "sanshoku",  # 25
    "sanshoku_douko",  # 26
    "sankantsu",  # 27
    "toitoi",  # 28
    "sanankou",  # 29
    "shosangen",  # 30
    "honroto",  # 31
    "ryanpeiko",  # 32
    "junchan",  # 33
    "honitsu",  # 34
    "chinitsu",  # 35
    "renhou",  # 36
    "tenhou",  # 37
    "chiihou",  # 38
    "daisangen",  # 39
    "suuankou",  # 40
    "suuankou_tanki",  # 41
    "tsuisou",  # 42
    "ryuisou",  # 43
    "chinroto",  # 44
    "chuuren_poutou",  # 45
    "daburu_chuuren_poutou",  # 46 純正九蓮宝燈
    "kokushi",  # 47
    "daburu_kokushi",  # 48 国士無双13面
    "daisuushi",  # 49
    "shosuushi",  # 50
    "suukantsu",  # 51
    "dora",  # 52
    "ura_dora",  # 53
    "aka_dora",  # 54
)
TENHOU_ID: dict[str, int] = {name: i for i, name in enumerate(TENHOU_YAKU)}

#: Tenhou's Japanese names as written in tenhou.net/6 JSON (index = Tenhou id).
JAPANESE: tuple[str, ...] = (
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
)

#: Spellings other tools write into tenhou.net/6 JSON (Mahjong Soul converters, English clients).
#: Keys are compared after removing spaces, ':' and '・' and lower-casing.
_ALIASES: dict[str, str] = {
    "ダブル立直": "daburu_riichi",
    "ダブルリーチ": "daburu_riichi",
    "リーチ": "riichi",
    "海底撈月": "haitei",
    "国士無双13面": "daburu_kokushi",
    "国士無双十三面": "daburu_kokushi",
    "役牌白": "haku",
    "役牌發": "hatsu",
    "役牌発": "hatsu",
    "役牌中": "chun",
    "白": "haku",
    "發": "hatsu",
    "中": "chun",
    "流し満貫": "nagashi_mangan",
    # Mahjong Soul's Japanese names (tensoul and similar converters)
    "国士無双十三面待ち": "daburu_kokushi",
    "人和": "renhou",
    "八連荘": "paarenchan",
    # three-player Norths set aside: Tenhou counts them inside ドラ, and so do canonical events
    "抜きドラ": "dora",
    "北抜き": "dora",
    # English (Tenhou's English client and the mahjong library's names)
    "riichi": "riichi",
    "doubleriichi": "daburu_riichi",
    "ippatsu": "ippatsu",
    "menzentsumo": "tsumo",
    "fullyconcealedhand": "tsumo",
    "tsumo": "tsumo",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "allsimples": "tanyao",
    "iipeiko": "iipeiko",
    "iipeikou": "iipeiko",
    "pureDoubleSequence".lower(): "iipeiko",
    "chankan": "chankan",
    "robbingakan": "chankan",
    "rinshankaihou": "rinshan",
    "rinshan": "rinshan",
    "afterakan": "rinshan",
    "haiteiraoyue": "haitei",
    "haitei": "haitei",
    "underthesea": "haitei",
    "houteiraoyui": "houtei",
    "houtei": "houtei",
    "undertheriver": "houtei",
    "yakuhai(haku)": "haku",
    "yakuhai(hatsu)": "hatsu",
    "yakuhai(chun)": "chun",
    "whitedragon": "haku",
    "greendragon": "hatsu",
    "reddragon": "chun",
    "chiitoitsu": "chiitoitsu",
    "sevenpairs": "chiitoitsu",
    "chanta": "chantai",
    "chantai": "chantai",
    "ittsu": "ittsu",
    "ikkitsuukan": "ittsu",
    "purestraight": "ittsu",
    "sanshoku": "sanshoku",
    "sanshokudoujun": "sanshoku",
    "mixedtriplesequence": "sanshoku",
    "sanshokudoukou": "sanshoku_douko",
    "tripletriplets": "sanshoku_douko",
    "sankantsu": "sankantsu",
    "threequads": "sankantsu",
    "toitoi": "toitoi",
    "alltriplets": "toitoi",
    "sanankou": "sanankou",
    "threeconcealedtriplets": "sanankou",
    "shousangen": "shosangen",
    "shosangen": "shosangen",
    "littlethreedragons": "shosangen",
    "honroutou": "honroto",
    "honroto": "honroto",
    "allterminalsandhonors": "honroto",
    "ryanpeikou": "ryanpeiko",
    "ryanpeiko": "ryanpeiko",
    "twicepuredoublesequence": "ryanpeiko",
    "junchan": "junchan",
    "honitsu": "honitsu",
    "halfflush": "honitsu",
    "chinitsu": "chinitsu",
    "fullflush": "chinitsu",
    "renhou": "renhou",
    "tenhou": "tenhou",
    "blessingofheaven": "tenhou",
    "chiihou": "chiihou",
    "blessingofearth": "chiihou",
    "daisangen": "daisangen",
    "bigthreedragons": "daisangen",
    "suuankou": "suuankou",
    "fourconcealedtriplets": "suuankou",
    "suuankoutanki": "suuankou_tanki",
    "tsuuiisou": "tsuisou",
    "allhonors": "tsuisou",
    "ryuuiisou": "ryuisou",
    "allgreen": "ryuisou",
    "chinroutou": "chinroto",
    "allterminals": "chinroto",
    "chuurenpoutou": "chuuren_poutou",
    "ninegates": "chuuren_poutou",
    "junseichuurenpoutou": "daburu_chuuren_poutou",
    "truenine gates".replace(" ", ""): "daburu_chuuren_poutou",
    "kokushimusou": "kokushi",
    "thirteenorphans": "kokushi",
    "kokushimusou13-sidewait": "daburu_kokushi",
    "kokushimusoujuusanmenmatchi": "daburu_kokushi",
    "daisuushii": "daisuushi",
    "daisuushi": "daisuushi",
    "bigfourwinds": "daisuushi",
    "shousuushii": "shosuushi",
    "shosuushi": "shosuushi",
    "littlefourwinds": "shosuushi",
    "suukantsu": "suukantsu",
    "fourquads": "suukantsu",
    "dora": "dora",
    "uradora": "ura_dora",
    "akadora": "aka_dora",
    "reddora": "aka_dora",
    "redfive": "aka_dora",
    # Mahjong Soul's English names as tensoul writes them (its data.json, fan name_en), where they
    # differ from the above (a 2026-12 hunt found English tensoul logs failing on them)
    "halfoutsidehand": "chantai",
    "fullyoutsidehand": "junchan",
    "kita": "dora",  # a North set aside, counted in ドラ as Tenhou does (抜きドラ above)
    "fourlittlewinds": "shosuushi",
    "fourbigwinds": "daisuushi",
    "eight-timeeaststaying": "paarenchan",
    "single-waitfourconcealedtriplets": "suuankou_tanki",
    "thirteen-waitthirteenorphans": "daburu_kokushi",
}

#: Names for a yakuhai that do not say which tile (the reader resolves them from the seat/round).
_CONTEXT_ALIASES = {
    "役牌自風牌": "seat_wind",
    "自風牌": "seat_wind",
    "役牌場風牌": "round_wind",
    "場風牌": "round_wind",
    "seatwind": "seat_wind",  # tensoul's English names of the two
    "prevalentwind": "round_wind",
}
_WIND_SUFFIX = ("east", "south", "west", "north")


def _norm(name: str) -> str:
    return "".join(name.split()).replace(":", "").replace("：", "").replace("・", "").lower()


#: yaku of the open-riichi house rule (Tenhou has none): canonical id -> the usual Japanese name
HOUSE_RULE_JAPANESE: dict[str, str] = {
    "open_riichi": "オープン立直",
    "daburu_open_riichi": "ダブルオープン立直",
    "sashikomi": "オープン立直放銃",
}


_LOOKUP: dict[str, str] = {_norm(jp): TENHOU_YAKU[i] for i, jp in enumerate(JAPANESE)}
_LOOKUP.update({_norm(k): v for k, v in _ALIASES.items()})
_LOOKUP.update({k: k for k in TENHOU_YAKU})  # canonical ids themselves are accepted
_LOOKUP.update({_norm(jp): k for k, jp in HOUSE_RULE_JAPANESE.items()})
_LOOKUP.update({k: k for k in HOUSE_RULE_JAPANESE})


def tenhou_id_to_canonical(yaku_id: int) -> str:
    if not 0 <= yaku_id < len(TENHOU_YAKU):
        raise UnsupportedError(f"unknown Tenhou yaku id {yaku_id}")
    return TENHOU_YAKU[yaku_id]


def name_to_canonical(name: str, seat_wind: int | None = None, round_wind: int | None = None) -> str:
    """A yaku name from a tenhou.net/6 result (Japanese, English or canonical) as a canonical id.

    ``seat_wind``/``round_wind`` (0..3) resolve names that do not say which wind ("役牌:自風牌").
    """
    key = _norm(name)
    found = _LOOKUP.get(key)
    if found is not None:
        return found
    ctx = _CONTEXT_ALIASES.get(key)
    if ctx == "seat_wind" and seat_wind is not None:
        return f"seat_wind_{_WIND_SUFFIX[seat_wind]}"
    if ctx == "round_wind" and round_wind is not None:
        return f"round_wind_{_WIND_SUFFIX[round_wind]}"
    raise UnsupportedError(f"unknown yaku name '{name}'")


def canonical_to_japanese(yaku: str) -> str:
    """Tenhou's Japanese name, for the tenhou.net/6 writer."""
    if yaku == "nagashi_mangan":
        return "流し満貫"
    if yaku in HOUSE_RULE_JAPANESE:
        return HOUSE_RULE_JAPANESE[yaku]
    try:
        return JAPANESE[TENHOU_ID[yaku]]
    except KeyError:
        raise UnsupportedError(f"yaku '{yaku}' has no Tenhou name") from None


# ---------------------------------------------------------------- classic mjai (gimite/mjai, akochan)

#: mjai name per Tenhou id; winds and dragons collapse to one name each.
_MJAI_BY_ID: tuple[str, ...] = (
    ("menzenchin_tsumoho", "reach", "ippatsu", "chankan", "rinshankaiho", "haiteiraoyue", "hoteiraoyui")
    + ("pinfu", "tanyaochu", "ipeko")
    + ("jikaze",) * 4
    + ("bakaze",) * 4
    + ("sangenpai",) * 3
    + ("double_reach", "chitoitsu", "honchantaiyao", "ikkitsukan", "sanshokudojun", "sanshokudoko")
    + ("sankantsu", "toitoiho", "sananko", "shosangen", "honroto", "ryanpeko", "junchantaiyao")
    + ("honiso", "chiniso", "renho", "tenho", "chiho", "daisangen", "suanko", "suanko", "tsuiso")
    + ("ryuiso", "chinroto", "churenpoton", "churenpoton", "kokushimuso", "kokushimuso")
    + ("daisushi", "shosushi", "sukantsu", "dora", "uradora", "akadora")
)
_MJAI_TO_CANONICAL: dict[str, str] = {}
for _i, _n in enumerate(_MJAI_BY_ID):
    _MJAI_TO_CANONICAL.setdefault(_n, TENHOU_YAKU[_i])


def mjai_yaku_to_canonical(
    name: str, seat_wind: int, round_wind: int, dragon_sets: list[int], used: set[str]
) -> str:
    """A classic mjai yaku name as a canonical id.

    ``jikaze``/``bakaze`` take the winner's seat wind / the round wind; each ``sangenpai`` takes the
    next dragon (31 White, 32 Green, 33 Red) of which the hand holds a set, in that order, skipping
    those already ``used``. Canonical ids are accepted as they are (our own writer may emit them).
    """
    if name == "jikaze":
        return f"seat_wind_{_WIND_SUFFIX[seat_wind]}"
    if name == "bakaze":
        return f"round_wind_{_WIND_SUFFIX[round_wind]}"
    if name == "sangenpai":
        for kind_, yaku in zip((31, 32, 33), ("haku", "hatsu", "chun"), strict=True):
            if kind_ in dragon_sets and yaku not in used:
                return yaku
        raise UnsupportedError("mjai yaku 'sangenpai' without a dragon set in the hand")
    if name in _MJAI_TO_CANONICAL:
        return _MJAI_TO_CANONICAL[name]
    if name in TENHOU_ID or name == "nagashi_mangan" or name in HOUSE_RULE_JAPANESE:
        return name
    raise UnsupportedError(f"unknown mjai yaku name '{name}'")


def is_yakuman(yaku: str) -> bool:
    if yaku == "sashikomi":
        return True
    i = TENHOU_ID.get(yaku)
    return i is not None and 37 <= i <= 51
