"""Benchmark: how many taps a box takes on a phone (issue 13's targets).

Headless Chromium (Playwright, Debian's ``/usr/bin/chromium``) at 390 x 844 plays two
boxes of a Jersey Gin game through the pages, counting every tap (a click on the page
or a key that is not a digit) and every digit typed apart:

* a knock box by counts: from the score sheet, "Record box N", the counts typed (the
  entry moves on by itself when a count is complete), save. Target: at most 6 taps plus
  the digits. Played twice: knocked by the player the form preselects (who plays first)
  and by another player (one tap more).
* a full three-player showdown by cards: every hand tapped on the card grids with meld
  taps (first and last card of a run or set), save. Target: at most 30 taps.

The app runs in this process under waitress on loopback, on a temporary SQLite
database. Run it with ``python -m benchmarks.taps``; ``--write`` puts the figures in
their section of ``docs/performance.md``. The browser tests
(``tests/web/test_table_taps.py``) play the same boxes and hold the targets.
"""

from __future__ import annotations

import argparse
import re
import socket
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.timing import DOC, write_section

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: Any = {"width": 390, "height": 844}
SHEET_URL = re.compile(r"/games/(?!new\b)[^/?]+$")
KNOCK_TARGET = 6
SHOWDOWN_TARGET = 30

JERSEY = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "boxes": []}
"""Ann deals the first box, so Bob plays first and the form preselects him."""

SHOWDOWN: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "Ann": ([("9H", "QH"), ("KS", "KC")], ["5S", "6C", "8D"]),
    "Bob": ([("7S", "9S"), ("4H", "4D"), ("JD", "KD")], ["2C"]),
    "Cal": ([("AD", "3D")], ["3S", "5H", "7C", "8C", "10D", "QC", "6S"]),
}
"""Each hand: its melds as (first, last) card, and its loose cards, tapped first, one by one. Grid rows
are spades, hearts, clubs, diamonds, so K♠ to K♣ is a set of three, 4♥ to 4♦ the set of
hearts, clubs and diamonds. Bob knocks with 2."""


@dataclass
class Tapper:
    """A phone that counts what its user does: taps, and digits typed."""

    page: Any
    taps: int = 0
    digits: int = 0
    log: list[str] = field(default_factory=list)

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1
        self.log.append(selector)

    def type_digits(self, text: str) -> None:
        assert text.isdigit()
        self.page.keyboard.type(text)
        self.digits += len(text)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving() -> Iterator[str]:
    """The app under waitress on loopback, on a temporary database."""
    from waitress.server import create_server

    from scorekeeper import store
    from scorekeeper.web import create_app

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/taps.sqlite3"
        store.migrate(url)
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "taps-" + "t" * 40, "POLL_SECONDS": 30})
        server = create_server(app, host="127.0.0.1", port=_free_port(), threads=4)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
        finally:
            server.close()
            thread.join(timeout=5)


def open_game(page: Any, base: str, game: dict[str, Any] | None = None) -> str:
    """Store a game through the API and open its edit link: the sheet, as a scorer."""
    created = page.request.post(base + "/api/v1/games", data=game or JERSEY)
    assert created.ok, created.text()
    body = created.json()
    page.goto(f"{base}/games/{body['id']}/join#{body['edit_token']}")
    # Without JavaScript nothing reads the fragment: the code is typed, as a phone would.
    page.fill("input[name=code]", body["edit_token"])
    page.get_by_role("button", name="Join as scorer").click()
    page.wait_for_url(SHEET_URL)
    return str(page.url)


def knock_box_by_counts(page: Any, knocker: str = "Bob") -> Tapper:
    """From the sheet: a knock with 4 recorded by counts (the others 14 and 13, in seat
    order), back on the sheet. Bob is the preselected knocker when Ann deals."""
    phone = Tapper(page)
    phone.tap(".record-bar a")
    page.wait_for_selector("#box-form")
    if not page.locator(f"input[name=by][value={knocker}]").is_checked():
        phone.tap(f"input[name=by][value={knocker}] + span")
    phone.tap("#hands-0-count")
    others = iter(("14", "13"))
    for player in ("Ann", "Bob", "Cal"):
        phone.type_digits("4" if player == knocker else next(others))
    phone.tap("#save-box")
    page.wait_for_url(SHEET_URL)
    page.wait_for_selector("#sheet")
    return phone


def showdown_by_cards(page: Any) -> Tapper:
    """From the sheet: Bob's knock with all three hands tapped on the grids."""
    phone = Tapper(page)
    phone.tap(".record-bar a")
    page.wait_for_selector("#box-form")
    players = ["Ann", "Bob", "Cal"]
    for index, player in enumerate(players):
        hand = f"#hand-{index}"
        if not page.locator(f"{hand} details.cards").evaluate("d => d.open"):
            phone.tap(f"{hand} details.cards summary")
        melds, loose = SHOWDOWN[player]
        for card in loose:
            phone.tap(f"{hand} input[value='{card}'] + span")
        if melds:
            phone.tap(f"{hand} .meld-toggle")
        for first, last in melds:
            phone.tap(f"{hand} input[value='{first}'] + span")
            phone.tap(f"{hand} input[value='{last}'] + span")
    page.wait_for_selector("#preview .ruling:not(.problem)")
    phone.tap("#save-box")
    page.wait_for_url(SHEET_URL)
    page.wait_for_selector("#sheet")
    return phone


def run(base: str | None = None) -> dict[str, Tapper]:
    """Play the boxes once each in a fresh game (on the app at ``base``, else on one
    started here); the tappers hold the counts."""
    from playwright.sync_api import sync_playwright

    if base is None:
        with serving() as served:
            return run(served)
    results: dict[str, Tapper] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        plays: list[tuple[str, Callable[[Any], Tapper]]] = [
            ("knock, preselected knocker", knock_box_by_counts),
            ("knock, another knocker", lambda page: knock_box_by_counts(page, "Cal")),
            ("showdown by cards", showdown_by_cards),
        ]
        for name, play in plays:
            page = context.new_page()
            open_game(page, base)
            results[name] = play(page)
            page.close()
        browser.close()
    return results


def section(results: dict[str, Tapper]) -> str:
    """The figures as the Markdown section of docs/performance.md."""
    lines = [
        "## Taps to record a box (issue 13)",
        "",
        "Measured by `python -m benchmarks.taps` (Playwright, Chromium at 390 × 844, "
        "a Jersey Gin game of Ann, Bob and Cal, Ann dealing). A tap is a click on the "
        "page, including focusing the first count; digits are counted apart.",
        "",
        "| box | taps | digits | target |",
        "|---|---|---|---|",
    ]
    for name, phone in results.items():
        target = f"≤ {SHOWDOWN_TARGET} taps" if "showdown" in name else f"≤ {KNOCK_TARGET} taps + digits"
        lines.append(f"| {name} | {phone.taps} | {phone.digits} | {target} |")
    lines += [
        "",
        "The knock: *Record box N*, the first count, the three counts typed "
        "(each moves on to the next player when complete), *Save box*; knock is "
        "preselected, and so is the player who plays first; another knocker is one "
        "tap more. The showdown: open the first hand's grid, then per hand one tap per "
        "loose card, one tap to turn *Meld taps* on, the first and last card of each "
        "meld (a full hand closes its grid and opens the next), *Save box*.",
        "",
    ]
    return "\n".join(lines)


def write(text: str, doc: Path = DOC) -> None:
    """Replace (or append) the section in docs/performance.md."""
    write_section(doc, "## Taps to record a box (issue 13)", text)


def main() -> None:
    parser = argparse.ArgumentParser(description="Count the taps of recording a box.")
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    parser.add_argument("--base", help="a running app's address (default: start one)")
    args = parser.parse_args()
    results = run(args.base)
    text = section(results)
    print(text)  # noqa: T201 - the benchmark's report
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
