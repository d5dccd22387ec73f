"""The HTML page: one self-contained file (styles inline, charts and tiles as inline SVG, no script,
no font, no outside reference) that opens offline and can be attached to a CI run.

A :class:`Page` gathers sections; each section is a heading, short notes and parts (charts, tables,
hands). The page declares a Content-Security-Policy that forbids loading anything, so a stray
reference to the network would fail loudly in the browser test instead of quietly in a reader's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from mjcli.report.tiles_svg import Sprite
from mjcli.stats import Estimate

STYLE = """
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;margin:0;color:#1d1d1d;background:#fafafa;
 font-size:14px}
header{background:#233;color:#fff;padding:14px 24px}header h1{margin:0 0 4px;font-size:22px}
header p{margin:2px 0;color:#d8e0e0}nav a{color:#bfe3ff;margin-right:14px}
main{padding:8px 24px 32px;max-width:1300px}
section.report{background:#fff;border:1px solid #ddd;border-radius:6px;margin:18px 0;padding:6px 18px 14px}
section.report>h2{font-size:19px;border-bottom:1px solid #eee;padding-bottom:6px}
figure.chart-box{display:inline-block;vertical-align:top;margin:6px 18px 12px 0}
figure.chart-box figcaption{font-weight:bold;margin-bottom:4px}
p.note{color:#555;max-width:920px;margin:4px 0 8px}
table.data{border-collapse:collapse;margin:8px 0 14px;font-size:13px}
table.data th,table.data td{border-bottom:1px solid #e5e5e5;padding:3px 9px;text-align:left;
 vertical-align:top}
table.data td.num,table.data th.num{text-align:right;font-variant-numeric:tabular-nums}
table.data th{background:#f2f4f4}
.decision{border-top:1px solid #e4e4e4;padding:10px 0 6px}
.decision h3{font-size:15px;margin:4px 0 6px}
.hand{display:flex;flex-wrap:wrap;align-items:flex-end;gap:10px;margin:6px 0 8px}
.hand .tiles,.hand .cards{display:inline-flex;align-items:flex-end;gap:1px}
.hand .caption{font-size:11px;color:#666;margin-right:4px;align-self:center}
.hand .drawn,.hand .offered{padding-left:6px;border-left:2px dashed #bbb}
.hand .meld{padding:2px;background:#eef1f4;border-radius:3px}
.hand .lead{padding:2px 4px;background:#f4efe6;border-radius:3px}
svg.tile,svg.card{display:inline-block;vertical-align:middle}
.move svg.tile{margin:0 2px}
code.cmd{display:block;background:#f3f3f3;border:1px solid #e0e0e0;padding:5px 8px;margin:6px 0;
 white-space:pre-wrap;word-break:break-all;font-size:12px}
.agree{color:#1e7b34}.disagree{color:#b3261e}.muted{color:#777}
.badge{display:inline-block;border-radius:9px;padding:0 8px;font-size:12px;background:#eee;margin-left:6px}
.badge.bad{background:#fbe3e1;color:#8c1d18}.badge.ok{background:#e2f4e6;color:#1e5b2c}
footer{color:#777;font-size:12px;padding:0 24px 24px}
"""

#: nothing may be loaded: no script, no font, no image, no connection (inline styles are the page's own)
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def fmt_estimate(e: Estimate | None, fmt: str = "{:.3f}") -> str:
    """``0.647 [0.611, 0.683]``; ``-`` for nothing; the value alone without an interval."""
    if e is None or math.isnan(e.value):
        return "-"
    if math.isnan(e.lo) or math.isnan(e.hi):
        return fmt.format(e.value)
    return f"{fmt.format(e.value)} [{fmt.format(e.lo)}, {fmt.format(e.hi)}]"


def estimate_of(d: dict[str, Any] | None) -> Estimate | None:
    """An interval as summary.json writes it (``{"value", "lo", "hi"}``, null for NaN)."""
    if d is None or d.get("value") is None:
        return None
    return Estimate(*(math.nan if d.get(k) is None else float(d[k]) for k in ("value", "lo", "hi")))


def cell(value: Any) -> tuple[str, bool]:
    """A value as table text, and whether it is a number (right-aligned)."""
    if value is None:
        return "-", True
    if isinstance(value, bool):
        return ("yes" if value else "no"), False
    if isinstance(value, float):
        return ("-" if math.isnan(value) else f"{value:.3f}"), True
    if isinstance(value, int):
        return str(value), True
    if isinstance(value, Estimate):
        return fmt_estimate(value), True
    return str(value), False


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """An HTML table of values (escaped; numbers right-aligned)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for v in row:
            text, num = cell(v)
            cells.append(f'<td class="num">{escape(text)}</td>' if num else f"<td>{escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="data"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


@dataclass
class Section:
    """One part of the page: a heading and its contents in order."""

    id: str
    title: str
    parts: list[str] = field(default_factory=list)
    charts: int = 0
    hands: int = 0

    def note(self, text: str) -> None:
        self.parts.append(f'<p class="note">{escape(text)}</p>')

    def html(self, fragment: str) -> None:
        self.parts.append(fragment)

    def chart(self, caption: str, svg: str, note: str = "") -> None:
        extra = f'<p class="note">{escape(note)}</p>' if note else ""
        self.parts.append(
            f'<figure class="chart-box"><figcaption>{escape(caption)}</figcaption>{svg}{extra}</figure>'
        )
        self.charts += 1

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.parts.append(table(headers, rows))

    def decision(self, fragment: str) -> None:
        """A drawn decision (its hand inside), with an anchor of its own: ``SECTION-N``."""
        self.hands += 1
        self.parts.append(f'<div class="decision" id="{escape(self.id)}-{self.hands}">{fragment}</div>')

    def render(self) -> str:
        head = f'<section class="report" id="{escape(self.id)}"><h2>{escape(self.title)}</h2>'
        return head + "".join(self.parts) + "</section>"


@dataclass
class Page:
    title: str
    lines: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    sprite: Sprite = field(default_factory=Sprite)

    def section(self, id_: str, title: str) -> Section:
        s = Section(id_, title)
        self.sections.append(s)
        return s

    @property
    def charts(self) -> int:
        return sum(s.charts for s in self.sections)

    @property
    def hands(self) -> int:
        return sum(s.hands for s in self.sections)

    def render(self, footer: str = "") -> str:
        nav = "".join(f'<a href="#{escape(s.id)}">{escape(s.title)}</a>' for s in self.sections)
        lines = "".join(f"<p>{escape(line)}</p>" for line in self.lines)
        body = "".join(s.render() for s in self.sections)
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(self.title)}</title><style>{STYLE}</style></head><body>"
            f"<header><h1>{escape(self.title)}</h1>{lines}<nav>{nav}</nav></header>"
            f"{self.sprite.defs()}<main>{body}</main><footer>{escape(footer)}</footer></body></html>\n"
        )
