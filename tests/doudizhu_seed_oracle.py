"""A literal Python port of seed 002's JavaScript planner, used only as a test oracle.

Line by line as the article prints it: card objects, ``MChouPai``, ``SerCh``, ``ZhanPai``, the
``GetAllSun`` family with all its repeated paths, and ``GetTaMax`` with its quirks (the trio ``if``
without ``else``; ``len = 12`` assignments that also mutate shared step objects). It enumerates
every path the seed does, so it is slow on hands with many chains: tests use it on small hands
and compare :mod:`mjcli.doudizhu.planner` with it.

``GetSun1List`` and its siblings are not printed in the article; they use the same reconstruction
as the planner (every sub-chain, highest top first, shortest first).
"""

from __future__ import annotations


def px_fux(arr):
    return sorted(arr, key=lambda c: -c["num"])


def m_chou_pai(arr, cads):
    if not arr:
        return None
    if len(arr) > len(cads):
        return None
    less = list(cads)
    splt = []
    for a in arr:
        for k in range(len(less)):
            if a == less[k]["num"]:
                splt.append(less[k])
                del less[k]
                break
    if len(splt) != len(arr) or len(splt) + len(less) != len(cads):
        return None
    return {"Splt": splt, "Less": less}


def _sun_list(mx, mn, per, shortest):
    out = []
    for top in range(mx, mn + shortest - 2, -1):
        for bottom in range(top - shortest + 1, mn - 1, -1):
            out.append([n for n in range(top, bottom - 1, -1) for _ in range(per)])
    return out


def ser_ch(obj):
    if obj is None:
        return None
    n = len(obj)
    ars = px_fux(obj)
    huo = n > 1 and ars[0]["num"] == 17 and ars[1]["num"] == 16
    dan, dui, san, siz, sun, sun2, sun3 = [], [], [], [], [], [], []
    for c in ars:
        if not dan or c["num"] != dan[-1]:  # noqa: SIM102 - kept as the seed writes it
            if not (huo and c["key"] == 4):
                dan.append(c["num"])
    i = 0
    while i < n - 1:
        if ars[i]["num"] == ars[i + 1]["num"]:
            if not dui or ars[i]["num"] != dui[-1]:
                dui.append(ars[i]["num"])
            i += 1
        i += 1
    i = 0
    while i < n - 2:
        if ars[i]["num"] == ars[i + 1]["num"] == ars[i + 2]["num"]:
            if not san or ars[i]["num"] != san[-1]:
                san.append(ars[i]["num"])
            i += 2
        i += 1
    i = 0
    while i < n - 3:
        if ars[i]["num"] == ars[i + 1]["num"] == ars[i + 2]["num"] == ars[i + 3]["num"]:
            if not siz or ars[i]["num"] != siz[-1]:
                siz.append(ars[i]["num"])
            i += 3
        i += 1

    def runs(vals, low_break, min_len, per, out):
        i = 0
        while i < len(vals):
            if vals[i] > 14:
                i += 1
                continue
            if vals[i] < low_break:
                break
            for k in range(i, len(vals)):
                nn = k + 1
                if nn == len(vals) or vals[i] - vals[nn] != nn - i:
                    length = nn - i
                    if length >= min_len:
                        out.append(
                            {"Max": vals[i], "Min": vals[k], "val": _sun_list(vals[i], vals[k], per, min_len)}
                        )
                    i = k
                    break
            i += 1

    runs(dan, 7, 5, 1, sun)
    runs(dui, 5, 3, 2, sun2)
    runs(san, 4, 2, 3, sun3)
    return {
        "Huo": huo,
        "Dan": dan,
        "Dui": dui,
        "San": san,
        "Siz": siz,
        "Sun": sun,
        "Sun2": sun2,
        "Sun3": sun3,
    }


def _chou_chu(obj, key, typ):
    ts = ser_ch(obj["Less"])
    if not ts[key]:
        return None
    out = []
    for sun_obj in ts[key]:
        for val in sun_obj["val"]:
            n_obj = m_chou_pai(val, obj["Less"])
            if n_obj is not None:
                step = {
                    "data": n_obj["Splt"],
                    "type": typ,
                    "max": n_obj["Splt"][0]["num"],
                    "len": len(n_obj["Splt"]),
                }
                n_obj["Splt"] = obj["Splt"] + [step]
                out.append(n_obj)
    return out or None


def _get_all_less(obj, key, typ, min_cards):
    if len(obj["Less"]) < min_cards:
        return None
    arr = []
    n_obj = _chou_chu(obj, key, typ)
    if n_obj is not None:
        arr += n_obj
        for item in n_obj:
            lst = _get_all_less(item, key, typ, min_cards)
            if lst is not None:
                arr += lst
    return arr or None


def get_all_sun(obj):
    if len(obj["Less"]) < 5:
        return None
    arr = []
    for key, typ, min_cards in (("Sun", 8, 5), ("Sun2", 9, 6), ("Sun3", 10, 6)):
        d = _get_all_less(obj, key, typ, min_cards)
        if d is not None:
            arr += d
            for item in d:
                lst = get_all_sun(item)
                if lst is not None:
                    arr += lst
    return arr or None


def get_all_last(obj):
    less = list(obj["Less"])
    splt = list(obj["Splt"])
    if not less:
        return splt
    ts = ser_ch(obj["Less"])
    for n in ts["San"]:
        if n == 15:
            continue
        t = m_chou_pai([n, n, n], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 3, "max": n, "len": 3})
            less = t["Less"]
    for n in ts["Dui"]:
        if n == 15:
            continue
        t = m_chou_pai([n, n], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 2, "max": n, "len": 2})
            less = t["Less"]
    for c in less:
        splt.append({"data": [c], "type": 1, "max": c["num"], "len": 1})
    return splt


def get_all_pai(obj):
    arr = [get_all_last(obj)]
    suns = get_all_sun(obj)
    if suns is not None:
        arr += [get_all_last(s) for s in suns]
    return arr


def get_ta_max(arr):
    best, best_pn = None, None
    for tp in arr:
        d = 0
        for st in tp:
            t, m = st["type"], st["max"]
            if t == 1:
                if m >= 15:
                    d -= 4
                elif m >= 11:
                    pass
                elif m >= 7:
                    d += 4
                else:
                    d += 8
            if t == 2:
                if m >= 15:
                    d -= 8
                elif m >= 11:
                    d -= 2
                elif m >= 7:
                    d += 2
                else:
                    d += 6
            if t == 3:
                if m >= 15:
                    d -= 12
                if m >= 11:
                    d -= 9
                elif m >= 7:
                    d -= 6
                else:
                    d -= 4
            if t == 10:
                d -= 5
                if st["len"] >= 15:
                    d -= 10
                st["len"] = 12
                d -= 9
                st["len"] = 9
                d -= 7
                st["len"] = 6
                d -= 4
            if t in (8, 9):
                d -= 1
            if t in (13, 14):
                d -= 20
        pn = len(tp) * 10 + d
        if best is None or pn < best_pn:
            best, best_pn = tp, pn
    return best, best_pn


def zhan_pai(nums):
    """Plan a hand given as seed numbers (3..17): (steps as (type, [nums]), raw Pn before the clamp)."""
    cards = [{"num": n, "key": 4 if n >= 16 else 1} for n in nums]
    less = px_fux(cards)
    ts = ser_ch(less)
    splt = []
    if ts["Huo"]:
        t = m_chou_pai([17, 16], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 14, "max": 17, "len": 2})
            less = t["Less"]
    for n in ts["Siz"]:
        t = m_chou_pai([n, n, n, n], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 13, "max": n, "len": 4})
            less = t["Less"]
    if ts["San"] and ts["San"][0] == 15:
        t = m_chou_pai([15, 15, 15], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 3, "max": 15, "len": 3})
            less = t["Less"]
    if ts["Dui"] and ts["Dui"][0] == 15:
        t = m_chou_pai([15, 15], less)
        if t is not None:
            splt.append({"data": t["Splt"], "type": 2, "max": 15, "len": 2})
            less = t["Less"]
    best, pn = get_ta_max(get_all_pai({"Splt": splt, "Less": less}))
    return [(s["type"], [c["num"] for c in s["data"]]) for s in best], pn
