"""The texts of RULES.md by rule id, for explanations and the rules pages.

Every ruling cites rule ids (``J7``, ``G3``); a player checks the ruling by
reading that rule. The package carries a copy of RULES.md and this module
parses it, so the texts shown are always those of the specification. The file
is read at first use, not at import, and parsed once.

>>> rule_text("J6").title
'Knock credit'
>>> rule_text("J6").section
2
>>> "Scarne" in rule_text("J6").text
True
>>> RULE_TEXTS["V3"].title
'hollywood'
>>> [section.rule_ids[:3] for section in sections()][:2]
[('C1', 'C2', 'C3'), ('J1', 'J2', 'J3')]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources

from .errors import MalformedError

_SECTION_RE = re.compile(r"^## (\d+)\. (.+)$")
_RULE_RE = re.compile(r"^- \*\*([A-Z]\d+)(?: ([^*]+?))?\.?\*\*\s*(.*)$")
_UNTITLED = {"K1": "Deal", "K2": "Knock", "K3": "Credit", "K4": "Void box", "K5": "Game end"}
"""RULES.md gives the Knock Rummy rules no titles; these short ones stand in for them."""


@dataclass(frozen=True)
class RuleText:
    """One rule of RULES.md: its id, short title, plain text and section number."""

    id: str
    title: str
    text: str
    section: int
    markdown: str = ""
    """The rule's body as written in RULES.md (inline Markdown kept)."""


@dataclass(frozen=True)
class Section:
    """A numbered section of RULES.md with the ids of its rules, in order.

    ``text`` is the section's Markdown outside its rules: the introduction of
    §3, the checks of §6, the settings table of §7.
    """

    number: int
    title: str
    rule_ids: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class _Document:
    rules: dict[str, RuleText]
    sections: tuple[Section, ...]


def plain(markdown: str) -> str:
    """Inline Markdown as plain text: emphasis and code marks dropped.

    >>> plain("**no** gin bonus (setting `break_gin_bonus`, *Scarne* 0)")
    'no gin bonus (setting break_gin_bonus, Scarne 0)'
    """
    return re.sub(r"(\*\*|\*|`)", "", markdown)


@functools.cache
def _document() -> _Document:
    """Read and parse the packaged RULES.md once, on first use."""
    source = resources.files(__package__).joinpath("RULES.md").read_text(encoding="utf-8")
    return parse(source)


def parse(source: str) -> _Document:
    """Split RULES.md into sections and rules (``- **J6 Title.** text`` bullets)."""
    rules: dict[str, RuleText] = {}
    sections: list[Section] = []
    for number, title, lines in _split_sections(source):
        ids: list[str] = []
        other: list[str] = []
        for rule_id, rule_title, body in _split_rules(lines, other):
            title_text = plain(rule_title) or _UNTITLED.get(rule_id, rule_id)
            rules[rule_id] = RuleText(rule_id, title_text, plain(body), number, body)
            ids.append(rule_id)
        sections.append(Section(number, plain(title), tuple(ids), "\n".join(other).strip()))
    if not rules:
        raise MalformedError("RULES.md has no rules in it")
    return _Document(rules, tuple(sections))


def _split_sections(source: str) -> Iterator[tuple[int, str, list[str]]]:
    """The numbered ``## n. Title`` sections with their lines (the preamble is skipped)."""
    current: tuple[int, str] | None = None
    lines: list[str] = []
    for line in source.splitlines():
        match = _SECTION_RE.match(line)
        if match:
            if current is not None:
                yield current[0], current[1], lines
            current, lines = (int(match.group(1)), match.group(2)), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        yield current[0], current[1], lines


def _split_rules(lines: list[str], other: list[str]) -> Iterator[tuple[str, str, str]]:
    """Rule bullets as (id, title, body); a bullet continues on indented lines.

    Lines that belong to no rule are appended to ``other``.
    """
    rule: list[str] | None = None
    head: tuple[str, str] = ("", "")
    for line in lines:
        match = _RULE_RE.match(line)
        if match:
            if rule is not None:
                yield head[0], head[1], " ".join(rule)
            head, rule = (match.group(1), match.group(2) or ""), [match.group(3)]
        elif rule is not None and line.startswith("  ") and line.strip():
            rule.append(line.strip())
        else:
            if rule is not None:
                yield head[0], head[1], " ".join(rule)
                rule = None
            other.append(line)
    if rule is not None:
        yield head[0], head[1], " ".join(rule)


def rule_texts() -> dict[str, RuleText]:
    """Every rule of RULES.md by id (a fresh dict; the parse itself is cached)."""
    return dict(_document().rules)


def rule_text(rule_id: str) -> RuleText:
    """One rule by id; an unknown id is an error naming it.

    >>> rule_text("Z9")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: RULES.md has no rule 'Z9'
    """
    found = _document().rules.get(rule_id)
    if found is None:
        raise MalformedError(f"RULES.md has no rule {rule_id!r}")
    return found


def sections() -> tuple[Section, ...]:
    """The numbered sections of RULES.md, each with its rule ids (for the rules pages)."""
    return _document().sections


def checks() -> tuple[str, ...]:
    """The checks of RULES.md §6, one plain sentence (or more) per bullet.

    >>> checks()[0].startswith("Every card is one of the 52")
    True
    """
    section = next(s for s in sections() if s.number == 6)
    items: list[str] = []
    for line in section.text.splitlines():
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif items and line.strip():
            items[-1] += " " + line.strip()
    return tuple(plain(item) for item in items)


def settings_table() -> tuple[tuple[str, ...], ...]:
    """The settings table of RULES.md §7 as rows of plain cells, the header row first.

    >>> table = settings_table()
    >>> table[0][:3]
    ('setting', 'meaning', 'jersey-scarne')
    >>> [row for row in table if row[0] == "game_target"][0][2:4]
    ('100', '200')
    """
    section = next(s for s in sections() if s.number == 7)
    rows = []
    for line in section.text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        rows.append(tuple(plain(cell.strip()) for cell in line.strip().strip("|").split("|")))
    return tuple(rows)


class _LazyRuleTexts(Mapping[str, RuleText]):
    """A read-only mapping of rule ids to texts that reads RULES.md on first access."""

    def __getitem__(self, rule_id: str) -> RuleText:
        return _document().rules[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(_document().rules)

    def __len__(self) -> int:
        return len(_document().rules)

    def __repr__(self) -> str:
        return "RULE_TEXTS"


RULE_TEXTS: Mapping[str, RuleText] = _LazyRuleTexts()
"""Every rule by id, like a dict; importing this reads nothing until it is used."""
