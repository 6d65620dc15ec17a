"""Regex and heuristic metadata extraction: dates, fiscal periods, money, percentages, names.

:func:`extract_metadata` is deterministic, needs no model and reads only the
text it is given. What it finds (keys as in :mod:`sectionrag.enrichment_fields`):

- ``dates``: ``March 31, 2025``, ``31 March 2025``, ``2025-03-31``,
  ``03/31/2025`` (month first unless the first number is over 12) as
  ``YYYY-MM-DD``; ``March 2025`` as ``YYYY-MM``.
- ``fiscal_periods``: ``fiscal 2025``, ``fiscal year 2025``, ``FY2025``,
  ``FY 25``, ``FY'25``, ``the fiscal year ended December 31, 2025`` as
  ``FY2025``; ``Q3 2024``, ``third quarter of 2024`` as ``Q3 2024`` (``Q3
  FY2024`` when the quarter is said to be fiscal); ``H1 2024``, ``first half
  of 2024`` as ``H1 2024``.
- ``years``: every year from 1900 to 2099 standing on its own, plus the years
  of the dates and fiscal periods above.
- ``amounts``: ``$4.2 billion``, ``US$600 million``, ``€3.5m``, ``£120k``,
  ``EUR 10 million``, ``12 million dollars`` as
  ``{"text": "$4.2 billion", "value": 4200000000.0, "currency": "USD"}``.
- ``percentages``: ``12%``, ``12.5 percent``, ``3 per cent`` as numbers.
- ``organizations``: capitalised names ending in a corporate or institutional
  word (``Northwind Analytics, Inc.``, ``Harbor & Vale LLP``, ``Superior
  Court of California``, ``University of Chicago``).
- ``people``: names after an honorific or title (``Dr. Jane Smith``,
  ``President Obama``) and names given for a role (``Our chief executive
  officer is Dana Whitfield``, ``Dana Whitfield, our CEO``).
- ``entities``: organisations then people, without duplicates.

Heuristics miss names without such cues and sometimes take a capitalised
phrase for a name; an LLM enricher does better on entities.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["extract_metadata"]

_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_MONTH = (
    r"(?P<{name}>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_YEAR = r"(?P<{name}>(?:19|20)\d\d)"


def _m(name: str) -> str:
    return _MONTH.format(name=name)


def _y(name: str) -> str:
    return _YEAR.format(name=name)


_MONTH_PLAIN = _MONTH.replace("(?P<{name}>", "(?:")
# what may stand just before a year to make a date of it (matched at the end of a short window)
_BEFORE_YEAR = re.compile(
    "(?:"
    + "|".join(
        [
            rf"(?<![A-Za-z]){_m('m1')}\s+(?P<d1>[0-3]?\d)(?:st|nd|rd|th)?,?\s+",
            rf"(?<![\w/.])(?P<d2>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?{_m('m2')},?\s+",
            rf"(?<![A-Za-z]){_m('m5')},?\s+(?:of\s+)?",
            r"(?<![\w/.])(?P<a4>[01]?\d)/(?P<b4>[0-3]?\d)/",
        ]
    )
    + ")$"
)
_AFTER_YEAR = re.compile(r"-(?P<m>[01]\d)-(?P<d>[0-3]\d)(?![\w-])")
_YEAR_TOKEN = re.compile(r"(?<![\w.,-])(?:19|20)\d\d(?!\w)")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_FY_SHORT = r"(?P<{name}>(?:19|20)\d\d|'?\d\d)"
_FISCAL = re.compile(
    "|".join(
        [
            # fiscal year ended December 31, 2025 / fiscal year ending June 2024
            r"\bfiscal\s+(?:year|quarter|period)\s+(?:ended|ending)\s+(?:on\s+)?"
            + _m("fm")
            + r"(?:\s+[0-3]?\d(?:st|nd|rd|th)?)?,?\s+"
            + _y("fe"),
            # Q3 2024, Q3 FY2024, Q3 FY24, 3Q24
            r"\bQ(?P<q1>[1-4])\s*(?P<qf1>FY\s?)?" + _FY_SHORT.format(name="qy1") + r"\b",
            r"\b(?P<q2>[1-4])Q\s?(?P<qf2>FY\s?)?" + _FY_SHORT.format(name="qy2") + r"\b",
            # third quarter of (fiscal) (year) 2024
            r"\b(?P<q3>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+"
            r"(?:of\s+)?(?:the\s+)?(?P<qf3>fiscal\s+)?(?:year\s+)?" + _y("qy3"),
            # H1 2024, 1H24, first half of 2024
            r"\bH(?P<h1>[12])\s*(?P<hf1>FY\s?)?" + _FY_SHORT.format(name="hy1") + r"\b",
            r"\b(?P<h2>[12])H\s?(?P<hf2>FY\s?)?" + _FY_SHORT.format(name="hy2") + r"\b",
            r"\b(?P<h3>first|second)\s+half\s+(?:of\s+)?(?:the\s+)?(?P<hf3>fiscal\s+)?(?:year\s+)?"
            + _y("hy3"),
            # fiscal 2025, fiscal year 2025, fiscal years 2024 and 2025
            r"\bfiscal\s+(?:years?\s+)?(?P<fl>(?:19|20)\d\d(?:\s*(?:,|and|to|through|-|\u2013)\s*(?:19|20)\d\d)*)\b",
            # FY2025, FY 2025, FY25, FY'25
            r"\bFY\s?" + _FY_SHORT.format(name="fy") + r"\b",
        ]
    ),
    re.IGNORECASE,
)
_YEAR_ALONE = re.compile(r"(?<![\w$€£¥.,/:-])((?:19|20)\d\d)(?![\w%]|[.,]\d)")
_SCALES = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "m": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
    "t": 1e12,
}
_SYMBOLS = {
    "$": "USD",
    "us$": "USD",
    "a$": "AUD",
    "c$": "CAD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
}
_CODES = ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR")
_WORD_CURRENCIES = {
    "dollar": "USD",
    "dollars": "USD",
    "euro": "EUR",
    "euros": "EUR",
    "pound": "GBP",
    "pounds": "GBP",
    "yen": "JPY",
}
_NUMBER = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_SCALE = r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|mm|tn|[kKmMbBtT])\b)?"
_MONEY_SYMBOL = re.compile(r"(?P<sym>[$€£¥₹])\s?" + _NUMBER + _SCALE)
_MONEY_CODE = re.compile(r"\b(?P<code>" + "|".join(_CODES) + r")\s?" + _NUMBER + _SCALE)
_MONEY_WORD = re.compile(
    r"(?<![\w.,])"
    + _NUMBER
    + r"(?:\s?(?P<scale>thousand|million|billion|trillion))?\s+(?P<word>(?:US\s)?dollars?|euros?"
    r"|pounds?(?:\s+sterling)?|yen)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    r"(?<![\w.])(?P<num>[-+\u2212]?\d+(?:\.\d+)?)\s?(?:%|percent\b|per\s?cent\b)", re.IGNORECASE
)

_NAME_WORD = r"(?:[A-Z][a-zA-Z'\u2019-]+|[A-Z]\.)"
_ORG_SUFFIX = (
    r"(?:Inc\.?|Incorporated|Corp\.?|Corporation|Co\.|Company|Ltd\.?|Limited|LLC|L\.L\.C\.|LLP|L\.P\.|LP"
    r"|PLC|plc|GmbH|AG|S\.A\.|N\.V\.|Group|Holdings|Bank|Authority|Agency|Association|Institute"
    r"|University|College|Commission|Council|Foundation|Board|Department|Ministry|Court|Administration"
    r"|Bureau|Committee|Partners|Society|Trust|Reserve|Office|Corps|Congress|Senate|Museum"
    r"|Laboratory|Laboratories|Labs|Systems|Technologies)(?![\w&])"
)
_CONNECT = r"(?:\s(?:&|of|of\sthe|for|de|du|von)\s|\s|,\s(?=(?:Inc|Corp|Ltd|LLC|LLP|L\.P|PLC|plc)\b))"
_ORG = re.compile(
    rf"\b(?P<org>(?:{_NAME_WORD}{_CONNECT})*?{_NAME_WORD}{_CONNECT}{_ORG_SUFFIX}"
    rf"(?:\sof\s(?:the\s)?{_NAME_WORD}(?:\s{_NAME_WORD})*)?"
    rf"|\b(?:University|Department|Ministry|Bank|Court|Board|Office|Bureau|Institute|College|Museum|Council)"
    rf"\sof\s(?:the\s)?{_NAME_WORD}(?:\s{_NAME_WORD})*)"
)
_LEADING_NOISE = {
    "the",
    "a",
    "an",
    "our",
    "its",
    "their",
    "his",
    "her",
    "this",
    "that",
    "these",
    "those",
    "in",
    "at",
    "on",
    "by",
    "for",
    "from",
    "with",
    "and",
    "of",
    "to",
    "as",
    "we",
    "if",
    "when",
    "while",
    "after",
    "before",
    "under",
    "since",
    "every",
    "each",
    "all",
    "no",
    "both",
}
_HONORIFIC = re.compile(
    r"\b(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sir|Dame|Lord|Lady|President|Senator|Sen|Rep|Representative|Governor|Gov"
    r"|Judge|Justice|Chairman|Chairwoman|Secretary|Captain|Capt|Rev|Professor|Mayor|Minister"
    r"|Prime\sMinister|Vice\sPresident|CEO|CFO)\.?\s+(?P<name>[A-Z][a-zA-Z'\u2019-]+(?:\s(?:[A-Z]\.|[A-Z][a-zA-Z'\u2019-]+)){0,2})"
)
_ROLE = (
    r"(?i:chief\s+\w+\s+officer|CEO|CFO|COO|CTO|founder|co-founder|chair(?:man|woman|person)?|president"
    r"|general\s+counsel|treasurer|secretary|director|managing\s+director)"
)
_PERSON_NAME = r"(?P<{n}>[A-Z][a-z'\u2019-]+(?:\s(?:[A-Z]\.|[A-Z][a-z'\u2019-]+)){{1,2}})"
_ROLE_PERSON = re.compile(
    rf"\b{_ROLE}\s+(?i:is|was|has\s+been|,)\s+{_PERSON_NAME.format(n='p1')}"
    rf"|\b{_PERSON_NAME.format(n='p2')},\s+(?i:our|the|its|who\s+is\s+(?:our|the))\s+(?:\w+\s+)?{_ROLE}\b"
)
#: capitalised words that are titles or calendar words, never a person's name by themselves
_NOT_NAMES = {
    "speaker",
    "president",
    "vice",
    "chairman",
    "chairwoman",
    "secretary",
    "general",
    "minister",
    "senator",
    "governor",
    "justice",
    "chief",
    "members",
    "congress",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "the",
    "and",
    "our",
    "we",
    "my",
    "mr",
    "mrs",
    "ms",
    "dr",
    "sir",
    "madam",
    "manager",
    "director",
    "officer",
}
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_LETTERS = re.compile(r"[A-Za-z]+")
_YEAR_DIGITS = re.compile(r"(?:19|20)\d\d")
# words (as found by _LETTERS) without which a pattern cannot match: cheap checks before the regexes
_FISCAL_WORDS = frozenset({"fiscal", "fy", "quarter", "half", "q", "h"})
_MONEY_WORDS = frozenset({"dollar", "dollars", "euro", "euros", "pound", "pounds", "yen"})
_MONEY_SYMBOLS = "$€£¥₹"
_PERCENT_WORDS = frozenset({"percent", "cent"})
_ORG_WORDS = frozenset(re.findall(r"[A-Za-z]+", _ORG_SUFFIX)) - {"L", "P", "C", "S", "A", "N", "V"}
_HONORIFIC_WORDS = frozenset(re.findall(r"[A-Z][A-Za-z]+", _HONORIFIC.pattern))
_ROLE_WORDS = frozenset(
    {"chief", "ceo", "cfo", "coo", "cto", "founder", "chair", "chairman", "chairwoman", "chairperson"}
) | {"president", "counsel", "treasurer", "secretary", "director"}


def _short_year(text: str) -> int:
    digits = text.lstrip("'")
    year = int(digits)
    return year if len(digits) == 4 else 2000 + year


def _add(out: list[Any], value: Any) -> None:
    if value not in out:
        out.append(value)


def _dates(text: str, dates: list[str], years: list[int]) -> None:
    for y in _YEAR_TOKEN.finditer(text):
        year = int(y.group(0))
        after = _AFTER_YEAR.match(text, y.end())
        if after is not None:
            month, day = int(after.group("m")), int(after.group("d"))
        else:
            before = _BEFORE_YEAR.search(text, max(0, y.start() - 24), y.start())
            if before is None:
                continue
            g = before.groupdict()
            if g["m5"]:
                if g["m5"] == "may":  # "may 2025" in lower case is a verb, not a month
                    continue
                month = _MONTHS[g["m5"].lower()]
                if 1 <= month <= 12:
                    _add(dates, f"{year:04d}-{month:02d}")
                    _add(years, year)
                continue
            if g["a4"]:
                a, b = int(g["a4"]), int(g["b4"])
                month, day = (b, a) if a > 12 else (a, b)
            else:
                month, day = _MONTHS[(g["m1"] or g["m2"]).lower()], int(g["d1"] or g["d2"])
        if 1 <= month <= 12 and 1 <= day <= 31:
            _add(dates, f"{year:04d}-{month:02d}-{day:02d}")
            _add(years, year)


def _fiscal(text: str, periods: list[str], years: list[int]) -> None:
    for m in _FISCAL.finditer(text):
        g = m.groupdict()
        found: list[tuple[str, int]] = []
        if g["fe"]:
            year = int(g["fe"])
            found.append((f"FY{year}", year))
        elif g["q1"] or g["q2"]:
            year = _short_year(g["qy1"] or g["qy2"])
            fiscal = bool(g["qf1"] or g["qf2"])
            found.append((f"Q{g['q1'] or g['q2']} {'FY' if fiscal else ''}{year}", year))
            if fiscal:
                found.append((f"FY{year}", year))
        elif g["q3"]:
            year, q = int(g["qy3"]), _ORDINALS[g["q3"].lower()]
            fiscal = bool(g["qf3"]) or "fiscal" in m.group(0).lower()
            found.append((f"Q{q} {'FY' if fiscal else ''}{year}", year))
            if fiscal:
                found.append((f"FY{year}", year))
        elif g["h1"] or g["h2"]:
            year = _short_year(g["hy1"] or g["hy2"])
            fiscal = bool(g["hf1"] or g["hf2"])
            found.append((f"H{g['h1'] or g['h2']} {'FY' if fiscal else ''}{year}", year))
        elif g["h3"]:
            year, h = int(g["hy3"]), 1 if g["h3"].lower() == "first" else 2
            fiscal = bool(g["hf3"])
            found.append((f"H{h} {'FY' if fiscal else ''}{year}", year))
        elif g["fl"]:
            for y in re.findall(r"(?:19|20)\d\d", g["fl"]):
                found.append((f"FY{y}", int(y)))
        elif g["fy"]:
            year = _short_year(g["fy"])
            found.append((f"FY{year}", year))
        for label, year in found:
            _add(periods, label)
            _add(years, year)


def _money(text: str, words: set[str], lower: set[str]) -> list[dict[str, Any]]:
    found: list[tuple[int, dict[str, Any]]] = []
    taken: set[int] = set()

    def add(start: int, end: int, currency: str, num: str, scale: str | None) -> None:
        if start in taken:
            return
        taken.add(start)
        value = float(num.replace(",", "")) * _SCALES.get((scale or "").lower(), 1.0)
        found.append((start, {"text": text[start:end].strip(), "value": value, "currency": currency}))

    if any(c in text for c in _MONEY_SYMBOLS):
        for m in _MONEY_SYMBOL.finditer(text):
            start, currency = m.start(), _SYMBOLS[m.group("sym")]
            if m.group("sym") == "$":
                for prefix in ("US", "A", "C"):
                    if (
                        text.endswith(prefix, 0, start)
                        and not text[start - len(prefix) - 1 : start - len(prefix)].isalpha()
                    ):
                        start, currency = start - len(prefix), _SYMBOLS[prefix.lower() + "$"]
                        break
            add(start, m.end(), currency, m.group("num"), m.group("scale"))
    if not words.isdisjoint(_CODES):
        for m in _MONEY_CODE.finditer(text):
            add(m.start(), m.end(), m.group("code"), m.group("num"), m.group("scale"))
    if not lower.isdisjoint(_MONEY_WORDS):
        for m in _MONEY_WORD.finditer(text):
            word = m.group("word").lower().split()[-1]
            currency = "GBP" if word == "sterling" else _WORD_CURRENCIES.get(word, "USD")
            add(m.start(), m.end(), currency, m.group("num"), m.group("scale"))
    found.sort(key=lambda item: item[0])
    return [amount for _, amount in found]


def _clean_org(raw: str) -> str | None:
    words = raw.split()
    while words and (words[0].lower() in _LEADING_NOISE or words[0].lower().rstrip(".") in _MONTHS):
        words = words[1:]
    if len(words) < 2:
        return None
    return " ".join(words).rstrip(",")


def _people(text: str, words: frozenset[str] | set[str], lower: set[str]) -> list[str]:
    people: list[str] = []
    honorifics = _HONORIFIC.finditer(text) if not _HONORIFIC_WORDS.isdisjoint(words) else ()
    for m in honorifics:
        parts = [_POSSESSIVE.sub("", w) for w in m.group("name").split()]
        parts = [w for w in parts if w and w.lower().strip(".") not in _NOT_NAMES]
        while parts and parts[-1].lower() in _LEADING_NOISE:
            parts.pop()
        if parts and not all(len(w.rstrip(".")) == 1 for w in parts):
            _add(people, " ".join(parts))
    roles = _ROLE_PERSON.finditer(text) if not _ROLE_WORDS.isdisjoint(lower) else ()
    for m in roles:
        name = m.group("p1") or m.group("p2")
        parts = name.split()
        if not all(w[0].isupper() for w in parts):
            continue
        if any(w.lower().strip(".") in _NOT_NAMES or w.lower() in _LEADING_NOISE for w in parts):
            continue
        _add(people, name)
    # drop a bare surname already present inside a longer name ("Whitfield" vs "Dana Whitfield")
    return [p for p in people if not any(p != q and q.endswith(" " + p) for q in people)]


def extract_metadata(text: str) -> dict[str, Any]:
    """Find dates, fiscal periods, years, money, percentages, organisations and people in ``text``.

    Returns:
        A dict with the keys ``dates``, ``years``, ``fiscal_periods``,
        ``amounts``, ``percentages``, ``organizations``, ``people`` and
        ``entities`` (lists, in order of first appearance, without duplicates;
        ``years`` sorted).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    words = set(_LETTERS.findall(text))
    lower = {w.lower() for w in words}
    dates: list[str] = []
    years: list[int] = []
    periods: list[str] = []
    has_year = _YEAR_DIGITS.search(text) is not None
    if has_year:
        _dates(text, dates, years)
    if not _FISCAL_WORDS.isdisjoint(lower):
        _fiscal(text, periods, years)
    if has_year:
        for m in _YEAR_ALONE.finditer(text):
            _add(years, int(m.group(1)))
    percentages: list[float] = []
    if "%" in text or not _PERCENT_WORDS.isdisjoint(lower):
        for m in _PERCENT.finditer(text):
            _add(percentages, float(m.group("num").replace("\u2212", "-")))
    organizations: list[str] = []
    if not _ORG_WORDS.isdisjoint(words):
        for m in _ORG.finditer(text):
            name = _clean_org(m.group("org"))
            if name is not None:
                _add(organizations, name)
    people = _people(text, words, lower)
    entities: list[str] = []
    for name in [*organizations, *people]:
        _add(entities, name)
    return {
        "dates": dates,
        "years": sorted(years),
        "fiscal_periods": periods,
        "amounts": _money(text, words, lower),
        "percentages": percentages,
        "organizations": organizations,
        "people": people,
        "entities": entities,
    }
