"""A table's memory: players' records across stored games, and head to head.

Pure standard library on the contract's values: each game comes in as a
:class:`Played` (its players, the people they are, its :class:`Sheet`), and the
figures come out as frozen values for the pages, the exports and the PDF.

A player is matched across games by name with case and spacing folded (:func:`fold`);
a scorer may merge two names into one person or split one name in one game
(:class:`Alias`, kept by the store). A misdeal is no box: it is not counted, and it
neither makes nor breaks a run of boxes won. A draw is a box no one won.

An event's standings read from its tables' stored summaries are :mod:`.tables`'s
(:func:`standings` and :func:`table_result` are importable from here too).

>>> game = Played("g1", date(2026, 11, 1), "gin", ("Ann", "Bob"), ("ann", "bob"), None,
...     Sheet(totals={}, game_over=True, winner="Ann", shutouts=("Bob",), boxes=(
...         SheetBox(result="gin", winner="Ann", points=45, credits={}),
...         SheetBox(result="misdeal", winner=None, points=0, credits={}),
...         SheetBox(result="knock", winner="Ann", points=20, credits={}))))
>>> figures = record("ann", [game]).overall
>>> figures.won, figures.kinds["gin"], figures.longest_run, figures.shutouts_given
(1, 1, 2, 1)
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

from .chart import Chart
from .chart import Line as ChartLine
from .engine import vocabulary
from .engine.contract import Payment, Sheet, SheetBox
from .engine.errors import ScorekeeperError
from .tables import NO_BOX, TableSummary, counted_result, standings, table_result

KINDS: Mapping[str, str] = {
    "knock": "knock",
    "underknock": "underknock",
    "undercut": "underknock",
    "gin": "gin",
    "break": "break",
    "break-gin": "gin after the break",
}
"""The kind of box won, by the engine's result (an undercut is the two-hand underknock)."""
KIND_ORDER = ("knock", "underknock", "gin", "break", "gin after the break")


def fold(name: str) -> str:
    """A name as it is matched across games: compatibility forms, case and spacing folded.

    >>> fold("  Marge   SIMPSON "), fold("Ｍarge simpson") == fold("marge simpson")
    ('marge simpson', True)
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@dataclass(frozen=True)
class Alias:
    """A scorer's decision: the name ``name`` (folded) counts as the person ``person``;
    in every game (a merge), or only in game ``game`` (a split of a shared name)."""

    name: str
    person: str
    game: str | None = None


@dataclass(frozen=True)
class Names:
    """Who is who: the scorers' aliases, a game's own before the server-wide ones.

    >>> names = Names((Alias("margie", "Marge"), Alias("bob", "Bob Two", "g2")))
    >>> names.person("Margie ", "g1"), names.person("Bob", "g2"), names.person("Bob", "g1")
    ('marge', 'bob two', 'bob')
    """

    aliases: tuple[Alias, ...] = ()

    def person(self, name: str, game: str) -> str:
        """The folded person a name written in ``game`` is (merges followed, no loops)."""
        split = {(a.name, a.game): fold(a.person) for a in self.aliases if a.game}
        merged = {a.name: fold(a.person) for a in self.aliases if not a.game}
        key = fold(name)
        key = split.get((key, game), key)
        seen = {key}
        while key in merged and merged[key] not in seen:
            key = merged[key]
            seen.add(key)
        return key


@dataclass(frozen=True)
class Played:
    """One stored game as records read it: the names as written at its seats, the person
    each seat is (folded), the stake, and its sheet (a summarised sheet's boxes carry
    only their result, winner and points)."""

    id: str
    day: date
    rules: str
    players: tuple[str, ...]
    people: tuple[str, ...]
    stake: float | None
    sheet: Sheet
    began: datetime | None = None
    """When play began (as entered, else when the game was stored): games of one day
    are in the order played by it."""
    currency: str = ""
    """The stake's currency code ("" when the game names none)."""

    def person_of(self, name: str | None) -> str | None:
        """The person who sat under ``name`` in this game (a winner, a payer)."""
        if name is None or name not in self.players:
            return None
        return self.people[self.players.index(name)]

    def name_of(self, person: str) -> str | None:
        """The name ``person`` played under here."""
        return self.players[self.people.index(person)] if person in self.people else None

    @property
    def boxes(self) -> tuple[SheetBox, ...]:
        """The boxes played (a misdeal is none)."""
        return tuple(box for box in self.sheet.boxes if box.result != NO_BOX)

    @property
    def payments(self) -> tuple[Payment, ...]:
        """The settlement (Hollywood: the columns' when the sheet nets none)."""
        if self.sheet.settlement or not self.sheet.games:
            return self.sheet.settlement
        return tuple(p for column in self.sheet.games for p in column.settlement)

    @property
    def final(self) -> Mapping[str, int]:
        """Final totals once over, else the totals so far."""
        return self.sheet.final_totals or self.sheet.totals


@dataclass(frozen=True)
class Biggest:
    """The biggest box a player won: its credit, the game and the box's number there."""

    points: int
    game: str
    number: int
    kind: str


@dataclass(frozen=True)
class Figures:
    """A player's figures over some games (all, or one preset's)."""

    games: int = 0
    won: int = 0
    finished: int = 0
    boxes: int = 0
    boxes_won: int = 0
    kinds: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(KIND_ORDER, 0))
    credit: int = 0
    """The credit of every box won, summed."""
    biggest: Biggest | None = None
    longest_run: int = 0
    shutouts_given: int = 0
    shutouts_taken: int = 0
    points: int = 0
    """Settlement points received less paid."""
    money: float | None = None
    """Money received less paid, over the games with a stake (None: no stake kept)."""
    money_by_currency: Mapping[str, float] = field(default_factory=dict)
    """The same money, one total per currency code ("" for games that name none): money
    in two currencies is never one figure."""

    @property
    def average_credit(self) -> float | None:
        """Average credit per box won."""
        return self.credit / self.boxes_won if self.boxes_won else None


@dataclass(frozen=True)
class Record:
    """One person's record: every figure, the same per preset, the games newest first."""

    person: str
    name: str
    overall: Figures
    presets: Mapping[str, Figures]
    games: tuple[Played, ...]


@dataclass(frozen=True)
class Words:
    """What a record's pages call a deal and each kind of deal won: the games' own words
    ("box", "hand"; the neutral "deal" when they differ), and only the kinds those games
    have (no break where no game has one, J10), each as those games name it."""

    deal: str
    deals: str
    kinds: Mapping[str, str]
    """Each kind shown (of :data:`KIND_ORDER`), in order, with its name."""


def words_of(games: Iterable[Played]) -> Words:
    """The words of a record over these games.

    >>> [words_of([]).deal, list(words_of([]).kinds)]
    ['deal', ['knock', 'underknock', 'gin', 'break', 'gin after the break']]
    """
    presets = sorted({game.rules for game in games})
    said = []
    for preset in presets:
        try:
            said.append(vocabulary.vocabulary(preset))
        except ScorekeeperError:
            continue
    kinds: dict[str, str] = {}
    for kind in KIND_ORDER:
        if kind in ("break", "gin after the break") and said and not any(s.has_break for s in said):
            continue
        beaten = " or ".join(sorted({s.beaten for s in said}))
        kinds[kind] = beaten if kind == "underknock" and beaten else kind
    return Words(
        vocabulary.shared_deal_word(presets), vocabulary.shared_deal_word(presets, plural=True), kinds
    )


def _game_figures(person: str, game: Played) -> Figures:
    """The figures of one game, summed by :func:`_add` into a record."""
    name = game.name_of(person)
    kinds = dict.fromkeys(KIND_ORDER, 0)
    credit = run = longest = 0
    biggest: Biggest | None = None
    for number, box in enumerate(game.sheet.boxes, start=1):
        if box.result == NO_BOX:
            continue
        if box.winner is None or box.winner != name:
            run = 0
            continue
        run += 1
        longest = max(longest, run)
        kind = KINDS.get(box.result, box.result)
        kinds[kind] = kinds.get(kind, 0) + 1
        credit += box.points
        if biggest is None or box.points > biggest.points:
            biggest = Biggest(box.points, game.id, number, kind)
    sheet = game.sheet
    won = sheet.winner is not None and sheet.winner == name
    received = sum(p.points for p in game.payments if p.payee == name)
    paid = sum(p.points for p in game.payments if p.payer == name)
    money = None
    if game.stake:
        money = sum((p.amount or 0.0) for p in game.payments if p.payee == name) - sum(
            (p.amount or 0.0) for p in game.payments if p.payer == name
        )
    return Figures(
        games=1,
        won=int(won),
        finished=int(sheet.game_over),
        boxes=len(game.boxes),
        boxes_won=sum(kinds.values()),
        kinds=kinds,
        credit=credit,
        biggest=biggest,
        longest_run=longest,
        shutouts_given=len([s for s in sheet.shutouts if s != name]) if won else 0,
        shutouts_taken=int(name in sheet.shutouts),
        points=received - paid,
        money=money,
        money_by_currency={} if money is None else {game.currency: money},
    )


def _add(a: Figures, b: Figures) -> Figures:
    """Two sets of figures as one (runs and biggest boxes are the larger of the two)."""
    kinds = Counter(a.kinds)
    kinds.update(b.kinds)
    biggest = a.biggest
    if b.biggest is not None and (biggest is None or b.biggest.points > biggest.points):
        biggest = b.biggest
    money = None if a.money is None and b.money is None else (a.money or 0.0) + (b.money or 0.0)
    return Figures(
        games=a.games + b.games,
        won=a.won + b.won,
        finished=a.finished + b.finished,
        boxes=a.boxes + b.boxes,
        boxes_won=a.boxes_won + b.boxes_won,
        kinds=dict(kinds),
        credit=a.credit + b.credit,
        biggest=biggest,
        longest_run=max(a.longest_run, b.longest_run),
        shutouts_given=a.shutouts_given + b.shutouts_given,
        shutouts_taken=a.shutouts_taken + b.shutouts_taken,
        points=a.points + b.points,
        money=None if money is None else round(money, 2),
        money_by_currency=_by_currency(a.money_by_currency, b.money_by_currency),
    )


def _by_currency(a: Mapping[str, float], b: Mapping[str, float]) -> dict[str, float]:
    """Two sets of money per currency added currency by currency.

    >>> _by_currency({"USD": 1.5, "": 2.0}, {"USD": 1.25, "EUR": 3.0})
    {'USD': 2.75, '': 2.0, 'EUR': 3.0}
    """
    total = dict(a)
    for code, amount in b.items():
        total[code] = round(total.get(code, 0.0) + amount, 2)
    return total


def oldest_first(games: Iterable[Played]) -> list[Played]:
    """Games in the order they were played: by day, then by when play began (games
    that do not say keep the order given).

    >>> sheet = Sheet(totals={})
    >>> late = Played("late", date(2026, 11, 1), "gin", (), (), None, sheet,
    ...     datetime(2026, 11, 1, 21, 0))
    >>> early = Played("early", date(2026, 11, 1), "gin", (), (), None, sheet,
    ...     datetime(2026, 11, 1, 19, 0))
    >>> [g.id for g in oldest_first([late, early])], [g.id for g in newest_first([early, late])]
    (['early', 'late'], ['late', 'early'])
    """
    return sorted(games, key=lambda g: (g.day, g.began or datetime.min))


def newest_first(games: Iterable[Played]) -> list[Played]:
    """Games newest first: :func:`oldest_first` read backwards (so games of one day
    that do not say when they began come last given, first shown)."""
    return oldest_first(games)[::-1]


def record(person: str, games: Iterable[Played], *, only: Collection[str] | None = None) -> Record:
    """The record of ``person`` (a folded name) over the games they played in; ``only``:
    the ids of the games to count (an event's, say), else all."""
    person = fold(person)
    played = newest_first(g for g in games if person in g.people and (only is None or g.id in only))
    overall = Figures()
    presets: dict[str, Figures] = {}
    for game in played:
        figures = _game_figures(person, game)
        overall = _add(overall, figures)
        presets[game.rules] = _add(presets.get(game.rules, Figures()), figures)
    name = played[0].name_of(person) if played else None
    return Record(person, name or person, overall, presets, tuple(played))


@dataclass(frozen=True)
class Person:
    """A person in a list of players: the name last played under, games and games won."""

    person: str
    name: str
    games: int
    won: int


def people(games: Iterable[Played]) -> list[Person]:
    """Everyone who played in ``games``, most games first, then by name."""
    seen: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for game in newest_first(games):
        for name, person in zip(game.players, game.people, strict=True):
            tally = seen.setdefault(person, [0, 0])
            names.setdefault(person, name)
            tally[0] += 1
            tally[1] += int(game.sheet.winner == name)
    return sorted(
        (Person(p, names[p], g, w) for p, (g, w) in seen.items()), key=lambda p: (-p.games, p.person)
    )


@dataclass(frozen=True)
class Versus:
    """Two or three people against each other: the games they all played (within the
    period), games and boxes each won there, and what each owes or is owed by each
    other (``net[(a, b)]``: settlement points, and money, from b to a, less from a to b)."""

    people: tuple[str, ...]
    names: Mapping[str, str]
    games: tuple[Played, ...]
    won: Mapping[str, int]
    boxes_won: Mapping[str, int]
    net: Mapping[tuple[str, str], int]
    money: Mapping[tuple[str, str], float]
    since: date | None = None
    until: date | None = None


def head_to_head(
    people_: Sequence[str], games: Iterable[Played], *, since: date | None = None, until: date | None = None
) -> Versus:
    """``people_`` (two or three, folded here) in the games they all played from
    ``since`` to ``until`` (both included)."""
    folded = tuple(dict.fromkeys(fold(p) for p in people_))
    if not 2 <= len(folded) <= 3:
        raise ValueError("head to head takes two or three different players")
    together = newest_first(
        g
        for g in games
        if all(p in g.people for p in folded)
        and (since is None or g.day >= since)
        and (until is None or g.day <= until)
    )
    won = dict.fromkeys(folded, 0)
    boxes = dict.fromkeys(folded, 0)
    net = {(a, b): 0 for a in folded for b in folded if a != b}
    money = {(a, b): 0.0 for a in folded for b in folded if a != b}
    for game in together:
        winner = game.person_of(game.sheet.winner)
        if winner in won:
            won[winner] += 1
        for box in game.boxes:
            who = game.person_of(box.winner)
            if who in boxes:
                boxes[who] += 1
        for payment in game.payments:
            payer, payee = game.person_of(payment.payer), game.person_of(payment.payee)
            if (payee, payer) in net and payer is not None and payee is not None:
                net[(payee, payer)] += payment.points
                net[(payer, payee)] -= payment.points
                amount = payment.amount or 0.0
                money[(payee, payer)] = round(money[(payee, payer)] + amount, 2)
                money[(payer, payee)] = round(money[(payer, payee)] - amount, 2)
    names = {p: next((g.name_of(p) or p for g in together), p) for p in folded}
    return Versus(folded, names, tuple(together), won, boxes, net, money, since, until)


def running_net(
    person: str, games: Iterable[Played], against: Sequence[str] = ()
) -> tuple[tuple[int, int], ...]:
    """(game, settlement points so far) from (0, 0) over the finished games of ``person``
    oldest first; with ``against``, only what passed between them and those people."""
    person = fold(person)
    others = {fold(p) for p in against}
    points = [(0, 0)]
    total = 0
    for game in oldest_first(games):
        if person not in game.people or not game.sheet.game_over:
            continue
        if others and not all(o in game.people for o in others):
            continue
        name = game.name_of(person)
        for payment in game.payments:
            counterpart = (
                payment.payer if payment.payee == name else (payment.payee if payment.payer == name else None)
            )
            if counterpart is None or (others and game.person_of(counterpart) not in others):
                continue
            total += payment.points if payment.payee == name else -payment.points
        points.append((len(points), total))
    return tuple(points)


def results_chart(
    people_: Sequence[str], games: Sequence[Played], names: Mapping[str, str] | None = None
) -> Chart:
    """Settlement points won or lost so far, finished game by finished game: one line for
    a player's page, one per person head to head (only what passed between them)."""
    folded = [fold(p) for p in people_]
    lines = []
    for seat, person in enumerate(folded):
        others = [p for p in folded if p != person]
        points = running_net(person, games, against=others)
        lines.append(ChartLine((names or {}).get(person, person), points, seat))
    title = (
        "Points settled, game by game" if len(folded) == 1 else "Points settled between them, game by game"
    )
    return Chart(title, None, tuple(lines), unit="game")


__all__ = [
    "KINDS",
    "NO_BOX",
    "Alias",
    "Biggest",
    "Figures",
    "Names",
    "Person",
    "Played",
    "Record",
    "TableSummary",
    "Versus",
    "Words",
    "counted_result",
    "fold",
    "head_to_head",
    "newest_first",
    "oldest_first",
    "people",
    "record",
    "results_chart",
    "running_net",
    "standings",
    "table_result",
    "words_of",
]
