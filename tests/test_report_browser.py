"""`mjcli report` pages opened as a person would: headless Chromium (Debian's ``chromium``, driven by
Playwright, which downloads no browser) with the network off. Each page must load without a console
error or a request leaving the file, show every chart with something drawn in it, and every hand
with all its tiles visible; a screenshot of each kind is kept in ``build/report-KIND.png``.

Where Chromium is not installed (``make browser`` installs it as root or with passwordless sudo),
these tests skip and say so; everything else about the page is tested in test_report.py.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from report_outputs import KINDS

from mjcli.report.build import write_report

CHROMIUM = os.environ.get("MJCLI_CHROMIUM", "/usr/bin/chromium")
#: headless in a container: no sandbox (root), no /dev/shm reliance (64 MB in Docker), no GPU, and
#: none of Chromium's own calls home
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = Path(__file__).resolve().parents[1] / "build"
#: the kinds opened here: every riichi and Dou Dizhu page; of the Hong Kong family, whose pages are
#: drawn by the same chart and tile code, the Red replay (every tile face: jokers, flowers, seasons)
#: and the Hong Kong simulation (test_report.py reads every one of them without a browser)
BROWSER_KINDS = (*(k for k in KINDS if not k.startswith(("hk-", "red-"))), "red-replay", "hk-simulate")

#: per chart: its size and how many shapes it draws; per hand: the tiles meant, the tiles visible,
#: and whether every tile's face (its <use>) points at a defined symbol with something in it
MEASURE = """() => ({
  charts: [...document.querySelectorAll('svg.chart')].map(s => {
    const b = s.getBoundingClientRect();
    return {w: b.width, h: b.height,
            shapes: s.querySelectorAll('rect.bar,rect.cell,polyline.line,circle.dot').length};
  }),
  hands: [...document.querySelectorAll('.hand')].map(h => {
    const tiles = [...h.querySelectorAll('svg.tile, svg.card')];
    const visible = tiles.filter(t => {
      const b = t.getBoundingClientRect(); return b.width > 0 && b.height > 0; });
    const faces = tiles.every(t => { const u = t.querySelector('use');
      const id = u && u.getAttribute('href'); const sym = id && document.querySelector(id);
      return !!sym && sym.tagName === 'symbol' && sym.children.length > 0; });
    return {want: Number(h.dataset.tiles), visible: visible.length, faces};
  }),
})"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(
            f"Chromium not found at {CHROMIUM}: install Debian's 'chromium' (make browser, as root or "
            "with passwordless sudo); the browser tests are skipped"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
    )
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def open_offline(browser: Any) -> Iterator[Callable[[Path], tuple[Any, list[str]]]]:
    """Open a local file with the network off; the page and what went wrong (console errors, page
    errors, requests that tried to leave the file)."""
    contexts = []

    def _open(path: Path) -> tuple[Any, list[str]]:
        ctx = browser.new_context(offline=True, viewport={"width": 1300, "height": 900})
        contexts.append(ctx)
        problems: list[str] = []

        def route(r: Any) -> None:
            if r.request.url.startswith(("file:", "data:")):
                r.continue_()
            else:
                problems.append(f"request to {r.request.url}")
                r.abort()

        ctx.route("**/*", route)
        page = ctx.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(path.resolve().as_uri(), wait_until="load")
        return page, problems

    yield _open
    for c in contexts:
        c.close()


@pytest.mark.parametrize("kind", BROWSER_KINDS)
def test_the_page_opens_offline_with_everything_drawn(
    kind: str, report_outputs: dict[str, Path], open_offline: Any, tmp_path: Path
) -> None:
    html = tmp_path / f"{kind}.html"
    report = write_report(report_outputs[kind], html)
    page, problems = open_offline(html)
    seen = page.evaluate(MEASURE)
    assert problems == []
    assert len(seen["charts"]) == report.charts >= 2
    for chart in seen["charts"]:
        assert chart["w"] > 0 and chart["h"] > 0 and chart["shapes"] > 0, chart
    assert len(seen["hands"]) == report.hands
    for hand in seen["hands"]:
        assert hand["want"] > 0 and hand["visible"] == hand["want"] and hand["faces"], hand
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"report-{kind}.png"), full_page=True)


def test_the_checks_catch_a_broken_page(
    report_outputs: dict[str, Path], open_offline: Any, tmp_path: Path
) -> None:
    """The same checks on a page spoiled on purpose: an outside image, a hand missing a tile, an
    empty chart and a tile whose face is not defined are each caught."""
    html = tmp_path / "spoiled.html"
    text = write_report(report_outputs["riichi-replay"], html, top=1).html
    hand_at = text.index('<div class="hand" data-tiles="') + len('<div class="hand" data-tiles="')
    count = int(text[hand_at : text.index('"', hand_at)])
    spoiled = text[:hand_at] + str(count + 1) + text[text.index('"', hand_at) :]  # one tile too many
    outside = '<img src="https://example.com/x.png" alt="">'
    empty_chart = '<svg class="chart" width="200" height="100"></svg>'
    spoiled = spoiled.replace("<main>", "<main>" + outside + empty_chart, 1)
    spoiled = spoiled.replace('<use href="#tile-', '<use href="#missing-', 1)
    html.write_text(spoiled, encoding="utf-8")
    page, problems = open_offline(html)
    seen = page.evaluate(MEASURE)
    assert any("example.com" in p for p in problems), problems
    assert any(c["shapes"] == 0 for c in seen["charts"])
    first = seen["hands"][0]
    assert first["visible"] != first["want"] and not first["faces"]
