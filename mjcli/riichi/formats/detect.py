"""Which format a log is, from its content (never from its file name)."""

from __future__ import annotations

import json

from mjcli.errors import LogFormatError
from mjcli.riichi.formats.gamelog import MJAI, TENHOU6, TENHOU_XML, maybe_gunzip


def detect_format(data: bytes, name: str = "<log>") -> str:
    """``tenhou_xml`` (``<mjloggm``, plain or gzip), ``tenhou6`` (a JSON object with ``log``, or one
    such object per line) or ``mjai`` (JSON lines with ``type``). Raises LogFormatError otherwise."""
    data = maybe_gunzip(data, name)
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise LogFormatError(f"{name}: the file is empty")
    if head.startswith(b"<"):
        if b"<mjloggm" in head:
            return TENHOU_XML
        raise LogFormatError(f"{name}: XML that is not a Tenhou mjlog (no <mjloggm> tag)")
    if head[:1] in (b"{", b"["):
        first_line = data.lstrip().split(b"\n", 1)[0]
        try:
            obj = json.loads(first_line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            obj = None
        lines = obj is not None  # one JSON value per line: mjai's events are, one per line
        if obj is None:
            # a pretty-printed (multi-line) JSON document
            try:
                obj = json.loads(data)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise LogFormatError(f"{name}: not valid JSON ({exc})") from None
        if isinstance(obj, list) and obj and isinstance(obj[0], dict):
            obj, lines = obj[0], True  # an array of events (the mjai reader takes them so too)
        if isinstance(obj, dict):
            if "log" in obj:
                if _is_majiang(obj):
                    raise LogFormatError(
                        f"{name}: a kobalab Majiang (電脳麻将) paipu, not a format mjcli reads "
                        "(Tenhou mjlog XML, tenhou.net/6 JSON, mjai JSON lines)"
                    )
                return TENHOU6
            # an mjai event names its type in text; other JSON with a "type" key (a number in
            # some Tenhou-log converters' own formats) is not mjai
            if lines and isinstance(obj.get("type"), str):
                return MJAI
        other = _other_game(obj)
        if other is not None:
            raise LogFormatError(f"{name}: {other}, not a riichi log")
        typed = isinstance(obj, dict) and "type" in obj
        why = "no event 'type' as text, one per line" if typed else "no 'type'"
        raise LogFormatError(f"{name}: JSON that is neither tenhou.net/6 (no 'log') nor mjai ({why})")
    raise LogFormatError(f"{name}: not a game log (neither mjlog XML, tenhou.net/6 JSON nor mjai JSON lines)")


def _is_majiang(obj: dict) -> bool:
    """kobalab's Majiang paipu (its converters write Tenhou games so too): a ``log`` whose rounds are
    lists of one-key objects starting with ``qipai``, where tenhou.net/6's rounds are arrays."""
    log = obj.get("log")
    first = log[0] if isinstance(log, list) and log else None
    return isinstance(first, list) and bool(first) and isinstance(first[0], dict) and "qipai" in first[0]


def _other_game(obj: object) -> str | None:
    """What another game's file that mjcli writes is, by the marks its writer puts in it (read as
    text: the riichi readers know no other game's code): a Hong Kong or Red game log
    (``"format": "mjcli-hk-log"``, its ``game``) or a Dou Dizhu game record (a deal of ``hands``
    with a ``kitty``), with what reads it."""
    if not isinstance(obj, dict):
        return None
    if obj.get("format") == "mjcli-hk-log":
        game = obj.get("game") if obj.get("game") in ("hk", "red") else "hk"
        return f"a {'Red' if game == 'red' else 'Hong Kong'} mahjong game log (give --game {game})"
    if "kitty" in obj and "hands" in obj:
        return "a Dou Dizhu game record (`mjcli replay --game doudizhu` reads it)"
    return None
