"""Sentence boundaries with exact offsets (private).

:func:`split_sentences` finds sentence spans in ``text[start:end]`` without
copying or re-finding anything: every span is taken from the match positions.
It does not end a sentence at:

- decimals and amounts (``4.2 billion``, ``$1.5``): no whitespace follows the point;
- abbreviations and initialisms (``Mr.``, ``U.S.``, ``Inc.``, ``e.g.``, ``Fig. 3``,
  ``No. 5``, ``J. Smith``): a known list, single capitals, dotted initialisms,
  and any point followed by a lower-case word;
- list markers (``1.``, ``a)``) at the start of a line;
- sentence ends inside a short quotation (``He said "Stop. Now." and left.``);
- a line break inside a paragraph of hard-wrapped prose.

It does end one at a blank line (always), and at a single line break after a
heading-like line (``Refund Policy:``, ``# Title``, a short first line), before a
list item, and between table rows.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

__all__ = ["BREAK_LINE", "BREAK_PARAGRAPH", "BREAK_SPACE", "Sentences", "clause_cuts", "split_sentences"]

#: strength of the gap after a sentence: same line, a line break, a blank line
BREAK_SPACE = 1
BREAK_LINE = 2
BREAK_PARAGRAPH = 3

_CANDIDATE = re.compile(
    r"(?P<term>(?:[.!?\u2026]+|[\u3002\uff01\uff1f]+)[\"\u201d\u2019')\]\u300d\u300f]*)(?P<ws>\s*)"
    r"|(?P<nl>[ \t\r\f\v]*\n\s*)"
)
_QUOTE_OR_PARA = re.compile(r"[\"\u201c\u201d]|\n[ \t\r\f\v]*\n")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_BULLET = re.compile(r"(?:[-*+\u2022\u25aa\u2013]|\d{1,3}[.)]|[a-zA-Z][.)]|\(\w{1,4}\))\s")
_CLAUSE = re.compile(r"[,;:)\]\u2014\u2013](?=\s)|\s[\u2014\u2013-]\s")
_CJK_TERMINAL = "\u3002\uff01\uff1f"

#: never the end of a sentence when followed by whitespace
_NEVER = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "messrs",
        "mme",
        "mlle",
        "dr",
        "prof",
        "rev",
        "hon",
        "gen",
        "gov",
        "sen",
        "rep",
        "col",
        "capt",
        "lt",
        "sgt",
        "maj",
        "cmdr",
        "adm",
        "st",
        "mt",
        "ft",
        "e.g",
        "i.e",
        "cf",
        "vs",
        "viz",
        "approx",
        "ca",
        "esp",
        "incl",
    ]
)
#: not an end when a number follows (``No. 5``, ``Fig. 3``, ``pp. 10``)
_NUMBERED = frozenset(
    [
        "no",
        "nos",
        "fig",
        "figs",
        "vol",
        "vols",
        "p",
        "pp",
        "para",
        "paras",
        "sec",
        "secs",
        "ch",
        "chap",
        "art",
        "eq",
        "eqs",
        "ref",
        "refs",
        "tab",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_QUOTE_SPAN = 300  # a quotation longer than this may contain sentence ends


@dataclass(frozen=True, slots=True)
class Sentences:
    """Sentence spans of a region, in order, with the kind of gap after each.

    Attributes:
        spans: ``(start, end)`` of each sentence, trimmed of surrounding whitespace.
        breaks: ``breaks[i]`` is the gap after sentence ``i``: :data:`BREAK_SPACE`,
            :data:`BREAK_LINE` or :data:`BREAK_PARAGRAPH` (the last one is
            :data:`BREAK_PARAGRAPH`).
    """

    spans: list[tuple[int, int]]
    breaks: list[int]

    def __len__(self) -> int:
        return len(self.spans)


def _quoted(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Return the short quotations in ``text[start:end]`` (opening quote to closing quote)."""
    out: list[tuple[int, int]] = []
    open_at = -1
    for m in _QUOTE_OR_PARA.finditer(text, start, end):
        ch = m.group()
        if ch.startswith("\n"):
            open_at = -1  # quotes never pair across a paragraph
        elif ch == "\u201c" or (ch == '"' and open_at < 0):
            open_at = m.start()
        elif open_at >= 0:  # a closing quote
            if m.start() - open_at <= _QUOTE_SPAN:
                out.append((open_at, m.end()))
            open_at = -1
    return out


def _is_bullet_marker(text: str, word_start: int, region_start: int) -> bool:
    """Tell whether the word at ``word_start`` is the first thing on its line."""
    i = word_start
    while i > region_start and text[i - 1] in " \t":
        i -= 1
    return i == region_start or text[i - 1] == "\n"


def _period_ends_sentence(text: str, dot: int, nxt: int, start: int) -> bool:
    """Decide whether the ``.`` at ``dot`` ends a sentence; ``nxt`` is the next non-space."""
    j = dot
    while j > start and not text[j - 1].isspace():
        j -= 1
    word = text[j:dot].lstrip("(\"'\u201c\u2018[")
    if not word:
        return True
    low = word.lower()
    nxt_ch = text[nxt]
    if low in _NEVER:
        return False
    if len(word) == 1 and word.isalpha() and word.isupper():
        return False  # an initial: "J. Smith"
    if low in _NUMBERED and (nxt_ch.isdigit() or nxt_ch in "([#"):
        return False
    short_marker = len(word) <= 3 and (word.isdigit() or (len(word) == 1 and word.isalpha()))
    # "1. First item" at the start of a line is a list marker, not a sentence end
    return not (short_marker and _is_bullet_marker(text, j, start))


def _line_break_ends_sentence(text: str, line_start: int, line_end: int, nxt: int, region_start: int) -> bool:
    """Decide whether a single line break after ``text[line_start:line_end]`` ends a sentence."""
    line = text[line_start:line_end].strip()
    if not line:
        return True
    if line.startswith(("#", "|")) or line.endswith(":"):
        return True  # Markdown heading, table row, a label such as "Refund Policy:"
    if _BULLET.match(text, nxt):
        return True  # the next line is a list item
    if text[nxt] in "|#":
        return True  # a table row or a Markdown heading follows
    if _BULLET.match(line) and text[nxt - 1] == "\n":
        return True  # a list item whose next line is not indented
    # a short first line of a paragraph followed by a capitalised line: a heading
    if line_start <= region_start:
        first_line = True
    else:
        prev_nl = text.rfind("\n", region_start, line_start - 1)
        first_line = not text[max(prev_nl + 1, region_start) : line_start - 1].strip()
    return bool(
        first_line
        and len(line) <= 60
        and len(line.split()) <= 10
        and line[-1] not in ",;-\u2014"
        and (text[nxt].isupper() or text[nxt].isdigit())
    )


def split_sentences(
    text: str, start: int = 0, end: int | None = None, *, cuts: list[int] | None = None
) -> Sentences:
    """Split ``text[start:end]`` into sentences.

    Args:
        text: The whole text (offsets are offsets into it).
        start: Start of the region.
        end: End of the region (default: end of text).
        cuts: Offsets where a sentence must end (section starts); sorted.

    Returns:
        The sentences of the region; whitespace-only regions give none.
    """
    stop = len(text) if end is None else end
    if cuts:
        spans: list[tuple[int, int]] = []
        breaks: list[int] = []
        edges = [start, *(c for c in cuts if start < c < stop), stop]
        for a, b in itertools.pairwise(edges):
            part = _split_region(text, a, b)
            spans.extend(part.spans)
            breaks.extend(part.breaks)
        return Sentences(spans, breaks)
    return _split_region(text, start, stop)


def _split_region(text: str, start: int, stop: int) -> Sentences:
    spans: list[tuple[int, int]] = []
    breaks: list[int] = []
    pos = start
    while pos < stop and text[pos].isspace():
        pos += 1
    if pos >= stop:
        return Sentences(spans, breaks)
    pos0 = pos
    quotes = _quoted(text, pos, stop)
    qi = 0
    line_start = pos
    for m in _CANDIDATE.finditer(text, pos, stop):
        ws_start, ws_end = m.span("ws") if m.group("term") is not None else m.span("nl")
        if m.group("nl") is not None:
            nxt = ws_end
            if nxt >= stop:
                break
            gap = text[ws_start:ws_end]
            if _BLANK_LINE.search(gap) is not None:
                kind = BREAK_PARAGRAPH
            elif _line_break_ends_sentence(text, line_start, ws_start, nxt, pos0):
                kind = BREAK_LINE
            else:
                line_start = gap.rfind("\n") + ws_start + 1
                continue
            sent_end = ws_start
            line_start = gap.rfind("\n") + ws_start + 1
        else:
            term_start, sent_end = m.span("term")
            nxt = ws_end
            if nxt >= stop:
                break
            term = m.group("term")
            gap = text[ws_start:ws_end]
            if "\n" in gap:
                line_start = gap.rfind("\n") + ws_start + 1
            if not gap and term[0] not in _CJK_TERMINAL:
                continue  # "4.2", "U.S.A", "end.Next": no whitespace, no boundary
            if _BLANK_LINE.search(gap) is not None:
                kind = BREAK_PARAGRAPH
            else:
                while qi < len(quotes) and quotes[qi][1] <= term_start:
                    qi += 1
                if qi < len(quotes) and quotes[qi][0] < term_start and sent_end < quotes[qi][1]:
                    continue  # inside a short quotation
                nch = text[nxt]
                if nch.islower():
                    continue
                if (
                    term[0] == "."
                    and not term.startswith("..")
                    and not _period_ends_sentence(text, term_start, nxt, pos)
                ):
                    continue
                kind = BREAK_LINE if "\n" in gap else BREAK_SPACE
        if sent_end > pos:
            spans.append((pos, sent_end))
            breaks.append(kind)
        pos = nxt
    last = stop
    while last > pos and text[last - 1].isspace():
        last -= 1
    if last > pos:
        spans.append((pos, last))
        breaks.append(BREAK_PARAGRAPH)
    elif breaks:
        breaks[-1] = BREAK_PARAGRAPH
    return Sentences(spans, breaks)


def clause_cuts(text: str, start: int, end: int) -> list[int]:
    """Offsets just after clause punctuation (``,;:)`` and dashes) inside ``text[start:end]``."""
    out = []
    for m in _CLAUSE.finditer(text, start, end):
        cut = m.end() if not m.group().startswith((" ", "\t", "\n")) else m.start()
        if start < cut < end:
            out.append(cut)
    return out
