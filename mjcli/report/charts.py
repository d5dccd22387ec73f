"""Charts as hand-written inline SVG: grouped bars with 95 % interval whiskers, lines with interval
bands, a heat map and stacked bars; nothing else is needed by the report.

Why by hand and not a plotting library: the page must open offline and stay small, and these four
kinds are a closed set. Plotly would add about 4.7 MB of JavaScript to every page (and random ids
run to run), Altair needs an 84 MB native binary (vl-convert) tied to Vega-Lite's versions, and
Matplotlib adds about 100 MB of dependencies and seconds per page for the same four pictures. This
module is plain string building: byte-for-byte repeatable, no JavaScript, no fonts beyond the
viewer's sans-serif, every value and interval in a ``<title>`` tooltip.

Every chart is an ``<svg class="chart">``; bars are ``rect.bar``, cells ``rect.cell``, lines
``polyline.line``: the browser test finds them by these names. A value is an
:class:`~mjcli.stats.Estimate` (NaN ends of the interval: no whisker) or ``None`` (nothing drawn).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

from mjcli.stats import Estimate

#: colours of the series (colour-blind friendly, Tableau 10 order)
PALETTE = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d")
FONT = 'font-family="DejaVu Sans,Arial,Helvetica,sans-serif" font-size="11"'
#: plot height and margins: left (axis labels), right (legend), top, bottom (category labels)
HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 240, 76, 150, 12, 40

Value = Estimate | None
Formatter = Callable[[float], str]


def _n(x: float) -> str:
    """A coordinate, short: one decimal, no trailing zero."""
    text = f"{x:.1f}"
    return text[:-2] if text.endswith(".0") else text


def percent(x: float) -> str:
    return f"{x:.0%}"


def percent1(x: float) -> str:
    return f"{x:.1%}"


def number(x: float) -> str:
    # no exponent on an axis: "-12,500", not "-1.25e+04" (which ran into the axis title)
    return f"{x:,.0f}" if abs(x) >= 10_000 else f"{x:,.4g}"


def plain(x: float) -> str:
    return f"{x:g}"


def one_decimal(x: float) -> str:
    return f"{x:.1f}"


def two_decimals(x: float) -> str:
    return f"{x:.2f}"


def whole(x: float) -> str:
    return f"{x:.0f}"


def _finite(x: float | None) -> bool:
    return x is not None and not math.isnan(x)


def _interval_text(e: Estimate, fmt: Formatter, missing: str) -> str:
    if _finite(e.lo) and _finite(e.hi):
        return f"{fmt(e.value)} [95 % interval {fmt(e.lo)}, {fmt(e.hi)}]"
    return f"{fmt(e.value)} ({missing})"


def nice_ticks(lo: float, hi: float, count: int = 5, min_step: float = 0.0) -> list[float]:
    """Round tick values covering ``lo..hi`` (about ``count`` of them, ``min_step`` apart at least:
    1 for counts, whose axis 0..1 would otherwise read 0, 0, 0, 1, 1, 1)."""
    if hi <= lo:
        hi = lo + 1
    raw = max((hi - lo) / count, min_step)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v < hi + step * 0.999:
        ticks.append(round(v, 10) + 0.0)  # + 0.0: a tick of -0.0 would print as "-0"
        v += step
    return ticks


def _range(values: Sequence[float], fixed: tuple[float, float] | None, min_step: float = 0.0) -> list[float]:
    """The y ticks: ``fixed`` as given, else nice ticks over the values and zero."""
    if fixed is not None:
        return nice_ticks(*fixed, min_step=min_step)
    finite = [v for v in values if _finite(v)] + [0.0]
    return nice_ticks(min(finite), max(finite), min_step=min_step)


def _open(width: float, height: float, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{escape(title)}" {FONT}>'
        f"<title>{escape(title)}</title>"
    )


def _legend(series: Sequence[str], x: float, colours: Sequence[str] = PALETTE) -> list[str]:
    out = []
    for i, name in enumerate(series):
        shown = name if len(name) <= 20 else name[:19] + "…"
        y = TOP + 16 * i
        out.append(
            f'<g class="legend"><rect x="{_n(x)}" y="{y}" width="10" height="10" '
            f'fill="{colours[i % len(colours)]}"/><text x="{_n(x + 14)}" y="{y + 9}">{escape(shown)}'
            f"<title>{escape(name)}</title></text></g>"
        )
    return out


def _axes(
    width: float, ticks: list[float], fmt: Formatter, y_label: str, x_label: str = ""
) -> tuple[list[str], Callable]:
    """Grid lines, tick labels, the axes and their titles (``y_label`` up the left side,
    ``x_label`` under the category labels); returns them with the value -> y function."""
    lo, hi = ticks[0], ticks[-1]
    bottom = HEIGHT - BOTTOM

    def py(v: float) -> float:
        v = min(max(v, lo), hi)
        return TOP + (bottom - TOP) * (1 - (v - lo) / (hi - lo))

    out = []
    for t in ticks:
        y = _n(py(t))
        out.append(f'<line x1="{LEFT}" x2="{_n(width - RIGHT)}" y1="{y}" y2="{y}" stroke="#e3e3e3"/>')
        out.append(f'<text x="{LEFT - 5}" y="{_n(py(t) + 4)}" text-anchor="end">{escape(fmt(t))}</text>')
    if lo < 0 < hi:
        y = _n(py(0))
        out.append(f'<line x1="{LEFT}" x2="{_n(width - RIGHT)}" y1="{y}" y2="{y}" stroke="#777"/>')
    out.append(
        f'<path d="M{LEFT} {TOP}V{bottom}H{_n(width - RIGHT)}" fill="none" stroke="#333" class="axis"/>'
    )
    if y_label:
        out.append(
            f'<text transform="translate(12 {_n((TOP + bottom) / 2)}) rotate(-90)" '
            f'text-anchor="middle">{escape(y_label)}</text>'
        )
    if x_label:
        out.append(
            f'<text x="{_n((LEFT + width - RIGHT) / 2)}" y="{HEIGHT - 4}" text-anchor="middle">'
            f"{escape(x_label)}</text>"
        )
    return out, py


#: about how wide a character of the labels is (11 px sans-serif), to size groups and cut labels
CHAR = 6.3


def _category_label(x: float, text: str, room: float = 16 * CHAR) -> str:
    """A label under a category, cut (with its full text as tooltip) to the ``room`` there is."""
    fits = max(4, int(room // CHAR))
    shown = text if len(text) <= fits else text[: fits - 1] + "…"
    return (
        f'<text x="{_n(x)}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{escape(shown)}'
        f"<title>{escape(text)}</title></text>"
    )


def bar_chart(
    categories: Sequence[str],
    series: Sequence[str],
    values: Sequence[Sequence[Value]],
    *,
    title: str,
    fmt: Formatter = percent,
    tip: Formatter = percent1,
    y_range: tuple[float, float] | None = (0.0, 1.0),
    y_label: str = "",
    x_label: str = "",
    missing: str = "no interval",
    counts: bool = False,
) -> str:
    """Grouped bars: ``values[s][c]`` for series ``s`` in category ``c``, each with its interval as
    a whisker. ``y_range`` fixes the axis (rates: 0..1); ``None`` fits it to the values and zero
    (negative values, paired differences, go below the zero line). ``counts``: the values are
    whole numbers, and so are the ticks."""
    flat = [x for row in values for e in row if e is not None for x in (e.value, e.lo, e.hi)]
    ticks = _range(flat, y_range, 1.0 if counts else 0.0)
    longest = min(24, max((len(c) for c in categories), default=1))
    group = max(24.0, 12.0 * len(series) + 16, CHAR * longest + 10)
    width = max(420.0, LEFT + RIGHT + group * len(categories))
    parts, py = _axes(width, ticks, fmt, y_label, x_label)
    step = (width - LEFT - RIGHT) / max(1, len(categories))
    bar = step * 0.8 / max(1, len(series))
    zero = py(min(max(0.0, ticks[0]), ticks[-1]))
    for ci, cat in enumerate(categories):
        parts.append(_category_label(LEFT + step * (ci + 0.5), cat, step - 4))
        for si, name in enumerate(series):
            e = values[si][ci]
            if e is None or not _finite(e.value):
                continue
            x = LEFT + step * ci + step * 0.1 + bar * si
            y = py(e.value)
            tooltip = f"{name}, {cat}: {_interval_text(e, tip, missing)}"
            parts.append(
                f'<rect class="bar" x="{_n(x)}" y="{_n(min(y, zero))}" width="{_n(max(bar - 1, 1))}" '
                f'height="{_n(max(abs(zero - y), 0.5))}" fill="{PALETTE[si % len(PALETTE)]}">'
                f"<title>{escape(tooltip)}</title></rect>"
            )
            if _finite(e.lo) and _finite(e.hi):
                mid, cap = x + bar / 2, max(bar * 0.2, 1.5)
                ylo, yhi = _n(py(e.lo)), _n(py(e.hi))
                parts.append(
                    f'<path class="whisker" d="M{_n(mid)} {ylo}V{yhi}M{_n(mid - cap)} {ylo}h{_n(2 * cap)}'
                    f'M{_n(mid - cap)} {yhi}h{_n(2 * cap)}" stroke="#222" fill="none"/>'
                )
    parts += _legend(series, width - RIGHT + 12)
    return _open(width, HEIGHT, title) + "".join(parts) + "</svg>"


def line_chart(
    positions: Sequence[str],
    series: Sequence[str],
    values: Sequence[Sequence[Value]],
    *,
    title: str,
    fmt: Formatter = percent,
    tip: Formatter = percent1,
    y_range: tuple[float, float] | None = (0.0, 1.0),
    y_label: str = "",
    x_label: str = "",
    missing: str = "no interval",
) -> str:
    """Lines over ordered positions (early, middle, late; shanten 0, 1, 2...), each with a band
    for its interval and a dot per value; a missing value breaks the line."""
    flat = [x for row in values for e in row if e is not None for x in (e.value, e.lo, e.hi)]
    ticks = _range(flat, y_range)
    width = max(480.0, LEFT + RIGHT + 90.0 * len(positions))
    parts, py = _axes(width, ticks, fmt, y_label, x_label)
    step = (width - LEFT - RIGHT) / max(1, len(positions))

    def px(i: int) -> float:
        return LEFT + step * (i + 0.5)

    for i, pos in enumerate(positions):
        parts.append(_category_label(px(i), pos, step - 4))
    for si, name in enumerate(series):
        colour = PALETTE[si % len(PALETTE)]
        for run in _runs([e is not None and _finite(e.value) for e in values[si]]):
            band = [i for i in run if _finite(values[si][i].lo) and _finite(values[si][i].hi)]  # type: ignore[union-attr]
            for brun in _runs([i in band for i in range(len(positions))]):
                if len(brun) > 1:
                    upper = [f"{_n(px(i))},{_n(py(values[si][i].hi))}" for i in brun]  # type: ignore[union-attr]
                    lower = [f"{_n(px(i))},{_n(py(values[si][i].lo))}" for i in reversed(brun)]  # type: ignore[union-attr]
                    parts.append(
                        f'<polygon class="band" points="{" ".join(upper + lower)}" fill="{colour}" '
                        'fill-opacity="0.15"/>'
                    )
            points = " ".join(f"{_n(px(i))},{_n(py(values[si][i].value))}" for i in run)  # type: ignore[union-attr]
            if len(run) > 1:
                parts.append(
                    f'<polyline class="line" points="{points}" fill="none" stroke="{colour}" '
                    'stroke-width="2"/>'
                )
            for i in run:
                e = values[si][i]
                assert e is not None
                tooltip = f"{name}, {positions[i]}: {_interval_text(e, tip, missing)}"
                parts.append(
                    f'<circle class="dot" cx="{_n(px(i))}" cy="{_n(py(e.value))}" r="3.5" fill="{colour}">'
                    f"<title>{escape(tooltip)}</title></circle>"
                )
    parts += _legend(series, width - RIGHT + 12)
    return _open(width, HEIGHT, title) + "".join(parts) + "</svg>"


def _runs(present: Sequence[bool]) -> list[list[int]]:
    """Maximal runs of consecutive indices where ``present`` is true."""
    runs: list[list[int]] = []
    for i, ok in enumerate(present):
        if not ok:
            continue
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def heat_map(labels: Sequence[str], matrix: Sequence[Sequence[float | None]], *, title: str) -> str:
    """A square matrix of shares (0..1) between the same labels: darker is more."""
    cell, left, top = 64, 120, 84
    width, height = left + cell * len(labels) + 60, top + cell * len(labels) + 8
    parts = []
    for i, a in enumerate(labels):
        y = top + cell * i
        parts.append(f'<text x="{left - 6}" y="{y + cell // 2 + 4}" text-anchor="end">{escape(a)}</text>')
        parts.append(
            f'<text transform="translate({left + cell * i + cell // 2 - 4} {top - 8}) rotate(-40)">'
            f"{escape(a)}</text>"
        )
        for j, b in enumerate(labels):
            v = matrix[i][j]
            x = left + cell * j
            if v is None or math.isnan(v):
                fill, text, ink = "#f4f4f4", "-", "#777"
            else:
                level = int(round(240 - 170 * v))
                fill, text, ink = (
                    f"rgb({level},{min(255, level + 10)},255)",
                    f"{v:.2f}",
                    "#fff" if v > 0.6 else "#111",
                )
            tooltip = f"{a} and {b}: " + ("no decision in common" if text == "-" else f"{v:.1%} the same")
            parts.append(
                f'<rect class="cell" x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}" fill="{fill}">'
                f"<title>{escape(tooltip)}</title></rect>"
                f'<text x="{x + cell // 2}" y="{y + cell // 2 + 4}" text-anchor="middle" '
                f'fill="{ink}">{text}</text>'
            )
    return _open(width, height, title) + "".join(parts) + "</svg>"


def stacked_bars(
    categories: Sequence[str],
    parts_names: Sequence[str],
    shares: Sequence[Sequence[float]],
    *,
    title: str,
    colours: Sequence[str] = PALETTE,
    counts: Sequence[Sequence[int]] | None = None,
    y_label: str = "",
    x_label: str = "",
) -> str:
    """One bar per category made of parts (``shares[p][c]``, summing to 1 per category)."""
    ticks = nice_ticks(0.0, 1.0)
    longest = min(24, max((len(c) for c in categories), default=1))
    width = max(420.0, LEFT + RIGHT + max(70.0, CHAR * longest + 10) * len(categories))
    parts, py = _axes(width, ticks, percent, y_label, x_label)
    step = (width - LEFT - RIGHT) / max(1, len(categories))
    for ci, cat in enumerate(categories):
        parts.append(_category_label(LEFT + step * (ci + 0.5), cat, step - 4))
        acc = 0.0
        for pi, name in enumerate(parts_names):
            v = shares[pi][ci]
            if not v or math.isnan(v):
                continue
            count = f" ({counts[pi][ci]})" if counts is not None else ""
            parts.append(
                f'<rect class="bar" x="{_n(LEFT + step * ci + step * 0.2)}" y="{_n(py(acc + v))}" '
                f'width="{_n(step * 0.6)}" height="{_n(max(py(acc) - py(acc + v), 0.5))}" '
                f'fill="{colours[pi % len(colours)]}" stroke="#fff" stroke-width="0.5">'
                f"<title>{escape(f'{cat}, {name}: {v:.1%}{count}')}</title></rect>"
            )
            acc += v
    parts += _legend(parts_names, width - RIGHT + 12, colours)
    return _open(width, HEIGHT, title) + "".join(parts) + "</svg>"
