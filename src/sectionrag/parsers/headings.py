"""Heading heuristics shared by the plain-text and PDF parsers.

A line is a heading candidate when it carries a numbering pattern (``PART II``,
``Chapter 3``, ``Appendix A``, ``Item 1A.``, ``1.2.3``, ``IV.``, ``III-A``) or
is a short all-caps line. :func:`classify` returns the style of a line; the
parsers add their own evidence (blank lines around it in text, font size and
weight in PDFs) before calling it a heading.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "ADMONITIONS",
    "APPENDIX_WORDS",
    "BOOK_TITLES",
    "CHAPTER_WORDS",
    "LABEL_WORD_KINDS",
    "NUMBERED_BOX_WORDS",
    "NUMBER_WORDS",
    "PART_WORDS",
    "HeadingStyle",
    "classify",
    "has_trailing_page_number",
    "is_all_caps",
    "is_toc_line",
    "letter_weight",
    "looks_like_sentence",
    "normalize_for_match",
    "reads_as_labelled_title",
    "reference_name",
    "split_gloss",
    "word_count",
]


# front and back matter titles of books, theses and reports
BOOK_TITLES = frozenset(
    [
        "abstract",
        "acknowledgments",
        "acknowledgements",
        "contents",
        "table of contents",
        "preface",
        "foreword",
        "publications",
        "list of figures",
        "list of tables",
        "listings",
        "bibliography",
        "references",
        "glossary",
        "acronyms",
        "declaration",
        "colophon",
        # (a Chinese thesis: abstract, acknowledgements, references, list of figures, list of tables)
        "\u6458\u8981",
        "\u81f4\u8c22",
        "\u53c2\u8003\u6587\u732e",
        "\u63d2\u56fe\u76ee\u5f55",
        "\u8868\u683c\u76ee\u5f55",
    ]
)


# the words of box titles that may carry a number of their own ("Warning 3 - ...", "Remarque 2 :"),
# in English, French, German, Spanish, Italian, Portuguese, Polish and Czech; never "Note" or "Example",
# which number a filing's notes and, in some manuals, their sections
NUMBERED_BOX_WORDS = frozenset(
    {
        "tip",
        "warning",
        "caution",
        "important",
        "hint",
        "danger",
        "attention",
        "remark",
        "avertissement",
        "remarque",
        "astuce",
        "conseil",
        "hinweis",
        "warnung",
        "achtung",
        "tipp",
        "advertencia",
        "consejo",
        "aviso",
        "avvertenza",
        "suggerimento",
        "dica",
        "uwaga",
        "upozornění",
    }
)
# box titles ("Note", "Warning"), not section headings below chapter size
ADMONITIONS = NUMBERED_BOX_WORDS | {
    "note",
    "notes",
    "tips",
    "example",
    "exemple",
    "beispiel",
    "ejemplo",
    "esempio",
    "exemplo",
    "poznámka",
}


@dataclass(frozen=True, slots=True)
class HeadingStyle:
    """What a heading's numbering says about it.

    Attributes:
        kind: ``part``, ``chapter``, ``appendix``, ``article``, ``item``,
            ``note``, ``section``, ``num``, ``alnum``, ``roman``, ``roman-alpha``,
            ``alpha`` or ``caps``.
        order: Known precedence (smaller is higher) or ``None`` for a style
            known only by its look.
        depth: Numbering depth (``1.2.3`` is 3); 1 for unnumbered styles.
        label: The numbering itself (``1.2``, ``Item 1A``), empty for ``caps``.
        rest: The title after the numbering.
    """

    kind: str
    order: int | None
    depth: int
    label: str
    rest: str


_ROMAN = r"(?:(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))"
_SEP = r"(?:[.:)]|\s*[-\u2013\u2014:]\s*)?"


def _printed(words: tuple[str, ...]) -> str:
    """Return an alternation of label words as printed (capitalised or in capitals)."""
    return "|".join(form for w in words for form in (w.upper(), w.capitalize()))


# the label words of English, French, German, Spanish, Portuguese, Italian, Russian, Polish, Czech,
# Finnish, Dutch and Vietnamese documents (babel, LibreOffice): "Глава 1", "Rozdział 2", "Luku 3",
# "Příloha A", "Chương 2"
CHAPTER_WORDS = (
    "chapter",
    "chapitre",
    "kapitel",
    "cap\u00edtulo",
    "capitolo",
    "глава",
    "rozdział",
    "kapitola",
    "luku",
    "hoofdstuk",
    "ch\u01b0\u01a1ng",
)
# (not "Parte": Portuguese and Spanish open lines with it as a noun, "Parte Interna", "Parte 1" of a
# sample poster)
PART_WORDS = ("part", "partie", "teil")
APPENDIX_WORDS = (
    "appendix",
    "annex",
    "annexe",
    "anhang",
    "apéndice",
    "apêndice",
    "appendice",
    "anexo",
    "приложение",
    "dodatek",
    "příloha",
    "liite",
    "bijlage",
)
_LABELS = CHAPTER_WORDS + PART_WORDS + APPENDIX_WORDS
_CHAPTER_WORDS = _printed(CHAPTER_WORDS)
_PART_WORDS = _printed(PART_WORDS)
_APPENDIX_WORDS = _printed(APPENDIX_WORDS)

# Chinese and Japanese labels: "第一章 绪论", "第 2 章", "第三篇", "附录 A"
# (and Roman numerals, in letters or the Unicode forms: pTeX's manual prints "第 II 部")
_CJK_NUMBER = (
    r"(?:[0-9\uff10-\uff19\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341\u767e"
    r"\u96f6\u3007\u4e24]+|[IVX]{1,5}|[\u2160-\u216b])"
)
_CJK_CHAPTER = rf"\u7b2c\s*{_CJK_NUMBER}\s*\u7ae0"  # 第 … 章
_CJK_PART = rf"\u7b2c\s*{_CJK_NUMBER}\s*[\u7bc7\u90e8]"  # 第 … 篇 / 部
_CJK_APPENDIX = r"\u9644\s*\u5f55(?:\s*[A-Z0-9])?"  # 附录 A
# (title matching only) 第 … 节 / 節 / 条, a section's or an article's label; 付録 A, Japanese for 附录 A
_CJK_SECTION = rf"\u7b2c\s*{_CJK_NUMBER}\s*[\u8282\u7bc0\u6761]"
_CJK_APPENDIX_JA = r"\u4ed8\s*\u9332(?:\s*[A-Z0-9])?"
# Persian, Arabic and Hebrew chapter labels: "فصل اول", "فصل ۲", "الفصل الثاني", "פרק 3", "פרק ב"
# (a Persian ordinal ends in "م": "دوم", "سوم", "چهارم")
_ARABIC_DIGITS = "\u0660-\u0669\u06f0-\u06f9"  # Arabic-Indic and Persian (extended) digits
_RTL_DIGITS = f"0-9{_ARABIC_DIGITS}"
_ARABIC_ORDINALS = "|".join(
    "\u0627\u0644" + word
    for word in (
        "\u0623\u0648\u0644",
        "\u0627\u0648\u0644",
        "\u062b\u0627\u0646\u064a",
        "\u062b\u0627\u0644\u062b",
        "\u0631\u0627\u0628\u0639",
        "\u062e\u0627\u0645\u0633",
        "\u0633\u0627\u062f\u0633",
        "\u0633\u0627\u0628\u0639",
        "\u062b\u0627\u0645\u0646",
        "\u062a\u0627\u0633\u0639",
        "\u0639\u0627\u0634\u0631",
    )
)
# (فصل، الفصل، باب، الباب; then a number, "اول", "نخست", a Persian or an Arabic ordinal; or פרק)
_RTL_CHAPTER = (
    r"(?:(?:\u0627\u0644)?\u0641\u0635\u0644|(?:\u0627\u0644)?\u0628\u0627\u0628)\s+"
    rf"(?:[{_RTL_DIGITS}]{{1,3}}|\u0627\u0648\u0644|\u0646\u062e\u0633\u062a|[\u0600-\u06ff]{{1,5}}\u0645"
    rf"|{_ARABIC_ORDINALS})"
    rf"|\u05e4\u05e8\u05e7\s+(?:[{_RTL_DIGITS}]{{1,3}}|[\u05d0-\u05ea]{{1,2}}['\u05f3\u05f4\"]?)"  # פרק
)

_PATTERNS: tuple[tuple[str, int | None, re.Pattern[str]], ...] = (
    ("part", 0, re.compile(rf"^(?P<label>{_CJK_PART})\s*(?P<rest>.*)$")),
    ("chapter", 1, re.compile(rf"^(?P<label>{_CJK_CHAPTER})\s*(?P<rest>.*)$")),
    ("chapter", 1, re.compile(rf"^(?P<label>{_RTL_CHAPTER})(?:\s*[:.\-\u2013]\s*|\s+|$)(?P<rest>.*)$")),
    ("appendix", 1, re.compile(rf"^(?P<label>{_CJK_APPENDIX})(?:\s+|[:\uff1a]\s*|$)(?P<rest>.*)$")),
    (
        "part",
        0,
        re.compile(rf"^(?P<label>(?:{_PART_WORDS})\s+(?:{_ROMAN}|\d{{1,2}}|[A-Z]))\b{_SEP}\s*(?P<rest>.*)$"),
    ),
    (
        "chapter",
        1,
        re.compile(
            rf"^(?P<label>(?:{_CHAPTER_WORDS})\s+(?:\d{{1,3}}|{_ROMAN}|[A-Z][a-z]+))\b{_SEP}\s*(?P<rest>.*)$"
        ),
    ),
    (
        "appendix",
        1,
        re.compile(
            # (an appendix's sections may repeat its label: "Appendix A.1 Migrating from edmac")
            rf"^(?P<label>(?:{_APPENDIX_WORDS})(?:\s+(?:(?:[A-Z]|\d{{1,2}})(?:\.\d{{1,3}}){{0,4}}|{_ROMAN}))?)\b"
            rf"{_SEP}\s*(?P<rest>.*)$"
        ),
    ),
    (
        "article",
        1,
        re.compile(rf"^(?P<label>(?:ARTICLE|Article)\s+(?:\d{{1,3}}|{_ROMAN}))\b{_SEP}\s*(?P<rest>.*)$"),
    ),
    (
        "item",
        2,
        re.compile(
            # (a current report's items carry two decimals: "Item 2.02", "ITEM 9.01")
            r"^(?P<label>(?:ITEM|Item)\s+\d{1,2}(?:\.\d\d)?[A-Z]?)\b(?:\.|:|\s*[-\u2013\u2014])?\s*(?P<rest>.*)$"
        ),
    ),
    (
        "note",
        3,
        # a note to financial statements ("Note 1 - Revenue", "NOTE 7 - GOODWILL", "Note 2: Leases"):
        # its number, a stop, colon or dash, and a title; a bare "Note:" or "Note 1" is no heading
        re.compile(r"^(?P<label>(?:NOTE|Note)\s+\d{1,2})\s*(?:[.:]|[-\u2013\u2014])\s*(?P<rest>\S.*)$"),
    ),
    (
        "section",
        3,
        # (a bare "Section 2" is a label set over its title, as a slide deck's section page sets it)
        re.compile(r"^(?P<label>(?:SECTION|Section)\s+\d{1,3}(?:\.\d{1,3})*)\.?(?:\s+(?P<rest>\S.*))?$"),
    ),
    ("roman-alpha", 11, re.compile(rf"^(?P<label>{_ROMAN}-[A-Z](?:\d{{1,2}})?)\.?\s+(?P<rest>\S.*)$")),
    # (a Chinese title may follow its number without a space: "1简介")
    (
        "num",
        None,
        re.compile(r"^(?P<label>\d{1,3}(?:\.\d{1,3}){0,5})(?:\.?\s+|(?=[\u3400-\u9fff]))(?P<rest>\S.*)$"),
    ),
    # (Persian and Arabic theses join the numbers, in Arabic-Indic digits, with a dash: "\u06f2-\u06f3")
    (
        "num",
        None,
        re.compile(
            rf"^(?P<label>[{_ARABIC_DIGITS}]{{1,3}}(?:[.\-\u2212][{_ARABIC_DIGITS}]{{1,3}}){{0,5}})"
            r"\.?\s+(?P<rest>\S.*)$"
        ),
    ),
    ("alnum", None, re.compile(r"^(?P<label>[A-Z](?:\.\d{1,3}){1,5})\.?\s+(?P<rest>\S.*)$")),
    ("roman", 10, re.compile(rf"^(?P<label>(?=[IVXLC])(?:{_ROMAN}))\.\s+(?P<rest>\S.*)$")),
    ("alpha", None, re.compile(r"^(?P<label>[A-Z])\.\s+(?P<rest>\S.*)$")),
)

_DATE_REST = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?,?\s+\d{2,4}\b", re.IGNORECASE
)
# (middle dots as CJK fonts set them: U+00B7, U+A78F, U+30FB, U+2219; ellipses U+2026, U+22EF)
_TOC_LEADER = re.compile(
    r"(?:\.\s?){4,}|(?:_\s?){4,}|(?:[\u2026\u22ef]\s?){2,}|(?:[\u00b7\ua78f\u30fb\u2219]\s?){4,}"
)
_LEADER_MARK = re.compile(r"\.\.|\. \.|[_\u2026\u22ef\u00b7\ua78f\u30fb\u2219]")  # one is in every leader
_TRAILING_PAGE = re.compile(r"\S\s+(?:\d{1,4}|(?=[ivxlc])(?:x{0,3})(?:ix|iv|v?i{0,3}))$")


def classify(line: str) -> HeadingStyle | None:
    """Return the numbering style of ``line`` (stripped), or ``None`` if it has none.

    All-caps lines without numbering come back as ``caps``.
    """
    line = line.strip()
    if not line:
        return None
    for kind, order, pattern in _PATTERNS:
        m = pattern.match(line)
        if m is None:
            continue
        label = m.group("label")
        rest = (m.group("rest") or "").strip()
        if kind == "num" and _DATE_REST.match(rest):
            return None  # "2 July 2021 (release notes)" starts with a date, not a number
        if kind in ("num", "alnum"):
            label = label.replace("-", ".").replace("\u2212", ".")  # (the label as "\u06f2.\u06f3")
            depth = label.count(".") + 1
            return HeadingStyle(kind, 10 + depth, depth, label, rest)
        if kind == "section":
            depth = label.count(".") + 1
            return HeadingStyle(kind, order, depth, label, rest)
        if kind == "roman-alpha":
            return HeadingStyle(kind, order, 2, label, rest)
        if kind == "appendix" and "." in label:
            depth = label.count(".") + 1  # "Appendix A.1" ranks like "A.1"
            return HeadingStyle(kind, 10 + depth, depth, label, rest)
        return HeadingStyle(kind, order, 1, label, rest)
    if is_all_caps(line):
        return HeadingStyle("caps", None, 1, "", line)
    return None


def is_all_caps(line: str) -> bool:
    """Tell whether a line's letters (at least three) are all upper case."""
    if line.upper() != line:
        return False  # a lower-case letter (the common case, decided without a Python loop)
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def is_toc_line(line: str) -> bool:
    """Tell whether a line is a table-of-contents entry (dotted leaders)."""
    if _LEADER_MARK.search(line) is None:
        return False  # no leader can be there (most lines)
    stripped = line.strip()
    return bool(_TOC_LEADER.search(stripped))


def has_trailing_page_number(rest: str) -> bool:
    """Tell whether a title ends in a bare page number (``Risk Factors 12``)."""
    return bool(_TRAILING_PAGE.search(rest.strip()))


# Chinese and Japanese write words without spaces between them: ideographs and kana
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# the full stop, comma and enumeration comma of Chinese and Japanese text, and the full-width
# exclamation and question marks (not the semicolon: the items of an outline end in one)
_CJK_STOPS = "\u3002\uff0e\uff0c\u3001\uff01\uff1f"


def word_count(text: str) -> int:
    """Count the words of ``text``: spaced words, and one word per two characters of unspaced scripts.

    Chinese and Japanese set a sentence without spaces, so its spaced tokens
    undercount it (a line of prose can be three tokens); a word of either
    averages about two characters. Korean spaces its words and counts as
    spaced.
    """
    tokens = text.split()
    if not _UNSPACED.search(text):
        return len(tokens)  # (the common case, decided without a Python loop)
    return sum(max(1, (len(_UNSPACED.findall(token)) + 1) // 2) for token in tokens)


def letter_weight(token: str) -> int:
    """Return the length of ``token`` in letters, a Chinese or Japanese character counting three.

    An ideograph or kana stands for about as much as three letters of a
    spaced script (a word of either is about two characters, one of English
    about five letters).
    """
    return len(token) + 2 * len(_UNSPACED.findall(token))


def looks_like_sentence(text: str, *, max_words: int = 14, allow_lower: bool = False) -> bool:
    """Tell whether ``text`` reads like prose rather than a title.

    Prose ends in sentence punctuation (Chinese and Japanese too), runs long
    (:func:`word_count`), holds a Chinese or Japanese full stop before its
    end, or (unless ``allow_lower``) starts in lower case (a name such as
    ``iPhone`` is no lower-case start).
    """
    stripped = text.strip()
    if not stripped:
        return False
    if word_count(stripped) > max_words:
        return True
    if stripped[-1] in ",;" or (stripped[-1] in ".!?" and not stripped.endswith("..")):
        return True
    if stripped[-1] in _CJK_STOPS or "\u3002" in stripped[:-1]:
        return True  # "…模板。", or a full stop inside the line: "…模板。该模板是"
    first = next((c for c in stripped if c.isalpha()), "")
    # (a name that opens in lower case with a capital inside, "iPhone", "eBay", "macOS", is no
    # sentence's first word)
    name = stripped.split()[0].lstrip("(\"'\u2018\u201c")
    camel = name[:1].islower() and any(c.isupper() for c in name[1:])
    return not allow_lower and bool(first) and first.islower() and not camel


#: the heading kinds whose label word says "heading" by itself
LABEL_WORD_KINDS = frozenset({"part", "chapter", "appendix", "article", "item"})
_SMALL_WORD = re.compile(r"[^\W\d_]{1,3}")


def reads_as_labelled_title(style: HeadingStyle, *, max_words: int = 25) -> bool:
    """Tell whether a labelled heading (``Item 2.02``, ``PART II``) has a title, though it ends in a stop.

    Filings print their items' titles as one phrase ending in a full stop
    (``Item 2.02 Results of Operations and Financial Condition.``); a sentence
    after a label (``Item 2. The company had no sales.``) is no title. The
    title is one phrase of at most ``max_words`` words (its only full stop at
    its end; semicolons may join clauses, as in ``Departure of Directors ...;
    Election of Directors``, and a wrapped title's line may end at one),
    starting with a capital, with at least half its words of four letters or
    more (after the first) capitalised.
    """
    rest = style.rest.strip()
    if style.kind not in LABEL_WORD_KINDS or not rest or not rest[0].isupper():
        return False
    words = rest.rstrip(".").split()
    if len(words) > max_words or ". " in rest.rstrip(".") or rest.endswith(("..", ",", ":")):
        return False
    long_words = [w.strip("(),;:\"'\u2019") for w in words[1:]]
    long_words = [w for w in long_words if w and not _SMALL_WORD.fullmatch(w)]
    return not long_words or 2 * sum(w[0].isupper() for w in long_words) >= len(long_words)


_ASCII_PUNCTUATION = re.compile(r"[!-/:-@\[-^`{-~]")  # (not "_", a word character)
_NOT_WORD = re.compile(r"[^\w\s]")


def _mark_or_space(match: re.Match[str]) -> str:
    """Keep a combining mark (a Devanagari vowel sign is part of its word); punctuation is a space."""
    return match.group() if unicodedata.category(match.group())[0] == "M" else " "


# (letters with a stroke have no accent to drop; an outline in the one-byte encoding writes
# Vietnamese "Đ" as the Icelandic "Ð")
_STROKED = str.maketrans({"\u0111": "d", "\u00f0": "d", "\u00f8": "o", "\u0142": "l", "\u0127": "h"})


# letters that may carry an accent or have a stroke: Latin, Greek and Cyrillic, and the accents
_ACCENTABLE = re.compile("[\u00c0-\u024f\u0300-\u036f\u0370-\u04ff\u1e00-\u1fff]")


def _without_accents(text: str) -> str:
    """Drop the combining accents (U+0300-U+036F) of a lower-cased text; other scripts' marks stay."""
    if text.isascii() or _ACCENTABLE.search(text) is None:
        return text
    decomposed = unicodedata.normalize("NFD", text.translate(_STROKED))
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not 0x300 <= ord(c) <= 0x36F))


_CJK_NUMBERED = re.compile(r"^(\d{1,3}(?:\.\d{1,3})*)(?=[\u3400-\u9fff])")
_CJK_SPACED = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
# (matched on the lowered title: "第 ii 部")
_NORM_CJK_LABEL = re.compile(
    rf"^(?:{_CJK_CHAPTER}|{_CJK_PART}|{_CJK_SECTION}|{_CJK_APPENDIX}|{_CJK_APPENDIX_JA}"
    rf"|(?:{_RTL_CHAPTER})(?:\s*[:.\-\u2013]?\s+|$))\s*",
    re.IGNORECASE,
)
_NORM_NUMBER = re.compile(
    rf"^(?:(?:{'|'.join(map(_without_accents, _LABELS))}|article|item|note|section)\s+)?"
    rf"(?:\d{{1,3}}(?:\.\d{{1,3}})*|[{_ARABIC_DIGITS}]{{1,3}}(?:[-\u2212][{_ARABIC_DIGITS}]{{1,3}})*|[a-z](?:\.\d{{1,3}})*|{_ROMAN.lower()}(?:-[a-z])?)?[.:)]?\s+",
)


# an exercise's or a problem's label and number, the section number before it gone ("2.2 Problem 0:
# Einstein's Problem", "Aufgabe 5.1: Titelei"): bookmarks give the title with or without them
_NORM_EXERCISE = re.compile(
    r"^(?:exercises?|exercices?|ejercicio|esercizio|exercicio|aufgabe|ubung|problem|task)\s+"
    r"\d{1,3}(?:\.\d{1,3})*[.:)]?\s+"
)


#: numbers written as words, in order from zero (``Chapter One``, ``PART TWO``)
NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip

# a label numbered in words: "Chapter One", "PART TWO"
_NORM_WORD_NUMBER = re.compile(
    rf"^(?:{'|'.join(map(_without_accents, _LABELS))})\s+(?:{'|'.join(NUMBER_WORDS[1:])})[.:]?\s+"
)


def normalize_for_match(title: str) -> str:
    """Normalise a title for comparing headings with outline entries.

    Lower case, ligatures and quotes folded, numbering prefix (``2.1``,
    ``Chapter 3``, ``Chapter One``) and punctuation removed, whitespace
    collapsed, accents of the Latin, Greek and Cyrillic letters dropped: a
    bookmark kept in the PDF's one-byte encoding loses those that encoding
    lacks (Vietnamese ``Lời mở đầu`` is ``Loi mo dau`` in its outline).
    """
    text = _without_accents(unicodedata.normalize("NFKC", title).lower())
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = " ".join(text.split())
    text = _CJK_NUMBERED.sub(r"\1 ", text)  # "1简介" is numbered like "1 简介"
    cjk = _NORM_CJK_LABEL.match(text)
    if cjk and text[cjk.end() :].strip():
        text = text[cjk.end() :].strip()  # "第一章 绪论" is "绪论"; "附录 a 证明" is "证明"
    worded = _NORM_WORD_NUMBER.match(text + " ")
    if worded and any(ch.isalnum() for ch in text[worded.end() - 1 :]):
        text = text[worded.end() :].strip()  # (a label alone, "Chapter one .", keeps its words)
    elif _NORM_NUMBER.match(text + " "):
        stripped = _NORM_NUMBER.sub("", text + " ", count=1).strip()
        text = stripped or text  # "PART II" alone keeps its label
    exercise = _NORM_EXERCISE.match(text + " ")
    if exercise and text[exercise.end() - 1 :].strip():
        text = text[exercise.end() :].strip()  # ("Exercise 1" alone keeps its label)
    text = _ASCII_PUNCTUATION.sub(" ", text)
    if not text.isascii():
        text = _NOT_WORD.sub(_mark_or_space, text)
    text = _CJK_SPACED.sub("", text)  # "致 谢" spaced out as a short heading is "致谢"
    return " ".join(text.split())


# the dash between a name and what it is: an em or en dash, spaced or not, or a spaced "--"
_GLOSS_DASH = re.compile(r"\s*[\u2014\u2013]\s*|\s+--\s+")
# a programming name: punctuation of code, a capital inside a word ("DBErrno", "getValue"), digits
# inside one ("dbset2dstrlen"), or words in capitals joined by hyphens ("DATABASE-NAME")
_CODE_NAME = re.compile(r"[_():<>*\[\]]|[a-z][A-Z]|[A-Z]{2}[a-z]|[A-Za-z]\d+[A-Za-z]|^[A-Z]+(?:-[A-Z]+)+$")


def split_gloss(title: str) -> tuple[str, str] | None:
    """Split ``name \u2014 what it is`` at its first em or en dash, spaced or not.

    ``None`` when the title has no such dash or nothing on either side of it.
    """
    m = _GLOSS_DASH.search(title)
    if m is None:
        return None
    name, gloss = title[: m.start()].strip(), title[m.end() :].strip()
    return (name, gloss) if name and gloss else None


def reference_name(title: str) -> str | None:
    """Return the programming name a reference entry's heading glosses, else ``None``.

    ``DBErrno\u2014Get internal error number.`` names ``DBErrno``: one word
    written as code (see ``_CODE_NAME``), a dash, then two words or more of
    what it is. Reference manuals and their bookmarks title such an entry by
    its name; ``Chapter 3 \u2014 Results`` and ``Introduction\u2014Why`` are
    titles of their own.
    """
    parts = split_gloss(title)
    if parts is None:
        return None
    name, gloss = parts
    if len(name.split()) != 1 or len(gloss.split()) < 2 or not _CODE_NAME.search(name):
        return None
    return name
