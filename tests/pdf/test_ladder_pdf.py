"""The club's ladder on paper (issue 36, reviewed for issue 35): every member's name, in
any script, at the size of the Latin names beside it."""

from __future__ import annotations

from scorekeeper.pdf.ladder import render_ladder
from scorekeeper.pdf.values import LadderLine, LadderSheet

from .reading import contains_run, lines, reader

NAMES = ("Margarethe Johansson", "محمد العربي", "דוד כהן", "अर्जुन शर्मा", "สมชาย ใจดี", "李雷")


def _sheet() -> LadderSheet:
    return LadderSheet(
        "Elm Street Club",
        "Spring 2026",
        "2026-03-01 – 2026-05-31",
        "Points: each evening's net score; at least 3 evenings to be ranked.",
        [LadderLine(n, name, 30 - 2.5 * n, 4, 0) for n, name in enumerate(NAMES, start=1)],
        [("2026-03-10", "Tuesday Jersey", "李雷")],
        [],
        "2026-05-02 09:00",
    )


def test_a_name_in_another_script_is_set_at_the_ladders_size() -> None:
    # Names needing another font or shaping were drawn at the table cells' 8 points beside
    # the Latin names' 9.5 (issue 35's review of the season's ladder).
    pdf = render_ladder(_sheet())
    sizes: dict[str, set[float]] = {}

    def seen(said: str, _cm: object, tm: list[float], _font: object, size: float) -> None:
        for name in NAMES:
            if said.strip() and said.strip() in name:
                sizes.setdefault(name, set()).add(round(size * abs(tm[0] or tm[3] or 1), 1))

    reader(pdf).pages[0].extract_text(visitor_text=seen)
    assert set(sizes) == set(NAMES), sizes
    assert all(found == {9.5} for found in sizes.values()), sizes
    assert contains_run(lines(pdf), ["1", "Margarethe Johansson", "27.5", "4"])
