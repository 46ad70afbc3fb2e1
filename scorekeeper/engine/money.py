"""A stake's currency: the code the game keeps, the symbol players write and read.

Players write the symbol they use ("€", "£", "$"); the game keeps the ISO 4217 code
("EUR"), one spelling per currency, so a season adds each currency's money apart.
Sheets print the code as its symbol where one is unambiguous in English use (the
symbol a player would have written), else as the code after the amount.

>>> read_currency("€"), read_currency("gbp"), symbol_of("EUR"), symbol_of("CHF")
('EUR', 'GBP', '€', '')
"""

from __future__ import annotations

SYMBOLS: dict[str, str] = {
    "€": "EUR",
    "£": "GBP",
    "$": "USD",
    "US$": "USD",
    "¥": "JPY",
    "₹": "INR",
    "₪": "ILS",
    "₩": "KRW",
    "₽": "RUB",
    "฿": "THB",
    "₺": "TRY",
    "₴": "UAH",
    "₫": "VND",
    "₱": "PHP",
    "₦": "NGN",
    "R$": "BRL",
    "C$": "CAD",
    "A$": "AUD",
    "zł": "PLN",
}
"""Each symbol a player may write, and the currency it means (``$`` alone is the US
dollar, as on the phones' keyboards; other dollars are written with their letter)."""

_PRINTED = {"EUR": "€", "GBP": "£", "USD": "$", "JPY": "¥", "INR": "₹", "ILS": "₪", "KRW": "₩"}
_PRINTED |= {"RUB": "₽", "THB": "฿", "TRY": "₺", "UAH": "₴", "VND": "₫", "PHP": "₱", "NGN": "₦"}
_PRINTED |= {"BRL": "R$", "CAD": "C$", "AUD": "A$"}


def read_currency(value: str) -> str | None:
    """The ISO 4217 code for ``value``, a code in any case or a symbol of :data:`SYMBOLS`
    (None when it is neither).

    >>> read_currency("usd"), read_currency(" $ "), read_currency("euro")
    ('USD', 'USD', None)
    """
    said = value.strip()
    if said in SYMBOLS:
        return SYMBOLS[said]
    if len(said) == 3 and said.isascii() and said.isalpha():
        return said.upper()
    return None


def symbol_of(code: str) -> str:
    """The symbol a sheet prints before an amount in ``code``, or "" to print the code
    after it ("7.10 CHF").

    >>> symbol_of("GBP"), symbol_of("SEK"), symbol_of("")
    ('£', '', '')
    """
    return _PRINTED.get(code, "")
