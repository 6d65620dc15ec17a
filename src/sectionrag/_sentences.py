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
list item, between table rows, and between the records of a log or a chat (lines
that begin the same way: ``[10:02] <bob>``, ``Alice:``, ``12:01``, ``{"role": ...``),
so a message is never run on into the next one.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BREAK_LINE", "BREAK_PARAGRAPH", "BREAK_SPACE", "Sentences", "clause_cuts", "split_sentences"]

#: strength of the gap after a sentence: same line, a line break, a blank line
BREAK_SPACE = 1
BREAK_LINE = 2
BREAK_PARAGRAPH = 3

_CLOSERS = "\"\u201d\u2019')\\]\u300d\u300f"
# group 1: a Western terminal run followed (after closers) by whitespace (group 2);
# group 3: whitespace after a CJK terminal (none needed); otherwise a line break
# (candidates start with rare characters, so the regex engine skips ahead fast).
# A terminal run is only tried from its first character (the lookbehind), so a
# long run of punctuation costs one pass, not one pass per character; the
# leading lookahead lets the engine skip to the next possible start quickly.
_CANDIDATE = re.compile(
    r"(?=[.!?\u2026\u3002\uff01\uff1f\n])"
    rf"(?:(?<![.!?\u2026])([.!?\u2026]+)[{_CLOSERS}]*(\s+)"
    rf"|[\u3002\uff01\uff1f]+[{_CLOSERS}]*(\s*)"
    r"|\n\s*)"
)
_QUOTE_OR_PARA = re.compile(r"[\"\u201c\u201d]|\n[ \t\r\f\v]*\n")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_BULLET = re.compile(r"(?:[-*+\u2022\u25aa\u2013]|\d{1,3}[.)]|[a-zA-Z][.)]|\(\w{1,4}\))\s")
# the start of a record of a log or a chat, by its kind (each alternative a group): a bracketed
# stamp or tag ("[10:02]", "<bob>"; "<jhr@research.att.com>" is an address), a clock time
# ("12:01:33"), a speaker ("Alice:", "DR. LEE:"), a JSON object ('{"role": "user", ...}')
_RECORD = re.compile(
    r"[ \t]*(?:(\[[^\]\n]{1,40}\]|<[^>@\n]{1,40}>)|(\d{1,2}:\d{2}(?::\d{2})?\b)"
    r"|([A-Z][\w.'\-]*(?: [A-Z][\w.'\-]*){0,3}:(?=[ \t]))|(\{\s*\"))"
)
_CLAUSE = re.compile(r"[,;:)\]\u2014\u2013](?=\s)|\s[\u2014\u2013-]\s")

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
_WORD_LOOKBACK = 64  # characters searched back for the word before a period


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
    lo = max(start, dot - _WORD_LOOKBACK)  # a longer word is no abbreviation: look no further back
    j = max(
        lo,
        text.rfind(" ", lo, dot) + 1,
        text.rfind("\n", lo, dot) + 1,
        text.rfind("\t", lo, dot) + 1,
    )
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


def _wiki_heading(line: str) -> bool:
    """Tell whether a stripped line is a wiki heading (``== History ==``, ``= = History = =``)."""
    return len(line) > 2 and line[0] == line[-1] == "=" and any(c.isalnum() for c in line)


def _record_kind(text: str, pos: int) -> int:
    """Return which kind of record start begins at ``pos`` (1-4, see ``_RECORD``), or 0."""
    m = _RECORD.match(text, pos)
    return 0 if m is None else m.lastindex or 0


def _another_record(text: str, kind: int, record: int, nxt: int, region_start: int, lines: int = 5) -> bool:
    """Tell whether the line after ``nxt``'s begins as ``kind``, or one of ``lines`` before ``record``'s does.

    The lines before are looked at back to the paragraph's start (a blank line).
    """
    after = text.find("\n", nxt) + 1
    if after > 0 and _record_kind(text, after) == kind:
        return True
    end = text.rfind("\n", region_start, record)  # the line break before the record's line
    for _ in range(lines):
        if end < region_start:
            return False
        begin = text.rfind("\n", region_start, end) + 1
        begin = max(begin, region_start)
        if not text[begin:end].strip():
            return False  # a blank line: the paragraph starts after it
        if _record_kind(text, begin) == kind:
            return True
        end = begin - 1
    return False


def _line_break_ends_sentence(
    text: str, line_start: int, line_end: int, nxt: int, region_start: int, sentence_start: int
) -> bool:
    """Decide whether a single line break after ``text[line_start:line_end]`` ends a sentence."""
    line = text[line_start:line_end].strip()
    if not line:
        return True
    kind = _record_kind(text, nxt)
    if kind:
        record = line_start if _record_kind(text, line_start) == kind else sentence_start
        # the next record of a log or a chat: it begins as this line (or sentence) did, and so does
        # another line beside them (records repeat; "<language> ... Robin Milner" over
        # "<rm@lfcs.ed.ac.uk>" in a paragraph is one sentence)
        if _record_kind(text, record) == kind and _another_record(text, kind, record, nxt, region_start):
            return True
    if line.startswith(("#", "|")) or line.endswith(":") or _wiki_heading(line):
        return True  # Markdown or wiki heading, table row, a label such as "Refund Policy:"
    if _BULLET.match(text, nxt):
        return True  # the next line is a list item
    end = text.find("\n", nxt)
    if text[nxt] in "|#" or _wiki_heading(text[nxt : len(text) if end < 0 else end].strip()):
        return True  # a table row or a Markdown or wiki heading follows
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
    text: str, start: int = 0, end: int | None = None, *, cuts: Sequence[int] | None = None
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
        lo, hi = bisect.bisect_right(cuts, start), bisect.bisect_left(cuts, stop)
        edges = [start, *cuts[lo:hi], stop]
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
    region = pos
    quotes = _quoted(text, pos, stop)
    qi, nq = 0, len(quotes)
    line_start = pos
    for m in _CANDIDATE.finditer(text, pos, stop):
        nxt = m.end()
        if nxt >= stop:
            break
        ws_start = m.start(2)
        if ws_start >= 0:  # Western sentence-final punctuation, then whitespace
            term_start = m.start()
            newlines = text.count("\n", ws_start, nxt)
            if newlines:
                line_start = text.rfind("\n", ws_start, nxt) + 1
            if newlines >= 2:
                kind = BREAK_PARAGRAPH
            else:
                while qi < nq and quotes[qi][1] <= term_start:
                    qi += 1
                if qi < nq and quotes[qi][0] < term_start and ws_start < quotes[qi][1]:
                    continue  # inside a short quotation
                if text[nxt].islower():
                    continue
                if (
                    m.end(1) - term_start == 1
                    and text[term_start] == "."
                    and not _period_ends_sentence(text, term_start, nxt, pos)
                ):
                    continue
                kind = BREAK_LINE if newlines else BREAK_SPACE
            sent_end = ws_start
        elif m.start(3) >= 0:  # CJK sentence-final punctuation
            sent_end = m.start(3)
            newlines = text.count("\n", sent_end, nxt)
            if newlines:
                line_start = text.rfind("\n", sent_end, nxt) + 1
            kind = BREAK_PARAGRAPH if newlines >= 2 else BREAK_LINE if newlines else BREAK_SPACE
        else:  # a line break without sentence-final punctuation
            ws_start = m.start()
            while ws_start > pos and text[ws_start - 1] in " \t\r\f\v":
                ws_start -= 1
            next_line = text.rfind("\n", ws_start, nxt) + 1
            if text.count("\n", ws_start, nxt) >= 2:
                kind = BREAK_PARAGRAPH
            elif (
                text[nxt].islower()
                and text[ws_start - 1] != ":"
                and text[line_start] not in "#|"
                and not _wiki_heading(text[line_start:ws_start].strip())
                and text[nxt + 1 : nxt + 2] not in (".", ")")
                and _BULLET.match(text, line_start) is None
            ) or not _line_break_ends_sentence(text, line_start, ws_start, nxt, region, pos):
                line_start = next_line  # hard-wrapped prose: the sentence goes on
                continue
            else:
                kind = BREAK_LINE
            sent_end = ws_start
            line_start = next_line
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
