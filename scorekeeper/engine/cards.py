"""Cards of the 52-card pack (RULES.md C1, C2).

A :class:`Card` is a small frozen value. It reads every notation C1 lists and
prints ``7♣`` for people (``str``) and ``7C`` for JSON (:attr:`Card.code`).
Each card also has an :attr:`Card.index` from 0 to 51 (suit-major, ace low), so
a hand can be held as a 52-bit mask by the meld solver.

>>> Card.parse("7c")
Card.parse('7C')
>>> str(Card.parse("Th")), Card.parse("10♥").code
('10♥', '10H')
>>> [c.code for c in parse_cards("AS 2s,3♠  10D")]
['AS', '2S', '3S', '10D']
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import InvalidCardError, MalformedError


class Suit(enum.Enum):
    """The four suits in index order ♣ ♦ ♥ ♠."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def number(self) -> int:
        """0 for clubs up to 3 for spades: the suit's block in a card index."""
        return _SUIT_NUMBERS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_NUMBERS = {suit: n for n, suit in enumerate(Suit)}
SUITS: tuple[Suit, ...] = tuple(Suit)

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names for output, index 0 is the ace (rank 1)."""

_RANK_INPUT = {name: n for n, name in enumerate(RANK_NAMES, start=1)}
_RANK_INPUT["T"] = 10
_SUIT_INPUT = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}  # fmt: skip
_CARD_RE = re.compile(r"(10|[2-9AJQKT])([CDHS♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king) and a :class:`Suit`.

    Cards order by suit, then rank, which is the order melds and hands print in.
    """

    suit_number: int
    rank: int
    bit: int = field(init=False, repr=False, compare=False)
    """This card's bit in a hand mask (1 << index), kept on the card: building the mask
    of a hand is the solver's first step for every hand."""

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or not 0 <= self.suit_number <= 3:
            raise InvalidCardError(f"no such card: rank {self.rank}, suit {self.suit_number}")
        object.__setattr__(self, "bit", 1 << (self.suit_number * 13 + self.rank - 1))

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return ALL_CARDS[suit.number * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in any notation of C1 (``7C``, ``7♣``, ``TH``, ``10h``).

        >>> Card.parse("q♠")
        Card.parse('QS')
        >>> Card.parse("11H")
        Traceback (most recent call last):
        ...
        scorekeeper.engine.errors.InvalidCardError: '11H' is not a card: ...
        """
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card: cards are written like 7C or 10H")
        cleaned = text.strip().upper().replace("\N{VARIATION SELECTOR-16}", "")
        match = _CARD_RE.fullmatch(cleaned)
        if match is None:
            raise InvalidCardError(f"{text!r} is not a card: write it like 7C, 7♣, 10H or TH")
        rank = _RANK_INPUT[match.group(1)]
        return cls.of(rank, _SUIT_INPUT[match.group(2)])

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index (0 is A♣, 51 is K♠)."""
        return ALL_CARDS[index]

    @property
    def suit(self) -> Suit:
        return SUITS[self.suit_number]

    @property
    def index(self) -> int:
        """0..51, suit-major: the bit of this card in a hand mask."""
        return self.suit_number * 13 + self.rank - 1

    @property
    def code(self) -> str:
        """JSON notation: ``7C``, ``10H``, ``QS``."""
        return RANK_NAMES[self.rank - 1] + self.suit.value

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    def value(self, ace_value: int = 1) -> int:
        """Count value (C2): ace 1 (or ``ace_value``, V4), 2-10 face, J Q K 10."""
        if self.rank == 1:
            return ace_value
        return min(self.rank, 10)

    def __str__(self) -> str:
        return self.rank_name + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


ALL_CARDS: tuple[Card, ...] = tuple(
    object.__new__(Card) for _ in range(52)
)  # filled below without re-validating


def _fill_pack() -> None:
    """Create the 52 card values once, so ``Card.of`` never allocates."""
    for index, card in enumerate(ALL_CARDS):
        object.__setattr__(card, "suit_number", index // 13)
        object.__setattr__(card, "rank", index % 13 + 1)
        object.__setattr__(card, "bit", 1 << index)


_fill_pack()


def read_card(value: object, where: str) -> Card:
    """One card given on its own (an upcard, a laid-off card, a cut), its error at ``where``.

    >>> read_card(7, "upcard")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: a card is written like "4S" or "10H"
    """
    if not isinstance(value, str):
        raise MalformedError('a card is written like "4S" or "10H"', where)
    try:
        return Card.parse(value)
    except InvalidCardError as err:
        raise InvalidCardError(err.message, where) from None


def parse_cards(text: str | Iterable[str], where: str = "cards") -> list[Card]:
    """Read a list of cards: a string with or without separators, or a list of strings.

    The error names the bad card and where it stands.

    >>> [str(c) for c in parse_cards("7c10hQ♠")]
    ['7♣', '10♥', 'Q♠']
    >>> parse_cards(["7C", "ZZ"], "hands.Bob.cards")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.InvalidCardError: 'ZZ' is not a card: ...
    """
    if isinstance(text, str):
        return _parse_card_string(text, where)
    if not isinstance(text, Iterable):
        raise MalformedError(f"{where} must be a list of cards", where)
    cards = []
    for i, item in enumerate(text):
        try:
            cards.append(Card.parse(item))
        except InvalidCardError as err:
            raise InvalidCardError(err.message, f"{where}[{i}]") from None
    return cards


def _parse_card_string(text: str, where: str) -> list[Card]:
    """Split a run-together string such as ``7c10hQ♠`` into cards."""
    cards = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        position = 0
        upper = chunk.upper().replace("\N{VARIATION SELECTOR-16}", "")
        while position < len(upper):
            match = _CARD_RE.match(upper, position)
            if match is None:
                bad = chunk[position:]
                raise InvalidCardError(f"{bad!r} is not a card: write it like 7C, 7♣, 10H or TH", where)
            cards.append(Card.parse(match.group(0)))
            position = match.end()
    return cards


def cards_mask(cards: Iterable[Card]) -> int:
    """The 52-bit mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def mask_cards(mask: int) -> list[Card]:
    """The cards of a mask, in index order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


def count_of(cards: Iterable[Card], ace_value: int = 1) -> int:
    """The sum of the cards' values (C2, C4)."""
    return sum(card.value(ace_value) for card in cards)


def by_rank(card: Card) -> tuple[int, int]:
    """Sort key for deadwood as people read it: by rank, then suit (A♦ A♥ 2♣ ...)."""
    return card.rank, card.suit_number


def meld_order(meld: Sequence[Card]) -> tuple[int, int]:
    """Sort key for melds as people read them: lowest rank first, then suit."""
    return min(card.rank for card in meld), meld[0].suit_number


SUIT_SYMBOLS: dict[str, str] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
"""A suit's JSON letter and the symbol people read (C1): the one card notation the
pages, the PDF and the command line show."""
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}


def shown(code: object) -> str:
    """People's notation of a card written in JSON (C1), anything else as given.

    >>> shown("7C"), shown("Th"), shown("10h"), shown("?")
    ('7♣', '10♥', '10♥', '?')
    """
    value = str(code).strip()
    rank, suit = value[:-1].upper(), value[-1:].upper()
    if suit not in SUIT_SYMBOLS:
        return value
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit]


def spoken(code: object) -> str:
    """A card's name for a screen reader: ``QS`` is ``queen of spades``."""
    value = str(code).strip()
    rank, suit = value[:-1].upper(), value[-1:].upper()
    rank = "10" if rank == "T" else rank
    return f"{RANK_WORDS.get(rank, rank)} of {SUIT_WORDS.get(suit, suit)}"


def codes(cards: Iterable[Card]) -> list[str]:
    """JSON notation for a list of cards."""
    return [card.code for card in cards]


def show(cards: Sequence[Card], joiner: str = "-") -> str:
    """People's notation for a meld: ``A♠-2♠-3♠``."""
    return joiner.join(str(card) for card in cards)
